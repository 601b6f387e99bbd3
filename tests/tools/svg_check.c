#include "svg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of attribute `name` in the tag [tag, end), into out; false
 * when absent. */
static bool attr(const char *tag, const char *end, const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	for (const char *p = tag + 1; p + len + 2 < end; p++) {
		if ((p[-1] == ' ' || p[-1] == '\n') && !strncmp(p, name, len) && p[len] == '=' &&
		    p[len + 1] == '"') {
			const char *v = p + len + 2, *q = memchr(v, '"', (size_t)(end - v));
			if (!q)
				return false;
			size_t n = (size_t)(q - v) < size - 1 ? (size_t)(q - v) : size - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return true;
		}
	}
	return false;
}

static double attr_num(const char *tag, const char *end, const char *name, double dflt)
{
	char buf[64];
	return attr(tag, end, name, buf, sizeof buf) ? atof(buf) : dflt;
}

typedef struct frame {
	const char *name;
	size_t len;
	double dx, dy;    /* translation, accumulated */
	int chart;        /* index of the chart it is or is in, or -1 */
	double font;      /* font size in effect */
} frame;

/* Text being measured. */
typedef struct text_run {
	bool on, in_title;
	double x, y, font;
	char anchor[8];
	bool bold;
	int chars;
	char sample[64];
	int sampled;
} text_run;

static void measure(svg_info *out, const text_run *t)
{
	double w = t->chars * 7.2 * t->font / 12 * (t->bold ? 1.1 : 1);
	double left = t->x, right = t->x + w;
	if (!strcmp(t->anchor, "end")) {
		left = t->x - w;
		right = t->x;
	} else if (!strcmp(t->anchor, "middle")) {
		left = t->x - w / 2;
		right = t->x + w / 2;
	}
	bool clipped = left < -0.5 || right > out->width + 0.5 || t->y < 0 || t->y > out->height;
	if (clipped && !out->clipped++)
		snprintf(out->first_clipped, sizeof out->first_clipped,
			 "'%s' spans x %.0f .. %.0f, y %.0f (image %.0f x %.0f)", t->sample, left, right,
			 t->y, out->width, out->height);
}

bool svg_scan(const char *s, svg_info *out, char *err, size_t err_size)
{
	memset(out, 0, sizeof *out);
	frame stack[128];
	int depth = 0;
	text_run t = {0};
	bool root_seen = false;
	const char *p = s;
	while ((p = strchr(p, '<'))) {
		const char *end = strchr(p, '>');
		if (!end) {
			snprintf(err, err_size, "an unterminated tag");
			return false;
		}
		if (p[1] == '?' || p[1] == '!') {
			p = end + 1;
			continue;
		}
		if (p[1] == '/') {
			size_t len = strcspn(p + 2, " >");
			if (!depth || stack[depth - 1].len != len ||
			    strncmp(stack[depth - 1].name, p + 2, len)) {
				snprintf(err, err_size, "</%.*s> closes the wrong element", (int)len, p + 2);
				return false;
			}
			depth--;
			if (len == 5 && !strncmp(p + 2, "title", 5))
				t.in_title = false;
			if (len == 4 && !strncmp(p + 2, "text", 4) && t.on) {
				measure(out, &t);
				t.on = false;
			}
		} else {
			size_t len = strcspn(p + 1, " />\n");
			bool closed = end[-1] == '/';
			frame fr = depth ? stack[depth - 1] : (frame){.chart = -1, .font = 12};
			fr.name = p + 1;
			fr.len = len;
			if (!root_seen && len == 3 && !strncmp(p + 1, "svg", 3)) {
				root_seen = true;
				out->width = attr_num(p, end, "width", 0);
				out->height = attr_num(p, end, "height", 0);
			}
			fr.font = attr_num(p, end, "font-size", fr.font);
			char buf[128];
			if (attr(p, end, "transform", buf, sizeof buf)) {
				double x = 0, y = 0;
				if (sscanf(buf, "translate(%lf,%lf)", &x, &y) == 2) {
					fr.dx += x;
					fr.dy += y;
				}
			}
			char cls[64] = "";
			attr(p, end, "class", cls, sizeof cls);
			if (len == 1 && p[1] == 'g' && !strncmp(cls, "chart ", 6) &&
			    out->n_charts < SVG_MAX_CHARTS) {
				svg_chart_info *c = &out->charts[out->n_charts];
				memset(c, 0, sizeof *c);
				snprintf(c->kind, sizeof c->kind, "%.15s", cls + 6);
				attr(p, end, "data-api", c->api, sizeof c->api);
				c->sources = (int)attr_num(p, end, "data-sources", -1);
				fr.chart = out->n_charts++;
			}
			if (fr.chart >= 0) {
				svg_chart_info *c = &out->charts[fr.chart];
				c->bars_frame += !strcmp(cls, "bar frame");
				c->bars_alone += !strcmp(cls, "bar alone");
				c->lines += !strcmp(cls, "series");
				c->pairs += !strcmp(cls, "pair");
				c->intervals += !strcmp(cls, "interval");
			}
			if (len == 5 && !strncmp(p + 1, "title", 5))
				t.in_title = true;
			if (len == 4 && !strncmp(p + 1, "text", 4)) {
				t = (text_run){.on = true, .font = fr.font};
				t.x = fr.dx + attr_num(p, end, "x", 0);
				t.y = fr.dy + attr_num(p, end, "y", 0);
				if (!attr(p, end, "text-anchor", t.anchor, sizeof t.anchor))
					t.anchor[0] = '\0';
				t.bold = attr(p, end, "font-weight", buf, sizeof buf) && !strcmp(buf, "bold");
			}
			if (!closed) {
				if (depth == 128) {
					snprintf(err, err_size, "nested too deep");
					return false;
				}
				stack[depth++] = fr;
			}
		}
		/* Character data up to the next tag, inside a text's own run. */
		const char *next = strchr(end + 1, '<');
		for (const char *c = end + 1; t.on && !t.in_title && next && c < next; c++) {
			if (((unsigned char)*c & 0xc0) == 0x80)
				continue; /* a UTF-8 continuation byte */
			if (*c == '&') {
				const char *semi = strchr(c, ';');
				c = semi && semi < next ? semi : c;
			}
			t.chars++;
			if (t.sampled < (int)sizeof t.sample - 1)
				t.sample[t.sampled++] = *c;
		}
		p = end + 1;
	}
	if (depth) {
		snprintf(err, err_size, "%d elements left open", depth);
		return false;
	}
	if (!root_seen || out->width <= 0 || out->height <= 0) {
		snprintf(err, err_size, "no <svg> with a width and a height");
		return false;
	}
	return true;
}
