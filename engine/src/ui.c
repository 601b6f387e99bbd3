/* Overlay drawing: a growing array of triangles in pixels, drawn with one
 * transient vertex upload and one draw. Text comes from stb_easy_font's
 * quads. */
#include "engine/ui.h"

#include "engine/gfx.h"
#include "engine/log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

struct eng_ui {
	eng_pipeline pipeline;
	eng_ui_vertex *v;
	uint32_t n, cap;
	char *font_buf; /* stb_easy_font output */
	size_t font_cap;
};

eng_ui *eng_ui_create(void)
{
	eng_ui *ui = calloc(1, sizeof *ui);
	if (!ui)
		return NULL;
	ui->pipeline = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "ui.vert",
		.fs = "ui.frag",
		.layout = ENG_LAYOUT_UI,
		.blend = ENG_BLEND_ALPHA,
	});
	ui->font_cap = 64 * 1024;
	ui->font_buf = malloc(ui->font_cap);
	if (!ui->pipeline.id || !ui->font_buf) {
		eng_ui_destroy(ui);
		return NULL;
	}
	return ui;
}

void eng_ui_destroy(eng_ui *ui)
{
	if (!ui)
		return;
	free(ui->v);
	free(ui->font_buf);
	free(ui);
}

void eng_ui_begin(eng_ui *ui)
{
	ui->n = 0;
}

uint32_t eng_ui_vertex_count(const eng_ui *ui)
{
	return ui->n;
}

static bool reserve(eng_ui *ui, uint32_t more)
{
	if (ui->n + more <= ui->cap)
		return true;
	uint32_t cap = ui->cap ? ui->cap * 2 : 4096;
	while (cap < ui->n + more)
		cap *= 2;
	eng_ui_vertex *v = realloc(ui->v, cap * sizeof *v);
	if (!v)
		return false;
	ui->v = v;
	ui->cap = cap;
	return true;
}

static void vtx(eng_ui *ui, float x, float y, eng_rgba c)
{
	ui->v[ui->n++] = (eng_ui_vertex){{x, y}, {c.r, c.g, c.b, c.a}};
}

/* Two triangles through four corners given in order around the quad. */
static void quad(eng_ui *ui, const float x[4], const float y[4], eng_rgba c)
{
	if (!reserve(ui, 6))
		return;
	vtx(ui, x[0], y[0], c);
	vtx(ui, x[1], y[1], c);
	vtx(ui, x[2], y[2], c);
	vtx(ui, x[0], y[0], c);
	vtx(ui, x[2], y[2], c);
	vtx(ui, x[3], y[3], c);
}

void eng_ui_rect(eng_ui *ui, float x, float y, float w, float h, eng_rgba c)
{
	quad(ui, (float[4]){x, x + w, x + w, x}, (float[4]){y, y, y + h, y + h}, c);
}

void eng_ui_line(eng_ui *ui, float x0, float y0, float x1, float y1, float width, eng_rgba c)
{
	float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
	if (len <= 0.0f)
		return;
	float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
	quad(ui, (float[4]){x0 + nx, x1 + nx, x1 - nx, x0 - nx},
	     (float[4]){y0 + ny, y1 + ny, y1 - ny, y0 - ny}, c);
}

/* stb_easy_font has glyphs for ' ' to '~' and indexes its table with the
 * byte: anything else (a UTF-8 name, a control character) is drawn and
 * measured as '?'. */
static char printable(char c)
{
	return (c >= ' ' && c <= '~') || c == '\n' ? c : '?';
}

float eng_ui_text_width(const char *text, float scale)
{
	/* stb_easy_font_width, over printable characters. */
	float len = 0, max_len = 0;
	for (const char *p = text; *p; p++) {
		char c = printable(*p);
		if (c == '\n') {
			max_len = len > max_len ? len : max_len;
			len = 0;
			continue;
		}
		len += (float)(stb_easy_font_charinfo[c - 32].advance & 15) + stb_easy_font_spacing_val;
	}
	max_len = len > max_len ? len : max_len;
	return ceilf(max_len) * scale;
}

float eng_ui_text(eng_ui *ui, float x, float y, const char *text, float scale, eng_rgba c)
{
	/* stb_easy_font writes quads of 4 vertices (x, y, z, rgba): 64 bytes
	 * a quad; about 270 quads fit in 16 KiB per line of text. */
	unsigned char color[4] = {c.r, c.g, c.b, c.a};
	size_t len = strlen(text);
	size_t need = len * 64 * 8 + 64 + len + 1; /* quads, then the text made printable */
	if (need > ui->font_cap) {
		char *b = realloc(ui->font_buf, need);
		if (!b)
			return 0;
		ui->font_buf = b;
		ui->font_cap = need;
	}
	char *clean = ui->font_buf + ui->font_cap - (len + 1);
	for (size_t i = 0; i <= len; i++)
		clean[i] = i < len ? printable(text[i]) : '\0';
	int quads = stb_easy_font_print(0, 0, clean, color, ui->font_buf,
					(int)(ui->font_cap - (len + 1)));
	const float *q = (const float *)ui->font_buf;
	for (int i = 0; i < quads; i++, q += 16) {
		float xs[4], ys[4];
		for (int k = 0; k < 4; k++) {
			xs[k] = x + q[k * 4 + 0] * scale;
			ys[k] = y + q[k * 4 + 1] * scale;
		}
		quad(ui, xs, ys, c);
	}
	return eng_ui_text_width(clean, scale);
}

void eng_ui_draw(eng_ui *ui, uint32_t width, uint32_t height)
{
	if (!ui->n)
		return;
	float screen[4] = {(float)width, (float)height, 0, 0};
	eng_gfx_apply_pipeline(ui->pipeline);
	eng_gfx_apply_uniforms(screen, sizeof screen);
	eng_gfx_apply_transient_vertices(ui->v, ui->n * sizeof *ui->v);
	eng_gfx_draw(0, ui->n, 1);
}
