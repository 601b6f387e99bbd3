/* Replays inputs through LLVMFuzzerTestOneInput without libFuzzer: every
 * file named, and every file in each directory named. A crash fails the
 * test like any other; the count of inputs is printed. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz replay: cannot read %s\n", path);
		return 1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "fuzz replay: out of memory reading %s\n", path);
		return 1;
	}
	/* An exact-size copy, as libFuzzer passes it. */
	uint8_t *exact = malloc(len ? len : 1);
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

int main(int argc, char **argv)
{
	int failures = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "fuzz replay: no such file or directory %s\n", argv[i]);
			failures++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failures += replay_file(argv[i]);
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
			failures += replay_file(path);
		}
		if (d)
			closedir(d);
	}
	printf("fuzz replay: %lu inputs, %d unreadable\n", replayed, failures);
	return failures ? 1 : 0;
}
