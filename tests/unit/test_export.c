/* CSV snapshots and trace captures: structure, names, nesting. The trace
 * is parsed back with cJSON. */
#include "check.h"
#include "fixture.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"

#include <cjson/cJSON.h>

static int a, b;
static const void *const both[] = {&a, &b};

static char *g_buf;
static size_t g_len;

TEST(csv_has_units_in_the_header_and_one_row_per_source)
{
	fx_init(true);
	source_profiler_set_source_name(&a, "alpha");
	source_profiler_set_source_name(&b, "b, \"quoted\"");
	for (int f = 0; f < 3; f++)
		fx_frame(both, 2, 10, 20, 30);
	FILE *f = open_memstream(&g_buf, &g_len);
	CHECK_EQ(source_profiler_write_csv(f), 2);
	fclose(f);
	const char *header = "source,tick_avg_ns,tick_max_ns,render_avg_ns,render_max_ns,"
			     "render_sum_ns,render_gpu_avg_ns,render_gpu_max_ns,render_gpu_sum_ns,"
			     "async_input_fps,async_input_best_ns,async_input_worst_ns,"
			     "async_rendered_fps,async_rendered_best_ns,async_rendered_worst_ns,"
			     "gpu_mode,cpu_samples,gpu_samples,tick_p50_ns,render_p50_ns,"
			     "render_sum_p50_ns,render_gpu_p50_ns,render_gpu_sum_p50_ns,gpu_resolution_ns,"
			     "render_sum_ci95_ns,render_gpu_sum_ci95_ns,gpu_sum_by_queue_ns,work_frames,"
			     "input_vertices_per_frame,input_primitives_per_frame,"
			     "vs_invocations_per_frame,clipping_invocations_per_frame,"
			     "clipping_primitives_per_frame,fs_invocations_per_frame,"
			     "cs_invocations_per_frame\n";
	CHECK(strncmp(g_buf, header, strlen(header)) == 0);
	CHECK(strstr(g_buf,
		     "\nalpha,10,10,20,20,20,30,30,30,0.000,0,0,0.000,0,0,fake,2,2,10,20,20,30,30,1,0,0,"
		     "graphics:30,,,,,,,,\n")); /* no work counted: empty */
	CHECK(strstr(g_buf, "\n\"b, \"\"quoted\"\"\",10,10,20,20,20,30,30,30,"));
	free(g_buf);
}

/* A name starting with '#' is quoted: its row must not read as one of
 * the file's comment lines. */
TEST(csv_quotes_a_name_that_starts_with_a_hash)
{
	fx_init(true);
	source_profiler_set_source_name(&a, "#1 camera");
	for (int f = 0; f < 3; f++)
		fx_frame(both, 1, 10, 20, 30);
	FILE *f = open_memstream(&g_buf, &g_len);
	CHECK_EQ(source_profiler_write_csv(f), 1);
	fclose(f);
	CHECK(strstr(g_buf, "\n\"#1 camera\",10,"));
	CHECK(!strstr(g_buf, "\n#1 camera"));
	free(g_buf);
}

TEST(pass_csv_has_one_row_per_source_and_pass)
{
	fx_init(false);
	uint32_t p1 = source_profiler_pass_id("main"), p2 = source_profiler_pass_id("blur-h");
	for (int f = 0; f < 3; f++) {
		fx_begin();
		fx_tick(&a, 10);
		fx_render_begin();
		source_profiler_set_pass(p1);
		fx_render(&a, 7, 0);
		source_profiler_set_pass(p2);
		fx_render(&a, 9, 0);
		fx_end();
	}
	FILE *f = open_memstream(&g_buf, &g_len);
	CHECK_EQ(source_profiler_write_pass_csv(f), 2);
	fclose(f);
	/* The queue its renders went to: the first (a backend is installed,
	 * GPU timing off). */
	CHECK(strstr(g_buf, ",main,7,7,0,0,off,graphics,,,,,,,,\n"));
	CHECK(strstr(g_buf, ",blur-h,9,9,0,0,off,graphics,,,,,,,,\n"));
	free(g_buf);
}

/* X events of one track must nest: sorted by start (longer first on a
 * tie), each either ends before the enclosing one ends or starts after it
 * ended. Returns the number of X events checked, -1 on a violation. */
typedef struct xev {
	long long ts, end;
} xev;

