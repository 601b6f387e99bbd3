/* PERF_BLOCK: nesting, depth, end order, unbalanced ends, scope exit,
 * per-thread frames and routine names. */
#include "check.h"
#include "fixture.h"
#include "srcprof/perf_block.h"

#include <pthread.h>

#ifndef SRCPROF_ENABLE_PROFILER
#error "this test needs the block profiler compiled in"
#endif

static char *g_buf;
static size_t g_len;
static FILE *g_out;

static void open_output(void)
{
	fx_init(false);
	g_out = open_memstream(&g_buf, &g_len);
	perf_block_set_output(g_out);
	perf_block_set_routine("default_croutine");
}

static const char *close_output(void)
{
	perf_block_set_output(NULL);
	fclose(g_out);
	return g_buf;
}

static void inner(void)
{
	PERF_FUNCTION();
	fx_now += 5;
}

TEST(nested_blocks_are_written_in_end_order_with_depths)
{
	open_output();
	fx_now = 1000;
	{
		PERF_BLOCK("frame");
		fx_now += 10;
		{
			PERF_BLOCK("tick");
			fx_now += 20;
			inner();
		}
		fx_now += 1;
	}
	const char *out = close_output();
	CHECK_STR(out, "Frame : default_croutine\n"
		       "3,inner,5,1030,1035\n"
		       "2,tick,25,1010,1035\n"
		       "1,frame,36,1000,1036\n");
	free(g_buf);
}

TEST(perf_block_end_closes_the_innermost_and_extra_ends_are_no_ops)
{
	open_output();
	fx_now = 0;
	PERF_BLOCK_END; /* nothing open: no-op */
	{
		PERF_BLOCK("outer");
		PERF_BLOCK("a");
		fx_now += 3;
		PERF_BLOCK_END; /* closes a */
		PERF_BLOCK("b");
		fx_now += 4;
		PERF_BLOCK_END; /* closes b */
		PERF_BLOCK_END; /* closes outer */
		PERF_BLOCK_END; /* extra */
		fx_now += 100;  /* scope exit must not close anything again */
	}
	PERF_BLOCK_END;
	const char *out = close_output();
	CHECK_STR(out, "Frame : default_croutine\n"
		       "2,a,3,0,3\n"
		       "2,b,4,3,7\n"
		       "1,outer,7,0,7\n");
	free(g_buf);
}

TEST(every_outermost_block_is_its_own_frame)
{
	open_output();
	fx_now = 0;
	for (int i = 0; i < 3; i++) {
		PERF_BLOCK("loop");
		fx_now += 2;
	}
	const char *out = close_output();
	CHECK_STR(out, "Frame : default_croutine\n1,loop,2,0,2\n"
		       "Frame : default_croutine\n1,loop,2,2,4\n"
		       "Frame : default_croutine\n1,loop,2,4,6\n");
	free(g_buf);
}

TEST(routine_name_is_per_thread)
{
	open_output();
	fx_now = 0;
	perf_block_set_routine("render_loop");
	{
		PERF_BLOCK("x");
	}
	perf_block_set_routine("default_croutine");
	const char *out = close_output();
	CHECK_STR(out, "Frame : render_loop\n1,x,0,0,0\n");
	free(g_buf);
}

TEST(no_output_no_frames)
{
	fx_init(false);
	perf_block_set_output(NULL);
	PERF_BLOCK("quiet");
	PERF_BLOCK_END;
	CHECK(1);
}

static void *worker(void *arg)
{
	perf_block_set_routine((const char *)arg);
	for (int i = 0; i < 200; i++) {
		PERF_BLOCK("work");
		PERF_BLOCK("step");
	}
	return NULL;
}

TEST(threads_keep_separate_stacks_and_frames_never_interleave)
{
	open_output();
	pthread_t t[4];
	const char *names[] = {"r0", "r1", "r2", "r3"};
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)names[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	const char *out = close_output();
	/* Every frame: a header naming one routine, the depth-2 step, then
	 * the depth-1 work. */
	int frames[4] = {0};
	const char *p = out;
	while (*p) {
		char routine[32];
		int n = 0;
		CHECK(sscanf(p, "Frame : %31s\n%n", routine, &n) == 1 && n > 0);
		p += n;
		CHECK(strncmp(p, "2,step,", 7) == 0);
		p = strchr(p, '\n') + 1;
		CHECK(strncmp(p, "1,work,", 7) == 0);
		p = strchr(p, '\n') + 1;
		CHECK(routine[0] == 'r' && routine[1] >= '0' && routine[1] <= '3');
		frames[routine[1] - '0']++;
	}
	for (int i = 0; i < 4; i++)
		CHECK_EQ(frames[i], 200);
	free(g_buf);
}

static void recurse(int depth)
{
	PERF_BLOCK("deep");
	if (depth > 1)
		recurse(depth - 1);
}

TEST(blocks_past_the_depth_limit_are_dropped_but_balance)
{
	open_output();
	uint64_t dropped = perf_block_dropped();
	recurse(PERF_BLOCK_MAX_DEPTH + 6);
	{
		PERF_BLOCK("after");
	}
	const char *out = close_output();
	CHECK_EQ(perf_block_dropped() - dropped, 6);
	/* The next frame is whole: the stack came back to empty. */
	CHECK(strstr(out, "Frame : default_croutine\n1,after,") != NULL);
	free(g_buf);
}
