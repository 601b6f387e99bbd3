/* srcprof-bench compare's program: its files loaded (each --runs file a
 * side's runs), checked against each other, compared, and the outputs
 * written, both or neither. bench.c's main hands it `compare ...`. */
#include "bench_compare.h"
#include "cli.h"
#include "out_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Loads a side's files, in order, into runs (CMP_MAX_RUNS at most, a
 * file of --runs N counting N); *loaded: the runs held, to free. False
 * after a message on any problem. */
static bool load_side(const char *const *files, uint32_t n_files, const char *label, brun *runs,
		      uint32_t *loaded)
{
	for (uint32_t i = 0; i < n_files; i++) {
		if (*loaded == CMP_MAX_RUNS) {
			fprintf(stderr, CMP_PROG ": %s '%s': the files before it already hold %d runs, "
					 "the most a side takes\n",
				label, files[i], CMP_MAX_RUNS);
			return false;
		}
		uint32_t n = brun_load_runs(files[i], label, &runs[*loaded], CMP_MAX_RUNS - *loaded);
		if (!n)
			return false;
		*loaded += n;
	}
	return true;
}

/* Whether compare's outputs are apart from its inputs and each other
 * (--json a.json would overwrite what it reads); else a message. */
static bool outputs_apart(const cmp_opts *o)
{
	const char *outs[2] = {o->json, o->html}, *opts[2] = {"--json", "--html"};
	for (int i = 0; i < 2; i++) {
		if (!outs[i])
			continue;
		for (uint32_t k = 0; k < o->n_base + o->n_new; k++) {
			const char *in = k < o->n_base ? o->base_files[k] : o->new_files[k - o->n_base];
			if (!strcmp(outs[i], in) || out_same_file(outs[i], in)) {
				fprintf(stderr, CMP_PROG ": %s '%s' is the input file '%s': it would be "
						 "overwritten; write elsewhere\n",
					opts[i], outs[i], in);
				return false;
			}
		}
	}
	return cli_outputs_apart(CMP_PROG, opts, outs, 2);
}

/* Compare's --json and --html, both or neither where it can (each states
 * the exit status): false after a message naming the one that cannot be
 * written, which is left as it was. */
static bool write_outputs(const cmp_opts *o, const cmp_result *r)
{
	const char *paths[2] = {o->json, o->html}, *opts[2] = {"--json", "--html"};
	out_file of[2] = {0};
	int failed = -1, committed = -1;
	for (int i = 0; i < 2 && failed < 0; i++) {
		if (!paths[i])
			continue;
		if (!out_open(&of[i], paths[i], "w")) {
			failed = i;
			break;
		}
		(i ? cmp_write_html : cmp_write_json)(of[i].f, r);
		/* Flushed here, so that a full disk shows before either lands. */
		if (fflush(of[i].f) != 0 || ferror(of[i].f))
			failed = i;
	}
	for (int i = 0; i < 2 && failed < 0; i++) {
		if (paths[i] && !out_commit(&of[i]))
			failed = i;
		else if (paths[i])
			committed = i;
	}
	if (failed < 0)
		return true;
	int err = errno;
	/* Written in place (a device, a folder where nothing can be made
	 * beside it), a file is cut where it failed. */
	bool kept[2];
	for (int i = 0; i < 2; i++) {
		kept[i] = !of[i].f || !out_in_place(&of[i]);
		out_abandon(&of[i]);
	}
	fprintf(stderr, CMP_PROG ": %s: writing '%s' failed (%s)%s", opts[failed], paths[failed],
		strerror(err), kept[failed] ? "; it is left as it was" : "");
	if (committed >= 0)
		fprintf(stderr, ", %s '%s' was written", opts[committed], paths[committed]);
	else if (paths[!failed] && kept[!failed] && kept[failed])
		fprintf(stderr, ", and so is %s '%s'", opts[!failed], paths[!failed]);
	else if (paths[!failed] && kept[!failed])
		fprintf(stderr, "; %s '%s' is left as it was", opts[!failed], paths[!failed]);
	fputc('\n', stderr);
	return false;
}

/* srcprof-bench compare ...: the exit status. */
int cmp_main(int argc, char **argv)
{
	cmp_opts o;
	int p = cmp_parse_args(argc, argv, &o);
	if (p != 0)
		return p > 0 ? 0 : 2;
	if (!outputs_apart(&o) || !cli_check_writable(CMP_PROG, "--json", o.json) ||
	    !cli_check_writable(CMP_PROG, "--html", o.html))
		return 2;
	static brun base[CMP_MAX_RUNS], nw[CMP_MAX_RUNS];
	uint32_t loaded_base = 0, loaded_new = 0;
	int status = 2;
	cmp_result r = {0};
	/* A file of --runs N holds N runs: each is one run of its side. */
	if (!load_side(o.base_files, o.n_base, "BASE", base, &loaded_base) ||
	    !load_side(o.new_files, o.n_new, "NEW", nw, &loaded_new))
		goto done;
	if (o.vs && (loaded_base < 2 || loaded_new < 2)) {
		fprintf(stderr, CMP_PROG ": BASE... vs NEW... needs two or more runs a side (%u and %u "
				 "given); for one a side: BASE.json NEW.json\n",
			loaded_base, loaded_new);
		goto done;
	}
	uint32_t n_base = loaded_base, n_new = loaded_new;
	if (!o.vs && (n_base < 2 || n_new < 2) && n_base + n_new > 2) {
		/* Runs on one side only: Welch's t needs a spread on both. */
		fprintf(stderr, CMP_PROG ": BASE '%s' holds %u run%s, NEW '%s' %u: comparing their "
				 "first runs, one a side (bench both with --runs 2 or more for runs "
				 "as samples)\n",
			o.base, n_base, n_base == 1 ? "" : "s", o.nw, n_new);
		n_base = n_new = 1;
	}
	for (uint32_t i = 0; i < n_base + n_new; i++) {
		const brun *x = i < n_base ? &base[i] : &nw[i - n_base];
		if (strcmp(x->scene, base[0].scene) != 0) {
			fprintf(stderr, CMP_PROG ": BASE '%s' ran scene '%s', %s '%s' scene '%s': "
					 "different scenes cannot be compared\n",
				o.base, base[0].scene, i < n_base ? "BASE" : "NEW", x->path, x->scene);
			goto done;
		}
	}
	if (!cmp_run(&o, base, n_base, nw, n_new, &r))
		goto done;
	if (!r.n_points) {
		fprintf(stderr, CMP_PROG ": BASE '%s' and NEW '%s' have no point in common (API, "
				 "source count, record threads)\n",
			o.base, o.nw);
		goto done;
	}
	if (!r.figures) {
		fprintf(stderr, CMP_PROG ": BASE '%s' and NEW '%s' have points in common but no "
				 "figure to compare: every sample series is empty (or zero on both sides)\n",
			o.base, o.nw);
		goto done;
	}
	status = write_outputs(&o, &r) ? r.costlier ? 1 : 0 : 2;
	cmp_print(stdout, &r, status);
done:
	cmp_free(&r);
	for (uint32_t i = 0; i < loaded_base; i++)
		brun_free(&base[i]);
	for (uint32_t i = 0; i < loaded_new; i++)
		brun_free(&nw[i]);
	return status;
}
