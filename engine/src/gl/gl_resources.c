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

gl_gfx_state gg;

/* Vertex layouts as VAOs: attribute formats are fixed here, the buffer is
 * bound at each draw (binding 0). */
static void init_vaos(void)
{
	glCreateVertexArrays(4, gg.vaos);
	GLuint mesh = gg.vaos[ENG_LAYOUT_MESH];
	glVertexArrayAttribFormat(mesh, 0, 3, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(mesh, 1, 3, GL_FLOAT, GL_FALSE, 12);
	glVertexArrayAttribFormat(mesh, 2, 2, GL_FLOAT, GL_FALSE, 24);
	GLuint sprite = gg.vaos[ENG_LAYOUT_SPRITE];
	glVertexArrayAttribFormat(sprite, 0, 4, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(sprite, 1, 4, GL_FLOAT, GL_FALSE, 16);
	glVertexArrayBindingDivisor(sprite, 0, 1);
	GLuint ui = gg.vaos[ENG_LAYOUT_UI];
	glVertexArrayAttribFormat(ui, 0, 2, GL_FLOAT, GL_FALSE, 0);
	glVertexArrayAttribFormat(ui, 1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 8);
	static const GLuint attrs[4] = {
		[ENG_LAYOUT_MESH] = 3, [ENG_LAYOUT_SPRITE] = 2, [ENG_LAYOUT_UI] = 2};
	for (int layout = 0; layout < 4; layout++)
		for (GLuint a = 0; a < attrs[layout]; a++) {
			glVertexArrayAttribBinding(gg.vaos[layout], a, 0);
			glEnableVertexArrayAttrib(gg.vaos[layout], a);
		}
}

void gl_resources_init(void)
{
	init_vaos();
	/* The one sampler, as Vulkan's: linear, clamped, no mips. */
	glCreateSamplers(1, &gg.sampler);
	glSamplerParameteri(gg.sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glSamplerParameteri(gg.sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glSamplerParameteri(gg.sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glSamplerParameteri(gg.sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glBindSampler(0, gg.sampler);
}

static void free_main_target(void)
{
	glDeleteFramebuffers(1, &gg.main_fbo);
	glDeleteTextures(1, &gg.main_color);
	glDeleteRenderbuffers(1, &gg.main_depth);
	gg.main_fbo = gg.main_color = gg.main_depth = 0;
}

void gl_resources_shutdown(void)
{
	for (uint32_t i = 0; i < gg.n_buffers; i++)
		gl_destroy_buffer((eng_buffer){i + 1});
	for (uint32_t i = 0; i < gg.n_images; i++)
		gl_destroy_image((eng_image){i + 1});
	for (uint32_t i = 0; i < gg.n_pipelines; i++)
		glDeleteProgram(gg.pipelines[i].program);
	for (uint32_t i = 0; i < gg.n_shaders; i++)
		glDeleteShader(gg.shaders[i].shader);
	glDeleteVertexArrays(4, gg.vaos);
	glDeleteSamplers(1, &gg.sampler);
	free_main_target();
}

eng_result gl_main_target(uint32_t width, uint32_t height)
{
	free_main_target();
	glCreateTextures(GL_TEXTURE_2D, 1, &gg.main_color);
	glTextureStorage2D(gg.main_color, 1, GL_RGBA8, (GLsizei)width, (GLsizei)height);
	glCreateRenderbuffers(1, &gg.main_depth);
	glNamedRenderbufferStorage(gg.main_depth, GL_DEPTH_COMPONENT32F, (GLsizei)width,
				   (GLsizei)height);
	glCreateFramebuffers(1, &gg.main_fbo);
	glNamedFramebufferTexture(gg.main_fbo, GL_COLOR_ATTACHMENT0, gg.main_color, 0);
	glNamedFramebufferRenderbuffer(gg.main_fbo, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
				       gg.main_depth);
	GLenum status = glCheckNamedFramebufferStatus(gg.main_fbo, GL_DRAW_FRAMEBUFFER);
	if (status != GL_FRAMEBUFFER_COMPLETE) {
		eng_error("gl: the %ux%u main target is incomplete (0x%x)", width, height,
			  (unsigned)status);
		free_main_target();
		return ENG_ERR_NO_DEVICE;
	}
	gg.width = width;
	gg.height = height;
	return ENG_OK;
}

/* --- buffers ------------------------------------------------------------------------ */

eng_buffer gl_make_buffer(const void *data, size_t size, bool index)
{
	uint32_t id = 0;
	for (uint32_t i = 0; i < gg.n_buffers; i++)
		if (!gg.buffers[i].buffer) {
			id = i + 1;
			break;
		}
	if (!id) {
		if (gg.n_buffers == GL_MAX_BUFFERS) {
			eng_error("gl: more than %d buffers", GL_MAX_BUFFERS);
			return (eng_buffer){0};
		}
		id = ++gg.n_buffers;
	}
	gl_buffer_res *b = &gg.buffers[id - 1];
	glCreateBuffers(1, &b->buffer);
	glNamedBufferStorage(b->buffer, size ? (GLsizeiptr)size : 4, size ? data : NULL, 0);
	return (eng_buffer){id};
}

void gl_destroy_buffer(eng_buffer h)
{
	gl_buffer_res *b = gl_buffer_get(h);
	if (!b)
		return;
	glDeleteBuffers(1, &b->buffer);
	memset(b, 0, sizeof *b);
}

gl_buffer_res *gl_buffer_get(eng_buffer h)
{
	if (!h.id || h.id > gg.n_buffers || !gg.buffers[h.id - 1].buffer)
		return NULL;
	return &gg.buffers[h.id - 1];
}

/* --- images ------------------------------------------------------------------------- */

eng_image gl_make_image(uint32_t width, uint32_t height, eng_image_usage usage)
{
	uint32_t id = 0;
	for (uint32_t i = 0; i < gg.n_images; i++)
		if (!gg.images[i].texture) {
			id = i + 1;
			break;
		}
	if (!id) {
		if (gg.n_images == GL_MAX_IMAGES) {
			eng_error("gl: more than %d images", GL_MAX_IMAGES);
			return (eng_image){0};
		}
		id = ++gg.n_images;
	}
	gl_image_res *img = &gg.images[id - 1];
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
			gl_destroy_image((eng_image){id});
			return (eng_image){0};
		}
	}
	img->width = width;
	img->height = height;
	img->usage = usage;
	return (eng_image){id};
}

void gl_destroy_image(eng_image h)
{
	gl_image_res *img = gl_image_get(h);
	if (!img)
		return;
	if (img->fbo)
		glDeleteFramebuffers(1, &img->fbo);
	glDeleteTextures(img->usage & ENG_IMAGE_STREAM ? GL_STREAM_COPIES : 1, img->copies);
	memset(img, 0, sizeof *img);
}

gl_image_res *gl_image_get(eng_image h)
{
	if (!h.id || h.id > gg.n_images || !gg.images[h.id - 1].texture)
		return NULL;
	return &gg.images[h.id - 1];
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
static GLuint shader(const char *name, GLenum stage)
{
	for (uint32_t i = 0; i < gg.n_shaders; i++)
		if (strcmp(gg.shaders[i].name, name) == 0)
			return gg.shaders[i].shader;
	if (gg.n_shaders == GL_MAX_SHADERS) {
		eng_error("gl: more than %d shaders", GL_MAX_SHADERS);
		return 0;
	}
	size_t size;
	uint32_t *code = eng_shader_load(gg.shader_dir, name, "gl", &size);
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
		eng_error("shader %s/%s.gl.spv: specialization failed: %s", gg.shader_dir, name, log);
		glDeleteShader(s);
		return 0;
	}
	snprintf(gg.shaders[gg.n_shaders].name, sizeof gg.shaders[0].name, "%s", name);
	gg.shaders[gg.n_shaders++].shader = s;
	return s;
}

static bool same_desc(const eng_pipeline_desc *a, const eng_pipeline_desc *b)
{
	return strcmp(a->vs, b->vs) == 0 && strcmp(a->fs, b->fs) == 0 && a->layout == b->layout &&
	       a->blend == b->blend && a->depth == b->depth && a->cull == b->cull &&
	       a->offscreen == b->offscreen && a->textured == b->textured;
}

eng_pipeline gl_make_pipeline(const eng_pipeline_desc *desc)
{
	if (!desc || !desc->vs || !desc->fs)
		return (eng_pipeline){0};
	for (uint32_t i = 0; i < gg.n_pipelines; i++)
		if (same_desc(&gg.pipelines[i].desc, desc))
			return (eng_pipeline){i + 1};
	if (gg.n_pipelines == GL_MAX_PIPELINES) {
		eng_error("gl: more than %d pipelines", GL_MAX_PIPELINES);
		return (eng_pipeline){0};
	}
	GLuint vs = shader(desc->vs, GL_VERTEX_SHADER), fs = shader(desc->fs, GL_FRAGMENT_SHADER);
	if (!vs || !fs)
		return (eng_pipeline){0};
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
		eng_error("shaders %s/%s.gl.spv + %s.gl.spv: link failed: %s", gg.shader_dir,
			  desc->vs, desc->fs, log);
		glDeleteProgram(program);
		return (eng_pipeline){0};
	}
	gl_pipeline_res *p = &gg.pipelines[gg.n_pipelines];
	p->desc = *desc;
	snprintf(p->vs, sizeof p->vs, "%s", desc->vs);
	snprintf(p->fs, sizeof p->fs, "%s", desc->fs);
	p->desc.vs = p->vs;
	p->desc.fs = p->fs;
	p->program = program;
	return (eng_pipeline){++gg.n_pipelines};
}

/* The state vk_make_pipeline bakes in: blending as there (color: source
 * alpha over or added; alpha: one over), depth test+write LEQUAL, back-face
 * culling with the front face flipped for the y-flipped projection. Depth
 * func and front face are set once at init. */
void gl_bind_pipeline(const gl_pipeline_res *p)
{
	glUseProgram(p->program);
	glBindVertexArray(gg.vaos[p->desc.layout]);
	if (p->desc.blend != ENG_BLEND_NONE) {
		glEnable(GL_BLEND);
		glBlendFuncSeparate(GL_SRC_ALPHA,
				    p->desc.blend == ENG_BLEND_ADD ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA,
				    GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	} else {
		glDisable(GL_BLEND);
	}
	if (p->desc.depth)
		glEnable(GL_DEPTH_TEST);
	else
		glDisable(GL_DEPTH_TEST);
	if (p->desc.cull)
		glEnable(GL_CULL_FACE);
	else
		glDisable(GL_CULL_FACE);
}
