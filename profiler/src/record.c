/* The hot paths: tick_start / tick_end and render_begin / render_end of
 * each source, with their stamps. Each has a fast path for the common case
 * (TSC stamps, no trace, the entry the hints expect, the graphics thread)
 * that is a leaf whose only calls are tail calls; everything it calls is
 * inline here or in sp_record.h. Calls on other threads go to their
 * stream (stream.c). */
#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_table.h"
#include "sp_trace.h"
#include "sp_window.h"

/* Stamps, the clock of ticks and renders. With the TSC clock a tick or
 * render is stamped with the raw counter (one rdtsc) and its duration
 * converted with one 64x64 multiply by the rate taken at frame_begin
 * (re-anchoring moves it at most once a second); with any other clock a
 * stamp is its ns and the rate is 1 << 32, so the same multiply is exact.
 * So tick_start and render_begin return stamps, and only traces turn
 * stamps into times (stamp_time). */

static inline uint64_t stamp(void)
{
#if SP_HAVE_TSC
	if (SP_LIKELY(sp_core.tsc))
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
	uint8_t path = SP_LOAD(sp_core.stamp_path);
	if (SP_LIKELY(path == SP_PATH_FAST))
		return stamp_tsc();
	if (path == SP_PATH_OFF)
		return 0;
	return sp_on_graphics_thread() ? stamp() : sp_stream_stamp();
}

/* The entry of `key` through the table, created when asked: the slow path
 * when the order of last frame's calls (the hints) did not find it. */
static sp_entry *lookup_slow(uintptr_t key, bool create)
{
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY && create)
		idx = sp_entry_create(key);
	return idx == SP_NO_ENTRY ? NULL : sp_entry_fast(idx);
}

/* Hints: the entry that followed the previous one last frame is likely
 * this one's - no table probe, no cache miss on the table at 10,000
 * sources. When the hint named `e` (the fast paths) the link holds already;
 * otherwise it is fixed to name `e` next frame. */
static inline void link_tick(sp_entry *e)
{
	*sp_core.tick_link = e;
	sp_core.tick_link = &e->next_tick;
	sp_core.tick_next = e->next_tick;
}

static inline void link_render(sp_entry *e)
{
	*sp_core.render_link = e;
	sp_core.render_link = &e->next_render;
	sp_core.render_next = e->next_render;
}

__attribute__((noinline)) static void trace_call(const sp_entry *e, int kind, uint64_t start,
						 uint64_t end)
{
	sp_trace_cpu(e, kind, kind == SP_TRACE_TICK ? 0 : sp_core.pass & 0xffu, sp_stamp_time(start),
		     sp_stamp_time(end), (uint32_t)sp_core.frame);
}

/* Every tick_end but the fast path's: another clock, a trace, a second
 * tick in a frame, a hint that missed, a new source, bad input. */
__attribute__((noinline)) static void tick_end_slow(uintptr_t key, uint64_t start, uint64_t end)
{
	if (bad_key(key) || bad_stamps(start, end)) {
		sp_ignored();
		return;
	}
	sp_entry *e = sp_core.tick_next;
	if (SP_LOAD(e->key) != key && !(e = lookup_slow(key, true)))
		return;
	link_tick(e);
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t dur = sp_stamp_dur(start, end);
	if (a->frame != (uint32_t)sp_core.frame) {
		if (SP_UNLIKELY(!a->collected && a->rendered))
			sp_clear_pass_sums(e, slot);
		*a = (sp_frame_acc){.frame = (uint32_t)sp_core.frame, .tick_ns = dur,
				    .first_timer = SP_NO_ENTRY};
		sp_prefetch(sp_core.tick_next);
	} else {
		/* A second tick in one frame adds to the first. */
		a->tick_ns = sp_add_sat(a->tick_ns, dur);
	}
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)))
		trace_call(e, SP_TRACE_TICK, start, end);
}

__attribute__((noinline)) static void tick_end_other(uintptr_t key, uint64_t start)
{
	if (!sp_on_graphics_thread())
		return sp_stream_tick_end(key, start);
	tick_end_slow(key, start, stamp());
}

/* The duration of a fast path, or false when it saturates (the slow path
 * counts that): every test before anything is stored, so that the fast
 * paths are leaves whose only calls are tail calls. */
static inline bool fast_dur(uint64_t start, uint64_t end, uint32_t *dur)
{
	uint64_t d = end - start;
	*dur = (uint32_t)((d * sp_core.mult) >> 32);
	return d <= sp_core.fast_ticks;
}

