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
#include "sp_stream_state.h"
#include "sp_table.h"
#include "sp_trace.h"
#include "sp_util.h"
#include "sp_window.h"

#include <pthread.h>
#include <string.h>

_Thread_local char sp_thread_token;

/* Published by the graphics thread for recording threads. */
sp_stream_published sp_stream_pub;

sp_stream_registry sp_streams = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.once = PTHREAD_ONCE_INIT,
	.max = SOURCE_PROFILER_DEFAULT_THREADS,
};


static _Thread_local struct {
	sp_stream *s;
	uint32_t epoch;
	bool refused; /* this thread was refused in `epoch` */
} t_me __attribute__((tls_model("initial-exec")));

/* --- published state --------------------------------------------------------- */

void sp_streams_publish(uint64_t frame, unsigned slot, uint8_t stamp_path, bool gpu_frame)
{
	atomic_store_explicit(&sp_stream_pub.slot, slot, memory_order_relaxed);
	atomic_store_explicit(&sp_stream_pub.path, stamp_path, memory_order_relaxed);
	atomic_store_explicit(&sp_stream_pub.gpu_frame, gpu_frame, memory_order_relaxed);
	atomic_store_explicit(&sp_stream_pub.frame, frame, memory_order_release);
}

uint64_t sp_stream_stamp(void)
{
	uint8_t path = atomic_load_explicit(&sp_stream_pub.path, memory_order_relaxed);
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
	if (t_me.s && t_me.epoch == atomic_load(&sp_streams.epoch)) {
		atomic_store_explicit(&t_me.s->state, STREAM_DEAD, memory_order_release);
		atomic_fetch_sub_explicit(&sp_streams.live, 1, memory_order_relaxed);
	}
	t_me.s = NULL;
}

static void make_key(void)
{
	pthread_key_create(&sp_streams.key, thread_exit);
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
	uint32_t n = atomic_load_explicit(&sp_streams.n, memory_order_relaxed);
	if (atomic_load_explicit(&sp_streams.live, memory_order_relaxed) >=
	    atomic_load_explicit(&sp_streams.max, memory_order_relaxed))
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		sp_stream *s = atomic_load_explicit(&sp_streams.streams[i], memory_order_relaxed);
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
	atomic_store_explicit(&sp_streams.streams[n], s, memory_order_release);
	atomic_store_explicit(&sp_streams.n, n + 1, memory_order_release);
	return s;
}

static sp_stream *join(uint32_t epoch)
{
	if (t_me.refused && t_me.epoch == epoch)
		return NULL;
	pthread_once(&sp_streams.once, make_key);
	pthread_mutex_lock(&sp_streams.lock);
	sp_stream *s = claim();
	if (s)
		atomic_fetch_add_explicit(&sp_streams.live, 1, memory_order_relaxed);
	pthread_mutex_unlock(&sp_streams.lock);
	t_me.epoch = epoch;
	if (!s) {
		t_me.refused = true;
		atomic_fetch_add_explicit(&sp_streams.refused, 1, memory_order_relaxed);
		sp_say_once(&sp_streams.said_refused,
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
	pthread_setspecific(sp_streams.key, (void *)1);
	return s;
}

static inline sp_stream *me(void)
{
	uint32_t epoch = atomic_load_explicit(&sp_streams.epoch, memory_order_relaxed);
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
	atomic_fetch_add_explicit(&sp_streams.dropped, 1, memory_order_relaxed);
	sp_say_once(&sp_streams.said_dropped,
		 "a recording thread's buffer is full (more ticks and renders in a frame than "
		 "SOURCE_PROFILER_THREAD_RECORDS, or frames never collected): the rest are dropped "
		 "(records_dropped; said once)");
}

/* Appends a tick or render of the frame published now; a new frame starts
 * with its marker. */
static void append(sp_stream *s, const sp_rec *r)
{
	uint64_t frame = atomic_load_explicit(&sp_stream_pub.frame, memory_order_acquire);
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
		if (s && atomic_load_explicit(&sp_stream_pub.gpu_frame, memory_order_relaxed)) {
			uint64_t frame = atomic_load_explicit(&sp_stream_pub.frame, memory_order_acquire);
			unsigned slot = atomic_load_explicit(&sp_stream_pub.slot, memory_order_relaxed);
			*timer = sp_gpu_stream_begin(&s->gpu, frame, slot, s->pass & 0xffu);
			if (!*timer && !s->said_no_backend) {
				if (!sp_gpu_queue_stamps_cmds(s->gpu.queue)) {
					s->said_no_backend = true;
					sp_say_once(&sp_streams.said_backend,
						 "the GPU timer backend cannot stamp the command "
						 "buffers of threads other than the graphics thread (no "
						 "write_cmd; GL queries belong to one context): renders "
						 "on those threads have CPU times and no GPU sample");
				} else if (!s->gpu.cmd) {
					s->said_no_backend = true;
					sp_say_once(&sp_streams.said_no_cmd,
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
		unsigned slot = atomic_load_explicit(&sp_stream_pub.slot, memory_order_relaxed);
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
		sp_say_once(&sp_streams.said_queue, "set_command_buffer: no such GPU queue (add it with "
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
		sp_say_once(&sp_streams.said_queue, "set_command_buffer: no such GPU queue (add it with "
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
	atomic_fetch_add_explicit(&sp_streams.misplaced, 1, memory_order_relaxed);
	sp_say_once(&sp_streams.said_misplaced,
		 "a GPU timer ended on a thread or in a command buffer other than the one it began "
		 "in: no end stamp written, its render has no GPU sample (gpu_timers_misplaced; "
		 "said once)");
}

void source_profiler_set_max_threads(uint32_t n)
{
	if (n < 1 || n > SOURCE_PROFILER_MAX_THREADS) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "set_max_threads(%u): must be 1 to %u; keeping %u", n,
		       SOURCE_PROFILER_MAX_THREADS, atomic_load(&sp_streams.max));
		sp_count_add(&sp_count.ignored_calls, 1);
		return;
	}
	atomic_store(&sp_streams.max, n);
}
