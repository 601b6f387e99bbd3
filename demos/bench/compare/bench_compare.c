#include "bench_compare.h"
#include "bench_stats.h"
#include "srcprof_base/stats.h"
#include "srcprof/machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROG CMP_PROG

/* The values tested for a series: its medians over `blocks` blocks of
 * consecutive samples (sizes differing by one at most), or the samples
 * themselves (blocks 0, or no more samples than blocks); sorted. Returns
 * how many, into out (room for max(n, blocks)). */
static uint32_t tested(const brun_series *s, uint32_t blocks, double *out, double *scratch)
{
	if (!blocks || s->n <= blocks) {
		memcpy(out, s->v, s->n * sizeof *out);
		stats_sort(out, s->n);
		return s->n;
	}
	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t from = (uint32_t)((uint64_t)s->n * b / blocks);
		uint32_t to = (uint32_t)((uint64_t)s->n * (b + 1) / blocks);
		memcpy(scratch, s->v + from, (to - from) * sizeof *scratch);
		out[b] = stats_median_of(scratch, to - from);
	}
	stats_sort(out, blocks);
	return blocks;
}

static bool all_zero(const brun_series *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->v[i] != 0)
			return false;
	return true;
}

/* Room for what `tested` needs. */
typedef struct work {
	double *a, *b, *scratch;
	uint32_t cap;
} work;

static bool work_fit(work *w, uint32_t n)
{
	if (n <= w->cap)
		return true;
	double *a = realloc(w->a, n * sizeof *a), *b = a ? realloc(w->b, n * sizeof *b) : NULL,
	       *s = b ? realloc(w->scratch, n * sizeof *s) : NULL;
	if (a)
		w->a = a;
	if (b)
		w->b = b;
	if (s)
		w->scratch = s;
	if (!s)
		return false;
	w->cap = n;
	return true;
}

/* The samples a row tests, into w (grown to fit); false when out of
 * memory. */
static bool row_samples(const cmp_opts *o, const cmp_row *row, work *w, uint32_t *n, uint32_t *m)
{
	uint32_t most = row->sa->n > row->sb->n ? row->sa->n : row->sb->n;
	if (!work_fit(w, (most > o->blocks ? most : o->blocks) + 1))
		return false;
	uint32_t blocks = row->in_blocks ? o->blocks : 0;
	*n = tested(row->sa, blocks, w->a, w->scratch);
	*m = tested(row->sb, blocks, w->b, w->scratch);
	return true;
}

/* A shift's interval relative to the base median (from -100%: every
 * sample is a cost, 0 or more); from a base of 0, only a direction. */
static void relative(double base_med, double lo, double hi, double change, double *rlo,
		     double *rhi)
{
	if (base_med > 0) {
		/* A cost cannot fall by more than all of it: an interval that
		 * reaches past -100% (a wide one) ends there, or at the change;
		 * an unbounded one (too few samples) stays unbounded. */
		*rlo = isfinite(lo) ? fmax(lo / base_med, fmin(-1.0, change)) : lo / base_med;
		*rhi = hi / base_med;
	} else {
		*rlo = lo > 0 ? INFINITY : -INFINITY;
		*rhi = hi < 0 ? -INFINITY : INFINITY;
	}
}

/* The first pass over a row: the figure's two series tested, its change
 * and 1 - alpha interval. 0 (nothing added) when there is nothing to
 * compare: no samples on a side, or nothing but zeros on both (a logic
 * source's GPU time); -1 out of memory; 1 a row. The verdict waits for
 * the number of figures. */
