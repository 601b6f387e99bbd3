/* The live view's figures of several threads and queues, with exact
 * numbers: a profiler fed by hand (the injected clock, the fixture's fake
 * backend for the graphics queue and another for a "compute" queue that
 * stamps named command buffers), recording threads of which the profiler
 * takes only one, then a server read over a socket. The snapshot's
 * per-queue sums and each pass's queue, the profiler's queues and thread
 * counters, the CSV row for row equal to the profiler's own CSV (its
 * gpu_sum_by_queue_ns and work columns included) and /metrics' queue-labelled
 * series, each series once. */
#include "check.h"
#include "fixture.h"
#include "live_client.h"

#include "srcprof/export.h"
#include "srcprof/live.h"

#include <cjson/cJSON.h>

#include <pthread.h>

#define FRAMES 10 /* 9 collected */

/* --- The compute queue: stamps written into named command buffers ------------- */

#define QUERIES 4096

static struct {
	uint64_t now; /* its GPU clock, far from the graphics queue's */
	uint64_t stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][QUERIES];
} g_compute;

static uint32_t c_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user, (void)slot;
	return queries < QUERIES ? queries : QUERIES;
}

static void c_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user, (void)kind;
	if (query < QUERIES)
		g_compute.stamps[slot][query] = g_compute.now;
}

static void c_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)cmd;
	c_write(user, slot, query, kind);
}

static sp_gpu_read c_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	memcpy(ns, g_compute.stamps[slot], (count < QUERIES ? count : QUERIES) * sizeof *ns);
	return SP_GPU_READ_OK;
}

/* --- Recording threads: each runs one job at a time, the caller waiting ------- */

typedef struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const void *tick; /* a source to tick, or NULL */
	bool busy, quit;
} worker;

