/* The engine on the null device: the work counters, each source's draws
 * and compute invocations counted exactly, on record threads, across new
 * passes and against one query around the frame. The rest of test_null's
 * cases are in test_null.c and test_null_threads.c (the same executable). */
#include "null_fixture.h"

#include <stdlib.h>
#include <string.h>

/* --- work counters ----------------------------------------------------------- */

#define NULL_COUNTED                                                                        \
	((1u << SOURCE_PROFILER_INPUT_VERTICES) | (1u << SOURCE_PROFILER_INPUT_PRIMITIVES) |  \
	 (1u << SOURCE_PROFILER_VS_INVOCATIONS) |                                           \
	 (1u << SOURCE_PROFILER_CLIPPING_INVOCATIONS) |                                     \
	 (1u << SOURCE_PROFILER_CLIPPING_PRIMITIVES))

/* Three meshes in two views, on the graphics thread alone and on four
 * record threads: each source's counts are its draws' (indices x
 * instances vertices, a third of them triangles) in both views, every
 * frame alike; fragments n/a (the null device rasterizes nothing); the
 * frame's totals are the sources' sums. */
TEST(work_counters_are_each_sources_draws_exactly_on_record_threads)
{
	for (uint32_t threads = 0; threads <= 4; threads += 4) {
		eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 2, 0, threads,
						 false, true);
		CHECK(e != NULL);
		eng_source *m[3];
		for (int i = 0; i < 3; i++) {
			m[i] = mesh(i);
			eng_add_source(e, m[i]);
		}
		CHECK(tfx_frames(e, 30));
		eng_null_clear_record();
		CHECK(tfx_frames(e, 1));
		eng_null_record r = record();
		uint32_t counts[3], n = 0;
		for (uint32_t i = 0; i < r.n_events && n < 3; i++)
			if (r.events[i].call == ENG_NULL_DRAW) {
				CHECK_EQ(r.events[i].c, 1); /* one instance */
				counts[n++] = r.events[i].b;
			}
		CHECK_EQ(n, 3);
		/* Every frame collected was counted: no warm-up for work. */
		uint64_t frames = tfx_stats().gpu_frames_collected;
		CHECK(frames >= 29);
		uint64_t total[SOURCE_PROFILER_COUNTERS] = {0};
		for (int i = 0; i < 3; i++) {
			source_profiler_work_t w;
			CHECK(source_profiler_fill_work(m[i], &w));
			CHECK_EQ(w.counted, NULL_COUNTED);
			CHECK_EQ(w.samples, frames);
			uint64_t v = 2ull * counts[i], p = 2ull * (counts[i] / 3);
			uint64_t want[SOURCE_PROFILER_COUNTERS] = {v, p, v, p, p, 0, 0};
			for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
				CHECK_EQ(w.avg[c], want[c]);
				CHECK_EQ(w.max[c], want[c]);
				CHECK_EQ(w.last[c], want[c]);
				total[c] += want[c];
			}
			/* Per view: half each. */
			source_profiler_work_t pw[4];
			CHECK_EQ(source_profiler_fill_pass_work(m[i], pw, 4), 2);
			for (int k = 0; k < 2; k++) {
				CHECK_EQ(pw[k].samples, frames);
				CHECK_EQ(pw[k].avg[SOURCE_PROFILER_INPUT_VERTICES], counts[i]);
				CHECK_EQ(pw[k].max[SOURCE_PROFILER_CLIPPING_PRIMITIVES], counts[i] / 3);
			}
		}
		source_profiler_work_t f;
		CHECK(source_profiler_frame_work(&f));
		CHECK_EQ(f.samples, frames);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
			CHECK_EQ(f.avg[c], total[c]);
			CHECK_EQ(f.last[c], total[c]);
		}
		CHECK_STR(source_profiler_counter_name(SOURCE_PROFILER_FS_INVOCATIONS), "FS invocations");
		CHECK_STR(source_profiler_counter_name(SOURCE_PROFILER_COUNTERS), "?");
		CHECK_EQ(tfx_stats().gpu_frames_disjoint, 0);
		CHECK_EQ(tfx_finish(e), 0);
	}
}

/* A dispatch of 10 workgroups of 64 counts 640 compute invocations on
 * the compute queue, its draws on the graphics one; off (the default),
 * nothing is counted and fill_work says so. */
