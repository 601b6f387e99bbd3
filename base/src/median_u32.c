/* The profiler's median (a display reads it every frame): selection, no
 * libm, so that libsrcprof, which links only threads, can take this file
 * alone from the archive. */
#include "srcprof_base/stats.h"

/* Rearranges v so that v[k] is what sorting would put there, with nothing
 * larger before it and nothing smaller after it (Wirth's selection, the
 * middle element as pivot). */
static void select_kth(uint32_t *v, int32_t n, int32_t k)
{
	int32_t lo = 0, hi = n - 1;
	while (lo < hi) {
		uint32_t pivot = v[k];
		int32_t i = lo, j = hi;
		do {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				uint32_t t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < k)
			lo = i;
		if (k < i)
			hi = j;
	}
}

uint64_t stats_median_u32(uint32_t *v, uint32_t n)
{
	if (!n)
		return 0;
	select_kth(v, (int32_t)n, (int32_t)(n / 2));
	if (n % 2)
		return v[n / 2];
	uint32_t below = v[0]; /* the largest of v[0 .. n/2 - 1] */
	for (uint32_t i = 1; i < n / 2; i++)
		below = v[i] > below ? v[i] : below;
	return ((uint64_t)below + v[n / 2]) / 2;
}
