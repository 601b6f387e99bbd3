/* Nested timing blocks per thread (Cyber RT style). Each thread gets its
 * state on first use, from the heap (a 1,024-block frame is too large for
 * static TLS in a shared library), freed when the thread exits. */
#include "srcprof/perf_block.h"

#include "sp_clock.h"
#include "sp_trace.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct open_block {
	const char *name;
	uint64_t begin_ns;
	uint32_t serial;
} open_block;

typedef struct done_block {
	const char *name;
	uint64_t begin_ns, end_ns;
	uint32_t depth;
} done_block;

typedef struct thread_state {
	open_block stack[PERF_BLOCK_MAX_DEPTH];
	uint32_t depth;
	uint32_t hidden; /* levels opened beyond PERF_BLOCK_MAX_DEPTH */
	uint32_t serial;
	done_block done[PERF_BLOCK_MAX_FRAME];
	uint32_t n_done;
	char routine[64];
	char *buf;
	size_t buf_cap;
} thread_state;

static _Atomic(FILE *) g_out;
/* stdio locks each FILE already; this lock makes a frame one unit for
 * every writer and lets TSan see the ordering (glibc's own lock is
 * invisible to it). */
static pthread_mutex_t g_out_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t g_dropped;
static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static _Thread_local thread_state *t_state;

static void state_free(void *p)
{
	thread_state *s = p;
	if (s) {
		free(s->buf);
		free(s);
	}
}

static void key_init(void)
{
	pthread_key_create(&g_key, state_free);
}

static thread_state *state(void)
{
	if (SP_LIKELY(t_state))
		return t_state;
	pthread_once(&g_key_once, key_init);
	thread_state *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	strcpy(s->routine, "default_croutine");
	pthread_setspecific(g_key, s);
	t_state = s;
	return s;
}

void perf_block_set_output(FILE *out)
{
	/* Under the lock: once this returns, no thread writes to the old FILE
	 * any more and the caller may close it. */
	pthread_mutex_lock(&g_out_lock);
	atomic_store_explicit(&g_out, out, memory_order_release);
	pthread_mutex_unlock(&g_out_lock);
}

void perf_block_set_routine(const char *name)
{
	thread_state *s = state();
	if (s && name) {
		snprintf(s->routine, sizeof s->routine, "%s", name);
		sp_trace_set_routine(name); /* its track's name in captures */
	}
}

uint64_t perf_block_dropped(void)
{
	return atomic_load_explicit(&g_dropped, memory_order_relaxed);
}

perf_block_scope perf_block_begin(const char *name)
{
	thread_state *s = state();
	if (SP_UNLIKELY(!s))
		return (perf_block_scope){0};
	if (SP_UNLIKELY(s->depth == PERF_BLOCK_MAX_DEPTH)) {
		s->hidden++;
		atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
		return (perf_block_scope){0};
	}
	if (++s->serial == 0)
		s->serial = 1;
	s->stack[s->depth++] = (open_block){name ? name : "(null)", sp_now(), s->serial};
	return (perf_block_scope){s->serial};
}

static void write_frame(thread_state *s)
{
	size_t need = strlen(s->routine) + 16 + (size_t)s->n_done * 80;
	for (uint32_t i = 0; i < s->n_done; i++)
		need += strlen(s->done[i].name);
	if (need > s->buf_cap) {
		char *b = realloc(s->buf, need);
		if (!b)
			return;
		s->buf = b;
		s->buf_cap = need;
	}
	size_t len = (size_t)snprintf(s->buf, s->buf_cap, "Frame : %s\n", s->routine);
	for (uint32_t i = 0; i < s->n_done && len < s->buf_cap; i++) {
		const done_block *d = &s->done[i];
		len += (size_t)snprintf(s->buf + len, s->buf_cap - len, "%u,%s,%llu,%llu,%llu\n",
					d->depth, d->name,
					(unsigned long long)(d->end_ns - d->begin_ns),
					(unsigned long long)d->begin_ns,
					(unsigned long long)d->end_ns);
	}
	pthread_mutex_lock(&g_out_lock);
	FILE *out = atomic_load_explicit(&g_out, memory_order_relaxed);
	if (out)
		fwrite(s->buf, 1, len < s->buf_cap ? len : s->buf_cap - 1, out);
	pthread_mutex_unlock(&g_out_lock);
}

static void close_top(thread_state *s)
{
	uint64_t end = sp_now();
	open_block b = s->stack[--s->depth];
	uint32_t depth = s->depth + 1;
	FILE *out = atomic_load_explicit(&g_out, memory_order_acquire);
	if (out) {
		if (s->n_done < PERF_BLOCK_MAX_FRAME)
			s->done[s->n_done++] = (done_block){b.name, b.begin_ns, end, depth};
		else
			atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
	}
	if (atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
		sp_trace_block(b.name, depth, b.begin_ns, end);
	if (s->depth == 0) {
		if (s->n_done)
			write_frame(s);
		s->n_done = 0;
	}
}

void perf_block_end(void)
{
	thread_state *s = t_state;
	if (!s)
		return;
	if (s->hidden) {
		s->hidden--;
		return;
	}
	if (s->depth)
		close_top(s);
}

void perf_block_scope_exit(perf_block_scope *scope)
{
	thread_state *s = t_state;
	if (!s)
		return;
	if (!scope->serial) {
		if (s->hidden)
			s->hidden--;
		return;
	}
	for (uint32_t i = s->depth; i-- > 0;) {
		if (s->stack[i].serial == scope->serial) {
			while (s->depth > i)
				close_top(s);
			return;
		}
	}
	/* Already closed by PERF_BLOCK_END. */
}
