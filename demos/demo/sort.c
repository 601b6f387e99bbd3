#include "sort.h"

#include <assert.h>
#include <string.h>

enum { SORT_MAX_SIZE = 256 };

static void swap(char *a, char *b, size_t size)
{
	char t[SORT_MAX_SIZE];
	memcpy(t, a, size);
	memcpy(a, b, size);
	memcpy(b, t, size);
}

/* Moves element i down the heap of n elements until both children are
 * no larger. */
static void sift_down(char *base, size_t i, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t largest = i, l = 2 * i + 1, r = l + 1;
		if (l < n && cmp(base + l * size, base + largest * size) > 0)
			largest = l;
		if (r < n && cmp(base + r * size, base + largest * size) > 0)
			largest = r;
		if (largest == i)
			return;
		swap(base + i * size, base + largest * size, size);
		i = largest;
	}
}

void sort_inplace(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	assert(size <= SORT_MAX_SIZE);
	char *b = base;
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n - 1; end > 0; end--) {
		swap(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}
