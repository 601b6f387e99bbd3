#include "rows.h"
#include "sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows are sorted in place every frame (sort.h). */
_Static_assert(sizeof(src_row) <= 256, "sort_inplace moves rows through a 256-byte buffer");

const char *rows_sort_name(row_sort sort)
{
	static const char *const names[ROW_SORTS] = {"GPU p50", "GPU sum", "rend p50",
						     "rend sum", "tick", "name"};
	return sort < ROW_SORTS ? names[sort] : "?";
}

row_sort rows_effective_sort(row_sort sort, bool gpu_on)
{
	if (gpu_on)
		return sort;
	return sort == ROW_SORT_GPU ? ROW_SORT_CPU : sort == ROW_SORT_GPU_P50 ? ROW_SORT_CPU_P50 : sort;
}

bool rows_refresh_medians(eng_engine *e, rows_median_cache *c, uint32_t budget)
{
	uint32_t n = eng_source_count(e);
	if (n > c->cap) {
		uint32_t cap = c->cap ? c->cap : 64;
		while (cap < n)
			cap *= 2;
		src_medians *v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return false;
		memset(v + c->cap, 0, (cap - c->cap) * sizeof *v);
		c->v = v;
		c->cap = cap;
	}
	if (!n)
		return true;
	uint32_t todo = budget && budget < n ? budget : n;
	for (uint32_t k = 0; k < todo; k++) {
		uint32_t i = (c->next + k) % n;
		const eng_source *s = eng_source_at(e, i);
		src_medians *m = &c->v[i];
		m->key = s;
		m->have = source_profiler_fill_medians(s, &m->m);
		source_profiler_intervals_t iv;
		m->have_ci = c->intervals && m->have && source_profiler_fill_intervals(s, &iv) &&
			     iv.gpu_samples > 1;
		m->gpu_sum_ci95 = m->have_ci ? iv.render_gpu_sum_ci95 : 0;
	}
	c->next = (c->next + todo) % n;
	return true;
}

void rows_median_cache_free(rows_median_cache *c)
{
	free(c->v);
	*c = (rows_median_cache){0};
}

bool rows_reserve(src_row **rows, uint32_t *cap, uint32_t need)
{
	if (need <= *cap)
		return true;
	uint32_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	src_row *r = realloc(*rows, c * sizeof *r);
	if (!r)
		return false;
	*rows = r;
	*cap = c;
	return true;
}

static void fill(src_row *row, const void *key, const eng_source *s, const char *name,
		 const char *type)
{
	*row = (src_row){.key = key, .source = s, .name = name, .type = type};
	row->have = source_profiler_fill_result(key, &row->r);
	row->async = s && (s->flags & ENG_SOURCE_ASYNC);
	if (row->have)
		source_profiler_get_sample_counts(key, &row->cpu_samples, &row->gpu_samples);
}

uint32_t rows_gather(eng_engine *e, src_row *rows, uint32_t cap, bool overlay,
		     const rows_median_cache *med)
{
	uint32_t n = 0, count = eng_source_count(e);
	for (uint32_t i = 0; i < count && n < cap; i++) {
		const eng_source *s = eng_source_at(e, i);
		src_row *row = &rows[n++];
		fill(row, s, s, s->name, s->type->name);
		if (row->have && med && i < med->cap && med->v[i].key == s && med->v[i].have) {
			row->have_med = true;
			row->m = med->v[i].m;
			row->have_ci = med->v[i].have_ci;
			row->gpu_sum_ci95 = med->v[i].gpu_sum_ci95;
		}
	}
	if (overlay && n < cap)
		fill(&rows[n++], eng_overlay_key(), NULL, "(overlay)", "overlay");
	return n;
}

/* Rows with results first; then by `sort`; ties by name. */
static int order(const src_row *x, const src_row *y, uint64_t a, uint64_t b)
{
	if (x->have != y->have)
		return x->have ? -1 : 1;
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_gpu(const void *p, const void *q)
{
	const src_row *x = p, *y = q;
	if (x->have && y->have && x->r.render_gpu_sum == y->r.render_gpu_sum)
		return order(x, y, x->r.render_sum, y->r.render_sum);
	return order(x, y, x->r.render_gpu_sum, y->r.render_gpu_sum);
}

/* Sources without medians yet sort after those with. */
static uint64_t p50(const src_row *x, bool gpu)
{
	return !x->have_med ? 0 : gpu ? x->m.render_gpu_sum_p50 : x->m.render_sum_p50;
}

static int by_gpu_p50(const void *p, const void *q)
{
	const src_row *x = p, *y = q;
	if (x->have && y->have && p50(x, true) == p50(y, true))
		return order(x, y, p50(x, false), p50(y, false));
	return order(x, y, p50(x, true), p50(y, true));
}

static int by_cpu_p50(const void *p, const void *q)
{
	const src_row *x = p, *y = q;
	return order(x, y, p50(x, false), p50(y, false));
}

static int by_cpu(const void *p, const void *q)
{
	const src_row *x = p, *y = q;
	return order(x, y, x->r.render_sum, y->r.render_sum);
}

static int by_tick(const void *p, const void *q)
{
	const src_row *x = p, *y = q;
	return order(x, y, x->r.tick_avg, y->r.tick_avg);
}

static int by_name(const void *p, const void *q)
{
	return order(p, q, 0, 0);
}

void rows_sort(src_row *rows, uint32_t n, row_sort sort, bool gpu_on)
{
	static int (*const cmp[ROW_SORTS])(const void *, const void *) = {
		by_gpu_p50, by_gpu, by_cpu_p50, by_cpu, by_tick, by_name};
	row_sort s = rows_effective_sort(sort, gpu_on);
	sort_inplace(rows, n, sizeof *rows, cmp[s < ROW_SORTS ? s : ROW_SORT_GPU_P50]);
}

void rows_count_text(const source_profiler_work_t *w, int c, char *buf, size_t size)
{
	uint64_t v = w->avg[c];
	if (!(w->counted & (1u << c)))
		snprintf(buf, size, "n/a");
	else if (v < 10000000)
		snprintf(buf, size, "%llu", (unsigned long long)v);
	else if (v < 10000000000ull)
		snprintf(buf, size, "%.1fM", (double)v / 1e6);
	else
		snprintf(buf, size, "%.1fG", (double)v / 1e9);
}

void rows_work_fields(FILE *f, const void *key)
{
	source_profiler_work_t w;
	if (!source_profiler_fill_work(key, &w)) {
		fputs(source_profiler_work_enabled() ? ",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a" : ",,,,,,,,",
		      f);
		return;
	}
	fprintf(f, ",%u", w.samples);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (w.counted & (1u << c))
			fprintf(f, ",%llu", (unsigned long long)w.avg[c]);
		else
			fputs(",n/a", f);
}
