/* What bench_check reads from srcprof-bench's SVG (demos/bench/report/bench_svg.c):
 * well-formed XML, its charts (<g class="chart KIND" data-api data-sources>)
 * with what each draws, and any text that would be clipped by the image's
 * edges (measured at 7.2 px a character at 12 px, as the bench lays it
 * out). */
#ifndef TESTS_SVG_CHECK_H
#define TESTS_SVG_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#define SVG_MAX_CHARTS 128

typedef struct svg_chart_info {
	char kind[16], api[16];
	int sources;                  /* data-sources, or -1 */
	int bars_frame, bars_alone;   /* <rect class="bar frame|alone"> */
	int lines, pairs, intervals;  /* polylines, overhead dots, compare intervals */
} svg_chart_info;

typedef struct svg_info {
	double width, height;
	int n_charts;
	svg_chart_info charts[SVG_MAX_CHARTS];
	int clipped;        /* texts reaching past an edge */
	char first_clipped[160];
} svg_info;

/* Scans svg; false (with why in err) when it is not well-formed. */
bool svg_scan(const char *svg, svg_info *out, char *err, size_t err_size);

#endif
