/* The reader side: fill_result and friends, from any thread, in constant
 * time. An entry's sums, maxima and counts are published under its
 * seqlock; a reader copies them until it gets a copy no write overlapped,
 * then divides. Async windows are read under the entry's spin lock. */
#include "sp_profiler.h"
#include "sp_rcu.h"
#include "sp_table.h"
#include "sp_window.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

typedef struct pass_copy {
	uint32_t pass, cpu_max, gpu_max;
	uint64_t cpu_sum, gpu_sum;
} pass_copy;

typedef struct snapshot {
	uint32_t cpu_count, gpu_count;
	uint64_t tick_sum, render_sum, render_total_sum, gpu_sum, gpu_total_sum;
	uint32_t tick_max, render_max, gpu_max;
	uint32_t n_passes;
	pass_copy passes[SOURCE_PROFILER_MAX_SOURCE_PASSES];
} snapshot;

/* Copies the entry's published fields consistently; false if it is not
 * `key`'s entry (any more). Inside RCU. */
static bool take_snapshot(sp_entry *e, uintptr_t key, snapshot *s, bool with_passes)
{
	for (;;) {
		uint32_t s1 = atomic_load_explicit(&e->seq, memory_order_acquire);
		if (s1 & 1u) {
			cpu_relax();
			continue;
		}
		uintptr_t k = SP_READ(e->key);
		s->cpu_count = SP_READ(e->cpu_count);
		s->gpu_count = SP_READ(e->gpu_count);
		s->tick_sum = SP_READ(e->tick.sum);
		s->render_sum = SP_READ(e->render.sum);
		s->gpu_sum = SP_READ(e->gpu.sum);
		s->tick_max = SP_READ(e->tick.max);
		s->render_max = SP_READ(e->render.max);
		s->gpu_max = SP_READ(e->gpu.max);
		s->n_passes = SP_READ(e->n_passes);
		/* The count before the array: a writer stores them in the other
		 * order, and the array's own size bounds the rest. A frame's
		 * sum over passes is the pass columns' sums added up. */
		sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_acquire);
		uint32_t n = s->n_passes < SOURCE_PROFILER_MAX_SOURCE_PASSES
				     ? s->n_passes
				     : SOURCE_PROFILER_MAX_SOURCE_PASSES;
		uint32_t cap = ps ? sp_passes_cap(e, ps) : 0;
		n = n < cap ? n : cap;
		s->render_total_sum = s->gpu_total_sum = 0;
		for (uint32_t p = 0; p < n; p++) {
			uint64_t cpu_sum = SP_READ(ps[p].cpu.sum), gpu_sum = SP_READ(ps[p].gpu.sum);
			s->render_total_sum += cpu_sum;
			s->gpu_total_sum += gpu_sum;
			if (with_passes)
				s->passes[p] = (pass_copy){
					.pass = SP_READ(ps[p].pass),
					.cpu_max = SP_READ(ps[p].cpu.max),
					.gpu_max = SP_READ(ps[p].gpu.max),
					.cpu_sum = cpu_sum,
					.gpu_sum = gpu_sum,
				};
		}
		if (atomic_load_explicit(&e->seq, memory_order_relaxed) == s1)
			return k == key;
	}
}

/* A snapshot of `source`'s entry (with its passes when asked), under the
 * read side; false when the profiler is off, the source has no entry or
 * no collected frame yet. */
static bool snapshot_of(const void *source, snapshot *s, bool with_passes)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX)
		return false;
	bool ok = false;
	unsigned idx = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		ok = e && take_snapshot(e, key, s, with_passes) && s->cpu_count;
	}
	sp_rcu_exit(idx);
	return ok;
}

static bool entry_result(sp_entry *e, uintptr_t key, profiler_result_t *out)
{
	snapshot s;
	/* No sample collected yet: "no data yet", as OBS says, not zeros. */
	if (!take_snapshot(e, key, &s, false) || !s.cpu_count)
		return false;
	profiler_result_t r = {0};
	if (s.cpu_count) {
		r.tick_avg = s.tick_sum / s.cpu_count;
		r.tick_max = s.tick_max;
		r.render_avg = s.render_sum / s.cpu_count;
		r.render_max = s.render_max;
		r.render_sum = s.render_total_sum / s.cpu_count;
	}
	if (s.gpu_count && sp_gpu_live()) {
		r.render_gpu_avg = s.gpu_sum / s.gpu_count;
		r.render_gpu_max = s.gpu_max;
		r.render_gpu_sum = s.gpu_total_sum / s.gpu_count;
	}
	/* Without the lock: the window is retired, not freed, when it leaves
	 * the entry, and its figures are published under a seqlock of its
	 * own. An entry reused by another source meanwhile gives no async
	 * figures. */
	sp_async *a = atomic_load_explicit(&e->async, memory_order_acquire);
	if (a) {
		sp_async_result(a, &r);
		if (SP_READ(e->key) != key) {
			r.async_input = r.async_rendered = 0;
			r.async_input_best = r.async_input_worst = 0;
			r.async_rendered_best = r.async_rendered_worst = 0;
		}
	}
	*out = r;
	return true;
}

