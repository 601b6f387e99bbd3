/* Counted allocation and the log hook. Every heap block the profiler holds
 * goes through sp_alloc, so source_profiler_get_stats can say how many
 * allocations were made and how many bytes are held. */
#include "sp_util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint64_t g_allocs;
static _Atomic size_t g_bytes;

/* The log's function and its user pointer, read and set together under
 * the lock (a line is rare), so that neither is ever paired with the
 * other's predecessor. */
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*g_log_fn)(int, const char *, void *);
static void *g_log_user;

void *sp_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		sp_log(SOURCE_PROFILER_LOG_ERROR, "out of memory allocating %zu bytes", size);
		return NULL;
	}
	atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&g_bytes, size, memory_order_relaxed);
	return p;
}

void sp_alloc_account(size_t size, int sign)
{
	if (sign > 0) {
		atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&g_bytes, size, memory_order_relaxed);
	} else {
		atomic_fetch_sub_explicit(&g_bytes, size, memory_order_relaxed);
	}
}

void sp_free(void *p, size_t size)
{
	if (!p)
		return;
	atomic_fetch_sub_explicit(&g_bytes, size, memory_order_relaxed);
	free(p);
}

char *sp_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = sp_alloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void sp_free_str(char *s)
{
	if (s)
		sp_free(s, strlen(s) + 1);
}

uint64_t sp_alloc_count(void)
{
	return atomic_load_explicit(&g_allocs, memory_order_relaxed);
}

size_t sp_alloc_bytes(void)
{
	return atomic_load_explicit(&g_bytes, memory_order_relaxed);
}

void source_profiler_set_log(void (*fn)(int level, const char *msg, void *user), void *user)
{
	pthread_mutex_lock(&g_log_lock);
	g_log_fn = fn;
	g_log_user = user;
	pthread_mutex_unlock(&g_log_lock);
}

static void log_va(int level, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	pthread_mutex_lock(&g_log_lock);
	void (*fn)(int, const char *, void *) = g_log_fn;
	void *user = g_log_user;
	pthread_mutex_unlock(&g_log_lock);
	if (fn) {
		fn(level, msg, user);
		return;
	}
	static const char *const names[] = {"error", "warning", "info"};
	const char *name = level >= 0 && level <= 2 ? names[level] : "log";
	fprintf(stderr, "srcprof: %s: %s\n", name, msg);
}

void sp_log(int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_va(level, fmt, ap);
	va_end(ap);
}

void source_profiler_log(int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_va(level, fmt, ap);
	va_end(ap);
}
