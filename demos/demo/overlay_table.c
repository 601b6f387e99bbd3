/* The overlay's table: the rows in view, laid out by overlay_layout.c and
 * drawn from that layout only. */
#include "overlay_parts.h"

#include <stdio.h>
#include <string.h>

/* The column the sort order follows, highlighted in the header. */
static ovl_col sort_column(row_sort s)
{
	switch (s) {
	case ROW_SORT_GPU_P50: return OVL_COL_GPU_P50;
	case ROW_SORT_GPU: return OVL_COL_GPU_SUM;
	case ROW_SORT_CPU_P50: return OVL_COL_RENDER_P50;
	case ROW_SORT_CPU: return OVL_COL_RENDER_SUM;
	case ROW_SORT_TICK: return OVL_COL_TICK;
	case ROW_SORT_NAME:
	case ROW_SORTS: break;
	}
	return OVL_COL_NAME;
}

static void to_view(const src_row *w, bool gpu_on, ovl_row *v)
{
	const profiler_result_t *r = &w->r;
	*v = (ovl_row){.name = w->name, .have = w->have, .async = w->async, .overlay = !w->source,
		       .have_p50 = w->have_med, .gpu_wait = gpu_on && w->have && !w->gpu_samples};
	v->value[OVL_COL_RENDER_P50] = (double)w->m.render_sum_p50;
	v->value[OVL_COL_GPU_P50] = (double)w->m.render_gpu_sum_p50;
	v->value[OVL_COL_GPU_N] = (double)w->gpu_samples;
	v->value[OVL_COL_GPU_CI] = w->have_ci && r->render_gpu_sum
					   ? 100.0 * (double)w->gpu_sum_ci95 / (double)r->render_gpu_sum
					   : -1.0;
	v->value[OVL_COL_TICK] = (double)r->tick_avg;
	v->value[OVL_COL_TICK_MAX] = (double)r->tick_max;
	v->value[OVL_COL_RENDER] = (double)r->render_avg;
	v->value[OVL_COL_RENDER_MAX] = (double)r->render_max;
	v->value[OVL_COL_RENDER_SUM] = (double)r->render_sum;
	v->value[OVL_COL_GPU] = (double)r->render_gpu_avg;
	v->value[OVL_COL_GPU_MAX] = (double)r->render_gpu_max;
	v->value[OVL_COL_GPU_SUM] = (double)r->render_gpu_sum;
	v->value[OVL_COL_IN_FPS] = r->async_input;
	v->value[OVL_COL_OUT_FPS] = r->async_rendered;
}

static void footer_text(const overlay_state *ov, const overlay_view *v, uint32_t shown, char *buf,
			size_t size)
{
	uint32_t sources = v->n_rows ? v->n_rows - 1 : 0; /* the overlay's row is not a source */
	row_sort used = rows_effective_sort(v->sort, v->gpu_on);
	char order[64];
	if (used != v->sort)
		snprintf(order, sizeof order, "by %s (GPU timing off)", rows_sort_name(used));
	else
		snprintf(order, sizeof order, "by %s", rows_sort_name(used));
	if (!shown)
		snprintf(buf, size, "%s", v->profiler_on ? "no results yet" : "profiler off (P)");
	else
		snprintf(buf, size, "rows %u-%u of %u sources + overlay, %s; Tab sort, Up/Down, "
				    "Enter detail, PgUp/PgDn, F1 keys",
			 ov->top + 1, ov->top + shown, sources, order);
}

/* The rows a table of max_h shows from ov->top (ov->page set; the view
 * kept inside the rows). */
static uint32_t rows_in_view(overlay_state *ov, const overlay_view *v, float max_h)
{
	uint32_t fit = ovl_table_rows_fit(max_h, ov->scale);
	fit = fit < OVL_VIEW_ROWS ? fit : OVL_VIEW_ROWS;
	ov->page = fit ? fit : 1;
	if (ov->top + fit > v->n_rows)
		ov->top = v->n_rows > fit ? v->n_rows - fit : 0;
	return v->n_rows - ov->top < fit ? v->n_rows - ov->top : fit;
}

