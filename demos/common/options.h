/* One table-driven command-line parser for the demo programs: srcprof-demo,
 * srcprof-bench, its compare, and srcprof-soak each describe their options
 * in a table of their own (demo_args.c, bench/bench_args.c,
 * bench/compare/bench_compare_args.c, soak_args.c).
 *
 * A program describes each option as a row: its name, the kind of value it
 * takes, the accepted range, where the value goes (an offset into the
 * program's options struct) and its help text. opt_parse then accepts
 * `--opt value` and `--opt=value`, reports bad values through cli.h (the
 * message names the option and the range), suggests the nearest option or
 * choice for a mistyped name ("did you mean ...?"), and opt_print_help
 * prints the help from the same rows, so that the two never disagree.
 *
 * It does not know any program's options, and it has no side effects
 * beyond the options struct and messages on stderr (stdout for help), so
 * that tests and fuzzers can drive it.
 */
#ifndef DEMOS_OPTIONS_H
#define DEMOS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum opt_kind {
	OPT_FLAG,     /* bool at offset set true; takes no value */
	OPT_FLAG_OFF, /* bool at offset set false (--no-X of what is on by default) */
	OPT_U32,      /* uint32_t at offset, a whole number in [min, max] */
	OPT_DOUBLE,   /* double at offset: the number (in [min, max]) times scale (0: 1) */
	OPT_STRING,   /* const char * at offset (argv's own string); max > 0: at most max chars */
	OPT_DIR,      /* as OPT_STRING, naming a folder that exists */
	OPT_SIZE,     /* WIDTHxHEIGHT: uint32_t at offset and at offset2, each 64 to 8192 */
	OPT_CHOICE,   /* one of choices (NULL-terminated): values[i] (or i) as an int at offset */
	OPT_CUSTOM,   /* parse(value) stores it and prints its own message when it fails */
	OPT_EXIT,     /* run() prints something; then the program exits 0 (--help) */
} opt_kind;

typedef struct opt_parser opt_parser;

typedef struct opt_def {
	const char *name;  /* "--frames" */
	const char *alias; /* another spelling ("-h"), or NULL */
	opt_kind kind;
	size_t offset, offset2;
	double min, max, scale;
	const char *const *choices; /* OPT_CHOICE */
	const int *values;          /* OPT_CHOICE: what choices[i] stores (NULL: i) */
	/* OPT_CUSTOM: false after printing "<prog>: <opt>: <why>". */
	bool (*parse)(const opt_parser *p, const char *opt, const char *value, void *opts);
	/* OPT_EXIT. */
	void (*run)(const opt_parser *p, void *opts);
	const char *arg;  /* the value in the help ("N", "FILE"); choices: NULL lists them */
	const char *help; /* help text; '\n' continues it on the next line */
} opt_def;

struct opt_parser {
	const char *prog;
	const opt_def *opts;
	size_t n_opts;
	const char *usage; /* printed before the options by opt_print_help */
	const char *tail;  /* and after them (may be NULL) */
	/* Each argument that is not an option (it does not start with '-',
	 * or it is "-" alone), in order; false after printing why. NULL: such
	 * an argument is an unknown option. */
	bool (*positional)(const opt_parser *p, const char *arg, void *opts);
	unsigned help_column; /* where opt_print_help starts the help texts (0: 26) */
};

/* Parses argv[1..argc-1] into *opts. Returns 0 to run, 1 when an OPT_EXIT
 * option ran (exit 0), -1 after a usage error was printed (exit 2). Later
 * options win over earlier ones; arguments that are not options go to
 * p->positional in order. */
int opt_parse(const opt_parser *p, int argc, char **argv, void *opts);

/* Prints usage, every option with its help, and tail. */
void opt_print_help(const opt_parser *p, FILE *f);

/* The name among names[0..n-1] nearest to `word` (edit distance with
 * transpositions, or `word` a prefix of exactly one name), when it is near
 * enough to be a likely typo; else -1. Exact matches return their index. */
int opt_suggest(const char *word, const char *const *names, size_t n);

/* The edit distance between a and b: insertions, deletions, substitutions
 * and swaps of two neighbours each count 1 (names up to 63 characters;
 * longer ones compare by their first 63). */
unsigned opt_edit_distance(const char *a, const char *b);

/* Prints "<prog>: <opt>: '<value>' is not <a, b or c>" and, when one of
 * them is near, "; did you mean '<x>'?". */
void opt_bad_choice(const char *prog, const char *opt, const char *value,
		    const char *const *names, size_t n);

/* The index of value among choices (NULL-terminated), for an OPT_CUSTOM
 * parser that stores more than an int; else -1 after opt_bad_choice. */
int opt_choice(const char *prog, const char *opt, const char *value,
	       const char *const *choices);

#endif
