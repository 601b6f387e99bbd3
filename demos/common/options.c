/* The table-driven option parser (options.h). Values are checked by cli.c's
 * parsers, so every program words a bad number or size the same way. */
#include "options.h"
#include "cli.h"

#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* Rows a table may have (the suggestion search keeps their names on the
 * stack). */
#define OPT_MAX_ROWS 128
/* Longest option name opt_parse looks up ("--name" before any '='). */
#define OPT_MAX_NAME 64

/* Under the fuzzers (clang, -fsanitize=fuzzer), tracing every comparison
 * of the distance table makes parsing a mistyped option many times slower
 * (docs/testing.md, "Fuzzing") for branches with nothing to explore: the
 * table is left uninstrumented. */
#if defined(__clang__) && __clang_major__ >= 13
#define OPT_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define OPT_NO_COVERAGE
#endif

OPT_NO_COVERAGE unsigned opt_edit_distance(const char *a, const char *b)
{
	/* Optimal string alignment distance over three rolling rows: row i
	 * needs rows i-1 (insert, delete, substitute) and i-2 (swap). */
	enum { N = 64 };
	size_t la = strnlen(a, N - 1), lb = strnlen(b, N - 1);
	unsigned rows[3][N];
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i - 2 + 3) % 3];
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + cost < best)
				best = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

/* How far off a name may be and still be a likely typo: one slip in a
 * short word, up to three in a long one; a one-letter name is near every
 * other letter, so never. Leading dashes do not count. */
static unsigned typo_limit(const char *name)
{
	while (*name == '-')
		name++;
	size_t len = strlen(name);
	return len <= 1 ? 0 : len <= 3 ? 1 : len <= 6 ? 2 : 3;
}

int opt_suggest(const char *word, const char *const *names, size_t n)
{
	int best = -1, prefix = -1, prefixes = 0;
	unsigned best_d = ~0u;
	size_t wlen = strlen(word);
	const char *core = word;
	while (*core == '-')
		core++;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		size_t nlen = strlen(names[i]);
		if (strlen(core) >= 2 && wlen < nlen && !strncmp(names[i], word, wlen)) {
			prefix = (int)i;
			prefixes++;
		}
		/* Lengths further apart than the limit are further apart in
		 * distance too: no need to compute it. */
		unsigned limit = typo_limit(names[i]);
		if ((wlen > nlen ? wlen - nlen : nlen - wlen) > limit)
			continue;
		unsigned d = opt_edit_distance(word, names[i]);
		if (d <= limit && d < best_d) {
			best_d = d;
			best = (int)i;
		}
	}
	if (best >= 0)
		return best;
	return prefixes == 1 ? prefix : -1;
}

/* "a, b or c" (sep ", ", last " or "), or "a|b|c". */
static void join(char *out, size_t size, const char *const *names, size_t n, const char *sep,
		 const char *last_sep)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? last_sep : sep, names[i]);
}

void opt_bad_choice(const char *prog, const char *opt, const char *value,
		    const char *const *names, size_t n)
{
	char list[512];
	join(list, sizeof list, names, n, ", ", " or ");
	int near = opt_suggest(value, names, n);
	if (near >= 0)
		fprintf(stderr, "%s: %s: '%s' is not %s; did you mean '%s'?\n", prog, opt, value, list,
			names[near]);
	else
		fprintf(stderr, "%s: %s: '%s' is not %s\n", prog, opt, value, list);
}

static size_t count_choices(const char *const *choices)
{
	size_t n = 0;
	while (choices[n])
		n++;
	return n;
}

int opt_choice(const char *prog, const char *opt, const char *value,
	       const char *const *choices)
{
	size_t n = count_choices(choices);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(value, choices[i]))
			return (int)i;
	opt_bad_choice(prog, opt, value, choices, n);
	return -1;
}

static const opt_def *find(const opt_parser *p, const char *name)
{
	for (size_t i = 0; i < p->n_opts; i++) {
		const opt_def *d = &p->opts[i];
		if (!strcmp(d->name, name) || (d->alias && !strcmp(d->alias, name)))
			return d;
	}
	return NULL;
}

/* The option name of an argument: all of it, or what comes before '='
 * in "--name=value" (then *value points after the '='). False when the
 * name is longer than any option's. */
static bool split(const char *arg, char name[OPT_MAX_NAME], const char **value)
{
	const char *eq = arg[0] == '-' ? strchr(arg, '=') : NULL;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	*value = eq ? eq + 1 : NULL;
	if (len >= OPT_MAX_NAME)
		return false;
	memcpy(name, arg, len);
	name[len] = '\0';
	return true;
}

static void unknown(const opt_parser *p, const char *name)
{
	const char *names[OPT_MAX_ROWS];
	assert(p->n_opts <= OPT_MAX_ROWS);
	for (size_t i = 0; i < p->n_opts; i++)
		names[i] = p->opts[i].name;
	/* A word without dashes may be an option written without them. */
	char dashed[OPT_MAX_NAME + 2];
	const char *word = name;
	if (name[0] != '-') {
		snprintf(dashed, sizeof dashed, "--%s", name);
		word = dashed;
	}
	int near = opt_suggest(word, names, p->n_opts);
	if (near >= 0)
		fprintf(stderr, "%s: unknown option '%s'; did you mean '%s'? (see --help)\n", p->prog,
			name, names[near]);
	else
		fprintf(stderr, "%s: unknown option '%s' (see --help)\n", p->prog, name);
}

