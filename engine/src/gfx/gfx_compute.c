/* Compute on the current device (engine/gfx.h's "Compute"): compute
 * pipelines cached by shader name, and the checks a dispatch passes before
 * the backend sees it - a compute pipeline, storage buffers, push
 * constants in range. Storage buffers themselves are made with the others
 * (gfx_resources.c); which slots hold them is in gfx_state.h. */
#include "gfx_state.h"

#include "../misuse.h"
#include "engine/log.h"

#include <stdio.h>
#include <string.h>

bool eng_gfx_has_compute(void)
{
	return g_gfx.be && g_gfx.be->has_compute && g_gfx.be->has_compute(g_gfx.ctx);
}

eng_pipeline eng_gfx_make_compute_pipeline(const char *cs)
{
	if (ENG_MISUSE(!cs || !eng_gfx_has_compute(), "gfx: compute pipelines need compute "
							 "(eng_gfx_desc.compute, Vulkan or null)"))
		return (eng_pipeline){0};
	for (uint32_t i = 0; i < g_gfx.n_compute; i++)
		if (strcmp(g_gfx.compute_cache[i].cs, cs) == 0)
			return g_gfx.compute_cache[i].handle;
	eng_pipeline p = {eng_pool_alloc(&g_gfx.pipelines)};
	if (!p.id) {
		eng_error("gfx: more than %d pipelines", ENG_GFX_MAX_PIPELINES);
		return p;
	}
	if (g_gfx.be->make_compute(g_gfx.ctx, p, cs) != ENG_OK) {
		eng_pool_release(&g_gfx.pipelines, p.id);
		return (eng_pipeline){0};
	}
	g_gfx.compute_slot[eng_handle_slot(p.id)] = true;
	snprintf(g_gfx.compute_cache[g_gfx.n_compute].cs, sizeof g_gfx.compute_cache[0].cs, "%s",
		 cs);
	g_gfx.compute_cache[g_gfx.n_compute++].handle = p;
	return p;
}

bool eng_gfx_begin_compute(void)
{
	return eng_gfx_has_compute() && g_gfx.be->begin_compute(g_gfx.ctx);
}

static bool storage(eng_buffer b)
{
	if (!gfx_live(&g_gfx.buffers, b.id, "buffer"))
		return false;
	return !ENG_MISUSE(!g_gfx.storage_slot[eng_handle_slot(b.id)],
			   "gfx: buffer 0x%08x is not a storage buffer (ENG_BUFFER_STORAGE)", b.id);
}

void eng_gfx_dispatch(eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push, size_t size,
		      uint32_t groups)
{
	if (!eng_gfx_has_compute() || !gfx_live(&g_gfx.pipelines, pip.id, "pipeline"))
		return;
	if (ENG_MISUSE(!g_gfx.compute_slot[eng_handle_slot(pip.id)],
		       "gfx: pipeline 0x%08x draws: it cannot be dispatched", pip.id) ||
	    ENG_MISUSE(size > ENG_GFX_PUSH_MAX || (size && !push),
		       "gfx: %zu bytes of push constants (at most %d)", size, ENG_GFX_PUSH_MAX))
		return;
	if (groups && storage(a) && storage(b))
		g_gfx.be->dispatch(g_gfx.ctx, pip, a, b, push, size, groups);
}

void eng_gfx_end_compute(void)
{
	if (eng_gfx_has_compute())
		g_gfx.be->end_compute(g_gfx.ctx);
}

void *eng_gfx_compute_cmd(void)
{
	return eng_gfx_has_compute() ? g_gfx.be->compute_cmd(g_gfx.ctx) : NULL;
}

const sp_gpu_timer_backend *eng_gfx_compute_timer(void)
{
	return eng_gfx_has_compute() ? g_gfx.be->compute_timer(g_gfx.ctx) : NULL;
}
