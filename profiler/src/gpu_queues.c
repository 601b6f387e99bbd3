/* The GPU timers' queues: the state of the GPU side (sp_gpu), each queue's
 * backend installed, added or removed, what other threads may read of them
 * (mode, names, whether timers are costly), and shutdown. What a queue's
 * slots held is forgotten when its backend changes; the slots themselves
 * are gpu.c's, the recording threads' chunks gpu_stream.c's. */
#include "sp_gpu_state.h"
#include "sp_state.h"
#include "sp_util.h"
#include "sp_work.h"

#include <stdio.h>
#include <string.h>

sp_gpu_state sp_gpu;
_Atomic uint32_t sp_gpu_capacity_pub;
static _Atomic(const char *) g_mode = "none";
static _Atomic bool g_costly_pub;
/* Queue names for any thread (reports, traces); written under no lock
 * before the queue is installed, cleared after it is removed. */
static _Atomic(const char *) g_queue_name[SP_MAX_QUEUES];
/* And for recording threads: whether its backend stamps named command
 * buffers; and its mode, for traces. */
static _Atomic bool g_queue_cmds[SP_MAX_QUEUES];
static _Atomic(const char *) g_queue_mode[SP_MAX_QUEUES];

const char *sp_gpu_mode(void)
{
	return atomic_load_explicit(&g_mode, memory_order_acquire);
}

bool sp_gpu_has_backend(void)
{
	return sp_gpu.q[0].installed;
}

bool sp_gpu_costly(void)
{
	return sp_gpu.q[0].installed && sp_gpu.q[0].b.costly;
}

bool sp_gpu_costly_pub(void)
{
	return atomic_load_explicit(&g_costly_pub, memory_order_relaxed);
}

int64_t sp_gpu_cpu_offset(uint32_t queue)
{
	const sp_gpu_queue *q = queue < SP_MAX_QUEUES ? &sp_gpu.q[queue] : NULL;
	return q && q->installed && q->b.cpu_offset_ns ? q->b.cpu_offset_ns(q->b.user) : 0;
}

bool sp_gpu_subtracts(uint32_t queue)
{
	return queue < SP_MAX_QUEUES && sp_gpu.q[queue].installed &&
	       sp_gpu.q[queue].b.subtract_empty_timer;
}

bool sp_gpu_queue_stamps_cmds(uint32_t queue)
{
	return queue < SP_MAX_QUEUES &&
	       atomic_load_explicit(&g_queue_cmds[queue], memory_order_relaxed);
}

const char *sp_gpu_queue_mode(uint32_t queue)
{
	const char *m = queue < SP_MAX_QUEUES
				? atomic_load_explicit(&g_queue_mode[queue], memory_order_acquire)
				: NULL;
	return m ? m : "none";
}

void sp_gpu_publish_capacity(void)
{
	uint32_t cap = UINT32_MAX;
	for (unsigned i = 0; i < sp_fif; i++)
		if (sp_gpu.q[0].slots[i].capacity < cap)
			cap = sp_gpu.q[0].slots[i].capacity;
	atomic_store(&sp_gpu_capacity_pub, cap == UINT32_MAX ? 0 : cap);
}

/* What a queue's last backend measured says nothing of this one's: its
 * renders would have the old figures subtracted for dozens of frames. */
static void install(uint32_t qi, const sp_gpu_timer_backend *backend)
{
	sp_gpu_queue *q = &sp_gpu.q[qi];
	q->installed = backend && backend->reserve && backend->write && backend->read;
	if (q->installed)
		q->b = *backend;
	else
		memset(&q->b, 0, sizeof q->b);
	q->measure_empty = q->b.subtract_empty_timer || q->b.costly;
	/* Work counters need all three functions. */
	if (!q->b.work_begin || !q->b.work_end || !q->b.read_work)
		q->b.work_counters = 0;
	uint32_t counted = 0;
	for (uint32_t i = 0; i < SP_MAX_QUEUES; i++)
		if (sp_gpu.q[i].installed)
			counted |= sp_gpu.q[i].b.work_counters;
	sp_work_set_counted(counted);
	q->backend_gen++;
	for (unsigned i = 0; i < SP_MAX_FIF; i++) {
		q->slots[i].on = false;
		atomic_store(&q->slots[i].streams_open, false);
		q->slots[i].capacity = 0;
		q->slots[i].refused = 0;
		q->slots[i].refusal_said = false;
	}
	q->want_direct = q->want_stream = q->stream_last = 0;
	atomic_store_explicit(&g_queue_cmds[qi], q->installed && q->b.write_cmd,
			      memory_order_relaxed);
	atomic_store_explicit(&g_queue_mode[qi], q->installed && q->b.mode ? q->b.mode : "none",
			      memory_order_release);
}

