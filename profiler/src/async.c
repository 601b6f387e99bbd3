/* Async sources: set_async, and the frames they receive (any thread) and
 * render (graphics thread), pushed into the entry's async windows. */
#include "sp_clock.h"
#include "sp_meta.h"
#include "sp_rcu.h"
#include "sp_state.h"
#include "sp_table.h"
#include "sp_window.h"

void source_profiler_set_async(const void *source, bool async)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		sp_ignored();
		return;
	}
	sp_meta_lock();
	sp_meta *m = async ? sp_meta_get(key) : sp_meta_find(key);
	if (m)
		m->async = async;
	/* Allocate before taking the entry's spin lock. */
	sp_async *fresh = async ? sp_async_create(SP_LOAD(sp_core.capacity_pub)) : NULL;
	sp_async *old = NULL; /* taken off the entry: readers may hold it */
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e) {
			sp_spin_lock(&e->async_lock);
			if (SP_LOAD(e->key) == key) {
				sp_async *cur = atomic_load_explicit(&e->async, memory_order_relaxed);
				if (async && !cur && fresh) {
					atomic_store_explicit(&e->async, fresh, memory_order_release);
					fresh = NULL;
				} else if (!async && cur) {
					atomic_store_explicit(&e->async, NULL, memory_order_release);
					old = cur; /* retired below, outside the lock */
				}
			}
			sp_spin_unlock(&e->async_lock);
		}
	}
	sp_rcu_exit(r);
	sp_meta_unlock();
	sp_async_destroy(fresh); /* never published */
	if (old)
		sp_retire(old, sp_async_size(old));
}

void source_profiler_async_frame_received(const void *source)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		sp_ignored();
		return;
	}
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		uint64_t now = sp_now();
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e) {
			sp_spin_lock(&e->async_lock);
			sp_async *a = atomic_load_explicit(&e->async, memory_order_relaxed);
			if (a && SP_LOAD(e->key) == key)
				sp_async_push(a, false, now);
			sp_spin_unlock(&e->async_lock);
		}
	}
	sp_rcu_exit(r);
}

void source_profiler_async_frame_rendered(const void *source, uint64_t frame_ts_ns)
{
	if (!sp_core.on)
		return;
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		sp_ignored();
		return;
	}
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY)
		return;
	sp_entry *e = sp_entry_fast(idx);
	sp_frame_acc *a = &e->acc[sp_core.slot];
	if (a->frame != (uint32_t)sp_core.frame)
		return;
	/* set_async(false) on another thread may free the window meanwhile. */
	sp_spin_lock(&e->async_lock);
	sp_async *as = atomic_load_explicit(&e->async, memory_order_relaxed);
	if (as) {
		as->rendered_ts[sp_core.slot] = frame_ts_ns;
		a->has_async_ts = 1;
	}
	sp_spin_unlock(&e->async_lock);
}

