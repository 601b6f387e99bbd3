/* A snapshot written out: JSON (the page, /api/v1/snapshot), CSV and
 * Prometheus' text format (/metrics). Field names are those of the
 * profiler's CSV (source_profiler_write_csv), units in their names; the
 * work counters' keys in JSON and /metrics are srcprof-bench's. */
#include "lv_model.h"

#include "srcprof/machine.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

static const char *pass_name(const lv_snapshot *s, uint32_t pass)
{
	const char *n = pass < SOURCE_PROFILER_MAX_PASSES ? s->pass_names[pass] : "";
	return n[0] ? n : "default";
}

static const char *queue_name(const lv_snapshot *s, uint32_t queue)
{
	const char *n = queue < SOURCE_PROFILER_MAX_QUEUES ? s->queue_names[queue] : "";
	return n[0] ? n : "?";
}

/* --- Work counters ----------------------------------------------------- */

/* Each counter's key in JSON and /metrics, in source_profiler_counter's
 * order: those of srcprof-bench's JSON. */
static const char *const g_work_keys[SOURCE_PROFILER_COUNTERS] = {
	"vertices", "primitives", "vs_invocations", "clip_in", "clip_out", "fs_invocations",
	"cs_invocations"};
_Static_assert(SOURCE_PROFILER_COUNTERS == 7, "a key per counter");

/* The profiler's CSV columns for work (source_profiler_write_csv). */
#define WORK_CSV_HEADER                                                                       \
	"work_frames,input_vertices_per_frame,input_primitives_per_frame,"                    \
	"vs_invocations_per_frame,clipping_invocations_per_frame,"                            \
	"clipping_primitives_per_frame,fs_invocations_per_frame,cs_invocations_per_frame"

static bool counted(const source_profiler_work_t *w, int c)
{
	return w->counted >> c & 1u;
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
		lv_buf_printf(b, "%s\"%s\":", c ? "," : "", g_work_keys[c]);
		if (counted(w, c))
			lv_buf_printf(b, "{\"avg\":%" PRIu64 ",\"max\":%" PRIu64 ",\"last\":%" PRIu64 "}",
				      w->avg[c], w->max[c], w->last[c]);
		else
			lv_buf_puts(b, "null");
	}
	lv_buf_puts(b, "}}");
}

/* More than one GPU queue installed: each source's figures per queue are
 * written too. */
static bool several_queues(const lv_snapshot *s)
{
	return s->st.gpu_queues > 1;
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
		field_str(b, "name", pass_name(s, pr->pass));
		field_u64(b, "render_avg_ns", pr->render_avg);
		field_u64(b, "render_max_ns", pr->render_max);
		field_u64(b, "render_gpu_avg_ns", pr->render_gpu_avg);
		field_u64(b, "render_gpu_max_ns", pr->render_gpu_max);
		field_u64(b, "queue", w->pass_queue[p]);
		field_str(b, "queue_name", queue_name(s, w->pass_queue[p]));
		field_work(b, "work", w->work && p < w->work->n_pass ? &w->work->pass[p] : NULL);
		lv_buf_put(b, "}", 1);
	}
	lv_buf_put(b, "]", 1);
	if (several_queues(s)) {
		lv_buf_puts(b, ",\"queues\":[");
		for (uint32_t q = 0; q < w->n_queue; q++) {
			const source_profiler_queue_result_t *qr = &w->queue[q];
			lv_buf_printf(b, "%s{\"queue\":%u", q ? "," : "", qr->queue);
			field_str(b, "name", queue_name(s, qr->queue));
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

/* A CSV field, quoted where it must be (as the profiler's CSV). */
static void csv_field(lv_buf *b, const char *v)
{
	if (!strpbrk(v, ",\"\n\r") && v[0] != '#') {
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
		if (counted(w, c))
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
		csv_field(b, w->name);
		lv_buf_printf(b,
			      ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			      ",%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64
			      ",%" PRIu64 ",",
			      r->tick_avg, r->tick_max, r->render_avg, r->render_max, r->render_sum,
			      r->render_gpu_avg, r->render_gpu_max, r->render_gpu_sum, r->async_input,
			      r->async_input_best, r->async_input_worst, r->async_rendered,
			      r->async_rendered_best, r->async_rendered_worst);
		csv_field(b, mode);
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
					 queue_name(s, w->queue[q].queue), w->queue[q].render_gpu_sum);
			if (n < 0 || (size_t)n >= sizeof queues - len)
				break;
			len += (size_t)n;
		}
		csv_field(b, queues);
		csv_work(b, s, w->work ? &w->work->total : NULL);
		lv_buf_put(b, ",", 1);
		csv_field(b, w->type);
		lv_buf_put(b, "\n", 1);
	}
}

