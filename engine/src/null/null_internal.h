/* What the null backend's files share (null_gfx.c and the files it
 * dispatches to): its one context, null_ctx, and the command stream every
 * call runs through. Nothing here is seen outside engine/src/null; the
 * engine reaches the backend through its dispatch table (null_gfx_backend)
 * and engine/null.h (null_api.c). */
#ifndef ENGINE_NULL_INTERNAL_H
#define ENGINE_NULL_INTERNAL_H

#include "../gfx/faults.h"
#include "../gfx/gfx_backend.h"
#include "engine/null.h"
#include "srcprof/source_profiler.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NULL_SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
#define NULL_MAX_CLEARS 16
/* What the graphics timer counts: everything but fragments. */
#define NULL_GFX_COUNTERS                                                                      \
	((1u << SOURCE_PROFILER_INPUT_VERTICES) | (1u << SOURCE_PROFILER_INPUT_PRIMITIVES) |     \
	 (1u << SOURCE_PROFILER_VS_INVOCATIONS) | (1u << SOURCE_PROFILER_CLIPPING_INVOCATIONS) | \
	 (1u << SOURCE_PROFILER_CLIPPING_PRIMITIVES))

typedef struct null_image {
	uint32_t width, height;
	eng_image_usage usage;
} null_image;

/* A clear of the main target in this frame, painted into a screenshot. */
typedef struct null_clear {
	eng_rect area;
	uint8_t rgba[4];
} null_clear;

/* A command recorded on a record thread, run when its pass ends. */
typedef struct null_cmd {
	eng_null_call call;
	uint32_t a, b, d;
} null_cmd;

/* One recorder of a pass recorded by several threads: its commands, run
 * in recorder order at the pass's end (as vkCmdExecuteCommands runs
 * secondaries), on the GPU clock then. */
typedef struct null_recorder {
	bool begun, pipeline;
	null_cmd *cmds;
	uint32_t n, cap;
	uint64_t draws_outside_pass;
	bool overflow; /* a command could not be kept (out of memory) */
} null_recorder;

/* A GPU timer's work counters (eng_gfx_desc.work_counters), per frame
 * slot: set i counts between work_begin and work_end of timer i as the
 * commands run; every open set counts what runs (as each active query
 * of a device does). */
#define NULL_WORK_OPEN 8
typedef struct null_work {
	uint64_t *v[NULL_SLOTS]; /* cap x SOURCE_PROFILER_COUNTERS */
	uint8_t *done[NULL_SLOTS];
	uint32_t cap[NULL_SLOTS];
	uint64_t *open[NULL_WORK_OPEN]; /* the sets counting now */
	uint32_t n_open;
} null_work;

/* A GPU timer's stamps, per frame slot. */
typedef struct null_stamps {
	uint64_t *ns[NULL_SLOTS];
	uint8_t *written[NULL_SLOTS]; /* 1: ns[slot][q] reached the GPU */
	uint32_t cap[NULL_SLOTS];
} null_stamps;

typedef struct null_ctx {
	eng_null_desc costs;
	const char *shader_dir;
	uint32_t width, height;
	null_image images[ENG_GFX_MAX_IMAGES]; /* width 0: none */
	bool recording, in_pass, device_lost;
	bool isolating; /* in eng_gfx_time_isolated */
	bool pipeline; /* one applied in this pass */
	uint64_t gpu_ns;
	_Atomic uint64_t cpu_ns;
	uint64_t frames_submitted;
	uint32_t isolated_calls;

	eng_null_record rec;
	eng_null_event *events;

	null_recorder recorders[ENG_GFX_MAX_RECORDERS];
	uint32_t parallel; /* recorders of the pass being recorded; 0: none */

	/* The faults the device runs under (faults.h, gfx.c's), and the
	 * graphics timer as the profiler is given it, under them. */
	eng_faults *faults;
	eng_fault_timer fault_timer;
	const sp_gpu_timer_backend *gpu_timer;
	sp_gpu_timer_backend timer;
	null_stamps gfx;
	null_work gfx_work;
	bool work; /* eng_gfx_desc.work_counters */
	uint32_t run_pipeline; /* the pipeline applied last, in the order commands run */
	uint8_t strip[ENG_GFX_MAX_PIPELINES];     /* 1: a triangle strip (sprite layout) */
	uint32_t local_size[ENG_GFX_MAX_PIPELINES]; /* compute: invocations per workgroup */

	/* Compute (eng_gfx_desc.compute): its own clock, timer and stamps. */
	bool compute, compute_open;
	uint64_t compute_ns;
	char compute_cmd; /* what eng_gfx_compute_cmd names: its address */
	sp_gpu_timer_backend compute_timer;
	null_stamps compute_stamps;
	null_work compute_work;

	null_clear clears[NULL_MAX_CLEARS];
	uint32_t n_clears;
	bool screenshot_wanted, screenshot_ready;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
} null_ctx;

