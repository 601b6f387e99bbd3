/* srcprof-bench: the GPU cost of each source, measured; what profiling
 * costs; how both grow with the number of sources. Headless. */
#include "bench.h"
#include "bench_compare.h"
#include "bench_measure.h"
#include "bench_progress.h"
#include "cli.h"
#include "out_file.h"

#include "engine/log.h"
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PROG BENCH_PROG

#include "srcprof_git_revision.h" /* SRCPROF_GIT_REVISION, generated at build time */

static void machine_line(char *out, size_t size)
{
	char model[160] = "unknown CPU";
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');
			if (c) {
				snprintf(model, sizeof model, "%s", c + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			break;
		}
	}
	if (f)
		fclose(f);
	struct utsname u;
	uname(&u);
	snprintf(out, size, "%s, %ld cores, %s %s", model, sysconf(_SC_NPROCESSORS_ONLN), u.sysname,
		 u.release);
}

/* One run of every API and source count into pts (run 0-based, for the
 * progress line); the points measured, in order, up to the first that
 * failed or was interrupted. A failure sets *status to 1. */
static uint32_t measure_run(const bench_opts *o, bench_point *pts, uint32_t run, int *status)
{
	uint32_t n = 0, per_api = o->n_threads * o->n_points;
	for (uint32_t a = 0; a < o->n_apis && !bench_interrupted(); a++) {
		bool failed = false;
		/* Thread counts outside, source counts inside: each thread
		 * count's points are a sweep over source counts in a row. */
		for (uint32_t t = 0; t < o->n_threads && !failed; t++) {
			for (uint32_t i = 0; i < o->n_points; i++) {
				bench_point *pt = &pts[n];
				uint32_t k = t * o->n_points + i;
				bench_progress_point(o->progress,
						     o->apis[a] == ENG_API_GL ? "gl" : "vulkan",
						     o->sources[i], (run * o->n_apis + a) * per_api + k);
				bool ok = bench_run_point(o, o->apis[a], o->sources[i],
							  o->record_threads[t], pt);
				if (bench_interrupted()) {
					/* The point in progress is not finished: left out. */
					bench_point_free(pt);
					return n;
				}
				bench_progress_point_done(o->progress, ok);
				if (!ok) {
					*status = 1;
					bench_point_free(pt);
					if (k + 1 < per_api)
						fprintf(stderr,
							PROG ": %s: skipping its remaining points\n",
							pt->api);
					failed = true;
					break;
				}
				if (pt->failures)
					*status = 1;
				n++;
			}
		}
	}
	return n;
}

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
static int compare_main(int argc, char **argv)
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

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	eng_pin_allocator();
	bench_opts o;
	bench_opts_init(&o);
	int p = bench_parse_args(argc, argv, &o);
	if (p != 0)
		return p > 0 ? 0 : 2;
	if (!o.n_points) {
		o.sources[0] = o.scene->default_sources;
		o.n_points = 1;
	}
	if (!o.n_threads) {
		o.record_threads[0] = 1;
		o.n_threads = 1;
	}
	if (o.n_points * o.n_threads > BENCH_MAX_POINTS) {
		fprintf(stderr, PROG ": %u source counts x %u record thread counts: at most %d points\n",
			o.n_points, o.n_threads, BENCH_MAX_POINTS);
		return 2;
	}
	const char *outs[] = {o.json, o.csv, o.svg, o.html};
	const char *opts[] = {"--json", "--csv", "--svg", "--html"};
	if (!cli_outputs_apart(PROG, opts, outs, 4) || !cli_check_writable(PROG, "--json", o.json) ||
	    !cli_check_writable(PROG, "--csv", o.csv) || !cli_check_writable(PROG, "--svg", o.svg) ||
	    !cli_check_writable(PROG, "--html", o.html))
		return 2;
	static bench_progress progress;
	bench_progress_init(&progress, &o, isatty(STDERR_FILENO));
	o.progress = &progress;
	eng_log_set_level(ENG_LOG_WARNING);
	bench_signals_install();

	static bench_result r;
	machine_line(r.machine, sizeof r.machine);
	snprintf(r.git, sizeof r.git, "%s", SRCPROF_GIT_REVISION);
	r.started = time(NULL);
	r.planned = o.n_apis * o.n_threads * o.n_points;
	uint64_t t0 = srcprof_clock_monotonic_ns();
	int status = 0;
	r.n_points = measure_run(&o, r.points, 0, &status);
	/* --runs: the same points again; a run cut short (a failure, a
	 * signal) is left out whole, since compare pairs runs point by point. */
	for (uint32_t run = 1; run < o.runs && r.n_points && !bench_interrupted(); run++) {
		bench_point *pts = r.more[run - 1];
		uint32_t n = measure_run(&o, pts, run, &status);
		if (n == r.n_points && !bench_interrupted()) {
			r.n_more++;
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			bench_point_free(&pts[i]);
		if (!bench_interrupted())
			fprintf(stderr, PROG ": run %u of %u measured %u of its %u points: left out, "
					 "and the runs after it not made\n",
				run + 1, o.runs, n, r.n_points);
		break;
	}
	r.interrupted = bench_interrupted();
	if (r.interrupted)
		fprintf(stderr, PROG ": interrupted (%s): writing the %u points finished, marked "
				 "interrupted; a second signal ends at once\n",
			bench_signal_name(r.interrupted), r.n_points);
	if (!r.n_points) {
		fprintf(stderr, PROG ": nothing was measured; no results written\n");
		return r.interrupted ? 128 + r.interrupted : 1;
	}
	if (!r.interrupted && !bench_replay_points(&o, &r) && !bench_interrupted())
		status = 1;
	/* Interrupted during the replay: the points stand, the replay not. */
	if (!r.interrupted && bench_interrupted()) {
		r.interrupted = bench_interrupted();
		fprintf(stderr, PROG ": interrupted (%s) while replaying the profiler's calls: "
				 "writing the %u points without it; a second signal ends at once\n",
			bench_signal_name(r.interrupted), r.n_points);
	}
	bench_progress_clear(&progress);
	r.wall_s = (double)(srcprof_clock_monotonic_ns() - t0) / 1e9;
	bench_print(stdout, &o, &r);
	if (o.json && !bench_write_json(o.json, &o, &r)) {
		fprintf(stderr, PROG ": --json: writing '%s' failed (%s)\n",
			o.json, strerror(errno));
		status = 1;
	}
	if (o.csv && !bench_write_csv(o.csv, &o, &r)) {
		fprintf(stderr, PROG ": --csv: writing '%s' failed (%s)\n",
			o.csv, strerror(errno));
		status = 1;
	}
	if (o.svg && !bench_write_svg(o.svg, &o, &r)) {
		fprintf(stderr, PROG ": --svg: writing '%s' failed (%s)\n",
			o.svg, strerror(errno));
		status = 1;
	}
	if (o.html && !bench_write_html(o.html, &o, &r)) {
		fprintf(stderr, PROG ": --html: writing '%s' failed (%s)\n",
			o.html, strerror(errno));
		status = 1;
	}
	for (uint32_t i = 0; i < r.n_points; i++)
		bench_point_free(&r.points[i]);
	for (uint32_t k = 0; k < r.n_more; k++)
		for (uint32_t i = 0; i < r.n_points; i++)
			bench_point_free(&r.more[k][i]);
	/* Interrupted: 128 + the signal, as a shell reports a process it
	 * killed (130 for SIGINT, 143 for SIGTERM), though the files are
	 * written; a failure to write them still reads 1. */
	return status ? status : r.interrupted ? 128 + r.interrupted : 0;
}
