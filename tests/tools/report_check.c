/* report_check: checks srcprof-bench's reports.
 *
 *   report_check compare OUT.json WANT_EXIT
 *     compare's --json: every key, each point's changes sorted by change,
 *     each verdict what its p_beyond and the false-discovery cut (worked
 *     out here, Benjamini-Hochberg) make it, a kept change's interval past
 *     the threshold,
 *     the counts adding up, and the exit status WANT_EXIT (and 1 exactly
 *     when something got costlier).
 *   report_check dom DOM.html REPORT.json
 *     a --html page as a browser left it after its script ran
 *     (chromium --dump-dom): the script ran (data-js="ready"), no
 *     reference outside the page, and per point one table row per source
 *     (bench) or change (compare) of REPORT.json, sorted by the page's
 *     script by GPU cost (bench) or change (compare), costliest first. */
#include "json_check.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *check_program = "report_check";

/* A percent that may be null (unbounded, or a change from 0): the sign
 * of `toward` decides which infinity. */
static double pct_or_inf(const cJSON *o, const char *key, double toward)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	EXPECT(v && (cJSON_IsNumber(v) || cJSON_IsNull(v)), "'%s' is neither a number nor null", key);
	if (cJSON_IsNumber(v))
		return v->valuedouble;
	return toward < 0 ? -INFINITY : INFINITY;
}

static int cmp_up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The Benjamini-Hochberg cut over every change's p_beyond, worked out
 * here from the file: the largest p(i) <= i / k x alpha, or -1. */
static double bh_cut(const cJSON *root, double alpha, int *figures)
{
	static double p[100000];
	int k = 0;
	const cJSON *pt, *ch;
	cJSON_ArrayForEach(pt, cJSON_GetObjectItem(root, "points"))
		cJSON_ArrayForEach(ch, cJSON_GetObjectItem(pt, "changes"))
			if (k < 100000)
				p[k++] = num(ch, "p_beyond");
	qsort(p, (size_t)k, sizeof *p, cmp_up);
	double cut = -1;
	for (int i = 0; i < k; i++)
		if (p[i] <= (double)(i + 1) / k * alpha)
			cut = p[i];
	*figures = k;
	return cut;
}

static void check_compare(const cJSON *root, int want_exit)
{
	const char *keys[] = {"generator", "scene", "base", "new", "threshold_pct", "alpha",
			      "floor_us", "blocks", "figures", "fdr_cut", "points", "costlier",
			      "cheaper", "no_significant_change", "not_reliable", "exit_status"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		EXPECT(cJSON_GetObjectItem(root, keys[i]), "missing key '%s'", keys[i]);
	int figures;
	double cut = bh_cut(root, num(root, "alpha"), &figures);
	/* null: the cut keeps nothing (-1 here). */
	const cJSON *fc = cJSON_GetObjectItem(root, "fdr_cut");
	double file_cut = cJSON_IsNull(fc) ? -1 : num(root, "fdr_cut");
	EXPECT(fabs(file_cut - cut) <= 1e-6 * fabs(cut) && num(root, "figures") == figures,
	       "fdr_cut %g over %g figures; the changes' p_beyond give %g over %d", file_cut,
	       num(root, "figures"), cut, figures);
	int costlier = 0, cheaper = 0, same = 0, noisy = 0;
	const cJSON *pt, *ch;
	cJSON_ArrayForEach(pt, cJSON_GetObjectItem(root, "points"))
	{
		double last = INFINITY;
		int k = 0;
		cJSON_ArrayForEach(ch, cJSON_GetObjectItem(pt, "changes"))
		{
			const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(ch, "verdict"));
			const char *unit = cJSON_GetStringValue(cJSON_GetObjectItem(ch, "unit"));
			const char *side = cJSON_GetStringValue(cJSON_GetObjectItem(ch, "beyond_side"));
			const char *why =
				cJSON_GetStringValue(cJSON_GetObjectItem(ch, "not_reliable_because"));
			double shift = num(ch, "shift"), p = num(ch, "p"), pb = num(ch, "p_beyond");
			double change = pct_or_inf(ch, "change_pct", shift);
			double lo = pct_or_inf(ch, "ci_low_pct", -1), hi = pct_or_inf(ch, "ci_high_pct", 1);
			EXPECT(v && unit && why && side, "change %d: no verdict, unit, side or reason", k);
			if (!v || !unit || !why || !side)
				continue;
			EXPECT(change <= last, "change %d (%g%%) is out of order after %g%%", k, change,
			       last);
			last = change;
			/* A change beyond a margin is rarer than a change at all. */
			EXPECT(pb >= p - 1e-9 || p > 0.5, "change %d: p_beyond %g under p %g", k, pb, p);
			bool kept = pb <= cut;
			bool up = kept && !strcmp(side, "up"), down = kept && !strcmp(side, "down");
			const char *want = up ? "costlier" : down ? "cheaper" : "no significant change";
			EXPECT(!strcmp(v, want), "change %d: '%s', its p_beyond %g (%s) and the cut %g make "
			       "it '%s'", k, v, pb, side, cut, want);
			EXPECT(lo <= change && change <= hi, "change %d: %g%% outside %g .. %g", k, change,
			       lo, hi);
			/* Kept: the shown interval past the threshold on its side. */
			double thr = num(root, "threshold_pct");
			EXPECT(!up || lo > thr * 0.999, "change %d: costlier, its interval from %g%%", k, lo);
			EXPECT(!down || hi < -thr * 0.999, "change %d: cheaper, its interval to %g%%", k, hi);
			bool reliable = cJSON_IsTrue(cJSON_GetObjectItem(ch, "reliable"));
			EXPECT(reliable == !*why, "change %d: reliable %d, reason '%s'", k, reliable, why);
			costlier += up;
			cheaper += down;
			same += !up && !down;
			noisy += !reliable;
			k++;
		}
	}
	EXPECT(num(root, "costlier") == costlier && num(root, "cheaper") == cheaper &&
		       num(root, "no_significant_change") == same && num(root, "not_reliable") == noisy,
	       "the counts are not the changes' (%d costlier, %d cheaper, %d same, %d not reliable)",
	       costlier, cheaper, same, noisy);
	EXPECT(num(root, "exit_status") == want_exit && want_exit == (costlier ? 1 : 0),
	       "exit_status %g, want %d, %d costlier", num(root, "exit_status"), want_exit, costlier);
	printf("report_check: compare: %d costlier, %d cheaper, %d no significant change: %s\n",
	       costlier, cheaper, same, failures ? "FAILED" : "ok");
}

