/* srcprof-demo's command line (every option, including --script). */
#include "demo_args.h"
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *storage;
	int argc = fuzz_split_args(data, size, DEMO_PROG, argv, &storage);
	demo_options o;
	demo_options_init(&o);
	int r = demo_parse_args(argc, argv, &o);
	if (r == 0 && (o.engine.gfx.width < 64 || o.engine.gfx.height < 64) &&
	    (o.engine.gfx.width || o.engine.gfx.height))
		abort(); /* a size was accepted that the option forbids */
	if (r == 0 && o.n_script > DEMO_MAX_SCRIPT)
		abort();
	if (r == 0 && (!o.scene || (o.sources && (o.sources < o.scene->min_sources ||
						  o.sources > o.scene->max_sources))))
		abort(); /* a --sources the scene cannot take was accepted */
	if (r == 0 && o.overlay_scale != 0 && (o.overlay_scale < 0.5 || o.overlay_scale > 8))
		abort();
	free(storage);
	return 0;
}
