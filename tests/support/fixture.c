#include "fixture.h"

#include <stdio.h>
#include <string.h>

uint64_t fx_now, fx_gpu_now;
fx_gpu fx_backend;

#define LOG_LINES 256
static char g_log[LOG_LINES][256];
static int g_log_n;

static uint64_t fake_clock(void *user)
{
	(void)user;
	return fx_now;
}

static void capture_log(int level, const char *msg, void *user)
{
	(void)level;
	(void)user;
	if (g_log_n < LOG_LINES)
		snprintf(g_log[g_log_n], sizeof g_log[0], "%s", msg);
	g_log_n++;
}

static uint32_t fake_reserve(void *user, uint32_t slot, uint32_t queries)
{
	fx_gpu *g = user;
	(void)slot;
	g->reserves++;
	uint32_t limit = g->capacity_limit ? g->capacity_limit : FX_MAX_QUERIES;
	return queries < limit ? queries : limit;
}

static void fake_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	fx_gpu *g = user;
	(void)kind;
	if (query < FX_MAX_QUERIES)
		g->stamps[slot][query] = fx_gpu_now;
	g->writes++;
	g->last_write_slot = slot;
}

static sp_gpu_read fake_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	fx_gpu *g = user;
	g->reads++;
	g->last_read_slot = slot;
	sp_gpu_read r = g->next_status;
	g->next_status = SP_GPU_READ_OK;
	if (r != SP_GPU_READ_OK)
		return r;
	memcpy(ns, g->stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

void fx_install_backend(void)
{
	source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
		.mode = "fake",
		.user = &fx_backend,
		.reserve = fake_reserve,
		.write = fake_write,
		.read = fake_read,
	});
}

void fx_init(bool gpu)
{
	source_profiler_shutdown();
	memset(&fx_backend, 0, sizeof fx_backend);
	fx_now = 1000000000ull;
	fx_gpu_now = 5000000000ull;
	g_log_n = 0;
	source_profiler_set_clock(fake_clock, NULL);
	source_profiler_set_log(capture_log, NULL);
	source_profiler_reset_video(60, 1);
	/* Every frame's GPU sample kept: the tests count frames exactly;
	 * test_gpu's warm-up cases turn it back on. */
	source_profiler_gpu_set_warmup(0);
	fx_install_backend();
	source_profiler_enable(true);
	source_profiler_gpu_enable(gpu);
}

void fx_begin(void)
{
	source_profiler_frame_begin();
}

void fx_tick(const void *src, uint64_t ns)
{
	uint64_t t = source_profiler_source_tick_start();
	fx_now += ns;
	source_profiler_source_tick_end(src, t);
}

void fx_render_begin(void)
{
	source_profiler_render_begin();
	fx_gpu_now += 10;
}

void fx_render(const void *src, uint64_t cpu_ns, uint64_t gpu_ns)
{
	sp_gpu_timer *timer;
	uint64_t t = source_profiler_source_render_begin(&timer);
	fx_now += cpu_ns;
	fx_gpu_now += gpu_ns;
	source_profiler_source_render_end(src, t, timer);
}

void fx_end(void)
{
	fx_gpu_now += 10;
	source_profiler_render_end();
	fx_gpu_now += 1000;
	source_profiler_frame_collect();
}

void fx_frame(const void *const *srcs, int n, uint64_t tick_ns, uint64_t cpu_ns, uint64_t gpu_ns)
{
	fx_begin();
	for (int i = 0; i < n; i++)
		fx_tick(srcs[i], tick_ns);
	fx_render_begin();
	for (int i = 0; i < n; i++)
		fx_render(srcs[i], cpu_ns, gpu_ns);
	fx_end();
}

int fx_log_count(void)
{
	return g_log_n;
}

const char *fx_log_line(int i)
{
	return i >= 0 && i < g_log_n && i < LOG_LINES ? g_log[i] : NULL;
}

int fx_log_count_containing(const char *needle)
{
	int n = 0;
	for (int i = 0; i < g_log_n && i < LOG_LINES; i++)
		if (strstr(g_log[i], needle))
			n++;
	return n;
}

profiler_result_t fx_result(const void *src)
{
	profiler_result_t r = {0};
	source_profiler_fill_result(src, &r);
	return r;
}

uint32_t fx_cpu_samples(const void *src)
{
	uint32_t c = 0;
	source_profiler_get_sample_counts(src, &c, NULL);
	return c;
}

uint32_t fx_gpu_samples(const void *src)
{
	uint32_t g = 0;
	source_profiler_get_sample_counts(src, NULL, &g);
	return g;
}
