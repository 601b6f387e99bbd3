/* The window push, inline: collect's loop calls it for every source every
 * frame, and as a call it saved and restored six registers each time and
 * spilled the rest. The rescans it asks for are out of line (window.c).
 * Internal; included by window.c and frame.c only. */
#ifndef SRCPROF_WINDOW_PUSH_H
#define SRCPROF_WINDOW_PUSH_H

#include "sp_window.h"

/* Writes v over `cell` (the record at `off`) and keeps the column's sum and
 * maximum. Sets `bit` in *rescan when the maximum's newest copy was
 * overwritten by a smaller value. */
static inline __attribute__((always_inline)) void
column_push(sp_column *c, uint32_t *cell, uint32_t v, uint32_t off, uint32_t *rescan, uint32_t bit)
{
	uint32_t old = *cell;
	__atomic_store_n(cell, v, __ATOMIC_RELAXED); /* fill_medians copies rings */
	SP_PUBLISH(c->sum, SP_LOAD(c->sum) + v - old);
	if (v >= SP_LOAD(c->max)) {
		SP_PUBLISH(c->max, v);
		c->max_at = off;
	} else if (SP_UNLIKELY(c->max_at == off)) {
		*rescan |= bit;
	}
}

/* Bits of a push's rescan mask: the fixed columns, then one per pass. */
#define SP_RESCAN_FIXED 2u
_Static_assert(SP_RESCAN_FIXED + SOURCE_PROFILER_MAX_SOURCE_PASSES <= 16,
	       "a CPU rescan bit per pass, below the GPU half of the mask");

/* The pushes for `passes` pass columns; inlined with the common counts as
 * constants, so that their loops unroll and their strides are known. */
static inline __attribute__((always_inline)) uint32_t push_cpu(sp_entry *e, sp_pass *ps,
							     uint32_t capacity, unsigned slot,
							     uint32_t passes)
{
	const uint32_t stride = SP_CPU_FIXED + passes;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t off = e->cpu_off;
	uint32_t *rec = e->rings + off;
	uint32_t rescan = 0;
	column_push(&e->tick, &rec[0], a->tick_ns, off, &rescan, 1u);
	column_push(&e->render, &rec[1], a->rendered ? a->render_first_ns : 0, off, &rescan, 2u);
	SP_UNROLL
	for (uint32_t p = 0; p < passes; p++) {
		uint32_t v = ps[p].cpu_ns[slot];
		ps[p].cpu_ns[slot] = 0; /* taken: the slot's next frame starts at 0 */
		column_push(&ps[p].cpu, &rec[SP_CPU_FIXED + p], v, off, &rescan,
			    1u << (SP_RESCAN_FIXED + p));
	}
	off += stride;
	e->cpu_off = off == capacity * stride ? 0 : off;
	uint32_t count = SP_LOAD(e->cpu_count);
	if (count != capacity)
		SP_PUBLISH(e->cpu_count, count + 1);
	return rescan;
}

static inline __attribute__((always_inline)) uint32_t push_gpu(sp_entry *e, sp_pass *ps,
							     uint32_t capacity,
							     const sp_gpu_frame_ns *gpu,
							     uint32_t passes)
{
	const uint32_t stride = SP_GPU_FIXED + passes;
	const uint32_t start = capacity * (SP_CPU_FIXED + passes);
	uint32_t off = e->gpu_off;
	uint32_t *rec = e->rings + off;
	uint32_t rescan = 0;
	column_push(&e->gpu, &rec[0], gpu->first, off, &rescan, 1u);
	SP_UNROLL
	for (uint32_t p = 0; p < passes; p++)
		column_push(&ps[p].gpu, &rec[SP_GPU_FIXED + p], gpu->pass[p], off, &rescan, 2u << p);
	off += stride;
	e->gpu_off = off == start + capacity * stride ? start : off;
	uint32_t count = SP_LOAD(e->gpu_count);
	if (count != capacity)
		SP_PUBLISH(e->gpu_count, count + 1);
	return rescan;
}

/* Graphics thread, collect: pushes the frame of `slot` into e's windows
 * under its seqlock - the CPU record, and a GPU record when `gpu` is not
 * NULL - and zeroes the slot's pass sums it took. e has rings. Returns 0,
 * or the maxima to rescan: then the seqlock is still held and
 * sp_window_rescan must follow. */
static inline uint32_t sp_window_push(sp_entry *e, uint32_t capacity, unsigned slot, const sp_gpu_frame_ns *gpu)
{
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t cpu = 0, gpu_mask = 0;
	sp_seq_begin(e);
	switch (SP_LOAD(e->n_passes)) {
	case 1:
		cpu = push_cpu(e, ps, capacity, slot, 1);
		if (gpu)
			gpu_mask = push_gpu(e, ps, capacity, gpu, 1);
		break;
	case 2:
		cpu = push_cpu(e, ps, capacity, slot, 2);
		if (gpu)
			gpu_mask = push_gpu(e, ps, capacity, gpu, 2);
		break;
	default:
		cpu = push_cpu(e, ps, capacity, slot, SP_LOAD(e->n_passes));
		if (gpu)
			gpu_mask = push_gpu(e, ps, capacity, gpu, SP_LOAD(e->n_passes));
		break;
	}
	uint32_t rescan = cpu | gpu_mask << 16;
	if (!rescan)
		sp_seq_end(e);
	return rescan;
}

#endif
