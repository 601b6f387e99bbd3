/* The source profiler's frame protocol: entries, ticks, renders, collection,
 * enable/disable and removal. Readers (fill_result and friends) live in
 * results.c, GPU timer pools in gpu.c, the windows in window.c.
 *
 * Threads: everything here runs on the graphics thread except the functions
 * documented "any thread" in the header. Entries sit in chunks that never
 * move while the profiler is on; other threads reach them through the
 * pointer table inside an RCU section and re-check the entry's key. */
#include "internal.h"
#include "window_push.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

sp_counters sp_count;
uint32_t sp_capacity = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
uint64_t sp_saturated_local;
uint32_t sp_fif = SOURCE_PROFILER_FRAME_BUFFER_SIZE;

static _Atomic(sp_entry *) g_chunks[SP_MAX_CHUNKS];
static _Atomic uint32_t g_high_water; /* entries [0, high_water) were handed out */
static _Atomic uint32_t g_sources;    /* live entries */
static _Atomic uint32_t g_capacity_pub = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
static _Atomic uint32_t g_fif_pub = SOURCE_PROFILER_FRAME_BUFFER_SIZE;

static _Atomic bool g_enable_next, g_gpu_enable_next;
static _Atomic bool g_live, g_gpu_live;

enum { PATH_OFF, PATH_FAST, PATH_SLOW, PATH_TIMED };

/* The end of every hint chain: an entry no key matches (it stays free), so
 * a hint is always something to compare and prefetch. */
static sp_entry g_no_entry = {.passes = g_no_entry.inline_passes,
			      .next_tick = &g_no_entry,
			      .next_render = &g_no_entry};

/* Graphics thread state. */
static struct {
	/* Which way each call goes, one byte each (set by fast_paths()): off,
	 * the fast path (profiling, raw TSC stamps, no trace; for renders a
	 * frame not GPU-timed, or `timed` with GPU timers), or the slow one. */
	uint8_t stamp_path, tick_path, render_path;
	bool on;        /* profiling the frame being recorded */
	bool gpu_frame; /* GPU timing for the frame being recorded */
	bool gpu_possible; /* GPU timing on and a backend: the sampler decides */
	uint64_t frame; /* number of the frame being recorded */
	uint64_t on_since; /* first frame recorded since profiling was enabled */
	unsigned slot;  /* frame % sp_fif */
	uint32_t pass;  /* current pass id */
	uint32_t pass_column; /* the column the last render in this pass used */
	uint8_t col_of_pass[SOURCE_PROFILER_MAX_PASSES]; /* and in the others */
	uint32_t timer_asks; /* renders of this frame that asked for a GPU timer */
	/* The clock of stamps, from frame_begin: TSC, and ns per stamp unit
	 * << 32 (the TSC's rate, or 1 << 32 when stamps are ns). */
	bool tsc;
	uint64_t mult, fast_ticks; /* and the most ticks whose product fits 64 bits */
	uint32_t *free_idx;
	uint32_t n_free, free_cap;
	/* Lookup hints: the order of last frame's ticks and renders. A call
	 * expects the entry `next`; `link` is the hint that named it (the last
	 * entry's next_tick / next_render, or `first`), fixed when it missed. */
	sp_entry *tick_next, *tick_first, **tick_link;
	sp_entry *render_next, *render_first, **render_link;
} g = {
	.mult = 1ull << 32,
	.fast_ticks = UINT32_MAX,
	.tick_next = &g_no_entry,
	.tick_first = &g_no_entry,
	.tick_link = &g.tick_first,
	.render_next = &g_no_entry,
	.render_first = &g_no_entry,
	.render_link = &g.render_first,
};

/* Sources queued by remove_source, under the meta lock. */
static uintptr_t *g_removed;
static size_t g_removed_n, g_removed_cap;
/* Removals are queued: frame_begin skips the lock on the many frames with
 * none (set under the lock, read without it). */
static _Atomic bool g_removals_queued;
static uintptr_t *g_removing; /* the batch being processed (graphics thread) */
static size_t g_removing_cap;

/* Registered passes. Names live until shutdown. */
static pthread_mutex_t g_pass_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(char *) g_pass_names[SOURCE_PROFILER_MAX_PASSES];
static _Atomic uint32_t g_n_passes;

/* --- entries -------------------------------------------------------------- */

sp_entry *sp_entry_at(uint32_t idx)
{
	if (idx >= atomic_load_explicit(&g_high_water, memory_order_acquire))
		return NULL;
	sp_entry *chunk = atomic_load_explicit(&g_chunks[idx >> SP_CHUNK_BITS], memory_order_acquire);
	return chunk ? &chunk[idx & (SP_CHUNK_SIZE - 1)] : NULL;
}

/* Graphics thread: idx is known to be valid. */
static inline sp_entry *entry_fast(uint32_t idx)
{
	sp_entry *chunk = atomic_load_explicit(&g_chunks[idx >> SP_CHUNK_BITS], memory_order_relaxed);
	return &chunk[idx & (SP_CHUNK_SIZE - 1)];
}

uint32_t sp_window_capacity(void)
{
	return atomic_load(&g_capacity_pub);
}

uint32_t sp_entry_high_water(void)
{
	return atomic_load_explicit(&g_high_water, memory_order_acquire);
}

bool sp_live(void)
{
	return atomic_load(&g_live);
}

bool sp_gpu_live(void)
{
	return atomic_load_explicit(&g_gpu_live, memory_order_relaxed);
}

uint64_t sp_current_frame(void)
{
	return g.frame;
}

unsigned sp_current_slot(void)
{
	return g.slot;
}

static uint32_t entry_alloc_index(void)
{
	if (g.n_free)
		return g.free_idx[--g.n_free];
	uint32_t idx = SP_LOAD(g_high_water);
	uint32_t chunk = idx >> SP_CHUNK_BITS;
	if (chunk >= SP_MAX_CHUNKS) {
		sp_log(SOURCE_PROFILER_LOG_ERROR, "more than %u sources; new ones are not profiled",
		       SP_MAX_CHUNKS * SP_CHUNK_SIZE);
		return SP_NO_ENTRY;
	}
	if (!SP_LOAD(g_chunks[chunk])) {
		sp_entry *c = sp_arena_alloc(SP_CHUNK_SIZE * sizeof(sp_entry));
		if (!c)
			return SP_NO_ENTRY;
		atomic_store_explicit(&g_chunks[chunk], c, memory_order_release);
	}
	atomic_store_explicit(&g_high_water, idx + 1, memory_order_release);
	return idx;
}

