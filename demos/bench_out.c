/* srcprof-bench output: the table on stdout, JSON with every figure, a CSV
 * row per source, and an SVG chart (per-source GPU bars; frame cost against
 * the number of sources). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_gpu(const void *a, const void *b)
{
	const bench_source *x = a, *y = b;
	return (x->gpu_avg < y->gpu_avg) - (x->gpu_avg > y->gpu_avg);
}

/* Sources of a point, costliest first (a copy the caller frees). */
static bench_source *sorted_sources(const bench_point *p)
{
	bench_source *s = malloc((p->n_src ? p->n_src : 1) * sizeof *s);
	if (s) {
		memcpy(s, p->src, p->n_src * sizeof *s);
		qsort(s, p->n_src, sizeof *s, by_gpu);
	}
	return s;
}

static double pct(double ratio)
{
	return (ratio - 1.0) * 100.0;
}

/* The sources the scene held (a scene may add to --sources: calibrated's
 * backdrop). */
static double held(const bench_point *p)
{
	return p->n_src ? p->n_src : p->sources;
}

/* CPU time of all threads per frame in a mode, ms, over every pair. */
static double cpu_per_frame(const bench_point *p, int mode)
{
	return p->cpu_frames[mode] > 0 ? p->cpu_time[mode] / p->cpu_frames[mode] : 0;
}

/* The mean of the sources' in-frame GPU averages, us. */
static double source_gpu_mean(const bench_point *p)
{
	double sum = 0;
	for (uint32_t i = 0; i < p->n_src; i++)
		sum += p->src[i].gpu_avg;
	return p->n_src ? sum / p->n_src : 0;
}

/* Whether v[0..n-1] (all > 0) stay within 20% (max / min <= 1.2); the
 * range goes to *lo, *hi. */
