/* Per-source rolling windows.
 *
 * Each source keeps two rings of records: a CPU record per collected frame
 * (tick, first render, one column per pass) and a GPU record per collected
 * GPU frame (first render, one column per pass), 32-bit ns each. A push
 * updates running sums and maxima, so results are O(1) to read; a maximum
 * is rescanned only when the sample leaving the window was the maximum.
 * The per-frame render sum is the sum of the pass columns, so it needs no
 * column of its own. Records of one frame sit together, so a push touches
 * one cache line per ring. */
#include "internal.h"

#include <string.h>

size_t sp_rings_bytes(uint32_t capacity, uint32_t passes)
{
	return (size_t)capacity * (SP_CPU_FIXED + SP_GPU_FIXED + 2u * passes) * sizeof(uint32_t);
}

/* A column's maximum is kept with the position of its newest copy in the
 * ring: a push that overwrites that record with a smaller value is the only
 * one that needs a rescan (older copies leave first, and a tie moves the
 * position forward). One compare where counting ties took three, and ties
 * matter: short durations repeat, and rescanning whenever one copy of the
 * maximum left cost more than everything else together. */

/* Maximum of a full ring's column and the position of its newest copy;
 * the oldest record is at `head`. */
static void column_rescan(const uint32_t *rec, uint32_t stride, uint32_t n, uint32_t head,
			  uint32_t col, _Atomic uint32_t *max, uint32_t *max_at)
{
	uint32_t m = 0, at = 0;
	for (uint32_t i = 0, r = head; i < n; i++, r = r + 1 == n ? 0 : r + 1) {
		uint32_t v = rec[(size_t)r * stride + col];
		if (v >= m) {
			m = v;
			at = r;
		}
	}
	SP_PUBLISH(*max, m);
	*max_at = at;
}

/* Writes v over the record at `head` and keeps the column's sum and
 * maximum; true when the maximum's record was overwritten by a smaller
 * value (rescan). */
static inline bool column_push(uint32_t *cell, uint32_t v, bool full, uint32_t head,
			       _Atomic uint64_t *sum, _Atomic uint32_t *max, uint32_t *max_at)
{
	uint32_t old = full ? *cell : 0;
	__atomic_store_n(cell, v, __ATOMIC_RELAXED); /* fill_medians copies rings */
	SP_PUBLISH(*sum, SP_LOAD(*sum) - old + v);
	if (v >= SP_LOAD(*max)) {
		SP_PUBLISH(*max, v);
		*max_at = head;
		return false;
	}
	return full && *max_at == head;
}

/* The push for `passes` pass columns; inlined with the common counts as
 * constants, so that its loop unrolls. */
static inline __attribute__((always_inline)) void push_cpu(sp_entry *e, uint32_t capacity,
							     unsigned slot, uint32_t passes)
{
	const sp_frame_acc *a = &e->acc[slot];
	uint32_t stride = SP_CPU_FIXED + passes;
	uint32_t count = SP_LOAD(e->cpu_count);
	bool full = count == capacity;
	uint32_t head = e->cpu_head;
	uint32_t *base = e->rings;
	uint32_t *rec = base + (size_t)head * stride;
	sp_pass_stats *ps = atomic_load_explicit(&e->pass_stats, memory_order_relaxed);

	uint64_t old_total = 0, new_total = 0; /* 8 passes of 32 bits overflow 32 */
	uint32_t rescan = column_push(&rec[0], a->tick_ns, full, head, &e->tick_sum, &e->tick_max,
				      &e->tick_max_at);
	rescan |= (uint32_t)column_push(&rec[1], a->rendered ? a->render_first_ns : 0, full, head,
					&e->render_sum, &e->render_max, &e->render_max_at)
		  << 1;
	for (uint32_t p = 0; p < passes; p++) {
		uint32_t *cell = &rec[SP_CPU_FIXED + p];
		old_total += full ? *cell : 0;
		uint32_t v = e->passes[p].cpu_ns[slot];
		e->passes[p].cpu_ns[slot] = 0; /* taken: the slot's next frame starts at 0 */
		new_total += v;
		rescan |= (uint32_t)column_push(cell, v, full, head, &ps[p].cpu_sum, &ps[p].cpu_max,
						&e->pass_max_at[p].cpu)
			  << (2 + p);
	}
	SP_PUBLISH(e->render_total_sum, SP_LOAD(e->render_total_sum) - old_total + new_total);

	e->cpu_head = head + 1 == capacity ? 0 : head + 1;
	if (!full)
		SP_PUBLISH(e->cpu_count, ++count);
	if (SP_UNLIKELY(rescan)) {
		head = e->cpu_head; /* now the oldest record */
		if (rescan & 1u)
			column_rescan(base, stride, count, head, 0, &e->tick_max, &e->tick_max_at);
		if (rescan & 2u)
			column_rescan(base, stride, count, head, 1, &e->render_max,
				      &e->render_max_at);
		for (uint32_t p = 0; p < passes; p++)
			if (rescan & (4u << p))
				column_rescan(base, stride, count, head, SP_CPU_FIXED + p,
					      &ps[p].cpu_max, &e->pass_max_at[p].cpu);
	}
}

