/* window.c: a source's entry and its windows - the running sums and
 * maxima of its columns, the rings of its records, its async windows. Not
 * installed. */
#ifndef SRCPROF_SP_WINDOW_H
#define SRCPROF_SP_WINDOW_H

#include "sp_common.h"

/* One column of a source's window: its running sum and maximum (published
 * under the entry's seqlock) and the record holding the maximum's newest
 * copy, as the record's offset in the rings (u32 units). */
typedef struct sp_column {
	_Atomic uint64_t sum;
	_Atomic uint32_t max;
	uint32_t max_at; /* graphics thread */
} sp_column;

/* A pass a source renders in: the CPU sums of the frames in flight (the
 * render path's) and the pass's two columns (collect's, published). */
typedef struct sp_pass {
	_Atomic uint32_t pass; /* global pass id; published */
	uint32_t cpu_ns[SP_MAX_FIF]; /* graphics thread: per frame slot */
	sp_column cpu, gpu;
} sp_pass;

struct sp_work_ring; /* work.c */

typedef struct sp_frame_acc { /* graphics thread: one frame of one source */
	uint32_t frame; /* low bits of the frame number; `collected` guards a wrap */
	uint32_t tick_ns;
	uint32_t render_first_ns;
	/* When the first render began, in stamps since frame_begin (saturated):
	 * with renders on several threads, the one that began first is it. */
	uint32_t first_begun;
	uint32_t first_timer; /* chain of this frame's GPU timers (ids), via next */
	/* Whole bytes, not bit fields: the render path sets them with one store. */
	uint8_t rendered;     /* at least once this frame */
	uint8_t has_async_ts;
	uint8_t collected;    /* pass sums were pushed and zeroed */
	uint8_t gpu_missing;  /* a render of a GPU-timed frame had no timer */
} sp_frame_acc;

/* Time between async frames, as a window of deltas (0 = skipped pair). */
typedef struct sp_delta_window {
	uint32_t *delta;
	uint32_t head, count;
	uint64_t sum;
	uint32_t nonzero, best, worst;
	uint32_t best_n, worst_n; /* deltas equal to best / worst */
	bool have_last;
	uint64_t last_ts;
} sp_delta_window;

/* What fill_result takes of a delta window, computed by the writer: the
 * frame rate (a double's bits) and the best and worst deltas. */
typedef struct sp_delta_pub {
	_Atomic uint64_t fps_bits;
	_Atomic uint32_t best, worst;
} sp_delta_pub;

typedef struct sp_async {
	sp_delta_window input, rendered;
	uint32_t capacity; /* deltas per window: window capacity - 1 */
	uint64_t rendered_ts[SP_MAX_FIF]; /* the frame each slot's frame drew */
	/* Published after each push (under async_lock) for readers that take
	 * no lock: odd while a writer publishes. Freed through sp_retire. */
	_Atomic uint32_t seq;
	sp_delta_pub pub_input, pub_rendered;
} sp_async;

#define SP_INLINE_PASSES 2

typedef struct sp_entry {
	/* The tick and render paths read only the fields up to the inline
	 * passes' ids and sums; collect reads all but the last three. */
	_Atomic uintptr_t key;          /* 0 when free; written under seq */
	_Atomic(sp_pass *) passes;      /* inline_passes, or a block past 2; under seq */
	/* Lookup hints: the entries ticked and rendered after this one last
	 * frame (entries stay put while the profiler is on; a hint is only
	 * used after its key matched). */
	struct sp_entry *next_tick, *next_render;
	_Atomic uint32_t n_passes;      /* written under seq */
	uint32_t cpu_off;               /* collect: the next CPU record, u32s into rings */
	sp_frame_acc acc[SP_MAX_FIF];
	uint32_t gpu_off;               /* collect: the next GPU record, u32s into rings */
	uint32_t trace_gen;
	sp_pass inline_passes[SP_INLINE_PASSES];

	/* Published: written by the graphics thread under `seq`. */
	_Atomic uint32_t seq;
	_Atomic uint32_t cpu_count, gpu_count;
	/* Async windows: any thread, under async_lock, after checking key. */
	_Atomic uint32_t async_lock;
	sp_column tick, render, gpu; /* render, gpu: the first render of a frame */
	uint32_t *rings; /* cpu records then gpu records, one allocation; stored with
			  * release (fill_medians copies them) */
	_Atomic(const char *) name;
	_Atomic(sp_async *) async;
	const char *trace_name; /* graphics thread */
	/* Work counters' window (work.c), made with its first counted frame;
	 * replaced and freed through sp_retire. */
	_Atomic(struct sp_work_ring *) work;
} sp_entry;
/* 360 bytes: with its rings, what a source costs in memory. */
_Static_assert(sizeof(sp_entry) == 360, "an entry's size is part of what a source costs");

