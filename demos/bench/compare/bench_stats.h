/* Two-sample statistics for `srcprof-bench compare`: did a figure move
 * between two runs, by how much, and how sure can we be?
 *
 * - The Mann-Whitney U test (two-sided): whether one sample's values tend
 *   to be larger than the other's. Rank-based, so one slow frame cannot
 *   swing it, and it assumes nothing about the shape of frame times.
 *   Exact p-values for small samples without ties; the normal
 *   approximation with tie and continuity corrections otherwise.
 * - The Hodges-Lehmann estimate of the shift (the median of every
 *   difference new - base) and its distribution-free confidence interval:
 *   the shifts the same test would not reject. Estimate, interval and test
 *   therefore agree.
 *
 * Neither makes per-frame samples independent: frames of one run share the
 * machine's state (docs/bench.md says what that means for compare). Pure
 * functions of their arguments; nothing is allocated.
 */
#ifndef DEMOS_BENCH_STATS_H
#define DEMOS_BENCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* Exact p-values and intervals up to this many values per sample (when
 * neither has ties): C(2 * 25, 25) arrangements still count exactly in a
 * double. */
#define BSTAT_EXACT_MAX 25

typedef struct bstat_test {
	double u;   /* pairs (base_i, new_j) with new_j > base_i, ties counted 1/2 */
	double z;   /* the normal approximation's z (0 when exact) */
	double p;   /* two-sided p-value: min(1, 2 x the smaller tail) */
	double p_greater, p_less; /* one-sided: new tends to be larger / smaller */
	bool exact; /* p from the exact distribution of U */
} bstat_test;

/* The Mann-Whitney U test of new[] against base[], both sorted ascending,
 * n, m >= 1. */
void bstat_mann_whitney(const double *base, uint32_t n, const double *nw, uint32_t m,
			bstat_test *out);

/* P(U <= u) for every u = 0 .. n*m under the null hypothesis, no ties,
 * into cdf[0 .. n*m]; 1 <= n, m <= BSTAT_EXACT_MAX. */
void bstat_mw_exact_cdf(uint32_t n, uint32_t m, double *cdf);

/* The k-th smallest (1-based, 1 <= k <= n*m) of the n*m differences
 * new_j - base_i, both sorted ascending; O((n + m) log) time, no memory. */
double bstat_kth_difference(const double *base, uint32_t n, const double *nw, uint32_t m,
			    uint64_t k);

typedef struct bstat_shift {
	double est;   /* Hodges-Lehmann: the median of the differences new - base */
	double lo, hi; /* the confidence interval; -inf, +inf when unbounded */
	bool bounded;  /* false: too few values for an interval at this level */
} bstat_shift;

/* The shift of new[] from base[] (both sorted, n, m >= 1) and its
 * `level` (e.g. 0.95) confidence interval. */
void bstat_shift_of(const double *base, uint32_t n, const double *nw, uint32_t m, double level,
		    bstat_shift *out);

/* Welch's t test of the means of new[] against base[] (n, m >= 2, in any
 * order), for compare's runs: each value one run's median, so that the
 * spread between runs of one build, which the frames of one run cannot
 * show, is what a change is weighed against. */
typedef struct bstat_welch_t {
	double diff;       /* mean(new) - mean(base) */
	double se, df;     /* the difference's standard error; Welch-Satterthwaite df */
	double t;          /* diff / se (+-inf when se is 0 and diff is not) */
	double p;          /* two-sided */
	double p_greater, p_less;
	double lo, hi;     /* the `level` interval of diff */
} bstat_welch_t;

void bstat_welch(const double *base, uint32_t n, const double *nw, uint32_t m, double level,
		 bstat_welch_t *out);

#endif
