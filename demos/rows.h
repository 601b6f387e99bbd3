/* The per-source rows the overlay, the log and the printed table show:
 * each source's results gathered in one pass, and the orders they sort in.
 * The caller owns the array; rows_reserve grows it only when the scene
 * outgrows it, so a running overlay does not allocate. */
#ifndef DEMOS_ROWS_H
#define DEMOS_ROWS_H

#include "engine/engine.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct src_row {
	const void *key;          /* the profiler's key */
	const eng_source *source; /* NULL for the overlay's entry */
	const char *name, *type;
	bool have;                /* fill_result gave results */
	bool async;
	profiler_result_t r;
	uint32_t cpu_samples, gpu_samples;
} src_row;

/* What the table sorts by, the key that cycles them (Tab) in this order. */
typedef enum row_sort {
	ROW_SORT_GPU,
	ROW_SORT_CPU,
	ROW_SORT_TICK,
	ROW_SORT_NAME,
	ROW_SORTS,
} row_sort;

/* "GPU sum", "rend sum", "tick", "name": the column the order follows. */
const char *rows_sort_name(row_sort sort);
/* The order actually used: GPU time sorts by CPU render while GPU timing
 * is off (its columns then read "off"). */
row_sort rows_effective_sort(row_sort sort, bool gpu_on);

/* Makes *rows hold at least `need` rows (grows by doubling). False when
 * out of memory (the old array is kept). */
bool rows_reserve(src_row **rows, uint32_t *cap, uint32_t need);

/* Fills rows with every source of `e` (and, when `overlay`, the overlay's
 * entry last) and returns how many; `cap` must hold eng_source_count(e)
 * (+1). Sources without results yet have have = false. */
uint32_t rows_gather(eng_engine *e, src_row *rows, uint32_t cap, bool overlay);

/* Sorts rows[0..n-1] by `sort` (largest first; names A to Z), rows without
 * results last, ties by name. */
void rows_sort(src_row *rows, uint32_t n, row_sort sort, bool gpu_on);

#endif
