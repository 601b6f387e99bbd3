/* The frame-time graph and the bar graphs of the detail view. */
#include "overlay_parts.h"

#include <stdio.h>

static eng_rgba bar_color(float v, float budget, eng_rgba color)
{
	if (budget <= 0 || v <= budget)
		return color;
	return v <= 2 * budget ? ovl_warn : ovl_bad;
}

void ovl_bars(eng_ui *ui, ovl_rect plot, const float *v, uint32_t n, float top, float budget,
	      eng_rgba color)
{
	if (!n || plot.w < 1 || plot.h < 1 || top <= 0)
		return;
	uint32_t cols = (uint32_t)plot.w;
	/* One bar per value, or one per pixel column (its largest value)
	 * where values outnumber pixels. */
	uint32_t bars = n < cols ? n : cols;
	float bw = plot.w / (float)bars;
	for (uint32_t b = 0; b < bars; b++) {
		uint32_t first = (uint32_t)((uint64_t)b * n / bars);
		uint32_t last = (uint32_t)((uint64_t)(b + 1) * n / bars);
		float val = 0;
		for (uint32_t i = first; i < last && i < n; i++)
			val = v[i] > val ? v[i] : val;
		if (val <= 0)
			continue;
		bool clipped = val > top;
		float h = (clipped ? top : val) / top * plot.h;
		float x = plot.x + (float)b * bw, w = bw > 2.0f ? bw - 1.0f : bw;
		eng_ui_rect(ui, x, plot.y + plot.h - h, w, h, bar_color(val, budget, color));
		if (clipped)
			eng_ui_rect(ui, x, plot.y, w, 3.0f, ovl_white);
	}
	for (int k = 1; k <= 2 && budget > 0; k++) {
		float at = budget * (float)k;
		if (at > top)
			break;
		float y = plot.y + plot.h - at / top * plot.h;
		eng_ui_line(ui, plot.x, y, plot.x + plot.w, y, 1.0f, k == 1 ? ovl_warn : ovl_bad);
	}
}

float ovl_text_run(eng_ui *ui, float x, float y, float max_w, float scale,
		   const char *const *texts, const eng_rgba *colors, int n)
{
	float used = 0;
	char cut[256];
	for (int i = 0; i < n; i++) {
		float w = eng_ui_text_width(texts[i], scale);
		if (used + w > max_w) {
			used += ovl_fit_text(texts[i], max_w - used, scale, cut, sizeof cut);
			eng_ui_text(ui, x + used - eng_ui_text_width(cut, scale), y, cut, scale,
				    colors[i]);
			break;
		}
		eng_ui_text(ui, x + used, y, texts[i], scale, colors[i]);
		used += w;
	}
	return used;
}

void ovl_graph_panel(eng_ui *ui, float s, ovl_rect r, const char *const *legend,
		     const eng_rgba *colors, int n_legend, const float *v, uint32_t n,
		     const ovl_graph_stats *g, float label_div, float budget, eng_rgba color)
{
	const float pad = OVL_PAD * s, line = OVL_LINE * s;
	eng_ui_rect(ui, r.x, r.y, r.w, r.h, ovl_panel);
	ovl_text_run(ui, r.x + pad, r.y + pad, r.w - 2 * pad, s, legend, colors, n_legend);

	/* The axis: top, half and 0, right-aligned left of the plot. */
	char lt[16], lm[16];
	snprintf(lt, sizeof lt, "%g", g->top / label_div);
	snprintf(lm, sizeof lm, "%g", g->top / 2 / label_div);
	float axis_w = eng_ui_text_width(lt, s), mw = eng_ui_text_width(lm, s);
	axis_w = (mw > axis_w ? mw : axis_w) + pad;
	ovl_rect plot = {r.x + pad + axis_w, r.y + pad + line * 1.5f, 0, 0};
	plot.w = r.x + r.w - pad - plot.x;
	plot.h = r.y + r.h - pad - line * 0.4f - plot.y;
	const float glyph = 7.0f * s; /* the font's cap height, to center labels */
	const char *labels[3] = {lt, lm, "0"};
	for (int k = 0; k < 3; k++) {
		float y = plot.y + plot.h * (float)k / 2.0f;
		eng_ui_text(ui, plot.x - pad - eng_ui_text_width(labels[k], s), y - glyph / 2,
			    labels[k], s, ovl_dim);
		eng_ui_line(ui, plot.x, y, plot.x + plot.w, y, 1.0f, (eng_rgba){255, 255, 255, 40});
	}
	ovl_bars(ui, plot, v, n, g->top, budget, color);
}

float ovl_frame_graph(overlay_state *ov, const overlay_view *v, ovl_rect r)
{
	const float s = ov->scale;
	if (r.h < 4 * OVL_LINE * s)
		return 0;
	/* The rate the engine sizes the profiler's window for (--target-fps)
	 * is the one the budget lines show: one frame of it, and two. */
	const float fps = (float)v->target_fps, budget = 1000.0f / fps;
	ovl_graph_stats g;
	ovl_graph_scale(v->frame_ms, OVL_GRAPH_FRAMES, 1.0f, ov->graph_scratch, &g);
	char title[48], stats[128], b1[48], b2[48];
	snprintf(title, sizeof title, "frame ms, last %d", OVL_GRAPH_FRAMES);
	if (g.clipped)
		snprintf(stats, sizeof stats, "  p99 %.1f  max %.1f (%u clipped ^)", g.p99, g.max,
			 g.clipped);
	else
		snprintf(stats, sizeof stats, "  p99 %.1f  max %.1f", g.p99, g.max);
	snprintf(b1, sizeof b1, "  -- %.1f (%.4g fps)%s", budget, fps,
		 budget > g.top ? " above" : "");
	snprintf(b2, sizeof b2, "  -- %.1f (%.4g fps)%s", 2 * budget, fps / 2,
		 2 * budget > g.top ? " above" : "");
	const char *texts[] = {title, stats, b1, b2};
	const eng_rgba colors[] = {ovl_dim, g.clipped ? ovl_bad : ovl_white, ovl_warn, ovl_bad};
	ovl_graph_panel(ov->ui, s, r, texts, colors, 4, v->frame_ms, OVL_GRAPH_FRAMES, &g, 1.0f,
			budget, ovl_good);
	return r.h;
}