static void entry_free_index(uint32_t idx)
{
	if (g.n_free == g.free_cap) {
		uint32_t cap = g.free_cap ? g.free_cap * 2 : 256;
		uint32_t *n = sp_alloc(cap * sizeof *n);
		if (!n)
			return; /* the slot is lost, not reused; harmless */
		if (g.n_free)
			memcpy(n, g.free_idx, g.n_free * sizeof *n);
		sp_free(g.free_idx, g.free_cap * sizeof *g.free_idx);
		g.free_idx = n;
		g.free_cap = cap;
	}
	g.free_idx[g.n_free++] = idx;
}

/* Creates the entry of a source at its first tick. Under the meta lock, so
 * set_source_name / set_async either see the entry or are seen by it. */
static uint32_t entry_create(uintptr_t key)
{
	sp_meta_lock();
	uint32_t idx = entry_alloc_index();
	if (idx == SP_NO_ENTRY) {
		sp_meta_unlock();
		return SP_NO_ENTRY;
	}
	sp_entry *e = entry_fast(idx);
	/* Its rings come with its first collected frame, when the passes it
	 * renders in are known (sp_window_rings); readers (fill_medians) may
	 * still be looking at a reused entry. */
	__atomic_store_n(&e->rings, NULL, __ATOMIC_RELEASE);
	sp_meta *m = sp_meta_find(key);
	sp_async *a = m && m->async ? sp_async_create(sp_capacity) : NULL;
	if (!sp_table_insert(key, idx)) {
		sp_async_destroy(a);
		entry_free_index(idx);
		sp_meta_unlock();
		return SP_NO_ENTRY;
	}
	e->next_tick = e->next_render = &g_no_entry;
	e->cpu_off = e->gpu_off = 0;
	/* Marked collected: no frame can match them until a tick rewrites them. */
	for (unsigned s = 0; s < SP_MAX_FIF; s++)
		e->acc[s] = (sp_frame_acc){.frame = (uint32_t)(g.frame - SP_MAX_FIF - 1),
					   .first_timer = SP_NO_ENTRY, .collected = 1};
	atomic_store_explicit(&e->name, m ? m->name : NULL, memory_order_release);
	atomic_store_explicit(&e->async, a, memory_order_release);
	sp_seq_begin(e);
	atomic_store_explicit(&e->passes, e->inline_passes, memory_order_release);
	SP_PUBLISH(e->key, key);
	sp_seq_end(e);
	atomic_fetch_add_explicit(&g_sources, 1, memory_order_relaxed);
	sp_meta_unlock();
	sp_sampler_scene_changed();
	return idx;
}

/* Frees an entry's memory; with `reuse` it also unlinks it and recycles its
 * slot. Readers may still hold the entry: they see key 0 and give up. */
static void entry_release(sp_entry *e, uint32_t idx, bool reuse)
{
	uintptr_t key = SP_LOAD(e->key);
	if (!key)
		return;
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	if (reuse)
		sp_table_remove(key);

	sp_seq_begin(e);
	SP_PUBLISH(e->key, 0);
	SP_PUBLISH(e->cpu_count, 0);
	SP_PUBLISH(e->gpu_count, 0);
	sp_column *cols[] = {&e->tick, &e->render, &e->gpu};
	for (int c = 0; c < 3; c++) {
		SP_PUBLISH(cols[c]->sum, 0);
		SP_PUBLISH(cols[c]->max, 0);
		cols[c]->max_at = 0;
	}
	SP_PUBLISH(e->n_passes, 0);
	/* A pass added later starts from zero (sp_window_add_pass). */
	atomic_store_explicit(&e->passes, e->inline_passes, memory_order_release);
	atomic_store_explicit(&e->name, NULL, memory_order_relaxed);
	sp_seq_end(e);

	sp_spin_lock(&e->async_lock);
	sp_async *a = atomic_load_explicit(&e->async, memory_order_relaxed);
	atomic_store_explicit(&e->async, NULL, memory_order_relaxed);
	sp_spin_unlock(&e->async_lock);
	sp_async_destroy(a);

	sp_pass_block_free(e, ps, reuse);
	/* Readers copying the rings (fill_medians) see the key change and
	 * give up; with reuse they may still be inside. */
	if (reuse)
		sp_retire_arena(e->rings, sp_rings_bytes(sp_capacity, passes));
	else
		sp_arena_free(e->rings, sp_rings_bytes(sp_capacity, passes));
	__atomic_store_n(&e->rings, NULL, __ATOMIC_RELEASE);
	e->trace_gen = 0;
	atomic_fetch_sub_explicit(&g_sources, 1, memory_order_relaxed);
	if (reuse)
		entry_free_index(idx);
}

/* Drops every entry. Readers are fenced out first: they check g_live inside
 * their RCU section, and the grace period waits for those already in. */
static void drop_all(void)
{
	bool was_live = SP_LOAD(g_live);
	atomic_store(&g_live, false);
	sp_rcu_synchronize();
	uint32_t hw = SP_LOAD(g_high_water);
	for (uint32_t i = 0; i < hw; i++)
		entry_release(entry_fast(i), i, false);
	/* Retired rings go back to the arena before it is unmapped. */
	sp_retire_drain();
	for (uint32_t c = 0; c < SP_MAX_CHUNKS; c++) {
		sp_entry *chunk = SP_LOAD(g_chunks[c]);
		if (!chunk)
			break;
		sp_arena_free(chunk, SP_CHUNK_SIZE * sizeof(sp_entry));
		SP_STORE(g_chunks[c], NULL);
	}
	sp_arena_reset();
	atomic_store(&g_high_water, 0);
	sp_table_clear();
	sp_free(g.free_idx, g.free_cap * sizeof *g.free_idx);
	g.free_idx = NULL;
	g.n_free = g.free_cap = 0;
	g.tick_next = g.tick_first = &g_no_entry;
	g.render_next = g.render_first = &g_no_entry;
	g.tick_link = &g.tick_first;
	g.render_link = &g.render_first;
	sp_gpu_reset_slots();
	sp_retire_drain();
	if (was_live && g.on)
		atomic_store(&g_live, true);
}

static void reset_counters(void)
{
	SP_STORE(sp_count.frames_collected, 0);
	SP_STORE(sp_count.gpu_frames_collected, 0);
	SP_STORE(sp_count.gpu_frames_disjoint, 0);
	SP_STORE(sp_count.disjoint_backend, 0);
	SP_STORE(sp_count.disjoint_order, 0);
	SP_STORE(sp_count.disjoint_range, 0);
	SP_STORE(sp_count.disjoint_unavailable, 0);
	SP_STORE(sp_count.disjoint_overflow, 0);
	SP_STORE(sp_count.ignored_calls, 0);
	SP_STORE(sp_count.saturated_samples, 0);
}

static inline void ignored(void)
{
	sp_count_add(&sp_count.ignored_calls, 1);
}

/* --- control ------------------------------------------------------------- */

void source_profiler_enable(bool enable)
{
	atomic_store(&g_enable_next, enable);
}

