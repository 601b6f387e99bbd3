#include "report.h"

#include "model.h"
#include "srcprof_base/stats.h"

#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdlib.h>
#include <string.h>

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* A GPU figure (ns) in a cell `w` wide: "wait" before the source's first
 * GPU sample, "<X" (us) above 0 and below the resolution. */
static void gpu_cell(FILE *out, int w, const src_row *row, uint64_t ns, uint64_t resolution)
{
	char buf[32];
	if (!row->gpu_samples)
		snprintf(buf, sizeof buf, "wait");
	else if (ns && ns < resolution) {
		buf[0] = '<';
		stats_format_us_up(buf + 1, sizeof buf - 1, us(resolution));
	}
	else
		snprintf(buf, sizeof buf, "%.1f", us(ns));
	fprintf(out, " %*s", w, buf);
}

/* The GPU sum's 95% interval as a percent of it, in a cell `w` wide:
 * "wait" before the first GPU sample, "-" with fewer than two (not known).
 * Only for the rows printed: a window copy each (microseconds). */
static void interval_cell(FILE *out, int w, const src_row *row)
{
	source_profiler_intervals_t iv;
	char buf[32] = "-";
	if (!row->gpu_samples)
		snprintf(buf, sizeof buf, "wait");
	else if (row->r.render_gpu_sum && source_profiler_fill_intervals(row->key, &iv) &&
		 iv.gpu_samples > 1)
		snprintf(buf, sizeof buf, "%.1f%%",
			 100.0 * (double)iv.render_gpu_sum_ci95 / (double)row->r.render_gpu_sum);
	fprintf(out, " %*s", w, buf);
}

/* A source rendered on several queues: its GPU sum on each, under its row. */
static void queue_line(FILE *out, const src_row *row, uint64_t resolution)
{
	source_profiler_queue_result_t q[SOURCE_PROFILER_MAX_QUEUES];
	size_t n = source_profiler_fill_queue_results(row->key, q, SOURCE_PROFILER_MAX_QUEUES);
	if (n < 2)
		return;
	fprintf(out, "%-24s %-9s   GPU sum by queue:", "", "");
	for (size_t i = 0; i < n && i < SOURCE_PROFILER_MAX_QUEUES; i++) {
		const char *name = source_profiler_queue_name(q[i].queue);
		char v[32];
		if (q[i].render_gpu_sum && q[i].render_gpu_sum < resolution) {
			v[0] = '<';
			stats_format_us_up(v + 1, sizeof v - 1, us(resolution));
		} else {
			snprintf(v, sizeof v, "%.1f", us(q[i].render_gpu_sum));
		}
		fprintf(out, " %s %s (%u samples)%s", name ? name : "?", v, q[i].gpu_samples,
			i + 1 < n ? "," : "\n");
	}
}

/* Threads and queues, where the run had more than one: what recorded,
 * what it held, and what a GPU sum over queues means. */
void report_threads_and_queues(FILE *out, eng_engine *e, const source_profiler_stats_t *st,
			       bool gpu)
{
	uint32_t tick = eng_tick_threads(e), record = eng_record_threads(e);
	if (tick > 1 || record > 1 || st->threads)
		fprintf(out, "threads: sources ticked on %u, views recorded on %u; %u threads "
			     "besides the graphics thread recorded (buffers %.0f KiB)\n",
			tick, record, st->threads, (double)st->thread_bytes / 1024.0);
	if (st->threads_refused || st->records_late || st->records_dropped)
		fprintf(out, "threads: %llu refused (over the maximum), %llu records late, %llu "
			     "dropped (a thread's buffer full)\n",
			(unsigned long long)st->threads_refused, (unsigned long long)st->records_late,
			(unsigned long long)st->records_dropped);
	if (gpu && st->gpu_queues > 1) {
		fprintf(out, "queues:");
		for (uint32_t q = 0, k = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++) {
			const char *name = source_profiler_queue_name(q);
			if (name)
				fprintf(out, "%s %s", k++ ? "," : "", name);
		}
		fprintf(out, "; GPU figures are each queue's own stamps, GPU sum adds a source's "
			     "time on each (busy time, not elapsed)\n");
	}
	if (gpu && (st->gpu_timers_unavailable || st->gpu_timers_misplaced))
		fprintf(out, "GPU timers: %llu not available at collect (a command buffer late or "
			     "never submitted), %llu ended in another command buffer; those renders "
			     "lost their GPU sample\n",
			(unsigned long long)st->gpu_timers_unavailable,
			(unsigned long long)st->gpu_timers_misplaced);
}

