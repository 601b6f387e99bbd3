/* Command-line value parsing with messages that name the option: what the
 * option parser (options.h) checks each value with. */
#ifndef DEMOS_CLI_H
#define DEMOS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Each returns false after printing "<prog>: <option>: <why>" to stderr. */
bool cli_u32(const char *prog, const char *opt, const char *value, uint32_t min, uint32_t max,
	     uint32_t *out);
bool cli_double(const char *prog, const char *opt, const char *value, double min, double max,
		double *out);
bool cli_size(const char *prog, const char *opt, const char *value, uint32_t *w, uint32_t *h);
/* "[ADDR:]PORT": PORT 0 to 65535 (0: any free one); ADDR a numeric IPv4
 * address, "localhost", or an IPv6 address in brackets ("[::1]:8080"),
 * copied into addr without brackets ("" when not given). */
bool cli_listen(const char *prog, const char *opt, const char *value, char *addr,
		size_t addr_size, uint16_t *port);
/* Calls item(piece, user) for each comma-separated piece of value; false
 * when value is longer than max_len or a piece is empty ("1,,2", a
 * trailing comma; printed), or when item returns false (it prints). */
bool cli_list(const char *prog, const char *opt, const char *value, size_t max_len,
	      bool (*item)(char *piece, void *user), void *user);
/* Removes a file this program made at `path`: the file itself, or where a
 * link that dangled before points (the link stays). */
void cli_remove_made(const char *path);
/* Whether the n output files (opts[i] naming paths[i], NULL where not
 * given) are apart: two options naming one regular file (the same path,
 * or two paths to it) would overwrite each other, and are refused with a
 * message; a device or a pipe (/dev/stdout) may be named twice. */
bool cli_outputs_apart(const char *prog, const char *const *opts, const char *const *paths,
		       int n);
/* An output file can be written (made and removed if it was not there),
 * so that a bad path fails before minutes of work; else prints and false. */
bool cli_check_writable(const char *prog, const char *opt, const char *path);

#endif
