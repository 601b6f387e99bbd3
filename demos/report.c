#include "report.h"

#include "srcprof/source_profiler.h"

#include <stdlib.h>
#include <string.h>

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

void report_print(FILE *out, eng_engine *e, const char *scene, row_sort sort, uint32_t limit)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint32_t n = eng_source_count(e), cap = 0;
	src_row *rows = NULL;
	if (!rows_reserve(&rows, &cap, n ? n : 1))
		return;
	n = rows_gather(e, rows, cap, false);
	bool gpu = st.enabled && st.gpu_enabled;
	rows_sort(rows, n, sort, gpu);

	fprintf(out, "\nsrcprof: %s on %s (%s); GPU timing: %s%s\n", info.api, info.device,
		info.driver, gpu ? info.gpu_timing : "off", info.software ? " (software device)" : "");
	fprintf(out, "scene %s: %u sources, sorted by %s\n", scene, n,
		rows_sort_name(rows_effective_sort(sort, gpu)));
	fprintf(out, "window: %u frames; collected %llu frames, GPU %llu kept, %llu dropped as "
		     "disjoint; times in microseconds\n",
		st.window_capacity, (unsigned long long)st.frames_collected,
		(unsigned long long)st.gpu_frames_collected,
		(unsigned long long)st.gpu_frames_disjoint);
	if (gpu && st.gpu_timer_overhead_ns)
		fprintf(out, "GPU timers: every source timed in 1 frame of %u (budget), each timer's own "
			     "cost %.1f us subtracted\n",
			eng_gpu_timed_every(e), (double)st.gpu_timer_overhead_ns / 1000.0);
	fprintf(out, "%-24s %-9s %9s %9s %9s %9s %9s %10s %10s %10s %7s %7s\n", "source", "type",
		"tick", "tick max", "render", "rend max", "rend sum", "GPU", "GPU max", "GPU sum",
		"in fps", "out fps");
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n && (!limit || shown < limit); i++, shown++) {
		const src_row *w = &rows[i];
		const profiler_result_t *r = &w->r;
		fprintf(out, "%-24.24s %-9.9s ", w->name, w->type);
		if (!w->have) {
			fprintf(out, "(no samples yet)\n");
			continue;
		}
		fprintf(out, "%9.1f %9.1f %9.1f %9.1f %9.1f", us(r->tick_avg), us(r->tick_max),
			us(r->render_avg), us(r->render_max), us(r->render_sum));
		if (gpu)
			fprintf(out, " %10.1f %10.1f %10.1f", us(r->render_gpu_avg),
				us(r->render_gpu_max), us(r->render_gpu_sum));
		else
			fprintf(out, " %10s %10s %10s", "off", "off", "off");
		if (w->async)
			fprintf(out, " %7.1f %7.1f\n", r->async_input, r->async_rendered);
		else
			fprintf(out, " %7s %7s\n", "-", "-");
	}
	if (limit && n > limit)
		fprintf(out, "... %u more sources\n", n - limit);
	free(rows);
}