static int measure_runs(const cmp_opts *o, const cmp_result *r, cmp_row *row)
{
	bstat_welch_t t;
	bstat_welch(row->ra, r->n_base, row->rb, r->n_new, 1 - o->alpha, &t);
	double mean = 0, mean_new = 0;
	for (uint32_t i = 0; i < r->n_base; i++)
		mean += row->ra[i] / r->n_base;
	for (uint32_t i = 0; i < r->n_new; i++)
		mean_new += row->rb[i] / r->n_new;
	row->base_med = mean; /* the runs' mean of medians, which the test compares */
	row->new_med = mean_new;
	row->n_base = r->n_base;
	row->n_new = r->n_new;
	row->p = t.p;
	row->shift = t.diff;
	row->change = mean > 0 ? t.diff / mean : t.diff > 0 ? INFINITY : t.diff < 0 ? -INFINITY : 0;
	relative(mean, t.lo, t.hi, row->change, &row->lo, &row->hi);
	row->bounded = true;
	if (r->n_base < 3 || r->n_new < 3)
		row->noisy |= CMP_NOISY_FEW;
	/* Runs that agree to the digit (a figure the build fixes, or copies
	 * of one file): Welch's t has no spread to weigh the change with, and
	 * its interval has no width. */
	if (t.se == 0 && t.diff != 0)
		row->noisy |= CMP_NOISY_NO_SPREAD;
	return 1;
}

static int measure(const cmp_opts *o, const cmp_result *r, work *w, cmp_row *row)
{
	if (row->by_runs)
		return measure_runs(o, r, row);
	const brun_series *base = row->sa, *nw = row->sb;
	if (!base->n || !nw->n || (all_zero(base) && all_zero(nw)))
		return 0;
	uint32_t n, m;
	if (!row_samples(o, row, w, &n, &m))
		return -1;
	uint32_t blocks = row->in_blocks ? o->blocks : 0;
	bstat_test t;
	bstat_shift s;
	bstat_mann_whitney(w->a, n, w->b, m, &t);
	bstat_shift_of(w->a, n, w->b, m, 1 - o->alpha, &s);
	row->base_med = stats_median(w->a, n);
	row->new_med = stats_median(w->b, m);
	row->n_base = n;
	row->n_new = m;
	row->blocked = blocks && (base->n > blocks || nw->n > blocks);
	row->p = t.p;
	row->shift = s.est;
	row->change = row->base_med > 0 ? s.est / row->base_med
		      : s.est > 0	 ? INFINITY
		      : s.est < 0	 ? -INFINITY
					 : 0;
	relative(row->base_med, s.lo, s.hi, row->change, &row->lo, &row->hi);
	row->bounded = s.bounded;
	if (n < 3 || m < 3)
		row->noisy |= CMP_NOISY_FEW;
	if (!s.bounded)
		row->noisy |= CMP_NOISY_NO_CI;
	return 1;
}

/* Whether [lo, hi] (relative; its ends in us too) lies beyond the
 * threshold and the floor: +1 above, -1 below, 0 neither. */
static int beyond(const cmp_opts *o, double lo, double hi, double lo_us, double hi_us)
{
	if (lo > o->threshold && lo_us >= o->floor_us)
		return 1;
	if (hi < -o->threshold && -hi_us >= o->floor_us)
		return -1;
	return 0;
}

/* The second pass: how surely the figure moved beyond the threshold and
 * the floor. The margin, the larger of threshold x BASE's median and the
 * floor, is added to (taken from) BASE's samples and the test asks whether
 * NEW still tends to be larger (smaller): p_beyond, two-sided as p is. */
static bool test_beyond(const cmp_opts *o, const cmp_result *r, work *w, cmp_row *row)
{
	double unit_us = row->figure == CMP_FRAME ? 1000 : 1;
	double margin = fmax(o->threshold * row->base_med, o->floor_us / unit_us);
	if (row->by_runs) {
		double moved[CMP_MAX_RUNS];
		bstat_welch_t up, down;
		for (uint32_t i = 0; i < r->n_base; i++)
			moved[i] = row->ra[i] + margin;
		bstat_welch(moved, r->n_base, row->rb, r->n_new, 1 - o->alpha, &up);
		for (uint32_t i = 0; i < r->n_base; i++)
			moved[i] = row->ra[i] - margin;
		bstat_welch(moved, r->n_base, row->rb, r->n_new, 1 - o->alpha, &down);
		row->p_beyond = fmin(1, 2 * fmin(up.p_greater, down.p_less));
		row->side = up.p_greater <= down.p_less ? 1 : -1;
		return true;
	}
	uint32_t n, m;
	if (!row_samples(o, row, w, &n, &m))
		return false;
	bstat_test up, down;
	for (uint32_t i = 0; i < n; i++)
		w->scratch[i] = w->a[i] + margin;
	bstat_mann_whitney(w->scratch, n, w->b, m, &up);
	for (uint32_t i = 0; i < n; i++)
		w->scratch[i] = w->a[i] - margin;
	bstat_mann_whitney(w->scratch, n, w->b, m, &down);
	double tail = fmin(up.p_greater, down.p_less);
	row->p_beyond = fmin(1, 2 * tail);
	row->side = up.p_greater <= down.p_less ? 1 : -1;
	return true;
}

