#include "srcprof_base/stats.h"

#include <math.h>
#include <stdio.h>
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

uint32_t stats_rank(uint32_t n, double q)
{
	uint32_t i = (uint32_t)ceil(q * n);
	return i ? i - 1 : 0;
}

double stats_quantile(const double *sorted, uint32_t n, double q)
{
	return n ? sorted[stats_rank(n, q)] : 0;
}

void stats_format_us_up(char *buf, size_t size, double us)
{
	/* A hair under the step first: 0.3 us is 2.9999... tenths in binary. */
	if (!(us > 0))
		snprintf(buf, size, "0");
	else if (us >= 1.0)
		snprintf(buf, size, "%.1f", ceil(us * 10.0 - 1e-6) / 10.0);
	else
		snprintf(buf, size, "%.3f", fmax(ceil(us * 1000.0 - 1e-6), 1.0) / 1000.0);
}
