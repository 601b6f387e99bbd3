/* The profiler's GPU timer on OpenGL (srcprof/gl.h): GL_TIMESTAMP query
 * objects, an array per frame slot that grows when the profiler asks (query
 * q of a slot is stamp q), written by glQueryCounter - followed by glFinish
 * in flushed mode - and read by polling availability, the last stamp first
 * (the likeliest to be pending).
 *
 * Flushed mode waits (glFinish) rather than only flushing: llvmpipe
 * rasterizes a flushed scene on its own threads while this thread goes on
 * binning the next draws, so with glFlush alone the next source's vertex
 * work overlaps (and slows) the rasterization the stamp measures, and a
 * source whose render waits for earlier scenes (a texture it samples, an
 * upload) holds that wait. docs/gpu-timing.md, "Flushed timing". */
#include "srcprof/clock.h"
#include "srcprof/gl.h"
#include "srcprof/source_profiler.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* The little of GL this needs, without a GL header. */
typedef unsigned int gl_enum;
typedef unsigned int gl_uint;
typedef int gl_int;
typedef int gl_sizei;
typedef int64_t gl_int64;
typedef uint64_t gl_uint64;
#define GL_VENDOR_ 0x1F00
#define GL_RENDERER_ 0x1F01
#define GL_QUERY_COUNTER_BITS_ 0x8864
#define GL_QUERY_RESULT_ 0x8866
#define GL_QUERY_RESULT_AVAILABLE_ 0x8867
#define GL_TIMESTAMP_ 0x8E28
#define GL_EXTENSIONS_ 0x1F03
#define GL_MAJOR_VERSION_ 0x821B
#define GL_MINOR_VERSION_ 0x821C
#define GL_NUM_EXTENSIONS_ 0x821D

#define MAX_SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
#define CALIBRATE_EVERY_NS 1000000000ull

typedef struct gl_fns {
	const unsigned char *(*GetString)(gl_enum name);
	void (*GetQueryiv)(gl_enum target, gl_enum pname, gl_int *params);
	void (*GenQueries)(gl_sizei n, gl_uint *ids);
	void (*DeleteQueries)(gl_sizei n, const gl_uint *ids);
	void (*QueryCounter)(gl_uint id, gl_enum target);
	void (*GetQueryObjectuiv)(gl_uint id, gl_enum pname, gl_uint *params);
	void (*GetQueryObjectui64v)(gl_uint id, gl_enum pname, gl_uint64 *params);
	void (*Finish)(void);
	void (*GetInteger64v)(gl_enum pname, gl_int64 *data);
	/* Work counters only. */
	void (*GetIntegerv)(gl_enum pname, gl_int *data);
	const unsigned char *(*GetStringi)(gl_enum name, gl_uint index);
	void (*BeginQuery)(gl_enum target, gl_uint id);
	void (*EndQuery)(gl_enum target);
} gl_fns;

/* The pipeline statistics targets (GL 4.6, ARB_pipeline_statistics_query),
 * in source_profiler_counter's order. */
static const gl_enum g_work_targets[SOURCE_PROFILER_COUNTERS] = {
	0x82EE, /* GL_VERTICES_SUBMITTED */
	0x82EF, /* GL_PRIMITIVES_SUBMITTED */
	0x82F0, /* GL_VERTEX_SHADER_INVOCATIONS */
	0x82F6, /* GL_CLIPPING_INPUT_PRIMITIVES */
	0x82F7, /* GL_CLIPPING_OUTPUT_PRIMITIVES */
	0x82F4, /* GL_FRAGMENT_SHADER_INVOCATIONS */
	0x82F5, /* GL_COMPUTE_SHADER_INVOCATIONS */
};

unsigned srcprof_gl_timer_work_target(source_profiler_counter c)
{
	return (unsigned)c < SOURCE_PROFILER_COUNTERS ? g_work_targets[c] : 0;
}