void source_profiler_gpu_enable(bool enable)
{
	atomic_store(&g_gpu_enable_next, enable && atomic_load(&g_enable_next));
}

void source_profiler_reset_video(uint32_t fps_num, uint32_t fps_den)
{
	if (!fps_num || !fps_den) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "reset_video(%u, %u): frame rate must be positive; keeping %u samples", fps_num,
		       fps_den, sp_capacity);
		ignored();
		return;
	}
	uint64_t fps = ((uint64_t)fps_num + fps_den - 1) / fps_den;
	if (fps > SOURCE_PROFILER_MAX_FPS) {
		sp_log(SOURCE_PROFILER_LOG_WARNING, "reset_video(%u, %u): clamped to %u fps", fps_num,
		       fps_den, SOURCE_PROFILER_MAX_FPS);
		fps = SOURCE_PROFILER_MAX_FPS;
	}
	drop_all();
	sp_capacity = (uint32_t)fps * SOURCE_PROFILER_WINDOW_SECONDS;
	atomic_store(&g_capacity_pub, sp_capacity);
}

/* --- removal ------------------------------------------------------------- */

void source_profiler_remove_source(const void *source)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		ignored();
		return;
	}
	sp_meta_lock();
	/* The entry lives until the next frame_begin; its name goes now, so
	 * unhook it before the name is retired. */
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e && SP_LOAD(e->key) == key)
			atomic_store_explicit(&e->name, NULL, memory_order_release);
	}
	sp_rcu_exit(r);
	sp_meta_delete(key);
	if (g_removed_n == g_removed_cap) {
		size_t cap = g_removed_cap ? g_removed_cap * 2 : 64;
		uintptr_t *n = sp_alloc(cap * sizeof *n);
		if (!n) {
			sp_meta_unlock();
			return;
		}
		if (g_removed_n)
			memcpy(n, g_removed, g_removed_n * sizeof *n);
		sp_free(g_removed, g_removed_cap * sizeof *g_removed);
		g_removed = n;
		g_removed_cap = cap;
	}
	g_removed[g_removed_n++] = key;
	atomic_store_explicit(&g_removals_queued, true, memory_order_release);
	sp_meta_unlock();
}

static void process_removals(void)
{
	if (!atomic_load_explicit(&g_removals_queued, memory_order_acquire))
		return;
	sp_meta_lock();
	atomic_store_explicit(&g_removals_queued, false, memory_order_relaxed);
	size_t n = g_removed_n;
	if (n > g_removing_cap) {
		uintptr_t *b = sp_alloc(g_removed_cap * sizeof *b);
		if (!b) {
			sp_meta_unlock();
			return;
		}
		sp_free(g_removing, g_removing_cap * sizeof *g_removing);
		g_removing = b;
		g_removing_cap = g_removed_cap;
	}
	if (n)
		memcpy(g_removing, g_removed, n * sizeof *g_removing);
	g_removed_n = 0;
	sp_meta_unlock();

	for (size_t i = 0; i < n; i++) {
		uint32_t idx = sp_table_find(g_removing[i]);
		if (idx != SP_NO_ENTRY)
			entry_release(entry_fast(idx), idx, true);
	}
	if (n)
		sp_sampler_scene_changed();
}

/* --- frame protocol ------------------------------------------------------- */

/* The fast paths' bytes, from what they depend on; called wherever one of
 * those changes (all on the graphics thread). */
static void fast_paths(void)
{
	bool trace = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	g.stamp_path = !g.on ? PATH_OFF : g.tsc ? PATH_FAST : PATH_SLOW;
	g.tick_path = g.stamp_path == PATH_FAST && trace ? PATH_SLOW : g.stamp_path;
	g.render_path = g.tick_path == PATH_FAST && g.gpu_frame ? PATH_TIMED : g.tick_path;
}

void sp_trace_changed(void)
{
	fast_paths();
}

void source_profiler_frame_begin(void)
{
	srcprof_clock_maintain();
	g.tsc = SP_HAVE_TSC && SP_LOAD(sp_clock.kind) == SP_CLOCK_TSC;
	g.mult = g.tsc ? SP_LOAD(sp_clock.mult) : 1ull << 32;
	if (!g.mult)
		g.mult = 1ull << 32;
	/* Below it the product is exact in 64 bits and the duration fits 32. */
	g.fast_ticks = UINT64_MAX / g.mult;
	process_removals();
	sp_retire_flush();

	if (!g.on && atomic_load(&g_enable_next)) {
		g.on = true;
		g.on_since = g.frame + 1;
		reset_counters();
		sp_sampler_reset();
		atomic_store(&g_live, true);
	}
	g.gpu_possible = g.on && atomic_load(&g_gpu_enable_next) && sp_gpu_has_backend();
	atomic_store(&g_gpu_live, g.gpu_possible);
	g.frame++;
	g.slot = (unsigned)(g.frame % sp_fif);
	/* The last pass of a frame is left here, not by set_pass: its column
	 * must be remembered too (every frame's first render in it missed). */
	g.col_of_pass[g.pass] = (uint8_t)g.pass_column;
	g.pass = 0;
	g.pass_column = g.col_of_pass[0];
	g.timer_asks = 0;
	g.tick_next = g.tick_first;
	g.tick_link = &g.tick_first;
	g.render_next = g.render_first;
	g.render_link = &g.render_first;

	bool trace = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	uint64_t now = trace || g.on ? sp_now() : 0;
	if (trace || g.on) {
		sp_trace_maintain(now);
		if (atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
			sp_trace_frame((uint32_t)g.frame, now);
	}
	g.gpu_frame = g.on && sp_sampler_frame_begin(g.gpu_possible, now, g.frame);
	fast_paths();
	if (g.gpu_frame)
		sp_gpu_prepare(g.slot, SP_LOAD(g_sources));
}

bool source_profiler_gpu_frame_timed(void)
{
	return g.gpu_frame;
}

void source_profiler_set_frames_in_flight(uint32_t n)
{
	if (n < 1 || n > SP_MAX_FIF) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "set_frames_in_flight(%u): must be 1 to %u; keeping %u", n, SP_MAX_FIF, sp_fif);
		ignored();
		return;
	}
	if (n == sp_fif)
		return;
	sp_fif = n;
	atomic_store(&g_fif_pub, n);
	/* Frames recorded so far would be collected from the wrong slots. */
	g.on_since = g.frame + 1;
	g.slot = (unsigned)(g.frame % sp_fif);
	sp_gpu_reset_slots();
}

uint32_t source_profiler_frames_in_flight(void)
{
	return atomic_load(&g_fif_pub);
}

uint32_t source_profiler_frame_slot(void)
{
	return g.slot;
}

uint64_t source_profiler_frame_index(void)
{
	return g.frame;
}

