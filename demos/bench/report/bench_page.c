#include "bench_page.h"
#include "bench_assets.h"
#include "bench_svg.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The embedded file at `path` as text (demos/CMakeLists.txt embeds each
 * one asked for here). */
static const char *asset(const char *path)
{
	for (size_t i = 0; i < bench_asset_count; i++)
		if (!strcmp(bench_assets[i].path, path))
			return (const char *)bench_assets[i].data;
	assert(!"an asset the build did not embed");
	return "";
}

void page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	page_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", asset("/bench.css"));
}

void page_end(FILE *f)
{
	fprintf(f, "</main>\n<script>\n%s</script>\n</body>\n</html>\n", asset("/bench.js"));
}

void page_text(FILE *f, const char *s)
{
	svg_text(f, s);
}

void page_num(FILE *f, const char *fmt, double v)
{
	if (!isfinite(v)) {
		fputs("<td data-v=\"NaN\">-</td>", f);
		return;
	}
	fprintf(f, "<td data-v=\"%.9g\">", v);
	fprintf(f, fmt, v);
	fputs("</td>", f);
}

FILE *page_chart_open(page_chart *c)
{
	*c = (page_chart){0};
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

void page_chart_close(FILE *out, page_chart *c, double width, double height)
{
	if (c->f)
		fclose(c->f);
	if (c->buf && height > 0)
		fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			     "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
			     "font-size=\"12\">\n%s</svg>\n",
			width, height, width, height, c->buf);
	free(c->buf);
	*c = (page_chart){0};
}