/* --- the command stream (null_stream.c) ------------------------------------------ */

/* Logs a call with a GPU clock after it; false when the log is full. */
bool null_note_at(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d,
		  uint64_t clock);
/* The same, with the graphics clock. */
bool null_note(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d);

/* A timer's stamps per frame slot: grown to `queries` (returns what it
 * holds), one written, the written ones read, all freed. */
uint32_t null_stamps_reserve(null_stamps *t, uint32_t slot, uint32_t queries);
bool null_stamps_put(null_stamps *t, uint32_t slot, uint32_t query, uint64_t ns);
sp_gpu_read null_stamps_read_each(const null_stamps *t, uint32_t slot, uint32_t count,
				  uint64_t *ns, uint8_t *avail);
void null_stamps_free(null_stamps *t);

/* A timer's work counter sets per frame slot (null_work). */
void null_work_reserve(null_work *w, uint32_t slot, uint32_t queries);
void null_work_clear(null_work *w, uint32_t slot);
void null_work_run_begin(null_work *w, uint32_t slot, uint32_t set);
void null_work_run_end(null_work *w, uint32_t slot, uint32_t set);
void null_work_add(null_work *w, source_profiler_counter c, uint64_t n);
sp_gpu_read null_work_read(const null_work *w, uint32_t slot, uint32_t count, uint64_t *values,
			   uint8_t *avail);
void null_work_free(null_work *w);

/* A graphics stamp reaching the GPU: it takes the clock now (query 0
 * opens the slot's frame). */
void null_run_stamp(null_ctx *c, uint32_t slot, uint32_t query, sp_gpu_stamp kind);
/* Runs one command on the GPU clock now; keeps one of recorder r for its
 * pass's end. */
void null_run(null_ctx *c, null_cmd k);
void null_keep(null_recorder *r, null_cmd cmd);

/* --- the GPU timers (null_timer.c) ----------------------------------------------- */

/* Fills the graphics and compute timers of a new context. */
void null_timers_init(null_ctx *c, const eng_gfx_desc *desc);
const sp_gpu_timer_backend *null_gpu_timer(void *ctx);

/* --- passes and draws (null_pass.c), compute (null_compute.c) --------------------- */

void null_begin_pass(void *ctx, const eng_pass_desc *desc);
void null_end_pass(void *ctx);
uint32_t null_recorders(void *ctx);
void null_recorder_begin(void *ctx, uint32_t i);
void null_recorder_end(void *ctx, uint32_t i);
void *null_recorder_cmd(void *ctx, uint32_t i);
void null_apply_pipeline(void *ctx, eng_pipeline pip);
void null_apply_uniforms(void *ctx, const void *data, size_t size);
void null_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices);
void null_apply_transient_vertices(void *ctx, const void *data, size_t size);
void null_apply_image(void *ctx, eng_image img);
void null_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances);

bool null_has_compute(void *ctx);
eng_result null_make_storage(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
eng_result null_make_compute(void *ctx, eng_pipeline h, const char *cs);
bool null_begin_compute(void *ctx);
void null_dispatch(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push,
		   size_t size, uint32_t groups);
void null_end_compute(void *ctx);
void *null_compute_cmd(void *ctx);
const sp_gpu_timer_backend *null_compute_timer(void *ctx);

#endif
