/* Recording streams: the ticks and renders of threads other than the
 * graphics thread (a job system's ticks, workers recording passes into
 * command buffers of their own).
 *
 * Each such thread appends records to a stream of its own - a chain of
 * chunks, each published with one release store of its count - and shares
 * no cache line it writes per call with any other thread. The graphics
 * thread merges what was published into the entries at render_begin and
 * at frame_collect, as if the calls had been its own: ticks of every
 * stream first, then renders (a render needs its source's tick of the
 * frame), each record looked up through hints in the order of the
 * stream's last frame. Chunks merged go back to their stream through a
 * list the thread takes whole when it needs one: one atomic exchange per
 * chunk of records, none per call.
 *
 * A frame marker in the stream names the frame of the records after it;
 * records of a frame already collected (a thread that kept recording) are
 * dropped and counted. A thread that exits leaves its stream to be merged
 * to its end and then given to the next thread that records. */
#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_record.h"
#include "sp_stream.h"
#include "sp_table.h"
#include "sp_trace.h"
#include "sp_util.h"
#include "sp_window.h"

#include <pthread.h>
#include <string.h>

_Thread_local char sp_thread_token;

#define CHUNK_RECS 2048u
/* A frame's records and two chunks of slack; more when the graphics
 * thread does not merge (no collect) are dropped. */
#define MAX_CHUNKS (SOURCE_PROFILER_THREAD_RECORDS / CHUNK_RECS + 2u)

enum { REC_FRAME = 1, REC_TICK, REC_RENDER };
enum { STREAM_FREE, STREAM_LIVE, STREAM_DEAD };

typedef struct sp_rec {
	uintptr_t key;       /* REC_FRAME: the frame number */
	uint64_t start, end; /* stamps */
	uint32_t timer;      /* a render's timer id; SP_NO_ENTRY: none */
	uint16_t pass;       /* a render's pass key */
	uint8_t kind;
	uint8_t asked;       /* a render asked for a GPU timer */
} sp_rec;
_Static_assert(sizeof(sp_rec) == 32, "a record is half a cache line");

typedef struct sp_chunk {
	_Atomic(struct sp_chunk *) next; /* published when the thread moves on */
	_Atomic uint32_t count;          /* records published */
	struct sp_chunk *free_next;      /* in a free list */
	sp_rec rec[CHUNK_RECS];
} sp_chunk;

/* Where the merge is in a stream. */
typedef struct cursor {
	sp_chunk *c;
	uint32_t i;      /* next record of c */
	uint64_t frame;  /* the frame of the records from here */
	uint32_t index;  /* records of that frame before here */
} cursor;

typedef struct sp_stream {
	/* Its thread's. */
	sp_chunk *cur;
	uint32_t n;          /* records in cur */
	uint64_t frame;      /* the frame its last marker named */
	uint32_t frame_recs; /* records of that frame */
	uint32_t pass;       /* the thread's pass key */
	sp_chunk *spare;     /* chunks to write next */
	bool said_no_backend;
	sp_gpu_stream gpu;
	/* Shared. */
	char pad[64];
	_Atomic(sp_chunk *) returned; /* chunks merged, given back (LIFO) */
	_Atomic int state;
	_Atomic uint32_t chunks;      /* chunks it holds */
	_Atomic uint32_t trace_id;    /* the capture trace_track belongs to */
	_Atomic uint32_t trace_track;
	/* The graphics thread's. */
	cursor read;
	uint32_t *hints; /* entry index of each record of the last frame */
	uint32_t hints_cap;
	uint32_t col_hint;
	uint32_t asks; /* renders that asked for a timer, merged this frame */
} sp_stream;

/* Published by the graphics thread for recording threads. */
static struct {
	_Atomic uint64_t frame;
	_Atomic uint32_t slot;
	_Atomic uint8_t path; /* SP_PATH_OFF, SP_PATH_FAST (TSC stamps), SP_PATH_SLOW */
	_Atomic bool gpu_frame;
} pub;

