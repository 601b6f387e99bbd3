/* Trace captures: raw events into a buffer allocated at start, written out
 * as Chrome Trace Event JSON when the capture is over.
 *
 * Recording: an atomic index hands out the next event; the event's type is
 * stored last with release, so the writer skips events still being
 * written. Graphics-thread events need nothing more (that thread also
 * stops and frees captures); PERF blocks on other threads record inside an
 * RCU section so discard can wait for them. */
#include "srcprof/export.h"

#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_profiler.h"
#include "sp_rcu.h"
#include "sp_trace.h"
#include "sp_trace_capture.h"
#include "sp_work.h"
#include "sp_util.h"
#include "sp_window.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Atomic bool sp_trace_recording;

sp_trace_capture sp_capture = {
	.state = SOURCE_PROFILER_TRACE_IDLE,
	.track_lock = PTHREAD_MUTEX_INITIALIZER,
};

static _Thread_local struct {
	uint32_t capture_id;
	uint16_t track;
	char name[64];
	char routine[64]; /* perf_block_set_routine's, where no name was given */
} t_track;

void source_profiler_trace_name_thread(const char *name)
{
	if (name)
		snprintf(t_track.name, sizeof t_track.name, "%s", name);
	t_track.capture_id = 0;
}

void sp_trace_set_routine(const char *name)
{
	snprintf(t_track.routine, sizeof t_track.routine, "%s", name);
}

/* The calling thread's track in the current capture. */
static uint16_t thread_track(void)
{
	uint32_t id = atomic_load_explicit(&sp_capture.capture_id_pub, memory_order_relaxed);
	if (SP_LIKELY(t_track.capture_id == id))
		return t_track.track;
	pthread_mutex_lock(&sp_capture.track_lock);
	uint32_t n = atomic_load(&sp_capture.n_tracks);
	uint16_t track = TRACK_FRAMES;
	if (n < MAX_TRACKS) {
		const char *name = t_track.name[0] ? t_track.name : (t_track.routine[0] ? t_track.routine : "default_croutine");
		snprintf(sp_capture.track_names[n], sizeof sp_capture.track_names[n], "%s", name);
		for (uint32_t i = 2; i < n; i++) {
			if (strcmp(sp_capture.track_names[i], sp_capture.track_names[n]) == 0) {
				snprintf(sp_capture.track_names[n], sizeof sp_capture.track_names[n], "%s #%u", name, n);
				break;
			}
		}
		track = (uint16_t)n;
		atomic_store(&sp_capture.n_tracks, n + 1);
	}
	pthread_mutex_unlock(&sp_capture.track_lock);
	t_track.capture_id = id;
	t_track.track = track;
	return track;
}

uint32_t sp_trace_capture_id(void)
{
	return atomic_load_explicit(&sp_capture.capture_id_pub, memory_order_relaxed);
}

uint16_t sp_trace_thread_track(void)
{
	return thread_track();
}

/* A queue's GPU track, named after the queue and its backend's mode. */
static uint16_t queue_track(uint32_t queue)
{
	if (queue == 0)
		return TRACK_GPU;
	if (queue >= SP_MAX_QUEUES)
		return TRACK_FRAMES;
	if (sp_capture.queue_track[queue])
		return sp_capture.queue_track[queue];
	pthread_mutex_lock(&sp_capture.track_lock);
	uint32_t n = atomic_load(&sp_capture.n_tracks);
	uint16_t track = TRACK_FRAMES;
	if (n < MAX_TRACKS) {
		const char *name = source_profiler_queue_name(queue);
		snprintf(sp_capture.track_names[n], sizeof sp_capture.track_names[n], "GPU %s (%s)",
			 name ? name : "queue", sp_gpu_queue_mode(queue));
		sp_capture.track_gpu[n] = true;
		track = (uint16_t)n;
		atomic_store(&sp_capture.n_tracks, n + 1);
	}
	pthread_mutex_unlock(&sp_capture.track_lock);
	sp_capture.queue_track[queue] = track;
	return track;
}

static event *claim(void)
{
	event *evs = atomic_load_explicit(&sp_capture.events, memory_order_acquire);
	if (!evs)
		return NULL;
	uint64_t i = atomic_fetch_add_explicit(&sp_capture.next, 1, memory_order_relaxed);
	if (i >= atomic_load_explicit(&sp_capture.cap, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&sp_capture.dropped, 1, memory_order_relaxed);
		return NULL;
	}
	return &evs[i];
}

