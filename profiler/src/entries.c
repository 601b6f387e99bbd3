/* The entry table: the chunks entries live in, an entry's creation at its
 * source's first tick and its release, removal (queued by remove_source,
 * done at the next frame_begin), and the core's state (sp_state.h).
 *
 * Threads: everything here runs on the graphics thread except the functions
 * documented "any thread". Entries sit in chunks that never move while the
 * profiler is on; other threads reach them through the pointer table inside
 * an RCU section and re-check the entry's key. */
#include "sp_arena.h"
#include "sp_meta.h"
#include "sp_rcu.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_table.h"
#include "sp_util.h"
#include "sp_work.h"

#include <string.h>

/* Sources queued by remove_source, under the meta lock. */
static uintptr_t *g_removed;
static size_t g_removed_n, g_removed_cap;
/* Removals are queued: frame_begin skips the lock on the many frames with
 * none (set under the lock, read without it). */
static _Atomic bool g_removals_queued;
static uintptr_t *g_removing; /* the batch being processed (graphics thread) */
static size_t g_removing_cap;

static uint32_t entry_alloc_index(void)
{
	if (sp_core.n_free)
		return sp_core.free_idx[--sp_core.n_free];
	uint32_t idx = SP_LOAD(sp_core.high_water);
	uint32_t chunk = idx >> SP_CHUNK_BITS;
	if (chunk >= SP_MAX_CHUNKS) {
		sp_log(SOURCE_PROFILER_LOG_ERROR, "more than %u sources; new ones are not profiled",
		       SP_MAX_CHUNKS * SP_CHUNK_SIZE);
		return SP_NO_ENTRY;
	}
	if (!SP_LOAD(sp_core.chunks[chunk])) {
		sp_entry *c = sp_arena_alloc(SP_CHUNK_SIZE * sizeof(sp_entry));
		if (!c)
			return SP_NO_ENTRY;
		atomic_store_explicit(&sp_core.chunks[chunk], c, memory_order_release);
	}
	atomic_store_explicit(&sp_core.high_water, idx + 1, memory_order_release);
	return idx;
}

static void entry_free_index(uint32_t idx)
{
	if (sp_core.n_free == sp_core.free_cap) {
		uint32_t cap = sp_core.free_cap ? sp_core.free_cap * 2 : 256;
		uint32_t *n = sp_alloc(cap * sizeof *n);
		if (!n)
			return; /* the slot is lost, not reused; harmless */
		if (sp_core.n_free)
			memcpy(n, sp_core.free_idx, sp_core.n_free * sizeof *n);
		sp_free(sp_core.free_idx, sp_core.free_cap * sizeof *sp_core.free_idx);
		sp_core.free_idx = n;
		sp_core.free_cap = cap;
	}
	sp_core.free_idx[sp_core.n_free++] = idx;
}

/* Creates the entry of a source at its first tick. Under the meta lock, so
 * set_source_name / set_async either see the entry or are seen by it. */
uint32_t sp_entry_create(uintptr_t key)
{
	sp_meta_lock();
	uint32_t idx = entry_alloc_index();
	if (idx == SP_NO_ENTRY) {
		sp_meta_unlock();
		return SP_NO_ENTRY;
	}
	sp_entry *e = sp_entry_fast(idx);
	/* Its rings come with its first collected frame, when the passes it
	 * renders in are known (sp_window_rings); readers (fill_medians) may
	 * still be looking at a reused entry. */
	__atomic_store_n(&e->rings, NULL, __ATOMIC_RELEASE);
	sp_meta *m = sp_meta_find(key);
	sp_async *a = m && m->async ? sp_async_create(sp_capacity) : NULL;
	if (!sp_table_insert(key, idx)) {
		sp_async_destroy(a);
		entry_free_index(idx);
		sp_meta_unlock();
		return SP_NO_ENTRY;
	}
	e->next_tick = e->next_render = &sp_core.no_entry;
	e->cpu_off = e->gpu_off = 0;
	/* Marked collected: no frame can match them until a tick rewrites them. */
	for (unsigned s = 0; s < SP_MAX_FIF; s++)
		e->acc[s] = (sp_frame_acc){.frame = (uint32_t)(sp_core.frame - SP_MAX_FIF - 1),
					   .first_timer = SP_NO_ENTRY, .collected = 1};
	atomic_store_explicit(&e->name, m ? m->name : NULL, memory_order_release);
	atomic_store_explicit(&e->async, a, memory_order_release);
	sp_seq_begin(e);
	atomic_store_explicit(&e->passes, e->inline_passes, memory_order_release);
	SP_PUBLISH(e->key, key);
	sp_seq_end(e);
	atomic_fetch_add_explicit(&sp_core.sources, 1, memory_order_relaxed);
	sp_meta_unlock();
	atomic_store_explicit(&sp_core.scene_changed, true, memory_order_relaxed);
	return idx;
}

/* Frees an entry's memory; with `reuse` it also unlinks it and recycles its
 * slot. Readers may still hold the entry: they see key 0 and give up. */
