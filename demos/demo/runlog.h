/* The continuous log (L, --log FILE): once a second, and once more when
 * it stops, one CSV row per source with the table's columns and its sample
 * counts, after the '#' record of capture.h, as MangoHud logs frame times. Rows are written
 * from the graphics thread between frames; nothing is allocated per row
 * (the row array grows only with the scene). */
#ifndef DEMOS_RUNLOG_H
#define DEMOS_RUNLOG_H

#include "capture.h"
#include "rows.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct runlog {
	FILE *f;           /* NULL: not logging */
	char path[1024];
	uint64_t start_ns; /* srcprof_clock_ns when the log began */
	uint64_t next_ns;  /* when the next rows are due */
	uint64_t last_ns;  /* when rows were last written (or the start) */
	uint64_t rows;     /* rows written */
	bool failed;       /* a write failed */
	src_row *buf;
	uint32_t cap;
	rows_median_cache med;
} runlog;

/* Starts logging into f (opened for writing, owned from now on) at path,
 * writing the record and the header; the first rows are due a second from
 * now_ns. */
void runlog_start(runlog *l, FILE *f, const char *path, const capture_meta *m, uint64_t now_ns);
/* After a frame: writes a row per source when a second has passed. */
void runlog_frame(runlog *l, eng_engine *e, uint64_t now_ns);
/* Writes the rows of the part of a second since the last ones (with e;
 * NULL: none), closes the log; false when any write failed. Does nothing
 * when idle. */
bool runlog_stop(runlog *l, eng_engine *e, uint64_t now_ns);
/* Frees the row array (after runlog_stop). */
void runlog_free(runlog *l);

#endif
