/* Per-source rolling windows.
 *
 * Each source keeps two rings of records: a CPU record per collected frame
 * (tick, first render, one column per pass) and a GPU record per collected
 * GPU frame (first render, one column per pass), 32-bit ns each. A push
 * updates running sums and maxima, so results are O(1) to read; a maximum
 * is rescanned only when the record holding its newest copy is overwritten
 * by a smaller value. The per-frame render sum is the sum of the pass
 * columns, so it needs no column of its own. Records of one frame sit
 * together, so a push touches one cache line per ring.
 *
 * Positions in the rings are offsets in u32s from the start of the
 * allocation (the GPU ring follows the CPU ring), so a push finds its
 * record with one add and collect can prefetch it from two loads. Rings
 * come zeroed and fill from their start, so a cell not written yet reads 0
 * and a push subtracts what it overwrites without asking whether the ring
 * is full. */
#include "sp_arena.h"
#include "sp_rcu.h"
#include "sp_util.h"
#include "sp_window.h"
#include "sp_window_push.h"

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
 * maximum left cost more than everything else together. A ring is only
 * overwritten once full, so only a full ring is rescanned. */

/* The records at offsets hi, hi - stride, ..., lo of column `base`, newest
 * first: the first copy of the largest value met is its newest, and only a
 * greater value replaces it. Four a turn: three instructions a record. */
static inline void scan_down(const uint32_t *base, uint32_t hi, uint32_t lo, uint32_t stride,
			     uint32_t *max, uint32_t *at)
{
	uint32_t m = *max, a = *at;
	uint32_t n = (hi - lo) / stride + 1;
	const uint32_t *p = base + hi;
	for (; n >= 4; n -= 4) {
		if (SP_UNLIKELY(p[0] > m)) {
			m = p[0];
			a = (uint32_t)(p - base);
		}
		if (SP_UNLIKELY(p[-(ptrdiff_t)stride] > m)) {
			m = p[-(ptrdiff_t)stride];
			a = (uint32_t)(p - base) - stride;
		}
		if (SP_UNLIKELY(p[-2 * (ptrdiff_t)stride] > m)) {
			m = p[-2 * (ptrdiff_t)stride];
			a = (uint32_t)(p - base) - 2 * stride;
		}
		if (SP_UNLIKELY(p[-3 * (ptrdiff_t)stride] > m)) {
			m = p[-3 * (ptrdiff_t)stride];
			a = (uint32_t)(p - base) - 3 * stride;
		}
		if (n == 4)
			break;
		p -= 4 * (ptrdiff_t)stride;
	}
	if (n < 4) {
		for (;;) {
			if (*p > m) {
				m = *p;
				a = (uint32_t)(p - base);
			}
			if (!--n)
				break;
			p -= stride;
		}
	}
	*max = m;
	*at = a;
}

/* Rescans column `col` of the full ring [start, end) of `stride`-u32
 * records whose oldest record is at `oldest`. */
static void column_rescan(const uint32_t *rings, uint32_t start, uint32_t end, uint32_t stride,
			  uint32_t oldest, uint32_t col, sp_column *c)
{
	const uint32_t *base = rings + col;
	uint32_t newest = (oldest == start ? end : oldest) - stride;
	uint32_t m = 0, at = newest;
	/* From the newest record back to the ring's start, then from its end
	 * back to the oldest. */
	scan_down(base, newest, start, stride, &m, &at);
	if (oldest != start)
		scan_down(base, end - stride, oldest, stride, &m, &at);
	SP_PUBLISH(c->max, m);
	c->max_at = at;
}

static void cpu_rescan(sp_entry *e, sp_pass *ps, uint32_t capacity, uint32_t passes,
		       uint32_t mask)
{
	uint32_t stride = SP_CPU_FIXED + passes, end = capacity * stride, oldest = e->cpu_off;
	if (mask & 1u)
		column_rescan(e->rings, 0, end, stride, oldest, 0, &e->tick);
	if (mask & 2u)
		column_rescan(e->rings, 0, end, stride, oldest, 1, &e->render);
	for (uint32_t p = 0; p < passes; p++)
		if (mask & (1u << (SP_RESCAN_FIXED + p)))
			column_rescan(e->rings, 0, end, stride, oldest, SP_CPU_FIXED + p, &ps[p].cpu);
}

static void gpu_rescan(sp_entry *e, sp_pass *ps, uint32_t capacity, uint32_t passes,
		       uint32_t mask)
{
	uint32_t stride = SP_GPU_FIXED + passes, start = capacity * (SP_CPU_FIXED + passes);
	uint32_t end = start + capacity * stride, oldest = e->gpu_off;
	if (mask & 1u)
		column_rescan(e->rings, start, end, stride, oldest, 0, &e->gpu);
	for (uint32_t p = 0; p < passes; p++)
		if (mask & (1u << (1u + p)))
			column_rescan(e->rings, start, end, stride, oldest, SP_GPU_FIXED + p,
				      &ps[p].gpu);
}