/* An entry's seqlock, graphics thread: the odd sequence number, then the
 * published fields (SP_PUBLISH), then the even one (release); see
 * SP_PUBLISH. */
static inline void sp_seq_begin(sp_entry *e)
{
	SP_STORE(e->seq, SP_LOAD(e->seq) + 1);
}

static inline void sp_seq_end(sp_entry *e)
{
	atomic_store_explicit(&e->seq, SP_LOAD(e->seq) + 1, memory_order_release);
}

/* Column layout of the records: cpu = tick, first render, one per pass;
 * gpu = first render, one per pass. */
#define SP_CPU_FIXED 2
#define SP_GPU_FIXED 1

/* Passes past the two inline ones live in a block that says how many it
 * holds: a reader that pairs the count of one write with the array of
 * another (the entry reused meanwhile) never reads past it. */
typedef struct sp_pass_block {
	_Atomic uint32_t cap;
	sp_pass s[];
} sp_pass_block;
/* Frees the block of `s` (at once, or after readers with `retire`); the
 * inline passes are not a block. */
void sp_pass_block_free(sp_entry *e, sp_pass *s, bool retire);
/* How many passes `s` (e's published array) holds. Readers, inside RCU. */
uint32_t sp_passes_cap(const sp_entry *e, const sp_pass *s);

/* A collected frame's GPU durations: the first render and each pass
 * column's sum. */
typedef struct sp_gpu_frame_ns {
	uint32_t first;
	uint32_t pass[SOURCE_PROFILER_MAX_SOURCE_PASSES];
} sp_gpu_frame_ns;

size_t sp_rings_bytes(uint32_t capacity, uint32_t passes);
/* sp_window_push.h: sp_window_push. Rescans the maxima in `mask` (what the
 * push returned) and ends the entry's seqlock section. */
void sp_window_rescan(sp_entry *e, uint32_t capacity, uint32_t mask);
/* The rings of an entry's first collected frame, for the passes it has
 * then: sized once for what the source renders in (allocating them at its
 * first tick and regrowing per pass left a block per pass count behind,
 * 18.8 KB resident per source instead of 8.9). False when out of memory. */
bool sp_window_rings(sp_entry *e, uint32_t capacity);
/* Adds a pass column (rings regrown, the pass array too past 2); false
 * when memory ran out (the render then goes to the last pass). */
bool sp_window_add_pass(sp_entry *e, uint32_t capacity, uint32_t pass);

sp_async *sp_async_create(uint32_t window_capacity);
void sp_async_destroy(sp_async *a);
void sp_delta_push(sp_delta_window *w, uint32_t capacity, uint64_t ts);
/* Pushes ts into a's input (rendered: its rendered) window and publishes
 * the window for sp_async_result. Under the entry's async_lock. */
void sp_async_push(sp_async *a, bool rendered, uint64_t ts);
/* The async fields of r from a's published windows, without a lock: the
 * seqlock retries while a writer publishes. Inside RCU. */
void sp_async_result(const sp_async *a, profiler_result_t *r);
/* a's size, for sp_retire (readers may hold it: never sp_async_destroy a
 * window that was reachable from an entry). */
size_t sp_async_size(const sp_async *a);

#endif
