/* srcprof-bench --html: the run as one page (bench_page.h): its metadata,
 * per point the sources' GPU bars and a sortable table of every source,
 * the overhead pairs, and the sweep's charts and table. */
#include "bench.h"
#include "bench_charts.h"
#include "bench_page.h"
#include "bench_scaling.h"
#include "out_file.h"
#include "srcprof/machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_W 944.0

static void meta_row(FILE *f, const char *key, const char *value)
{
	fputs("<tr><td>", f);
	page_text(f, key);
	fputs("</td><td>", f);
	page_text(f, value);
	fputs("</td></tr>\n", f);
}

static void metadata(FILE *f, const bench_opts *o, const bench_result *r)
{
	char buf[512];
	fputs("<table class=\"meta\">\n", f);
	meta_row(f, "machine", r->machine);
	meta_row(f, "git", r->git);
	snprintf(buf, sizeof buf, "%s (%u views)", o->scene->name, o->scene->views);
	meta_row(f, "scene", buf);
	snprintf(buf, sizeof buf, "%ux%u", o->width, o->height);
	meta_row(f, "size", buf);
	snprintf(buf, sizeof buf, "%u measured, %u warm-up; %u overhead pairs; GPU budget %.2f%%",
		 o->frames, o->warmup, o->repeat, o->gpu_budget * 100);
	if (o->isolate) {
		size_t at = strlen(buf);
		snprintf(buf + at, sizeof buf - at, "; --isolate, %u rounds", o->isolate_rounds);
	}
	meta_row(f, "frames", buf);
	meta_row(f, "work", o->work ? "counted (--work), over the timed frames" : "not counted");
	snprintf(buf, sizeof buf, "%u of %u%s", r->n_points, r->planned,
		 r->interrupted ? " (interrupted)" : "");
	meta_row(f, "points", buf);
	snprintf(buf, sizeof buf, "%.0f s", r->wall_s);
	meta_row(f, "wall time", buf);
	fputs("</table>\n", f);
}

/* The sources of a point: every one, sortable, costliest GPU first. */
static void source_table(FILE *f, const bench_point *p)
{
	fprintf(f, "<div class=\"scroll\"><table class=\"sortable sources\" data-api=\"%s\" "
		   "data-sources=\"%u\">\n<thead><tr><th class=\"t\">source</th><th class=\"t\">type"
		   "</th><th data-default=\"desc\">GPU avg</th><th>p50</th><th>p95</th><th>max</th>"
		   "<th>share %%</th><th>alone</th><th>in/alone</th><th>tick</th><th>render</th>"
		   "<th>GPU frames</th></tr></thead>\n<tbody>\n",
		p->api, p->sources);
	for (uint32_t k = 0; k < p->n_src; k++) {
		const bench_source *b = &p->src[k];
		fputs("<tr class=\"source\"><td class=\"t\">", f);
		page_text(f, b->name);
		fputs("</td><td class=\"t\">", f);
		page_text(f, b->type);
		fputs("</td>", f);
		page_num(f, "%.1f", b->gpu_avg);
		page_num(f, "%.1f", b->gpu_p50);
		page_num(f, "%.1f", b->gpu_p95);
		page_num(f, "%.1f", b->gpu_max);
		page_num(f, "%.1f", b->share * 100);
		page_num(f, "%.1f", b->isolated >= 0 ? b->isolated : NAN);
		page_num(f, "%.3f", b->isolated >= 0 ? b->in_over_alone : NAN);
		page_num(f, "%.2f", b->tick_avg);
		page_num(f, "%.2f", b->render_sum);
		page_num(f, "%.0f", b->gpu_samples);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p>us per frame. GPU: all of the source's renders, in the "
	      "frame; alone: its draws in a submission of their own (--isolate, median of the "
	      "rounds); tick, render: CPU. Click a column to sort.</p>\n",
	      f);
}

/* A "not reliable" cell note, or nothing. */
static void noise_cell(FILE *f, const bench_point *p, const bench_ratio *q, bool ratio)
{
	double e = ratio ? q->median - 1 : q->median, lo = ratio ? q->min - 1 : q->min,
	       hi = ratio ? q->max - 1 : q->max;
	char why[256];
	unsigned bits = bench_noise(e, lo, hi, p->pairs, p->machine_busy_pct);
	fprintf(f, "<td class=\"t%s\">", bits ? " noisy" : "");
	if (bits) {
		fputs("not reliable: ", f);
		page_text(f, bench_noise_text(bits, p->pairs, "pairs", p->machine_busy_pct, why,
					      sizeof why));
	}
	fputs("</td>", f);
}

static void ratio_row(FILE *f, const bench_point *p, const char *name, double mean,
		      const bench_ratio *q)
{
	fputs("<tr><td class=\"t\">", f);
	page_text(f, name);
	fprintf(f, "</td><td>%.2f</td><td>%+.2f%%</td><td>%+.2f .. %+.2f%%</td>", mean,
		(q->median - 1) * 100, (q->min - 1) * 100, (q->max - 1) * 100);
	noise_cell(f, p, q, true);
	fputs("</tr>\n", f);
}

