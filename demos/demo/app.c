/* Hotkeys and what they do. Every action prints one line: what happened,
 * and where a file went. Toggles follow the profiler contract: they take
 * effect at the next frame boundary. The files the keys write are in
 * app_files.c, the key names in app_keys.c. */
#include "app.h"
#include "app_files.h"
#include "overlay_layout.h"

#include "engine/log.h"
#include "engine/sources.h"
#include "srcprof/clock.h"
#include "srcprof/export.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void app_say(demo_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof a->status, fmt, ap);
	va_end(ap);
	printf("%s\n", a->status);
	fflush(stdout);
}

void app_fail(demo_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof a->status, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "srcprof-demo: %s\n", a->status);
	a->file_failed = true;
}

static void on_key(eng_key key, int mods, void *user)
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

bool app_init(demo_app *a, eng_engine *e, const app_desc *d)
{
	memset(a, 0, sizeof *a);
	a->engine = e;
	a->scene = d->scene;
	a->sources = d->sources;
	a->out_dir = d->out_dir ? d->out_dir : ".";
	a->started = d->started;
	a->overlay = d->overlay;
	a->vsync = d->vsync;
	a->headless = d->headless;
	a->profiler_on = d->profile;
	a->gpu_on = d->profile && d->gpu;
	a->scale_set = d->overlay_scale;
	a->target_fps = d->target_fps ? d->target_fps : 60;
	a->page = 12;
	a->samples = malloc(APP_WINDOW_MAX * sizeof *a->samples);
	a->hist_us = malloc(APP_WINDOW_MAX * sizeof *a->hist_us);
	a->hist_scratch = malloc(APP_WINDOW_MAX * sizeof *a->hist_scratch);
	a->view = malloc(APP_VIEW_ROWS * sizeof *a->view);
	if (!a->samples || !a->hist_us || !a->hist_scratch || !a->view ||
	    !rows_reserve(&a->rows, &a->rows_cap, eng_source_count(e) + 1)) {
		free(a->samples);
		free(a->hist_us);
		free(a->hist_scratch);
		free(a->view);
		free(a->rows);
		return false;
	}
	srcprof_load_start(&a->load_run);
	srcprof_load_start(&a->load_recent);
	a->busy_recent = -1;
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
	app_log_stop(a);
	runlog_free(&a->log);
	eng_ui_destroy(a->ui);
	if (a->trace_running)
		source_profiler_trace_discard();
	free(a->rows);
	rows_median_cache_free(&a->med);
	free(a->samples);
	free(a->hist_us);
	free(a->hist_scratch);
	free(a->view);
}

void app_meta(const demo_app *a, capture_meta *m)
{
	*m = (capture_meta){
		.scene = a->scene->name,
		.sources = eng_source_count(a->engine),
		.frame = eng_frame_index(a->engine),
		.started = a->started,
		.gpu_on = a->profiler_on && a->gpu_on,
		.gpu_every = eng_gpu_timed_every(a->engine),
	};
}

void app_burst(demo_app *a)
{
	if (a->profiler_on && a->gpu_on)
		source_profiler_gpu_burst();
}

bool app_busy_text(double pct, bool software, char *buf, size_t size)
{
	if (!(pct > SRCPROF_BUSY_PCT)) {
		if (size)
			buf[0] = '\0';
		return false;
	}
	snprintf(buf, size, "machine busy: other processes used %.0f%% of the CPU; %s", pct,
		 software ? "software-device GPU times are inflated" : "CPU times may be inflated");
	return true;
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
	demo_serve_sources(a->serve, a->engine);
}

/* + and - of a scene that gives them a meaning of its own (the work
 * scene's sphere); false where it does not. */
