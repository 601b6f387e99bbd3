/* The live view's work counters with exact numbers: a profiler fed by hand
 * (the injected clock and a fake GPU backend that counts every counter but
 * compute invocations), then a server read over a socket. Each source's
 * work and each pass's in the snapshot (avg, max, last, frames; null for
 * the counter the device does not count, for a source never drawn, for
 * everything while work counting is off), the frame's totals, the CSV row
 * for row equal to the profiler's own CSV (its work columns included, n/a
 * and empty as it writes them) and /metrics' work gauges. */
#include "check.h"
#include "fixture.h"
#include "live_client.h"

#include "srcprof/gpu_timer.h"
#include "srcprof/live.h"

#include <cjson/cJSON.h>

#define FRAMES 10 /* 9 counted: the last is still in flight */
#define COUNTED_FRAMES (FRAMES - 1)
#define QUERIES 1024
#define SETS ((QUERIES - 2) / 2)

enum { V, P, VS, CIN, COUT, FS, CS };

/* --- A GPU that counts: its running counters, copied at each set's ends ------- */

static struct {
	uint64_t now[SOURCE_PROFILER_COUNTERS]; /* what the GPU did so far */
	uint64_t stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][QUERIES];
	uint64_t begin[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][SETS][SOURCE_PROFILER_COUNTERS];
	uint64_t counts[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][SETS][SOURCE_PROFILER_COUNTERS];
	uint8_t ended[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][SETS];
} g_gpu;

static uint32_t w_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user, (void)slot;
	return queries < QUERIES ? queries : QUERIES;
}

static void w_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)user, (void)kind;
	if (query < QUERIES)
		g_gpu.stamps[slot][query] = fx_gpu_now;
}

static sp_gpu_read w_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	(void)user;
	memcpy(ns, g_gpu.stamps[slot], (count < QUERIES ? count : QUERIES) * sizeof *ns);
	return SP_GPU_READ_OK;
}

static void w_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	(void)user, (void)cmd;
	if (index >= SETS)
		return;
	memcpy(g_gpu.begin[slot][index], g_gpu.now, sizeof g_gpu.now);
	g_gpu.ended[slot][index] = 0;
}

static void w_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	(void)user, (void)cmd;
	if (index >= SETS)
		return;
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		g_gpu.counts[slot][index][c] = g_gpu.now[c] - g_gpu.begin[slot][index][c];
	/* What a device gives for a counter it does not count: anything. */
	g_gpu.counts[slot][index][CS] = 77;
	g_gpu.ended[slot][index] = 1;
}

static sp_gpu_read w_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
			       uint8_t *avail)
{
	(void)user;
	for (uint32_t i = 0; i < count && i < SETS; i++) {
		memcpy(values + (size_t)i * SOURCE_PROFILER_COUNTERS, g_gpu.counts[slot][i],
		       sizeof g_gpu.counts[slot][i]);
		avail[i] = g_gpu.ended[slot][i];
	}
	return SP_GPU_READ_OK;
}

/* --- The scene ------------------------------------------------------------------- */

static int sphere, quad, logic;

/* A render of `source` that makes the GPU do `work` (indexed by counter). */
static void render(const void *source, const uint64_t work[SOURCE_PROFILER_COUNTERS])
{
	sp_gpu_timer *timer;
	uint64_t t = source_profiler_source_render_begin(&timer);
	fx_now += 1000;
	fx_gpu_now += 2000;
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		g_gpu.now[c] += work[c];
	source_profiler_source_render_end(source, t, timer);
}

/* FRAMES frames: the sphere drawn in "shadow" and "main", the quad in
 * "main" with 1000 + 100 f fragments in frame f, logic ticked and never
 * drawn. `counting`: the GPU backend counts work (else the fixture's,
 * which counts nothing); `work`: work counting asked for. */
static void run_frames(bool counting, bool work)
{
	fx_init(true);
	memset(&g_gpu, 0, sizeof g_gpu);
	if (counting)
		source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
			.mode = "fake-counting",
			.reserve = w_reserve,
			.write = w_write,
			.read = w_read,
			.work_counters = (1u << SOURCE_PROFILER_COUNTERS) - 1u - (1u << CS),
			.work_begin = w_work_begin,
			.work_end = w_work_end,
			.read_work = w_read_work,
		});
	source_profiler_work_enable(work);
	const struct {
		const void *key;
		const char *name, *type;
	} names[] = {{&sphere, "sphere", "mesh"}, {&quad, "quad", "mesh"}, {&logic, "logic", "logic"}};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		source_profiler_set_source_name(names[i].key, names[i].name);
		srcprof_live_set_source_type(names[i].key, names[i].type);
	}
	uint32_t shadow = source_profiler_pass_id("shadow"), main_pass = source_profiler_pass_id("main");
	for (int f = 0; f < FRAMES; f++) {
		fx_begin();
		fx_tick(&sphere, 100);
		fx_tick(&quad, 100);
		fx_tick(&logic, 300);
		fx_render_begin();
		source_profiler_set_pass(shadow);
		render(&sphere, (uint64_t[SOURCE_PROFILER_COUNTERS]){[V] = 300, [P] = 100, [VS] = 300, [CIN] = 100, [COUT] = 100});
		source_profiler_set_pass(main_pass);
		render(&sphere, (uint64_t[SOURCE_PROFILER_COUNTERS]){[V] = 300, [P] = 100, [VS] = 240, [CIN] = 100, [COUT] = 90,
					     [FS] = 5000});
		render(&quad, (uint64_t[SOURCE_PROFILER_COUNTERS]){[V] = 4, [P] = 2, [VS] = 4, [CIN] = 2, [COUT] = 2,
					   [FS] = 1000 + 100 * (uint64_t)f});
		fx_end();
	}
}

