/* The work counters' windows: per source, a ring of its counted frames'
 * counts per pass (allocated with its first counted frame: 4 bytes per
 * counter, pass column and frame of the window); one ring of the frames'
 * totals. The graphics thread pushes at collect under the ring's seqlock;
 * readers (any thread, inside RCU) aggregate averages, maxima and the
 * newest frame and retry when a push overlapped. As the entries' seqlock
 * (sp_common.h): counts stored with release, read with acquire, so a
 * reader that sees any value of a push sees its odd sequence number. */
#include "sp_profiler.h"
#include "sp_rcu.h"
#include "sp_table.h"
#include "sp_util.h"
#include "sp_window.h"
#include "sp_work.h"

#include <string.h>

struct sp_work_ring {
	uint32_t capacity, passes; /* frames; pass columns a frame holds */
	uint32_t head, count;      /* graphics thread; count published below */
	_Atomic uint32_t seq;      /* odd while a push writes */
	_Atomic uint32_t pub_head, pub_count;
	uint32_t v[]; /* capacity x passes x SP_COUNTERS */
};

static _Atomic bool g_wanted;
static _Atomic uint32_t g_counted; /* the backend's counters */
/* The frames' totals: a ring of 64-bit counts, graphics thread writes. */
static struct {
	uint64_t *v; /* capacity x SP_COUNTERS */
	uint32_t capacity, head, count;
	_Atomic uint32_t seq, pub_head, pub_count;
} g_totals;

static const char *const g_names[SP_COUNTERS] = {
	"vertices",       "primitives",     "VS invocations", "clip in",
	"clip out",       "FS invocations", "CS invocations",
};

const char *source_profiler_counter_name(source_profiler_counter c)
{
	return (unsigned)c < SP_COUNTERS ? g_names[c] : "?";
}

void source_profiler_work_enable(bool enable)
{
	atomic_store_explicit(&g_wanted, enable, memory_order_relaxed);
}

bool source_profiler_work_enabled(void)
{
	return sp_work_wanted();
}

bool sp_work_wanted(void)
{
	return atomic_load_explicit(&g_wanted, memory_order_relaxed);
}

void sp_work_set_counted(uint32_t counted)
{
	atomic_store_explicit(&g_counted, counted & ((1u << SP_COUNTERS) - 1u),
			      memory_order_relaxed);
}

uint32_t sp_work_counted(void)
{
	return atomic_load_explicit(&g_counted, memory_order_relaxed);
}

static size_t ring_bytes(uint32_t capacity, uint32_t passes)
{
	return sizeof(struct sp_work_ring) + (size_t)capacity * passes * SP_COUNTERS * sizeof(uint32_t);
}

static void ring_retire(struct sp_work_ring *r, bool readers)
{
	if (!r)
		return;
	if (readers)
		sp_retire(r, ring_bytes(r->capacity, r->passes));
	else
		sp_free(r, ring_bytes(r->capacity, r->passes));
}

void sp_work_release(sp_entry *e, bool readers)
{
	struct sp_work_ring *r = atomic_exchange_explicit(&e->work, NULL, memory_order_acq_rel);
	ring_retire(r, readers);
}

void sp_work_push(sp_entry *e, const sp_work_frame *f)
{
	uint32_t capacity = sp_capacity, passes = f->passes;
	struct sp_work_ring *r = atomic_load_explicit(&e->work, memory_order_relaxed);
	if (!r || r->capacity != capacity || r->passes < passes) {
		/* A new window: the first counted frame, another window size
		 * (counts restart), or a pass column more than it was made for
		 * (a pass first rendered now: the frames so far move over, with
		 * 0 in the new column). */
		uint32_t cols = passes > (r ? r->passes : 0) ? passes : r->passes;
		struct sp_work_ring *n = sp_alloc(ring_bytes(capacity, cols));
		if (!n)
			return;
		n->capacity = capacity;
		n->passes = cols;
		if (r && r->capacity == capacity) {
			for (uint32_t k = 0; k < capacity; k++)
				memcpy(n->v + (size_t)k * cols * SP_COUNTERS,
				       r->v + (size_t)k * r->passes * SP_COUNTERS,
				       (size_t)r->passes * SP_COUNTERS * sizeof *r->v);
			n->head = r->head;
			n->count = r->count;
			atomic_store_explicit(&n->pub_head, n->head, memory_order_relaxed);
			atomic_store_explicit(&n->pub_count, n->count, memory_order_relaxed);
		}
		atomic_store_explicit(&e->work, n, memory_order_release);
		ring_retire(r, true);
		r = n;
	}
	uint32_t seq = atomic_load_explicit(&r->seq, memory_order_relaxed);
	atomic_store_explicit(&r->seq, seq + 1, memory_order_relaxed);
	uint32_t *rec = r->v + (size_t)r->head * r->passes * SP_COUNTERS;
	for (uint32_t p = 0; p < r->passes; p++)
		for (uint32_t c = 0; c < SP_COUNTERS; c++)
			__atomic_store_n(&rec[p * SP_COUNTERS + c], p < passes ? f->v[p][c] : 0,
					 __ATOMIC_RELEASE);
	r->head = (r->head + 1) % r->capacity;
	if (r->count < r->capacity)
		r->count++;
	atomic_store_explicit(&r->pub_head, r->head, memory_order_release);
	atomic_store_explicit(&r->pub_count, r->count, memory_order_release);
	atomic_store_explicit(&r->seq, seq + 2, memory_order_release);
}

