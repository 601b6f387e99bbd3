/* The calibrated source: a rectangle of the main view whose fragment
 * shader runs (base + k) * ENG_HEAVY_ITERATIONS_PER_UNIT iterations of a
 * dependent loop per pixel. k = 0 is the same geometry and base work, so
 * cost(k) - cost(0) is the work alone and should grow in proportion to k.
 * Blended, so no rasterizer can skip it as overdrawn. */
#include "common.h"

typedef struct heavy_source {
	eng_source base;
	eng_pipeline pipeline;
	float k, base_units;
	uint32_t layers;
	eng_rect rect;
	float color[4];
} heavy_source;

static void heavy_render(eng_source *s, const eng_view *view)
{
	heavy_source *h = (heavy_source *)s;
	quad_uniforms u = {
		.tint = {h->color[0], h->color[1], h->color[2], h->color[3]},
		.params = {(h->base_units + h->k) * ENG_HEAVY_ITERATIONS_PER_UNIT, 0, 0, 0},
	};
	eng_rect_mvp(view, h->rect, u.mvp);
	eng_gfx_apply_pipeline(h->pipeline);
	eng_gfx_apply_uniforms(&u, sizeof u);
	eng_gfx_draw(0, 6, h->layers);
}

static void heavy_destroy(eng_source *s)
{
	free(s);
}

static const eng_source_type heavy_type = {
	.name = "heavy",
	.render = heavy_render,
	.destroy = heavy_destroy,
};

eng_source *eng_heavy_create(const eng_heavy_desc *desc)
{
	heavy_source *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	eng_source_init(&h->base, &heavy_type, desc->name, "heavy");
	h->base.flags = ENG_SOURCE_MAIN_ONLY;
	h->k = desc->k < 0 ? 0 : desc->k;
	h->base_units = desc->base < 0 ? 0 : desc->base;
	h->rect = desc->rect;
	h->layers = desc->layers ? desc->layers : 1;
	if (!h->rect.w || !h->rect.h)
		h->rect = (eng_rect){16, 16, 256, 256};
	if (desc->color[3] > 0)
		memcpy(h->color, desc->color, sizeof h->color);
	else
		eng_color_from_name(h->base.name, h->color);
	h->pipeline = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "quad.vert",
		.fs = "heavy.frag",
		.blend = ENG_BLEND_ALPHA,
	});
	if (!h->pipeline.id) {
		free(h);
		return NULL;
	}
	return &h->base;
}
