/* GPU timers: the queues' backends, their frame slots and pools, and the
 * timers handed out - on the graphics thread one at a time, on recording
 * threads in chunks taken with one atomic add each - into the command
 * buffer each thread names.
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
#include "sp_profiler.h"
#include "sp_util.h"

#include <stdio.h>
#include <string.h>

sp_gpu_state sp_gpu;
_Atomic uint32_t sp_gpu_capacity_pub;
static _Atomic(const char *) g_mode = "none";
static _Atomic bool g_costly_pub;
/* Queue names for any thread (reports, traces); written under no lock
 * before the queue is installed, cleared after it is removed. */
static _Atomic(const char *) g_queue_name[SP_MAX_QUEUES];
/* And for recording threads: whether its backend stamps named command
 * buffers; and its mode, for traces. */
static _Atomic bool g_queue_cmds[SP_MAX_QUEUES];
static _Atomic(const char *) g_queue_mode[SP_MAX_QUEUES];

/* Recording threads begin timers only for a backend that stamps named
 * command buffers; said once per stream otherwise. */
#define SP_CHUNKS_MIN 4u

const char *sp_gpu_mode(void)
{
	return atomic_load_explicit(&g_mode, memory_order_acquire);
}

bool sp_gpu_has_backend(void)
{
	return sp_gpu.q[0].installed;
}

bool sp_gpu_costly(void)
{
	return sp_gpu.q[0].installed && sp_gpu.q[0].b.costly;
}

bool sp_gpu_costly_pub(void)
{
	return atomic_load_explicit(&g_costly_pub, memory_order_relaxed);
}

int64_t sp_gpu_cpu_offset(uint32_t queue)
{
	const sp_gpu_queue *q = queue < SP_MAX_QUEUES ? &sp_gpu.q[queue] : NULL;
	return q && q->installed && q->b.cpu_offset_ns ? q->b.cpu_offset_ns(q->b.user) : 0;
}

bool sp_gpu_subtracts(uint32_t queue)
{
	return queue < SP_MAX_QUEUES && sp_gpu.q[queue].installed &&
	       sp_gpu.q[queue].b.subtract_empty_timer;
}

bool sp_gpu_queue_stamps_cmds(uint32_t queue)
{
	return queue < SP_MAX_QUEUES &&
	       atomic_load_explicit(&g_queue_cmds[queue], memory_order_relaxed);
}

const char *sp_gpu_queue_mode(uint32_t queue)
{
	const char *m = queue < SP_MAX_QUEUES
				? atomic_load_explicit(&g_queue_mode[queue], memory_order_acquire)
				: NULL;
	return m ? m : "none";
}

static void publish_capacity(void)
{
	uint32_t cap = UINT32_MAX;
	for (unsigned i = 0; i < sp_fif; i++)
		if (sp_gpu.q[0].slots[i].capacity < cap)
			cap = sp_gpu.q[0].slots[i].capacity;
	atomic_store(&sp_gpu_capacity_pub, cap == UINT32_MAX ? 0 : cap);
}

/* What a queue's last backend measured says nothing of this one's: its
 * renders would have the old figures subtracted for dozens of frames. */
static void install(uint32_t qi, const sp_gpu_timer_backend *backend)
{
	sp_gpu_queue *q = &sp_gpu.q[qi];
	q->installed = backend && backend->reserve && backend->write && backend->read;
	if (q->installed)
		q->b = *backend;
	else
		memset(&q->b, 0, sizeof q->b);
	q->measure_empty = q->b.subtract_empty_timer || q->b.costly;
	/* Work counters need all three functions. */
	if (!q->b.work_begin || !q->b.work_end || !q->b.read_work)
		q->b.work_counters = 0;
	uint32_t counted = 0;
	for (uint32_t i = 0; i < SP_MAX_QUEUES; i++)
		if (sp_gpu.q[i].installed)
			counted |= sp_gpu.q[i].b.work_counters;
	sp_work_set_counted(counted);
	q->backend_gen++;
	for (unsigned i = 0; i < SP_MAX_FIF; i++) {
		q->slots[i].on = false;
		atomic_store(&q->slots[i].streams_open, false);
		q->slots[i].capacity = 0;
		q->slots[i].refused = 0;
		q->slots[i].refusal_said = false;
	}
	q->want_direct = q->want_stream = q->stream_last = 0;
	atomic_store_explicit(&g_queue_cmds[qi], q->installed && q->b.write_cmd,
			      memory_order_relaxed);
	atomic_store_explicit(&g_queue_mode[qi], q->installed && q->b.mode ? q->b.mode : "none",
			      memory_order_release);
}

void source_profiler_set_gpu_backend(const sp_gpu_timer_backend *backend)
{
	install(0, backend);
	sp_gpu_queue *q = &sp_gpu.q[0];
	if (sp_gpu.n_queues < 1)
		sp_gpu.n_queues = 1;
	sp_gpu_empty_backend(q->b.tick_ns, q->measure_empty, q->installed);
	atomic_store_explicit(&g_costly_pub, q->installed && q->b.costly, memory_order_relaxed);
	snprintf(q->name, sizeof q->name, "%s", "graphics");
	atomic_store_explicit(&g_queue_name[0], q->installed ? q->name : NULL,
			      memory_order_release);
	sp_gpu_empty_reset();
	sp_gpu_range_reset();
	atomic_store_explicit(&g_mode, q->installed && q->b.mode ? q->b.mode : "none",
			      memory_order_release);
	publish_capacity();
}

