/* Heap allocation counting for tests and benchmarks: link the program with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free and every
 * allocation made by code in that link (libsrcprof included, when linked
 * statically) goes through these counters. */
#ifndef SRCPROF_ALLOC_COUNT_H
#define SRCPROF_ALLOC_COUNT_H

#include <stdint.h>

uint64_t alloc_count(void); /* malloc + calloc + realloc calls so far */

#endif