void sp_test_set_frame(uint64_t frame)
{
	g.frame = frame;
}

/* --- stamps: the clock of ticks and renders ----------------------------------
 *
 * With the TSC clock a tick or render is stamped with the raw counter (one
 * rdtsc) and its duration converted with one 64x64 multiply by the rate
 * taken at frame_begin (re-anchoring moves it at most once a second); with
 * any other clock a stamp is its ns and the rate is 1 << 32, so the same
 * multiply is exact. So tick_start and render_begin return stamps, and only
 * traces turn stamps into times (sp_stamp_time). */

static inline uint64_t stamp(void)
{
#if SP_HAVE_TSC
	if (SP_LIKELY(g.tsc))
		return __rdtsc();
#endif
	return srcprof_clock_ns();
}

/* The fast paths' stamp: only called on them. */
static inline uint64_t stamp_tsc(void)
{
#if SP_HAVE_TSC
	return __rdtsc();
#else
	return 0; /* no path is fast */
#endif
}

__attribute__((noinline)) static uint32_t saturated(void)
{
	sp_saturated_local++;
	return UINT32_MAX;
}

/* (end - start) * rate >> 32, in 32-bit ns: above 4.29 s the product's
 * high word is not 0 and the duration saturates (counted). */
static inline uint32_t stamp_dur(uint64_t start, uint64_t end)
{
	unsigned __int128 ns = (unsigned __int128)(end - start) * g.mult;
	if (SP_UNLIKELY((uint64_t)(ns >> 64)))
		return saturated();
	return (uint32_t)((uint64_t)ns >> 32);
}

/* a + b in 32 bits, saturated (counted). */
static inline uint32_t add_sat(uint32_t a, uint32_t b)
{
	uint32_t sum;
	if (SP_UNLIKELY(__builtin_add_overflow(a, b, &sum)))
		return saturated();
	return sum;
}

uint64_t sp_stamp_time(uint64_t stamp_value)
{
#if SP_HAVE_TSC
	if (g.tsc)
		return sp_tsc_time(stamp_value);
#endif
	return stamp_value;
}

/* Keys 0 and UINTPTR_MAX are not sources (one compare for both). */
static inline bool bad_key(uintptr_t key)
{
	return key - 1 >= UINTPTR_MAX - 1;
}

/* A stamp pair a call may use: start from this profiling session (0 is
 * what tick_start and render_begin return while off) and not after end.
 * One compare for both. */
static inline bool bad_stamps(uint64_t start, uint64_t end)
{
	return start - 1 >= end;
}

uint64_t source_profiler_source_tick_start(void)
{
	uint8_t path = g.stamp_path;
	if (SP_LIKELY(path == PATH_FAST))
		return stamp_tsc();
	return path == PATH_OFF ? 0 : stamp();
}

/* The entry of `key` through the table, created when asked: the slow path
 * when the order of last frame's calls (the hints) did not find it. */
static sp_entry *lookup_slow(uintptr_t key, bool create)
{
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY && create)
		idx = entry_create(key);
	return idx == SP_NO_ENTRY ? NULL : entry_fast(idx);
}

/* Hints: the entry that followed the previous one last frame is likely
 * this one's - no table probe, no cache miss on the table at 10,000
 * sources. When the hint named `e` (the fast paths) the link holds already;
 * otherwise it is fixed to name `e` next frame. */
static inline void link_tick(sp_entry *e)
{
	*g.tick_link = e;
	g.tick_link = &e->next_tick;
	g.tick_next = e->next_tick;
}

static inline void link_render(sp_entry *e)
{
	*g.render_link = e;
	g.render_link = &e->next_render;
	g.render_next = e->next_render;
}

/* A frame that was never collected (profiling toggled, frames in flight
 * changed) left pass sums in its slot; collect zeroes those it pushes. */
__attribute__((noinline)) static void clear_pass_sums(sp_entry *e, unsigned slot)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	for (uint32_t p = 0; p < passes; p++)
		ps[p].cpu_ns[slot] = 0;
}

__attribute__((noinline)) static void trace_call(const sp_entry *e, int kind, uint64_t start,
						 uint64_t end)
{
	sp_trace_cpu(e, kind, kind == SP_TRACE_TICK ? 0 : g.pass, sp_stamp_time(start),
		     sp_stamp_time(end), (uint32_t)g.frame);
}

/* Every tick_end but the fast path's: another clock, a trace, a second
 * tick in a frame, a hint that missed, a new source, bad input. */
__attribute__((noinline)) static void tick_end_slow(uintptr_t key, uint64_t start, uint64_t end)
{
	if (bad_key(key) || bad_stamps(start, end)) {
		ignored();
		return;
	}
	sp_entry *e = g.tick_next;
	if (SP_LOAD(e->key) != key && !(e = lookup_slow(key, true)))
		return;
	link_tick(e);
	unsigned slot = g.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t dur = stamp_dur(start, end);
	if (a->frame != (uint32_t)g.frame) {
		if (SP_UNLIKELY(!a->collected && a->rendered))
			clear_pass_sums(e, slot);
		*a = (sp_frame_acc){.frame = (uint32_t)g.frame, .tick_ns = dur,
				    .first_timer = SP_NO_ENTRY};
		sp_prefetch(g.tick_next);
	} else {
		/* A second tick in one frame adds to the first. */
		a->tick_ns = add_sat(a->tick_ns, dur);
	}
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)))
		trace_call(e, SP_TRACE_TICK, start, end);
}

__attribute__((noinline)) static void tick_end_other(uintptr_t key, uint64_t start)
{
	tick_end_slow(key, start, stamp());
}

/* The duration of a fast path, or false when it saturates (the slow path
 * counts that): every test before anything is stored, so that the fast
 * paths are leaves whose only calls are tail calls. */
static inline bool fast_dur(uint64_t start, uint64_t end, uint32_t *dur)
{
	uint64_t d = end - start;
	*dur = (uint32_t)((d * g.mult) >> 32);
	return d <= g.fast_ticks;
}

/* The common case straight through: TSC stamps, no trace, the hinted
 * entry's first tick this frame, its last frame collected. */
void source_profiler_source_tick_end(const void *source, uint64_t start)
{
	uintptr_t key = (uintptr_t)source;
	uint8_t path = g.tick_path;
	if (SP_UNLIKELY(path != PATH_FAST)) {
		if (path == PATH_OFF)
			return;
		return tick_end_other(key, start);
	}
	uint64_t end = stamp_tsc();
	sp_entry *e = g.tick_next;
	sp_frame_acc *a = &e->acc[g.slot];
	uint32_t dur;
	if (SP_UNLIKELY(bad_key(key) || bad_stamps(start, end) || SP_LOAD(e->key) != key ||
			a->frame == (uint32_t)g.frame || (a->rendered && !a->collected) ||
			!fast_dur(start, end, &dur)))
		return tick_end_slow(key, start, end);
	g.tick_link = &e->next_tick;
	sp_entry *n = e->next_tick;
	g.tick_next = n;
	sp_prefetch(n);
	a->frame = (uint32_t)g.frame;
	a->tick_ns = dur;
	a->first_timer = SP_NO_ENTRY;
	a->rendered = a->has_async_ts = a->collected = a->gpu_missing = 0;
}

