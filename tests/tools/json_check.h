/* What the output checkers (bench_check, report_check) share: a failure
 * count, EXPECT that prints a failure under the checker's name and goes
 * on, reading a whole file, and a JSON number that must be there. */
#ifndef SRCPROF_JSON_CHECK_H
#define SRCPROF_JSON_CHECK_H

#include <cjson/cJSON.h>
#include <stdio.h>

extern int failures;
extern const char *check_program; /* each checker defines it: its name */

#define EXPECT(cond, ...)                                       \
	do {                                                    \
		if (!(cond)) {                                  \
			fprintf(stderr, "%s: ", check_program); \
			fprintf(stderr, __VA_ARGS__);           \
			fputc('\n', stderr);                    \
			failures++;                             \
		}                                               \
	} while (0)

/* The file's bytes and a terminating NUL (free them), or NULL. */
char *slurp(const char *path);
/* o's number `key`, or NAN and a failure when it has none. */
double num(const cJSON *o, const char *key);

#endif
