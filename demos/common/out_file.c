#include "out_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *out_open(out_file *o, const char *path, const char *mode)
{
	*o = (out_file){.path = path};
	struct stat st;
	bool there = lstat(path, &st) == 0;
	if (there && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, mode);
		return o->f;
	}
	int n = snprintf(o->tmp, sizeof o->tmp, "%s.tmp-%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof o->tmp) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	o->f = fopen(o->tmp, mode);
	if (!o->f) {
		o->tmp[0] = '\0';
		return NULL;
	}
	/* The file keeps its permissions. */
	if (there)
		fchmod(fileno(o->f), st.st_mode & 07777);
	return o->f;
}

bool out_commit(out_file *o)
{
	if (!o->f)
		return false;
	errno = 0;
	bool ok = fflush(o->f) == 0 && !ferror(o->f);
	int err = errno ? errno : EIO;
	if (fclose(o->f) != 0 && ok) {
		ok = false;
		err = errno;
	}
	o->f = NULL;
	if (o->tmp[0]) {
		if (ok && rename(o->tmp, o->path) != 0) {
			ok = false;
			err = errno;
		}
		if (!ok)
			remove(o->tmp);
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
	if (o->tmp[0])
		remove(o->tmp);
}

bool out_same_file(const char *path, const char *other)
{
	struct stat a, b;
	return stat(path, &a) == 0 && stat(other, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}
