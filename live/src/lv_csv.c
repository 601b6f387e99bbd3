/* The snapshot as CSV (/api/v1/snapshot?format=csv): a few "# " lines
 * saying what was profiled and the units, then one row per source with the
 * columns of the profiler's own CSV (source_profiler_write_csv) in its
 * order, quoted as it quotes, so that a live snapshot and a program's exit
 * CSV can be compared column by column (the live tests do). */
#include "lv_out.h"
#include "srcprof_base/csv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The profiler's CSV columns for work (source_profiler_write_csv). */
#define WORK_CSV_HEADER                                                                       \
	"work_frames,input_vertices_per_frame,input_primitives_per_frame,"                    \
	"vs_invocations_per_frame,clipping_invocations_per_frame,"                            \
	"clipping_primitives_per_frame,fs_invocations_per_frame,cs_invocations_per_frame"

/* A CSV field, quoted where the house's rule says (as the profiler's CSV). */
static void put_field(lv_buf *b, const char *v)
{
	if (!csv_needs_quotes(v)) {
		lv_buf_puts(b, v);
		return;
	}
	lv_buf_put(b, "\"", 1);
	for (; *v; v++) {
		if (*v == '"')
			lv_buf_put(b, "\"", 1);
		lv_buf_put(b, v, 1);
	}
	lv_buf_put(b, "\"", 1);
}

/* ",frames,avg,..." as the profiler's CSV writes them: a counter the
 * device cannot count is n/a; without counts 0 frames and n/a while work
 * counting is on, empty fields while it is off. */
static void csv_work(lv_buf *b, const lv_snapshot *s, const source_profiler_work_t *w)
{
	if (!w) {
		lv_buf_puts(b, s->work_enabled ? ",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a" : ",,,,,,,,");
		return;
	}
	lv_buf_printf(b, ",%u", w->samples);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (lv_work_counted(w, c))
			lv_buf_printf(b, ",%" PRIu64, w->avg[c]);
		else
			lv_buf_puts(b, ",n/a");
}

void lv_snapshot_write_csv(const lv_snapshot *s, const lv_info *info, lv_buf *b)
{
	const char *mode = s->st.enabled && s->st.gpu_enabled ? s->gpu_mode : "off";
	uint64_t resolution = s->st.enabled && s->st.gpu_enabled ? s->st.gpu_resolution_ns : 0;
	lv_buf_puts(b, "# srcprof live snapshot: every source's results over the window\n# program: ");
	lv_buf_puts(b, info->program);
	lv_buf_puts(b, "\n# api: ");
	lv_buf_puts(b, info->api);
	lv_buf_puts(b, "\n# device: ");
	lv_buf_puts(b, info->device);
	lv_buf_printf(b, "\n# snapshot: %" PRIu64 ", time %" PRId64 " ms since 1970\n", s->seq,
		      s->wall_ms);
	lv_buf_puts(b, "# units: each column name ends in its unit: _ns nanoseconds, _fps frames "
		       "per second, _per_frame a count per frame (n/a: not counted by the device; "
		       "empty: work counting off)\n");
	lv_buf_puts(b, "source,tick_avg_ns,tick_max_ns,render_avg_ns,render_max_ns,render_sum_ns,"
		       "render_gpu_avg_ns,render_gpu_max_ns,render_gpu_sum_ns,async_input_fps,"
		       "async_input_best_ns,async_input_worst_ns,async_rendered_fps,"
		       "async_rendered_best_ns,async_rendered_worst_ns,gpu_mode,cpu_samples,"
		       "gpu_samples,tick_p50_ns,render_p50_ns,render_sum_p50_ns,render_gpu_p50_ns,"
		       "render_gpu_sum_p50_ns,gpu_resolution_ns,render_sum_ci95_ns,"
		       "render_gpu_sum_ci95_ns,gpu_sum_by_queue_ns," WORK_CSV_HEADER ",type\n");
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const lv_row *w = &s->rows[i];
		if (!w->have)
			continue;
		const profiler_result_t *r = &w->r;
		put_field(b, w->name);
		lv_buf_printf(b,
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64
			      ",%" PRIu64 ",",
			      r->tick_avg, r->tick_max, r->render_avg, r->render_max, r->render_sum,
			      r->render_gpu_avg, r->render_gpu_max, r->render_gpu_sum, r->async_input,
			      r->async_input_best, r->async_input_worst, r->async_rendered,
			      r->async_rendered_best, r->async_rendered_worst);
		put_field(b, mode);
		source_profiler_medians_t m = w->have_med ? w->m : (source_profiler_medians_t){0};
		source_profiler_intervals_t iv = w->have_ci ? w->iv : (source_profiler_intervals_t){0};
		lv_buf_printf(b,
			      ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
			      w->cpu_n, w->gpu_n, m.tick_p50, m.render_p50, m.render_sum_p50,
			      m.render_gpu_p50, m.render_gpu_sum_p50, resolution, iv.render_sum_ci95,
			      iv.render_gpu_sum_ci95);
		/* As the profiler's CSV writes it: "graphics:5839000;compute:864800". */
		char queues[SOURCE_PROFILER_MAX_QUEUES * (LV_QUEUE_NAME_MAX + 24)] = "";
		size_t len = 0;
		for (uint32_t q = 0; q < w->n_queue; q++) {
			int n = snprintf(queues + len, sizeof queues - len, "%s%s:%" PRIu64, q ? ";" : "",
					 lv_queue_name(s, w->queue[q].queue), w->queue[q].render_gpu_sum);
			if (n < 0 || (size_t)n >= sizeof queues - len)
				break;
			len += (size_t)n;
		}
		put_field(b, queues);
		csv_work(b, s, w->work ? &w->work->total : NULL);
		lv_buf_put(b, ",", 1);
		put_field(b, w->type);
		lv_buf_put(b, "\n", 1);
	}
}
