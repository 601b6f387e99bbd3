/* The null backend (engine/null.h): engine/gfx.h with no driver. Every
 * call is checked as the real backends check it (inside a frame, inside a
 * pass, a pipeline applied), counted and logged; work advances a GPU clock
 * by the costs the test set; the GPU timer stamps that clock. */
#include "../gfx/gfx_backend.h"
#include "../gfx/shader.h"
#include "engine/log.h"
#include "engine/null.h"
#include "srcprof/source_profiler.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NULL_SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
#define NULL_MAX_CLEARS 16
/* What the graphics timer counts: everything but fragments. */
#define NULL_GFX_COUNTERS                                                                      \
	((1u << SOURCE_PROFILER_INPUT_VERTICES) | (1u << SOURCE_PROFILER_INPUT_PRIMITIVES) |     \
	 (1u << SOURCE_PROFILER_VS_INVOCATIONS) | (1u << SOURCE_PROFILER_CLIPPING_INVOCATIONS) | \
	 (1u << SOURCE_PROFILER_CLIPPING_PRIMITIVES))

typedef struct null_image {
	uint32_t width, height;
	eng_image_usage usage;
} null_image;

/* A clear of the main target in this frame, painted into a screenshot. */
typedef struct null_clear {
	eng_rect area;
	uint8_t rgba[4];
} null_clear;

/* A command recorded on a record thread, run when its pass ends. */
typedef struct null_cmd {
	eng_null_call call;
	uint32_t a, b, d;
} null_cmd;

/* One recorder of a pass recorded by several threads: its commands, run
 * in recorder order at the pass's end (as vkCmdExecuteCommands runs
 * secondaries), on the GPU clock then. */
typedef struct null_recorder {
	bool begun, pipeline;
	null_cmd *cmds;
	uint32_t n, cap;
	uint64_t draws_outside_pass;
	bool overflow; /* a command could not be kept (out of memory) */
} null_recorder;

/* A GPU timer's work counters (eng_gfx_desc.work_counters), per frame
 * slot: set i counts between work_begin and work_end of timer i as the
 * commands run; every open set counts what runs (as each active query
 * of a device does). */
#define NULL_WORK_OPEN 8
typedef struct null_work {
	uint64_t *v[NULL_SLOTS]; /* cap x SOURCE_PROFILER_COUNTERS */
	uint8_t *done[NULL_SLOTS];
	uint32_t cap[NULL_SLOTS];
	uint64_t *open[NULL_WORK_OPEN]; /* the sets counting now */
	uint32_t n_open;
} null_work;

/* The recorder this thread records into (NULL: the frame's stream). */
static _Thread_local null_recorder *t_rec;

/* A GPU timer's stamps, per frame slot. */
typedef struct null_stamps {
	uint64_t *ns[NULL_SLOTS];
	uint8_t *written[NULL_SLOTS]; /* 1: ns[slot][q] reached the GPU */
	uint32_t cap[NULL_SLOTS];
} null_stamps;

typedef struct null_ctx {
	eng_null_desc costs;
	const char *shader_dir;
	uint32_t width, height;
	null_image images[ENG_GFX_MAX_IMAGES]; /* width 0: none */
	bool recording, in_pass, device_lost;
	bool isolating; /* in eng_gfx_time_isolated */
	bool pipeline; /* one applied in this pass */
	uint64_t gpu_ns;
	_Atomic uint64_t cpu_ns;
	uint64_t frames_submitted;
	uint32_t isolated_calls;

	eng_null_record rec;
	eng_null_event *events;

	null_recorder recorders[ENG_GFX_MAX_RECORDERS];
	uint32_t parallel; /* recorders of the pass being recorded; 0: none */

	sp_gpu_timer_backend timer;
	null_stamps gfx;
	null_work gfx_work;
	bool work; /* eng_gfx_desc.work_counters */
	uint32_t run_pipeline; /* the pipeline applied last, in the order commands run */
	uint8_t strip[ENG_GFX_MAX_PIPELINES];     /* 1: a triangle strip (sprite layout) */
	uint32_t local_size[ENG_GFX_MAX_PIPELINES]; /* compute: invocations per workgroup */

	/* Compute (eng_gfx_desc.compute): its own clock, timer and stamps. */
	bool compute, compute_open;
	uint64_t compute_ns;
	char compute_cmd; /* what eng_gfx_compute_cmd names: its address */
	sp_gpu_timer_backend compute_timer;
	null_stamps compute_stamps;
	null_work compute_work;

	null_clear clears[NULL_MAX_CLEARS];
	uint32_t n_clears;
	bool screenshot_wanted, screenshot_ready;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
} null_ctx;

/* Logs a call with a GPU clock after it; false when the log is full. */
static bool note_at(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d,
		    uint64_t clock)
{
	if (c->rec.n_events == ENG_NULL_MAX_EVENTS) {
		c->rec.events_dropped = true;
		return false;
	}
	c->events[c->rec.n_events++] = (eng_null_event){call, a, b, d, clock};
	return true;
}

/* The same, with the graphics clock. */
static bool note(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d)
{
	return note_at(c, call, a, b, d, c->gpu_ns);
}

/* --- the GPU timers ------------------------------------------------------------ */

