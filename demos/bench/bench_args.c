#include "bench.h"
#include "bench_compare.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define PROG BENCH_PROG

void bench_opts_init(bench_opts *o)
{
	*o = (bench_opts){
		.apis = {ENG_API_VULKAN},
		.n_apis = 1,
		.scene = scene_find("default"),
		.frames = 120,
		.warmup = 30,
		.repeat = 5,
		.width = 1280,
		.height = 720,
		.gpu_budget = 0.01,
		.isolate_rounds = BENCH_ISOLATE_ROUNDS,
	};
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options]\n"
		"       " PROG " compare BASE.json NEW.json [options]   (compare --help)\n"
		"Measures, headless, each source's GPU cost (average, p50, p95, max, share of\n"
		"the frame), frame-time statistics, and the profiler's own overhead (profiler\n"
		"off / CPU timing / CPU+GPU timing, interleaved), and what the sources add to\n"
		"the frame (against the frame with none, interleaved too); then the profiler's\n"
		"own CPU cost per source, its calls replayed without drawing. With several\n"
		"--sources, how each grows, per source and per added source.\n\n"
		"  --api vulkan|gl|both    API(s) to measure (default vulkan)\n"
		"  --scene NAME            scene (default default; srcprof-demo --list-scenes)\n"
		"  --sources N[,N...]      source counts to sweep (default: the scene's)\n"
		"  --frames N              measured frames per point, 5 to %d (default 120;\n"
		"                          the profiler's window holds %d)\n"
		"  --warmup N              frames before measuring (default 30)\n"
		"  --repeat R              interleaved overhead pairs (default 5)\n"
		"  --isolate               also time the %d costliest sources alone and compare\n"
		"  --isolate-rounds N      rounds of --isolate, 3 to %d (default %d; more resolve\n"
		"                          smaller changes in compare)\n"
		"  --gpu-budget PCT        GPU timing budget in the overhead runs (default 1)\n"
		"  --size WxH              target size (default 1280x720)\n"
		"  --json FILE, --csv FILE, --svg FILE, --html FILE   write the results (the\n"
		"                          JSON with every sample compare needs; HTML: one\n"
		"                          self-contained page)\n"
		"  --shader-dir DIR        where the built .spv shaders are\n"
		"  --help\n"
		"Progress goes to stderr: a line with an ETA on a terminal, else a line every\n"
		"10 s and one per point. Exit status: 0; 1 a point failed or an output could\n"
		"not be written; 2 bad options; 130 (SIGINT) or 143 (SIGTERM): stopped by the\n"
		"signal, the points finished written, marked interrupted (a second signal\n"
		"ends it at once).\n",
		BENCH_MAX_FRAMES, BENCH_WINDOW_SAMPLES, BENCH_ISOLATE_TOP, BENCH_ISOLATE_MAX_ROUNDS,
		BENCH_ISOLATE_ROUNDS);
}

static bool source_count(char *item, void *user)
{
	bench_opts *o = user;
	if (o->n_points == BENCH_MAX_POINTS) {
		fprintf(stderr, PROG ": --sources: at most %d counts\n", BENCH_MAX_POINTS);
		return false;
	}
	if (!cli_u32(PROG, "--sources", item, 1, 100000, &o->sources[o->n_points]))
		return false;
	o->n_points++;
	return true;
}

static bool parse_list(const char *value, bench_opts *o)
{
	o->n_points = 0;
	if (!cli_list(PROG, "--sources", value, 511, source_count, o))
		return false;
	if (!o->n_points) {
		fprintf(stderr, PROG ": --sources: '%s' has no counts\n", value);
		return false;
	}
	return true;
}

