/*
 * engine/gfx.h - the drawing interface sources and the engine use; the
 * Vulkan, OpenGL and null (engine/null.h) backends implement it behind one
 * dispatch table.
 *
 * Small on purpose: buffers of static vertices, images (sampled textures,
 * streamed textures, render targets), pipelines named after their shaders,
 * passes into the main target or an image, per-draw uniforms and draws.
 * Handles are { uint32_t id } with 0 meaning none, and a generation in the
 * id: once its object is destroyed a handle is refused, even after the
 * slot holds a new object. Descs are structs where zero means default.
 * Per-frame data (uniforms, transient vertices, uploads) lives in rings
 * sized for the frames in flight; nothing here waits on the GPU except
 * eng_gfx_wait_frame and explicit read-backs.
 *
 * Frame:  eng_gfx_begin_frame -> passes (begin_pass, draws, end_pass) and
 *         uploads between passes -> eng_gfx_end_frame (submit, present).
 * GPU timestamps for the profiler come from the backend's sp_gpu_timer
 * implementation (eng_gfx_gpu_timer), written at the current point of the
 * frame's command stream.
 */
#ifndef ENGINE_GFX_H
#define ENGINE_GFX_H

#include "srcprof/gpu_timer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENG_FRAMES_IN_FLIGHT 2 /* NUM_TEXTURES; equals SOURCE_PROFILER_FRAME_BUFFER_SIZE */

typedef struct eng_buffer { uint32_t id; } eng_buffer;
typedef struct eng_image { uint32_t id; } eng_image;
typedef struct eng_pipeline { uint32_t id; } eng_pipeline;

typedef enum eng_result {
	ENG_OK = 0,
	ENG_ERR_NO_DRIVER,    /* no loader / library / platform */
	ENG_ERR_NO_DEVICE,    /* no device with what srcprof needs */
	ENG_ERR_SHADER,       /* missing or invalid shader */
	ENG_ERR_OUT_OF_MEMORY,
	ENG_ERR_DEVICE_LOST,
	ENG_ERR_SURFACE,      /* window or swapchain could not be made */
	ENG_ERR_INVALID,      /* bad arguments */
} eng_result;

const char *eng_result_str(eng_result r);

typedef struct eng_rect {
	int32_t x, y;
	uint32_t w, h;
} eng_rect;

/* --- Device ---------------------------------------------------------------- */

/* AUTO tries Vulkan, then OpenGL. NULL is the null device (engine/null.h):
 * it draws nothing and needs no driver, for tests; AUTO never picks it. */
typedef enum eng_api { ENG_API_AUTO, ENG_API_VULKAN, ENG_API_GL, ENG_API_NULL } eng_api;

typedef struct eng_null_desc eng_null_desc;

/* How per-source GPU timestamps are placed (docs/gpu-timing.md). */
typedef enum eng_gpu_timing {
	ENG_GPU_TIMING_AUTO,    /* flushed on CPU/software devices, plain elsewhere */
	ENG_GPU_TIMING_PLAIN,   /* bare timestamps (queries/counters) */
	ENG_GPU_TIMING_FLUSHED, /* each stamp followed by a flush, so it reads true
				   on binning and software rasterizers */
} eng_gpu_timing;

