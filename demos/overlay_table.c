/* The overlay's table: the rows in view, laid out by overlay_layout.c and
 * drawn from that layout only. */
#include "overlay.h"

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

static void footer_text(const demo_app *a, bool gpu_on, uint32_t shown, char *buf, size_t size)
{
	uint32_t sources = a->n_rows ? a->n_rows - 1 : 0; /* the overlay's row is not a source */
	row_sort used = rows_effective_sort(a->sort, gpu_on);
	char order[64];
	if (used != a->sort)
		snprintf(order, sizeof order, "by %s (GPU timing off)", rows_sort_name(used));
	else
		snprintf(order, sizeof order, "by %s", rows_sort_name(used));
	if (!shown)
		snprintf(buf, size, "%s", a->profiler_on ? "no results yet" : "profiler off (P)");
	else
		snprintf(buf, size, "rows %u-%u of %u sources + overlay, %s; Tab sort, Up/Down, "
				    "Enter detail, PgUp/PgDn, F1 keys",
			 a->top + 1, a->top + shown, sources, order);
}

float ovl_table(demo_app *a, float x, float y, float max_w, float max_h)
{
	const float s = a->scale;
	const bool gpu_on = a->profiler_on && a->gpu_on;
	uint32_t fit = ovl_table_rows_fit(max_h, s);
	fit = fit < APP_VIEW_ROWS ? fit : APP_VIEW_ROWS;
	a->page = fit ? fit : 1;
	/* Keep the view inside the rows, the selection inside the view. */
	if (a->top + fit > a->n_rows)
		a->top = a->n_rows > fit ? a->n_rows - fit : 0;
	uint32_t shown = a->n_rows - a->top < fit ? a->n_rows - a->top : fit;
	for (uint32_t i = 0; i < shown; i++)
		to_view(&a->rows[a->top + i], gpu_on, &a->view[i]);

	char footer[256];
	footer_text(a, gpu_on, shown, footer, sizeof footer);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	ovl_table_in in = {
		.gpu_resolution_ns = (double)st.gpu_resolution_ns,
		.x = x, .y = y, .max_w = max_w, .max_h = max_h, .scale = s, .gpu_on = gpu_on,
		.sort = sort_column(rows_effective_sort(a->sort, gpu_on)), .rows = a->view,
		.n_rows = shown, .footer = footer,
	};
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	eng_ui_rect(a->ui, l.x, l.y, l.w, l.h, ovl_panel);

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
		eng_ui_text(a->ui, lx, l.header_y, label, s, sorted ? ovl_accent : ovl_head);
		if (sorted)
			eng_ui_rect(a->ui, lx, l.header_y + 8.0f * s, lw, s, ovl_accent);
		eng_ui_text(a->ui, left ? col->x : col->x + col->w - uw, l.header_y + l.line, unit, s,
			    ovl_dim);
	}
	char text[128];
	for (uint32_t i = 0; i < l.n_rows; i++) {
		const ovl_row *r = &a->view[i];
		float ry = l.rows_y + (float)i * l.line;
		if (a->rows[a->top + i].key == a->selected)
			eng_ui_rect(a->ui, l.x, ry - 1.0f * s, l.w, l.line, ovl_select);
		eng_rgba color = r->overlay || !r->have ? ovl_dim : ovl_white;
		for (int c = 0; c < OVL_COLS; c++) {
			const ovl_column *col = &l.col[c];
			if (!col->shown)
				continue;
			ovl_cell_text(&l, &in, r, (ovl_col)c, text, sizeof text);
			if (c == OVL_COL_NAME) {
				char cut[128];
				ovl_fit_text(text, col->w, s, cut, sizeof cut);
				eng_ui_text(a->ui, col->x, ry, cut, s, color);
			} else {
				bool off = ovl_col_is_gpu((ovl_col)c) && !gpu_on;
				eng_ui_text(a->ui, col->x + col->w - eng_ui_text_width(text, s), ry, text,
					    s, off ? ovl_dim : color);
			}
		}
	}
	char cut[256];
	ovl_fit_text(footer, l.w - 2 * OVL_PAD * s, s, cut, sizeof cut);
	eng_ui_text(a->ui, l.x + OVL_PAD * s, l.footer_y, cut, s, ovl_dim);
	return l.h;
}