uint32_t source_profiler_add_gpu_queue(const sp_gpu_timer_backend *backend, const char *name)
{
	if (!backend || !backend->reserve || !backend->write || !backend->read) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "add_gpu_queue: the backend needs reserve, write and read; no queue added");
		sp_count_add(&sp_count.ignored_calls, 1);
		return 0;
	}
	uint32_t qi = 1;
	while (qi < SP_MAX_QUEUES && sp_gpu.q[qi].installed)
		qi++;
	if (qi == SP_MAX_QUEUES) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "add_gpu_queue(\"%s\"): %u queues at most; no queue added", name ? name : "",
		       SP_MAX_QUEUES);
		sp_count_add(&sp_count.ignored_calls, 1);
		return 0;
	}
	install(qi, backend);
	sp_gpu_queue *q = &sp_gpu.q[qi];
	snprintf(q->name, sizeof q->name, "%s", name && *name ? name : "queue");
	atomic_store_explicit(&g_queue_name[qi], q->name, memory_order_release);
	if (qi >= sp_gpu.n_queues)
		sp_gpu.n_queues = qi + 1;
	return qi;
}

void source_profiler_remove_gpu_queue(uint32_t queue)
{
	if (queue == 0 || queue >= SP_MAX_QUEUES || !sp_gpu.q[queue].installed) {
		sp_count_add(&sp_count.ignored_calls, 1);
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "remove_gpu_queue(%u): no such queue (0 is removed with "
		       "set_gpu_backend(NULL))",
		       queue);
		return;
	}
	/* Its frames in flight are dropped: their slots are off. */
	install(queue, NULL);
	atomic_store_explicit(&g_queue_name[queue], NULL, memory_order_release);
	if (sp_gpu.bound_queue == queue) {
		sp_gpu.bound_queue = 0;
		sp_gpu.bound_cmd = NULL;
	}
}

const char *source_profiler_queue_name(uint32_t queue)
{
	return queue < SP_MAX_QUEUES ? atomic_load_explicit(&g_queue_name[queue], memory_order_acquire)
				     : NULL;
}

void source_profiler_force_gpu_disjoint(void)
{
	uint64_t frame = sp_current_frame();
	sp_gpu_slot *s = &sp_gpu.q[0].slots[sp_current_slot()];
	if (s->frame == frame && s->on && !s->closed)
		s->forced = true;
	else
		sp_gpu.force_pending = true; /* the next frame that opens its range */
}

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
		publish_capacity();
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

/* --- recording threads ----------------------------------------------------- */

bool sp_gpu_stream_bind(sp_gpu_stream *g, uint32_t queue, void *cmd)
{
	/* The queue table is the graphics thread's; a queue is added or
	 * removed between frames, which the renderer orders before its
	 * recording threads start. */
	if (queue >= SP_MAX_QUEUES || (queue && !source_profiler_queue_name(queue)))
		return false;
	/* Its chunk's timers can go into any command buffer of the queue;
	 * another queue's are another slot's. */
	if (queue != g->queue) {
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
	}
	g->queue = queue;
	g->cmd = cmd;
	g->cmd_gen++;
	g->open = 0;
	sp_gpu_places_reset(&g->places);
	return true;
}

typedef struct stream_take {
	sp_gpu_stream *g;
	sp_gpu_slot *s;
} stream_take;

/* A new chunk of the slot's timers for the stream; false when none is
 * left (the frame overflows). */
static bool new_chunk(sp_gpu_stream *g, sp_gpu_slot *s)
{
	uint32_t c = atomic_fetch_add_explicit(&s->chunk_next, 1, memory_order_relaxed);
	if (c >= s->chunks) {
		atomic_fetch_add_explicit(&s->stream_denied, 1, memory_order_relaxed);
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
		return false;
	}
	atomic_store_explicit(&s->chunk[c].owner, g->id, memory_order_relaxed);
	atomic_store_explicit(&s->chunk[c].used, 0, memory_order_relaxed);
	g->chunk = c;
	g->next = s->direct_cap + c * SP_TIMER_CHUNK;
	g->end = g->next + SP_TIMER_CHUNK;
	return true;
}

static uint32_t take_stream(void *ctx, uint32_t need)
{
	stream_take *st = ctx;
	sp_gpu_stream *g = st->g;
	if (g->next + need > g->end && !new_chunk(g, st->s))
		return UINT32_MAX;
	/* Counted in the chunk (publish_chunk) once the timer is written. */
	return g->next++;
}

/* The chunk's count of timers handed out, after they were written: collect
 * reads them (acquire) and every timer below it. */
static void publish_chunk(sp_gpu_stream *g, sp_gpu_slot *s)
{
	if (g->chunk != UINT32_MAX)
		atomic_store_explicit(&s->chunk[g->chunk].used,
				      g->next - (s->direct_cap + g->chunk * SP_TIMER_CHUNK),
				      memory_order_release);
}

