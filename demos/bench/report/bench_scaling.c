#include "bench_scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const bench_series_names[BENCH_N_SERIES] = {
	"cost_per_source_us", "cpu_time_per_source_us", "profiler_cpu_ns_per_source",
	"profiler_cpu_gpu_ns_per_source"};

static int by_gpu(const void *a, const void *b)
{
	const bench_source *x = a, *y = b;
	return (x->gpu_avg < y->gpu_avg) - (x->gpu_avg > y->gpu_avg);
}

/* Sources of a point, costliest first (a copy the caller frees). */
bench_source *bench_sorted_sources(const bench_point *p)
{
	bench_source *s = malloc((p->n_src ? p->n_src : 1) * sizeof *s);
	if (s) {
		memcpy(s, p->src, p->n_src * sizeof *s);
		qsort(s, p->n_src, sizeof *s, by_gpu);
	}
	return s;
}

/* The sources the scene held (a scene may add to --sources: calibrated's
 * backdrop). */
double bench_held(const bench_point *p)
{
	return p->n_src ? p->n_src : p->sources;
}

/* CPU time of all threads per frame in a mode, ms, over every pair. */
double bench_cpu_per_frame(const bench_point *p, int mode)
{
	return p->cpu_frames[mode] > 0 ? p->cpu_time[mode] / p->cpu_frames[mode] : 0;
}

/* The mean of the sources' in-frame GPU averages, us. */
double bench_source_gpu_mean(const bench_point *p)
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
		double x = bench_held(&pts[i]), y = pts[i].source_cost.median * x;
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
		double x = bench_held(&pts[i]), y = pts[i].source_cost.median * x;
		if (y > 0)
			worst = fmax(worst, fabs(*once + *each * x - y) / y);
	}
	return worst;
}

static bench_spread spread_of(const double *v, uint32_t n)
{
	bench_spread s;
	s.flat = flat(v, n, &s.lo, &s.hi);
	return s;
}

static int by_held(const void *a, const void *b)
{
	const bench_point *x = *(const bench_point *const *)a, *y = *(const bench_point *const *)b;
	if (bench_held(x) != bench_held(y))
		return (bench_held(x) > bench_held(y)) - (bench_held(x) < bench_held(y));
	/* Equal counts in the order given: the step from them starts at
	 * the last (as bench_check takes it). */
	return (x > y) - (x < y);
}

/* A point's figure of one series, per source. */
double bench_series_of(const bench_point *p, int k)
{
	return k == BENCH_SERIES_COST   ? p->source_cost.median
	       : k == BENCH_SERIES_WORK ? p->source_work.median
	       : k == BENCH_SERIES_PROF ? p->prof_cpu_ns
				  : p->prof_gpu_ns;
}

/* The steps between the n points at pts, by ascending count (equal counts
 * give no step). */
static void steps_of(const bench_point *pts, uint32_t n, bench_steps *st)
{
	const bench_point *by[BENCH_MAX_POINTS];
	for (uint32_t i = 0; i < n; i++)
		by[i] = &pts[i];
	qsort(by, n, sizeof *by, by_held);
	st->n = 0;
	for (uint32_t i = 1; i < n; i++) {
		double a = bench_held(by[i - 1]), b = bench_held(by[i]);
		if (b <= a)
			continue;
		uint32_t j = st->n++;
		st->from[j] = a;
		st->to[j] = b;
		for (int k = 0; k < BENCH_N_SERIES; k++)
			st->v[k][j] = (bench_series_of(by[i], k) * b -
				       bench_series_of(by[i - 1], k) * a) /
				      (b - a);
	}
	for (int k = 0; k < BENCH_N_SERIES; k++)
		st->range[k] = spread_of(st->v[k], st->n);
}

void bench_point_label(const bench_point *p, bool sources, char *buf, size_t size)
{
	int at = snprintf(buf, size, "%s", p->api);
	if (sources && at >= 0 && (size_t)at < size)
		at += snprintf(buf + at, size - (size_t)at, ", %u sources", p->sources);
	if (p->record_threads > 1 && at >= 0 && (size_t)at < size)
		snprintf(buf + at, size - (size_t)at, ", %u record threads%s", p->record_threads,
			 p->record_threads_used < p->record_threads ? " (1 used)" : "");
}

/* The sweeps in r, one per API and record thread count with 2 points or
 * more; returns how many. */
uint32_t bench_scalings(const bench_result *r, bench_scaling *out)
{
	uint32_t found = 0;
	for (uint32_t i = 0; i < r->n_points;) {
		uint32_t j = i;
		while (j < r->n_points && !strcmp(r->points[j].api, r->points[i].api) &&
		       r->points[j].record_threads == r->points[i].record_threads)
			j++;
		uint32_t n = j - i < BENCH_MAX_POINTS ? j - i : BENCH_MAX_POINTS;
		if (n > 1) {
			double v[BENCH_N_SERIES][BENCH_MAX_POINTS], gpu[BENCH_MAX_POINTS];
			for (uint32_t k = 0; k < n; k++) {
				for (int m = 0; m < BENCH_N_SERIES; m++)
					v[m][k] = bench_series_of(&r->points[i + k], m);
				gpu[k] = bench_source_gpu_mean(&r->points[i + k]);
			}
			bench_scaling *sc = &out[found++];
			*sc = (bench_scaling){.api = r->points[i].api, .first = i, .n = n};
			bench_point_label(&r->points[i], false, sc->label, sizeof sc->label);
			for (int m = 0; m < BENCH_N_SERIES; m++)
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
