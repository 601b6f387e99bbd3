/*
 * srcprof/gpu_timer.h - the interface a graphics backend implements so the
 * source profiler can time renders on the GPU.
 *
 * The profiler owns the bookkeeping (which timer belongs to which source and
 * pass, which frame slot is in flight, disjoint detection, statistics); the
 * backend owns the API objects: per frame slot, an array of timestamp
 * queries it can write into the command stream and read back later without
 * waiting. Frame slot s in 0..n-1, n the frames in flight
 * (source_profiler_set_frames_in_flight, default
 * SOURCE_PROFILER_FRAME_BUFFER_SIZE), is reused every n frames; the
 * profiler reads a slot back (read) at the end of frame N + n - 1 and only
 * then writes into it again.
 *
 * Ready-made backends: srcprof/vulkan.h and srcprof/gl.h (libraries of their
 * own). Write one only for another API or a special placement of stamps.
 *
 * Query layout within a slot: 0 = frame range begin, 1 = frame range end,
 * 2 + 2i / 3 + 2i = begin / end of the frame's i-th render timer. The
 * profiler hands timers out on the graphics thread from the slot's start,
 * and to recording threads (source_profiler_set_command_buffer) in chunks
 * after those: the queries of one frame need not all be written.
 *
 * Several queues: the backend installed with source_profiler_set_gpu_backend
 * times the first queue (its frame range opens at render_begin, closes at
 * render_end); source_profiler_add_gpu_queue installs one backend per
 * further queue the renderer submits to (async compute, transfer), with
 * slots, pools and a clock offset of its own and no frame range stamps
 * (queries 0 and 1 are not written there).
 *
 * Fields were added at the end of sp_gpu_timer_backend over time; zero is
 * what code written before them meant. Recompile against this header.
 *
 * The backend decides where and how each stamp is written (pipeline stage,
 * extra flushes, serialisation) and says so in `mode`, a short label that
 * every report shows next to GPU figures.
 */
#ifndef SRCPROF_GPU_TIMER_H
#define SRCPROF_GPU_TIMER_H

#include "srcprof/api.h"
#include "srcprof/source_profiler.h"

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

/* Where a ready-made backend (srcprof/vulkan.h, srcprof/gl.h) writes its
 * stamps. Plain: a bare timestamp at each end of a timer, right on a GPU.
 * Flushed: each stamp followed by a flush, so that the work before it runs
 * before the stamp is taken - the only placement that measured true on
 * binning software rasterizers (docs/gpu-timing.md), at a flush per stamp.
 * Auto: flushed on software devices, plain elsewhere. */
typedef enum srcprof_gpu_timing {
	SRCPROF_GPU_TIMING_AUTO,
	SRCPROF_GPU_TIMING_PLAIN,
	SRCPROF_GPU_TIMING_FLUSHED,
} srcprof_gpu_timing;

typedef enum sp_gpu_read {
	SP_GPU_READ_OK,        /* every requested stamp was available */
	SP_GPU_READ_NOT_READY, /* at least one was not (never wait for it) */
	SP_GPU_READ_DISJOINT,  /* the device says the frame's timers are unreliable */
} sp_gpu_read;

