/* The charts (bench_svg.h), drawn with bench_svg_draw.h's pieces. */
#include "bench_svg_draw.h"

#include <math.h>
#include <string.h>

static const char *const BAR_COLORS[2] = {"#3b7dd8", "#e8833a"};

double svg_bars(FILE *f, double x, double y, double width, const svg_bars_desc *d)
{
	if (!d->n)
		return 0;
	svg_chart_open(f, "bars", x, y, d->attrs);
	double h = svg_heading(f, d->title, d->subtitle, width);
	svg_legend_item items[3] = {{d->legend[0], BAR_COLORS[0], false, false}};
	int n_items = 1;
	if (d->legend[1])
		items[n_items++] = (svg_legend_item){d->legend[1], BAR_COLORS[1], false, false};
	if (d->whisker)
		items[n_items++] = (svg_legend_item){d->whisker, SVG_INK, true, false};
	h += svg_legend_row(f, h, width, items, n_items);
	/* The label column fits the longest name, up to a third of the width. */
	double label_w = 0;
	for (uint32_t i = 0; i < d->n; i++)
		label_w = fmax(label_w, svg_text_w(d->rows[i].label));
	label_w = fmin(label_w + 10, width / 3);
	double max = 0;
	for (uint32_t i = 0; i < d->n; i++)
		max = fmax(max, fmax(fmax(d->rows[i].v[0], d->rows[i].v[1]), d->rows[i].whisker));
	if (max <= 0)
		max = 1;
	/* Room right of the longest bar for its value ("12345 (p95 23456)"). */
	double x0 = label_w + 6, w = width - x0 - (d->whisker ? 112 : 52);
	bool two = d->legend[1] != NULL;
	double row_h = two ? 24 : 18, y0 = h;
	for (uint32_t i = 0; i < d->n; i++) {
		const svg_bar_row *r = &d->rows[i];
		double ry = y0 + i * row_h;
		if (i % 2)
			fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"#f6f6f6\"/>\n",
				ry, width, row_h);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", label_w,
			ry + row_h / 2 + 4, SVG_INK);
		svg_text_fit(f, r->label, label_w - 4);
		fputs("<title>", f);
		svg_text(f, r->label);
		fputs("</title></text>\n", f);
		for (int k = 0; k < (two ? 2 : 1); k++) {
			if (r->v[k] < 0)
				continue;
			double bh = two ? 9 : 12, by = ry + 3 + k * (bh + 1);
			double bw = r->v[k] / max * w;
			char buf[80];
			svg_num_text(buf, sizeof buf, r->v[k]);
			fprintf(f, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				   "height=\"%.1f\" fill=\"%s\"><title>",
				k ? "alone" : "frame", x0, by, bw > 0.5 ? bw : 0.5, bh, BAR_COLORS[k]);
			svg_text(f, r->label);
			fprintf(f, ", %s: %s %s</title></rect>\n", d->legend[k], buf, d->unit);
			double tip = bw;
			if (k == 0 && r->whisker >= 0) {
				double wx = x0 + r->whisker / max * w;
				fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					   "y2=\"%.1f\" stroke=\"%s\"/>\n",
					x0 + bw, by + bh / 2, wx, by + bh / 2, SVG_INK);
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					   "stroke=\"%s\"/>\n",
					wx, by + 1, wx, by + bh - 1, SVG_INK);
				tip = fmax(tip, r->whisker / max * w);
				char p95[32];
				svg_num_text(p95, sizeof p95, r->whisker);
				size_t at = strlen(buf);
				snprintf(buf + at, sizeof buf - at, " (p95 %s)", p95);
			}
			/* The value after the bar and its whisker, never on them. */
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%s</text>\n",
				x0 + tip + 4, by + bh - 1, SVG_MUTED, buf);
		}
	}
	double y1 = y0 + d->n * row_h;
	svg_value_axis(f, x0, w, y0, y1, max, d->unit);
	fputs("</g>\n", f);
	return y1 + SVG_AXIS_H + 10;
}

/* The x positions of a log axis over [lo, hi] (lo > 0). */
typedef struct log_axis {
	double lo, hi, x0, w;
} log_axis;

static double log_x(const log_axis *a, double v)
{
	if (a->hi <= a->lo)
		return a->x0 + a->w / 2;
	return a->x0 + (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo)) * a->w;
}

