#include "rows.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* Rows are sorted in place every frame (sort.h). */
_Static_assert(sizeof(src_row) <= 256, "sort_inplace moves rows through a 256-byte buffer");

const char *rows_sort_name(row_sort sort)
{
	static const char *const names[ROW_SORTS] = {"GPU sum", "rend sum", "tick", "name"};
	return sort < ROW_SORTS ? names[sort] : "?";
}

row_sort rows_effective_sort(row_sort sort, bool gpu_on)
{
	return sort == ROW_SORT_GPU && !gpu_on ? ROW_SORT_CPU : sort;
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

uint32_t rows_gather(eng_engine *e, src_row *rows, uint32_t cap, bool overlay)
{
	uint32_t n = 0, count = eng_source_count(e);
	for (uint32_t i = 0; i < count && n < cap; i++) {
		const eng_source *s = eng_source_at(e, i);
		fill(&rows[n++], s, s, s->name, s->type->name);
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
	static int (*const cmp[ROW_SORTS])(const void *, const void *) = {by_gpu, by_cpu, by_tick,
									  by_name};
	row_sort s = rows_effective_sort(sort, gpu_on);
	sort_inplace(rows, n, sizeof *rows, cmp[s < ROW_SORTS ? s : ROW_SORT_GPU]);
}
