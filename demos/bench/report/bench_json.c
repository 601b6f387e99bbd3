/* srcprof-bench --json: every figure of the run, and the samples behind
 * them that `srcprof-bench compare` tests (docs/bench.md lists the keys),
 * through the streaming JSON writer (srcprof_base). */
#include "bench.h"
#include "bench_scaling.h"
#include "srcprof_base/json.h"
#include "out_file.h"

#include <math.h>
#include <stdio.h>

/* A mode's frame statistics; with samples (b->frames of them), each
 * frame's time in run order too. */
static void json_frames(json_w *w, const char *name, const bench_frames *b, const double *samples)
{
	json_w_object(w, name);
	json_w_uint(w, "frames", b->frames);
	json_w_number(w, "mean_ms", "%.4f", b->mean);
	json_w_number(w, "p50_ms", "%.4f", b->p50);
	json_w_number(w, "p95_ms", "%.4f", b->p95);
	json_w_number(w, "p99_ms", "%.4f", b->p99);
	json_w_number(w, "fps", "%.3f", b->fps);
	if (samples) {
		json_w_array_tight(w, "samples_ms");
		for (uint32_t i = 0; i < b->frames; i++)
			json_w_number(w, NULL, "%.4f", samples[i]);
		json_w_end(w);
	}
	json_w_end(w);
}

/* Samples in ns, integers: exact, and a third the size of us with
 * decimals. */
static void json_ns(json_w *w, const char *name, const uint32_t *v, uint32_t n)
{
	json_w_array_tight(w, name);
	for (uint32_t i = 0; i < n; i++)
		json_w_uint(w, NULL, v[i]);
	json_w_end(w);
}

/* An array of n figures written with fmt: --isolate's rounds, in run
 * order, or a ratio's pairs. */
static void json_list(json_w *w, const char *name, const char *fmt, const double *v, uint32_t n)
{
	json_w_array(w, name);
	for (uint32_t j = 0; j < n; j++)
		json_w_number(w, NULL, fmt, v[j]);
	json_w_end(w);
}

static void json_ratio(json_w *w, const char *name, const bench_ratio *r, uint32_t n)
{
	json_w_break(w, 5);
	json_w_object(w, name);
	json_w_number(w, "median", "%.5f", r->median);
	json_w_number(w, "min", "%.5f", r->min);
	json_w_number(w, "max", "%.5f", r->max);
	json_list(w, "pairs", "%.5f", r->pair, n);
	json_w_end(w);
}

/* s NULL: not measured, null. */
static void json_spread(json_w *w, const char *name, const bench_spread *s)
{
	if (!s) {
		json_w_null(w, name);
		return;
	}
	json_w_object(w, name);
	json_w_number(w, "min", "%.4f", s->lo);
	json_w_number(w, "max", "%.4f", s->hi);
	json_w_bool(w, "flat_within_20pct", s->flat);
	json_w_end(w);
}

