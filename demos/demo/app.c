/* Hotkeys and what they do (app.h). Every action prints one line on the
 * status line: what happened, and where a file went. Toggles follow the
 * profiler contract: they take effect at the next frame boundary. The
 * files the keys write are app_files.c's, the key names keys.c's. */
#include "app.h"
#include "overlay_layout.h"

#include "srcprof/source_profiler.h"

#include <string.h>

_Static_assert(OVL_GRAPH_FRAMES <= MODEL_GRAPH_FRAMES, "the graph shows frames the model keeps");

static void on_key(eng_key key, int mods, void *user)
{
	(void)mods;
	app_key(user, key);
}

/* The overlay's view-model for this frame, from the model (its rows
 * gathered and sorted now) and the controller's state. */
static void build_view(demo_app *a)
{
	demo_model *m = &a->model;
	overlay_view *v = &a->view;
	eng_engine *e = m->engine;
	model_gather_rows(m);
	const eng_view *main = eng_view_at(e, 0);
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	v->width = main->area.w;
	v->height = main->area.h;
	v->frame_ns = eng_frame_time_ns(e);
	v->tick_threads = eng_tick_threads(e);
	v->record_threads = eng_record_threads(e);
	v->gpu_timed_every = eng_gpu_timed_every(e);
	v->scene = m->scene->name;
	v->sources = eng_source_count(e);
	v->profiler_on = m->profiler_on;
	v->gpu_on = model_gpu_timing(m);
	v->paused = m->paused;
	v->logging = a->files.log.f != NULL;
	v->tracing = a->files.trace_running;
	v->status = a->status.text;
	model_busy_text(model_busy_recent(m), info.software, v->busy, sizeof v->busy);
	v->target_fps = m->target_fps;
	model_frame_times(m, v->frame_ms, OVL_GRAPH_FRAMES);
	v->rows = m->rows;
	v->n_rows = m->n_rows;
	v->sort = m->sort;
}

/* Built in the overlay's tick and drawn in its render, so that its own
 * cost (gathering the rows included) shows as the "overlay" entry. */
static void overlay_tick(void *user)
{
	demo_app *a = user;
	if (!a->overlay.on)
		return;
	build_view(a);
	overlay_build(&a->overlay, &a->view);
}

static void overlay_render(void *user, const eng_view *main_view)
{
	demo_app *a = user;
	if (a->overlay.on)
		overlay_draw(&a->overlay, main_view->area.w, main_view->area.h);
}

bool app_init(demo_app *a, eng_engine *e, const app_desc *d)
{
	memset(a, 0, sizeof *a);
	if (!model_init(&a->model, e,
			&(model_desc){.scene = d->scene, .started = d->started, .profile = d->profile,
				      .gpu = d->gpu, .target_fps = d->target_fps}))
		return false;
	if (!overlay_init(&a->overlay, d->overlay, d->overlay_scale)) {
		model_free(&a->model);
		return false;
	}
	files_init(&a->files, d->out_dir);
	a->vsync = d->vsync;
	a->headless = d->headless;
	eng_set_overlay(e, &(eng_overlay){.user = a, .tick = overlay_tick, .render = overlay_render});
	eng_set_key_handler(e, on_key, a);
	return true;
}

void app_shutdown(demo_app *a)
{
	eng_set_overlay(a->model.engine, NULL);
	eng_set_key_handler(a->model.engine, NULL, NULL);
	files_log_stop(&a->files, &a->model, &a->status);
	files_free(&a->files);
	overlay_free(&a->overlay);
	model_free(&a->model);
}

static void add_sources(demo_app *a)
{
	model_add_sources(&a->model, 10);
	demo_serve_sources(a->serve, a->model.engine);
	model_burst(&a->model);
	status_say(&a->status, "+: added 10 sources (%u now)", eng_source_count(a->model.engine));
}

static void remove_sources(demo_app *a)
{
	uint32_t removed = model_remove_sources(&a->model, 10);
	status_say(&a->status, "-: removed %u sources (%u left after this frame)", removed,
		   eng_source_count(a->model.engine) - removed);
	model_burst(&a->model);
}

/* + and - of a scene that gives them a meaning of its own (the work
 * scene's sphere); false where it does not. */
static bool adjust_scene(demo_app *a, int dir, const char *key)
{
	char said[160];
	if (!model_adjust_scene(&a->model, dir, said, sizeof said))
		return false;
	model_burst(&a->model);
	status_say(&a->status, "%s: %s", key, said);
	return true;
}

static void switch_scene(demo_app *a, uint32_t index)
{
	const scene_def *s = scene_at(index);
	if (!s)
		return;
	a->overlay.selected = NULL;
	a->overlay.detail = false;
	a->overlay.top = 0;
	if (!model_switch_scene(&a->model, s))
		status_say(&a->status, "%u: scene %s could not be built completely", index + 1,
			   s->name);
	else
		status_say(&a->status, "%u: scene %s (%u sources)", index + 1, s->name,
			   scene_total_sources(s, 0));
	demo_serve_sources(a->serve, a->model.engine);
}