void source_profiler_render_begin(void)
{
	if (!g.on)
		return;
	if (g.gpu_possible)
		sp_sampler_commit(g.gpu_frame);
	sp_gpu_frame_begin(g.slot, g.frame, g.gpu_frame, SP_LOAD(g_sources));
}

void source_profiler_gpu_skip_frame(void)
{
	/* A frame the renderer keeps untimed does not count towards the
	 * sampler's N (see sp_sampler_commit). */
	g.gpu_frame = false;
	g.gpu_possible = false;
	fast_paths();
}

/* render_begin while profiling, but not on the fast path: a GPU-timed
 * frame, another clock, a trace. */
__attribute__((noinline)) static uint64_t render_begin_slow(sp_gpu_timer **timer)
{
	if (timer) {
		*timer = NULL;
		g.timer_asks++;
		if (g.gpu_frame)
			*timer = sp_gpu_timer_begin(g.slot, g.pass);
	}
	return stamp();
}

/* The common case of a GPU-timed frame: a timer, then the TSC stamp. */
__attribute__((noinline)) static uint64_t render_begin_timed(sp_gpu_timer **timer)
{
	g.timer_asks++;
	*timer = sp_gpu_timer_begin(g.slot, g.pass);
	return stamp_tsc();
}

uint64_t source_profiler_source_render_begin(sp_gpu_timer **timer)
{
	uint8_t path = g.render_path;
	if (SP_UNLIKELY(path != PATH_FAST)) {
		if (path == PATH_TIMED && timer)
			return render_begin_timed(timer);
		if (path != PATH_OFF)
			return render_begin_slow(timer);
		if (timer)
			*timer = NULL;
		return 0;
	}
	if (timer) {
		*timer = NULL;
		g.timer_asks++;
	}
	return stamp_tsc();
}

/* A pass the source was not rendered in before: a new column (or, past
 * SOURCE_PROFILER_MAX_SOURCE_PASSES, the last). */
__attribute__((noinline)) static uint32_t pass_column_new(sp_entry *e, uint32_t passes)
{
	if (passes < SOURCE_PROFILER_MAX_SOURCE_PASSES && sp_window_add_pass(e, sp_capacity, g.pass))
		return passes;
	return passes ? passes - 1 : SP_NO_ENTRY;
}

/* Local column of the current pass in `e`. Columns are in first-rendered
 * order, so sources drawn in the same passes share column numbers: the
 * column the last source used in this pass is tried first. */
static inline uint32_t pass_column(sp_entry *e)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t k = g.pass_column;
	if (SP_LIKELY(k < passes && SP_LOAD(ps[k].pass) == g.pass))
		return k;
	for (k = 0; k < passes; k++)
		if (SP_LOAD(ps[k].pass) == g.pass)
			return g.pass_column = k;
	k = pass_column_new(e, passes);
	if (k != SP_NO_ENTRY)
		g.pass_column = k;
	return k;
}

/* The render's CPU time into the pass sum of its frame; the frame's
 * accumulator (or NULL when the render is to be ignored). */
static inline __attribute__((always_inline)) sp_frame_acc *
record_render(sp_entry *e, uint64_t start, uint64_t end, bool timed, uint32_t *column)
{
	link_render(e);
	/* Its header and acc, and its pass sums when they are inline. */
	sp_prefetch(g.render_next);
	sp_prefetch(g.render_next->inline_passes);
	unsigned slot = g.slot;
	sp_frame_acc *a = &e->acc[slot];
	if (SP_UNLIKELY(a->frame != (uint32_t)g.frame)) {
		ignored(); /* not ticked this frame */
		return NULL;
	}
	uint32_t k = pass_column(e);
	if (SP_UNLIKELY(k == SP_NO_ENTRY))
		return NULL;
	uint32_t dur = stamp_dur(start, end);
	if (!a->rendered) {
		a->render_first_ns = dur;
		a->rendered = 1;
	}
	/* Not sampled in a GPU-timed frame: no GPU sample this frame. */
	if (!timed && g.gpu_frame)
		a->gpu_missing = 1;
	uint32_t *cell = &atomic_load_explicit(&e->passes, memory_order_relaxed)[k].cpu_ns[slot];
	*cell = add_sat(*cell, dur);
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)))
		trace_call(e, SP_TRACE_RENDER, start, end);
	*column = k;
	return a;
}

/* The rest of a render_end whose GPU timer, if any, has ended as
 * `timer_index` (timer NULL when there is none): another clock, a trace, a
 * hint that missed, a new pass, bad input. */
__attribute__((noinline)) static void render_end_ended(uintptr_t key, uint64_t start,
						       uint64_t end, sp_gpu_timer *timer,
						       uint32_t timer_index)
{
	if (bad_key(key) || bad_stamps(start, end)) {
		ignored();
		return;
	}
	sp_entry *e = g.render_next;
	if (SP_LOAD(e->key) != key && !(e = lookup_slow(key, false))) {
		ignored(); /* never ticked */
		return;
	}
	bool first = !e->acc[g.slot].rendered;
	uint32_t k;
	sp_frame_acc *a = record_render(e, start, end, timer != NULL, &k);
	if (a && timer) {
		timer->pass = (uint8_t)g.pass;
		timer->pass_local = (uint8_t)k;
		timer->first = first;
		timer->next = a->first_timer;
		a->first_timer = timer_index;
	}
}

/* Ends the render's GPU timer (a bad pointer is ignored and counted). */
static inline uint32_t end_timer(sp_gpu_timer **timer)
{
	uint32_t timer_index = sp_gpu_timer_end(g.slot, *timer);
	if (timer_index == SP_NO_ENTRY) {
		ignored();
		*timer = NULL;
	}
	return timer_index;
}

/* Every render_end but the fast paths'. */
__attribute__((noinline)) static void render_end_slow(uintptr_t key, uint64_t start, uint64_t end,
						      sp_gpu_timer *timer)
{
	uint32_t timer_index = timer ? end_timer(&timer) : SP_NO_ENTRY;
	render_end_ended(key, start, end, timer, timer_index);
}

__attribute__((noinline)) static void render_end_other(uintptr_t key, uint64_t start,
						       sp_gpu_timer *timer)
{
	render_end_slow(key, start, stamp(), timer);
}

