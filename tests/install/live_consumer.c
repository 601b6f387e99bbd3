/* An engine outside this tree serving its figures with the installed live
 * view (srcprof::live, pkg-config srcprof-live): a server on a free port of
 * 127.0.0.1 with a source in it, its URL, stopped. */
#include <srcprof/live.h>
#include <srcprof/source_profiler.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
	static int source;
	source_profiler_set_source_name(&source, "thing");
	srcprof_live_set_source_type(&source, "mesh");
	source_profiler_enable(true);
	srcprof_live *live = srcprof_live_start(&(srcprof_live_desc){.program = "consumer"});
	if (!live) {
		fprintf(stderr, "live consumer: %s\n", srcprof_live_error());
		return 1;
	}
	for (int f = 0; f < 5; f++) {
		source_profiler_frame_begin();
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&source, t);
		source_profiler_frame_collect();
		srcprof_live_poll(live);
	}
	const char *url = srcprof_live_url(live);
	int ok = strncmp(url, "http://127.0.0.1:", 17) == 0 && strstr(url, "token=") &&
		 srcprof_live_port(live) != 0;
	printf("live consumer: %s\n", url);
	srcprof_live_stop(live);
	source_profiler_shutdown();
	return ok ? 0 : 1;
}
