/* The per-source table srcprof-demo prints. */
#ifndef DEMOS_REPORT_H
#define DEMOS_REPORT_H

#include "engine/engine.h"

#include <stdio.h>

/* Prints every source's results, sorted by GPU time summed over its
 * renders, with a header naming the API, device and GPU timing mode.
 * `limit` rows at most (0: all). */
void report_print(FILE *out, eng_engine *e, uint32_t limit);

#endif
