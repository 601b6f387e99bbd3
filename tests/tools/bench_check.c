/* bench_check JSON CSV SVG [--isolated] [--interrupted]: checks
 * srcprof-bench's outputs for structure and self-consistency (not speed):
 * the JSON has every key, shares add up to at most 100%, p50 <= p95 <= max
 * for every source, each source's samples are as many as it says and give
 * its average (and its rounds alone their median), the scaling verdicts and
 * each added source's cost between successive counts agree with the
 * points, the profiler's own cost was measured, the CSV has a row of 26
 * fields per source (the last 8 --work's, empty without it), the SVG is well-formed with a GPU chart per point
 * (a bar per drawing source shown, in frame and alone), the sweep's charts
 * exactly when a sweep has two counts, the overhead pairs per point, no
 * chart without data and no text past its edges. --isolated: the run had
 * --isolate, so the costliest sources (up to 20) have their figures alone.
 * --interrupted: the run was stopped by a signal, and says so.
 * --work: the run had --work: "work" is true, every source has a "work"
 * object (frames up to the measured frames; each counter a whole number
 * or null), every source that drew on Vulkan was counted with vertices,
 * and the CSV's work cells are the JSON's (n/a for null); without it no
 * source has one and the cells are empty. Each source's work and samples
 * and the CSV's work cells are checked in bench_check_sources.c. */
#include "svg_check.h"

#include "bench_check.h"
#include "json_check.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *check_program = "bench_check";

/* A range's "flat within 20%" verdict against its min and max. The bench
 * judged the unrounded values and printed them to 4 decimals: a verdict
 * passes when some values that round to these allow it. */
static void check_verdict(const cJSON *range, const char *api, const char *name)
{
	double lo = num(range, "min"), hi = num(range, "max"), e = 0.5e-4 + 1e-9;
	bool can_be_flat = lo + e > 0 && hi - e <= 1.2 * (lo + e);
	bool can_be_not = lo - e <= 0 || hi + e > 1.2 * (lo - e);
	const cJSON *verdict = cJSON_GetObjectItem(range, "flat_within_20pct");
	EXPECT(cJSON_IsBool(verdict) && (cJSON_IsTrue(verdict) ? can_be_flat : can_be_not),
	       "scaling %s %s: the verdict does not match %g .. %g", api, name, lo, hi);
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-3 + 1e-3 * fabs(b);
}

/* The step series: their names in "added", and the point figure (object,
 * field) each is made of. */
#define N_SERIES 4
static const char *const step_names[N_SERIES] = {"cost_per_source_us", "cpu_time_per_source_us",
						  "profiler_cpu_ns_per_source",
						  "profiler_cpu_gpu_ns_per_source"};
static const char *const point_figures[N_SERIES][2] = {{"source_cost_us", "median"},
						       {"source_cpu_time_us", "median"},
						       {"profiler_own_ns_per_source", "cpu"},
						       {"profiler_own_ns_per_source", "cpu_gpu"}};

/* The "added" steps of an API's sweep: one between each two successive
 * distinct source counts, each what the sources' whole cost (the points'
 * figures per source x sources held) grew by over the count's growth; their
 * ranges and verdicts. */
/* A point's or a scaling entry's record threads (1 when absent: files
 * from before them). */
static int threads_of(const cJSON *o)
{
	const cJSON *t = cJSON_GetObjectItem(o, "record_threads");
	return cJSON_IsNumber(t) ? (int)t->valuedouble : 1;
}