struct srcprof_gl_timer {
	gl_fns fn;
	bool flushed;
	uint32_t n_slots;
	gl_uint *queries[MAX_SLOTS];
	uint32_t capacity[MAX_SLOTS];
	uint64_t valid_mask;
	int64_t offset_ns; /* GPU ns + offset = profiler clock */
	uint64_t offset_at;
	bool warned_slots, warned_names;
	/* The thread it was created on, where its context is current: GL
	 * query objects belong to one context. */
	pthread_t owner;
	_Atomic bool warned_thread;
	/* Work counters: a query name per counted counter and render (set i
	 * at work[slot][i * SOURCE_PROFILER_COUNTERS + c], 0 where not
	 * counted), and which sets this slot's frame began and ended (GL
	 * queries keep an older frame's result: those are not read). */
	uint32_t work_mask;
	gl_uint *work[MAX_SLOTS];
	uint8_t *work_done[MAX_SLOTS];
	uint32_t work_sets[MAX_SLOTS];
	sp_gpu_timer_backend backend;
};

/* Called on the thread it was made on; else refused, said once. */
static bool on_owner(srcprof_gl_timer *t)
{
	if (pthread_equal(pthread_self(), t->owner))
		return true;
	if (!atomic_exchange(&t->warned_thread, true))
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: used on a thread other than the one it was created on; "
				    "GL queries belong to the context current there, so this is "
				    "refused and those frames have no GPU samples on it");
	return false;
}

static srcprof_gl_proc process_lookup(const char *name)
{
	static void *(*egl)(const char *), *(*glx)(const char *);
	static bool looked;
	if (!looked) {
		void *p = dlsym(RTLD_DEFAULT, "eglGetProcAddress");
		memcpy(&egl, &p, sizeof egl);
		p = dlsym(RTLD_DEFAULT, "glXGetProcAddressARB");
		memcpy(&glx, &p, sizeof glx);
		looked = true;
	}
	void *p = egl ? egl(name) : NULL;
	if (!p && glx)
		p = glx(name);
	if (!p)
		p = dlsym(RTLD_DEFAULT, name);
	srcprof_gl_proc f;
	memcpy(&f, &p, sizeof f);
	return f;
}

/* Names for `sets` renders' counters of a slot; a slot that cannot have
 * them keeps the sets it has (renders beyond count nothing). */
static void work_reserve(srcprof_gl_timer *t, uint32_t slot, uint32_t sets)
{
	uint32_t have = t->work_sets[slot];
	if (sets <= have)
		return;
	gl_uint *w = realloc(t->work[slot], (size_t)sets * SOURCE_PROFILER_COUNTERS * sizeof *w);
	if (w)
		t->work[slot] = w;
	uint8_t *done = w ? realloc(t->work_done[slot], sets) : NULL;
	if (!done)
		return;
	t->work_done[slot] = done;
	memset(done + have, 0, sets - have);
	gl_uint *names = w + (size_t)have * SOURCE_PROFILER_COUNTERS;
	size_t n = (size_t)(sets - have) * SOURCE_PROFILER_COUNTERS;
	memset(names, 0, n * sizeof *names);
	t->fn.GenQueries((gl_sizei)n, names);
	for (size_t i = 0; i < n; i++)
		if (!names[i]) {
			t->fn.DeleteQueries((gl_sizei)n, names); /* 0s are ignored */
			return;
		}
	t->work_sets[slot] = sets;
}

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	srcprof_gl_timer *t = user;
	if (!on_owner(t))
		return 0;
	if (slot >= t->n_slots) {
		if (!t->warned_slots)
			source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
					    "gl timer: the profiler runs %u frames in flight, the timer "
					    "was created for %u; frames of slot %u are not timed",
					    source_profiler_frames_in_flight(), t->n_slots, slot);
		t->warned_slots = true;
		return 0;
	}
	if (t->capacity[slot] >= queries)
		return t->capacity[slot];
	uint32_t want = queries + queries / 2; /* grow rarely */
	gl_uint *q = realloc(t->queries[slot], (size_t)want * sizeof *q);
	if (!q) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: cannot grow the timestamp queries to %u", want);
		return t->capacity[slot];
	}
	t->queries[slot] = q;
	/* Names 0 until glGenQueries fills them: with no context current it
	 * does nothing, and a garbage name could be a query of the renderer's. */
	uint32_t have = t->capacity[slot];
	memset(q + have, 0, (size_t)(want - have) * sizeof *q);
	t->fn.GenQueries((gl_sizei)(want - have), q + have);
	for (uint32_t i = have; i < want; i++) {
		if (!q[i]) {
			if (i > have)
				t->fn.DeleteQueries((gl_sizei)(i - have), q + have);
			if (!t->warned_names)
				source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
						    "gl timer: glGenQueries gave no query names (is "
						    "the GL context current at "
						    "source_profiler_frame_begin?); frames needing "
						    "more than %u queries are not timed",
						    have);
			t->warned_names = true;
			return have;
		}
	}
	t->capacity[slot] = want;
	if (t->work_mask)
		work_reserve(t, slot, (want - 2) / 2);
	return want;
}

