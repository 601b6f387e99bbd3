/* Command-line value parsing with messages that name the option. */
#ifndef DEMOS_CLI_H
#define DEMOS_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* Each returns false after printing "<prog>: <option>: <why>" to stderr. */
bool cli_u32(const char *prog, const char *opt, const char *value, uint32_t min, uint32_t max,
	     uint32_t *out);
bool cli_double(const char *prog, const char *opt, const char *value, double min, double max,
		double *out);
bool cli_size(const char *prog, const char *opt, const char *value, uint32_t *w, uint32_t *h);
/* An output file can be written (made and removed if it was not there),
 * so that a bad path fails before minutes of work; else prints and false. */
bool cli_check_writable(const char *prog, const char *opt, const char *path);
/* argv[*i] needs a value: returns it and advances *i, or prints and NULL. */
const char *cli_value(const char *prog, int argc, char **argv, int *i);

#endif