static void json_source(json_w *w, const bench_opts *o, const bench_point *p,
			const bench_source *b)
{
	json_w_break(w, 7);
	json_w_object(w, NULL);
	json_w_string(w, "name", b->name);
	json_w_string(w, "type", b->type);
	json_w_number(w, "gpu_avg_us", "%.3f", b->gpu_avg);
	json_w_number(w, "gpu_p50_us", "%.3f", b->gpu_p50);
	json_w_number(w, "gpu_p95_us", "%.3f", b->gpu_p95);
	json_w_number(w, "gpu_max_us", "%.3f", b->gpu_max);
	json_w_uint(w, "gpu_samples", b->gpu_samples);
	json_w_uint(w, "cpu_samples", b->cpu_samples);
	json_w_number(w, "share", "%.5f", b->share);
	json_w_number(w, "tick_avg_us", "%.3f", b->tick_avg);
	json_w_number(w, "render_avg_us", "%.3f", b->render_avg);
	json_w_number(w, "render_sum_us", "%.3f", b->render_sum);
	/* Its GPU average on each queue (the point's "queues" order). */
	json_list(w, "gpu_by_queue_us", "%.3f", b->queue_gpu, p->n_queues);
	if (b->isolated >= 0) {
		json_w_number(w, "isolated_us", "%.3f", b->isolated);
		json_w_number(w, "in_frame_over_alone", "%.4f", b->in_over_alone);
		json_list(w, "isolated_rounds_us", "%.3f", b->alone_us, b->alone_rounds);
		json_list(w, "in_frame_rounds_us", "%.3f", b->in_frame_us, b->alone_rounds);
	}
	if (b->isolated >= 0 && b->marginal >= 0) {
		json_w_number(w, "marginal_us", "%.3f", b->marginal);
		json_w_number(w, "in_frame_over_marginal", "%.4f", b->in_over_marginal);
		json_list(w, "marginal_rounds_us", "%.3f", b->marginal_us, b->marginal_rounds);
	}
	bench_json_work(w, o, b);
	/* Each frame's figures in the profiler's window, oldest first: what
	 * compare tests. */
	json_w_break(w, 8);
	json_w_object(w, "samples");
	json_ns(w, "tick_ns", b->tick_ns, b->n_cpu);
	json_ns(w, "render_sum_ns", b->render_ns, b->n_cpu);
	json_ns(w, "gpu_sum_ns", b->gpu_ns, b->n_gpu);
	json_w_end(w);
	json_w_end(w);
}

/* One point of one run; `replayed`: its profiler's own cost was
 * measured (the first run's, when the replay ran). */
