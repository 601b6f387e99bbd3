/* The recording streams' merge (graphics thread): at render_begin and
 * frame_collect, what every stream published goes into the entries as if
 * the calls had been the graphics thread's (stream.c says how); chunks
 * merged go back to their stream. And the streams' lifecycle and counters:
 * forgetting entries, shutdown, get_stats' figures. */
#include "sp_clock.h"
#include "sp_record.h"
#include "sp_stream_state.h"
#include "sp_table.h"
#include "sp_trace.h"
#include "sp_window.h"

#include <string.h>

/* The entry of a stream's idx-th record of the frame: the hint from its
 * last frame when the key matches, else the table (and a new entry for a
 * tick). */
static sp_entry *lookup(sp_stream *s, uint32_t idx, uintptr_t key, bool create)
{
	if (idx < s->hints_cap) {
		uint32_t h = s->hints[idx];
		if (h < SP_LOAD(sp_core.high_water)) {
			sp_entry *e = sp_entry_fast(h);
			if (SP_LOAD(e->key) == key)
				return e;
		}
	}
	uint32_t id = sp_table_find(key);
	if (id == SP_NO_ENTRY && create)
		id = sp_entry_create(key);
	if (id == SP_NO_ENTRY)
		return NULL;
	if (idx >= s->hints_cap) {
		uint32_t cap = s->hints_cap ? s->hints_cap : 256;
		while (cap <= idx)
			cap *= 2;
		uint32_t *h = sp_alloc(cap * sizeof *h);
		if (h) {
			memset(h, 0xff, cap * sizeof *h);
			if (s->hints_cap)
				memcpy(h, s->hints, s->hints_cap * sizeof *h);
			sp_free(s->hints, s->hints_cap * sizeof *s->hints);
			s->hints = h;
			s->hints_cap = cap;
		}
	}
	if (idx < s->hints_cap)
		s->hints[idx] = id;
	return sp_entry_fast(id);
}

static void trace_record(sp_stream *s, const sp_entry *e, int kind, uint32_t pass,
			 const sp_rec *r)
{
	if (atomic_load_explicit(&s->trace_id, memory_order_relaxed) != sp_trace_capture_id())
		return;
	sp_trace_cpu_on((uint16_t)atomic_load_explicit(&s->trace_track, memory_order_relaxed), e,
			kind, pass, sp_stamp_time(r->start), sp_stamp_time(r->end),
			(uint32_t)sp_core.frame);
}

static void merge_tick(sp_stream *s, const sp_rec *r, uint32_t idx)
{
	if (SP_UNLIKELY(!r->key || r->key == UINTPTR_MAX || r->start - 1 >= r->end)) {
		sp_ignored();
		return;
	}
	sp_entry *e = lookup(s, idx, r->key, true);
	if (!e)
		return;
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = &e->acc[slot];
	uint32_t dur = sp_stamp_dur(r->start, r->end);
	if (a->frame != (uint32_t)sp_core.frame) {
		if (SP_UNLIKELY(!a->collected && a->rendered))
			sp_clear_pass_sums(e, slot);
		*a = (sp_frame_acc){.frame = (uint32_t)sp_core.frame, .tick_ns = dur,
				    .first_timer = SP_NO_ENTRY};
	} else {
		a->tick_ns = sp_add_sat(a->tick_ns, dur); /* more ticks add up */
	}
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)))
		trace_record(s, e, SP_TRACE_TICK, 0, r);
}

/* The source's first render of the frame is the one that began first, on
 * whichever thread: a render merged now that began before the one held
 * takes its place, on the CPU and on the GPU. */
static void clear_first(const sp_frame_acc *a, unsigned slot)
{
	for (uint32_t i = a->first_timer; i != SP_NO_ENTRY;) {
		sp_gpu_timer *t = sp_gpu_timer_at(slot, i);
		t->first = 0;
		i = t->next;
	}
}