void sp_work_push_frame(const uint64_t totals[SP_COUNTERS])
{
	uint32_t capacity = sp_capacity;
	if (g_totals.capacity != capacity) {
		uint64_t *v = sp_alloc((size_t)capacity * SP_COUNTERS * sizeof *v);
		if (!v)
			return;
		uint64_t *old = g_totals.v;
		uint32_t old_cap = g_totals.capacity;
		uint32_t seq = atomic_load_explicit(&g_totals.seq, memory_order_relaxed);
		atomic_store_explicit(&g_totals.seq, seq + 1, memory_order_relaxed);
			__atomic_store_n(&g_totals.v, v, __ATOMIC_RELEASE);
		__atomic_store_n(&g_totals.capacity, capacity, __ATOMIC_RELEASE);
		g_totals.head = g_totals.count = 0;
		atomic_store_explicit(&g_totals.pub_head, 0, memory_order_release);
		atomic_store_explicit(&g_totals.pub_count, 0, memory_order_release);
		atomic_store_explicit(&g_totals.seq, seq + 2, memory_order_release);
		if (old)
			sp_retire(old, (size_t)old_cap * SP_COUNTERS * sizeof *old);
	}
	uint32_t seq = atomic_load_explicit(&g_totals.seq, memory_order_relaxed);
	atomic_store_explicit(&g_totals.seq, seq + 1, memory_order_relaxed);
	for (uint32_t c = 0; c < SP_COUNTERS; c++)
		__atomic_store_n(&g_totals.v[g_totals.head * SP_COUNTERS + c], totals[c],
				 __ATOMIC_RELEASE);
	g_totals.head = (g_totals.head + 1) % g_totals.capacity;
	if (g_totals.count < g_totals.capacity)
		g_totals.count++;
	atomic_store_explicit(&g_totals.pub_head, g_totals.head, memory_order_release);
	atomic_store_explicit(&g_totals.pub_count, g_totals.count, memory_order_release);
	atomic_store_explicit(&g_totals.seq, seq + 2, memory_order_release);
}

void sp_work_reset_totals(void)
{
	if (g_totals.v)
		sp_retire(g_totals.v, (size_t)g_totals.capacity * SP_COUNTERS * sizeof *g_totals.v);
	__atomic_store_n(&g_totals.v, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&g_totals.capacity, 0, __ATOMIC_RELAXED);
	g_totals.head = g_totals.count = 0;
	atomic_store(&g_totals.pub_count, 0);
}

/* --- the reader side -------------------------------------------------------- */

/* Adds one frame's counts (n columns summed into one, or column `col`)
 * to the aggregate; `newest`: its values are the last frame's. */
typedef struct work_acc {
	uint64_t sum[SP_COUNTERS], max[SP_COUNTERS], last[SP_COUNTERS];
} work_acc;

static void acc_add(work_acc *a, const uint64_t v[SP_COUNTERS], bool newest)
{
	for (uint32_t c = 0; c < SP_COUNTERS; c++) {
		a->sum[c] += v[c];
		if (v[c] > a->max[c])
			a->max[c] = v[c];
		if (newest)
			a->last[c] = v[c];
	}
}

static void acc_out(const work_acc *a, uint32_t samples, source_profiler_work_t *out)
{
	*out = (source_profiler_work_t){
		.counted = atomic_load_explicit(&g_counted, memory_order_relaxed),
		.samples = samples,
	};
	for (uint32_t c = 0; c < SP_COUNTERS; c++) {
		out->avg[c] = samples ? a->sum[c] / samples : 0;
		out->max[c] = a->max[c];
		out->last[c] = a->last[c];
	}
}

/* Aggregates an entry's ring: column `col`, or every column summed when
 * col < 0, into acc (zeroed here); the frames it holds, or -1 when a push
 * overlapped (retry). Inside RCU. */