static void overhead(FILE *f, const bench_opts *o, const bench_point *p)
{
	fprintf(f, "<h3>Profiler overhead, %u interleaved pairs</h3>\n", p->pairs);
	fputs("<table>\n<thead><tr><th class=\"t\">mode</th><th>frame ms</th><th>median</th>"
	      "<th>spread</th><th class=\"t\">reliability</th></tr></thead>\n<tbody>\n",
	      f);
	fprintf(f, "<tr><td class=\"t\">profiler off</td><td>%.2f</td><td></td><td></td><td></td>"
		   "</tr>\n<tr><td class=\"t\">no sources</td><td>%.2f</td><td></td><td></td><td>"
		   "</td></tr>\n",
		p->off.mean, p->empty.mean);
	ratio_row(f, p, "CPU timing", p->cpu.mean, &p->ratio_cpu);
	ratio_row(f, p, "CPU timing, CPU time", bench_cpu_per_frame(p, MODE_CPU), &p->ratio_cpu_work);
	ratio_row(f, p, "CPU+GPU timing", p->gpu.mean, &p->ratio_gpu);
	if (o->work) {
		ratio_row(f, p, "CPU+GPU timing and work counting", p->gpu_work.mean, &p->ratio_work);
		fprintf(f, "<tr><td class=\"t\">work counting above timing alone</td><td></td>"
			   "<td>%+.2f points</td><td>%+.2f .. %+.2f</td><td></td></tr>\n",
			p->work_points.median, p->work_points.min, p->work_points.max);
	}
	fprintf(f, "<tr><td class=\"t\">each source, frame time</td><td></td><td>%.2f us</td>"
		   "<td>%.2f .. %.2f</td>",
		p->source_cost.median, p->source_cost.min, p->source_cost.max);
	noise_cell(f, p, &p->source_cost, false);
	fputs("</tr>\n</tbody></table>\n", f);
	fprintf(f, "<p>CPU+GPU: one frame in %u GPU-timed (budget %.2f%%, %s). ", p->gpu_every,
		o->gpu_budget * 100, p->composed ? "composed" : "direct");
	fputs("The CPU timing's CPU time is the profiler's own work; ", f);
	if (p->changes_work)
		fprintf(f, "on this software device GPU timing changes the driver's work (%s).</p>\n",
			p->flushed ? "each timer flushes" : "each end-of-pipe stamp flushes");
	else
		fputs("the CPU+GPU figure adds the GPU timers.</p>\n", f);
	page_chart c;
	if (page_chart_open(&c))
		page_chart_close(f, &c, PAGE_W, bench_chart_overhead(c.f, 0, 0, PAGE_W, p));
}

static void point_section(FILE *f, const bench_opts *o, const bench_result *r, const bench_point *p)
{
	fprintf(f, "<section class=\"point\" data-api=\"%s\" data-sources=\"%u\" "
		   "data-record-threads=\"%u\">\n<h2>",
		p->api, p->sources, p->record_threads);
	page_text(f, p->api);
	fprintf(f, ", %u sources", p->sources);
	if (p->record_threads > 1)
		fprintf(f, ", %u record threads%s", p->record_threads,
			p->record_threads_used < p->record_threads ? " (1 used)" : "");
	if (p->n_src != p->sources)
		fprintf(f, " (the scene holds %u)", p->n_src);
	fputs("</h2>\n<p>", f);
	page_text(f, p->device);
	fputs(" (", f);
	page_text(f, p->driver);
	fputs("); GPU timing ", f);
	page_text(f, p->mode);
	fputs(p->software ? " (software device)" : "", f);
	if (p->flushed)
		fprintf(f, ", an empty timer %.1f us (subtracted)", p->timer_overhead);
	else
		fputs(", bare stamps (nothing subtracted)", f);
	fprintf(f, ". Every frame GPU-timed: mean %.2f ms, p95 %.2f ms; the frame's GPU time "
		   "%.1f us.</p>\n",
		p->timed.mean, p->timed.p95, p->frame_gpu_avg);
	if (p->software && !p->flushed)
		fputs("<div class=\"warn\">plain stamps on a software device do not measure each "
		      "source's cost: it runs the frame's work in binned scenes at flushes, and a "
		      "bare stamp reads when its part of the scene got there (docs/gpu-timing.md); "
		      "--gpu-timing auto measures it here</div>\n",
		      f);
	if (p->machine_busy_pct > SRCPROF_BUSY_PCT)
		fprintf(f, "<div class=\"warn\">machine busy: other processes used %.0f%% of the CPU "
			   "while this point ran; %s</div>\n",
			p->machine_busy_pct,
			p->software ? "software-device GPU times are inflated, and so are frame times"
				    : "frame and CPU times are inflated");
	if (p->failures)
		fprintf(f, "<div class=\"bad\">%u validation messages during the run</div>\n",
			p->failures);
	page_chart c;
	if (page_chart_open(&c))
		page_chart_close(f, &c, PAGE_W, bench_chart_gpu(c.f, 0, 0, PAGE_W, o, p));
	source_table(f, p);
	bench_html_work(f, o, p);
	overhead(f, o, p);
	if (r->replayed)
		fprintf(f, "<p>The profiler's own cost, its calls replayed without drawing: %.1f ns "
			   "per source and frame with CPU timing, %.1f with CPU+GPU.</p>\n",
			p->prof_cpu_ns, p->prof_gpu_ns);
	fputs("</section>\n", f);
}