static bool flat(const double *v, uint32_t n, double *lo, double *hi)
{
	*lo = 1e300;
	*hi = -1e300;
	for (uint32_t i = 0; i < n; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
	return *lo > 0 && *hi / *lo <= 1.2;
}

/* Fits the frame time the sources add, y = cost * N (us), with
 * once + each * N, each point weighed by its relative error (least squares
 * on (fit - y) / y); returns the largest relative deviation. */
static double fit_line(const bench_point *pts, uint32_t n, double *once, double *each)
{
	double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
	for (uint32_t i = 0; i < n; i++) {
		double x = held(&pts[i]), y = pts[i].source_cost.median * x;
		if (y <= 0)
			continue;
		double w = 1.0 / (y * y);
		s00 += w;
		s01 += w * x;
		s11 += w * x * x;
		r0 += w * y;
		r1 += w * x * y;
	}
	double det = s00 * s11 - s01 * s01;
	*once = det != 0 ? (r0 * s11 - r1 * s01) / det : 0;
	*each = det != 0 ? (s00 * r1 - s01 * r0) / det : 0;
	double worst = 0;
	for (uint32_t i = 0; i < n; i++) {
		double x = held(&pts[i]), y = pts[i].source_cost.median * x;
		if (y > 0)
			worst = fmax(worst, fabs(*once + *each * x - y) / y);
	}
	return worst;
}

/* A range of values and whether it stays within 20%. */
typedef struct spread {
	double lo, hi;
	bool flat;
} spread;

/* The per-source series a sweep judges, as in the table: frame time (us),
 * CPU time of all threads (us), the profiler's own cost with CPU timing
 * and with CPU+GPU timing (ns); their names in the JSON. */
enum { SERIES_COST, SERIES_WORK, SERIES_PROF, SERIES_PROF_GPU, N_SERIES };
static const char *const series_names[N_SERIES] = {
	"cost_per_source_us", "cpu_time_per_source_us", "profiler_cpu_ns_per_source",
	"profiler_cpu_gpu_ns_per_source"};

/* What each source added from one count to the next (counts ascending):
 * the difference of the sources' whole cost (per source x sources) over
 * the difference of the counts, per series. A cost that comes once per
 * frame with any source at all (a rasterizer scene with work in it; the
 * profiler's frame begin and collect) is in no step; it is in every
 * per-source figure, weighing on the small counts. */
typedef struct steps {
	uint32_t n;
	double from[BENCH_MAX_POINTS], to[BENCH_MAX_POINTS]; /* sources */
	double v[N_SERIES][BENCH_MAX_POINTS];
	spread range[N_SERIES];
} steps;

/* The verdicts of one API's sweep (its points in a row). */
typedef struct scaling {
	const char *api;
	uint32_t first, n; /* points */
	spread per_source[N_SERIES]; /* each series over the points */
	spread gpu;        /* the profiler's in-frame GPU figure per source */
	steps added;       /* each source added, count to count */
	bool fitted;       /* 3 points or more */
	double once, each, worst;
} scaling;

static spread spread_of(const double *v, uint32_t n)
{
	spread s;
	s.flat = flat(v, n, &s.lo, &s.hi);
	return s;
}

static int by_held(const void *a, const void *b)
{
	const bench_point *x = *(const bench_point *const *)a, *y = *(const bench_point *const *)b;
	if (held(x) != held(y))
		return (held(x) > held(y)) - (held(x) < held(y));
	/* Equal counts in the order given: the step from them starts at
	 * the last (as bench_check takes it). */
	return (x > y) - (x < y);
}

/* A point's figure of one series, per source. */
static double series_of(const bench_point *p, int k)
{
	return k == SERIES_COST   ? p->source_cost.median
	       : k == SERIES_WORK ? p->source_work.median
	       : k == SERIES_PROF ? p->prof_cpu_ns
				  : p->prof_gpu_ns;
}

/* The steps between the n points at pts, by ascending count (equal counts
 * give no step). */
static void steps_of(const bench_point *pts, uint32_t n, steps *st)
{
	const bench_point *by[BENCH_MAX_POINTS];
	for (uint32_t i = 0; i < n; i++)
		by[i] = &pts[i];
	qsort(by, n, sizeof *by, by_held);
	st->n = 0;
	for (uint32_t i = 1; i < n; i++) {
		double a = held(by[i - 1]), b = held(by[i]);
		if (b <= a)
			continue;
		uint32_t j = st->n++;
		st->from[j] = a;
		st->to[j] = b;
		for (int k = 0; k < N_SERIES; k++)
			st->v[k][j] = (series_of(by[i], k) * b - series_of(by[i - 1], k) * a) / (b - a);
	}
	for (int k = 0; k < N_SERIES; k++)
		st->range[k] = spread_of(st->v[k], st->n);
}

/* The sweeps in r, one per API with 2 points or more; returns how many. */
static uint32_t scalings(const bench_result *r, scaling *out)
{
	uint32_t found = 0;
	for (uint32_t i = 0; i < r->n_points;) {
		uint32_t j = i;
		while (j < r->n_points && !strcmp(r->points[j].api, r->points[i].api))
			j++;
		uint32_t n = j - i < BENCH_MAX_POINTS ? j - i : BENCH_MAX_POINTS;
		if (n > 1) {
			double v[N_SERIES][BENCH_MAX_POINTS], gpu[BENCH_MAX_POINTS];
			for (uint32_t k = 0; k < n; k++) {
				for (int m = 0; m < N_SERIES; m++)
					v[m][k] = series_of(&r->points[i + k], m);
				gpu[k] = source_gpu_mean(&r->points[i + k]);
			}
			scaling *sc = &out[found++];
			*sc = (scaling){.api = r->points[i].api, .first = i, .n = n};
			for (int m = 0; m < N_SERIES; m++)
				sc->per_source[m] = spread_of(v[m], n);
			sc->gpu = spread_of(gpu, n);
			steps_of(&r->points[i], n, &sc->added);
			sc->fitted = n > 2;
			if (sc->fitted)
				sc->worst = fit_line(&r->points[i], n, &sc->once, &sc->each);
		}
		i = j;
	}
	return found;
}

static const char *flat_text(bool flat)
{
	return flat ? "flat within 20%" : "NOT flat within 20%";
}

/* One verdict line on what each added source cost, step by step. */
static void print_steps(FILE *out, const char *api, const char *what, const char *unit,
			const steps *st, int k)
{
	if (!st->n)
		return;
	const spread *sp = &st->range[k];
	fprintf(out, "%s: each source added, %s:", api, what);
	for (uint32_t j = 0; j < st->n; j++)
		fprintf(out, "%s %.0f->%.0f %.2f", j ? "," : "", st->from[j], st->to[j], st->v[k][j]);
	fprintf(out, " %s (max/min %.2f): %s\n", unit, sp->hi / (sp->lo > 0 ? sp->lo : 1),
		flat_text(sp->flat));
}

/* How frame and profiler cost grow with the number of sources, per API,
 * and whether the cost per source stays flat. */
static void print_scaling(FILE *out, const bench_opts *o, const bench_result *r)
{
	fprintf(out,
		"\nscaling (%s):\n%6s %8s %9s %9s %10s %-22s %8s %8s %9s %9s %10s %9s\n"
		"%6s %8s %9s %9s %10s %-22s %8s %8s %9s %9s %10s %9s\n",
		o->scene->name, "api", "sources", "frame ms", "none ms", "us/source", " (spread)",
		"CPU us", "src GPU", "CPU prof", "GPU prof", "GPU prof", "own prof", "", "", "(off)",
		"", "", "", "/source", "us", "", "", "us/source", "ns/source");
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		double n = held(p) > 0 ? held(p) : 1;
		char range[40];
		snprintf(range, sizeof range, " (%.2f .. %.2f)", p->source_cost.min, p->source_cost.max);
		fprintf(out,
			"%6s %8.0f %9.2f %9.2f %10.2f %-22s %8.2f %8.1f %8.2f%% %8.2f%% %10.2f %9.1f\n",
			p->api, held(p), p->off.mean, p->empty.mean, p->source_cost.median, range,
			p->source_work.median, source_gpu_mean(p), pct(p->ratio_cpu.median),
			pct(p->ratio_gpu.median), pct(p->ratio_gpu.median) / 100 * p->off.mean * 1000 / n,
			p->prof_cpu_ns);
	}
	fprintf(out, "us/source: (frame with the profiler off - frame with no sources) / sources, "
		     "median (spread)\nof the interleaved pairs; CPU us/source: the same in CPU time of "
		     "all threads (the work,\nwherever it ran); src GPU: the mean of the sources' "
		     "in-frame GPU figures;\nGPU prof us/source: the CPU+GPU overhead per source; own "
		     "prof: the profiler's own CPU\ncost per source and frame with CPU timing, its calls "
		     "replayed without drawing\n");
	scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = scalings(r, sc);
	for (uint32_t k = 0; k < n_sc; k++) {
		const scaling *s = &sc[k];
		const spread *cost = &s->per_source[SERIES_COST], *work = &s->per_source[SERIES_WORK],
			     *prof = &s->per_source[SERIES_PROF],
			     *prof_gpu = &s->per_source[SERIES_PROF_GPU];
		const bench_point *a = &r->points[s->first], *b = &r->points[s->first + s->n - 1];
		fprintf(out, "%s: cost per source %.2f .. %.2f us from %.0f to %.0f sources (max/min "
			     "%.2f): %s\n",
			s->api, cost->lo, cost->hi, held(a), held(b),
			cost->hi / (cost->lo > 0 ? cost->lo : 1), flat_text(cost->flat));
		fprintf(out, "%s: CPU time (all threads) per source %.2f .. %.2f us (max/min %.2f): %s\n",
			s->api, work->lo, work->hi, work->hi / (work->lo > 0 ? work->lo : 1),
			flat_text(work->flat));
		print_steps(out, s->api, "frame time", "us", &s->added, SERIES_COST);
		print_steps(out, s->api, "CPU time", "us", &s->added, SERIES_WORK);
		fprintf(out, "%s: the profiler's own cost per source %.1f .. %.1f ns with CPU timing "
			     "(max/min %.2f): %s;\n  %.1f .. %.1f ns with CPU+GPU timing, every frame "
			     "timed (max/min %.2f): %s\n",
			s->api, prof->lo, prof->hi, prof->hi / (prof->lo > 0 ? prof->lo : 1),
			flat_text(prof->flat), prof_gpu->lo, prof_gpu->hi,
			prof_gpu->hi / (prof_gpu->lo > 0 ? prof_gpu->lo : 1), flat_text(prof_gpu->flat));
		print_steps(out, s->api, "the profiler's own cost, CPU timing", "ns", &s->added,
			    SERIES_PROF);
		print_steps(out, s->api, "the profiler's own cost, CPU+GPU timing", "ns", &s->added,
			    SERIES_PROF_GPU);
		if (s->fitted)
			fprintf(out, "%s: the sources add %.1f us once + %.2f us each to the frame "
				     "(fit; largest deviation %.1f%%: %s)\n",
				s->api, s->once, s->each, s->worst * 100,
				s->worst <= 0.1 ? "linear within 10%" : "NOT linear within 10%");
		fprintf(out, "%s: the profiler's in-frame GPU figure per source %.1f .. %.1f us "
			     "(max/min %.2f): %s\n",
			s->api, s->gpu.lo, s->gpu.hi, s->gpu.hi / (s->gpu.lo > 0 ? s->gpu.lo : 1),
			flat_text(s->gpu.flat));
		if (!s->gpu.flat && a->software)
			fprintf(out, "  (a timer costs this software device %.0f us, jittering by "
				     "tens of us: figures for sources\n  much cheaper than that are "
				     "its noise; --isolate measures them alone)\n",
				b->timer_overhead);
	}
}

