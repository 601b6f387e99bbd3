/* srcprof-bench's command line, and compare's when the first argument is
 * "compare" (as bench.c dispatches). */
#include "bench.h"
#include "bench_compare.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* What compare relies on after a successful parse. */
static void compare_args(int argc, char **argv)
{
	cmp_opts o;
	if (cmp_parse_args(argc, argv, &o) != 0)
		return;
	if (!o.base || !o.nw || o.blocks == 1 || o.blocks == 2 || o.blocks > 1000 ||
	    !(o.threshold >= 0 && o.threshold <= 10) || !(o.alpha > 0 && o.alpha <= 0.5) ||
	    !(o.floor_us >= 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *storage;
	int argc = fuzz_split_args(data, size, BENCH_PROG, argv, &storage);
	if (argc > 1 && !strcmp(argv[1], "compare")) {
		compare_args(argc - 1, argv + 1);
		free(storage);
		return 0;
	}
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