static struct {
	pthread_mutex_t lock;
	pthread_once_t once;
	pthread_key_t key;
	_Atomic(sp_stream *) streams[SOURCE_PROFILER_MAX_THREADS];
	_Atomic uint32_t n;     /* streams [0, n) exist */
	_Atomic uint32_t epoch; /* shutdowns: a thread's stream of an older one is gone */
	_Atomic uint32_t max, live;
	_Atomic uint64_t refused, late, dropped, misplaced;
	_Atomic bool said_refused, said_late, said_dropped, said_misplaced, said_queue;
	_Atomic bool said_backend, said_no_cmd;
	cursor ends[SOURCE_PROFILER_MAX_THREADS]; /* graphics thread: the merge's snapshot */
} g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.once = PTHREAD_ONCE_INIT,
	.max = SOURCE_PROFILER_DEFAULT_THREADS,
};

static _Thread_local struct {
	sp_stream *s;
	uint32_t epoch;
	bool refused; /* this thread was refused in `epoch` */
} t_me __attribute__((tls_model("initial-exec")));

/* Says `msg` the first time `flag` is raised. */
static void say_once(_Atomic bool *flag, const char *msg)
{
	if (!atomic_exchange_explicit(flag, true, memory_order_relaxed))
		sp_log(SOURCE_PROFILER_LOG_WARNING, "%s", msg);
}

/* --- published state --------------------------------------------------------- */

void sp_streams_publish(uint64_t frame, unsigned slot, uint8_t stamp_path, bool gpu_frame)
{
	atomic_store_explicit(&pub.slot, slot, memory_order_relaxed);
	atomic_store_explicit(&pub.path, stamp_path, memory_order_relaxed);
	atomic_store_explicit(&pub.gpu_frame, gpu_frame, memory_order_relaxed);
	atomic_store_explicit(&pub.frame, frame, memory_order_release);
}

uint64_t sp_stream_stamp(void)
{
	uint8_t path = atomic_load_explicit(&pub.path, memory_order_relaxed);
#if SP_HAVE_TSC
	if (SP_LIKELY(path == SP_PATH_FAST))
		return __rdtsc();
#endif
	return path == SP_PATH_OFF ? 0 : srcprof_clock_ns();
}

/* --- a thread's stream ---------------------------------------------------------- */

/* The thread exits: its stream is merged to its end, then reused. */
static void thread_exit(void *unused)
{
	(void)unused;
	if (t_me.s && t_me.epoch == atomic_load(&g.epoch)) {
		atomic_store_explicit(&t_me.s->state, STREAM_DEAD, memory_order_release);
		atomic_fetch_sub_explicit(&g.live, 1, memory_order_relaxed);
	}
	t_me.s = NULL;
}

static void make_key(void)
{
	pthread_key_create(&g.key, thread_exit);
}

static sp_chunk *chunk_new(sp_stream *s)
{
	if (atomic_load_explicit(&s->chunks, memory_order_relaxed) >= MAX_CHUNKS)
		return NULL;
	sp_chunk *c = sp_alloc(sizeof *c);
	if (c)
		atomic_fetch_add_explicit(&s->chunks, 1, memory_order_relaxed);
	return c;
}

/* A stream for the calling thread (under the lock): a free one, or new. */
static sp_stream *claim(void)
{
	uint32_t n = atomic_load_explicit(&g.n, memory_order_relaxed);
	if (atomic_load_explicit(&g.live, memory_order_relaxed) >=
	    atomic_load_explicit(&g.max, memory_order_relaxed))
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&g.streams[i], memory_order_relaxed);
		int free_state = STREAM_FREE;
		if (atomic_compare_exchange_strong_explicit(&s->state, &free_state, STREAM_LIVE,
							    memory_order_acquire,
							    memory_order_relaxed))
			return s;
	}
	if (n == SOURCE_PROFILER_MAX_THREADS)
		return NULL;
	sp_stream *s = sp_alloc(sizeof *s);
	sp_chunk *c = s ? chunk_new(s) : NULL;
	if (!c) {
		sp_free(s, sizeof *s);
		return NULL;
	}
	s->cur = c;
	s->read.c = c;
	s->gpu.id = (uint16_t)n;
	atomic_store_explicit(&s->state, STREAM_LIVE, memory_order_relaxed);
	/* After it is whole: the merge reads what the pointer leads to. */
	atomic_store_explicit(&g.streams[n], s, memory_order_release);
	atomic_store_explicit(&g.n, n + 1, memory_order_release);
	return s;
}