static void sweep_section(FILE *f, const bench_opts *o, const bench_result *r)
{
	bench_scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = bench_scalings(r, sc);
	fputs("<section class=\"sweep\">\n<h2>The sweep: cost against the number of sources</h2>\n",
	      f);
	page_chart c;
	double h = 0;
	if (page_chart_open(&c)) {
		h = bench_chart_frame_cost(c.f, 0, 0, PAGE_W, r);
		page_chart_close(f, &c, PAGE_W, h);
	}
	if (!h) {
		fputs("<p>One source count per API: nothing to draw against the count (give "
		      "--sources several counts).</p>\n</section>\n",
		      f);
		return;
	}
	if (page_chart_open(&c))
		page_chart_close(f, &c, PAGE_W, bench_chart_per_source(c.f, 0, 0, PAGE_W, r));
	fputs("<table class=\"sortable scaling\">\n<thead><tr><th class=\"t\">api</th>"
	      "<th data-default=\"asc\">sources</th><th>frame ms</th><th>none ms</th>"
	      "<th>us/source</th><th>spread</th><th>CPU us/source</th><th>src GPU us</th>"
	      "<th>own prof ns</th></tr></thead>\n<tbody>\n",
	      f);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		fputs("<tr><td class=\"t\">", f);
		page_text(f, p->api);
		fputs("</td>", f);
		page_num(f, "%.0f", bench_held(p));
		page_num(f, "%.2f", p->off.mean);
		page_num(f, "%.2f", p->empty.mean);
		page_num(f, "%.2f", p->source_cost.median);
		fprintf(f, "<td>%.2f .. %.2f</td>", p->source_cost.min, p->source_cost.max);
		page_num(f, "%.2f", p->source_work.median);
		page_num(f, "%.1f", bench_source_gpu_mean(p));
		page_num(f, "%.1f", r->replayed ? p->prof_cpu_ns : NAN);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n<ul>\n", f);
	for (uint32_t k = 0; k < n_sc; k++) {
		const bench_scaling *s = &sc[k];
		const bench_spread *cost = &s->per_source[BENCH_SERIES_COST];
		fputs("<li>", f);
		page_text(f, s->api);
		fprintf(f, ": cost per source %.2f .. %.2f us (max/min %.2f): %s", cost->lo, cost->hi,
			cost->hi / (cost->lo > 0 ? cost->lo : 1),
			cost->flat ? "flat within 20%" : "<b>not</b> flat within 20%");
		if (s->added.n) {
			const bench_spread *st = &s->added.range[BENCH_SERIES_COST];
			fprintf(f, "; each source added %.2f .. %.2f us: %s", st->lo, st->hi,
				st->flat ? "flat within 20%" : "<b>not</b> flat within 20%");
		}
		if (s->fitted)
			fprintf(f, "; fit %.1f us once + %.2f us each (largest deviation %.1f%%)",
				s->once, s->each, s->worst * 100);
		fputs("</li>\n", f);
	}
	fprintf(f, "</ul>\n<p>Scene %s: frame time and CPU time are true on any device; the GPU "
		   "column is the profiler's in-frame figure.</p>\n</section>\n",
		o->scene->name);
}

bool bench_write_html(const char *path, const bench_opts *o, const bench_result *r)
{
	out_file of;
	FILE *f = out_open(&of, path, "w");
	if (!f)
		return false;
	char title[128];
	snprintf(title, sizeof title, "srcprof-bench: scene %s", o->scene->name);
	page_begin(f, title);
	fputs("<h1>", f);
	page_text(f, title);
	fputs("</h1>\n<p class=\"lead\">What each source costs on this GPU, what profiling costs, "
	      "and how both grow with the number of sources.</p>\n",
	      f);
	if (r->interrupted)
		fprintf(f, "<div class=\"bad\">INTERRUPTED (%s): %u of %u points finished; their "
			   "figures follow%s.</div>\n",
			bench_signal_name(r->interrupted), r->n_points, r->planned,
			r->replayed ? "" : ", without the profiler's replayed cost");
	metadata(f, o, r);
	for (uint32_t i = 0; i < r->n_points; i++)
		point_section(f, o, r, &r->points[i]);
	sweep_section(f, o, r);
	fprintf(f, "<footer>srcprof-bench, git ");
	page_text(f, r->git);
	fputs("; one self-contained page (no network).</footer>\n", f);
	page_end(f);
	return out_commit(&of);
}
