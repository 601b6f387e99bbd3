#include "engine_fixture.h"

eng_engine *tfx_engine(eng_api api, uint32_t width, uint32_t height, uint32_t views)
{
	return tfx_engine_threads(api, width, height, views, 0, false);
}

eng_engine *tfx_engine_threads(eng_api api, uint32_t width, uint32_t height, uint32_t views,
			       uint32_t record_threads, bool compute)
{
	return tfx_engine_work(api, width, height, views, record_threads, compute, false);
}

eng_engine *tfx_engine_work(eng_api api, uint32_t width, uint32_t height, uint32_t views,
			    uint32_t record_threads, bool compute, bool work)
{
	eng_pin_allocator(); /* as the programs do */
	source_profiler_shutdown();
	eng_desc d = {
		.gfx = {.api = api,
			.headless = true,
			.validate = true,
			.width = width ? width : 640,
			.height = height ? height : 360,
			.compute = compute,
			.work_counters = work},
		.views = views,
		.record_threads = record_threads,
		.fixed_dt = 1.0 / 60.0,
	};
	eng_result r;
	eng_engine *e = eng_create(&d, &r);
	if (!e)
		fprintf(stderr, "engine: %s\n", eng_result_str(r));
	return e;
}

uint32_t tfx_timed_frames;

bool tfx_frames(eng_engine *e, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (eng_frame(e) != ENG_OK)
			return false;
		if (eng_gpu_timed_count(e))
			tfx_timed_frames++;
	}
	return true;
}

profiler_result_t tfx_result(const void *source)
{
	profiler_result_t r = {0};
	source_profiler_fill_result(source, &r);
	return r;
}

source_profiler_stats_t tfx_stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

uint32_t tfx_finish(eng_engine *e)
{
	eng_destroy(e);
	source_profiler_shutdown();
	return eng_gfx_validation_messages();
}
