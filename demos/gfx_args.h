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

#endif
