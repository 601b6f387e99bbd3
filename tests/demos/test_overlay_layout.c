/* The overlay's table layout and number formatting, checked on the layout
 * data the drawing code uses: at the sizes a person runs the demo at, every
 * glyph of every cell (measured from the font's own quads, independently
 * of the layout's text widths) stays inside its column and the panel, and
 * neighbouring columns keep their gap. */
#include "check.h"
#include "overlay_layout.h"

#include "engine/ui.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

/* The leftmost and rightmost ink of text drawn at x (the font's quads). */
static void ink(const char *text, float x, float scale, float *x0, float *x1)
{
	static char buf[1 << 16];
	unsigned char color[4] = {0};
	int quads = stb_easy_font_print(0, 0, (char *)text, color, buf, sizeof buf);
	const float *q = (const float *)buf;
	*x0 = x;
	*x1 = x;
	for (int i = 0; i < quads; i++, q += 16)
		for (int k = 0; k < 4; k++) {
			float vx = x + q[k * 4] * scale;
			*x0 = i == 0 && k == 0 ? vx : vx < *x0 ? vx : *x0;
			*x1 = i == 0 && k == 0 ? vx : vx > *x1 ? vx : *x1;
		}
}

/* The readings that ran together (11427.8331325.7, 0.7101841.1),
 * the longest values a window holds (4.29 s, and a sum of eight passes of
 * it), a name longer than any column, a source without samples and async
 * sources. */
#define V(col) [OVL_COL_##col]
static const ovl_row g_rows[] = {
	{"blur-effect", true, false, false,
	 {V(TICK) = 11427.8e3, V(TICK_MAX) = 331325.7e3, V(RENDER) = 700, V(RENDER_MAX) = 101841.1e3,
	  V(RENDER_SUM) = 101841.1e3, V(RENDER_P50) = 98000.5e3, V(GPU) = 331325.7e3,
	  V(GPU_MAX) = 4294967295.0, V(GPU_SUM) = 8.0 * 4294967295.0, V(GPU_P50) = 30e9,
	  V(GPU_N) = 12, V(GPU_CI) = 12.3456}, true, false},
	{"video-30fps-starved-and-a-name-far-too-long", true, true, false,
	 {V(TICK) = 24.1e3, V(TICK_MAX) = 88.8e3, V(RENDER) = 27.5e3, V(RENDER_MAX) = 244.9e3,
	  V(RENDER_SUM) = 29.3e3, V(RENDER_P50) = 28.8e3, V(GPU) = 269.2e3, V(GPU_MAX) = 734.9e3,
	  V(GPU_SUM) = 1479.5e3, V(GPU_P50) = 1400.1e3, V(GPU_N) = 300, V(GPU_CI) = 7.25,
	  V(IN_FPS) = 30.0,
	  V(OUT_FPS) = 14.9}, true, false},
	{"mesh-0", true, false, false,
	 {V(TICK) = 100, V(TICK_MAX) = 900, V(RENDER) = 999.96e3, V(RENDER_MAX) = 999.96e3,
	  V(RENDER_SUM) = 1e6, V(GPU) = 1, V(GPU_MAX) = 2, V(GPU_SUM) = 3, V(GPU_N) = 5000}, false,
	 false},
	{"game-logic", false, false, false, {0}, false, false},
	{"media-60", true, true, false,
	 {V(TICK) = 1e9, V(TICK_MAX) = 4.2e9, V(RENDER) = 5e5, V(RENDER_MAX) = 6e5,
	  V(RENDER_SUM) = 7e5, V(RENDER_P50) = 6.5e5, V(GPU) = 8e5, V(GPU_MAX) = 9e5,
	  V(GPU_SUM) = 1e6, V(GPU_P50) = 9.5e5, V(GPU_N) = 1, V(GPU_CI) = -1, V(IN_FPS) = 59.9,
	  V(OUT_FPS) = 1234.5}, true, false},
	{"(overlay)", true, false, true,
	 {V(TICK) = 262.1e3, V(TICK_MAX) = 1.37e6, V(RENDER) = 33.3e3, V(RENDER_MAX) = 173.9e3,
	  V(RENDER_SUM) = 33.3e3, V(GPU) = 4.08e6, V(GPU_MAX) = 6.82e6, V(GPU_SUM) = 4.08e6,
	  V(GPU_N) = 44}, false, false},
	{"new-source", true, false, false,
	 {V(TICK) = 5e3, V(TICK_MAX) = 6e3, V(RENDER) = 7e3, V(RENDER_MAX) = 8e3,
	  V(RENDER_SUM) = 9e3, V(RENDER_P50) = 9e3}, true, true},
};
#define N_ROWS (sizeof g_rows / sizeof g_rows[0])

