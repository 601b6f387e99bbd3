/* The charts of one bench run, drawn with bench_svg.h, for --svg (all in
 * one SVG: bench_write_svg) and --html (each in the page's sections). Each
 * returns its height, 0 when it has nothing to draw (say so in words). */
#ifndef DEMOS_BENCH_CHARTS_H
#define DEMOS_BENCH_CHARTS_H

#include "bench.h"

#include <stdio.h>

/* Sources drawn per point at most (the costliest). */
#define BENCH_CHART_BARS 40

/* A point's sources by GPU cost: in frame (average, whisker to p95) and
 * alone (--isolate), the costliest BENCH_CHART_BARS of those that draw. */
double bench_chart_gpu(FILE *f, double x, double y, double width, const bench_opts *o,
		       const bench_point *p);
/* Frame time against the number of sources, per API: profiler off, CPU
 * timing, CPU+GPU timing, no sources. */
double bench_chart_frame_cost(FILE *f, double x, double y, double width, const bench_result *r);
/* Cost per source against the number of sources, per API: frame time and
 * CPU time (median and spread of the pairs), the in-frame GPU mean. */
double bench_chart_per_source(FILE *f, double x, double y, double width, const bench_result *r);
/* A point's overhead pairs: each pair's CPU and CPU+GPU ratios (and CPU
 * timing's CPU time) against the profiler off, percent. */
double bench_chart_overhead(FILE *f, double x, double y, double width, const bench_point *p);

#endif
