/* An in-place sort that never allocates, for what the overlay sorts every
 * frame (glibc's qsort mallocs a merge buffer for arrays over 1 KiB). */
#ifndef DEMOS_SORT_H
#define DEMOS_SORT_H

#include <stddef.h>

/* Heapsort of n elements of `size` bytes (at most 256), in the order cmp
 * gives (not stable). */
void sort_inplace(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