static void merge_render(sp_stream *s, const sp_rec *r, uint32_t idx)
{
	if (r->asked)
		s->asks++;
	if (SP_UNLIKELY(!r->key || r->key == UINTPTR_MAX || r->start - 1 >= r->end)) {
		sp_ignored();
		return;
	}
	sp_entry *e = lookup(s, idx, r->key, false);
	unsigned slot = sp_core.slot;
	sp_frame_acc *a = e ? &e->acc[slot] : NULL;
	if (!a || a->frame != (uint32_t)sp_core.frame) {
		sp_ignored(); /* never ticked, or not in this frame */
		return;
	}
	uint32_t k = sp_pass_column_of(e, r->pass, &s->col_hint);
	if (SP_UNLIKELY(k == SP_NO_ENTRY))
		return;
	uint32_t dur = sp_stamp_dur(r->start, r->end);
	uint32_t begun = sp_stamp_since_frame(r->start);
	bool first = !a->rendered || begun < a->first_begun;
	if (first) {
		if (a->rendered)
			clear_first(a, slot);
		a->render_first_ns = dur;
		a->first_begun = begun;
		a->rendered = 1;
	}
	/* No timer in a GPU-timed frame: no GPU sample this frame. */
	if (r->timer == SP_NO_ENTRY && sp_core.gpu_frame)
		a->gpu_missing = 1;
	uint32_t *cell = &atomic_load_explicit(&e->passes, memory_order_relaxed)[k].cpu_ns[slot];
	*cell = sp_add_sat(*cell, dur);
	if (r->timer != SP_NO_ENTRY) {
		sp_gpu_timer *t = sp_gpu_timer_at(slot, r->timer);
		t->pass = (uint8_t)(r->pass & 0xffu);
		t->pass_local = (uint8_t)k;
		t->first = first;
		t->next = a->first_timer;
		a->first_timer = r->timer;
	}
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed)))
		trace_record(s, e, SP_TRACE_RENDER, r->pass & 0xffu, r);
}

#define MERGE_AHEAD 6u

/* The lines of an entry the merge touches: its key, its accumulators,
 * and in phase 2 its inline passes. */
static inline void prefetch_entry(const sp_entry *e, int phase)
{
	sp_prefetch(e);
	sp_prefetch(&e->acc[0]);
	if (phase == 2)
		sp_prefetch(e->inline_passes);
}

/* Merges the records from *at up to `limit` (or, without one, to what is
 * published now, *at left there): ticks in phase 1, renders in phase 2. */
static void walk(sp_stream *s, cursor *at, const cursor *limit, int phase)
{
	for (;;) {
		sp_chunk *c = at->c;
		uint32_t count = limit && limit->c == c
					 ? limit->i
					 : atomic_load_explicit(&c->count, memory_order_acquire);
		for (; at->i < count; at->i++) {
			const sp_rec *r = &c->rec[at->i];
			/* The entry a few records ahead: entries are hundreds of
			 * bytes apart, beyond the hardware prefetcher. */
			if (phase && at->index + MERGE_AHEAD < s->hints_cap) {
				uint32_t h = s->hints[at->index + MERGE_AHEAD];
				if (h < SP_LOAD(sp_core.high_water))
					prefetch_entry(sp_entry_fast(h), phase);
			}
			if (r->kind == REC_FRAME) {
				at->frame = (uint64_t)r->key;
				at->index = 0;
				continue;
			}
			uint32_t idx = at->index++;
			if (at->frame != sp_core.frame) {
				if (phase == 1) {
					atomic_fetch_add_explicit(&sp_streams.late, 1, memory_order_relaxed);
					sp_say_once(&sp_streams.said_late,
						 "ticks or renders of a frame already collected were "
						 "dropped (a thread recorded after its frame's "
						 "frame_collect; records_late; said once)");
				}
				continue;
			}
			if (phase == 1 && r->kind == REC_TICK)
				merge_tick(s, r, idx);
			else if (phase == 2 && r->kind == REC_RENDER)
				merge_render(s, r, idx);
		}
		if ((limit && limit->c == c) || count < CHUNK_RECS)
			return;
		sp_chunk *next = atomic_load_explicit(&c->next, memory_order_acquire);
		if (!next)
			return;
		at->c = next;
		at->i = 0;
	}
}

/* Gives the chunks the merge left behind back to their stream. */
static void give_back(sp_stream *s, sp_chunk *from, const sp_chunk *to)
{
	while (from != to) {
		sp_chunk *next = atomic_load_explicit(&from->next, memory_order_relaxed);
		sp_chunk *head = atomic_load_explicit(&s->returned, memory_order_relaxed);
		do
			from->free_next = head;
		while (!atomic_compare_exchange_weak_explicit(&s->returned, &head, from,
							      memory_order_release,
							      memory_order_relaxed));
		from = next;
	}
}

