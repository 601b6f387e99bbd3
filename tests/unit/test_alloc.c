/* Once warm, the frame loop allocates nothing: every allocation in this
 * executable (the profiler is linked statically) is counted through
 * -Wl,--wrap. */
#include "alloc_count.h"
#include "check.h"
#include "fixture.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"

#define N 100

static int g_src[N];

static void frame(uint32_t *passes, int n_passes)
{
	PERF_BLOCK("frame");
	fx_begin();
	for (int i = 0; i < N; i++)
		fx_tick(&g_src[i], 50 + i);
	fx_render_begin();
	for (int p = 0; p < n_passes; p++) {
		source_profiler_set_pass(passes[p]);
		for (int i = 0; i < N; i++) {
			fx_render(&g_src[i], 20 + p, 100 + i);
			if (i < 10)
				source_profiler_async_frame_rendered(&g_src[i], fx_now / 2);
		}
	}
	fx_end();
	for (int i = 0; i < 10; i++)
		source_profiler_async_frame_received(&g_src[i]);
	profiler_result_t r;
	source_profiler_fill_result(&g_src[3], &r);
}

static void run(bool trace)
{
	fx_init(true);
	uint32_t passes[3] = {source_profiler_pass_id("main"), source_profiler_pass_id("preview"),
			      source_profiler_pass_id("blur-h")};
	for (int i = 0; i < 10; i++)
		source_profiler_set_async(&g_src[i], true);
	if (trace)
		source_profiler_trace_start(&(source_profiler_trace_desc){.max_events = 1u << 20});
	for (int f = 0; f < 400; f++)
		frame(passes, 3);
	uint64_t before = alloc_count();
	for (int f = 0; f < 1000; f++)
		frame(passes, 3);
	CHECK_EQ(alloc_count() - before, 0);
	if (trace)
		source_profiler_trace_discard();
}

TEST(no_heap_allocation_per_frame_once_warm)
{
	run(false);
}

TEST(no_heap_allocation_per_frame_while_a_trace_records)
{
	run(true);
}
