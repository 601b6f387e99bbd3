// A C++17 engine using the installed headers as the docs show it
// (docs/integration.md, "From C++"): no compound literals or designated
// initialisers, a desc filled field by field. Built and run by the install
// test; without a device the timers are NULL and CPU profiling goes on.
#include <srcprof/export.h>
#include <srcprof/gl.h>
#include <srcprof/gpu_timer.h>
#include <srcprof/perf_block.h>
#include <srcprof/source_profiler.h>
#include <srcprof/vulkan.h>

#include <cstdio>

int main()
{
	srcprof_vk_timer_desc desc{}; // zero: every default
	desc.instance = VK_NULL_HANDLE; // yours
	desc.timing = SRCPROF_GPU_TIMING_AUTO;
	desc.host_query_reset = false;
	srcprof_vk_timer *t = srcprof_vk_timer_create(&desc); // NULL: no device here
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(t));

	srcprof_gl_timer_desc gl{};
	gl.get_proc_address = nullptr;
	srcprof_gl_timer *g = srcprof_gl_timer_create(&gl);

	static int object;
	source_profiler_enable(true);
	for (int f = 0; f < 4; f++) {
		PERF_FUNCTION();
		source_profiler_frame_begin();
		uint64_t t0 = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&object, t0);
		source_profiler_render_begin();
		sp_gpu_timer *timer = nullptr;
		t0 = source_profiler_source_render_begin(&timer);
		source_profiler_source_render_end(&object, t0, timer);
		source_profiler_render_end();
		source_profiler_frame_collect();
	}
	profiler_result_t r{};
	bool ok = source_profiler_fill_result(&object, &r) && !t && !g;
	std::printf("C++ consumer: %s\n", ok ? "ok" : "FAILED");
	srcprof_vk_timer_destroy(t);
	srcprof_gl_timer_destroy(g);
	source_profiler_shutdown();
	return ok ? 0 : 1;
}