void sp_streams_merge(bool final)
{
	uint32_t n = atomic_load_explicit(&sp_streams.n, memory_order_acquire);
	if (!n)
		return;
	uint32_t asks = 0;
	/* Ticks of every stream up to what each published now, then renders
	 * up to the same point. */
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&sp_streams.streams[i], memory_order_acquire);
		sp_streams.ends[i] = s->read;
		if (atomic_load_explicit(&s->state, memory_order_acquire) != STREAM_FREE)
			walk(s, &sp_streams.ends[i], NULL, 1);
	}
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&sp_streams.streams[i], memory_order_acquire);
		int state = atomic_load_explicit(&s->state, memory_order_acquire);
		if (state == STREAM_FREE)
			continue;
		cursor at = s->read;
		walk(s, &at, &sp_streams.ends[i], 2);
		give_back(s, s->read.c, sp_streams.ends[i].c);
		s->read = sp_streams.ends[i];
		asks += s->asks;
		s->asks = 0;
		/* A thread gone, its records merged: the stream is free for the
		 * next thread (its chunks with it). */
		if (final && state == STREAM_DEAD) {
			cursor rest = s->read;
			walk(s, &rest, NULL, 0);
			if (rest.c == s->read.c && rest.i == s->read.i)
				atomic_store_explicit(&s->state, STREAM_FREE, memory_order_release);
		}
	}
	sp_core.timer_asks += asks;
}

void sp_streams_forget_entries(void)
{
	uint32_t n = atomic_load_explicit(&sp_streams.n, memory_order_acquire);
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&sp_streams.streams[i], memory_order_relaxed);
		if (s->hints)
			memset(s->hints, 0xff, s->hints_cap * sizeof *s->hints);
	}
}

void sp_streams_shutdown(void)
{
	pthread_mutex_lock(&sp_streams.lock);
	uint32_t n = atomic_load(&sp_streams.n);
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load(&sp_streams.streams[i]);
		/* The chain from where the merge stands, the returned list and
		 * the spares: every chunk the stream holds. */
		sp_chunk *c = s->read.c;
		while (c) {
			sp_chunk *next = atomic_load(&c->next);
			sp_free(c, sizeof *c);
			c = next;
		}
		for (c = atomic_load(&s->returned); c;) {
			sp_chunk *next = c->free_next;
			sp_free(c, sizeof *c);
			c = next;
		}
		for (c = s->spare; c;) {
			sp_chunk *next = c->free_next;
			sp_free(c, sizeof *c);
			c = next;
		}
		sp_free(s->hints, s->hints_cap * sizeof *s->hints);
		sp_free(s, sizeof *s);
		atomic_store(&sp_streams.streams[i], NULL);
	}
	atomic_store(&sp_streams.n, 0);
	atomic_store(&sp_streams.live, 0);
	atomic_store(&sp_streams.max, SOURCE_PROFILER_DEFAULT_THREADS);
	/* Threads holding a stream of this epoch join anew. */
	atomic_fetch_add(&sp_streams.epoch, 1);
	pthread_mutex_unlock(&sp_streams.lock);
	sp_streams_reset_counters();
	atomic_store(&sp_streams.said_refused, false);
	atomic_store(&sp_streams.said_late, false);
	atomic_store(&sp_streams.said_dropped, false);
	atomic_store(&sp_streams.said_misplaced, false);
	atomic_store(&sp_streams.said_queue, false);
	atomic_store(&sp_streams.said_backend, false);
	atomic_store(&sp_streams.said_no_cmd, false);
	sp_streams_publish(0, 0, SP_PATH_OFF, false);
}

void sp_streams_reset_counters(void)
{
	atomic_store(&sp_streams.refused, 0);
	atomic_store(&sp_streams.late, 0);
	atomic_store(&sp_streams.dropped, 0);
	atomic_store(&sp_streams.misplaced, 0);
}

uint32_t sp_streams_live(void)
{
	return atomic_load_explicit(&sp_streams.live, memory_order_relaxed);
}

void sp_streams_stats(source_profiler_stats_t *st)
{
	uint32_t n = atomic_load_explicit(&sp_streams.n, memory_order_acquire);
	size_t bytes = 0;
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&sp_streams.streams[i], memory_order_acquire);
		if (s)
			bytes += sizeof *s + (size_t)atomic_load_explicit(&s->chunks,
									   memory_order_relaxed) *
						     sizeof(sp_chunk);
	}
	st->threads = atomic_load_explicit(&sp_streams.live, memory_order_relaxed);
	st->thread_bytes = bytes;
	st->threads_refused = atomic_load_explicit(&sp_streams.refused, memory_order_relaxed);
	st->records_late = atomic_load_explicit(&sp_streams.late, memory_order_relaxed);
	st->records_dropped = atomic_load_explicit(&sp_streams.dropped, memory_order_relaxed);
	st->gpu_timers_misplaced = atomic_load_explicit(&sp_streams.misplaced, memory_order_relaxed);
}
