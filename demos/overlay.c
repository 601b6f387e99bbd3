/* The on-screen overlay: what the profiler sees, live. A header (API,
 * device, GPU timing mode, fps, dropped frames), a frame-time graph, the top
 * sources by GPU cost and, with F1, the hotkeys. Built in the overlay's tick
 * and drawn in its render, so its own cost shows as the "overlay" entry. */
#include "app.h"

#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_ROWS 12
#define SCALE 1.5f
#define LINE (SCALE * 10.0f)

static const eng_rgba WHITE = {235, 235, 235, 255}, DIM = {160, 160, 170, 255},
		      PANEL = {10, 10, 16, 200}, ACCENT = {120, 200, 255, 255},
		      WARN = {255, 170, 80, 255}, BAR = {90, 200, 120, 230},
		      BAR_SLOW = {240, 90, 80, 230}, GUIDE = {255, 255, 255, 70};

typedef struct row {
	const void *key;
	const char *name;
	profiler_result_t r;
	bool async;
} row;

static int by_gpu(const void *a, const void *b)
{
	const row *x = a, *y = b;
	if (x->r.render_gpu_sum != y->r.render_gpu_sum)
		return x->r.render_gpu_sum > y->r.render_gpu_sum ? -1 : 1;
	if (x->r.render_sum != y->r.render_sum)
		return x->r.render_sum > y->r.render_sum ? -1 : 1;
	return 0;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static void header(demo_app *a, float x, float *y)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	uint64_t ft = eng_frame_time_ns(a->engine);
	char line[512];
	snprintf(line, sizeof line, "srcprof  %s on %s  %.1f fps  %.2f ms/frame", info.api,
		 info.device, ft ? 1e9 / (double)ft : 0.0, (double)ft / 1e6);
	eng_ui_text(a->ui, x, *y, line, SCALE, WHITE);
	*y += LINE;
	if (!st.enabled)
		snprintf(line, sizeof line, "profiler off (P)   scene %s, %u sources", a->scene->name,
			 eng_source_count(a->engine));
	else if (!st.gpu_enabled)
		snprintf(line, sizeof line, "GPU timing off (G)   scene %s, %u sources",
			 a->scene->name, eng_source_count(a->engine));
	else
		snprintf(line, sizeof line,
			 "GPU timing: %s, 1 frame in %u   dropped frames: %llu   scene %s, %u sources",
			 info.gpu_timing, eng_gpu_timed_every(a->engine),
			 (unsigned long long)st.gpu_frames_disjoint, a->scene->name,
			 eng_source_count(a->engine));
	eng_ui_text(a->ui, x, *y, line, SCALE, st.gpu_frames_disjoint ? WARN : ACCENT);
	*y += LINE;
	if (a->paused)
		eng_ui_text(a->ui, x, *y, "PAUSED (Space)", SCALE, WARN);
	else if (a->status[0])
		eng_ui_text(a->ui, x, *y, a->status, SCALE, DIM);
	*y += LINE * 1.3f;
}

/* The last APP_GRAPH_FRAMES frame times as bars, with 16.7 and 33.3 ms
 * guides; the scale follows the slowest frame shown. */
static void graph(demo_app *a, float x, float *y, float w)
{
	const float h = 70.0f;
	float max_ms = 33.4f;
	for (int i = 0; i < APP_GRAPH_FRAMES; i++)
		if (a->frame_ms[i] > max_ms)
			max_ms = a->frame_ms[i];
	eng_ui_rect(a->ui, x, *y, w, h, PANEL);
	float bw = w / APP_GRAPH_FRAMES;
	for (int i = 0; i < APP_GRAPH_FRAMES; i++) {
		float ms = a->frame_ms[(a->graph_head + (uint32_t)i) % APP_GRAPH_FRAMES];
		float bh = ms / max_ms * (h - 4);
		eng_ui_rect(a->ui, x + (float)i * bw, *y + h - bh, bw > 1.5f ? bw - 0.5f : bw, bh,
			    ms > 33.4f ? BAR_SLOW : BAR);
	}
	static const float guides[] = {16.7f, 33.3f};
	for (int g = 0; g < 2; g++) {
		float gy = *y + h - guides[g] / max_ms * (h - 4);
		eng_ui_line(a->ui, x, gy, x + w, gy, 1.0f, GUIDE);
	}
	char label[64];
	snprintf(label, sizeof label, "frame time, last %d frames (max %.1f ms)", APP_GRAPH_FRAMES,
		 max_ms);
	eng_ui_text(a->ui, x + 4, *y + 3, label, 1.0f, DIM);
	*y += h + 6;
}