/* The verdict, once the false-discovery cut is known, and why a row is
 * held back or not reliable. */
static void finish(const cmp_opts *o, double cut, cmp_row *row)
{
	bool kept = row->p_beyond <= cut;
	row->verdict = !kept ? CMP_SAME : row->side > 0 ? CMP_COSTLIER : CMP_CHEAPER;
	double unit_us = row->figure == CMP_FRAME ? 1000 : 1;
	if (row->p < o->alpha && row->verdict == CMP_SAME) {
		bool past = row->lo > o->threshold || row->hi < -o->threshold;
		int shown = row->bounded ? beyond(o, row->lo, row->hi, row->lo * row->base_med * unit_us,
						 row->hi * row->base_med * unit_us)
					 : 0;
		row->held_back = !past ? 1 : !shown ? 2 : 3;
	}
	if (row->verdict != CMP_SAME && row->hi - row->lo > fabs(row->change))
		row->noisy |= CMP_NOISY_WIDE;
	/* No change found, yet one beyond the threshold (and the floor) not
	 * ruled out. */
	double reach = fmax(fabs(row->lo), fabs(row->hi));
	if (row->verdict == CMP_SAME && row->bounded && reach > o->threshold &&
	    reach * row->base_med * unit_us >= o->floor_us)
		row->noisy |= CMP_NOISY_REACHES;
}

/* Benjamini-Hochberg over the k figures' p_beyond: the largest p(i) with
 * p(i) <= i / k x alpha (p sorted ascending), or -1 when none is; every
 * figure at or under it is kept. With nothing changed anywhere it keeps
 * none with probability 1 - alpha, as Bonferroni would; with real changes
 * among them it keeps them at a false-discovery rate of alpha. */
static double fdr_cut(double *p, uint32_t k, double alpha)
{
	stats_sort(p, k);
	double cut = -1;
	for (uint32_t i = 0; i < k; i++)
		if (p[i] <= (double)(i + 1) / k * alpha)
			cut = p[i];
	return cut;
}

static int by_change(const void *a, const void *b)
{
	const cmp_row *x = a, *y = b;
	if (x->change != y->change)
		return (x->change < y->change) - (x->change > y->change);
	return x->figure - y->figure;
}

static bool busy(const brun_point *p)
{
	return p->busy_pct > SRCPROF_BUSY_PCT;
}

static void note_only(cmp_point *cp, const char *side, const char *name)
{
	size_t at = strlen(cp->only_names);
	if (at + strlen(name) + 16 < sizeof cp->only_names)
		snprintf(cp->only_names + at, sizeof cp->only_names - at, "%s%s '%s'", at ? ", " : "",
			 side, name);
}

/* The point of `run` matching `like` (API, source count, record threads),
 * or NULL. */
static const brun_point *find_point(const brun *run, const brun_point *like)
{
	for (uint32_t k = 0; k < run->n_points; k++)
		if (brun_same_point(&run->points[k], like))
			return &run->points[k];
	return NULL;
}

/* The `nth` (0-based) source named `name` in p, or NULL. */
static const brun_source *find_source(const brun_point *p, const char *name, uint32_t nth)
{
	for (uint32_t k = 0; k < p->n_src; k++)
		if (!strcmp(p->src[k].name, name) && nth-- == 0)
			return &p->src[k];
	return NULL;
}

/* A source's GPU series of figure `gpu` (marginal, alone or in frame). */
static const brun_series *gpu_series(const brun_source *s, cmp_figure gpu)
{
	return gpu == CMP_GPU_MARGINAL ? &s->marginal : gpu == CMP_GPU_ALONE ? &s->alone : &s->gpu;
}

/* One figure's series in a run's point: the frame time (name NULL) or a
 * source's figure (k: 0 GPU as `gpu` says, 1 render, 2 tick). */
