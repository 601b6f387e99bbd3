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
#include "sp_perf_block.h"
#include "sp_profiler.h"
#include "sp_rcu.h"
#include "sp_trace.h"
#include "sp_work.h"
#include "sp_util.h"
#include "sp_window.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum ev_type {
	EV_NONE,
	EV_TICK,
	EV_RENDER,
	EV_GPU,
	EV_GPU_FRAME,
	EV_BLOCK,
	EV_FRAME,
	EV_FRAME_TIME,
};

typedef struct event {
	_Atomic uint8_t type;
	uint8_t depth;
	uint16_t track;
	uint32_t frame;
	uint32_t pass;
	uint32_t work; /* EV_GPU: its render's counts at g_work[index], 1 + index; 0: none */
	const char *name;
	uint64_t ts, dur; /* ns on the profiler clock; EV_FRAME_TIME: dur = frame time */
} event;

#define MAX_TRACKS 256
#define TRACK_FRAMES 0
#define TRACK_GPU 1

typedef struct name_chunk {
	struct name_chunk *next;
	size_t used, cap;
	char data[];
} name_chunk;

_Atomic bool sp_trace_recording;
/* The GPU events' work counts (work counting on at trace_start), one
 * record per event slot, written by the graphics thread at collect before
 * its event is published. */
static uint32_t (*g_work)[SOURCE_PROFILER_COUNTERS];
static uint32_t g_work_counted; /* the counters counted, at trace_start */
static _Atomic int g_state = SOURCE_PROFILER_TRACE_IDLE;
static _Atomic(event *) g_events;
/* Atomic (relaxed) where trace_get_info reads them from any thread. */
static _Atomic uint32_t g_cap;
static _Atomic uint64_t g_next, g_dropped;
static _Atomic uint64_t g_begin_ns, g_end_ns;
static uint64_t g_span_ns;
static _Atomic uint32_t g_frames;
static uint32_t g_capture_id;
static _Atomic uint32_t g_capture_id_pub;
static uint64_t g_prev_frame_ns;
static uint32_t g_prev_frame;
static char g_gpu_mode[64];
static name_chunk *g_names;

static pthread_mutex_t g_track_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_track_names[MAX_TRACKS][80];
static bool g_track_gpu[MAX_TRACKS]; /* a queue's track: sorted after the threads */
static _Atomic uint32_t g_n_tracks;
/* Graphics thread: each queue's track in the capture (0: none yet). */
static uint16_t g_queue_track[SP_MAX_QUEUES];

static _Thread_local struct {
	uint32_t capture_id;
	uint16_t track;
	char name[64];
} t_track;

void source_profiler_trace_name_thread(const char *name)
{
	if (name)
		snprintf(t_track.name, sizeof t_track.name, "%s", name);
	t_track.capture_id = 0;
}

/* The calling thread's track in the current capture. */
static uint16_t thread_track(void)
{
	uint32_t id = atomic_load_explicit(&g_capture_id_pub, memory_order_relaxed);
	if (SP_LIKELY(t_track.capture_id == id))
		return t_track.track;
	pthread_mutex_lock(&g_track_lock);
	uint32_t n = atomic_load(&g_n_tracks);
	uint16_t track = TRACK_FRAMES;
	if (n < MAX_TRACKS) {
		const char *name = t_track.name[0] ? t_track.name : sp_perf_routine();
		snprintf(g_track_names[n], sizeof g_track_names[n], "%s", name);
		for (uint32_t i = 2; i < n; i++) {
			if (strcmp(g_track_names[i], g_track_names[n]) == 0) {
				snprintf(g_track_names[n], sizeof g_track_names[n], "%s #%u", name, n);
				break;
			}
		}
		track = (uint16_t)n;
		atomic_store(&g_n_tracks, n + 1);
	}
	pthread_mutex_unlock(&g_track_lock);
	t_track.capture_id = id;
	t_track.track = track;
	return track;
}

uint32_t sp_trace_capture_id(void)
{
	return atomic_load_explicit(&g_capture_id_pub, memory_order_relaxed);
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
	if (g_queue_track[queue])
		return g_queue_track[queue];
	pthread_mutex_lock(&g_track_lock);
	uint32_t n = atomic_load(&g_n_tracks);
	uint16_t track = TRACK_FRAMES;
	if (n < MAX_TRACKS) {
		const char *name = source_profiler_queue_name(queue);
		snprintf(g_track_names[n], sizeof g_track_names[n], "GPU %s (%s)",
			 name ? name : "queue", sp_gpu_queue_mode(queue));
		g_track_gpu[n] = true;
		track = (uint16_t)n;
		atomic_store(&g_n_tracks, n + 1);
	}
	pthread_mutex_unlock(&g_track_lock);
	g_queue_track[queue] = track;
	return track;
}