static void check_steps(const cJSON *points, const char *api, int threads, const cJSON *added)
{
	double held[64], v[64][N_SERIES];
	int n = 0;
	const cJSON *pt;
	cJSON_ArrayForEach(pt, points)
	{
		const cJSON *a = cJSON_GetObjectItem(pt, "api");
		if (n == 64 || !cJSON_IsString(a) || strcmp(a->valuestring, api) ||
		    threads_of(pt) != threads)
			continue;
		/* Insertion by count, ascending. */
		int i = n++;
		double h = num(pt, "sources_held");
		for (; i > 0 && held[i - 1] > h; i--) {
			held[i] = held[i - 1];
			memcpy(v[i], v[i - 1], sizeof v[i]);
		}
		held[i] = h;
		for (int k = 0; k < N_SERIES; k++)
			v[i][k] = num(cJSON_GetObjectItem(pt, point_figures[k][0]), point_figures[k][1]);
	}
	const cJSON *steps = cJSON_GetObjectItem(added, "steps"), *st = steps ? steps->child : NULL;
	int found = 0;
	double lo[N_SERIES], hi[N_SERIES], max_slack = 0;
	for (int k = 0; k < N_SERIES; k++) {
		lo[k] = 1e300;
		hi[k] = -1e300;
	}
	for (int i = 1; i < n; i++) {
		if (held[i] <= held[i - 1])
			continue;
		found++;
		EXPECT(st && close_to(num(st, "from"), held[i - 1]) && close_to(num(st, "to"), held[i]),
		       "scaling %s: step %d is not %g -> %g sources", api, found, held[i - 1], held[i]);
		/* The points' figures were printed to 5 decimals (medians) or 6,
		 * the steps to 4: the rounding grows by (a + b) / (b - a). */
		double slack = 1e-5 * (held[i] + held[i - 1]) / (held[i] - held[i - 1]);
		max_slack = fmax(max_slack, slack);
		for (int k = 0; k < N_SERIES; k++) {
			double want = (v[i][k] * held[i] - v[i - 1][k] * held[i - 1]) /
				      (held[i] - held[i - 1]);
			EXPECT(st && fabs(num(st, step_names[k]) - want) <= 1e-3 + 1e-3 * fabs(want) + slack,
			       "scaling %s: step %d's %s is not %g", api, found, step_names[k], want);
			lo[k] = fmin(lo[k], want);
			hi[k] = fmax(hi[k], want);
		}
		st = st ? st->next : NULL;
	}
	EXPECT(cJSON_GetArraySize(steps) == found, "scaling %s: %d steps, %d counts", api,
	       cJSON_GetArraySize(steps), n);
	for (int k = 0; k < N_SERIES && found; k++) {
		const cJSON *range = cJSON_GetObjectItem(added, step_names[k]);
		EXPECT(fabs(num(range, "min") - lo[k]) <= 1e-3 + 1e-3 * fabs(lo[k]) + max_slack &&
			       fabs(num(range, "max") - hi[k]) <= 1e-3 + 1e-3 * fabs(hi[k]) + max_slack,
		       "scaling %s: added %s %g .. %g, the steps %g .. %g", api, step_names[k],
		       num(range, "min"), num(range, "max"), lo[k], hi[k]);
		check_verdict(range, api, step_names[k]);
	}
}

/* The SVG against the JSON: a GPU chart per point with a bar per source
 * that draws (in frame; alone where measured), the costliest 40 at most;
 * an overhead chart per point; the two sweep charts when an API has two
 * source counts or more, each a line per series and API; every chart
 * something drawn; no text past the edges. */
