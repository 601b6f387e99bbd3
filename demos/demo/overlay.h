/* The on-screen overlay: what the profiler sees, live. A header (API,
 * device, GPU timing mode, fps, dropped frames, the last action), a
 * frame-time graph, the table of sources (or the selected source's
 * detail) and, with F1, the hotkeys.
 *
 * It draws a view-model (overlay_view), which the app builds from the
 * demo's model before each build, and keeps a state of its own
 * (overlay_state: on/off, scale, selection, scroll), which the keys
 * change. It calls nothing in the app: what it shows comes in the view,
 * and the profiler's per-source figures from the profiler itself. */
#ifndef DEMOS_OVERLAY_H
#define DEMOS_OVERLAY_H

#include "overlay_view.h"

#include <stdbool.h>
#include <stdint.h>

/* Sets the state up: shown when `on` (and a UI could be made), at
 * `scale` (0: auto). False when out of memory (nothing to free). */
bool overlay_init(overlay_state *ov, bool on, float scale);
/* Frees the UI and the buffers; the state reads as off after. */
void overlay_free(overlay_state *ov);

/* Lays out and records this frame's overlay from `v` (in the overlay's
 * tick, so that its cost shows as its own entry). Drops a selection
 * whose source is gone; keeps the scroll inside the rows. */
void overlay_build(overlay_state *ov, const overlay_view *v);
/* Draws what overlay_build recorded on a target width x height. */
void overlay_draw(const overlay_state *ov, uint32_t width, uint32_t height);

#endif
