#include "bench_charts.h"
#include "bench_scaling.h"
#include "bench_svg.h"
#include "out_file.h"
#include "srcprof/machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SVG_WIDTH 960.0

double bench_chart_gpu(FILE *f, double x, double y, double width, const bench_opts *o,
		       const bench_point *p)
{
	bench_source *s = bench_sorted_sources(p);
	svg_bar_row rows[BENCH_CHART_BARS];
	uint32_t n = 0, idle = 0;
	bool alone = false;
	for (uint32_t k = 0; s && k < p->n_src; k++) {
		const bench_source *b = &s[k];
		if (b->gpu_avg <= 0 && b->isolated < 0) {
			idle++; /* draws nothing: a logic source */
			continue;
		}
		if (n == BENCH_CHART_BARS)
			continue;
		rows[n++] = (svg_bar_row){.label = b->name,
					  .v = {b->gpu_avg, b->isolated},
					  .whisker = b->gpu_p95};
		alone |= b->isolated >= 0;
	}
	char title[160], sub[400];
	char label[96];
	bench_point_label(p, true, label, sizeof label);
	snprintf(title, sizeof title, "GPU time per source: %s", label);
	size_t at = (size_t)snprintf(sub, sizeof sub,
				     "us per frame, all of a source's renders; %ux%u, %s%s", o->width,
				     o->height, p->mode, p->software ? " on a software device" : "");
	if (n < p->n_src - idle && at < sizeof sub)
		at += (size_t)snprintf(sub + at, sizeof sub - at, "; the %u costliest of %u", n,
				       p->n_src - idle);
	if (idle && at < sizeof sub)
		at += (size_t)snprintf(sub + at, sizeof sub - at, "; %u source%s without GPU work "
				       "(not shown)", idle, idle == 1 ? "" : "s");
	if (p->machine_busy_pct > SRCPROF_BUSY_PCT && at < sizeof sub)
		snprintf(sub + at, sizeof sub - at, "; machine busy (others %.0f%%): inflated",
			 p->machine_busy_pct);
	char attrs[96];
	snprintf(attrs, sizeof attrs, "data-api=\"%s\" data-sources=\"%u\"", p->api, p->sources);
	double h = svg_bars(f, x, y, width,
			    &(svg_bars_desc){.title = title,
					     .subtitle = sub,
					     .legend = {"in frame (average)",
							alone ? "alone (--isolate, median)" : NULL},
					     .whisker = "in frame p95",
					     .unit = "us",
					     .rows = rows,
					     .n = n,
					     .attrs = attrs});
	free(s);
	return h;
}

/* The points of one API, by source count. */
typedef struct sweep {
	const char *api;
	const bench_point *p[BENCH_MAX_POINTS];
	uint32_t n;
} sweep;

static int by_count(const void *a, const void *b)
{
	const bench_point *x = *(const bench_point *const *)a, *y = *(const bench_point *const *)b;
	return (bench_held(x) > bench_held(y)) - (bench_held(x) < bench_held(y));
}

/* Per API, its points over source counts; of a sweep over record threads
 * too, those of the first thread count (the text report compares the
 * thread counts). */
static uint32_t sweeps_of(const bench_result *r, sweep *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->n_points; i++) {
		if (r->points[i].record_threads != r->points[0].record_threads)
			continue;
		uint32_t k = 0;
		while (k < n && strcmp(out[k].api, r->points[i].api))
			k++;
		if (k == n)
			out[n++] = (sweep){.api = r->points[i].api};
		if (out[k].n < BENCH_MAX_POINTS)
			out[k].p[out[k].n++] = &r->points[i];
	}
	for (uint32_t k = 0; k < n; k++)
		qsort(out[k].p, out[k].n, sizeof *out[k].p, by_count);
	return n;
}

/* Room for the series' numbers: per API and series, x, y, lo, hi. */
typedef struct series_data {
	double x[BENCH_MAX_POINTS], y[BENCH_MAX_POINTS], lo[BENCH_MAX_POINTS],
		hi[BENCH_MAX_POINTS];
	char name[64];
} series_data;

static const char *const MODE_COLORS[4] = {"#2c3e50", "#27ae60", "#c0392b", "#8e44ad"};

double bench_chart_frame_cost(FILE *f, double x, double y, double width, const bench_result *r)
{
	sweep sw[2];
	uint32_t n_sw = sweeps_of(r, sw);
	static series_data data[2][4];
	svg_series series[8];
	uint32_t n = 0;
	static const char *const names[4] = {"profiler off", "CPU timing", "CPU+GPU timing",
					      "no sources"};
	for (uint32_t a = 0; a < n_sw && a < 2; a++) {
		for (int m = 0; m < 4; m++) {
			series_data *d = &data[a][m];
			for (uint32_t i = 0; i < sw[a].n; i++) {
				const bench_point *p = sw[a].p[i];
				d->x[i] = bench_held(p);
				d->y[i] = m == 0 ? p->off.mean : m == 1 ? p->cpu.mean
						     : m == 2 ? p->gpu.mean : p->empty.mean;
			}
			snprintf(d->name, sizeof d->name, "%s, %s", sw[a].api, names[m]);
			series[n++] = (svg_series){.name = d->name,
						   .color = MODE_COLORS[m],
						   .dashed = a == 1,
						   .n = sw[a].n,
						   .x = d->x,
						   .y = d->y};
		}
	}
	return svg_lines(f, x, y, width,
			 &(svg_lines_desc){.title = "Frame time against the number of sources",
					   .subtitle = "mean of the interleaved overhead blocks; "
						       "second API dashed",
					   .x_unit = "sources",
					   .y_unit = "ms per frame",
					   .log_y = true,
					   .series = series,
					   .n = n});
}