static void check_svg(const char *svg, const cJSON *points)
{
	static svg_info info;
	char err[200];
	if (!svg_scan(svg, &info, err, sizeof err)) {
		EXPECT(0, "svg: %s", err);
		return;
	}
	EXPECT(!info.clipped, "svg: %d texts past the edges, first %s", info.clipped,
	       info.first_clipped);
	int gpu_charts = 0, strips = 0, lines = 0, line_series = 0;
	for (int i = 0; i < info.n_charts; i++) {
		const svg_chart_info *c = &info.charts[i];
		EXPECT(c->bars_frame + c->bars_alone + c->lines + c->pairs > 0,
		       "svg: chart %d (%s) draws nothing", i, c->kind);
		gpu_charts += !strcmp(c->kind, "bars");
		strips += !strcmp(c->kind, "strips");
		lines += !strcmp(c->kind, "lines");
		line_series += !strcmp(c->kind, "lines") ? c->lines : 0;
	}
	const cJSON *pt;
	int n_points = 0, with_pairs = 0, apis = 0, sweep_apis = 0;
	const char *seen[2] = {NULL, NULL};
	double first_count[2] = {-1, -1};
	bool several[2] = {false, false};
	cJSON_ArrayForEach(pt, points)
	{
		n_points++;
		with_pairs += num(pt, "pairs") > 0;
		const char *api = cJSON_GetStringValue(cJSON_GetObjectItem(pt, "api"));
		int sources = (int)num(pt, "sources");
		if (api && (!seen[0] || strcmp(seen[0], api)) && (!seen[1] || strcmp(seen[1], api)) &&
		    apis < 2)
			seen[apis++] = api;
		/* A sweep: two distinct counts (held) in one API. */
		for (int k = 0; api && k < apis; k++) {
			if (strcmp(seen[k], api))
				continue;
			double held = num(pt, "sources_held");
			if (first_count[k] < 0)
				first_count[k] = held;
			else if (held != first_count[k] && !several[k])
				several[k] = true, sweep_apis++;
		}
		/* The sources that draw: the costliest 40 are shown. */
		int drawn = 0, alone = 0;
		const cJSON *src;
		cJSON_ArrayForEach(src, cJSON_GetObjectItem(pt, "sources_detail"))
		{
			bool iso = cJSON_GetObjectItem(src, "isolated_us") != NULL;
			if (num(src, "gpu_avg_us") > 0 || iso) {
				drawn++;
				alone += iso;
			}
		}
		int shown = drawn < 40 ? drawn : 40;
		const svg_chart_info *c = NULL;
		for (int i = 0; i < info.n_charts && !c; i++)
			if (!strcmp(info.charts[i].kind, "bars") && api &&
			    !strcmp(info.charts[i].api, api) && info.charts[i].sources == sources)
				c = &info.charts[i];
		EXPECT(c, "svg: no GPU chart for %s, %d sources", api ? api : "?", sources);
		if (!c)
			continue;
		EXPECT(c->bars_frame == shown && c->bars_alone == (alone < shown ? alone : shown),
		       "svg: %s, %d sources: %d bars in frame and %d alone for %d drawing sources (%d "
		       "alone)",
		       api, sources, c->bars_frame, c->bars_alone, drawn, alone);
	}
	EXPECT(gpu_charts == n_points, "svg: %d GPU charts for %d points", gpu_charts, n_points);
	EXPECT(strips == with_pairs, "svg: %d overhead charts for %d points with pairs", strips,
	       with_pairs);
	EXPECT(lines == (sweep_apis ? 2 : 0), "svg: %d sweep charts, %d APIs with several counts",
	       lines, sweep_apis);
	/* Frame cost: 4 modes per API; per source: 3 series per API. */
	EXPECT(!sweep_apis || line_series == 7 * apis, "svg: %d sweep lines for %d APIs",
	       line_series, apis);
}

