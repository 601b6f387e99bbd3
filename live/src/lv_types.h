/* The sources' types (srcprof_live_set_source_type), one table for the
 * process, and its pruning by a server that lists the profiler's sources. */
#ifndef LV_TYPES_H
#define LV_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#define LV_TYPE_MAX 32

/* Marks the types of sources `present` says are listed, and drops those
 * that were listed once and are not any more. */
void lv_types_prune(bool (*present)(const void *source, void *user), void *user);

#endif