void bench_print(FILE *out, const bench_opts *o, const bench_result *r)
{
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		fprintf(out, "\n== %s, scene %s, %u sources", p->api, o->scene->name, p->sources);
		if (p->n_src && p->n_src != p->sources)
			fprintf(out, " (the scene holds %u)", p->n_src);
		fprintf(out, ": %s (%s)\n", p->device, p->driver);
		fprintf(out, "GPU timing mode: %s%s; an empty timer costs %.1f us and is subtracted\n",
			p->mode, p->software ? " (software device)" : "", p->timer_overhead);
		fprintf(out, "frames (every frame GPU-timed): mean %.2f ms, p50 %.2f, p95 %.2f, p99 "
			     "%.2f, %.1f fps; the frame's GPU time %.1f us\n",
			p->timed.mean, p->timed.p50, p->timed.p95, p->timed.p99, p->timed.fps,
			p->frame_gpu_avg);
		bench_source *s = sorted_sources(p);
		if (s) {
			bool iso = false;
			for (uint32_t k = 0; k < p->n_src; k++)
				iso |= s[k].isolated >= 0;
			fprintf(out, "%-22s %-9s %9s %9s %9s %9s %6s %8s %8s%s\n", "source (us)", "type",
				"GPU avg", "p50", "p95", "max", "share", "tick", "render",
				iso ? "     alone  in/alone" : "");
			uint32_t shown = p->n_src < 25 ? p->n_src : 25;
			for (uint32_t k = 0; k < shown; k++) {
				const bench_source *b = &s[k];
				fprintf(out, "%-22.22s %-9.9s %9.1f %9.1f %9.1f %9.1f %5.1f%% %8.1f %8.1f",
					b->name, b->type, b->gpu_avg, b->gpu_p50, b->gpu_p95, b->gpu_max,
					b->share * 100, b->tick_avg, b->render_sum);
				if (b->isolated >= 0)
					fprintf(out, " %9.1f %8.3f", b->isolated, b->in_over_alone);
				fputc('\n', out);
			}
			if (p->n_src > shown)
				fprintf(out, "... %u more sources (all in --json and --csv)\n",
					p->n_src - shown);
			fprintf(out, "GPU: us a frame, all the source's renders; tick, render: CPU us a "
				     "frame (render: all renders)\n");
			if (iso)
				fprintf(out, "alone: the source's draws in a submission of their own "
					     "(with minus without); in/alone:\nthe median over %d rounds, "
					     "each a 5-frame in-frame window then the source alone\n",
					BENCH_ISOLATE_ROUNDS);
			free(s);
		}
		fprintf(out, "overhead, %u interleaved pairs (median, spread):\n", p->pairs);
		fprintf(out, "  off      mean %8.2f ms  p50 %8.2f  p95 %8.2f  p99 %8.2f  (%u frames)\n",
			p->off.mean, p->off.p50, p->off.p95, p->off.p99, p->off.frames);
		fprintf(out, "  none     mean %8.2f ms  (the frame with no sources: passes, clears, "
			     "submission)\n",
			p->empty.mean);
		fprintf(out, "  each source costs %.2f us (%.2f .. %.2f) of frame time: (off - none) / "
			     "%.0f\n",
			p->source_cost.median, p->source_cost.min, p->source_cost.max, held(p));
		fprintf(out, "  and %.2f us (%.2f .. %.2f) of CPU time, all threads (the work, wherever "
			     "it ran)\n",
			p->source_work.median, p->source_work.min, p->source_work.max);
		fprintf(out, "  CPU      mean %8.2f ms  %+6.2f%% (%+.2f .. %+.2f)\n", p->cpu.mean,
			pct(p->ratio_cpu.median), pct(p->ratio_cpu.min), pct(p->ratio_cpu.max));
		fprintf(out, "           CPU time, all threads: %.3f ms a frame against %.3f off, %+.2f%% "
			     "(%+.2f .. %+.2f)\n",
			cpu_per_frame(p, MODE_CPU), cpu_per_frame(p, MODE_OFF), pct(p->ratio_cpu_work.median),
			pct(p->ratio_cpu_work.min), pct(p->ratio_cpu_work.max));
		fprintf(out, "  CPU+GPU  mean %8.2f ms  %+6.2f%% (%+.2f .. %+.2f), one frame in %u "
			     "GPU-timed (budget %.1f%%)%s\n",
			p->gpu.mean, pct(p->ratio_gpu.median), pct(p->ratio_gpu.min),
			pct(p->ratio_gpu.max), p->gpu_every, o->gpu_budget * 100,
			p->composed ? ",\n           composed: untimed blocks + (timed block - untimed) / N; mean and "
				      "frames: untimed"
				    : "");
		fprintf(out, "  the profiler's own cost, its calls for these sources and %u views "
			     "replayed without\n  drawing: %.1f ns per source and frame with CPU timing, "
			     "%.1f with CPU+GPU (every frame)\n",
			o->scene->views, p->prof_cpu_ns, p->prof_gpu_ns);
		if (p->software)
			fprintf(out, "  note: on this software device GPU timing changes the driver's "
				     "work (each timer\n  flushes, splitting a timed frame into small "
				     "scenes): the CPU+GPU figure\n  measures that; the CPU figure is "
				     "the profiler's own cost.\n");
		if (p->failures)
			fprintf(out, "  %u validation messages during the run\n", p->failures);
	}
	if (r->n_points > 1)
		print_scaling(out, o, r);
	fprintf(out, "\n%s; git %s; %.0f s\n", r->machine, r->git, r->wall_s);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_frames(FILE *f, const char *name, const bench_frames *b)
{
	fprintf(f, "\"%s\": {\"frames\": %u, \"mean_ms\": %.4f, \"p50_ms\": %.4f, \"p95_ms\": %.4f, "
		   "\"p99_ms\": %.4f, \"fps\": %.3f}",
		name, b->frames, b->mean, b->p50, b->p95, b->p99, b->fps);
}