void sp_window_push_cpu(sp_entry *e, uint32_t capacity, unsigned slot)
{
	switch (SP_LOAD(e->n_passes)) {
	case 1:
		push_cpu(e, capacity, slot, 1);
		break;
	case 2:
		push_cpu(e, capacity, slot, 2);
		break;
	default:
		push_cpu(e, capacity, slot, SP_LOAD(e->n_passes));
		break;
	}
}

static inline __attribute__((always_inline)) void push_gpu(sp_entry *e, uint32_t capacity,
							     unsigned slot, const uint32_t *pass_ns,
							     uint32_t passes)
{
	const sp_frame_acc *a = &e->acc[slot];
	uint32_t stride = SP_GPU_FIXED + passes;
	uint32_t count = SP_LOAD(e->gpu_count);
	bool full = count == capacity;
	uint32_t head = e->gpu_head;
	uint32_t *base = e->rings + (size_t)capacity * (SP_CPU_FIXED + passes);
	uint32_t *rec = base + (size_t)head * stride;
	sp_pass_stats *ps = atomic_load_explicit(&e->pass_stats, memory_order_relaxed);

	uint64_t old_total = 0, new_total = 0;
	uint32_t rescan = column_push(&rec[0], a->rendered ? a->gpu_first_ns : 0, full, head,
				      &e->gpu_sum, &e->gpu_max, &e->gpu_max_at);
	for (uint32_t p = 0; p < passes; p++) {
		uint32_t *cell = &rec[SP_GPU_FIXED + p];
		old_total += full ? *cell : 0;
		uint32_t v = pass_ns[p];
		new_total += v;
		rescan |= (uint32_t)column_push(cell, v, full, head, &ps[p].gpu_sum, &ps[p].gpu_max,
						&e->pass_max_at[p].gpu)
			  << (1 + p);
	}
	SP_PUBLISH(e->gpu_total_sum, SP_LOAD(e->gpu_total_sum) - old_total + new_total);

	e->gpu_head = head + 1 == capacity ? 0 : head + 1;
	if (!full)
		SP_PUBLISH(e->gpu_count, ++count);
	if (SP_UNLIKELY(rescan)) {
		head = e->gpu_head;
		if (rescan & 1u)
			column_rescan(base, stride, count, head, 0, &e->gpu_max, &e->gpu_max_at);
		for (uint32_t p = 0; p < passes; p++)
			if (rescan & (2u << p))
				column_rescan(base, stride, count, head, SP_GPU_FIXED + p,
					      &ps[p].gpu_max, &e->pass_max_at[p].gpu);
	}
}

void sp_window_push_gpu(sp_entry *e, uint32_t capacity, unsigned slot, const uint32_t *pass_ns)
{
	switch (SP_LOAD(e->n_passes)) {
	case 1:
		push_gpu(e, capacity, slot, pass_ns, 1);
		break;
	case 2:
		push_gpu(e, capacity, slot, pass_ns, 2);
		break;
	default:
		push_gpu(e, capacity, slot, pass_ns, SP_LOAD(e->n_passes));
		break;
	}
}

/* Copies `capacity` records of `old_stride` columns into `new_stride`
 * columns; the added column reads 0 (the source was not rendered in the
 * new pass in those frames), which keeps every column of a ring aligned. */
static void restride(uint32_t *dst, const uint32_t *src, uint32_t capacity, uint32_t old_stride,
		     uint32_t new_stride)
{
	for (uint32_t i = 0; i < capacity; i++)
		memcpy(dst + (size_t)i * new_stride, src + (size_t)i * old_stride,
		       old_stride * sizeof(uint32_t));
}