typedef struct sp_gpu_timer_backend {
	/* Timing mode shown in reports, e.g. "vk-timestamp-flush". The string
	 * is not copied: it must stay valid while the backend is installed and
	 * while readers may still hold get_stats' gpu_mode (a literal is). */
	const char *mode;
	void *user;

	/* Makes slot `slot` hold at least `queries` stamps and returns how many
	 * it holds (possibly fewer when it cannot grow; the profiler then drops
	 * the GPU samples of frames that need more). Called for a slot that is
	 * not in flight: at the frame_begin of a GPU-timed frame, before the
	 * renderer records it, or at its render_begin. */
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
	 * pass, first in the pass or not). The profiler then writes an empty
	 * timer at the first timer of each pass in a frame, which takes what
	 * the pass's start leaves, and another among its renders, and
	 * subtracts the median of the last 64 of those from every render's
	 * GPU time in the pass (not below 0). */
	bool subtract_empty_timer;

	/* Each timer is costly (a flush each: flushed stamps on software
	 * devices): by default the profiler then GPU-times one frame in N (see
	 * source_profiler_gpu_set_budget) and measures empty timers to estimate
	 * what a timed frame costs. False (the zero of older code): every frame
	 * is timed, whatever the budget. */
	bool costly;

	/* Optional: the timer's tick in ns (Vulkan's timestampPeriod), the
	 * finest difference two stamps can show. 0 (older code): 1 ns; more
	 * than a second is taken as a second. */
	double tick_ns;

	/* --- For renderers that record on several threads and queues ------- */

	/* Optional: records a timestamp into query `query` of slot `slot` in
	 * the command buffer `cmd` that the recording thread named with
	 * source_profiler_set_command_buffer (a VkCommandBuffer for Vulkan).
	 * Called on that thread, and on several threads at once, each with a
	 * command buffer of its own: it must touch nothing another call
	 * writes. NULL: threads other than the graphics thread get no GPU
	 * timer (said once), and the graphics thread's stamps go through
	 * write. */
	void (*write_cmd)(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind);

	/* Optional: reads stamps 0..count-1 of `slot` one by one, without
	 * waiting: avail[q] (zeroed by the caller) is set to 1 for each stamp
	 * that is available, and ns[q] holds it then. A query never written, or
	 * in a command buffer not executed yet, is simply not available: it
	 * costs the renders it belongs to their GPU sample for that frame, and
	 * nothing else. Returns SP_GPU_READ_DISJOINT when the device says the
	 * frame is unreliable, else SP_GPU_READ_OK. NULL: read is used, all or
	 * nothing. */
	sp_gpu_read (*read_each)(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				 uint8_t *avail);

	/* Optional, for a queue added with source_profiler_add_gpu_queue:
	 * frame slot `slot` is opened for a GPU-timed frame (at its
	 * render_begin, on the graphics thread) - what the first queue learns
	 * from its FRAME_BEGIN stamp. */
	void (*frame_open)(void *user, uint32_t slot);

	/* --- Work counters (source_profiler_work_enable) ------------------ */

	/* Optional: the counters the backend counts, bit c for
	 * source_profiler_counter c; 0 (older code): none, and the three
	 * functions below are not called. */
	uint32_t work_counters;

	/* Starts counting into set `index` of slot `slot` - one set per
	 * render timer, set i for the timer of queries 2 + 2i and 3 + 2i -
	 * right after that timer's begin stamp, in the command buffer of its
	 * stamps (`cmd`: what write_cmd gets; NULL: where write stamps).
	 * work_end ends it right before the end stamp, in the same command
	 * buffer. Never two sets open at once in one command buffer. reserve
	 * sizes the sets with the stamps: (queries - 2) / 2 of them. */
	void (*work_begin)(void *user, void *cmd, uint32_t slot, uint32_t index);
	void (*work_end)(void *user, void *cmd, uint32_t slot, uint32_t index);

	/* Reads sets 0..count-1 of `slot` without waiting:
	 * values[i * SOURCE_PROFILER_COUNTERS + c] for counter c of set i
	 * (counters not counted: anything), avail[i] (zeroed by the caller)
	 * set to 1 where set i is there. A set never begun is not there. */
	sp_gpu_read (*read_work)(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				 uint8_t *avail);
} sp_gpu_timer_backend;

/* Installs the backend (copied) the profiler times renders with; NULL
 * removes it, after which GPU timing stays off. Graphics thread, between
 * frames. Frames in flight recorded with an earlier backend are dropped,
 * and what its empty timers and frame ranges measured is forgotten (the
 * new backend's are measured afresh). */
SRCPROF_API void source_profiler_set_gpu_backend(const sp_gpu_timer_backend *backend);

/* Installs a backend for a further queue the renderer submits GPU work to
 * (an async compute queue, a transfer queue; a second timer context on the
 * same queue is one too) and returns its number, 1 to
 * SOURCE_PROFILER_MAX_QUEUES - 1; `name` (copied, 31 characters) labels its
 * figures in reports and its track in traces. Renders go to it on a thread
 * that named one of its command buffers (source_profiler_set_command_buffer).
 * Its stamps are never subtracted from another queue's: each render's
 * time is two stamps of one queue. Returns 0 (logged, counted in
 * ignored_calls) when the backend lacks reserve, write or read, or every
 * queue is taken. Graphics thread, between frames. */
SRCPROF_API uint32_t source_profiler_add_gpu_queue(const sp_gpu_timer_backend *backend,
						   const char *name);

/* Removes a queue added above; its frames in flight lose their GPU samples
 * on it. Graphics thread, between frames; the backend may be destroyed
 * once its frames in flight are done on the GPU. Queue 0 is removed with
 * source_profiler_set_gpu_backend(NULL); other numbers are ignored
 * (counted, logged). */
SRCPROF_API void source_profiler_remove_gpu_queue(uint32_t queue);

/* The name of queue `queue` ("graphics" for 0 once a backend is set), or
 * NULL when none is installed. Any thread; the string lives while the
 * queue is installed. */
SRCPROF_API const char *source_profiler_queue_name(uint32_t queue);

/* Test hook: the GPU results of the frame being recorded (or, between
 * frames or after its render_end, of the next GPU-timed one: under
 * sampling, untimed frames in between keep it pending) are treated as
 * disjoint when collected (counted as gpu_disjoint_backend). Graphics
 * thread. */
SRCPROF_API void source_profiler_force_gpu_disjoint(void);

#ifdef __cplusplus
}
#endif

#endif