static void json_point(json_w *w, const bench_opts *o, const bench_point *p, bool replayed)
{
	json_w_break(w, 4);
	json_w_object(w, NULL);
	json_w_string(w, "api", p->api);
	json_w_uint(w, "sources", p->sources);
	json_w_number(w, "sources_held", "%.0f", bench_held(p));
	json_w_uint(w, "pairs", p->pairs);
	/* Threads and queues: record_threads as asked (what compare pairs
	 * points by), the others in force. */
	json_w_uint(w, "record_threads", p->record_threads);
	json_w_uint(w, "record_threads_used", p->record_threads_used);
	json_w_uint(w, "tick_threads", p->tick_threads_used);
	json_w_bool(w, "compute", p->compute);
	json_w_array(w, "queues");
	for (uint32_t q = 0; q < p->n_queues; q++)
		json_w_string(w, NULL, p->queues[q]);
	json_w_end(w);
	json_w_string(w, "device", p->device);
	json_w_string(w, "driver", p->driver);
	json_w_string(w, "gpu_timing", p->mode);
	json_w_bool(w, "software", p->software);
	json_w_number(w, "frame_gpu_us", "%.3f", p->frame_gpu_avg);
	json_w_number(w, "timer_overhead_us", "%.3f", p->timer_overhead);
	json_w_number(w, "gpu_resolution_us", "%.3f", p->gpu_resolution);
	json_w_uint(w, "gpu_timed_every", p->gpu_every);
	json_w_uint(w, "validation_messages", p->failures);
	json_w_break(w, 5);
	json_w_uint(w, "burst_frames", p->burst_frames);
	json_w_number(w, "burst_frame_ms", "%.4f", p->burst_ms);
	json_w_number(w, "after_burst_frame_ms", "%.4f", p->after_burst_ms);
	json_w_number(w, "raster_threads", "%.0f", p->raster_threads >= 0 ? p->raster_threads : NAN);
	json_w_number(w, "machine_busy_pct", "%.2f",
		      p->machine_busy_pct >= 0 ? p->machine_busy_pct : NAN);
	/* Where GPU timing changes the driver's work, say so with the figures. */
	json_w_bool(w, "gpu_timing_changes_work", p->changes_work);
	json_w_string(w, "overhead_method", p->composed ? "composed" : "direct");
	json_w_number(w, "source_gpu_mean_us", "%.3f", bench_source_gpu_mean(p));
	json_frames(w, "frames_timed", &p->timed, NULL);
	const char *names[] = {"frames_off", "frames_empty", "frames_cpu", "frames_cpu_gpu"};
	const bench_frames *modes[] = {&p->off, &p->empty, &p->cpu, &p->gpu};
	for (int m = 0; m < 4; m++) {
		json_w_break(w, 5);
		json_frames(w, names[m], modes[m], m ? NULL : p->off_ms);
	}
	json_ratio(w, "overhead_cpu", &p->ratio_cpu, p->pairs);
	json_ratio(w, "overhead_cpu_gpu", &p->ratio_gpu, p->pairs);
	/* --work: CPU+GPU with work counting, and what counting adds to
	 * timing alone in points of frame time; null without. */
	if (o->work) {
		json_w_break(w, 5);
		json_frames(w, "frames_cpu_gpu_work", &p->gpu_work, NULL);
		json_ratio(w, "overhead_cpu_gpu_work", &p->ratio_work, p->pairs);
		json_ratio(w, "work_overhead_points", &p->work_points, p->pairs);
	} else {
		json_w_break(w, 5);
		json_w_null(w, "frames_cpu_gpu_work");
		json_w_null(w, "overhead_cpu_gpu_work");
		json_w_null(w, "work_overhead_points");
	}
	json_ratio(w, "source_cost_us", &p->source_cost, p->pairs);
	json_ratio(w, "source_cpu_time_us", &p->source_work, p->pairs);
	json_ratio(w, "overhead_cpu_time", &p->ratio_cpu_work, p->pairs);
	json_w_break(w, 5);
	json_w_object(w, "cpu_time_ms_per_frame");
	json_w_number(w, "off", "%.4f", bench_cpu_per_frame(p, MODE_OFF));
	json_w_number(w, "cpu", "%.4f", bench_cpu_per_frame(p, MODE_CPU));
	json_w_number(w, "none", "%.4f", bench_cpu_per_frame(p, MODE_EMPTY));
	json_w_end(w);
	/* null: not replayed (the run was interrupted first). */
	json_w_break(w, 5);
	json_w_object(w, "profiler_own_ns_per_source");
	json_w_number(w, "cpu", "%.6f", replayed ? p->prof_cpu_ns : NAN);
	json_w_number(w, "cpu_gpu", "%.6f", replayed ? p->prof_gpu_ns : NAN);
	json_w_uint(w, "views", o->scene->views);
	json_w_end(w);
	json_w_break(w, 5);
	json_w_array(w, "sources_detail");
	for (uint32_t k = 0; k < p->n_src; k++)
		json_source(w, o, p, &p->src[k]);
	json_w_end(w);
	json_w_end(w);
}

/* One series of sources-to-sources scaling: its spreads, the steps added
 * sources took, the linear fit. */
static void json_scaling(json_w *w, const bench_result *r, const bench_scaling *c,
			 const bool *measured)
{
	json_w_break(w, 4);
	json_w_object(w, NULL);
	json_w_string(w, "api", c->api);
	json_w_uint(w, "record_threads", r->points[c->first].record_threads);
	json_w_number(w, "from", "%.0f", bench_held(&r->points[c->first]));
	json_w_number(w, "to", "%.0f", bench_held(&r->points[c->first + c->n - 1]));
	for (int m = 0; m < BENCH_N_SERIES; m++)
		json_spread(w, bench_series_names[m], measured[m] ? &c->per_source[m] : NULL);
	json_spread(w, "src_gpu_us", &c->gpu);
	json_w_object(w, "added");
	json_w_array(w, "steps");
	for (uint32_t j = 0; j < c->added.n; j++) {
		json_w_object(w, NULL);
		json_w_number(w, "from", "%.0f", c->added.from[j]);
		json_w_number(w, "to", "%.0f", c->added.to[j]);
		for (int m = 0; m < BENCH_N_SERIES; m++)
			json_w_number(w, bench_series_names[m], "%.4f",
				      measured[m] ? c->added.v[m][j] : NAN);
		json_w_end(w);
	}
	json_w_end(w);
	for (int m = 0; c->added.n && m < BENCH_N_SERIES; m++)
		json_spread(w, bench_series_names[m], measured[m] ? &c->added.range[m] : NULL);
	json_w_end(w);
	if (c->fitted) {
		json_w_object(w, "fit");
		json_w_number(w, "once_us", "%.3f", c->once);
		json_w_number(w, "each_us", "%.4f", c->each);
		json_w_number(w, "largest_deviation", "%.4f", c->worst);
		json_w_bool(w, "linear_within_10pct", c->worst <= 0.1);
		json_w_end(w);
	}
	json_w_end(w);
}

