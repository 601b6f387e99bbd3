/* The on-screen overlay (overlay.h), put together from its parts: the
 * header, the frame-time graph (overlay_graph.c), the table or the
 * selected source's detail (overlay_table.c, overlay_detail.c) and, with
 * F1, the hotkeys; each on a panel of its own, sized from its content and
 * the window.
 *
 * From the top, what goes when the window is short: the graph first
 * (when the table would show fewer than 3 rows with it), then table rows.
 * Across, the table drops whole columns (overlay_layout.h). */
#include "overlay.h"
#include "keys.h"
#include "overlay_parts.h"
#include "srcprof_base/stats.h"

#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <stdlib.h>
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
static void gpu_state(const overlay_view *v, const eng_gfx_info *info,
		      const source_profiler_stats_t *st, char *buf, size_t size)
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
		snprintf(what, sizeof what, "1 frame in %u", v->gpu_timed_every);
	char res[48] = "";
	if (st->gpu_resolution_ns > 1) {
		char us[24];
		stats_format_us_up(us, sizeof us, (double)st->gpu_resolution_ns / 1e3);
		snprintf(res, sizeof res, ", resolution %s us", us);
	}
	snprintf(buf, size, "GPU timing: %s, %s%s   dropped frames: %llu   scene %s, %u sources",
		 info->gpu_timing, what, res, (unsigned long long)st->gpu_frames_disjoint, v->scene,
		 v->sources);
}

/* The header's lines on one panel; returns its height. */
static float header(overlay_state *ov, const overlay_view *v, float x, float y, float max_w)
{
	const float s = ov->scale, pad = OVL_PAD * s, line = OVL_LINE * s;
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint64_t ft = v->frame_ns;
	char l1[512], l2[512];
	int at = snprintf(l1, sizeof l1, "srcprof  %s on %s  %.1f fps  %.2f ms/frame", info.api,
			  info.device, ft ? 1e9 / (double)ft : 0.0, (double)ft / 1e6);
	/* Threads and queues, where there are several. */
	uint32_t tick = v->tick_threads, record = v->record_threads;
	if ((tick > 1 || record > 1) && at > 0 && (size_t)at < sizeof l1)
		at += snprintf(l1 + at, sizeof l1 - (size_t)at, "  threads: tick %u, record %u", tick,
			       record);
	for (uint32_t q = 0, k = 0; st.gpu_queues > 1 && q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		const char *name = source_profiler_queue_name(q);
		if (name && at > 0 && (size_t)at < sizeof l1)
			at += snprintf(l1 + at, sizeof l1 - (size_t)at, "%s%s", k++ ? "+" : "  queues: ",
				       name);
	}
	uint32_t n = v->sources;
	if (!st.enabled)
		snprintf(l2, sizeof l2, "profiler off (P)   scene %s, %u sources", v->scene, n);
	else if (!st.gpu_enabled)
		snprintf(l2, sizeof l2, "GPU timing off (G)   scene %s, %u sources", v->scene, n);
	else
		gpu_state(v, &info, &st, l2, sizeof l2);
	char l3[320];
	if (v->paused)
		snprintf(l3, sizeof l3, "PAUSED (Space)%s%s", v->logging ? "   logging (L)" : "",
			 v->tracing ? "   tracing" : "");
	else
		snprintf(l3, sizeof l3, "%s%s%s", v->logging ? "logging (L)   " : "",
			 v->tracing ? "tracing   " : "", v->status);
	bool busy = v->busy[0] != '\0';
	const char *lines[4] = {l1, l2, busy ? v->busy : l3, l3};
	const eng_rgba colors[4] = {ovl_white, st.gpu_frames_disjoint ? ovl_warn : ovl_accent,
				    busy ? ovl_warn : v->paused ? ovl_warn : ovl_dim,
				    v->paused ? ovl_warn : ovl_dim};
	char cut[4][512];
	float w = 0;
	int count = busy ? 4 : 3;
	for (int i = 0; i < count; i++) {
		float lw = ovl_fit_text(lines[i], max_w - 2 * pad, s, cut[i], sizeof cut[i]);
		w = lw > w ? lw : w;
	}
	int shown = cut[count - 1][0] ? count : count - 1;
	float h = 2 * pad + line * (float)shown - (line - 8.0f * s);
	eng_ui_rect(ov->ui, x, y, w + 2 * pad, h, ovl_panel);
	for (int i = 0; i < shown; i++)
		eng_ui_text(ov->ui, x + pad, y + pad + line * (float)i, cut[i], s, colors[i]);
	return h;
}

/* The hotkeys, in one or two columns as the width allows; what does not
 * fit the height is counted in the title. */