static void store(void *opts, size_t offset, const void *value, size_t size)
{
	memcpy((char *)opts + offset, value, size);
}

static bool apply(const opt_parser *p, const opt_def *d, const char *v, void *opts)
{
	switch (d->kind) {
	case OPT_U32: {
		uint32_t u;
		if (!cli_u32(p->prog, d->name, v, (uint32_t)d->min, (uint32_t)d->max, &u))
			return false;
		store(opts, d->offset, &u, sizeof u);
		return true;
	}
	case OPT_DOUBLE: {
		double x;
		if (!cli_double(p->prog, d->name, v, d->min, d->max, &x))
			return false;
		x *= d->scale != 0 ? d->scale : 1.0;
		store(opts, d->offset, &x, sizeof x);
		return true;
	}
	case OPT_DIR: {
		struct stat st;
		int there = stat(v, &st) == 0;
		if (!there || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s: '%s' is not a folder (%s)\n", p->prog, d->name, v,
				there ? "a file" : strerror(errno));
			return false;
		}
	}
		/* fall through */
	case OPT_STRING:
		if (d->max > 0 && (double)strlen(v) > d->max) {
			fprintf(stderr, "%s: %s: longer than %.0f characters\n", p->prog, d->name,
				d->max);
			return false;
		}
		store(opts, d->offset, &v, sizeof v);
		return true;
	case OPT_SIZE: {
		uint32_t w, h;
		if (!cli_size(p->prog, d->name, v, &w, &h))
			return false;
		store(opts, d->offset, &w, sizeof w);
		store(opts, d->offset2, &h, sizeof h);
		return true;
	}
	case OPT_CHOICE: {
		int i = opt_choice(p->prog, d->name, v, d->choices);
		if (i < 0)
			return false;
		/* The field is an int or an enum of int's size (the table's
		 * owner asserts so). */
		int value = d->values ? d->values[i] : i;
		store(opts, d->offset, &value, sizeof value);
		return true;
	}
	case OPT_CUSTOM:
		return d->parse(p, d->name, v, opts);
	case OPT_FLAG:
	case OPT_FLAG_OFF:
	case OPT_EXIT:
		break;
	}
	assert(!"an option kind without a value reached apply");
	return false;
}

int opt_parse(const opt_parser *p, int argc, char **argv, void *opts)
{
	for (int i = 1; i < argc; i++) {
		if (p->positional && (argv[i][0] != '-' || !argv[i][1])) {
			if (!p->positional(p, argv[i], opts))
				return -1;
			continue;
		}
		char name[OPT_MAX_NAME];
		const char *inline_value;
		bool fits = split(argv[i], name, &inline_value);
		const opt_def *d = fits ? find(p, name) : NULL;
		if (!d) {
			unknown(p, fits ? name : argv[i]);
			return -1;
		}
		if (d->kind == OPT_FLAG || d->kind == OPT_FLAG_OFF || d->kind == OPT_EXIT) {
			if (inline_value) {
				fprintf(stderr, "%s: %s takes no value ('%s')\n", p->prog, d->name,
					argv[i]);
				return -1;
			}
			if (d->kind == OPT_EXIT) {
				d->run(p, opts);
				return 1;
			}
			bool on = d->kind == OPT_FLAG;
			store(opts, d->offset, &on, sizeof on);
			continue;
		}
		const char *v = inline_value;
		if (!v && i + 1 < argc) {
			v = argv[++i];
			/* "--csv --headless": the file name is missing, not
			 * called "--headless". */
			char next[OPT_MAX_NAME];
			const char *ignored;
			if (v[0] == '-' && v[1] == '-' && split(v, next, &ignored) && find(p, next)) {
				fprintf(stderr,
					"%s: %s needs a value (the next argument, '%s', is an option)\n",
					p->prog, d->name, v);
				return -1;
			}
		}
		if (!v || !*v) {
			fprintf(stderr, "%s: %s needs a value (see --help)\n", p->prog, d->name);
			return -1;
		}
		if (!apply(p, d, v, opts))
			return -1;
	}
	return 0;
}

/* Where help texts start by default: options and their values fit in 24
 * columns. */
#define HELP_COLUMN 26

void opt_print_help(const opt_parser *p, FILE *f)
{
	const int column = p->help_column ? (int)p->help_column : HELP_COLUMN;
	if (p->usage)
		fputs(p->usage, f);
	for (size_t i = 0; i < p->n_opts; i++) {
		const opt_def *d = &p->opts[i];
		char left[256];
		int len = snprintf(left, sizeof left, "  %s%s%s", d->name, d->alias ? ", " : "",
				   d->alias ? d->alias : "");
		if (d->kind != OPT_FLAG && d->kind != OPT_FLAG_OFF && d->kind != OPT_EXIT) {
			if (d->arg) {
				len += snprintf(left + len, sizeof left - (size_t)len, " %s", d->arg);
			} else if (d->choices) {
				char list[200];
				join(list, sizeof list, d->choices, count_choices(d->choices), "|",
				     "|");
				len += snprintf(left + len, sizeof left - (size_t)len, " %s", list);
			}
		}
		fputs(left, f);
		if (len >= column - 1)
			fprintf(f, "\n%*s", column, "");
		else
			fprintf(f, "%*s", column - len, "");
		for (const char *h = d->help ? d->help : ""; *h; h++) {
			fputc(*h, f);
			if (*h == '\n' && h[1])
				fprintf(f, "%*s", column, "");
		}
		fputc('\n', f);
	}
	if (p->tail)
		fputs(p->tail, f);
}
