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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
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
		qsort(with, reps, sizeof *with, cmp_u64);
		qsort(without, reps, sizeof *without, cmp_u64);
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
