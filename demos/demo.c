/* srcprof-demo: runs a scene with the profiler on and prints the per-source
 * table (in a window when there is a display, else headless). */
#include "app.h"
#include "cli.h"
#include "report.h"
#include "scenes.h"

#include "engine/engine.h"
#include "engine/log.h"
#include "srcprof/clock.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "srcprof-demo"
#define VERSION "0.1.0"

#define MAX_SCRIPT 256

typedef struct script_event {
	uint32_t frame;
	int key;
} script_event;

typedef struct options {
	eng_desc engine;
	const scene_def *scene;
	uint32_t sources;
	bool sources_given;
	uint32_t frames;
	double seconds;
	bool verbose, no_overlay;
	const char *screenshot, *csv, *pass_csv, *trace, *perf_log, *out_dir;
	script_event script[MAX_SCRIPT];
	uint32_t n_script;
} options;

/* --script "FRAME:KEY,FRAME:KEY,...": key presses injected through the same
 * handler as real ones, at the start of the given frame (1 = first). */
static bool parse_script(const char *text, options *o)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", text);
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		if (!colon || o->n_script == MAX_SCRIPT) {
			fprintf(stderr, PROG ": --script: '%s' is not FRAME:KEY (at most %d events)\n",
				item, MAX_SCRIPT);
			return false;
		}
		*colon = '\0';
		uint32_t frame;
		if (!cli_u32(PROG, "--script", item, 1, 1000000000, &frame))
			return false;
		int key = app_key_from_name(colon + 1);
		if (key < 0) {
			fprintf(stderr,
				PROG ": --script: unknown key '%s' (P G O C T S + - 1-7 SPACE V ESC F1)\n",
				colon + 1);
			return false;
		}
		o->script[o->n_script++] = (script_event){frame, key};
	}
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
		"  1-7 switch scene, Space pause ticking, V vsync on/off, Esc quit\n");
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
static int parse(int argc, char **argv, options *o)
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
			if (!(v = cli_value(PROG, argc, argv, &i)))
				return -1;
			if (!strcmp(v, "vulkan"))
				o->engine.gfx.api = ENG_API_VULKAN;
			else if (!strcmp(v, "gl"))
				o->engine.gfx.api = ENG_API_GL;
			else if (!strcmp(v, "auto"))
				o->engine.gfx.api = ENG_API_AUTO;
			else {
				fprintf(stderr, PROG ": --api: '%s' is not vulkan, gl or auto\n", v);
				return -1;
			}
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
			if (!(v = cli_value(PROG, argc, argv, &i)))
				return -1;
			if (!strcmp(v, "auto"))
				o->engine.gfx.gpu_timing = ENG_GPU_TIMING_AUTO;
			else if (!strcmp(v, "plain"))
				o->engine.gfx.gpu_timing = ENG_GPU_TIMING_PLAIN;
			else if (!strcmp(v, "flushed"))
				o->engine.gfx.gpu_timing = ENG_GPU_TIMING_FLUSHED;
			else {
				fprintf(stderr, PROG ": --gpu-timing: '%s' is not auto, plain or flushed\n",
					v);
				return -1;
			}
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
		} else if (!strcmp(a, "--script")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) || !parse_script(v, o))
				return -1;
		} else {
			fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
			return -1;
		}
	}
	return 0;
}