double svg_lines(FILE *f, double x, double y, double width, const svg_lines_desc *d)
{
	/* The x values drawn; a chart needs two. */
	double xs[64];
	int n_x = 0;
	double ymin = INFINITY, ymax = -INFINITY;
	for (uint32_t s = 0; s < d->n; s++) {
		const svg_series *se = &d->series[s];
		for (uint32_t i = 0; i < se->n; i++) {
			if (!(se->x[i] > 0) || !isfinite(se->y[i]) || (d->log_y && !(se->y[i] > 0)))
				continue;
			int k = 0;
			while (k < n_x && xs[k] != se->x[i])
				k++;
			if (k == n_x && n_x < 64)
				xs[n_x++] = se->x[i];
			double lo = se->lo ? se->lo[i] : se->y[i], hi = se->hi ? se->hi[i] : se->y[i];
			ymin = fmin(ymin, fmin(se->y[i], d->log_y && lo <= 0 ? se->y[i] : lo));
			ymax = fmax(ymax, fmax(se->y[i], hi));
		}
	}
	if (n_x < 2)
		return 0;
	svg_chart_open(f, "lines", x, y, d->attrs);
	double h = svg_heading(f, d->title, d->subtitle, width);
	/* The legend, a column on the right, as wide as its longest name. */
	double legend_w = 0;
	for (uint32_t s = 0; s < d->n; s++)
		legend_w = fmax(legend_w, 28 + svg_text_w(d->series[s].name) + 10);
	legend_w = fmin(legend_w, width * 0.4);
	double x0 = 64, plot_w = width - x0 - legend_w - 16, plot_h = 240, y0 = h + 22;
	double xmin = INFINITY, xmax = 0;
	for (int k = 0; k < n_x; k++) {
		xmin = fmin(xmin, xs[k]);
		xmax = fmax(xmax, xs[k]);
	}
	/* A little room either side, in log space. */
	double pad = pow(xmax / xmin, 0.04);
	log_axis ax = {xmin / pad, xmax * pad, x0, plot_w};
	double t[16];
	int n_t;
	double ylo, yhi;
	if (d->log_y) {
		ylo = pow(10, floor(log10(ymin)));
		yhi = pow(10, ceil(log10(ymax)));
		if (yhi / ylo < 10)
			yhi = ylo * 10;
		n_t = 0;
		for (double v = ylo; v <= yhi * 1.0001 && n_t < 16; v *= 10)
			t[n_t++] = v;
	} else {
		/* From 0, up to the first tick above every value. */
		ylo = 0;
		n_t = svg_nice_ticks(0, ymax > 0 ? ymax : 1, 6, t);
		double step = n_t > 1 ? t[1] - t[0] : t[0];
		if (t[n_t - 1] < ymax * 1.02 && n_t < 16) {
			t[n_t] = t[n_t - 1] + step;
			n_t++;
		}
		yhi = t[n_t - 1];
	}
#define Y(v)                                                                                     \
	(d->log_y ? y0 + plot_h - (log(v) - log(ylo)) / (log(yhi) - log(ylo)) * plot_h              \
		  : y0 + plot_h - ((v) - ylo) / (yhi - ylo) * plot_h)
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#bbb\"/>\n",
		x0, y0, plot_w, plot_h);
	for (int i = 0; i < n_t; i++) {
		double ty = Y(t[i]);
		char buf[32];
		if (d->log_y)
			svg_num_text(buf, sizeof buf, t[i]);
		else
			svg_tick_text(buf, sizeof buf, t[i], n_t > 1 ? t[1] - t[0] : 1);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x0,
			ty, x0 + plot_w, ty, SVG_GRID);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">%s</text>\n",
			x0 - 6, ty + 4, SVG_MUTED, buf);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", 0.0, y0 - 8, SVG_MUTED);
	svg_text(f, d->y_unit);
	fputs("</text>\n", f);
	/* x ticks: the counts measured. */
	for (int k = 0; k < n_x; k++) {
		double tx = log_x(&ax, xs[k]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", tx,
			y0, tx, y0 + plot_h, SVG_GRID);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%.0f</text>\n",
			tx, y0 + plot_h + 14, SVG_MUTED, xs[k]);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", x0 + plot_w,
		y0 + plot_h + 28, SVG_MUTED);
	svg_text(f, d->x_unit);
	fputs(" (log scale)</text>\n", f);
	for (uint32_t s = 0; s < d->n; s++) {
		const svg_series *se = &d->series[s];
		fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
			   "points=\"",
			se->color, se->dashed ? " stroke-dasharray=\"6,4\"" : "");
		for (uint32_t i = 0; i < se->n; i++)
			if (se->x[i] > 0 && isfinite(se->y[i]) && (!d->log_y || se->y[i] > 0))
				fprintf(f, "%.1f,%.1f ", log_x(&ax, se->x[i]), Y(se->y[i]));
		fputs("\"/>\n", f);
		for (uint32_t i = 0; i < se->n; i++) {
			if (!(se->x[i] > 0) || !isfinite(se->y[i]) || (d->log_y && !(se->y[i] > 0)))
				continue;
			double px = log_x(&ax, se->x[i]);
			if (se->lo && se->hi && se->hi[i] > se->lo[i] && (!d->log_y || se->lo[i] > 0))
				fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6\" "
					   "stroke=\"%s\" fill=\"none\"/>\n",
					px, Y(se->lo[i]), Y(se->hi[i]), px - 3, Y(se->lo[i]), px - 3,
					Y(se->hi[i]), se->color);
			char buf[32];
			svg_num_text(buf, sizeof buf, se->y[i]);
			fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">"
				   "<title>",
				px, Y(se->y[i]), se->color);
			svg_text(f, se->name);
			fprintf(f, ", %.0f %s: %s %s</title></circle>\n", se->x[i], d->x_unit, buf,
				d->y_unit);
		}
	}