static void table(demo_app *a, float x, float *y, float w)
{
	uint32_t n = eng_source_count(a->engine);
	row *rows = malloc((n + 1) * sizeof *rows);
	if (!rows)
		return;
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++) {
		eng_source *s = eng_source_at(a->engine, i);
		if (source_profiler_fill_result(s, &rows[m].r)) {
			rows[m].key = s;
			rows[m].name = s->name;
			rows[m].async = s->flags & ENG_SOURCE_ASYNC;
			m++;
		}
	}
	if (source_profiler_fill_result(eng_overlay_key(), &rows[m].r)) {
		rows[m] = (row){eng_overlay_key(), "(overlay)", rows[m].r, false};
		m++;
	}
	qsort(rows, m, sizeof *rows, by_gpu);
	uint32_t shown = m < TOP_ROWS ? m : TOP_ROWS;
	/* Proportional font: names left-aligned, numbers right-aligned at
	 * fixed column ends. */
	static const char *const heads[] = {"tick", "max", "render", "max", "sum",
					    "GPU", "max", "sum", "in fps", "out"};
	const float name_w = 150.0f * SCALE / 1.5f, col_w = 70.0f * SCALE / 1.5f;
	float table_w = name_w + col_w * 10 + 12;
	eng_ui_rect(a->ui, x, *y, table_w > w ? table_w : w, LINE * (float)(shown + 2) + 4, PANEL);
	eng_ui_text(a->ui, x + 4, *y + 2, "source (times in us)", SCALE, ACCENT);
	for (int c = 0; c < 10; c++) {
		float right = x + 4 + name_w + col_w * (float)(c + 1);
		eng_ui_text(a->ui, right - eng_ui_text_width(heads[c], SCALE), *y + 2, heads[c], SCALE,
			    c >= 5 && c < 8 ? ACCENT : (eng_rgba){150, 190, 230, 255});
	}
	float ry = *y + 2 + LINE;
	char line[256];
	for (uint32_t i = 0; i < shown; i++) {
		const profiler_result_t *r = &rows[i].r;
		eng_rgba c = rows[i].key == eng_overlay_key() ? DIM : WHITE;
		snprintf(line, sizeof line, "%.22s", rows[i].name);
		eng_ui_text(a->ui, x + 4, ry, line, SCALE, c);
		double v[10] = {us(r->tick_avg),       us(r->tick_max),       us(r->render_avg),
				us(r->render_max),     us(r->render_sum),     us(r->render_gpu_avg),
				us(r->render_gpu_max), us(r->render_gpu_sum), r->async_input,
				r->async_rendered};
		for (int k = 0; k < 10; k++) {
			if (k >= 8 && !rows[i].async)
				snprintf(line, sizeof line, "-");
			else
				snprintf(line, sizeof line, "%.1f", v[k]);
			float right = x + 4 + name_w + col_w * (float)(k + 1);
			eng_ui_text(a->ui, right - eng_ui_text_width(line, SCALE), ry, line, SCALE, c);
		}
		ry += LINE;
	}
	snprintf(line, sizeof line, "%u of %u sources, by GPU time summed over passes; F1: keys",
		 shown, m);
	eng_ui_text(a->ui, x + 4, ry, line, SCALE, DIM);
	*y = ry + LINE + 6;
	free(rows);
}

static void help(demo_app *a, float x, float y)
{
	static const char *const lines[] = {
		"P  profiler on/off          G  GPU timing on/off",
		"O  overlay on/off           F1 this help",
		"C  CSV snapshot             T  5-second trace (Perfetto JSON)",
		"S  screenshot PNG           Space  pause ticking",
		"+ / -  add / remove 10 sources",
		"1-8  scene: default grid multiview media effects calibrated stress tiles",
		"V  vsync on/off             Esc  quit",
	};
	const int n = (int)(sizeof lines / sizeof lines[0]);
	float w = eng_ui_text_width(lines[5], SCALE) + 16;
	eng_ui_rect(a->ui, x, y, w, LINE * (float)(n + 1) + 8, (eng_rgba){20, 20, 40, 235});
	eng_ui_text(a->ui, x + 8, y + 4, "hotkeys", SCALE, ACCENT);
	for (int i = 0; i < n; i++)
		eng_ui_text(a->ui, x + 8, y + 4 + LINE * (float)(i + 1), lines[i], SCALE, WHITE);
}

void overlay_build(demo_app *a)
{
	const eng_view *main = eng_view_at(a->engine, 0);
	float x = 10, y = 10, w = (float)main->area.w * 0.62f;
	if (w < 480)
		w = (float)main->area.w - 20;
	eng_ui_begin(a->ui);
	header(a, x, &y);
	graph(a, x, &y, w);
	table(a, x, &y, w);
	if (a->help)
		help(a, x, y);
}

void overlay_draw(demo_app *a, const eng_view *main_view)
{
	eng_ui_draw(a->ui, main_view->area.w, main_view->area.h);
}
