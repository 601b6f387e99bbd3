#include "runlog.h"
#include "srcprof_base/csv.h"

#include <stdlib.h>
#include <string.h>

#define LOG_PERIOD_NS 1000000000ull

void runlog_start(runlog *l, FILE *f, const char *path, const capture_meta *m, uint64_t now_ns)
{
	l->f = f;
	snprintf(l->path, sizeof l->path, "%s", path);
	l->start_ns = now_ns;
	l->next_ns = now_ns + LOG_PERIOD_NS;
	l->last_ns = now_ns;
	l->rows = 0;
	l->failed = false;
	capture_write_csv_header(f, m, "log: one row per source per second");
	fputs("time_s,frame,source,type,tick_avg_ns,tick_max_ns,render_avg_ns,render_max_ns,"
	      "render_sum_ns,render_gpu_avg_ns,render_gpu_max_ns,render_gpu_sum_ns,"
	      "async_input_fps,async_rendered_fps,cpu_samples,gpu_samples,gpu_timing,"
	      "render_sum_p50_ns,render_gpu_sum_p50_ns,gpu_resolution_ns,work_frames,"
	      "input_vertices_per_frame,input_primitives_per_frame,vs_invocations_per_frame,"
	      "clipping_invocations_per_frame,clipping_primitives_per_frame,"
	      "fs_invocations_per_frame,cs_invocations_per_frame\n",
	      f);
	fflush(f);
}

/* A row for every source with results, at now_ns. */
static void write_rows(runlog *l, eng_engine *e, uint64_t now_ns)
{
	l->last_ns = now_ns;
	if (!rows_reserve(&l->buf, &l->cap, eng_source_count(e) + 1)) {
		l->failed = true;
		return;
	}
	if (!rows_refresh_medians(e, &l->med, 0)) {
		l->failed = true;
		return;
	}
	uint32_t n = rows_gather(e, l->buf, l->cap, true, &l->med);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	const char *mode = st.gpu_enabled ? st.gpu_mode : "off";
	double t = (double)(now_ns - l->start_ns) * 1e-9;
	unsigned long long frame = (unsigned long long)eng_frame_index(e);
	for (uint32_t i = 0; i < n; i++) {
		const src_row *w = &l->buf[i];
		if (!w->have)
			continue;
		const profiler_result_t *r = &w->r;
		fprintf(l->f, "%.3f,%llu,", t, frame);
		csv_field(l->f, w->source ? w->name : "overlay"); /* as the snapshots name it */
		fputc(',', l->f);
		csv_field(l->f, w->type);
		fprintf(l->f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%.3f,%u,%u,",
			(unsigned long long)r->tick_avg, (unsigned long long)r->tick_max,
			(unsigned long long)r->render_avg, (unsigned long long)r->render_max,
			(unsigned long long)r->render_sum, (unsigned long long)r->render_gpu_avg,
			(unsigned long long)r->render_gpu_max, (unsigned long long)r->render_gpu_sum,
			r->async_input, r->async_rendered, w->cpu_samples, w->gpu_samples);
		csv_field(l->f, mode);
		/* The overlay's row has no medians: empty fields. */
		if (w->have_med)
			fprintf(l->f, ",%llu,%llu,", (unsigned long long)w->m.render_sum_p50,
				(unsigned long long)w->m.render_gpu_sum_p50);
		else
			fputs(",,,", l->f);
		fprintf(l->f, "%llu",
			st.gpu_enabled ? (unsigned long long)st.gpu_resolution_ns : 0ull);
		rows_work_fields(l->f, w->key);
		fputc('\n', l->f);
		l->rows++;
	}
	/* Flushed every second: a log cut short by a crash still holds every
	 * second before it. */
	if (fflush(l->f) != 0 || ferror(l->f))
		l->failed = true;
}

void runlog_frame(runlog *l, eng_engine *e, uint64_t now_ns)
{
	if (!l->f || now_ns < l->next_ns)
		return;
	/* One row set per second; a long frame skips the seconds it hid. */
	while (l->next_ns <= now_ns)
		l->next_ns += LOG_PERIOD_NS;
	write_rows(l, e, now_ns);
}

bool runlog_stop(runlog *l, eng_engine *e, uint64_t now_ns)
{
	if (!l->f)
		return true;
	/* The part of a second since the last rows is kept too (a log shorter
	 * than a second still has its rows). */
	if (e && now_ns > l->last_ns + 1000000)
		write_rows(l, e, now_ns);
	bool ok = !l->failed && !ferror(l->f);
	ok = fclose(l->f) == 0 && ok;
	l->f = NULL;
	return ok;
}

void runlog_free(runlog *l)
{
	free(l->buf);
	l->buf = NULL;
	rows_median_cache_free(&l->med);
	l->cap = 0;
}
