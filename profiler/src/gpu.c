/* GPU timers: the queues' frame slots and pools, and the timers the
 * graphics thread is handed, one at a time, into the command buffer it
 * names (recording threads take theirs in chunks: gpu_stream.c; the queues
 * and their backends are gpu_queues.c's).
 *
 * A slot's timers are an array sized before the frame and reused every
 * frames-in-flight frames: the graphics thread's from its start, recording
 * threads' chunks after them. A timer's stamps are queries 2 + 2i and
 * 3 + 2i of its queue's slot. When a frame needs more timers than a slot
 * holds, the renders left over get no timer, the frame's GPU samples are
 * dropped (gpu_disjoint_overflow) and the slot grows before its next use:
 * pools never overrun and never grow in the middle of a frame.
 * gpu_collect.c reads the slots back, gpu_empty.c measures empty timers. */
#include "sp_gpu_state.h"
#include "sp_work.h"
#include "sp_state.h"
#include "sp_util.h"

#include <stdio.h>
#include <string.h>

void source_profiler_force_gpu_disjoint(void)
{
	uint64_t frame = sp_core.frame;
	sp_gpu_slot *s = &sp_gpu.q[0].slots[sp_core.slot];
	if (s->frame == frame && s->on && !s->closed)
		s->forced = true;
	else
		sp_gpu.force_pending = true; /* the next frame that opens its range */
}

/* Chunks a slot holds beyond what recording threads took last frame. */
#define SP_CHUNKS_MIN 4u

/* Makes the slot's arrays hold `timers` timers and `chunks` chunks; false
 * (nothing changed) when memory ran out. */
static bool slot_arrays(sp_gpu_queue *q, sp_gpu_slot *s, uint32_t timers, uint32_t chunks)
{
	if (timers > s->timers_cap) {
		sp_gpu_timer *t = sp_alloc(timers * sizeof *t);
		if (!t)
			return false;
		sp_free(s->timers, s->timers_cap * sizeof *s->timers);
		s->timers = t;
		s->timers_cap = timers;
	}
	if (chunks > s->chunk_cap) {
		sp_gpu_chunk *c = sp_alloc(chunks * sizeof *c);
		if (!c)
			return false;
		sp_free(s->chunk, s->chunk_cap * sizeof *s->chunk);
		s->chunk = c;
		s->chunk_cap = chunks;
	}
	if (2u + 2u * timers > q->ns_cap) {
		uint32_t n = 2u + 2u * timers;
		uint64_t *ns = sp_alloc(n * sizeof *ns);
		uint8_t *avail = sp_alloc(n);
		if (!ns || !avail) {
			sp_free(ns, n * sizeof *ns);
			sp_free(avail, n);
			return false;
		}
		sp_free(q->ns, q->ns_cap * sizeof *q->ns);
		sp_free(q->avail, q->ns_cap);
		q->ns = ns;
		q->avail = avail;
		q->ns_cap = n;
	}
	return true;
}

/* Makes the slot hold `direct` timers for the graphics thread and `chunks`
 * chunks for recording threads; false when nothing could be reserved. */
static bool reserve(sp_gpu_queue *q, uint32_t qi, unsigned slot, uint32_t direct, uint32_t chunks)
{
	sp_gpu_slot *s = &q->slots[slot];
	uint32_t want = direct + chunks * SP_TIMER_CHUNK;
	uint32_t queries = q->b.reserve(q->b.user, slot, 2u + 2u * want);
	uint32_t timers = queries >= 2 ? (queries - 2) / 2 : 0;
	if (timers > want)
		timers = want;
	/* The graphics thread's part first; recording threads get what is
	 * left in whole chunks. */
	uint32_t d = timers < direct ? timers : direct;
	uint32_t c = (timers - d) / SP_TIMER_CHUNK;
	if (!slot_arrays(q, s, timers, c)) {
		/* What the arrays held still stands. */
		timers = s->timers_cap < timers ? s->timers_cap : timers;
		d = timers < direct ? timers : direct;
		c = (timers - d) / SP_TIMER_CHUNK;
		if (c > s->chunk_cap)
			c = s->chunk_cap;
		if (2u + 2u * (d + c * SP_TIMER_CHUNK) > q->ns_cap) {
			d = q->ns_cap >= 2 ? (q->ns_cap - 2) / 2 : 0;
			c = 0;
		}
		timers = d + c * SP_TIMER_CHUNK;
	}
	/* Said when a frame needed more than the estimate (the estimate
	 * itself settles over the first frames, silently). */
	if (s->capacity && timers > s->capacity && q->grown) {
		if (qi)
			sp_log(SOURCE_PROFILER_LOG_INFO,
			       "GPU timer pool of queue %s, frame slot %u, grown to %u timers",
			       q->name, slot, timers);
		else
			sp_log(SOURCE_PROFILER_LOG_INFO,
			       "GPU timer pool of frame slot %u grown to %u timers", slot, timers);
	}
	/* A backend that cannot grow is asked again each timed frame: said
	 * once for each size wanted, when it is refused a second time in a
	 * row, as a backend may grow a slot only at its next frame (Vulkan
	 * without host query reset, which resets the pool in the frame's
	 * commands). */
	if (timers < want && want == s->refused && !s->refusal_said) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "GPU timer pool of frame slot %u holds %u timers, %u wanted", slot, timers,
		       want);
		s->refusal_said = true;
	} else if (timers >= want || want != s->refused) {
		s->refusal_said = false;
	}
	s->refused = timers < want ? want : 0;
	s->capacity = timers;
	s->direct_cap = d;
	s->chunks = c;
	s->backend_gen = q->backend_gen;
	if (timers >= want)
		q->grown = false;
	if (qi == 0)
		sp_gpu_publish_capacity();
	return timers > 0;
}