bool bench_write_json(const char *path, const bench_opts *o, const bench_result *r)
{
	out_file of;
	FILE *f = out_open(&of, path, "w");
	if (!f)
		return false;
	json_w w;
	json_w_init(&w, f);
	json_w_object(&w, NULL);
	const char *top[] = {"generator", "srcprof-bench", "machine", r->machine, "git", r->git,
			     "scene", o->scene->name};
	for (int i = 0; i < 8; i += 2) {
		json_w_break(&w, 2);
		json_w_string(&w, top[i], top[i + 1]);
	}
	json_w_break(&w, 2);
	json_w_uint(&w, "frames", o->frames);
	json_w_uint(&w, "warmup", o->warmup);
	json_w_uint(&w, "repeat", o->repeat);
	json_w_number(&w, "gpu_budget", "%.4f", o->gpu_budget);
	json_w_array(&w, "size");
	json_w_uint(&w, NULL, o->width);
	json_w_uint(&w, NULL, o->height);
	json_w_end(&w);
	json_w_bool(&w, "isolate", o->isolate);
	json_w_uint(&w, "isolate_rounds", o->isolate_rounds);
	json_w_bool(&w, "work", o->work);
	json_w_break(&w, 2);
	json_w_number(&w, "wall_s", "%.1f", r->wall_s);
	/* An interrupted run holds the points it finished (of those planned). */
	json_w_bool(&w, "interrupted", r->interrupted);
	if (r->interrupted)
		json_w_string(&w, "interrupted_by", bench_signal_name(r->interrupted));
	json_w_uint(&w, "points_planned", r->planned);
	json_w_break(&w, 2);
	json_w_array(&w, "points");
	for (uint32_t i = 0; i < r->n_points; i++)
		json_point(&w, o, &r->points[i], r->replayed);
	json_w_break(&w, 2);
	json_w_end(&w);
	/* --runs: every later run's points, in the same order, each run a
	 * sample for compare. */
	json_w_break(&w, 2);
	json_w_uint(&w, "runs", 1 + r->n_more);
	json_w_uint(&w, "runs_asked", o->runs);
	json_w_break(&w, 2);
	json_w_array(&w, "other_runs");
	for (uint32_t k = 0; k < r->n_more; k++) {
		json_w_break(&w, 4);
		json_w_object(&w, NULL);
		json_w_uint(&w, "run", k + 2);
		json_w_array(&w, "points");
		for (uint32_t i = 0; i < r->n_points; i++)
			json_point(&w, o, &r->more[k][i], false);
		json_w_break(&w, 4);
		json_w_end(&w);
		json_w_end(&w);
	}
	json_w_break(&w, 2);
	json_w_end(&w);
	json_w_break(&w, 2);
	json_w_array(&w, "scaling");
	bench_scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = bench_scalings(r, sc);
	/* The profiler's own cost is null in every series where it was not
	 * replayed. */
	bool measured[BENCH_N_SERIES] = {true, true, r->replayed, r->replayed};
	for (uint32_t k = 0; k < n_sc; k++)
		json_scaling(&w, r, &sc[k], measured);
	json_w_break(&w, 2);
	json_w_end(&w);
	json_w_break(&w, 0);
	json_w_end(&w);
	fputc('\n', f);
	return out_commit(&of);
}
