/* Passes and draws on the null device: each call checked as the real
 * backends check it (inside a frame, inside a pass, a pipeline applied),
 * then run on the graphics stream or, in a pass recorded by several
 * threads, kept by the calling thread's recorder and run in recorder order
 * when the pass ends (as vkCmdExecuteCommands runs secondaries). */
#include "null_internal.h"
#include "../misuse.h"

#include "engine/log.h"

#include <string.h>

/* The recorder this thread records into (NULL: the frame's stream). */
static _Thread_local null_recorder *t_rec;

static uint8_t unorm8(float v)
{
	return (uint8_t)(v <= 0 ? 0 : v >= 1 ? 255 : v * 255.0f + 0.5f);
}

void null_begin_pass(void *ctx, const eng_pass_desc *desc)
{
	null_ctx *c = ctx;
	if (!c->recording || c->in_pass)
		return;
	uint32_t tw = c->width, th = c->height;
	if (desc->target.id) {
		const null_image *img = &c->images[eng_handle_slot(desc->target.id)];
		if (ENG_MISUSE(!(img->usage & ENG_IMAGE_TARGET),
			       "null: pass into image %u, which is not a render target",
			       desc->target.id))
			return;
		tw = img->width;
		th = img->height;
	}
	eng_rect a = desc->area;
	if (!a.w || !a.h)
		a = (eng_rect){0, 0, tw, th};
	if (desc->clear && !desc->target.id && c->n_clears < NULL_MAX_CLEARS &&
	    a.x >= 0 && a.y >= 0 && (uint32_t)a.x + a.w <= tw && (uint32_t)a.y + a.h <= th) {
		null_clear *k = &c->clears[c->n_clears++];
		k->area = a;
		for (int i = 0; i < 4; i++)
			k->rgba[i] = unorm8(desc->clear_color[i]);
	}
	c->in_pass = true;
	c->pipeline = false;
	c->parallel = desc->recorders > 1 ? desc->recorders : 0;
	if (c->parallel > ENG_GFX_MAX_RECORDERS)
		c->parallel = ENG_GFX_MAX_RECORDERS;
	c->gpu_ns += c->costs.pass_ns;
	c->rec.passes++;
	null_note(c, ENG_NULL_PASS, desc->target.id, a.w, a.h);
}

/* A call of the pass: kept by this thread's recorder, or run now. */
static void issue(null_ctx *c, null_cmd cmd)
{
	if (t_rec)
		null_keep(t_rec, cmd);
	else
		null_run(c, cmd);
}

uint32_t null_recorders(void *ctx)
{
	null_ctx *c = ctx;
	return c->in_pass && c->parallel ? c->parallel : 1;
}

void null_recorder_begin(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	if (!c->in_pass || i >= c->parallel || c->recorders[i].begun)
		return;
	null_recorder *r = &c->recorders[i];
	r->begun = true;
	r->pipeline = false;
	r->n = 0;
	t_rec = r;
}

void null_recorder_end(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	if (i >= c->parallel || !c->recorders[i].begun)
		return;
	if (t_rec == &c->recorders[i])
		t_rec = NULL;
}

void *null_recorder_cmd(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	return i < c->parallel && c->recorders[i].begun ? &c->recorders[i] : NULL;
}

void null_end_pass(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->in_pass)
		return;
	/* The recorders' commands, recorder after recorder. */
	for (uint32_t i = 0; i < c->parallel; i++) {
		null_recorder *r = &c->recorders[i];
		if (!r->begun)
			continue;
		null_note(c, ENG_NULL_EXECUTE, i, r->n, 0);
		for (uint32_t k = 0; k < r->n; k++)
			null_run(c, r->cmds[k]);
		c->rec.draws_outside_pass += r->draws_outside_pass;
		c->rec.recorder_overflows += r->overflow;
		*r = (null_recorder){.cmds = r->cmds, .cap = r->cap};
	}
	if (c->parallel)
		c->rec.parallel_passes++;
	c->parallel = 0;
	c->in_pass = false;
	null_note(c, ENG_NULL_END_PASS, 0, 0, 0);
}

/* Whether a draw-state call comes inside a pass, on its thread. */
static bool in_pass(const null_ctx *c)
{
	return t_rec ? t_rec->begun : c->in_pass;
}

void null_apply_pipeline(void *ctx, eng_pipeline pip)
{
	null_ctx *c = ctx;
	if (!in_pass(c))
		return;
	if (t_rec)
		t_rec->pipeline = true;
	else
		c->pipeline = true;
	issue(c, (null_cmd){ENG_NULL_PIPELINE, pip.id, 0, 0});
}

void null_apply_uniforms(void *ctx, const void *data, size_t size)
{
	(void)data;
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_UNIFORMS, (uint32_t)size, 0, 0});
}

void null_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices)
{
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_VERTICES, vertices.id, indices.id, 0});
}

void null_apply_transient_vertices(void *ctx, const void *data, size_t size)
{
	(void)data;
	null_ctx *c = ctx;
	if (in_pass(c) && size)
		issue(c, (null_cmd){ENG_NULL_TRANSIENT, (uint32_t)size, 0, 0});
}

void null_apply_image(void *ctx, eng_image img)
{
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_IMAGE, img.id, 0, 0});
}

void null_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances)
{
	null_ctx *c = ctx;
	bool pipeline = t_rec ? t_rec->pipeline : c->pipeline;
	if (!in_pass(c) || !pipeline || !count || !instances) {
		if (t_rec)
			t_rec->draws_outside_pass++;
		else
			c->rec.draws_outside_pass++;
		return;
	}
	issue(c, (null_cmd){ENG_NULL_DRAW, first, count, instances});
}
