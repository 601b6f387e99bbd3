/* srcprof-demo's outputs written at the end of a run (--csv, --pass-csv,
 * --trace): checked at the start, so that a bad path fails before any
 * work, and written whole at the end, so that a run that fails leaves an
 * older file as it was. Every failure is said on stderr, naming the
 * option and the path. */
#ifndef DEMOS_DEMO_OUT_H
#define DEMOS_DEMO_OUT_H

#include "out_file.h"

#include <stdbool.h>
#include <stdio.h>

/* An output written at the end (--csv, --pass-csv, --trace): opened at the
 * start without truncating, so a bad path fails before any work and a run
 * that fails before writing leaves an older file as it was (and no new
 * empty one). */
typedef struct demo_out {
	FILE *f;       /* the file that was there, held open from the start */
	const char *opt, *path;
	bool reserved; /* the option was given and its path can be written */
	bool created;  /* the file did not exist: none is made until written */
	out_file of;  /* a regular file's contents, written beside it (out_file.h) */
} demo_out;

/* Checks `path` now, so a bad one fails before any work. A file that is
 * there is held open for appending (emptied by demo_out_begin); one that is
 * not is made and removed again, and only made for good when written: a
 * run that ends at once (a second Ctrl-C) leaves no empty file behind.
 * path NULL: the option was not given (true, nothing reserved). */
bool demo_out_reserve(demo_out *out, const char *opt, const char *path);
/* Where a file's contents go: a regular file is written beside itself
 * and renamed over it by demo_out_end, so that a failed write leaves it as it
 * was; a pipe, a device, or the file stdout or stderr writes to (--csv
 * /dev/stdout >> run.log) is written as it is. NULL, said, when that
 * fails. */
FILE *demo_out_begin(demo_out *out);
/* Closes what demo_out_begin opened, renaming a regular file's contents over
 * it when `written`; false, said with the error, when anything failed
 * (the file then as it was, or gone if this run made it). */
bool demo_out_end(demo_out *out, bool written);
/* A run that ended before writing: the file goes if this run made it. */
void demo_out_discard(demo_out *out);

#endif