static ovl_table_in input(uint32_t w, uint32_t h, bool gpu_on, ovl_col sort)
{
	float s = ovl_auto_scale(h), m = OVL_MARGIN * s;
	return (ovl_table_in){
		.x = m, .y = m, .max_w = (float)w - 2 * m, .max_h = (float)h - 2 * m, .scale = s,
		.gpu_on = gpu_on, .sort = sort, .rows = g_rows, .n_rows = N_ROWS,
		.footer = "rows 1-6 of 5 sources + overlay, by GPU sum; Tab sort",
	};
}

/* Every cell, label and unit inside its column; columns apart and inside
 * the panel; the panel inside the window. 0 when all hold, else the line
 * of the first failed check (reported by the caller). */
static int check_layout(const ovl_table_in *in, const ovl_table_layout *l, uint32_t win_w,
			uint32_t win_h)
{
	const float s = in->scale, eps = 0.01f;
	if (l->x < 0 || l->x + l->w > (float)win_w + eps || l->y < 0 ||
	    l->y + l->h > (float)win_h + eps)
		return __LINE__;
	float prev_end = -1;
	for (int c = 0; c < OVL_COLS; c++) {
		const ovl_column *col = &l->col[c];
		if (!col->shown)
			continue;
		if (col->x < l->x + OVL_PAD * s - eps || col->x + col->w > l->x + l->w + eps)
			return __LINE__;
		if (prev_end >= 0 && col->x - prev_end < OVL_GAP * s - eps)
			return __LINE__;
		prev_end = col->x + col->w;
		const char *head[2] = {ovl_col_label((ovl_col)c), ovl_unit_name(col->unit)};
		for (int k = 0; k < 2; k++) {
			float x = c == OVL_COL_NAME ? col->x
						    : col->x + col->w - eng_ui_text_width(head[k], s);
			float x0, x1;
			ink(head[k], x, s, &x0, &x1);
			if (x0 < col->x - eps || x1 > col->x + col->w + eps)
				return __LINE__;
		}
		for (uint32_t i = 0; i < l->n_rows; i++) {
			char text[128], cut[128];
			ovl_cell_text(l, in, &in->rows[i], (ovl_col)c, text, sizeof text);
			float x;
			if (c == OVL_COL_NAME) {
				ovl_fit_text(text, col->w, s, cut, sizeof cut);
				x = col->x;
			} else {
				snprintf(cut, sizeof cut, "%s", text);
				x = col->x + col->w - eng_ui_text_width(cut, s);
			}
			float x0, x1;
			ink(cut, x, s, &x0, &x1);
			if (x0 < col->x - eps || x1 > col->x + col->w + eps)
				return __LINE__;
		}
	}
	return 0;
}

static uint32_t shown_mask(const ovl_table_layout *l)
{
	uint32_t m = 0;
	for (int c = 0; c < OVL_COLS; c++)
		m |= (uint32_t)l->col[c].shown << c;
	return m;
}

#define BIT(c) (1u << (c))

TEST(units_step_before_four_digits)
{
	ovl_unit u;
	int d;
	ovl_time_unit(999949.0, &u, &d);
	CHECK_EQ(u, OVL_UNIT_US);
	CHECK_EQ(d, 1);
	ovl_time_unit(999950.0, &u, &d);
	CHECK_EQ(u, OVL_UNIT_MS);
	CHECK_EQ(d, 3);
	ovl_time_unit(999999499.0, &u, &d);
	CHECK_EQ(u, OVL_UNIT_MS);
	ovl_time_unit(999999500.0, &u, &d);
	CHECK_EQ(u, OVL_UNIT_S);
	CHECK_EQ(d, 3);
	ovl_time_unit(0, &u, &d);
	CHECK_EQ(u, OVL_UNIT_US);
}

