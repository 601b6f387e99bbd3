/* What the bench's outputs share: a point's derived figures, and the
 * verdicts of a --sources sweep (how each source's cost grows with the
 * number of sources: per source, per added source, a fitted line). The
 * text, JSON, SVG and HTML outputs all read them from here, so they agree. */
#ifndef DEMOS_BENCH_SCALING_H
#define DEMOS_BENCH_SCALING_H

#include "bench.h"

/* The sources a point's scene held (a scene may add to --sources: the
 * calibrated scene's backdrop). */
double bench_held(const bench_point *p);
/* CPU time of all threads per frame in a mode (MODE_*), ms, over every
 * pair. */
double bench_cpu_per_frame(const bench_point *p, int mode);
/* The mean of the sources' in-frame GPU averages, us. */
double bench_source_gpu_mean(const bench_point *p);
/* A point's sources, costliest GPU first (a copy whose sample pointers
 * still belong to p; the caller frees the array only). NULL when out of
 * memory. */
bench_source *bench_sorted_sources(const bench_point *p);

/* A range of values and whether it stays within 20% (max / min <= 1.2). */
typedef struct bench_spread {
	double lo, hi;
	bool flat;
} bench_spread;

/* The per-source series a sweep judges: frame time (us), CPU time of all
 * threads (us), the profiler's own cost with CPU timing and with CPU+GPU
 * timing (ns). bench_series_names: their names in the JSON. */
enum {
	BENCH_SERIES_COST,
	BENCH_SERIES_WORK,
	BENCH_SERIES_PROF,
	BENCH_SERIES_PROF_GPU,
	BENCH_N_SERIES
};
extern const char *const bench_series_names[BENCH_N_SERIES];
/* A point's figure of one series, per source. */
double bench_series_of(const bench_point *p, int series);

/* What each source added from one count to the next (counts ascending):
 * the difference of the sources' whole cost (per source x sources) over
 * the difference of the counts, per series. A cost that comes once per
 * frame with any source at all (a rasterizer scene with work in it; the
 * profiler's frame begin and collect) is in no step; it is in every
 * per-source figure, weighing on the small counts. */
typedef struct bench_steps {
	uint32_t n;
	double from[BENCH_MAX_POINTS], to[BENCH_MAX_POINTS]; /* sources */
	double v[BENCH_N_SERIES][BENCH_MAX_POINTS];
	bench_spread range[BENCH_N_SERIES];
} bench_steps;

/* The verdicts of one API's sweep (its points in a row of r->points). */
typedef struct bench_scaling {
	const char *api;
	char label[64]; /* "vulkan", or "vulkan, 4 record threads" */
	uint32_t first, n;                       /* points */
	bench_spread per_source[BENCH_N_SERIES]; /* each series over the points */
	bench_spread gpu;   /* the profiler's in-frame GPU figure per source */
	bench_steps added;  /* each source added, count to count */
	bool fitted;        /* 3 points or more */
	double once, each, worst;
} bench_scaling;

/* "vulkan" and, when `sources`, ", 12 sources", and for more than one
 * record thread ", 4 record threads" (with " (1 used)" where the API
 * records on one): how reports name a point. */
void bench_point_label(const bench_point *p, bool sources, char *buf, size_t size);

/* The sweeps in r, one per API and record thread count with 2 points or
 * more, into out (room for 2 * BENCH_MAX_POINTS); returns how many. */
uint32_t bench_scalings(const bench_result *r, bench_scaling *out);

#endif
