/* SPIR-V files for the backends (shader_file.c): where they are, reading
 * one, and a structural check before any driver sees it. */
#ifndef ENGINE_GFX_SHADER_H
#define ENGINE_GFX_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads <dir>/<name>.<variant>.spv ("vk" or "gl"); the caller frees. NULL
 * (logged with the path and reason) when it cannot, or when the module
 * fails eng_spirv_check. */
uint32_t *eng_shader_load(const char *dir, const char *name, const char *variant, size_t *size);
/* Structural check of a SPIR-V module before a driver sees it (drivers are
 * allowed to crash on malformed modules): header, instruction stream,
 * one memory model, an entry point and balanced functions. false with the
 * reason in why. */
bool eng_spirv_check(const uint32_t *code, size_t words, char *why, size_t why_size);
#define ENG_SHADER_MAX_BYTES (16 << 20)
/* The directory shaders are read from for this run: `override` when set,
 * else $SRCPROF_SHADER_DIR, else the build's. */
const char *eng_shader_dir(const char *override);

#endif