/* Moves the selection by `by` rows of the last table (or to the first /
 * last), keeping it in view. `what` names the key in the message. */
static void move_selection(demo_app *a, const char *what, int64_t by, bool to_end)
{
	const demo_model *m = &a->model;
	overlay_state *ov = &a->overlay;
	if (!ov->on) {
		status_say(&a->status, "%s: the overlay is off (O)", what);
		return;
	}
	if (!m->n_rows) {
		status_say(&a->status, "%s: no sources to select%s", what,
			   m->profiler_on ? "" : " (profiler off)");
		return;
	}
	int cur = model_row_index(m, ov->selected);
	int64_t n = m->n_rows, i;
	if (to_end)
		i = by < 0 ? 0 : n - 1;
	else if (cur < 0)
		i = ov->top < n ? (int64_t)ov->top : 0; /* the first press selects the top row */
	else
		i = cur + by;
	i = i < 0 ? 0 : i >= n ? n - 1 : i;
	ov->selected = m->rows[i].key;
	uint32_t page = ov->page ? ov->page : 1;
	if ((uint32_t)i < ov->top)
		ov->top = (uint32_t)i;
	else if ((uint32_t)i >= ov->top + page)
		ov->top = (uint32_t)i - page + 1;
	status_say(&a->status, "%s: %s selected (%lld of %u)", what, m->rows[i].name,
		   (long long)i + 1, m->n_rows);
}

/* Page Up / Down: the view moves a page, and the selection with it. */
static void page(demo_app *a, const char *what, int dir)
{
	overlay_state *ov = &a->overlay;
	uint32_t page = ov->page ? ov->page : 1;
	if (dir > 0 && ov->top + page < a->model.n_rows)
		ov->top += page;
	else if (dir < 0)
		ov->top = ov->top > page ? ov->top - page : 0;
	move_selection(a, what, dir * (int64_t)page, false);
}

static void toggle_detail(demo_app *a)
{
	overlay_state *ov = &a->overlay;
	if (ov->detail) {
		ov->detail = false;
		status_say(&a->status, "Enter: detail closed");
		return;
	}
	if (model_row_index(&a->model, ov->selected) < 0)
		move_selection(a, "Enter", 0, false);
	int i = model_row_index(&a->model, ov->selected);
	if (i < 0)
		return;
	ov->detail = true;
	status_say(&a->status, "Enter: detail of %s (Enter again: the table)",
		   a->model.rows[i].name);
}

static void cycle_scale(demo_app *a)
{
	static const float steps[] = {0, 1, 1.5f, 2, 3, 4};
	const size_t n = sizeof steps / sizeof steps[0];
	overlay_state *ov = &a->overlay;
	size_t k = 0;
	while (k < n && steps[k] != ov->scale_set)
		k++;
	ov->scale_set = steps[(k + 1) % n];
	const eng_view *main = eng_view_at(a->model.engine, 0);
	float automatic = ovl_auto_scale(main->area.h);
	if (ov->scale_set == 0)
		status_say(&a->status, "Z: overlay scale auto (%g at this height)", automatic);
	else
		status_say(&a->status, "Z: overlay scale %g", ov->scale_set);
}

static void cycle_sort(demo_app *a)
{
	demo_model *m = &a->model;
	m->sort = (row_sort)((m->sort + 1) % ROW_SORTS);
	row_sort used = rows_effective_sort(m->sort, model_gpu_timing(m));
	if (used != m->sort)
		status_say(&a->status, "Tab: sorted by %s (GPU timing is off: by %s until G)",
			   rows_sort_name(m->sort), rows_sort_name(used));
	else
		status_say(&a->status, "Tab: sorted by %s", rows_sort_name(m->sort));
}

static void toggle_profiler(demo_app *a)
{
	demo_model *m = &a->model;
	model_set_profiler(m, !m->profiler_on);
	status_say(&a->status, "P: profiler %s (from the next frame%s)",
		   m->profiler_on ? "on" : "off", m->profiler_on ? "" : "; its statistics are dropped");
}

static void toggle_gpu(demo_app *a)
{
	demo_model *m = &a->model;
	model_set_gpu(m, !m->gpu_on);
	if (m->gpu_on && !m->profiler_on)
		status_say(&a->status, "G: GPU timing requested, but the profiler is off (press P)");
	else
		status_say(&a->status, "G: GPU timing %s (from the next frame%s)",
			   m->gpu_on ? "on" : "off", m->gpu_on ? "" : "; the table sorts by CPU");
}