/* What a timer's queries hold, per frame slot. */
static uint32_t stamps_reserve(null_stamps *t, uint32_t slot, uint32_t queries)
{
	if (slot >= NULL_SLOTS)
		return 0;
	if (queries > t->cap[slot]) {
		uint64_t *s = realloc(t->ns[slot], queries * sizeof *s);
		if (s)
			t->ns[slot] = s;
		uint8_t *w = s ? realloc(t->written[slot], queries) : NULL;
		if (!w)
			return t->cap[slot];
		memset(w + t->cap[slot], 0, queries - t->cap[slot]);
		t->written[slot] = w;
		t->cap[slot] = queries;
	}
	return t->cap[slot];
}

static bool stamps_put(null_stamps *t, uint32_t slot, uint32_t query, uint64_t ns)
{
	if (slot >= NULL_SLOTS || query >= t->cap[slot])
		return false;
	t->ns[slot][query] = ns;
	t->written[slot][query] = 1;
	return true;
}

static sp_gpu_read stamps_read_each(const null_stamps *t, uint32_t slot, uint32_t count,
				    uint64_t *ns, uint8_t *avail)
{
	if (slot >= NULL_SLOTS)
		return SP_GPU_READ_OK;
	for (uint32_t q = 0; q < count && q < t->cap[slot]; q++)
		if (t->written[slot][q]) {
			avail[q] = 1;
			ns[q] = t->ns[slot][q];
		}
	return SP_GPU_READ_OK;
}

static void stamps_free(null_stamps *t)
{
	for (int i = 0; i < NULL_SLOTS; i++) {
		free(t->ns[i]);
		free(t->written[i]);
	}
}

/* Sets for the timers of `queries` stamps: (queries - 2) / 2. */
static void work_reserve(null_work *w, uint32_t slot, uint32_t queries)
{
	uint32_t sets = queries > 2 ? (queries - 2) / 2 : 0;
	if (slot >= NULL_SLOTS || sets <= w->cap[slot])
		return;
	uint64_t *v = realloc(w->v[slot], (size_t)sets * SOURCE_PROFILER_COUNTERS * sizeof *v);
	if (v)
		w->v[slot] = v;
	uint8_t *d = v ? realloc(w->done[slot], sets) : NULL;
	if (!d)
		return;
	memset(d + w->cap[slot], 0, sets - w->cap[slot]);
	w->done[slot] = d;
	w->cap[slot] = sets;
	w->n_open = 0; /* the sets may have moved */
}

/* A slot's frame starts over: its sets are not there. */
static void work_clear(null_work *w, uint32_t slot)
{
	if (slot < NULL_SLOTS && w->cap[slot])
		memset(w->done[slot], 0, w->cap[slot]);
}

static void work_run_begin(null_work *w, uint32_t slot, uint32_t set)
{
	if (slot >= NULL_SLOTS || set >= w->cap[slot] || w->n_open == NULL_WORK_OPEN)
		return;
	uint64_t *v = w->v[slot] + (size_t)set * SOURCE_PROFILER_COUNTERS;
	memset(v, 0, SOURCE_PROFILER_COUNTERS * sizeof *v);
	w->done[slot][set] = 0;
	w->open[w->n_open++] = v;
}

static void work_run_end(null_work *w, uint32_t slot, uint32_t set)
{
	if (slot >= NULL_SLOTS || set >= w->cap[slot])
		return;
	uint64_t *v = w->v[slot] + (size_t)set * SOURCE_PROFILER_COUNTERS;
	for (uint32_t i = 0; i < w->n_open; i++)
		if (w->open[i] == v) {
			w->open[i] = w->open[--w->n_open];
			w->done[slot][set] = 1;
			return;
		}
}

/* Counts `n` of counter c into every open set. */
static void work_add(null_work *w, source_profiler_counter c, uint64_t n)
{
	for (uint32_t i = 0; i < w->n_open; i++)
		w->open[i][c] += n;
}

static sp_gpu_read work_read(const null_work *w, uint32_t slot, uint32_t count, uint64_t *values,
			     uint8_t *avail)
{
	if (slot >= NULL_SLOTS)
		return SP_GPU_READ_OK;
	for (uint32_t i = 0; i < count && i < w->cap[slot]; i++)
		if (w->done[slot][i]) {
			avail[i] = 1;
			memcpy(values + (size_t)i * SOURCE_PROFILER_COUNTERS,
			       w->v[slot] + (size_t)i * SOURCE_PROFILER_COUNTERS,
			       SOURCE_PROFILER_COUNTERS * sizeof *values);
		}
	return SP_GPU_READ_OK;
}

static void work_free(null_work *w)
{
	for (int i = 0; i < NULL_SLOTS; i++) {
		free(w->v[i]);
		free(w->done[i]);
	}
}

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	null_ctx *c = user;
	if (c->work)
		work_reserve(&c->gfx_work, slot, queries);
	return stamps_reserve(&c->gfx, slot, queries);
}

/* A stamp reaching the GPU: it takes the clock now. Query 0 opens the
 * slot's frame: the slot's earlier stamps are no longer available. */
