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
#include <stdio.h>

typedef struct src_row {
	const void *key;          /* the profiler's key */
	const eng_source *source; /* NULL for the overlay's entry */
	const char *name, *type;
	bool have;                /* fill_result gave results */
	bool async;
	profiler_result_t r;
	uint32_t cpu_samples, gpu_samples;
	bool have_med;                /* m holds the window's medians */
	source_profiler_medians_t m;
	/* The GPU sum's 95% half-width (ns, source_profiler_fill_intervals),
	 * refreshed with the medians; false: not known yet. */
	bool have_ci;
	uint64_t gpu_sum_ci95;
} src_row;

/* What the table sorts by, the key that cycles them (Tab) in this order.
 * The medians come first: one long frame cannot reorder them. */
typedef enum row_sort {
	ROW_SORT_GPU_P50,
	ROW_SORT_GPU,
	ROW_SORT_CPU_P50,
	ROW_SORT_CPU,
	ROW_SORT_TICK,
	ROW_SORT_NAME,
	ROW_SORTS,
} row_sort;

/* "GPU p50", "GPU sum", "rend p50", "rend sum", "tick", "name": the column
 * the order follows. */
const char *rows_sort_name(row_sort sort);
/* The order actually used: GPU times sort by the CPU render figure of the
 * same kind while GPU timing is off (their columns then read "off"). */
row_sort rows_effective_sort(row_sort sort, bool gpu_on);

/* The medians (and GPU sum intervals) of the sources of an engine,
 * refreshed a few at a time:
 * fill_medians copies a window (microseconds), too dear for every source
 * every frame in a scene of thousands. Entry i is eng_source_at(e, i)'s
 * while its key matches. */
typedef struct src_medians {
	const void *key;
	bool have, have_ci;
	source_profiler_medians_t m;
	uint64_t gpu_sum_ci95;
} src_medians;

typedef struct rows_median_cache {
	src_medians *v;
	uint32_t cap, next; /* next: the first entry the next refresh takes */
	bool intervals;     /* refresh the GPU sum intervals too (a second copy) */
} rows_median_cache;

/* Refreshes up to `budget` entries, round the sources in turn (0: all).
 * False when out of memory (entries not refreshed keep what they had). */
bool rows_refresh_medians(eng_engine *e, rows_median_cache *c, uint32_t budget);
void rows_median_cache_free(rows_median_cache *c);

/* Makes *rows hold at least `need` rows (grows by doubling). False when
 * out of memory (the old array is kept). */
bool rows_reserve(src_row **rows, uint32_t *cap, uint32_t need);

/* Fills rows with every source of `e` (and, when `overlay`, the overlay's
 * entry last) and returns how many; `cap` must hold eng_source_count(e)
 * (+1). Sources without results yet have have = false. Medians come from
 * `med` (NULL: none, have_med false). */
uint32_t rows_gather(eng_engine *e, src_row *rows, uint32_t cap, bool overlay,
		     const rows_median_cache *med);

/* Sorts rows[0..n-1] by `sort` (largest first; names A to Z), rows without
 * results last, ties by name. */
void rows_sort(src_row *rows, uint32_t n, row_sort sort, bool gpu_on);

/* Work counter c of w per frame as the tables show it: 1234567, 12.3M,
 * 1.2G; "n/a" where not counted. */
void rows_count_text(const source_profiler_work_t *w, int c, char *buf, size_t size);

/* The work columns of a CSV row for `key` (",frames,7 averages a frame"),
 * as the profiler's own CSV writes them: n/a for a counter not counted;
 * 0 frames and n/a while counting is on and nothing was counted; empty
 * fields while it is off. */
void rows_work_fields(FILE *f, const void *key);

#endif
