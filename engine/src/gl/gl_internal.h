/* State shared by the OpenGL 4.5 backend's files. Only engine/src/gl
 * includes glad.
 *
 * GL runs in one context on the graphics thread: a GLFW window's, or an
 * EGL context with no surface when headless. The main target is always an
 * FBO (RGBA8 + 32F depth), drawn with Vulkan's clip space (glClipControl
 * lower-left, zero-to-one) so that memory row 0 holds the top row as it
 * does on Vulkan; a window gets it blitted upside down at the end of the
 * frame. Per-frame data lives in persistently mapped rings, one per frame
 * slot, reused once the slot's fence has signalled. */
#ifndef ENGINE_GL_INTERNAL_H
#define ENGINE_GL_INTERNAL_H

#include "../gfx_backend.h"
#include "engine/log.h"

#include <glad/gl.h>

#include "srcprof/gl.h"

#include <stdbool.h>
#include <stdint.h>

#define GL_FIF ENG_FRAMES_IN_FLIGHT
#define GL_MAX_BUFFERS 4096
#define GL_MAX_IMAGES 4096
#define GL_MAX_PIPELINES 64
#define GL_MAX_SHADERS 64
#define GL_RING_CHUNKS 16
#define GL_UNIFORM_MAX 256 /* bytes of one draw's uniform block */

/* --- context (gl_context.c) --------------------------------------------------- */

typedef struct gl_device {
	bool headless, software;
	void *window; /* GLFWwindow* when windowed */
	char renderer[256];
	char version[256];
	GLint ubo_align;
} gl_device;

extern gl_device gl_dev;

/* Makes a GL 4.5 core context current (the window's, or EGL with no
 * surface) and loads GL. On failure logs what is missing. */
eng_result gl_context_init(const eng_gfx_desc *desc);
/* Releases the context; objects must be deleted before. */
void gl_context_shutdown(void);
/* Swaps wait for vertical blank from now (windowed only). */
void gl_context_set_vsync(bool on);
/* Presents the default framebuffer (windowed only). */
void gl_context_swap(void);
/* KHR_debug messages counted since the last init. */
uint32_t gl_messages(void);
/* A GL function of the current context by name (EGL's or GLFW's loader). */
srcprof_gl_proc gl_context_proc(const char *name);

/* --- resources (gl_resources.c) ------------------------------------------------ */

typedef struct gl_buffer_res {
	GLuint buffer; /* vertices or indices: GL binds either kind anywhere */
} gl_buffer_res;

typedef struct gl_image_res {
	GLuint texture;
	GLuint fbo; /* ENG_IMAGE_TARGET only */
	uint32_t width, height;
	eng_image_usage usage;
} gl_image_res;

typedef struct gl_pipeline_res {
	eng_pipeline_desc desc;
	char vs[64], fs[64];
	GLuint program;
} gl_pipeline_res;

typedef struct gl_ring_chunk {
	GLuint buffer;
	uint8_t *ptr; /* mapped for the buffer's life */
	GLsizeiptr size, used;
} gl_ring_chunk;

/* Memory a frame writes as it records (uniforms, transient vertices),
 * reset when the frame slot is reused. */
typedef struct gl_ring {
	gl_ring_chunk chunks[GL_RING_CHUNKS];
	uint32_t n, cur;
	GLsizeiptr first_size;
} gl_ring;

typedef struct gl_ring_slice {
	GLuint buffer;
	GLintptr offset;
	uint8_t *ptr;
} gl_ring_slice;

typedef struct gl_frame {
	GLsync fence;    /* signalled when the slot's last frame finished */
	uint64_t serial; /* frame number last submitted from this slot, 0 if none */
	gl_ring uniforms, vertices;
	GLuint readback; /* pixel pack buffer of a requested screenshot */
	GLsizeiptr readback_size;
	uint64_t readback_serial; /* frame whose screenshot sits in readback */
} gl_frame;

typedef struct gl_gfx_state {
	bool ready;
	const char *shader_dir;

	/* the main target */
	GLuint main_fbo, main_color, main_depth;
	uint32_t width, height;         /* its size */
	uint32_t want_width, want_height; /* the window's, applied at the next frame */
	bool rebuild_target;              /* ENG_FAULT_OUT_OF_DATE: rebuilt at the next frame */

	GLuint vaos[4]; /* per eng_vertex_layout; vertex buffers bound at draw */
	GLuint sampler;

	gl_buffer_res buffers[GL_MAX_BUFFERS];
	uint32_t n_buffers;
	gl_image_res images[GL_MAX_IMAGES];
	uint32_t n_images;
	gl_pipeline_res pipelines[GL_MAX_PIPELINES];
	uint32_t n_pipelines;
	struct {
		char name[64];
		GLuint shader;
	} shaders[GL_MAX_SHADERS];
	uint32_t n_shaders;

	gl_frame frames[GL_FIF];
	uint32_t slot;            /* frame slot being recorded */
	uint64_t serial_recorded; /* frames begun */
	uint64_t serial_done;     /* frames known complete */
	bool recording, in_pass;
	bool device_lost; /* a wait failed (or ENG_FAULT_DEVICE_LOST): frames fail fast */
	eng_pipeline current_pipeline;
	bool screenshot_wanted;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
} gl_gfx_state;

extern gl_gfx_state gg;

/* VAOs per vertex layout and the sampler; shutdown deletes every object. */
void gl_resources_init(void);
void gl_resources_shutdown(void);
/* engine/gfx.h's resource calls; the _get functions return NULL for a
 * stale or empty handle. */
eng_buffer gl_make_buffer(const void *data, size_t size, bool index);
void gl_destroy_buffer(eng_buffer h);
gl_buffer_res *gl_buffer_get(eng_buffer h);
eng_image gl_make_image(uint32_t width, uint32_t height, eng_image_usage usage);
void gl_destroy_image(eng_image h);
gl_image_res *gl_image_get(eng_image h);
eng_pipeline gl_make_pipeline(const eng_pipeline_desc *desc);
/* Binds the pipeline's program and fixed-function state. */
void gl_bind_pipeline(const gl_pipeline_res *p);
/* `size` bytes at an `align`ed offset, growing the ring by a chunk (logged)
 * when full; ENG_ERR_OUT_OF_MEMORY after GL_RING_CHUNKS chunks. */
eng_result gl_ring_alloc(gl_ring *ring, GLsizeiptr size, GLsizeiptr align, gl_ring_slice *out);
void gl_ring_reset(gl_ring *ring);
void gl_ring_free(gl_ring *ring);
/* (Re)creates the main target FBO at width x height. */
eng_result gl_main_target(uint32_t width, uint32_t height);

/* --- GPU timer: the public srcprof::gl module ------------------------------------ */

/* Created by gl_init when GL has timestamp queries; NULL otherwise. */
extern srcprof_gl_timer *gl_timer;

#endif
