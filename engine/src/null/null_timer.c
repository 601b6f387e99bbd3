/* The null device's GPU timers (srcprof/gpu_timer.h): the graphics one,
 * whose stamps are commands on the graphics stream (null_stream.c), and
 * compute's, which stamps the compute clock as its commands are recorded.
 * Both read back at once: a frame's stamps are there once it ran. */
#include "null_internal.h"

#include <stddef.h>
#include <string.h>

static uint32_t timer_reserve(void *user, uint32_t slot, uint32_t queries)
{
	null_ctx *c = user;
	if (c->work)
		null_work_reserve(&c->gfx_work, slot, queries);
	return null_stamps_reserve(&c->gfx, slot, queries);
}

static void timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	null_ctx *c = user;
	atomic_fetch_add(&c->cpu_ns, c->costs.stamp_cpu_ns);
	null_run_stamp(c, slot, query, kind);
}

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
	null_keep(r, (null_cmd){ENG_NULL_STAMP, slot, query, (uint32_t)kind});
}

static sp_gpu_read timer_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				   uint8_t *avail)
{
	return null_stamps_read_each(&((null_ctx *)user)->gfx, slot, count, ns, avail);
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
		null_run(c, (null_cmd){call, slot, set, 0});
	else if (r >= c->recorders && r < c->recorders + ENG_GFX_MAX_RECORDERS && r->begun)
		null_keep(r, (null_cmd){call, slot, set, 0});
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
	return null_work_read(&((null_ctx *)user)->gfx_work, slot, count, values, avail);
}

const sp_gpu_timer_backend *null_gpu_timer(void *ctx)
{
	return ((null_ctx *)ctx)->gpu_timer; /* under the faults */
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
		null_work_reserve(&c->compute_work, slot, queries);
	return null_stamps_reserve(user, slot, queries);
}

/* The compute command buffer's sets count as its commands are recorded
 * (they run in that order). */
static void compute_work_begin(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	null_ctx *c = compute_owner(user);
	if (cmd == &c->compute_cmd && c->compute_open) {
		null_work_run_begin(&c->compute_work, slot, set);
		null_note_at(c, ENG_NULL_WORK_BEGIN, slot, set, 0, c->compute_ns);
	}
}

static void compute_work_end(void *user, void *cmd, uint32_t slot, uint32_t set)
{
	null_ctx *c = compute_owner(user);
	if (cmd == &c->compute_cmd && c->compute_open) {
		null_work_run_end(&c->compute_work, slot, set);
		null_note_at(c, ENG_NULL_WORK_END, slot, set, 0, c->compute_ns);
	}
}

static sp_gpu_read compute_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				     uint8_t *avail)
{
	return null_work_read(&compute_owner(user)->compute_work, slot, count, values, avail);
}

static void compute_stamp(null_ctx *c, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	atomic_fetch_add(&c->cpu_ns, c->costs.stamp_cpu_ns);
	if (!null_stamps_put(&c->compute_stamps, slot, query, c->compute_ns))
		return;
	c->compute_ns += c->costs.stamp_ns;
	c->rec.compute_stamps++;
	null_note_at(c, ENG_NULL_STAMP, slot, query, (uint32_t)kind, c->compute_ns);
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
	return null_stamps_read_each(user, slot, count, ns, avail);
}

static void compute_frame_open(void *user, uint32_t slot)
{
	null_stamps *t = user;
	if (slot < NULL_SLOTS && t->cap[slot])
		memset(t->written[slot], 0, t->cap[slot]);
	null_work_clear(&compute_owner(user)->compute_work, slot);
}

void null_timers_init(null_ctx *c, const eng_gfx_desc *desc)
{
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
}
