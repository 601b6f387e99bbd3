/* The rolling window against a model: sums and maxima computed from the
 * samples themselves through wraps, ties and new passes, and passes beyond
 * the most a source keeps. The other window cases are in test_window.c
 * (the same executable). */
#include "check.h"
#include "fixture.h"

#include <stdlib.h>
#include <string.h>

static int a;

/* What a window of `cap` samples must read, from the samples themselves. */
typedef struct model_window {
	uint64_t sum;
	uint64_t max;
} model_window;

static model_window model_of(const uint32_t *v, int n, int cap)
{
	model_window m = {0, 0};
	for (int i = n > cap ? n - cap : 0; i < n; i++) {
		m.sum += v[i];
		if (v[i] > m.max)
			m.max = v[i];
	}
	return m;
}

/* Durations with many ties, runs that fall (the maximum is then always the
 * oldest sample, the worst case for a window's maximum), and spikes. */
static uint32_t model_value(uint64_t *seed, int f, int column)
{
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	uint32_t r = (uint32_t)(*seed >> 33);
	if ((f / 40 + column) % 3 == 0)
		return 100000u - (uint32_t)(f % 40) * 1000u + r % 3; /* falling */
	if (r % 50 == 0)
		return 500000u + r % 1000u; /* spike */
	return 1000u * (1u + r % 6u); /* ties */
}

TEST(sums_and_maxima_match_the_samples_through_wraps_ties_and_a_new_pass)
{
	enum { FRAMES = 400, CAP = 50 };
	fx_init(true);
	source_profiler_reset_video(10, 1); /* window of 50 */
	uint32_t p1 = source_profiler_pass_id("one"), p2 = source_profiler_pass_id("two"),
		 p3 = source_profiler_pass_id("three");
	/* Per collected frame: tick, first render, pass sums; CPU then GPU. */
	static uint32_t tick[FRAMES], first[FRAMES], sum[FRAMES], gfirst[FRAMES], gsum[FRAMES];
	static uint32_t cpu[3][FRAMES], gpu[3][FRAMES];
	uint64_t seed = 17;
	for (int f = 0; f < FRAMES; f++) {
		uint32_t v[9];
		for (int c = 0; c < 9; c++)
			v[c] = model_value(&seed, f, c);
		bool third = f >= 120; /* its column comes once the rings are full */
		fx_begin();
		fx_tick(&a, v[0]);
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, v[1], v[2]);
		if (third) {
			source_profiler_set_pass(p3);
			fx_render(&a, v[7], v[8]);
		}
		source_profiler_set_pass(p2);
		fx_render(&a, v[3], v[4]);
		fx_render(&a, v[5], v[6]); /* two renders in one pass add up */
		fx_end();
		tick[f] = v[0];
		first[f] = v[1];
		gfirst[f] = v[2];
		cpu[0][f] = v[1];
		gpu[0][f] = v[2];
		cpu[1][f] = v[3] + v[5];
		gpu[1][f] = v[4] + v[6];
		cpu[2][f] = third ? v[7] : 0;
		gpu[2][f] = third ? v[8] : 0;
		sum[f] = cpu[0][f] + cpu[1][f] + cpu[2][f];
		gsum[f] = gpu[0][f] + gpu[1][f] + gpu[2][f];
		int n = f; /* frames 0..f-1 are collected */
		if (!n)
			continue;
		int held = n < CAP ? n : CAP;
		profiler_result_t r = fx_result(&a);
		model_window mt = model_of(tick, n, CAP), mf = model_of(first, n, CAP),
			     ms = model_of(sum, n, CAP), mg = model_of(gfirst, n, CAP),
			     mgs = model_of(gsum, n, CAP);
		CHECK_EQ(fx_cpu_samples(&a), held);
		CHECK_EQ(fx_gpu_samples(&a), held);
		CHECK_EQ(r.tick_avg, mt.sum / held);
		CHECK_EQ(r.tick_max, mt.max);
		CHECK_EQ(r.render_avg, mf.sum / held);
		CHECK_EQ(r.render_max, mf.max);
		CHECK_EQ(r.render_sum, ms.sum / held);
		CHECK_EQ(r.render_gpu_avg, mg.sum / held);
		CHECK_EQ(r.render_gpu_max, mg.max);
		CHECK_EQ(r.render_gpu_sum, mgs.sum / held);
		source_profiler_pass_result_t pr[3];
		size_t passes = source_profiler_fill_pass_results(&a, pr, 3);
		CHECK_EQ(passes, third ? 3 : 2);
		/* Columns in first-rendered order: one, two, then three. */
		static const int col_of[] = {0, 1, 2};
		for (size_t p = 0; p < passes; p++) {
			int c = col_of[p];
			model_window mc = model_of(cpu[c], n, CAP), mgc = model_of(gpu[c], n, CAP);
			CHECK_EQ(pr[p].pass, c == 0 ? p1 : c == 1 ? p2 : p3);
			CHECK_EQ(pr[p].render_avg, mc.sum / held);
			CHECK_EQ(pr[p].render_max, mc.max);
			CHECK_EQ(pr[p].render_gpu_avg, mgc.sum / held);
			CHECK_EQ(pr[p].render_gpu_max, mgc.max);
		}
	}
}

/* More passes than a source keeps (SOURCE_PROFILER_MAX_SOURCE_PASSES):
 * renders in the passes beyond add up in its last column, and every
 * column's sum and maximum follow their samples through the window. */
TEST(passes_beyond_the_most_a_source_keeps_add_up_in_its_last)
{
	enum { FRAMES = 160, CAP = 50, PASSES = 12, KEPT = SOURCE_PROFILER_MAX_SOURCE_PASSES };
	fx_init(true);
	source_profiler_reset_video(10, 1); /* window of 50 */
	uint32_t id[PASSES];
	for (int p = 0; p < PASSES; p++) {
		char name[16];
		snprintf(name, sizeof name, "pass-%d", p);
		id[p] = source_profiler_pass_id(name);
	}
	static uint32_t cpu[KEPT][FRAMES], gpu[KEPT][FRAMES];
	uint64_t seed = 5;
	for (int f = 0; f < FRAMES; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		for (int k = 0; k < KEPT; k++)
			cpu[k][f] = gpu[k][f] = 0;
		for (int p = 0; p < PASSES; p++) {
			uint32_t c = model_value(&seed, f, p) / 8, g = model_value(&seed, f, p + 1) / 8;
			int k = p < KEPT ? p : KEPT - 1;
			cpu[k][f] += c;
			gpu[k][f] += g;
			source_profiler_set_pass(id[p]);
			fx_render(&a, c, g);
		}
		fx_end();
		int n = f;
		if (n < 2)
			continue;
		int held = n < CAP ? n : CAP;
		source_profiler_pass_result_t pr[PASSES];
		CHECK_EQ(source_profiler_fill_pass_results(&a, pr, PASSES), KEPT);
		for (int k = 0; k < KEPT; k++) {
			model_window mc = model_of(cpu[k], n, CAP), mg = model_of(gpu[k], n, CAP);
			CHECK_EQ(pr[k].pass, id[k]);
			CHECK_EQ(pr[k].render_avg, mc.sum / held);
			CHECK_EQ(pr[k].render_max, mc.max);
			CHECK_EQ(pr[k].render_gpu_avg, mg.sum / held);
			CHECK_EQ(pr[k].render_gpu_max, mg.max);
		}
	}
}
