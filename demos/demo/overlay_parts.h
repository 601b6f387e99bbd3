/* Inside the overlay: its colors, and the parts overlay.c puts together
 * (overlay_graph.c, overlay_table.c, overlay_detail.c). Every part draws
 * on a panel of its own and returns how much height it took. */
#ifndef DEMOS_OVERLAY_PARTS_H
#define DEMOS_OVERLAY_PARTS_H

#include "overlay_layout.h"
#include "overlay_view.h"

#include "engine/ui.h"

extern const eng_rgba ovl_white, ovl_dim, ovl_panel, ovl_accent, ovl_head, ovl_warn, ovl_bad,
	ovl_good, ovl_select;

typedef struct ovl_rect {
	float x, y, w, h;
} ovl_rect;

/* A bar graph of v[0..n-1] (oldest left) in `plot`, scaled to `top` (values
 * above it drawn to the top and capped in white). With budget > 0, bars
 * above the budget are yellow, above twice it red, and both budgets are
 * drawn as lines. More values than pixels: each pixel shows its largest. */
void ovl_bars(eng_ui *ui, ovl_rect plot, const float *v, uint32_t n, float top, float budget,
	      eng_rgba color);

/* A graph on a panel: a legend line (texts in their colors), an axis with
 * the top, half and 0 (divided by label_div), and ovl_bars of v. */
void ovl_graph_panel(eng_ui *ui, float s, ovl_rect r, const char *const *legend,
		     const eng_rgba *colors, int n_legend, const float *v, uint32_t n,
		     const ovl_graph_stats *g, float label_div, float budget, eng_rgba color);

/* The frame-time graph: ms axis, budget lines, legend. Returns its height
 * (0 when h is too small for it). */
float ovl_frame_graph(overlay_state *ov, const overlay_view *v, ovl_rect r);

/* The table of the rows in view (from ov->top; ov->view holds them as
 * shown); returns its height. Sets ov->page. */
float ovl_table(overlay_state *ov, const overlay_view *v, float x, float y, float max_w,
		float max_h);
/* The table of work per frame (W, with --work): the same rows, a count
 * per counter; returns its height. */
float ovl_work_table(overlay_state *ov, const overlay_view *v, float x, float y, float max_w,
		     float max_h);

/* The selected source's detail; returns its height. */
float ovl_detail(overlay_state *ov, const overlay_view *v, const src_row *row, float x, float y,
		 float max_w, float max_h);

/* Draws text pieces left to right from x, each in its color, cutting the
 * last one that does not fit before x + max_w. Returns the width used. */
float ovl_text_run(eng_ui *ui, float x, float y, float max_w, float scale,
		   const char *const *texts, const eng_rgba *colors, int n);

#endif