TEST(cells_are_written_in_their_columns_unit)
{
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	char t[64];
	/* tick holds 1 s (media-60): seconds for every row. */
	CHECK_EQ(l.col[OVL_COL_TICK].unit, OVL_UNIT_S);
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "0.011");
	/* render: largest 999.96 us, which would show as 1000.0 in us: ms. */
	CHECK_EQ(l.col[OVL_COL_RENDER].unit, OVL_UNIT_MS);
	ovl_cell_text(&l, &in, &g_rows[2], OVL_COL_RENDER, t, sizeof t);
	CHECK_STR(t, "1.000");
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_RENDER, t, sizeof t);
	CHECK_STR(t, "0.001");
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_GPU, t, sizeof t);
	CHECK_STR(t, "331.326");
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_GPU_MAX, t, sizeof t);
	CHECK_STR(t, "4.295");
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_GPU_SUM, t, sizeof t);
	CHECK_STR(t, "34.360");
	/* Not async, no samples. */
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_IN_FPS, t, sizeof t);
	CHECK_STR(t, "-");
	ovl_cell_text(&l, &in, &g_rows[3], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "-");
	ovl_cell_text(&l, &in, &g_rows[4], OVL_COL_OUT_FPS, t, sizeof t);
	CHECK_STR(t, "1234.5");
}

TEST(small_times_stay_in_microseconds)
{
	const ovl_row rows[] = {
		{"a", true, false, false, {V(TICK) = 999.9e3, V(TICK_MAX) = 0.04e3, V(RENDER) = 5},
		 false, false}};
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	in.rows = rows;
	in.n_rows = 1;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	char t[64];
	CHECK_EQ(l.col[OVL_COL_TICK].unit, OVL_UNIT_US);
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "999.9");
	/* 40 ns and 5 ns round to 0.0 us: shown as under the smallest step,
	 * never as 0 (a 0 is a source that did nothing). */
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_TICK_MAX, t, sizeof t);
	CHECK_STR(t, "<0.1");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_RENDER, t, sizeof t);
	CHECK_STR(t, "<0.1");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_RENDER_SUM, t, sizeof t);
	CHECK_STR(t, "0.0");
}

TEST(sub_microsecond_times_in_a_column_in_ms_are_not_zero)
{
	/* One long tick puts the column in ms; the other row's 0.3 us and
	 * 0.6 us ticks read "<0.001" and "0.001". */
	const ovl_row rows[] = {
		{"slow", true, false, false, {V(TICK) = 2e6, V(RENDER) = 4e3}, false, false},
		{"tiny", true, false, false, {V(TICK) = 300, V(TICK_MAX) = 1.4e3, V(RENDER) = 499},
		 false, false},
		{"more", true, false, false, {V(TICK) = 600, V(RENDER) = 0}, false, false}};
	ovl_table_in in = input(1280, 720, true, OVL_COL_TICK);
	in.rows = rows;
	in.n_rows = 3;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK(check_layout(&in, &l, 1280, 720) == 0);
	char t[64];
	CHECK_EQ(l.col[OVL_COL_TICK].unit, OVL_UNIT_MS);
	ovl_cell_text(&l, &in, &rows[1], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "<0.001");
	ovl_cell_text(&l, &in, &rows[2], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "0.001"); /* 0.6 us rounds to the step */
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "2.000");
	CHECK_EQ(l.col[OVL_COL_RENDER].unit, OVL_UNIT_US);
	ovl_cell_text(&l, &in, &rows[1], OVL_COL_RENDER, t, sizeof t);
	CHECK_STR(t, "0.5");
	ovl_cell_text(&l, &in, &rows[2], OVL_COL_RENDER, t, sizeof t);
	CHECK_STR(t, "0.0");
}

TEST(gpu_cells_read_off_while_gpu_timing_is_off)
{
	ovl_table_in in = input(1280, 720, false, OVL_COL_RENDER_SUM);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	char t[64];
	for (int c = OVL_COL_GPU; c <= OVL_COL_GPU_SUM; c++) {
		ovl_cell_text(&l, &in, &g_rows[0], (ovl_col)c, t, sizeof t);
		CHECK_STR(t, "off");
	}
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_RENDER_SUM, t, sizeof t);
	CHECK_STR(t, "101.841");
}

TEST(every_glyph_in_its_column_at_1280x720)
{
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(check_layout(&in, &l, 1280, 720), 0);
	CHECK(l.fits);
	CHECK_EQ(l.n_rows, N_ROWS);
	/* Room for every column. */
	CHECK_EQ(shown_mask(&l), (1u << OVL_COLS) - 1);
}