static void json_ratio(FILE *f, const char *name, const bench_ratio *r, uint32_t n)
{
	fprintf(f, "\"%s\": {\"median\": %.5f, \"min\": %.5f, \"max\": %.5f, \"pairs\": [", name,
		r->median, r->min, r->max);
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%.5f", i ? ", " : "", r->pair[i]);
	fprintf(f, "]}");
}

static void json_spread(FILE *f, const char *name, const spread *s)
{
	fprintf(f, "\"%s\": {\"min\": %.4f, \"max\": %.4f, \"flat_within_20pct\": %s}", name, s->lo,
		s->hi, s->flat ? "true" : "false");
}

bool bench_write_json(const char *path, const bench_opts *o, const bench_result *r)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fprintf(f, "{\n  \"generator\": \"srcprof-bench\",\n  \"machine\": ");
	json_str(f, r->machine);
	fprintf(f, ",\n  \"git\": ");
	json_str(f, r->git);
	fprintf(f, ",\n  \"scene\": ");
	json_str(f, o->scene->name);
	fprintf(f, ",\n  \"frames\": %u, \"warmup\": %u, \"repeat\": %u, \"gpu_budget\": %.4f, "
		   "\"size\": [%u, %u],\n  \"wall_s\": %.1f,\n  \"points\": [",
		o->frames, o->warmup, o->repeat, o->gpu_budget, o->width, o->height, r->wall_s);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		fprintf(f, "%s\n    {\"api\": ", i ? "," : "");
		json_str(f, p->api);
		fprintf(f, ", \"sources\": %u, \"sources_held\": %.0f, \"pairs\": %u, \"device\": ",
			p->sources, held(p), p->pairs);
		json_str(f, p->device);
		fprintf(f, ", \"driver\": ");
		json_str(f, p->driver);
		fprintf(f, ", \"gpu_timing\": ");
		json_str(f, p->mode);
		fprintf(f, ", \"software\": %s, \"frame_gpu_us\": %.3f, \"timer_overhead_us\": %.3f, "
			   "\"gpu_timed_every\": %u, \"validation_messages\": %u,\n     ",
			p->software ? "true" : "false", p->frame_gpu_avg, p->timer_overhead, p->gpu_every,
			p->failures);
		/* Where GPU timing changes the driver's work, say so with the figures. */
		fprintf(f, "\"gpu_timing_changes_work\": %s, ", p->software ? "true" : "false");
		fprintf(f, "\"overhead_method\": \"%s\", \"source_gpu_mean_us\": %.3f, ",
			p->composed ? "composed" : "direct", source_gpu_mean(p));
		json_frames(f, "frames_timed", &p->timed);
		fprintf(f, ",\n     ");
		json_frames(f, "frames_off", &p->off);
		fprintf(f, ",\n     ");
		json_frames(f, "frames_empty", &p->empty);
		fprintf(f, ",\n     ");
		json_frames(f, "frames_cpu", &p->cpu);
		fprintf(f, ",\n     ");
		json_frames(f, "frames_cpu_gpu", &p->gpu);
		fprintf(f, ",\n     ");
		json_ratio(f, "overhead_cpu", &p->ratio_cpu, p->pairs);
		fprintf(f, ",\n     ");
		json_ratio(f, "overhead_cpu_gpu", &p->ratio_gpu, p->pairs);
		fprintf(f, ",\n     ");
		json_ratio(f, "source_cost_us", &p->source_cost, p->pairs);
		fprintf(f, ",\n     ");
		json_ratio(f, "source_cpu_time_us", &p->source_work, p->pairs);
		fprintf(f, ",\n     ");
		json_ratio(f, "overhead_cpu_time", &p->ratio_cpu_work, p->pairs);
		fprintf(f, ",\n     \"cpu_time_ms_per_frame\": {\"off\": %.4f, \"cpu\": %.4f, "
			   "\"none\": %.4f}",
			cpu_per_frame(p, MODE_OFF), cpu_per_frame(p, MODE_CPU), cpu_per_frame(p, MODE_EMPTY));
		fprintf(f, ",\n     \"profiler_own_ns_per_source\": {\"cpu\": %.6f, \"cpu_gpu\": %.6f, "
			   "\"views\": %u}",
			p->prof_cpu_ns, p->prof_gpu_ns, o->scene->views);
		fprintf(f, ",\n     \"sources_detail\": [");
		for (uint32_t k = 0; k < p->n_src; k++) {
			const bench_source *b = &p->src[k];
			fprintf(f, "%s\n       {\"name\": ", k ? "," : "");
			json_str(f, b->name);
			fprintf(f, ", \"type\": ");
			json_str(f, b->type);
			fprintf(f, ", \"gpu_avg_us\": %.3f, \"gpu_p50_us\": %.3f, \"gpu_p95_us\": %.3f, "
				   "\"gpu_max_us\": %.3f, \"gpu_samples\": %u, \"share\": %.5f, "
				   "\"tick_avg_us\": %.3f, \"render_avg_us\": %.3f, \"render_sum_us\": %.3f",
				b->gpu_avg, b->gpu_p50, b->gpu_p95, b->gpu_max, b->gpu_samples, b->share,
				b->tick_avg, b->render_avg, b->render_sum);
			if (b->isolated >= 0)
				fprintf(f, ", \"isolated_us\": %.3f, \"in_frame_over_alone\": %.4f",
					b->isolated, b->in_over_alone);
			fputc('}', f);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n  \"scaling\": [");
	scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = scalings(r, sc);
	for (uint32_t k = 0; k < n_sc; k++) {
		const scaling *c = &sc[k];
		fprintf(f, "%s\n    {\"api\": \"%s\", \"from\": %.0f, \"to\": %.0f, ", k ? "," : "",
			c->api, held(&r->points[c->first]), held(&r->points[c->first + c->n - 1]));
		for (int m = 0; m < N_SERIES; m++) {
			json_spread(f, series_names[m], &c->per_source[m]);
			fprintf(f, ", ");
		}
		json_spread(f, "src_gpu_us", &c->gpu);
		fprintf(f, ", \"added\": {\"steps\": [");
		for (uint32_t j = 0; j < c->added.n; j++) {
			fprintf(f, "%s{\"from\": %.0f, \"to\": %.0f", j ? ", " : "", c->added.from[j],
				c->added.to[j]);
			for (int m = 0; m < N_SERIES; m++)
				fprintf(f, ", \"%s\": %.4f", series_names[m], c->added.v[m][j]);
			fputc('}', f);
		}
		fputc(']', f);
		for (int m = 0; c->added.n && m < N_SERIES; m++) {
			fprintf(f, ", ");
			json_spread(f, series_names[m], &c->added.range[m]);
		}
		fputc('}', f);
		if (c->fitted)
			fprintf(f, ", \"fit\": {\"once_us\": %.3f, \"each_us\": %.4f, "
				   "\"largest_deviation\": %.4f, \"linear_within_10pct\": %s}",
				c->once, c->each, c->worst, c->worst <= 0.1 ? "true" : "false");
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
	bool ok = !ferror(f);
	return (fclose(f) == 0) && ok;
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

bool bench_write_csv(const char *path, const bench_result *r)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("api,sources,source,type,gpu_avg_us,gpu_p50_us,gpu_p95_us,gpu_max_us,gpu_samples,"
	      "share,tick_avg_us,render_avg_us,render_sum_us,isolated_us,gpu_timing\n",
	      f);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		for (uint32_t k = 0; k < p->n_src; k++) {
			const bench_source *b = &p->src[k];
			fprintf(f, "%s,%u,", p->api, p->sources);
			csv_field(f, b->name);
			fprintf(f, ",%s,%.3f,%.3f,%.3f,%.3f,%u,%.5f,%.3f,%.3f,%.3f,", b->type, b->gpu_avg,
				b->gpu_p50, b->gpu_p95, b->gpu_max, b->gpu_samples, b->share, b->tick_avg,
				b->render_avg, b->render_sum);
			if (b->isolated >= 0)
				fprintf(f, "%.3f", b->isolated);
			fprintf(f, ",%s\n", p->mode);
		}
	}
	bool ok = !ferror(f);
	return (fclose(f) == 0) && ok;
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Chart 1: the first point's sources as horizontal bars (avg, with the
 * p95 as a whisker). Chart 2, with several points: frame time (profiler
 * off, CPU, CPU+GPU) against the number of sources, log-log. */
