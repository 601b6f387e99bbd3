/* The snapshot as JSON: srcprof/live's "v1" schema (docs/live.md), what
 * the page draws, /api/v1/snapshot answers and the stream sends. The
 * profiler's state and sampling first, then one object per source with its
 * passes, queues and work (medians and intervals a source does not have yet
 * are left out; work not counted is null). lv_snapshot_json keeps the one
 * JSON form of a snapshot that every viewer shares. */
#include "lv_out.h"

#include "srcprof/machine.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>

static void field_u64(lv_buf *b, const char *name, uint64_t v)
{
	lv_buf_printf(b, ",\"%s\":%" PRIu64, name, v);
}

static void field_bool(lv_buf *b, const char *name, bool v)
{
	lv_buf_printf(b, ",\"%s\":%s", name, v ? "true" : "false");
}

static void field_str(lv_buf *b, const char *name, const char *v)
{
	lv_buf_printf(b, ",\"%s\":", name);
	lv_buf_json_string(b, v);
}

/* ,"name":{"frames":N,"counters":{"vertices":{"avg":N,"max":N,"last":N},
 * ...}}: a counter the device does not count is null, as is the whole
 * object for w NULL (no counted frame). */
static void field_work(lv_buf *b, const char *name, const source_profiler_work_t *w)
{
	lv_buf_printf(b, ",\"%s\":", name);
	if (!w) {
		lv_buf_puts(b, "null");
		return;
	}
	lv_buf_printf(b, "{\"frames\":%u,\"counters\":{", w->samples);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		lv_buf_printf(b, "%s\"%s\":", c ? "," : "", lv_work_keys[c]);
		if (lv_work_counted(w, c))
			lv_buf_printf(b, "{\"avg\":%" PRIu64 ",\"max\":%" PRIu64 ",\"last\":%" PRIu64 "}",
				      w->avg[c], w->max[c], w->last[c]);
		else
			lv_buf_puts(b, "null");
	}
	lv_buf_puts(b, "}}");
}