static srcprof_live *start_server(void)
{
	srcprof_live *live = srcprof_live_start(&(srcprof_live_desc){.program = "test_live_work"});
	if (!live)
		printf("srcprof_live_start: %s\n", srcprof_live_error());
	return live;
}

/* The snapshot, the CSV check and /metrics of a server started on the
 * frames run. */
typedef struct answers {
	cJSON *snap;
	char *metrics, *csv;
	bool csv_ok;
} answers;

static answers ask(void)
{
	answers a = {0};
	srcprof_live *live = start_server();
	if (!live)
		return a;
	char *json = live_get(live, "/api/v1/snapshot");
	a.metrics = live_get(live, "/metrics");
	a.csv = live_get(live, "/api/v1/snapshot?format=csv");
	a.csv_ok = live_csv_equals_the_profilers(live);
	srcprof_live_stop(live);
	a.snap = json ? cJSON_Parse(json) : NULL;
	free(json);
	return a;
}

static void answers_free(answers *a)
{
	cJSON_Delete(a->snap);
	free(a->metrics);
	free(a->csv);
}

/* work.counters[key] of a work object: {avg, max, last} or null. */
static const cJSON *counter(const cJSON *work, const char *key)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(work, "counters"), key);
}

/* The counter is there with exactly these figures. */
static bool figures(const cJSON *work, const char *key, int64_t avg, int64_t max, int64_t last)
{
	const cJSON *c = counter(work, key);
	bool ok = live_num(c, "avg") == avg && live_num(c, "max") == max && live_num(c, "last") == last;
	if (!ok)
		printf("%s: avg %lld max %lld last %lld, not %lld %lld %lld\n", key,
		       (long long)live_num(c, "avg"), (long long)live_num(c, "max"),
		       (long long)live_num(c, "last"), (long long)avg, (long long)max, (long long)last);
	return ok;
}

static const cJSON *pass_named(const cJSON *source, const char *name)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(source, "passes"))
		if (!strcmp(live_str(p, "name"), name))
			return p;
	return NULL;
}

/* --- Cases ------------------------------------------------------------------------- */

