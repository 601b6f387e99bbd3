#include "gfx_args.h"

#include "engine/engine.h"

#include <stddef.h>

/* OPT_CHOICE stores an int. */
_Static_assert(sizeof(eng_gpu_timing) == sizeof(int), "eng_gpu_timing is stored as an int");

_Static_assert(ENG_MAX_THREADS == 16, "the threads options' help says 1 to 16");

const char *const gfx_args_timings[] = {"auto", "plain", "flushed", NULL};
const int gfx_args_timing_values[] = {ENG_GPU_TIMING_AUTO, ENG_GPU_TIMING_PLAIN,
				      ENG_GPU_TIMING_FLUSHED};
