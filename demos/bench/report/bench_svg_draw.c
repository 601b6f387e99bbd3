/* The pieces of the charts (bench_svg_draw.h): text, ticks, heading,
 * legend, axis. */
#include "bench_svg_draw.h"

#include <math.h>
#include <string.h>

void svg_text(FILE *f, const char *s)
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

/* Characters, not bytes (names may be UTF-8). */
static size_t chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

double svg_text_w(const char *s)
{
	return (double)chars(s) * SVG_CHAR_W;
}

void svg_text_fit(FILE *f, const char *s, double max_px)
{
	size_t fit = (size_t)(max_px / SVG_CHAR_W);
	if (chars(s) <= fit || fit < 2) {
		svg_text(f, s);
		return;
	}
	char buf[256];
	size_t at = 0, seen = 0;
	for (const char *p = s; *p && at < sizeof buf - 4; p++) {
		bool lead = ((unsigned char)*p & 0xc0) != 0x80;
		if (lead && ++seen > fit - 1)
			break;
		buf[at++] = *p;
	}
	memcpy(buf + at, "\xe2\x80\xa6", 4); /* ... */
	svg_text(f, buf);
}

void svg_num_text(char *buf, size_t size, double v)
{
	double a = fabs(v);
	if (a >= 1e5)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 100 || a == 0)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.3g", v);
}

void svg_tick_text(char *buf, size_t size, double v, double step)
{
	int decimals = step > 0 && step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;
	snprintf(buf, size, "%.*f", decimals, fabs(v) < step * 1e-9 ? 0.0 : v);
}

int svg_nice_ticks(double lo, double hi, int want, double *out)
{
	if (!(hi > lo))
		hi = lo + 1;
	double raw = (hi - lo) / (want > 1 ? want - 1 : 1);
	double mag = pow(10, floor(log10(raw))), step = mag;
	if (raw / mag > 5)
		step = 10 * mag;
	else if (raw / mag > 2)
		step = 5 * mag;
	else if (raw / mag > 1)
		step = 2 * mag;
	int n = 0;
	for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && n < 16; t += step)
		out[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	return n;
}

void svg_chart_open(FILE *f, const char *kind, double x, double y, const char *attrs)
{
	fprintf(f, "<g class=\"chart %s\" transform=\"translate(%.1f,%.1f)\"%s%s>\n", kind, x, y,
		attrs ? " " : "", attrs ? attrs : "");
}

double svg_heading(FILE *f, const char *title, const char *subtitle, double width)
{
	fprintf(f, "<text class=\"title\" x=\"0\" y=\"16\" font-size=\"15\" font-weight=\"bold\" "
		   "fill=\"%s\">",
		SVG_INK);
	/* Bold titles are a little wider. */
	svg_text_fit(f, title, width * 0.9);
	fputs("</text>\n", f);
	double h = SVG_TITLE_H;
	/* The subtitle wraps at spaces, two lines at most. */
	const char *s = subtitle ? subtitle : "";
	size_t fit = (size_t)(width / SVG_CHAR_W);
	for (int line = 0; *s && line < 2; line++) {
		size_t len = strlen(s), cut = len;
		if (chars(s) > fit && line == 0) {
			cut = 0;
			for (size_t i = 0, seen = 0; s[i] && seen <= fit; i++) {
				seen += ((unsigned char)s[i] & 0xc0) != 0x80;
				if (s[i] == ' ' && seen <= fit)
					cut = i;
			}
			if (!cut)
				cut = len;
		}
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(cut < sizeof buf ? cut : sizeof buf - 1), s);
		fprintf(f, "<text class=\"subtitle\" x=\"0\" y=\"%.1f\" fill=\"%s\">", h + 12,
			SVG_MUTED);
		svg_text_fit(f, buf, width);
		fputs("</text>\n", f);
		h += SVG_LINE_H;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return h + 6;
}

double svg_legend_entry(FILE *f, double x, double y, const char *name, const char *color,
			bool line, bool dashed)
{
	if (line)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"2.5\"%s/>\n",
			x, y - 4, x + 22, y - 4, color, dashed ? " stroke-dasharray=\"5,3\"" : "");
	else
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n", x,
			y - 9, color);
	double sw = line ? 28 : 17;
	fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", x + sw, y, SVG_INK);
	svg_text(f, name);
	fputs("</text>\n", f);
	return sw + svg_text_w(name) + 16;
}

double svg_legend_row(FILE *f, double y, double width, const svg_legend_item *items, int n)
{
	double x = 0, h = SVG_LINE_H;
	for (int i = 0; i < n; i++) {
		double w = (items[i].line ? 28 : 17) + svg_text_w(items[i].name) + 16;
		if (x > 0 && x + w > width) {
			x = 0;
			y += SVG_LINE_H;
			h += SVG_LINE_H;
		}
		x += svg_legend_entry(f, x, y + 12, items[i].name, items[i].color, items[i].line,
				      items[i].dashed);
	}
	return h + 4;
}

void svg_value_axis(FILE *f, double x0, double w, double y0, double y1, double max,
		    const char *unit)
{
	double t[16];
	int n = svg_nice_ticks(0, max, 6, t);
	for (int i = 0; i < n; i++) {
		if (t[i] > max * 1.0001)
			continue;
		double x = x0 + t[i] / max * w;
		char buf[32];
		svg_tick_text(buf, sizeof buf, t[i], n > 1 ? t[1] - t[0] : 1);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
			y0, x, y1, SVG_GRID);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			x, y1 + 14, SVG_MUTED, buf);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", x0 + w, y1 + 28,
		SVG_MUTED);
	svg_text(f, unit);
	fputs("</text>\n", f);
}

