/* The engine on the null device: tick and record threads giving every
 * source its exact figures, recorders in order, and compute on its own
 * queue and clock. The rest of test_null's cases are in test_null.c and
 * test_null_work.c (the same executable). */
#include "null_fixture.h"

#include "engine/log.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* --- tick and record threads ------------------------------------------------ */

/* The test's clock is per thread: each thread's advances only by what the
 * probes it runs cost, so a tick's or a render's CPU time is exact on
 * whatever thread runs it. */
static _Thread_local uint64_t t_clock = 1000000000ull;

static uint64_t thread_clock(void *user)
{
	(void)user;
	return t_clock;
}

static pthread_t g_main_thread;
static atomic_uint g_ticks_off_main, g_renders_off_main;

/* A source that costs tick_ns and render_ns of the thread clock, counts
 * where it ran, and draws as a mesh. */
typedef struct probe {
	eng_source base;
	eng_source *mesh;
	uint64_t tick_ns, render_ns;
	atomic_uint ticks;
} probe;

static void probe_tick(eng_source *s, double dt)
{
	probe *p = (probe *)s;
	t_clock += p->tick_ns;
	p->mesh->type->tick(p->mesh, dt);
	atomic_fetch_add(&p->ticks, 1);
	if (!pthread_equal(pthread_self(), g_main_thread))
		atomic_fetch_add(&g_ticks_off_main, 1);
}

static void probe_render(eng_source *s, const eng_view *v)
{
	probe *p = (probe *)s;
	t_clock += p->render_ns;
	p->mesh->type->render(p->mesh, v);
	if (!pthread_equal(pthread_self(), g_main_thread))
		atomic_fetch_add(&g_renders_off_main, 1);
}

static void probe_destroy(eng_source *s)
{
	probe *p = (probe *)s;
	p->mesh->type->destroy(p->mesh);
	free(p);
}

static const eng_source_type probe_type = {
	.name = "probe", .tick = probe_tick, .render = probe_render, .destroy = probe_destroy};

static eng_source *probe_create(int i)
{
	probe *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->base.type = &probe_type;
	snprintf(p->base.name, sizeof p->base.name, "probe %d", i);
	p->base.scale = 1;
	p->mesh = mesh(i);
	p->tick_ns = 1000 * (uint64_t)(i + 1);
	p->render_ns = 300 * (uint64_t)(i + 1);
	if (!p->mesh) {
		free(p);
		return NULL;
	}
	return &p->base;
}

#define PROBES 10

/* Ten probes on 3 tick and 4 record threads in two views: every tick and
 * render where the engine says, each once a frame, and every figure
 * exact - CPU times on the threads' clocks, GPU times on the null
 * device's, stamped in the recorders' command lists. */
TEST(tick_and_record_threads_give_every_source_its_exact_figures)
{
	g_main_thread = pthread_self();
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 1000, .vertex_ns = 2},
					    2, 3, 4);
	CHECK(e != NULL);
	CHECK_EQ(eng_tick_threads(e), 3);
	CHECK_EQ(eng_record_threads(e), 4);
	source_profiler_set_clock(thread_clock, NULL);
	eng_source *p[PROBES];
	for (int i = 0; i < PROBES; i++) {
		p[i] = probe_create(i);
		CHECK(p[i] != NULL);
		eng_add_source(e, p[i]);
	}
	atomic_store(&g_ticks_off_main, 0);
	atomic_store(&g_renders_off_main, 0);
	CHECK(tfx_frames(e, 40));
	eng_null_record r = record();
	CHECK_EQ(r.parallel_passes, 2 * 40);
	CHECK_EQ(r.draws, 2 * 40 * PROBES);
	CHECK_EQ(r.draws_outside_pass, 0);
	CHECK_EQ(r.recorder_overflows, 0);
	CHECK_EQ(atomic_load(&g_ticks_off_main), 40 * PROBES);
	CHECK_EQ(atomic_load(&g_renders_off_main), 2 * 40 * PROBES);
	/* One more frame's draws, in source order (the main view's first):
	 * what each probe drew. */
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	r = record();
	uint32_t vertices[PROBES], n = 0;
	for (uint32_t i = 0; i < r.n_events && n < PROBES; i++)
		if (r.events[i].call == ENG_NULL_DRAW)
			vertices[n++] = r.events[i].b;
	CHECK_EQ(n, PROBES);
	for (int i = 0; i < PROBES; i++) {
		CHECK_EQ(atomic_load(&((probe *)p[i])->ticks), 41);
		profiler_result_t res = tfx_result(p[i]);
		CHECK_EQ(res.tick_avg, 1000ull * (i + 1));
		CHECK_EQ(res.tick_max, 1000ull * (i + 1));
		CHECK_EQ(res.render_avg, 300ull * (i + 1));
		CHECK_EQ(res.render_sum, 2 * 300ull * (i + 1)); /* a render in each view */
		CHECK_EQ(res.render_gpu_avg, 1000 + 2ull * vertices[i]);
		CHECK_EQ(res.render_gpu_max, 1000 + 2ull * vertices[i]);
	}
	source_profiler_stats_t st = tfx_stats();
	CHECK_EQ(st.threads, 3 + 4); /* besides the graphics thread */
	CHECK_EQ(st.records_late, 0);
	CHECK_EQ(st.records_dropped, 0);
	CHECK_EQ(st.threads_refused, 0);
	CHECK_EQ(st.gpu_timers_misplaced, 0);
	CHECK_EQ(st.gpu_timers_unavailable, 0);
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	source_profiler_set_clock(NULL, NULL);
	CHECK_EQ(tfx_finish(e), 0);
}