TEST(every_glyph_in_its_column_at_640x360)
{
	ovl_table_in in = input(640, 360, true, OVL_COL_GPU_SUM);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(check_layout(&in, &l, 640, 360), 0);
	CHECK(l.fits);
	CHECK_EQ(l.n_rows, N_ROWS);
}

TEST(every_glyph_in_its_column_at_320x200)
{
	ovl_table_in in = input(320, 200, true, OVL_COL_GPU_SUM);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(check_layout(&in, &l, 320, 200), 0);
	CHECK(l.fits);
}

TEST(every_glyph_in_its_column_at_every_width_and_scale)
{
	static const float scales[] = {1, 1.5f, 2, 3, 4};
	for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++)
		for (uint32_t w = 320; w <= 2560; w += 37) {
			ovl_table_in in = input(w, 1440, true, OVL_COL_GPU_SUM);
			in.scale = scales[k];
			ovl_table_layout l;
			ovl_layout_table(&in, &l);
			if (!l.fits)
				continue; /* 320 pixels at scale 4 hold no table: checked below */
			int line = check_layout(&in, &l, w, 1440);
			if (line) {
				fprintf(stderr, "width %u scale %g: check at line %d\n", w,
					(double)scales[k], line);
				CHECK_EQ(line, 0);
			}
		}
}

TEST(columns_drop_in_the_documented_order)
{
	/* Narrowing the room step by step, the hidden columns are always the
	 * first ones of ovl_drop_order, and the sort column stays. */
	uint32_t last = (1u << OVL_COLS) - 1;
	for (float w = 1400; w >= 200; w -= 3) {
		ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
		in.max_w = w;
		ovl_table_layout l;
		ovl_layout_table(&in, &l);
		uint32_t shown = shown_mask(&l);
		CHECK((shown & ~last) == 0); /* nothing comes back as it narrows */
		last = shown;
		CHECK(shown & BIT(OVL_COL_NAME));
		CHECK(shown & BIT(OVL_COL_GPU_SUM));
		bool hidden_seen = true;
		for (int k = 0; k < OVL_COLS - 1; k++) {
			if (ovl_drop_order[k] == OVL_COL_GPU_SUM)
				continue; /* the sort column is passed over */
			bool hidden = !(shown & BIT(ovl_drop_order[k]));
			CHECK(!hidden || hidden_seen); /* a hidden one follows hidden ones only */
			hidden_seen = hidden;
		}
	}
	CHECK_EQ(last, BIT(OVL_COL_NAME) | BIT(OVL_COL_GPU_SUM));
}

TEST(gpu_cells_say_wait_before_a_sample_and_below_resolution)
{
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_P50);
	in.gpu_resolution_ns = 68.44e3;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK(check_layout(&in, &l, 1280, 720) == 0);
	char t[64];
	const ovl_row *fresh = &g_rows[6], *tiny = &g_rows[2];
	for (int c = OVL_COL_GPU; c <= OVL_COL_GPU_P50; c++) {
		ovl_cell_text(&l, &in, fresh, (ovl_col)c, t, sizeof t);
		CHECK_STR(t, "wait");
	}
	ovl_cell_text(&l, &in, fresh, OVL_COL_GPU_N, t, sizeof t);
	CHECK_STR(t, "0");
	ovl_cell_text(&l, &in, fresh, OVL_COL_RENDER_SUM, t, sizeof t);
	CHECK(strcmp(t, "wait") != 0); /* CPU figures are there */
	/* mesh-0 reads 1, 2 and 3 ns on the GPU: below 68.44 us, shown
	 * rounded up in the columns' unit; its p50 is not computed yet. */
	CHECK_EQ(l.col[OVL_COL_GPU].unit, OVL_UNIT_MS);
	ovl_cell_text(&l, &in, tiny, OVL_COL_GPU, t, sizeof t);
	CHECK_STR(t, "<0.069");
	ovl_cell_text(&l, &in, tiny, OVL_COL_GPU_P50, t, sizeof t);
	CHECK_STR(t, "-");
	ovl_cell_text(&l, &in, tiny, OVL_COL_GPU_N, t, sizeof t);
	CHECK_STR(t, "5000");
	/* A figure of 0 (drew nothing) is 0, not below resolution. */
	ovl_row zero = *tiny;
	zero.value[OVL_COL_GPU] = 0;
	ovl_cell_text(&l, &in, &zero, OVL_COL_GPU, t, sizeof t);
	CHECK_STR(t, "0.000");
	/* In microseconds: one decimal, rounded up. */
	const ovl_row rows[] = {{"small", true, false, false,
				 {V(TICK) = 1e3, V(GPU) = 5e3, V(GPU_SUM) = 99e3, V(GPU_P50) = 9e3},
				 true, false}};
	in.rows = rows;
	in.n_rows = 1;
	ovl_layout_table(&in, &l);
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_GPU, t, sizeof t);
	CHECK_STR(t, "<68.5");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_GPU_SUM, t, sizeof t);
	CHECK_STR(t, "99.0");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_GPU_P50, t, sizeof t);
	CHECK_STR(t, "<68.5");
}

