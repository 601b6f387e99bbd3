/* The on-screen overlay: what the profiler sees, live. A header (API,
 * device, GPU timing mode, fps, dropped frames, the last action), a
 * frame-time graph, the table of sources (or the selected source's
 * detail) and, with F1, the hotkeys; each on a panel of its own, sized
 * from its content and the window. Built in the overlay's tick and drawn
 * in its render, so its own cost shows as the "overlay" entry.
 *
 * From the top, what goes when the window is short: the graph first
 * (when the table would show fewer than 3 rows with it), then table rows.
 * Across, the table drops whole columns (overlay_layout.h). */
#include "overlay.h"
#include "stats.h"

#include "srcprof/clock.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <string.h>

/* Blending happens in linear light on sRGB targets, where a dark panel at
 * alpha 200 still lets a third of a bright scene's brightness through:
 * panels are nearly opaque. */
const eng_rgba ovl_white = {235, 235, 235, 255}, ovl_dim = {165, 165, 175, 255},
	       ovl_panel = {8, 8, 14, 238}, ovl_accent = {120, 200, 255, 255},
	       ovl_head = {150, 190, 230, 255}, ovl_warn = {255, 190, 70, 255},
	       ovl_bad = {240, 90, 80, 255}, ovl_good = {90, 200, 120, 235},
	       ovl_select = {60, 90, 150, 200};

/* What GPU timing is doing, for the header: a burst's progress, a trace
 * timing every frame, or sampling one frame in N; and the resolution. */
static void gpu_state(demo_app *a, const eng_gfx_info *info, const source_profiler_stats_t *st,
		      char *buf, size_t size)
{
	source_profiler_sampling_t sm;
	source_profiler_get_sampling(&sm);
	char what[96];
	if (sm.burst)
		snprintf(what, sizeof what, "measuring %u/%u (every frame)", sm.burst_samples,
			 sm.burst_target);
	else if (sm.tracing)
		snprintf(what, sizeof what, "tracing: every frame");
	else if (!sm.costly)
		snprintf(what, sizeof what, "every frame");
	else
		snprintf(what, sizeof what, "1 frame in %u", eng_gpu_timed_every(a->engine));
	char res[48] = "";
	if (st->gpu_resolution_ns > 1) {
		char us[24];
		stats_format_us_up(us, sizeof us, (double)st->gpu_resolution_ns / 1e3);
		snprintf(res, sizeof res, ", resolution %s us", us);
	}
	snprintf(buf, size, "GPU timing: %s, %s%s   dropped frames: %llu   scene %s, %u sources",
		 info->gpu_timing, what, res, (unsigned long long)st->gpu_frames_disjoint,
		 a->scene->name, eng_source_count(a->engine));
}

/* Other processes' share of the CPU over about the last second, read a
 * few times a second (each read opens /proc/stat). */
static double busy_now(demo_app *a)
{
	uint64_t now = srcprof_clock_ns();
	srcprof_load_sample(&a->load_recent);
	if (!a->busy_read_ns || now - a->busy_read_ns >= APP_BUSY_EVERY_NS) {
		a->busy_recent = srcprof_load_recent_pct(&a->load_recent);
		a->busy_read_ns = now;
	}
	return a->busy_recent;
}