/* What the GPU runs, and what each source reads, does not depend on how
 * many threads recorded it: the recorders' shares run in source order. */
static void draws_of_one_frame(uint32_t record_threads, uint32_t *counts, uint32_t *n,
			       uint64_t *gpu)
{
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 700, .vertex_ns = 3,
							    .pass_ns = 5000},
					    2, 0, record_threads);
	CHECK(e != NULL);
	eng_source *p[PROBES];
	for (int i = 0; i < PROBES; i++) {
		p[i] = probe_create(i);
		CHECK(p[i] != NULL);
		eng_add_source(e, p[i]);
	}
	CHECK(tfx_frames(e, 20));
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	eng_null_record r = record();
	*n = 0;
	for (uint32_t i = 0; i < r.n_events; i++)
		if (r.events[i].call == ENG_NULL_DRAW)
			counts[(*n)++] = r.events[i].b;
	for (int i = 0; i < PROBES; i++) {
		gpu[2 * i] = tfx_result(p[i]).render_gpu_avg;
		gpu[2 * i + 1] = tfx_result(p[i]).render_gpu_sum;
	}
	CHECK_EQ(tfx_stats().gpu_timers_unavailable, 0);
	CHECK_EQ(tfx_finish(e), 0);
}

TEST(a_frame_recorded_on_threads_runs_and_reads_as_on_one)
{
	uint32_t one[2 * PROBES], many[2 * PROBES], n_one = 0, n_many = 0;
	uint64_t gpu_one[2 * PROBES], gpu_many[2 * PROBES];
	draws_of_one_frame(0, one, &n_one, gpu_one);
	for (uint32_t threads = 2; threads <= 5; threads += 3) {
		draws_of_one_frame(threads, many, &n_many, gpu_many);
		CHECK_EQ(n_many, 2 * PROBES);
		CHECK_EQ(n_many, n_one);
		CHECK(memcmp(one, many, sizeof one) == 0);
		for (int i = 0; i < 2 * PROBES; i++)
			CHECK_EQ(gpu_many[i], gpu_one[i]);
	}
	CHECK_EQ(gpu_one[1], 2 * gpu_one[0]); /* two views */
}

/* The log of the main view's pass shows the recorders' commands run after
 * each other, in recorder order, inside the pass, each source's end
 * stamp right after its draw. */
