/* The demo's last action in one line: printed as it happens and shown in
 * the overlay's header. Every part that acts (the keys, the files they
 * write, the run's options) says what it did here, so none of them calls
 * back into the app to be heard. */
#ifndef DEMOS_STATUS_LINE_H
#define DEMOS_STATUS_LINE_H

#include <stdbool.h>

typedef struct status_line {
	char text[256]; /* the last action, shown in the overlay */
	bool failed;    /* a file a key or --log asked for was not written */
} status_line;

/* Sets the line and prints it on stdout (one line per action). */
void status_say(status_line *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A file that failed: the line, printed on stderr after the program's
 * name, and `failed` set (the run's exit status 1 at the end). */
void status_fail(status_line *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