int main(int argc, char **argv)
{
	bool isolated = false, interrupted = false, counted_work = false, bad_args = argc < 4;
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--isolated"))
			isolated = true;
		else if (!strcmp(argv[i], "--interrupted"))
			interrupted = true;
		else if (!strcmp(argv[i], "--work"))
			counted_work = true;
		else
			bad_args = true;
	}
	if (bad_args) {
		fprintf(stderr, "usage: bench_check JSON CSV SVG [--isolated] [--interrupted] [--work]\n");
		return 2;
	}
	char *json = slurp(argv[1]), *csv = slurp(argv[2]), *svg = slurp(argv[3]);
	EXPECT(json && csv && svg, "an output is missing");
	cJSON *root = json && csv && svg ? cJSON_Parse(json) : NULL;
	EXPECT(!json || root, "JSON does not parse");
	if (!root) {
		free(json);
		free(csv);
		free(svg);
		return 1;
	}
	const char *top[] = {"generator", "machine", "git", "scene", "frames", "repeat", "points",
			     "scaling", "interrupted", "points_planned", "size", "isolate"};
	for (size_t i = 0; i < sizeof top / sizeof *top; i++)
		EXPECT(cJSON_GetObjectItem(root, top[i]), "missing key '%s'", top[i]);
	rounds_asked = (int)num(root, "isolate_rounds");
	const cJSON *work_on = cJSON_GetObjectItem(root, "work");
	EXPECT(cJSON_IsBool(work_on) && cJSON_IsTrue(work_on) == counted_work,
	       "\"work\" is not %s", counted_work ? "true" : "false");
	const cJSON *was_stopped = cJSON_GetObjectItem(root, "interrupted");
	EXPECT(cJSON_IsBool(was_stopped) && cJSON_IsTrue(was_stopped) == interrupted,
	       "\"interrupted\" is not %s", interrupted ? "true" : "false");
	if (interrupted) {
		const cJSON *by = cJSON_GetObjectItem(root, "interrupted_by");
		EXPECT(cJSON_IsString(by) && (!strcmp(by->valuestring, "SIGINT") ||
					      !strcmp(by->valuestring, "SIGTERM")),
		       "\"interrupted_by\" names no signal");
		EXPECT(cJSON_GetArraySize(cJSON_GetObjectItem(root, "points")) <
			       num(root, "points_planned"),
		       "interrupted, yet every planned point is there");
	} else {
		EXPECT(cJSON_GetArraySize(cJSON_GetObjectItem(root, "points")) ==
			       num(root, "points_planned"),
		       "%d points of %g planned", cJSON_GetArraySize(cJSON_GetObjectItem(root, "points")),
		       num(root, "points_planned"));
	}
	const cJSON *points = cJSON_GetObjectItem(root, "points"), *pt;
	int total_sources = 0, n_points = 0;
	const char *apis_seen[2] = {NULL, NULL};
	cJSON_ArrayForEach(pt, points)
	{
		const char *keys[] = {"api", "sources", "device", "driver", "gpu_timing", "frame_gpu_us",
				      "frames_timed", "frames_off", "frames_cpu", "frames_cpu_gpu",
				      "overhead_cpu", "overhead_cpu_gpu", "sources_detail",
				      "frames_empty", "source_cost_us", "sources_held", "pairs",
				      "source_cpu_time_us", "overhead_cpu_time", "cpu_time_ms_per_frame",
				      "profiler_own_ns_per_source"};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
			EXPECT(cJSON_GetObjectItem(pt, keys[i]), "point without '%s'", keys[i]);
		/* Other processes' share of the machine: a percent, or null
		 * where /proc/stat could not be read. */
		const cJSON *busy = cJSON_GetObjectItem(pt, "machine_busy_pct");
		EXPECT(cJSON_IsNull(busy) || (cJSON_IsNumber(busy) && busy->valuedouble >= 0 &&
					      busy->valuedouble <= 100),
		       "machine_busy_pct is neither null nor a percent");
		/* Every "off" frame's time, as many as counted, their mean the
		 * mean reported. */
		const cJSON *off = cJSON_GetObjectItem(pt, "frames_off"),
			    *off_ms = cJSON_GetObjectItem(off, "samples_ms"), *v;
		double off_sum = 0;
		cJSON_ArrayForEach(v, off_ms)
			off_sum += cJSON_IsNumber(v) ? v->valuedouble : NAN;
		int off_n = cJSON_GetArraySize(off_ms);
		EXPECT(cJSON_IsArray(off_ms) && off_n == (int)num(off, "frames") && off_n > 0 &&
			       fabs(off_sum / off_n - num(off, "mean_ms")) <= 1e-3,
		       "frames_off: %d samples (mean %g) for %g frames (mean %g)", off_n,
		       off_n ? off_sum / off_n : 0, num(off, "frames"), num(off, "mean_ms"));
		const char *frames[] = {"frames_timed", "frames_off", "frames_cpu", "frames_cpu_gpu",
					"frames_empty"};
		for (int i = 0; i < 5; i++) {
			const cJSON *f = cJSON_GetObjectItem(pt, frames[i]);
			double p50 = num(f, "p50_ms"), p95 = num(f, "p95_ms"), p99 = num(f, "p99_ms");
			EXPECT(p50 <= p95 && p95 <= p99, "%s: p50 %g, p95 %g, p99 %g out of order", frames[i],
			       p50, p95, p99);
			EXPECT(num(f, "mean_ms") > 0, "%s: no frames", frames[i]);
		}
		const cJSON *ov = cJSON_GetObjectItem(pt, "overhead_cpu_gpu");
		EXPECT(num(ov, "min") <= num(ov, "median") && num(ov, "median") <= num(ov, "max"),
		       "overhead spread out of order");
		/* --work: the mode that counts, against "off", and what counting
		 * adds to timing alone per pair (points: (work - gpu) / off x
		 * 100, so ratio_work - ratio_gpu pair for pair); null without. */
		const char *wkeys[] = {"frames_cpu_gpu_work", "overhead_cpu_gpu_work",
				       "work_overhead_points"};
		for (int i = 0; i < 3; i++) {
			const cJSON *w = cJSON_GetObjectItem(pt, wkeys[i]);
			EXPECT(counted_work ? cJSON_IsObject(w) : cJSON_IsNull(w), "%s is not %s",
			       wkeys[i], counted_work ? "an object" : "null");
		}
		if (counted_work) {
			const cJSON *rw = cJSON_GetObjectItem(
					    cJSON_GetObjectItem(pt, "overhead_cpu_gpu_work"), "pairs"),
				    *rg = cJSON_GetObjectItem(ov, "pairs"),
				    *pts = cJSON_GetObjectItem(
					    cJSON_GetObjectItem(pt, "work_overhead_points"), "pairs");
			int np = cJSON_GetArraySize(pts);
			EXPECT(np == (int)num(pt, "pairs") && cJSON_GetArraySize(rw) == np &&
				       cJSON_GetArraySize(rg) == np,
			       "work_overhead_points: %d pairs of %g", np, num(pt, "pairs"));
			/* Direct: the two modes' ratios' difference; composed: the
			 * timed blocks' alone (not in the file), a finite number. */
			const cJSON *how = cJSON_GetObjectItem(pt, "overhead_method");
			bool direct = cJSON_IsString(how) && !strcmp(how->valuestring, "direct");
			for (int i = 0; i < np; i++) {
				double got = cJSON_GetArrayItem(pts, i)->valuedouble;
				double want = (cJSON_GetArrayItem(rw, i)->valuedouble -
					       cJSON_GetArrayItem(rg, i)->valuedouble) *
					      100;
				EXPECT(isfinite(got) && (!direct || fabs(got - want) < 2.5e-3),
				       "work_overhead_points pair %d: %g, its ratios say %g", i, got, want);
			}
			const cJSON *wf = cJSON_GetObjectItem(pt, "frames_cpu_gpu_work");
			EXPECT(num(wf, "mean_ms") > 0, "frames_cpu_gpu_work: no frames");
		}
		const cJSON *method = cJSON_GetObjectItem(pt, "overhead_method");
		EXPECT(cJSON_IsString(method) && (!strcmp(method->valuestring, "direct") ||
						  !strcmp(method->valuestring, "composed")),
		       "overhead_method is neither direct nor composed");
		double share = 0, gpu_sum = 0;
		const cJSON *src, *detail = cJSON_GetObjectItem(pt, "sources_detail");
		int n = 0;
		cJSON_ArrayForEach(src, detail)
		{
			double p50 = num(src, "gpu_p50_us"), p95 = num(src, "gpu_p95_us"),
			       max = num(src, "gpu_max_us");
			EXPECT(p50 <= p95 && p95 <= max, "source %d: p50 %g p95 %g max %g out of order", n,
			       p50, p95, max);
			share += num(src, "share");
			gpu_sum += num(src, "gpu_avg_us");
			num(src, "tick_avg_us");
			num(src, "render_avg_us");
			check_samples(src, n);
			check_work(src, cJSON_GetStringValue(cJSON_GetObjectItem(pt, "api")), counted_work,
				   num(root, "frames"), n);
			n++;
		}
		EXPECT(n > 0 && n == (int)num(pt, "sources_held"), "%d sources listed, %g held", n,
		       num(pt, "sources_held"));
		EXPECT(n >= (int)num(pt, "sources"), "%d sources listed for --sources %g", n,
		       num(pt, "sources"));
		const cJSON *pairs =
			cJSON_GetObjectItem(cJSON_GetObjectItem(pt, "source_cost_us"), "pairs");
		EXPECT(cJSON_GetArraySize(pairs) == (int)num(pt, "pairs"),
		       "source_cost_us holds %d pairs, the point says %g", cJSON_GetArraySize(pairs),
		       num(pt, "pairs"));
		/* With --isolate, the costliest sources (up to 20) were measured
		 * alone: the costliest has figures alone, at most 20 have, all
		 * positive (a source that draws nothing alone, like a logic
		 * source, has none). Without, none has. In plain timing
		 * (no "+flush" in gpu_timing) a software device's bare stamps
		 * can read 0 in the frame, so in/alone may be 0 there. */
		const cJSON *mode = cJSON_GetObjectItem(pt, "gpu_timing");
		bool plain = cJSON_IsString(mode) && !strstr(mode->valuestring, "flush");
		int alone = 0, bad_alone = 0;
		double top_gpu = -1;
		bool top_alone = false;
		cJSON_ArrayForEach(src, detail)
		{
			const cJSON *iso = cJSON_GetObjectItem(src, "isolated_us"),
				    *ratio = cJSON_GetObjectItem(src, "in_frame_over_alone");
			bool has = iso || ratio;
			alone += has;
			bad_alone += has && !(cJSON_IsNumber(iso) && cJSON_IsNumber(ratio) &&
					      iso->valuedouble > 0 &&
					      (ratio->valuedouble > 0 || (plain && ratio->valuedouble == 0)));
			double g = num(src, "gpu_avg_us");
			if (g > top_gpu) {
				top_gpu = g;
				top_alone = has;
			}
		}
		if (isolated)
			EXPECT(top_alone && alone <= 20 && !bad_alone,
			       "--isolate: the costliest source %s figures alone; %d sources have, %d "
			       "not positive",
			       top_alone ? "has" : "has no", alone, bad_alone);
		else
			EXPECT(alone == 0, "%d sources have figures alone without --isolate", alone);
		/* The work each source adds (CPU time, all threads): a median
		 * inside its spread, and a frame with no sources does less work. */
		const cJSON *work = cJSON_GetObjectItem(pt, "source_cpu_time_us");
		EXPECT(num(work, "min") <= num(work, "median") && num(work, "median") <= num(work, "max"),
		       "source_cpu_time_us spread out of order");
		/* The profiler's own cost, replayed: measured (above 0) in both
		 * modes, for the scene's views. */
		const cJSON *own = cJSON_GetObjectItem(pt, "profiler_own_ns_per_source");
		/* An interrupted run may have stopped before the replay: null. */
		if (interrupted && cJSON_IsNull(cJSON_GetObjectItem(own, "cpu")))
			EXPECT(cJSON_IsNull(cJSON_GetObjectItem(own, "cpu_gpu")) && num(own, "views") >= 1,
			       "profiler_own_ns_per_source: cpu null, cpu_gpu not");
		else
			EXPECT(num(own, "cpu") > 0 && num(own, "cpu_gpu") > 0 && num(own, "views") >= 1,
			       "profiler_own_ns_per_source: cpu %g, cpu_gpu %g, views %g",
			       num(own, "cpu"), num(own, "cpu_gpu"), num(own, "views"));
		const cJSON *cpu_ms = cJSON_GetObjectItem(pt, "cpu_time_ms_per_frame");
		EXPECT(num(cpu_ms, "none") > 0 && num(cpu_ms, "none") < num(cpu_ms, "off"),
		       "CPU time a frame: none %g ms, off %g", num(cpu_ms, "none"), num(cpu_ms, "off"));
		const cJSON *api = cJSON_GetObjectItem(pt, "api");
		if (cJSON_IsString(api)) {
			if (!apis_seen[0] || !strcmp(apis_seen[0], api->valuestring))
				apis_seen[0] = api->valuestring;
			else
				apis_seen[1] = api->valuestring;
		}
		n_points++;
		/* Each source's cost, (off - empty) / sources per pair: the
		 * median within the pairs' range, and above 0 (the bench's scenes
		 * draw something for every source; the empty frame is several
		 * times cheaper than any point's frame, far beyond noise). */
		const cJSON *cost = cJSON_GetObjectItem(pt, "source_cost_us");
		double c_min = num(cost, "min"), c_med = num(cost, "median"), c_max = num(cost, "max");
		EXPECT(c_min <= c_med && c_med <= c_max, "source_cost_us spread out of order");
		EXPECT(c_med > 0, "source_cost_us median %g: the sources cost nothing", c_med);
		/* The pooled frame means weigh the same pairs' frames: their
		 * (off - empty) / sources lies within the pairs' range. */
		double pooled = (num(cJSON_GetObjectItem(pt, "frames_off"), "mean_ms") -
				 num(cJSON_GetObjectItem(pt, "frames_empty"), "mean_ms")) *
				1000.0 / (n ? n : 1);
		double tol = 0.01 + 0.01 * fabs(c_med);
		EXPECT(pooled >= c_min - tol && pooled <= c_max + tol,
		       "pooled (off - empty) / sources %g is outside source_cost_us %g .. %g", pooled,
		       c_min, c_max);
		EXPECT(num(cJSON_GetObjectItem(pt, "frames_empty"), "mean_ms") <
			       num(cJSON_GetObjectItem(pt, "frames_off"), "mean_ms"),
		       "a frame with no sources is not cheaper than one with them");
		EXPECT(share <= 1.0 + 1e-9, "shares add up to %.1f%%", share * 100);
		double mean = n ? gpu_sum / n : 0;
		EXPECT(fabs(num(pt, "source_gpu_mean_us") - mean) <= 0.01 + 1e-3 * mean,
		       "source_gpu_mean_us %g is not the sources' mean %g",
		       num(pt, "source_gpu_mean_us"), mean);total_sources += n;
	}
	/* The scaling verdicts: one per API and record thread count with
	 * several points, their ranges those of the points' medians. */
	const cJSON *scaling = cJSON_GetObjectItem(root, "scaling"), *sc;
	int sweeps = 0;
	cJSON_ArrayForEach(sc, scaling)
	{
		const cJSON *api = cJSON_GetObjectItem(sc, "api");
		int threads = threads_of(sc);
		/* The per-point series share the steps' names. */
		for (int k = 0; k < N_SERIES && cJSON_IsString(api); k++) {
			double lo = 1e300, hi = -1e300;
			int in_api = 0;
			cJSON_ArrayForEach(pt, points)
			{
				const cJSON *a = cJSON_GetObjectItem(pt, "api");
				if (!cJSON_IsString(a) || strcmp(a->valuestring, api->valuestring) ||
				    threads_of(pt) != threads)
					continue;
				double m = num(cJSON_GetObjectItem(pt, point_figures[k][0]),
					       point_figures[k][1]);
				lo = fmin(lo, m);
				hi = fmax(hi, m);
				in_api++;
			}
			const cJSON *range = cJSON_GetObjectItem(sc, step_names[k]);
			double rlo = num(range, "min"), rhi = num(range, "max");
			EXPECT(in_api > 1 && fabs(rlo - lo) <= 1e-3 + 1e-4 * fabs(lo) &&
				       fabs(rhi - hi) <= 1e-3 + 1e-4 * fabs(hi),
			       "scaling %s %s: %g .. %g, the points' medians %g .. %g", api->valuestring,
			       step_names[k], rlo, rhi, lo, hi);
			check_verdict(range, api->valuestring, step_names[k]);
		}
		if (cJSON_IsString(api))
			check_steps(points, api->valuestring, threads, cJSON_GetObjectItem(sc, "added"));
		sweeps++;
	}
	/* One per (API, record threads) holding several points. */
	int want_sweeps = 0;
	for (int k = 0; k < 2; k++) {
		int seen_threads[64], in_key[64], keys = 0;
		cJSON_ArrayForEach(pt, points)
		{
			const cJSON *a = cJSON_GetObjectItem(pt, "api");
			if (!apis_seen[k] || !cJSON_IsString(a) || strcmp(a->valuestring, apis_seen[k]))
				continue;
			int t = threads_of(pt), j = 0;
			while (j < keys && seen_threads[j] != t)
				j++;
			if (j == keys && keys < 64) {
				seen_threads[keys] = t;
				in_key[keys++] = 0;
			}
			if (j < keys)
				in_key[j]++;
		}
		for (int j = 0; j < keys; j++)
			want_sweeps += in_key[j] > 1;
	}
	EXPECT(sweeps == want_sweeps,
	       "%d scaling entries for %d (API, record threads) with several points", sweeps,
	       want_sweeps);
	/* CSV: its record ("# key: value" lines: the scene, one line per
	 * point, when), then a header and a row of 18 fields per source of
	 * every point. */
	int rows = 0, record_points = 0;
	char *header = csv;
	EXPECT(strstr(csv, "# scene: ") != NULL, "CSV record has no scene line");
	EXPECT(strstr(csv, "# run started: ") != NULL, "CSV record has no start time");
	while (*header == '#') {
		record_points += !strncmp(header, "# point: ", 9);
		char *eol = strchr(header, '\n');
		header = eol ? eol + 1 : header + strlen(header);
	}
	EXPECT(record_points == cJSON_GetArraySize(points), "CSV record names %d points for %d",
	       record_points, cJSON_GetArraySize(points));
	EXPECT(!strncmp(header, "api,sources,source,type,gpu_avg_us,", 35), "CSV header");
	EXPECT(strstr(header, ",work_frames,vertices_per_frame,") != NULL, "CSV header: no work");
	/* The rows, in the JSON's order: points, then their sources. */
	const cJSON *row_pt = points ? points->child : NULL;
	const cJSON *row_src = row_pt ? cJSON_GetObjectItem(row_pt, "sources_detail")->child : NULL;
	for (const char *line = header, *next; *line; line = next) {
		int fields = csv_fields(line, &next);
		EXPECT(fields == 26, "CSV line %d has %d fields", rows + 1, fields);
		if (line != header) {
			while (!row_src && row_pt && (row_pt = row_pt->next))
				row_src = cJSON_GetObjectItem(row_pt, "sources_detail")->child;
			EXPECT(row_src != NULL, "CSV row %d has no source in the JSON", rows + 1);
			if (row_src) {
				check_csv_work(line, row_src, rows + 1);
				row_src = row_src->next;
			}
		}
		rows += line != header;
	}
	EXPECT(rows == total_sources, "CSV has %d rows for %d sources", rows, total_sources);
	check_svg(svg, points);
	printf("bench_check: %d points, %d source rows: %s\n", cJSON_GetArraySize(points), rows,
	       failures ? "FAILED" : "ok");
	cJSON_Delete(root);
	free(json);
	free(csv);
	free(svg);
	return failures ? 1 : 0;
}