static event *claim(void)
{
	event *evs = atomic_load_explicit(&g_events, memory_order_acquire);
	if (!evs)
		return NULL;
	uint64_t i = atomic_fetch_add_explicit(&g_next, 1, memory_order_relaxed);
	if (i >= atomic_load_explicit(&g_cap, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
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
	if (work && g_work) {
		size_t i = (size_t)(e - atomic_load_explicit(&g_events, memory_order_relaxed));
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			g_work[i][c] = work[c] > UINT32_MAX ? UINT32_MAX : (uint32_t)work[c];
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
	if (!g_names || g_names->cap - g_names->used < len) {
		size_t cap = len > 65536 ? len : 65536;
		name_chunk *c = sp_alloc(sizeof *c + cap);
		if (!c)
			return "?";
		c->cap = cap;
		c->next = g_names;
		g_names = c;
	}
	char *d = g_names->data + g_names->used;
	memcpy(d, s, len);
	g_names->used += len;
	return d;
}

static const char *trace_entry_name(sp_entry *e)
{
	if (e->trace_gen == g_capture_id)
		return e->trace_name;
	const char *name = atomic_load_explicit(&e->name, memory_order_acquire);
	char buf[32];
	if (!name) {
		snprintf(buf, sizeof buf, "%p", (void *)SP_LOAD(e->key));
		name = buf;
	}
	e->trace_name = copy_name(name);
	e->trace_gen = g_capture_id;
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
	if (g_prev_frame_ns) {
		uint64_t dur = begin_ns - g_prev_frame_ns;
		put(EV_FRAME, TRACK_FRAMES, "frame", g_prev_frame_ns, dur, g_prev_frame, 0, 0);
		put(EV_FRAME_TIME, TRACK_FRAMES, "frame time", begin_ns, dur, g_prev_frame, 0, 0);
		atomic_fetch_add_explicit(&g_frames, 1, memory_order_relaxed);
	}
	g_prev_frame_ns = begin_ns;
	g_prev_frame = frame;
}

static void finish(uint64_t now)
{
	atomic_store(&sp_trace_recording, false);
	sp_trace_changed();
	atomic_store_explicit(&g_end_ns, now, memory_order_relaxed);
	atomic_store(&g_state, SOURCE_PROFILER_TRACE_FINISHED);
}

void sp_trace_maintain(uint64_t now)
{
	if (!atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
		return;
	if (now - atomic_load_explicit(&g_begin_ns, memory_order_relaxed) >= g_span_ns ||
	    atomic_load(&g_next) >= atomic_load_explicit(&g_cap, memory_order_relaxed))
		finish(now);
}

bool source_profiler_trace_start(const source_profiler_trace_desc *desc)
{
	if (atomic_load(&g_state) != SOURCE_PROFILER_TRACE_IDLE)
		return false;
	uint32_t cap = desc && desc->max_events ? desc->max_events : 1u << 20;
	event *evs = sp_alloc((size_t)cap * sizeof *evs);
	if (!evs)
		return false;
	/* Work counts beside, where they are counted (an out-of-memory trace
	 * goes on without them). */
	g_work = sp_work_wanted() ? sp_alloc((size_t)cap * sizeof *g_work) : NULL;
	g_work_counted = sp_work_counted();
	atomic_store_explicit(&g_cap, cap, memory_order_relaxed);
	g_span_ns = desc && desc->duration_ns ? desc->duration_ns : 5000000000ull;
	atomic_store(&g_next, 0);
	atomic_store(&g_dropped, 0);
	atomic_store_explicit(&g_frames, 0, memory_order_relaxed);
	g_prev_frame_ns = 0;
	snprintf(g_gpu_mode, sizeof g_gpu_mode, "%s", sp_gpu_mode());
	pthread_mutex_lock(&g_track_lock);
	snprintf(g_track_names[TRACK_FRAMES], sizeof g_track_names[0], "frames");
	snprintf(g_track_names[TRACK_GPU], sizeof g_track_names[0], "GPU (%s)", g_gpu_mode);
	memset(g_track_gpu, 0, sizeof g_track_gpu);
	g_track_gpu[TRACK_GPU] = true;
	memset(g_queue_track, 0, sizeof g_queue_track);
	atomic_store(&g_n_tracks, 2);
	pthread_mutex_unlock(&g_track_lock);
	/* Capture ids start above 0 so fresh entries (trace_gen 0) never
	 * match one. */
	g_capture_id++;
	if (!g_capture_id)
		g_capture_id = 1;
	atomic_store(&g_capture_id_pub, g_capture_id);
	atomic_store_explicit(&g_events, evs, memory_order_release);
	atomic_store_explicit(&g_begin_ns, sp_now(), memory_order_relaxed);
	atomic_store_explicit(&g_end_ns, 0, memory_order_relaxed);
	atomic_store(&g_state, SOURCE_PROFILER_TRACE_RECORDING);
	atomic_store(&sp_trace_recording, true);
	sp_trace_changed();
	return true;
}

void source_profiler_trace_stop(void)
{
	if (atomic_load(&g_state) == SOURCE_PROFILER_TRACE_RECORDING)
		finish(sp_now());
}

int source_profiler_trace_state(void)
{
	return atomic_load(&g_state);
}

void source_profiler_trace_get_info(source_profiler_trace_info *info)
{
	if (!info)
		return;
	uint64_t n = atomic_load(&g_next);
	uint32_t cap = atomic_load_explicit(&g_cap, memory_order_relaxed);
	*info = (source_profiler_trace_info){
		.events = n < cap ? n : cap,
		.dropped = atomic_load(&g_dropped),
		.begin_ns = atomic_load_explicit(&g_begin_ns, memory_order_relaxed),
		.end_ns = atomic_load_explicit(&g_end_ns, memory_order_relaxed),
		.frames = atomic_load_explicit(&g_frames, memory_order_relaxed),
	};
}

void source_profiler_trace_discard(void)
{
	source_profiler_trace_stop();
	event *evs = atomic_load(&g_events);
	atomic_store(&g_events, NULL);
	sp_rcu_synchronize(); /* PERF blocks of other threads may be writing */
	sp_free(evs, (size_t)atomic_load_explicit(&g_cap, memory_order_relaxed) * sizeof *evs);
	sp_free(g_work, (size_t)atomic_load_explicit(&g_cap, memory_order_relaxed) * sizeof *g_work);
	g_work = NULL;
	while (g_names) {
		name_chunk *next = g_names->next;
		sp_free(g_names, sizeof *g_names + g_names->cap);
		g_names = next;
	}
	atomic_store(&g_state, SOURCE_PROFILER_TRACE_IDLE);
}

/* --- JSON ----------------------------------------------------------------- */

static void put_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Microseconds with ns precision, from ns relative to the base. */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static const event *g_sort_events;

static int by_track_ts(const void *a, const void *b)
{
	const event *x = &g_sort_events[*(const uint32_t *)a];
	const event *y = &g_sort_events[*(const uint32_t *)b];
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* Longer first, so a container precedes what it contains. */
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static const char *category(uint8_t type)
{
	switch (type) {
	case EV_TICK:
		return "tick";
	case EV_RENDER:
		return "render";
	case EV_GPU:
		return "gpu";
	case EV_GPU_FRAME:
		return "gpu_frame";
	case EV_BLOCK:
		return "block";
	default:
		return "frame";
	}
}

typedef struct sample_list {
	FILE *f;
	uint32_t n;
} sample_list;

static void source_samples(const void *source, const char *name, void *user)
{
	sample_list *sl = user;
	uint32_t cpu = 0, gpu = 0;
	if (!source_profiler_get_sample_counts(source, &cpu, &gpu))
		return;
	fprintf(sl->f, "%s{\"name\":", sl->n++ ? "," : "");
	put_json_string(sl->f, name);
	fprintf(sl->f, ",\"cpu_samples\":%u,\"gpu_samples\":%u}", cpu, gpu);
}

int source_profiler_trace_write_json(FILE *f)
{
	if (atomic_load(&g_state) != SOURCE_PROFILER_TRACE_FINISHED || !f) {
		errno = EINVAL;
		return -1;
	}
	event *evs = atomic_load(&g_events);
	uint64_t n64 = atomic_load(&g_next);
	uint32_t cap = atomic_load_explicit(&g_cap, memory_order_relaxed);
	uint32_t n = (uint32_t)(n64 < cap ? n64 : cap);

	/* Base: the earliest stamp, so every ts is >= 0. */
	uint64_t base = atomic_load_explicit(&g_begin_ns, memory_order_relaxed);
	for (uint32_t i = 0; i < n; i++)
		if (atomic_load_explicit(&evs[i].type, memory_order_acquire) && evs[i].ts < base)
			base = evs[i].ts;

	/* GPU events may overlap where a device pipelines one source's work
	 * into the next; X events on one track must nest, so a GPU event
	 * starts no earlier than the previous one on the track ended. */
	uint32_t *gpu = malloc((size_t)n * sizeof *gpu + 1);
	uint32_t n_gpu = 0;
	uint64_t clamped = 0;
	for (uint32_t i = 0; gpu && i < n; i++)
		if (atomic_load_explicit(&evs[i].type, memory_order_acquire) == EV_GPU)
			gpu[n_gpu++] = i;
	if (gpu) {
		g_sort_events = evs;
		qsort(gpu, n_gpu, sizeof *gpu, by_track_ts);
		uint64_t prev_end = 0;
		for (uint32_t k = 0; k < n_gpu; k++) {
			event *e = &evs[gpu[k]];
			if (k && e->track != evs[gpu[k - 1]].track)
				prev_end = 0; /* each queue's track on its own */
			if (e->ts < prev_end) {
				uint64_t end = e->ts + e->dur;
				e->ts = prev_end;
				e->dur = end > prev_end ? end - prev_end : 0;
				clamped++;
			}
			prev_end = e->ts + e->dur;
		}
		free(gpu);
	}

	fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"srcprof\","
		   "\"clock\":");
	put_json_string(f, srcprof_clock_source());
	fprintf(f, ",\"gpu_mode\":");
	put_json_string(f, g_gpu_mode);
	fprintf(f, ",\"frames\":%u,\"dropped_events\":%llu,\"gpu_events_clamped\":%llu,",
		atomic_load_explicit(&g_frames, memory_order_relaxed),
		(unsigned long long)atomic_load(&g_dropped), (unsigned long long)clamped);
	fprintf(f, "\"gpu_resolution_ns\":%llu,", (unsigned long long)sp_gpu_resolution());
	/* What each source's figures stood on when the trace was written. */
	fprintf(f, "\"sources\":[");
	sample_list sl = {f, 0};
	source_profiler_enum_sources(source_samples, &sl);
	fprintf(f, "]},\n");
	fprintf(f, "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
		   "\"args\":{\"name\":\"srcprof\"}}");
	uint32_t tracks = atomic_load(&g_n_tracks);
	for (uint32_t t = 0; t < tracks; t++) {
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{"
			   "\"name\":",
			t);
		put_json_string(f, g_track_names[t]);
		fprintf(f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			   "\"args\":{\"sort_index\":%u}}",
			t, g_track_gpu[t] ? 1000u + t : t);
	}
	for (uint32_t i = 0; i < n; i++) {
		const event *e = &evs[i];
		uint8_t type = atomic_load_explicit(&e->type, memory_order_acquire);
		if (type == EV_NONE)
			continue;
		if (type == EV_FRAME_TIME) {
			fprintf(f, ",\n{\"name\":\"frame time\",\"ph\":\"C\",\"pid\":1,\"tid\":0,\"ts\":");
			put_us(f, e->ts - base);
			fprintf(f, ",\"args\":{\"ms\":%.3f}}", (double)e->dur / 1e6);
			continue;
		}
		fprintf(f, ",\n{\"name\":");
		if (type == EV_FRAME || type == EV_GPU_FRAME) {
			char buf[48];
			snprintf(buf, sizeof buf, "%s %u", type == EV_FRAME ? "frame" : "GPU frame",
				 e->frame);
			put_json_string(f, buf);
		} else {
			put_json_string(f, e->name);
		}
		fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", category(type),
			e->track);
		put_us(f, e->ts - base);
		fprintf(f, ",\"dur\":");
		put_us(f, e->dur);
		fprintf(f, ",\"args\":{");
		if (type == EV_BLOCK) {
			fprintf(f, "\"depth\":%u", e->depth);
		} else {
			fprintf(f, "\"frame\":%u", e->frame);
			if (type == EV_RENDER || type == EV_GPU) {
				const char *pass = source_profiler_pass_name(e->pass);
				fprintf(f, ",\"pass\":");
				put_json_string(f, pass ? pass : "default");
			}
			/* Its render's work counts, those counted. */
			static const char *const keys[SOURCE_PROFILER_COUNTERS] = {
				"input_vertices",       "input_primitives",    "vs_invocations",
				"clipping_invocations", "clipping_primitives", "fs_invocations",
				"cs_invocations"};
			if (type == EV_GPU && e->work && g_work)
				for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
					if (g_work_counted & (1u << c))
						fprintf(f, ",\"%s\":%u", keys[c], g_work[e->work - 1][c]);
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n]}\n");
	fflush(f);
	return ferror(f) ? -1 : 0;
}