TEST(recorders_run_in_order_inside_their_pass)
{
	eng_engine *e = null_engine_threads(&(eng_null_desc){.draw_ns = 100}, 2, 0, 3);
	CHECK(e != NULL);
	for (int i = 0; i < 7; i++)
		eng_add_source(e, probe_create(i));
	CHECK(tfx_frames(e, 5));
	eng_null_clear_record();
	CHECK(tfx_frames(e, 1));
	eng_null_record r = record();
	int pass = -1, end = -1, last = -1;
	uint32_t executes = 0, draws_in = 0;
	for (uint32_t i = 0; i < r.n_events && end < 0; i++) {
		const eng_null_event *ev = &r.events[i];
		if (ev->call == ENG_NULL_PASS && pass < 0)
			pass = (int)i;
		if (ev->call == ENG_NULL_EXECUTE) {
			CHECK(pass >= 0);
			CHECK_EQ((int)ev->a, last + 1);
			last = (int)ev->a;
			executes++;
		}
		if (ev->call == ENG_NULL_DRAW && pass >= 0) {
			draws_in++;
			/* A timer's begin stamp just before, its end just after. */
			CHECK(i >= 3 && i + 1 < r.n_events);
			CHECK_EQ(r.events[i + 1].call, ENG_NULL_STAMP);
			CHECK_EQ(r.events[i + 1].c, SP_GPU_STAMP_TIMER_END);
		}
		if (ev->call == ENG_NULL_END_PASS && pass >= 0)
			end = (int)i;
	}
	CHECK_EQ(executes, 3);
	CHECK_EQ(draws_in, 7);
	CHECK(end > pass);
	CHECK_EQ(tfx_finish(e), 0);
}

/* --- compute ----------------------------------------------------------------------- */

/* A particle source simulated on the GPU: its dispatch on the compute
 * queue's clock (far from the graphics clock), its draws on the graphics
 * one; each queue's figure from that queue's stamps alone, the sum of
 * both in render_gpu_sum, the first render (the dispatch, in prepare)
 * in render_gpu_avg; measured alone, both inline. With and without
 * record threads. */
TEST(compute_runs_on_its_own_queue_and_clock_with_exact_figures)
{
	for (uint32_t threads = 0; threads <= 3; threads += 3) {
		eng_engine *e = null_engine_full(
			&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50, .pass_ns = 7000}, 2, 0,
			threads, true);
		CHECK(e != NULL);
		CHECK(eng_gfx_has_compute());
		CHECK_EQ(eng_compute_queue(e), 1);
		CHECK_STR(source_profiler_queue_name(1), "compute");
		eng_source *p = gpu_particles(640); /* 10 workgroups of 64 */
		CHECK(p != NULL);
		eng_add_source(e, p);
		eng_add_source(e, mesh(0));
		CHECK(tfx_frames(e, 30));
		eng_null_record r = record();
		CHECK_EQ(r.dispatches, 30);
		CHECK_EQ(r.groups, 300);
		CHECK_EQ(r.compute_stamps, 2 * 30); /* a timer's two stamps a frame */
		CHECK_EQ(r.compute_ns, ENG_NULL_COMPUTE_CLOCK_START + 30 * 500);
		source_profiler_queue_result_t q[4];
		CHECK_EQ(source_profiler_fill_queue_results(p, q, 4), 2);
		CHECK_EQ(q[0].queue, 0);
		CHECK_EQ(q[0].render_gpu_sum, 2 * 1000); /* a draw in each view */
		CHECK_EQ(q[1].queue, 1);
		CHECK_EQ(q[1].render_gpu_sum, 500);
		CHECK_EQ(q[1].render_gpu_max, 500);
		CHECK_EQ(q[1].gpu_samples, q[0].gpu_samples);
		profiler_result_t res = tfx_result(p);
		CHECK_EQ(res.render_gpu_sum, 2500);
		CHECK_EQ(res.render_gpu_avg, 500); /* the dispatch: the frame's first render */
		/* Its passes: simulate on compute, the views on graphics. */
		uint32_t queues[8];
		source_profiler_pass_result_t pr[8];
		size_t np = source_profiler_fill_pass_results(p, pr, 8);
		CHECK_EQ(np, 3);
		CHECK_EQ(source_profiler_fill_pass_queues(p, queues, 8), 3);
		for (size_t i = 0; i < np; i++) {
			bool sim = strcmp(source_profiler_pass_name(pr[i].pass), "simulate") == 0;
			CHECK_EQ(queues[i], sim ? 1u : 0u);
			CHECK_EQ(pr[i].render_gpu_avg, sim ? 500u : 1000u);
		}
		source_profiler_stats_t st = tfx_stats();
		CHECK_EQ(st.gpu_queues, 2);
		CHECK_EQ(st.gpu_frames_disjoint, 0);
		CHECK_EQ(st.gpu_timers_unavailable, 0);
		CHECK_EQ(st.gpu_timers_misplaced, 0);
		/* Alone: the dispatch inline before its draws. */
		uint64_t ns = 0;
		CHECK(eng_measure_isolated(e, p, 3, &ns) == ENG_OK);
		CHECK_EQ(ns, 2500);
		CHECK(tfx_frames(e, 2));
		CHECK_EQ(tfx_finish(e), 0);
	}
}