bool source_profiler_fill_result(const void *source, profiler_result_t *result)
{
	uintptr_t key = (uintptr_t)source;
	if (!result || !key || key == UINTPTR_MAX)
		return false;
	profiler_result_t r;
	bool ok = false;
	unsigned idx = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		ok = e && entry_result(e, key, &r);
	}
	sp_rcu_exit(idx);
	if (ok)
		*result = r;
	return ok;
}

profiler_result_t *source_profiler_get_result(const void *source)
{
	profiler_result_t *r = malloc(sizeof *r);
	if (r && !source_profiler_fill_result(source, r)) {
		free(r);
		r = NULL;
	}
	return r;
}

size_t source_profiler_fill_pass_results(const void *source, source_profiler_pass_result_t *out,
					 size_t max_out)
{
	snapshot s;
	if (!snapshot_of(source, &s, true))
		return 0;
	bool gpu = s.gpu_count && sp_gpu_live();
	for (uint32_t p = 0; out && p < s.n_passes && p < max_out; p++) {
		const pass_copy *c = &s.passes[p];
		out[p] = (source_profiler_pass_result_t){
			.pass = c->pass & 0xffu, /* the key's queue: fill_pass_queues */
			.render_avg = s.cpu_count ? c->cpu_sum / s.cpu_count : 0,
			.render_max = c->cpu_max,
			.render_gpu_avg = gpu ? c->gpu_sum / s.gpu_count : 0,
			.render_gpu_max = gpu ? c->gpu_max : 0,
		};
	}
	return s.n_passes;
}

size_t source_profiler_fill_pass_queues(const void *source, uint32_t *queues, size_t max_out)
{
	snapshot s;
	if (!snapshot_of(source, &s, true))
		return 0;
	for (uint32_t p = 0; queues && p < s.n_passes && p < max_out; p++)
		queues[p] = s.passes[p].pass >> 8;
	return s.n_passes;
}

bool source_profiler_get_sample_counts(const void *source, uint32_t *cpu, uint32_t *gpu)
{
	snapshot s;
	if (!snapshot_of(source, &s, false))
		return false;
	if (cpu)
		*cpu = s.cpu_count;
	if (gpu)
		*gpu = s.gpu_count;
	return true;
}

/* Sources are listed into a private array first so that `fn` runs outside
 * the RCU section: a slow callback (a blocked file) must not hold up the
 * graphics thread's grace periods. */
typedef struct listed {
	uintptr_t key;
	size_t name_off;
} listed;

size_t source_profiler_enum_sources(void (*fn)(const void *source, const char *name, void *user),
				    void *user)
{
	listed *items = NULL;
	char *names = NULL;
	size_t n = 0, cap = 0, names_len = 0, names_cap = 0;
	for (int attempt = 0; attempt < 4; attempt++) {
		size_t need = 0, need_names = 0;
		n = names_len = 0;
		unsigned idx = sp_rcu_enter();
		if (sp_live()) {
			uint32_t hw = sp_entry_high_water();
			for (uint32_t i = 0; i < hw; i++) {
				sp_entry *e = sp_entry_at(i);
				uintptr_t key = e ? SP_READ(e->key) : 0;
				if (!key)
					continue;
				const char *name = atomic_load_explicit(&e->name, memory_order_acquire);
				char buf[32];
				if (!name) {
					snprintf(buf, sizeof buf, "%p", (void *)key);
					name = buf;
				}
				size_t len = strlen(name) + 1;
				need++;
				need_names += len;
				if (n < cap && names_len + len <= names_cap) {
					items[n++] = (listed){key, names_len};
					memcpy(names + names_len, name, len);
					names_len += len;
				}
			}
		}
		sp_rcu_exit(idx);
		if (need == n)
			break;
		free(items);
		free(names);
		cap = need + need / 4 + 16;
		names_cap = need_names + need_names / 4 + 256;
		items = malloc(cap * sizeof *items);
		names = malloc(names_cap);
		if (!items || !names) {
			n = 0;
			break;
		}
	}
	for (size_t i = 0; fn && i < n; i++)
		fn((const void *)items[i].key, names + items[i].name_off, user);
	free(items);
	free(names);
	return n;
}
