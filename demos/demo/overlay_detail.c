/* The selected source's detail (Enter): its sample counts, its figures per
 * pass, and its GPU and CPU time per frame over the window. */
#include "overlay_parts.h"

#include "srcprof/gpu_timer.h"

#include <stdio.h>
#include <string.h>

enum { PASS_NAME, PASS_CPU, PASS_CPU_MAX, PASS_GPU, PASS_GPU_MAX, PASS_COLS };

static const char *const g_pass_labels[PASS_COLS] = {"pass", "render", "rend max", "GPU",
						     "GPU max"};

/* One line of the pass table: a name and four times (ns; < 0: "-"). */
typedef struct pass_line {
	char name[40];
	double ns[PASS_COLS];
} pass_line;

static void cell(const pass_line *p, int c, const ovl_unit *unit, const int *dec, bool gpu_on,
		 char *buf, size_t size)
{
	static const double per[] = {[OVL_UNIT_US] = 1e3, [OVL_UNIT_MS] = 1e6, [OVL_UNIT_S] = 1e9};
	if (c == PASS_NAME)
		snprintf(buf, size, "%s", p->name);
	else if ((c == PASS_GPU || c == PASS_GPU_MAX) && !gpu_on)
		snprintf(buf, size, "off");
	else if (p->ns[c] < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", dec[c], p->ns[c] / per[unit[c]]);
}

/* The pass table at (x, y): columns as wide as their widest cell, one
 * unit each. Returns its height. */
static float pass_table(overlay_state *ov, const pass_line *lines, int n, float x, float y,
			float max_w, bool gpu_on)
{
	const float s = ov->scale, gap = OVL_GAP * s, line = OVL_LINE * s;
	ovl_unit unit[PASS_COLS] = {OVL_UNIT_NONE};
	int dec[PASS_COLS] = {0};
	float w[PASS_COLS], cx[PASS_COLS];
	char text[64];
	for (int c = 1; c < PASS_COLS; c++) {
		double max = 0;
		for (int i = 0; i < n; i++)
			max = lines[i].ns[c] > max ? lines[i].ns[c] : max;
		ovl_time_unit(max, &unit[c], &dec[c]);
	}
	float right = x;
	for (int c = 0; c < PASS_COLS; c++) {
		w[c] = eng_ui_text_width(g_pass_labels[c], s);
		for (int i = 0; i < n; i++) {
			cell(&lines[i], c, unit, dec, gpu_on, text, sizeof text);
			float tw = eng_ui_text_width(text, s);
			w[c] = tw > w[c] ? tw : w[c];
		}
		cx[c] = right;
		right += w[c] + gap;
	}
	(void)max_w; /* five short columns: at scale 1 they fit 320 pixels */
	for (int c = 0; c < PASS_COLS; c++) {
		bool left = c == PASS_NAME;
		const char *u = c == PASS_NAME || ((c == PASS_GPU || c == PASS_GPU_MAX) && !gpu_on)
					? ""
					: ovl_unit_name(unit[c]);
		float lw = eng_ui_text_width(g_pass_labels[c], s), uw = eng_ui_text_width(u, s);
		eng_ui_text(ov->ui, left ? cx[c] : cx[c] + w[c] - lw, y, g_pass_labels[c], s, ovl_head);
		eng_ui_text(ov->ui, left ? cx[c] : cx[c] + w[c] - uw, y + line, u, s, ovl_dim);
	}
	for (int i = 0; i < n; i++) {
		float ry = y + line * (float)(2 + i);
		for (int c = 0; c < PASS_COLS; c++) {
			cell(&lines[i], c, unit, dec, gpu_on, text, sizeof text);
			float tx = c == PASS_NAME ? cx[c] : cx[c] + w[c] - eng_ui_text_width(text, s);
			eng_ui_text(ov->ui, tx, ry, text, s, i + 1 == n ? ovl_accent : ovl_white);
		}
	}
	return line * (float)(2 + n);
}

/* A history graph of one series over the window, in us or ms. */
static void history(overlay_state *ov, const src_row *row, source_profiler_series series,
		    const char *what, eng_rgba color, ovl_rect r)
{
	size_t count = source_profiler_copy_samples(row->key, series, ov->samples, OVL_WINDOW_MAX);
	uint32_t n = count < OVL_WINDOW_MAX ? (uint32_t)count : OVL_WINDOW_MAX;
	for (uint32_t i = 0; i < n; i++)
		ov->hist_us[i] = (float)ov->samples[i] / 1000.0f;
	ovl_graph_stats g;
	ovl_graph_scale(ov->hist_us, n, 1.0f, ov->hist_scratch, &g);
	bool ms = g.top >= 1000.0f;
	float div = ms ? 1000.0f : 1.0f;
	char title[96], stats[128];
	snprintf(title, sizeof title, "%s per frame, all passes, %s: %u frames", what,
		 ms ? "ms" : "us", n);
	snprintf(stats, sizeof stats, "  p99 %.*f  max %.*f%s", ms ? 2 : 1, g.p99 / div, ms ? 2 : 1,
		 g.max / div, g.clipped ? " (clipped ^)" : "");
	const char *texts[] = {title, stats};
	const eng_rgba colors[] = {ovl_dim, ovl_white};
	ovl_graph_panel(ov->ui, ov->scale, r, texts, colors, 2, ov->hist_us, n, &g, div, 0, color);
}

/* The source's work per frame (--work) in two lines of text (l2 empty
 * when there is one). */
static void work_text(const void *key, char *l1, size_t s1, char *l2, size_t s2)
{
	source_profiler_work_t w;
	l2[0] = '\0';
	if (!source_profiler_fill_work(key, &w)) {
		snprintf(l1, s1, "work: not counted yet (no render in a counted frame)");
		return;
	}
	char v[SOURCE_PROFILER_COUNTERS][24];
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		rows_count_text(&w, c, v[c], sizeof v[c]);
	snprintf(l1, s1, "work per frame (%u counted): vertices %s, prims %s, VS inv %s", w.samples,
		 v[SOURCE_PROFILER_INPUT_VERTICES], v[SOURCE_PROFILER_INPUT_PRIMITIVES],
		 v[SOURCE_PROFILER_VS_INVOCATIONS]);
	snprintf(l2, s2, "clip in %s, out %s, FS inv %s, CS inv %s",
		 v[SOURCE_PROFILER_CLIPPING_INVOCATIONS], v[SOURCE_PROFILER_CLIPPING_PRIMITIVES],
		 v[SOURCE_PROFILER_FS_INVOCATIONS], v[SOURCE_PROFILER_CS_INVOCATIONS]);
}

float ovl_detail(overlay_state *ov, const overlay_view *v, const src_row *row, float x, float y,
		 float max_w, float max_h)
{
	const float s = ov->scale, pad = OVL_PAD * s, line = OVL_LINE * s;
	const bool gpu_on = v->gpu_on;
	float w = max_w, h = max_h;
	eng_ui_rect(ov->ui, x, y, w, h, ovl_panel);
	float ty = y + pad;
	char text[256];
	snprintf(text, sizeof text, "%s (%s)", row->name, row->type);
	const char *head[] = {text, "   Enter: back to the table"};
	const eng_rgba head_c[] = {ovl_accent, ovl_dim};
	ovl_text_run(ov->ui, x + pad, ty, w - 2 * pad, s, head, head_c, 2);
	ty += line;
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	char counts[192];
	if (!row->have)
		snprintf(counts, sizeof counts, "no samples yet");
	else
		snprintf(counts, sizeof counts,
			 "samples in the window: CPU %u of %u frames, GPU %u%s", row->cpu_samples,
			 st.window_capacity, row->gpu_samples,
			 gpu_on ? "" : " (GPU timing off)");
	const char *line2[] = {counts};
	ovl_text_run(ov->ui, x + pad, ty, w - 2 * pad, s, line2, &ovl_white, 1);
	ty += line * 1.5f;

	source_profiler_pass_result_t pr[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	size_t np = source_profiler_fill_pass_results(row->key, pr, SOURCE_PROFILER_MAX_SOURCE_PASSES);
	pass_line lines[SOURCE_PROFILER_MAX_SOURCE_PASSES + 1];
	/* A pass on a queue other than the first names it: "simulate (compute)". */
	uint32_t queue[SOURCE_PROFILER_MAX_SOURCE_PASSES] = {0};
	source_profiler_fill_pass_queues(row->key, queue, SOURCE_PROFILER_MAX_SOURCE_PASSES);
	int n = 0;
	for (size_t i = 0; i < np && i < SOURCE_PROFILER_MAX_SOURCE_PASSES; i++, n++) {
		const char *pn = source_profiler_pass_name(pr[i].pass);
		const char *qn = queue[i] ? source_profiler_queue_name(queue[i]) : NULL;
		snprintf(lines[n].name, sizeof lines[n].name, "%s%s%s%s", pn ? pn : "default",
			 qn ? " (" : "", qn ? qn : "", qn ? ")" : "");
		lines[n].ns[PASS_CPU] = (double)pr[i].render_avg;
		lines[n].ns[PASS_CPU_MAX] = (double)pr[i].render_max;
		lines[n].ns[PASS_GPU] = (double)pr[i].render_gpu_avg;
		lines[n].ns[PASS_GPU_MAX] = (double)pr[i].render_gpu_max;
	}
	if (row->have) {
		/* All passes: the per-frame sums (no maximum of sums is kept). */
		snprintf(lines[n].name, sizeof lines[n].name, "all passes");
		lines[n].ns[PASS_CPU] = (double)row->r.render_sum;
		lines[n].ns[PASS_CPU_MAX] = -1;
		lines[n].ns[PASS_GPU] = (double)row->r.render_gpu_sum;
		lines[n].ns[PASS_GPU_MAX] = -1;
		n++;
	}
	if (n)
		ty += pass_table(ov, lines, n, x + pad, ty, w - 2 * pad, gpu_on) + line * 0.5f;

	/* Its work per frame (--work): what it asks of the GPU, beside the
	 * time above. */
	if (source_profiler_work_enabled()) {
		char w1[192], w2[192];
		work_text(row->key, w1, sizeof w1, w2, sizeof w2);
		const char *wl[] = {w1};
		ovl_text_run(ov->ui, x + pad, ty, w - 2 * pad, s, wl, &ovl_white, 1);
		ty += line;
		if (w2[0]) {
			wl[0] = w2;
			ovl_text_run(ov->ui, x + pad, ty, w - 2 * pad, s, wl, &ovl_white, 1);
			ty += line;
		}
		ty += line * 0.5f;
	}

	/* The rest: the histories, when each gets four lines or more. While
	 * GPU timing is off the GPU window holds only older frames: the CPU
	 * history takes the room. */
	float room = y + h - pad - ty;
	int graphs = gpu_on ? 2 : 1;
	float gh = (room - pad * (float)(graphs - 1)) / (float)graphs;
	if (gh >= 4 * line && row->have) {
		ovl_rect r = {x + pad, ty, w - 2 * pad, gh};
		if (gpu_on) {
			history(ov, row, SOURCE_PROFILER_GPU_SUM, "GPU", ovl_accent, r);
			r.y += gh + pad;
		}
		history(ov, row, SOURCE_PROFILER_RENDER_SUM, "CPU render", ovl_good, r);
	}
	return h;
}
