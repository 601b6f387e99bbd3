/* An engine outside this tree using the installed profiler and both GPU
 * timer modules. Built twice: with PERF_BLOCK compiled in (the default) and
 * with the target property SRCPROF_PERF_BLOCKS OFF (EXPECT_BLOCKS 0). */
#include <srcprof/gl.h>
#include <srcprof/perf_block.h>
#include <srcprof/source_profiler.h>
#include <srcprof/vulkan.h>

#include <stdio.h>
#include <string.h>

#ifndef EXPECT_BLOCKS
#define EXPECT_BLOCKS 1
#endif

int main(void)
{
	static int source;
	char frames[4096] = {0};
	FILE *perf = fmemopen(frames, sizeof frames - 1, "w");
	perf_block_set_output(perf);
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
	perf_block_set_output(NULL);
	fclose(perf);
	profiler_result_t r;
	if (!source_profiler_fill_result(&source, &r)) {
		fprintf(stderr, "no result\n");
		return 1;
	}
	/* Without a device or context the modules say so and give no timer. */
	if (srcprof_vk_timer_create(NULL) || strcmp(srcprof_vk_timer_mode(NULL), "none") != 0 ||
	    srcprof_gl_timer_backend(NULL) || strcmp(srcprof_gl_timer_mode(NULL), "none") != 0) {
		fprintf(stderr, "the modules misbehave without a device\n");
		return 1;
	}
	int blocks = strstr(frames, "Frame : ") != NULL;
	printf("tick_avg %llu ns; PERF_BLOCK frames written: %s\n", (unsigned long long)r.tick_avg,
	       blocks ? "yes" : "no");
	source_profiler_shutdown();
	return blocks == EXPECT_BLOCKS ? 0 : 1;
}
