/* The profiler core's state (state.c), one struct shared by its files:
 * entries.c (the entry table, creation, removal), lifecycle.c (on, off,
 * shutdown), frame.c (the frame protocol and collect), record.c (ticks and
 * renders), the streams, the readers. Its flags carry what one module
 * tells another (read at frame_begin).
 * Not installed; hidden like every internal name.
 *
 * Threads: the first group of fields is the graphics thread's; the atomics
 * after it are read on any thread. */
#ifndef SRCPROF_SP_STATE_H
#define SRCPROF_SP_STATE_H

#include "sp_profiler.h"
#include "sp_window.h"

/* Which way a tick or render goes (sp_fast_paths): off, the fast path
 * (profiling, raw TSC stamps, no trace; for renders a frame not GPU-timed,
 * or `timed` with GPU timers), or the slow one. */
enum { SP_PATH_OFF, SP_PATH_FAST, SP_PATH_SLOW, SP_PATH_TIMED };

typedef struct sp_core_state {
	/* Which way each call goes, one byte each: written by the graphics
	 * thread, read by every thread that records (relaxed). */
	_Atomic uint8_t stamp_path, tick_path, render_path;
	/* The graphics thread's sp_thread_token (sp_stream.h): the thread
	 * that called frame_begin. */
	_Atomic(const char *) graphics;
	/* Graphics thread. */
	bool on;        /* profiling the frame being recorded */
	bool gpu_frame; /* GPU timing for the frame being recorded */
	bool gpu_possible; /* GPU timing on and a backend: the sampler decides */
	uint64_t frame; /* number of the frame being recorded */
	uint64_t on_since; /* first frame recorded since profiling was enabled */
	unsigned slot;  /* frame % sp_fif */
	uint32_t pass;  /* current pass key: id | queue << 8 (sp_pass_key) */
	uint32_t pass_column; /* the column the last render in this pass used */
	uint8_t col_of_pass[SOURCE_PROFILER_MAX_PASSES]; /* and in the others */
	uint32_t timer_asks; /* renders of this frame that asked for a GPU timer */
	uint8_t range;       /* the frame's GPU range: 0 not opened, 1 open, 2 closed */
	bool warned_range;   /* a second render_begin (or a late skip) was said */
	/* The clock of stamps, from frame_begin: TSC, and ns per stamp unit
	 * << 32 (the TSC's rate, or 1 << 32 when stamps are ns). */
	bool tsc;
	uint64_t mult, fast_ticks; /* and the most ticks whose product fits 64 bits */
	/* A stamp taken at frame_begin: renders' begins are kept relative to
	 * it (the first render of a frame is the one that began first). */
	uint64_t frame_base;
	uint32_t *free_idx;
	uint32_t n_free, free_cap;
	/* Lookup hints: the order of last frame's ticks and renders. A call
	 * expects the entry `next`; `link` is the hint that named it (the last
	 * entry's next_tick / next_render, or `first`), fixed when it missed. */
	sp_entry *tick_next, *tick_first, **tick_link;
	sp_entry *render_next, *render_first, **render_link;
	uint64_t saturated_local; /* samples saturated since the last collect */

	/* Any thread. */
	_Atomic(sp_entry *) chunks[SP_MAX_CHUNKS];
	_Atomic uint32_t high_water; /* entries [0, high_water) were handed out */
	_Atomic uint32_t sources;    /* live entries */
	_Atomic uint32_t capacity_pub, fif_pub;
	_Atomic bool enable_next, gpu_enable_next;
	_Atomic bool live, gpu_live;
	/* Set by the entry table when a source appears or goes; the sampler
	 * reads and clears it at frame_begin (a new scene is measured anew). */
	_Atomic bool scene_changed;

	/* The end of every hint chain: an entry no key matches (it stays
	 * free), so a hint is always something to compare and prefetch. */
	sp_entry no_entry;
} sp_core_state;

extern SP_HIDDEN sp_core_state sp_core;

/* Graphics thread: idx is known to be valid. */
static inline sp_entry *sp_entry_fast(uint32_t idx)
{
	sp_entry *chunk =
		atomic_load_explicit(&sp_core.chunks[idx >> SP_CHUNK_BITS], memory_order_relaxed);
	return &chunk[idx & (SP_CHUNK_SIZE - 1)];
}

/* A call with bad arguments, or one the profiler cannot use: counted. */
static inline void sp_ignored(void)
{
	sp_count_add(&sp_count.ignored_calls, 1);
}

/* entries.c. Creates the entry of a source at its first tick; its index or
 * SP_NO_ENTRY (out of memory, too many sources). */
uint32_t sp_entry_create(uintptr_t key);
/* Drops every entry. Readers are fenced out first (sp_core.live goes
 * false: they check it inside their RCU section, and the grace period
 * waits for those already in) and stay out: the caller lets them back
 * after dropping what refers to entries (lifecycle.c, sp_drop_all).
 * Returns whether the profiler was live. */
bool sp_entries_drop(void);
/* frame_begin: releases the entries of the sources remove_source queued. */
void sp_process_removals(void);
/* Shutdown, meta lock held: frees the removal queue. */
void sp_removals_free(void);

/* state.c: zeroes sp_count (lifecycle.c: profiling enabled, reset_video,
 * shutdown). */
void sp_reset_counters(void);

#endif