typedef struct eng_gfx_desc {
	eng_api api;
	bool headless;          /* render offscreen, no window system */
	uint32_t width, height; /* main target size */
	bool vsync;
	bool validate;          /* Vulkan validation / GL debug output, fail on messages */
	const char *device;     /* pick a device by index ("1") or name substring */
	const char *shader_dir; /* NULL: SRCPROF_SHADER_DIR or the build's */
	eng_gpu_timing gpu_timing;
	const eng_null_desc *null_device; /* ENG_API_NULL: its costs (NULL: none) */
	/* Mesa's software rasterizers (lavapipe, llvmpipe) split each scene
	 * over raster_threads threads (0: on the submitting thread) when
	 * raster_threads_set: LP_NUM_THREADS is set before the device is made
	 * (process-wide). Else the environment's LP_NUM_THREADS or the
	 * driver's default, one thread per CPU. Other devices ignore it.
	 * Per-source GPU times on a software device are truer with one
	 * (docs/bench-method.md, "One rasterizer thread"). */
	bool raster_threads_set;
	uint32_t raster_threads; /* 0 to ENG_MAX_RASTER_THREADS */
	/* Compute work (eng_gfx_begin_compute) in a command buffer of its
	 * own each frame, with a GPU timer of its own: Vulkan and null. */
	bool compute;
	/* Work counters (source_profiler_work_enable): the GPU timers count
	 * each render's pipeline statistics. Vulkan: where the device has
	 * pipelineStatisticsQuery (enabled then; else one line says it is
	 * not there and nothing is counted). Null: vertices, primitives,
	 * vertex shader invocations, clipping in and out as the draws
	 * define them and compute invocations as the dispatches do; no
	 * fragments (n/a: it rasterizes nothing). */
	bool work_counters;
} eng_gfx_desc;

/* The most raster_threads accepted; the driver caps it further
 * (llvmpipe's LP_MAX_THREADS), and eng_gfx_info counts what it runs. */
#define ENG_MAX_RASTER_THREADS 64

/* Creates a headless device (eng_create makes windowed ones, with their
 * window), the main target and everything per frame; ENG_API_AUTO tries
 * Vulkan, then OpenGL. On failure logs one line saying what is missing and
 * returns the reason. One device at a time. */
eng_result eng_gfx_init(const eng_gfx_desc *desc);
/* Frees the device and everything made on it; handles made on it are
 * refused from now on, also by the next device. */
void eng_gfx_shutdown(void);

/* Changes each time a device is created: objects cached under an older
 * value are gone. */
uint32_t eng_gfx_generation(void);

typedef struct eng_gfx_info {
	const char *api;         /* "vulkan" / "gl" / "null" */
	char device[256];        /* device name */
	char driver[520];        /* driver / version string */
	bool software;           /* CPU device (lavapipe, llvmpipe) */
	const char *gpu_timing;  /* the mode GPU times are produced in */
	uint32_t width, height;  /* main target */
	/* A software device's rasterizer threads, counted (Linux: this
	 * process's threads named llvmpipe-N, which name themselves as they
	 * start: device creation reads the count until it has held for 20 ms
	 * at the number expected or more, 200 ms below it, at most a
	 * second); 0 when it rasterizes on the submitting thread; -1 when
	 * not a software device, not Mesa's llvmpipe-based one (softpipe,
	 * SwiftShader) or not known. */
	int raster_threads;
} eng_gfx_info;

void eng_gfx_get_info(eng_gfx_info *info);
/* " (software device, 2 rasterizer threads)", " (software device,
 * rasterizing on the submitting thread)", " (software device)" when the
 * count is not known, or "" for a hardware device: what reports append
 * to the device's name. */
void eng_gfx_software_text(const eng_gfx_info *info, char *buf, size_t size);

/* The backend's GPU timer for the profiler (srcprof/gpu_timer.h). */
const sp_gpu_timer_backend *eng_gfx_gpu_timer(void);

/* Validation / debug messages seen since init (warnings and errors); after
 * shutdown, those of the last device, teardown included. */
uint32_t eng_gfx_validation_messages(void);

/* --- Resources ------------------------------------------------------------- */

/* Objects made on the current device and not yet destroyed (pipelines
 * live until shutdown): what a leak check or a soak run watches. */
typedef struct eng_gfx_counts {
	uint32_t buffers, images, pipelines;
	/* Calls given a handle that is not live - its object destroyed, or
	 * made on an earlier device - since the process began. Such calls do
	 * nothing (the first one per device is logged): a stale handle never
	 * reaches the object that reuses its slot. */
	uint32_t refused;
} eng_gfx_counts;
void eng_gfx_get_counts(eng_gfx_counts *counts);

