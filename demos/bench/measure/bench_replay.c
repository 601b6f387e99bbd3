/* The profiler's own CPU cost per source and frame, for srcprof-bench:
 * its calls replayed without the engine or any drawing (replay.h). */
#include "bench_measure.h"
#include "bench_progress.h"
#include "replay.h"
#include "srcprof_base/stats.h"

#include <stdio.h>
#include <stdlib.h>

/* The profiler's own CPU cost per source and frame at each point's source
 * count and the scene's views, with nothing else in the frame (replay.h):
 * rounds of the bare loop, CPU timing and CPU+GPU timing, each mode's
 * windows full, the counts taken in turn within a round (as the
 * microbenchmark does), so that a burst of load on this shared machine
 * hits one round of every count rather than every round of one; the
 * medians, the loop subtracted. Runs after every point: no engine may be
 * running. */
bool bench_replay_points(const bench_opts *o, bench_result *r)
{
	static const replay_mode modes[3] = {REPLAY_LOOP, REPLAY_CPU, REPLAY_GPU};
	static double ns[2 * BENCH_MAX_POINTS][3][BENCH_REPLAY_ROUNDS];
	uint32_t counts[2 * BENCH_MAX_POINTS], n_counts = 0, at[2 * BENCH_MAX_POINTS];
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		uint32_t n = p->n_src ? p->n_src : p->sources, k = 0;
		while (k < n_counts && counts[k] != n)
			k++;
		if (k == n_counts)
			counts[n_counts++] = n;
		at[i] = k;
	}
	for (uint32_t round = 0; round < BENCH_REPLAY_ROUNDS; round++) {
		for (uint32_t k = 0; k < n_counts; k++) {
			if (!replay_init(counts[k], o->scene->views)) {
				fprintf(stderr, "srcprof-bench: out of memory replaying the profiler's "
						"calls for %u sources\n",
					counts[k]);
				return false;
			}
			for (int m = 0; m < 3; m++) {
				if (bench_interrupted()) {
					replay_free();
					return false;
				}
				bench_progress_step(o->progress, "the profiler's own cost, replayed",
						    (round * n_counts + k) * 3 + (uint32_t)m,
						    3 * n_counts * BENCH_REPLAY_ROUNDS);
				replay_setup(modes[m], 60, false);
				ns[k][m][round] = replay_run_for(BENCH_REPLAY_MS);
			}
		}
	}
	replay_free();
	for (uint32_t i = 0; i < r->n_points; i++) {
		double (*v)[BENCH_REPLAY_ROUNDS] = ns[at[i]];
		double loop = stats_median_of(v[0], BENCH_REPLAY_ROUNDS);
		r->points[i].prof_cpu_ns = stats_median_of(v[1], BENCH_REPLAY_ROUNDS) - loop;
		r->points[i].prof_gpu_ns = stats_median_of(v[2], BENCH_REPLAY_ROUNDS) - loop;
	}
	r->replayed = true;
	bench_progress_clear(o->progress);
	return true;
}
