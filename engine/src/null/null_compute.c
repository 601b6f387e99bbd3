/* Compute on the null device (eng_gfx_desc.compute): pipelines read from
 * their SPIR-V for their workgroup size, dispatches costed on a clock of
 * their own and counted as invocations; inline on the graphics clock
 * during an isolated timing, as the real backends run them. */
#include "null_internal.h"

#include "../gfx/shader.h"

#include <stdlib.h>

bool null_has_compute(void *ctx)
{
	return ((null_ctx *)ctx)->compute;
}

eng_result null_make_storage(void *ctx, eng_buffer h, const eng_buffer_desc *desc)
{
	(void)h;
	(void)desc;
	((null_ctx *)ctx)->rec.buffers_made++;
	return ENG_OK;
}

/* The value of SPIR-V constant `id` (OpConstant 43, OpSpecConstant 50 at
 * its default); 1 when there is none. */
static uint32_t spirv_constant(const uint32_t *code, size_t words, uint32_t id)
{
	for (size_t i = 5; i < words;) {
		uint32_t n = code[i] >> 16, op = code[i] & 0xffffu;
		if (!n || i + n > words)
			break;
		if ((op == 43 || op == 50) && n >= 4 && code[i + 2] == id)
			return code[i + 3];
		i += n;
	}
	return 1;
}

/* A compute shader's invocations per workgroup: the product of its local
 * size, OpExecutionMode (16) LocalSize (17) or OpExecutionModeId (331)
 * LocalSizeId (38) of constants; 1 when it has neither. */
static uint32_t spirv_local_size(const uint32_t *code, size_t words)
{
	for (size_t i = 5; i < words;) {
		uint32_t n = code[i] >> 16, op = code[i] & 0xffffu;
		if (!n || i + n > words)
			break;
		if (op == 16 && n >= 6 && code[i + 2] == 17)
			return code[i + 3] * code[i + 4] * code[i + 5];
		if (op == 331 && n >= 6 && code[i + 2] == 38)
			return spirv_constant(code, words, code[i + 3]) *
			       spirv_constant(code, words, code[i + 4]) *
			       spirv_constant(code, words, code[i + 5]);
		i += n;
	}
	return 1;
}

eng_result null_make_compute(void *ctx, eng_pipeline h, const char *cs)
{
	(void)h;
	null_ctx *c = ctx;
	size_t size;
	uint32_t *code = eng_shader_load(c->shader_dir, cs, "vk", &size);
	if (!code)
		return ENG_ERR_SHADER;
	c->local_size[eng_handle_slot(h.id) % ENG_GFX_MAX_PIPELINES] =
		spirv_local_size(code, size / sizeof *code);
	free(code);
	c->rec.pipelines_made++;
	return ENG_OK;
}

bool null_begin_compute(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->recording || c->in_pass || c->compute_open)
		return false;
	c->compute_open = true;
	return true;
}

/* On the compute clock; inline on the graphics one in an isolated timing. */
void null_dispatch(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push,
		   size_t size, uint32_t groups)
{
	(void)a;
	(void)b;
	(void)push;
	(void)size;
	null_ctx *c = ctx;
	if (!c->compute_open)
		return;
	uint64_t cost = c->costs.dispatch_ns * groups;
	uint64_t invocations =
		(uint64_t)groups * c->local_size[eng_handle_slot(pip.id) % ENG_GFX_MAX_PIPELINES];
	/* An isolated timing runs it on the graphics stream. */
	null_work_add(c->isolating ? &c->gfx_work : &c->compute_work, SOURCE_PROFILER_CS_INVOCATIONS,
		 invocations);
	c->rec.dispatches++;
	c->rec.groups += groups;
	if (c->isolating) {
		c->gpu_ns += cost;
		null_note(c, ENG_NULL_DISPATCH, pip.id, groups, 0);
	} else {
		c->compute_ns += cost;
		null_note_at(c, ENG_NULL_DISPATCH, pip.id, groups, 0, c->compute_ns);
	}
}

void null_end_compute(void *ctx)
{
	((null_ctx *)ctx)->compute_open = false;
}

void *null_compute_cmd(void *ctx)
{
	null_ctx *c = ctx;
	return c->compute_open && !c->isolating ? &c->compute_cmd : NULL;
}

const sp_gpu_timer_backend *null_compute_timer(void *ctx)
{
	null_ctx *c = ctx;
	return c->compute ? &c->compute_timer : NULL;
}