static int ring_aggregate(const struct sp_work_ring *r, int col, work_acc *acc)
{
	uint32_t s1 = atomic_load_explicit(&r->seq, memory_order_acquire);
	if (s1 & 1u)
		return -1;
	memset(acc, 0, sizeof *acc);
	uint32_t count = atomic_load_explicit(&r->pub_count, memory_order_acquire);
	uint32_t head = atomic_load_explicit(&r->pub_head, memory_order_acquire);
	if (count > r->capacity || head >= r->capacity)
		return -1;
	for (uint32_t k = 0; k < count; k++) {
		/* Oldest first: the newest is the last added. */
		uint32_t i = (head + r->capacity - count + k) % r->capacity;
		const uint32_t *rec = r->v + (size_t)i * r->passes * SP_COUNTERS;
		uint64_t v[SP_COUNTERS] = {0};
		for (uint32_t p = 0; p < r->passes; p++) {
			if (col >= 0 && p != (uint32_t)col)
				continue;
			for (uint32_t c = 0; c < SP_COUNTERS; c++)
				v[c] += __atomic_load_n(&rec[p * SP_COUNTERS + c], __ATOMIC_ACQUIRE);
		}
		acc_add(acc, v, k + 1 == count);
	}
	return atomic_load_explicit(&r->seq, memory_order_acquire) == s1 ? (int)count : -1;
}

/* The ring of `source`'s entry aggregated as ring_aggregate does, for
 * column `col` (< 0: all); returns the frames, 0 when there is none. *cols:
 * the columns it holds. */
static uint32_t source_aggregate(const void *source, int col, work_acc *acc, uint32_t *cols)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX)
		return 0;
	for (int attempt = 0; attempt < 16; attempt++) {
		int n = 0;
		bool gone = true;
		unsigned idx = sp_rcu_enter();
		if (sp_live()) {
			sp_entry *e = sp_entry_at(sp_table_find(key));
			const struct sp_work_ring *r =
				e ? atomic_load_explicit(&e->work, memory_order_acquire) : NULL;
			if (r && SP_READ(e->key) == key) {
				gone = false;
				*cols = r->passes;
				n = col < (int)r->passes ? ring_aggregate(r, col, acc) : 0;
			}
		}
		sp_rcu_exit(idx);
		if (gone)
			return 0;
		if (n >= 0)
			return (uint32_t)n;
	}
	return 0;
}

bool source_profiler_fill_work(const void *source, source_profiler_work_t *out)
{
	work_acc acc;
	uint32_t cols = 0, n = source_aggregate(source, -1, &acc, &cols);
	if (!n)
		return false;
	acc_out(&acc, n, out);
	return true;
}

size_t source_profiler_fill_pass_work(const void *source, source_profiler_work_t *out,
				      size_t max_out)
{
	work_acc acc;
	uint32_t cols = 0, n = source_aggregate(source, -1, &acc, &cols);
	if (!n)
		return 0;
	for (uint32_t p = 0; out && p < cols && p < max_out; p++) {
		uint32_t c2 = 0, m = source_aggregate(source, (int)p, &acc, &c2);
		acc_out(&acc, m, &out[p]);
	}
	return cols;
}

bool source_profiler_frame_work(source_profiler_work_t *out)
{
	for (int attempt = 0; attempt < 16; attempt++) {
		unsigned idx = sp_rcu_enter();
		uint32_t s1 = atomic_load_explicit(&g_totals.seq, memory_order_acquire);
		const uint64_t *v = __atomic_load_n(&g_totals.v, __ATOMIC_ACQUIRE);
		uint32_t count = atomic_load_explicit(&g_totals.pub_count, memory_order_acquire);
		uint32_t head = atomic_load_explicit(&g_totals.pub_head, memory_order_acquire);
		uint32_t capacity = __atomic_load_n(&g_totals.capacity, __ATOMIC_ACQUIRE);
		work_acc acc = {0};
		bool ok = !(s1 & 1u) && v && count && count <= capacity && head < capacity;
		for (uint32_t k = 0; ok && k < count; k++) {
			uint32_t i = (head + capacity - count + k) % capacity;
			uint64_t f[SP_COUNTERS];
			for (uint32_t c = 0; c < SP_COUNTERS; c++)
				f[c] = __atomic_load_n(&v[i * SP_COUNTERS + c], __ATOMIC_ACQUIRE);
			acc_add(&acc, f, k + 1 == count);
		}
			bool same = atomic_load_explicit(&g_totals.seq, memory_order_acquire) == s1;
		sp_rcu_exit(idx);
		if (!(s1 & 1u) && same) {
			if (!ok)
				return false;
			acc_out(&acc, count, out);
			return true;
		}
	}
	return false;
}
