/* The dispatch table behind engine/gfx.h. Each backend (vk/, gl/, null/)
 * fills one; gfx.c picks it, holds the handle pools and forwards every call
 * with the context the backend's init made. Only this header and gfx.c
 * know there is more than one backend.
 *
 * Handles reach a backend only when live: gfx.c refuses stale ones (a
 * destroyed object's, an earlier device's) and passes {0} instead where a
 * call takes "none". So a backend indexes its resource arrays with
 * eng_handle_slot(h.id), sized ENG_GFX_MAX_*, without checks of its own. */
#ifndef ENGINE_GFX_BACKEND_H
#define ENGINE_GFX_BACKEND_H

#include "engine/gfx.h"
#include "pool.h"

typedef struct eng_window eng_window;
typedef struct eng_faults eng_faults;

#define ENG_GFX_MAX_BUFFERS 4096
#define ENG_GFX_MAX_IMAGES 4096
#define ENG_GFX_MAX_PIPELINES 64

typedef struct eng_gfx_backend {
	const char *name; /* "vulkan", "gl", "null": also the info's api */
	/* Makes the device; windowed into `window` when it is given (made for
	 * the backend's API), else headless. Sets *ctx to the backend's own
	 * context, which every later call gets back. `faults` (faults.h) is
	 * the set the device runs under, alive as long as the device: the
	 * backend keeps it in its context and asks it where each fault
	 * strikes. One line and the reason on failure, with nothing left
	 * behind. */
	eng_result (*init)(const eng_gfx_desc *desc, eng_window *window, eng_faults *faults,
			   void **ctx);
	/* Frees everything the context holds, and the context; returns the
	 * validation messages seen, teardown included. */
	uint32_t (*shutdown)(void *ctx);
	void (*get_info)(void *ctx, eng_gfx_info *info);
	/* The graphics timer as the profiler is given it: the backend's own
	 * seen through the faults (eng_fault_timer_wrap), alive until
	 * shutdown; NULL: no GPU timing. */
	const sp_gpu_timer_backend *(*gpu_timer)(void *ctx);
	uint32_t (*validation_messages)(void *ctx);

	/* desc->type is ENG_BUFFER_VERTEX or ENG_BUFFER_INDEX here. */
	eng_result (*make_buffer)(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
	void (*destroy_buffer)(void *ctx, eng_buffer h);
	eng_result (*make_image)(void *ctx, eng_image h, const eng_image_desc *desc);
	void (*destroy_image)(void *ctx, eng_image h);
	void (*update_image)(void *ctx, eng_image h, const void *rgba);
	void (*prepare_image_update)(void *ctx, eng_image h); /* optional */
	/* Called once per distinct desc (gfx.c caches them). */
	eng_result (*make_pipeline)(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc);

	bool (*begin_frame)(void *ctx);
	eng_result (*end_frame)(void *ctx);
	eng_result (*wait_frame)(void *ctx, uint32_t frames_back);
	void (*resize)(void *ctx, uint32_t width, uint32_t height);
	void (*set_vsync)(void *ctx, bool on); /* optional */

	void (*begin_pass)(void *ctx, const eng_pass_desc *desc);
	void (*end_pass)(void *ctx);
	void (*apply_pipeline)(void *ctx, eng_pipeline pip);
	void (*apply_uniforms)(void *ctx, const void *data, size_t size);
	void (*apply_vertices)(void *ctx, eng_buffer vertices, eng_buffer indices);
	void (*apply_transient_vertices)(void *ctx, const void *data, size_t size);
	void (*apply_image)(void *ctx, eng_image img);
	void (*draw)(void *ctx, uint32_t first, uint32_t count, uint32_t instances);
	/* Optional: a pass recorded by several threads (engine/gfx.h). NULL:
	 * one recorder, the calling thread. */
	uint32_t (*recorders)(void *ctx);
	void (*recorder_begin)(void *ctx, uint32_t i);
	void (*recorder_end)(void *ctx, uint32_t i);
	void *(*recorder_cmd)(void *ctx, uint32_t i);

	/* Optional: compute (engine/gfx.h). NULL: none. make_storage and
	 * make_compute come with it, and compute_timer (may return NULL). */
	bool (*has_compute)(void *ctx);
	eng_result (*make_storage)(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
	eng_result (*make_compute)(void *ctx, eng_pipeline h, const char *cs);
	bool (*begin_compute)(void *ctx);
	void (*dispatch)(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push,
			 size_t size, uint32_t groups);
	void (*end_compute)(void *ctx);
	void *(*compute_cmd)(void *ctx);
	const sp_gpu_timer_backend *(*compute_timer)(void *ctx);

	void (*request_screenshot)(void *ctx);
	const uint8_t *(*read_screenshot)(void *ctx, uint32_t *width, uint32_t *height);
	eng_result (*time_isolated)(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns);
	/* Optional: fn as time_isolated runs it, its work counted by one
	 * query around all of it (the counters in `counted`, bit c for
	 * source_profiler_counter c) into counts[c]. */
	eng_result (*count_isolated)(void *ctx, void (*fn)(void *user), void *user, uint32_t counted,
				     uint64_t *counts);
} eng_gfx_backend;

#ifdef SRCPROF_HAVE_VULKAN
const eng_gfx_backend *vk_gfx_backend(void);
#endif
#ifdef SRCPROF_HAVE_GL
const eng_gfx_backend *gl_gfx_backend(void);
#endif
const eng_gfx_backend *null_gfx_backend(void);

/* Makes the device as eng_gfx_init does, windowed into `window` when it is
 * given (the engine core's window): the one place ENG_API_AUTO is resolved
 * (Vulkan, then OpenGL), remaking the window for GL when Vulkan fails. */
eng_result eng_gfx_init_window(const eng_gfx_desc *desc, eng_window *window);
/* Sets LP_NUM_THREADS from desc->raster_threads (when set): before the
 * window, as an OpenGL window's context makes the driver's screen. False
 * (logged) when the count is out of range. */
bool eng_gfx_set_raster_threads(const eng_gfx_desc *desc);

/* The current device's context when `be` drives it, else NULL: how a
 * backend's own extra API (engine/null.h, null_api.c) finds its device;
 * never called by a backend itself. */
void *eng_gfx_context_of(const eng_gfx_backend *be);

/* The API the current device runs (ENG_API_AUTO when none). */
eng_api eng_gfx_api(void);

#endif
