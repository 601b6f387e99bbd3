/* srcprof-demo's options, one row each (options.h), and the checks that
 * need more than one of them (a scene's range of --sources). */
#include "demo_args.h"
#include "cli.h"
#include "gfx_args.h"
#include "keys.h"
#include "options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PROG DEMO_PROG

/* OPT_CHOICE stores an int: the enums it fills must be int-sized. */
_Static_assert(sizeof(eng_api) == sizeof(int), "eng_api is stored as an int");
_Static_assert(ENG_MAX_RASTER_THREADS == 64, "--raster-threads' help says 0 to 64");

void demo_options_init(demo_options *o)
{
	*o = (demo_options){.scene = scene_find("default")};
	o->engine.title = "srcprof demo";
}

/* --script "FRAME:KEY,FRAME:KEY,...": key presses injected through the same
 * handler as real ones, at the start of the given frame (1 = first). */
static bool script_item(char *item, void *user)
{
	demo_options *o = user;
	char *colon = strchr(item, ':');
	if (!colon || o->n_script == DEMO_MAX_SCRIPT) {
		fprintf(stderr, PROG ": --script: '%s' is not FRAME:KEY (at most %d events)\n", item,
			DEMO_MAX_SCRIPT);
		return false;
	}
	*colon = '\0';
	uint32_t frame;
	if (!cli_u32(PROG, "--script", item, 1, 1000000000, &frame))
		return false;
	int key = keys_from_name(colon + 1);
	if (key < 0) {
		char names[512];
		keys_names(names, sizeof names);
		int near = opt_suggest(colon + 1, keys_script_names(), keys_script_count());
		if (near >= 0)
			fprintf(stderr, PROG ": --script: unknown key '%s'; did you mean '%s'? (%s)\n",
				colon + 1, keys_script_names()[near], names);
		else
			fprintf(stderr, PROG ": --script: unknown key '%s' (%s)\n", colon + 1, names);
		return false;
	}
	o->script[o->n_script++] = (script_event){frame, key};
	return true;
}

static bool parse_script(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	return cli_list(p->prog, opt, value, 4095, script_item, opts);
}

static bool parse_scene(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	demo_options *o = opts;
	o->scene = scene_parse(p->prog, opt, value, "see --list-scenes");
	return o->scene != NULL;
}

static bool parse_raster_threads(const opt_parser *p, const char *opt, const char *value,
				 void *opts)
{
	eng_gfx_desc *g = &((demo_options *)opts)->engine.gfx;
	g->raster_threads_set = cli_u32(p->prog, opt, value, 0, ENG_MAX_RASTER_THREADS,
					&g->raster_threads);
	return g->raster_threads_set;
}

static bool parse_serve(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	demo_options *o = opts;
	o->serve = cli_listen(p->prog, opt, value, o->serve_address, sizeof o->serve_address,
			      &o->serve_port);
	return o->serve;
}

static void print_help(const opt_parser *p, void *opts)
{
	(void)opts;
	opt_print_help(p, stdout);
	keys_print(stdout);
}

static void print_version(const opt_parser *p, void *opts)
{
	(void)opts;
	printf("%s %s\n", p->prog, DEMO_VERSION);
}

/* "calibrated  heavy sources ...; 6 sources (--sources 1 to 5, plus 1 of
 * its own)". The count is the one the demo and its reports show. */
static void list_scenes(const opt_parser *p, void *opts)
{
	(void)p, (void)opts;
	for (uint32_t i = 0; i < scene_count(); i++) {
		const scene_def *s = scene_at(i);
		printf("%-11s %s; %u sources (--sources %u to %u", s->name, s->summary,
		       scene_total_sources(s, 0), s->min_sources, s->max_sources);
		if (s->extra_sources)
			printf(", plus %u of its own", s->extra_sources);
		printf(")\n");
	}
}

#define AT(field) offsetof(demo_options, field)

static const char *const g_apis[] = {"vulkan", "gl", "auto", NULL};
static const int g_api_values[] = {ENG_API_VULKAN, ENG_API_GL, ENG_API_AUTO};