static bool adjust_scene(demo_app *a, int dir, const char *key)
{
	char said[160];
	if (!a->scene->adjust || !a->scene->adjust(a->engine, dir, said, sizeof said))
		return false;
	app_burst(a);
	app_say(a, "%s: %s", key, said);
	return true;
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
	app_say(a, "-: removed %d sources (%u left after this frame)", removed,
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
	a->sources = 0;
	a->added = 0;
	a->selected = NULL;
	a->detail = false;
	a->top = 0;
	eng_set_view_count(a->engine, s->views);
	app_burst(a); /* the new sources' figures from their first second */
	if (!s->build(a->engine, s->default_sources))
		app_say(a, "%u: scene %s could not be built completely", index + 1, s->name);
	else
		app_say(a, "%u: scene %s (%u sources)", index + 1, s->name,
			scene_total_sources(s, 0));
	demo_serve_sources(a->serve, a->engine);
}

/* The row the selection is on in the last table, or -1. */
static int selected_index(const demo_app *a)
{
	for (uint32_t i = 0; i < a->n_rows; i++)
		if (a->rows[i].key == a->selected)
			return (int)i;
	return -1;
}

/* Moves the selection by `by` rows (or to the first / last), keeping it in
 * view. `what` names the key in the message. */
static void move_selection(demo_app *a, const char *what, int64_t by, bool to_end)
{
	if (!a->overlay) {
		app_say(a, "%s: the overlay is off (O)", what);
		return;
	}
	if (!a->n_rows) {
		app_say(a, "%s: no sources to select%s", what, a->profiler_on ? "" : " (profiler off)");
		return;
	}
	int cur = selected_index(a);
	int64_t n = a->n_rows, i;
	if (to_end)
		i = by < 0 ? 0 : n - 1;
	else if (cur < 0)
		i = a->top < n ? (int64_t)a->top : 0; /* the first press selects the top row */
	else
		i = cur + by;
	i = i < 0 ? 0 : i >= n ? n - 1 : i;
	a->selected = a->rows[i].key;
	uint32_t page = a->page ? a->page : 1;
	if ((uint32_t)i < a->top)
		a->top = (uint32_t)i;
	else if ((uint32_t)i >= a->top + page)
		a->top = (uint32_t)i - page + 1;
	app_say(a, "%s: %s selected (%lld of %u)", what, a->rows[i].name, (long long)i + 1,
		a->n_rows);
}

/* Page Up / Down: the view moves a page, and the selection with it. */
static void page(demo_app *a, const char *what, int dir)
{
	uint32_t page = a->page ? a->page : 1;
	if (dir > 0 && a->top + page < a->n_rows)
		a->top += page;
	else if (dir < 0)
		a->top = a->top > page ? a->top - page : 0;
	move_selection(a, what, dir * (int64_t)page, false);
}

static void toggle_detail(demo_app *a)
{
	if (a->detail) {
		a->detail = false;
		app_say(a, "Enter: detail closed");
		return;
	}
	if (selected_index(a) < 0)
		move_selection(a, "Enter", 0, false);
	int i = selected_index(a);
	if (i < 0)
		return;
	a->detail = true;
	app_say(a, "Enter: detail of %s (Enter again: the table)", a->rows[i].name);
}

static void cycle_scale(demo_app *a)
{
	static const float steps[] = {0, 1, 1.5f, 2, 3, 4};
	const size_t n = sizeof steps / sizeof steps[0];
	size_t k = 0;
	while (k < n && steps[k] != a->scale_set)
		k++;
	a->scale_set = steps[(k + 1) % n];
	const eng_view *main = eng_view_at(a->engine, 0);
	float automatic = ovl_auto_scale(main->area.h);
	if (a->scale_set == 0)
		app_say(a, "Z: overlay scale auto (%g at this height)", automatic);
	else
		app_say(a, "Z: overlay scale %g", a->scale_set);
}

static void cycle_sort(demo_app *a)
{
	a->sort = (row_sort)((a->sort + 1) % ROW_SORTS);
	row_sort used = rows_effective_sort(a->sort, a->profiler_on && a->gpu_on);
	if (used != a->sort)
		app_say(a, "Tab: sorted by %s (GPU timing is off: by %s until G)",
			rows_sort_name(a->sort), rows_sort_name(used));
	else
		app_say(a, "Tab: sorted by %s", rows_sort_name(a->sort));
}

void app_key(demo_app *a, eng_key key)
{
	switch (key) {
	case ENG_KEY_P:
		a->profiler_on = !a->profiler_on;
		source_profiler_enable(a->profiler_on);
		if (a->profiler_on)
			source_profiler_gpu_enable(a->gpu_on);
		app_say(a, "P: profiler %s (from the next frame%s)", a->profiler_on ? "on" : "off",
			a->profiler_on ? "" : "; its statistics are dropped");
		break;
	case ENG_KEY_G:
		a->gpu_on = !a->gpu_on;
		source_profiler_gpu_enable(a->gpu_on);
		if (a->gpu_on && !a->profiler_on)
			app_say(a, "G: GPU timing requested, but the profiler is off (press P)");
		else
			app_say(a, "G: GPU timing %s (from the next frame%s)", a->gpu_on ? "on" : "off",
				a->gpu_on ? "" : "; the table sorts by CPU");
		break;
	case ENG_KEY_W:
		if (!source_profiler_work_enabled()) {
			app_say(a, "W: work is not counted in this run (start it with --work)");
			break;
		}
		a->work_view = !a->work_view;
		app_say(a, "W: the table shows %s", a->work_view ? "each source's work per frame"
								 : "times");
		break;
	case ENG_KEY_M:
		if (!a->profiler_on || !a->gpu_on) {
			app_say(a, "M: GPU timing is off (%s)", a->profiler_on ? "G" : "P, then G");
			break;
		}
		source_profiler_sampling_t sm;
		source_profiler_get_sampling(&sm);
		if (!sm.costly) {
			app_say(a, "M: every frame is GPU-timed already (this mode's timers are "
				   "cheap: no burst needed)");
			break;
		}
		source_profiler_gpu_burst();
		app_say(a, "M: measuring now: every frame GPU-timed until each source holds %d GPU "
			   "samples (at most %d s from the first)",
			SOURCE_PROFILER_BURST_SAMPLES, SOURCE_PROFILER_BURST_SECONDS);
		break;
	case ENG_KEY_O:
		a->overlay = a->ui && !a->overlay;
		app_say(a, "O: overlay %s", a->overlay ? "on" : a->ui ? "off" : "unavailable");
		break;
	case ENG_KEY_Z:
		cycle_scale(a);
		break;
	case ENG_KEY_F1:
		a->help = !a->help;
		if (a->help && !a->overlay && a->ui)
			a->overlay = true;
		app_say(a, "F1: help %s", a->help ? "shown" : "hidden");
		break;
	case ENG_KEY_TAB:
		cycle_sort(a);
		break;
	case ENG_KEY_UP:
		move_selection(a, "Up", -1, false);
		break;
	case ENG_KEY_DOWN:
		move_selection(a, "Down", 1, false);
		break;
	case ENG_KEY_PAGE_UP:
		page(a, "PgUp", -1);
		break;
	case ENG_KEY_PAGE_DOWN:
		page(a, "PgDn", 1);
		break;
	case ENG_KEY_HOME:
		move_selection(a, "Home", -1, true);
		break;
	case ENG_KEY_END:
		move_selection(a, "End", 1, true);
		break;
	case ENG_KEY_ENTER:
	case ENG_KEY_KP_ENTER:
		toggle_detail(a);
		break;
	case ENG_KEY_C:
		app_write_snapshot(a);
		break;
	case ENG_KEY_T:
		app_start_trace(a);
		break;
	case ENG_KEY_S:
		app_request_screenshot(a);
		break;
	case ENG_KEY_L:
		if (a->log.f)
			app_log_stop(a);
		else
			app_log_start(a, NULL);
		break;
	case ENG_KEY_EQUAL:
	case ENG_KEY_KP_ADD:
		if (adjust_scene(a, 1, "+"))
			break;
		add_sources(a, 10);
		app_burst(a);
		app_say(a, "+: added 10 sources (%u now)", eng_source_count(a->engine));
		break;
	case ENG_KEY_MINUS:
	case ENG_KEY_KP_SUBTRACT:
		if (adjust_scene(a, -1, "-"))
			break;
		remove_sources(a, 10);
		app_burst(a);
		break;
	case ENG_KEY_SPACE:
		a->paused = !a->paused;
		eng_set_paused(a->engine, a->paused);
		app_say(a, "Space: ticking %s", a->paused ? "paused (scene time stopped)" : "resumed");
		break;
	case ENG_KEY_V:
		if (a->headless) {
			app_say(a, "V: headless: no window to synchronise (vsync does not apply)");
			break;
		}
		a->vsync = !a->vsync;
		eng_gfx_set_vsync(a->vsync);
		app_say(a, "V: vsync %s", a->vsync ? "on" : "off");
		break;
	case ENG_KEY_U:
		if (a->serve)
			app_say(a, "U: live view: %s", demo_serve_url(a->serve));
		else
			app_say(a, "U: no live view (start with --serve [ADDR:]PORT)");
		break;
	case ENG_KEY_ESCAPE:
		a->quit = true;
		app_say(a, "Esc: quitting");
		break;
	default:
		if (key >= ENG_KEY_1 && key <= ENG_KEY_9)
			switch_scene(a, (uint32_t)(key - ENG_KEY_1));
		break;
	}
}

void app_after_frame(demo_app *a)
{
	uint64_t ns = eng_frame_time_ns(a->engine);
	a->frame_ms[a->graph_head] = (float)((double)ns / 1e6);
	a->graph_head = (a->graph_head + 1) % APP_GRAPH_FRAMES;
	app_files_after_frame(a);
	runlog_frame(&a->log, a->engine, srcprof_clock_ns());
}
