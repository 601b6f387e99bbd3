/* srcprof-demo --script FRAME:KEY,... (the value alone, so that the fuzzer
 * spends its time inside the list parser). */
#include "demo_args.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *value = malloc(size + 1);
	if (!value)
		return 0;
	memcpy(value, data, size);
	value[size] = '\0';
	char *argv[] = {DEMO_PROG, "--script", value, NULL};
	demo_options o;
	demo_options_init(&o);
	if (demo_parse_args(3, argv, &o) == 0) {
		if (o.n_script > DEMO_MAX_SCRIPT)
			abort();
		for (uint32_t i = 0; i < o.n_script; i++)
			if (o.script[i].frame == 0 || o.script[i].key < 0)
				abort();
	}
	free(value);
	return 0;
}