/* The GPU sum's interval: a percent with one decimal, "-" where it is not
 * known (one sample, medians not refreshed yet), "wait" and "off" as the
 * other GPU cells. */
TEST(the_interval_reads_a_percent_or_a_dash_when_not_known)
{
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_P50);
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(l.col[OVL_COL_GPU_CI].unit, OVL_UNIT_PCT);
	CHECK_STR(ovl_unit_name(OVL_UNIT_PCT), "%");
	CHECK_STR(ovl_col_label(OVL_COL_GPU_CI), "sum +-");
	CHECK(ovl_col_is_gpu(OVL_COL_GPU_CI));
	CHECK(!ovl_col_is_time(OVL_COL_GPU_CI));
	char t[64];
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_GPU_CI, t, sizeof t);
	CHECK_STR(t, "12.3");
	ovl_cell_text(&l, &in, &g_rows[1], OVL_COL_GPU_CI, t, sizeof t);
	CHECK_STR(t, "7.3");
	ovl_cell_text(&l, &in, &g_rows[2], OVL_COL_GPU_CI, t, sizeof t); /* no p50 yet */
	CHECK_STR(t, "-");
	ovl_cell_text(&l, &in, &g_rows[4], OVL_COL_GPU_CI, t, sizeof t); /* one sample */
	CHECK_STR(t, "-");
	ovl_cell_text(&l, &in, &g_rows[6], OVL_COL_GPU_CI, t, sizeof t);
	CHECK_STR(t, "wait");
	in.gpu_on = false;
	ovl_layout_table(&in, &l);
	ovl_cell_text(&l, &in, &g_rows[0], OVL_COL_GPU_CI, t, sizeof t);
	CHECK_STR(t, "off");
}

TEST(the_sort_column_never_drops)
{
	ovl_table_in in = input(1280, 720, true, OVL_COL_TICK_MAX);
	in.max_w = 200;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(shown_mask(&l), BIT(OVL_COL_NAME) | BIT(OVL_COL_TICK_MAX));
}

TEST(fps_columns_only_with_an_async_source)
{
	const ovl_row rows[] = {{"a", true, false, false,
				 {V(TICK) = 1, V(TICK_MAX) = 2, V(RENDER) = 3, V(RENDER_MAX) = 4,
				  V(RENDER_SUM) = 5, V(GPU) = 6, V(GPU_MAX) = 7, V(GPU_SUM) = 8},
				 false, false}};
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	in.rows = rows;
	in.n_rows = 1;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK(!l.col[OVL_COL_IN_FPS].shown);
	CHECK(!l.col[OVL_COL_OUT_FPS].shown);
	CHECK(l.col[OVL_COL_TICK_MAX].shown);
}

TEST(rows_fit_the_height)
{
	/* 2 x 4 padding and 3 lines of 10 (labels, units, footer) at scale 1. */
	CHECK_EQ(ovl_table_rows_fit(38, 1), 0);
	CHECK_EQ(ovl_table_rows_fit(48, 1), 1);
	CHECK_EQ(ovl_table_rows_fit(57.9f, 1), 1);
	CHECK_EQ(ovl_table_rows_fit(120, 1.5f), 4); /* 120 - 12 - 45 = 63 = 4.2 lines of 15 */
	ovl_table_in in = input(320, 200, true, OVL_COL_GPU_SUM);
	in.max_h = 68;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	CHECK_EQ(l.n_rows, 3);
	CHECK(l.y + l.h <= in.y + in.max_h);
}

