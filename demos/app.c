/* Hotkeys and what they do. Every action prints one line: what happened,
 * and where a file went. Toggles follow the profiler contract: they take
 * effect at the next frame boundary. */
#include "app.h"

#include "engine/log.h"
#include "engine/sources.h"
#include "srcprof/export.h"
#include "srcprof/source_profiler.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <GLFW/glfw3.h>

static void say(demo_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(demo_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof a->status, fmt, ap);
	va_end(ap);
	printf("%s\n", a->status);
	fflush(stdout);
}

static void on_key(int key, int mods, void *user)
{
	(void)mods;
	app_key(user, key);
}

static void overlay_tick(void *user)
{
	demo_app *a = user;
	if (a->overlay)
		overlay_build(a);
}

static void overlay_render(void *user, const eng_view *main_view)
{
	demo_app *a = user;
	if (a->overlay)
		overlay_draw(a, main_view);
}

bool app_init(demo_app *a, eng_engine *e, const scene_def *scene, uint32_t sources,
	      const char *out_dir, bool overlay, bool vsync, bool profile, bool gpu)
{
	memset(a, 0, sizeof *a);
	a->engine = e;
	a->scene = scene;
	a->sources = sources;
	a->out_dir = out_dir ? out_dir : ".";
	a->overlay = overlay;
	a->vsync = vsync;
	a->profiler_on = profile;
	a->gpu_on = profile && gpu;
	a->ui = eng_ui_create();
	if (!a->ui)
		a->overlay = false;
	eng_set_overlay(e, &(eng_overlay){.user = a, .tick = overlay_tick, .render = overlay_render});
	eng_set_key_handler(e, on_key, a);
	return true;
}

void app_shutdown(demo_app *a)
{
	eng_set_overlay(a->engine, NULL);
	eng_set_key_handler(a->engine, NULL, NULL);
	eng_ui_destroy(a->ui);
	if (a->trace_running)
		source_profiler_trace_discard();
}

static void path_for(demo_app *a, char *out, size_t size, const char *kind, const char *ext)
{
	snprintf(out, size, "%s/srcprof-%s-%06llu.%s", a->out_dir, kind,
		 (unsigned long long)eng_frame_index(a->engine), ext);
}

static void write_csv(demo_app *a)
{
	char path[1024];
	path_for(a, path, sizeof path, "snapshot", "csv");
	FILE *f = fopen(path, "w");
	if (!f) {
		say(a, "C: cannot write %s: %s", path, strerror(errno));
		return;
	}
	int rows = source_profiler_write_csv(f);
	if (fclose(f) != 0 || rows < 0)
		say(a, "C: writing %s failed", path);
	else if (!a->profiler_on)
		say(a, "C: profiler is off: %s has the header only", path);
	else
		say(a, "C: CSV snapshot of %d sources written to %s", rows, path);
}

static void start_trace(demo_app *a)
{
	if (a->trace_running) {
		say(a, "T: a trace is already being captured");
		return;
	}
	if (!source_profiler_trace_start(&(source_profiler_trace_desc){.duration_ns = 5000000000ull,
								   .max_events = 1u << 21})) {
		say(a, "T: cannot start a trace capture (out of memory?)");
		return;
	}
	a->trace_running = true;
	/* Where the engine GPU-times one frame in N, N frames can outlast the
	 * trace: time the first one so the GPU track is never empty. */
	eng_gpu_restart_sampling(a->engine);
	say(a, "T: capturing a 5-second trace%s", a->profiler_on ? "" : " (profiler is off: only "
									      "PERF blocks and frames)");
}

static void finish_trace(demo_app *a)
{
	char path[1024];
	path_for(a, path, sizeof path, "trace", "json");
	source_profiler_trace_info ti;
	source_profiler_trace_get_info(&ti);
	FILE *f = fopen(path, "w");
	int rc = f ? source_profiler_trace_write_json(f) : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	source_profiler_trace_discard();
	a->trace_running = false;
	if (rc != 0)
		say(a, "T: writing the trace to %s failed: %s", path, strerror(errno));
	else
		say(a, "T: trace of %u frames (%llu events%s) written to %s; open it in "
		       "ui.perfetto.dev",
		    ti.frames, (unsigned long long)ti.events, ti.dropped ? ", buffer full" : "", path);
}

static void add_sources(demo_app *a, int n)
{
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "added-%u", a->added);
		float angle = (float)a->added * 0.7f, r = 2.0f + 0.15f * (float)a->added;
		eng_source *s = eng_mesh_create(&(eng_mesh_desc){
			.name = name,
			.shape = (eng_shape)(a->added % 3),
			.position = {r * cosf(angle), 0.5f, r * sinf(angle)},
			.scale = 0.6f,
			.spin = 1.0f,
		});
		if (!s)
			break;
		eng_add_source(a->engine, s);
		a->added++;
	}
}

static void remove_sources(demo_app *a, int n)
{
	int removed = 0;
	for (uint32_t i = eng_source_count(a->engine); i-- > 0 && removed < n;) {
		eng_source *s = eng_source_at(a->engine, i);
		if (!s->removing) {
			eng_remove_source(a->engine, s);
			removed++;
		}
	}
	say(a, "-: removed %d sources (%u left after this frame)", removed,
	    eng_source_count(a->engine) - (uint32_t)removed);
}