typedef enum eng_vertex_layout {
	ENG_LAYOUT_NONE,   /* vertices made in the shader from the vertex index */
	ENG_LAYOUT_MESH,   /* eng_mesh_vertex */
	ENG_LAYOUT_SPRITE, /* eng_sprite, one per instance */
	ENG_LAYOUT_UI,     /* eng_ui_vertex */
} eng_vertex_layout;

typedef struct eng_mesh_vertex {
	float pos[3], normal[3], uv[2];
} eng_mesh_vertex;

typedef struct eng_sprite {
	float pos[3], size;
	float color[4];
} eng_sprite;

typedef struct eng_ui_vertex {
	float pos[2];
	uint8_t color[4];
} eng_ui_vertex;

typedef enum eng_buffer_type {
	ENG_BUFFER_VERTEX,  /* immutable vertices (the default) */
	ENG_BUFFER_INDEX,   /* immutable uint32 indices */
	/* Compute reads and writes it, draws can take it as vertices
	 * (eng_gfx_apply_vertices); only with compute (eng_gfx_has_compute). */
	ENG_BUFFER_STORAGE,
} eng_buffer_type;

typedef struct eng_buffer_desc {
	const void *data; /* size bytes; STORAGE: NULL for zeros */
	size_t size;      /* bytes; STORAGE: not 0 */
	eng_buffer_type type;
} eng_buffer_desc;

/* A buffer as desc says; {0} (logged) when it cannot be made: too many
 * buffers, out of memory, STORAGE without compute or of size 0. */
eng_buffer eng_gfx_make_buffer(const eng_buffer_desc *desc);
void eng_gfx_destroy_buffer(eng_buffer buf);

typedef enum eng_image_usage {
	ENG_IMAGE_STREAM = 1, /* sampled, rewritten from the CPU (eng_gfx_update_image) */
	ENG_IMAGE_TARGET = 2, /* sampled, rendered into by passes */
} eng_image_usage;

typedef struct eng_image_desc {
	uint32_t width, height; /* pixels, not 0 */
	eng_image_usage usage;  /* 0: sampled only, never written */
} eng_image_desc;

/* RGBA8 images. Destroying is deferred until the GPU is done with them.
 * {0} (logged) when one cannot be made. */
eng_image eng_gfx_make_image(const eng_image_desc *desc);
void eng_gfx_destroy_image(eng_image img);
/* Copies width*height*4 bytes into a STREAM image. Outside passes. Call
 * eng_gfx_prepare_image_update first, outside any GPU timing scope: where
 * the backend has to wait before it can write the image (GL: a copy the
 * GPU may still sample), the wait happens there, so that a GPU scope
 * around the update times the copy and not a CPU stall. */
void eng_gfx_prepare_image_update(eng_image img);
void eng_gfx_update_image(eng_image img, const void *rgba);

typedef enum eng_blend { ENG_BLEND_NONE, ENG_BLEND_ALPHA, ENG_BLEND_ADD } eng_blend;

typedef struct eng_pipeline_desc {
	const char *vs, *fs;      /* shader names: <dir>/<name>.spv */
	eng_vertex_layout layout;
	eng_blend blend;
	bool depth;               /* depth test and write */
	bool cull;                /* cull back faces */
	bool offscreen;           /* draws into images, not the main target */
	bool textured;            /* samples one image (eng_gfx_apply_image) */
} eng_pipeline_desc;

/* Pipelines are cached by desc; the first call compiles. Returns {0} (and
 * logs the file and reason) when a shader is missing or invalid. */
eng_pipeline eng_gfx_make_pipeline(const eng_pipeline_desc *desc);

/* --- Frame ------------------------------------------------------------------- */

/* Starts recording a frame. Returns false when nothing can be drawn this
 * frame (window minimized, swapchain being rebuilt); skip the frame then. */
