/* srcprof-bench compare's outputs: the table on stdout, --json, --html. */
#include "bench_compare.h"
#include "bench_page.h"
#include "bench_svg.h"
#include "srcprof_base/json.h"
#include "srcprof_base/stats.h"
#include "srcprof/machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows printed per point beyond the costlier and cheaper ones. */
#define SHOWN_SAME 20
/* Rows in a point's interval chart at most. */
#define CHART_ROWS 60

static void pct_text(char *buf, size_t size, double v)
{
	if (isinf(v))
		snprintf(buf, size, "%s", v > 0 ? "+inf" : "-inf");
	else
		snprintf(buf, size, "%+.1f", v * 100);
}

/* "COSTLIER", "cheaper", or "-"; a "?" where it is not reliable. */
static const char *verdict_text(const cmp_row *row)
{
	static const char *const text[3][2] = {
		{"-", "- ?"}, {"COSTLIER", "COSTLIER ?"}, {"cheaper", "cheaper ?"}};
	return text[row->verdict][row->noisy != 0];
}

static void row_name(char *buf, size_t size, const cmp_row *row)
{
	if (row->source)
		snprintf(buf, size, "%s: %s", row->source, cmp_figure_names[row->figure]);
	else
		snprintf(buf, size, "%s (profiler off)", cmp_figure_names[row->figure]);
}

static void run_line(FILE *out, const char *label, const brun *b)
{
	fprintf(out, "%-4s %s: git %s, %ux%u, %u frames, %u warm-up, %u pairs%s%s\n", label, b->path,
		b->git, b->width, b->height, b->frames, b->warmup, b->repeat,
		b->isolate ? ", --isolate" : "",
		b->interrupted ? ", INTERRUPTED (the points it finished)" : "");
}

static void print_row(FILE *out, const cmp_result *r, const cmp_row *row)
{
	char name[160], ch[16], lo[16], hi[16], notes[256];
	row_name(name, sizeof name, row);
	pct_text(ch, sizeof ch, row->change);
	pct_text(lo, sizeof lo, row->lo);
	pct_text(hi, sizeof hi, row->hi);
	fprintf(out, "%7s%% %7s .. %-7s %7.4f %7.4f %10.2f %10.2f %-2s  %-10s %-32s %s\n", ch, lo,
		hi, row->p, row->p_beyond, row->base_med, row->new_med, cmp_unit(row->figure),
		verdict_text(row), name, cmp_short_notes(r, row, notes, sizeof notes));
}

