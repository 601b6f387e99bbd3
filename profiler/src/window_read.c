/* The readers that copy a source's window rather than its running sums:
 * medians and 95% intervals (fill_medians, fill_intervals), per-queue GPU
 * results (fill_queue_results), from any thread, and the raw samples
 * (copy_samples, graphics thread). A reader copies the rings inside an
 * RCU section and keeps the copy only if the entry's seqlock says no
 * collect overlapped it; results.c has the constant-time readers. */
#include "sp_profiler.h"
#include "sp_rcu.h"
#include "sp_state.h"
#include "sp_table.h"
#include "sp_window.h"
#include "srcprof_base/stats.h"
#include "srcprof_base/student_t.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Each thread's copy buffer, kept between calls (freed when the thread
 * ends): fill_medians is called for what a display shows, every frame. */
static pthread_key_t g_scratch_key;
static pthread_once_t g_scratch_once = PTHREAD_ONCE_INIT;

typedef struct scratch {
	uint32_t *buf;
	size_t cap; /* uint32_t's */
} scratch;

static void scratch_free(void *p)
{
	scratch *s = p;
	free(s->buf);
	free(s);
}

static void scratch_key(void)
{
	pthread_key_create(&g_scratch_key, scratch_free);
}

static uint32_t *scratch_get(size_t n)
{
	pthread_once(&g_scratch_once, scratch_key);
	scratch *s = pthread_getspecific(g_scratch_key);
	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s || pthread_setspecific(g_scratch_key, s) != 0) {
			free(s);
			return NULL;
		}
	}
	if (s->cap < n) {
		uint32_t *b = realloc(s->buf, n * sizeof *b);
		if (!b)
			return NULL;
		s->buf = b;
		s->cap = n;
	}
	return s->buf;
}

/* The five series of a source's window, copied under its seqlock. */
typedef struct window_copy {
	uint32_t cpu, gpu; /* samples */
	uint32_t *tick, *render, *render_sum, *gpu_first, *gpu_sum;
} window_copy;

/* One attempt at a consistent copy; false when a write overlapped it, the
 * entry is no longer `key`'s (then *gone), or its rings are of another
 * window size than `capacity` (reset_video re-created it: then *resized).
 * Inside RCU. */
static bool copy_window(sp_entry *e, uintptr_t key, window_copy *w, uint32_t capacity,
			uint32_t *buf, bool *gone, bool *resized)
{
	uint32_t s1 = atomic_load_explicit(&e->seq, memory_order_acquire);
	if (s1 & 1u)
		return false;
	*gone = SP_READ(e->key) != key;
	if (*gone)
		return false;
	uint32_t passes = SP_READ(e->n_passes);
	const uint32_t *rings = __atomic_load_n(&e->rings, __ATOMIC_ACQUIRE);
	/* An entry made after a reset_video is published after the new size:
	 * read here, the size is that of its rings (or newer). */
	*resized = sp_window_capacity() != capacity;
	if (*resized)
		return false;
	w->cpu = SP_READ(e->cpu_count);
	w->gpu = SP_READ(e->gpu_count);
	if (w->cpu > capacity || w->gpu > capacity)
		return false; /* a window resized meanwhile */
	w->tick = buf;
	w->render = buf + capacity;
	w->render_sum = buf + 2 * capacity;
	w->gpu_first = buf + 3 * capacity;
	w->gpu_sum = buf + 4 * capacity;
	if (rings) {
		uint32_t cs = SP_CPU_FIXED + passes, gs = SP_GPU_FIXED + passes;
		const uint32_t *gring = rings + (size_t)capacity * cs;
		for (uint32_t i = 0; i < w->cpu; i++) {
			const uint32_t *r = rings + (size_t)i * cs;
			w->tick[i] = __atomic_load_n(&r[0], __ATOMIC_RELAXED);
			w->render[i] = __atomic_load_n(&r[1], __ATOMIC_RELAXED);
			uint64_t sum = 0;
			for (uint32_t p = 0; p < passes; p++)
				sum += __atomic_load_n(&r[SP_CPU_FIXED + p], __ATOMIC_RELAXED);
			w->render_sum[i] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
		}
		for (uint32_t i = 0; i < w->gpu; i++) {
			const uint32_t *r = gring + (size_t)i * gs;
			w->gpu_first[i] = __atomic_load_n(&r[0], __ATOMIC_RELAXED);
			uint64_t sum = 0;
			for (uint32_t p = 0; p < passes; p++)
				sum += __atomic_load_n(&r[SP_GPU_FIXED + p], __ATOMIC_RELAXED);
			w->gpu_sum[i] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
		}
	} else {
		w->cpu = w->gpu = 0;
	}
	return atomic_load_explicit(&e->seq, memory_order_acquire) == s1;
}