static void help(overlay_state *ov, float x, float y, float max_w, float max_h)
{
	const float s = ov->scale, pad = OVL_PAD * s, line = OVL_LINE * s, gap = OVL_GAP * s;
	const size_t n = keys_help_count();
	float kw = 0, ww = 0;
	for (size_t i = 0; i < n; i++) {
		const char *k, *what;
		keys_help(i, &k, &what);
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
	eng_ui_rect(ov->ui, x, y, w, 2 * pad + line * (float)(per + 1), (eng_rgba){20, 20, 40, 255});
	char title[96], cut[256];
	if (shown < n)
		snprintf(title, sizeof title, "hotkeys (F1 hides; %zu more: srcprof-demo --help)",
			 n - shown);
	else
		snprintf(title, sizeof title, "hotkeys (F1 hides)");
	ovl_fit_text(title, w - 2 * pad, s, cut, sizeof cut);
	eng_ui_text(ov->ui, x + pad, y + pad, cut, s, ovl_accent);
	for (size_t i = 0; i < shown; i++) {
		const char *k, *what;
		keys_help(i, &k, &what);
		float cx = x + pad + (float)(i / per) * col_step;
		float cy = y + pad + line * (float)(i % per + 1);
		eng_ui_text(ov->ui, cx, cy, k, s, ovl_accent);
		float room = (cols == 2 ? col_w : w - 2 * pad) - kw - gap;
		ovl_fit_text(what, room, s, cut, sizeof cut);
		eng_ui_text(ov->ui, cx + kw + gap, cy, cut, s, ovl_white);
	}
}

bool overlay_init(overlay_state *ov, bool on, float scale)
{
	memset(ov, 0, sizeof *ov);
	ov->scale_set = scale;
	ov->page = 12;
	ov->samples = malloc(OVL_WINDOW_MAX * sizeof *ov->samples);
	ov->hist_us = malloc(OVL_WINDOW_MAX * sizeof *ov->hist_us);
	ov->hist_scratch = malloc(OVL_WINDOW_MAX * sizeof *ov->hist_scratch);
	ov->view = malloc(OVL_VIEW_ROWS * sizeof *ov->view);
	if (!ov->samples || !ov->hist_us || !ov->hist_scratch || !ov->view) {
		overlay_free(ov);
		return false;
	}
	ov->ui = eng_ui_create();
	ov->on = on && ov->ui;
	return true;
}

void overlay_free(overlay_state *ov)
{
	eng_ui_destroy(ov->ui);
	free(ov->samples);
	free(ov->hist_us);
	free(ov->hist_scratch);
	free(ov->view);
	*ov = (overlay_state){0};
}

/* The selected source's row, or NULL; a selection whose source is gone
 * is dropped (and its detail closed). */
static const src_row *keep_selection(overlay_state *ov, const overlay_view *v)
{
	for (uint32_t i = 0; i < v->n_rows; i++)
		if (v->rows[i].key == ov->selected)
			return &v->rows[i];
	ov->selected = NULL;
	ov->detail = false;
	return NULL;
}

void overlay_build(overlay_state *ov, const overlay_view *v)
{
	const float W = (float)v->width, H = (float)v->height;
	ov->scale = ov->scale_set > 0 ? ov->scale_set : ovl_auto_scale(v->height);
	const float s = ov->scale, m = OVL_MARGIN * s, gap = OVL_PAD * s;
	const src_row *sel = keep_selection(ov, v);
	eng_ui_begin(ov->ui);
	float x = m, y = m, max_w = W - 2 * m;
	y += header(ov, v, x, y, max_w) + gap;

	float graph_h = 48.0f * s, graph_w = W * 0.5f > 560.0f * s ? W * 0.5f : 560.0f * s;
	graph_w = graph_w < max_w ? graph_w : max_w;
	float below = H - m - y;
	bool graph = ovl_table_rows_fit(below - graph_h - gap, s) >= 3;
	if (graph) {
		ovl_frame_graph(ov, v, (ovl_rect){x, y, graph_w, graph_h});
		y += graph_h + gap;
	}
	if (ov->detail && sel) {
		float dh = H - m - y, dw = max_w < 560.0f * s ? max_w : 560.0f * s;
		ovl_detail(ov, v, sel, x, y, dw, dh);
	} else if (ov->work_view && source_profiler_work_enabled()) {
		ovl_work_table(ov, v, x, y, max_w, H - m - y);
	} else {
		ovl_table(ov, v, x, y, max_w, H - m - y);
	}
	if (ov->help)
		help(ov, x, y, max_w, H - m - y);
}

void overlay_draw(const overlay_state *ov, uint32_t width, uint32_t height)
{
	eng_ui_draw(ov->ui, width, height);
}
