/* The files the hotkeys write (C, T, S, L), inside the demo app. */
#ifndef DEMOS_APP_FILES_H
#define DEMOS_APP_FILES_H

#include "app.h"

/* Sets the overlay's status line and prints it (one line per action). */
void app_say(demo_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A file that failed: the status line, printed to stderr, and the run's
 * exit status 1 at the end (file_failed). */
void app_fail(demo_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void app_write_snapshot(demo_app *a);
void app_start_trace(demo_app *a);
void app_request_screenshot(demo_app *a);
/* Writes a trace that finished and a screenshot that is ready. */
void app_files_after_frame(demo_app *a);

#endif