/* Copies `source`'s window into this thread's scratch buffer: true when
 * it has one with at least one CPU sample. */
static bool copy_source(const void *source, window_copy *w)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX)
		return false;
	uint32_t capacity = sp_window_capacity();
	uint32_t *buf = scratch_get((size_t)5 * capacity);
	if (!buf)
		return false;
	bool ok = false;
	/* A push per frame touches one record: a copy collides rarely, and a
	 * collision is retried; a writer busier than that wins after 16. */
	for (int attempt = 0; attempt < 16 && !ok; attempt++) {
		bool gone = false, resized = false;
		unsigned idx = sp_rcu_enter();
		if (sp_live()) {
			sp_entry *e = sp_entry_at(sp_table_find(key));
			if (e)
				ok = copy_window(e, key, w, capacity, buf, &gone, &resized);
			else
				gone = true;
		} else {
			gone = true;
		}
		sp_rcu_exit(idx);
		if (gone)
			break;
		if (resized) {
			capacity = sp_window_capacity();
			buf = scratch_get((size_t)5 * capacity);
			if (!buf)
				return false;
		}
	}
	return ok && w->cpu;
}

/* A source's GPU samples summed per queue: for each queue its columns are
 * on, the sum of each GPU record's columns there. One attempt, as
 * copy_window. */
typedef struct queue_copy {
	uint32_t gpu;                       /* records */
	uint32_t n;                         /* queues */
	uint32_t queue[SOURCE_PROFILER_MAX_QUEUES];
	uint32_t *sums[SOURCE_PROFILER_MAX_QUEUES]; /* per queue, per record */
} queue_copy;