bool eng_gfx_begin_frame(void);
/* Submits the frame and presents it. */
eng_result eng_gfx_end_frame(void);
/* Waits until the frame `frames_back` frames before the last submitted one
 * has finished on the GPU (1: the one before; 0: all). */
eng_result eng_gfx_wait_frame(uint32_t frames_back);
/* The window changed size: the main target follows at the next frame. */
void eng_gfx_resize(uint32_t width, uint32_t height);
/* Turns waiting for vertical blank on or off (windowed; next frame). */
void eng_gfx_set_vsync(bool on);

typedef struct eng_pass_desc {
	eng_image target; /* {0}: the main target (with depth) */
	eng_rect area;    /* pixels; zero size: the whole target */
	bool clear;       /* clear color (and depth) inside the area */
	float clear_color[4];
	/* Threads that record the pass's draws at once (eng_gfx_recorders);
	 * 0 or 1: the calling thread, as usual. */
	uint32_t recorders;
} eng_pass_desc;

void eng_gfx_begin_pass(const eng_pass_desc *desc);
void eng_gfx_end_pass(void);

/* A pass recorded by several threads. After eng_gfx_begin_pass with
 * recorders > 1, eng_gfx_recorders() says how many the backend gives (at
 * most ENG_GFX_MAX_RECORDERS; 1: it records on one thread - OpenGL, the
 * pass of an isolated timing - and the draws go inline, on the calling
 * thread). Recorder i's draws, recorded on one thread between
 * eng_gfx_recorder_begin(i) and eng_gfx_recorder_end(i), come after
 * recorder i - 1's when the pass ends; the draw calls below then work on
 * that thread as they do on the frame's. Every recorder begun must end
 * before eng_gfx_end_pass, which runs on the thread that began the pass. */
#define ENG_GFX_MAX_RECORDERS 16
/* Whether the device can record a pass on several threads at all. */
bool eng_gfx_can_record_in_parallel(void);
uint32_t eng_gfx_recorders(void);
void eng_gfx_recorder_begin(uint32_t i);
void eng_gfx_recorder_end(uint32_t i);
/* What recorder i records into, for source_profiler_set_command_buffer (a
 * VkCommandBuffer on Vulkan); NULL where there is none of its own. On the
 * recorder's thread, after its begin. */
void *eng_gfx_recorder_cmd(uint32_t i);

void eng_gfx_apply_pipeline(eng_pipeline pip);
/* Per-draw uniform block (std140, up to 256 bytes), copied. */
void eng_gfx_apply_uniforms(const void *data, size_t size);
void eng_gfx_apply_vertices(eng_buffer vertices, eng_buffer indices);
/* Vertices that live for this frame only (sprites, UI), copied. */
void eng_gfx_apply_transient_vertices(const void *data, size_t size);
void eng_gfx_apply_image(eng_image img);
/* count vertices (or indices when an index buffer is applied), instances. */
void eng_gfx_draw(uint32_t first, uint32_t count, uint32_t instances);

/* --- Compute ---------------------------------------------------------------- */

/* With eng_gfx_desc.compute, where the device has it (Vulkan, null):
 * compute dispatches recorded between eng_gfx_begin_compute and
 * eng_gfx_end_compute (graphics thread, in a frame, outside passes) go
 * into a command buffer of the frame's own, submitted on the frame's
 * queue before its graphics work, which sees what they wrote (vertex
 * input and storage reads wait for them; the next frame's dispatches wait
 * for this frame's draws). That command buffer has a GPU timer of its
 * own, a second queue for the profiler ("compute", eng_gfx_compute_timer,
 * eng_compute_queue): its stamps are never subtracted from the graphics
 * timer's. Devices with a compute queue family of their own still get
 * the one queue here: a submission to a second queue, with its
 * semaphores, is not made (docs/known-limits.md). During an isolated
 * timing the dispatches go inline, before the passes. */
bool eng_gfx_has_compute(void);

/* Buffers compute reads and writes: eng_gfx_make_buffer with
 * ENG_BUFFER_STORAGE. */