/* Without compute on the device the same source simulates on the CPU:
 * one queue, no dispatch. */
TEST(particles_without_compute_simulate_on_the_cpu)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine(&(eng_null_desc){.draw_ns = 1000, .dispatch_ns = 50}, 2);
	CHECK(e != NULL);
	CHECK(!eng_gfx_has_compute());
	CHECK_EQ(eng_compute_queue(e), 0);
	eng_source *p = gpu_particles(640);
	CHECK(p != NULL);
	eng_add_source(e, p);
	CHECK(tfx_frames(e, 20));
	CHECK_EQ(record().dispatches, 0);
	source_profiler_queue_result_t q[4];
	CHECK_EQ(source_profiler_fill_queue_results(p, q, 4), 1);
	CHECK_EQ(tfx_result(p).render_gpu_sum, 2000);
	CHECK(!eng_gfx_make_buffer(&(eng_buffer_desc){.size = 64, .type = ENG_BUFFER_STORAGE}).id);
	CHECK_EQ(tfx_finish(e), 0);
}

/* Misuse of compute is refused and said, and the frame goes on: a draw
 * pipeline dispatched, a compute pipeline drawn with, a vertex buffer as
 * a storage buffer, too many push constants, compute inside a pass. */
TEST(compute_misuse_is_refused_and_the_frame_goes_on)
{
	eng_log_set_misuse_fatal(false); /* misuses the API on purpose (misuse.h) */
	eng_engine *e = null_engine_full(&(eng_null_desc){.dispatch_ns = 50}, 2, 0, 0, true);
	CHECK(e != NULL);
	eng_pipeline cs = eng_gfx_make_compute_pipeline("particles.comp");
	CHECK(cs.id != 0);
	CHECK_EQ(eng_gfx_make_compute_pipeline("particles.comp").id, cs.id); /* cached */
	CHECK(!eng_gfx_make_compute_pipeline("nope.comp").id);
	eng_buffer sb =
		eng_gfx_make_buffer(&(eng_buffer_desc){.size = 256, .type = ENG_BUFFER_STORAGE});
	eng_buffer vb = eng_gfx_make_buffer(&(eng_buffer_desc){.data = (float[4]){0}, .size = 16});
	eng_pipeline draw = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "mesh.vert", .fs = "mesh.frag", .layout = ENG_LAYOUT_MESH});
	CHECK(sb.id && vb.id && draw.id);
	CHECK(!eng_gfx_begin_compute()); /* not in a frame */
	CHECK(eng_gfx_begin_frame());
	CHECK(eng_gfx_begin_compute());
	CHECK(!eng_gfx_begin_compute()); /* already begun */
	eng_gfx_dispatch(draw, sb, sb, NULL, 0, 1);
	eng_gfx_dispatch(cs, vb, sb, NULL, 0, 1);
	eng_gfx_dispatch(cs, sb, sb, (char[256]){0}, 256, 1);
	CHECK_EQ(record().dispatches, 0);
	eng_gfx_dispatch(cs, sb, sb, (char[16]){0}, 16, 2);
	CHECK_EQ(record().dispatches, 1);
	eng_gfx_end_compute();
	eng_gfx_begin_pass(&(eng_pass_desc){0});
	CHECK(!eng_gfx_begin_compute()); /* inside a pass */
	eng_gfx_apply_pipeline(cs);      /* refused: compute */
	eng_gfx_draw(0, 3, 1);
	CHECK_EQ(record().draws, 0);
	eng_gfx_end_pass();
	CHECK(eng_gfx_end_frame() == ENG_OK);
	eng_gfx_destroy_buffer(sb);
	eng_gfx_destroy_buffer(vb);
	CHECK(tfx_frames(e, 2));
	CHECK_EQ(tfx_finish(e), 0);
}
