#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files being written, for out_remove_temporaries: slots
 * taken and given back with atomics, read by a signal handler. */
#define MAX_OPEN 8
static _Atomic(const char *) g_open[MAX_OPEN];

static void track(out_file *o)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		const char *none = NULL;
		if (atomic_compare_exchange_strong(&g_open[i], &none, o->tmp))
			return;
	}
}

static void untrack(out_file *o)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		const char *mine = o->tmp;
		if (atomic_compare_exchange_strong(&g_open[i], &mine, NULL))
			return;
	}
}

void out_remove_temporaries(void)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		const char *p = atomic_load(&g_open[i]);
		if (p && p[0])
			unlink(p);
	}
}

/* Whether st is the file fd writes to. */
static bool is_fd(const struct stat *st, int fd)
{
	struct stat f;
	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev && f.st_ino == st->st_ino;
}

/* Opens path itself, as before there was a file beside it. */
static FILE *in_place(out_file *o, const char *mode)
{
	o->tmp[0] = '\0';
	o->f = fopen(o->path, mode);
	return o->f;
}

FILE *out_open(out_file *o, const char *path, const char *mode)
{
	*o = (out_file){.path = path};
	/* A link is written through: beside the file it names, which is
	 * renamed over, so that the link stays a link. */
	char *real = NULL;
	struct stat st;
	bool there = lstat(path, &st) == 0;
	if (there && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		there = real && stat(real, &st) == 0;
		if (!real)
			return in_place(o, mode); /* dangling: fopen makes its target */
	}
	if (there && !S_ISREG(st.st_mode)) {
		free(real);
		return in_place(o, mode);
	}
	int std = there && is_fd(&st, STDOUT_FILENO)	 ? STDOUT_FILENO
		  : there && is_fd(&st, STDERR_FILENO) ? STDERR_FILENO
							: -1;
	if (std >= 0) {
		/* The file stdout or stderr writes to (--csv /dev/stdout > log):
		 * written through that descriptor, at its place in the file,
		 * never replaced or emptied. */
		free(real);
		fflush(std == STDOUT_FILENO ? stdout : stderr);
		int fd = dup(std);
		o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!o->f && fd >= 0)
			close(fd);
		return o->f;
	}
	const char *target = real ? real : path;
	int n = snprintf(o->target, sizeof o->target, "%s", target);
	int m = n >= 0 && (size_t)n < sizeof o->target
			? snprintf(o->tmp, sizeof o->tmp, "%s.tmp-%ld", target, (long)getpid())
			: -1;
	free(real);
	/* Made new (O_EXCL), never through a link planted at its name. */
	int fd = m >= 0 && (size_t)m < sizeof o->tmp
			 ? open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666)
			 : -1;
	if (fd < 0) {
		/* No file can be made beside it (a folder not writable, a name
		 * at its longest): written in place, as it can be. */
		return in_place(o, mode);
	}
	o->f = fdopen(fd, mode);
	if (!o->f) {
		int err = errno;
		close(fd);
		remove(o->tmp);
		o->tmp[0] = '\0';
		errno = err;
		return NULL;
	}
	/* The file keeps its owner, group and permissions. Where it is
	 * another's and the new file cannot be given to them (not root), the
	 * finished file is copied over it instead of renamed. */
	if (there) {
		if ((st.st_uid != geteuid() || st.st_gid != getegid()) &&
		    fchown(fd, st.st_uid, st.st_gid) != 0)
			o->copy = true;
		fchmod(fd, st.st_mode & 0777);
	}
	track(o);
	return o->f;
}

/* Copies the finished file beside the target over the target in place,
 * where it cannot be renamed over (a bind-mounted file, a sticky folder
 * of another owner's file). */
static bool copy_over(out_file *o)
{
	FILE *in = fopen(o->tmp, "rb"), *out = in ? fopen(o->target, "wb") : NULL;
	bool ok = in && out;
	char buf[1 << 16];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	ok = ok && !ferror(in);
	int err = errno;
	if (out && fclose(out) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (in)
		fclose(in);
	errno = err;
	return ok;
}

bool out_commit(out_file *o)
{
	if (!o->f) {
		errno = EBADF;
		return false;
	}
	errno = 0;
	bool ok = fflush(o->f) == 0 && !ferror(o->f) && (!o->tmp[0] || fsync(fileno(o->f)) == 0);
	int err = errno ? errno : EIO;
	if (fclose(o->f) != 0 && ok) {
		ok = false;
		err = errno;
	}
	o->f = NULL;
	if (o->tmp[0]) {
		if (ok && (o->copy || rename(o->tmp, o->target) != 0)) {
			ok = copy_over(o);
			err = errno;
		}
		remove(o->tmp);
		untrack(o);
		o->tmp[0] = '\0';
	}
	if (!ok)
		errno = err;
	return ok;
}

void out_abandon(out_file *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0]) {
		remove(o->tmp);
		untrack(o);
	}
	o->tmp[0] = '\0';
}

bool out_in_place(const out_file *o)
{
	return !o->tmp[0];
}

bool out_same_file(const char *path, const char *other)
{
	struct stat a, b;
	return stat(path, &a) == 0 && stat(other, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}