static void *worker_main(void *p)
{
	worker *w = p;
	pthread_mutex_lock(&w->lock);
	while (!w->quit) {
		if (w->busy) {
			fx_tick(w->tick, 50);
			w->busy = false;
			pthread_cond_broadcast(&w->cond);
		}
		pthread_cond_wait(&w->cond, &w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void worker_tick(worker *w, const void *source)
{
	pthread_mutex_lock(&w->lock);
	w->tick = source;
	w->busy = true;
	pthread_cond_broadcast(&w->cond);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

static void worker_start(worker *w)
{
	memset(w, 0, sizeof *w);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	pthread_create(&w->thread, NULL, worker_main, w);
}

static void worker_stop(worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

/* --- The scene ------------------------------------------------------------------- */

static int fountain, mesh, logic, refused;

/* A render of `source` costing `gpu_ns` on queue `queue` (1: the compute
 * queue's command buffer named first, then the graphics thread's own
 * stamps again). */
static void render(const void *source, uint32_t queue, uint64_t gpu_ns)
{
	if (queue)
		source_profiler_set_command_buffer(queue, (void *)(uintptr_t)0x10);
	sp_gpu_timer *timer;
	uint64_t t = source_profiler_source_render_begin(&timer);
	fx_now += 1000;
	if (queue)
		g_compute.now += gpu_ns;
	else
		fx_gpu_now += gpu_ns;
	source_profiler_source_render_end(source, t, timer);
	if (queue)
		source_profiler_set_command_buffer(0, NULL);
}

/* FRAMES frames: fountain simulated on `sim_queue` (300 ns, 900 in frame
 * 3) and drawn in main (1000 ns on the graphics queue); mesh drawn in main
 * on the graphics queue (2000 ns) and, with two queues, in main on the
 * compute queue too (500 ns): one pass on two queues is two passes. logic
 * is ticked by a recording thread and never rendered; a second recording
 * thread is refused (one thread allowed). */
static void run_frames(bool two_queues, worker *w)
{
	fx_init(true);
	memset(&g_compute, 0, sizeof g_compute);
	g_compute.now = 900000000000ull;
	if (two_queues) {
		sp_gpu_timer_backend compute = {.mode = "fake-compute",
						.reserve = c_reserve,
						.write = c_write,
						.read = c_read,
						.write_cmd = c_write_cmd};
		CHECK_EQ(source_profiler_add_gpu_queue(&compute, "compute"), 1);
	}
	source_profiler_set_max_threads(1);
	const struct {
		const void *key;
		const char *name, *type;
	} names[] = {{&fountain, "fountain", "particles"}, {&mesh, "mesh", "mesh"},
		     {&logic, "logic", "logic"}, {&refused, "refused", "logic"}};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		source_profiler_set_source_name(names[i].key, names[i].name);
		srcprof_live_set_source_type(names[i].key, names[i].type);
	}
	uint32_t simulate = source_profiler_pass_id("simulate"), main_pass = source_profiler_pass_id("main");
	for (int f = 0; f < FRAMES; f++) {
		fx_begin();
		fx_tick(&fountain, 100);
		fx_tick(&mesh, 200);
		worker_tick(&w[0], &logic);
		worker_tick(&w[1], &refused);
		fx_render_begin();
		source_profiler_set_pass(simulate);
		render(&fountain, two_queues ? 1 : 0, f == 3 ? 900 : 300);
		source_profiler_set_pass(main_pass);
		render(&fountain, 0, 1000);
		render(&mesh, 0, 2000);
		if (two_queues)
			render(&mesh, 1, 500);
		fx_end();
	}
}

/* --- The server ---------------------------------------------------------------------- */

static srcprof_live *start_server(void)
{
	srcprof_live *live = srcprof_live_start(&(srcprof_live_desc){.program = "test_live_queues"});
	if (!live)
		printf("srcprof_live_start: %s\n", srcprof_live_error());
	return live;
}

/* --- Cases ------------------------------------------------------------------------- */

TEST(two_queues_and_threads_in_the_snapshot_csv_and_metrics)
{
	worker w[2];
	worker_start(&w[0]);
	worker_start(&w[1]);
	run_frames(true, w);
	srcprof_live *live = start_server();
	char *json = live ? live_get(live, "/api/v1/snapshot") : NULL;
	char *metrics = live ? live_get(live, "/metrics") : NULL;
	bool csv_ok = live && live_csv_equals_the_profilers(live);
	srcprof_live_stop(live);
	worker_stop(&w[0]);
	worker_stop(&w[1]);
	CHECK(json && metrics);
	cJSON *snap = cJSON_Parse(json);
	CHECK(snap);

	/* The profiler's queues and threads. */
	const cJSON *p = cJSON_GetObjectItem(snap, "profiler");
	CHECK_EQ(live_num(p, "gpu_queues"), 2);
	const cJSON *queues = cJSON_GetObjectItem(p, "queues");
	CHECK_EQ(cJSON_GetArraySize(queues), 2);
	CHECK_EQ(live_num(cJSON_GetArrayItem(queues, 0), "queue"), 0);
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(queues, 0), "name"), "graphics"));
	CHECK_EQ(live_num(cJSON_GetArrayItem(queues, 1), "queue"), 1);
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(queues, 1), "name"), "compute"));
	CHECK_EQ(live_num(p, "threads"), 1);
	CHECK(live_num(p, "thread_bytes") > 0);
	CHECK_EQ(live_num(p, "threads_refused"), 1);
	CHECK_EQ(live_num(p, "records_late"), 0);
	CHECK_EQ(live_num(p, "records_dropped"), 0);
	CHECK_EQ(live_num(p, "gpu_timers_unavailable"), 0);
	CHECK_EQ(live_num(p, "gpu_timers_misplaced"), 0);
	CHECK_EQ(live_num(p, "gpu_timers_denied"), 0);

	/* fountain: 1000 ns on graphics, (8 x 300 + 900) / 9 = 366 on compute,
	 * its GPU sum (9 x 1000 + 3300) / 9 = 1366. */
	const cJSON *s = live_source_named(snap, "fountain");
	CHECK(s);
	CHECK_EQ(live_num(s, "render_gpu_sum_ns"), 1366);
	const cJSON *q = cJSON_GetObjectItem(s, "queues");
	CHECK_EQ(cJSON_GetArraySize(q), 2);
	const cJSON *g = cJSON_GetArrayItem(q, 0), *c = cJSON_GetArrayItem(q, 1);
	CHECK(!strcmp(live_str(g, "name"), "graphics") && live_num(g, "queue") == 0);
	CHECK_EQ(live_num(g, "render_gpu_sum_ns"), 1000);
	CHECK_EQ(live_num(g, "render_gpu_max_ns"), 1000);
	CHECK_EQ(live_num(g, "gpu_samples"), FRAMES - 1);
	CHECK(!strcmp(live_str(c, "name"), "compute") && live_num(c, "queue") == 1);
	CHECK_EQ(live_num(c, "render_gpu_sum_ns"), 366);
	CHECK_EQ(live_num(c, "render_gpu_max_ns"), 900);
	CHECK_EQ(live_num(c, "gpu_samples"), FRAMES - 1);
	const cJSON *passes = cJSON_GetObjectItem(s, "passes");
	CHECK_EQ(cJSON_GetArraySize(passes), 2);
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 0), "name"), "simulate"));
	CHECK_EQ(live_num(cJSON_GetArrayItem(passes, 0), "queue"), 1);
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 0), "queue_name"), "compute"));
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 1), "queue_name"), "graphics"));

	/* mesh: main on both queues, two passes of the same name. */
	s = live_source_named(snap, "mesh");
	CHECK(s);
	CHECK_EQ(live_num(s, "render_gpu_sum_ns"), 2500);
	q = cJSON_GetObjectItem(s, "queues");
	CHECK_EQ(cJSON_GetArraySize(q), 2);
	CHECK_EQ(live_num(cJSON_GetArrayItem(q, 0), "render_gpu_sum_ns"), 2000);
	CHECK_EQ(live_num(cJSON_GetArrayItem(q, 1), "render_gpu_sum_ns"), 500);
	passes = cJSON_GetObjectItem(s, "passes");
	CHECK_EQ(cJSON_GetArraySize(passes), 2);
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 0), "name"), "main"));
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 1), "name"), "main"));
	CHECK(strcmp(live_str(cJSON_GetArrayItem(passes, 0), "queue_name"),
		     live_str(cJSON_GetArrayItem(passes, 1), "queue_name")) != 0);

	/* logic: ticked by the thread the profiler took, never rendered: no
	 * queue. refused: its thread was refused, so it has no entry. */
	s = live_source_named(snap, "logic");
	CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "have")));
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(s, "queues")), 0);
	CHECK(!live_source_named(snap, "refused"));
	cJSON_Delete(snap);

	CHECK(csv_ok);

	const char *wants[] = {
		"\nsrcprof_source_queue_render_gpu_sum_seconds{source=\"fountain\",type=\"particles\","
		"queue=\"compute\",stat=\"avg\"} 0.000000366\n",
		"\nsrcprof_source_queue_render_gpu_sum_seconds{source=\"fountain\",type=\"particles\","
		"queue=\"compute\",stat=\"max\"} 0.000000900\n",
		"\nsrcprof_source_queue_render_gpu_sum_seconds{source=\"fountain\",type=\"particles\","
		"queue=\"graphics\",stat=\"avg\"} 0.000001000\n",
		"\nsrcprof_source_pass_render_gpu_seconds{source=\"mesh\",type=\"mesh\",pass=\"main\","
		"queue=\"compute\",stat=\"avg\"} 0.000000500\n",
		"\nsrcprof_gpu_queues 2\n",
		"\nsrcprof_gpu_queue_info{queue=\"graphics\",number=\"0\"} 1\n",
		"\nsrcprof_gpu_queue_info{queue=\"compute\",number=\"1\"} 1\n",
		"\nsrcprof_threads_recording 1\n",
		"\nsrcprof_threads_refused_total 1\n",
		"\nsrcprof_records_late_total 0\n",
		"\nsrcprof_gpu_timers_denied_total 0\n",
	};
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
		if (!strstr(metrics, wants[i]))
			printf("/metrics lacks %s", wants[i] + 1);
		CHECK(strstr(metrics, wants[i]));
	}
	CHECK(live_metrics_valid(metrics));
	free(json);
	free(metrics);
	source_profiler_shutdown();
}

