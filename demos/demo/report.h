/* The per-source table srcprof-demo prints. */
#ifndef DEMOS_REPORT_H
#define DEMOS_REPORT_H

#include "rows.h"

#include "engine/engine.h"

#include <stdio.h>

/* Prints every source's results with a header naming the API, device, GPU
 * timing mode and the scene (`scene`, its source count), sorted as the
 * overlay sorts by `sort` (by CPU render while GPU timing is off, when
 * the GPU columns read "off"), with the window's medians and GPU sample
 * counts. `limit` rows at most (0: all). `busy_pct`: other processes'
 * share of the CPU over the run (said above SRCPROF_BUSY_PCT; < 0:
 * unknown). */
void report_print(FILE *out, eng_engine *e, const char *scene, row_sort sort, uint32_t limit,
		  double busy_pct);

/* The header lines about threads and queues, where the run had more than
 * one (nothing otherwise): tick and record threads, the profiler's thread
 * buffers and what it refused or dropped, the queues and what a GPU sum
 * over them means, timers lost to late or misplaced command buffers. */
void report_threads_and_queues(FILE *out, eng_engine *e, const source_profiler_stats_t *st,
			       bool gpu);

#endif
