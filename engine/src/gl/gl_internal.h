/* State shared by the OpenGL 4.5 backend's files. Only engine/src/gl
 * includes glad. The backend's state is one gl_ctx, made by gl_init
 * (gl_gfx.c) and handed to every function that needs it; nothing lives
 * outside it.
 *
 * GL runs in one context on the graphics thread: the window's, or an
 * EGL context with no surface when headless. The main target is always an
 * FBO (RGBA8 + 32F depth), drawn with Vulkan's clip space (glClipControl
 * lower-left, zero-to-one) so that memory row 0 holds the top row as it
 * does on Vulkan; a window gets it blitted upside down at the end of the
 * frame. Per-frame data lives in persistently mapped rings, one per frame
 * slot, reused once the slot's fence has signalled. */
#ifndef ENGINE_GL_INTERNAL_H
#define ENGINE_GL_INTERNAL_H

#include "../gfx/faults.h"
#include "../gfx/gfx_backend.h"
#include "../gfx/shader.h"
#include "engine/log.h"

#include <glad/gl.h>

#include "srcprof/gl.h"

#include <stdbool.h>
#include <stdint.h>

#define GL_FIF ENG_FRAMES_IN_FLIGHT
#define GL_MAX_SHADERS 64
#define GL_RING_CHUNKS 16
#define GL_UNIFORM_MAX 256 /* bytes of one draw's uniform block */

/* --- context (gl_context.c) --------------------------------------------------- */

typedef struct gl_ctx gl_ctx;
typedef struct eng_window eng_window;

typedef struct gl_device {
	bool headless, software;
	eng_window *window; /* NULL when headless */
	char renderer[256];
	char version[256];
	GLint ubo_align;
	/* EGL, headless only */
	void *egl_display, *egl_context;
	void *egl_pbuffer; /* only without EGL_KHR_surfaceless_context */
	bool egl_loaded;
	bool debug_output;  /* the KHR_debug callback is installed */
	uint32_t messages;  /* KHR_debug output is synchronous: one thread */
} gl_device;

/* Makes a GL 4.5 core context current (the window's, or EGL with no
 * surface) and loads GL. On failure logs what is missing. */
eng_result gl_context_init(gl_device *dev, const eng_gfx_desc *desc, eng_window *window);
/* Releases the context; objects must be deleted before. */
void gl_context_shutdown(gl_device *dev);
/* Swaps wait for vertical blank from now (windowed only). */
void gl_context_set_vsync(void *ctx, bool on);
/* Presents the default framebuffer (windowed only). */
void gl_context_swap(gl_device *dev);
/* The loader of the device's context (EGL's or the window's): a GL
 * function by name. */
typedef srcprof_gl_proc (*gl_loader)(const char *name);
gl_loader gl_context_loader(const gl_device *dev);

/* --- resources (gl_resources.c) ------------------------------------------------ */

typedef struct gl_buffer_res {
	GLuint buffer; /* vertices or indices: GL binds either kind anywhere */
} gl_buffer_res;

/* Copies of a streamed image (ENG_IMAGE_STREAM) written in turn. */
#define GL_STREAM_COPIES 4

typedef struct gl_image_res {
	GLuint texture; /* the one drawn: for a streamed image, the copy last written */
	GLuint copies[GL_STREAM_COPIES];
	uint64_t sampled[GL_STREAM_COPIES]; /* the last frame serial that drew a copy */
	uint32_t copy;                      /* the copy drawn */
	bool prepared;                      /* copy + 1 is free to write */
	GLuint fbo; /* ENG_IMAGE_TARGET only */
	uint32_t width, height;
	eng_image_usage usage;
} gl_image_res;

typedef struct gl_pipeline_res {
	eng_vertex_layout layout;
	eng_blend blend;
	bool depth, cull;
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

/* What the sources applied since the pipeline; bound to the pipeline's
 * VAO at each draw. */
typedef struct gl_draw_state {
	GLuint vertices;
	GLintptr offset;
	GLuint indices; /* 0: not indexed */
} gl_draw_state;

struct gl_ctx {
	gl_device dev;
	/* The public srcprof::gl module; NULL without timestamp queries. */
	srcprof_gl_timer *timer;
	/* The faults this device runs under (faults.h, gfx.c's), and the
	 * timer as the profiler is given it, under them (NULL: no timer). */
	eng_faults *faults;
	eng_fault_timer fault_timer;
	const sp_gpu_timer_backend *gpu_timer;
	bool ready;
	const char *shader_dir;

	/* the main target */
	GLuint main_fbo, main_color, main_depth;
	uint32_t width, height;         /* its size */
	uint32_t want_width, want_height; /* the window's, applied at the next frame */
	bool rebuild_target;              /* ENG_FAULT_OUT_OF_DATE: rebuilt at the next frame */

	GLuint vaos[4]; /* per eng_vertex_layout; vertex buffers bound at draw */
	GLuint sampler;

	/* Indexed by handle slot (eng_handle_slot); gfx.c checked the handle. */
	gl_buffer_res buffers[ENG_GFX_MAX_BUFFERS];
	gl_image_res images[ENG_GFX_MAX_IMAGES];
	gl_pipeline_res pipelines[ENG_GFX_MAX_PIPELINES];
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
	gl_draw_state draw;
	bool screenshot_wanted;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
};

/* VAOs per vertex layout and the sampler; shutdown deletes every object. */
void gl_resources_init(gl_ctx *c);
void gl_resources_shutdown(gl_ctx *c);
/* engine/gfx.h's resource calls (the table's entries): the handle is
 * live, from gfx.c's pools; the object goes into its slot. */
eng_result gl_make_buffer(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
void gl_destroy_buffer(void *ctx, eng_buffer h);
eng_result gl_make_image(void *ctx, eng_image h, const eng_image_desc *desc);
void gl_destroy_image(void *ctx, eng_image h);
eng_result gl_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc);
/* The slot's buffer or image, NULL for {0} (a live handle otherwise:
 * gfx.c checked). */
gl_buffer_res *gl_buffer_get(gl_ctx *c, eng_buffer h);
gl_image_res *gl_image_get(gl_ctx *c, eng_image h);
/* Binds the pipeline's program and fixed-function state. */
void gl_bind_pipeline(gl_ctx *c, const gl_pipeline_res *p);
/* `size` bytes at an `align`ed offset, growing the ring by a chunk (logged)
 * when full; ENG_ERR_OUT_OF_MEMORY after GL_RING_CHUNKS chunks. */
eng_result gl_ring_alloc(gl_ring *ring, GLsizeiptr size, GLsizeiptr align, gl_ring_slice *out);
void gl_ring_reset(gl_ring *ring);
void gl_ring_free(gl_ring *ring);
/* (Re)creates the main target FBO at width x height. */
eng_result gl_main_target(gl_ctx *c, uint32_t width, uint32_t height);

#endif