void cmp_print(FILE *out, const cmp_result *r, int status)
{
	const cmp_opts *o = r->o;
	fprintf(out, CMP_PROG ": scene %s\n", r->base->scene);
	for (uint32_t i = 0; i < r->n_base; i++)
		run_line(out, "BASE", &r->bases[i]);
	for (uint32_t i = 0; i < r->n_new; i++)
		run_line(out, "NEW", &r->news[i]);
	if (r->settings[0])
		fprintf(out, "settings differ: %s\n", r->settings);
	if (r->by_runs) {
		fprintf(out, "Each figure: each run's median of it is one sample; the change of NEW's "
			     "mean from BASE's,\nwith its %g%% interval, and Welch's t test (p) over "
			     "the %u and %u runs, so that the\nspread between runs of one build counts. "
			     "Costlier / cheaper: a change beyond\n",
			(1 - o->alpha) * 100, r->n_base, r->n_new);
	} else {
		fprintf(out, "Each figure: the change of NEW from BASE (Hodges-Lehmann, relative to "
			     "BASE's median) with its %g%%\ninterval, and a Mann-Whitney U test (p) on ",
			(1 - o->alpha) * 100);
		if (o->blocks)
			fprintf(out, "the medians of %u blocks of consecutive frames\nper run",
				o->blocks);
		else
			fprintf(out, "every frame\n(as if independent)");
		fprintf(out, " (GPU marginal, GPU alone: the --isolate rounds). Costlier / "
			     "cheaper: a change beyond\n");
	}
	fprintf(out, ""
		     "+-%.0f%% and %g us a frame, tested (p>thr: BASE moved by that margin) and kept at a "
		     "false-\ndiscovery rate of %g over the %u figures (Benjamini-Hochberg: ",
		o->threshold * 100, o->floor_us, o->alpha, r->figures);
	if (r->cut >= 0)
		fprintf(out, "kept at p>thr <= %.4g).\n", r->cut);
	else
		fprintf(out, "none kept).\n");
	for (uint32_t i = 0; i < r->n_points; i++) {
		const cmp_point *p = &r->points[i];
		fprintf(out, "\n== %s, %u sources", p->base->api, p->base->sources);
		if (p->base->record_threads > 1)
			fprintf(out, ", %u record threads", p->base->record_threads);
		fprintf(out, ": %s", p->base->device);
		if (strcmp(p->base->device, p->nw->device) != 0)
			fprintf(out, " -> %s", p->nw->device);
		fputc('\n', out);
		if (strcmp(p->base->mode, p->nw->mode) != 0)
			fprintf(out, "GPU timing mode differs: %s -> %s\n", p->base->mode, p->nw->mode);
		if (p->base->raster_threads != p->nw->raster_threads &&
		    p->base->raster_threads >= 0 && p->nw->raster_threads >= 0)
			fprintf(out, "rasterizer threads differ: %d -> %d (a software device's "
				     "per-source GPU times and frame times move with them)\n",
				p->base->raster_threads, p->nw->raster_threads);
		if (p->base->busy_pct > SRCPROF_BUSY_PCT || p->nw->busy_pct > SRCPROF_BUSY_PCT) {
			char pair[64];
			cmp_busy_pair(p->base, p->nw, pair, sizeof pair);
			fprintf(out, "machine busy: other processes used %s of the CPU; %s\n", pair,
				p->base->software ? "software-device GPU times are inflated"
						  : "timings are inflated");
		}
		fprintf(out, "%8s %-18s %7s %7s %10s %10s %-2s  %-10s %-32s %s\n", "change",
			"  95% interval", "p", "p>thr", "base", "new", "", "verdict", "figure", "notes");
		uint32_t same = 0, hidden = 0;
		for (uint32_t k = 0; k < p->n_rows; k++) {
			const cmp_row *row = &p->rows[k];
			if (row->verdict == CMP_SAME && !row->held_back && same++ >= SHOWN_SAME) {
				hidden++;
				continue;
			}
			print_row(out, r, row);
		}
		if (hidden)
			fprintf(out, "... %u more with no significant change (all in --json and "
				     "--html)\n",
				hidden);
		if (p->only_base || p->only_new)
			fprintf(out, "sources in one run only (%u in BASE, %u in NEW): %s\n", p->only_base,
				p->only_new, p->only_names);
		cmp_print_work(out, r, p);
	}
	if (r->unmatched_base || r->unmatched_new)
		fprintf(out, "\npoints in one run only (not compared): %u in BASE, %u in NEW\n",
			r->unmatched_base, r->unmatched_new);
	fprintf(out, "\n?: not reliable. busy: a run's machine was busy (above); reaches: the interval "
		     "does not\nrule out a change beyond the threshold; wide: the interval is wider than "
		     "the change;\nfew samples: fewer than 3 (or no interval). --json and --html say it in "
		     "full.\n");
	if (!r->by_runs)
		fprintf(out, "\nOne run a side: the test sees the spread within each run, not between "
			     "runs. Runs of one\nbuild can differ by more than their frames spread "
			     "(measured: docs/bench.md, \"Runs as\nsamples\"), so a verdict can be "
			     "the machine; bench with --runs 3 (or give BASE1 BASE2\nvs NEW1 NEW2).\n");
	if (!r->work_base && !r->work_new)
		fprintf(out, "\nwork: not counted in BASE or NEW (bench with --work to tell a change of "
			     "time from a change\nof work)\n");
	else
		fprintf(out, "\nwork%s: %u sources equal, %u changed, %u not compared (exact counts; "
			     "the exit status\nis the time's)\n",
			!r->work_base ? " (not counted in BASE)" : !r->work_new ? " (not counted in NEW)"
										: "",
			r->work_equal, r->work_changed, r->work_not_counted);
	fprintf(out, "\nsummary: %u costlier, %u cheaper, %u no significant change; %u of the %u "
		     "figures not reliable;\n%u points compared; exit %d\n",
		r->costlier, r->cheaper, r->same, r->noisy, r->costlier + r->cheaper + r->same,
		r->n_points, status);
}