/* The common case straight through: TSC stamps, no trace, the hinted
 * entry's first tick this frame, its last frame collected. */
void source_profiler_source_tick_end(const void *source, uint64_t start)
{
	uintptr_t key = (uintptr_t)source;
	uint8_t path = SP_LOAD(sp_core.tick_path);
	if (SP_UNLIKELY(path != SP_PATH_FAST)) {
		if (path == SP_PATH_OFF)
			return;
		return tick_end_other(key, start);
	}
	if (SP_UNLIKELY(!sp_on_graphics_thread()))
		return sp_stream_tick_end(key, start);
	uint64_t end = stamp_tsc();
	sp_entry *e = sp_core.tick_next;
	sp_frame_acc *a = &e->acc[sp_core.slot];
	uint32_t dur;
	if (SP_UNLIKELY(bad_key(key) || bad_stamps(start, end) || SP_LOAD(e->key) != key ||
			a->frame == (uint32_t)sp_core.frame || (a->rendered && !a->collected) ||
			!fast_dur(start, end, &dur)))
		return tick_end_slow(key, start, end);
	sp_core.tick_link = &e->next_tick;
	sp_entry *n = e->next_tick;
	sp_core.tick_next = n;
	sp_prefetch(n);
	a->frame = (uint32_t)sp_core.frame;
	a->tick_ns = dur;
	a->first_timer = SP_NO_ENTRY;
	a->rendered = a->has_async_ts = a->collected = a->gpu_missing = 0;
}

/* render_begin while profiling, but not on the fast path: a GPU-timed
 * frame, another clock, a trace. */
__attribute__((noinline)) static uint64_t render_begin_slow(sp_gpu_timer **timer)
{
	if (!sp_on_graphics_thread())
		return sp_stream_render_begin(timer);
	if (timer) {
		*timer = NULL;
		sp_core.timer_asks++;
		if (sp_core.gpu_frame)
			*timer = sp_gpu_timer_begin(sp_core.slot, sp_core.pass & 0xffu);
	}
	return stamp();
}

/* The common case of a GPU-timed frame: a timer, then the TSC stamp. */
__attribute__((noinline)) static uint64_t render_begin_timed(sp_gpu_timer **timer)
{
	if (!sp_on_graphics_thread())
		return sp_stream_render_begin(timer);
	sp_core.timer_asks++;
	*timer = sp_gpu_timer_begin(sp_core.slot, sp_core.pass & 0xffu);
	return stamp_tsc();
}

uint64_t source_profiler_source_render_begin(sp_gpu_timer **timer)
{
	uint8_t path = SP_LOAD(sp_core.render_path);
	if (SP_UNLIKELY(path != SP_PATH_FAST)) {
		if (path == SP_PATH_TIMED && timer)
			return render_begin_timed(timer);
		if (path != SP_PATH_OFF)
			return render_begin_slow(timer);
		if (timer)
			*timer = NULL;
		return 0;
	}
	if (timer) {
		if (SP_UNLIKELY(!sp_on_graphics_thread()))
			return sp_stream_render_begin(timer);
		*timer = NULL;
		sp_core.timer_asks++;
	}
	return stamp_tsc();
}

/* Local column of the current pass in `e`. */
static inline uint32_t pass_column(sp_entry *e)
{
	return sp_pass_column_of(e, sp_core.pass, &sp_core.pass_column);
}

/* The render's CPU time into the pass sum of its frame; the frame's
 * accumulator (or NULL when the render is to be ignored). */
static inline __attribute__((always_inline)) sp_frame_acc *
record_render(sp_entry *e, uint64_t start, uint64_t end, bool timed, uint32_t *column)
{
	link_render(e);
	/* Its header and acc, and its pass sums when they are inline. */
	sp_prefetch(sp_core.render_next);
	sp_prefetch(sp_core.render_next->inline_passes);
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = &e->acc[slot];
	if (SP_UNLIKELY(a->frame != (uint32_t)sp_core.frame)) {
		sp_ignored(); /* not ticked this frame */
		return NULL;
	}
	uint32_t k = pass_column(e);
	if (SP_UNLIKELY(k == SP_NO_ENTRY))
		return NULL;
	uint32_t dur = sp_stamp_dur(start, end);
	if (!a->rendered) {
		a->render_first_ns = dur;
		a->first_begun = sp_stamp_since_frame(start);
		a->rendered = 1;
	}
	/* Not sampled in a GPU-timed frame: no GPU sample this frame. */
	if (!timed && sp_core.gpu_frame)
		a->gpu_missing = 1;
	uint32_t *cell = &atomic_load_explicit(&e->passes, memory_order_relaxed)[k].cpu_ns[slot];
	*cell = sp_add_sat(*cell, dur);
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
		sp_ignored();
		return;
	}
	sp_entry *e = sp_core.render_next;
	if (SP_LOAD(e->key) != key && !(e = lookup_slow(key, false))) {
		sp_ignored(); /* never ticked */
		return;
	}
	bool first = !e->acc[sp_core.slot].rendered;
	uint32_t k;
	sp_frame_acc *a = record_render(e, start, end, timer != NULL, &k);
	if (a && timer) {
		timer->pass = (uint8_t)sp_core.pass;
		timer->pass_local = (uint8_t)k;
		timer->first = first;
		timer->next = a->first_timer;
		a->first_timer = timer_index;
	}
}

