/*
 * engine/null.h - the null device (ENG_API_NULL): engine/gfx.h with no
 * driver, for tests of the engine itself.
 *
 * It draws nothing and opens no window. It records what it is asked to do
 * (passes, draws, uploads, GPU timer stamps; counters and, in order, a log
 * of calls) and keeps a GPU clock that advances by costs the test sets: so
 * the GPU times the profiler reads, and what eng_gfx_time_isolated
 * returns, are exact numbers. Its GPU timer implements srcprof/gpu_timer.h
 * on that clock; results are ready as soon as a frame is submitted. A
 * screenshot shows the clears of the frame's passes into the main target.
 * Shaders are read and checked (a missing or corrupt .vk.spv is refused
 * as on Vulkan), never compiled.
 *
 * A pass can be recorded by several threads (eng_pass_desc.recorders):
 * each recorder keeps its calls and stamps (its eng_gfx_recorder_cmd is
 * what the GPU timer's write_cmd takes), and they run, recorder after
 * recorder, when the pass ends: as Vulkan secondaries do. A stamp never
 * run is not available to the timer's read_each.
 *
 * With eng_gfx_desc.compute it has compute (engine/gfx.h): dispatches
 * advance a compute clock of their own, which starts at
 * ENG_NULL_COMPUTE_CLOCK_START (far from the graphics clock, as another
 * queue's would be), and the compute timer stamps that clock - so a
 * figure that mixed the two queues' stamps would be plainly wrong. In an
 * isolated timing dispatches run inline, on the graphics clock.
 *
 * Use: eng_create(&(eng_desc){.gfx = {.api = ENG_API_NULL,
 *          .null_device = &(eng_null_desc){.draw_ns = 1000}}}, &r);
 * then frames, then eng_null_record() to see what happened.
 *
 * The functions below act on the current device when it is a null one;
 * otherwise they do nothing (and eng_null_record returns false).
 */
#ifndef ENGINE_NULL_H
#define ENGINE_NULL_H

#include "engine/gfx.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What work costs on the null device's GPU clock, and on its CPU clock
 * (eng_null_cpu_ns). All zero by default. */
struct eng_null_desc {
	uint64_t pass_ns;    /* each pass begun */
	uint64_t draw_ns;    /* each draw call */
	uint64_t vertex_ns;  /* each vertex (or index) of each instance drawn */
	uint64_t upload_ns;  /* each eng_gfx_update_image */
	uint64_t stamp_ns;   /* each timestamp written: what a flush after it costs */
	uint64_t submit_ns;  /* each eng_gfx_time_isolated submission, on top of its work */
	uint64_t dispatch_ns; /* each compute workgroup, on the compute clock */
	uint64_t stamp_cpu_ns; /* CPU clock: each timestamp written */
	uint64_t frame_cpu_ns; /* CPU clock: each frame submitted */
	/* The GPU timer calls itself costly (the profiler then GPU-times one
	 * frame in N, srcprof/source_profiler.h) and asks for empty timers to
	 * be subtracted. */
	bool costly_timers;
	bool subtract_empty_timer;
	/* Optional: what eng_gfx_time_isolated's call number `call` (from 0)
	 * returns, given what the costs above make it (`modeled_ns`). */
	uint64_t (*isolated_ns)(uint32_t call, uint64_t modeled_ns, void *user);
	void *user;
};

typedef enum eng_null_call {
	ENG_NULL_BEGIN_FRAME,
	ENG_NULL_END_FRAME, /* a = frame number */
	ENG_NULL_PASS,      /* a = target image id (0: main), b = area w, c = area h */
	ENG_NULL_END_PASS,
	ENG_NULL_PIPELINE,  /* a = pipeline id */
	ENG_NULL_UNIFORMS,  /* a = bytes */
	ENG_NULL_VERTICES,  /* a = vertex buffer id, b = index buffer id (0: none) */
	ENG_NULL_TRANSIENT, /* a = bytes */
	ENG_NULL_IMAGE,     /* a = image id */
	ENG_NULL_DRAW,      /* a = first, b = count, c = instances */
	ENG_NULL_UPLOAD,    /* a = image id */
	ENG_NULL_STAMP,     /* a = frame slot, b = query, c = sp_gpu_stamp kind */
	ENG_NULL_ISOLATED,  /* an eng_gfx_time_isolated submission; gpu_ns: what it returned */
	ENG_NULL_EXECUTE,   /* a recorder's commands run (its calls follow): a = recorder, b = calls */
	ENG_NULL_DISPATCH,  /* a = compute pipeline id, b = workgroups; gpu_ns: the compute clock */
	ENG_NULL_WORK_BEGIN, /* a GPU timer's work counting starts: a = frame slot, b = set */
	ENG_NULL_WORK_END,   /* ... and ends */
} eng_null_call;

/* One call, with the GPU clock after it. */
typedef struct eng_null_event {
	eng_null_call call;
	uint32_t a, b, c;
	uint64_t gpu_ns;
} eng_null_event;

#define ENG_NULL_MAX_EVENTS 65536
#define ENG_NULL_COMPUTE_CLOCK_START 7000000000000ull /* ns */ /* the log keeps this many, counters go on */

typedef struct eng_null_record {
	/* Since the device was made or the record cleared. */
	uint64_t frames, passes, draws, vertices, uploads, stamps, isolated;
	uint64_t draws_outside_pass; /* draws ignored: no pass, or no pipeline */
	uint64_t buffers_made, images_made, pipelines_made;
	uint64_t buffers_destroyed, images_destroyed;
	uint64_t gpu_ns; /* the GPU clock now */
	/* Passes recorded by several threads (engine/gfx.h recorders), and
	 * recorders' calls lost for want of memory. */
	uint64_t parallel_passes, recorder_overflows;
	/* Compute (eng_gfx_desc.compute): dispatches, their workgroups, and
	 * the stamps of the compute timer (not in `stamps`). */
	uint64_t dispatches, groups, compute_stamps;
	uint64_t compute_ns; /* the compute clock now */
	const eng_null_event *events; /* in order; valid until cleared or shut down */
	uint32_t n_events;
	bool events_dropped; /* more calls than ENG_NULL_MAX_EVENTS */
} eng_null_record;

/* Fills *r with what the null device recorded; false (nothing written)
 * when the current device is not a null one. */
bool eng_null_get_record(eng_null_record *r);
/* Empties the counters and the log (the clocks go on). */
void eng_null_clear_record(void);
/* Replaces the costs, from the next call on; costly_timers and
 * subtract_empty_timer only count at eng_create (the profiler copies the
 * timer's table then). */
void eng_null_set_costs(const eng_null_desc *costs);
/* The null device's CPU clock, ns (starts at 1 s; advances only by the
 * costs' CPU parts): give it to source_profiler_set_clock for exact CPU
 * figures. 0 with no null device. Any thread. */
uint64_t eng_null_cpu_ns(void);

#ifdef __cplusplus
}
#endif

#endif
