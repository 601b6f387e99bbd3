/* The order statistics the whole house reports: one comparison, one
 * median, one quantile rule, so that the bench's tables, its JSON, compare,
 * the demo's overlay and the profiler compute a "p50" or a "p95" the same
 * way.
 *
 * Medians take the mean of the middle two of an even count; quantiles are
 * nearest rank (the value at rank ceil(q * n), so p95 of 20 values is the
 * 19th). Nothing here allocates: the callers own every array, and the
 * functions that sort or rearrange say so.
 */
#ifndef SRCPROF_BASE_STATS_H
#define SRCPROF_BASE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* qsort comparisons, ascending: doubles, floats, uint32_t and uint64_t
 * (NaN compares equal to everything, as the callers never hold one). These
 * and the medians need no libm (order.c). */
int stats_cmp_double(const void *a, const void *b);
int stats_cmp_float(const void *a, const void *b);
int stats_cmp_u32(const void *a, const void *b);
int stats_cmp_u64(const void *a, const void *b);

/* Sorts v[0..n-1] ascending (qsort, stats_cmp_double). */
void stats_sort(double *v, uint32_t n);

/* The median of sorted[0..n-1]; 0 for n = 0. */
double stats_median(const double *sorted, uint32_t n);

/* The median of v[0..n-1], sorting v in place first; 0 for n = 0. */
double stats_median_of(double *v, uint32_t n);

/* The median of v[0..n-1] by selection (linear on average, where sorting
 * is too slow for a display's every frame), rearranging v; an even count's
 * middle two averaged in integers (rounded down); 0 for n = 0. Needs no
 * libm. */
uint64_t stats_median_u32(uint32_t *v, uint32_t n);

/* The 0-based index of the q-quantile (0 < q <= 1) among n >= 1 sorted
 * values, nearest rank: ceil(q * n) - 1, at least 0. */
uint32_t stats_rank(uint32_t n, double q);

/* The q-quantile of sorted[0..n-1], nearest rank; 0 for n = 0. */
double stats_quantile(const double *sorted, uint32_t n, double q);

/* A GPU resolution (us) as the reports print it: rounded up, so that "<X"
 * never reads below the resolution, to 0.1 us, or to 0.001 us (1 ns) under
 * 1 us, where 0.1 would round a 41 ns timer to "0.1" or to nothing; 0 (not
 * known) is "0". */
void stats_format_us_up(char *buf, size_t size, double us);

#endif