TEST(one_queue_adds_no_queue_figures_to_the_sources)
{
	worker w[2];
	worker_start(&w[0]);
	worker_start(&w[1]);
	run_frames(false, w);
	srcprof_live *live = start_server();
	char *json = live ? live_get(live, "/api/v1/snapshot") : NULL;
	char *metrics = live ? live_get(live, "/metrics") : NULL;
	bool csv_ok = live && live_csv_equals_the_profilers(live);
	srcprof_live_stop(live);
	worker_stop(&w[0]);
	worker_stop(&w[1]);
	CHECK(json && metrics);
	cJSON *snap = cJSON_Parse(json);
	CHECK(snap);
	const cJSON *p = cJSON_GetObjectItem(snap, "profiler");
	CHECK_EQ(live_num(p, "gpu_queues"), 1);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(p, "queues")), 1);
	const cJSON *s = live_source_named(snap, "fountain");
	CHECK(s);
	CHECK_EQ(live_num(s, "render_gpu_sum_ns"), 1366);
	CHECK(!cJSON_GetObjectItem(s, "queues"));
	const cJSON *passes = cJSON_GetObjectItem(s, "passes");
	CHECK(!strcmp(live_str(cJSON_GetArrayItem(passes, 0), "queue_name"), "graphics"));
	cJSON_Delete(snap);
	CHECK(csv_ok);
	/* The queue-labelled series are there with one queue too; the pass
	 * series keep their labels. */
	CHECK(strstr(metrics, "\nsrcprof_source_queue_render_gpu_sum_seconds{source=\"fountain\","
			      "type=\"particles\",queue=\"graphics\",stat=\"avg\"} 0.000001366\n"));
	CHECK(strstr(metrics, "\nsrcprof_source_pass_render_gpu_seconds{source=\"fountain\","
			      "type=\"particles\",pass=\"simulate\",stat=\"avg\"} 0.000000366\n"));
	CHECK(live_metrics_valid(metrics));
	free(json);
	free(metrics);
	source_profiler_shutdown();
}
