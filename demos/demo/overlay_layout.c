/* The overlay's layout as data (overlay_layout.h). Text is measured with
 * the same function that draws it (engine/ui.h). */
#include "overlay_layout.h"
#include "sort.h"
#include "srcprof_base/stats.h"

#include "engine/ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ovl_col ovl_drop_order[OVL_COLS - 1] = {
	OVL_COL_OUT_FPS, OVL_COL_IN_FPS,     OVL_COL_TICK_MAX,   OVL_COL_RENDER_MAX,
	OVL_COL_GPU_MAX, OVL_COL_RENDER,     OVL_COL_GPU,        OVL_COL_TICK,
	OVL_COL_GPU_CI,  OVL_COL_RENDER_SUM, OVL_COL_RENDER_P50, OVL_COL_GPU_SUM,
	OVL_COL_GPU_N,   OVL_COL_GPU_P50,
};

static const char *const g_labels[OVL_COLS] = {
	"source",  "tick",   "tick max", "render",  "rend max", "rend sum", "rend p50", "GPU",
	"GPU max", "GPU sum", "sum +-",  "GPU p50", "GPU n",    "in fps",   "out fps",
};

const char *ovl_col_label(ovl_col c)
{
	return c < OVL_COLS ? g_labels[c] : "";
}

const char *ovl_unit_name(ovl_unit u)
{
	switch (u) {
	case OVL_UNIT_US: return "us";
	case OVL_UNIT_MS: return "ms";
	case OVL_UNIT_S: return "s";
	case OVL_UNIT_FPS: return "fps";
	case OVL_UNIT_PCT: return "%";
	case OVL_UNIT_NONE: break;
	}
	return "";
}

bool ovl_col_is_gpu(ovl_col c)
{
	return c == OVL_COL_GPU || c == OVL_COL_GPU_MAX || c == OVL_COL_GPU_SUM ||
	       c == OVL_COL_GPU_CI || c == OVL_COL_GPU_P50 || c == OVL_COL_GPU_N;
}

static bool is_fps(ovl_col c)
{
	return c == OVL_COL_IN_FPS || c == OVL_COL_OUT_FPS;
}

bool ovl_col_is_time(ovl_col c)
{
	return c != OVL_COL_NAME && c != OVL_COL_GPU_N && c != OVL_COL_GPU_CI && !is_fps(c) &&
	       c < OVL_COLS;
}

static bool is_p50(ovl_col c)
{
	return c == OVL_COL_RENDER_P50 || c == OVL_COL_GPU_P50;
}

void ovl_time_unit(double max_ns, ovl_unit *unit, int *decimals)
{
	/* The thresholds are where rounding to the decimals shown would print
	 * 1000 in the smaller unit. ms keep 1 us of resolution: a column in ms
	 * because of one long frame still tells 2 us from 8. */
	if (max_ns < 999950.0) {
		*unit = OVL_UNIT_US;
		*decimals = 1;
	} else if (max_ns < 999999500.0) {
		*unit = OVL_UNIT_MS;
		*decimals = 3;
	} else {
		*unit = OVL_UNIT_S;
		*decimals = 3;
	}
}

static double decimal_scale(int decimals)
{
	static const double scale[] = {1, 10, 100, 1000};
	return decimals >= 0 && decimals <= 3 ? scale[decimals] : 1.0;
}

static double unit_ns(ovl_unit u)
{
	return u == OVL_UNIT_US ? 1e3 : u == OVL_UNIT_MS ? 1e6 : u == OVL_UNIT_S ? 1e9 : 1.0;
}

/* v rounded to `decimals` (0 to 3) places, as "%.*f" writes it but without
 * printf's cost (every cell is written twice a frame: measured, drawn). */