static void run_stamp(null_ctx *c, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	if (query == 0 && slot < NULL_SLOTS && c->gfx.cap[slot]) {
		memset(c->gfx.written[slot], 0, c->gfx.cap[slot]);
		work_clear(&c->gfx_work, slot);
	}
	if (!stamps_put(&c->gfx, slot, query, c->gpu_ns))
		return;
	c->gpu_ns += c->costs.stamp_ns;
	c->rec.stamps++;
	note(c, ENG_NULL_STAMP, slot, query, (uint32_t)kind);
}

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	null_ctx *c = user;
	atomic_fetch_add(&c->cpu_ns, c->costs.stamp_cpu_ns);
	run_stamp(c, slot, query, kind);
}

static void keep(null_recorder *r, null_cmd cmd);
static void run(null_ctx *c, null_cmd k);

/* A stamp recorded into recorder `cmd` (eng_gfx_recorder_cmd) on its
 * thread: it takes the GPU clock when the recorder's commands run. */
static void timer_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query,
			    sp_gpu_stamp kind)
{
	null_ctx *c = user;
	null_recorder *r = cmd;
	if (r < c->recorders || r >= c->recorders + ENG_GFX_MAX_RECORDERS || !r->begun)
		return; /* not one of ours, or not recording: never written */
	atomic_fetch_add(&c->cpu_ns, c->costs.stamp_cpu_ns);
	keep(r, (null_cmd){ENG_NULL_STAMP, slot, query, (uint32_t)kind});
}

static sp_gpu_read timer_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				   uint8_t *avail)
{
	return stamps_read_each(&((null_ctx *)user)->gfx, slot, count, ns, avail);
}

static sp_gpu_read timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	null_ctx *c = user;
	if (slot >= NULL_SLOTS || count > c->gfx.cap[slot])
		return SP_GPU_READ_NOT_READY;
	memcpy(ns, c->gfx.ns[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

/* Work counting: on the graphics stream now, or kept by the recorder
 * `cmd` names and run with its commands. */
static void timer_work(null_ctx *c, void *cmd, eng_null_call call, uint32_t slot, uint32_t set)
{
	null_recorder *r = cmd;
	if (!cmd)
		run(c, (null_cmd){call, slot, set, 0});
	else if (r >= c->recorders && r < c->recorders + ENG_GFX_MAX_RECORDERS && r->begun)
		keep(r, (null_cmd){call, slot, set, 0});
}

static void timer_work_begin(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	timer_work(user, cmd, ENG_NULL_WORK_BEGIN, slot, set);
}

static void timer_work_end(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	timer_work(user, cmd, ENG_NULL_WORK_END, slot, set);
}

static sp_gpu_read timer_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				   uint8_t *avail)
{
	return work_read(&((null_ctx *)user)->gfx_work, slot, count, values, avail);
}

static const sp_gpu_timer_backend *null_gpu_timer(void *ctx)
{
	return &((null_ctx *)ctx)->timer;
}

/* The compute timer: stamps on the compute clock, written as compute
 * commands are recorded (they run in that order, before the frame's
 * graphics work). No frame range of its own: frame_open starts a slot's
 * frame. Its user is the null_ctx's compute_stamps. */
static null_ctx *compute_owner(void *user)
{
	return (null_ctx *)((char *)user - offsetof(null_ctx, compute_stamps));
}

static uint32_t compute_reserve(void *user, uint32_t slot, uint32_t queries)
{
	null_ctx *c = compute_owner(user);
	if (c->work)
		work_reserve(&c->compute_work, slot, queries);
	return stamps_reserve(user, slot, queries);
}

/* The compute command buffer's sets count as its commands are recorded
 * (they run in that order). */
static void compute_work_begin(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	null_ctx *c = compute_owner(user);
	if (cmd == &c->compute_cmd && c->compute_open) {
		work_run_begin(&c->compute_work, slot, set);
		note_at(c, ENG_NULL_WORK_BEGIN, slot, set, 0, c->compute_ns);
	}
}

static void compute_work_end(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	null_ctx *c = compute_owner(user);
	if (cmd == &c->compute_cmd && c->compute_open) {
		work_run_end(&c->compute_work, slot, set);
		note_at(c, ENG_NULL_WORK_END, slot, set, 0, c->compute_ns);
	}
}

static sp_gpu_read compute_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				     uint8_t *avail)
{
	return work_read(&compute_owner(user)->compute_work, slot, count, values, avail);
}

static void compute_stamp(null_ctx *c, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	atomic_fetch_add(&c->cpu_ns, c->costs.stamp_cpu_ns);
	if (!stamps_put(&c->compute_stamps, slot, query, c->compute_ns))
		return;
	c->compute_ns += c->costs.stamp_ns;
	c->rec.compute_stamps++;
	note_at(c, ENG_NULL_STAMP, slot, query, (uint32_t)kind, c->compute_ns);
}

static void compute_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	compute_stamp(compute_owner(user), slot, query, kind);
}

static void compute_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query,
			      sp_gpu_stamp kind)
{
	null_ctx *c = compute_owner(user);
	if (cmd == &c->compute_cmd && c->compute_open)
		compute_stamp(c, slot, query, kind);
}

