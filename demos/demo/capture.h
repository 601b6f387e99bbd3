/* Files the demo writes: names that never collide, and a record in each
 * file of what it measured.
 *
 * Names: <dir>/srcprof-<kind>-<YYYYMMDD>-<HHMMSS>-<NNN>.<ext>, local time,
 * NNN the first sequence number from 001 whose file does not exist yet;
 * the file is created exclusively, so two captures in one second, or two
 * runs in one directory, each keep their own file.
 *
 * Record: CSV files start with '#' lines (program and version, scene and
 * source count, API, device, driver, GPU timing mode, when the run
 * started, when the file was written, the frame, units); a trace gets the
 * same under the JSON's "metadata" key; a PNG in a tEXt chunk
 * ("Comment"). docs/files.md describes them.
 */
#ifndef DEMOS_CAPTURE_H
#define DEMOS_CAPTURE_H

#include "engine/engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* What the files of one run say about it (filled by the caller; the
 * device side is read from the engine when a file is written). */
typedef struct capture_meta {
	const char *scene;
	uint32_t sources;   /* the scene's sources now (the overlay not counted) */
	uint64_t frame;     /* the frame the capture was taken at */
	time_t started;     /* when the run started */
	bool gpu_on;        /* GPU timing on now */
	uint32_t gpu_every; /* one frame in this many GPU-timed */
} capture_meta;

/* Creates a new file as above and returns it open for writing, its path
 * in path; NULL with errno set when it cannot (path holds the last name
 * tried). */
FILE *capture_open(const char *dir, const char *kind, const char *ext, char *path, size_t size);

/* Writes the '#' lines for a CSV file; `what` names its content ("per-
 * source snapshot", "log, one row per source per second"). */
void capture_write_csv_header(FILE *f, const capture_meta *m, const char *what);

/* Writes the finished trace capture (source_profiler_trace_write_json)
 * with the record under "metadata". 0, or -1 when writing failed. */
int capture_write_trace(FILE *f, const capture_meta *m);

/* Adds the record to the PNG at path as a tEXt chunk (nothing for a pipe
 * or a device). False when the file is not a PNG or cannot be rewritten. */
bool capture_note_png(const char *path, const capture_meta *m);

/* Whether the profiler has an entry for the overlay (it is written as a
 * row of its own in snapshots), and how many of a snapshot's `rows` are
 * sources then: what the messages count, as everywhere else. */
bool capture_has_overlay(void);
int capture_sources(int rows);

/* "2026-12-01T08:35:12+0100" */
void capture_format_time(time_t t, char *buf, size_t size);

#endif