static const brun_series *series_of(const brun_point *p, const char *name, uint32_t nth, int k,
				    cmp_figure gpu)
{
	if (!name)
		return &p->frames;
	const brun_source *s = find_source(p, name, nth);
	if (!s)
		return NULL;
	return k == 0 ? gpu_series(s, gpu) : k == 1 ? &s->render : &s->tick;
}

/* With runs as samples: each run's median of the row's figure into
 * ra / rb. 0: a run has no samples of it (no row); 1: filled; -1 out of
 * memory. The runs were checked to hold the point and the source. */
static int run_medians(const cmp_result *r, const brun_point *a, cmp_row *row, uint32_t nth,
		       int k, cmp_figure gpu, work *w)
{
	bool zeros = true;
	for (uint32_t side = 0; side < 2; side++) {
		const brun *runs = side ? r->news : r->bases;
		uint32_t n = side ? r->n_new : r->n_base;
		double *out = side ? row->rb : row->ra;
		for (uint32_t i = 0; i < n; i++) {
			const brun_series *s =
				series_of(find_point(&runs[i], a), row->source, nth, k, gpu);
			if (!s->n)
				return 0;
			if (!work_fit(w, s->n + 1))
				return -1;
			memcpy(w->scratch, s->v, s->n * sizeof *w->scratch);
			out[i] = stats_median_of(w->scratch, s->n);
			zeros &= all_zero(s);
		}
	}
	if (zeros)
		return 0;
	row->by_runs = true;
	return 1;
}

/* Whether every run holds the point, and each source of BASE's first run
 * that NEW's first run has too (said when not). */
static bool runs_hold(const cmp_result *r, const brun_point *a, const brun_point *b)
{
	for (uint32_t side = 0; side < 2; side++) {
		const brun *runs = side ? r->news : r->bases;
		uint32_t n = side ? r->n_new : r->n_base;
		for (uint32_t i = 1; i < n; i++) {
			const brun_point *p = find_point(&runs[i], a);
			if (!p) {
				fprintf(stderr, PROG ": %s '%s' has no point %s, %u sources, which '%s' "
						  "has\n",
					side ? "NEW" : "BASE", runs[i].path, a->api, a->sources,
					runs[0].path);
				return false;
			}
			for (uint32_t s = 0; s < a->n_src; s++) {
				uint32_t nth = 0;
				for (uint32_t q = 0; q < s; q++)
					nth += !strcmp(a->src[q].name, a->src[s].name);
				if (!find_source(b, a->src[s].name, nth))
					continue; /* in BASE only: not compared */
				if (!find_source(p, a->src[s].name, nth)) {
					fprintf(stderr, PROG ": %s '%s' (%s, %u sources) has no source "
							  "'%s', which the first runs have\n",
						side ? "NEW" : "BASE", runs[i].path, a->api, a->sources,
						a->src[s].name);
					return false;
				}
			}
		}
	}
	return true;
}

/* Whether every run of both sides has rounds of figure `gpu` for the
 * source. */
static bool all_have(const cmp_result *r, const brun_point *a, const char *name, uint32_t nth,
		     cmp_figure gpu)
{
	for (uint32_t side = 0; side < 2; side++) {
		const brun *runs = side ? r->news : r->bases;
		uint32_t n = side ? r->n_new : r->n_base;
		for (uint32_t i = 0; i < n; i++)
			if (!series_of(find_point(&runs[i], a), name, nth, 0, gpu)->n)
				return false;
	}
	return true;
}

/* The GPU figure a source is compared by: the marginal reference where
 * every run has its rounds (it leaves out a submission's fixed cost,
 * which moves between runs: docs/bench.md), else alone, else in frame. */
static cmp_figure gpu_figure(const cmp_result *r, const brun_point *a, const brun_source *s,
			     const brun_source *t, uint32_t nth)
{
	static const cmp_figure order[2] = {CMP_GPU_MARGINAL, CMP_GPU_ALONE};
	for (int i = 0; i < 2; i++) {
		bool have = r->by_runs ? all_have(r, a, s->name, nth, order[i])
				       : gpu_series(s, order[i])->n && gpu_series(t, order[i])->n;
		if (have)
			return order[i];
	}
	return CMP_GPU_FRAME;
}