/* GPU -> profiler clock: the GL clock read "now" between two profiler clock
 * reads; the tightest bracket of a few tries wins. */
static void calibrate(srcprof_gl_timer *t)
{
	uint64_t best = UINT64_MAX;
	for (int attempt = 0; attempt < 5; attempt++) {
		uint64_t before = srcprof_clock_ns();
		gl_int64 gpu = 0;
		t->fn.GetInteger64v(GL_TIMESTAMP_, &gpu);
		uint64_t after = srcprof_clock_ns();
		if (after - before >= best)
			continue;
		best = after - before;
		uint64_t mid = before + (after - before) / 2;
		t->offset_ns = (int64_t)(mid - ((uint64_t)gpu & t->valid_mask));
	}
	t->offset_at = srcprof_clock_monotonic_ns();
}

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	srcprof_gl_timer *t = user;
	if (slot >= t->n_slots || query >= t->capacity[slot] || !on_owner(t))
		return;
	if (kind == SP_GPU_STAMP_FRAME_BEGIN &&
	    srcprof_clock_monotonic_ns() - t->offset_at > CALIBRATE_EVERY_NS)
		calibrate(t);
	if (kind == SP_GPU_STAMP_FRAME_BEGIN && t->work_sets[slot])
		memset(t->work_done[slot], 0, t->work_sets[slot]);
	t->fn.QueryCounter(t->queries[slot][query], GL_TIMESTAMP_);
	if (t->flushed)
		t->fn.Finish();
}

static sp_gpu_read timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	srcprof_gl_timer *t = user;
	if (slot >= t->n_slots || !count || count > t->capacity[slot] || !on_owner(t))
		return SP_GPU_READ_NOT_READY;
	const gl_uint *q = t->queries[slot];
	for (uint32_t i = count; i-- > 0;) {
		gl_uint available = 0;
		t->fn.GetQueryObjectuiv(q[i], GL_QUERY_RESULT_AVAILABLE_, &available);
		if (!available)
			return SP_GPU_READ_NOT_READY;
	}
	for (uint32_t i = 0; i < count; i++)
		t->fn.GetQueryObjectui64v(q[i], GL_QUERY_RESULT_, &ns[i]);
	/* Unwrap against the frame's first stamp when fewer than 64 bits are
	 * valid; GL timestamps are nanoseconds already. */
	uint64_t base = ns[0] & t->valid_mask;
	for (uint32_t i = 0; i < count; i++)
		ns[i] = base + (((ns[i] & t->valid_mask) - base) & t->valid_mask);
	return SP_GPU_READ_OK;
}

/* The render's counters start right after its begin stamp, on the
 * graphics thread (cmd: GL has no command buffers to name). */
static void timer_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	srcprof_gl_timer *t = user;
	(void)cmd;
	if (slot >= t->n_slots || index >= t->work_sets[slot] || !on_owner(t))
		return;
	const gl_uint *names = t->work[slot] + (size_t)index * SOURCE_PROFILER_COUNTERS;
	for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (t->work_mask & (1u << c))
			t->fn.BeginQuery(g_work_targets[c], names[c]);
}