/* The element starting with `open` (its start tag's exact text) and the
 * end of the table it opens; NULL when absent. */
static const char *find_table(const char *dom, const char *open, const char **end)
{
	const char *t = strstr(dom, open);
	if (t)
		*end = strstr(t, "</table>");
	return t && *end ? t : NULL;
}

/* The rows of class `row_class` between t and end, and whether the
 * data-v of each row's cell `col` (0-based) never rises. */
static int rows_in(const char *t, const char *end, const char *row_class, int col, bool *sorted)
{
	char open[64];
	snprintf(open, sizeof open, "<tr class=\"%s\"", row_class);
	int n = 0;
	double last = INFINITY;
	*sorted = true;
	for (const char *r = strstr(t, open); r && r < end; r = strstr(r + 1, open)) {
		n++;
		const char *c = r;
		for (int k = 0; c && k <= col; k++)
			c = strstr(c + 1, "<td");
		const char *v = c ? strstr(c, "data-v=\"") : NULL;
		double x = v ? atof(v + 8) : NAN;
		if (v && !strncmp(v + 8, "NaN", 3))
			x = -INFINITY;
		if (!(x <= last))
			*sorted = false;
		last = x;
	}
	return n;
}

static void check_dom(const char *dom, const cJSON *report)
{
	EXPECT(strstr(dom, "data-js=\"ready\""), "dom: the page's script did not run");
	/* Self-contained: nothing fetched. The SVG namespace is a name. */
	const char *refs[] = {"src=\"http", "href=\"http", "<link ", "<script src", "@import",
			      "url(http"};
	for (size_t i = 0; i < sizeof refs / sizeof *refs; i++)
		EXPECT(!strstr(dom, refs[i]), "dom: an outside reference ('%s')", refs[i]);
	const char *gen = cJSON_GetStringValue(cJSON_GetObjectItem(report, "generator"));
	bool compare = gen && !strcmp(gen, "srcprof-bench compare");
	const cJSON *pt;
	int points = 0, rows_total = 0;
	cJSON_ArrayForEach(pt, cJSON_GetObjectItem(report, "points"))
	{
		const char *api = cJSON_GetStringValue(cJSON_GetObjectItem(pt, "api"));
		int sources = (int)num(pt, "sources");
		const char *rows = compare ? "changes" : "sources_detail";
		int want = cJSON_GetArraySize(cJSON_GetObjectItem(pt, rows));
		char open[160];
		snprintf(open, sizeof open,
			 "<table class=\"sortable %s\" data-api=\"%s\" data-sources=\"%d\">",
			 compare ? "changes" : "sources", api ? api : "?", sources);
		const char *end = NULL, *t = find_table(dom, open, &end);
		EXPECT(t, "dom: no table %s", open);
		if (!t)
			continue;
		bool sorted;
		/* bench: GPU avg is the third column; compare: change the sixth. */
		int got = rows_in(t, end, compare ? "change" : "source", compare ? 5 : 2, &sorted);
		EXPECT(got == want, "dom: %s, %d sources: %d rows for %d %s", api, sources, got, want,
		       compare ? "changes" : "sources");
		EXPECT(sorted, "dom: %s, %d sources: the rows are not sorted costliest first", api,
		       sources);
		points++;
		rows_total += got;
	}
	EXPECT(points > 0, "dom: the report has no points");
	int svgs = 0;
	for (const char *s = strstr(dom, "<svg"); s; s = strstr(s + 1, "<svg"))
		svgs++;
	EXPECT(svgs >= points, "dom: %d charts for %d points", svgs, points);
	printf("report_check: dom (%s): %d points, %d rows, %d charts: %s\n",
	       compare ? "compare" : "bench", points, rows_total, svgs, failures ? "FAILED" : "ok");
}

int main(int argc, char **argv)
{
	bool compare = argc == 4 && !strcmp(argv[1], "compare");
	bool dom = argc == 4 && !strcmp(argv[1], "dom");
	if (!compare && !dom) {
		fprintf(stderr, "usage: report_check compare OUT.json WANT_EXIT\n"
				"       report_check dom DOM.html REPORT.json\n");
		return 2;
	}
	char *json = slurp(compare ? argv[2] : argv[3]), *page = dom ? slurp(argv[2]) : NULL;
	cJSON *root = json ? cJSON_Parse(json) : NULL;
	EXPECT(root, "%s: %s", compare ? argv[2] : argv[3], json ? "not JSON" : "cannot read it");
	EXPECT(!dom || page, "%s: cannot read it", argv[2]);
	if (root && compare)
		check_compare(root, atoi(argv[3]));
	if (root && dom && page)
		check_dom(page, root);
	cJSON_Delete(root);
	free(json);
	free(page);
	return failures ? 1 : 0;
}
