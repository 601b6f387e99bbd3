/* SPIR-V files: built by glslc into the build tree at build time, read at
 * run time so that a missing or broken shader is a clear message, not a
 * link error. */
#include "engine/log.h"
#include "shader.h"

#include <errno.h>
#include <stdbool.h>
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

/* The SPIR-V physical layout (SPIR-V spec 2.3 and 2.4): a 5-word header,
 * then instructions whose first word holds the word count (high 16 bits)
 * and the opcode. */
enum {
	SPV_MAGIC = 0x07230203u,
	SPV_OP_MEMORY_MODEL = 14,
	SPV_OP_ENTRY_POINT = 15,
	SPV_OP_FUNCTION = 54,
	SPV_OP_FUNCTION_END = 56,
	SPV_MAX_BOUND = 1u << 22, /* far above any shader here; guards driver arrays */
};

bool eng_spirv_check(const uint32_t *code, size_t words, char *why, size_t why_size)
{
#define REJECT(...)                                       \
	do {                                              \
		snprintf(why, why_size, __VA_ARGS__);     \
		return false;                             \
	} while (0)
	if (words < 5)
		REJECT("%zu words, shorter than the 5-word header", words);
	if (code[0] == 0x03022307u)
		REJECT("byte-swapped (big-endian) module");
	if (code[0] != SPV_MAGIC)
		REJECT("no SPIR-V magic number (0x%08x)", code[0]);
	uint32_t major = (code[1] >> 16) & 0xff, minor = (code[1] >> 8) & 0xff;
	if ((code[1] & 0xff0000ffu) != 0 || major != 1 || minor > 6)
		REJECT("unsupported version word 0x%08x", code[1]);
	if (code[3] == 0 || code[3] > SPV_MAX_BOUND)
		REJECT("id bound %u out of range", code[3]);
	if (code[4] != 0)
		REJECT("reserved schema word is %u, not 0", code[4]);
	uint32_t entry_points = 0, memory_models = 0, open_functions = 0, functions = 0;
	for (size_t i = 5; i < words;) {
		uint32_t count = code[i] >> 16, op = code[i] & 0xffffu;
		if (count == 0)
			REJECT("instruction at word %zu has a word count of 0", i);
		if (count > words - i)
			REJECT("instruction at word %zu (opcode %u) runs past the end", i, op);
		switch (op) {
		case SPV_OP_MEMORY_MODEL:
			memory_models++;
			break;
		case SPV_OP_ENTRY_POINT: {
			/* model, function id, NUL-terminated name, interface ids */
			if (count < 4)
				REJECT("OpEntryPoint at word %zu is too short", i);
			if (code[i + 2] == 0 || code[i + 2] >= code[3])
				REJECT("OpEntryPoint at word %zu names id %u, outside the bound",
				       i, code[i + 2]);
			const char *name = (const char *)&code[i + 3];
			size_t room = (count - 3) * sizeof(uint32_t);
			if (!memchr(name, '\0', room))
				REJECT("OpEntryPoint at word %zu has an unterminated name", i);
			entry_points++;
			break;
		}
		case SPV_OP_FUNCTION:
			if (open_functions)
				REJECT("OpFunction at word %zu inside another function", i);
			open_functions = 1;
			functions++;
			break;
		case SPV_OP_FUNCTION_END:
			if (!open_functions)
				REJECT("OpFunctionEnd at word %zu without OpFunction", i);
			open_functions = 0;
			break;
		}
		i += count;
	}
	if (memory_models != 1)
		REJECT("%u OpMemoryModel instructions, not 1", memory_models);
	if (!entry_points)
		REJECT("no OpEntryPoint");
	if (!functions || open_functions)
		REJECT("%s", functions ? "a function without OpFunctionEnd" : "no function");
	return true;
#undef REJECT
}

uint32_t *eng_shader_load(const char *dir, const char *name, const char *variant, size_t *size)
{
	char path[1024];
	if ((size_t)snprintf(path, sizeof path, "%s/%s.%s.spv", dir, name, variant) >= sizeof path) {
		eng_error("shader directory '%s': path too long", dir);
		return NULL;
	}
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
	if (len > 0 && len % 4 == 0 && len <= ENG_SHADER_MAX_BYTES && fseek(f, 0, SEEK_SET) == 0) {
		code = malloc((size_t)len);
		if (code && fread(code, 1, (size_t)len, f) != (size_t)len) {
			free(code);
			code = NULL;
		}
	}
	fclose(f);
	if (!code) {
		eng_error("shader %s: not a SPIR-V module (%ld bytes: %s)", path, len,
			  len > ENG_SHADER_MAX_BYTES ? "too large"
			  : len > 0 && len % 4 == 0  ? "unreadable"
						     : "not a whole number of 32-bit words");
		return NULL;
	}
	char why[160];
	if (!eng_spirv_check(code, (size_t)len / 4, why, sizeof why)) {
		eng_error("shader %s: not a valid SPIR-V module: %s", path, why);
		free(code);
		return NULL;
	}
	*size = (size_t)len;
	return code;
}
