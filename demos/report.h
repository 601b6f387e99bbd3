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

#endif
