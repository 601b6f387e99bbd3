#include "demo_args.h"
#include "app.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define PROG DEMO_PROG
#define VERSION DEMO_VERSION

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
	int key = app_key_from_name(colon + 1);
	if (key < 0) {
		fprintf(stderr, PROG ": --script: unknown key '%s' (P G O C T S + - 1-8 SPACE V ESC F1)\n",
			colon + 1);
		return false;
	}
	o->script[o->n_script++] = (script_event){frame, key};
	return true;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options]\n"
		"Runs a scene of sources with the source profiler on and prints per-source\n"
		"tick, render and GPU times. Windowed when a display exists, else headless.\n\n"
		"  --api vulkan|gl|auto    graphics API (auto: Vulkan, then OpenGL)\n"
		"  --headless              render offscreen, no window system\n"
		"  --scene NAME            scene to run (default: default; see --list-scenes)\n"
		"  --sources N             sources in the scene (default: the scene's)\n"
		"  --frames N              stop after N frames\n"
		"  --seconds S             stop after S seconds (headless default: 6)\n"
		"  --size WxH              main target size (default 1280x720)\n"
		"  --validate              Vulkan validation (sync + best practices) or GL debug\n"
		"                          output; any message makes the exit status 1\n"
		"  --device X              Vulkan device by index or name substring\n"
		"  --gpu-timing MODE       auto|plain|flushed timestamp placement (default auto:\n"
		"                          flushed on software devices)\n"
		"  --gpu-budget PCT        where GPU timers are costly (flushed timing on\n"
		"                          software devices), GPU-time one frame in N so that\n"
		"                          timing costs about PCT%% of frame time (default 1;\n"
		"                          100: every frame)\n"
		"  --no-profile            profiler off\n"
		"  --no-gpu-profile        GPU timing off\n"
		"  --screenshot FILE       write the last frame as PNG\n"
		"  --csv FILE              write a CSV snapshot of every source at exit\n"
		"  --pass-csv FILE         and one row per source and pass\n"
		"  --trace FILE            capture a trace (up to 5 s) as Chrome/Perfetto JSON\n"
		"  --perf-log FILE         write PERF_BLOCK frames (Cyber RT format)\n"
		"  --verbose               print the table every 5 seconds\n"
		"  --no-overlay            do not draw the overlay\n"
		"  --vsync                 wait for vertical blank (windowed)\n"
		"  --out-dir DIR           where C, T and S put their files (default .)\n"
		"  --script LIST           key presses FRAME:KEY,... sent through the hotkey\n"
		"                          handler (e.g. 30:P,60:C,90:T); works headless too\n"
		"  --shader-dir DIR        where the built .spv shaders are\n"
		"  --list-scenes           list the scenes and exit\n"
		"  --help, --version\n\n"
		"hotkeys (windowed):\n"
		"  P profiler on/off, G GPU timing on/off, O overlay on/off, F1 help,\n"
		"  C CSV snapshot, T 5-second trace, S screenshot, + / - add/remove 10 sources,\n"
		"  1-8 switch scene, Space pause ticking, V vsync on/off, Esc quit\n");
}

static int list_scenes(void)
{
	for (uint32_t i = 0; i < scene_count(); i++) {
		const scene_def *s = scene_at(i);
		printf("%-11s %s (default %u sources)\n", s->name, s->summary, s->default_sources);
	}
	return 0;
}

/* 0: run; 1: exit 0 (help, version, list); -1: usage error (exit 2). */
int demo_parse_args(int argc, char **argv, demo_options *o)
{
	const char *v;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--version")) {
			printf(PROG " " VERSION "\n");
			return 1;
		} else if (!strcmp(a, "--list-scenes")) {
			list_scenes();
			return 1;
		} else if (!strcmp(a, "--api")) {
			static const char *const apis[] = {"vulkan", "gl", "auto"};
			static const eng_api values[] = {ENG_API_VULKAN, ENG_API_GL, ENG_API_AUTO};
			int c;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    (c = cli_choice(PROG, a, v, apis, 3)) < 0)
				return -1;
			o->engine.gfx.api = values[c];
		} else if (!strcmp(a, "--headless")) {
			o->engine.gfx.headless = true;
		} else if (!strcmp(a, "--scene")) {
			if (!(v = cli_value(PROG, argc, argv, &i)))
				return -1;
			o->scene = scene_find(v);
			if (!o->scene) {
				fprintf(stderr, PROG ": --scene: no scene '%s' (see --list-scenes)\n", v);
				return -1;
			}
		} else if (!strcmp(a, "--sources")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, 100000, &o->sources))
				return -1;
			o->sources_given = true;
		} else if (!strcmp(a, "--frames")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, 1000000000, &o->frames))
				return -1;
		} else if (!strcmp(a, "--seconds")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_double(PROG, a, v, 0.001, 86400.0 * 7, &o->seconds))
				return -1;
		} else if (!strcmp(a, "--size")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_size(PROG, a, v, &o->engine.gfx.width, &o->engine.gfx.height))
				return -1;
		} else if (!strcmp(a, "--validate")) {
			o->engine.gfx.validate = true;
		} else if (!strcmp(a, "--device")) {
			if (!(v = cli_value(PROG, argc, argv, &i)))
				return -1;
			o->engine.gfx.device = v;
		} else if (!strcmp(a, "--gpu-timing")) {
			static const char *const modes[] = {"auto", "plain", "flushed"};
			static const eng_gpu_timing values[] = {
				ENG_GPU_TIMING_AUTO, ENG_GPU_TIMING_PLAIN, ENG_GPU_TIMING_FLUSHED};
			int c;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    (c = cli_choice(PROG, a, v, modes, 3)) < 0)
				return -1;
			o->engine.gfx.gpu_timing = values[c];
		} else if (!strcmp(a, "--gpu-budget")) {
			double pct;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_double(PROG, a, v, 0.01, 100.0, &pct))
				return -1;
			o->engine.gpu_budget = pct / 100.0;
		} else if (!strcmp(a, "--no-profile")) {
			o->engine.no_profile = true;
		} else if (!strcmp(a, "--no-gpu-profile")) {
			o->engine.no_gpu_profile = true;
		} else if (!strcmp(a, "--screenshot")) {
			if (!(o->screenshot = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--csv")) {
			if (!(o->csv = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--pass-csv")) {
			if (!(o->pass_csv = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--trace")) {
			if (!(o->trace = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--perf-log")) {
			if (!(o->perf_log = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--shader-dir")) {
			if (!(o->engine.gfx.shader_dir = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else if (!strcmp(a, "--verbose")) {
			o->verbose = true;
		} else if (!strcmp(a, "--no-overlay")) {
			o->no_overlay = true;
		} else if (!strcmp(a, "--vsync")) {
			o->engine.gfx.vsync = true;
		} else if (!strcmp(a, "--out-dir")) {
			if (!(o->out_dir = cli_value(PROG, argc, argv, &i)))
				return -1;
			if (strlen(o->out_dir) > DEMO_MAX_DIR) {
				fprintf(stderr, PROG ": --out-dir: longer than %d characters\n",
					DEMO_MAX_DIR);
				return -1;
			}
		} else if (!strcmp(a, "--script")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_list(PROG, a, v, 4095, script_item, o))
				return -1;
		} else {
			fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
			return -1;
		}
	}
	return 0;
}