static sp_gpu_read compute_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	null_stamps *t = user;
	if (slot >= NULL_SLOTS || count > t->cap[slot])
		return SP_GPU_READ_NOT_READY;
	memcpy(ns, t->ns[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

static sp_gpu_read compute_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				     uint8_t *avail)
{
	return stamps_read_each(user, slot, count, ns, avail);
}

static void compute_frame_open(void *user, uint32_t slot)
{
	null_stamps *t = user;
	if (slot < NULL_SLOTS && t->cap[slot])
		memset(t->written[slot], 0, t->cap[slot]);
	work_clear(&compute_owner(user)->compute_work, slot);
}

/* --- device --------------------------------------------------------------------- */

static eng_result null_init(const eng_gfx_desc *desc, eng_window *window, void **ctx)
{
	(void)window; /* nothing to show */
	null_ctx *c = calloc(1, sizeof *c);
	eng_null_event *events = malloc(ENG_NULL_MAX_EVENTS * sizeof *events);
	if (!c || !events) {
		free(c);
		free(events);
		eng_error("null: out of memory");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->events = events;
	if (desc->null_device)
		c->costs = *desc->null_device;
	c->shader_dir = eng_shader_dir(desc->shader_dir);
	c->width = desc->width;
	c->height = desc->height;
	atomic_store(&c->cpu_ns, 1000000000ull);
	c->timer = (sp_gpu_timer_backend){
		.mode = "null",
		.user = c,
		.reserve = timer_reserve,
		.write = timer_write,
		.read = timer_read,
		.write_cmd = timer_write_cmd,
		.read_each = timer_read_each,
		.work_counters = desc->work_counters ? NULL_GFX_COUNTERS : 0,
		.work_begin = timer_work_begin,
		.work_end = timer_work_end,
		.read_work = timer_read_work,
		.costly = c->costs.costly_timers,
		.subtract_empty_timer = c->costs.subtract_empty_timer,
		.tick_ns = 1,
	};
	c->compute = desc->compute;
	c->work = desc->work_counters;
	c->compute_ns = ENG_NULL_COMPUTE_CLOCK_START;
	c->compute_timer = (sp_gpu_timer_backend){
		.mode = "null",
		.user = &c->compute_stamps,
		.reserve = compute_reserve,
		.write = compute_write,
		.read = compute_read,
		.write_cmd = compute_write_cmd,
		.read_each = compute_read_each,
		.frame_open = compute_frame_open,
		.work_counters = desc->work_counters ? 1u << SOURCE_PROFILER_CS_INVOCATIONS : 0,
		.work_begin = compute_work_begin,
		.work_end = compute_work_end,
		.read_work = compute_read_work,
		.costly = c->costs.costly_timers,
		.subtract_empty_timer = c->costs.subtract_empty_timer,
		.tick_ns = 1,
	};
	*ctx = c;
	eng_info("null: %ux%u, no driver, GPU timing null%s", c->width, c->height,
		 c->compute ? ", compute on a clock of its own" : "");
	return ENG_OK;
}

static uint32_t null_shutdown(void *ctx)
{
	null_ctx *c = ctx;
	stamps_free(&c->gfx);
	stamps_free(&c->compute_stamps);
	work_free(&c->gfx_work);
	work_free(&c->compute_work);
	for (int i = 0; i < ENG_GFX_MAX_RECORDERS; i++)
		free(c->recorders[i].cmds);
	free(c->screenshot);
	free(c->events);
	free(c);
	return 0;
}

static void null_get_info(void *ctx, eng_gfx_info *info)
{
	null_ctx *c = ctx;
	*info = (eng_gfx_info){.api = "null", .gpu_timing = "null",
			       .width = c->width, .height = c->height};
	snprintf(info->device, sizeof info->device, "null device");
	snprintf(info->driver, sizeof info->driver, "srcprof null backend (no driver)");
}

static uint32_t null_validation_messages(void *ctx)
{
	(void)ctx;
	return 0;
}

/* --- resources ---------------------------------------------------------------- */

static eng_result null_make_buffer(void *ctx, eng_buffer h, const void *data, size_t size,
				   bool index)
{
	(void)h;
	(void)data;
	(void)size;
	(void)index;
	((null_ctx *)ctx)->rec.buffers_made++;
	return ENG_OK;
}

static void null_destroy_buffer(void *ctx, eng_buffer h)
{
	(void)h;
	((null_ctx *)ctx)->rec.buffers_destroyed++;
}

static eng_result null_make_image(void *ctx, eng_image h, uint32_t width, uint32_t height,
				  eng_image_usage usage)
{
	null_ctx *c = ctx;
	if (!width || !height) {
		eng_error("null: cannot create a %ux%u image", width, height);
		return ENG_ERR_INVALID;
	}
	c->images[eng_handle_slot(h.id)] = (null_image){width, height, usage};
	c->rec.images_made++;
	return ENG_OK;
}

static void null_destroy_image(void *ctx, eng_image h)
{
	null_ctx *c = ctx;
	c->images[eng_handle_slot(h.id)] = (null_image){0};
	c->rec.images_destroyed++;
}

static void null_update_image(void *ctx, eng_image h, const void *rgba)
{
	(void)rgba;
	null_ctx *c = ctx;
	const null_image *img = &c->images[eng_handle_slot(h.id)];
	if (!c->recording || c->in_pass || !(img->usage & ENG_IMAGE_STREAM))
		return;
	c->gpu_ns += c->costs.upload_ns;
	c->rec.uploads++;
	note(c, ENG_NULL_UPLOAD, h.id, 0, 0);
}

/* Both shaders are read and checked as a real backend would before its
 * driver sees them (the Vulkan variant), so a missing or corrupt shader is
 * the same clear error here. */
static eng_result null_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc)
{
	(void)h;
	null_ctx *c = ctx;
	const char *names[2] = {desc->vs, desc->fs};
	for (int i = 0; i < 2; i++) {
		size_t size;
		uint32_t *code = eng_shader_load(c->shader_dir, names[i], "vk", &size);
		if (!code)
			return ENG_ERR_SHADER;
		free(code);
	}
	c->strip[eng_handle_slot(h.id) % ENG_GFX_MAX_PIPELINES] = desc->layout == ENG_LAYOUT_SPRITE;
	c->rec.pipelines_made++;
	return ENG_OK;
}

/* --- frames --------------------------------------------------------------------- */

static bool null_begin_frame(void *ctx)
{
	null_ctx *c = ctx;
	if (c->device_lost || c->recording)
		return false;
	c->recording = true;
	c->compute_open = false;
	c->n_clears = 0;
	note(c, ENG_NULL_BEGIN_FRAME, 0, 0, 0);
	return true;
}

static uint8_t unorm8(float v)
{
	return (uint8_t)(v <= 0 ? 0 : v >= 1 ? 255 : v * 255.0f + 0.5f);
}

/* The main target as the frame's clears left it: black, then each clear
 * inside its area. */
static void paint_screenshot(null_ctx *c)
{
	size_t size = (size_t)c->width * c->height * 4;
	uint8_t *px = realloc(c->screenshot, size ? size : 4);
	if (!px)
		return;
	c->screenshot = px;
	memset(px, 0, size);
	for (uint32_t i = 0; i < c->n_clears; i++) {
		eng_rect a = c->clears[i].area;
		for (uint32_t y = (uint32_t)a.y; y < (uint32_t)a.y + a.h; y++)
			for (uint32_t x = (uint32_t)a.x; x < (uint32_t)a.x + a.w; x++)
				memcpy(px + ((size_t)y * c->width + x) * 4, c->clears[i].rgba, 4);
	}
	c->screenshot_w = c->width;
	c->screenshot_h = c->height;
	c->screenshot_ready = true;
}

static eng_result null_end_frame(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->recording)
		return ENG_ERR_INVALID;
	if (c->screenshot_wanted) {
		paint_screenshot(c);
		c->screenshot_wanted = false;
	}
	c->recording = false;
	c->in_pass = false;
	c->frames_submitted++;
	c->rec.frames++;
	atomic_fetch_add(&c->cpu_ns, c->costs.frame_cpu_ns);
	note(c, ENG_NULL_END_FRAME, (uint32_t)c->frames_submitted, 0, 0);
	if (eng_gfx_faults() & ENG_FAULT_DEVICE_LOST) {
		c->device_lost = true;
		eng_error("null: device lost (injected)");
		return ENG_ERR_DEVICE_LOST;
	}
	return ENG_OK;
}

