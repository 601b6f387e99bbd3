/* srcprof-bench --json: every figure of the run, and the samples behind
 * them that `srcprof-bench compare` tests (docs/bench.md lists the keys). */
#include "bench.h"
#include "bench_scaling.h"
#include "json_out.h"
#include "out_file.h"

#include <math.h>
#include <stdio.h>

/* A mode's frame statistics; with samples (b->frames of them), each
 * frame's time in run order too. */
static void json_frames(FILE *f, const char *name, const bench_frames *b, const double *samples)
{
	fprintf(f, "\"%s\": {\"frames\": %u, \"mean_ms\": %.4f, \"p50_ms\": %.4f, \"p95_ms\": %.4f, "
		   "\"p99_ms\": %.4f, \"fps\": %.3f",
		name, b->frames, b->mean, b->p50, b->p95, b->p99, b->fps);
	if (samples) {
		fprintf(f, ", \"samples_ms\": [");
		for (uint32_t i = 0; i < b->frames; i++)
			fprintf(f, "%s%.4f", i ? "," : "", samples[i]);
		fputc(']', f);
	}
	fputc('}', f);
}

/* Samples in ns, integers: exact, and a third the size of us with
 * decimals. */
static void json_ns(FILE *f, const char *name, const uint32_t *v, uint32_t n)
{
	fprintf(f, "\"%s\": [", name);
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? "," : "", v[i]);
	fputc(']', f);
}

/* ", "name": [v0, v1, ...]": an --isolate figure's rounds, in run order. */
static void json_rounds(FILE *f, const char *name, const double *v, uint32_t n)
{
	fprintf(f, ", \"%s\": [", name);
	for (uint32_t j = 0; j < n; j++)
		fprintf(f, "%s%.3f", j ? ", " : "", v[j]);
	fputc(']', f);
}

