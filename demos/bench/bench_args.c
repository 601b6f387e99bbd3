/* srcprof-bench's options, one row each (options.h); `compare` has its
 * own table (compare/bench_compare_args.c). */
#include "bench.h"
#include "cli.h"
#include "gfx_args.h"
#include "options.h"

#include <stddef.h>
#include <stdio.h>

#define PROG BENCH_PROG

/* The help texts below spell these out. */
_Static_assert(BENCH_MAX_FRAMES == 4995, "--frames' help says 4995");
_Static_assert(BENCH_WINDOW_SAMPLES == 5000, "--frames' help says the window holds 5000");
_Static_assert(BENCH_ISOLATE_TOP == 20, "--isolate's help says 20 sources");
_Static_assert(ENG_MAX_RASTER_THREADS == 64, "--raster-threads' help says 0 to 64");
_Static_assert(BENCH_MAX_RUNS == 8, "--runs' help says 1 to 8");
_Static_assert(BENCH_ISOLATE_MAX_ROUNDS == 25 && BENCH_ISOLATE_ROUNDS == 9,
	       "--isolate-rounds' help says 3 to 25, default 9");

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
		.runs = 1,
	};
}

static const char *const g_apis[] = {"vulkan", "gl", "both", NULL};

/* --api both measures Vulkan, then OpenGL. */
static bool parse_api(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	bench_opts *o = opts;
	int c = opt_choice(p->prog, opt, value, g_apis);
	if (c < 0)
		return false;
	o->apis[0] = c == 1 ? ENG_API_GL : ENG_API_VULKAN;
	o->apis[1] = ENG_API_GL;
	o->n_apis = c == 2 ? 2 : 1;
	return true;
}

static bool parse_scene(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	bench_opts *o = opts;
	o->scene = scene_parse(p->prog, opt, value, "srcprof-demo --list-scenes lists them");
	return o->scene != NULL;
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
	for (uint32_t i = 0; i < o->n_points; i++) {
		if (o->sources[i] == o->sources[o->n_points]) {
			/* compare pairs points by API and count. */
			fprintf(stderr, PROG ": --sources: %u is given twice\n", o->sources[i]);
			return false;
		}
	}
	o->n_points++;
	return true;
}

/* --sources N[,N...]: the counts swept, in the order given. */
static bool parse_sources(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	bench_opts *o = opts;
	o->n_points = 0;
	/* Every item is a count or refused (an empty one too). */
	return cli_list(p->prog, opt, value, 511, source_count, o);
}

static bool thread_count(char *item, void *user)
{
	bench_opts *o = user;
	if (o->n_threads == BENCH_MAX_POINTS) {
		fprintf(stderr, PROG ": --record-threads: at most %d counts\n", BENCH_MAX_POINTS);
		return false;
	}
	if (!cli_u32(PROG, "--record-threads", item, 1, ENG_MAX_THREADS,
		     &o->record_threads[o->n_threads]))
		return false;
	for (uint32_t i = 0; i < o->n_threads; i++) {
		if (o->record_threads[i] == o->record_threads[o->n_threads]) {
			fprintf(stderr, PROG ": --record-threads: %u is given twice\n",
				o->record_threads[i]);
			return false;
		}
	}
	o->n_threads++;
	return true;
}

/* --record-threads N[,N...]: each source count measured with each. */
static bool parse_record_threads(const opt_parser *p, const char *opt, const char *value,
				 void *opts)
{
	bench_opts *o = opts;
	o->n_threads = 0;
	return cli_list(p->prog, opt, value, 511, thread_count, o);
}

static bool parse_raster_threads(const opt_parser *p, const char *opt, const char *value,
				 void *opts)
{
	bench_opts *o = opts;
	o->raster_threads_set = cli_u32(p->prog, opt, value, 0, ENG_MAX_RASTER_THREADS,
					&o->raster_threads);
	return o->raster_threads_set;
}

static void print_help(const opt_parser *p, void *opts)
{
	(void)opts;
	opt_print_help(p, stdout);
}

#define AT(field) offsetof(bench_opts, field)