/* Timers the slot should hold for the graphics thread: two renders per
 * source is the common case (main + preview), and two empty timers for
 * each pass the last timed frame had; more once a frame needed more. And
 * chunks for recording threads: as many as the last timed frame used
 * (half again), more once a frame needed more. */
static uint32_t wanted_direct(const sp_gpu_queue *q, uint32_t qi, uint32_t sources)
{
	uint32_t want = qi ? 16u : 2u * sources + 16u + 2u * sp_gpu.passes_last;
	return q->want_direct > want ? q->want_direct : want;
}

/* Threads that record now (frame_begin says), for the first estimate. */
static uint32_t g_threads;

void sp_gpu_set_threads(uint32_t threads)
{
	g_threads = threads;
}

static uint32_t wanted_chunks(const sp_gpu_queue *q, uint32_t sources)
{
	if (!q->b.write_cmd)
		return 0;
	uint32_t last = q->stream_last / SP_TIMER_CHUNK;
	uint32_t want = last + last / 2 + SP_CHUNKS_MIN;
	/* Before a frame says how many: as many renders as the graphics
	 * thread is sized for, and a chunk more for each thread's passes. */
	uint32_t est = g_threads ? (2u * sources + SP_TIMER_CHUNK - 1) / SP_TIMER_CHUNK +
					   2u * g_threads + SP_CHUNKS_MIN
				 : 0;
	uint32_t asked = (q->want_stream + SP_TIMER_CHUNK - 1) / SP_TIMER_CHUNK;
	want = est > want ? est : want;
	return asked > want ? asked : want;
}

static bool ensure_capacity(sp_gpu_queue *q, uint32_t qi, unsigned slot, uint32_t sources)
{
	sp_gpu_slot *s = &q->slots[slot];
	uint32_t direct = wanted_direct(q, qi, sources), chunks = wanted_chunks(q, sources);
	if (s->direct_cap >= direct && s->chunks >= chunks && s->backend_gen == q->backend_gen)
		return true;
	return reserve(q, qi, slot, direct, chunks);
}

void sp_gpu_prepare(unsigned slot, uint32_t sources)
{
	for (uint32_t qi = 0; qi < sp_gpu.n_queues; qi++)
		if (sp_gpu.q[qi].installed)
			ensure_capacity(&sp_gpu.q[qi], qi, slot, sources);
}

void sp_gpu_frame_begin(unsigned slot, uint64_t frame, bool gpu_on, uint32_t sources)
{
	if (sp_gpu.places.done)
		sp_gpu.passes_last = (uint32_t)__builtin_popcountll(sp_gpu.places.done);
	sp_gpu_places_reset(&sp_gpu.places);
	for (uint32_t qi = 0; qi < sp_gpu.n_queues; qi++) {
		sp_gpu_queue *q = &sp_gpu.q[qi];
		sp_gpu_slot *s = &q->slots[slot];
		s->frame = frame;
		s->on = s->closed = s->overflow = s->forced = s->work = false;
		s->used = s->open = s->denied = 0;
		atomic_store_explicit(&s->chunk_next, 0, memory_order_relaxed);
		atomic_store_explicit(&s->stream_denied, 0, memory_order_relaxed);
		if (!gpu_on || !q->installed || !ensure_capacity(q, qi, slot, sources))
			continue;
		s->on = true;
		s->work = q->b.work_counters && sp_work_wanted();
		if (qi == 0) {
			/* Asked between frames: this frame's results, the first
			 * timed one's (an untimed frame has none to drop). */
			s->forced = sp_gpu.force_pending;
			sp_gpu.force_pending = false;
			q->b.write(q->b.user, slot, 0, SP_GPU_STAMP_FRAME_BEGIN);
		} else if (q->b.frame_open) {
			q->b.frame_open(q->b.user, slot);
		}
		/* After the backend opened the slot: a recording thread that
		 * sees this sees the slot ready for its stamps. */
		if (q->b.write_cmd && s->chunks)
			atomic_store_explicit(&s->streams_open, true, memory_order_release);
	}
}

