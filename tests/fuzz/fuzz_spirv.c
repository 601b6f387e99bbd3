/* The SPIR-V check every shader file passes before a driver sees it. */
#include "fuzz.h"
#include "gfx/shader.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t words = size / 4;
	/* An exact-size copy, so that ASan sees any read past the end. */
	uint32_t *code = malloc(words ? words * 4 : 1);
	if (!code)
		return 0;
	memcpy(code, data, words * 4);
	char why[160];
	bool ok = eng_spirv_check(code, words, why, sizeof why);
	if (!ok && (!why[0] || !memchr(why, '\0', sizeof why)))
		abort(); /* a rejection always says why */
	free(code);
	return 0;
}