static const opt_def g_opts[] = {
	{"--api", NULL, OPT_CUSTOM, .parse = parse_api, .choices = g_apis,
	 .help = "API(s) to measure (default vulkan)"},
	{"--scene", NULL, OPT_CUSTOM, .parse = parse_scene, .arg = "NAME",
	 .help = "scene (default default; srcprof-demo --list-scenes)"},
	{"--sources", NULL, OPT_CUSTOM, .parse = parse_sources, .arg = "N[,N...]",
	 .help = "source counts to sweep (default: the scene's)"},
	{"--frames", NULL, OPT_U32, AT(frames), .min = 5, .max = BENCH_MAX_FRAMES, .arg = "N",
	 .help = "measured frames per point, 5 to 4995 (default 120;\n"
		 "the profiler's window holds 5000)"},
	{"--warmup", NULL, OPT_U32, AT(warmup), .min = 0, .max = 100000, .arg = "N",
	 .help = "frames before measuring (default 30)"},
	{"--repeat", NULL, OPT_U32, AT(repeat), .min = 1, .max = BENCH_MAX_PAIRS, .arg = "R",
	 .help = "interleaved overhead pairs (default 5)"},
	{"--isolate", NULL, OPT_FLAG, AT(isolate),
	 .help = "also time the 20 costliest sources alone and compare"},
	{"--isolate-rounds", NULL, OPT_U32, AT(isolate_rounds), .min = 3,
	 .max = BENCH_ISOLATE_MAX_ROUNDS, .arg = "N",
	 .help = "rounds of --isolate, 3 to 25 (default 9; more resolve\n"
		 "smaller changes in compare)"},
	{"--runs", NULL, OPT_U32, AT(runs), .min = 1, .max = BENCH_MAX_RUNS, .arg = "N",
	 .help = "measure everything N times, 1 to 8, each run on a new\n"
		 "engine (default 1); the JSON keeps every run and compare\n"
		 "tests them as samples (5 a side for a change)"},
	{"--gpu-budget", NULL, OPT_DOUBLE, AT(gpu_budget), .min = 0.01, .max = 100.0,
	 .scale = 0.01, .arg = "PCT", .help = "GPU timing budget in the overhead runs (default 1)"},
	{"--gpu-timing", NULL, OPT_CHOICE, AT(gpu_timing), .choices = gfx_args_timings,
	 .values = gfx_args_timing_values, .arg = "MODE", .help = GFX_ARGS_TIMING_HELP},
	{"--record-threads", NULL, OPT_CUSTOM, .parse = parse_record_threads, .arg = "N[,N...]",
	 .help = "record each view on N threads (see srcprof-demo); several:\n"
		 "each source count measured with each (a sweep)"},
	{"--tick-threads", NULL, OPT_U32, AT(tick_threads), .min = 1, .max = ENG_MAX_THREADS,
	 .arg = "N", .help = GFX_ARGS_TICK_THREADS_HELP},
	{"--compute", NULL, OPT_FLAG, AT(compute), .help = GFX_ARGS_COMPUTE_HELP},
	{"--work", NULL, OPT_FLAG, AT(work), .help = GFX_ARGS_WORK_HELP},
	{"--no-work", NULL, OPT_FLAG_OFF, AT(work), .help = "see --work"},
	{"--raster-threads", NULL, OPT_CUSTOM, .parse = parse_raster_threads, .arg = "N",
	 .help = "Mesa's software rasterizer (lavapipe, llvmpipe): split\n"
		 "each scene over N threads, 0 to 64 (LP_NUM_THREADS; 0: on\n"
		 "the submitting thread; default: the driver's, one per CPU);\n"
		 "1 gives truer per-source GPU times, slower frames"},
	{"--size", NULL, OPT_SIZE, AT(width), AT(height), .arg = "WxH",
	 .help = "target size (default 1280x720)"},
	{"--json", NULL, OPT_STRING, AT(json), .arg = "FILE",
	 .help = "write the results as JSON, with every sample\n"
		 "compare needs"},
	{"--csv", NULL, OPT_STRING, AT(csv), .arg = "FILE", .help = "write a CSV row per source"},
	{"--svg", NULL, OPT_STRING, AT(svg), .arg = "FILE", .help = "write the charts as one SVG"},
	{"--html", NULL, OPT_STRING, AT(html), .arg = "FILE",
	 .help = "write the results as one self-contained HTML page"},
	{"--shader-dir", NULL, OPT_DIR, AT(shader_dir), .arg = "DIR",
	 .help = "where the built .spv shaders are"},
	{"--help", "-h", OPT_EXIT, .run = print_help, .help = "this help"},
};

static const opt_parser g_parser = {
	.prog = PROG,
	.opts = g_opts,
	.n_opts = sizeof g_opts / sizeof g_opts[0],
	.usage = "usage: " PROG " [options]\n"
		 "       " PROG " compare BASE.json NEW.json [options]   (compare --help)\n"
		 "Measures, headless, each source's GPU cost (average, p50, p95, max, share of\n"
		 "the frame), frame-time statistics, and the profiler's own overhead (profiler\n"
		 "off / CPU timing / CPU+GPU timing, interleaved), and what the sources add to\n"
		 "the frame (against the frame with none, interleaved too); then the profiler's\n"
		 "own CPU cost per source, its calls replayed without drawing. With several\n"
		 "--sources, how each grows, per source and per added source. Options take\n"
		 "their value as --opt VALUE or --opt=VALUE.\n\n",
	.tail = "Progress goes to stderr: a line with an ETA on a terminal, else a line every\n"
		"10 s and one per point. Exit status: 0; 1 a point failed or an output could\n"
		"not be written; 2 bad options; 130 (SIGINT) or 143 (SIGTERM): stopped by the\n"
		"signal, the points finished written, marked interrupted (a second signal\n"
		"ends it at once).\n",
};

int bench_parse_args(int argc, char **argv, bench_opts *o)
{
	return opt_parse(&g_parser, argc, argv, o);
}