static void json_run(json_w *w, const char *key, const brun *b)
{
	json_w_break(w, 2);
	json_w_object(w, key);
	json_w_string(w, "file", b->path);
	json_w_string(w, "git", b->git);
	json_w_string(w, "machine", b->machine);
	json_w_array(w, "size");
	json_w_uint(w, NULL, b->width);
	json_w_uint(w, NULL, b->height);
	json_w_end(w);
	json_w_uint(w, "frames", b->frames);
	json_w_uint(w, "warmup", b->warmup);
	json_w_uint(w, "repeat", b->repeat);
	json_w_bool(w, "isolate", b->isolate);
	json_w_bool(w, "interrupted", b->interrupted);
	json_w_end(w);
}

static void json_row(json_w *w, const cmp_result *r, const cmp_point *p, const cmp_row *row)
{
	char why[512];
	json_w_break(w, 6);
	json_w_object(w, NULL);
	json_w_string(w, "source", row->source);
	json_w_string(w, "figure", cmp_figure_keys[row->figure]);
	json_w_string(w, "unit", cmp_unit(row->figure));
	json_w_number(w, "base_median", "%.4f", row->base_med);
	json_w_number(w, "new_median", "%.4f", row->new_med);
	json_w_number(w, "shift", "%.4f", row->shift);
	/* Percents: null where unbounded (no interval, or from 0). */
	json_w_number(w, "change_pct", "%.4f", row->change * 100);
	json_w_number(w, "ci_low_pct", "%.4f", row->lo * 100);
	json_w_number(w, "ci_high_pct", "%.4f", row->hi * 100);
	json_w_number(w, "p_beyond", "%.6g", row->p_beyond);
	json_w_string(w, "beyond_side", row->side > 0 ? "up" : "down");
	json_w_number(w, "p", "%.6g", row->p);
	json_w_uint(w, "n_base", row->n_base);
	json_w_uint(w, "n_new", row->n_new);
	json_w_string(w, "verdict", cmp_verdict_names[row->verdict]);
	json_w_bool(w, "reliable", !row->noisy);
	json_w_string(w, "not_reliable_because", cmp_noise_text(r, p, row, why, sizeof why));
	json_w_end(w);
}

