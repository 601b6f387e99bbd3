/* Output files written whole or not at all. A regular file (or a path not
 * there yet) is written beside itself ("PATH.tmp-PID") and renamed over
 * the path only when every byte reached the disk, so that a full disk or
 * an error leaves the file as it was, never truncated; a pipe, a device
 * (/dev/stdout) or a link is written in place, as it cannot be renamed
 * over. */
#ifndef DEMOS_OUT_FILE_H
#define DEMOS_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct out_file {
	FILE *f;        /* write here between out_open and out_commit */
	const char *path;
	char tmp[4200]; /* "" when written in place */
} out_file;

/* Opens path for writing ("w" or "wb"); NULL with errno set on failure. */
FILE *out_open(out_file *o, const char *path, const char *mode);
/* Flushes and closes; renames the temporary file over the path. False,
 * with errno set and the temporary file removed, when anything failed
 * (a write, the close, the rename), the path then untouched. */
bool out_commit(out_file *o);
/* Closes and removes the temporary file: the path stays as it was. */
void out_abandon(out_file *o);
/* Whether path names the same file as other (both exist). */
bool out_same_file(const char *path, const char *other);

#endif
