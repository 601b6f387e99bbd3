#include "cli.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_u32(const char *prog, const char *opt, const char *value, uint32_t min, uint32_t max,
	     uint32_t *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || *end || errno || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a whole number from %u to %u\n", prog, opt,
			value, min, max);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

bool cli_double(const char *prog, const char *opt, const char *value, double min, double max,
		double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(value, &end);
	if (!*value || isspace((unsigned char)value[0]) || *end || errno || !isfinite(v) || v < min ||
	    v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g\n", prog, opt, value, min,
			max);
		return false;
	}
	*out = v;
	return true;
}

bool cli_size(const char *prog, const char *opt, const char *value, uint32_t *w, uint32_t *h)
{
	const char *x = strchr(value, 'x');
	char wbuf[16];
	if (!x || (size_t)(x - value) >= sizeof wbuf) {
		fprintf(stderr, "%s: %s: '%s' is not WIDTHxHEIGHT (e.g. 1280x720)\n", prog, opt,
			value);
		return false;
	}
	memcpy(wbuf, value, (size_t)(x - value));
	wbuf[x - value] = '\0';
	char wopt[64], hopt[64];
	snprintf(wopt, sizeof wopt, "%s width", opt);
	snprintf(hopt, sizeof hopt, "%s height", opt);
	return cli_u32(prog, wopt, wbuf, 64, 8192, w) && cli_u32(prog, hopt, x + 1, 64, 8192, h);
}

bool cli_listen(const char *prog, const char *opt, const char *value, char *addr,
		size_t addr_size, uint16_t *port)
{
	const char *colon = value[0] == '[' ? strstr(value, "]:") : strrchr(value, ':');
	if (value[0] == '[' && colon)
		colon++; /* "[v6]:PORT": the colon after the bracket */
	const char *port_text = colon ? colon + 1 : value;
	char host[64] = "";
	bool ok = true;
	if (colon) {
		const char *h = value;
		size_t n = (size_t)(colon - value);
		if (value[0] == '[') {
			h++;
			n -= 2;
		}
		if (n == 0 || n >= sizeof host || n >= addr_size) {
			ok = false;
		} else {
			memcpy(host, h, n);
			host[n] = '\0';
			unsigned char bin[16];
			ok = value[0] == '[' ? inet_pton(AF_INET6, host, bin) == 1
					    : (strcmp(host, "localhost") == 0 ||
					       inet_pton(AF_INET, host, bin) == 1);
		}
	}
	char *end = NULL;
	errno = 0;
	unsigned long p = strtoul(port_text, &end, 10);
	if (!ok || !isdigit((unsigned char)port_text[0]) || *end || errno || p > 65535) {
		fprintf(stderr,
			"%s: %s: '%s' is not [ADDR:]PORT (PORT 0 to 65535, 0: any free one; ADDR a "
			"numeric address such as 127.0.0.1 or [::1], or localhost)\n",
			prog, opt, value);
		return false;
	}
	snprintf(addr, addr_size, "%s", host);
	*port = (uint16_t)p;
	return true;
}

void cli_remove_made(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* A link that dangled before: the file it names goes, the link
		 * stays. */
		char *target = realpath(path, NULL);
		if (target)
			remove(target);
		free(target);
		return;
	}
	remove(path);
}

/* A path not there yet as its folder's real path and its name, into out
 * (the path as given where the folder cannot be resolved). */
static void canonical(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	char *real = realpath(dir, NULL);
	if (real)
		snprintf(out, size, "%s/%s", real, slash ? slash + 1 : path);
	else
		snprintf(out, size, "%s", path);
	free(real);
}

/* Whether a and b name one regular file (or one path not there yet). */
static bool same_output(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ta = stat(a, &sa) == 0, tb = stat(b, &sb) == 0;
	if (ta && tb)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ta != tb)
		return false;
	char ca[8200], cb[8200];
	canonical(a, ca, sizeof ca);
	canonical(b, cb, sizeof cb);
	return !strcmp(ca, cb);
}

bool cli_outputs_apart(const char *prog, const char *const *opts, const char *const *paths,
		       int n)
{
	for (int i = 0; i < n; i++)
		for (int k = i + 1; paths[i] && k < n; k++)
			if (paths[k] && same_output(paths[i], paths[k])) {
				fprintf(stderr, "%s: %s '%s' and %s '%s' are the same file: one would "
						"overwrite the other\n",
					prog, opts[i], paths[i], opts[k], paths[k]);
				return false;
			}
	return true;
}

bool cli_check_writable(const char *prog, const char *opt, const char *path)
{
	if (!path)
		return true;
	struct stat st;
	bool existed = stat(path, &st) == 0;
	FILE *f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "%s: %s: cannot write '%s': %s\n", prog, opt, path, strerror(errno));
		return false;
	}
	fclose(f);
	if (!existed)
		cli_remove_made(path);
	return true;
}

bool cli_list(const char *prog, const char *opt, const char *value, size_t max_len,
	      bool (*item)(char *piece, void *user), void *user)
{
	size_t len = strlen(value);
	if (len > max_len) {
		fprintf(stderr, "%s: %s: the list is longer than %zu characters\n", prog, opt,
			max_len);
		return false;
	}
	char *buf = malloc(len + 1);
	if (!buf) {
		fprintf(stderr, "%s: %s: out of memory\n", prog, opt);
		return false;
	}
	memcpy(buf, value, len + 1);
	/* Split by hand: strtok_r skipped empty items ("1,,2", a trailing
	 * comma), so a typo read as a shorter list. */
	bool ok = true;
	unsigned n = 1;
	for (char *t = buf; ok; n++) {
		char *comma = strchr(t, ',');
		if (comma)
			*comma = '\0';
		if (!*t) {
			fprintf(stderr, "%s: %s: item %u of '%.60s%s' is empty\n", prog, opt, n, value,
				len > 60 ? "..." : "");
			ok = false;
		} else {
			ok = item(t, user);
		}
		if (!comma)
			break;
		t = comma + 1;
	}
	free(buf);
	return ok;
}