void cmp_write_json(FILE *f, const cmp_result *r)
{
	const cmp_opts *o = r->o;
	json_w w;
	json_w_init(&w, f);
	json_w_object(&w, NULL);
	json_w_break(&w, 2);
	json_w_string(&w, "generator", "srcprof-bench compare");
	json_w_break(&w, 2);
	json_w_string(&w, "scene", r->base->scene);
	json_run(&w, "base", r->base);
	json_run(&w, "new", r->nw);
	for (int side = 0; side < 2; side++) {
		json_w_break(&w, 2);
		json_w_array(&w, side ? "new_runs" : "base_runs");
		for (uint32_t i = 0; i < (side ? r->n_new : r->n_base); i++)
			json_w_string(&w, NULL, (side ? r->news : r->bases)[i].path);
		json_w_end(&w);
	}
	json_w_break(&w, 2);
	json_w_string(&w, "test",
		      r->by_runs ? "welch-t over runs' medians" : "mann-whitney-u within runs");
	json_w_break(&w, 2);
	json_w_number(&w, "threshold_pct", "%.4f", o->threshold * 100);
	json_w_number(&w, "alpha", "%.6f", o->alpha);
	json_w_number(&w, "floor_us", "%.4f", o->floor_us);
	json_w_uint(&w, "blocks", o->blocks);
	json_w_uint(&w, "figures", r->figures);
	/* null: no figure was kept (the cut keeps nothing). */
	json_w_number(&w, "fdr_cut", "%.6g", r->cut >= 0 ? r->cut : NAN);
	json_w_break(&w, 2);
	json_w_string(&w, "settings_differ", r->settings);
	json_w_break(&w, 2);
	json_w_array(&w, "points");
	for (uint32_t i = 0; i < r->n_points; i++) {
		const cmp_point *p = &r->points[i];
		json_w_break(&w, 4);
		json_w_object(&w, NULL);
		json_w_string(&w, "api", p->base->api);
		json_w_uint(&w, "sources", p->base->sources);
		json_w_uint(&w, "record_threads", p->base->record_threads);
		/* busy_pct < 0: not recorded (null in the bench file). */
		json_w_number(&w, "base_busy_pct", "%.2f", p->base->busy_pct < 0 ? NAN : p->base->busy_pct);
		json_w_number(&w, "new_busy_pct", "%.2f", p->nw->busy_pct < 0 ? NAN : p->nw->busy_pct);
		json_w_uint(&w, "only_base", p->only_base);
		json_w_uint(&w, "only_new", p->only_new);
		json_w_array(&w, "changes");
		for (uint32_t k = 0; k < p->n_rows; k++)
			json_row(&w, r, p, &p->rows[k]);
		json_w_end(&w);
		cmp_json_work(&w, r, p);
		json_w_end(&w);
	}
	json_w_break(&w, 2);
	json_w_end(&w);
	json_w_break(&w, 2);
	json_w_object(&w, "work");
	json_w_bool(&w, "base", r->work_base);
	json_w_bool(&w, "new", r->work_new);
	json_w_uint(&w, "equal", r->work_equal);
	json_w_uint(&w, "changed", r->work_changed);
	json_w_uint(&w, "not_compared", r->work_not_counted);
	json_w_end(&w);
	json_w_break(&w, 2);
	json_w_object(&w, "unmatched_points");
	json_w_uint(&w, "base", r->unmatched_base);
	json_w_uint(&w, "new", r->unmatched_new);
	json_w_end(&w);
	json_w_break(&w, 2);
	json_w_uint(&w, "costlier", r->costlier);
	json_w_uint(&w, "cheaper", r->cheaper);
	json_w_uint(&w, "no_significant_change", r->same);
	json_w_uint(&w, "not_reliable", r->noisy);
	json_w_break(&w, 2);
	json_w_uint(&w, "exit_status", r->costlier ? 1 : 0);
	json_w_break(&w, 0);
	json_w_end(&w);
	fputc('\n', f);
}

#define PAGE_W 944.0

