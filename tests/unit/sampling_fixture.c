/* The GPU sampler's test backend for test_sampling's files (declared and
 * described in sampling_fixture.h). */
#include "sampling_fixture.h"

#include <string.h>

uint32_t timed_writes;

static uint32_t costly_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	(void)slot;
	return queries < FX_MAX_QUERIES ? queries : FX_MAX_QUERIES;
}

bool stamp_cost_in_wait;
uint64_t stamp_wait_ns[2]; /* this frame's, and the frame before's */

static void costly_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	(void)kind;
	if (query < FX_MAX_QUERIES)
		fx_backend.stamps[slot][query] = fx_gpu_now;
	fx_gpu_now += STAMP_GPU_NS;
	if (stamp_cost_in_wait)
		stamp_wait_ns[0] += STAMP_CPU_NS;
	else
		fx_now += STAMP_CPU_NS;
	timed_writes++;
}

static sp_gpu_read costly_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	memcpy(ns, fx_backend.stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

void install_costly_reading(sp_gpu_read (*read)(void *, uint32_t, uint32_t, uint64_t *))
{
	source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
		.mode = "costly",
		.reserve = costly_reserve,
		.write = costly_write,
		.read = read,
		.costly = true,
	});
}

void install_costly(void)
{
	install_costly_reading(costly_read);
}

uint64_t stall_next_ns;

bool work_before_begin;

bool sampled_frame(const void *src, bool skip)
{
	if (work_before_begin) {
		/* The fence wait: the frame two back, and the work of its stamps. */
		fx_now += FRAME_WORK_NS + stamp_wait_ns[1];
		stamp_wait_ns[1] = stamp_wait_ns[0];
		stamp_wait_ns[0] = 0;
	}
	fx_begin();
	fx_tick(src, 10);
	if (skip)
		source_profiler_gpu_skip_frame();
	bool timed = source_profiler_gpu_frame_timed();
	fx_render_begin();
	sp_gpu_timer *t;
	uint64_t start = source_profiler_source_render_begin(&t);
	fx_now += 10;
	source_profiler_source_render_end(src, start, t);
	if (timed != (t != NULL))
		return !timed; /* caught by the callers' counts */
	fx_now += (work_before_begin ? 0 : FRAME_WORK_NS) + stall_next_ns;
	stall_next_ns = 0;
	fx_end();
	return timed;
}