static void switch_scene(demo_app *a, uint32_t index)
{
	const scene_def *s = scene_at(index);
	if (!s)
		return;
	for (uint32_t i = 0; i < eng_source_count(a->engine); i++)
		eng_remove_source(a->engine, eng_source_at(a->engine, i));
	a->scene = s;
	a->added = 0;
	eng_set_view_count(a->engine, s->views);
	if (!s->build(a->engine, s->default_sources))
		say(a, "%u: scene %s could not be built completely", index + 1, s->name);
	else
		say(a, "%u: scene %s (%u sources)", index + 1, s->name, s->default_sources);
}

void app_key(demo_app *a, int key)
{
	switch (key) {
	case GLFW_KEY_P:
		a->profiler_on = !a->profiler_on;
		source_profiler_enable(a->profiler_on);
		if (a->profiler_on)
			source_profiler_gpu_enable(a->gpu_on);
		say(a, "P: profiler %s (from the next frame%s)", a->profiler_on ? "on" : "off",
		    a->profiler_on ? "" : "; its statistics are dropped");
		break;
	case GLFW_KEY_G:
		a->gpu_on = !a->gpu_on;
		source_profiler_gpu_enable(a->gpu_on);
		if (a->gpu_on && !a->profiler_on)
			say(a, "G: GPU timing requested, but the profiler is off (press P)");
		else
			say(a, "G: GPU timing %s (from the next frame)", a->gpu_on ? "on" : "off");
		break;
	case GLFW_KEY_O:
		a->overlay = a->ui && !a->overlay;
		say(a, "O: overlay %s", a->overlay ? "on" : a->ui ? "off" : "unavailable");
		break;
	case GLFW_KEY_F1:
		a->help = !a->help;
		if (a->help && !a->overlay && a->ui)
			a->overlay = true;
		say(a, "F1: help %s", a->help ? "shown" : "hidden");
		break;
	case GLFW_KEY_C:
		write_csv(a);
		break;
	case GLFW_KEY_T:
		start_trace(a);
		break;
	case GLFW_KEY_S:
		path_for(a, a->screenshot_path, sizeof a->screenshot_path, "screenshot", "png");
		eng_screenshot_request(a->engine, a->screenshot_path);
		a->screenshot_pending = true;
		say(a, "S: screenshot requested");
		break;
	case GLFW_KEY_EQUAL:
	case GLFW_KEY_KP_ADD:
		add_sources(a, 10);
		say(a, "+: added 10 sources (%u now)", eng_source_count(a->engine));
		break;
	case GLFW_KEY_MINUS:
	case GLFW_KEY_KP_SUBTRACT:
		remove_sources(a, 10);
		break;
	case GLFW_KEY_SPACE:
		a->paused = !a->paused;
		eng_set_paused(a->engine, a->paused);
		say(a, "Space: ticking %s", a->paused ? "paused (scene time stopped)" : "resumed");
		break;
	case GLFW_KEY_V:
		a->vsync = !a->vsync;
		eng_gfx_set_vsync(a->vsync);
		say(a, "V: vsync %s", a->vsync ? "on" : "off");
		break;
	case GLFW_KEY_ESCAPE:
		a->quit = true;
		say(a, "Esc: quitting");
		break;
	default:
		if (key >= GLFW_KEY_1 && key <= GLFW_KEY_8)
			switch_scene(a, (uint32_t)(key - GLFW_KEY_1));
		break;
	}
}

void app_after_frame(demo_app *a)
{
	uint64_t ns = eng_frame_time_ns(a->engine);
	a->frame_ms[a->graph_head] = (float)((double)ns / 1e6);
	a->graph_head = (a->graph_head + 1) % APP_GRAPH_FRAMES;
	if (a->trace_running && source_profiler_trace_state() == SOURCE_PROFILER_TRACE_FINISHED)
		finish_trace(a);
	if (a->screenshot_pending) {
		int s = eng_screenshot_poll(a->engine);
		if (s) {
			a->screenshot_pending = false;
			if (s > 0)
				say(a, "S: screenshot written to %s", a->screenshot_path);
			else
				say(a, "S: cannot write %s", a->screenshot_path);
		}
	}
}

int app_key_from_name(const char *name)
{
	static const struct {
		const char *name;
		int key;
	} keys[] = {
		{"P", GLFW_KEY_P},       {"G", GLFW_KEY_G},        {"O", GLFW_KEY_O},
		{"C", GLFW_KEY_C},       {"T", GLFW_KEY_T},        {"S", GLFW_KEY_S},
		{"+", GLFW_KEY_EQUAL},   {"PLUS", GLFW_KEY_EQUAL}, {"-", GLFW_KEY_MINUS},
		{"MINUS", GLFW_KEY_MINUS}, {"SPACE", GLFW_KEY_SPACE}, {"V", GLFW_KEY_V},
		{"ESC", GLFW_KEY_ESCAPE}, {"F1", GLFW_KEY_F1},
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(keys[i].name, name) == 0)
			return keys[i].key;
	if (name[0] >= '1' && name[0] <= '8' && name[1] == '\0')
		return GLFW_KEY_1 + (name[0] - '1');
	return -1;
}
