/* srcprof-bench: the GPU cost of each source, measured; what profiling
 * costs; how both grow with the number of sources. Headless. */
#include "bench.h"
#include "bench_compare.h"
#include "bench_measure.h"
#include "bench_progress.h"
#include "cli.h"

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

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmp_main(argc - 1, argv + 1);
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
