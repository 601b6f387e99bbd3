/* Where the overlay puts things, as data: the table's columns (which are
 * shown, their unit, x and width), the panels, how many rows fit, and how
 * numbers are written. Pure functions of the values and the window size,
 * so tests check the layout without a GPU; the drawing code places every
 * glyph from these results and nowhere else.
 *
 * Columns are as wide as their widest cell or header; each time column
 * has one unit (us, ms or s, stepping up so that no value needs more
 * than three digits before the point) named under its header; cells are
 * at least OVL_GAP font pixels apart. When the window is too narrow,
 * whole columns drop in the order of ovl_drop_order (the sort column and
 * the names never drop; the names are cut last).
 */
#ifndef DEMOS_OVERLAY_LAYOUT_H
#define DEMOS_OVERLAY_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The table's columns, left to right. */
typedef enum ovl_col {
	OVL_COL_NAME,
	OVL_COL_TICK,
	OVL_COL_TICK_MAX,
	OVL_COL_RENDER,
	OVL_COL_RENDER_MAX,
	OVL_COL_RENDER_SUM,
	OVL_COL_RENDER_P50, /* the median frame's render sum */
	OVL_COL_GPU,
	OVL_COL_GPU_MAX,
	OVL_COL_GPU_SUM,
	OVL_COL_GPU_CI,  /* the GPU sum's 95% half-width, % of it (< 0: not known) */
	OVL_COL_GPU_P50, /* the median GPU frame's sum */
	OVL_COL_GPU_N,   /* GPU samples in the window */
	OVL_COL_IN_FPS,
	OVL_COL_OUT_FPS,
	OVL_COLS
} ovl_col;

typedef enum ovl_unit {
	OVL_UNIT_NONE,
	OVL_UNIT_US,
	OVL_UNIT_MS,
	OVL_UNIT_S,
	OVL_UNIT_FPS,
	OVL_UNIT_PCT,
} ovl_unit;

/* Font pixels (times the scale) between two columns' cells, and around
 * the text inside a panel. */
#define OVL_GAP 8.0f
#define OVL_PAD 4.0f
/* Font pixels between the window's edge and the overlay's panels. */
#define OVL_MARGIN 6.0f
/* Height of a line of text, in font pixels (the font is 8 high). */
#define OVL_LINE 10.0f
/* Names longer than this many characters are cut. */
#define OVL_NAME_CHARS 24
/* Names are never cut below this many characters. */
#define OVL_NAME_MIN_CHARS 6

/* One row as the table shows it. */
typedef struct ovl_row {
	const char *name;
	bool have;     /* false: no samples yet, every number reads "-" */
	bool async;    /* false: the fps cells read "-" */
	bool overlay;  /* the overlay's own entry (drawn dim) */
	/* Per column: ns for the time columns, frames per second for the fps
	 * columns, a count for OVL_COL_GPU_N, a percent for OVL_COL_GPU_CI
	 * (OVL_COL_NAME unused). */
	double value[OVL_COLS];
	bool have_p50;  /* false: the p50 cells read "-" (not computed yet) */
	bool gpu_wait;  /* GPU timing on, no GPU sample yet: GPU cells read "wait" */
} ovl_row;

typedef struct ovl_column {
	bool shown;
	ovl_unit unit;
	int decimals;
	float x, w; /* pixels; numbers end at x + w, names start at x */
} ovl_column;

typedef struct ovl_table_in {
	float x, y;         /* top left of the table's panel */
	float max_w, max_h; /* room for the panel */
	float scale;        /* font scale */
	bool gpu_on;        /* false: the GPU cells read "off" */
	/* The GPU timers' resolution (source_profiler_stats_t), ns: a GPU time
	 * above 0 and below it reads "<X" (X in the column's unit); 0: none. */
	double gpu_resolution_ns;
	ovl_col sort;       /* never dropped */
	const ovl_row *rows;
	uint32_t n_rows;
	const char *footer; /* widens the panel up to max_w */
} ovl_table_in;

typedef struct ovl_table_layout {
	ovl_column col[OVL_COLS];
	float x, y, w, h;   /* the panel */
	float line;         /* row height, pixels */
	float header_y;     /* top of the labels; the units line follows */
	float rows_y;       /* top of the first row */
	float footer_y;
	uint32_t n_rows;    /* rows laid out */
	bool fits;          /* false: even the fewest columns are wider than max_w */
} ovl_table_layout;

/* The order in which columns drop when the table is too wide, first to
 * drop first. */
extern const ovl_col ovl_drop_order[OVL_COLS - 1];

/* Column labels ("tick", "rend max", "GPU sum"), as the header shows. */
const char *ovl_col_label(ovl_col c);
/* "us", "ms", "s", "fps", "%" or "". */
const char *ovl_unit_name(ovl_unit u);
/* True for the GPU columns (times, the interval and the sample count). */
bool ovl_col_is_gpu(ovl_col c);
/* True for the time columns. */
bool ovl_col_is_time(ovl_col c);

/* The unit and decimals for a time column whose largest value is max_ns:
 * us with 1 decimal below 999.95 us, ms with 3 below 999.9995 ms, else s
 * with 3; so no value needs more than three digits before the point
 * (seconds: durations are stored up to 4.29 s, sums of passes up to 8
 * times that). */
void ovl_time_unit(double max_ns, ovl_unit *unit, int *decimals);

/* Writes the text of `row`'s cell in column c as the layout shows it:
 * the name, a number in the column's unit, "-", "off", "wait" (GPU timing
 * on, no GPU sample yet) or "<X" (a GPU time below the resolution X). */
void ovl_cell_text(const ovl_table_layout *l, const ovl_table_in *in, const ovl_row *row,
		   ovl_col c, char *buf, size_t size);

/* Rows that fit in a panel max_h pixels high at `scale` (labels, units and
 * footer take three lines). */
uint32_t ovl_table_rows_fit(float max_h, float scale);

/* Lays out in->rows (at most ovl_table_rows_fit of them are used). */
void ovl_layout_table(const ovl_table_in *in, ovl_table_layout *out);

/* Copies as much of text as fits in max_w pixels at scale into buf,
 * ending in ".." when cut. Returns the width of what was copied. */
float ovl_fit_text(const char *text, float max_w, float scale, char *buf, size_t size);

/* The overlay's font scale for a main target `height` pixels high when
 * none is set: 1 up to 480 pixels, then height / 480 in steps of 0.25, at
 * most 4. */
float ovl_auto_scale(uint32_t height);

/* What a graph of n values shows: the top of its axis, a round number (1,
 * 2, 2.5 or 5 times a power of ten) at or above 1.1 times the 99th
 * percentile of the values and at least min_top, so that one long frame
 * does not flatten the rest (values above it are clipped and marked); and
 * the figures its legend gives. Zeros are frames not seen yet, ignored. */
typedef struct ovl_graph_stats {
	float top, p99, max;
	uint32_t seen, clipped;
} ovl_graph_stats;

/* `scratch` holds n floats. */
void ovl_graph_scale(const float *v, uint32_t n, float min_top, float *scratch,
		     ovl_graph_stats *out);

#endif
