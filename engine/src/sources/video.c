/* An async, video-like source. A producer thread makes procedural frames at
 * its own rate and reports each to the profiler as received; the tick takes
 * the newest frame the renderer accepts (every Nth when told to starve), the
 * prepare step uploads it, and the render draws it and reports the
 * timestamp of the frame actually shown. */
#define _GNU_SOURCE
#include "common.h"
#include "srcprof/clock.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

typedef struct video_source {
	eng_source base;
	eng_pipeline pipeline;
	eng_image image;
	uint32_t width, height;
	double fps;
	uint32_t accept_every;

	pthread_t thread;
	bool thread_started;
	_Atomic bool stop;
	_Atomic uint32_t stall_ms; /* test hook: stall, then flood */
	pthread_mutex_t lock;
	uint8_t *frames[2];     /* producer writes [back], publishes by swapping */
	uint32_t front;         /* under lock: the newest published frame */
	uint64_t front_serial;  /* under lock */
	uint64_t front_ts;      /* under lock: when it was produced */

	uint8_t *upload;        /* graphics thread: the frame to upload */
	uint64_t seen_serial;   /* graphics thread */
	uint64_t new_frames;
	uint64_t shown_ts;
	bool pending_upload, shown_any;
	bool uploaded_last; /* the last frame's prepare uploaded (isolation repeats it) */
} video_source;

/* Moving bars and a block that counts frames: cheap, but a different image
 * every frame. */
static void draw_frame(video_source *v, uint8_t *px, uint64_t n)
{
	uint32_t w = v->width, h = v->height;
	for (uint32_t y = 0; y < h; y++) {
		uint8_t *row = px + (size_t)y * w * 4;
		for (uint32_t x = 0; x < w; x++) {
			uint32_t band = ((x + (uint32_t)n * 3) / 24) % 6;
			static const uint8_t bars[6][3] = {{230, 60, 60},  {60, 200, 80},
							   {70, 110, 240}, {240, 220, 70},
							   {200, 80, 220}, {60, 210, 220}};
			uint8_t shade = (uint8_t)(140 + (y * 100) / h);
			row[x * 4 + 0] = (uint8_t)(bars[band][0] * shade / 255);
			row[x * 4 + 1] = (uint8_t)(bars[band][1] * shade / 255);
			row[x * 4 + 2] = (uint8_t)(bars[band][2] * shade / 255);
			row[x * 4 + 3] = 255;
		}
	}
	/* A white block that walks across the bottom, one step per frame. */
	uint32_t bx = (uint32_t)(n * 7 % (w > 16 ? w - 16 : 1));
	for (uint32_t y = h > 20 ? h - 20 : 0; y < h; y++)
		memset(px + ((size_t)y * w + bx) * 4, 255, 16 * 4);
}