static const opt_def g_opts[] = {
	{"--api", NULL, OPT_CHOICE, AT(engine.gfx.api), .choices = g_apis, .values = g_api_values,
	 .help = "graphics API (auto: Vulkan, then OpenGL)"},
	{"--headless", NULL, OPT_FLAG, AT(engine.gfx.headless),
	 .help = "render offscreen, no window system"},
	{"--scene", NULL, OPT_CUSTOM, .parse = parse_scene, .arg = "NAME",
	 .help = "scene to run (default: default; see --list-scenes)"},
	{"--sources", NULL, OPT_U32, AT(sources), .min = 1, .max = 100000, .arg = "N",
	 .help = "sources in the scene (default: the scene's;\n"
		 "--list-scenes gives each scene's range)"},
	{"--frames", NULL, OPT_U32, AT(frames), .min = 1, .max = 1000000000, .arg = "N",
	 .help = "stop after N frames"},
	{"--seconds", NULL, OPT_DOUBLE, AT(seconds), .min = 0.001, .max = 86400.0 * 7, .arg = "S",
	 .help = "stop after S seconds (headless default: 6)"},
	{"--size", NULL, OPT_SIZE, AT(engine.gfx.width), AT(engine.gfx.height), .arg = "WxH",
	 .help = "main target size (default 1280x720)"},
	{"--validate", NULL, OPT_FLAG, AT(engine.gfx.validate),
	 .help = "Vulkan validation (sync + best practices) or GL debug\n"
		 "output; any message makes the exit status 1"},
	{"--device", NULL, OPT_STRING, AT(engine.gfx.device), .arg = "X",
	 .help = "Vulkan device by index or name substring (with --api\n"
		 "auto: Vulkan only, no fallback to OpenGL)"},
	{"--gpu-timing", NULL, OPT_CHOICE, AT(engine.gfx.gpu_timing), .choices = gfx_args_timings,
	 .values = gfx_args_timing_values, .arg = "MODE",
	 .help = GFX_ARGS_TIMING_HELP},
	{"--tick-threads", NULL, OPT_U32, AT(engine.tick_threads), .min = 1, .max = ENG_MAX_THREADS,
	 .arg = "N", .help = GFX_ARGS_TICK_THREADS_HELP},
	{"--record-threads", NULL, OPT_U32, AT(engine.record_threads), .min = 1,
	 .max = ENG_MAX_THREADS, .arg = "N", .help = GFX_ARGS_RECORD_THREADS_HELP},
	{"--compute", NULL, OPT_FLAG, AT(engine.gfx.compute), .help = GFX_ARGS_COMPUTE_HELP},
	{"--work", NULL, OPT_FLAG, AT(engine.gfx.work_counters), .help = GFX_ARGS_WORK_HELP},
	{"--no-work", NULL, OPT_FLAG_OFF, AT(engine.gfx.work_counters), .help = "see --work"},
	{"--work-check", NULL, OPT_FLAG, AT(work_check),
	 .help = "at the end (implies --work): pause the scene, add up\n"
		 "every source's work counts of one frame and count the\n"
		 "same frame whole with one query; they must be equal\n"
		 "(exit status 1 where not)"},
	{"--raster-threads", NULL, OPT_CUSTOM, .parse = parse_raster_threads, .arg = "N",
	 .help = "Mesa's software rasterizer (lavapipe, llvmpipe): split\n"
		 "each scene over N threads, 0 to 64 (LP_NUM_THREADS; 0: on\n"
		 "the submitting thread; default: the driver's, one per CPU);\n"
		 "1 gives truer per-source GPU times, slower frames"},
	{"--gpu-budget", NULL, OPT_DOUBLE, AT(engine.gpu_budget), .min = 0.01, .max = 100.0,
	 .scale = 0.01, .arg = "PCT",
	 .help = "where GPU timers are costly (flushed timing on\n"
		 "software devices), GPU-time one frame in N so that\n"
		 "timing costs about PCT% of frame time (default 1;\n"
		 "100: every frame)"},
	{"--no-profile", NULL, OPT_FLAG, AT(engine.no_profile), .help = "profiler off"},
	{"--no-gpu-profile", NULL, OPT_FLAG, AT(engine.no_gpu_profile), .help = "GPU timing off"},
	{"--screenshot", NULL, OPT_STRING, AT(screenshot), .arg = "FILE",
	 .help = "write the last frame as PNG"},
	{"--csv", NULL, OPT_STRING, AT(csv), .arg = "FILE",
	 .help = "write a CSV snapshot of every source at exit"},
	{"--pass-csv", NULL, OPT_STRING, AT(pass_csv), .arg = "FILE",
	 .help = "and one row per source and pass"},
	{"--log", NULL, OPT_STRING, AT(log), .arg = "FILE",
	 .help = "log every source once a second from the start (as L)"},
	{"--trace", NULL, OPT_STRING, AT(trace), .arg = "FILE",
	 .help = "capture a trace (up to 5 s) as Chrome/Perfetto JSON"},
	{"--perf-log", NULL, OPT_STRING, AT(perf_log), .arg = "FILE",
	 .help = "write PERF_BLOCK frames (Cyber RT format)"},
	{"--verbose", NULL, OPT_FLAG, AT(verbose), .help = "print the table every 5 seconds"},
	{"--no-overlay", NULL, OPT_FLAG, AT(no_overlay), .help = "do not draw the overlay"},
	{"--overlay-scale", NULL, OPT_DOUBLE, AT(overlay_scale), .min = 0.5, .max = 8.0,
	 .arg = "X",
	 .help = "overlay text size, 1 = 8-pixel font (default: from\n"
		 "the window height, 1 to 4; Z cycles it)"},
	{"--vsync", NULL, OPT_FLAG, AT(engine.gfx.vsync), .help = "wait for vertical blank (windowed)"},
	{"--target-fps", NULL, OPT_U32, AT(engine.fps), .min = 1, .max = 1000, .arg = "N",
	 .help = "the frame rate aimed at: the graph's budget lines at\n"
		 "1 and 2 frames of it, the profiler's window 5 s of it\n"
		 "(default 60)"},
	{"--out-dir", NULL, OPT_STRING, AT(out_dir), .max = DEMO_MAX_DIR, .arg = "DIR",
	 .help = "where C, T, S and L put their files (default .)"},
	{"--serve", NULL, OPT_CUSTOM, .parse = parse_serve, .arg = "[ADDR:]PORT",
	 .help = "live view: serve the table to a browser, curl or\n"
		 "Prometheus on PORT (0: a free one) of 127.0.0.1, or of\n"
		 "ADDR; prints the URL with its token (U: again)"},
	{"--serve-linger", NULL, OPT_DOUBLE, AT(serve_linger), .min = 0.0, .max = 3600.0,
	 .arg = "S",
	 .help = "with --serve: after the last frame, serve its final\n"
		 "figures S seconds more"},
	{"--script", NULL, OPT_CUSTOM, .parse = parse_script, .arg = "LIST",
	 .help = "key presses FRAME:KEY,... sent through the hotkey\n"
		 "handler (e.g. 30:P,60:C,90:T); works headless too"},
	{"--shader-dir", NULL, OPT_DIR, AT(engine.gfx.shader_dir), .arg = "DIR",
	 .help = "where the built .spv shaders are"},
	{"--list-scenes", NULL, OPT_EXIT, .run = list_scenes, .help = "list the scenes and exit"},
	{"--help", "-h", OPT_EXIT, .run = print_help, .help = "this help"},
	{"--version", NULL, OPT_EXIT, .run = print_version, .help = "the version"},
};

