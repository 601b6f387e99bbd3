/* The pieces bench_svg.c draws its charts with, for the files of the
 * charts only: text measured and shortened to fit, figures and tick labels,
 * "nice" ticks, a chart's <g>, its heading, legend and value axis. Each
 * writes SVG to f at the coordinates given and says how much room it took;
 * nothing is allocated. bench_svg.h is what the rest of the bench sees. */
#ifndef DEMOS_BENCH_SVG_DRAW_H
#define DEMOS_BENCH_SVG_DRAW_H

#include "bench_svg.h"

#define SVG_TITLE_H 22.0 /* a title line, px */
#define SVG_LINE_H 17.0  /* a line of 12 px text */
#define SVG_AXIS_H 30.0  /* ticks and their labels under a plot */

#define SVG_INK "#222"
#define SVG_MUTED "#666"
#define SVG_GRID "#e4e4e4"

/* The widest s can be, px (SVG_CHAR_W a character, UTF-8 counted). */
double svg_text_w(const char *s);
/* Writes s escaped, shortened with an ellipsis to fit max_px. */
void svg_text_fit(FILE *f, const char *s, double max_px);
/* v in 3 significant digits, without a trailing ".0", into buf. */
void svg_num_text(char *buf, size_t size, double v);
/* A tick's label into buf: as many decimals as the step between ticks needs. */
void svg_tick_text(char *buf, size_t size, double v, double step);
/* Ticks at 1, 2 or 5 x 10^k covering [lo, hi], about `want` of them, into
 * out[16]; returns how many. */
int svg_nice_ticks(double lo, double hi, int want, double *out);

/* Opens a chart's <g class="chart kind"> at (x, y), with extra attributes
 * attrs (or NULL); the chart closes it. */
void svg_chart_open(FILE *f, const char *kind, double x, double y, const char *attrs);
/* Title and subtitle (NULL: none; wraps to two lines) within width;
 * returns the height used. */
double svg_heading(FILE *f, const char *title, const char *subtitle, double width);

/* A legend entry: a swatch (filled box, or a line, dashed or not) and a
 * name, at (x, y) (text baseline); returns its width. */
double svg_legend_entry(FILE *f, double x, double y, const char *name, const char *color,
			bool line, bool dashed);

typedef struct svg_legend_item {
	const char *name, *color;
	bool line, dashed;
} svg_legend_item;

/* Entries laid out in rows within `width` from y; returns the height used. */
double svg_legend_row(FILE *f, double y, double width, const svg_legend_item *items, int n);

/* Vertical grid lines and labels of a linear value axis from 0 at x0 to
 * `max` at x0 + w, under rows from y0 to y1, the unit at its end. */
void svg_value_axis(FILE *f, double x0, double w, double y0, double y1, double max,
		    const char *unit);

#endif