void source_profiler_set_gpu_backend(const sp_gpu_timer_backend *backend)
{
	install(0, backend);
	sp_gpu_queue *q = &sp_gpu.q[0];
	if (sp_gpu.n_queues < 1)
		sp_gpu.n_queues = 1;
	sp_gpu_empty_backend(q->b.tick_ns, q->measure_empty, q->installed);
	atomic_store_explicit(&g_costly_pub, q->installed && q->b.costly, memory_order_relaxed);
	snprintf(q->name, sizeof q->name, "%s", "graphics");
	atomic_store_explicit(&g_queue_name[0], q->installed ? q->name : NULL,
			      memory_order_release);
	sp_gpu_empty_reset();
	sp_gpu_range_reset();
	atomic_store_explicit(&g_mode, q->installed && q->b.mode ? q->b.mode : "none",
			      memory_order_release);
	sp_gpu_publish_capacity();
}

uint32_t source_profiler_add_gpu_queue(const sp_gpu_timer_backend *backend, const char *name)
{
	if (!backend || !backend->reserve || !backend->write || !backend->read) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "add_gpu_queue: the backend needs reserve, write and read; no queue added");
		sp_count_add(&sp_count.ignored_calls, 1);
		return 0;
	}
	uint32_t qi = 1;
	while (qi < SP_MAX_QUEUES && sp_gpu.q[qi].installed)
		qi++;
	if (qi == SP_MAX_QUEUES) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "add_gpu_queue(\"%s\"): %u queues at most; no queue added", name ? name : "",
		       SP_MAX_QUEUES);
		sp_count_add(&sp_count.ignored_calls, 1);
		return 0;
	}
	install(qi, backend);
	sp_gpu_queue *q = &sp_gpu.q[qi];
	snprintf(q->name, sizeof q->name, "%s", name && *name ? name : "queue");
	atomic_store_explicit(&g_queue_name[qi], q->name, memory_order_release);
	if (qi >= sp_gpu.n_queues)
		sp_gpu.n_queues = qi + 1;
	return qi;
}

void source_profiler_remove_gpu_queue(uint32_t queue)
{
	if (queue == 0 || queue >= SP_MAX_QUEUES || !sp_gpu.q[queue].installed) {
		sp_count_add(&sp_count.ignored_calls, 1);
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "remove_gpu_queue(%u): no such queue (0 is removed with "
		       "set_gpu_backend(NULL))",
		       queue);
		return;
	}
	/* Its frames in flight are dropped: their slots are off. */
	install(queue, NULL);
	atomic_store_explicit(&g_queue_name[queue], NULL, memory_order_release);
	if (sp_gpu.bound_queue == queue) {
		sp_gpu.bound_queue = 0;
		sp_gpu.bound_cmd = NULL;
	}
}

const char *source_profiler_queue_name(uint32_t queue)
{
	return queue < SP_MAX_QUEUES ? atomic_load_explicit(&g_queue_name[queue], memory_order_acquire)
				     : NULL;
}

uint32_t sp_gpu_empty_timers_last(void)
{
	return sp_gpu.empty_last;
}

/* --- shutdown -------------------------------------------------------------- */

void sp_gpu_shutdown(void)
{
	for (uint32_t qi = 0; qi < SP_MAX_QUEUES; qi++) {
		sp_gpu_queue *q = &sp_gpu.q[qi];
		for (unsigned i = 0; i < SP_MAX_FIF; i++) {
			sp_gpu_slot *s = &q->slots[i];
			sp_free(s->timers, s->timers_cap * sizeof *s->timers);
			sp_free(s->chunk, s->chunk_cap * sizeof *s->chunk);
			*s = (sp_gpu_slot){0};
		}
		sp_free(q->ns, q->ns_cap * sizeof *q->ns);
		sp_free(q->avail, q->ns_cap);
		q->ns = NULL;
		q->avail = NULL;
		q->ns_cap = 0;
		sp_free(q->work, (size_t)q->work_cap * SOURCE_PROFILER_COUNTERS * sizeof *q->work);
		sp_free(q->work_avail, q->work_cap);
		q->work = NULL;
		q->work_avail = NULL;
		q->work_cap = 0;
		if (qi)
			install(qi, NULL);
		atomic_store(&g_queue_name[qi], NULL);
	}
	sp_gpu.n_queues = 1;
	sp_gpu.bound_queue = 0;
	sp_gpu.bound_cmd = NULL;
	sp_gpu.last_warn_ns = 0;
	sp_gpu.suppressed = 0;
	sp_gpu.said_unavailable = false;
	sp_gpu.said_denied = false;
	source_profiler_set_gpu_backend(NULL);
}
