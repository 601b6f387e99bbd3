/*
 * engine/sources.h - the source types the scenes are made of. Each is
 * real work of a distinct kind:
 *
 *   mesh       lit primitive (cube, sphere, torus), transforms on the CPU
 *   particles  CPU-heavy tick (simulation), per-frame upload of sprites;
 *              or, with gpu_simulation on a device with compute, the
 *              simulation as a compute dispatch ("simulate", on the
 *              compute queue) writing the sprites the views draw
 *   video      async: a producer thread makes frames at its own rate; the
 *              renderer uploads the newest it accepts (optionally only
 *              every Nth, to starve it) and draws it
 *   effect     renders into an offscreen image, then horizontal and
 *              vertical blur passes, then draws the result
 *   heavy      calibrated: a screen rectangle whose fragment cost grows by
 *              a fixed amount per unit of k (k = 0: same geometry, no loop)
 *   logic      ticked for a given CPU cost, never drawn
 *
 * Create after eng_create (they make GPU objects); hand them to
 * eng_add_source, which owns them from then on. NULL on failure (logged).
 */
#ifndef ENGINE_SOURCES_H
#define ENGINE_SOURCES_H

#include "engine/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum eng_shape { ENG_SHAPE_CUBE, ENG_SHAPE_SPHERE, ENG_SHAPE_TORUS } eng_shape;

typedef struct eng_mesh_desc {
	const char *name;
	eng_shape shape;
	vec3 position;
	float scale;     /* 0: 1 */
	float color[4];  /* 0: a color from the name */
	float spin;      /* radians per second */
	/* Sphere only: tessellation level 1 to ENG_MESH_MAX_DETAIL (0: the
	 * shared 32 x 20 sphere), eng_mesh_set_detail's. */
	uint32_t detail;
} eng_mesh_desc;
eng_source *eng_mesh_create(const eng_mesh_desc *desc);

/* A sphere's tessellation: level L has rows(L) rings of 2 x rows(L)
 * quads, rows 4, 6, 8, 12, 16, 23, 32, 45, 64, 91, 128, 181, 256: about
 * twice the triangles a level (12 x rows^2 indices: 192 at level 1,
 * 786,432 at 13), the same pixels. The geometry of a level is made once
 * per device, at its first use. */
#define ENG_MESH_MAX_DETAIL 13
/* Sets `s`'s level (clamped to 1 .. ENG_MESH_MAX_DETAIL) and returns it;
 * 0 for a source that is not a sphere mesh, or when the geometry could
 * not be made (the level stays). */
uint32_t eng_mesh_set_detail(eng_source *s, uint32_t detail);
/* `s`'s level (0: not a sphere mesh, or the shared sphere) and its
 * triangles a draw. */
uint32_t eng_mesh_detail(const eng_source *s);
uint32_t eng_mesh_triangles(const eng_source *s);

typedef struct eng_particles_desc {
	const char *name;
	vec3 position;
	float scale;      /* 0: 1 */
	uint32_t count;   /* 0: 4,000 */
	float color[4];
	uint32_t seed;
	/* Simulate on the GPU where eng_gfx_has_compute() (else on the CPU,
	 * as without it), in gpu_steps steps a frame (0: 1; more: more GPU
	 * work for the same motion). */
	bool gpu_simulation;
	uint32_t gpu_steps;
} eng_particles_desc;
eng_source *eng_particles_create(const eng_particles_desc *desc);

typedef struct eng_video_desc {
	const char *name;
	vec3 position;
	float scale;             /* 0: 1 */
	double fps;              /* producer rate; 0: 30 */
	uint32_t width, height;  /* frame size; 0: 320 x 180 */
	uint32_t accept_every;   /* renderer takes every Nth new frame; 0/1: all */
} eng_video_desc;
eng_source *eng_video_create(const eng_video_desc *desc);
/* Test hook: the producer stalls for `ms`, then makes up the frames it
 * missed back to back (a flood), then goes on at its rate. */
void eng_video_stall(eng_source *s, uint32_t ms);

typedef struct eng_effect_desc {
	const char *name;
	vec3 position;
	float scale;      /* 0: 1 */
	uint32_t size;    /* offscreen images, pixels; 0: 256 */
} eng_effect_desc;
eng_source *eng_effect_create(const eng_effect_desc *desc);

typedef struct eng_heavy_desc {
	const char *name;
	float k;         /* work units per pixel */
	float base;      /* units every pixel pays besides k (default 0) */
	eng_rect rect;   /* pixels within the main view */
	float color[4];
	/* Overdraw: the rectangle drawn this many times over itself (one
	 * instanced draw, blended: every layer shaded); 0: once. */
	uint32_t layers;
} eng_heavy_desc;
eng_source *eng_heavy_create(const eng_heavy_desc *desc);
/* Loop iterations per unit of k (the calibration constant). */
#define ENG_HEAVY_ITERATIONS_PER_UNIT 8

typedef struct eng_logic_desc {
	const char *name;
	uint32_t work;   /* units of CPU work per tick (~1 us each) */
} eng_logic_desc;
eng_source *eng_logic_create(const eng_logic_desc *desc);

#ifdef __cplusplus
}
#endif

#endif