TEST(each_source_pass_and_frame_has_its_exact_work)
{
	run_frames(true, true);
	answers a = ask();
	CHECK(a.snap && a.metrics && a.csv);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(a.snap, "work_enabled")));

	/* The sphere: both passes every frame, the same counts each time. */
	const cJSON *s = live_source_named(a.snap, "sphere");
	CHECK(s);
	const cJSON *w = cJSON_GetObjectItem(s, "work");
	CHECK_EQ(live_num(w, "frames"), COUNTED_FRAMES);
	CHECK(figures(w, "vertices", 600, 600, 600));
	CHECK(figures(w, "primitives", 200, 200, 200));
	CHECK(figures(w, "vs_invocations", 540, 540, 540));
	CHECK(figures(w, "clip_in", 200, 200, 200));
	CHECK(figures(w, "clip_out", 190, 190, 190));
	CHECK(figures(w, "fs_invocations", 5000, 5000, 5000));
	/* Not counted by the device: null, whatever it read. */
	CHECK(cJSON_IsNull(counter(w, "cs_invocations")));
	const cJSON *p = pass_named(s, "shadow");
	CHECK(p);
	CHECK_EQ(live_num(cJSON_GetObjectItem(p, "work"), "frames"), COUNTED_FRAMES);
	CHECK(figures(cJSON_GetObjectItem(p, "work"), "vs_invocations", 300, 300, 300));
	CHECK(figures(cJSON_GetObjectItem(p, "work"), "fs_invocations", 0, 0, 0));
	p = pass_named(s, "main");
	CHECK(p);
	CHECK(figures(cJSON_GetObjectItem(p, "work"), "vs_invocations", 240, 240, 240));
	CHECK(figures(cJSON_GetObjectItem(p, "work"), "clip_out", 90, 90, 90));
	CHECK(figures(cJSON_GetObjectItem(p, "work"), "fs_invocations", 5000, 5000, 5000));
	CHECK(cJSON_IsNull(counter(cJSON_GetObjectItem(p, "work"), "cs_invocations")));

	/* The quad: 1000 + 100 f fragments in frames 0 to 8 (the 10th is in
	 * flight): 1400 on average, 1800 at most and last. */
	s = live_source_named(a.snap, "quad");
	CHECK(s);
	w = cJSON_GetObjectItem(s, "work");
	CHECK_EQ(live_num(w, "frames"), COUNTED_FRAMES);
	CHECK(figures(w, "vertices", 4, 4, 4));
	CHECK(figures(w, "fs_invocations", 1400, 1800, 1800));
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(s, "passes")), 1);
	CHECK(figures(cJSON_GetObjectItem(pass_named(s, "main"), "work"), "fs_invocations", 1400,
		      1800, 1800));

	/* logic: figures, but never drawn, so no work. */
	s = live_source_named(a.snap, "logic");
	CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "have")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(s, "work")));

	/* The frame: every counted source added up. */
	w = cJSON_GetObjectItem(a.snap, "frame_work");
	CHECK_EQ(live_num(w, "frames"), COUNTED_FRAMES);
	CHECK(figures(w, "vertices", 604, 604, 604));
	CHECK(figures(w, "clip_out", 192, 192, 192));
	CHECK(figures(w, "fs_invocations", 6400, 6800, 6800));
	CHECK(cJSON_IsNull(counter(w, "cs_invocations")));

	/* The CSV: the profiler's columns, its counts and n/a, then type. */
	CHECK(a.csv_ok);
	CHECK(strstr(a.csv, ",9,600,200,540,200,190,5000,n/a,mesh\n"));
	CHECK(strstr(a.csv, ",9,4,2,4,2,2,1400,n/a,mesh\n"));
	CHECK(strstr(a.csv, "\nlogic,"));
	CHECK(strstr(a.csv, ",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,logic\n"));

	const char *wants[] = {
		"\nsrcprof_work_enabled 1\n",
		"\nsrcprof_frame_work_per_frame{counter=\"fs_invocations\"} 6400\n",
		"\nsrcprof_source_work_per_frame{source=\"sphere\",type=\"mesh\",counter=\"vertices\"} 600\n",
		"\nsrcprof_source_work_per_frame{source=\"sphere\",type=\"mesh\",counter=\"clip_out\"} 190\n",
		"\nsrcprof_source_work_per_frame{source=\"quad\",type=\"mesh\",counter=\"fs_invocations\"} "
		"1400\n",
		"\n# TYPE srcprof_source_work_per_frame gauge\n",
	};
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
		if (!strstr(a.metrics, wants[i]))
			printf("/metrics lacks %s", wants[i] + 1);
		CHECK(strstr(a.metrics, wants[i]));
	}
	/* Only counted counters, only sources with counts: 2 x 6. */
	int gauges = 0;
	for (const char *m = a.metrics; (m = strstr(m, "\nsrcprof_source_work_per_frame{")); m++)
		gauges++;
	CHECK_EQ(gauges, 12);
	CHECK(!strstr(a.metrics, "cs_invocations"));
	CHECK(!strstr(a.metrics, "source=\"logic\",type=\"logic\",counter="));
	CHECK(live_metrics_valid(a.metrics));
	answers_free(&a);
	source_profiler_shutdown();
}

TEST(work_counting_off_gives_null_work_and_empty_columns)
{
	run_frames(true, false);
	answers a = ask();
	CHECK(a.snap && a.metrics && a.csv);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(a.snap, "work_enabled")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(a.snap, "frame_work")));
	const cJSON *s;
	int sources = 0;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(a.snap, "sources")) {
		sources++;
		CHECK(cJSON_IsNull(cJSON_GetObjectItem(s, "work")));
		const cJSON *p;
		cJSON_ArrayForEach(p, cJSON_GetObjectItem(s, "passes"))
			CHECK(cJSON_IsNull(cJSON_GetObjectItem(p, "work")));
	}
	CHECK_EQ(sources, 3);
	/* The CSV's work columns are empty, as the profiler writes them. */
	CHECK(a.csv_ok);
	CHECK(strstr(a.csv, ",,,,,,,,,mesh\n"));
	CHECK(strstr(a.metrics, "\nsrcprof_work_enabled 0\n"));
	CHECK(!strstr(a.metrics, "\nsrcprof_source_work_per_frame{"));
	CHECK(!strstr(a.metrics, "\nsrcprof_frame_work_per_frame{"));
	CHECK(live_metrics_valid(a.metrics));
	answers_free(&a);
	source_profiler_shutdown();
}

TEST(work_counting_on_a_device_that_counts_nothing_reads_no_counted_frame)
{
	run_frames(false, true);
	answers a = ask();
	CHECK(a.snap && a.metrics && a.csv);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(a.snap, "work_enabled")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(a.snap, "frame_work")));
	const cJSON *s = live_source_named(a.snap, "sphere");
	CHECK(s && live_num(s, "gpu_samples") == COUNTED_FRAMES);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(s, "work")));
	/* The CSV says 0 counted frames and n/a, as the profiler's. */
	CHECK(a.csv_ok);
	CHECK(strstr(a.csv, ",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,mesh\n"));
	CHECK(strstr(a.metrics, "\nsrcprof_work_enabled 1\n"));
	CHECK(!strstr(a.metrics, "\nsrcprof_source_work_per_frame{"));
	CHECK(live_metrics_valid(a.metrics));
	answers_free(&a);
	source_profiler_shutdown();
}