/* The rows of one matched point. */
static bool compare_point(const cmp_opts *o, const cmp_result *r, cmp_point *cp, work *w)
{
	const brun_point *a = cp->base, *b = cp->nw;
	if (r->by_runs && !runs_hold(r, a, b))
		return false;
	cp->rows = calloc(3 * (size_t)a->n_src + 1, sizeof *cp->rows);
	bool *used = calloc(b->n_src ? b->n_src : 1, sizeof *used);
	if (!cp->rows || !used) {
		free(used);
		fprintf(stderr, PROG ": out of memory comparing\n");
		return false;
	}
	cmp_row *row = &cp->rows[cp->n_rows];
	*row = (cmp_row){.figure = CMP_FRAME, .sa = &a->frames, .sb = &b->frames, .in_blocks = true};
	int got = r->by_runs ? run_medians(r, a, row, 0, 0, false, w) : 1;
	if (got > 0)
		got = measure(o, r, w, row);
	cp->n_rows += got > 0;
	for (uint32_t i = 0; got >= 0 && i < a->n_src; i++) {
		const brun_source *s = &a->src[i], *t = NULL;
		/* By name; a name given twice pairs in order. */
		for (uint32_t k = 0; k < b->n_src && !t; k++) {
			if (!used[k] && !strcmp(b->src[k].name, s->name)) {
				used[k] = true;
				t = &b->src[k];
			}
		}
		if (!t) {
			cp->only_base++;
			note_only(cp, "BASE", s->name);
			continue;
		}
		uint32_t nth = 0;
		for (uint32_t q = 0; q < i; q++)
			nth += !strcmp(a->src[q].name, s->name);
		cmp_figure gpu = gpu_figure(r, a, s, t, nth);
		const brun_series *sa[3] = {gpu_series(s, gpu), &s->render, &s->tick};
		const brun_series *sb[3] = {gpu_series(t, gpu), &t->render, &t->tick};
		const cmp_figure fig[3] = {gpu, CMP_RENDER, CMP_TICK};
		for (int k = 0; got >= 0 && k < 3; k++) {
			row = &cp->rows[cp->n_rows];
			/* --isolate rounds are independent measurements, each
			 * paired in time with its own in-frame window. */
			*row = (cmp_row){.source = s->name,
					 .figure = fig[k],
					 .sa = sa[k],
					 .sb = sb[k],
					 .in_blocks = fig[k] != CMP_GPU_ALONE &&
						      fig[k] != CMP_GPU_MARGINAL};
			got = r->by_runs ? run_medians(r, a, row, nth, k, gpu, w) : 1;
			if (got > 0)
				got = measure(o, r, w, row);
			cp->n_rows += got > 0;
		}
	}
	for (uint32_t k = 0; k < b->n_src; k++) {
		if (!used[k]) {
			cp->only_new++;
			note_only(cp, "NEW", b->src[k].name);
		}
	}
	free(used);
	bool any_busy = busy(a) || busy(b);
	for (uint32_t side = 0; r->by_runs && side < 2; side++)
		for (uint32_t i = 0; i < (side ? r->n_new : r->n_base); i++)
			any_busy |= busy(find_point(side ? &r->news[i] : &r->bases[i], a));
	for (uint32_t i = 0; i < cp->n_rows; i++)
		if (any_busy)
			cp->rows[i].noisy |= CMP_NOISY_BUSY;
	if (got < 0)
		fprintf(stderr, PROG ": out of memory comparing\n");
	return got >= 0;
}

/* What differs between the runs' settings, as "size 640x360 -> 1920x1080,
 * frames 60 -> 120". */