/* Frames are done as soon as they are submitted. */
static eng_result null_wait_frame(void *ctx, uint32_t frames_back)
{
	(void)frames_back;
	return ((null_ctx *)ctx)->device_lost ? ENG_ERR_DEVICE_LOST : ENG_OK;
}

static void null_resize(void *ctx, uint32_t width, uint32_t height)
{
	null_ctx *c = ctx;
	if (width && height) {
		c->width = width;
		c->height = height;
	}
}

/* --- passes and draws --------------------------------------------------------------- */

static void null_begin_pass(void *ctx, const eng_pass_desc *desc)
{
	null_ctx *c = ctx;
	if (!c->recording || c->in_pass)
		return;
	uint32_t tw = c->width, th = c->height;
	if (desc->target.id) {
		const null_image *img = &c->images[eng_handle_slot(desc->target.id)];
		if (!(img->usage & ENG_IMAGE_TARGET)) {
			eng_error("null: pass into image %u, which is not a render target",
				  desc->target.id);
			return;
		}
		tw = img->width;
		th = img->height;
	}
	eng_rect a = desc->area;
	if (!a.w || !a.h)
		a = (eng_rect){0, 0, tw, th};
	if (desc->clear && !desc->target.id && c->n_clears < NULL_MAX_CLEARS &&
	    a.x >= 0 && a.y >= 0 && (uint32_t)a.x + a.w <= tw && (uint32_t)a.y + a.h <= th) {
		null_clear *k = &c->clears[c->n_clears++];
		k->area = a;
		for (int i = 0; i < 4; i++)
			k->rgba[i] = unorm8(desc->clear_color[i]);
	}
	c->in_pass = true;
	c->pipeline = false;
	c->parallel = desc->recorders > 1 ? desc->recorders : 0;
	if (c->parallel > ENG_GFX_MAX_RECORDERS)
		c->parallel = ENG_GFX_MAX_RECORDERS;
	c->gpu_ns += c->costs.pass_ns;
	c->rec.passes++;
	note(c, ENG_NULL_PASS, desc->target.id, a.w, a.h);
}

/* A draw's work as the APIs define it: every vertex of every instance
 * fetched and shaded (no post-transform cache), triangles of a list or a
 * strip, each clipped into one (the null device clips nothing away). */
