/* Internal pieces shared by the profiler's source files. Not installed. */
#ifndef SRCPROF_INTERNAL_H
#define SRCPROF_INTERNAL_H

#include "srcprof/clock.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-frame state is kept for the most frames in flight; sp_fif of them
 * are in use (source_profiler_set_frames_in_flight). */
#define SP_MAX_FIF SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
extern uint32_t sp_fif; /* graphics thread */

/* Atomics. SP_LOAD / SP_STORE are relaxed: a field's owner, or a counter
 * read on its own. The fields an entry publishes under its seqlock (and the
 * clock's calibration) are stored with SP_PUBLISH (release) and read with
 * SP_READ (acquire): a reader that sees any value of a write then sees the
 * odd sequence number stored before it, so a torn copy is always caught -
 * under the C11 model, on ARM as on x86, and as TSan models it, without
 * fences (on x86 both are plain moves). */
#define SP_LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define SP_STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)
#define SP_PUBLISH(x, v) atomic_store_explicit(&(x), (v), memory_order_release)
#define SP_READ(x) atomic_load_explicit(&(x), memory_order_acquire)

/* Unrolls the loop that follows (loops over a source's passes, whose count
 * is a constant where they are inlined). */
#if defined(__clang__)
#define SP_UNROLL _Pragma("unroll 8")
#elif defined(__GNUC__)
#define SP_UNROLL _Pragma("GCC unroll 8")
#else
#define SP_UNROLL
#endif

#if defined(__GNUC__)
#define SP_LIKELY(x) __builtin_expect(!!(x), 1)
#define SP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SP_LIKELY(x) (x)
#define SP_UNLIKELY(x) (x)
#endif

/* --- clock.c: the profiler clock, with its fast path inline -------------- */

enum { SP_CLOCK_UNSET, SP_CLOCK_TSC, SP_CLOCK_GETTIME, SP_CLOCK_INJECTED };

/* ns(tsc) = base_ns + (tsc - base_tsc) * mult / 2^32, under seq. */
typedef struct sp_clock_state {
	_Atomic int kind;
	_Atomic uint32_t seq;
	_Atomic uint64_t base_tsc, base_ns, mult;
} sp_clock_state;

extern sp_clock_state sp_clock;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SP_HAVE_TSC 1

static inline uint64_t sp_tsc_to_ns(uint64_t tsc, uint64_t base_tsc, uint64_t base_ns,
				    uint64_t mult)
{
	/* rdtsc is not ordered against the calibration loads, so a reader may
	 * see a base a few ticks after its own stamp: keep the sign. */
	__int128 delta = (__int128)(int64_t)(tsc - base_tsc);
	return base_ns + (uint64_t)(int64_t)((delta * (__int128)mult) >> 32);
}
#else
#define SP_HAVE_TSC 0
#endif

#if SP_HAVE_TSC
/* A TSC value on the profiler clock's time line: a seqlock read of the
 * calibration and a multiply. */
static inline uint64_t sp_tsc_time(uint64_t tsc)
{
	uint64_t base_tsc, base_ns, mult;
	uint32_t s1;
	do {
		s1 = atomic_load_explicit(&sp_clock.seq, memory_order_acquire);
		base_tsc = atomic_load_explicit(&sp_clock.base_tsc, memory_order_acquire);
		base_ns = atomic_load_explicit(&sp_clock.base_ns, memory_order_acquire);
		mult = atomic_load_explicit(&sp_clock.mult, memory_order_acquire);
	} while ((s1 & 1u) || s1 != atomic_load_explicit(&sp_clock.seq, memory_order_relaxed));
	return sp_tsc_to_ns(tsc, base_tsc, base_ns, mult);
}
#endif

/* srcprof_clock_ns, inlined: one rdtsc and a seqlock read. */
static inline uint64_t sp_now(void)
{
#if SP_HAVE_TSC
	if (SP_LIKELY(atomic_load_explicit(&sp_clock.kind, memory_order_relaxed) == SP_CLOCK_TSC))
		return sp_tsc_time(__rdtsc());
#endif
	return srcprof_clock_ns();
}

/* source_profiler.c: a tick or render stamp (what tick_start and
 * render_begin return) as a time on the profiler clock. Graphics thread. */
uint64_t sp_stamp_time(uint64_t stamp);

/* --- util.c: counted allocation and logging ----------------------------- */

void *sp_alloc(size_t size);  /* zeroed; NULL on failure (logged) */
void sp_alloc_account(size_t size, int sign);      /* counts memory from elsewhere */

/* arena.c: huge-page backed blocks for entries and rings (graphics thread;
 * 16-byte aligned, zeroed). */
void *sp_arena_alloc(size_t size);
void sp_arena_free(void *p, size_t size);
void sp_arena_reset(void); /* every block must be dead */
/* Graphics thread, once a frame: 60 frames after the arena last grew, gives
 * back the resident pages past the last block carved (two madvise calls
 * then, a compare otherwise). */
void sp_arena_trim(void);
void sp_free(void *p, size_t size);
char *sp_strdup(const char *s);
void sp_free_str(char *s);
uint64_t sp_alloc_count(void);
size_t sp_alloc_bytes(void);

