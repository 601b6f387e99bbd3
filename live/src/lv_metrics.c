/* The snapshot in Prometheus' text format (/metrics): the profiler's
 * state as gauges and counters, then one series per source and figure,
 * labelled by source, type and statistic, times in seconds as Prometheus
 * expects; GPU series only while GPU timing is on, and for sources that
 * hold a GPU sample. Label values are escaped, and bytes that are not
 * UTF-8 replaced, so that any source name gives a valid exposition. */
#include "lv_out.h"

#include <inttypes.h>
#include <string.h>

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
			size_t len = lv_buf_put_utf8(b, p, n, "\xef\xbf\xbd");
			p += len, n -= len;
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
		if (lv_work_counted(&s->frame_work, c))
			lv_buf_printf(b, "srcprof_frame_work_per_frame{counter=\"%s\"} %" PRIu64 "\n",
				      lv_work_keys[c], s->frame_work.avg[c]);
	help(b, "srcprof_source_work_per_frame", "gauge",
	     "Work of all the source's renders per frame, counted by the GPU, over the window's "
	     "counted frames; only counters the device counts.");
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const lv_row *w = &s->rows[i];
		if (!w->have || !w->work)
			continue;
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
			if (!lv_work_counted(&w->work->total, c))
				continue;
			lv_buf_puts(b, "srcprof_source_work_per_frame");
			source_labels(b, w);
			lv_buf_printf(b, ",counter=\"%s\"} %" PRIu64 "\n", lv_work_keys[c],
				      w->work->total.avg[c]);
		}
	}
}

/* The profiler's state: what runs, how GPU times are taken, what was
 * dropped or refused, the machine's load and the viewers. */
static void metrics_state(lv_buf *b, const lv_snapshot *s, const lv_info *info,
			  uint32_t streams, bool gpu)
{
	const source_profiler_stats_t *st = &s->st;
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
}

/* g_series: one series per source and figure, GPU ones only with GPU
 * timing on and for sources holding a GPU sample. */
static void metrics_series(lv_buf *b, const lv_snapshot *s, bool gpu)
{
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
}

/* Each source's sample counts, and an async source's frame rates. */
static void metrics_samples(lv_buf *b, const lv_snapshot *s)
{
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
}

/* Each source's GPU sum per queue (avg, max). */
static void metrics_queues(lv_buf *b, const lv_snapshot *s)
{
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
				label(b, "queue", lv_queue_name(s, qr->queue), true);
				label(b, "stat", k ? "max" : "avg", true);
				lv_buf_put(b, "}", 1);
				seconds(b, k ? qr->render_gpu_max : qr->render_gpu_sum);
			}
		}
	}
}

/* Each source's time per pass, CPU and (with GPU timing on) GPU. */
static void metrics_passes(lv_buf *b, const lv_snapshot *s, bool gpu)
{
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
					label(b, "pass", lv_pass_name(s, pr->pass), true);
					/* A pass rendered on two queues is two passes:
					 * the queue tells their series apart. */
					if (lv_several_queues(s))
						label(b, "queue", lv_queue_name(s, w->pass_queue[p]), true);
					label(b, "stat", k ? "max" : "avg", true);
					lv_buf_put(b, "}", 1);
					seconds(b, g ? (k ? pr->render_gpu_max : pr->render_gpu_avg)
						     : (k ? pr->render_max : pr->render_avg));
				}
			}
		}
	}
}

void lv_snapshot_write_metrics(const lv_snapshot *s, const lv_info *info, uint32_t streams,
			       lv_buf *b)
{
	bool gpu = s->st.enabled && s->st.gpu_enabled;
	metrics_state(b, s, info, streams, gpu);
	metrics_series(b, s, gpu);
	metrics_samples(b, s);
	if (gpu)
		metrics_queues(b, s);
	metrics_passes(b, s, gpu);
	metrics_work(b, s);
}
