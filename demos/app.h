/* The interactive side of srcprof-demo: hotkeys (real or scripted), the
 * files they write, scene switching and the overlay. */
#ifndef DEMOS_APP_H
#define DEMOS_APP_H

#include "scenes.h"

#include "engine/engine.h"
#include "engine/ui.h"

#include <stdbool.h>
#include <stdint.h>

#define APP_GRAPH_FRAMES 240

typedef struct demo_app {
	eng_engine *engine;
	const scene_def *scene;
	uint32_t sources;   /* what --sources asked for the scene */
	const char *out_dir;
	eng_ui *ui;
	bool overlay, help, paused, vsync, quit;
	bool profiler_on, gpu_on;
	bool trace_running, screenshot_pending;
	char screenshot_path[1024];
	uint32_t added; /* sources added with + */
	float frame_ms[APP_GRAPH_FRAMES];
	uint32_t graph_head;
	char status[256]; /* the last action, shown in the overlay */
} demo_app;

/* Sets up the overlay (when `overlay`) and the key handler. */
bool app_init(demo_app *a, eng_engine *e, const scene_def *scene, uint32_t sources,
	      const char *out_dir, bool overlay, bool vsync, bool profile, bool gpu);
void app_shutdown(demo_app *a);

/* One key press (GLFW key code). Prints one line saying what happened. */
void app_key(demo_app *a, int key);
/* After each frame: records the frame time, writes finished traces and
 * screenshots. */
void app_after_frame(demo_app *a);

/* Key names for --script: "P", "+", "F1", "SPACE", ... -> GLFW code, or -1. */
int app_key_from_name(const char *name);

/* overlay.c */
void overlay_build(demo_app *a);
void overlay_draw(demo_app *a, const eng_view *main_view);

#endif