/* The common case of a GPU-timed frame: a render with its timer, TSC
 * stamps, no trace, the hinted entry and column (as the fast path). */
__attribute__((noinline)) static void render_end_timed(uintptr_t key, uint64_t start,
						       sp_gpu_timer *timer)
{
	uint64_t end = stamp_tsc();
	uint32_t timer_index = end_timer(&timer);
	sp_entry *e = g.render_next;
	unsigned slot = g.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t k = g.pass_column;
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t dur, sum;
	if (SP_UNLIKELY(!timer || bad_key(key) || bad_stamps(start, end) ||
			SP_LOAD(e->key) != key || a->frame != (uint32_t)g.frame ||
			k >= SP_LOAD(e->n_passes) || SP_LOAD(ps[k].pass) != g.pass ||
			!fast_dur(start, end, &dur) ||
			__builtin_add_overflow(ps[k].cpu_ns[slot], dur, &sum)))
		return render_end_ended(key, start, end, timer, timer_index);
	g.render_link = &e->next_render;
	sp_entry *n = e->next_render;
	g.render_next = n;
	sp_prefetch(n);
	sp_prefetch(n->inline_passes);
	bool first = !a->rendered;
	if (first) {
		a->render_first_ns = dur;
		a->rendered = 1;
	}
	ps[k].cpu_ns[slot] = sum;
	timer->pass = (uint8_t)g.pass;
	timer->pass_local = (uint8_t)k;
	timer->first = first;
	timer->next = a->first_timer;
	a->first_timer = timer_index;
}

/* The common case straight through: TSC stamps, no trace, a frame not
 * GPU-timed, the hinted entry, ticked this frame, in the column the last
 * source used for this pass. */
void source_profiler_source_render_end(const void *source, uint64_t start, sp_gpu_timer *timer)
{
	uintptr_t key = (uintptr_t)source;
	uint8_t path = g.render_path;
	if (SP_UNLIKELY(path != PATH_FAST)) {
		if (path == PATH_OFF)
			return;
		if (timer && path == PATH_TIMED)
			return render_end_timed(key, start, timer);
		return render_end_other(key, start, timer);
	}
	if (SP_UNLIKELY(timer))
		return render_end_timed(key, start, timer); /* ends it: not this frame's */
	uint64_t end = stamp_tsc();
	sp_entry *e = g.render_next;
	unsigned slot = g.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t k = g.pass_column;
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t dur, sum;
	if (SP_UNLIKELY(bad_key(key) || bad_stamps(start, end) || SP_LOAD(e->key) != key ||
			a->frame != (uint32_t)g.frame || k >= SP_LOAD(e->n_passes) ||
			SP_LOAD(ps[k].pass) != g.pass || !fast_dur(start, end, &dur) ||
			__builtin_add_overflow(ps[k].cpu_ns[slot], dur, &sum)))
		return render_end_slow(key, start, end, NULL);
	g.render_link = &e->next_render;
	sp_entry *n = e->next_render;
	g.render_next = n;
	sp_prefetch(n);
	sp_prefetch(n->inline_passes);
	if (!a->rendered) {
		a->render_first_ns = dur;
		a->rendered = 1;
	}
	ps[k].cpu_ns[slot] = sum;
}

void source_profiler_render_end(void)
{
	if (!g.on)
		return;
	sp_gpu_frame_end(g.slot);
}

/* The collected frame's GPU read-back, for gpu_sums. */
typedef struct gpu_frame {
	const sp_gpu_timer *timers;
	const uint64_t *ns;
	const _Atomic uint32_t *overhead; /* per pass, NULL: nothing subtracted */
	bool trace;
} gpu_frame;

/* The durations of the source's GPU timers in the collected frame, summed
 * per pass column into *out (zeroed here). */
static void gpu_sums(sp_entry *e, const sp_frame_acc *a, uint64_t frame, const gpu_frame *gf,
		     sp_gpu_frame_ns *out)
{
	memset(out, 0, sizeof *out);
	const sp_gpu_timer *timers = gf->timers;
	const uint64_t *ns = gf->ns;
	for (uint32_t i = a->first_timer; i != SP_NO_ENTRY; i = timers[i].next) {
		const sp_gpu_timer *t = &timers[i];
		uint64_t begin = ns[2 + 2 * i], end = ns[3 + 2 * i];
		/* Less the timer's own cost; a render at or below that cost
		 * reads 1 ns ("below what the timer resolves"), not 0, which
		 * would mean "not rendered". */
		uint64_t overhead = gf->overhead ? SP_LOAD(gf->overhead[t->pass]) : 0;
		if (overhead)
			end = end - begin > overhead ? end - overhead : begin + 1;
		/* Fits 32 bits: sp_gpu_collect drops a frame with a longer timer. */
		uint32_t dur = (uint32_t)(end - begin);
		if (t->first)
			out->first = dur;
		out->pass[t->pass_local] = add_sat(out->pass[t->pass_local], dur);
		if (gf->trace)
			sp_trace_gpu(e, t->pass, begin, end, (uint32_t)frame);
	}
}

/* An entry's records sit kilobytes away from the next entry's, beyond the
 * hardware prefetcher: collect fetches the entry eight ahead, then the
 * records of the one four ahead, whose header has arrived by now. */
#define AHEAD_ENTRY 8
#define AHEAD_RECORDS 4

static inline void prefetch_entry(const sp_entry *e)
{
	/* The lines collect reads: all but those of the names and the async
	 * window. */
	const char *p = (const char *)e;
	sp_prefetch(p);
	sp_prefetch(p + 64);
	sp_prefetch(p + 128);
	sp_prefetch(p + 192);
	sp_prefetch(p + 256);
	sp_prefetch(p + offsetof(sp_entry, rings));
}

static inline void prefetch_records(const sp_entry *e, bool gpu)
{
	const uint32_t *rings = e->rings;
	if (rings) {
		sp_prefetch(rings + e->cpu_off);
		if (gpu)
			sp_prefetch(rings + e->gpu_off);
	}
}

