#include "replay.h"

#include "srcprof/clock.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sources are plain objects the profiler only uses as keys. */
typedef struct source {
	uint64_t state;
} source;

/* A GPU timer backend that writes increasing fake stamps: the profiler's
 * own GPU bookkeeping without a device. */
typedef struct fake_gpu {
	uint64_t *stamps; /* [slot][query] */
	uint32_t per_slot;
	uint64_t t;
} fake_gpu;

static struct {
	source *src;
	uint32_t sources, passes;
	uint32_t pass_id[8];
	replay_mode mode;
	fake_gpu gpu;
} g;

static uint32_t fake_reserve(void *user, uint32_t slot, uint32_t queries)
{
	fake_gpu *f = user;
	(void)slot;
	return queries < f->per_slot ? queries : f->per_slot;
}

static void fake_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	fake_gpu *f = user;
	(void)kind;
	f->stamps[(size_t)slot * f->per_slot + query] = f->t += 100;
}

static sp_gpu_read fake_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	fake_gpu *f = user;
	const uint64_t *s = &f->stamps[(size_t)slot * f->per_slot];
	memcpy(ns, s, count * sizeof *ns);
	/* Stamps are written in order; the frame's end comes after every timer. */
	ns[1] = s[count - 1] + 1;
	return SP_GPU_READ_OK;
}

/* The "work" of a source: kept out of line so that the loop is what an
 * engine's would be. */
__attribute__((noinline)) static void tick(source *s)
{
	s->state = s->state * 6364136223846793005ull + 1;
}

__attribute__((noinline)) static void render(source *s)
{
	__asm__ volatile("" : : "r"(s) : "memory");
}

/* The replay's own messages (a timer pool growing in its first frames)
 * are no one's concern. */
static void quiet(int level, const char *msg, void *user)
{
	(void)level;
	(void)msg;
	(void)user;
}

bool replay_init(uint32_t sources, uint32_t passes)
{
	replay_free();
	source_profiler_set_log(quiet, NULL);
	if (!sources || !passes || passes > 8)
		return false;
	g.src = calloc(sources, sizeof *g.src);
	/* Room for every timer the profiler may ask for: at least 2 per
	 * source + 16, and after a frame that needed more, 1.5 times that
	 * frame's timers (renders and empty timers). Given fewer, it would
	 * ask the backend again, and warn, every frame. */
	g.gpu.per_slot = 2 + 2 * (2 * sources * passes + 64);
	g.gpu.stamps = calloc((size_t)SOURCE_PROFILER_FRAME_BUFFER_SIZE * g.gpu.per_slot,
			      sizeof *g.gpu.stamps);
	if (!g.src || !g.gpu.stamps) {
		replay_free();
		return false;
	}
	/* Touched now, so that the profiler's resident memory is measured
	 * without the replay's own (srcprof-microbench --rss). */
	memset(g.gpu.stamps, 0xff, (size_t)SOURCE_PROFILER_FRAME_BUFFER_SIZE * g.gpu.per_slot *
					  sizeof *g.gpu.stamps);
	memset(g.src, 0, sources * sizeof *g.src);
	g.sources = sources;
	g.passes = passes;
	return true;
}

static void frame_rest(void);

void replay_frame(void)
{
	if (g.mode == REPLAY_LOOP) {
		for (uint32_t i = 0; i < g.sources; i++)
			tick(&g.src[i]);
		for (uint32_t p = 0; p < g.passes; p++)
			for (uint32_t i = 0; i < g.sources; i++)
				render(&g.src[i]);
		return;
	}
	source_profiler_frame_begin();
	frame_rest();
}

uint64_t replay_frame_timing_begin(void)
{
	uint64_t t0 = srcprof_clock_monotonic_ns();
	source_profiler_frame_begin();
	uint64_t t1 = srcprof_clock_monotonic_ns();
	frame_rest();
	return t1 - t0;
}

/* The frame after frame_begin: ticks, renders in every pass, collect. */
static void frame_rest(void)
{
	for (uint32_t i = 0; i < g.sources; i++) {
		uint64_t t = source_profiler_source_tick_start();
		tick(&g.src[i]);
		source_profiler_source_tick_end(&g.src[i], t);
	}
	source_profiler_render_begin();
	for (uint32_t p = 0; p < g.passes; p++) {
		source_profiler_set_pass(g.pass_id[p]);
		for (uint32_t i = 0; i < g.sources; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			render(&g.src[i]);
			source_profiler_source_render_end(&g.src[i], t, timer);
		}
	}
	source_profiler_render_end();
	source_profiler_frame_collect();
}

void replay_setup(replay_mode mode, uint32_t fps, bool async)
{
	source_profiler_shutdown();
	g.mode = mode;
	if (mode == REPLAY_LOOP || mode == REPLAY_OFF)
		return;
	source_profiler_reset_video(fps, 1);
	for (uint32_t p = 0; p < g.passes; p++) {
		char name[16];
		snprintf(name, sizeof name, "view%u", p + 1);
		g.pass_id[p] = source_profiler_pass_id(p == 0 ? "main" : p == 1 ? "preview" : name);
	}
	if (mode == REPLAY_GPU) {
		source_profiler_set_gpu_backend(&(sp_gpu_timer_backend){
			.mode = "fake",
			.user = &g.gpu,
			.reserve = fake_reserve,
			.write = fake_write,
			.read = fake_read,
		});
	}
	source_profiler_enable(true);
	source_profiler_gpu_enable(mode == REPLAY_GPU);
	for (uint32_t i = 0; async && i < g.sources; i++)
		source_profiler_set_async(&g.src[i], true);
	/* Fill every window: its capacity plus the frames in flight. */
	for (uint32_t f = 0; f < fps * SOURCE_PROFILER_WINDOW_SECONDS + 4; f++) {
		replay_frame();
		for (uint32_t i = 0; async && i < g.sources; i++) {
			source_profiler_async_frame_received(&g.src[i]);
			source_profiler_async_frame_rendered(&g.src[i], f);
		}
	}
}

double replay_run(uint32_t frames)
{
	uint64_t t0 = srcprof_clock_monotonic_ns();
	for (uint32_t f = 0; f < frames; f++)
		replay_frame();
	uint64_t t1 = srcprof_clock_monotonic_ns();
	return (double)(t1 - t0) / ((double)frames * g.sources);
}

double replay_run_for(double ms)
{
	uint64_t t0 = srcprof_clock_monotonic_ns(), end = t0 + (uint64_t)(ms * 1e6), t1;
	uint32_t frames = 0;
	do {
		replay_frame();
		t1 = srcprof_clock_monotonic_ns();
	} while (++frames < 3 || t1 < end);
	return (double)(t1 - t0) / ((double)frames * g.sources);
}

const void *replay_source(uint32_t i)
{
	return &g.src[i];
}

void replay_free(void)
{
	source_profiler_shutdown();
	source_profiler_set_log(NULL, NULL);
	free(g.src);
	free(g.gpu.stamps);
	memset(&g, 0, sizeof g);
}