/* A compute pipeline of shader `cs` (<dir>/<cs>.vk.spv): set 0 and set 1
 * each one storage buffer (binding 0), push constants up to
 * ENG_GFX_PUSH_MAX bytes. Cached by name. {0} (logged) without compute. */
#define ENG_GFX_PUSH_MAX 128
eng_pipeline eng_gfx_make_compute_pipeline(const char *cs);

/* false: no compute this frame (none on the device, not in a frame, in a
 * pass, already begun). */
bool eng_gfx_begin_compute(void);
/* groups x 1 x 1 workgroups of `pip` with buffers a (set 0) and b (set 1)
 * and `push` (size bytes, at most ENG_GFX_PUSH_MAX) as push constants. */
void eng_gfx_dispatch(eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push, size_t size,
		      uint32_t groups);
void eng_gfx_end_compute(void);
/* What compute records into now (a VkCommandBuffer on Vulkan), for
 * source_profiler_set_command_buffer with the compute queue; NULL outside
 * begin/end or during an isolated timing. */
void *eng_gfx_compute_cmd(void);
/* The compute command buffer's GPU timer (srcprof/gpu_timer.h), for
 * source_profiler_add_gpu_queue; NULL without compute or timestamps. */
const sp_gpu_timer_backend *eng_gfx_compute_timer(void);

/* --- Read-back, faults ----------------------------------------------------- */

/* Copies the main target of the frame being recorded to the CPU after it
 * is drawn; eng_gfx_read_screenshot returns it (RGBA8, top row first) once
 * that frame finished, or NULL before. */
void eng_gfx_request_screenshot(void);
const uint8_t *eng_gfx_read_screenshot(uint32_t *width, uint32_t *height);

/* --- Fault injection (tests) ------------------------------------------------ */

typedef enum eng_fault {
	ENG_FAULT_TIMER_UNAVAILABLE = 1, /* GPU timer results never become available */
	ENG_FAULT_TIMER_POOL_SMALL = 2,  /* timer pools hold 4 timers at most */
	ENG_FAULT_OUT_OF_DATE = 4,       /* the swapchain reports out of date once */
	ENG_FAULT_DEVICE_LOST = 8,       /* the device is lost at the next submit */
	/* Vulkan: while set, waits for the GPU fail as a driver reports it,
	 * without waiting: a frame's fence wait with VK_TIMEOUT, a device idle
	 * wait with VK_ERROR_OUT_OF_DEVICE_MEMORY. */
	ENG_FAULT_WAIT_FAILS = 16,
	/* Vulkan: the next eng_gfx_time_isolated fails as its recording ends
	 * (vkEndCommandBuffer: VK_ERROR_OUT_OF_DEVICE_MEMORY); once. */
	ENG_FAULT_ISOLATED_FAILS = 32,
} eng_fault;

/* Turns the given faults on (replacing the current set). */
void eng_gfx_inject_faults(uint32_t faults);
uint32_t eng_gfx_faults(void);

/* Renders `fn` in a submission of its own and returns how long the GPU
 * took, submit to fence, on the CPU clock (ns) - the serialized reference
 * per-source GPU times are checked against. Between frames. */
eng_result eng_gfx_time_isolated(void (*fn)(void *user), void *user, uint64_t *ns);

/* Renders `fn` as eng_gfx_time_isolated does, with one work query
 * (pipeline statistics) around all of it: counts[c] (SOURCE_PROFILER_COUNTERS
 * of them, source_profiler_counter c) for the counters the frame's GPU
 * timer counts, their bits in *counted (0 for the others). What the
 * per-source counts of a frame must add up to when fn draws that frame.
 * ENG_ERR_INVALID without work counters (eng_gfx_desc.work_counters on a
 * device that has them) or during a frame. */
eng_result eng_gfx_count_isolated(void (*fn)(void *user), void *user, uint64_t *counts,
				  uint32_t *counted);

#ifdef __cplusplus
}
#endif

#endif