float ovl_table(overlay_state *ov, const overlay_view *v, float x, float y, float max_w,
		float max_h)
{
	const float s = ov->scale;
	const bool gpu_on = v->gpu_on;
	uint32_t shown = rows_in_view(ov, v, max_h);
	for (uint32_t i = 0; i < shown; i++)
		to_view(&v->rows[ov->top + i], gpu_on, &ov->view[i]);

	char footer[256];
	footer_text(ov, v, shown, footer, sizeof footer);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	ovl_table_in in = {
		.gpu_resolution_ns = (double)st.gpu_resolution_ns,
		.x = x, .y = y, .max_w = max_w, .max_h = max_h, .scale = s, .gpu_on = gpu_on,
		.sort = sort_column(rows_effective_sort(v->sort, gpu_on)), .rows = ov->view,
		.n_rows = shown, .footer = footer,
	};
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	eng_ui_rect(ov->ui, l.x, l.y, l.w, l.h, ovl_panel);

	for (int c = 0; c < OVL_COLS; c++) {
		const ovl_column *col = &l.col[c];
		if (!col->shown)
			continue;
		const char *label = ovl_col_label((ovl_col)c);
		const char *unit = ovl_col_is_gpu((ovl_col)c) && !gpu_on ? ""
									  : ovl_unit_name(col->unit);
		float lw = eng_ui_text_width(label, s), uw = eng_ui_text_width(unit, s);
		bool left = c == OVL_COL_NAME;
		float lx = left ? col->x : col->x + col->w - lw;
		bool sorted = (ovl_col)c == in.sort;
		eng_ui_text(ov->ui, lx, l.header_y, label, s, sorted ? ovl_accent : ovl_head);
		if (sorted)
			eng_ui_rect(ov->ui, lx, l.header_y + 8.0f * s, lw, s, ovl_accent);
		eng_ui_text(ov->ui, left ? col->x : col->x + col->w - uw, l.header_y + l.line, unit, s,
			    ovl_dim);
	}
	char text[128];
	for (uint32_t i = 0; i < l.n_rows; i++) {
		const ovl_row *r = &ov->view[i];
		float ry = l.rows_y + (float)i * l.line;
		if (v->rows[ov->top + i].key == ov->selected)
			eng_ui_rect(ov->ui, l.x, ry - 1.0f * s, l.w, l.line, ovl_select);
		eng_rgba color = r->overlay || !r->have ? ovl_dim : ovl_white;
		for (int c = 0; c < OVL_COLS; c++) {
			const ovl_column *col = &l.col[c];
			if (!col->shown)
				continue;
			ovl_cell_text(&l, &in, r, (ovl_col)c, text, sizeof text);
			if (c == OVL_COL_NAME) {
				char cut[128];
				ovl_fit_text(text, col->w, s, cut, sizeof cut);
				eng_ui_text(ov->ui, col->x, ry, cut, s, color);
			} else {
				bool off = ovl_col_is_gpu((ovl_col)c) && !gpu_on;
				eng_ui_text(ov->ui, col->x + col->w - eng_ui_text_width(text, s), ry, text,
					    s, off ? ovl_dim : color);
			}
		}
	}
	char cut[256];
	ovl_fit_text(footer, l.w - 2 * OVL_PAD * s, s, cut, sizeof cut);
	eng_ui_text(ov->ui, l.x + OVL_PAD * s, l.footer_y, cut, s, ovl_dim);
	return l.h;
}

/* --- the work table (W) ----------------------------------------------------------- */

enum { WORK_NAME, WORK_FRAMES, WORK_FIRST_COUNTER, WORK_COLS = WORK_FIRST_COUNTER + SOURCE_PROFILER_COUNTERS };

static const char *const g_work_labels[WORK_COLS] = {
	"source", "frames", "vertices", "prims", "VS inv", "clip in", "clip out", "FS inv", "CS inv"};

