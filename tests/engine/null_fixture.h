/* The null engine the test_null files share (engine/null.h): an engine on
 * the null device with the costs, views and threads a case asks for, what
 * the device recorded, and a mesh source. */
#ifndef SRCPROF_TEST_NULL_FIXTURE_H
#define SRCPROF_TEST_NULL_FIXTURE_H

#include "engine_fixture.h"

#include "engine/null.h"

#include <stdio.h>

/* A null engine with these costs, `views` views and these tick and record
 * threads (0: the graphics thread alone). */
static inline eng_engine *null_engine_work(const eng_null_desc *costs, uint32_t views,
				    uint32_t tick_threads, uint32_t record_threads, bool compute,
				    bool work)
{
	eng_pin_allocator();
	source_profiler_shutdown();
	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = ENG_API_NULL,
						       .width = 320,
						       .height = 180,
						       .null_device = costs,
						       .compute = compute,
						       .work_counters = work},
					 .views = views,
					 .fixed_dt = 1.0 / 60.0,
					 .tick_threads = tick_threads,
					 .record_threads = record_threads},
				   &r);
	if (!e) {
		fprintf(stderr, "null engine: %s\n", eng_result_str(r));
		return NULL;
	}
	return e;
}

static inline eng_engine *null_engine_full(const eng_null_desc *costs, uint32_t views,
				    uint32_t tick_threads, uint32_t record_threads, bool compute)
{
	return null_engine_work(costs, views, tick_threads, record_threads, compute, false);
}

static inline eng_engine *null_engine_threads(const eng_null_desc *costs, uint32_t views,
				       uint32_t tick_threads, uint32_t record_threads)
{
	return null_engine_full(costs, views, tick_threads, record_threads, false);
}

static inline eng_engine *null_engine(const eng_null_desc *costs, uint32_t views)
{
	return null_engine_threads(costs, views, 0, 0);
}

static inline uint64_t null_cpu(void *user)
{
	(void)user;
	return eng_null_cpu_ns();
}

/* What the null device recorded (zeros when there is none). */
static inline eng_null_record record(void)
{
	eng_null_record r = {0};
	eng_null_get_record(&r);
	return r;
}

static inline eng_source *mesh(int i)
{
	return eng_mesh_create(&(eng_mesh_desc){.shape = (eng_shape)(i % 3),
						.position = {(float)i, 0, 0}});
}

/* A particle source simulated on the GPU (compute). */
static inline eng_source *gpu_particles(uint32_t count)
{
	return eng_particles_create(&(eng_particles_desc){.count = count, .gpu_simulation = true});
}

#endif