/* The header's lines on one panel; returns its height. */
static float header(demo_app *a, float x, float y, float max_w)
{
	const float s = a->scale, pad = OVL_PAD * s, line = OVL_LINE * s;
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint64_t ft = eng_frame_time_ns(a->engine);
	char l1[512], l2[512];
	int at = snprintf(l1, sizeof l1, "srcprof  %s on %s  %.1f fps  %.2f ms/frame", info.api,
			  info.device, ft ? 1e9 / (double)ft : 0.0, (double)ft / 1e6);
	/* Threads and queues, where there are several. */
	uint32_t tick = eng_tick_threads(a->engine), record = eng_record_threads(a->engine);
	if ((tick > 1 || record > 1) && at > 0 && (size_t)at < sizeof l1)
		at += snprintf(l1 + at, sizeof l1 - (size_t)at, "  threads: tick %u, record %u", tick,
			       record);
	for (uint32_t q = 0, k = 0; st.gpu_queues > 1 && q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		const char *name = source_profiler_queue_name(q);
		if (name && at > 0 && (size_t)at < sizeof l1)
			at += snprintf(l1 + at, sizeof l1 - (size_t)at, "%s%s", k++ ? "+" : "  queues: ",
				       name);
	}
	uint32_t n = eng_source_count(a->engine);
	if (!st.enabled)
		snprintf(l2, sizeof l2, "profiler off (P)   scene %s, %u sources", a->scene->name, n);
	else if (!st.gpu_enabled)
		snprintf(l2, sizeof l2, "GPU timing off (G)   scene %s, %u sources", a->scene->name,
			 n);
	else
		gpu_state(a, &info, &st, l2, sizeof l2);
	char l3[320];
	if (a->paused)
		snprintf(l3, sizeof l3, "PAUSED (Space)%s%s", a->log.f ? "   logging (L)" : "",
			 a->trace_running ? "   tracing" : "");
	else
		snprintf(l3, sizeof l3, "%s%s%s", a->log.f ? "logging (L)   " : "",
			 a->trace_running ? "tracing   " : "", a->status);
	char l4[160];
	bool busy = app_busy_text(busy_now(a), info.software, l4, sizeof l4);
	const char *lines[4] = {l1, l2, busy ? l4 : l3, l3};
	const eng_rgba colors[4] = {ovl_white, st.gpu_frames_disjoint ? ovl_warn : ovl_accent,
				    busy ? ovl_warn : a->paused ? ovl_warn : ovl_dim,
				    a->paused ? ovl_warn : ovl_dim};
	char cut[4][512];
	float w = 0;
	int count = busy ? 4 : 3;
	for (int i = 0; i < count; i++) {
		float lw = ovl_fit_text(lines[i], max_w - 2 * pad, s, cut[i], sizeof cut[i]);
		w = lw > w ? lw : w;
	}
	int shown = cut[count - 1][0] ? count : count - 1;
	float h = 2 * pad + line * (float)shown - (line - 8.0f * s);
	eng_ui_rect(a->ui, x, y, w + 2 * pad, h, ovl_panel);
	for (int i = 0; i < shown; i++)
		eng_ui_text(a->ui, x + pad, y + pad + line * (float)i, cut[i], s, colors[i]);
	return h;
}

/* The hotkeys, in one or two columns as the width allows; what does not
 * fit the height is counted in the title. */
static void help(demo_app *a, float x, float y, float max_w, float max_h)
{
	const float s = a->scale, pad = OVL_PAD * s, line = OVL_LINE * s, gap = OVL_GAP * s;
	const size_t n = app_key_help_count();
	float kw = 0, ww = 0;
	for (size_t i = 0; i < n; i++) {
		const char *k, *what;
		app_key_help(i, &k, &what);
		float a1 = eng_ui_text_width(k, s), a2 = eng_ui_text_width(what, s);
		kw = a1 > kw ? a1 : kw;
		ww = a2 > ww ? a2 : ww;
	}
	const float col_w = kw + gap + ww, col_step = col_w + 2 * gap;
	const size_t cols = col_step + col_w + 2 * pad <= max_w ? 2 : 1;
	size_t per = (n + cols - 1) / cols;
	size_t fit = max_h > 2 * pad + line ? (size_t)((max_h - 2 * pad - line) / line) : 0;
	per = per < fit ? per : fit;
	size_t shown = per * cols < n ? per * cols : n;
	float w = cols == 2 ? col_step + col_w + 2 * pad : col_w + 2 * pad;
	w = w < max_w ? w : max_w;
	eng_ui_rect(a->ui, x, y, w, 2 * pad + line * (float)(per + 1), (eng_rgba){20, 20, 40, 255});
	char title[96], cut[256];
	if (shown < n)
		snprintf(title, sizeof title, "hotkeys (F1 hides; %zu more: srcprof-demo --help)",
			 n - shown);
	else
		snprintf(title, sizeof title, "hotkeys (F1 hides)");
	ovl_fit_text(title, w - 2 * pad, s, cut, sizeof cut);
	eng_ui_text(a->ui, x + pad, y + pad, cut, s, ovl_accent);
	for (size_t i = 0; i < shown; i++) {
		const char *k, *what;
		app_key_help(i, &k, &what);
		float cx = x + pad + (float)(i / per) * col_step;
		float cy = y + pad + line * (float)(i % per + 1);
		eng_ui_text(a->ui, cx, cy, k, s, ovl_accent);
		float room = (cols == 2 ? col_w : w - 2 * pad) - kw - gap;
		ovl_fit_text(what, room, s, cut, sizeof cut);
		eng_ui_text(a->ui, cx + kw + gap, cy, cut, s, ovl_white);
	}
}

