/* Charts as SVG, for srcprof-bench --svg and the --html pages: horizontal
 * bars (a source's GPU cost in frame and alone), lines against the number
 * of sources (log scale), strips of the overhead pairs, and intervals of
 * the changes compare found.
 *
 * Each chart is one <g class="chart ..."> at (x, y), as wide as asked,
 * and returns its height; a caller stacks them. Axes come from the data
 * (no invented ranges); legends and labels are measured (DejaVu Sans at
 * 12 px, at most SVG_CHAR_W px a character) and kept inside the width;
 * names too long for their column are shortened with an ellipsis. A chart
 * with nothing to draw is not drawn (height 0): callers say so in words. */
#ifndef DEMOS_BENCH_SVG_H
#define DEMOS_BENCH_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The widest a 12 px character of the page's font gets, px. */
#define SVG_CHAR_W 7.2

/* Escapes &, <, >, " for XML text and attributes. */
void svg_text(FILE *f, const char *s);

/* Bars: per row a label and up to two values (< 0: none), the first with
 * an optional whisker to `whisker` (< 0: none). */
typedef struct svg_bar_row {
	const char *label;
	double v[2];
	double whisker;
} svg_bar_row;

typedef struct svg_bars_desc {
	const char *title, *subtitle; /* subtitle may be NULL */
	const char *legend[2];        /* the two values' names; legend[1] NULL: one value */
	const char *whisker;          /* the whisker's name, or NULL */
	const char *unit;             /* of the values */
	const svg_bar_row *rows;
	uint32_t n;
	const char *attrs; /* extra attributes of the chart's <g>, or NULL */
} svg_bars_desc;
double svg_bars(FILE *f, double x, double y, double width, const svg_bars_desc *d);

/* A line of points (x ascending), with optional whiskers lo..hi. */
typedef struct svg_series {
	const char *name, *color;
	bool dashed;
	uint32_t n;
	const double *x, *y, *lo, *hi; /* lo, hi NULL: no whiskers */
} svg_series;

typedef struct svg_lines_desc {
	const char *title, *subtitle, *x_unit, *y_unit;
	bool log_y;
	const svg_series *series;
	uint32_t n;
	const char *attrs;
} svg_lines_desc;
/* 0 (nothing drawn) unless some series has points at two x values. */
double svg_lines(FILE *f, double x, double y, double width, const svg_lines_desc *d);

/* Strips: per row a label, its values as dots and its median as a bar. */
typedef struct svg_strip {
	const char *label;
	const double *v;
	uint32_t n;
	double median;
} svg_strip;

typedef struct svg_strips_desc {
	const char *title, *subtitle, *unit;
	double reference; /* a vertical line at this value (e.g. 0%), or NAN */
	const svg_strip *rows;
	uint32_t n;
	const char *attrs;
} svg_strips_desc;
double svg_strips(FILE *f, double x, double y, double width, const svg_strips_desc *d);

/* Intervals of relative changes (0.1: +10%) on a ratio scale: per row an
 * estimate and lo..hi (+-INFINITY: unbounded, drawn to the edge), coloured
 * by kind (0 none, 1 costlier, 2 cheaper); dashed lines at +-threshold. */
typedef struct svg_interval {
	const char *label;
	double est, lo, hi;
	int kind;
} svg_interval;

typedef struct svg_forest_desc {
	const char *title, *subtitle;
	double threshold;
	const svg_interval *rows;
	uint32_t n;
	const char *attrs;
} svg_forest_desc;
double svg_forest(FILE *f, double x, double y, double width, const svg_forest_desc *d);

#endif