static void html_meta(FILE *f, const cmp_result *r)
{
	const brun *runs[2] = {r->base, r->nw};
	fputs("<table class=\"meta\">\n<tr><td></td><td><b>BASE</b></td><td><b>NEW</b></td></tr>\n",
	      f);
	static const char *const keys[] = {"file", "git", "machine", "size", "frames", "isolate"};
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		fprintf(f, "<tr><td>%s</td>", keys[k]);
		for (int i = 0; i < 2; i++) {
			const brun *b = runs[i];
			char buf[600];
			const brun *all = i ? r->news : r->bases;
			uint32_t n = i ? r->n_new : r->n_base;
			size_t at = 0;
			switch (k) {
			case 0:
				buf[0] = '\0';
				for (uint32_t q = 0; q < n && at < sizeof buf; q++)
					at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s",
							       q ? ", " : "", all[q].path);
				break;
			case 1: snprintf(buf, sizeof buf, "%s", b->git); break;
			case 2: snprintf(buf, sizeof buf, "%s", b->machine); break;
			case 3: snprintf(buf, sizeof buf, "%ux%u", b->width, b->height); break;
			case 4:
				snprintf(buf, sizeof buf, "%u measured, %u warm-up, %u pairs%s", b->frames,
					 b->warmup, b->repeat, b->interrupted ? "; INTERRUPTED" : "");
				break;
			default: snprintf(buf, sizeof buf, "%s", b->isolate ? "yes" : "no");
			}
			fputs("<td>", f);
			page_text(f, buf);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void html_point(FILE *f, const cmp_result *r, const cmp_point *p)
{
	fputs("<section class=\"point\" data-api=\"", f);
	page_text(f, p->base->api);
	fprintf(f, "\" data-sources=\"%u\" data-record-threads=\"%u\">\n<h2>", p->base->sources,
		p->base->record_threads);
	page_text(f, p->base->api);
	fprintf(f, ", %u sources", p->base->sources);
	if (p->base->record_threads > 1)
		fprintf(f, ", %u record threads", p->base->record_threads);
	fputs("</h2>\n", f);
	if (p->base->busy_pct > SRCPROF_BUSY_PCT || p->nw->busy_pct > SRCPROF_BUSY_PCT) {
		char pair[64];
		cmp_busy_pair(p->base, p->nw, pair, sizeof pair);
		fprintf(f, "<div class=\"warn\">machine busy: other processes used %s of the CPU; "
			   "%s</div>\n",
			pair,
			p->base->software ? "software-device GPU times are inflated"
					  : "timings are inflated");
	}
	/* The chart: every changed row and, up to CHART_ROWS in all, the
	 * others that moved most, in the rows' order (costliest first). */
	size_t cap = p->n_rows ? p->n_rows : 1;
	svg_interval *iv = malloc(cap * sizeof *iv);
	char(*names)[160] = malloc(cap * sizeof *names);
	double *moved = malloc(cap * sizeof *moved);
	uint32_t n = 0, changed = 0, n_same = 0;
	for (uint32_t k = 0; moved && k < p->n_rows; k++) {
		if (p->rows[k].verdict != CMP_SAME)
			changed++;
		else
			moved[n_same++] = -fabs(p->rows[k].change);
	}
	uint32_t quota = changed < CHART_ROWS ? CHART_ROWS - changed : 0;
	double cutoff = INFINITY; /* |change| a shown unchanged row reaches */
	if (moved && quota && n_same) {
		stats_sort(moved, n_same); /* -|change|: the largest first */
		cutoff = -moved[(quota < n_same ? quota : n_same) - 1];
	}
	uint32_t same_shown = 0;
	for (uint32_t k = 0; iv && names && moved && k < p->n_rows; k++) {
		const cmp_row *row = &p->rows[k];
		if (row->verdict == CMP_SAME) {
			if (same_shown == quota || !(fabs(row->change) >= cutoff))
				continue;
			same_shown++;
		}
		row_name(names[n], sizeof names[n], row);
		iv[n] = (svg_interval){names[n], row->change, row->lo, row->hi, (int)row->verdict};
		n++;
	}
	free(moved);
	char sub[200];
	snprintf(sub, sizeof sub, "change of NEW from BASE with its 95%% interval; %u of %u figures%s",
		 n, p->n_rows, n < p->n_rows ? " (every change, then the largest others)" : "");
	page_chart c;
	if (iv && names && page_chart_open(&c))
		page_chart_close(f, &c, PAGE_W,
				 svg_forest(c.f, 0, 0, PAGE_W,
					    &(svg_forest_desc){.title = "Changes",
							       .subtitle = sub,
							       .threshold = r->o->threshold,
							       .rows = iv,
							       .n = n}));
	free(iv);
	free(names);
	fputs("<div class=\"scroll\"><table class=\"sortable changes\" data-api=\"", f);
	page_text(f, p->base->api);
	fprintf(f, "\" "
		   "data-sources=\"%u\">\n<thead><tr><th class=\"t\">source</th><th class=\"t\">"
		   "figure</th><th>base</th><th>new</th><th class=\"t\">unit</th>"
		   "<th data-default=\"desc\">change %%</th><th>95%% interval</th><th>p</th>"
		   "<th>p&gt;thr</th>"
		   "<th class=\"t\">verdict</th><th class=\"t\">reliability</th></tr></thead>\n"
		   "<tbody>\n",
		p->base->sources);
	for (uint32_t k = 0; k < p->n_rows; k++) {
		const cmp_row *row = &p->rows[k];
		char lo[16], hi[16], why[512];
		pct_text(lo, sizeof lo, row->lo);
		pct_text(hi, sizeof hi, row->hi);
		fputs("<tr class=\"change\"><td class=\"t\">", f);
		page_text(f, row->source ? row->source : "(the frame)");
		fprintf(f, "</td><td class=\"t\">%s</td>", cmp_figure_names[row->figure]);
		page_num(f, "%.2f", row->base_med);
		page_num(f, "%.2f", row->new_med);
		fprintf(f, "<td class=\"t\">%s</td>", cmp_unit(row->figure));
		/* An infinite change (from 0) sorts first. */
		fprintf(f, "<td data-v=\"%.9g\">", isinf(row->change) ? copysign(1e300, row->change)
								     : row->change * 100);
		if (isinf(row->change))
			fputs(row->change > 0 ? "from 0" : "to 0", f);
		else
			fprintf(f, "%+.1f", row->change * 100);
		fprintf(f, "</td><td>%s .. %s</td>", lo, hi);
		page_num(f, "%.4f", row->p);
		page_num(f, "%.4f", row->p_beyond);
		fprintf(f, "<td class=\"t v %s\">%s</td><td class=\"t%s\">",
			row->verdict == CMP_COSTLIER  ? "costlier"
			: row->verdict == CMP_CHEAPER ? "cheaper"
						      : "",
			cmp_verdict_names[row->verdict], row->noisy ? " noisy" : "");
		if (row->noisy) {
			fputs("not reliable: ", f);
			page_text(f, cmp_noise_text(r, p, row, why, sizeof why));
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	cmp_html_work(f, r, p);
	if (p->only_base || p->only_new) {
		fprintf(f, "<p>Sources in one run only (%u in BASE, %u in NEW): ", p->only_base,
			p->only_new);
		page_text(f, p->only_names);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
}

void cmp_write_html(FILE *f, const cmp_result *r)
{
	const cmp_opts *o = r->o;
	char title[128];
	snprintf(title, sizeof title, "srcprof-bench compare: scene %s", r->base->scene);
	page_begin(f, title);
	fputs("<h1>", f);
	page_text(f, title);
	fputs("</h1>\n<p class=\"lead\">What got costlier from BASE to NEW, what got cheaper, and "
	      "how sure the figures are.</p>\n",
	      f);
	if (r->costlier)
		fprintf(f, "<div class=\"bad\"><b>%u figure%s got significantly costlier</b> (exit "
			   "status 1); %u cheaper.</div>\n",
			r->costlier, r->costlier == 1 ? "" : "s", r->cheaper);
	else
		fprintf(f, "<div class=\"good\"><b>Nothing got significantly costlier</b> (exit "
			   "status 0); %u cheaper.</div>\n",
			r->cheaper);
	html_meta(f, r);
	if (r->settings[0]) {
		fputs("<div class=\"warn\">settings differ: ", f);
		page_text(f, r->settings);
		fputs("</div>\n", f);
	}
	if (r->by_runs)
		fprintf(f, "<p>%u BASE runs and %u NEW runs: each run's median of a figure is one "
			   "sample; the change is NEW's mean over BASE's with its 95%% interval, tested "
			   "with Welch's t over the runs, so that the spread between runs of one build "
			   "counts. ",
			r->n_base, r->n_new);
	else
		fprintf(f, "<p>One run a side: the test sees the spread within each run, not between "
			   "runs of one build, which can differ by more than their frames (measured: "
			   "docs/bench.md, &ldquo;Runs as samples&rdquo;); bench "
			   "with --runs 3 (or give two or more files a side) for verdicts that hold across runs. ");
	if (!r->by_runs)
		fprintf(f, "Each figure: the change of NEW from BASE (Hodges-Lehmann shift over "
			   "BASE's median) with its 95%% interval, and a Mann-Whitney U test on %s (GPU "
			   "alone: the --isolate rounds). ",
			o->blocks ? "the medians of blocks of consecutive frames" : "every frame");
	fprintf(f, "Costlier or cheaper: a change beyond &plusmn;%.0f%% and %g us "
		   "a frame, tested (p&gt;thr: BASE moved by that margin) and kept at a false-discovery "
		   "rate of %g over the %u figures (Benjamini-Hochberg). %u of %u figures are not "
		   "reliable (the reason is in the table).</p>\n",
		o->threshold * 100, o->floor_us, o->alpha, r->figures, r->noisy,
		r->costlier + r->cheaper + r->same);
	for (uint32_t i = 0; i < r->n_points; i++)
		html_point(f, r, &r->points[i]);
	if (r->unmatched_base || r->unmatched_new)
		fprintf(f, "<p>Points in one run only (not compared): %u in BASE, %u in NEW.</p>\n",
			r->unmatched_base, r->unmatched_new);
	fputs("<footer>srcprof-bench compare; one self-contained page (no network).</footer>\n", f);
	page_end(f);
}