/* Gathers and sorts every row (the overlay's own entry stays last) and
 * drops a selection whose source is gone. */
static void gather(demo_app *a)
{
	uint32_t n = eng_source_count(a->engine) + 1;
	if (!rows_reserve(&a->rows, &a->rows_cap, n))
		n = a->rows_cap;
	a->med.intervals = true; /* the "sum +-" column */
	rows_refresh_medians(a->engine, &a->med, APP_MEDIANS_PER_FRAME);
	a->n_rows = rows_gather(a->engine, a->rows, n, true, &a->med);
	if (a->n_rows > 1)
		rows_sort(a->rows, a->n_rows - 1, a->sort, a->profiler_on && a->gpu_on);
	bool found = false;
	for (uint32_t i = 0; i < a->n_rows && !found; i++)
		found = a->rows[i].key == a->selected;
	if (!found) {
		a->selected = NULL;
		a->detail = false;
	}
}

static const src_row *selected_row(const demo_app *a)
{
	for (uint32_t i = 0; i < a->n_rows; i++)
		if (a->rows[i].key == a->selected)
			return &a->rows[i];
	return NULL;
}

void overlay_build(demo_app *a)
{
	const eng_view *main = eng_view_at(a->engine, 0);
	const float W = (float)main->area.w, H = (float)main->area.h;
	a->scale = a->scale_set > 0 ? a->scale_set : ovl_auto_scale(main->area.h);
	const float s = a->scale, m = OVL_MARGIN * s, gap = OVL_PAD * s;
	gather(a);
	eng_ui_begin(a->ui);
	float x = m, y = m, max_w = W - 2 * m;
	y += header(a, x, y, max_w) + gap;

	float graph_h = 48.0f * s, graph_w = W * 0.5f > 560.0f * s ? W * 0.5f : 560.0f * s;
	graph_w = graph_w < max_w ? graph_w : max_w;
	float below = H - m - y;
	bool graph = ovl_table_rows_fit(below - graph_h - gap, s) >= 3;
	if (graph) {
		ovl_frame_graph(a, (ovl_rect){x, y, graph_w, graph_h});
		y += graph_h + gap;
	}
	const src_row *sel = a->detail ? selected_row(a) : NULL;
	if (sel) {
		float dh = H - m - y, dw = max_w < 560.0f * s ? max_w : 560.0f * s;
		ovl_detail(a, sel, x, y, dw, dh);
	} else if (a->work_view && source_profiler_work_enabled()) {
		ovl_work_table(a, x, y, max_w, H - m - y);
	} else {
		ovl_table(a, x, y, max_w, H - m - y);
	}
	if (a->help)
		help(a, x, y, max_w, H - m - y);
}

void overlay_draw(demo_app *a, const eng_view *main_view)
{
	eng_ui_draw(a->ui, main_view->area.w, main_view->area.h);
}