static const opt_parser g_parser = {
	.prog = PROG,
	.opts = g_opts,
	.n_opts = sizeof g_opts / sizeof g_opts[0],
	.usage = "usage: " PROG " [options]\n"
		 "Runs a scene of sources with the source profiler on and prints per-source\n"
		 "tick, render and GPU times. Windowed when a display exists, else headless.\n"
		 "Options take their value as --opt VALUE or --opt=VALUE.\n\n",
};

/* 0: run; 1: exit 0 (help, version, list); -1: usage error (exit 2). */
int demo_parse_args(int argc, char **argv, demo_options *o)
{
	int r = opt_parse(&g_parser, argc, argv, o);
	if (r != 0)
		return r;
	const scene_def *s = o->scene;
	if (o->sources && (o->sources < s->min_sources || o->sources > s->max_sources)) {
		char own[48] = "";
		if (s->extra_sources)
			snprintf(own, sizeof own, "; it adds %u of its own", s->extra_sources);
		fprintf(stderr, PROG ": --sources: scene '%s' takes %u to %u (%u asked%s)\n", s->name,
			s->min_sources, s->max_sources, o->sources, own);
		return -1;
	}
	if (o->engine.gfx.device && o->engine.gfx.api == ENG_API_GL) {
		fprintf(stderr, PROG ": --device picks a Vulkan device; it does not apply with --api gl\n");
		return -1;
	}
	if (o->serve_linger > 0 && !o->serve) {
		fprintf(stderr, PROG ": --serve-linger needs --serve\n");
		return -1;
	}
	if (o->work_check)
		o->engine.gfx.work_counters = true;
	if (o->engine.gfx.device && o->engine.gfx.api == ENG_API_AUTO)
		o->engine.gfx.api = ENG_API_VULKAN; /* the device asked for, or an error */
	const char *opts[] = {"--csv", "--pass-csv", "--log", "--trace", "--perf-log", "--screenshot"};
	const char *paths[] = {o->csv, o->pass_csv, o->log, o->trace, o->perf_log, o->screenshot};
	if (!cli_outputs_apart(PROG, opts, paths, (int)(sizeof opts / sizeof *opts)))
		return -1;
		/* A key after the last frame would never be sent. */
	for (uint32_t k = 0; o->frames && k < o->n_script; k++)
		if (o->script[k].frame > o->frames) {
			fprintf(stderr,
				PROG ": --script: frame %u is after the last frame (--frames %u)\n",
				o->script[k].frame, o->frames);
			return -1;
		}
	return 0;
}
