/* Options the three programs (srcprof-demo, srcprof-bench, srcprof-soak)
 * share about the graphics device: their choices and help texts, one
 * definition for the three option tables. */
#ifndef DEMOS_GFX_ARGS_H
#define DEMOS_GFX_ARGS_H

/* --gpu-timing: the choices and their eng_gpu_timing values. */
extern const char *const gfx_args_timings[];
extern const int gfx_args_timing_values[];
#define GFX_ARGS_TIMING_HELP                                                  \
	"auto|plain|flushed timestamp placement (default auto:\n"            \
	"flushed on software devices, plain on GPUs)"

/* --tick-threads, --record-threads: 1 to ENG_MAX_THREADS. */
#define GFX_ARGS_TICK_THREADS_HELP                                            \
	"tick the sources on N threads, each a share of them\n"              \
	"(1 to 16; default 1: the frame's thread)"
#define GFX_ARGS_RECORD_THREADS_HELP                                          \
	"record each view's sources on N threads, each into a\n"             \
	"command buffer of its own (Vulkan: secondary command\n"             \
	"buffers; OpenGL records on one thread); 1 to 16, default 1"

/* --work / --no-work. */
#define GFX_ARGS_WORK_HELP                                                         \
	"count each source's GPU work beside its time: vertices, primitives,\n"     \
	"vertex/fragment/compute shader invocations, clipping in and out\n"         \
	"(pipeline statistics queries: Vulkan, OpenGL, null; n/a where the\n"      \
	"device cannot count); --no-work: time only (the default)"

/* --compute. */
#define GFX_ARGS_COMPUTE_HELP                                                 \
	"particle sources simulate on the GPU: compute dispatches in\n"     \
	"a command buffer and GPU timer of their own (the profiler's\n"    \
	"\"compute\" queue); Vulkan only (OpenGL: on the CPU, said)"

#endif
