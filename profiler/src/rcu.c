/* Grace periods for memory that readers on other threads may hold.
 *
 * Readers (fill_result, exporters, async producers) count themselves into
 * one of two counters picked by the epoch. synchronize() flips the epoch and
 * waits for the old counter to drain; readers are a few dozen ns long, so
 * the wait is short, and new readers go to the other counter so a busy
 * reader cannot starve it. The epoch re-check in enter closes the window
 * between reading the epoch and counting in. */
#include "internal.h"

#include <pthread.h>
#include <sched.h>

static _Atomic unsigned g_epoch;
static _Atomic long g_readers[2];

unsigned sp_rcu_enter(void)
{
	for (;;) {
		unsigned e = atomic_load(&g_epoch);
		atomic_fetch_add(&g_readers[e & 1u], 1);
		if (atomic_load(&g_epoch) == e)
			return e & 1u;
		atomic_fetch_sub(&g_readers[e & 1u], 1);
	}
}

void sp_rcu_exit(unsigned idx)
{
	atomic_fetch_sub_explicit(&g_readers[idx], 1, memory_order_release);
}

void sp_rcu_synchronize(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&lock);
	unsigned e = atomic_fetch_add(&g_epoch, 1);
	unsigned spins = 0;
	while (atomic_load_explicit(&g_readers[e & 1u], memory_order_acquire) != 0) {
		if (++spins > 64)
			sched_yield();
	}
	pthread_mutex_unlock(&lock);
}

/* Retired blocks wait here for the next grace period. */
typedef struct retired {
	void *p;
	size_t size; /* 0: a string from sp_strdup */
} retired;

static pthread_mutex_t g_retire_lock = PTHREAD_MUTEX_INITIALIZER;
static retired *g_retired;
static size_t g_retired_n, g_retired_cap;

void sp_retire(void *p, size_t size)
{
	if (!p)
		return;
	pthread_mutex_lock(&g_retire_lock);
	if (g_retired_n == g_retired_cap) {
		size_t cap = g_retired_cap ? g_retired_cap * 2 : 64;
		retired *n = sp_alloc(cap * sizeof *n);
		if (!n) {
			/* Cannot defer: wait for readers here instead. */
			pthread_mutex_unlock(&g_retire_lock);
			sp_rcu_synchronize();
			if (size)
				sp_free(p, size);
			else
				sp_free_str(p);
			return;
		}
		for (size_t i = 0; i < g_retired_n; i++)
			n[i] = g_retired[i];
		sp_free(g_retired, g_retired_cap * sizeof *g_retired);
		g_retired = n;
		g_retired_cap = cap;
	}
	g_retired[g_retired_n++] = (retired){p, size};
	pthread_mutex_unlock(&g_retire_lock);
}

void sp_retire_flush(void)
{
	pthread_mutex_lock(&g_retire_lock);
	size_t n = g_retired_n;
	pthread_mutex_unlock(&g_retire_lock);
	if (!n)
		return;
	/* Everything retired before this point is unreachable for new readers;
	 * one grace period covers it. Blocks retired meanwhile wait for the
	 * next flush. */
	sp_rcu_synchronize();
	pthread_mutex_lock(&g_retire_lock);
	for (size_t i = 0; i < n; i++) {
		if (g_retired[i].size)
			sp_free(g_retired[i].p, g_retired[i].size);
		else
			sp_free_str(g_retired[i].p);
	}
	for (size_t i = n; i < g_retired_n; i++)
		g_retired[i - n] = g_retired[i];
	g_retired_n -= n;
	pthread_mutex_unlock(&g_retire_lock);
}