void sp_window_rescan(sp_entry *e, uint32_t capacity, uint32_t mask)
{
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_relaxed);
	uint32_t passes = SP_LOAD(e->n_passes);
	if (mask & 0xffffu)
		cpu_rescan(e, ps, capacity, passes, mask & 0xffffu);
	if (mask >> 16)
		gpu_rescan(e, ps, capacity, passes, mask >> 16);
	sp_seq_end(e);
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

/* An offset of a ring that starts at old_start with old_stride records,
 * moved into one that starts at new_start with new_stride records. */
static uint32_t move_off(uint32_t off, uint32_t old_start, uint32_t old_stride,
			 uint32_t new_start, uint32_t new_stride)
{
	return new_start + (off - old_start) / old_stride * new_stride;
}

bool sp_window_rings(sp_entry *e, uint32_t capacity)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t *rings = sp_arena_alloc(sp_rings_bytes(capacity, passes));
	e->cpu_off = 0;
	e->gpu_off = capacity * (SP_CPU_FIXED + passes);
	__atomic_store_n(&e->rings, rings, __ATOMIC_RELEASE);
	return rings != NULL;
}

static size_t block_bytes(uint32_t cap)
{
	return sizeof(sp_pass_block) + cap * sizeof(sp_pass);
}

static sp_pass *pass_block_new(uint32_t cap)
{
	sp_pass_block *b = sp_alloc(block_bytes(cap));
	if (!b)
		return NULL;
	atomic_store_explicit(&b->cap, cap, memory_order_relaxed); /* published with the array */
	return b->s;
}

static sp_pass_block *block_of(const sp_pass *s)
{
	return (sp_pass_block *)((char *)s - offsetof(sp_pass_block, s));
}

void sp_pass_block_free(sp_entry *e, sp_pass *s, bool retire)
{
	if (!s || s == e->inline_passes)
		return;
	sp_pass_block *b = block_of(s);
	size_t bytes = block_bytes(atomic_load_explicit(&b->cap, memory_order_relaxed));
	if (retire)
		sp_retire(b, bytes);
	else
		sp_free(b, bytes);
}

uint32_t sp_passes_cap(const sp_entry *e, const sp_pass *s)
{
	if (s == e->inline_passes)
		return SP_INLINE_PASSES;
	return atomic_load_explicit(&block_of(s)->cap, memory_order_relaxed);
}

/* Moves the rings' records and every position kept in them to `n` pass
 * columns (from n - 1). Under the entry's seqlock. */
static void rings_add_column(sp_entry *e, sp_pass *ps, uint32_t *rings, uint32_t capacity,
			     uint32_t n)
{
	uint32_t oc = SP_CPU_FIXED + n - 1, nc = oc + 1, og = SP_GPU_FIXED + n - 1, ng = og + 1;
	uint32_t ogs = capacity * oc, ngs = capacity * nc; /* where the GPU rings start */
	restride(rings, e->rings, capacity, oc, nc);
	restride(rings + ngs, e->rings + ogs, capacity, og, ng);
	e->tick.max_at = move_off(e->tick.max_at, 0, oc, 0, nc);
	e->render.max_at = move_off(e->render.max_at, 0, oc, 0, nc);
	e->gpu.max_at = move_off(e->gpu.max_at, ogs, og, ngs, ng);
	for (uint32_t p = 0; p + 1 < n; p++) {
		ps[p].cpu.max_at = move_off(ps[p].cpu.max_at, 0, oc, 0, nc);
		ps[p].gpu.max_at = move_off(ps[p].gpu.max_at, ogs, og, ngs, ng);
	}
	e->cpu_off = move_off(e->cpu_off, 0, oc, 0, nc);
	e->gpu_off = move_off(e->gpu_off, ogs, og, ngs, ng);
	sp_retire_arena(e->rings, sp_rings_bytes(capacity, n - 1));
	__atomic_store_n(&e->rings, rings, __ATOMIC_RELEASE);
	/* The new column holds a 0 in each record already in the window: its
	 * maximum, whose newest copy is the newest record. */
	ps[n - 1].cpu.max_at = (e->cpu_off ? e->cpu_off : ngs) - nc;
	ps[n - 1].gpu.max_at = (e->gpu_off != ngs ? e->gpu_off : ngs + capacity * ng) - ng;
}