static void timer_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	srcprof_gl_timer *t = user;
	(void)cmd;
	if (slot >= t->n_slots || index >= t->work_sets[slot] || !on_owner(t))
		return;
	for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (t->work_mask & (1u << c))
			t->fn.EndQuery(g_work_targets[c]);
	t->work_done[slot][index] = 1;
}

/* The sets this frame ended whose every counter is there, by polling. */
static sp_gpu_read timer_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				   uint8_t *avail)
{
	srcprof_gl_timer *t = user;
	if (slot >= t->n_slots || !on_owner(t))
		return SP_GPU_READ_OK;
	if (count > t->work_sets[slot])
		count = t->work_sets[slot];
	for (uint32_t i = 0; i < count; i++) {
		if (!t->work_done[slot][i])
			continue;
		const gl_uint *names = t->work[slot] + (size_t)i * SOURCE_PROFILER_COUNTERS;
		bool there = true;
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS && there; c++) {
			gl_uint available = 1;
			if (t->work_mask & (1u << c))
				t->fn.GetQueryObjectuiv(names[c], GL_QUERY_RESULT_AVAILABLE_, &available);
			there = available != 0;
		}
		if (!there)
			continue;
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			if (t->work_mask & (1u << c))
				t->fn.GetQueryObjectui64v(names[c], GL_QUERY_RESULT_,
							  &values[(size_t)i * SOURCE_PROFILER_COUNTERS + c]);
		avail[i] = 1;
	}
	return SP_GPU_READ_OK;
}

/* The counters this context counts: GL 4.6 or the extension, each target
 * with counter bits; none (said) without. */
static void setup_work(srcprof_gl_timer *t, srcprof_gl_proc (*get)(const char *),
		       const char *renderer)
{
	if (!get)
		get = process_lookup;
	t->fn.GetIntegerv = (__typeof__(t->fn.GetIntegerv))get("glGetIntegerv");
	t->fn.GetStringi = (__typeof__(t->fn.GetStringi))get("glGetStringi");
	t->fn.BeginQuery = (__typeof__(t->fn.BeginQuery))get("glBeginQuery");
	t->fn.EndQuery = (__typeof__(t->fn.EndQuery))get("glEndQuery");
	bool have = false;
	if (t->fn.GetIntegerv && t->fn.GetStringi && t->fn.BeginQuery && t->fn.EndQuery) {
		gl_int major = 0, minor = 0, n = 0;
		t->fn.GetIntegerv(GL_MAJOR_VERSION_, &major);
		t->fn.GetIntegerv(GL_MINOR_VERSION_, &minor);
		have = major > 4 || (major == 4 && minor >= 6);
		t->fn.GetIntegerv(GL_NUM_EXTENSIONS_, &n);
		for (gl_int i = 0; i < n && !have; i++) {
			const char *e = (const char *)t->fn.GetStringi(GL_EXTENSIONS_, (gl_uint)i);
			have = e && !strcmp(e, "GL_ARB_pipeline_statistics_query");
		}
	}
	if (have)
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
			gl_int bits = 0;
			t->fn.GetQueryiv(g_work_targets[c], GL_QUERY_COUNTER_BITS_, &bits);
			if (bits > 0)
				t->work_mask |= 1u << c;
		}
	if (!t->work_mask) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: %s has no pipeline statistics queries (GL 4.6 or "
				    "ARB_pipeline_statistics_query); work counters are n/a",
				    renderer);
		return;
	}
	t->backend.work_counters = t->work_mask;
	t->backend.work_begin = timer_work_begin;
	t->backend.work_end = timer_work_end;
	t->backend.read_work = timer_read_work;
}

static int64_t timer_offset(void *user)
{
	return ((srcprof_gl_timer *)user)->offset_ns;
}

