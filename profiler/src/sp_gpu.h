/* gpu.c: GPU timer pools per frame slot, and the checks on their results.
 * Not installed. */
#ifndef SRCPROF_SP_GPU_H
#define SRCPROF_SP_GPU_H

#include "sp_common.h"
#include "srcprof/gpu_timer.h"

struct sp_gpu_timer { /* 8 bytes: a pool holds ~4 a source */
	uint32_t next;      /* next timer of the same source this frame */
	uint8_t pass;       /* global pass id (< SOURCE_PROFILER_MAX_PASSES) */
	uint8_t pass_local; /* column in the owner's records (< MAX_SOURCE_PASSES) */
	uint8_t first : 1;  /* the owner's first render of the frame */
	uint8_t lead : 1;   /* its pass's first timer of the frame */
	uint8_t state;
};
/* Where in a pass an empty timer is measured: its first timer of the
 * frame, or after it. */
enum { SP_GPU_LEAD, SP_GPU_LATER, SP_GPU_PLACES };
_Static_assert(SOURCE_PROFILER_MAX_PASSES <= 256 && SOURCE_PROFILER_MAX_SOURCE_PASSES <= 256,
	       "pass ids fit a timer's bytes");
_Static_assert(sizeof(struct sp_gpu_timer) == 8, "a timer is 8 bytes");

/* Graphics thread, at frame_begin of a GPU-timed frame: makes the slot's
 * pool hold the timers the frame is likely to need (the backend creates
 * query objects here, before the renderer records commands). */
void sp_gpu_prepare(unsigned slot, uint32_t sources);
/* Graphics thread, at render_begin: opens slot `slot` for frame `frame` if
 * GPU timing is on. */
void sp_gpu_frame_begin(unsigned slot, uint64_t frame, bool gpu_on, uint32_t sources);
void sp_gpu_frame_end(unsigned slot);
sp_gpu_timer *sp_gpu_timer_begin(unsigned slot, uint32_t pass);
/* Ends `t` if it is a live timer of `slot` and returns its index; returns
 * SP_NO_ENTRY for a bad pointer. */
uint32_t sp_gpu_timer_end(unsigned slot, sp_gpu_timer *t);
/* Reads slot's results for frame `frame` and checks them; false when the
 * frame has no GPU samples (off, or dropped as disjoint). Then the stamps
 * of timer i are sp_gpu_stamps()[2 + 2i] and [3 + 2i]. */
bool sp_gpu_collect(unsigned slot, uint64_t frame);
const sp_gpu_timer *sp_gpu_timers(unsigned slot);
const uint64_t *sp_gpu_stamps(void);
/* The ns subtracted from timer t (the median of the empty timers measured
 * where it is: its pass's first timer, or after it), 0 when the backend
 * does not ask for it or none is measured yet. */
uint32_t sp_gpu_overhead(const sp_gpu_timer *t);
void sp_gpu_reset_slots(void);
void sp_gpu_shutdown(void);
bool sp_gpu_has_backend(void);
bool sp_gpu_costly(void); /* the backend's timers are costly: sample, measure empty timers */
bool sp_gpu_costly_pub(void); /* the same, any thread, from the backend's installation */
int64_t sp_gpu_cpu_offset(void);
void sp_gpu_frame_range(uint64_t *avg, uint64_t *max); /* any thread */
/* Graphics thread: the empty timers a timed frame writes, as many as the
 * last timed frame's passes wrote (one a pass, two where the backend
 * subtracts them); 0 where none are measured. */
uint32_t sp_gpu_empty_timers_last(void);
/* The mean over passes of what an empty timer costs. */
uint64_t sp_gpu_overhead_mean(void);
uint64_t sp_gpu_resolution(void);
extern SP_HIDDEN _Atomic uint32_t sp_gpu_capacity_pub;
const char *sp_gpu_mode(void);

#endif