static sp_stream *join(uint32_t epoch)
{
	if (t_me.refused && t_me.epoch == epoch)
		return NULL;
	pthread_once(&g.once, make_key);
	pthread_mutex_lock(&g.lock);
	sp_stream *s = claim();
	if (s)
		atomic_fetch_add_explicit(&g.live, 1, memory_order_relaxed);
	pthread_mutex_unlock(&g.lock);
	t_me.epoch = epoch;
	if (!s) {
		t_me.refused = true;
		atomic_fetch_add_explicit(&g.refused, 1, memory_order_relaxed);
		say_once(&g.said_refused,
			 "a thread beyond source_profiler_set_max_threads (or out of memory) records "
			 "ticks or renders: its calls are dropped (threads_refused; said once)");
		return NULL;
	}
	/* What the last thread left: a fresh start for this one. */
	s->frame = 0;
	s->frame_recs = 0;
	s->pass = 0;
	uint16_t id = s->gpu.id;
	s->gpu = (sp_gpu_stream){.id = id, .chunk = UINT32_MAX};
	t_me.refused = false;
	t_me.s = s;
	pthread_setspecific(g.key, (void *)1);
	return s;
}

static inline sp_stream *me(void)
{
	uint32_t epoch = atomic_load_explicit(&g.epoch, memory_order_relaxed);
	if (SP_LIKELY(t_me.s && t_me.epoch == epoch))
		return t_me.s;
	return join(epoch);
}

/* The next chunk to write, published as the current one's successor. */
static bool next_chunk(sp_stream *s)
{
	sp_chunk *c = s->spare;
	if (!c) {
		c = atomic_exchange_explicit(&s->returned, NULL, memory_order_acquire);
		if (!c)
			c = chunk_new(s);
		if (!c)
			return false;
	}
	s->spare = c->free_next;
	c->free_next = NULL;
	atomic_store_explicit(&c->count, 0, memory_order_relaxed);
	atomic_store_explicit(&c->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&s->cur->next, c, memory_order_release);
	s->cur = c;
	s->n = 0;
	return true;
}

static bool put(sp_stream *s, const sp_rec *r)
{
	if (SP_UNLIKELY(s->n == CHUNK_RECS) && !next_chunk(s))
		return false;
	s->cur->rec[s->n] = *r;
	atomic_store_explicit(&s->cur->count, ++s->n, memory_order_release);
	return true;
}

static void dropped(void)
{
	atomic_fetch_add_explicit(&g.dropped, 1, memory_order_relaxed);
	say_once(&g.said_dropped,
		 "a recording thread's buffer is full (more ticks and renders in a frame than "
		 "SOURCE_PROFILER_THREAD_RECORDS, or frames never collected): the rest are dropped "
		 "(records_dropped; said once)");
}

/* Appends a tick or render of the frame published now; a new frame starts
 * with its marker. */
static void append(sp_stream *s, const sp_rec *r)
{
	uint64_t frame = atomic_load_explicit(&pub.frame, memory_order_acquire);
	if (SP_UNLIKELY(frame != s->frame)) {
		sp_rec mark = {.key = (uintptr_t)frame, .kind = REC_FRAME};
		if (!put(s, &mark)) {
			dropped();
			return;
		}
		s->frame = frame;
		s->frame_recs = 0;
	}
	if (SP_UNLIKELY(s->frame_recs >= SOURCE_PROFILER_THREAD_RECORDS) || !put(s, r)) {
		dropped();
		return;
	}
	s->frame_recs++;
	if (SP_UNLIKELY(atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))) {
		/* Its track in the capture, for the merge to put its events on. */
		uint32_t id = sp_trace_capture_id();
		if (atomic_load_explicit(&s->trace_id, memory_order_relaxed) != id) {
			atomic_store_explicit(&s->trace_track, sp_trace_thread_track(),
					      memory_order_relaxed);
			atomic_store_explicit(&s->trace_id, id, memory_order_relaxed);
		}
	}
}