/* Under this many GPU samples a source's average moves visibly with one
 * slow frame: an average's spread shrinks only with the root of its
 * samples, and the start-up burst alone gives a few dozen; how far runs
 * apart differed by sample count is in docs/reading-numbers.md. */
#define REPORT_FEW_GPU_SAMPLES 100

/* Says when GPU averages stand on few samples, and what gives more. */
static void few_samples_note(FILE *out, eng_engine *e, const src_row *rows, uint32_t n)
{
	uint32_t fewest = UINT32_MAX, waiting = 0, collected = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (rows[i].have && rows[i].gpu_samples && rows[i].gpu_samples < fewest)
			fewest = rows[i].gpu_samples;
		waiting += rows[i].have && !rows[i].gpu_samples;
		if (rows[i].have && rows[i].cpu_samples > collected)
			collected = rows[i].cpu_samples;
	}
	/* A slow scene: its first frames keep no GPU sample (the warm-up). */
	uint32_t warmup = source_profiler_gpu_warmup();
	if (waiting && collected <= warmup)
		fprintf(out, "note: %u sources wait for a GPU sample: each source's first %u frames "
			     "keep none (warm-up: they read far above its cost, docs/gpu-timing.md), "
			     "and only %u frames were collected; run longer\n",
			waiting, warmup, collected);
	if (fewest >= REPORT_FEW_GPU_SAMPLES)
		return;
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	fprintf(out, "note: GPU averages stand on as few as %u samples", fewest);
	if (sm.burst_frames)
		fprintf(out, " (%llu of the timed frames in bursts)",
			(unsigned long long)sm.burst_frames);
	fprintf(out, "; one slow frame moves such an average (sum +- says how far). To compare "
		     "runs, read GPU p50, "
		     "run longer%s\n",
		eng_gpu_timed_every(e) > 1 ? ", or time more frames (--gpu-budget 10; 100: every "
					     "frame)"
					   : "");
}

/* A count per frame, right-aligned in `w` characters. */
static void count_cell(FILE *out, int w, const source_profiler_work_t *k, int c)
{
	char text[32];
	rows_count_text(k, c, text, sizeof text);
	fprintf(out, " %*s", w, text);
}

/* The work counters (--work): each source's average per counted frame,
 * in the table's order, and the frames' totals. */
static void work_table(FILE *out, const src_row *rows, uint32_t n, uint32_t limit)
{
	source_profiler_work_t total;
	bool have_total = source_profiler_frame_work(&total);
	fprintf(out, "work per frame (GPU pipeline statistics, exact: averages over the counted "
		     "frames; n/a: not counted)\n");
	fprintf(out, "%-24s %-9s %6s %9s %9s %9s %9s %9s %10s %9s\n", "source", "type", "frames",
		"vertices", "prims", "VS inv", "clip in", "clip out", "FS inv", "CS inv");
	static const int widths[SOURCE_PROFILER_COUNTERS] = {9, 9, 9, 9, 9, 10, 9};
	for (uint32_t i = 0; i < n && (!limit || i < limit); i++) {
		source_profiler_work_t k;
		fprintf(out, "%-24.24s %-9.9s ", rows[i].name, rows[i].type);
		if (!source_profiler_fill_work(rows[i].key, &k)) {
			fprintf(out, "%6u (not counted: no render in a counted frame)\n", 0u);
			continue;
		}
		fprintf(out, "%6u", k.samples);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			count_cell(out, widths[c], &k, c);
		fputc('\n', out);
	}
	if (have_total) {
		fprintf(out, "%-24s %-9s %6u", "(frame total)", "", total.samples);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			count_cell(out, widths[c], &total, c);
		fputc('\n', out);
	}
}