static int by_start(const void *p, const void *q)
{
	const xev *x = p, *y = q;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

static long long ns_of(const cJSON *num)
{
	return llround(num->valuedouble * 1000.0);
}

static int check_nesting(const cJSON *events, int tid)
{
	xev *v = calloc(100000, sizeof *v);
	int n = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *ph = cJSON_GetObjectItem(e, "ph");
		if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "X") != 0)
			continue;
		if (cJSON_GetObjectItem(e, "tid")->valueint != tid || n == 100000)
			continue;
		long long ts = ns_of(cJSON_GetObjectItem(e, "ts"));
		v[n++] = (xev){ts, ts + ns_of(cJSON_GetObjectItem(e, "dur"))};
	}
	qsort(v, (size_t)n, sizeof *v, by_start);
	long long stack[64];
	int depth = 0;
	for (int i = 0; i < n; i++) {
		while (depth && v[i].ts >= stack[depth - 1])
			depth--;
		if (depth && v[i].end > stack[depth - 1]) {
			fprintf(stderr, "tid %d: [%lld, %lld] crosses an event ending at %lld\n", tid,
				v[i].ts, v[i].end, stack[depth - 1]);
			free(v);
			return -1;
		}
		if (depth == 64) {
			free(v);
			return -1;
		}
		stack[depth++] = v[i].end;
	}
	free(v);
	return n;
}

static int track_of(const cJSON *events, const char *name)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *n = cJSON_GetObjectItem(e, "name");
		const cJSON *args = cJSON_GetObjectItem(e, "args");
		if (cJSON_IsString(n) && strcmp(n->valuestring, "thread_name") == 0 && args &&
		    strcmp(cJSON_GetObjectItem(args, "name")->valuestring, name) == 0)
			return cJSON_GetObjectItem(e, "tid")->valueint;
	}
	return -1;
}

static int count_events(const cJSON *events, const char *cat, int tid)
{
	int n = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *c = cJSON_GetObjectItem(e, "cat");
		if (cJSON_IsString(c) && strcmp(c->valuestring, cat) == 0 &&
		    (tid < 0 || cJSON_GetObjectItem(e, "tid")->valueint == tid))
			n++;
	}
	return n;
}

static void traced_frame(void)
{
	PERF_BLOCK("frame");
	fx_begin();
	{
		PERF_BLOCK("tick");
		fx_now += 1;
		fx_tick(&a, 100);
		fx_tick(&b, 100);
		fx_now += 1;
	}
	{
		PERF_BLOCK("render");
		fx_render_begin();
		source_profiler_set_pass(source_profiler_pass_id("main"));
		fx_render(&a, 50, 500);
		fx_render(&b, 50, 700);
		source_profiler_set_pass(source_profiler_pass_id("preview"));
		fx_render(&a, 50, 200);
		fx_render(&b, 50, 300);
		fx_now += 1;
	}
	fx_end();
	fx_now += 1000;
}

static cJSON *capture(int frames, void (*spoil)(void))
{
	fx_init(true);
	source_profiler_trace_name_thread("graphics");
	source_profiler_set_source_name(&a, "alpha");
	source_profiler_set_source_name(&b, "beta");
	if (!source_profiler_trace_start(&(source_profiler_trace_desc){.duration_ns = 1000000000}))
		return NULL;
	for (int f = 0; f < frames; f++) {
		traced_frame();
		if (spoil)
			spoil();
	}
	source_profiler_trace_stop();
	if (source_profiler_trace_state() != SOURCE_PROFILER_TRACE_FINISHED)
		return NULL;
	FILE *f = open_memstream(&g_buf, &g_len);
	int rc = source_profiler_trace_write_json(f);
	fclose(f);
	source_profiler_trace_discard();
	cJSON *root = rc == 0 ? cJSON_Parse(g_buf) : NULL;
	free(g_buf);
	return root;
}

