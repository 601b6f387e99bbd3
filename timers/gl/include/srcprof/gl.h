/*
 * srcprof/gl.h - GPU timers for the source profiler in any OpenGL renderer
 * (library srcprof::gl, pkg-config srcprof-gl).
 *
 * It implements the profiler's GPU timer interface (srcprof/gpu_timer.h)
 * with GL_TIMESTAMP query objects written by glQueryCounter (timestamp pairs
 * nest, unlike GL_TIME_ELAPSED queries), one array per frame slot, read back
 * frames later by polling GL_QUERY_RESULT_AVAILABLE, never waiting. It
 * loads the nine GL functions it calls itself through the function you
 * give it (glfwGetProcAddress, eglGetProcAddress, SDL_GL_GetProcAddress,
 * glad's loader...), so it works next to glad, GLEW, epoxy or none, and
 * includes no GL header. Needs GL 3.3 or ARB_timer_query.
 *
 * It uses the context current on the calling thread: create, use and
 * destroy it with the renderer's context current, on the profiler's
 * graphics thread - and source_profiler_frame_begin() too, where a slot's
 * query objects grow (without a current context they cannot: the growth
 * is refused and said in the log).
 *
 * Threads: GL query objects belong to one context, so a timer times the
 * renders of the context it was created with, on that thread. Renders
 * recorded on other threads (other contexts, or worker threads that only
 * prepare work) have CPU times and no GPU sample: the backend stamps no
 * named command buffers (no write_cmd), which the profiler says once. A
 * timer used on another thread than its own - installed as a further
 * queue with source_profiler_add_gpu_queue for a context that lives on
 * another thread, say - refuses every call and says so once: never a
 * stamp of the wrong context. Desktop GL has no disjoint flag (GL_GPU_DISJOINT_EXT is
 * GLES only), so results are either ready or not.
 *
 * Use (the lines a renderer adds):
 *
 *     srcprof_gl_timer *t = srcprof_gl_timer_create(&(srcprof_gl_timer_desc){
 *             .get_proc_address = glfwGetProcAddress});
 *     source_profiler_set_gpu_backend(srcprof_gl_timer_backend(t));
 *     source_profiler_enable(true);
 *     source_profiler_gpu_enable(true);
 *     every frame: frame_begin, ticks, render_begin, the renders (each between
 *                  source_render_begin / _end), render_end, swap, collect
 *     at the end:  source_profiler_set_gpu_backend(NULL); srcprof_gl_timer_destroy(t);
 *
 * Results of frame N are read at the collect of frame N + n - 1 (n frames in
 * flight, 2 by default): a driver that runs further behind than that reads
 * "not available" and drops the frame's GPU samples; then raise n with
 * source_profiler_set_frames_in_flight (up to 4).
 *
 * Timing modes (srcprof_gpu_timing): plain issues a bare glQueryCounter.
 * Flushed (auto's choice on Mesa's llvmpipe and softpipe) follows each one
 * with glFinish: llvmpipe bins draws and timestamps into per-tile lists
 * that its threads rasterize after a flush, and a stamp reads when the last
 * tile reached it (bare stamps read a small fraction of the truth there,
 * docs/gpu-timing.md); glFlush alone would let the next draws be binned
 * while the threads still run the scene the stamp closes, which reads
 * vertex-heavy sources low and their neighbours high. The wait costs a fixed amount per timer, which the
 * profiler measures with empty timers and subtracts, and flushed timers
 * are costly, so the profiler GPU-times one frame in N
 * (source_profiler_gpu_set_budget). docs/gpu-timing.md has the
 * measurements.
 */
#ifndef SRCPROF_GL_H
#define SRCPROF_GL_H

#include "srcprof/api.h"
#include "srcprof/gpu_timer.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A GL entry point as loaders return it (GLFWglproc, EGL's and glad's
 * function pointer types have this shape). */
typedef void (*srcprof_gl_proc)(void);

/* Zero means default for every field. */
typedef struct srcprof_gl_timer_desc {
	/* Loads a GL function by name for the current context. 0: looked up
	 * in the process (eglGetProcAddress, glXGetProcAddressARB, then the
	 * symbol itself). */
	srcprof_gl_proc (*get_proc_address)(const char *name);
	/* Frame slots; 0: source_profiler_frames_in_flight() at create. */
	uint32_t frames_in_flight;
	srcprof_gpu_timing timing; /* 0: auto (flushed on llvmpipe and softpipe) */
	/* Work counters (source_profiler_work_enable in srcprof/source_profiler.h):
	 * each render is bracketed by pipeline statistics queries (GL 4.6 or
	 * ARB_pipeline_statistics_query), one query object per counter and
	 * render, right inside its timestamps: vertices and primitives
	 * submitted, vertex and fragment shader invocations, clipping input
	 * and output primitives, compute shader invocations - those whose
	 * GL_QUERY_COUNTER_BITS are above 0. Read by polling, like the
	 * stamps. A context without them: one line, nothing counted. GL has
	 * one active query per target: the renderer begins none of these
	 * targets itself inside a render while work is counted. */
	bool work_counters;
} srcprof_gl_timer_desc;

typedef struct srcprof_gl_timer srcprof_gl_timer;

/* Creates a timer on the current context. NULL, with one line in the
 * profiler's log saying why, without a current context, without timestamp
 * queries (no glQueryCounter, or GL_QUERY_COUNTER_BITS 0) or when functions
 * cannot be loaded: pass NULL on (every function below accepts it) and GPU
 * timing stays off while CPU profiling goes on. */
SRCPROF_API srcprof_gl_timer *srcprof_gl_timer_create(const srcprof_gl_timer_desc *desc);

/* The backend to pass to source_profiler_set_gpu_backend(); NULL for a NULL
 * timer. Valid until destroy. */
SRCPROF_API const sp_gpu_timer_backend *srcprof_gl_timer_backend(const srcprof_gl_timer *t);

/* "gl-timestamp" (plain) or "gl-timestamp+flush" (flushed); "none" for NULL. */
SRCPROF_API const char *srcprof_gl_timer_mode(const srcprof_gl_timer *t);

/* The query target (GLenum) that counts work counter c - GL_VERTICES_SUBMITTED
 * for SOURCE_PROFILER_INPUT_VERTICES, ... GL_COMPUTE_SHADER_INVOCATIONS -
 * for a renderer that counts more than a render with its own queries (a
 * whole frame, to check the sources' counts against); 0 for another c. */
SRCPROF_API unsigned srcprof_gl_timer_work_target(source_profiler_counter c);

/* Deletes the query objects (the context must be current). Uninstall the
 * backend first (source_profiler_set_gpu_backend(NULL)). NULL is ignored. */
SRCPROF_API void srcprof_gl_timer_destroy(srcprof_gl_timer *t);

#ifdef __cplusplus
}
#endif

#endif
