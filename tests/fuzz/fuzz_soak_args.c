/* srcprof-soak's command line. */
#include "fuzz.h"
#include "soak.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *storage;
	int argc = fuzz_split_args(data, size, SOAK_PROG, argv, &storage);
	soak_opts o;
	soak_opts_init(&o);
	if (soak_parse_args(argc, argv, &o) == 0) {
		/* What the soak loop relies on after a successful parse. */
		if (o.sources < 1 || o.sources > SOAK_MAX_SOURCES || o.churn > o.sources ||
		    o.warmup >= o.frames || o.report_every < 1 || !o.kinds ||
		    o.kinds >= (1u << SOAK_KINDS))
			abort();
	}
	free(storage);
	return 0;
}
