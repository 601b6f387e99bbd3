/* The profiler's GPU timer on OpenGL: GL_TIMESTAMP query objects written
 * with glQueryCounter (pairs nest, unlike GL_TIME_ELAPSED), one array per
 * profiler frame slot, read a frame later by polling
 * GL_QUERY_RESULT_AVAILABLE, never waiting. Desktop GL has no disjoint
 * flag (GL_GPU_DISJOINT_EXT is GLES only), so reads are OK or not ready.
 *
 * Placement. "plain" issues a bare glQueryCounter. "flushed" follows each
 * one with glFlush: llvmpipe bins draws and timestamps into per-tile lists
 * that only run at a flush, and a stamp reads the moment the last tile
 * reached it, so a stamp is true only when the work is flushed right after
 * it (PLATFORM.md: within 1% of serialized truth, where bare stamps read
 * ~1/400 of it). The flushes cost a fixed amount per timer, which the
 * profiler measures with an empty timer and subtracts. */
#include "gl_internal.h"
#include "srcprof/clock.h"

#include <stdlib.h>
#include <string.h>

static struct {
	bool ready, flushed, armed;
	GLuint *queries[GL_FIF];
	uint32_t capacity[GL_FIF];
	uint64_t valid_mask;
	int64_t offset_ns; /* GPU ns -> srcprof clock */
	uint64_t offset_at;
	sp_gpu_timer_backend backend;
} T;

const char *gl_timer_mode(void)
{
	return T.flushed ? "gl-timestamp+flush" : "gl-timestamp";
}

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user;
	uint32_t want = eng_timer_pool_growth(T.capacity[slot], queries);
	if (!want)
		return T.capacity[slot];
	GLuint *q = realloc(T.queries[slot], (size_t)want * sizeof *q);
	if (!q) {
		eng_warn("gl: cannot grow the timestamp queries to %u", want);
		return T.capacity[slot];
	}
	T.queries[slot] = q;
	glCreateQueries(GL_TIMESTAMP, (GLsizei)(want - T.capacity[slot]), q + T.capacity[slot]);
	T.capacity[slot] = want;
	return want;
}

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user;
	(void)kind;
	if (!T.armed || query >= T.capacity[slot])
		return;
	glQueryCounter(T.queries[slot][query], GL_TIMESTAMP);
	if (T.flushed)
		glFlush();
}

static sp_gpu_read timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	if (!count || count > T.capacity[slot] || (eng_gfx_faults() & ENG_FAULT_TIMER_UNAVAILABLE))
		return SP_GPU_READ_NOT_READY;
	const GLuint *q = T.queries[slot];
	/* The last stamp is the likeliest to be pending: ask it first. */
	for (uint32_t i = count; i-- > 0;) {
		GLuint available = GL_FALSE;
		glGetQueryObjectuiv(q[i], GL_QUERY_RESULT_AVAILABLE, &available);
		if (!available)
			return SP_GPU_READ_NOT_READY;
	}
	for (uint32_t i = 0; i < count; i++)
		glGetQueryObjectui64v(q[i], GL_QUERY_RESULT, &ns[i]);
	/* Unwrap against the frame's first stamp when fewer than 64 bits are
	 * valid; GL timestamps are nanoseconds already. */
	uint64_t base = ns[0] & T.valid_mask;
	for (uint32_t i = 0; i < count; i++)
		ns[i] = base + (((ns[i] & T.valid_mask) - base) & T.valid_mask);
	return SP_GPU_READ_OK;
}

/* GPU -> profiler clock: the GL clock read "now" (Mesa's is
 * CLOCK_MONOTONIC) between two profiler clock reads; the tightest
 * bracket of a few tries wins. */
static void calibrate(void)
{
	uint64_t best = UINT64_MAX;
	for (int attempt = 0; attempt < 5; attempt++) {
		uint64_t before = srcprof_clock_ns();
		GLint64 gpu = 0;
		glGetInteger64v(GL_TIMESTAMP, &gpu);
		uint64_t after = srcprof_clock_ns();
		if (after - before >= best)
			continue;
		best = after - before;
		uint64_t mid = before + (after - before) / 2;
		T.offset_ns = (int64_t)(mid - ((uint64_t)gpu & T.valid_mask));
	}
	T.offset_at = srcprof_clock_monotonic_ns();
}

static int64_t timer_offset(void *user)
{
	(void)user;
	return T.offset_ns;
}

eng_result gl_timer_init(bool flushed)
{
	memset(&T, 0, sizeof T);
	GLint bits = 0;
	glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
	if (bits <= 0) {
		eng_warn("gl: GL_TIMESTAMP queries have 0 counter bits on this driver; GPU timing "
			 "is off");
		return ENG_ERR_NO_DEVICE;
	}
	T.flushed = flushed;
	T.valid_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	T.backend = (sp_gpu_timer_backend){
		.mode = gl_timer_mode(),
		.reserve = timer_reserve,
		.write = timer_write,
		.read = timer_read,
		.cpu_offset_ns = timer_offset,
		/* Each flushed stamp starts a rasterizer scene of its own: a fixed
		 * cost per timer that is not the source's. */
		.subtract_empty_timer = flushed,
	};
	calibrate();
	T.ready = true;
	return ENG_OK;
}

void gl_timer_shutdown(void)
{
	for (int i = 0; i < GL_FIF; i++) {
		if (T.capacity[i])
			glDeleteQueries((GLsizei)T.capacity[i], T.queries[i]);
		free(T.queries[i]);
	}
	memset(&T, 0, sizeof T);
}

const sp_gpu_timer_backend *gl_timer_backend(void)
{
	return T.ready ? &T.backend : NULL;
}

void gl_timer_arm(bool armed)
{
	T.armed = armed && T.ready;
	if (!T.armed)
		return;
	if (srcprof_clock_monotonic_ns() - T.offset_at > 1000000000ull)
		calibrate();
}