/* Opens an output file now, so a bad path fails before any work. */
static FILE *open_output(const char *opt, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, PROG ": %s: cannot write '%s': %s\n", opt, path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	options o = {.scene = scene_find("default")};
	o.engine.title = "srcprof demo";
	int p = parse(argc, argv, &o);
	if (p != 0)
		return p > 0 ? 0 : 2;

	if (!o.engine.gfx.headless && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		fprintf(stderr, PROG ": no display: running headless\n");
		o.engine.gfx.headless = true;
	}
	if (o.engine.gfx.headless && !o.frames && o.seconds == 0)
		o.seconds = 6.0;
	if (!o.sources_given)
		o.sources = o.scene->default_sources;
	o.engine.views = o.scene->views;

	if (o.out_dir) {
		char probe[1100];
		snprintf(probe, sizeof probe, "%s/.srcprof-write-test", o.out_dir);
		FILE *f = fopen(probe, "w");
		if (!f) {
			fprintf(stderr, PROG ": --out-dir: cannot write into '%s': %s\n", o.out_dir,
				strerror(errno));
			return 2;
		}
		fclose(f);
		remove(probe);
	}
	FILE *csv = NULL, *pass_csv = NULL, *perf = NULL, *trace = NULL;
	if ((o.csv && !(csv = open_output("--csv", o.csv))) ||
	    (o.pass_csv && !(pass_csv = open_output("--pass-csv", o.pass_csv))) ||
	    (o.perf_log && !(perf = open_output("--perf-log", o.perf_log))) ||
	    (o.trace && !(trace = open_output("--trace", o.trace))))
		return 2;
	if (perf)
		perf_block_set_output(perf);
	source_profiler_trace_name_thread("graphics");

	eng_result r;
	eng_engine *e = eng_create(&o.engine, &r);
	if (!e) {
		fprintf(stderr, PROG ": cannot start: %s\n", eng_result_str(r));
		return 1;
	}
	if (!o.scene->build(e, o.sources)) {
		fprintf(stderr, PROG ": cannot build the scene '%s'\n", o.scene->name);
		eng_destroy(e);
		return 1;
	}
	eng_info("scene %s: %u sources%s", o.scene->name, eng_source_count(e),
		 o.engine.gfx.headless ? ", headless" : "");
	demo_app app;
	app_init(&app, e, o.scene, o.sources, o.out_dir, !o.no_overlay, o.engine.gfx.vsync,
		 !o.engine.no_profile, !o.engine.no_gpu_profile);
	if (trace)
		source_profiler_trace_start(NULL);

	uint64_t start = srcprof_clock_ns(), last_report = start;
	int status = 0;
	for (uint32_t f = 0;; f++) {
		uint64_t now = srcprof_clock_ns();
		bool last = (o.frames && f + 1 >= o.frames) ||
			    (o.seconds > 0 && (double)(now - start) * 1e-9 >= o.seconds);
		if (last && o.screenshot)
			eng_screenshot_request(e, o.screenshot);
		for (uint32_t k = 0; k < o.n_script; k++)
			if (o.script[k].frame == f + 1)
				app_key(&app, o.script[k].key);
		if (eng_frame(e) == ENG_ERR_DEVICE_LOST) {
			fprintf(stderr, PROG ": the device was lost; stopping\n");
			status = 1;
			break;
		}
		app_after_frame(&app);
		if (o.verbose && now - last_report >= 5000000000ull) {
			report_print(stdout, e, 0);
			last_report = now;
		}
		if (last || eng_should_close(e) || app.quit)
			break;
	}
	/* Let a screenshot or trace asked for near the end finish. */
	eng_gfx_wait_frame(0);
	app_after_frame(&app);
	if (app.trace_running) {
		source_profiler_trace_stop();
		app_after_frame(&app);
	}
	eng_gfx_wait_frame(0);
	if (o.screenshot) {
		int s = eng_screenshot_poll(e);
		if (s > 0)
			printf("screenshot: %s\n", o.screenshot);
		else {
			fprintf(stderr, PROG ": --screenshot: no frame was captured\n");
			status = 1;
		}
	}
	report_print(stdout, e, 40);
	if (csv) {
		int rows = source_profiler_write_csv(csv);
		if (rows < 0 || fclose(csv) != 0) {
			fprintf(stderr, PROG ": --csv: writing '%s' failed\n", o.csv);
			status = 1;
		} else {
			printf("csv: %s (%d sources)\n", o.csv, rows);
		}
	}
	if (pass_csv) {
		int rows = source_profiler_write_pass_csv(pass_csv);
		if (rows < 0 || fclose(pass_csv) != 0) {
			fprintf(stderr, PROG ": --pass-csv: writing '%s' failed\n", o.pass_csv);
			status = 1;
		} else {
			printf("pass csv: %s (%d rows)\n", o.pass_csv, rows);
		}
	}
	if (trace) {
		source_profiler_trace_stop();
		source_profiler_trace_info ti;
		source_profiler_trace_get_info(&ti);
		if (source_profiler_trace_write_json(trace) != 0 || fclose(trace) != 0) {
			fprintf(stderr, PROG ": --trace: writing '%s' failed\n", o.trace);
			status = 1;
		} else {
			printf("trace: %s (%llu events, %u frames%s)\n", o.trace,
			       (unsigned long long)ti.events, ti.frames,
			       ti.dropped ? ", buffer full: later events dropped" : "");
		}
		source_profiler_trace_discard();
	}
	app_shutdown(&app);
	uint32_t messages = eng_gfx_validation_messages();
	if (o.engine.gfx.validate) {
		printf("validation: %u messages\n", messages);
		if (messages)
			status = 1;
	}
	eng_destroy(e);
	if (perf) {
		perf_block_set_output(NULL);
		fclose(perf);
		printf("perf log: %s\n", o.perf_log);
	}
	source_profiler_shutdown();
	return status;
}
