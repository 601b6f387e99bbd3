/* Grace periods for memory that readers on other threads may hold.
 *
 * Readers (fill_result, exporters, async producers) count themselves into
 * one of two counters picked by the epoch's parity. The epoch re-check in
 * enter closes the window between reading the epoch and counting in.
 *
 * Reclamation never waits on the graphics thread. A block retired (made
 * unreachable, then handed to sp_retire) joins the pending list. At a
 * frame_begin, sp_retire_flush moves the pending list to a waiting list and
 * flips the epoch: readers that may hold a waiting block entered before the
 * flip, so they are all counted in the old parity's counter, which only
 * drains from then on. A later flush that finds that counter at zero frees
 * the waiting list; one that does not just tries again next frame - a
 * reader descheduled mid-read delays a free, never a frame. The epoch
 * flips again only once the last grace period is over, so the counter
 * waited on cannot take new readers.
 *
 * Only sp_rcu_synchronize waits (a reader spinning, then yielding): for
 * disable, reset_video and shutdown, which free everything at once. */
#include "sp_arena.h"
#include "sp_rcu.h"
#include "sp_util.h"

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

static pthread_mutex_t g_sync_lock = PTHREAD_MUTEX_INITIALIZER;

/* Both parities: with a grace period open (sp_retire_flush), readers that
 * entered before its flip are still counted in the other counter. */
void sp_rcu_synchronize(void)
{
	pthread_mutex_lock(&g_sync_lock);
	for (int round = 0; round < 2; round++) {
		unsigned e = atomic_fetch_add(&g_epoch, 1);
		unsigned spins = 0;
		while (atomic_load_explicit(&g_readers[e & 1u], memory_order_acquire) != 0) {
			if (++spins > 64)
				sched_yield();
		}
	}
	pthread_mutex_unlock(&g_sync_lock);
}

typedef struct retired {
	void *p;
	size_t size; /* 0: a string from sp_strdup */
	bool arena;  /* an arena block (graphics thread only) */
} retired;

typedef struct retired_list {
	retired *items;
	size_t n, cap;
} retired_list;

/* Any thread retires into `pending`, under the lock; the graphics thread
 * owns `waiting` and the grace period. */
static pthread_mutex_t g_retire_lock = PTHREAD_MUTEX_INITIALIZER;
static retired_list g_pending, g_waiting;
static bool g_grace_open;     /* g_waiting waits for g_readers[g_grace_idx] */
static unsigned g_grace_idx;
static _Atomic uint64_t g_deferred; /* flushes that found readers and moved on */
static _Atomic bool g_pending_any;  /* g_pending has blocks: flush skips the lock otherwise */

static void release(const retired *r)
{
	if (r->arena)
		sp_arena_free(r->p, r->size);
	else if (r->size)
		sp_free(r->p, r->size);
	else
		sp_free_str(r->p);
}

static void free_list(retired_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		release(&l->items[i]);
	l->n = 0;
}

static void retire(void *p, size_t size, bool arena);

void sp_retire(void *p, size_t size)
{
	retire(p, size, false);
}

void sp_retire_arena(void *p, size_t size)
{
	retire(p, size, true);
}

static void retire(void *p, size_t size, bool arena)
{
	if (!p)
		return;
	pthread_mutex_lock(&g_retire_lock);
	if (g_pending.n == g_pending.cap) {
		size_t cap = g_pending.cap ? g_pending.cap * 2 : 64;
		retired *n = sp_alloc(cap * sizeof *n);
		if (!n) {
			/* Cannot defer: wait for readers here instead. */
			pthread_mutex_unlock(&g_retire_lock);
			sp_rcu_synchronize();
			release(&(retired){p, size, arena});
			return;
		}
		for (size_t i = 0; i < g_pending.n; i++)
			n[i] = g_pending.items[i];
		sp_free(g_pending.items, g_pending.cap * sizeof *g_pending.items);
		g_pending.items = n;
		g_pending.cap = cap;
	}
	g_pending.items[g_pending.n++] = (retired){p, size, arena};
	atomic_store_explicit(&g_pending_any, true, memory_order_release);
	pthread_mutex_unlock(&g_retire_lock);
}

/* The grace period is over when its readers have left; never waits. */
static bool grace_over(void)
{
	return atomic_load_explicit(&g_readers[g_grace_idx], memory_order_acquire) == 0;
}

void sp_retire_flush(void)
{
	if (g_grace_open) {
		/* A synchronize elsewhere (trace, disable) flipped the epoch back
		 * to the parity waited on: flip again so that it only drains. */
		if ((atomic_load(&g_epoch) & 1u) == g_grace_idx)
			atomic_fetch_add(&g_epoch, 1);
		if (!grace_over()) {
			atomic_fetch_add_explicit(&g_deferred, 1, memory_order_relaxed);
			return;
		}
		free_list(&g_waiting);
		g_grace_open = false;
	}
	if (!atomic_load_explicit(&g_pending_any, memory_order_acquire))
		return;
	pthread_mutex_lock(&g_retire_lock);
	atomic_store_explicit(&g_pending_any, false, memory_order_relaxed);
	retired_list swap = g_waiting; /* empty: its blocks were freed */
	g_waiting = g_pending;
	g_pending = swap;
	pthread_mutex_unlock(&g_retire_lock);
	if (!g_waiting.n)
		return;
	/* Readers from now on count in the other parity. */
	g_grace_idx = atomic_fetch_add(&g_epoch, 1) & 1u;
	g_grace_open = true;
	if (grace_over()) { /* the usual case: nobody was reading */
		free_list(&g_waiting);
		g_grace_open = false;
	}
}

void sp_retire_drain(void)
{
	/* What is retired until now; blocks retired while this waits are
	 * left for a later flush. */
	pthread_mutex_lock(&g_retire_lock);
	retired_list now = g_pending;
	g_pending = (retired_list){0};
	atomic_store_explicit(&g_pending_any, false, memory_order_relaxed);
	pthread_mutex_unlock(&g_retire_lock);
	sp_rcu_synchronize();
	free_list(&g_waiting);
	g_grace_open = false;
	free_list(&now);
	sp_free(now.items, now.cap * sizeof *now.items);
}

uint64_t sp_retire_deferred(void)
{
	return atomic_load_explicit(&g_deferred, memory_order_relaxed);
}