static bool load(srcprof_gl_timer *t, srcprof_gl_proc (*get)(const char *))
{
	if (!get)
		get = process_lookup;
#define GL_FN(name) t->fn.name = (__typeof__(t->fn.name))get("gl" #name)
	GL_FN(GetString);
	GL_FN(GetQueryiv);
	GL_FN(GenQueries);
	GL_FN(DeleteQueries);
	GL_FN(QueryCounter);
	GL_FN(GetQueryObjectuiv);
	GL_FN(GetQueryObjectui64v);
	GL_FN(Finish);
	GL_FN(GetInteger64v);
#undef GL_FN
	return t->fn.GetString && t->fn.GetQueryiv && t->fn.GenQueries && t->fn.DeleteQueries &&
	       t->fn.QueryCounter && t->fn.GetQueryObjectuiv && t->fn.GetQueryObjectui64v &&
	       t->fn.Finish && t->fn.GetInteger64v;
}

static bool is_software(const char *renderer)
{
	return strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe");
}

srcprof_gl_timer *srcprof_gl_timer_create(const srcprof_gl_timer_desc *d)
{
	srcprof_gl_timer_desc zero = {0};
	if (!d)
		d = &zero;
	srcprof_gl_timer *t = calloc(1, sizeof *t);
	if (t)
		t->owner = pthread_self();
	if (!t)
		return NULL;
	if (!load(t, d->get_proc_address)) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: no glQueryCounter and friends (GL 3.3 or "
				    "ARB_timer_query); GPU timing is off");
		free(t);
		return NULL;
	}
	const char *renderer = (const char *)t->fn.GetString(GL_RENDERER_);
	if (!renderer) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: no current GL context; GPU timing is off");
		free(t);
		return NULL;
	}
	gl_int bits = 0;
	t->fn.GetQueryiv(GL_TIMESTAMP_, GL_QUERY_COUNTER_BITS_, &bits);
	if (bits <= 0) {
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "gl timer: GL_TIMESTAMP queries have 0 counter bits on %s; GPU "
				    "timing is off",
				    renderer);
		free(t);
		return NULL;
	}
	uint32_t slots = d->frames_in_flight ? d->frames_in_flight : source_profiler_frames_in_flight();
	if (slots < 1 || slots > MAX_SLOTS) {
		source_profiler_log(SOURCE_PROFILER_LOG_ERROR,
				    "gl timer: frames_in_flight %u is not 1 to %u; GPU timing is off",
				    slots, MAX_SLOTS);
		free(t);
		return NULL;
	}
	t->n_slots = slots;
	t->flushed = d->timing == SRCPROF_GPU_TIMING_FLUSHED ||
		     (d->timing == SRCPROF_GPU_TIMING_AUTO && is_software(renderer));
	t->valid_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	t->backend = (sp_gpu_timer_backend){
		.mode = t->flushed ? "gl-timestamp+flush" : "gl-timestamp",
		.user = t,
		.reserve = timer_reserve,
		.write = timer_write,
		.read = timer_read,
		.cpu_offset_ns = timer_offset,
		/* Each flushed stamp starts a rasterizer scene of its own: a fixed
		 * cost per timer that is not the source's. */
		.subtract_empty_timer = t->flushed,
		.costly = t->flushed,
	};
	if (d->work_counters)
		setup_work(t, d->get_proc_address, renderer);
	calibrate(t);
	return t;
}

const sp_gpu_timer_backend *srcprof_gl_timer_backend(const srcprof_gl_timer *t)
{
	return t ? &t->backend : NULL;
}

const char *srcprof_gl_timer_mode(const srcprof_gl_timer *t)
{
	return t ? t->backend.mode : "none";
}

void srcprof_gl_timer_destroy(srcprof_gl_timer *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n_slots; i++) {
		if (t->capacity[i])
			t->fn.DeleteQueries((gl_sizei)t->capacity[i], t->queries[i]);
		free(t->queries[i]);
		if (t->work_sets[i])
			t->fn.DeleteQueries((gl_sizei)(t->work_sets[i] * SOURCE_PROFILER_COUNTERS),
					    t->work[i]);
		free(t->work[i]);
		free(t->work_done[i]);
	}
	free(t);
}
