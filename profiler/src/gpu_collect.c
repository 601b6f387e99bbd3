/* A frame's GPU results, read back without waiting at collect, and the
 * checks that decide whether they can be trusted (disjoint frames:
 * docs/gpu-timing.md): the frame as a whole on the first queue (its range,
 * its order), each timer on its own where it was written into a command
 * buffer the renderer named, so that a command buffer submitted late or
 * never costs only its own renders their samples. */
#include "sp_clock.h"
#include "sp_gpu_state.h"
#include "sp_profiler.h"
#include "sp_trace.h"
#include "sp_util.h"

#include <string.h>

enum reason { R_NONE, R_BACKEND, R_ORDER, R_RANGE, R_LONG, R_UNAVAILABLE, R_OVERFLOW };

static const char *const reason_text[] = {
	"", "reported by the device", "a timer ends before it begins",
	"a timer lies outside its frame",
	"a timer lasts over 4.29 s: the GPU waited on the CPU inside it, or stamps of another clock",
	"results not available at collect", "more renders than GPU timers"};

static void drop(enum reason r, _Atomic uint64_t *counter)
{
	sp_count_add(&sp_count.gpu_frames_disjoint, 1);
	sp_count_add(counter, 1);
	uint64_t now = sp_now();
	if (sp_gpu.last_warn_ns && now - sp_gpu.last_warn_ns < 1000000000ull) {
		sp_gpu.suppressed++;
		return;
	}
	/* A pool too small for a frame grows for the next (said as it
	 * grows): a start-up event, such as threads beginning to record, not
	 * a fault. */
	int level = r == R_OVERFLOW ? SOURCE_PROFILER_LOG_INFO : SOURCE_PROFILER_LOG_WARNING;
	if (sp_gpu.suppressed)
		sp_log(level,
		       "GPU timers were disjoint, discarding samples (%s; %llu more frames since "
		       "the last warning)",
		       reason_text[r], (unsigned long long)sp_gpu.suppressed);
	else
		sp_log(level, "GPU timers were disjoint, discarding samples (%s)", reason_text[r]);
	sp_gpu.last_warn_ns = now ? now : 1;
	sp_gpu.suppressed = 0;
}

/* The timers of a slot, in order: the graphics thread's, then each chunk
 * recording threads took (each up to what its owner published). */
typedef struct timer_iter {
	const sp_gpu_slot *s;
	uint32_t i, end, chunk, chunks;
} timer_iter;

static timer_iter iter_start(const sp_gpu_slot *s)
{
	uint32_t taken = atomic_load_explicit(&s->chunk_next, memory_order_relaxed);
	return (timer_iter){.s = s, .i = 0, .end = s->used, .chunk = 0,
			    .chunks = taken < s->chunks ? taken : s->chunks};
}

static bool iter_next(timer_iter *it, uint32_t *i)
{
	while (it->i >= it->end) {
		if (it->chunk >= it->chunks)
			return false;
		const sp_gpu_chunk *c = &it->s->chunk[it->chunk];
		uint32_t used = atomic_load_explicit(&c->used, memory_order_acquire);
		it->i = it->s->direct_cap + it->chunk * SP_TIMER_CHUNK;
		it->end = it->i + (used < SP_TIMER_CHUNK ? used : SP_TIMER_CHUNK);
		it->chunk++;
	}
	*i = it->i++;
	return true;
}

/* Stamps to read: up to the last timer handed out. */
static uint32_t stamps_used(const sp_gpu_slot *s)
{
	uint32_t top = s->used;
	timer_iter it = iter_start(s);
	uint32_t i;
	while (iter_next(&it, &i))
		if (i + 1 > top)
			top = i + 1;
	return 2u + 2u * top;
}

/* Reads a queue's slot into q->ns; each stamp's availability in q->avail
 * where the backend reads them one by one (all 1 otherwise). */
static sp_gpu_read read_slot(sp_gpu_queue *q, unsigned slot, uint32_t count)
{
	if (q->b.read_each) {
		memset(q->avail, 0, count);
		return q->b.read_each(q->b.user, slot, count, q->ns, q->avail);
	}
	sp_gpu_read r = q->b.read(q->b.user, slot, count, q->ns);
	memset(q->avail, r == SP_GPU_READ_OK, count);
	return r;
}

/* The work counters of a queue's slot, when its frame counted them: into
 * q->work, exported in out where the backend read them. */
