/* The comparisons and the medians of sorted values: no libm, so that
 * libsrcprof (which links only threads) can take this file alone. */
#include "srcprof_base/stats.h"

#include <stdlib.h>

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int stats_cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

int stats_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

int stats_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, uint32_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, stats_cmp_double);
}

double stats_median(const double *sorted, uint32_t n)
{
	if (!n)
		return 0;
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double stats_median_of(double *v, uint32_t n)
{
	stats_sort(v, n);
	return stats_median(v, n);
}
