/* The dispatch table behind engine/gfx.h. Each backend fills one; gfx.c
 * picks it and forwards every call. Only this header and gfx.c know there
 * is more than one backend. */
#ifndef ENGINE_GFX_BACKEND_H
#define ENGINE_GFX_BACKEND_H

#include "engine/gfx.h"

typedef struct eng_gfx_backend {
	const char *name;
	eng_result (*init)(const eng_gfx_desc *desc);
	void (*shutdown)(void);
	void (*get_info)(eng_gfx_info *info);
	const sp_gpu_timer_backend *(*gpu_timer)(void);
	uint32_t (*validation_messages)(void);

	eng_buffer (*make_buffer)(const void *data, size_t size, bool index);
	void (*destroy_buffer)(eng_buffer buf);
	eng_image (*make_image)(uint32_t width, uint32_t height, eng_image_usage usage);
	void (*destroy_image)(eng_image img);
	void (*update_image)(eng_image img, const void *rgba);
	eng_pipeline (*make_pipeline)(const eng_pipeline_desc *desc);

	bool (*begin_frame)(void);
	eng_result (*end_frame)(void);
	eng_result (*wait_frame)(uint32_t frames_back);
	void (*resize)(uint32_t width, uint32_t height);
	void (*set_vsync)(bool on); /* optional */

	void (*begin_pass)(const eng_pass_desc *desc);
	void (*end_pass)(void);
	void (*apply_pipeline)(eng_pipeline pip);
	void (*apply_uniforms)(const void *data, size_t size);
	void (*apply_vertices)(eng_buffer vertices, eng_buffer indices);
	void (*apply_transient_vertices)(const void *data, size_t size);
	void (*apply_image)(eng_image img);
	void (*draw)(uint32_t first, uint32_t count, uint32_t instances);

	void (*request_screenshot)(void);
	const uint8_t *(*read_screenshot)(uint32_t *width, uint32_t *height);
	eng_result (*time_isolated)(void (*fn)(void *user), void *user, uint64_t *ns);
} eng_gfx_backend;

#ifdef SRCPROF_HAVE_VULKAN
const eng_gfx_backend *vk_gfx_backend(void);
#endif
#ifdef SRCPROF_HAVE_GL
const eng_gfx_backend *gl_gfx_backend(void);
#endif

/* shader_file.c: reads <dir>/<name>.<variant>.spv ("vk" or "gl"); the
 * caller frees. NULL (logged with the path and reason) when it cannot. */
uint32_t *eng_shader_load(const char *dir, const char *name, const char *variant, size_t *size);
/* Structural check of a SPIR-V module before a driver sees it (drivers are
 * allowed to crash on malformed modules): header, instruction stream,
 * one memory model, an entry point and balanced functions. false with the
 * reason in why. */
bool eng_spirv_check(const uint32_t *code, size_t words, char *why, size_t why_size);
#define ENG_SHADER_MAX_BYTES (16 << 20)
/* The directory shaders are read from for this run. */
const char *eng_shader_dir(const char *override);

#endif