static void count_draw(null_ctx *c, uint32_t count, uint32_t instances)
{
	bool strip = c->strip[eng_handle_slot(c->run_pipeline) % ENG_GFX_MAX_PIPELINES];
	uint64_t verts = (uint64_t)count * instances;
	uint64_t prims = (uint64_t)(strip ? (count >= 3 ? count - 2 : 0) : count / 3) * instances;
	null_work *w = &c->gfx_work;
	work_add(w, SOURCE_PROFILER_INPUT_VERTICES, verts);
	work_add(w, SOURCE_PROFILER_INPUT_PRIMITIVES, prims);
	work_add(w, SOURCE_PROFILER_VS_INVOCATIONS, verts);
	work_add(w, SOURCE_PROFILER_CLIPPING_INVOCATIONS, prims);
	work_add(w, SOURCE_PROFILER_CLIPPING_PRIMITIVES, prims);
}

/* Runs one command on the GPU clock: what the frame's stream does at
 * once, and a recorder's commands at the end of their pass. */
static void run(null_ctx *c, null_cmd k)
{
	switch (k.call) {
	case ENG_NULL_STAMP:
		run_stamp(c, k.a, k.b, (sp_gpu_stamp)k.d);
		return;
	case ENG_NULL_DRAW:
		c->gpu_ns += c->costs.draw_ns + c->costs.vertex_ns * k.b * k.d;
		c->rec.draws++;
		c->rec.vertices += (uint64_t)k.b * k.d;
		if (c->gfx_work.n_open)
			count_draw(c, k.b, k.d);
		break;
	case ENG_NULL_PIPELINE:
		c->run_pipeline = k.a;
		break;
	case ENG_NULL_WORK_BEGIN:
		work_run_begin(&c->gfx_work, k.a, k.b);
		break;
	case ENG_NULL_WORK_END:
		work_run_end(&c->gfx_work, k.a, k.b);
		break;
	default:
		break;
	}
	note(c, k.call, k.a, k.b, k.d);
}

/* Keeps a command of recorder r for its pass's end. */
static void keep(null_recorder *r, null_cmd cmd)
{
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 64;
		null_cmd *k = realloc(r->cmds, cap * sizeof *k);
		if (!k) {
			r->overflow = true;
			return;
		}
		r->cmds = k;
		r->cap = cap;
	}
	r->cmds[r->n++] = cmd;
}

/* A call of the pass: kept by this thread's recorder, or run now. */
static void issue(null_ctx *c, null_cmd cmd)
{
	if (t_rec)
		keep(t_rec, cmd);
	else
		run(c, cmd);
}

static uint32_t null_recorders(void *ctx)
{
	null_ctx *c = ctx;
	return c->in_pass && c->parallel ? c->parallel : 1;
}

static void null_recorder_begin(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	if (!c->in_pass || i >= c->parallel || c->recorders[i].begun)
		return;
	null_recorder *r = &c->recorders[i];
	r->begun = true;
	r->pipeline = false;
	r->n = 0;
	t_rec = r;
}

static void null_recorder_end(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	if (i >= c->parallel || !c->recorders[i].begun)
		return;
	if (t_rec == &c->recorders[i])
		t_rec = NULL;
}

static void *null_recorder_cmd(void *ctx, uint32_t i)
{
	null_ctx *c = ctx;
	return i < c->parallel && c->recorders[i].begun ? &c->recorders[i] : NULL;
}

static void null_end_pass(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->in_pass)
		return;
	/* The recorders' commands, recorder after recorder. */
	for (uint32_t i = 0; i < c->parallel; i++) {
		null_recorder *r = &c->recorders[i];
		if (!r->begun)
			continue;
		note(c, ENG_NULL_EXECUTE, i, r->n, 0);
		for (uint32_t k = 0; k < r->n; k++)
			run(c, r->cmds[k]);
		c->rec.draws_outside_pass += r->draws_outside_pass;
		c->rec.recorder_overflows += r->overflow;
		*r = (null_recorder){.cmds = r->cmds, .cap = r->cap};
	}
	if (c->parallel)
		c->rec.parallel_passes++;
	c->parallel = 0;
	c->in_pass = false;
	note(c, ENG_NULL_END_PASS, 0, 0, 0);
}

/* Whether a draw-state call comes inside a pass, on its thread. */
static bool in_pass(const null_ctx *c)
{
	return t_rec ? t_rec->begun : c->in_pass;
}

static void null_apply_pipeline(void *ctx, eng_pipeline pip)
{
	null_ctx *c = ctx;
	if (!in_pass(c))
		return;
	if (t_rec)
		t_rec->pipeline = true;
	else
		c->pipeline = true;
	issue(c, (null_cmd){ENG_NULL_PIPELINE, pip.id, 0, 0});
}

static void null_apply_uniforms(void *ctx, const void *data, size_t size)
{
	(void)data;
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_UNIFORMS, (uint32_t)size, 0, 0});
}

static void null_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices)
{
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_VERTICES, vertices.id, indices.id, 0});
}

