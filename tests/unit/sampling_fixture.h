/* The GPU sampler's fixture, shared by test_sampling's files: a costly
 * fake backend whose stamps cost GPU and CPU time on the injected clocks,
 * and one frame of a single source timed or not as the sampler decides. */
#ifndef SRCPROF_TEST_SAMPLING_FIXTURE_H
#define SRCPROF_TEST_SAMPLING_FIXTURE_H

#include "fixture.h"

#include <stdbool.h>
#include <stdint.h>

/* A costly backend: each stamp costs 5 us of GPU time (its empty timers
 * read 5 us) and 10 us of CPU time (the flush), like flushed stamps on a
 * software device. */
#define STAMP_GPU_NS 5000u
#define STAMP_CPU_NS 10000u
#define FRAME_WORK_NS 100000u

/* Stamps the costly backend wrote (the test resets it). */
extern uint32_t timed_writes;

/* The stamps' CPU cost is paid later, in the wait for the frame two
 * frames on (a timer's GPU work waited for by a fence, not a flush). */
extern bool stamp_cost_in_wait;
extern uint64_t stamp_wait_ns[2]; /* this frame's, and the frame before's */

/* Extra work in the next frame sampled_frame runs (a stall). */
extern uint64_t stall_next_ns;

/* The frame's 100 us of other work comes before frame_begin (a loop that
 * waits for its fence at the top) instead of before collect. */
extern bool work_before_begin;

/* Installs the costly backend reading its results through `read`, or
 * always ready (install_costly). */
void install_costly_reading(sp_gpu_read (*read)(void *, uint32_t, uint32_t, uint64_t *));
void install_costly(void);

/* One frame: `src` ticked for 10 ns, rendered once for 10 ns, then 100 us
 * of other work; returns whether it was GPU-timed. */
bool sampled_frame(const void *src, bool skip);

static inline source_profiler_sampling_t sampling(void)
{
	source_profiler_sampling_t s;
	source_profiler_get_sampling(&s);
	return s;
}

#endif
