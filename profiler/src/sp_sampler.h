/* sampler.c: which frames are GPU-timed (source_profiler_gpu_set_budget).
 * Not installed. */
#ifndef SRCPROF_SP_SAMPLER_H
#define SRCPROF_SP_SAMPLER_H

#include "sp_common.h"

/* frame_begin of frame number `frame`: whether it is to be GPU-timed, given
 * that GPU timing is on and a backend installed (`gpu`), and the clock now. */
bool sp_sampler_frame_begin(bool gpu, uint64_t now, uint64_t frame);
/* render_begin: the frame's GPU timing is final (`timed`, false after a
 * skip), `renders` asked for a timer in the frame before. */
void sp_sampler_commit(bool timed);
/* frame_collect of the frame being recorded: its duration since its
 * frame_begin, how many renders asked for a GPU timer in it, the number of
 * the frame collected, and, when this collect kept its GPU samples, the
 * fewest GPU samples a source rendered in it holds (UINT32_MAX: none).
 * Sources that appeared or went (sp_core.scene_changed) start a burst,
 * unless one ended recently. */
void sp_sampler_frame_end(uint64_t now, uint32_t renders, uint64_t collected, bool gpu_kept,
			  uint32_t min_gpu);
void sp_sampler_reset(void);    /* profiler enabled: forget what was measured */
void sp_sampler_shutdown(void); /* and the budget */

#endif