bool sp_window_add_pass(sp_entry *e, uint32_t capacity, uint32_t pass)
{
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t n = passes + 1;
	sp_pass *old = atomic_load_explicit(&e->passes, memory_order_relaxed);
	bool grow = n > sp_passes_cap(e, old);
	sp_pass *ps = grow ? pass_block_new(n) : old;
	/* Rings exist once a frame was collected; before that there is
	 * nothing to restride. */
	uint32_t *rings = e->rings ? sp_arena_alloc(sp_rings_bytes(capacity, n)) : NULL;
	if (!ps || (e->rings && !rings)) {
		sp_arena_free(rings, sp_rings_bytes(capacity, n));
		if (grow)
			sp_pass_block_free(e, ps, false);
		return false;
	}

	/* Readers take n_passes, the pass array and the rings under the
	 * entry's seqlock; the array is published before the count that grows
	 * into it. */
	sp_seq_begin(e);
	if (grow) {
		for (uint32_t p = 0; p < passes; p++) {
			SP_PUBLISH(ps[p].pass, SP_LOAD(old[p].pass));
			memcpy(ps[p].cpu_ns, old[p].cpu_ns, sizeof ps[p].cpu_ns);
			SP_PUBLISH(ps[p].cpu.sum, SP_LOAD(old[p].cpu.sum));
			SP_PUBLISH(ps[p].cpu.max, SP_LOAD(old[p].cpu.max));
			ps[p].cpu.max_at = old[p].cpu.max_at;
			SP_PUBLISH(ps[p].gpu.sum, SP_LOAD(old[p].gpu.sum));
			SP_PUBLISH(ps[p].gpu.max, SP_LOAD(old[p].gpu.max));
			ps[p].gpu.max_at = old[p].gpu.max_at;
		}
		atomic_store_explicit(&e->passes, ps, memory_order_release);
	}
	sp_pass *np = &ps[passes];
	SP_PUBLISH(np->pass, pass);
	memset(np->cpu_ns, 0, sizeof np->cpu_ns);
	SP_PUBLISH(np->cpu.sum, 0);
	SP_PUBLISH(np->cpu.max, 0);
	SP_PUBLISH(np->gpu.sum, 0);
	SP_PUBLISH(np->gpu.max, 0);
	np->cpu.max_at = np->gpu.max_at = 0;
	if (rings)
		rings_add_column(e, ps, rings, capacity, n);
	SP_PUBLISH(e->n_passes, n);
	sp_seq_end(e);
	if (grow)
		sp_pass_block_free(e, old, true);
	return true;
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

size_t sp_async_size(const sp_async *a)
{
	return sizeof *a + 2u * a->capacity * sizeof(uint32_t);
}

void sp_async_destroy(sp_async *a)
{
	if (a)
		sp_free(a, sp_async_size(a));
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

void sp_async_push(sp_async *a, bool rendered, uint64_t ts)
{
	sp_delta_window *w = rendered ? &a->rendered : &a->input;
	sp_delta_pub *p = rendered ? &a->pub_rendered : &a->pub_input;
	sp_delta_push(w, a->capacity, ts);
	/* The division here, once a frame, not in every fill_result. */
	double fps = w->nonzero ? 1.0e9 / ((double)w->sum / (double)w->nonzero) : 0.0;
	uint64_t bits;
	memcpy(&bits, &fps, sizeof bits);
	/* The entry's seqlock pattern: odd, the fields (release: after the
	 * odd count), even again (release: after the fields). */
	SP_STORE(a->seq, SP_LOAD(a->seq) + 1);
	SP_PUBLISH(p->fps_bits, bits);
	SP_PUBLISH(p->best, w->nonzero ? w->best : 0);
	SP_PUBLISH(p->worst, w->nonzero ? w->worst : 0);
	SP_PUBLISH(a->seq, SP_LOAD(a->seq) + 1);
}

typedef struct delta_copy {
	uint64_t fps_bits;
	uint32_t best, worst;
} delta_copy;

static void delta_copy_of(const sp_delta_pub *p, delta_copy *c)
{
	c->fps_bits = SP_READ(p->fps_bits);
	c->best = SP_READ(p->best);
	c->worst = SP_READ(p->worst);
}

static void delta_result(const delta_copy *c, double *fps, uint64_t *best, uint64_t *worst)
{
	memcpy(fps, &c->fps_bits, sizeof *fps);
	*best = c->best;
	*worst = c->worst;
}

void sp_async_result(const sp_async *a, profiler_result_t *r)
{
	delta_copy in, out;
	for (;;) {
		uint32_t s1 = atomic_load_explicit(&a->seq, memory_order_acquire);
		if (s1 & 1u)
			continue;
		delta_copy_of(&a->pub_input, &in);
		delta_copy_of(&a->pub_rendered, &out);
		/* The copies before the second look at the count (they are
		 * acquire loads: nothing after them moves before them). */
		if (atomic_load_explicit(&a->seq, memory_order_acquire) == s1)
			break;
	}
	delta_result(&in, &r->async_input, &r->async_input_best, &r->async_input_worst);
	delta_result(&out, &r->async_rendered, &r->async_rendered_best, &r->async_rendered_worst);
}