static void null_apply_transient_vertices(void *ctx, const void *data, size_t size)
{
	(void)data;
	null_ctx *c = ctx;
	if (in_pass(c) && size)
		issue(c, (null_cmd){ENG_NULL_TRANSIENT, (uint32_t)size, 0, 0});
}

static void null_apply_image(void *ctx, eng_image img)
{
	null_ctx *c = ctx;
	if (in_pass(c))
		issue(c, (null_cmd){ENG_NULL_IMAGE, img.id, 0, 0});
}

static void null_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances)
{
	null_ctx *c = ctx;
	bool pipeline = t_rec ? t_rec->pipeline : c->pipeline;
	if (!in_pass(c) || !pipeline || !count || !instances) {
		if (t_rec)
			t_rec->draws_outside_pass++;
		else
			c->rec.draws_outside_pass++;
		return;
	}
	issue(c, (null_cmd){ENG_NULL_DRAW, first, count, instances});
}

/* --- compute ------------------------------------------------------------------------------ */

static bool null_has_compute(void *ctx)
{
	return ((null_ctx *)ctx)->compute;
}

static eng_result null_make_storage(void *ctx, eng_buffer h, const void *data, size_t size)
{
	(void)h;
	(void)data;
	(void)size;
	((null_ctx *)ctx)->rec.buffers_made++;
	return ENG_OK;
}

/* The value of SPIR-V constant `id` (OpConstant 43, OpSpecConstant 50 at
 * its default); 1 when there is none. */
static uint32_t spirv_constant(const uint32_t *code, size_t words, uint32_t id)
{
	for (size_t i = 5; i < words;) {
		uint32_t n = code[i] >> 16, op = code[i] & 0xffffu;
		if (!n || i + n > words)
			break;
		if ((op == 43 || op == 50) && n >= 4 && code[i + 2] == id)
			return code[i + 3];
		i += n;
	}
	return 1;
}

/* A compute shader's invocations per workgroup: the product of its local
 * size, OpExecutionMode (16) LocalSize (17) or OpExecutionModeId (331)
 * LocalSizeId (38) of constants; 1 when it has neither. */
static uint32_t spirv_local_size(const uint32_t *code, size_t words)
{
	for (size_t i = 5; i < words;) {
		uint32_t n = code[i] >> 16, op = code[i] & 0xffffu;
		if (!n || i + n > words)
			break;
		if (op == 16 && n >= 6 && code[i + 2] == 17)
			return code[i + 3] * code[i + 4] * code[i + 5];
		if (op == 331 && n >= 6 && code[i + 2] == 38)
			return spirv_constant(code, words, code[i + 3]) *
			       spirv_constant(code, words, code[i + 4]) *
			       spirv_constant(code, words, code[i + 5]);
		i += n;
	}
	return 1;
}

static eng_result null_make_compute(void *ctx, eng_pipeline h, const char *cs)
{
	(void)h;
	null_ctx *c = ctx;
	size_t size;
	uint32_t *code = eng_shader_load(c->shader_dir, cs, "vk", &size);
	if (!code)
		return ENG_ERR_SHADER;
	c->local_size[eng_handle_slot(h.id) % ENG_GFX_MAX_PIPELINES] =
		spirv_local_size(code, size / sizeof *code);
	free(code);
	c->rec.pipelines_made++;
	return ENG_OK;
}

static bool null_begin_compute(void *ctx)
{
	null_ctx *c = ctx;
	if (!c->recording || c->in_pass || c->compute_open)
		return false;
	c->compute_open = true;
	return true;
}

/* On the compute clock; inline on the graphics one in an isolated timing. */
static void null_dispatch(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b,
			  const void *push, size_t size, uint32_t groups)
{
	(void)a;
	(void)b;
	(void)push;
	(void)size;
	null_ctx *c = ctx;
	if (!c->compute_open)
		return;
	uint64_t cost = c->costs.dispatch_ns * groups;
	uint64_t invocations =
		(uint64_t)groups * c->local_size[eng_handle_slot(pip.id) % ENG_GFX_MAX_PIPELINES];
	/* An isolated timing runs it on the graphics stream. */
	work_add(c->isolating ? &c->gfx_work : &c->compute_work, SOURCE_PROFILER_CS_INVOCATIONS,
		 invocations);
	c->rec.dispatches++;
	c->rec.groups += groups;
	if (c->isolating) {
		c->gpu_ns += cost;
		note(c, ENG_NULL_DISPATCH, pip.id, groups, 0);
	} else {
		c->compute_ns += cost;
		note_at(c, ENG_NULL_DISPATCH, pip.id, groups, 0, c->compute_ns);
	}
}

static void null_end_compute(void *ctx)
{
	((null_ctx *)ctx)->compute_open = false;
}

static void *null_compute_cmd(void *ctx)
{
	null_ctx *c = ctx;
	return c->compute_open && !c->isolating ? &c->compute_cmd : NULL;
}

static const sp_gpu_timer_backend *null_compute_timer(void *ctx)
{
	null_ctx *c = ctx;
	return c->compute ? &c->compute_timer : NULL;
}

/* --- screenshots, isolated timing -------------------------------------------------------- */

static void null_request_screenshot(void *ctx)
{
	((null_ctx *)ctx)->screenshot_wanted = true;
}