/* --- Prometheus ------------------------------------------------------------ */

/* A label value: backslash, double quote and newline escaped; bytes that
 * are not UTF-8 replaced. */
static void label(lv_buf *b, const char *name, const char *v, bool comma)
{
	lv_buf_printf(b, "%s%s=\"", comma ? "," : "", name);
	const unsigned char *p = (const unsigned char *)v;
	size_t n = strlen(v);
	while (n) {
		if (*p == '\\' || *p == '"') {
			char esc[2] = {'\\', (char)*p};
			lv_buf_put(b, esc, 2);
			p++, n--;
		} else if (*p == '\n') {
			lv_buf_puts(b, "\\n");
			p++, n--;
		} else if (*p < 0x80) {
			lv_buf_put(b, (const char *)p, 1);
			p++, n--;
		} else {
			size_t len = lv_utf8_len(p, n);
			if (len) {
				lv_buf_put(b, (const char *)p, len);
				p += len, n -= len;
			} else {
				lv_buf_puts(b, "\xef\xbf\xbd");
				p++, n--;
			}
		}
	}
	lv_buf_put(b, "\"", 1);
}

static void help(lv_buf *b, const char *name, const char *type, const char *text)
{
	lv_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

static void seconds(lv_buf *b, uint64_t ns)
{
	lv_buf_printf(b, " %.9f\n", (double)ns / 1e9);
}

/* One series per source: name{source,type,stat} value. */
typedef struct series {
	const char *name, *help;
	const char *stat;
	int field; /* what to read, below */
	bool gpu;  /* only with GPU timing on and a GPU sample */
} series;

enum {
	F_TICK_AVG, F_TICK_MAX, F_TICK_P50, F_RENDER_AVG, F_RENDER_MAX, F_RENDER_P50,
	F_RENDER_SUM, F_RENDER_SUM_P50, F_RENDER_SUM_CI, F_GPU_AVG, F_GPU_MAX, F_GPU_P50,
	F_GPU_SUM, F_GPU_SUM_P50, F_GPU_SUM_CI,
};

static bool value_of(const lv_row *w, int f, uint64_t *v)
{
	switch (f) {
	case F_TICK_AVG: *v = w->r.tick_avg; return true;
	case F_TICK_MAX: *v = w->r.tick_max; return true;
	case F_TICK_P50: *v = w->m.tick_p50; return w->have_med;
	case F_RENDER_AVG: *v = w->r.render_avg; return true;
	case F_RENDER_MAX: *v = w->r.render_max; return true;
	case F_RENDER_P50: *v = w->m.render_p50; return w->have_med;
	case F_RENDER_SUM: *v = w->r.render_sum; return true;
	case F_RENDER_SUM_P50: *v = w->m.render_sum_p50; return w->have_med;
	case F_RENDER_SUM_CI: *v = w->iv.render_sum_ci95; return w->have_ci && w->iv.cpu_samples > 1;
	case F_GPU_AVG: *v = w->r.render_gpu_avg; return true;
	case F_GPU_MAX: *v = w->r.render_gpu_max; return true;
	case F_GPU_P50: *v = w->m.render_gpu_p50; return w->have_med;
	case F_GPU_SUM: *v = w->r.render_gpu_sum; return true;
	case F_GPU_SUM_P50: *v = w->m.render_gpu_sum_p50; return w->have_med;
	case F_GPU_SUM_CI:
		*v = w->iv.render_gpu_sum_ci95;
		return w->have_ci && w->iv.gpu_samples > 1;
	}
	return false;
}

static const series g_series[] = {
	{"srcprof_source_tick_seconds", "Time in the source's tick over the window.", "avg", F_TICK_AVG, false},
	{NULL, NULL, "max", F_TICK_MAX, false},
	{NULL, NULL, "p50", F_TICK_P50, false},
	{"srcprof_source_render_cpu_seconds",
	 "CPU time of the source's first render of a frame (OBS's rule).", "avg", F_RENDER_AVG, false},
	{NULL, NULL, "max", F_RENDER_MAX, false},
	{NULL, NULL, "p50", F_RENDER_P50, false},
	{"srcprof_source_render_cpu_sum_seconds",
	 "CPU time of all the source's renders of a frame; ci95: half its 95% interval.", "avg",
	 F_RENDER_SUM, false},
	{NULL, NULL, "p50", F_RENDER_SUM_P50, false},
	{NULL, NULL, "ci95", F_RENDER_SUM_CI, false},
	{"srcprof_source_render_gpu_seconds", "GPU time of the source's first render of a frame.",
	 "avg", F_GPU_AVG, true},
	{NULL, NULL, "max", F_GPU_MAX, true},
	{NULL, NULL, "p50", F_GPU_P50, true},
	{"srcprof_source_render_gpu_sum_seconds",
	 "GPU time of all the source's renders of a frame; ci95: half its 95% interval.", "avg",
	 F_GPU_SUM, true},
	{NULL, NULL, "p50", F_GPU_SUM_P50, true},
	{NULL, NULL, "ci95", F_GPU_SUM_CI, true},
};

static void source_labels(lv_buf *b, const lv_row *w)
{
	lv_buf_put(b, "{", 1);
	label(b, "source", w->name, false);
	label(b, "type", w->type, true);
}

/* Work per frame: whether it is counted, the whole frame's and each
 * source's average over the window's counted frames, per counter the
 * device counts. */
static void metrics_work(lv_buf *b, const lv_snapshot *s)
{
	help(b, "srcprof_work_enabled", "gauge",
	     "1 while work counting is on (source_profiler_work_enable; the demo's --work).");
	lv_buf_printf(b, "srcprof_work_enabled %d\n", s->work_enabled ? 1 : 0);
	help(b, "srcprof_frame_work_per_frame", "gauge",
	     "Work of every counted source per frame, counted by the GPU, over the window; "
	     "only counters the device counts.");
	for (int c = 0; s->have_frame_work && c < SOURCE_PROFILER_COUNTERS; c++)
		if (counted(&s->frame_work, c))
			lv_buf_printf(b, "srcprof_frame_work_per_frame{counter=\"%s\"} %" PRIu64 "\n",
				      g_work_keys[c], s->frame_work.avg[c]);
	help(b, "srcprof_source_work_per_frame", "gauge",
	     "Work of all the source's renders per frame, counted by the GPU, over the window's "
	     "counted frames; only counters the device counts.");
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const lv_row *w = &s->rows[i];
		if (!w->have || !w->work)
			continue;
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
			if (!counted(&w->work->total, c))
				continue;
			lv_buf_puts(b, "srcprof_source_work_per_frame");
			source_labels(b, w);
			lv_buf_printf(b, ",counter=\"%s\"} %" PRIu64 "\n", g_work_keys[c],
				      w->work->total.avg[c]);
		}
	}
}

