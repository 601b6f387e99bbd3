/* srcprof-bench's command line. */
#include "bench.h"
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *storage;
	int argc = fuzz_split_args(data, size, BENCH_PROG, argv, &storage);
	bench_opts o;
	bench_opts_init(&o);
	int r = bench_parse_args(argc, argv, &o);
	if (r == 0) {
		/* What the bench relies on after a successful parse. */
		if (o.n_points > BENCH_MAX_POINTS || o.n_apis < 1 || o.n_apis > 2 || !o.scene ||
		    o.repeat < 1 || o.repeat > BENCH_MAX_PAIRS || o.frames < 5)
			abort();
		for (uint32_t i = 0; i < o.n_points; i++)
			if (o.sources[i] < 1 || o.sources[i] > 100000)
				abort();
	}
	free(storage);
	return 0;
}
