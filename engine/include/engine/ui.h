/*
 * engine/ui.h - immediate-mode 2D drawing for overlays: filled rectangles,
 * lines and text (stb_easy_font), in pixels of the main target, top-left
 * origin. Build a batch during the frame, draw it once inside a pass into
 * the main target. Works on every backend.
 */
#ifndef ENGINE_UI_H
#define ENGINE_UI_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct eng_ui eng_ui;

typedef struct eng_rgba {
	uint8_t r, g, b, a;
} eng_rgba;

/* NULL when the pipeline cannot be made (logged). */
eng_ui *eng_ui_create(void);
void eng_ui_destroy(eng_ui *ui);

/* Empties the batch. */
void eng_ui_begin(eng_ui *ui);
void eng_ui_rect(eng_ui *ui, float x, float y, float w, float h, eng_rgba color);
void eng_ui_line(eng_ui *ui, float x0, float y0, float x1, float y1, float width, eng_rgba color);
/* Draws text at (x, y) (top left of the first line), `scale` times the
 * 8-pixel-high font; '\n' starts a new line. Returns the width drawn. */
float eng_ui_text(eng_ui *ui, float x, float y, const char *text, float scale, eng_rgba color);
/* Width of text at scale, without drawing. */
float eng_ui_text_width(const char *text, float scale);
/* Draws the batch into the current pass (the main target is
 * width x height pixels). */
void eng_ui_draw(eng_ui *ui, uint32_t width, uint32_t height);
/* Vertices in the batch (for tests). */
uint32_t eng_ui_vertex_count(const eng_ui *ui);

#ifdef __cplusplus
}
#endif

#endif