static void fixed(char *buf, size_t size, double v, int decimals)
{
	static const double scale[] = {1, 10, 100, 1000};
	if (!(fabs(v) < 1e15) || decimals < 0 || decimals > 3 || size < 24) {
		snprintf(buf, size, "%.*f", decimals, v);
		return;
	}
	bool neg = v < 0;
	uint64_t n = (uint64_t)((neg ? -v : v) * scale[decimals] + 0.5);
	char rev[24];
	int len = 0;
	for (int d = 0; d < decimals; d++, n /= 10)
		rev[len++] = (char)('0' + n % 10);
	if (decimals)
		rev[len++] = '.';
	do {
		rev[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	if (neg)
		rev[len++] = '-';
	for (int i = 0; i < len; i++)
		buf[i] = rev[len - 1 - i];
	buf[len] = '\0';
}

void ovl_cell_text(const ovl_table_layout *l, const ovl_table_in *in, const ovl_row *row,
		   ovl_col c, char *buf, size_t size)
{
	const ovl_column *col = &l->col[c];
	double v = row->value[c];
	if (c == OVL_COL_NAME) {
		snprintf(buf, size, "%s", row->name ? row->name : "");
	} else if (!row->have || (is_fps(c) && !row->async)) {
		snprintf(buf, size, "-");
	} else if (ovl_col_is_gpu(c) && !in->gpu_on) {
		snprintf(buf, size, "off");
	} else if (ovl_col_is_gpu(c) && c != OVL_COL_GPU_N && row->gpu_wait) {
		snprintf(buf, size, "wait");
	} else if (is_p50(c) && !row->have_p50) {
		snprintf(buf, size, "-");
	} else if (c == OVL_COL_GPU_N) {
		fixed(buf, size, v, 0);
	} else if (c == OVL_COL_GPU_CI) {
		if (v < 0 || !row->have_p50)
			snprintf(buf, size, "-"); /* under two samples, or not refreshed yet */
		else
			fixed(buf, size, v, 1);
	} else if (ovl_col_is_gpu(c) && v > 0 && v < in->gpu_resolution_ns) {
		/* Rounded up: "<" a figure at or above the resolution. */
		double u = unit_ns(col->unit), k = decimal_scale(col->decimals);
		double r = ceil(in->gpu_resolution_ns / u * k) / k;
		buf[0] = '<';
		fixed(buf + 1, size - 1, r, col->decimals);
	} else if (v > 0 && v / unit_ns(col->unit) < 0.5 / decimal_scale(col->decimals)) {
		/* Above 0 but rounding to it (0.3 us in a column in ms): the
		 * smallest step shown, as an upper bound, rather than 0.000. */
		buf[0] = '<';
		fixed(buf + 1, size - 1, 1.0 / decimal_scale(col->decimals), col->decimals);
	} else {
		fixed(buf, size, v / unit_ns(col->unit), col->decimals);
	}
}

uint32_t ovl_table_rows_fit(float max_h, float scale)
{
	float line = OVL_LINE * scale, room = max_h - 2 * OVL_PAD * scale - 3 * line;
	return room > 0 ? (uint32_t)(room / line) : 0;
}

float ovl_fit_text(const char *text, float max_w, float scale, char *buf, size_t size)
{
	if (!size)
		return 0;
	snprintf(buf, size, "%s", text);
	float w = eng_ui_text_width(buf, scale);
	if (w <= max_w)
		return w;
	/* Longest prefix that fits with ".." after it. */
	size_t len = strlen(buf);
	while (len > 0) {
		len--;
		if (len + 3 > size)
			continue;
		memcpy(buf + len, "..", 3);
		w = eng_ui_text_width(buf, scale);
		if (w <= max_w)
			return w;
	}
	buf[0] = '\0';
	return 0;
}

void ovl_layout_table(const ovl_table_in *in, ovl_table_layout *out)
{
	memset(out, 0, sizeof *out);
	const float s = in->scale, gap = OVL_GAP * s, pad = OVL_PAD * s;
	out->line = OVL_LINE * s;
	uint32_t fit = ovl_table_rows_fit(in->max_h, s);
	out->n_rows = in->n_rows < fit ? in->n_rows : fit;

	bool any_async = false;
	double max_ns[OVL_COLS] = {0};
	for (uint32_t i = 0; i < out->n_rows; i++) {
		const ovl_row *r = &in->rows[i];
		if (!r->have)
			continue;
		any_async |= r->async;
		for (int c = 0; c < OVL_COLS; c++)
			if (ovl_col_is_time((ovl_col)c) && r->value[c] > max_ns[c])
				max_ns[c] = r->value[c];
	}
	for (int c = 0; c < OVL_COLS; c++) {
		ovl_column *col = &out->col[c];
		col->shown = !(is_fps((ovl_col)c) && !any_async);
		if (c == OVL_COL_NAME) {
			col->unit = OVL_UNIT_NONE;
		} else if (is_fps((ovl_col)c)) {
			col->unit = OVL_UNIT_FPS;
			col->decimals = 1;
		} else if (c == OVL_COL_GPU_N) {
			col->unit = OVL_UNIT_NONE;
			col->decimals = 0;
		} else if (c == OVL_COL_GPU_CI) {
			col->unit = OVL_UNIT_PCT;
			col->decimals = 1;
		} else {
			ovl_time_unit(max_ns[c], &col->unit, &col->decimals);
		}
	}

	/* Natural widths: the widest of label, unit and cells. */
	float width[OVL_COLS];
	char text[128];
	for (int c = 0; c < OVL_COLS; c++) {
		float w = eng_ui_text_width(g_labels[c], s);
		float uw = eng_ui_text_width(ovl_unit_name(out->col[c].unit), s);
		w = uw > w ? uw : w;
		for (uint32_t i = 0; i < out->n_rows; i++) {
			ovl_cell_text(out, in, &in->rows[i], (ovl_col)c, text, sizeof text);
			if (c == OVL_COL_NAME && strlen(text) > OVL_NAME_CHARS)
				text[OVL_NAME_CHARS] = '\0';
			float cw = eng_ui_text_width(text, s);
			w = cw > w ? cw : w;
		}
		width[c] = w;
	}
	float total = 2 * pad - gap;
	for (int c = 0; c < OVL_COLS; c++)
		if (out->col[c].shown)
			total += width[c] + gap;
	for (int k = 0; k < OVL_COLS - 1 && total > in->max_w; k++) {
		ovl_col c = ovl_drop_order[k];
		if (c == in->sort || !out->col[c].shown)
			continue;
		out->col[c].shown = false;
		total -= width[c] + gap;
	}
	if (total > in->max_w) {
		float min_name = eng_ui_text_width("000000", s);
		float cut = total - in->max_w, room = width[OVL_COL_NAME] - min_name;
		if (room > 0) {
			cut = cut < room ? cut : room;
			width[OVL_COL_NAME] -= cut;
			total -= cut;
		}
	}
	out->fits = total <= in->max_w;

	float x = in->x + pad;
	for (int c = 0; c < OVL_COLS; c++) {
		if (!out->col[c].shown)
			continue;
		out->col[c].x = x;
		out->col[c].w = width[c];
		x += width[c] + gap;
	}
	float w = total;
	if (in->footer) {
		float fw = eng_ui_text_width(in->footer, s) + 2 * pad;
		fw = fw < in->max_w ? fw : in->max_w;
		w = fw > w ? fw : w;
	}
	out->x = in->x;
	out->y = in->y;
	out->w = w;
	out->header_y = in->y + pad;
	out->rows_y = out->header_y + 2 * out->line;
	out->footer_y = out->rows_y + (float)out->n_rows * out->line;
	out->h = out->footer_y + out->line + pad - in->y;
}

float ovl_auto_scale(uint32_t height)
{
	float s = floorf((float)height / 480.0f * 4.0f) / 4.0f;
	return s < 1.0f ? 1.0f : s > 4.0f ? 4.0f : s;
}

/* The smallest of 1, 2, 2.5, 5 times a power of ten at or above x > 0. */
static float nice_ceil(float x)
{
	static const float steps[] = {1.0f, 2.0f, 2.5f, 5.0f, 10.0f};
	float p = powf(10.0f, floorf(log10f(x)));
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * p >= x * 0.9999f)
			return steps[i] * p;
	return 10.0f * p;
}

void ovl_graph_scale(const float *v, uint32_t n, float min_top, float *scratch,
		     ovl_graph_stats *out)
{
	*out = (ovl_graph_stats){0};
	for (uint32_t i = 0; i < n; i++)
		if (v[i] > 0)
			scratch[out->seen++] = v[i];
	float want = min_top;
	if (out->seen) {
		sort_inplace(scratch, out->seen, sizeof *scratch, stats_cmp_float);
		out->p99 = scratch[stats_rank(out->seen, 0.99)];
		out->max = scratch[out->seen - 1];
		if (out->p99 * 1.1f > want)
			want = out->p99 * 1.1f;
	}
	out->top = nice_ceil(want > 0 ? want : 1.0f);
	for (uint32_t i = 0; i < out->seen; i++)
		out->clipped += scratch[i] > out->top;
}
