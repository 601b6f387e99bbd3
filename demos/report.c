#include "report.h"

#include "srcprof/source_profiler.h"

#include <stdlib.h>
#include <string.h>

typedef struct row {
	const eng_source *s;
	profiler_result_t r;
	bool have;
} row;

static int by_gpu_sum(const void *a, const void *b)
{
	const row *x = a, *y = b;
	if (x->r.render_gpu_sum != y->r.render_gpu_sum)
		return x->r.render_gpu_sum > y->r.render_gpu_sum ? -1 : 1;
	if (x->r.render_sum != y->r.render_sum)
		return x->r.render_sum > y->r.render_sum ? -1 : 1;
	return strcmp(x->s->name, y->s->name);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

void report_print(FILE *out, eng_engine *e, uint32_t limit)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint32_t n = eng_source_count(e);
	row *rows = calloc(n ? n : 1, sizeof *rows);
	if (!rows)
		return;
	for (uint32_t i = 0; i < n; i++) {
		rows[i].s = eng_source_at(e, i);
		rows[i].have = source_profiler_fill_result(rows[i].s, &rows[i].r);
	}
	qsort(rows, n, sizeof *rows, by_gpu_sum);

	fprintf(out, "\nsrcprof: %s on %s (%s); GPU timing: %s%s\n", info.api, info.device,
		info.driver, st.gpu_enabled ? info.gpu_timing : "off",
		info.software ? " (software device)" : "");
	fprintf(out, "window: %u frames; collected %llu frames, GPU %llu kept, %llu dropped as "
		     "disjoint; times in microseconds\n",
		st.window_capacity, (unsigned long long)st.frames_collected,
		(unsigned long long)st.gpu_frames_collected,
		(unsigned long long)st.gpu_frames_disjoint);
	if (st.gpu_enabled && st.gpu_timer_overhead_ns)
		fprintf(out, "GPU timers: every source timed in 1 frame of %u (budget), each timer's own "
			     "cost %.1f us subtracted\n",
			eng_gpu_timed_every(e), (double)st.gpu_timer_overhead_ns / 1000.0);
	fprintf(out, "%-24s %-9s %9s %9s %9s %9s %9s %10s %10s %10s %7s %7s\n", "source", "type",
		"tick", "tick max", "render", "rend max", "rend sum", "GPU", "GPU max", "GPU sum",
		"in fps", "out fps");
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n && (!limit || shown < limit); i++, shown++) {
		const row *w = &rows[i];
		const profiler_result_t *r = &w->r;
		fprintf(out, "%-24.24s %-9.9s ", w->s->name, w->s->type->name);
		if (!w->have) {
			fprintf(out, "(no samples yet)\n");
			continue;
		}
		fprintf(out, "%9.1f %9.1f %9.1f %9.1f %9.1f %10.1f %10.1f %10.1f", us(r->tick_avg),
			us(r->tick_max), us(r->render_avg), us(r->render_max), us(r->render_sum),
			us(r->render_gpu_avg), us(r->render_gpu_max), us(r->render_gpu_sum));
		if (w->s->flags & ENG_SOURCE_ASYNC)
			fprintf(out, " %7.1f %7.1f\n", r->async_input, r->async_rendered);
		else
			fprintf(out, " %7s %7s\n", "-", "-");
	}
	if (limit && n > limit)
		fprintf(out, "... %u more sources\n", n - limit);
	free(rows);
}
