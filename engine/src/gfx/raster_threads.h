/* Mesa's software rasterizer threads (raster_threads.c): set before a
 * device is made, counted after. eng_gfx_set_raster_threads is declared in
 * gfx_backend.h, where the engine core finds it. */
#ifndef ENGINE_GFX_RASTER_THREADS_H
#define ENGINE_GFX_RASTER_THREADS_H

#include "engine/gfx.h"

/* The rasterizer threads the device just made runs (threads of this
 * process named llvmpipe-N), read until the count has held; -1 when /proc
 * cannot say. Call right after an llvmpipe-based device is made. */
int eng_gfx_count_raster_threads(const eng_gfx_desc *desc);

#endif
