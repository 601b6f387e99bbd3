/* srcprof-demo's command line: parsed into demo_options without side
 * effects beyond messages, so that tests and fuzzers can drive it. */
#ifndef DEMOS_DEMO_ARGS_H
#define DEMOS_DEMO_ARGS_H

#include "scenes.h"

#include "engine/engine.h"

#include <stdbool.h>
#include <stdint.h>

#define DEMO_PROG "srcprof-demo"
#define DEMO_VERSION SRCPROF_VERSION
/* --out-dir: room is left for the file names the hotkeys write. */
#define DEMO_MAX_DIR 900
#define DEMO_MAX_SCRIPT 256

typedef struct script_event {
	uint32_t frame;
	int key;
} script_event;

typedef struct demo_options {
	eng_desc engine;
	const scene_def *scene;
	uint32_t sources; /* as --sources asked; 0: the scene's default */
	uint32_t frames;
	double seconds;
	double overlay_scale; /* 0: chosen from the window's size */
	bool verbose, no_overlay;
	bool work_check; /* --work-check: at the end, the sources' work against the frame's */
	const char *screenshot, *csv, *pass_csv, *trace, *perf_log, *out_dir, *log;
	script_event script[DEMO_MAX_SCRIPT];
	uint32_t n_script;
	/* --serve [ADDR:]PORT (serve.h): address "" for the default. */
	bool serve;
	char serve_address[64];
	uint16_t serve_port;
	double serve_linger; /* --serve-linger: seconds served after the last frame */
} demo_options;

/* Defaults: the default scene, title set, everything else zero. */
void demo_options_init(demo_options *o);
/* 0: run; 1: done, exit 0 (--help, --version, --list-scenes); -1: a usage
 * error, already reported on stderr (exit 2). */
int demo_parse_args(int argc, char **argv, demo_options *o);

#endif