static void *producer(void *arg)
{
	video_source *v = arg;
	perf_block_set_routine(v->base.name);
	uint64_t period = (uint64_t)(1e9 / v->fps);
	uint64_t next = srcprof_clock_monotonic_ns();
	uint32_t back = 1;
	for (uint64_t n = 1; !atomic_load(&v->stop); n++) {
		{
			PERF_BLOCK("produce");
			draw_frame(v, v->frames[back], n);
			pthread_mutex_lock(&v->lock);
			v->front = back;
			v->front_serial = n;
			v->front_ts = srcprof_clock_ns();
			pthread_mutex_unlock(&v->lock);
			back ^= 1u;
			source_profiler_async_frame_received(v);
		}
		uint32_t stall = atomic_exchange(&v->stall_ms, 0);
		if (stall) {
			/* Sleep through the stall and keep the schedule: the frames
			 * missed come out back to back afterwards. */
			struct timespec s = {(time_t)(stall / 1000), (long)(stall % 1000) * 1000000L};
			nanosleep(&s, NULL);
			next += period;
			continue;
		}
		next += period;
		uint64_t now = srcprof_clock_monotonic_ns();
		if (next + 1000000000ull < now)
			next = now; /* more than a second behind: drop the backlog */
		struct timespec ts = {(time_t)(next / 1000000000ull), (long)(next % 1000000000ull)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return NULL;
}

static void video_tick(eng_source *s, double dt)
{
	(void)dt;
	video_source *v = (video_source *)s;
	pthread_mutex_lock(&v->lock);
	if (v->front_serial != v->seen_serial) {
		v->new_frames += v->front_serial - v->seen_serial;
		v->seen_serial = v->front_serial;
		/* A starved renderer takes only every Nth frame it could have. */
		if (v->new_frames >= v->accept_every) {
			v->new_frames = 0;
			memcpy(v->upload, v->frames[v->front], (size_t)v->width * v->height * 4);
			v->shown_ts = v->front_ts;
			v->pending_upload = true;
		}
	}
	pthread_mutex_unlock(&v->lock);
}

static void video_prepare(eng_source *s)
{
	video_source *v = (video_source *)s;
	if (eng_isolating(s->engine)) {
		/* Measured alone: this frame's work was the last frame's, the
		 * upload included when it had one (an in-frame figure holds it:
		 * a 30 fps video uploads in nearly every frame at 30 fps and
		 * more). The frame data is still in v->upload. */
		if (!v->uploaded_last)
			return;
	} else {
		v->uploaded_last = v->pending_upload;
		if (!v->pending_upload)
			return;
	}
	eng_gfx_prepare_image_update(v->image); /* any wait outside the GPU scope */
	eng_gpu_scope scope = eng_source_gpu_begin(s, "upload");
	eng_gfx_update_image(v->image, v->upload);
	eng_source_gpu_end(&scope);
	v->pending_upload = false;
	v->shown_any = true;
}

static void video_render(eng_source *s, const eng_view *view)
{
	video_source *v = (video_source *)s;
	quad_uniforms u = {.tint = {1, 1, 1, 1}};
	float aspect = (float)v->width / (float)v->height;
	eng_billboard(view, s->position, s->scale, u.mvp);
	/* Stretch the unit quad to the frame's aspect. */
	for (int i = 0; i < 4; i++)
		u.mvp[0][i] *= aspect;
	eng_gfx_apply_pipeline(v->pipeline);
	eng_gfx_apply_uniforms(&u, sizeof u);
	eng_gfx_apply_image(v->image);
	eng_gfx_draw(0, 6, 1);
	if (v->shown_any && view->pass == eng_view_at(s->engine, 0)->pass)
		source_profiler_async_frame_rendered(s, v->shown_ts);
}

static void video_destroy(eng_source *s)
{
	video_source *v = (video_source *)s;
	if (v->thread_started) {
		atomic_store(&v->stop, true);
		pthread_join(v->thread, NULL);
	}
	eng_gfx_destroy_image(v->image);
	pthread_mutex_destroy(&v->lock);
	free(v->frames[0]);
	free(v->frames[1]);
	free(v->upload);
	free(v);
}

void eng_video_stall(eng_source *s, uint32_t ms)
{
	if (s && s->type->render == video_render)
		atomic_store(&((video_source *)s)->stall_ms, ms);
}

static const eng_source_type video_type = {
	.name = "video",
	.tick = video_tick,
	.prepare = video_prepare,
	.render = video_render,
	.destroy = video_destroy,
};

eng_source *eng_video_create(const eng_video_desc *desc)
{
	video_source *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	eng_source_init(&v->base, &video_type, desc->name, "video");
	v->base.flags = ENG_SOURCE_ASYNC;
	glm_vec3_copy((float *)desc->position, v->base.position);
	v->base.scale = desc->scale > 0 ? desc->scale : 1.0f;
	v->fps = desc->fps > 0 ? desc->fps : 30.0;
	v->width = desc->width ? desc->width : 320;
	v->height = desc->height ? desc->height : 180;
	v->accept_every = desc->accept_every > 1 ? desc->accept_every : 1;
	pthread_mutex_init(&v->lock, NULL);
	size_t size = (size_t)v->width * v->height * 4;
	v->frames[0] = calloc(1, size);
	v->frames[1] = calloc(1, size);
	v->upload = calloc(1, size);
	v->image = eng_gfx_make_image(&(eng_image_desc){
		.width = v->width, .height = v->height, .usage = ENG_IMAGE_STREAM});
	v->pipeline = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "quad.vert",
		.fs = "textured.frag",
		.depth = true,
		.textured = true,
	});
	if (!v->frames[0] || !v->frames[1] || !v->upload || !v->image.id || !v->pipeline.id) {
		video_destroy(&v->base);
		return NULL;
	}
	if (pthread_create(&v->thread, NULL, producer, v) != 0) {
		eng_error("video %s: cannot start its producer thread", v->base.name);
		video_destroy(&v->base);
		return NULL;
	}
	v->thread_started = true;
	return &v->base;
}
