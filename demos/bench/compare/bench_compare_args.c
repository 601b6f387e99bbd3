/* `srcprof-bench compare`'s options, one row each (options.h), and its two
 * files, BASE and NEW, in that order. */
#include "bench_compare.h"
#include "cli.h"
#include "options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* --blocks N: 0 (every frame) or 3 or more; one or two medians a side
 * cannot be tested. */
static bool parse_blocks(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	cmp_opts *o = opts;
	if (!cli_u32(p->prog, opt, value, 0, 1000, &o->blocks))
		return false;
	if (o->blocks == 1 || o->blocks == 2) {
		fprintf(stderr, "%s: %s: %u blocks cannot be tested (0, or 3 or more)\n", p->prog,
			opt, o->blocks);
		return false;
	}
	return true;
}

/* BASE.json NEW.json, or BASE.json... vs NEW.json... (a file named "vs":
 * ./vs). Files are kept in order; which side they are on is settled at
 * the end (cmp_parse_args). */
static bool file_arg(const opt_parser *p, const char *arg, void *opts)
{
	cmp_opts *o = opts;
	if (!strcmp(arg, "vs")) {
		if (o->vs) {
			fprintf(stderr, "%s: 'vs' given twice\n", p->prog);
			return false;
		}
		o->vs = true;
		return true;
	}
	const char **side = o->vs ? o->new_files : o->base_files;
	uint32_t *n = o->vs ? &o->n_new : &o->n_base;
	if (*n == CMP_MAX_RUNS) {
		fprintf(stderr, "%s: at most %d runs a side, not '%s' too\n", p->prog, CMP_MAX_RUNS,
			arg);
		return false;
	}
	side[(*n)++] = arg;
	return true;
}

static void print_help(const opt_parser *p, void *opts)
{
	(void)opts;
	opt_print_help(p, stdout);
}

#define AT(field) offsetof(cmp_opts, field)

static const opt_def g_opts[] = {
	{"--threshold", NULL, OPT_DOUBLE, AT(threshold), .min = 0, .max = 1000, .scale = 0.01,
	 .arg = "PCT", .help = "a change must exceed this to count (default 5)"},
	{"--alpha", NULL, OPT_DOUBLE, AT(alpha), .min = 1e-6, .max = 0.5, .arg = "A",
	 .help = "the interval's level is 1 - A (default 0.05: 95%)"},
	{"--floor-us", NULL, OPT_DOUBLE, AT(floor_us), .min = 0, .max = 1e9, .arg = "US",
	 .help = "nor one the interval puts under this, us a frame (default 1)"},
	{"--blocks", NULL, OPT_CUSTOM, .parse = parse_blocks, .arg = "N",
	 .help = "test the medians of N blocks of consecutive frames per\n"
		 "run (default 8; 0: every frame, as if independent)"},
	{"--json", NULL, OPT_STRING, AT(json), .arg = "FILE", .help = "the comparison as JSON"},
	{"--html", NULL, OPT_STRING, AT(html), .arg = "FILE",
	 .help = "the comparison as one self-contained HTML page"},
	{"--help", "-h", OPT_EXIT, .run = print_help, .help = "this help"},
};

static const opt_parser g_parser = {
	.prog = CMP_PROG,
	.opts = g_opts,
	.n_opts = sizeof g_opts / sizeof g_opts[0],
	.usage = "usage: " CMP_PROG " BASE.json NEW.json [options]\n"
		 "       " CMP_PROG " BASE1.json BASE2.json... vs NEW1.json NEW2.json... [options]\n"
		 "Compares two srcprof-bench --json runs (the same scene): per point (API and\n"
		 "source count) and source (by name), the change of its GPU cost (the marginal\n"
		 "reference where both ran --isolate with it, else alone where both ran\n"
		 "--isolate, else in frame), CPU render and tick time, and the frame time,\n"
		 "with a 95% interval and a Mann-Whitney U test; sorted by change.\n"
		 "With two or more runs a side (files of srcprof-bench --runs N, or several\n"
		 "files with vs), each run's median is one sample and the test is Welch's t:\n"
		 "the spread between runs of one build, which one run's frames cannot show,\n"
		 "then counts (docs/bench.md).\n"
		 "Costlier (cheaper): the whole interval above the threshold and the floor\n"
		 "(below minus them), tested so (p>thr), and kept at a false-discovery rate\n"
		 "of A over every figure compared (Benjamini-Hochberg).\n"
		 "Exit status: 0 nothing got significantly costlier, 1 something did, 2 bad\n"
		 "input. Options take their value as --opt VALUE or --opt=VALUE.\n\n",
	.positional = file_arg,
	.help_column = 20,
};

int cmp_parse_args(int argc, char **argv, cmp_opts *o)
{
	*o = (cmp_opts){.threshold = 0.05, .alpha = 0.05, .floor_us = 1.0, .blocks = 8};
	int r = opt_parse(&g_parser, argc, argv, o);
	if (r != 0)
		return r;
	if (!o->vs) {
		/* BASE.json NEW.json */
		if (o->n_base != 2) {
			fprintf(stderr, o->n_base < 2 ? CMP_PROG ": needs BASE.json and NEW.json (see "
							  "--help)\n"
						      : CMP_PROG ": one BASE and one NEW file, or BASE... "
								 "vs NEW... (see --help)\n");
			return -1;
		}
		o->new_files[0] = o->base_files[1];
		o->n_base = o->n_new = 1;
	} else if (!o->n_base || !o->n_new) {
		/* Two or more runs a side: counted once the files are read, a
		 * file of --runs holding several. */
		fprintf(stderr, CMP_PROG ": BASE... vs NEW... needs files on both sides of 'vs'\n");
		return -1;
	}
	o->base = o->base_files[0];
	o->nw = o->new_files[0];
	return 0;
}
