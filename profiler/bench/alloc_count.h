/* Heap allocation counting for tests and benchmarks: link the program with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free and every
 * allocation made by code in that link (libsrcprof included, when linked
 * statically) goes through these counters. */
#ifndef SRCPROF_ALLOC_COUNT_H
#define SRCPROF_ALLOC_COUNT_H

#include <stddef.h>
#include <stdint.h>

uint64_t alloc_count(void); /* malloc + calloc + realloc calls so far */

/* The linker's --wrap pairs: __wrap_x replaces x in the link, __real_x is
 * the original. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

#endif