int bench_parse_args(int argc, char **argv, bench_opts *o)
{
	const char *v;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--api")) {
			static const char *const apis[] = {"vulkan", "gl", "both"};
			int c;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    (c = cli_choice(PROG, a, v, apis, 3)) < 0)
				return -1;
			o->apis[0] = c == 1 ? ENG_API_GL : ENG_API_VULKAN;
			o->apis[1] = ENG_API_GL;
			o->n_apis = c == 2 ? 2 : 1;
		} else if (!strcmp(a, "--scene")) {
			if (!(v = cli_value(PROG, argc, argv, &i)))
				return -1;
			if (!(o->scene = scene_find(v))) {
				fprintf(stderr, PROG ": --scene: no scene '%s'\n", v);
				return -1;
			}
		} else if (!strcmp(a, "--sources")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) || !parse_list(v, o))
				return -1;
		} else if (!strcmp(a, "--frames")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 5, BENCH_MAX_FRAMES, &o->frames))
				return -1;
		} else if (!strcmp(a, "--warmup")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 0, 100000, &o->warmup))
				return -1;
		} else if (!strcmp(a, "--repeat")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, BENCH_MAX_PAIRS, &o->repeat))
				return -1;
		} else if (!strcmp(a, "--gpu-budget")) {
			double pct;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_double(PROG, a, v, 0.01, 100.0, &pct))
				return -1;
			o->gpu_budget = pct / 100.0;
		} else if (!strcmp(a, "--size")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_size(PROG, a, v, &o->width, &o->height))
				return -1;
		} else if (!strcmp(a, "--isolate")) {
			o->isolate = true;
		} else if (!strcmp(a, "--isolate-rounds")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 3, BENCH_ISOLATE_MAX_ROUNDS, &o->isolate_rounds))
				return -1;
		} else if (!strcmp(a, "--json")) {
			if (!(o->json = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--csv")) {
			if (!(o->csv = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--svg")) {
			if (!(o->svg = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--html")) {
			if (!(o->html = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--shader-dir")) {
			if (!(o->shader_dir = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else {
			fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
			return -1;
		}
	}
	return 0;
}

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: " CMP_PROG " BASE.json NEW.json [options]\n"
		"Compares two srcprof-bench --json runs (the same scene): per point (API and\n"
		"source count) and source (by name), the change of its GPU cost (alone where\n"
		"both ran --isolate, else in frame), CPU render and tick time, and the frame\n"
		"time, with a 95%% interval and a Mann-Whitney U test; sorted by change.\n"
		"Costlier (cheaper): the whole interval above the threshold (below minus it).\n"
		"Exit status: 0 nothing got significantly costlier, 1 something did, 2 bad\n"
		"input.\n\n"
		"  --threshold PCT   a change must exceed this to count (default 5)\n"
		"  --alpha A         the interval's level is 1 - A (default 0.05: 95%%)\n"
		"  --floor-us US     nor one the interval puts under this, us a frame (default 1)\n"
		"  --blocks N        test the medians of N blocks of consecutive frames per\n"
		"                    run (default 8; 0: every frame, as if independent)\n"
		"  --json FILE       the comparison as JSON\n"
		"  --html FILE       the comparison as one self-contained HTML page\n"
		"  --help\n");
}

int cmp_parse_args(int argc, char **argv, cmp_opts *o)
{
	*o = (cmp_opts){.threshold = 0.05, .alpha = 0.05, .floor_us = 1.0, .blocks = 8};
	const char *files[2] = {NULL, NULL};
	uint32_t n_files = 0;
	const char *v;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		double d;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			compare_usage(stdout);
			return 1;
		} else if (!strcmp(a, "--threshold")) {
			if (!(v = cli_value(CMP_PROG, argc, argv, &i)) ||
			    !cli_double(CMP_PROG, a, v, 0, 1000, &d))
				return -1;
			o->threshold = d / 100;
		} else if (!strcmp(a, "--alpha")) {
			if (!(v = cli_value(CMP_PROG, argc, argv, &i)) ||
			    !cli_double(CMP_PROG, a, v, 1e-6, 0.5, &o->alpha))
				return -1;
		} else if (!strcmp(a, "--floor-us")) {
			if (!(v = cli_value(CMP_PROG, argc, argv, &i)) ||
			    !cli_double(CMP_PROG, a, v, 0, 1e9, &o->floor_us))
				return -1;
		} else if (!strcmp(a, "--blocks")) {
			if (!(v = cli_value(CMP_PROG, argc, argv, &i)) ||
			    !cli_u32(CMP_PROG, a, v, 0, 1000, &o->blocks))
				return -1;
			if (o->blocks == 1 || o->blocks == 2) {
				fprintf(stderr, CMP_PROG ": --blocks: %u blocks cannot be tested (0, or 3 "
						 "or more)\n",
					o->blocks);
				return -1;
			}
		} else if (!strcmp(a, "--json")) {
			if (!(o->json = cli_value(CMP_PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--html")) {
			if (!(o->html = cli_value(CMP_PROG, argc, argv, &i)))
				return -1;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, CMP_PROG ": unknown option '%s' (see --help)\n", a);
			return -1;
		} else if (n_files < 2) {
			files[n_files++] = a;
		} else {
			fprintf(stderr, CMP_PROG ": one BASE and one NEW file, not '%s' too\n", a);
			return -1;
		}
	}
	if (n_files < 2) {
		fprintf(stderr, CMP_PROG ": needs BASE.json and NEW.json (see --help)\n");
		return -1;
	}
	o->base = files[0];
	o->nw = files[1];
	return 0;
}
