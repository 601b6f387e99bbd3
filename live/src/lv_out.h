/* A snapshot written out, in the three forms the server answers with:
 * JSON (lv_json.c: the page, /api/v1/snapshot and the stream), CSV
 * (lv_csv.c: ?format=csv) and Prometheus' text format (lv_metrics.c:
 * /metrics). Field names are those of the profiler's CSV
 * (source_profiler_write_csv), units in their names; the work counters'
 * keys in JSON and /metrics are srcprof-bench's. What the three share (the
 * names of passes and queues, the work counters' keys) is lv_out.c. */
#ifndef LV_OUT_H
#define LV_OUT_H

#include "lv_buf.h"
#include "lv_model.h"

#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The snapshot as JSON (made once, then shared): srcprof/live's "v1"
 * schema (docs/live.md). NULL when out of memory. Valid while s is held. */
const char *lv_snapshot_json(lv_snapshot *s, size_t *len);
/* Writes the snapshot as JSON, at most `limit` rows (0: all). */
void lv_snapshot_write_json(const lv_snapshot *s, const lv_info *info, uint32_t limit, lv_buf *b);
/* Writes it as CSV: a header, then one row per source. */
void lv_snapshot_write_csv(const lv_snapshot *s, const lv_info *info, lv_buf *b);
/* Writes Prometheus' text format for s. */
void lv_snapshot_write_metrics(const lv_snapshot *s, const lv_info *info, uint32_t streams,
			       lv_buf *b);

/* Each work counter's key in JSON and /metrics, in source_profiler_counter's
 * order: those of srcprof-bench's JSON. */
extern const char *const lv_work_keys[SOURCE_PROFILER_COUNTERS];

/* Pass `pass`'s name in s ("default" for a pass without one). */
const char *lv_pass_name(const lv_snapshot *s, uint32_t pass);
/* Queue `queue`'s name in s ("?" for one without). */
const char *lv_queue_name(const lv_snapshot *s, uint32_t queue);
/* More than one GPU queue installed: each source's figures per queue are
 * written too. */
bool lv_several_queues(const lv_snapshot *s);
/* Whether the device counts counter c in w. */
bool lv_work_counted(const source_profiler_work_t *w, int c);

#endif
