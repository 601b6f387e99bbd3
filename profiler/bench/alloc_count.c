#include "alloc_count.h"

#include <stdatomic.h>
#include <stddef.h>

static _Atomic uint64_t g_allocs;

uint64_t alloc_count(void)
{
	return atomic_load(&g_allocs);
}

void *__wrap_malloc(size_t size)
{
	atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
	return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
	return __real_realloc(p, size);
}

void __wrap_free(void *p)
{
	__real_free(p);
}