void lv_snapshot_write_metrics(const lv_snapshot *s, const lv_info *info, uint32_t streams,
			       lv_buf *b)
{
	const source_profiler_stats_t *st = &s->st;
	bool gpu = st->enabled && st->gpu_enabled;

	help(b, "srcprof_info", "gauge", "The renderer and how its GPU times are measured.");
	lv_buf_puts(b, "srcprof_info{");
	label(b, "program", info->program, false);
	label(b, "api", info->api, true);
	label(b, "device", info->device, true);
	label(b, "gpu_mode", gpu ? s->gpu_mode : "off", true);
	lv_buf_puts(b, "} 1\n");
	help(b, "srcprof_enabled", "gauge", "1 while the profiler is on.");
	lv_buf_printf(b, "srcprof_enabled %d\n", st->enabled ? 1 : 0);
	help(b, "srcprof_gpu_enabled", "gauge", "1 while GPU timing is on.");
	lv_buf_printf(b, "srcprof_gpu_enabled %d\n", gpu ? 1 : 0);
	help(b, "srcprof_sources", "gauge", "Sources the profiler holds.");
	lv_buf_printf(b, "srcprof_sources %u\n", st->sources);
	help(b, "srcprof_window_samples", "gauge", "Samples per source window (5 s of frames).");
	lv_buf_printf(b, "srcprof_window_samples %u\n", st->window_capacity);
	help(b, "srcprof_frames_collected_total", "counter",
	     "Frames collected since the profiler was last enabled or reset.");
	lv_buf_printf(b, "srcprof_frames_collected_total %" PRIu64 "\n", st->frames_collected);
	help(b, "srcprof_gpu_frames_collected_total", "counter", "Frames whose GPU samples were kept.");
	lv_buf_printf(b, "srcprof_gpu_frames_collected_total %" PRIu64 "\n", st->gpu_frames_collected);
	help(b, "srcprof_gpu_frames_disjoint_total", "counter",
	     "Frames whose GPU samples were dropped, by reason.");
	const char *reasons[] = {"backend", "order", "range", "unavailable", "overflow"};
	uint64_t counts[] = {st->gpu_disjoint_backend, st->gpu_disjoint_order,
			     st->gpu_disjoint_range, st->gpu_disjoint_unavailable,
			     st->gpu_disjoint_overflow};
	for (int i = 0; i < 5; i++)
		lv_buf_printf(b, "srcprof_gpu_frames_disjoint_total{reason=\"%s\"} %" PRIu64 "\n",
			      reasons[i], counts[i]);
	help(b, "srcprof_gpu_resolution_seconds", "gauge",
	     "The finest GPU time the timers resolve (0: not known).");
	lv_buf_puts(b, "srcprof_gpu_resolution_seconds");
	seconds(b, gpu ? st->gpu_resolution_ns : 0);
	help(b, "srcprof_gpu_timer_overhead_seconds", "gauge",
	     "An empty GPU timer's cost, subtracted from every GPU time.");
	lv_buf_puts(b, "srcprof_gpu_timer_overhead_seconds");
	seconds(b, st->gpu_timer_overhead_ns);
	help(b, "srcprof_gpu_timed_every", "gauge", "One frame in this many is GPU-timed.");
	lv_buf_printf(b, "srcprof_gpu_timed_every %u\n", s->sm.timed_every);
	help(b, "srcprof_profiler_bytes", "gauge", "Heap bytes the profiler holds.");
	lv_buf_printf(b, "srcprof_profiler_bytes %zu\n", st->bytes);
	help(b, "srcprof_ignored_calls_total", "counter", "Profiler calls ignored as bad input.");
	lv_buf_printf(b, "srcprof_ignored_calls_total %" PRIu64 "\n", st->ignored_calls);
	help(b, "srcprof_gpu_queues", "gauge", "GPU queues the profiler times, the first included.");
	lv_buf_printf(b, "srcprof_gpu_queues %u\n", st->gpu_queues);
	help(b, "srcprof_gpu_queue_info", "gauge", "Each GPU queue's number and name; value 1.");
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		if (!s->queue_names[q][0])
			continue;
		lv_buf_puts(b, "srcprof_gpu_queue_info{");
		label(b, "queue", s->queue_names[q], false);
		lv_buf_printf(b, ",number=\"%u\"} 1\n", q);
	}
	help(b, "srcprof_threads_recording", "gauge",
	     "Threads besides the graphics thread that record ticks and renders.");
	lv_buf_printf(b, "srcprof_threads_recording %u\n", st->threads);
	help(b, "srcprof_thread_buffer_bytes", "gauge", "Bytes the recording threads' buffers hold.");
	lv_buf_printf(b, "srcprof_thread_buffer_bytes %zu\n", st->thread_bytes);
	const struct {
		const char *name, *help;
		uint64_t value;
	} counters[] = {
		{"srcprof_threads_refused_total", "Threads beyond the profiler's limit, not profiled.",
		 st->threads_refused},
		{"srcprof_records_late_total", "Ticks and renders recorded after their frame was collected.",
		 st->records_late},
		{"srcprof_records_dropped_total", "Ticks and renders dropped: a thread's buffer was full.",
		 st->records_dropped},
		{"srcprof_gpu_timers_unavailable_total",
		 "GPU timers whose stamps were not there at collect (a command buffer late).",
		 st->gpu_timers_unavailable},
		{"srcprof_gpu_timers_misplaced_total",
		 "GPU timers ended on another thread or command buffer than they began in.",
		 st->gpu_timers_misplaced},
		{"srcprof_gpu_timers_denied_total",
		 "Renders on recording threads that found their frame's GPU timers all taken.",
		 st->gpu_timers_denied},
	};
	for (size_t i = 0; i < sizeof counters / sizeof *counters; i++) {
		help(b, counters[i].name, "counter", counters[i].help);
		lv_buf_printf(b, "%s %" PRIu64 "\n", counters[i].name, counters[i].value);
	}
	if (s->frame_mean_ns > 0) {
		help(b, "srcprof_frame_seconds", "gauge",
		     "Mean frame time since the previous update of the live view.");
		lv_buf_printf(b, "srcprof_frame_seconds %.9f\n", s->frame_mean_ns / 1e9);
	}
	if (s->others_pct >= 0) {
		help(b, "srcprof_machine_others_ratio", "gauge",
		     "Share of all CPUs other processes used over about the last second.");
		lv_buf_printf(b, "srcprof_machine_others_ratio %.4f\n", s->others_pct / 100.0);
	}
	help(b, "srcprof_live_streams", "gauge", "Viewers streaming updates now.");
	lv_buf_printf(b, "srcprof_live_streams %u\n", streams);

	for (size_t k = 0; k < sizeof g_series / sizeof *g_series; k++) {
		const series *se = &g_series[k];
		const char *name = se->name;
		for (size_t j = k; !name; j--)
			name = g_series[j].name;
		if (se->gpu && !gpu)
			continue;
		if (se->name)
			help(b, se->name, "gauge", se->help);
		for (uint32_t i = 0; i < s->n_rows; i++) {
			const lv_row *w = &s->rows[i];
			uint64_t v;
			if (!w->have || (se->gpu && !w->gpu_n) || !value_of(w, se->field, &v))
				continue;
			lv_buf_puts(b, name);
			source_labels(b, w);
			label(b, "stat", se->stat, true);
			lv_buf_put(b, "}", 1);
			seconds(b, v);
		}
	}
	help(b, "srcprof_source_samples", "gauge", "Samples the source's windows hold.");
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const lv_row *w = &s->rows[i];
		if (!w->have)
			continue;
		for (int k = 0; k < 2; k++) {
			lv_buf_puts(b, "srcprof_source_samples");
			source_labels(b, w);
			lv_buf_printf(b, ",kind=\"%s\"} %u\n", k ? "gpu" : "cpu", k ? w->gpu_n : w->cpu_n);
		}
	}
	help(b, "srcprof_source_async_fps", "gauge",
	     "Frames per second an async (video-like) source received or drew.");
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const lv_row *w = &s->rows[i];
		if (!w->have || !w->async)
			continue;
		for (int k = 0; k < 2; k++) {
			lv_buf_puts(b, "srcprof_source_async_fps");
			source_labels(b, w);
			lv_buf_printf(b, ",direction=\"%s\"} %.3f\n", k ? "rendered" : "input",
				      k ? w->r.async_rendered : w->r.async_input);
		}
	}
	if (gpu) {
		help(b, "srcprof_source_queue_render_gpu_sum_seconds", "gauge",
		     "GPU time of all the source's renders of a frame on one queue (avg, max); "
		     "a source's GPU sum is these added up over queues.");
		for (uint32_t i = 0; i < s->n_rows; i++) {
			const lv_row *w = &s->rows[i];
			if (!w->have || !w->gpu_n)
				continue;
			for (uint32_t q = 0; q < w->n_queue; q++) {
				const source_profiler_queue_result_t *qr = &w->queue[q];
				for (int k = 0; k < 2; k++) {
					lv_buf_puts(b, "srcprof_source_queue_render_gpu_sum_seconds");
					source_labels(b, w);
					label(b, "queue", queue_name(s, qr->queue), true);
					label(b, "stat", k ? "max" : "avg", true);
					lv_buf_put(b, "}", 1);
					seconds(b, k ? qr->render_gpu_max : qr->render_gpu_sum);
				}
			}
		}
	}
	for (int g = 0; g < (gpu ? 2 : 1); g++) {
		const char *name = g ? "srcprof_source_pass_render_gpu_seconds"
				     : "srcprof_source_pass_render_cpu_seconds";
		help(b, name, "gauge",
		     g ? "GPU time of the source's renders in one pass per frame."
		       : "CPU time of the source's renders in one pass per frame.");
		for (uint32_t i = 0; i < s->n_rows; i++) {
			const lv_row *w = &s->rows[i];
			if (!w->have || (g && !w->gpu_n))
				continue;
			for (uint32_t p = 0; p < w->n_pass; p++) {
				const source_profiler_pass_result_t *pr = &w->pass[p];
				for (int k = 0; k < 2; k++) {
					lv_buf_puts(b, name);
					source_labels(b, w);
					label(b, "pass", pass_name(s, pr->pass), true);
					/* A pass rendered on two queues is two passes:
					 * the queue tells their series apart. */
					if (several_queues(s))
						label(b, "queue", queue_name(s, w->pass_queue[p]), true);
					label(b, "stat", k ? "max" : "avg", true);
					lv_buf_put(b, "}", 1);
					seconds(b, g ? (k ? pr->render_gpu_max : pr->render_gpu_avg)
						     : (k ? pr->render_max : pr->render_avg));
				}
			}
		}
	}
	metrics_work(b, s);
}
