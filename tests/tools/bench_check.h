/* What bench_check's files share: the checks of each source of
 * srcprof-bench's JSON and of its CSV row (bench_check_sources.c), called
 * from bench_check.c's walk over the outputs. */
#ifndef SRCPROF_BENCH_CHECK_H
#define SRCPROF_BENCH_CHECK_H

#include <cjson/cJSON.h>

#include <stdbool.h>

/* Fields of a CSV line (quoted fields may hold commas and doubled quotes);
 * *next gets the next line. */
int csv_fields(const char *line, const char **next);

/* A source's "work" against --work (want) and the frames measured. */
void check_work(const cJSON *src, const char *api, bool want, double frames, int index);

/* The last 8 fields of a CSV line (--work's: no quotes or commas in them)
 * against source src's "work" (NULL: empty cells). */
void check_csv_work(const char *line, const cJSON *src, int row);

/* --isolate-rounds, from the file (main sets it before check_samples). */
extern int rounds_asked;

/* A source's samples: as many as its counts say, the GPU ones averaging
 * to its GPU average, its rounds alone to its median alone. */
void check_samples(const cJSON *src, int index);

#endif