static void entry_release(sp_entry *e, uint32_t idx, bool reuse)
{
	uintptr_t key = SP_LOAD(e->key);
	if (!key)
		return;
	uint32_t passes = SP_LOAD(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	if (reuse)
		sp_table_remove(key);

	sp_seq_begin(e);
	SP_PUBLISH(e->key, 0);
	SP_PUBLISH(e->cpu_count, 0);
	SP_PUBLISH(e->gpu_count, 0);
	sp_column *cols[] = {&e->tick, &e->render, &e->gpu};
	for (int c = 0; c < 3; c++) {
		SP_PUBLISH(cols[c]->sum, 0);
		SP_PUBLISH(cols[c]->max, 0);
		cols[c]->max_at = 0;
	}
	SP_PUBLISH(e->n_passes, 0);
	/* A pass added later starts from zero (sp_window_add_pass). */
	atomic_store_explicit(&e->passes, e->inline_passes, memory_order_release);
	atomic_store_explicit(&e->name, NULL, memory_order_relaxed);
	sp_seq_end(e);

	sp_spin_lock(&e->async_lock);
	sp_async *a = atomic_load_explicit(&e->async, memory_order_relaxed);
	atomic_store_explicit(&e->async, NULL, memory_order_relaxed);
	sp_spin_unlock(&e->async_lock);
	if (a)
		sp_retire(a, sp_async_size(a)); /* fill_result may be reading it */
	sp_work_release(e, reuse);

	sp_pass_block_free(e, ps, reuse);
	/* Readers copying the rings (fill_medians) see the key change and
	 * give up; with reuse they may still be inside. */
	if (reuse)
		sp_retire_arena(e->rings, sp_rings_bytes(sp_capacity, passes));
	else
		sp_arena_free(e->rings, sp_rings_bytes(sp_capacity, passes));
	__atomic_store_n(&e->rings, NULL, __ATOMIC_RELEASE);
	e->trace_gen = 0;
	atomic_fetch_sub_explicit(&sp_core.sources, 1, memory_order_relaxed);
	if (reuse)
		entry_free_index(idx);
}

bool sp_entries_drop(void)
{
	bool was_live = SP_LOAD(sp_core.live);
	atomic_store(&sp_core.live, false);
	sp_rcu_synchronize();
	uint32_t hw = SP_LOAD(sp_core.high_water);
	for (uint32_t i = 0; i < hw; i++)
		entry_release(sp_entry_fast(i), i, false);
	/* Retired rings go back to the arena before it is unmapped. */
	sp_retire_drain();
	for (uint32_t c = 0; c < SP_MAX_CHUNKS; c++) {
		sp_entry *chunk = SP_LOAD(sp_core.chunks[c]);
		if (!chunk)
			break;
		sp_arena_free(chunk, SP_CHUNK_SIZE * sizeof(sp_entry));
		SP_STORE(sp_core.chunks[c], NULL);
	}
	sp_arena_reset();
	atomic_store(&sp_core.high_water, 0);
	sp_table_clear();
	sp_free(sp_core.free_idx, sp_core.free_cap * sizeof *sp_core.free_idx);
	sp_core.free_idx = NULL;
	sp_core.n_free = sp_core.free_cap = 0;
	sp_core.tick_next = sp_core.tick_first = &sp_core.no_entry;
	sp_core.render_next = sp_core.render_first = &sp_core.no_entry;
	sp_core.tick_link = &sp_core.tick_first;
	sp_core.render_link = &sp_core.render_first;
	return was_live;
}

void source_profiler_remove_source(const void *source)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX) {
		sp_ignored();
		return;
	}
	sp_meta_lock();
	/* The entry lives until the next frame_begin; its name goes now, so
	 * unhook it before the name is retired. */
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e && SP_LOAD(e->key) == key)
			atomic_store_explicit(&e->name, NULL, memory_order_release);
	}
	sp_rcu_exit(r);
	sp_meta_delete(key);
	if (g_removed_n == g_removed_cap) {
		size_t cap = g_removed_cap ? g_removed_cap * 2 : 64;
		uintptr_t *n = sp_alloc(cap * sizeof *n);
		if (!n) {
			/* The name and metadata went; the statistics stay until
			 * the source is removed again or the profiler is reset. */
			sp_meta_unlock();
			sp_log(SOURCE_PROFILER_LOG_ERROR,
			       "remove_source: out of memory queueing the removal; the source's "
			       "statistics stay until it is removed again");
			return;
		}
		if (g_removed_n)
			memcpy(n, g_removed, g_removed_n * sizeof *n);
		sp_free(g_removed, g_removed_cap * sizeof *g_removed);
		g_removed = n;
		g_removed_cap = cap;
	}
	g_removed[g_removed_n++] = key;
	atomic_store_explicit(&g_removals_queued, true, memory_order_release);
	sp_meta_unlock();
}

void sp_process_removals(void)
{
	if (!atomic_load_explicit(&g_removals_queued, memory_order_acquire))
		return;
	sp_meta_lock();
	size_t n = g_removed_n;
	if (n > g_removing_cap) {
		uintptr_t *b = sp_alloc(g_removed_cap * sizeof *b);
		if (!b) {
			/* Still queued: tried again at the next frame_begin. */
			sp_meta_unlock();
			return;
		}
		sp_free(g_removing, g_removing_cap * sizeof *g_removing);
		g_removing = b;
		g_removing_cap = g_removed_cap;
	}
	if (n)
		memcpy(g_removing, g_removed, n * sizeof *g_removing);
	g_removed_n = 0;
	atomic_store_explicit(&g_removals_queued, false, memory_order_relaxed);
	sp_meta_unlock();

	for (size_t i = 0; i < n; i++) {
		uint32_t idx = sp_table_find(g_removing[i]);
		if (idx != SP_NO_ENTRY)
			entry_release(sp_entry_fast(idx), idx, true);
	}
	if (n)
		atomic_store_explicit(&sp_core.scene_changed, true, memory_order_relaxed);
}

void sp_removals_free(void)
{
	sp_free(g_removed, g_removed_cap * sizeof *g_removed);
	sp_free(g_removing, g_removing_cap * sizeof *g_removing);
	g_removed = g_removing = NULL;
	g_removed_n = g_removed_cap = g_removing_cap = 0;
}