TEST(trace_is_chrome_json_with_nested_tracks)
{
	cJSON *root = capture(6, NULL);
	CHECK(root != NULL);
	const cJSON *events = cJSON_GetObjectItem(root, "traceEvents");
	CHECK(cJSON_IsArray(events));
	CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "otherData"), "gpu_mode")->valuestring,
		  "fake");
	int graphics = track_of(events, "graphics");
	int gpu = track_of(events, "GPU (fake)");
	int frames = track_of(events, "frames");
	CHECK(graphics >= 0 && gpu >= 0 && frames >= 0);
	CHECK(graphics != gpu);
	/* 6 frames: 2 ticks, 4 renders and 3 blocks a frame on the graphics
	 * track; frames 1-5 are collected, so 5 GPU frames of 4 timers. */
	CHECK_EQ(count_events(events, "tick", graphics), 12);
	CHECK_EQ(count_events(events, "render", graphics), 24);
	CHECK_EQ(count_events(events, "block", graphics), 18);
	CHECK_EQ(count_events(events, "gpu", gpu), 20);
	/* The figures' sample counts at writing: frames 1-5 collected. */
	const cJSON *srcs = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "otherData"), "sources");
	CHECK(cJSON_IsArray(srcs));
	CHECK_EQ(cJSON_GetArraySize(srcs), 2);
	const cJSON *s0 = cJSON_GetArrayItem(srcs, 0);
	CHECK_EQ(cJSON_GetObjectItem(s0, "cpu_samples")->valueint, 5);
	CHECK_EQ(cJSON_GetObjectItem(s0, "gpu_samples")->valueint, 5);
	CHECK_EQ(count_events(events, "gpu_frame", gpu), 5);
	CHECK(count_events(events, "frame", frames) >= 5);
	CHECK(check_nesting(events, graphics) == 12 + 24 + 18);
	CHECK(check_nesting(events, gpu) == 25);
	int counters = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *ph = cJSON_GetObjectItem(e, "ph");
		if (strcmp(ph->valuestring, "C") == 0) {
			CHECK_STR(cJSON_GetObjectItem(e, "name")->valuestring, "frame time");
			counters++;
		}
		const cJSON *cat = cJSON_GetObjectItem(e, "cat");
		if (cat && strcmp(cat->valuestring, "gpu") == 0) {
			const cJSON *args = cJSON_GetObjectItem(e, "args");
			const char *pass = cJSON_GetObjectItem(args, "pass")->valuestring;
			CHECK(strcmp(pass, "main") == 0 || strcmp(pass, "preview") == 0);
			const char *name = cJSON_GetObjectItem(e, "name")->valuestring;
			CHECK(strcmp(name, "alpha") == 0 || strcmp(name, "beta") == 0);
		}
	}
	CHECK(counters >= 5);
	cJSON_Delete(root);
}

/* Makes the next collected frame's GPU timers overlap: the second timer of
 * the frame begins before the first ends (a pipelining GPU does this). */
static void overlap(void)
{
	for (int s = 0; s < SOURCE_PROFILER_FRAME_BUFFER_SIZE; s++)
		fx_backend.stamps[s][4] = fx_backend.stamps[s][3] - 100;
}

TEST(trace_clamps_overlapping_gpu_events_so_they_nest)
{
	cJSON *root = capture(6, overlap);
	CHECK(root != NULL);
	const cJSON *events = cJSON_GetObjectItem(root, "traceEvents");
	int gpu = track_of(events, "GPU (fake)");
	CHECK(check_nesting(events, gpu) > 0);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "otherData"), "gpu_events_clamped")
		      ->valueint > 0);
	cJSON_Delete(root);
}

TEST(trace_finishes_after_its_span)
{
	fx_init(true);
	CHECK(source_profiler_trace_start(&(source_profiler_trace_desc){.duration_ns = 5000}));
	fx_frame(both, 2, 10, 10, 10);
	CHECK_EQ(source_profiler_trace_state(), SOURCE_PROFILER_TRACE_RECORDING);
	fx_now += 5000;
	fx_frame(both, 2, 10, 10, 10);
	CHECK_EQ(source_profiler_trace_state(), SOURCE_PROFILER_TRACE_FINISHED);
	CHECK(!source_profiler_trace_start(NULL)); /* one capture at a time */
	source_profiler_trace_discard();
	CHECK_EQ(source_profiler_trace_state(), SOURCE_PROFILER_TRACE_IDLE);
}

TEST(trace_counts_events_that_did_not_fit)
{
	fx_init(true);
	CHECK(source_profiler_trace_start(&(source_profiler_trace_desc){.max_events = 10}));
	for (int f = 0; f < 4; f++)
		fx_frame(both, 2, 10, 10, 10);
	source_profiler_trace_info info;
	source_profiler_trace_get_info(&info);
	CHECK_EQ(info.events, 10);
	CHECK(info.dropped > 0);
	CHECK_EQ(source_profiler_trace_state(), SOURCE_PROFILER_TRACE_FINISHED);
	FILE *f = open_memstream(&g_buf, &g_len);
	CHECK_EQ(source_profiler_trace_write_json(f), 0);
	fclose(f);
	cJSON *root = cJSON_Parse(g_buf);
	CHECK(root != NULL);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "otherData"), "dropped_events")
		      ->valueint > 0);
	cJSON_Delete(root);
	free(g_buf);
	source_profiler_trace_discard();
}

TEST(write_json_without_a_finished_capture_fails)
{
	fx_init(true);
	CHECK_EQ(source_profiler_trace_write_json(stdout), -1);
}
