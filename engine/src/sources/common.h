/* What the source implementations share: uniform block layouts (std140,
 * matching the shaders), geometry and small helpers. */
#ifndef ENGINE_SOURCES_COMMON_H
#define ENGINE_SOURCES_COMMON_H

#include "engine/engine.h"
#include "engine/gfx.h"
#include "engine/log.h"
#include "engine/sources.h"

#include <stdlib.h>
#include <string.h>

typedef struct mesh_uniforms { /* mesh.vert / mesh.frag */
	mat4 mvp, model;
	float color[4];
	float light_dir[4];
	float eye[4];
} mesh_uniforms;

typedef struct sprite_uniforms { /* sprite.vert */
	mat4 view_proj;
	float right[4], up[4];
} sprite_uniforms;

typedef struct quad_uniforms { /* quad.vert + textured.frag / heavy.frag */
	mat4 mvp;
	float tint[4];
	float params[4];
} quad_uniforms;

typedef struct pass_uniforms { /* fullscreen passes: fx_scene.frag, blur.frag */
	float params[4];
} pass_uniforms;

/* Geometry shared by every mesh source of a shape, rebuilt when the
 * graphics device changes. */
typedef struct eng_geometry {
	eng_buffer vertices, indices;
	uint32_t index_count;
} eng_geometry;
eng_geometry eng_shape_geometry(eng_shape shape);
/* The sphere of tessellation level `detail` (eng_mesh_set_detail), made
 * at its first use on this device; {0} when it cannot be. */
eng_geometry eng_sphere_geometry(uint32_t detail);
/* Destroys the shared geometry (the engine calls this at teardown, after
 * the last mesh is gone). */
void eng_shapes_release(void);

/* A color of its own for a name, when none was given. */
void eng_color_from_name(const char *name, float color[4]);

/* A model matrix placing a unit quad (-0.5..0.5) in the view: a billboard
 * at `pos` of size `scale` facing the camera. */
void eng_billboard(const eng_view *view, const vec3 pos, float scale, mat4 mvp);

/* mvp mapping the unit quad onto a pixel rectangle of the view. */
void eng_rect_mvp(const eng_view *view, eng_rect r, mat4 mvp);

void eng_source_init(eng_source *s, const eng_source_type *type, const char *name,
		     const char *fallback);

#endif