/* M: every frame GPU-timed until each source holds a burst's samples. */
static void measure_now(demo_app *a)
{
	const demo_model *m = &a->model;
	if (!model_gpu_timing(m)) {
		status_say(&a->status, "M: GPU timing is off (%s)", m->profiler_on ? "G" : "P, then G");
		return;
	}
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	if (!sm.costly) {
		status_say(&a->status, "M: every frame is GPU-timed already (this mode's timers are "
				       "cheap: no burst needed)");
		return;
	}
	source_profiler_gpu_burst();
	status_say(&a->status, "M: measuring now: every frame GPU-timed until each source holds "
			       "%d GPU samples (at most %d s from the first)",
		   SOURCE_PROFILER_BURST_SAMPLES, SOURCE_PROFILER_BURST_SECONDS);
}

/* The keys that change what the overlay shows; false for any other. */
static bool overlay_key(demo_app *a, eng_key key)
{
	overlay_state *ov = &a->overlay;
	switch (key) {
	case ENG_KEY_O:
		ov->on = ov->ui && !ov->on;
		status_say(&a->status, "O: overlay %s", ov->on ? "on" : ov->ui ? "off" : "unavailable");
		return true;
	case ENG_KEY_Z: cycle_scale(a); return true;
	case ENG_KEY_F1:
		ov->help = !ov->help;
		if (ov->help && !ov->on && ov->ui)
			ov->on = true;
		status_say(&a->status, "F1: help %s", ov->help ? "shown" : "hidden");
		return true;
	case ENG_KEY_W:
		if (!source_profiler_work_enabled()) {
			status_say(&a->status, "W: work is not counted in this run (start it with "
					       "--work)");
			return true;
		}
		ov->work_view = !ov->work_view;
		status_say(&a->status, "W: the table shows %s",
			   ov->work_view ? "each source's work per frame" : "times");
		return true;
	case ENG_KEY_TAB: cycle_sort(a); return true;
	case ENG_KEY_UP: move_selection(a, "Up", -1, false); return true;
	case ENG_KEY_DOWN: move_selection(a, "Down", 1, false); return true;
	case ENG_KEY_PAGE_UP: page(a, "PgUp", -1); return true;
	case ENG_KEY_PAGE_DOWN: page(a, "PgDn", 1); return true;
	case ENG_KEY_HOME: move_selection(a, "Home", -1, true); return true;
	case ENG_KEY_END: move_selection(a, "End", 1, true); return true;
	case ENG_KEY_ENTER:
	case ENG_KEY_KP_ENTER: toggle_detail(a); return true;
	default: return false;
	}
}

void app_key(demo_app *a, eng_key key)
{
	if (overlay_key(a, key))
		return;
	demo_model *m = &a->model;
	switch (key) {
	case ENG_KEY_P: toggle_profiler(a); break;
	case ENG_KEY_G: toggle_gpu(a); break;
	case ENG_KEY_M: measure_now(a); break;
	case ENG_KEY_C: files_write_snapshot(&a->files, m, &a->status); break;
	case ENG_KEY_T: files_start_trace(&a->files, m, &a->status); break;
	case ENG_KEY_S: files_request_screenshot(&a->files, m, &a->status); break;
	case ENG_KEY_L:
		if (a->files.log.f)
			files_log_stop(&a->files, m, &a->status);
		else
			files_log_start(&a->files, m, &a->status, NULL);
		break;
	case ENG_KEY_EQUAL:
	case ENG_KEY_KP_ADD:
		if (!adjust_scene(a, 1, "+"))
			add_sources(a);
		break;
	case ENG_KEY_MINUS:
	case ENG_KEY_KP_SUBTRACT:
		if (!adjust_scene(a, -1, "-"))
			remove_sources(a);
		break;
	case ENG_KEY_SPACE:
		model_set_paused(m, !m->paused);
		status_say(&a->status, "Space: ticking %s",
			   m->paused ? "paused (scene time stopped)" : "resumed");
		break;
	case ENG_KEY_V:
		if (a->headless) {
			status_say(&a->status, "V: headless: no window to synchronise (vsync does not "
					       "apply)");
			break;
		}
		a->vsync = !a->vsync;
		eng_gfx_set_vsync(a->vsync);
		status_say(&a->status, "V: vsync %s", a->vsync ? "on" : "off");
		break;
	case ENG_KEY_U:
		if (a->serve)
			status_say(&a->status, "U: live view: %s", demo_serve_url(a->serve));
		else
			status_say(&a->status, "U: no live view (start with --serve [ADDR:]PORT)");
		break;
	case ENG_KEY_ESCAPE:
		a->quit = true;
		status_say(&a->status, "Esc: quitting");
		break;
	default:
		if (key >= ENG_KEY_1 && key <= ENG_KEY_9)
			switch_scene(a, (uint32_t)(key - ENG_KEY_1));
		break;
	}
}

void app_after_frame(demo_app *a)
{
	model_record_frame(&a->model);
	files_after_frame(&a->files, &a->model, &a->status);
}
