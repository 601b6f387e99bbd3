/* OpenGL resources: buffers, images (with an FBO when rendered into),
 * SPIR-V shaders and pipelines, the main target, per-frame rings.
 *
 * Destruction is immediate: GL keeps a deleted object alive until the
 * commands already issued with it have executed, which is what the
 * Vulkan backend's deferred destruction does by hand. */
#include "gl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vertex layouts as VAOs: attribute formats are fixed here, the buffer is
 * bound at each draw (binding 0). */
static void init_vaos(gl_ctx *c)
{
	glCreateVertexArrays(4, c->vaos);
	GLuint mesh = c->vaos[ENG_LAYOUT_MESH];
	glVertexArrayAttribFormat(mesh, 0, 3, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(mesh, 1, 3, GL_FLOAT, GL_FALSE, 12);
	glVertexArrayAttribFormat(mesh, 2, 2, GL_FLOAT, GL_FALSE, 24);
	GLuint sprite = c->vaos[ENG_LAYOUT_SPRITE];
	glVertexArrayAttribFormat(sprite, 0, 4, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(sprite, 1, 4, GL_FLOAT, GL_FALSE, 16);
	glVertexArrayBindingDivisor(sprite, 0, 1);
	GLuint ui = c->vaos[ENG_LAYOUT_UI];
	glVertexArrayAttribFormat(ui, 0, 2, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(ui, 1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 8);
	static const GLuint attrs[4] = {
		[ENG_LAYOUT_MESH] = 3, [ENG_LAYOUT_SPRITE] = 2, [ENG_LAYOUT_UI] = 2};
	for (int layout = 0; layout < 4; layout++)
		for (GLuint a = 0; a < attrs[layout]; a++) {
			glVertexArrayAttribBinding(c->vaos[layout], a, 0);
			glEnableVertexArrayAttrib(c->vaos[layout], a);
		}
}

void gl_resources_init(gl_ctx *c)
{
	init_vaos(c);
	/* The one sampler, as Vulkan's: linear, clamped, no mips. */
	glCreateSamplers(1, &c->sampler);
	glSamplerParameteri(c->sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glSamplerParameteri(c->sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glSamplerParameteri(c->sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glSamplerParameteri(c->sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glBindSampler(0, c->sampler);
}

static void free_main_target(gl_ctx *c)
{
	glDeleteFramebuffers(1, &c->main_fbo);
	glDeleteTextures(1, &c->main_color);
	glDeleteRenderbuffers(1, &c->main_depth);
	c->main_fbo = c->main_color = c->main_depth = 0;
}

static void delete_image(gl_image_res *img)
{
	if (img->fbo)
		glDeleteFramebuffers(1, &img->fbo);
	glDeleteTextures(img->usage & ENG_IMAGE_STREAM ? GL_STREAM_COPIES : 1, img->copies);
	memset(img, 0, sizeof *img);
}

void gl_resources_shutdown(gl_ctx *c)
{
	for (uint32_t i = 0; i < ENG_GFX_MAX_BUFFERS; i++)
		if (c->buffers[i].buffer)
			glDeleteBuffers(1, &c->buffers[i].buffer);
	for (uint32_t i = 0; i < ENG_GFX_MAX_IMAGES; i++)
		if (c->images[i].texture)
			delete_image(&c->images[i]);
	for (uint32_t i = 0; i < ENG_GFX_MAX_PIPELINES; i++)
		if (c->pipelines[i].program)
			glDeleteProgram(c->pipelines[i].program);
	for (uint32_t i = 0; i < c->n_shaders; i++)
		glDeleteShader(c->shaders[i].shader);
	glDeleteVertexArrays(4, c->vaos);
	glDeleteSamplers(1, &c->sampler);
	free_main_target(c);
}

eng_result gl_main_target(gl_ctx *c, uint32_t width, uint32_t height)
{
	free_main_target(c);
	glCreateTextures(GL_TEXTURE_2D, 1, &c->main_color);
	glTextureStorage2D(c->main_color, 1, GL_RGBA8, (GLsizei)width, (GLsizei)height);
	glCreateRenderbuffers(1, &c->main_depth);
	glNamedRenderbufferStorage(c->main_depth, GL_DEPTH_COMPONENT32F, (GLsizei)width,
				   (GLsizei)height);
	glCreateFramebuffers(1, &c->main_fbo);
	glNamedFramebufferTexture(c->main_fbo, GL_COLOR_ATTACHMENT0, c->main_color, 0);
	glNamedFramebufferRenderbuffer(c->main_fbo, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
				       c->main_depth);
	GLenum status = glCheckNamedFramebufferStatus(c->main_fbo, GL_DRAW_FRAMEBUFFER);
	if (status != GL_FRAMEBUFFER_COMPLETE) {
		eng_error("gl: the %ux%u main target is incomplete (0x%x)", width, height,
			  (unsigned)status);
		free_main_target(c);
		return ENG_ERR_NO_DEVICE;
	}
	c->width = width;
	c->height = height;
	return ENG_OK;
}

/* --- buffers ------------------------------------------------------------------------ */

eng_result gl_make_buffer(void *ctx, eng_buffer h, const eng_buffer_desc *desc)
{
	/* desc->type: GL binds either kind anywhere. */
	gl_buffer_res *b = &((gl_ctx *)ctx)->buffers[eng_handle_slot(h.id)];
	size_t size = desc->size;
	glCreateBuffers(1, &b->buffer);
	glNamedBufferStorage(b->buffer, size ? (GLsizeiptr)size : 4, size ? desc->data : NULL, 0);
	return ENG_OK;
}

void gl_destroy_buffer(void *ctx, eng_buffer h)
{
	gl_buffer_res *b = gl_buffer_get(ctx, h);
	if (!b)
		return;
	glDeleteBuffers(1, &b->buffer);
	memset(b, 0, sizeof *b);
}

gl_buffer_res *gl_buffer_get(gl_ctx *c, eng_buffer h)
{
	return h.id ? &c->buffers[eng_handle_slot(h.id)] : NULL;
}

/* --- images ------------------------------------------------------------------------- */

eng_result gl_make_image(void *ctx, eng_image h, const eng_image_desc *desc)
{
	uint32_t width = desc->width, height = desc->height;
	eng_image_usage usage = desc->usage;
	gl_image_res *img = &((gl_ctx *)ctx)->images[eng_handle_slot(h.id)];
	memset(img, 0, sizeof *img);
	uint32_t copies = usage & ENG_IMAGE_STREAM ? GL_STREAM_COPIES : 1;
	glCreateTextures(GL_TEXTURE_2D, (GLsizei)copies, img->copies);
	for (uint32_t c = 0; c < copies; c++) {
		glTextureStorage2D(img->copies[c], 1, GL_RGBA8, (GLsizei)width, (GLsizei)height);
		/* Transparent black until written, like the Vulkan backend's images. */
		static const uint8_t black[4];
		glClearTexImage(img->copies[c], 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
	}
	img->texture = img->copies[0];
	if (usage & ENG_IMAGE_TARGET) {
		glCreateFramebuffers(1, &img->fbo);
		glNamedFramebufferTexture(img->fbo, GL_COLOR_ATTACHMENT0, img->texture, 0);
		GLenum status = glCheckNamedFramebufferStatus(img->fbo, GL_DRAW_FRAMEBUFFER);
		if (status != GL_FRAMEBUFFER_COMPLETE) {
			eng_error("gl: a %ux%u image cannot be rendered into (0x%x)", width,
				  height, (unsigned)status);
			img->usage = usage;
			delete_image(img);
			return ENG_ERR_NO_DEVICE;
		}
	}
	img->width = width;
	img->height = height;
	img->usage = usage;
	return ENG_OK;
}

void gl_destroy_image(void *ctx, eng_image h)
{
	gl_image_res *img = gl_image_get(ctx, h);
	if (img)
		delete_image(img);
}

gl_image_res *gl_image_get(gl_ctx *c, eng_image h)
{
	return h.id ? &c->images[eng_handle_slot(h.id)] : NULL;
}

/* --- rings ------------------------------------------------------------------------- */

eng_result gl_ring_alloc(gl_ring *ring, GLsizeiptr size, GLsizeiptr align, gl_ring_slice *out)
{
	for (;;) {
		if (ring->cur < ring->n) {
			gl_ring_chunk *c = &ring->chunks[ring->cur];
			GLsizeiptr off = (c->used + align - 1) / align * align;
			if (off + size <= c->size) {
				c->used = off + size;
				*out = (gl_ring_slice){c->buffer, off, c->ptr + off};
				return ENG_OK;
			}
			ring->cur++;
			continue;
		}
		if (ring->n == GL_RING_CHUNKS) {
			eng_error("gl: per-frame ring exhausted (%u chunks)", GL_RING_CHUNKS);
			return ENG_ERR_OUT_OF_MEMORY;
		}
		GLsizeiptr chunk = ring->n ? ring->chunks[ring->n - 1].size * 2 : ring->first_size;
		while (chunk < size)
			chunk *= 2;
		gl_ring_chunk *c = &ring->chunks[ring->n];
		memset(c, 0, sizeof *c);
		/* Written by the CPU while earlier frames draw from other slots'
		 * rings: persistent and coherent, no map per frame. */
		GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
		glCreateBuffers(1, &c->buffer);
		glNamedBufferStorage(c->buffer, chunk, NULL, flags);
		c->ptr = glMapNamedBufferRange(c->buffer, 0, chunk, flags);
		if (!c->ptr) {
			eng_error("gl: cannot map a %ld-byte per-frame ring", (long)chunk);
			glDeleteBuffers(1, &c->buffer);
			memset(c, 0, sizeof *c);
			return ENG_ERR_OUT_OF_MEMORY;
		}
		c->size = chunk;
		ring->n++;
		if (ring->n > 1)
			eng_info("gl: per-frame ring grown to %u chunks", ring->n);
	}
}

void gl_ring_reset(gl_ring *ring)
{
	ring->cur = 0;
	for (uint32_t i = 0; i < ring->n; i++)
		ring->chunks[i].used = 0;
}

void gl_ring_free(gl_ring *ring)
{
	for (uint32_t i = 0; i < ring->n; i++) {
		glUnmapNamedBuffer(ring->chunks[i].buffer);
		glDeleteBuffers(1, &ring->chunks[i].buffer);
	}
	memset(ring->chunks, 0, sizeof ring->chunks);
	ring->n = ring->cur = 0;
}

/* --- shaders and pipelines ------------------------------------------------------------ */

/* A specialized SPIR-V shader object, cached by name; 0 (logged with the
 * file) when missing or rejected. */
static GLuint shader(gl_ctx *c, const char *name, GLenum stage)
{
	for (uint32_t i = 0; i < c->n_shaders; i++)
		if (strcmp(c->shaders[i].name, name) == 0)
			return c->shaders[i].shader;
	if (c->n_shaders == GL_MAX_SHADERS) {
		eng_error("gl: more than %d shaders", GL_MAX_SHADERS);
		return 0;
	}
	size_t size;
	uint32_t *code = eng_shader_load(c->shader_dir, name, "gl", &size);
	if (!code)
		return 0;
	GLuint s = glCreateShader(stage);
	glShaderBinary(1, &s, GL_SHADER_BINARY_FORMAT_SPIR_V_ARB, code, (GLsizei)size);
	free(code);
	glSpecializeShaderARB(s, "main", 0, NULL, NULL);
	GLint ok = GL_FALSE;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024] = "";
		glGetShaderInfoLog(s, sizeof log, NULL, log);
		eng_error("shader %s/%s.gl.spv: specialization failed: %s", c->shader_dir, name, log);
		glDeleteShader(s);
		return 0;
	}
	snprintf(c->shaders[c->n_shaders].name, sizeof c->shaders[0].name, "%s", name);
	c->shaders[c->n_shaders++].shader = s;
	return s;
}

/* One per distinct desc: gfx.c caches them. */
eng_result gl_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc)
{
	gl_ctx *c = ctx;
	GLuint vs = shader(c, desc->vs, GL_VERTEX_SHADER);
	GLuint fs = shader(c, desc->fs, GL_FRAGMENT_SHADER);
	if (!vs || !fs)
		return ENG_ERR_SHADER;
	GLuint program = glCreateProgram();
	glAttachShader(program, vs);
	glAttachShader(program, fs);
	glLinkProgram(program);
	glDetachShader(program, vs);
	glDetachShader(program, fs);
	GLint ok = GL_FALSE;
	glGetProgramiv(program, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[1024] = "";
		glGetProgramInfoLog(program, sizeof log, NULL, log);
		eng_error("shaders %s/%s.gl.spv + %s.gl.spv: link failed: %s", c->shader_dir,
			  desc->vs, desc->fs, log);
		glDeleteProgram(program);
		return ENG_ERR_SHADER;
	}
	c->pipelines[eng_handle_slot(h.id)] = (gl_pipeline_res){
		.layout = desc->layout,
		.blend = desc->blend,
		.depth = desc->depth,
		.cull = desc->cull,
		.program = program,
	};
	return ENG_OK;
}

/* The state vk_make_pipeline bakes in: blending as there (color: source
 * alpha over or added; alpha: one over), depth test+write LEQUAL, back-face
 * culling with the front face flipped for the y-flipped projection. Depth
 * func and front face are set once at init. */
void gl_bind_pipeline(gl_ctx *c, const gl_pipeline_res *p)
{
	glUseProgram(p->program);
	glBindVertexArray(c->vaos[p->layout]);
	if (p->blend != ENG_BLEND_NONE) {
		glEnable(GL_BLEND);
		glBlendFuncSeparate(GL_SRC_ALPHA,
				    p->blend == ENG_BLEND_ADD ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA,
				    GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	} else {
		glDisable(GL_BLEND);
	}
	if (p->depth)
		glEnable(GL_DEPTH_TEST);
	else
		glDisable(GL_DEPTH_TEST);
	if (p->cull)
		glEnable(GL_CULL_FACE);
	else
		glDisable(GL_CULL_FACE);
}