void sp_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --- rcu.c: grace periods for memory other threads may be reading -------- */

/* Readers bracket every access to entries, tables and names. */
unsigned sp_rcu_enter(void);
void sp_rcu_exit(unsigned idx);
/* Waits until every reader that entered before the call has left, of
 * either parity (not on the frame path: sp_retire_flush never waits). */
void sp_rcu_synchronize(void);

/* Frees `p` (of `size` bytes; size 0 for strings) once no reader can hold
 * it. Any thread. */
void sp_retire(void *p, size_t size);
/* An arena block (ring) readers may be copying (fill_medians): freed into
 * the arena once they left. Graphics thread. */
void sp_retire_arena(void *p, size_t size);
/* Graphics thread, each frame_begin: frees what readers have let go of and
 * starts a grace period for what was retired since; never waits. */
void sp_retire_flush(void);
/* Graphics thread, with no reader wanted (disable, reset, shutdown): waits
 * for readers and frees everything retired so far. */
void sp_retire_drain(void);
uint64_t sp_retire_deferred(void); /* flushes that found readers inside (counted) */

/* --- table.c: pointer -> entry index, one writer, lock-free readers ------ */

#define SP_NO_ENTRY UINT32_MAX

uint32_t sp_table_find(uintptr_t key);           /* any thread, inside RCU */
bool sp_table_insert(uintptr_t key, uint32_t v); /* graphics thread */
void sp_table_remove(uintptr_t key);             /* graphics thread */
void sp_table_clear(void);                       /* graphics thread */

/* --- window.c: per-source windows ---------------------------------------- */

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

