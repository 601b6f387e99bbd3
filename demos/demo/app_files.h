/* The files the hotkeys write (C, T, S, L) and --log's: each gets a name
 * of its own (capture.h) and says what it measured. They read the model
 * (the scene, the profiler's state) and say what happened on the status
 * line; they call nothing in the app. */
#ifndef DEMOS_APP_FILES_H
#define DEMOS_APP_FILES_H

#include "model.h"
#include "runlog.h"
#include "status_line.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct app_files {
	const char *out_dir;      /* where C, T, S and L write */
	bool trace_running;       /* T's capture (or --trace's) */
	bool screenshot_pending;  /* S asked, its frame not written yet */
	bool run_shot_asked;      /* --screenshot holds the engine's one request */
	char screenshot_path[1024];
	uint64_t screenshot_frame;
	runlog log;               /* L, --log */
} app_files;

/* out_dir NULL: ".". */
void files_init(app_files *f, const char *out_dir);
/* Drops a running trace and the log's buffers (files_log_stop first). */
void files_free(app_files *f);

/* C: a CSV snapshot of every source. */
void files_write_snapshot(app_files *f, const demo_model *m, status_line *s);
/* T: a 5-second trace, written when it finishes (files_after_frame). */
void files_start_trace(app_files *f, const demo_model *m, status_line *s);
/* S: a screenshot of the next frame, written when it is ready. */
void files_request_screenshot(app_files *f, const demo_model *m, status_line *s);
/* An S screenshot still pending whose frame will not come: its file is
 * removed, said, and counted as a file that failed. */
void files_cancel_screenshot(app_files *f, status_line *s);

/* Starts the continuous log into `path` (NULL: a new file in out_dir).
 * False, said, when the file cannot be written. */
bool files_log_start(app_files *f, const demo_model *m, status_line *s, const char *path);
/* Closes the log, saying where it is and how many rows it has. */
void files_log_stop(app_files *f, const demo_model *m, status_line *s);

/* After each frame: writes a trace that finished, a screenshot that is
 * ready, and the log's rows that are due. */
void files_after_frame(app_files *f, const demo_model *m, status_line *s);

#endif
