/* The quantile rule and the reports' rounding (they need libm); the
 * comparisons and medians are order.c's. */
#include "srcprof_base/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
