/* Output files written whole or not at all. A regular file (or a path not
 * there yet) is written beside itself ("PATH.tmp-PID", made new) and
 * renamed over the path only once every byte is on the disk, so that a
 * full disk or an error leaves the file as it was, never truncated; a
 * link is written beside the file it names. Written in place: a pipe, a
 * device (/dev/stdout), the file stdout or stderr writes to (added to,
 * not emptied), a dangling link, and a path where no file can be
 * made beside it (a folder not writable); where the rename is refused (a
 * bind-mounted file) the finished file is copied over it, as it is
 * where the file's owner or group is not this process's and cannot be
 * given to the new file (it keeps its owner, group and permissions). */
#ifndef DEMOS_OUT_FILE_H
#define DEMOS_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct out_file {
	FILE *f;        /* write here between out_open and out_commit */
	const char *path;
	char target[4096]; /* the path, or the file a link names */
	char tmp[4200];    /* "" when written in place */
	bool copy;         /* its owner cannot be kept by a rename: copied over */
} out_file;

/* Opens path for writing ("w" or "wb"); NULL with errno set on failure. */
FILE *out_open(out_file *o, const char *path, const char *mode);
/* Flushes, syncs and closes; renames the temporary file over the path.
 * False, with errno set and the temporary file removed, when anything
 * failed (a write, the close), the path then untouched (unless written
 * in place). */
bool out_commit(out_file *o);
/* Closes and removes the temporary file: the path stays as it was. */
void out_abandon(out_file *o);
/* Removes every temporary file of an out_file not yet committed or
 * abandoned; async-signal-safe (a second Ctrl-C ends the process at once,
 * and calls it first). */
void out_remove_temporaries(void);
/* Whether the file is written in place (a failure then leaves it cut). */
bool out_in_place(const out_file *o);
/* Whether path names the same file as other (both exist). */
bool out_same_file(const char *path, const char *other);

#endif
