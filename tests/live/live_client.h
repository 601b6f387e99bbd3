/* What the live view's exact-number tests (test_live_queues,
 * test_live_work) share: a GET over a socket to a running server, reading
 * its JSON, CSV and Prometheus answers. */
#ifndef LIVE_CLIENT_H
#define LIVE_CLIENT_H

#include "srcprof/live.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stdint.h>

/* GET `path` with the server's token; the body of a 200 answer (the caller
 * frees) or NULL, the start of any other answer printed. */
char *live_get(const srcprof_live *live, const char *path);

/* The snapshot's source named `name`, or NULL. */
const cJSON *live_source_named(const cJSON *snap, const char *name);
/* An integer field; -1 when absent or not a number. */
int64_t live_num(const cJSON *o, const char *key);
/* A string field; "" when absent. */
const char *live_str(const cJSON *o, const char *key);

/* Splits a CSV (in place) into its data rows: no '#' lines, no header. */
int live_csv_rows(char *csv, char **rows, int max);

/* Every row of the profiler's CSV (source_profiler_write_csv, now) is a
 * row of the live CSV (/api/v1/snapshot?format=csv) but for the type
 * column the live one adds last: every column, gpu_sum_by_queue_ns and
 * the work columns included; the live header has those before type. */
bool live_csv_equals_the_profilers(const srcprof_live *live);

/* Prometheus text (cut up in place): each sample line well formed, each
 * series once, each family's TYPE once and before its samples. */
bool live_metrics_valid(char *text);

#endif