/* A figure that may not have been measured: null then. */
static void json_num(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

static void json_ratio(FILE *f, const char *name, const bench_ratio *r, uint32_t n)
{
	fprintf(f, "\"%s\": {\"median\": %.5f, \"min\": %.5f, \"max\": %.5f, \"pairs\": [", name,
		r->median, r->min, r->max);
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%.5f", i ? ", " : "", r->pair[i]);
	fprintf(f, "]}");
}

/* s NULL: not measured, null. */
static void json_spread(FILE *f, const char *name, const bench_spread *s)
{
	if (!s) {
		fprintf(f, "\"%s\": null", name);
		return;
	}
	fprintf(f, "\"%s\": {\"min\": %.4f, \"max\": %.4f, \"flat_within_20pct\": %s}", name, s->lo,
		s->hi, s->flat ? "true" : "false");
}

/* One point of one run; `replayed`: its profiler's own cost was
 * measured (the first run's, when the replay ran). */
static void json_point(FILE *f, const bench_opts *o, const bench_point *p, bool first,
		       bool replayed)
{
	fprintf(f, "%s\n    {\"api\": ", first ? "" : ",");
	json_string(f, p->api);
	fprintf(f, ", \"sources\": %u, \"sources_held\": %.0f, \"pairs\": %u, ", p->sources,
		bench_held(p), p->pairs);
	/* Threads and queues: record_threads as asked (what compare pairs
	 * points by), the others in force. */
	fprintf(f, "\"record_threads\": %u, \"record_threads_used\": %u, \"tick_threads\": %u, "
		   "\"compute\": %s, \"queues\": [",
		p->record_threads, p->record_threads_used, p->tick_threads_used,
		p->compute ? "true" : "false");
	for (uint32_t q = 0; q < p->n_queues; q++) {
		fprintf(f, "%s", q ? ", " : "");
		json_string(f, p->queues[q]);
	}
	fprintf(f, "], \"device\": ");
	json_string(f, p->device);
	fprintf(f, ", \"driver\": ");
	json_string(f, p->driver);
	fprintf(f, ", \"gpu_timing\": ");
	json_string(f, p->mode);
	fprintf(f, ", \"software\": %s, \"frame_gpu_us\": %.3f, \"timer_overhead_us\": %.3f, "
		   "\"gpu_resolution_us\": %.3f, \"gpu_timed_every\": %u, "
		   "\"validation_messages\": %u,\n     ",
		p->software ? "true" : "false", p->frame_gpu_avg, p->timer_overhead,
		p->gpu_resolution, p->gpu_every, p->failures);
	fprintf(f, "\"burst_frames\": %u, \"burst_frame_ms\": %.4f, \"after_burst_frame_ms\": %.4f, ",
		p->burst_frames, p->burst_ms, p->after_burst_ms);
	fprintf(f, "\"raster_threads\": ");
	json_num(f, "%.0f", p->raster_threads >= 0 ? p->raster_threads : NAN);
	fprintf(f, ", \"machine_busy_pct\": ");
	json_num(f, "%.2f", p->machine_busy_pct >= 0 ? p->machine_busy_pct : NAN);
	fprintf(f, ", ");
	/* Where GPU timing changes the driver's work, say so with the figures. */
	fprintf(f, "\"gpu_timing_changes_work\": %s, ", p->changes_work ? "true" : "false");
	fprintf(f, "\"overhead_method\": \"%s\", \"source_gpu_mean_us\": %.3f, ",
		p->composed ? "composed" : "direct", bench_source_gpu_mean(p));
	json_frames(f, "frames_timed", &p->timed, NULL);
	fprintf(f, ",\n     ");
	json_frames(f, "frames_off", &p->off, p->off_ms);
	fprintf(f, ",\n     ");
	json_frames(f, "frames_empty", &p->empty, NULL);
	fprintf(f, ",\n     ");
	json_frames(f, "frames_cpu", &p->cpu, NULL);
	fprintf(f, ",\n     ");
	json_frames(f, "frames_cpu_gpu", &p->gpu, NULL);
	fprintf(f, ",\n     ");
	json_ratio(f, "overhead_cpu", &p->ratio_cpu, p->pairs);
	fprintf(f, ",\n     ");
	json_ratio(f, "overhead_cpu_gpu", &p->ratio_gpu, p->pairs);
	fprintf(f, ",\n     ");
	/* --work: CPU+GPU with work counting, and what counting adds to
	 * timing alone in points of frame time; null without. */
	if (o->work) {
		json_frames(f, "frames_cpu_gpu_work", &p->gpu_work, NULL);
		fprintf(f, ",\n     ");
		json_ratio(f, "overhead_cpu_gpu_work", &p->ratio_work, p->pairs);
		fprintf(f, ",\n     ");
		json_ratio(f, "work_overhead_points", &p->work_points, p->pairs);
	} else {
		fprintf(f, "\"frames_cpu_gpu_work\": null, \"overhead_cpu_gpu_work\": null, "
			   "\"work_overhead_points\": null");
	}
	fprintf(f, ",\n     ");
	json_ratio(f, "source_cost_us", &p->source_cost, p->pairs);
	fprintf(f, ",\n     ");
	json_ratio(f, "source_cpu_time_us", &p->source_work, p->pairs);
	fprintf(f, ",\n     ");
	json_ratio(f, "overhead_cpu_time", &p->ratio_cpu_work, p->pairs);
	fprintf(f, ",\n     \"cpu_time_ms_per_frame\": {\"off\": %.4f, \"cpu\": %.4f, "
		   "\"none\": %.4f}",
		bench_cpu_per_frame(p, MODE_OFF), bench_cpu_per_frame(p, MODE_CPU),
		bench_cpu_per_frame(p, MODE_EMPTY));
	/* null: not replayed (the run was interrupted first). */
	fprintf(f, ",\n     \"profiler_own_ns_per_source\": {\"cpu\": ");
	json_num(f, "%.6f", replayed ? p->prof_cpu_ns : NAN);
	fprintf(f, ", \"cpu_gpu\": ");
	json_num(f, "%.6f", replayed ? p->prof_gpu_ns : NAN);
	fprintf(f, ", \"views\": %u}", o->scene->views);
	fprintf(f, ",\n     \"sources_detail\": [");
	for (uint32_t k = 0; k < p->n_src; k++) {
		const bench_source *b = &p->src[k];
		fprintf(f, "%s\n       {\"name\": ", k ? "," : "");
		json_string(f, b->name);
		fprintf(f, ", \"type\": ");
		json_string(f, b->type);
		fprintf(f, ", \"gpu_avg_us\": %.3f, \"gpu_p50_us\": %.3f, \"gpu_p95_us\": %.3f, "
			   "\"gpu_max_us\": %.3f, \"gpu_samples\": %u, \"cpu_samples\": %u, "
			   "\"share\": %.5f, \"tick_avg_us\": %.3f, \"render_avg_us\": %.3f, "
			   "\"render_sum_us\": %.3f",
			b->gpu_avg, b->gpu_p50, b->gpu_p95, b->gpu_max, b->gpu_samples,
			b->cpu_samples, b->share, b->tick_avg, b->render_avg, b->render_sum);
		/* Its GPU average on each queue (the point's "queues" order). */
		fprintf(f, ", \"gpu_by_queue_us\": [");
		for (uint32_t q = 0; q < p->n_queues; q++)
			fprintf(f, "%s%.3f", q ? ", " : "", b->queue_gpu[q]);
		fprintf(f, "]");
		if (b->isolated >= 0) {
			fprintf(f, ", \"isolated_us\": %.3f, \"in_frame_over_alone\": %.4f",
				b->isolated, b->in_over_alone);
			json_rounds(f, "isolated_rounds_us", b->alone_us, b->alone_rounds);
			json_rounds(f, "in_frame_rounds_us", b->in_frame_us, b->alone_rounds);
		}
		if (b->isolated >= 0 && b->marginal >= 0) {
			fprintf(f, ", \"marginal_us\": %.3f, \"in_frame_over_marginal\": %.4f",
				b->marginal, b->in_over_marginal);
			json_rounds(f, "marginal_rounds_us", b->marginal_us, b->marginal_rounds);
		}
		bench_json_work(f, o, b);
		/* Each frame's figures in the profiler's window, oldest
		 * first: what compare tests. */
		fprintf(f, ",\n        \"samples\": {");
		json_ns(f, "tick_ns", b->tick_ns, b->n_cpu);
		fprintf(f, ", ");
		json_ns(f, "render_sum_ns", b->render_ns, b->n_cpu);
		fprintf(f, ", ");
		json_ns(f, "gpu_sum_ns", b->gpu_ns, b->n_gpu);
		fprintf(f, "}}");
	}
	fprintf(f, "]}");
}

bool bench_write_json(const char *path, const bench_opts *o, const bench_result *r)
{
	out_file of;
	FILE *f = out_open(&of, path, "w");
	if (!f)
		return false;
	fprintf(f, "{\n  \"generator\": \"srcprof-bench\",\n  \"machine\": ");
	json_string(f, r->machine);
	fprintf(f, ",\n  \"git\": ");
	json_string(f, r->git);
	fprintf(f, ",\n  \"scene\": ");
	json_string(f, o->scene->name);
	fprintf(f, ",\n  \"frames\": %u, \"warmup\": %u, \"repeat\": %u, \"gpu_budget\": %.4f, "
		   "\"size\": [%u, %u], \"isolate\": %s, \"isolate_rounds\": %u, \"work\": %s,\n"
		   "  \"wall_s\": %.1f, ",
		o->frames, o->warmup, o->repeat, o->gpu_budget, o->width, o->height,
		o->isolate ? "true" : "false", o->isolate_rounds, o->work ? "true" : "false",
		r->wall_s);
	/* An interrupted run holds the points it finished (of those planned). */
	fprintf(f, "\"interrupted\": %s, ", r->interrupted ? "true" : "false");
	if (r->interrupted) {
		fprintf(f, "\"interrupted_by\": ");
		json_string(f, bench_signal_name(r->interrupted));
		fprintf(f, ", ");
	}
	fprintf(f, "\"points_planned\": %u,\n  \"points\": [", r->planned);
	for (uint32_t i = 0; i < r->n_points; i++)
		json_point(f, o, &r->points[i], i == 0, r->replayed);
	/* --runs: every later run's points, in the same order, each run a
	 * sample for compare. */
	fprintf(f, "\n  ],\n  \"runs\": %u, \"runs_asked\": %u,\n  \"other_runs\": [", 1 + r->n_more,
		o->runs);
	for (uint32_t k = 0; k < r->n_more; k++) {
		fprintf(f, "%s\n    {\"run\": %u, \"points\": [", k ? "," : "", k + 2);
		for (uint32_t i = 0; i < r->n_points; i++)
			json_point(f, o, &r->more[k][i], i == 0, false);
		fprintf(f, "\n    ]}");
	}
	fprintf(f, "\n  ],\n  \"scaling\": [");
	bench_scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = bench_scalings(r, sc);
	/* The profiler's own cost is null in every series where it was not
	 * replayed. */
	bool measured[BENCH_N_SERIES] = {true, true, r->replayed, r->replayed};
	for (uint32_t k = 0; k < n_sc; k++) {
		const bench_scaling *c = &sc[k];
		fprintf(f, "%s\n    {\"api\": \"%s\", \"record_threads\": %u, \"from\": %.0f, "
			   "\"to\": %.0f, ",
			k ? "," : "", c->api, r->points[c->first].record_threads,
			bench_held(&r->points[c->first]), bench_held(&r->points[c->first + c->n - 1]));
		for (int m = 0; m < BENCH_N_SERIES; m++) {
			json_spread(f, bench_series_names[m], measured[m] ? &c->per_source[m] : NULL);
			fprintf(f, ", ");
		}
		json_spread(f, "src_gpu_us", &c->gpu);
		fprintf(f, ", \"added\": {\"steps\": [");
		for (uint32_t j = 0; j < c->added.n; j++) {
			fprintf(f, "%s{\"from\": %.0f, \"to\": %.0f", j ? ", " : "", c->added.from[j],
				c->added.to[j]);
			for (int m = 0; m < BENCH_N_SERIES; m++) {
				fprintf(f, ", \"%s\": ", bench_series_names[m]);
				json_num(f, "%.4f", measured[m] ? c->added.v[m][j] : NAN);
			}
			fputc('}', f);
		}
		fputc(']', f);
		for (int m = 0; c->added.n && m < BENCH_N_SERIES; m++) {
			fprintf(f, ", ");
			json_spread(f, bench_series_names[m], measured[m] ? &c->added.range[m] : NULL);
		}
		fputc('}', f);
		if (c->fitted)
			fprintf(f, ", \"fit\": {\"once_us\": %.3f, \"each_us\": %.4f, "
				   "\"largest_deviation\": %.4f, \"linear_within_10pct\": %s}",
				c->once, c->each, c->worst, c->worst <= 0.1 ? "true" : "false");
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
	return out_commit(&of);
}