static void read_work(sp_gpu_queue *q, const sp_gpu_slot *s, unsigned slot, uint32_t qi,
		      sp_gpu_frame *out)
{
	uint32_t n = (stamps_used(s) - 2) / 2;
	if (n > q->work_cap) {
		uint64_t *v = sp_alloc((size_t)n * SOURCE_PROFILER_COUNTERS * sizeof *v);
		uint8_t *avail = sp_alloc(n);
		if (!v || !avail) {
			sp_free(v, (size_t)n * SOURCE_PROFILER_COUNTERS * sizeof *v);
			sp_free(avail, n);
			return;
		}
		sp_free(q->work, (size_t)q->work_cap * SOURCE_PROFILER_COUNTERS * sizeof *q->work);
		sp_free(q->work_avail, q->work_cap);
		q->work = v;
		q->work_avail = avail;
		q->work_cap = n;
	}
	memset(q->work_avail, 0, n);
	if (q->b.read_work(q->b.user, slot, n, q->work, q->work_avail) != SP_GPU_READ_OK)
		return;
	out->work[qi] = q->work;
	out->work_avail[qi] = q->work_avail;
}

/* Marks the timers that cannot be used on their own (a stamp not
 * available, out of order, or longer than 32 bits of ns) and counts them;
 * returns how many. The frame-level checks come first, for the first
 * queue's own command buffer. */
static uint32_t mark_unusable(sp_gpu_queue *q, sp_gpu_slot *s)
{
	uint32_t bad = 0, i;
	timer_iter it = iter_start(s);
	while (iter_next(&it, &i)) {
		sp_gpu_timer *t = &s->timers[i];
		if (t->state != SP_TIMER_ENDED && t->state != SP_TIMER_EMPTY &&
		    t->state != SP_TIMER_EMPTY_LATER)
			continue;
		uint64_t b = q->ns[2 + 2 * i], e = q->ns[3 + 2 * i];
		if (!q->avail[2 + 2 * i] || !q->avail[3 + 2 * i] || e < b || e - b > UINT32_MAX) {
			t->state = SP_TIMER_UNUSABLE;
			bad++;
		}
	}
	return bad;
}

/* The first queue's frame as a whole: its range and the timers written
 * into the backend's own command buffer (not named by the renderer). */
static enum reason check_frame(const sp_gpu_queue *q, const sp_gpu_slot *s)
{
	const uint64_t *ns = q->ns;
	if (!q->avail[0] || !q->avail[1])
		return R_UNAVAILABLE;
	uint64_t fb = ns[0], fe = ns[1];
	if (fe < fb)
		return R_ORDER;
	enum reason r = R_NONE;
	for (uint32_t i = 0; i < s->used; i++) {
		const sp_gpu_timer *t = &s->timers[i];
		if (t->named)
			continue;
		if (!q->avail[2 + 2 * i] || !q->avail[3 + 2 * i])
			return R_UNAVAILABLE;
		uint64_t b = ns[2 + 2 * i], e = ns[3 + 2 * i];
		if (e < b)
			return R_ORDER;
		if (b < fb || e > fe)
			r = R_RANGE;
		/* No render costs that much: 32-bit ns would saturate and a
		 * maximum of 4,294.967 ms would stand for a minute. */
		else if (e - b > UINT32_MAX && r == R_NONE)
			r = R_LONG;
	}
	return r;
}

/* A queue's frame is read; its recording threads' demand kept for the next
 * reserve, its overflow grows the pool. Returns true when the graphics
 * thread's timers overflowed (the frame's samples go); renders of
 * recording threads that found none lose only their own sources' samples
 * (their records carry no timer), counted and said once. */
static bool account(sp_gpu_queue *q, const sp_gpu_slot *s)
{
	uint32_t taken = atomic_load_explicit(&s->chunk_next, memory_order_relaxed);
	uint32_t denied = atomic_load_explicit(&s->stream_denied, memory_order_relaxed);
	q->stream_last = (taken < s->chunks ? taken : s->chunks) * SP_TIMER_CHUNK;
	if (denied) {
		uint32_t need = (s->chunks + 1) * 2 * SP_TIMER_CHUNK;
		if (need > q->want_stream)
			q->want_stream = need;
		q->grown = true;
		sp_count_add(&sp_count.gpu_timers_denied, denied);
		if (!sp_gpu.said_denied)
			sp_log(SOURCE_PROFILER_LOG_INFO,
			       "%u renders on recording threads found no GPU timer left in their "
			       "frame (threads new to it): their sources have no GPU sample for it, "
			       "and the pool grows (gpu_timers_denied; said once)",
			       denied);
		sp_gpu.said_denied = true;
	}
	if (s->overflow) {
		uint32_t need = s->used + s->denied;
		if (need + need / 2 > q->want_direct)
			q->want_direct = need + need / 2;
		q->grown = true;
	}
	return s->overflow;
}

/* Which reason's counter. */
static _Atomic uint64_t *reason_counter(enum reason r)
{
	switch (r) {
	case R_BACKEND:
		return &sp_count.disjoint_backend;
	case R_ORDER:
		return &sp_count.disjoint_order;
	case R_RANGE:
	case R_LONG:
		return &sp_count.disjoint_range;
	case R_UNAVAILABLE:
		return &sp_count.disjoint_unavailable;
	default:
		return &sp_count.disjoint_overflow;
	}
}

