/* White-box cases, linked with the profiler's objects rather than its
 * library (whose internal names are hidden): reclamation that never waits
 * for a reader, and frame counters past 32 bits. */
#include "check.h"
#include "sp_state.h"
#include "sp_rcu.h"
#include "sp_util.h"

#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int reader_state; /* 1: inside its RCU section, 2: may leave */

static void *stuck_reader(void *arg)
{
	(void)arg;
	unsigned idx = sp_rcu_enter();
	pthread_mutex_lock(&lock);
	reader_state = 1;
	pthread_cond_broadcast(&cond);
	while (reader_state != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	sp_rcu_exit(idx);
	return NULL;
}

TEST(a_reader_stuck_inside_delays_a_free_never_the_frame)
{
	source_profiler_shutdown();
	/* Two quiet cycles give both retire lists their arrays, so that the
	 * figures below count only the retired blocks. */
	for (int i = 0; i < 2; i++) {
		sp_retire(sp_alloc(8), 8);
		sp_retire_flush();
	}
	alarm(20); /* a flush that waited for the reader would hang here */
	pthread_t t;
	CHECK(pthread_create(&t, NULL, stuck_reader, NULL) == 0);
	pthread_mutex_lock(&lock);
	while (reader_state != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	void *first = sp_alloc(1000);
	sp_retire(first, 1000);
	size_t held = sp_alloc_bytes(); /* the block and the retire list */
	uint64_t deferred = sp_retire_deferred();
	sp_retire_flush(); /* starts the grace period; the reader is inside */
	sp_retire_flush();
	sp_retire_flush();
	size_t while_inside = sp_alloc_bytes();
	uint64_t deferred_inside = sp_retire_deferred() - deferred;
	/* Retired meanwhile: waits for the next grace period. */
	sp_retire(sp_alloc(500), 500);
	sp_retire_flush();
	size_t second_inside = sp_alloc_bytes();

	pthread_mutex_lock(&lock);
	reader_state = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	sp_retire_flush(); /* frees the first, opens a period for the second: freed at once */
	size_t after = sp_alloc_bytes();
	alarm(0);

	CHECK_EQ(while_inside, held);
	CHECK_EQ(deferred_inside, 2);
	CHECK_EQ(second_inside, held + 500);
	CHECK_EQ(after, held - 1000);
}

static uint64_t now_ns;

static uint64_t clock_fn(void *user)
{
	(void)user;
	return now_ns;
}

static int src;

static void frame(void)
{
	source_profiler_frame_begin();
	uint64_t t = source_profiler_source_tick_start();
	now_ns += 100;
	source_profiler_source_tick_end(&src, t);
	source_profiler_render_begin();
	source_profiler_render_end();
	source_profiler_frame_collect();
	now_ns += 1000;
}

static uint32_t samples(void)
{
	uint32_t c = 0;
	source_profiler_get_sample_counts(&src, &c, NULL);
	return c;
}

TEST(collection_goes_on_past_2_to_the_31_frames_since_enable)
{
	/* (int32_t)(frame - on_since) turned negative after 2^31 frames (25
	 * days at 1000 fps) and collection stopped. */
	source_profiler_shutdown();
	now_ns = 1000000000ull;
	source_profiler_set_clock(clock_fn, NULL);
	source_profiler_enable(true);
	for (int f = 0; f < 4; f++)
		frame();
	CHECK_EQ(samples(), 3);
	sp_test_set_frame(sp_core.frame + (1ull << 31) - 3);
	for (int f = 0; f < 8; f++)
		frame();
	/* The jump leaves frame 4 uncollected; every frame after it counts. */
	CHECK_EQ(samples(), 3 + 7);
	source_profiler_shutdown();
}

TEST(collection_goes_on_past_2_to_the_32_frames)
{
	source_profiler_shutdown();
	now_ns = 1000000000ull;
	source_profiler_set_clock(clock_fn, NULL);
	source_profiler_enable(true);
	sp_test_set_frame((1ull << 32) - 4);
	for (int f = 0; f < 10; f++)
		frame();
	CHECK_EQ(samples(), 9);
	CHECK_EQ(source_profiler_frame_index(), (1ull << 32) + 6);
	source_profiler_shutdown();
}
