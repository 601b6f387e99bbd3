/* An engine outside this tree using the installed profiler. */
#include <srcprof/perf_block.h>
#include <srcprof/source_profiler.h>

#include <stdio.h>

int main(void)
{
	static int source;
	source_profiler_enable(true);
	for (int f = 0; f < 5; f++) {
		PERF_BLOCK("frame");
		source_profiler_frame_begin();
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&source, t);
		source_profiler_render_begin();
		t = source_profiler_source_render_begin(NULL);
		source_profiler_source_render_end(&source, t, NULL);
		source_profiler_render_end();
		source_profiler_frame_collect();
	}
	profiler_result_t r;
	if (!source_profiler_fill_result(&source, &r)) {
		fprintf(stderr, "no result\n");
		return 1;
	}
	printf("tick_avg %llu ns\n", (unsigned long long)r.tick_avg);
	source_profiler_shutdown();
	return 0;
}