void report_print(FILE *out, eng_engine *e, const char *scene, row_sort sort, uint32_t limit,
		  double busy_pct)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint32_t n = eng_source_count(e), cap = 0;
	src_row *rows = NULL;
	rows_median_cache med = {0};
	if (!rows_reserve(&rows, &cap, n ? n : 1) || !rows_refresh_medians(e, &med, 0)) {
		free(rows);
		rows_median_cache_free(&med);
		return;
	}
	n = rows_gather(e, rows, cap, false, &med);
	bool gpu = st.enabled && st.gpu_enabled;
	rows_sort(rows, n, sort, gpu);

	char sw[80];
	eng_gfx_software_text(&info, sw, sizeof sw);
	fprintf(out, "\nsrcprof: %s on %s (%s); GPU timing: %s%s\n", info.api, info.device,
		info.driver, gpu ? info.gpu_timing : "off", sw);
	char busy[160];
	if (model_busy_text(busy_pct, info.software, busy, sizeof busy))
		fprintf(out, "%s (over the run)\n", busy);
	fprintf(out, "scene %s: %u sources, sorted by %s\n", scene, n,
		rows_sort_name(rows_effective_sort(sort, gpu)));
	fprintf(out, "window: %u frames; collected %llu frames, GPU %llu kept, %llu dropped as "
		     "disjoint; times in microseconds\n",
		st.window_capacity, (unsigned long long)st.frames_collected,
		(unsigned long long)st.gpu_frames_collected,
		(unsigned long long)st.gpu_frames_disjoint);
	if (gpu && st.gpu_timer_overhead_ns) {
		source_profiler_sampling_t sm;
		source_profiler_get_sampling(&sm);
		fprintf(out, "GPU timers: every source timed in 1 frame of %u (budget), each timer's own "
			     "cost %.1f us subtracted; %llu bursts timed %llu frames\n",
			eng_gpu_timed_every(e), (double)st.gpu_timer_overhead_ns / 1000.0,
			(unsigned long long)sm.bursts, (unsigned long long)sm.burst_frames);
	}
	if (gpu && st.gpu_resolution_ns > 1) {
		char res[24];
		stats_format_us_up(res, sizeof res, us(st.gpu_resolution_ns));
		fprintf(out, "GPU resolution: %s us (\"<X\": a GPU figure above 0 and below it; "
			     "\"wait\": no GPU sample yet)\n",
			res);
	}
	if (gpu)
		fprintf(out, "sum +-: half the 95%% interval of GPU sum, from its samples' spread (two "
			     "runs tell apart only a difference above ~1.4x it)\n");
	report_threads_and_queues(out, e, &st, gpu);
	fprintf(out, "%-24s %-9s %9s %9s %9s %9s %9s %9s %10s %10s %10s %6s %10s %5s %7s %7s\n",
		"source", "type", "tick", "tick max", "render", "rend max", "rend sum", "rend p50",
		"GPU", "GPU max", "GPU sum", "sum +-", "GPU p50", "GPU n", "in fps", "out fps");
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
		if (w->have_med)
			fprintf(out, " %9.1f", us(w->m.render_sum_p50));
		else
			fprintf(out, " %9s", "-");
		if (gpu) {
			gpu_cell(out, 10, w, r->render_gpu_avg, st.gpu_resolution_ns);
			gpu_cell(out, 10, w, r->render_gpu_max, st.gpu_resolution_ns);
			gpu_cell(out, 10, w, r->render_gpu_sum, st.gpu_resolution_ns);
			interval_cell(out, 6, w);
			if (w->have_med)
				gpu_cell(out, 10, w, w->m.render_gpu_sum_p50, st.gpu_resolution_ns);
			else
				fprintf(out, " %10s", "-"); /* as rend p50: no medians */
			fprintf(out, " %5u", w->gpu_samples);
		} else {
			fprintf(out, " %10s %10s %10s %6s %10s %5s", "off", "off", "off", "off", "off",
				"off");
		}
		if (w->async)
			fprintf(out, " %7.1f %7.1f\n", r->async_input, r->async_rendered);
		else
			fprintf(out, " %7s %7s\n", "-", "-");
		if (gpu && st.gpu_queues > 1)
			queue_line(out, w, st.gpu_resolution_ns);
	}
	if (limit && n > limit)
		fprintf(out, "... %u more sources\n", n - limit);
	if (gpu && source_profiler_work_enabled())
		work_table(out, rows, n, limit);
	if (gpu)
		few_samples_note(out, e, rows, n);
	/* The notes say where the measured limits are, not what a past run
	 * measured: this run's own figures are in the table above. */
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	if (gpu && info.software && !sm.costly)
		fprintf(out, "note: plain stamps on a software device do not measure each source's "
			     "cost: it runs the\nframe's work in binned scenes at flushes, and a bare "
			     "stamp reads when its part of\nthe scene got there "
			     "(docs/gpu-timing.md); --gpu-timing auto measures it here\n");
	if (gpu && info.software && sm.costly && info.raster_threads > 1)
		fprintf(out, "note: %d rasterizer threads share each GPU-timed scene; a source of a "
			     "few %% of the frame\ncan read well off what it costs drawn alone, and "
			     "small textured ones (videos) differ\nfrom run to run (the measured "
			     "ranges: docs/known-limits.md); --raster-threads 1 gives\ntruer "
			     "per-source figures, with slower frames (srcprof-bench --isolate "
			     "measures both)\n",
			info.raster_threads);
	free(rows);
	rows_median_cache_free(&med);
}
