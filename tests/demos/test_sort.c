/* The overlay's allocation-free sort orders as qsort does. */
#include "check.h"
#include "sort.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

typedef struct wide {
	char pad[200];
	int key;
} wide;

static int cmp_wide(const void *a, const void *b)
{
	return cmp_int(&((const wide *)a)->key, &((const wide *)b)->key);
}

TEST(sorts_like_qsort)
{
	static int a[1000], b[1000];
	uint32_t seed = 12345;
	for (size_t n = 0; n <= 1000; n = n ? n * 3 : 1) {
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1664525u + 1013904223u;
			a[i] = b[i] = (int)(seed >> 20) % 50; /* many equal keys */
		}
		sort_inplace(a, n, sizeof a[0], cmp_int);
		qsort(b, n, sizeof b[0], cmp_int);
		CHECK(memcmp(a, b, n * sizeof a[0]) == 0);
	}
}

TEST(sorts_elements_wider_than_a_word)
{
	static wide w[64];
	for (int i = 0; i < 64; i++) {
		w[i].key = (i * 37) % 64;
		w[i].pad[0] = (char)w[i].key; /* travels with its key */
	}
	sort_inplace(w, 64, sizeof w[0], cmp_wide);
	for (int i = 0; i < 64; i++) {
		CHECK_EQ(w[i].key, i);
		CHECK_EQ(w[i].pad[0], i);
	}
}