static void settings(const brun *a, const brun *b, char *out, size_t size)
{
	size_t at = 0;
	out[0] = '\0';
#define DIFF(cond, ...)                                                                          \
	do {                                                                                     \
		if ((cond) && at < size)                                                         \
			at += (size_t)snprintf(out + at, size - at, "%s", at ? ", " : "");       \
		if ((cond) && at < size)                                                         \
			at += (size_t)snprintf(out + at, size - at, __VA_ARGS__);                \
	} while (0)
	DIFF(a->width != b->width || a->height != b->height, "size %ux%u -> %ux%u", a->width,
	     a->height, b->width, b->height);
	DIFF(a->frames != b->frames, "frames %u -> %u", a->frames, b->frames);
	DIFF(a->warmup != b->warmup, "warm-up %u -> %u", a->warmup, b->warmup);
	DIFF(a->repeat != b->repeat, "repeat %u -> %u", a->repeat, b->repeat);
	DIFF(a->isolate != b->isolate, "--isolate %s -> %s", a->isolate ? "on" : "off",
	     b->isolate ? "on" : "off");
	DIFF(strcmp(a->machine, b->machine) != 0, "machine '%s' -> '%s'", a->machine, b->machine);
#undef DIFF
}

bool cmp_run(const cmp_opts *o, const brun *base, uint32_t n_base, const brun *nw,
	     uint32_t n_new, cmp_result *r)
{
	*r = (cmp_result){.o = o,
			  .base = base,
			  .nw = nw,
			  .bases = base,
			  .news = nw,
			  .n_base = n_base,
			  .n_new = n_new,
			  .by_runs = n_base >= 2 && n_new >= 2};
	settings(base, nw, r->settings, sizeof r->settings);
	r->points = calloc(base->n_points, sizeof *r->points);
	bool *used = calloc(nw->n_points, sizeof *used);
	work w = {0};
	bool said = false;
	bool ok = r->points && used;
	for (uint32_t i = 0; ok && i < base->n_points; i++) {
		const brun_point *a = &base->points[i], *b = NULL;
		for (uint32_t k = 0; k < nw->n_points && !b; k++) {
			if (!used[k] && brun_same_point(&nw->points[k], a)) {
				used[k] = true;
				b = &nw->points[k];
			}
		}
		if (!b) {
			r->unmatched_base++;
			continue;
		}
		cmp_point *cp = &r->points[r->n_points++];
		cp->base = a;
		cp->nw = b;
		ok = compare_point(o, r, cp, &w);
		said = !ok; /* compare_point says why */
	}
	for (uint32_t k = 0; ok && k < nw->n_points; k++)
		r->unmatched_new += !used[k];
	free(used);
	/* Every figure known: each tested beyond the threshold, the cut
	 * over all of them, the verdicts, the order. */
	uint32_t figures = 0;
	for (uint32_t i = 0; ok && i < r->n_points; i++)
		figures += r->points[i].n_rows;
	double *ps = ok ? malloc((figures ? figures : 1) * sizeof *ps) : NULL;
	ok = ok && ps;
	uint32_t at = 0;
	for (uint32_t i = 0; ok && i < r->n_points; i++) {
		cmp_point *cp = &r->points[i];
		for (uint32_t k = 0; ok && k < cp->n_rows; k++) {
			ok = test_beyond(o, r, &w, &cp->rows[k]);
			ps[at++] = cp->rows[k].p_beyond;
		}
	}
	r->figures = figures;
	r->cut = ok ? fdr_cut(ps, figures, o->alpha) : -1;
	free(ps);
	for (uint32_t i = 0; ok && i < r->n_points; i++) {
		cmp_point *cp = &r->points[i];
		for (uint32_t k = 0; k < cp->n_rows; k++)
			finish(o, r->cut, &cp->rows[k]);
		qsort(cp->rows, cp->n_rows, sizeof *cp->rows, by_change);
	}
	free(w.a);
	free(w.b);
	free(w.scratch);
	for (uint32_t i = 0; ok && i < r->n_points; i++) {
		for (uint32_t k = 0; k < r->points[i].n_rows; k++) {
			const cmp_row *row = &r->points[i].rows[k];
			r->costlier += row->verdict == CMP_COSTLIER;
			r->cheaper += row->verdict == CMP_CHEAPER;
			r->same += row->verdict == CMP_SAME;
			r->noisy += row->noisy != 0;
		}
	}
	if (!ok && !said)
		fprintf(stderr, PROG ": out of memory comparing\n");
	return ok && cmp_work_compare(r);
}

void cmp_free(cmp_result *r)
{
	for (uint32_t i = 0; r->points && i < r->n_points; i++) {
		free(r->points[i].rows);
		free(r->points[i].work);
	}
	free(r->points);
	r->points = NULL;
}