/* Ends the render's GPU timer (a bad pointer, or one begun in another
 * command buffer, is ignored and counted). */
static inline uint32_t end_timer(sp_gpu_timer **timer)
{
	uint32_t timer_index = sp_gpu_timer_end(sp_core.slot, *timer);
	if (timer_index == SP_NO_ENTRY) {
		sp_streams_misplaced();
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
	if (!sp_on_graphics_thread())
		return sp_stream_render_end(key, start, timer);
	render_end_slow(key, start, stamp(), timer);
}

/* The common case of a GPU-timed frame: a render with its timer, TSC
 * stamps, no trace, the hinted entry and column (as the fast path). */
__attribute__((noinline)) static void render_end_timed(uintptr_t key, uint64_t start,
						       sp_gpu_timer *timer)
{
	if (!sp_on_graphics_thread())
		return sp_stream_render_end(key, start, timer);
	uint64_t end = stamp_tsc();
	uint32_t timer_index = end_timer(&timer);
	sp_entry *e = sp_core.render_next;
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t k = sp_core.pass_column;
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t dur, sum;
	if (SP_UNLIKELY(!timer || bad_key(key) || bad_stamps(start, end) ||
			SP_LOAD(e->key) != key || a->frame != (uint32_t)sp_core.frame ||
			k >= SP_LOAD(e->n_passes) || SP_LOAD(ps[k].pass) != sp_core.pass ||
			!fast_dur(start, end, &dur) ||
			__builtin_add_overflow(ps[k].cpu_ns[slot], dur, &sum)))
		return render_end_ended(key, start, end, timer, timer_index);
	sp_core.render_link = &e->next_render;
	sp_entry *n = e->next_render;
	sp_core.render_next = n;
	sp_prefetch(n);
	sp_prefetch(n->inline_passes);
	bool first = !a->rendered;
	if (first) {
		a->render_first_ns = dur;
		a->first_begun = sp_stamp_since_frame(start);
		a->rendered = 1;
	}
	ps[k].cpu_ns[slot] = sum;
	timer->pass = (uint8_t)sp_core.pass;
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
	uint8_t path = SP_LOAD(sp_core.render_path);
	if (SP_UNLIKELY(path != SP_PATH_FAST)) {
		if (path == SP_PATH_OFF)
			return;
		if (timer && path == SP_PATH_TIMED)
			return render_end_timed(key, start, timer);
		return render_end_other(key, start, timer);
	}
	if (SP_UNLIKELY(timer))
		return render_end_timed(key, start, timer); /* ends it: not this frame's */
	if (SP_UNLIKELY(!sp_on_graphics_thread()))
		return sp_stream_render_end(key, start, NULL);
	uint64_t end = stamp_tsc();
	sp_entry *e = sp_core.render_next;
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t k = sp_core.pass_column;
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t dur, sum;
	if (SP_UNLIKELY(bad_key(key) || bad_stamps(start, end) || SP_LOAD(e->key) != key ||
			a->frame != (uint32_t)sp_core.frame || k >= SP_LOAD(e->n_passes) ||
			SP_LOAD(ps[k].pass) != sp_core.pass || !fast_dur(start, end, &dur) ||
			__builtin_add_overflow(ps[k].cpu_ns[slot], dur, &sum)))
		return render_end_slow(key, start, end, NULL);
	sp_core.render_link = &e->next_render;
	sp_entry *n = e->next_render;
	sp_core.render_next = n;
	sp_prefetch(n);
	sp_prefetch(n->inline_passes);
	if (!a->rendered) {
		a->render_first_ns = dur;
		a->first_begun = sp_stamp_since_frame(start);
		a->rendered = 1;
	}
	ps[k].cpu_ns[slot] = sum;
}