static void row_json(lv_buf *b, const lv_snapshot *s, const lv_row *w)
{
	const profiler_result_t *r = &w->r;
	lv_buf_printf(b, "{\"id\":%u", w->id);
	field_str(b, "source", w->name);
	field_str(b, "type", w->type);
	field_bool(b, "have", w->have);
	if (!w->have) {
		lv_buf_put(b, "}", 1);
		return;
	}
	field_bool(b, "async", w->async);
	field_u64(b, "tick_avg_ns", r->tick_avg);
	field_u64(b, "tick_max_ns", r->tick_max);
	field_u64(b, "render_avg_ns", r->render_avg);
	field_u64(b, "render_max_ns", r->render_max);
	field_u64(b, "render_sum_ns", r->render_sum);
	field_u64(b, "render_gpu_avg_ns", r->render_gpu_avg);
	field_u64(b, "render_gpu_max_ns", r->render_gpu_max);
	field_u64(b, "render_gpu_sum_ns", r->render_gpu_sum);
	lv_buf_printf(b, ",\"async_input_fps\":%.3f", r->async_input);
	field_u64(b, "async_input_best_ns", r->async_input_best);
	field_u64(b, "async_input_worst_ns", r->async_input_worst);
	lv_buf_printf(b, ",\"async_rendered_fps\":%.3f", r->async_rendered);
	field_u64(b, "async_rendered_best_ns", r->async_rendered_best);
	field_u64(b, "async_rendered_worst_ns", r->async_rendered_worst);
	field_u64(b, "cpu_samples", w->cpu_n);
	field_u64(b, "gpu_samples", w->gpu_n);
	if (w->have_med) {
		field_u64(b, "tick_p50_ns", w->m.tick_p50);
		field_u64(b, "render_p50_ns", w->m.render_p50);
		field_u64(b, "render_sum_p50_ns", w->m.render_sum_p50);
		field_u64(b, "render_gpu_p50_ns", w->m.render_gpu_p50);
		field_u64(b, "render_gpu_sum_p50_ns", w->m.render_gpu_sum_p50);
	}
	if (w->have_ci) {
		field_u64(b, "tick_ci95_ns", w->iv.tick_ci95);
		field_u64(b, "render_ci95_ns", w->iv.render_ci95);
		field_u64(b, "render_sum_ci95_ns", w->iv.render_sum_ci95);
		field_u64(b, "render_gpu_ci95_ns", w->iv.render_gpu_ci95);
		field_u64(b, "render_gpu_sum_ci95_ns", w->iv.render_gpu_sum_ci95);
	}
	field_work(b, "work", w->work ? &w->work->total : NULL);
	lv_buf_puts(b, ",\"passes\":[");
	for (uint32_t p = 0; p < w->n_pass; p++) {
		const source_profiler_pass_result_t *pr = &w->pass[p];
		lv_buf_printf(b, "%s{\"pass\":%u", p ? "," : "", pr->pass);
		field_str(b, "name", lv_pass_name(s, pr->pass));
		field_u64(b, "render_avg_ns", pr->render_avg);
		field_u64(b, "render_max_ns", pr->render_max);
		field_u64(b, "render_gpu_avg_ns", pr->render_gpu_avg);
		field_u64(b, "render_gpu_max_ns", pr->render_gpu_max);
		field_u64(b, "queue", w->pass_queue[p]);
		field_str(b, "queue_name", lv_queue_name(s, w->pass_queue[p]));
		field_work(b, "work", w->work && p < w->work->n_pass ? &w->work->pass[p] : NULL);
		lv_buf_put(b, "}", 1);
	}
	lv_buf_put(b, "]", 1);
	if (lv_several_queues(s)) {
		lv_buf_puts(b, ",\"queues\":[");
		for (uint32_t q = 0; q < w->n_queue; q++) {
			const source_profiler_queue_result_t *qr = &w->queue[q];
			lv_buf_printf(b, "%s{\"queue\":%u", q ? "," : "", qr->queue);
			field_str(b, "name", lv_queue_name(s, qr->queue));
			field_u64(b, "render_gpu_sum_ns", qr->render_gpu_sum);
			field_u64(b, "render_gpu_max_ns", qr->render_gpu_max);
			field_u64(b, "gpu_samples", qr->gpu_samples);
			lv_buf_put(b, "}", 1);
		}
		lv_buf_put(b, "]", 1);
	}
	lv_buf_put(b, "}", 1);
}

