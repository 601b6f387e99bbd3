/* SPIR-V files: built by glslc into the build tree at build time, read at
 * run time so that a missing or broken shader is a clear message, not a
 * link error. */
#include "engine/log.h"
#include "gfx_backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SRCPROF_SHADER_BUILD_DIR
#define SRCPROF_SHADER_BUILD_DIR "shaders"
#endif

const char *eng_shader_dir(const char *override)
{
	if (override && *override)
		return override;
	const char *env = getenv("SRCPROF_SHADER_DIR");
	if (env && *env)
		return env;
	return SRCPROF_SHADER_BUILD_DIR;
}

uint32_t *eng_shader_load(const char *dir, const char *name, const char *variant, size_t *size)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.%s.spv", dir, name, variant);
	FILE *f = fopen(path, "rb");
	if (!f) {
		eng_error("shader %s: %s (set --shader-dir or SRCPROF_SHADER_DIR to the folder "
			  "with the built .spv files)",
			  path, strerror(errno));
		return NULL;
	}
	uint32_t *code = NULL;
	long len = -1;
	if (fseek(f, 0, SEEK_END) == 0)
		len = ftell(f);
	if (len > 0 && len % 4 == 0 && fseek(f, 0, SEEK_SET) == 0) {
		code = malloc((size_t)len);
		if (code && fread(code, 1, (size_t)len, f) != (size_t)len) {
			free(code);
			code = NULL;
		}
	}
	fclose(f);
	if (!code || code[0] != 0x07230203u) {
		eng_error("shader %s: not a SPIR-V module (%ld bytes)", path, len);
		free(code);
		return NULL;
	}
	*size = (size_t)len;
	return code;
}
