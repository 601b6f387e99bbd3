/* The GPU cost of one source measured on its own (eng_measure_isolated) or
 * as one more copy of itself (eng_measure_marginal), in submissions of
 * their own between frames (eng_gfx_time_isolated).
 *
 * Alone: one copy of the source per submission: copies drawn together
 * share each tile's cache and make memory-bound work look cheaper than it
 * is in a frame, and copies in separate passes overlap on the rasterizer
 * threads. Precision comes from repeating submissions instead. The
 * marginal measure draws it 1 + k times in its passes instead, to cancel
 * what a submission of one small draw costs that the frame does not pay. */
#include "core.h"

#include "srcprof/source_profiler.h"
#include "srcprof_base/stats.h"

#include <stdlib.h>

typedef struct isolate_ctx {
	eng_engine *e;
	eng_source *only; /* NULL: passes only, the baseline */
	uint32_t repeats; /* prepares and draws of `only` */
	bool prepare_only; /* its prepare alone: the views' passes draw nothing */
} isolate_ctx;

static void isolated_frame(void *user)
{
	isolate_ctx *c = user;
	if (c->only && c->only->type->prepare)
		for (uint32_t r = 0; r < c->repeats; r++)
			c->only->type->prepare(c->only);
	eng_source *drawn = c->prepare_only ? NULL : c->only;
	for (uint32_t v = 0; v < c->e->n_views; v++)
		core_render_view(c->e, &c->e->views[v], false, drawn, false, c->repeats);
}

/* The median of `reps` alternating pairs: `s` drawn `a` times against `b`
 * times (0: passes only), the difference divided by `per`. */
static eng_result measure_pairs(eng_engine *e, eng_source *s, uint32_t a, uint32_t b,
				uint32_t per, uint32_t reps, bool prepare_only, uint64_t *ns)
{
	if (!reps)
		reps = 1;
	uint64_t *with = calloc(reps, sizeof *with), *without = calloc(reps, sizeof *without);
	if (!with || !without) {
		free(with);
		free(without);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	e->isolating = true;
	eng_result r = ENG_OK;
	/* Alternate so that drift of the machine hits both equally. */
	for (uint32_t i = 0; i < reps && r == ENG_OK; i++) {
		r = eng_gfx_time_isolated(isolated_frame, &(isolate_ctx){e, s, a, prepare_only},
					  &with[i]);
		if (r == ENG_OK)
			r = eng_gfx_time_isolated(
				isolated_frame,
				&(isolate_ctx){e, b ? s : NULL, b ? b : 1, prepare_only}, &without[i]);
	}
	e->isolating = false;
	if (r == ENG_OK) {
		qsort(with, reps, sizeof *with, stats_cmp_u64);
		qsort(without, reps, sizeof *without, stats_cmp_u64);
		uint64_t x = with[reps / 2], y = without[reps / 2];
		*ns = x > y ? (x - y) / per : 0;
	}
	free(with);
	free(without);
	return r;
}

eng_result eng_measure_isolated(eng_engine *e, eng_source *s, uint32_t reps, uint64_t *ns)
{
	return measure_pairs(e, s, 1, 0, 1, reps, false, ns);
}

eng_result eng_measure_prepare_isolated(eng_engine *e, eng_source *s, uint32_t reps, uint64_t *ns)
{
	if (!s || !s->type->prepare)
		return ENG_ERR_INVALID;
	return measure_pairs(e, s, 1, 0, 1, reps, true, ns);
}

eng_result eng_measure_marginal(eng_engine *e, eng_source *s, uint32_t k, uint32_t reps,
				uint64_t *ns)
{
	if (!k)
		return ENG_ERR_INVALID;
	return measure_pairs(e, s, 1 + k, 1, k, reps, false, ns);
}

/* The scene's frame again: every live source's prepare, every view with
 * all of them (the overlay left out). */
static void whole_frame(void *user)
{
	eng_engine *e = user;
	uint32_t n = core_live_sources(e);
	for (uint32_t i = 0; i < n; i++)
		if (e->sources[i]->type->prepare)
			e->sources[i]->type->prepare(e->sources[i]);
	for (uint32_t v = 0; v < e->n_views; v++)
		core_render_view(e, &e->views[v], true, NULL, false, 1);
}

eng_result eng_count_frame_work(eng_engine *e, uint64_t *counts, uint32_t *counted)
{
	e->isolating = true;
	eng_result r = eng_gfx_count_isolated(whole_frame, e, counts, counted);
	e->isolating = false;
	return r;
}

/* Frames of the paused scene, each GPU-timed, before the sources' counts
 * are read: the newest frame's results come in a frame or two after it. */
#define WORK_CHECK_FRAMES 6

eng_result eng_check_work(eng_engine *e, eng_work_check *out)
{
	*out = (eng_work_check){0};
	if (e->profile != ENG_PROFILE_ALL || !source_profiler_work_enabled())
		return ENG_ERR_INVALID;
	bool was_paused = e->paused;
	e->paused = true;
	eng_result r = ENG_OK;
	for (uint32_t i = 0; i < WORK_CHECK_FRAMES && r == ENG_OK; i++) {
		source_profiler_gpu_time_next_frame();
		r = eng_frame(e);
	}
	e->paused = was_paused;
	if (r != ENG_OK)
		return r;
	uint32_t n = core_live_sources(e), mask = 0;
	for (uint32_t i = 0; i < n; i++) {
		source_profiler_work_t w;
		if (!source_profiler_fill_work(e->sources[i], &w))
			continue;
		out->n_sources++;
		mask |= w.counted; /* a queue without graphics counts no vertices */
		for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			out->sources[c] += w.last[c];
	}
	uint32_t frame_mask = 0, passes_mask = 0;
	r = eng_count_frame_work(e, out->frame, &frame_mask);
	if (r == ENG_OK) {
		e->isolating = true;
		r = eng_gfx_count_isolated(isolated_frame, &(isolate_ctx){e, NULL, 1, false},
					   out->passes, &passes_mask);
		e->isolating = false;
	}
	if (r != ENG_OK)
		return r;
	out->counted = out->n_sources ? mask & frame_mask & passes_mask : 0;
	for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (!(out->counted & (1u << c)))
			out->sources[c] = out->frame[c] = out->passes[c] = 0;
	return ENG_OK;
}
