/* The frame of srcprof-bench's HTML pages (bench --html, compare --html):
 * one self-contained file, no network: inline CSS, inline SVG charts, and
 * a little JavaScript that sorts tables by a click on a column (numbers by
 * their data-v attribute, text otherwise). A table with class "sortable"
 * and a <th data-default="desc"> is sorted by that column when the page
 * loads; once the script ran, <body> has data-js="ready" (the browser test
 * checks both). */
#ifndef DEMOS_BENCH_PAGE_H
#define DEMOS_BENCH_PAGE_H

#include <stdio.h>

void page_begin(FILE *f, const char *title);
void page_end(FILE *f);
/* Escapes s for HTML text or an attribute. */
void page_text(FILE *f, const char *s);
/* A cell holding a number: sorted by v, shown with fmt ("%.1f"); NAN: "-". */
void page_num(FILE *f, const char *fmt, double v);

/* An inline chart: draw into page_chart_open's FILE at (0, 0), then
 * page_chart_close places it as an <svg> of that width and height (nothing
 * when the height is 0). */
typedef struct page_chart {
	FILE *f;
	char *buf;
	size_t len;
} page_chart;
FILE *page_chart_open(page_chart *c);
void page_chart_close(FILE *out, page_chart *c, double width, double height);

#endif