static const uint8_t *null_read_screenshot(void *ctx, uint32_t *width, uint32_t *height)
{
	null_ctx *c = ctx;
	if (!c->screenshot_ready)
		return NULL;
	c->screenshot_ready = false;
	*width = c->screenshot_w;
	*height = c->screenshot_h;
	return c->screenshot;
}

static eng_result null_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns)
{
	null_ctx *c = ctx;
	if (c->device_lost)
		return ENG_ERR_DEVICE_LOST;
	if (c->recording)
		return ENG_ERR_INVALID;
	uint64_t start = c->gpu_ns;
	c->recording = true;
	c->isolating = true;
	fn(user);
	null_end_pass(c);
	c->compute_open = false;
	c->isolating = false;
	c->recording = false;
	if (eng_gfx_faults() & ENG_FAULT_ISOLATED_FAILS) {
		eng_gfx_inject_faults(eng_gfx_faults() & ~(uint32_t)ENG_FAULT_ISOLATED_FAILS);
		eng_error("null: an isolated timing could not be submitted (injected)");
		return ENG_ERR_OUT_OF_MEMORY;
	}
	c->gpu_ns += c->costs.submit_ns;
	uint64_t modeled = c->gpu_ns - start;
	*ns = c->costs.isolated_ns ? c->costs.isolated_ns(c->isolated_calls, modeled, c->costs.user)
				   : modeled;
	c->isolated_calls++;
	c->rec.isolated++;
	if (note(c, ENG_NULL_ISOLATED, 0, 0, 0))
		c->events[c->rec.n_events - 1].gpu_ns = *ns;
	return ENG_OK;
}

/* One more open set around all of fn, as a device's query around a
 * submission: it counts every draw and dispatch fn records. */
static eng_result null_count_isolated(void *ctx, void (*fn)(void *user), void *user,
				      uint32_t counted, uint64_t *counts)
{
	null_ctx *c = ctx;
	null_work *w = &c->gfx_work;
	if (!c->work || c->recording || w->n_open == NULL_WORK_OPEN)
		return ENG_ERR_INVALID;
	uint64_t v[SOURCE_PROFILER_COUNTERS] = {0};
	w->open[w->n_open++] = v;
	uint64_t ns;
	eng_result r = null_time_isolated(ctx, fn, user, &ns);
	for (uint32_t i = 0; i < w->n_open; i++)
		if (w->open[i] == v) {
			w->open[i] = w->open[--w->n_open];
			break;
		}
	for (uint32_t i = 0; r == ENG_OK && i < SOURCE_PROFILER_COUNTERS; i++)
		if (counted & (1u << i))
			counts[i] = v[i];
	return r;
}

const eng_gfx_backend *null_gfx_backend(void)
{
	static const eng_gfx_backend b = {
		.name = "null",
		.init = null_init,
		.shutdown = null_shutdown,
		.get_info = null_get_info,
		.gpu_timer = null_gpu_timer,
		.validation_messages = null_validation_messages,
		.make_buffer = null_make_buffer,
		.destroy_buffer = null_destroy_buffer,
		.make_image = null_make_image,
		.destroy_image = null_destroy_image,
		.update_image = null_update_image,
		.make_pipeline = null_make_pipeline,
		.begin_frame = null_begin_frame,
		.end_frame = null_end_frame,
		.wait_frame = null_wait_frame,
		.resize = null_resize,
		.begin_pass = null_begin_pass,
		.end_pass = null_end_pass,
		.apply_pipeline = null_apply_pipeline,
		.apply_uniforms = null_apply_uniforms,
		.apply_vertices = null_apply_vertices,
		.apply_transient_vertices = null_apply_transient_vertices,
		.apply_image = null_apply_image,
		.draw = null_draw,
		.recorders = null_recorders,
		.recorder_begin = null_recorder_begin,
		.recorder_end = null_recorder_end,
		.recorder_cmd = null_recorder_cmd,
		.has_compute = null_has_compute,
		.make_storage = null_make_storage,
		.make_compute = null_make_compute,
		.begin_compute = null_begin_compute,
		.dispatch = null_dispatch,
		.end_compute = null_end_compute,
		.compute_cmd = null_compute_cmd,
		.compute_timer = null_compute_timer,
		.request_screenshot = null_request_screenshot,
		.read_screenshot = null_read_screenshot,
		.time_isolated = null_time_isolated,
		.count_isolated = null_count_isolated,
	};
	return &b;
}

/* --- engine/null.h ----------------------------------------------------------------------- */

static null_ctx *current(void)
{
	return eng_gfx_context_of(null_gfx_backend());
}

bool eng_null_get_record(eng_null_record *r)
{
	null_ctx *c = current();
	if (!c)
		return false;
	*r = c->rec;
	r->gpu_ns = c->gpu_ns;
	r->compute_ns = c->compute_ns;
	r->events = c->events;
	return true;
}

void eng_null_clear_record(void)
{
	null_ctx *c = current();
	if (c)
		c->rec = (eng_null_record){0};
}

void eng_null_set_costs(const eng_null_desc *costs)
{
	null_ctx *c = current();
	if (c)
		c->costs = costs ? *costs : (eng_null_desc){0};
}

uint64_t eng_null_cpu_ns(void)
{
	null_ctx *c = current();
	return c ? atomic_load(&c->cpu_ns) : 0;
}
