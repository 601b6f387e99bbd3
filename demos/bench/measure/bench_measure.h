/* srcprof-bench's measuring side: what bench.c calls to fill a
 * bench_result (bench.h). Each point runs its steps in engines of its own
 * (bench_run.c: warm-up, every frame GPU-timed, the sources' figures;
 * bench_isolate.c: --isolate; bench_overhead.c: the profiler's overhead in
 * interleaved blocks); once every point ran, bench_replay.c measures the
 * profiler's own cost without an engine. Nothing here writes a report. */
#ifndef DEMOS_BENCH_MEASURE_H
#define DEMOS_BENCH_MEASURE_H

#include "bench.h"

/* Runs one (api, source count, record threads) point into *pt (cleared
 * first); false when the API cannot start or a step failed (said on
 * stderr unless the run was interrupted). Free pt with bench_point_free
 * either way. */
bool bench_run_point(const bench_opts *o, eng_api api, uint32_t sources, uint32_t record_threads,
		     bench_point *pt);
/* Frees what a point owns (its sources' samples, the "off" frames). */
void bench_point_free(bench_point *pt);
/* The profiler's own cost (prof_cpu_ns, prof_gpu_ns) of every point in r,
 * after every point ran (no engine may be running); false (with a
 * message) when out of memory. */
bool bench_replay_points(const bench_opts *o, bench_result *r);

#endif