TEST(work_counters_count_compute_invocations_and_are_off_by_default)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 1,
					 0, 0, true, true);
	CHECK(e != NULL);
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	source_profiler_work_t w;
	CHECK(source_profiler_fill_work(p, &w));
	CHECK_EQ(w.counted, NULL_COUNTED | (1u << SOURCE_PROFILER_CS_INVOCATIONS));
	CHECK_EQ(w.avg[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	CHECK_EQ(w.max[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	CHECK(w.avg[SOURCE_PROFILER_INPUT_VERTICES] > 0);
	/* The simulate pass is all compute, the view's all draws. */
	source_profiler_work_t pw[4];
	source_profiler_pass_result_t pr[4];
	size_t np = source_profiler_fill_pass_results(p, pr, 4);
	CHECK_EQ(source_profiler_fill_pass_work(p, pw, 4), np);
	for (size_t i = 0; i < np; i++) {
		bool sim = strcmp(source_profiler_pass_name(pr[i].pass), "simulate") == 0;
		CHECK_EQ(pw[i].avg[SOURCE_PROFILER_CS_INVOCATIONS], sim ? 640u : 0u);
		CHECK_EQ(pw[i].avg[SOURCE_PROFILER_INPUT_VERTICES] == 0, sim);
	}
	CHECK_EQ(tfx_finish(e), 0);

	e = null_engine_full(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false);
	CHECK(e != NULL);
	eng_source *m = mesh(0);
	eng_add_source(e, m);
	CHECK(tfx_frames(e, 10));
	CHECK(!source_profiler_fill_work(m, &w));
	CHECK(!source_profiler_frame_work(&w));
	CHECK_EQ(source_profiler_fill_pass_work(m, pw, 4), 0);
	CHECK_EQ(tfx_finish(e), 0);
}

/* A source that renders a pass of its own from its 10th frame on (as a
 * video's upload starts with its first picture, on its producer's clock):
 * its frames before that stay counted, the new pass reads 0 in them. */
typedef struct late_pass {
	eng_source base;
	eng_source *mesh;
	uint32_t frames;
} late_pass;

static void late_prepare(eng_source *s)
{
	late_pass *l = (late_pass *)s;
	if (++l->frames < 10)
		return;
	eng_gpu_scope scope = eng_source_gpu_begin(s, "late");
	eng_source_gpu_end(&scope);
}

static void late_render(eng_source *s, const eng_view *v)
{
	late_pass *l = (late_pass *)s;
	l->mesh->type->render(l->mesh, v);
}

static void late_destroy(eng_source *s)
{
	late_pass *l = (late_pass *)s;
	l->mesh->type->destroy(l->mesh);
	free(l);
}

static const eng_source_type late_type = {.name = "late", .prepare = late_prepare,
					  .render = late_render, .destroy = late_destroy};

TEST(work_counters_keep_a_sources_frames_when_it_renders_a_new_pass)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false, true);
	CHECK(e != NULL);
	late_pass *l = calloc(1, sizeof *l);
	CHECK(l != NULL);
	l->base.type = &late_type;
	snprintf(l->base.name, sizeof l->base.name, "late");
	l->base.scale = 1;
	l->mesh = mesh(0);
	CHECK(l->mesh != NULL);
	eng_add_source(e, &l->base);
	eng_source *other = mesh(1);
	eng_add_source(e, other);
	CHECK(tfx_frames(e, 30));
	source_profiler_work_t w, o;
	CHECK(source_profiler_fill_work(&l->base, &w));
	CHECK(source_profiler_fill_work(other, &o));
	CHECK_EQ(w.samples, o.samples); /* every frame, before the new pass too */
	CHECK(w.samples >= 29);
	source_profiler_work_t pw[4];
	source_profiler_pass_result_t pr[4];
	size_t np = source_profiler_fill_pass_results(&l->base, pr, 4);
	CHECK_EQ(source_profiler_fill_pass_work(&l->base, pw, 4), np);
	uint64_t verts = 0;
	bool late_seen = false;
	for (size_t i = 0; i < np; i++) {
		CHECK_EQ(pw[i].samples, w.samples);
		verts += pw[i].avg[SOURCE_PROFILER_INPUT_VERTICES];
		if (!strcmp(source_profiler_pass_name(pr[i].pass), "late")) {
			late_seen = true;
			CHECK_EQ(pw[i].max[SOURCE_PROFILER_INPUT_VERTICES], 0); /* draws nothing */
		}
	}
	CHECK(late_seen);
	CHECK_EQ(verts, w.avg[SOURCE_PROFILER_INPUT_VERTICES]);
	CHECK_EQ(tfx_finish(e), 0);
}

/* The whole-frame check: three meshes in two views on four record threads
 * and a dispatch of 640 invocations; the sources' counts of a frame add up
 * to one query around the frame drawn again, counter for counter, and
 * each equals what the draws define (indices x views). The passes alone
 * count nothing here (clears are not draws on this device). Without work
 * counting, or with profiling off, it refuses. */
TEST(the_sources_work_adds_up_to_one_query_around_the_frame)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 2,
					 0, 4, true, true);
	CHECK(e != NULL);
	eng_source *m[3];
	for (int i = 0; i < 3; i++) {
		m[i] = mesh(i);
		eng_add_source(e, m[i]);
	}
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	uint64_t frame_before = eng_frame_index(e);
	eng_work_check w;
	CHECK_EQ(eng_check_work(e, &w), ENG_OK);
	CHECK(eng_frame_index(e) > frame_before); /* it drew frames of its own */
	CHECK(!eng_paused(e));                    /* and left the scene running */
	CHECK_EQ(w.n_sources, 4);
	CHECK_EQ(w.counted, NULL_COUNTED | (1u << SOURCE_PROFILER_CS_INVOCATIONS));
	uint64_t verts = 0;
	for (int i = 0; i < 3; i++) {
		source_profiler_work_t sw;
		CHECK(source_profiler_fill_work(m[i], &sw));
		verts += sw.last[SOURCE_PROFILER_INPUT_VERTICES];
	}
	source_profiler_work_t pw;
	CHECK(source_profiler_fill_work(p, &pw));
	verts += pw.last[SOURCE_PROFILER_INPUT_VERTICES];
	CHECK(verts > 0);
	CHECK_EQ(w.sources[SOURCE_PROFILER_INPUT_VERTICES], verts);
	CHECK_EQ(w.sources[SOURCE_PROFILER_CS_INVOCATIONS], 640);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		CHECK_EQ(w.passes[c], 0);
		CHECK_EQ(w.sources[c], w.frame[c]);
	}
	CHECK_EQ(w.sources[SOURCE_PROFILER_FS_INVOCATIONS], 0); /* n/a: not counted */

	/* The count alone: the same frame, whole. */
	uint64_t counts[SOURCE_PROFILER_COUNTERS];
	uint32_t counted = 0;
	CHECK_EQ(eng_count_frame_work(e, counts, &counted), ENG_OK);
	CHECK_EQ(counted, w.counted);
	CHECK_EQ(counts[SOURCE_PROFILER_INPUT_VERTICES], verts);

	eng_set_profile(e, ENG_PROFILE_CPU);
	CHECK_EQ(eng_check_work(e, &w), ENG_ERR_INVALID);
	CHECK_EQ(w.counted, 0);
	eng_set_profile(e, ENG_PROFILE_ALL);
	CHECK_EQ(tfx_finish(e), 0);

	e = null_engine_full(&(eng_null_desc){.draw_ns = 1000}, 1, 0, 0, false);
	CHECK(e != NULL);
	eng_add_source(e, mesh(0));
	CHECK(tfx_frames(e, 5));
	CHECK_EQ(eng_check_work(e, &w), ENG_ERR_INVALID);
	CHECK_EQ(eng_count_frame_work(e, counts, &counted), ENG_ERR_INVALID);
	CHECK_EQ(counted, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

/* A sphere's tessellation level sets its triangles, 12 x rows^2 indices
 * (rows 4 at level 1, 256 at the last), and its counted vertices follow
 * the next frame, in every view; levels out of range are clamped; a
 * source that is not a sphere mesh has none. */
TEST(a_spheres_detail_sets_the_vertices_it_counts)
{
	eng_engine *e = null_engine_work(&(eng_null_desc){.draw_ns = 1000}, 2, 0, 0, false, true);
	CHECK(e != NULL);
	eng_source *s = eng_mesh_create(&(eng_mesh_desc){.name = "ball",
							 .shape = ENG_SHAPE_SPHERE,
							 .detail = 1});
	CHECK(s != NULL);
	eng_add_source(e, s);
	CHECK_EQ(eng_mesh_detail(s), 1);
	CHECK_EQ(eng_mesh_triangles(s), 64); /* 192 indices */
	CHECK(tfx_frames(e, 6));
	source_profiler_work_t w;
	CHECK(source_profiler_fill_work(s, &w));
	CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_VERTICES], 2 * 192);
	static const uint32_t rows[] = {4, 6, 8, 12, 16, 23, 32, 45, 64, 91, 128, 181, 256};
	for (uint32_t level = 2; level <= ENG_MESH_MAX_DETAIL; level += 5) {
		CHECK_EQ(eng_mesh_set_detail(s, level), level);
		CHECK(tfx_frames(e, 4));
		CHECK(source_profiler_fill_work(s, &w));
		uint64_t idx = 12ull * rows[level - 1] * rows[level - 1];
		CHECK_EQ(eng_mesh_triangles(s), idx / 3);
		CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_VERTICES], 2 * idx);
		CHECK_EQ(w.last[SOURCE_PROFILER_INPUT_PRIMITIVES], 2 * idx / 3);
		CHECK(w.max[SOURCE_PROFILER_INPUT_VERTICES] >= 2 * idx);
	}
	CHECK_EQ(eng_mesh_set_detail(s, 99), ENG_MESH_MAX_DETAIL);
	CHECK_EQ(eng_mesh_triangles(s), 4u * 256 * 256);
	CHECK_EQ(eng_mesh_set_detail(s, 0), 1);
	eng_source *cube = mesh(0);
	eng_add_source(e, cube);
	CHECK_EQ(eng_mesh_set_detail(cube, 3), 0);
	CHECK_EQ(eng_mesh_detail(cube), 0);
	CHECK_EQ(eng_mesh_triangles(cube), 12);
	CHECK_EQ(eng_mesh_set_detail(NULL, 3), 0);
	CHECK(tfx_frames(e, 2));
	CHECK_EQ(tfx_finish(e), 0);
}