TEST(names_are_cut_with_dots)
{
	char buf[64];
	float w = ovl_fit_text("video-30fps-starved", eng_ui_text_width("video-30", 1), 1, buf,
			       sizeof buf);
	CHECK_STR(buf, "video-3..");
	CHECK(w <= eng_ui_text_width("video-30", 1));
	ovl_fit_text("mesh-1", 1000, 2, buf, sizeof buf);
	CHECK_STR(buf, "mesh-1");
	ovl_fit_text("mesh-1", 1, 1, buf, sizeof buf);
	CHECK_STR(buf, "");
}

TEST(scale_follows_the_window_height)
{
	CHECK_NEAR(ovl_auto_scale(200), 1.0, 0);
	CHECK_NEAR(ovl_auto_scale(360), 1.0, 0);
	CHECK_NEAR(ovl_auto_scale(720), 1.5, 0);
	CHECK_NEAR(ovl_auto_scale(1080), 2.25, 0);
	CHECK_NEAR(ovl_auto_scale(1440), 3.0, 0);
	CHECK_NEAR(ovl_auto_scale(4320), 4.0, 0);
}

TEST(graph_scale_ignores_one_spike_and_marks_it)
{
	float ms[240], scratch[240];
	for (int i = 0; i < 240; i++)
		ms[i] = 16.0f;
	ms[100] = 1900.0f;
	ovl_graph_stats g;
	ovl_graph_scale(ms, 240, 1.0f, scratch, &g);
	CHECK_NEAR(g.p99, 16.0, 0);
	CHECK_NEAR(g.top, 20.0, 0); /* 16 x 1.1 = 17.6, rounded up to 20 */
	CHECK_NEAR(g.max, 1900.0, 0);
	CHECK_EQ(g.seen, 240);
	CHECK_EQ(g.clipped, 1);
	/* Three spikes in 240 frames are more than 1%: the scale takes them. */
	ms[101] = ms[102] = 1900.0f;
	ovl_graph_scale(ms, 240, 1.0f, scratch, &g);
	CHECK_NEAR(g.top, 2500.0, 0);
	CHECK_EQ(g.clipped, 0);
}

TEST(graph_scale_skips_frames_not_seen_and_keeps_a_floor)
{
	float ms[240] = {0}, scratch[240];
	ms[0] = 0.2f;
	ms[1] = 0.3f;
	ovl_graph_stats g;
	ovl_graph_scale(ms, 240, 1.0f, scratch, &g);
	CHECK_EQ(g.seen, 2);
	CHECK_NEAR(g.p99, 0.3f, 0);
	CHECK_NEAR(g.top, 1.0, 0);
	ovl_graph_scale(ms, 240, 0, scratch, &g);
	CHECK_NEAR(g.top, 0.5, 1e-6); /* 0.33 up to 0.5 */
	float none[4] = {0};
	ovl_graph_scale(none, 4, 1.0f, scratch, &g);
	CHECK_EQ(g.seen, 0);
	CHECK_NEAR(g.top, 1.0, 0);
}

TEST(numbers_read_as_printf_writes_them)
{
	/* The cells' own formatter against "%.*f", over values of every unit
	 * (rounding ties, where the two may differ, are left out); a value
	 * above 0 that rounds to 0 reads as under the step. */
	ovl_row row = {"r", true, false, false, {0}, false, false};
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	in.rows = &row;
	in.n_rows = 1;
	uint32_t seed = 7;
	for (int i = 0; i < 200000; i++) {
		seed = seed * 1664525u + 1013904223u;
		double ns = (double)(seed >> 8) * (double)(1u << (i % 16)) / 64.0;
		row.value[OVL_COL_TICK] = ns;
		ovl_table_layout l;
		ovl_layout_table(&in, &l);
		const ovl_column *col = &l.col[OVL_COL_TICK];
		double per = col->unit == OVL_UNIT_US ? 1e3 : col->unit == OVL_UNIT_MS ? 1e6 : 1e9;
		double shown = ns / per * pow(10, col->decimals);
		if (fabs(shown - floor(shown) - 0.5) < 1e-6)
			continue;
		char got[64], want[64];
		ovl_cell_text(&l, &in, &row, OVL_COL_TICK, got, sizeof got);
		if (ns > 0 && shown < 0.5) /* rounds to 0: the step, as a bound */
			snprintf(want, sizeof want, "<%.*f", col->decimals, pow(10, -col->decimals));
		else
			snprintf(want, sizeof want, "%.*f", col->decimals, ns / per);
		CHECK_STR(got, want);
	}
}
