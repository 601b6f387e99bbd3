/* Helpers for engine integration tests. */
#ifndef SRCPROF_ENGINE_FIXTURE_H
#define SRCPROF_ENGINE_FIXTURE_H

#include "check.h"
#include "engine/engine.h"
#include "engine/sources.h"
#include "srcprof/source_profiler.h"

/* A headless engine for `api` with validation on (any message fails the
 * test), 640x360 unless given; NULL if it cannot start. */
eng_engine *tfx_engine(eng_api api, uint32_t width, uint32_t height, uint32_t views);
/* The same, recording each view on `record_threads` threads (0: the
 * frame's), with compute when asked (eng_gfx_desc.compute). */
eng_engine *tfx_engine_threads(eng_api api, uint32_t width, uint32_t height, uint32_t views,
			       uint32_t record_threads, bool compute);
/* The same, counting work (eng_gfx_desc.work_counters). */
eng_engine *tfx_engine_work(eng_api api, uint32_t width, uint32_t height, uint32_t views,
			    uint32_t record_threads, bool compute, bool work);
/* Runs n frames; false on any frame error. */
bool tfx_frames(eng_engine *e, uint32_t n);
/* Frames tfx_frames ran with sources GPU-timed (the engine samples on
 * software devices), since the process started. */
extern uint32_t tfx_timed_frames;
profiler_result_t tfx_result(const void *source);
source_profiler_stats_t tfx_stats(void);
/* Destroys the engine and returns the validation messages it saw. */
uint32_t tfx_finish(eng_engine *e);

#endif