void sp_stream_tick_end(uintptr_t key, uint64_t start)
{
	uint64_t end = sp_stream_stamp();
	sp_stream *s = me();
	if (!s || !end)
		return;
	append(s, &(sp_rec){.key = key, .start = start, .end = end, .timer = SP_NO_ENTRY,
			    .kind = REC_TICK});
}

uint64_t sp_stream_render_begin(sp_gpu_timer **timer)
{
	if (timer) {
		*timer = NULL;
		sp_stream *s = me();
		if (s && atomic_load_explicit(&pub.gpu_frame, memory_order_relaxed)) {
			uint64_t frame = atomic_load_explicit(&pub.frame, memory_order_acquire);
			unsigned slot = atomic_load_explicit(&pub.slot, memory_order_relaxed);
			*timer = sp_gpu_stream_begin(&s->gpu, frame, slot, s->pass & 0xffu);
			if (!*timer && !s->said_no_backend) {
				if (!sp_gpu_queue_stamps_cmds(s->gpu.queue)) {
					s->said_no_backend = true;
					say_once(&g.said_backend,
						 "the GPU timer backend cannot stamp the command "
						 "buffers of threads other than the graphics thread (no "
						 "write_cmd; GL queries belong to one context): renders "
						 "on those threads have CPU times and no GPU sample");
				} else if (!s->gpu.cmd) {
					s->said_no_backend = true;
					say_once(&g.said_no_cmd,
						 "a thread other than the graphics thread asked for GPU "
						 "timers without naming its command buffer "
						 "(source_profiler_set_command_buffer): its renders have "
						 "no GPU sample");
				}
			}
		}
	}
	return sp_stream_stamp();
}

void sp_stream_render_end(uintptr_t key, uint64_t start, sp_gpu_timer *timer)
{
	uint64_t end = sp_stream_stamp();
	sp_stream *s = me();
	if (!s || !end)
		return;
	uint32_t id = SP_NO_ENTRY;
	if (timer) {
		unsigned slot = atomic_load_explicit(&pub.slot, memory_order_relaxed);
		id = sp_gpu_stream_end(&s->gpu, slot, timer);
		if (id == SP_NO_ENTRY)
			sp_streams_misplaced();
	}
	append(s, &(sp_rec){.key = key, .start = start, .end = end, .timer = id,
			    .pass = (uint16_t)s->pass, .kind = REC_RENDER, .asked = timer != NULL});
}

void sp_stream_set_pass(uint32_t pass)
{
	sp_stream *s = me();
	if (s)
		s->pass = (pass & 0xffu) | s->gpu.queue << 8;
}

void sp_stream_set_command_buffer(uint32_t queue, void *cmd)
{
	sp_stream *s = me();
	if (!s)
		return;
	if (!sp_gpu_stream_bind(&s->gpu, queue, cmd)) {
		sp_count_add(&sp_count.ignored_calls, 1);
		say_once(&g.said_queue, "set_command_buffer: no such GPU queue (add it with "
					"source_profiler_add_gpu_queue); the thread keeps its command "
					"buffer");
		return;
	}
	s->pass = (s->pass & 0xffu) | queue << 8;
}

void source_profiler_set_command_buffer(uint32_t queue, void *cmd)
{
	if (!sp_on_graphics_thread()) {
		sp_stream_set_command_buffer(queue, cmd);
		return;
	}
	if (queue >= SP_MAX_QUEUES || (queue && !source_profiler_queue_name(queue))) {
		sp_count_add(&sp_count.ignored_calls, 1);
		say_once(&g.said_queue, "set_command_buffer: no such GPU queue (add it with "
					"source_profiler_add_gpu_queue); the thread keeps its command "
					"buffer");
		return;
	}
	sp_gpu_bind(queue, cmd);
	sp_core.pass = sp_pass_key(sp_core.pass, queue);
}

void sp_streams_misplaced(void)
{
	atomic_fetch_add_explicit(&sp_count.ignored_calls, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&g.misplaced, 1, memory_order_relaxed);
	say_once(&g.said_misplaced,
		 "a GPU timer ended on a thread or in a command buffer other than the one it began "
		 "in: no end stamp written, its render has no GPU sample (gpu_timers_misplaced; "
		 "said once)");
}

