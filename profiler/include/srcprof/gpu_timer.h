/*
 * srcprof/gpu_timer.h - the interface a graphics backend implements so the
 * source profiler can time renders on the GPU.
 *
 * The profiler owns the bookkeeping (which timer belongs to which source and
 * pass, which frame slot is in flight, disjoint detection, statistics); the
 * backend owns the API objects: per frame slot, an array of timestamp
 * queries it can write into the command stream and read back later without
 * waiting. Frame slot s in 0..SOURCE_PROFILER_FRAME_BUFFER_SIZE-1 is reused
 * every FRAME_BUFFER_SIZE frames; the profiler reads a slot back (read) at
 * the end of the next frame and only then writes into it again.
 *
 * Query layout within a slot: 0 = frame range begin, 1 = frame range end,
 * 2 + 2i / 3 + 2i = begin / end of the frame's i-th render timer.
 *
 * The backend decides where and how each stamp is written (pipeline stage,
 * extra flushes, serialisation) and says so in `mode`, a short label that
 * every report shows next to GPU figures.
 */
#ifndef SRCPROF_GPU_TIMER_H
#define SRCPROF_GPU_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sp_gpu_stamp {
	SP_GPU_STAMP_FRAME_BEGIN,
	SP_GPU_STAMP_FRAME_END,
	SP_GPU_STAMP_TIMER_BEGIN,
	SP_GPU_STAMP_TIMER_END,
} sp_gpu_stamp;

typedef enum sp_gpu_read {
	SP_GPU_READ_OK,        /* every requested stamp was available */
	SP_GPU_READ_NOT_READY, /* at least one was not (never wait for it) */
	SP_GPU_READ_DISJOINT,  /* the device says the frame's timers are unreliable */
} sp_gpu_read;

typedef struct sp_gpu_timer_backend {
	/* Timing mode shown in reports, e.g. "vk-timestamp-flush". */
	const char *mode;
	void *user;

	/* Makes slot `slot` hold at least `queries` stamps and returns how many
	 * it holds (possibly fewer when it cannot grow; the profiler then drops
	 * the GPU samples of frames that need more). Called only between
	 * frames for a slot that is not in flight. */
	uint32_t (*reserve)(void *user, uint32_t slot, uint32_t queries);

	/* Records a timestamp into query `query` of slot `slot` at the current
	 * point of the command stream. Query 0 is written first in a frame:
	 * reset the slot's queries before or with it. */
	void (*write)(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind);

	/* Reads stamps 0..count-1 of `slot` into ns (in the GPU's clock,
	 * converted to nanoseconds and masked to its valid bits) without
	 * waiting. */
	sp_gpu_read (*read)(void *user, uint32_t slot, uint32_t count, uint64_t *ns);

	/* Optional: nanoseconds to add to a GPU stamp to place it on the
	 * profiler clock (srcprof_clock_ns), for traces. NULL means 0. */
	int64_t (*cpu_offset_ns)(void *user);

	/* The mode's stamps add a fixed cost to every timer (a flush each, on
	 * binning rasterizers), which depends on where the timer is (target,
	 * pass). The profiler then times an empty timer just before the first
	 * timer of each pass in a frame, and subtracts the median of that
	 * pass's last 16 from every render's GPU time in it (not below 0). */
	bool subtract_empty_timer;
} sp_gpu_timer_backend;

/* Installs the backend (copied) the profiler times renders with; NULL
 * removes it, after which GPU timing stays off. Graphics thread, between
 * frames. Frames in flight recorded with an earlier backend are dropped. */
void source_profiler_set_gpu_backend(const sp_gpu_timer_backend *backend);

/* Test hook: the GPU results of the frame being recorded (or, between
 * frames or after its render_end, of the next one) are treated as disjoint
 * when collected (counted as gpu_disjoint_backend). Graphics thread. */
void source_profiler_force_gpu_disjoint(void);

#ifdef __cplusplus
}
#endif

#endif