/* The empty timers of a kept frame, and its GPU frames in a trace. */
static void measured(uint32_t qi, sp_gpu_queue *q, sp_gpu_slot *s, uint64_t frame, bool trace)
{
	uint32_t i;
	uint64_t lo = UINT64_MAX, hi = 0;
	timer_iter it = iter_start(s);
	while (iter_next(&it, &i)) {
		const sp_gpu_timer *t = &s->timers[i];
		uint64_t b = q->ns[2 + 2 * i], e = q->ns[3 + 2 * i];
		if (t->state == SP_TIMER_EMPTY || t->state == SP_TIMER_EMPTY_LATER) {
			sp_gpu_empty_record(t->state == SP_TIMER_EMPTY ? SP_GPU_LEAD : SP_GPU_LATER,
					    t->pass, e - b);
			sp_gpu.empty_last++;
		}
		if (t->state == SP_TIMER_ENDED) {
			lo = b < lo ? b : lo;
			hi = e > hi ? e : hi;
		}
	}
	if (!trace)
		return;
	/* The first queue's frame is its range, widened to the renders of
	 * command buffers submitted after it; another queue's, its renders. */
	if (qi == 0) {
		lo = q->ns[0] < lo ? q->ns[0] : lo;
		hi = q->ns[1] > hi ? q->ns[1] : hi;
	}
	if (lo <= hi)
		sp_trace_gpu_frame(qi, (uint32_t)frame, lo, hi);
}

bool sp_gpu_collect(unsigned slot, uint64_t frame, sp_gpu_frame *out)
{
	sp_gpu_queue *q0 = &sp_gpu.q[0];
	sp_gpu_slot *s0 = &q0->slots[slot];
	if (s0->frame != frame || !s0->on)
		return false;
	bool overflow = false;
	for (uint32_t qi = 0; qi < sp_gpu.n_queues; qi++) {
		sp_gpu_slot *s = &sp_gpu.q[qi].slots[slot];
		if (s->frame == frame && s->on)
			overflow |= account(&sp_gpu.q[qi], s);
	}
	s0->on = false;
	if (!q0->installed || s0->backend_gen != q0->backend_gen) {
		for (uint32_t qi = 1; qi < sp_gpu.n_queues; qi++)
			sp_gpu.q[qi].slots[slot].on = false;
		return false; /* recorded with a backend that is gone */
	}

	enum reason r = R_NONE;
	if (!s0->closed)
		r = R_UNAVAILABLE; /* render_end never wrote the range end */
	else if (overflow)
		r = R_OVERFLOW;
	else if (s0->forced)
		r = R_BACKEND;
	else {
		switch (read_slot(q0, slot, stamps_used(s0))) {
		case SP_GPU_READ_OK:
			r = check_frame(q0, s0);
			break;
		case SP_GPU_READ_NOT_READY:
			r = R_UNAVAILABLE;
			break;
		default:
			r = R_BACKEND;
			break;
		}
	}
	if (r != R_NONE) {
		for (uint32_t qi = 1; qi < sp_gpu.n_queues; qi++)
			sp_gpu.q[qi].slots[slot].on = false;
		drop(r, reason_counter(r));
		return false;
	}

	/* The frame stands; each timer of a named command buffer, and each of
	 * the other queues', on its own. */
	bool trace = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	uint32_t unusable = 0;
	sp_gpu.empty_last = 0;
	sp_gpu_range_record(q0->ns[1] - q0->ns[0]);
	memset(out, 0, sizeof *out);
	for (uint32_t qi = 0; qi < sp_gpu.n_queues; qi++) {
		sp_gpu_queue *q = &sp_gpu.q[qi];
		sp_gpu_slot *s = &q->slots[slot];
		if (qi && (s->frame != frame || !s->on))
			continue;
		s->on = false;
		if (qi) {
			if (!q->installed || s->backend_gen != q->backend_gen)
				continue;
			if (read_slot(q, slot, stamps_used(s)) != SP_GPU_READ_OK)
				memset(q->avail, 0, stamps_used(s));
		}
		unusable += mark_unusable(q, s);
		out->timers[qi] = s->timers;
		out->ns[qi] = q->ns;
		if (s->work)
			read_work(q, s, slot, qi, out);
		measured(qi, q, s, frame, trace);
	}
	if (unusable) {
		sp_count_add(&sp_count.gpu_timers_unavailable, unusable);
		if (!sp_gpu.said_unavailable)
			sp_log(SOURCE_PROFILER_LOG_WARNING,
			       "GPU results of %u timers were not there when frame %llu was collected "
			       "(a command buffer submitted late or never, or stamps out of order); "
			       "the sources they timed have no GPU sample for that frame (counted in "
			       "gpu_timers_unavailable; said once)",
			       unusable, (unsigned long long)frame);
		sp_gpu.said_unavailable = true;
	}
	return true;
}