#undef Y
	double lx = x0 + plot_w + 16;
	for (uint32_t s = 0; s < d->n; s++) {
		const svg_series *se = &d->series[s];
		fprintf(f, "<g class=\"legend-entry\">");
		svg_legend_entry(f, lx, y0 + 12 + s * SVG_LINE_H, se->name, se->color, true,
				 se->dashed);
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
	double legend_h = 12 + d->n * SVG_LINE_H;
	return y0 + fmax(plot_h, legend_h) + SVG_AXIS_H + 10;
}

double svg_strips(FILE *f, double x, double y, double width, const svg_strips_desc *d)
{
	double lo = isfinite(d->reference) ? d->reference : INFINITY;
	double hi = isfinite(d->reference) ? d->reference : -INFINITY;
	uint32_t values = 0;
	for (uint32_t i = 0; i < d->n; i++) {
		for (uint32_t k = 0; k < d->rows[i].n; k++) {
			lo = fmin(lo, d->rows[i].v[k]);
			hi = fmax(hi, d->rows[i].v[k]);
			values++;
		}
	}
	if (!values)
		return 0;
	svg_chart_open(f, "strips", x, y, d->attrs);
	double h = svg_heading(f, d->title, d->subtitle, width);
	double label_w = 0;
	for (uint32_t i = 0; i < d->n; i++)
		label_w = fmax(label_w, svg_text_w(d->rows[i].label));
	label_w = fmin(label_w + 10, width / 3);
	double span = hi - lo > 0 ? hi - lo : fabs(hi) > 0 ? fabs(hi) : 1;
	lo -= span * 0.08;
	hi += span * 0.08;
	double t[16];
	int n_t = svg_nice_ticks(lo, hi, 7, t);
	double x0 = label_w + 10, w = width - x0 - 20, row_h = 26, y0 = h + 4;
#define X(v) (x0 + ((v) - lo) / (hi - lo) * w)
	double y1 = y0 + d->n * row_h;
	for (int i = 0; i < n_t; i++) {
		if (t[i] < lo || t[i] > hi)
			continue;
		char buf[32];
		svg_tick_text(buf, sizeof buf, t[i], n_t > 1 ? t[1] - t[0] : 1);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			X(t[i]), y0, X(t[i]), y1, SVG_GRID);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			X(t[i]), y1 + 14, SVG_MUTED, buf);
	}
	if (isfinite(d->reference))
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
			   "stroke-dasharray=\"4,3\"/>\n",
			X(d->reference), y0, X(d->reference), y1);
	for (uint32_t i = 0; i < d->n; i++) {
		const svg_strip *r = &d->rows[i];
		double cy = y0 + i * row_h + row_h / 2;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", label_w,
			cy + 4, SVG_INK);
		svg_text_fit(f, r->label, label_w - 4);
		fputs("</text>\n", f);
		for (uint32_t k = 0; k < r->n; k++) {
			char buf[32];
			svg_num_text(buf, sizeof buf, r->v[k]);
			fprintf(f, "<circle class=\"pair\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				   "fill=\"#3b7dd8\" fill-opacity=\"0.6\"><title>pair %u: %s %s"
				   "</title></circle>\n",
				X(r->v[k]), cy, k + 1, buf, d->unit);
		}
		if (r->n)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"2.5\"/>\n",
				X(r->median), cy - 9, X(r->median), cy + 9, SVG_INK);
	}
#undef X
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", x0 + w, y1 + 28,
		SVG_MUTED);
	svg_text(f, d->unit);
	fputs("; dots: pairs, bar: median</text>\n</g>\n", f);
	return y1 + SVG_AXIS_H + 10;
}

/* Ratio-scale position of a relative change c (> -1). */
static double ratio_pos(double c, double lmin, double lmax, double x0, double w)
{
	double l = log1p(c);
	return x0 + (l - lmin) / (lmax - lmin) * w;
}