double bench_chart_per_source(FILE *f, double x, double y, double width, const bench_result *r)
{
	sweep sw[2];
	uint32_t n_sw = sweeps_of(r, sw);
	static series_data data[2][3];
	svg_series series[6];
	uint32_t n = 0;
	static const char *const names[3] = {"frame time", "CPU time, all threads",
					      "GPU, in frame (profiler)"};
	static const char *const colors[3] = {"#2c3e50", "#27ae60", "#3b7dd8"};
	for (uint32_t a = 0; a < n_sw && a < 2; a++) {
		for (int m = 0; m < 3; m++) {
			series_data *d = &data[a][m];
			for (uint32_t i = 0; i < sw[a].n; i++) {
				const bench_point *p = sw[a].p[i];
				const bench_ratio *q = m == 0 ? &p->source_cost : &p->source_work;
				d->x[i] = bench_held(p);
				d->y[i] = m == 2 ? bench_source_gpu_mean(p) : q->median;
				d->lo[i] = m == 2 ? d->y[i] : q->min;
				d->hi[i] = m == 2 ? d->y[i] : q->max;
			}
			snprintf(d->name, sizeof d->name, "%s, %s", sw[a].api, names[m]);
			series[n++] = (svg_series){.name = d->name,
						   .color = colors[m],
						   .dashed = a == 1,
						   .n = sw[a].n,
						   .x = d->x,
						   .y = d->y,
						   .lo = d->lo,
						   .hi = d->hi};
		}
	}
	return svg_lines(f, x, y, width,
			 &(svg_lines_desc){.title = "Cost per source against the number of sources",
					   .subtitle = "(off - no sources) / sources: median and spread "
						       "of the pairs; second API dashed",
					   .x_unit = "sources",
					   .y_unit = "us per source and frame",
					   .series = series,
					   .n = n});
}

double bench_chart_overhead(FILE *f, double x, double y, double width, const bench_point *p)
{
	double v[3][BENCH_MAX_PAIRS];
	const bench_ratio *q[3] = {&p->ratio_cpu, &p->ratio_gpu, &p->ratio_cpu_work};
	for (int k = 0; k < 3; k++)
		for (uint32_t i = 0; i < p->pairs; i++)
			v[k][i] = (q[k]->pair[i] - 1) * 100;
	svg_strip rows[3] = {
		{"CPU timing", v[0], p->pairs, (q[0]->median - 1) * 100},
		{"CPU+GPU timing", v[1], p->pairs, (q[1]->median - 1) * 100},
		{"CPU timing, CPU time", v[2], p->pairs, (q[2]->median - 1) * 100},
	};
	char title[128], sub[160];
	char label[96];
	bench_point_label(p, true, label, sizeof label);
	snprintf(title, sizeof title, "Profiler overhead: %s", label);
	snprintf(sub, sizeof sub, "%u interleaved pairs, each mode against the profiler off%s",
		 p->pairs, p->pairs < BENCH_MIN_PAIRS ? ": too few to rely on" : "");
	char attrs[96];
	snprintf(attrs, sizeof attrs, "data-api=\"%s\" data-sources=\"%u\"", p->api, p->sources);
	return svg_strips(f, x, y, width,
			  &(svg_strips_desc){.title = title,
					     .subtitle = sub,
					     .unit = "% against the profiler off",
					     .reference = 0,
					     .rows = rows,
					     .n = p->pairs ? 3 : 0,
					     .attrs = attrs});
}

bool bench_write_svg(const char *path, const bench_opts *o, const bench_result *r)
{
	out_file of;
	FILE *f = out_open(&of, path, "w");
	if (!f)
		return false;
	/* The charts first, to know the height; then the file. */
	char *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	if (!m) {
		out_abandon(&of);
		return false;
	}
	double margin = 20, w = SVG_WIDTH - 2 * margin, y = 64;
	for (uint32_t i = 0; i < r->n_points; i++)
		y += bench_chart_gpu(m, margin, y, w, o, &r->points[i]) + 16;
	double h = bench_chart_frame_cost(m, margin, y, w, r);
	y += h ? h + 16 : 0;
	h = bench_chart_per_source(m, margin, y, w, r);
	y += h ? h + 16 : 0;
	for (uint32_t i = 0; i < r->n_points; i++) {
		h = bench_chart_overhead(m, margin, y, w, &r->points[i]);
		y += h ? h + 16 : 0;
	}
	bool ok = fclose(m) == 0 && body;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
		   "font-size=\"12\">\n",
		   SVG_WIDTH, y, SVG_WIDTH, y);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"28\" font-size=\"18\" font-weight=\"bold\">srcprof-bench: "
		   "scene ",
		margin);
	svg_text(f, o->scene->name);
	fprintf(f, ", %ux%u%s</text>\n", o->width, o->height,
		r->interrupted ? " (INTERRUPTED: the points finished)" : "");
	fprintf(f, "<text x=\"%.0f\" y=\"48\" fill=\"#666\">", margin);
	char line[400];
	snprintf(line, sizeof line, "%s; git %s; %u points", r->machine, r->git, r->n_points);
	svg_text(f, line);
	fputs("</text>\n", f);
	if (ok)
		fwrite(body, 1, len, f);
	fputs("</svg>\n", f);
	free(body);
	if (!ok) {
		out_abandon(&of);
		return false;
	}
	return out_commit(&of);
}