void source_profiler_set_max_threads(uint32_t n)
{
	if (n < 1 || n > SOURCE_PROFILER_MAX_THREADS) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "set_max_threads(%u): must be 1 to %u; keeping %u", n,
		       SOURCE_PROFILER_MAX_THREADS, atomic_load(&g.max));
		sp_count_add(&sp_count.ignored_calls, 1);
		return;
	}
	atomic_store(&g.max, n);
}

/* --- the merge (graphics thread) ------------------------------------------------ */

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
					atomic_fetch_add_explicit(&g.late, 1, memory_order_relaxed);
					say_once(&g.said_late,
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
	uint32_t n = atomic_load_explicit(&g.n, memory_order_acquire);
	if (!n)
		return;
	uint32_t asks = 0;
	/* Ticks of every stream up to what each published now, then renders
	 * up to the same point. */
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&g.streams[i], memory_order_acquire);
		g.ends[i] = s->read;
		if (atomic_load_explicit(&s->state, memory_order_acquire) != STREAM_FREE)
			walk(s, &g.ends[i], NULL, 1);
	}
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&g.streams[i], memory_order_acquire);
		int state = atomic_load_explicit(&s->state, memory_order_acquire);
		if (state == STREAM_FREE)
			continue;
		cursor at = s->read;
		walk(s, &at, &g.ends[i], 2);
		give_back(s, s->read.c, g.ends[i].c);
		s->read = g.ends[i];
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
	uint32_t n = atomic_load_explicit(&g.n, memory_order_acquire);
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&g.streams[i], memory_order_relaxed);
		if (s->hints)
			memset(s->hints, 0xff, s->hints_cap * sizeof *s->hints);
	}
}

void sp_streams_shutdown(void)
{
	pthread_mutex_lock(&g.lock);
	uint32_t n = atomic_load(&g.n);
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load(&g.streams[i]);
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
		atomic_store(&g.streams[i], NULL);
	}
	atomic_store(&g.n, 0);
	atomic_store(&g.live, 0);
	atomic_store(&g.max, SOURCE_PROFILER_DEFAULT_THREADS);
	/* Threads holding a stream of this epoch join anew. */
	atomic_fetch_add(&g.epoch, 1);
	pthread_mutex_unlock(&g.lock);
	sp_streams_reset_counters();
	atomic_store(&g.said_refused, false);
	atomic_store(&g.said_late, false);
	atomic_store(&g.said_dropped, false);
	atomic_store(&g.said_misplaced, false);
	atomic_store(&g.said_queue, false);
	atomic_store(&g.said_backend, false);
	atomic_store(&g.said_no_cmd, false);
	sp_streams_publish(0, 0, SP_PATH_OFF, false);
}

void sp_streams_reset_counters(void)
{
	atomic_store(&g.refused, 0);
	atomic_store(&g.late, 0);
	atomic_store(&g.dropped, 0);
	atomic_store(&g.misplaced, 0);
}

uint32_t sp_streams_live(void)
{
	return atomic_load_explicit(&g.live, memory_order_relaxed);
}

void sp_streams_stats(source_profiler_stats_t *st)
{
	uint32_t n = atomic_load_explicit(&g.n, memory_order_acquire);
	size_t bytes = 0;
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&g.streams[i], memory_order_acquire);
		if (s)
			bytes += sizeof *s + (size_t)atomic_load_explicit(&s->chunks,
									   memory_order_relaxed) *
						     sizeof(sp_chunk);
	}
	st->threads = atomic_load_explicit(&g.live, memory_order_relaxed);
	st->thread_bytes = bytes;
	st->threads_refused = atomic_load_explicit(&g.refused, memory_order_relaxed);
	st->records_late = atomic_load_explicit(&g.late, memory_order_relaxed);
	st->records_dropped = atomic_load_explicit(&g.dropped, memory_order_relaxed);
	st->gpu_timers_misplaced = atomic_load_explicit(&g.misplaced, memory_order_relaxed);
}