/* Collects entry e's frame in `slot` if it has one; true when it did. */
static inline bool collect_entry(sp_entry *e, unsigned slot, uint64_t frame,
				 const gpu_frame *gf, uint32_t *min_gpu)
{
	sp_frame_acc *a = &e->acc[slot];
	if (!SP_LOAD(e->key) || a->frame != (uint32_t)frame || a->collected)
		return false;
	/* A frame's GPU sums per pass exist only here, between its read-back
	 * and its push. */
	sp_gpu_frame_ns gpu_ns, *gpu = NULL;
	if (gf && !a->gpu_missing) {
		gpu_sums(e, a, frame, gf, &gpu_ns);
		gpu = &gpu_ns;
	}
	if (SP_UNLIKELY(!e->rings) && !sp_window_rings(e, sp_capacity)) {
		/* Out of memory (logged): no sample, and the sums go. */
		clear_pass_sums(e, slot);
		a->collected = 1;
		return true;
	}
	uint32_t rescan = sp_window_push(e, sp_capacity, slot, gpu);
	if (SP_UNLIKELY(rescan))
		sp_window_rescan(e, sp_capacity, rescan);
	a->collected = 1;
	if (gpu && a->rendered) {
		uint32_t n = SP_LOAD(e->gpu_count);
		if (n < *min_gpu)
			*min_gpu = n;
	}
	if (SP_UNLIKELY(a->has_async_ts) && atomic_load_explicit(&e->async, memory_order_relaxed)) {
		/* set_async(false) on another thread may free the window: only
		 * use it under the lock. */
		sp_spin_lock(&e->async_lock);
		sp_async *as = atomic_load_explicit(&e->async, memory_order_relaxed);
		if (as)
			sp_delta_push(&as->rendered, as->capacity, as->rendered_ts[slot]);
		sp_spin_unlock(&e->async_lock);
	}
	return true;
}

void source_profiler_frame_collect(void)
{
	if (!g.on)
		return;
	uint32_t min_gpu = UINT32_MAX; /* fewest GPU samples of a source rendered this GPU frame */
	bool frame_gpu = false;
	/* Wide frame numbers: a 32-bit difference stopped collection after
	 * 2^31 frames (25 days at 1000 fps). */
	uint64_t frame = g.frame - (sp_fif - 1);
	if (g.frame >= sp_fif && frame >= g.on_since) {
		unsigned slot = (unsigned)(frame % sp_fif);
		bool gpu = sp_gpu_collect(slot, frame);
		gpu_frame gf = {sp_gpu_timers(slot), sp_gpu_stamps(), sp_gpu_overheads(),
				atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)};
		bool any = false;
		uint32_t hw = SP_LOAD(g_high_water);
		/* Chunk by chunk: entries of a chunk are contiguous. */
		for (uint32_t c = 0; c * SP_CHUNK_SIZE < hw; c++) {
			sp_entry *chunk = SP_LOAD(g_chunks[c]);
			uint32_t n = hw - c * SP_CHUNK_SIZE;
			if (n > SP_CHUNK_SIZE)
				n = SP_CHUNK_SIZE;
			for (uint32_t j = 0; j < n; j++) {
				sp_entry *e = &chunk[j];
				if (j + AHEAD_ENTRY < n)
					prefetch_entry(e + AHEAD_ENTRY);
				if (j + AHEAD_RECORDS < n)
					prefetch_records(e + AHEAD_RECORDS, gpu);
				any |= collect_entry(e, slot, frame, gpu ? &gf : NULL, &min_gpu);
			}
		}
		frame_gpu = gpu && any;
		sp_count_add(&sp_count.frames_collected, 1);
		if (gpu)
			sp_count_add(&sp_count.gpu_frames_collected, 1);
		if (sp_saturated_local) {
			sp_count_add(&sp_count.saturated_samples, sp_saturated_local);
			sp_saturated_local = 0;
		}
	}
	sp_arena_trim();
	sp_sampler_frame_end(sp_now(), g.timer_asks, g.frame - (sp_fif - 1), frame_gpu, min_gpu);
	if (!atomic_load(&g_enable_next)) {
		g.on = false;
		g.gpu_frame = false;
		fast_paths();
		atomic_store(&g_gpu_live, false);
		drop_all();
	}
}

/* --- async ---------------------------------------------------------------- */

void source_profiler_set_async(const void *source, bool async)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		ignored();
		return;
	}
	sp_meta_lock();
	sp_meta *m = async ? sp_meta_get(key) : sp_meta_find(key);
	if (m)
		m->async = async;
	/* Allocate before taking the entry's spin lock. */
	sp_async *fresh = async ? sp_async_create(SP_LOAD(g_capacity_pub)) : NULL;
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e) {
			sp_spin_lock(&e->async_lock);
			if (SP_LOAD(e->key) == key) {
				sp_async *cur = atomic_load_explicit(&e->async, memory_order_relaxed);
				if (async && !cur && fresh) {
					atomic_store_explicit(&e->async, fresh, memory_order_release);
					fresh = NULL;
				} else if (!async && cur) {
					atomic_store_explicit(&e->async, NULL, memory_order_release);
					fresh = cur; /* freed below, outside the lock */
				}
			}
			sp_spin_unlock(&e->async_lock);
		}
	}
	sp_rcu_exit(r);
	sp_meta_unlock();
	sp_async_destroy(fresh);
}

void source_profiler_async_frame_received(const void *source)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		ignored();
		return;
	}
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		uint64_t now = sp_now();
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e) {
			sp_spin_lock(&e->async_lock);
			sp_async *a = atomic_load_explicit(&e->async, memory_order_relaxed);
			if (a && SP_LOAD(e->key) == key)
				sp_delta_push(&a->input, a->capacity, now);
			sp_spin_unlock(&e->async_lock);
		}
	}
	sp_rcu_exit(r);
}

void source_profiler_async_frame_rendered(const void *source, uint64_t frame_ts_ns)
{
	if (!g.on)
		return;
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		ignored();
		return;
	}
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY)
		return;
	sp_entry *e = entry_fast(idx);
	sp_frame_acc *a = &e->acc[g.slot];
	if (a->frame != (uint32_t)g.frame)
		return;
	/* set_async(false) on another thread may free the window meanwhile. */
	sp_spin_lock(&e->async_lock);
	sp_async *as = atomic_load_explicit(&e->async, memory_order_relaxed);
	if (as) {
		as->rendered_ts[g.slot] = frame_ts_ns;
		a->has_async_ts = 1;
	}
	sp_spin_unlock(&e->async_lock);
}

size_t source_profiler_copy_samples(const void *source, source_profiler_series series,
				    uint32_t *out, size_t max)
{
	uintptr_t key = (uintptr_t)source;
	if (!g.on || !key || key == UINTPTR_MAX)
		return 0;
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY)
		return 0;
	sp_entry *e = entry_fast(idx);
	if (!e->rings)
		return 0;
	bool gpu = series == SOURCE_PROFILER_GPU || series == SOURCE_PROFILER_GPU_SUM;
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t stride = (gpu ? SP_GPU_FIXED : SP_CPU_FIXED) + passes;
	uint32_t count = gpu ? SP_LOAD(e->gpu_count) : SP_LOAD(e->cpu_count);
	uint32_t start = gpu ? sp_capacity * (SP_CPU_FIXED + passes) : 0;
	uint32_t head = ((gpu ? e->gpu_off : e->cpu_off) - start) / stride;
	const uint32_t *base = e->rings + start;
	uint32_t first = count < sp_capacity ? 0 : head; /* the oldest record */
	for (uint32_t i = 0; i < count && i < max; i++) {
		const uint32_t *rec = base + (size_t)((first + i) % sp_capacity) * stride;
		uint64_t v = 0;
		switch (series) {
		case SOURCE_PROFILER_TICK:
		case SOURCE_PROFILER_GPU:
			v = rec[0];
			break;
		case SOURCE_PROFILER_RENDER:
			v = rec[1];
			break;
		case SOURCE_PROFILER_RENDER_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_CPU_FIXED + p];
			break;
		case SOURCE_PROFILER_GPU_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_GPU_FIXED + p];
			break;
		}
		out[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return count;
}