sp_gpu_timer *sp_gpu_stream_begin(sp_gpu_stream *g, uint64_t frame, unsigned slot, uint32_t pass)
{
	if (g->frame != frame) {
		g->frame = frame;
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
		g->open = 0;
		sp_gpu_places_reset(&g->places);
	}
	sp_gpu_queue *q = &sp_gpu.q[g->queue];
	sp_gpu_slot *s = &q->slots[slot];
	if (!atomic_load_explicit(&s->streams_open, memory_order_acquire))
		return NULL;
	if (!g->cmd)
		return NULL; /* no command buffer named: no place for stamps */
	stream_take st = {g, s};
	bool lead = sp_gpu_empty_before(q, slot, g->cmd, &g->places, pass, g->open != 0,
					take_stream, &st);
	uint32_t i = take_stream(&st, 1);
	if (i == UINT32_MAX) {
		publish_chunk(g, s);
		return NULL;
	}
	sp_gpu_timer *t = &s->timers[i];
	*t = (sp_gpu_timer){.next = g->cmd_gen, .lead = lead, .named = 1,
			    .state = SP_TIMER_BEGUN, .work = s->work && !g->open};
	q->b.write_cmd(q->b.user, g->cmd, slot, 2u + 2u * i, SP_GPU_STAMP_TIMER_BEGIN);
	if (t->work)
		q->b.work_begin(q->b.user, g->cmd, slot, i);
	g->open++;
	publish_chunk(g, s);
	return t;
}

uint32_t sp_gpu_stream_end(sp_gpu_stream *g, unsigned slot, sp_gpu_timer *t)
{
	sp_gpu_queue *q = &sp_gpu.q[g->queue];
	sp_gpu_slot *s = &q->slots[slot];
	uintptr_t p = (uintptr_t)t, lo = (uintptr_t)s->timers;
	uint32_t first = s->direct_cap;
	/* Only a timer of a chunk this stream owns is read: another thread's
	 * may be written right now. */
	if (!g->cmd || !s->timers || p < lo + first * sizeof *t ||
	    p >= lo + (first + s->chunks * SP_TIMER_CHUNK) * sizeof *t || (p - lo) % sizeof *t)
		return SP_NO_ENTRY;
	uint32_t i = (uint32_t)((p - lo) / sizeof *t);
	uint32_t c = (i - first) / SP_TIMER_CHUNK;
	if (c >= atomic_load_explicit(&s->chunk_next, memory_order_relaxed) ||
	    atomic_load_explicit(&s->chunk[c].owner, memory_order_relaxed) != g->id ||
	    i - (first + c * SP_TIMER_CHUNK) >=
		    atomic_load_explicit(&s->chunk[c].used, memory_order_relaxed) ||
	    t->state != SP_TIMER_BEGUN || t->next != g->cmd_gen)
		return SP_NO_ENTRY;
	if (t->work)
		q->b.work_end(q->b.user, g->cmd, slot, i);
	q->b.write_cmd(q->b.user, g->cmd, slot, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
	t->state = SP_TIMER_ENDED;
	t->next = SP_NO_ENTRY;
	g->open--;
	return sp_timer_id(g->queue, i);
}

sp_gpu_timer *sp_gpu_timer_at(unsigned slot, uint32_t id)
{
	sp_gpu_slot *s = &sp_gpu.q[id >> SP_TIMER_QUEUE_SHIFT].slots[slot];
	return &s->timers[id & SP_TIMER_INDEX_MASK];
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

void sp_gpu_shutdown(void)
{
	for (uint32_t qi = 0; qi < SP_MAX_QUEUES; qi++) {
		sp_gpu_queue *q = &sp_gpu.q[qi];
		for (unsigned i = 0; i < SP_MAX_FIF; i++) {
			sp_gpu_slot *s = &q->slots[i];
			sp_free(s->timers, s->timers_cap * sizeof *s->timers);
			sp_free(s->chunk, s->chunk_cap * sizeof *s->chunk);
			*s = (sp_gpu_slot){0};
		}
		sp_free(q->ns, q->ns_cap * sizeof *q->ns);
		sp_free(q->avail, q->ns_cap);
		q->ns = NULL;
		q->avail = NULL;
		q->ns_cap = 0;
		sp_free(q->work, (size_t)q->work_cap * SOURCE_PROFILER_COUNTERS * sizeof *q->work);
		sp_free(q->work_avail, q->work_cap);
		q->work = NULL;
		q->work_avail = NULL;
		q->work_cap = 0;
		if (qi)
			install(qi, NULL);
		atomic_store(&g_queue_name[qi], NULL);
	}
	sp_gpu.n_queues = 1;
	sp_gpu.bound_queue = 0;
	sp_gpu.bound_cmd = NULL;
	sp_gpu.last_warn_ns = 0;
	sp_gpu.suppressed = 0;
	sp_gpu.said_unavailable = false;
	sp_gpu.said_denied = false;
	source_profiler_set_gpu_backend(NULL);
}