bool bench_write_svg(const char *path, const bench_opts *o, const bench_result *r)
{
	if (!r->n_points)
		return false;
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	const bench_point *p = &r->points[0];
	bench_source *s = sorted_sources(p);
	uint32_t bars = p->n_src < 40 ? p->n_src : 40;
	double w = 900, bar_h = 18, top = 60, left = 200, chart_w = 600;
	double h1 = top + bars * bar_h + 40, h2 = r->n_points > 1 ? 380 : 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n",
		w, h1 + h2);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"16\">GPU time per source (us per frame, all "
		   "passes): ");
	xml_text(f, p->api);
	fprintf(f, ", scene %s, %.0f sources, ", o->scene->name, held(p));
	xml_text(f, p->mode);
	fprintf(f, "</text>\n<text x=\"10\" y=\"42\" fill=\"#555\">");
	xml_text(f, p->device);
	fprintf(f, "; bar = average, line = p95</text>\n");
	double max = 0;
	for (uint32_t k = 0; s && k < bars; k++)
		max = fmax(max, fmax(s[k].gpu_avg, s[k].gpu_p95));
	if (max <= 0)
		max = 1;
	for (uint32_t k = 0; s && k < bars; k++) {
		double y = top + k * bar_h, bw = s[k].gpu_avg / max * chart_w;
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 13);
		xml_text(f, s[k].name);
		fprintf(f, "</text>\n<rect class=\"bar\" x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" "
			   "height=\"%.1f\" fill=\"#4a90d9\"><title>",
			left, y + 2, bw, bar_h - 4);
		xml_text(f, s[k].name);
		fprintf(f, ": %.1f us avg, p95 %.1f</title></rect>\n", s[k].gpu_avg, s[k].gpu_p95);
		double px = left + s[k].gpu_p95 / max * chart_w;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\"/>\n",
			px, y + 2, px, y + bar_h - 2);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">%.1f</text>\n", left + bw + 4,
			y + 13, s[k].gpu_avg);
	}
	free(s);
	if (r->n_points > 1) {
		double y0 = h1 + 40, ch = 280, cw = 700, x0 = 120;
		double nmin = 1e30, nmax = 0, tmin = 1e30, tmax = 0;
		for (uint32_t i = 0; i < r->n_points; i++) {
			const bench_point *q = &r->points[i];
			nmin = fmin(nmin, held(q));
			nmax = fmax(nmax, held(q));
			double t[4] = {q->off.mean, q->cpu.mean, q->gpu.mean, q->empty.mean};
			for (int m = 0; m < 4; m++) {
				if (t[m] > 0) {
					tmin = fmin(tmin, t[m]);
					tmax = fmax(tmax, t[m]);
				}
			}
		}
		if (nmax <= nmin)
			nmax = nmin * 10;
		if (tmax <= tmin)
			tmax = tmin * 10;
		fprintf(f, "<text x=\"10\" y=\"%.0f\" font-size=\"16\">Frame time (ms) against sources, "
			   "log-log: profiler off, CPU timing, CPU+GPU timing, no sources</text>\n",
			y0 - 14);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
			   "stroke=\"#999\"/>\n",
			x0, y0, cw, ch);
		static const char *const colors[4] = {"#2c3e50", "#27ae60", "#c0392b", "#8e44ad"};
		static const char *const labels[4] = {"off", "CPU", "CPU+GPU", "no sources"};
		for (int m = 0; m < 4; m++) {
			for (int api = 0; api < 2; api++) {
				const char *want = api ? "gl" : "vulkan";
				fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
					   "stroke-width=\"2\"%s points=\"",
					colors[m], api ? " stroke-dasharray=\"6,4\"" : "");
				for (uint32_t i = 0; i < r->n_points; i++) {
					const bench_point *q = &r->points[i];
					double t = m == 0   ? q->off.mean
						   : m == 1 ? q->cpu.mean
						   : m == 2 ? q->gpu.mean
							    : q->empty.mean;
					if (strcmp(q->api, want) != 0 || t <= 0)
						continue;
					double x = x0 + log(held(q) / nmin) / log(nmax / nmin) * cw;
					double y = y0 + ch - log(t / tmin) / log(tmax / tmin) * ch;
					fprintf(f, "%.1f,%.1f ", x, y);
				}
				fprintf(f, "\"/>\n");
			}
			fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n", x0 + cw + 10,
				y0 + 20 + m * 18, colors[m], labels[m]);
		}
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%.0f</text><text x=\"%.0f\" y=\"%.0f\" "
			   "text-anchor=\"end\">%.0f sources</text>\n",
			x0, y0 + ch + 16, nmin, x0 + cw, y0 + ch + 16, nmax);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.1f ms</text><text "
			   "x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.1f ms</text>\n",
			x0 - 6, y0 + ch, tmin, x0 - 6, y0 + 12, tmax);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">solid: vulkan, dashed: gl</text>\n",
			x0 + cw + 10, y0 + 110);
	}
	fprintf(f, "</svg>\n");
	bool ok = !ferror(f);
	return (fclose(f) == 0) && ok;
}
