/* The demo programs' order statistics (base/include/srcprof_base/stats.h) with exact
 * numbers: the median of odd and even counts, nearest-rank quantiles (the
 * bench's p50/p95/p99 and the overlay's graph scale), the comparisons. */
#include "check.h"
#include "srcprof_base/stats.h"

#include <stdlib.h>

TEST(median_of_odd_and_even_counts)
{
	const double odd[] = {1, 2, 7}, even[] = {1, 2, 4, 10};
	CHECK_NEAR(stats_median(odd, 3), 2, 0);
	CHECK_NEAR(stats_median(even, 4), 3, 0);
	CHECK_NEAR(stats_median(odd, 0), 0, 0);
	CHECK_NEAR(stats_median(odd, 1), 1, 0);
}

TEST(median_of_sorts_its_values_in_place)
{
	double v[] = {7, -1, 2.5, 3, 100};
	CHECK_NEAR(stats_median_of(v, 5), 3, 0);
	CHECK_NEAR(v[0], -1, 0);
	CHECK_NEAR(v[1], 2.5, 0);
	CHECK_NEAR(v[4], 100, 0);
	double w[] = {4, 1};
	CHECK_NEAR(stats_median_of(w, 2), 2.5, 0);
	CHECK_NEAR(stats_median_of(NULL, 0), 0, 0);
}

TEST(ranks_are_nearest_rank)
{
	/* ceil(q * n) - 1: the value at rank ceil(q * n). */
	CHECK_EQ(stats_rank(20, 0.50), 9);
	CHECK_EQ(stats_rank(20, 0.95), 18);
	CHECK_EQ(stats_rank(20, 0.99), 19);
	CHECK_EQ(stats_rank(100, 0.99), 98);
	CHECK_EQ(stats_rank(300, 0.99), 296);
	CHECK_EQ(stats_rank(7, 0.50), 3);
	CHECK_EQ(stats_rank(1, 0.99), 0);
	CHECK_EQ(stats_rank(5, 0), 0);
}

TEST(quantiles_of_sorted_values)
{
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = i + 1; /* 1 .. 20 */
	CHECK_NEAR(stats_quantile(v, 20, 0.50), 10, 0);
	CHECK_NEAR(stats_quantile(v, 20, 0.95), 19, 0);
	CHECK_NEAR(stats_quantile(v, 20, 0.99), 20, 0);
	CHECK_NEAR(stats_quantile(v, 20, 1.0), 20, 0);
	CHECK_NEAR(stats_quantile(v, 20, 0), 1, 0);
	/* Nearest rank, unlike the median, takes no mean of two. */
	CHECK_NEAR(stats_quantile(v, 4, 0.50), 2, 0);
	CHECK_NEAR(stats_median(v, 4), 2.5, 0);
	CHECK_NEAR(stats_quantile(v, 1, 0.95), 1, 0);
	CHECK_NEAR(stats_quantile(NULL, 0, 0.5), 0, 0);
}

TEST(comparisons_order_ascending)
{
	double a = 1, b = 2;
	CHECK_EQ(stats_cmp_double(&a, &b), -1);
	CHECK_EQ(stats_cmp_double(&b, &a), 1);
	CHECK_EQ(stats_cmp_double(&a, &a), 0);
	float x = -0.5f, y = 0.25f;
	CHECK_EQ(stats_cmp_float(&x, &y), -1);
	CHECK_EQ(stats_cmp_float(&y, &x), 1);
	CHECK_EQ(stats_cmp_float(&y, &y), 0);
	double v[] = {3, -1, 2, 2, 0};
	stats_sort(v, 5);
	const double want[] = {-1, 0, 2, 2, 3};
	for (int i = 0; i < 5; i++)
		CHECK_NEAR(v[i], want[i], 0);
	stats_sort(NULL, 0);
	stats_sort(v, 1);
	CHECK_NEAR(v[0], -1, 0);
}

TEST(resolutions_print_rounded_up_and_fine_enough_below_1_us)
{
	char buf[24];
	const struct {
		double us;
		const char *want;
	} cases[] = {
		{218.55, "218.6"}, {218.6, "218.6"}, {218.61, "218.7"}, {80.0, "80.0"},
		{1.0, "1.0"},      {0.3, "0.300"},   {0.041, "0.041"},  {0.0411, "0.042"},
		{0.001, "0.001"},  {0.0004, "0.001"}, {0.0, "0"}, {1e-12, "0.001"}, {-1.0, "0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		stats_format_us_up(buf, sizeof buf, cases[i].us);
		CHECK_STR(buf, cases[i].want);
	}
}