bool sp_window_rings(sp_entry *e, uint32_t capacity)
{
	uint32_t *rings = sp_arena_alloc(sp_rings_bytes(capacity, SP_LOAD(e->n_passes)));
	__atomic_store_n(&e->rings, rings, __ATOMIC_RELEASE);
	return rings != NULL;
}

bool sp_window_add_pass(sp_entry *e, uint32_t capacity, uint32_t pass)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t n = passes + 1;
	bool inline_fits = n <= SP_INLINE_PASSES;
	bool grow = !inline_fits && e->pass_cap < n;
	/* Rings exist once a frame was collected; before that there is
	 * nothing to restride. */
	uint32_t *rings = e->rings ? sp_arena_alloc(sp_rings_bytes(capacity, n)) : NULL;
	sp_pass_stats *old = atomic_load_explicit(&e->pass_stats, memory_order_relaxed);
	sp_pass_stats *stats = inline_fits ? e->inline_stats : sp_pass_block_new(n);
	sp_pass_acc *acc = grow ? sp_alloc(n * sizeof *acc) : e->passes;
	sp_pass_max_at *max_n = grow ? sp_alloc(n * sizeof *max_n) : e->pass_max_at;
	if ((e->rings && !rings) || !stats || !acc || !max_n) {
		sp_arena_free(rings, sp_rings_bytes(capacity, n));
		if (stats != e->inline_stats)
			sp_pass_block_free(stats, false);
		if (grow) {
			sp_free(acc, n * sizeof *acc);
			sp_free(max_n, n * sizeof *max_n);
		}
		return false;
	}

	if (e->rings) {
		restride(rings, e->rings, capacity, SP_CPU_FIXED + passes, SP_CPU_FIXED + n);
		restride(rings + (size_t)capacity * (SP_CPU_FIXED + n),
			 e->rings + (size_t)capacity * (SP_CPU_FIXED + passes), capacity,
			 SP_GPU_FIXED + passes, SP_GPU_FIXED + n);
		sp_retire_arena(e->rings, sp_rings_bytes(capacity, passes));
	}
	__atomic_store_n(&e->rings, rings, __ATOMIC_RELEASE);

	if (grow) {
		memcpy(acc, e->passes, passes * sizeof *acc);
		memcpy(max_n, e->pass_max_at, passes * sizeof *max_n);
		if (e->passes != e->inline_passes) {
			sp_free(e->passes, e->pass_cap * sizeof *acc);
			sp_free(e->pass_max_at, e->pass_cap * sizeof *max_n);
		}
		e->passes = acc;
		e->pass_max_at = max_n;
		e->pass_cap = n;
	}
	memset(&e->passes[passes], 0, sizeof *acc);
	e->passes[passes].pass = pass;
	/* The new column holds a 0 in each record already in the window: its
	 * maximum, whose newest copy is the newest record. */
	e->pass_max_at[passes].cpu = e->cpu_head ? e->cpu_head - 1 : capacity - 1;
	e->pass_max_at[passes].gpu = e->gpu_head ? e->gpu_head - 1 : capacity - 1;

	/* Readers take n_passes and the array under the entry's seqlock; the
	 * array is published before the count that grows into it. */
	uint32_t s = SP_LOAD(e->seq);
	SP_STORE(e->seq, s + 1);
	if (stats != old) {
		for (uint32_t p = 0; p < passes; p++) {
			SP_PUBLISH(stats[p].pass, SP_LOAD(old[p].pass));
			SP_PUBLISH(stats[p].cpu_sum, SP_LOAD(old[p].cpu_sum));
			SP_PUBLISH(stats[p].cpu_max, SP_LOAD(old[p].cpu_max));
			SP_PUBLISH(stats[p].gpu_sum, SP_LOAD(old[p].gpu_sum));
			SP_PUBLISH(stats[p].gpu_max, SP_LOAD(old[p].gpu_max));
		}
		atomic_store_explicit(&e->pass_stats, stats, memory_order_release);
	}
	SP_PUBLISH(stats[passes].pass, pass);
	SP_PUBLISH(stats[passes].cpu_sum, 0);
	SP_PUBLISH(stats[passes].cpu_max, 0);
	SP_PUBLISH(stats[passes].gpu_sum, 0);
	SP_PUBLISH(stats[passes].gpu_max, 0);
	SP_PUBLISH(e->n_passes, n);
	atomic_store_explicit(&e->seq, s + 2, memory_order_release);
	if (old && old != stats && old != e->inline_stats)
		sp_pass_block_free(old, true);
	return true;
}

