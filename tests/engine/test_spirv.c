/* The structural SPIR-V check every shader file passes before a driver sees
 * it: the shaders this build made pass; each kind of damage is refused with
 * a reason that names it. */
#include "check.h"
#include "gfx/shader.h"

#include <stdlib.h>
#include <string.h>

static uint32_t *load(const char *name, const char *variant, size_t *words)
{
	size_t size = 0;
	uint32_t *code = eng_shader_load(eng_shader_dir(NULL), name, variant, &size);
	*words = size / 4;
	return code;
}

/* Refused, with why containing expect. */
static bool refused(const uint32_t *code, size_t words, const char *expect)
{
	char why[160] = "";
	if (eng_spirv_check(code, words, why, sizeof why)) {
		fprintf(stderr, "accepted; expected '%s'\n", expect);
		return false;
	}
	if (!strstr(why, expect)) {
		fprintf(stderr, "refused with '%s'; expected '%s'\n", why, expect);
		return false;
	}
	return true;
}

TEST(every_built_shader_passes)
{
	const char *names[] = {"mesh.vert", "mesh.frag",  "sprite.vert",    "sprite.frag",
			       "quad.vert", "heavy.frag", "fullscreen.vert", "blur.frag",
			       "fx_scene.frag", "textured.frag", "ui.vert", "ui.frag"};
	for (size_t v = 0; v < 2; v++) {
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			size_t words;
			uint32_t *code = load(names[i], v ? "gl" : "vk", &words);
			CHECK(code != NULL); /* eng_shader_load runs the check */
			char why[160];
			CHECK(eng_spirv_check(code, words, why, sizeof why));
			free(code);
		}
	}
}

TEST(damaged_modules_are_refused_with_the_reason)
{
	size_t words;
	uint32_t *good = load("mesh.frag", "vk", &words);
	CHECK(good != NULL && words > 20);
	uint32_t *m = malloc(words * 4);
	CHECK(m != NULL);
#define RESET() memcpy(m, good, words * 4)
	RESET();
	CHECK(refused(m, 4, "shorter than the 5-word header"));
	m[0] = 0x03022307u;
	CHECK(refused(m, words, "byte-swapped"));
	m[0] = 0x12345678u;
	CHECK(refused(m, words, "no SPIR-V magic"));
	RESET();
	m[1] = 0x00020000u;
	CHECK(refused(m, words, "unsupported version"));
	RESET();
	m[3] = 0;
	CHECK(refused(m, words, "id bound 0"));
	RESET();
	m[4] = 1;
	CHECK(refused(m, words, "schema"));
	RESET();
	m[5] = 0; /* the first instruction's word count */
	CHECK(refused(m, words, "word count of 0"));
	RESET();
	m[5] = (0xffffu << 16) | (m[5] & 0xffffu);
	CHECK(refused(m, words, "runs past the end"));
	RESET();
	/* Cut in the middle of the last instruction (OpFunctionEnd is one word,
	 * so drop it: the function is left open). */
	CHECK(refused(m, words - 1, "without OpFunctionEnd"));
	free(m);
	free(good);
}