double svg_forest(FILE *f, double x, double y, double width, const svg_forest_desc *d)
{
	if (!d->n)
		return 0;
	/* The domain: every finite end and estimate, 0 and the threshold, on
	 * a log-ratio scale bounded to x1/20 .. x100. */
	double lmin = log1p(-d->threshold), lmax = log1p(d->threshold);
	for (uint32_t i = 0; i < d->n; i++) {
		const svg_interval *r = &d->rows[i];
		double v[3] = {r->est, r->lo, r->hi};
		for (int k = 0; k < 3; k++) {
			if (isfinite(v[k]) && v[k] > -1) {
				lmin = fmin(lmin, log1p(v[k]));
				lmax = fmax(lmax, log1p(v[k]));
			}
		}
	}
	lmin = fmax(lmin, log(0.05));
	lmax = fmin(lmax, log(100.0));
	double pad = (lmax - lmin) * 0.05;
	lmin -= pad;
	lmax += pad;
	svg_chart_open(f, "forest", x, y, d->attrs);
	double h = svg_heading(f, d->title, d->subtitle, width);
	static const char *const colors[3] = {"#8a8a8a", "#c0392b", "#1e8449"};
	svg_legend_item items[3] = {{"costlier", colors[1], false, false},
				{"cheaper", colors[2], false, false},
				{"no significant change", colors[0], false, false}};
	h += svg_legend_row(f, h, width, items, 3);
	double label_w = 0;
	for (uint32_t i = 0; i < d->n; i++)
		label_w = fmax(label_w, svg_text_w(d->rows[i].label));
	label_w = fmin(label_w + 10, width * 0.4);
	double x0 = label_w + 10, w = width - x0 - 16, row_h = 18, y0 = h + 2;
	double y1 = y0 + d->n * row_h;
	/* Ticks: round ratios inside the domain, 36 px apart at least. */
	static const double ratios[] = {0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 1,  1.1, 1.25,
					1.5,  2,   3,   5,   10,  20,  50,  100};
	double last = -1e9;
	for (size_t i = 0; i < sizeof ratios / sizeof *ratios; i++) {
		double l = log(ratios[i]);
		if (l < lmin || l > lmax)
			continue;
		double tx = ratio_pos(ratios[i] - 1, lmin, lmax, x0, w);
		if (tx - last < 36 && ratios[i] != 1)
			continue;
		last = tx;
		char buf[32];
		if (ratios[i] == 1)
			snprintf(buf, sizeof buf, "0");
		else
			snprintf(buf, sizeof buf, "%+.0f%%", (ratios[i] - 1) * 100);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", tx,
			y0, tx, y1, ratios[i] == 1 ? "#888" : SVG_GRID);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			tx, y1 + 14, SVG_MUTED, buf);
	}
	for (int s = -1; s <= 1; s += 2) {
		double tx = ratio_pos(s * d->threshold, lmin, lmax, x0, w);
		fprintf(f, "<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#c0392b\" stroke-opacity=\"0.5\" stroke-dasharray=\"4,3\"/>\n",
			tx, y0, tx, y1);
	}
	for (uint32_t i = 0; i < d->n; i++) {
		const svg_interval *r = &d->rows[i];
		double cy = y0 + i * row_h + row_h / 2;
		const char *c = colors[r->kind >= 0 && r->kind < 3 ? r->kind : 0];
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", label_w,
			cy + 4, SVG_INK);
		svg_text_fit(f, r->label, label_w - 4);
		fputs("</text>\n", f);
		/* Ends beyond the domain (or unbounded) stop at its edge, with
		 * an arrow head saying so. */
		double a = r->lo > -1 && isfinite(r->lo) ? ratio_pos(r->lo, lmin, lmax, x0, w) : x0;
		double b = isfinite(r->hi) && r->hi > -1 ? ratio_pos(r->hi, lmin, lmax, x0, w) : x0 + w;
		bool open_a = a <= x0, open_b = b >= x0 + w;
		a = fmax(a, x0);
		b = fmin(b, x0 + w);
		fprintf(f, "<g class=\"interval\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-width=\"2\"/>",
			a, cy, b, cy, c);
		if (open_a)
			fprintf(f, "<path d=\"M%.1f %.1fl6 -4v8z\" fill=\"%s\"/>", a, cy, c);
		if (open_b)
			fprintf(f, "<path d=\"M%.1f %.1fl-6 -4v8z\" fill=\"%s\"/>", b, cy, c);
		if (isfinite(r->est) && r->est > -1) {
			double ex = fmin(fmax(ratio_pos(r->est, lmin, lmax, x0, w), x0), x0 + w);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", ex, cy, c);
		}
		fputs("<title>", f);
		svg_text(f, r->label);
		fprintf(f, ": %+.1f%% (%+.1f .. %+.1f)</title></g>\n", r->est * 100, r->lo * 100,
			r->hi * 100);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">change, ratio scale; "
		   "dashed: the threshold</text>\n</g>\n",
		x0 + w, y1 + 28, SVG_MUTED);
	return y1 + SVG_AXIS_H + 10;
}