static sp_pass_block *block_of(const sp_pass_stats *s)
{
	return (sp_pass_block *)((char *)s - offsetof(sp_pass_block, s));
}

static size_t block_bytes(uint32_t cap)
{
	return sizeof(sp_pass_block) + cap * sizeof(sp_pass_stats);
}

sp_pass_stats *sp_pass_block_new(uint32_t cap)
{
	sp_pass_block *b = sp_alloc(block_bytes(cap));
	if (!b)
		return NULL;
	atomic_store_explicit(&b->cap, cap, memory_order_relaxed); /* published with the array */
	return b->s;
}

void sp_pass_block_free(sp_pass_stats *s, bool retire)
{
	if (!s)
		return;
	sp_pass_block *b = block_of(s);
	size_t bytes = block_bytes(atomic_load_explicit(&b->cap, memory_order_relaxed));
	if (retire)
		sp_retire(b, bytes);
	else
		sp_free(b, bytes);
}

uint32_t sp_pass_stats_cap(const sp_entry *e, const sp_pass_stats *s)
{
	if (s == e->inline_stats)
		return SP_INLINE_PASSES;
	return atomic_load_explicit(&block_of(s)->cap, memory_order_relaxed);
}

sp_async *sp_async_create(uint32_t window_capacity)
{
	uint32_t cap = window_capacity > 1 ? window_capacity - 1 : 0;
	sp_async *a = sp_alloc(sizeof *a + 2u * cap * sizeof(uint32_t));
	if (!a)
		return NULL;
	a->capacity = cap;
	a->input.delta = (uint32_t *)(a + 1);
	a->rendered.delta = a->input.delta + cap;
	return a;
}

void sp_async_destroy(sp_async *a)
{
	if (a)
		sp_free(a, sizeof *a + 2u * a->capacity * sizeof(uint32_t));
}

static void delta_rescan(sp_delta_window *w)
{
	uint32_t best = 0, worst = 0, best_n = 0, worst_n = 0;
	for (uint32_t i = 0; i < w->count; i++) {
		uint32_t d = w->delta[i];
		if (!d)
			continue;
		if (!best || d < best) {
			best = d;
			best_n = 1;
		} else if (d == best) {
			best_n++;
		}
		if (d > worst) {
			worst = d;
			worst_n = 1;
		} else if (d == worst) {
			worst_n++;
		}
	}
	w->best = best;
	w->worst = worst;
	w->best_n = best_n;
	w->worst_n = worst_n;
}

void sp_delta_push(sp_delta_window *w, uint32_t capacity, uint64_t ts)
{
	if (!w->have_last) {
		w->have_last = true;
		w->last_ts = ts;
		return;
	}
	uint64_t d64 = ts > w->last_ts ? ts - w->last_ts : 0;
	uint32_t d = d64 > UINT32_MAX ? UINT32_MAX : (uint32_t)d64;
	w->last_ts = ts;
	if (!capacity)
		return;

	bool full = w->count == capacity;
	uint32_t old = full ? w->delta[w->head] : 0;
	w->delta[w->head] = d;
	w->head = w->head + 1 == capacity ? 0 : w->head + 1;
	if (!full)
		w->count++;
	bool rescan = false;
	if (old) {
		w->sum -= old;
		w->nonzero--;
		rescan |= old == w->best && --w->best_n == 0;
		rescan |= old == w->worst && --w->worst_n == 0;
	}
	if (d) {
		w->sum += d;
		w->nonzero++;
	}
	if (rescan) {
		delta_rescan(w);
	} else if (d) {
		if (!w->best || d < w->best) {
			w->best = d;
			w->best_n = 1;
		} else if (d == w->best) {
			w->best_n++;
		}
		if (d > w->worst) {
			w->worst = d;
			w->worst_n = 1;
		} else if (d == w->worst) {
			w->worst_n++;
		}
	}
}

void sp_delta_result(const sp_delta_window *w, double *fps, uint64_t *best, uint64_t *worst)
{
	if (!w->nonzero) {
		*fps = 0.0;
		*best = *worst = 0;
		return;
	}
	*fps = 1.0e9 / ((double)w->sum / (double)w->nonzero);
	*best = w->best;
	*worst = w->worst;
}