static bool copy_queues(sp_entry *e, uintptr_t key, queue_copy *w, uint32_t capacity,
			uint32_t *buf, bool *gone, bool *resized)
{
	uint32_t s1 = atomic_load_explicit(&e->seq, memory_order_acquire);
	if (s1 & 1u)
		return false;
	*gone = SP_READ(e->key) != key;
	if (*gone)
		return false;
	uint32_t passes = SP_READ(e->n_passes);
	sp_pass *ps = atomic_load_explicit(&e->passes, memory_order_acquire);
	const uint32_t *rings = __atomic_load_n(&e->rings, __ATOMIC_ACQUIRE);
	*resized = sp_window_capacity() != capacity;
	if (*resized)
		return false;
	uint32_t cap = ps ? sp_passes_cap(e, ps) : 0;
	if (passes > cap || passes > SOURCE_PROFILER_MAX_SOURCE_PASSES)
		return false; /* a pass added meanwhile */
	w->gpu = SP_READ(e->gpu_count);
	if (w->gpu > capacity)
		return false;
	/* Each column's queue, and the queues in order. */
	uint32_t col_q[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	w->n = 0;
	for (uint32_t p = 0; p < passes; p++) {
		uint32_t q = SP_READ(ps[p].pass) >> 8;
		uint32_t k = 0;
		while (k < w->n && w->queue[k] != q)
			k++;
		if (k == w->n) {
			if (w->n == SOURCE_PROFILER_MAX_QUEUES)
				return false;
			w->queue[w->n++] = q;
		}
		col_q[p] = k;
	}
	for (uint32_t k = 0; k < w->n; k++) {
		w->sums[k] = buf + (size_t)k * capacity;
		memset(w->sums[k], 0, (size_t)w->gpu * sizeof *buf);
	}
	if (rings) {
		uint32_t gs = SP_GPU_FIXED + passes;
		const uint32_t *gring = rings + (size_t)capacity * (SP_CPU_FIXED + passes);
		for (uint32_t i = 0; i < w->gpu; i++) {
			const uint32_t *r = gring + (size_t)i * gs;
			for (uint32_t p = 0; p < passes; p++) {
				uint64_t v = (uint64_t)w->sums[col_q[p]][i] +
					     __atomic_load_n(&r[SP_GPU_FIXED + p], __ATOMIC_RELAXED);
				w->sums[col_q[p]][i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
			}
		}
	} else {
		w->gpu = 0;
	}
	return atomic_load_explicit(&e->seq, memory_order_acquire) == s1;
}

size_t source_profiler_fill_queue_results(const void *source,
					  source_profiler_queue_result_t *out, size_t max_out)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX)
		return 0;
	uint32_t capacity = sp_window_capacity();
	uint32_t *buf = scratch_get((size_t)SOURCE_PROFILER_MAX_QUEUES * capacity);
	if (!buf)
		return 0;
	queue_copy w = {0};
	bool ok = false, have = false;
	for (int attempt = 0; attempt < 16 && !ok; attempt++) {
		bool gone = false, resized = false;
		unsigned idx = sp_rcu_enter();
		if (sp_live()) {
			sp_entry *e = sp_entry_at(sp_table_find(key));
			if (e) {
				ok = copy_queues(e, key, &w, capacity, buf, &gone, &resized);
				have = ok && SP_READ(e->cpu_count);
			} else {
				gone = true;
			}
		} else {
			gone = true;
		}
		sp_rcu_exit(idx);
		if (gone)
			break;
		if (resized) {
			capacity = sp_window_capacity();
			buf = scratch_get((size_t)SOURCE_PROFILER_MAX_QUEUES * capacity);
			if (!buf)
				return 0;
		}
	}
	if (!ok || !have)
		return 0;
	/* In queue order. */
	uint32_t order[SOURCE_PROFILER_MAX_QUEUES];
	for (uint32_t k = 0; k < w.n; k++) {
		uint32_t j = k;
		for (; j > 0 && w.queue[order[j - 1]] > w.queue[k]; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	bool gpu = sp_gpu_live();
	for (uint32_t j = 0; out && j < w.n && j < max_out; j++) {
		uint32_t k = order[j];
		uint64_t sum = 0;
		uint32_t max = 0;
		for (uint32_t i = 0; gpu && i < w.gpu; i++) {
			sum += w.sums[k][i];
			max = w.sums[k][i] > max ? w.sums[k][i] : max;
		}
		out[j] = (source_profiler_queue_result_t){
			.queue = w.queue[k],
			.gpu_samples = w.gpu,
			.render_gpu_sum = gpu && w.gpu ? sum / w.gpu : 0,
			.render_gpu_max = max,
		};
	}
	return w.n;
}

/* A figure of each of the five series (tick, render, render sum, GPU
 * first render, GPU sum), as `of` makes it of the samples; GPU figures
 * read 0 while GPU timing is off, as fill_result's do. */
static void each_series(window_copy *w, uint64_t (*of)(uint32_t *v, uint32_t n), uint64_t out[5])
{
	bool gpu = sp_gpu_live();
	out[0] = of(w->tick, w->cpu);
	out[1] = of(w->render, w->cpu);
	out[2] = of(w->render_sum, w->cpu);
	out[3] = gpu ? of(w->gpu_first, w->gpu) : 0;
	out[4] = gpu ? of(w->gpu_sum, w->gpu) : 0;
}

bool source_profiler_fill_medians(const void *source, source_profiler_medians_t *m)
{
	window_copy w = {0};
	if (!m || !copy_source(source, &w))
		return false;
	uint64_t v[5];
	each_series(&w, stats_median_u32, v);
	*m = (source_profiler_medians_t){
		.cpu_samples = w.cpu, .gpu_samples = w.gpu,
		.tick_p50 = v[0], .render_p50 = v[1], .render_sum_p50 = v[2],
		.render_gpu_p50 = v[3], .render_gpu_sum_p50 = v[4],
	};
	return true;
}

/* sqrt without libm (the library links only threads): Newton's method
 * from above, to the last bit a double resolves here. */
static double root(double x)
{
	if (x <= 0)
		return 0;
	double r = x > 1 ? x : 1;
	for (int i = 0; i < 200; i++) {
		double next = 0.5 * (r + x / r);
		if (next >= r)
			break;
		r = next;
	}
	return r;
}

/* Half the width of the 95% confidence interval of the mean of v[0..n-1]
 * (ns, rounded to nearest); 0 with fewer than two samples. */
static uint64_t ci95_of(uint32_t *v, uint32_t n)
{
	if (n < 2)
		return 0;
	double sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum += v[i];
	double mean = sum / n, ss = 0;
	for (uint32_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return (uint64_t)(student_t975(n) * root(ss / (n - 1)) / root((double)n) + 0.5);
}

bool source_profiler_fill_intervals(const void *source, source_profiler_intervals_t *iv)
{
	window_copy w = {0};
	if (!iv || !copy_source(source, &w))
		return false;
	uint64_t v[5];
	each_series(&w, ci95_of, v);
	*iv = (source_profiler_intervals_t){
		.cpu_samples = w.cpu, .gpu_samples = w.gpu,
		.tick_ci95 = v[0], .render_ci95 = v[1], .render_sum_ci95 = v[2],
		.render_gpu_ci95 = v[3], .render_gpu_sum_ci95 = v[4],
	};
	return true;
}

size_t source_profiler_copy_samples(const void *source, source_profiler_series series,
				    uint32_t *out, size_t max)
{
	uintptr_t key = (uintptr_t)source;
	if (!sp_core.on || !key || key == UINTPTR_MAX)
		return 0;
	uint32_t idx = sp_table_find(key);
	if (idx == SP_NO_ENTRY)
		return 0;
	sp_entry *e = sp_entry_fast(idx);
	if (!e->rings)
		return 0;
	bool gpu = series == SOURCE_PROFILER_GPU || series == SOURCE_PROFILER_GPU_SUM;
	uint32_t passes = SP_LOAD(e->n_passes);
	uint32_t stride = (gpu ? SP_GPU_FIXED : SP_CPU_FIXED) + passes;
	uint32_t count = gpu ? SP_LOAD(e->gpu_count) : SP_LOAD(e->cpu_count);
	uint32_t start = gpu ? sp_capacity * (SP_CPU_FIXED + passes) : 0;
	uint32_t head = ((gpu ? e->gpu_off : e->cpu_off) - start) / stride;
	const uint32_t *base = e->rings + start;
	uint32_t first = count < sp_capacity ? 0 : head; /* the oldest record */
	for (uint32_t i = 0; i < count && i < max; i++) {
		const uint32_t *rec = base + (size_t)((first + i) % sp_capacity) * stride;
		uint64_t v = 0;
		switch (series) {
		case SOURCE_PROFILER_TICK:
		case SOURCE_PROFILER_GPU:
			v = rec[0];
			break;
		case SOURCE_PROFILER_RENDER:
			v = rec[1];
			break;
		case SOURCE_PROFILER_RENDER_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_CPU_FIXED + p];
			break;
		case SOURCE_PROFILER_GPU_SUM:
			for (uint32_t p = 0; p < passes; p++)
				v += rec[SP_GPU_FIXED + p];
			break;
		}
		out[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return count;
}
