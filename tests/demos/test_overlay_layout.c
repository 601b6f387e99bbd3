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
static const ovl_row g_rows[] = {
	{"blur-effect", true, false, false,
	 {0, 11427.8e3, 331325.7e3, 700, 101841.1e3, 101841.1e3, 331325.7e3, 4294967295.0,
	  8.0 * 4294967295.0, 0, 0}},
	{"video-30fps-starved-and-a-name-far-too-long", true, true, false,
	 {0, 24.1e3, 88.8e3, 27.5e3, 244.9e3, 29.3e3, 269.2e3, 734.9e3, 1479.5e3, 30.0, 14.9}},
	{"mesh-0", true, false, false, {0, 100, 900, 999.96e3, 999.96e3, 1e6, 1, 2, 3, 0, 0}},
	{"game-logic", false, false, false, {0}},
	{"media-60", true, true, false,
	 {0, 1e9, 4.2e9, 5e5, 6e5, 7e5, 8e5, 9e5, 1e6, 59.9, 1234.5}},
	{"(overlay)", true, false, true, {0, 262.1e3, 1.37e6, 33.3e3, 173.9e3, 33.3e3, 4.08e6, 6.82e6,
				       4.08e6, 0, 0}},
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
	const ovl_row rows[] = {{"a", true, false, false, {0, 999.9e3, 0.04e3, 5, 0, 0, 0, 0, 0}}};
	ovl_table_in in = input(1280, 720, true, OVL_COL_GPU_SUM);
	in.rows = rows;
	in.n_rows = 1;
	ovl_table_layout l;
	ovl_layout_table(&in, &l);
	char t[64];
	CHECK_EQ(l.col[OVL_COL_TICK].unit, OVL_UNIT_US);
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_TICK, t, sizeof t);
	CHECK_STR(t, "999.9");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_TICK_MAX, t, sizeof t);
	CHECK_STR(t, "0.0");
	ovl_cell_text(&l, &in, &rows[0], OVL_COL_RENDER, t, sizeof t);
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
			bool hidden = !(shown & BIT(ovl_drop_order[k]));
			CHECK(!hidden || hidden_seen); /* a hidden one follows hidden ones only */
			hidden_seen = hidden;
		}
	}
	CHECK_EQ(last, BIT(OVL_COL_NAME) | BIT(OVL_COL_GPU_SUM));
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
	const ovl_row rows[] = {{"a", true, false, false, {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0}}};
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
	 * (rounding ties, where the two may differ, are left out). */
	ovl_row row = {"r", true, false, false, {0}};
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
		snprintf(want, sizeof want, "%.*f", col->decimals, ns / per);
		CHECK_STR(got, want);
	}
}