static event *put_work(enum ev_type type, uint16_t track, const char *name, uint64_t ts,
		       uint64_t dur, uint32_t frame, uint32_t pass, unsigned depth,
		       const uint64_t *work)
{
	event *e = claim();
	if (!e)
		return NULL;
	e->work = 0;
	if (work && sp_capture.work) {
		size_t i = (size_t)(e - atomic_load_explicit(&sp_capture.events, memory_order_relaxed));
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			sp_capture.work[i][c] = work[c] > UINT32_MAX ? UINT32_MAX : (uint32_t)work[c];
		e->work = (uint32_t)i + 1;
	}
	e->depth = (uint8_t)(depth > 255 ? 255 : depth);
	e->track = track;
	e->frame = frame;
	e->pass = pass;
	e->name = name;
	e->ts = ts;
	e->dur = dur;
	atomic_store_explicit(&e->type, (uint8_t)type, memory_order_release);
	return e;
}

static void put(enum ev_type type, uint16_t track, const char *name, uint64_t ts, uint64_t dur,
		uint32_t frame, uint32_t pass, unsigned depth)
{
	put_work(type, track, name, ts, dur, frame, pass, depth, NULL);
}

static const char *copy_name(const char *s)
{
	size_t len = strlen(s) + 1;
	if (!sp_capture.names || sp_capture.names->cap - sp_capture.names->used < len) {
		size_t cap = len > 65536 ? len : 65536;
		name_chunk *c = sp_alloc(sizeof *c + cap);
		if (!c)
			return "?";
		c->cap = cap;
		c->next = sp_capture.names;
		sp_capture.names = c;
	}
	char *d = sp_capture.names->data + sp_capture.names->used;
	memcpy(d, s, len);
	sp_capture.names->used += len;
	return d;
}

static const char *trace_entry_name(sp_entry *e)
{
	if (e->trace_gen == sp_capture.capture_id)
		return e->trace_name;
	const char *name = atomic_load_explicit(&e->name, memory_order_acquire);
	char buf[32];
	if (!name) {
		snprintf(buf, sizeof buf, "%p", (void *)SP_LOAD(e->key));
		name = buf;
	}
	e->trace_name = copy_name(name);
	e->trace_gen = sp_capture.capture_id;
	return e->trace_name;
}

void sp_trace_cpu(const sp_entry *e, int kind, uint32_t pass, uint64_t start, uint64_t end,
		  uint32_t frame)
{
	sp_trace_cpu_on(thread_track(), e, kind, pass, start, end, frame);
}

void sp_trace_cpu_on(uint16_t track, const sp_entry *e, int kind, uint32_t pass, uint64_t start,
		     uint64_t end, uint32_t frame)
{
	put(kind == SP_TRACE_TICK ? EV_TICK : EV_RENDER, track, trace_entry_name((sp_entry *)e),
	    start, end - start, frame, pass, 0);
}

void sp_trace_gpu(sp_entry *e, uint32_t queue, uint32_t pass, uint64_t begin, uint64_t end,
		  uint32_t frame, const uint64_t *work)
{
	int64_t off = sp_gpu_cpu_offset(queue);
	put_work(EV_GPU, queue_track(queue), trace_entry_name(e), begin + (uint64_t)off,
		 end - begin, frame, pass, 0, work);
}

void sp_trace_gpu_frame(uint32_t queue, uint32_t frame, uint64_t begin, uint64_t end)
{
	int64_t off = sp_gpu_cpu_offset(queue);
	put(EV_GPU_FRAME, queue_track(queue), "GPU frame", begin + (uint64_t)off, end - begin,
	    frame, 0, 0);
}

void sp_trace_block(const char *name, unsigned depth, uint64_t begin, uint64_t end)
{
	unsigned r = sp_rcu_enter();
	if (atomic_load_explicit(&sp_trace_recording, memory_order_acquire))
		put(EV_BLOCK, thread_track(), name, begin, end - begin, 0, 0, depth);
	sp_rcu_exit(r);
}

void sp_trace_frame(uint32_t frame, uint64_t begin_ns)
{
	if (sp_capture.prev_frame_ns) {
		uint64_t dur = begin_ns - sp_capture.prev_frame_ns;
		put(EV_FRAME, TRACK_FRAMES, "frame", sp_capture.prev_frame_ns, dur, sp_capture.prev_frame, 0, 0);
		put(EV_FRAME_TIME, TRACK_FRAMES, "frame time", begin_ns, dur, sp_capture.prev_frame, 0, 0);
		atomic_fetch_add_explicit(&sp_capture.frames, 1, memory_order_relaxed);
	}
	sp_capture.prev_frame_ns = begin_ns;
	sp_capture.prev_frame = frame;
}

static void finish(uint64_t now)
{
	atomic_store(&sp_trace_recording, false);
	atomic_store_explicit(&sp_capture.end_ns, now, memory_order_relaxed);
	atomic_store(&sp_capture.state, SOURCE_PROFILER_TRACE_FINISHED);
}