/* --- names and passes ------------------------------------------------------ */

void source_profiler_set_source_name(const void *source, const char *name)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX || !name) {
		ignored();
		return;
	}
	char *copy = sp_strdup(name);
	if (!copy)
		return;
	sp_meta_lock();
	sp_meta *m = sp_meta_get(key);
	if (!m) {
		sp_meta_unlock();
		sp_free_str(copy);
		return;
	}
	char *old = m->name;
	m->name = copy;
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e && SP_LOAD(e->key) == key)
			atomic_store_explicit(&e->name, copy, memory_order_release);
	}
	sp_rcu_exit(r);
	sp_retire(old, 0);
	sp_meta_unlock();
}

bool source_profiler_get_source_name(const void *source, char *buf, size_t size)
{
	if (!buf || !size)
		return false;
	sp_meta_lock();
	sp_meta *m = sp_meta_find((uintptr_t)source);
	bool named = m && m->name;
	if (named)
		snprintf(buf, size, "%s", m->name);
	sp_meta_unlock();
	if (!named)
		snprintf(buf, size, "%p", source);
	return named;
}

uint32_t source_profiler_pass_id(const char *name)
{
	if (!name)
		return 0;
	pthread_mutex_lock(&g_pass_lock);
	if (!SP_LOAD(g_pass_names[0])) {
		SP_STORE(g_pass_names[0], sp_strdup("default"));
		atomic_store(&g_n_passes, 1);
	}
	uint32_t n = SP_LOAD(g_n_passes), id = 0;
	for (id = 0; id < n; id++)
		if (strcmp(SP_LOAD(g_pass_names[id]), name) == 0)
			break;
	if (id == n) {
		char *copy = n < SOURCE_PROFILER_MAX_PASSES ? sp_strdup(name) : NULL;
		if (!copy) {
			sp_log(SOURCE_PROFILER_LOG_WARNING,
			       "pass \"%s\" not registered (%u passes at most); counted as \"default\"",
			       name, SOURCE_PROFILER_MAX_PASSES);
			id = 0;
		} else {
			atomic_store_explicit(&g_pass_names[id], copy, memory_order_release);
			atomic_store(&g_n_passes, n + 1);
		}
	}
	pthread_mutex_unlock(&g_pass_lock);
	return id;
}

const char *source_profiler_pass_name(uint32_t pass)
{
	if (pass == 0)
		return "default";
	if (pass >= atomic_load(&g_n_passes))
		return NULL;
	return atomic_load_explicit(&g_pass_names[pass], memory_order_acquire);
}

void source_profiler_set_pass(uint32_t pass)
{
	if (pass != 0 && pass >= atomic_load(&g_n_passes)) {
		ignored();
		pass = 0;
	}
	g.col_of_pass[g.pass] = (uint8_t)g.pass_column;
	g.pass = pass;
	g.pass_column = g.col_of_pass[pass];
}

/* --- stats, shutdown -------------------------------------------------------- */

void source_profiler_get_stats(source_profiler_stats_t *s)
{
	if (!s)
		return;
	*s = (source_profiler_stats_t){
		.enabled = atomic_load(&g_live),
		.gpu_enabled = atomic_load(&g_gpu_live),
		.window_capacity = atomic_load(&g_capacity_pub),
		.sources = atomic_load(&g_sources),
		.frames_collected = SP_LOAD(sp_count.frames_collected),
		.gpu_frames_collected = SP_LOAD(sp_count.gpu_frames_collected),
		.gpu_frames_disjoint = SP_LOAD(sp_count.gpu_frames_disjoint),
		.gpu_disjoint_backend = SP_LOAD(sp_count.disjoint_backend),
		.gpu_disjoint_order = SP_LOAD(sp_count.disjoint_order),
		.gpu_disjoint_range = SP_LOAD(sp_count.disjoint_range),
		.gpu_disjoint_unavailable = SP_LOAD(sp_count.disjoint_unavailable),
		.gpu_disjoint_overflow = SP_LOAD(sp_count.disjoint_overflow),
		.ignored_calls = SP_LOAD(sp_count.ignored_calls),
		.saturated_samples = SP_LOAD(sp_count.saturated_samples),
		.allocations = sp_alloc_count(),
		.bytes = sp_alloc_bytes(),
		.gpu_mode = sp_gpu_mode(),
	};
	s->gpu_timer_capacity = atomic_load(&sp_gpu_capacity_pub);
	sp_gpu_frame_range(&s->gpu_frame_avg_ns, &s->gpu_frame_max_ns);
	s->gpu_timer_overhead_ns = sp_gpu_overhead_mean();
	s->gpu_resolution_ns = sp_gpu_resolution();
}

void source_profiler_shutdown(void)
{
	drop_all();
	atomic_store(&g_live, false);
	atomic_store(&g_gpu_live, false);
	atomic_store(&g_enable_next, false);
	atomic_store(&g_gpu_enable_next, false);
	g.on = g.gpu_frame = false;
	fast_paths();
	sp_gpu_shutdown();
	sp_meta_lock();
	sp_meta_clear();
	sp_free(g_removed, g_removed_cap * sizeof *g_removed);
	sp_free(g_removing, g_removing_cap * sizeof *g_removing);
	g_removed = g_removing = NULL;
	g_removed_n = g_removed_cap = g_removing_cap = 0;
	sp_meta_unlock();
	pthread_mutex_lock(&g_pass_lock);
	uint32_t n = SP_LOAD(g_n_passes);
	for (uint32_t i = 0; i < n; i++) {
		sp_free_str(SP_LOAD(g_pass_names[i]));
		SP_STORE(g_pass_names[i], NULL);
	}
	atomic_store(&g_n_passes, 0);
	pthread_mutex_unlock(&g_pass_lock);
	sp_retire_drain();
	sp_capacity = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
	atomic_store(&g_capacity_pub, sp_capacity);
	sp_fif = SOURCE_PROFILER_FRAME_BUFFER_SIZE;
	atomic_store(&g_fif_pub, sp_fif);
	sp_sampler_shutdown();
	source_profiler_set_clock(NULL, NULL);
	reset_counters();
}