typedef struct sp_frame_acc { /* graphics thread: one frame of one source */
	uint32_t frame; /* low bits of the frame number; `collected` guards a wrap */
	uint32_t tick_ns;
	uint32_t render_first_ns;
	uint32_t first_timer; /* chain of this frame's GPU timers, via next */
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

typedef struct sp_async {
	sp_delta_window input, rendered;
	uint32_t capacity; /* deltas per window: window capacity - 1 */
	uint64_t rendered_ts[SP_MAX_FIF]; /* the frame each slot's frame drew */
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
} sp_entry;
/* 336 bytes (a fifth of the 416 it was): with its rings, what a source
 * costs in memory. */
_Static_assert(sizeof(sp_entry) == 336, "an entry's size is part of what a source costs");

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
/* window_push.h: sp_window_push. Rescans the maxima in `mask` (what the
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
void sp_delta_result(const sp_delta_window *w, double *fps, uint64_t *best, uint64_t *worst);

static inline void sp_prefetch(const void *p)
{
	__builtin_prefetch(p, 1, 3);
}

static inline uint32_t sp_sat32(uint64_t v, uint64_t *saturated)
{
	if (SP_UNLIKELY(v > UINT32_MAX)) {
		(*saturated)++;
		return UINT32_MAX;
	}
	return (uint32_t)v;
}

static inline void sp_spin_lock(_Atomic uint32_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(l, 1, memory_order_acquire))
			return;
		while (atomic_load_explicit(l, memory_order_relaxed))
			;
	}
}

static inline void sp_spin_unlock(_Atomic uint32_t *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

/* --- source_profiler.c: shared with exporters and traces ----------------- */

/* Entries live in chunks that stay put while the profiler is on. */
#define SP_CHUNK_BITS 8
#define SP_CHUNK_SIZE (1u << SP_CHUNK_BITS)
#define SP_MAX_CHUNKS 4096

sp_entry *sp_entry_at(uint32_t idx); /* NULL when out of range; inside RCU */
uint32_t sp_entry_high_water(void);   /* any thread */
uint32_t sp_window_capacity(void);    /* samples per window; any thread */
bool sp_live(void);                   /* profiler on (any thread, inside RCU) */
bool sp_gpu_live(void);               /* GPU timing on (any thread) */

/* Copies a consistent snapshot of an entry's results; false when the entry
 * no longer belongs to `key`. Inside RCU. */
bool sp_entry_result(sp_entry *e, uintptr_t key, profiler_result_t *r);

/* --- meta.c: names and async marks, under one mutex ---------------------- */

typedef struct sp_meta {
	uintptr_t key;
	char *name;
	bool async;
} sp_meta;

void sp_meta_lock(void);
void sp_meta_unlock(void);
sp_meta *sp_meta_find(uintptr_t key);   /* lock held */
sp_meta *sp_meta_get(uintptr_t key);    /* lock held; creates; NULL on OOM */
void sp_meta_delete(uintptr_t key);     /* lock held; retires the name */
void sp_meta_clear(void);               /* lock held */

/* --- gpu.c: GPU timer pools per frame slot ------------------------------- */

struct sp_gpu_timer { /* 8 bytes: a pool holds ~4 a source */
	uint32_t next;      /* next timer of the same source this frame */
	uint8_t pass;       /* global pass id (< SOURCE_PROFILER_MAX_PASSES) */
	uint8_t pass_local; /* column in the owner's records (< MAX_SOURCE_PASSES) */
	uint8_t first;      /* the owner's first render of the frame */
	uint8_t state;
};
_Static_assert(SOURCE_PROFILER_MAX_PASSES <= 256 && SOURCE_PROFILER_MAX_SOURCE_PASSES <= 256,
	       "pass ids fit a timer's bytes");

enum { SP_TIMER_BEGUN = 1, SP_TIMER_ENDED, SP_TIMER_ORPHAN, SP_TIMER_EMPTY };

typedef struct sp_gpu_slot {
	uint64_t frame;    /* frame recorded into this slot */
	bool on;           /* GPU timing was on for that frame */
	bool closed;       /* render_end wrote the range end */
	bool overflow;     /* a render found the pool full */
	bool forced;       /* test hook: treat as disjoint */
	uint32_t used;     /* timers handed out */
	uint32_t open;     /* begun, not ended */
	uint32_t denied;   /* renders that found the pool full */
	uint32_t capacity; /* timers the backend holds for this slot */
	uint32_t backend_gen;
	sp_gpu_timer *timers;
	uint32_t timers_cap;
} sp_gpu_slot;

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
/* Per pass, ns subtracted from every GPU timer (its empty timers' median),
 * or NULL when the backend does not ask for it. */
const _Atomic uint32_t *sp_gpu_overheads(void);
void sp_gpu_reset_slots(void);
void sp_gpu_shutdown(void);
bool sp_gpu_has_backend(void);
bool sp_gpu_costly(void); /* the backend's timers are costly: sample, measure empty timers */
int64_t sp_gpu_cpu_offset(void);
void sp_gpu_frame_range(uint64_t *avg, uint64_t *max); /* any thread */
/* The mean over passes of what an empty timer costs. */
uint64_t sp_gpu_overhead_mean(void);
uint64_t sp_gpu_resolution(void);
extern _Atomic uint32_t sp_gpu_capacity_pub;
uint64_t sp_current_frame(void); /* graphics thread */
void sp_test_set_frame(uint64_t frame); /* white-box tests: jump the frame counter */
unsigned sp_current_slot(void);   /* graphics thread */

/* --- source_profiler.c: state shared by the profiler's files ------------- */

typedef struct sp_counters {
	_Atomic uint64_t frames_collected, gpu_frames_collected, gpu_frames_disjoint;
	_Atomic uint64_t disjoint_backend, disjoint_order, disjoint_range, disjoint_unavailable,
		disjoint_overflow;
	_Atomic uint64_t ignored_calls, saturated_samples;
} sp_counters;

extern sp_counters sp_count;

static inline void sp_count_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* Graphics thread. */
extern uint32_t sp_capacity;
extern uint64_t sp_saturated_local;

/* --- sampler.c: which frames are GPU-timed (source_profiler_gpu_set_budget) - */

/* frame_begin of frame number `frame`: whether it is to be GPU-timed, given
 * that GPU timing is on and a backend installed (`gpu`), and the clock now. */
bool sp_sampler_frame_begin(bool gpu, uint64_t now, uint64_t frame);
/* render_begin: the frame's GPU timing is final (`timed`, false after a
 * skip), `renders` asked for a timer in the frame before. */
void sp_sampler_commit(bool timed);
/* frame_collect of the frame being recorded: its duration since its
 * frame_begin, how many renders asked for a GPU timer in it, the number of
 * the frame collected, and, when this collect kept its GPU samples, the
 * fewest GPU samples a source rendered in it holds (UINT32_MAX: none). */
void sp_sampler_frame_end(uint64_t now, uint32_t renders, uint64_t collected, bool gpu_kept,
			  uint32_t min_gpu);
/* Sources appeared or were removed: a burst, unless one ended recently. */
void sp_sampler_scene_changed(void);
void sp_sampler_reset(void);    /* profiler enabled: forget what was measured */
void sp_sampler_shutdown(void); /* and the budget */

/* --- trace.c: hooks called while a capture records ------------------------ */

extern _Atomic bool sp_trace_recording;
/* source_profiler.c: a capture started or finished (graphics thread); the
 * tick and render fast paths, which do not trace, are chosen again. */
void sp_trace_changed(void);
void sp_trace_frame(uint32_t frame, uint64_t begin_ns);
void sp_trace_cpu(const sp_entry *e, int kind, uint32_t pass, uint64_t start, uint64_t end,
		  uint32_t frame);
void sp_trace_gpu(sp_entry *e, uint32_t pass, uint64_t begin, uint64_t end, uint32_t frame);
void sp_trace_gpu_frame(uint32_t frame, uint64_t begin, uint64_t end);
void sp_trace_block(const char *name, unsigned depth, uint64_t begin, uint64_t end);
void sp_trace_maintain(uint64_t now); /* graphics thread: ends a capture whose span is over */
const char *sp_trace_entry_name(sp_entry *e); /* graphics thread: name copy for this capture */

/* perf_block.c: the calling thread's routine name, for trace tracks. */
const char *sp_perf_routine(void);

enum { SP_TRACE_TICK, SP_TRACE_RENDER };

const char *sp_gpu_mode(void);

#endif