/* Cell c of a row: its name, its counted frames, or a count. */
static void work_cell(const src_row *row, const source_profiler_work_t *w, bool have, int c,
		      char *buf, size_t size)
{
	if (c == WORK_NAME)
		snprintf(buf, size, "%s", row->name);
	else if (!have)
		snprintf(buf, size, c == WORK_FRAMES ? "0" : "-");
	else if (c == WORK_FRAMES)
		snprintf(buf, size, "%u", w->samples);
	else
		rows_count_text(w, c - WORK_FIRST_COUNTER, buf, size);
}

float ovl_work_table(overlay_state *ov, const overlay_view *v, float x, float y, float max_w,
		     float max_h)
{
	const float s = ov->scale, pad = OVL_PAD * s, gap = OVL_GAP * s, line = OVL_LINE * s;
	uint32_t shown = rows_in_view(ov, v, max_h);
	source_profiler_work_t w[OVL_VIEW_ROWS];
	bool have[OVL_VIEW_ROWS];
	for (uint32_t i = 0; i < shown; i++)
		have[i] = source_profiler_fill_work(v->rows[ov->top + i].key, &w[i]);
	/* Columns as wide as their widest cell; the name takes what is left
	 * (cut to fit). */
	float cw[WORK_COLS];
	char text[64];
	float counts_w = 0;
	for (int c = WORK_FRAMES; c < WORK_COLS; c++) {
		cw[c] = eng_ui_text_width(g_work_labels[c], s);
		for (uint32_t i = 0; i < shown; i++) {
			work_cell(&v->rows[ov->top + i], &w[i], have[i], c, text, sizeof text);
			float tw = eng_ui_text_width(text, s);
			cw[c] = tw > cw[c] ? tw : cw[c];
		}
		counts_w += cw[c] + gap;
	}
	float name_w = 0;
	for (uint32_t i = 0; i < shown; i++) {
		float tw = eng_ui_text_width(v->rows[ov->top + i].name, s);
		name_w = tw > name_w ? tw : name_w;
	}
	float room = max_w - 2 * pad - counts_w;
	name_w = name_w < room ? name_w : room;
	cw[WORK_NAME] = name_w > 0 ? name_w : 0;
	float width = 2 * pad + cw[WORK_NAME] + counts_w;
	const char *title = "work per frame, counted by the GPU (exact; n/a: not counted); W: time";
	float title_w = eng_ui_text_width(title, s) + 2 * pad;
	width = title_w > width ? (title_w < max_w ? title_w : max_w) : width;
	float h = pad * 2 + line * (float)(3 + shown);
	eng_ui_rect(ov->ui, x, y, width, h, ovl_panel);
	char cut[256];
	ovl_fit_text(title, width - 2 * pad, s, cut, sizeof cut);
	eng_ui_text(ov->ui, x + pad, y + pad, cut, s, ovl_dim);
	float hy = y + pad + line * 1.5f;
	float cx[WORK_COLS];
	cx[WORK_NAME] = x + pad;
	for (int c = 1; c < WORK_COLS; c++)
		cx[c] = cx[c - 1] + cw[c - 1] + gap;
	for (int c = 0; c < WORK_COLS; c++) {
		float lw = eng_ui_text_width(g_work_labels[c], s);
		eng_ui_text(ov->ui, c == WORK_NAME ? cx[c] : cx[c] + cw[c] - lw, hy, g_work_labels[c], s,
			    ovl_head);
	}
	for (uint32_t i = 0; i < shown; i++) {
		const src_row *row = &v->rows[ov->top + i];
		float ry = hy + line * (float)(1 + i);
		if (row->key == ov->selected)
			eng_ui_rect(ov->ui, x, ry - 1.0f * s, width, line, ovl_select);
		eng_rgba color = !row->source || !have[i] ? ovl_dim : ovl_white;
		for (int c = 0; c < WORK_COLS; c++) {
			work_cell(row, &w[i], have[i], c, text, sizeof text);
			if (c == WORK_NAME) {
				ovl_fit_text(text, cw[c], s, cut, sizeof cut);
				eng_ui_text(ov->ui, cx[c], ry, cut, s, color);
			} else {
				eng_ui_text(ov->ui, cx[c] + cw[c] - eng_ui_text_width(text, s), ry, text,
					    s, color);
			}
		}
	}
	return h;
}