void sp_gpu_bind(uint32_t queue, void *cmd)
{
	if (sp_gpu.bound_queue != queue || sp_gpu.bound_cmd != cmd)
		sp_gpu.bound_gen++;
	sp_gpu.bound_queue = queue;
	sp_gpu.bound_cmd = cmd;
	/* A new command buffer: its passes start afresh. */
	sp_gpu_places_reset(&sp_gpu.places);
}

uint32_t sp_gpu_bound_queue(void)
{
	return sp_gpu.bound_queue;
}

/* The graphics thread's next timer, when `need` are left. */
static uint32_t take_direct(void *ctx, uint32_t need)
{
	sp_gpu_slot *s = ctx;
	return s->used + need <= s->direct_cap ? s->used++ : UINT32_MAX;
}

sp_gpu_timer *sp_gpu_timer_begin(unsigned slot, uint32_t pass)
{
	uint32_t qi = sp_gpu.bound_queue;
	sp_gpu_queue *q = &sp_gpu.q[qi];
	sp_gpu_slot *s = &q->slots[slot];
	if (!s->on || s->closed)
		return NULL;
	void *cmd = sp_gpu.bound_cmd;
	bool lead = sp_gpu_empty_before(q, slot, cmd, &sp_gpu.places, pass, s->open != 0,
					take_direct, s);
	if (s->used == s->direct_cap) {
		s->overflow = true;
		s->denied++;
		return NULL;
	}
	uint32_t i = s->used++;
	sp_gpu_timer *t = &s->timers[i];
	*t = (sp_gpu_timer){.next = sp_gpu.bound_gen, .lead = lead,
			    .named = cmd && q->b.write_cmd, .state = SP_TIMER_BEGUN,
			    /* Not nested: one set open at a time in a command buffer. */
			    .work = s->work && !s->open};
	sp_gpu_write(q, slot, cmd, 2u + 2u * i, SP_GPU_STAMP_TIMER_BEGIN);
	if (t->work)
		q->b.work_begin(q->b.user, t->named ? cmd : NULL, slot, i);
	s->open++;
	return t;
}

uint32_t sp_gpu_timer_end(unsigned slot, sp_gpu_timer *t)
{
	uint32_t qi = sp_gpu.bound_queue;
	sp_gpu_queue *q = &sp_gpu.q[qi];
	sp_gpu_slot *s = &q->slots[slot];
	uintptr_t p = (uintptr_t)t, lo = (uintptr_t)s->timers;
	if (!s->on || p < lo || p >= lo + s->used * sizeof *t || (p - lo) % sizeof *t ||
	    t->state != SP_TIMER_BEGUN || t->next != sp_gpu.bound_gen)
		return SP_NO_ENTRY;
	uint32_t i = (uint32_t)((p - lo) / sizeof *t);
	if (t->work)
		q->b.work_end(q->b.user, t->named ? sp_gpu.bound_cmd : NULL, slot, i);
	sp_gpu_write(q, slot, sp_gpu.bound_cmd, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
	t->state = SP_TIMER_ENDED;
	t->next = SP_NO_ENTRY;
	s->open--;
	return sp_timer_id(qi, i);
}

void sp_gpu_frame_end(unsigned slot)
{
	for (uint32_t qi = 0; qi < sp_gpu.n_queues; qi++) {
		sp_gpu_queue *q = &sp_gpu.q[qi];
		sp_gpu_slot *s = &q->slots[slot];
		if (!s->on || s->closed)
			continue;
		atomic_store_explicit(&s->streams_open, false, memory_order_release);
		/* The graphics thread's timers left open: closed where they
		 * began (a command buffer it still names), else left without
		 * an end (unavailable: their renders lose their samples). */
		for (uint32_t i = 0; s->open && i < s->used; i++) {
			sp_gpu_timer *t = &s->timers[i];
			if (t->state != SP_TIMER_BEGUN)
				continue;
			if (!t->named || (t->next == sp_gpu.bound_gen && qi == sp_gpu.bound_queue)) {
				void *cmd = t->named ? sp_gpu.bound_cmd : NULL;
				if (t->work)
					q->b.work_end(q->b.user, cmd, slot, i);
				sp_gpu_write(q, slot, cmd, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
			}
			t->state = SP_TIMER_ORPHAN;
			s->open--;
		}
		if (qi == 0)
			q->b.write(q->b.user, slot, 1, SP_GPU_STAMP_FRAME_END);
		s->closed = true;
	}
}

/* --- reset, shutdown ------------------------------------------------------- */

void sp_gpu_reset_slots(void)
{
	for (uint32_t qi = 0; qi < SP_MAX_QUEUES; qi++)
		for (unsigned i = 0; i < SP_MAX_FIF; i++) {
			sp_gpu.q[qi].slots[i].on = false;
			atomic_store(&sp_gpu.q[qi].slots[i].streams_open, false);
		}
	sp_gpu.force_pending = false;
	sp_gpu.passes_last = 0;
	sp_gpu_empty_reset();
	sp_gpu_range_reset();
}

