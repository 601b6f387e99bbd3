/* Buffers, images and draw pipelines of the current device: a handle from
 * the pools (gfx_state.h), then the backend makes the object in that
 * slot; destroyed ones free their slot and their id is refused from then
 * on. Pipelines are cached by desc: the backend sees each desc once.
 * Compute's pipelines and dispatches are gfx_compute.c's. */
#include "gfx_state.h"

#include "../misuse.h"
#include "engine/log.h"

#include <stdio.h>
#include <string.h>

/* A handle from `pool`, {0} (logged) when all are taken. */
static uint32_t take(eng_pool *pool, int max, const char *kind)
{
	uint32_t id = eng_pool_alloc(pool);
	if (!id)
		eng_error("gfx: more than %d %s", max, kind);
	return id;
}

eng_buffer eng_gfx_make_buffer(const eng_buffer_desc *desc)
{
	if (ENG_MISUSE(!desc, "gfx: eng_gfx_make_buffer without a desc") || !g_gfx.be)
		return (eng_buffer){0};
	bool storage = desc->type == ENG_BUFFER_STORAGE;
	if (ENG_MISUSE(storage && !eng_gfx_has_compute(), "gfx: storage buffers need compute "
							     "(eng_gfx_desc.compute, Vulkan or null)") ||
	    ENG_MISUSE(desc->type > ENG_BUFFER_STORAGE,
		       "gfx: buffer type %d is not an eng_buffer_type", (int)desc->type) ||
	    (storage && !desc->size))
		return (eng_buffer){0};
	eng_buffer b = {take(&g_gfx.buffers, ENG_GFX_MAX_BUFFERS, "buffers")};
	if (!b.id)
		return b;
	eng_result r = storage ? g_gfx.be->make_storage(g_gfx.ctx, b, desc)
			       : g_gfx.be->make_buffer(g_gfx.ctx, b, desc);
	if (r != ENG_OK) {
		eng_pool_release(&g_gfx.buffers, b.id);
		return (eng_buffer){0};
	}
	g_gfx.storage_slot[eng_handle_slot(b.id)] = storage;
	return b;
}

void eng_gfx_destroy_buffer(eng_buffer buf)
{
	if (g_gfx.be && gfx_live(&g_gfx.buffers, buf.id, "buffer")) {
		g_gfx.storage_slot[eng_handle_slot(buf.id)] = false;
		g_gfx.be->destroy_buffer(g_gfx.ctx, buf);
		eng_pool_release(&g_gfx.buffers, buf.id);
	}
}

eng_image eng_gfx_make_image(const eng_image_desc *desc)
{
	if (ENG_MISUSE(!desc, "gfx: eng_gfx_make_image without a desc") ||
	    ENG_MISUSE(!desc->width || !desc->height, "gfx: cannot create a %ux%u image",
		       desc->width, desc->height) ||
	    !g_gfx.be)
		return (eng_image){0};
	eng_image img = {take(&g_gfx.images, ENG_GFX_MAX_IMAGES, "images")};
	if (!img.id)
		return img;
	if (g_gfx.be->make_image(g_gfx.ctx, img, desc) != ENG_OK) {
		eng_pool_release(&g_gfx.images, img.id);
		return (eng_image){0};
	}
	return img;
}

void eng_gfx_destroy_image(eng_image img)
{
	if (g_gfx.be && gfx_live(&g_gfx.images, img.id, "image")) {
		g_gfx.be->destroy_image(g_gfx.ctx, img);
		eng_pool_release(&g_gfx.images, img.id);
	}
}

void eng_gfx_prepare_image_update(eng_image img)
{
	if (g_gfx.be && g_gfx.be->prepare_image_update && gfx_live(&g_gfx.images, img.id, "image"))
		g_gfx.be->prepare_image_update(g_gfx.ctx, img);
}

void eng_gfx_update_image(eng_image img, const void *rgba)
{
	if (g_gfx.be && gfx_live(&g_gfx.images, img.id, "image"))
		g_gfx.be->update_image(g_gfx.ctx, img, rgba);
}

static bool same_desc(const eng_pipeline_desc *a, const eng_pipeline_desc *b)
{
	return strcmp(a->vs, b->vs) == 0 && strcmp(a->fs, b->fs) == 0 && a->layout == b->layout &&
	       a->blend == b->blend && a->depth == b->depth && a->cull == b->cull &&
	       a->offscreen == b->offscreen && a->textured == b->textured;
}

eng_pipeline eng_gfx_make_pipeline(const eng_pipeline_desc *desc)
{
	if (ENG_MISUSE(!desc || !desc->vs || !desc->fs,
		       "gfx: eng_gfx_make_pipeline needs a desc with both shaders") ||
	    !g_gfx.be)
		return (eng_pipeline){0};
	for (uint32_t i = 0; i < g_gfx.n_cache; i++)
		if (same_desc(&g_gfx.cache[i].desc, desc))
			return g_gfx.cache[i].handle;
	eng_pipeline p = {take(&g_gfx.pipelines, ENG_GFX_MAX_PIPELINES, "pipelines")};
	if (!p.id)
		return p;
	if (g_gfx.be->make_pipeline(g_gfx.ctx, p, desc) != ENG_OK) {
		eng_pool_release(&g_gfx.pipelines, p.id);
		return (eng_pipeline){0};
	}
	gfx_cached_pipeline *c = &g_gfx.cache[g_gfx.n_cache++];
	c->desc = *desc;
	snprintf(c->vs, sizeof c->vs, "%s", desc->vs);
	snprintf(c->fs, sizeof c->fs, "%s", desc->fs);
	c->desc.vs = c->vs;
	c->desc.fs = c->fs;
	c->handle = p;
	return p;
}