void lv_snapshot_write_json(const lv_snapshot *s, const lv_info *info, uint32_t limit, lv_buf *b)
{
	const source_profiler_stats_t *st = &s->st;
	const source_profiler_sampling_t *sm = &s->sm;
	lv_buf_printf(b, "{\"schema\":\"srcprof-live/1\",\"seq\":%" PRIu64 ",\"time_ms\":%" PRId64
			 ",\"mono_ns\":%" PRIu64,
		      s->seq, s->wall_ms, s->mono_ns);
	field_str(b, "program", info->program);
	field_str(b, "api", info->api);
	field_str(b, "device", info->device);
	field_bool(b, "software_device", info->software);
	field_u64(b, "target_fps", info->target_fps);

	lv_buf_puts(b, ",\"profiler\":{");
	lv_buf_printf(b, "\"enabled\":%s", st->enabled ? "true" : "false");
	field_bool(b, "gpu_enabled", st->gpu_enabled);
	field_str(b, "gpu_mode", st->enabled && st->gpu_enabled ? s->gpu_mode : "off");
	field_u64(b, "window_capacity", st->window_capacity);
	field_u64(b, "sources", st->sources);
	field_u64(b, "frames_in_flight", s->frames_in_flight);
	field_u64(b, "frames_collected", st->frames_collected);
	field_u64(b, "gpu_frames_collected", st->gpu_frames_collected);
	field_u64(b, "gpu_frames_disjoint", st->gpu_frames_disjoint);
	field_u64(b, "gpu_disjoint_backend", st->gpu_disjoint_backend);
	field_u64(b, "gpu_disjoint_order", st->gpu_disjoint_order);
	field_u64(b, "gpu_disjoint_range", st->gpu_disjoint_range);
	field_u64(b, "gpu_disjoint_unavailable", st->gpu_disjoint_unavailable);
	field_u64(b, "gpu_disjoint_overflow", st->gpu_disjoint_overflow);
	field_u64(b, "gpu_resolution_ns", st->enabled && st->gpu_enabled ? st->gpu_resolution_ns : 0);
	field_u64(b, "gpu_timer_overhead_ns", st->gpu_timer_overhead_ns);
	field_u64(b, "gpu_frame_avg_ns", st->gpu_frame_avg_ns);
	field_u64(b, "gpu_frame_max_ns", st->gpu_frame_max_ns);
	field_u64(b, "ignored_calls", st->ignored_calls);
	field_u64(b, "saturated_samples", st->saturated_samples);
	field_u64(b, "bytes", st->bytes);
	/* Threads and queues: the profiler's queues by number, the threads
	 * recording besides the graphics thread, and what they lost. */
	field_u64(b, "gpu_queues", st->gpu_queues);
	lv_buf_puts(b, ",\"queues\":[");
	bool comma = false;
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		if (!s->queue_names[q][0])
			continue;
		lv_buf_printf(b, "%s{\"queue\":%u", comma ? "," : "", q);
		field_str(b, "name", s->queue_names[q]);
		lv_buf_put(b, "}", 1);
		comma = true;
	}
	lv_buf_put(b, "]", 1);
	field_u64(b, "threads", st->threads);
	field_u64(b, "thread_bytes", st->thread_bytes);
	field_u64(b, "threads_refused", st->threads_refused);
	field_u64(b, "records_late", st->records_late);
	field_u64(b, "records_dropped", st->records_dropped);
	field_u64(b, "gpu_timers_unavailable", st->gpu_timers_unavailable);
	field_u64(b, "gpu_timers_misplaced", st->gpu_timers_misplaced);
	field_u64(b, "gpu_timers_denied", st->gpu_timers_denied);
	lv_buf_put(b, "}", 1);

	lv_buf_puts(b, ",\"sampling\":{");
	lv_buf_printf(b, "\"budget_pct\":%.3f", sm->budget_pct);
	field_bool(b, "costly", sm->costly);
	field_u64(b, "timed_every", sm->timed_every);
	field_u64(b, "frames_timed", sm->frames_timed);
	field_bool(b, "burst", sm->burst);
	field_u64(b, "burst_samples", sm->burst_samples);
	field_u64(b, "burst_target", sm->burst_target);
	field_bool(b, "tracing", sm->tracing);
	field_u64(b, "frame_median_ns", sm->frame_ns);
	lv_buf_put(b, "}", 1);

	lv_buf_puts(b, ",\"machine\":{\"others_pct\":");
	lv_buf_json_double(b, s->others_pct >= 0 ? s->others_pct : NAN, 1);
	field_bool(b, "busy", s->others_pct > SRCPROF_BUSY_PCT);
	lv_buf_printf(b, ",\"busy_threshold_pct\":%.1f}", SRCPROF_BUSY_PCT);
	lv_buf_puts(b, ",\"frame\":{\"mean_ns\":");
	lv_buf_json_double(b, s->frame_mean_ns > 0 ? s->frame_mean_ns : NAN, 0);
	lv_buf_put(b, "}", 1);
	field_bool(b, "work_enabled", s->work_enabled);
	field_work(b, "frame_work", s->have_frame_work ? &s->frame_work : NULL);

	uint32_t n = limit && limit < s->n_rows ? limit : s->n_rows;
	lv_buf_printf(b, ",\"sources_total\":%u,\"sources\":[", s->n_rows);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			lv_buf_put(b, ",", 1);
		row_json(b, s, &s->rows[i]);
	}
	lv_buf_puts(b, "]}\n");
}

const char *lv_snapshot_json(lv_snapshot *s, size_t *len)
{
	pthread_mutex_lock(&s->json_lock);
	if (!s->json) {
		lv_buf b = {0};
		lv_snapshot_write_json(s, s->info, 0, &b);
		s->json = lv_buf_take(&b, &s->json_len);
	}
	const char *json = s->json;
	*len = s->json_len;
	pthread_mutex_unlock(&s->json_lock);
	return json;
}
