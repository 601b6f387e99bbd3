/* srcprof-bench compare's statistics (demos/bench/compare/bench_stats.c;
 * the median is tests/demos/test_stats.c's) with exact numbers: the
 * Mann-Whitney U, its exact and approximate p-values, the Hodges-Lehmann
 * shift and its interval. Where a figure comes from a
 * formula, the formula's inputs (U, the tie groups, the interval's order
 * statistics) were worked out by hand, as the comments show. */
#include "bench_stats.h"
#include "check.h"
#include "srcprof_base/stats.h"
#include "srcprof_base/student_t.h"

#include <math.h>
#include <stdlib.h>

/* A fixed pseudo-random sequence, so that failures repeat. */
static uint32_t lcg(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

/* [10 choose 5]_q: the arrangements of 5 and 5 values by U are the
 * partitions in a 5x5 box, 1 1 2 3 5 7 9 11 14 16 18 19 20 20 ... of 252. */
TEST(exact_distribution_of_5_and_5_counts_the_arrangements)
{
	double cdf[26];
	bstat_mw_exact_cdf(5, 5, cdf);
	static const int counts[26] = {1,  1,  2,  3,  5,  7,  9,  11, 14, 16, 18, 19, 20,
				       20, 19, 18, 16, 14, 11, 9,  7,  5,  3,  2,  1,  1};
	int run = 0;
	for (int u = 0; u < 26; u++) {
		run += counts[u];
		CHECK_NEAR(cdf[u], run / 252.0, 1e-15);
	}
	CHECK_NEAR(cdf[12], 0.5, 0);
	CHECK_NEAR(cdf[25], 1, 0);
}

/* Every arrangement of 4 base and 6 new values (bit set: new), counted by
 * its U: the exact distribution must match, for both orders of the sizes. */
TEST(exact_distribution_matches_enumerating_every_arrangement)
{
	for (int swap = 0; swap < 2; swap++) {
		uint32_t n = swap ? 6 : 4, m = swap ? 4 : 6;
		double count[25] = {0}, total = 0;
		for (uint32_t bits = 0; bits < 1u << 10; bits++) {
			if ((uint32_t)__builtin_popcount(bits) != m)
				continue;
			/* U: for each new value, the base values below it. */
			int u = 0, below = 0;
			for (int pos = 0; pos < 10; pos++) {
				if (bits >> pos & 1)
					u += below;
				else
					below++;
			}
			count[u]++;
			total++;
		}
		CHECK_NEAR(total, 210, 0);
		double cdf[25], run = 0;
		bstat_mw_exact_cdf(n, m, cdf);
		for (int u = 0; u < 25; u++) {
			run += count[u];
			CHECK_NEAR(cdf[u], run / total, 1e-15);
		}
	}
}

TEST(fully_separated_samples_are_exact)
{
	const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
	bstat_test t;
	bstat_mann_whitney(a, 5, b, 5, &t);
	CHECK(t.exact);
	CHECK_NEAR(t.u, 25, 0);
	/* Only one arrangement of 252 is this extreme, one the other way. */
	CHECK_NEAR(t.p, 2.0 / 252, 1e-15);
	CHECK_NEAR(t.p_greater, 1.0 / 252, 1e-15);
	CHECK_NEAR(t.p_less, 1, 1e-15);
	bstat_mann_whitney(b, 5, a, 5, &t);
	CHECK_NEAR(t.u, 0, 0);
	CHECK_NEAR(t.p, 2.0 / 252, 1e-15);
}

TEST(three_against_three_cannot_reach_5_percent)
{
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	bstat_test t;
	bstat_mann_whitney(a, 3, b, 3, &t);
	CHECK(t.exact);
	CHECK_NEAR(t.u, 9, 0);
	CHECK_NEAR(t.p, 0.1, 1e-15); /* 2 x 1/20 */
}

/* New 2 beats base 1; 4 beats 1, 3; 6 beats 1, 3, 5: U = 6 of 9. The 20
 * arrangements of 3 and 3 by U: 1 1 2 3 3 3 3 2 1 1, so P(U >= 6) =
 * P(U <= 3) = 7/20 and p = 14/20. */
TEST(interleaved_samples_are_not_significant)
{
	const double a[] = {1, 3, 5}, b[] = {2, 4, 6};
	bstat_test t;
	bstat_mann_whitney(a, 3, b, 3, &t);
	CHECK(t.exact);
	CHECK_NEAR(t.u, 6, 0);
	CHECK_NEAR(t.p, 0.7, 1e-15);
	CHECK_NEAR(t.p_greater, 7.0 / 20, 1e-15); /* P(U >= 6) */
	CHECK_NEAR(t.p_less, 16.0 / 20, 1e-15);   /* P(U <= 6) */
}

/* With ties: the normal approximation with tie and continuity corrections.
 * Pooled 1 2 2 | 2 3 | 3 4 5 (base: 1 2 2 3, new: 2 3 4 5); U counts, for
 * each new value, the base values below it and half of those equal:
 * 2 -> 1 + 2/2 = 2, 3 -> 3 + 1/2, 4 -> 4, 5 -> 4: U = 13.5 of 16. Tie
 * groups of 3 (the 2s) and 2 (the 3s): sum t^3 - t = 24 + 6 = 30, so
 * var = 16/12 * (9 - 30 / (8 * 7)); z = (|13.5 - 8| - 0.5) / sqrt(var). */
TEST(ties_use_the_corrected_normal_approximation)
{
	const double a[] = {1, 2, 2, 3}, b[] = {2, 3, 4, 5};
	bstat_test t;
	bstat_mann_whitney(a, 4, b, 4, &t);
	CHECK(!t.exact);
	CHECK_NEAR(t.u, 13.5, 0);
	double z = 5 / sqrt(16.0 / 12 * (9 - 30.0 / 56));
	CHECK_NEAR(t.z, z, 1e-12);
	CHECK_NEAR(t.z, 1.4883513944689681, 1e-12);
	CHECK_NEAR(t.p, 0.13665824773814753, 1e-12);
	/* One tail each, corrected by 1/2 towards the middle: z = +-5, -6. */
	double sd = sqrt(16.0 / 12 * (9 - 30.0 / 56));
	CHECK_NEAR(t.p_greater, 0.5 * erfc(5 / sd / sqrt(2.0)), 1e-12);
	CHECK_NEAR(t.p_less, 0.5 * erfc(-6 / sd / sqrt(2.0)), 1e-12);
	CHECK_NEAR(t.p, 2 * t.p_greater, 1e-12);
}

TEST(identical_constant_samples_have_p_1)
{
	const double a[] = {7, 7, 7, 7}, b[] = {7, 7, 7};
	bstat_test t;
	bstat_mann_whitney(a, 4, b, 3, &t);
	CHECK_NEAR(t.u, 6, 0); /* every pair a tie: 12 / 2 */
	CHECK_NEAR(t.p, 1, 0);
}

/* Large samples without ties take the normal approximation too. */
TEST(large_samples_use_the_normal_approximation)
{
	double a[30], b[30];
	for (int i = 0; i < 30; i++) {
		a[i] = 2 * i;     /* even */
		b[i] = 2 * i + 1; /* odd: each above its base twin */
	}
	bstat_test t;
	bstat_mann_whitney(a, 30, b, 30, &t);
	CHECK(!t.exact);
	/* b_j beats a_0 .. a_j: U = sum (j + 1) = 465 of 900. */
	CHECK_NEAR(t.u, 465, 0);
	double z = (465 - 450 - 0.5) / sqrt(900.0 / 12 * 61);
	CHECK_NEAR(t.z, z, 1e-12);
	CHECK_NEAR(t.p, erfc(z / sqrt(2.0)), 1e-12);
}

TEST(kth_difference_matches_sorting_every_difference)
{
	enum { N = 300, M = 200 };
	static double a[N], b[M], all[N * M];
	uint32_t st = 12345;
	/* Values on a coarse grid, so that many differences tie. */
	for (int i = 0; i < N; i++)
		a[i] = (double)(lcg(&st) % 500) / 4;
	for (int j = 0; j < M; j++)
		b[j] = (double)(lcg(&st) % 700) / 4 - 20;
	stats_sort(a, N);
	stats_sort(b, M);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			all[i * M + j] = b[j] - a[i];
	stats_sort(all, N * M);
	const uint64_t ks[] = {1, 2, 3, 777, N * M / 2, N * M / 2 + 1, 41234, N * M - 1, N * M};
	for (size_t k = 0; k < sizeof ks / sizeof *ks; k++)
		CHECK_NEAR(bstat_kth_difference(a, N, b, M, ks[k]), all[ks[k] - 1], 0);
	for (int r = 0; r < 200; r++) {
		uint64_t k = 1 + lcg(&st) % (N * M);
		CHECK_NEAR(bstat_kth_difference(a, N, b, M, k), all[k - 1], 0);
	}
}

/* Base 1..5, new 11..15: the 25 differences 10 + (j - i) are 6 .. 14 with
 * counts 1 2 3 4 5 4 3 2 1. Exact 95%: c = 3 (P(U <= 2) = 4/252 <= 0.025 <
 * P(U <= 3) = 7/252), so [D(3), D(23)] = [7, 13]; the median D(13) = 10. */
TEST(shift_and_exact_interval_of_5_and_5)
{
	const double a[] = {1, 2, 3, 4, 5}, b[] = {11, 12, 13, 14, 15};
	bstat_shift s;
	bstat_shift_of(a, 5, b, 5, 0.95, &s);
	CHECK(s.bounded);
	CHECK_NEAR(s.est, 10, 0);
	CHECK_NEAR(s.lo, 7, 0);
	CHECK_NEAR(s.hi, 13, 0);
}

/* 3 and 3: the most extreme arrangement has probability 1/20 > 0.025, so
 * no 95% interval exists; the estimate does: differences 1 2 2 3 3 3 4 4 5. */
TEST(too_few_values_give_no_interval)
{
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	bstat_shift s;
	bstat_shift_of(a, 3, b, 3, 0.95, &s);
	CHECK(!s.bounded);
	CHECK_NEAR(s.est, 3, 0);
	CHECK(isinf(s.lo) && s.lo < 0 && isinf(s.hi) && s.hi > 0);
}

/* 100 and 100 (beyond the exact sizes): base 0..99, new 50..149, the
 * differences 50 + (j - i). c = round(5000 - 1.959964 * sqrt(10^4 * 201 /
 * 12)) = round(4197.85) = 4198; D(4198) = 42 and D(5803) = 58 (counted:
 * value 50 + t occurs 100 - |t| times); the median is 50. */
TEST(shift_and_normal_interval_of_100_and_100)
{
	static double a[100], b[100];
	for (int i = 0; i < 100; i++) {
		a[i] = i;
		b[i] = i + 50;
	}
	bstat_shift s;
	bstat_shift_of(a, 100, b, 100, 0.95, &s);
	CHECK(s.bounded);
	CHECK_NEAR(s.est, 50, 0);
	CHECK_NEAR(s.lo, 42, 0);
	CHECK_NEAR(s.hi, 58, 0);
}

TEST(a_shift_of_nothing_is_estimated_as_nothing)
{
	double a[40], b[40];
	uint32_t st = 99;
	for (int i = 0; i < 40; i++)
		a[i] = b[i] = (double)(lcg(&st) % 1000);
	stats_sort(a, 40);
	stats_sort(b, 40);
	bstat_shift s;
	bstat_shift_of(a, 40, b, 40, 0.95, &s);
	CHECK_NEAR(s.est, 0, 0); /* the differences are symmetric about 0 */
	CHECK(s.bounded && s.lo < 0 && s.hi > 0 && s.lo == -s.hi);
	bstat_test t;
	bstat_mann_whitney(a, 40, b, 40, &t);
	CHECK_NEAR(t.u, 800, 0);
	CHECK_NEAR(t.p, 1, 0);
}

/* Student's t against closed forms: df = 1 is Cauchy (1/2 + atan(t) / pi),
 * df = 2 has P(T <= t) = 1/2 + t / (2 sqrt(2 + t^2)); tables give the
 * 97.5% points 12.7062 (df 1), 4.3027 (2), 2.2281 (10), and 1.96 for a
 * very large df. */
TEST(t_distribution_matches_closed_forms_and_tables)
{
	const double pi = 3.14159265358979323846;
	for (double t = -30; t <= 30; t += 0.37) {
		CHECK_NEAR(student_t_cdf(t, 1), 0.5 + atan(t) / pi, 1e-12);
		CHECK_NEAR(student_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	CHECK_NEAR(student_t_cdf(0, 3.7), 0.5, 1e-15);
	CHECK_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-4);
	CHECK_NEAR(student_t_quantile(0.975, 2), 4.3027, 1e-4);
	CHECK_NEAR(student_t_quantile(0.975, 10), 2.2281, 1e-4);
	CHECK_NEAR(student_t_quantile(0.975, 1e7), 1.95996, 1e-4);
	CHECK_NEAR(student_t_quantile(0.025, 2), -4.3027, 1e-4);
}

/* Runs' medians 10, 12 against 20, 22: the difference 10, variances 2 and
 * 2, se = sqrt(2/2 + 2/2) = sqrt(2), df = 2^2 / (1 + 1) = 2, t = 5 sqrt(2);
 * p = 1 - t / sqrt(2 + t^2) = 1 - 7.0711 / 7.2111 = 0.019419; the 95%
 * interval 10 +- 4.30265 sqrt(2) = 10 +- 6.08488. */
TEST(welch_of_two_runs_a_side_by_hand)
{
	const double a[] = {12, 10}, b[] = {20, 22};
	bstat_welch_t w;
	bstat_welch(a, 2, b, 2, 0.95, &w);
	CHECK_NEAR(w.diff, 10, 1e-12);
	CHECK_NEAR(w.se, sqrt(2), 1e-12);
	CHECK_NEAR(w.df, 2, 1e-12);
	CHECK_NEAR(w.t, 5 * sqrt(2), 1e-12);
	CHECK_NEAR(w.p, 1 - 5 * sqrt(2) / sqrt(52), 1e-12);
	CHECK_NEAR(w.p_greater, w.p / 2, 1e-12);
	CHECK_NEAR(w.p_less, 1 - w.p / 2, 1e-12);
	CHECK_NEAR(w.lo, 10 - 6.08488, 1e-4);
	CHECK_NEAR(w.hi, 10 + 6.08488, 1e-4);
	/* Unequal spreads and sizes: 1, 2, 3 (var 1) against 10, 30 (var
	 * 200): se^2 = 1/3 + 100, df = (100 1/3)^2 / ((1/3)^2 / 2 + 100^2)
	 * = 1.00665. */
	const double c[] = {1, 2, 3}, d[] = {10, 30};
	bstat_welch(c, 3, d, 2, 0.95, &w);
	CHECK_NEAR(w.diff, 18, 1e-12);
	CHECK_NEAR(w.se, sqrt(100 + 1.0 / 3), 1e-12);
	CHECK_NEAR(w.df, (100 + 1.0 / 3) * (100 + 1.0 / 3) / (1.0 / 18 + 10000), 1e-12);
}

TEST(welch_without_spread)
{
	const double a[] = {5, 5}, b[] = {5, 5}, c[] = {6, 6};
	bstat_welch_t w;
	bstat_welch(a, 2, b, 2, 0.95, &w);
	CHECK_NEAR(w.p, 1, 0);
	CHECK_NEAR(w.diff, 0, 0);
	bstat_welch(a, 2, c, 2, 0.95, &w);
	CHECK_NEAR(w.p, 0, 0);
	CHECK_NEAR(w.p_greater, 0, 0);
	CHECK_NEAR(w.lo, 1, 0);
	CHECK_NEAR(w.hi, 1, 0);
}