void sp_trace_maintain(uint64_t now)
{
	if (!atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
		return;
	if (now - atomic_load_explicit(&sp_capture.begin_ns, memory_order_relaxed) >= sp_capture.span_ns ||
	    atomic_load(&sp_capture.next) >= atomic_load_explicit(&sp_capture.cap, memory_order_relaxed))
		finish(now);
}

bool source_profiler_trace_start(const source_profiler_trace_desc *desc)
{
	if (atomic_load(&sp_capture.state) != SOURCE_PROFILER_TRACE_IDLE)
		return false;
	uint32_t cap = desc && desc->max_events ? desc->max_events : 1u << 20;
	event *evs = sp_alloc((size_t)cap * sizeof *evs);
	if (!evs)
		return false;
	/* Work counts beside, where they are counted (an out-of-memory trace
	 * goes on without them). */
	sp_capture.work = sp_work_wanted() ? sp_alloc((size_t)cap * sizeof *sp_capture.work) : NULL;
	sp_capture.work_counted = sp_work_counted();
	atomic_store_explicit(&sp_capture.cap, cap, memory_order_relaxed);
	sp_capture.span_ns = desc && desc->duration_ns ? desc->duration_ns : 5000000000ull;
	atomic_store(&sp_capture.next, 0);
	atomic_store(&sp_capture.dropped, 0);
	atomic_store_explicit(&sp_capture.frames, 0, memory_order_relaxed);
	sp_capture.prev_frame_ns = 0;
	snprintf(sp_capture.gpu_mode, sizeof sp_capture.gpu_mode, "%s", sp_gpu_mode());
	pthread_mutex_lock(&sp_capture.track_lock);
	snprintf(sp_capture.track_names[TRACK_FRAMES], sizeof sp_capture.track_names[0], "frames");
	snprintf(sp_capture.track_names[TRACK_GPU], sizeof sp_capture.track_names[0], "GPU (%s)", sp_capture.gpu_mode);
	memset(sp_capture.track_gpu, 0, sizeof sp_capture.track_gpu);
	sp_capture.track_gpu[TRACK_GPU] = true;
	memset(sp_capture.queue_track, 0, sizeof sp_capture.queue_track);
	atomic_store(&sp_capture.n_tracks, 2);
	pthread_mutex_unlock(&sp_capture.track_lock);
	/* Capture ids start above 0 so fresh entries (trace_gen 0) never
	 * match one. */
	sp_capture.capture_id++;
	if (!sp_capture.capture_id)
		sp_capture.capture_id = 1;
	atomic_store(&sp_capture.capture_id_pub, sp_capture.capture_id);
	atomic_store_explicit(&sp_capture.events, evs, memory_order_release);
	atomic_store_explicit(&sp_capture.begin_ns, sp_now(), memory_order_relaxed);
	atomic_store_explicit(&sp_capture.end_ns, 0, memory_order_relaxed);
	atomic_store(&sp_capture.state, SOURCE_PROFILER_TRACE_RECORDING);
	atomic_store(&sp_trace_recording, true);
	return true;
}

void source_profiler_trace_stop(void)
{
	if (atomic_load(&sp_capture.state) == SOURCE_PROFILER_TRACE_RECORDING)
		finish(sp_now());
}

int source_profiler_trace_state(void)
{
	return atomic_load(&sp_capture.state);
}

void source_profiler_trace_get_info(source_profiler_trace_info *info)
{
	if (!info)
		return;
	uint64_t n = atomic_load(&sp_capture.next);
	uint32_t cap = atomic_load_explicit(&sp_capture.cap, memory_order_relaxed);
	*info = (source_profiler_trace_info){
		.events = n < cap ? n : cap,
		.dropped = atomic_load(&sp_capture.dropped),
		.begin_ns = atomic_load_explicit(&sp_capture.begin_ns, memory_order_relaxed),
		.end_ns = atomic_load_explicit(&sp_capture.end_ns, memory_order_relaxed),
		.frames = atomic_load_explicit(&sp_capture.frames, memory_order_relaxed),
	};
}

void source_profiler_trace_discard(void)
{
	source_profiler_trace_stop();
	event *evs = atomic_load(&sp_capture.events);
	atomic_store(&sp_capture.events, NULL);
	sp_rcu_synchronize(); /* PERF blocks of other threads may be writing */
	sp_free(evs, (size_t)atomic_load_explicit(&sp_capture.cap, memory_order_relaxed) * sizeof *evs);
	sp_free(sp_capture.work, (size_t)atomic_load_explicit(&sp_capture.cap, memory_order_relaxed) * sizeof *sp_capture.work);
	sp_capture.work = NULL;
	while (sp_capture.names) {
		name_chunk *next = sp_capture.names->next;
		sp_free(sp_capture.names, sizeof *sp_capture.names + sp_capture.names->cap);
		sp_capture.names = next;
	}
	atomic_store(&sp_capture.state, SOURCE_PROFILER_TRACE_IDLE);
}
