/* The outputs srcprof-demo writes at the end (demo_out.h). */
#include "demo_out.h"

#include "cli.h"
#include "demo_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PROG DEMO_PROG

bool demo_out_reserve(demo_out *out, const char *opt, const char *path)
{
	*out = (demo_out){.opt = opt, .path = path};
	if (!path)
		return true;
	struct stat st;
	out->created = stat(path, &st) != 0;
	if (out->created) {
		out->reserved = cli_check_writable(PROG, opt, path);
		return out->reserved;
	}
	out->f = fopen(path, "a");
	if (!out->f) {
		fprintf(stderr, PROG ": %s: cannot write '%s': %s\n", opt, path, strerror(errno));
		return false;
	}
	out->reserved = true;
	return true;
}

/* Whether fd is the same file as fd `other`. */
static bool same_file(const struct stat *st, int other)
{
	struct stat o;
	return fstat(other, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

FILE *demo_out_begin(demo_out *out)
{
	struct stat st;
	if (!out->f) {
		/* Not there at the start: made now, beside its path. */
		out->f = out_open(&out->of, out->path, "w");
		if (!out->f)
			fprintf(stderr, PROG ": %s: cannot write '%s': %s\n", out->opt, out->path,
				strerror(errno));
		return out->f;
	}
	int fd = fileno(out->f);
	if (fstat(fd, &st) != 0) {
		fprintf(stderr, PROG ": %s: cannot stat '%s': %s\n", out->opt, out->path,
			strerror(errno));
		fclose(out->f);
		out->f = NULL;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || same_file(&st, 1) || same_file(&st, 2))
		return out->f;
	fclose(out->f);
	out->f = out_open(&out->of, out->path, "w");
	if (!out->f) {
		fprintf(stderr, PROG ": %s: cannot write beside '%s': %s\n", out->opt, out->path,
			strerror(errno));
		if (out->created)
			cli_remove_made(out->path);
	}
	return out->f;
}

bool demo_out_end(demo_out *out, bool written)
{
	bool ok, via_of = out->of.f != NULL, beside = via_of && !out_in_place(&out->of);
	int err = 0;
	if (via_of) {
		if (written) {
			ok = out_commit(&out->of);
		} else {
			err = errno;
			out_abandon(&out->of);
			ok = false;
		}
	} else {
		ok = out->f && written;
		if (!ok)
			err = errno;
		if (out->f && fclose(out->f) != 0 && ok)
			ok = false;
	}
	if (!ok && !err)
		err = errno;
	out->f = NULL;
	if (ok)
		return true;
	if (out->created && !beside)
		cli_remove_made(out->path); /* written in place: cut short */
	fprintf(stderr, PROG ": %s: writing '%s' failed (%s)%s\n", out->opt, out->path,
		strerror(err ? err : EIO), beside && !out->created ? "; it is left as it was" : "");
	return false;
}

void demo_out_discard(demo_out *out)
{
	if (!out->f)
		return;
	fclose(out->f);
	out->f = NULL;
	if (out->created)
		cli_remove_made(out->path);
}
