/* GPU timers on recording threads: each thread's stream takes its timers
 * in chunks of its queue's slot with one atomic add each, into the command
 * buffer it names (sp_gpu_stream_bind). The chunks sit after the graphics
 * thread's timers (gpu.c); gpu_collect.c reads them back with the rest. */
#include "sp_gpu_state.h"
#include "sp_state.h"
#include "sp_util.h"

#include <string.h>

/* Recording threads begin timers only for a backend that stamps named
 * command buffers; said once per stream otherwise. */
bool sp_gpu_stream_bind(sp_gpu_stream *g, uint32_t queue, void *cmd)
{
	/* The queue table is the graphics thread's; a queue is added or
	 * removed between frames, which the renderer orders before its
	 * recording threads start. */
	if (queue >= SP_MAX_QUEUES || (queue && !source_profiler_queue_name(queue)))
		return false;
	/* Its chunk's timers can go into any command buffer of the queue;
	 * another queue's are another slot's. */
	if (queue != g->queue) {
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
	}
	g->queue = queue;
	g->cmd = cmd;
	g->cmd_gen++;
	g->open = 0;
	sp_gpu_places_reset(&g->places);
	return true;
}

typedef struct stream_take {
	sp_gpu_stream *g;
	sp_gpu_slot *s;
} stream_take;

/* A new chunk of the slot's timers for the stream; false when none is
 * left (the frame overflows). */
static bool new_chunk(sp_gpu_stream *g, sp_gpu_slot *s)
{
	uint32_t c = atomic_fetch_add_explicit(&s->chunk_next, 1, memory_order_relaxed);
	if (c >= s->chunks) {
		atomic_fetch_add_explicit(&s->stream_denied, 1, memory_order_relaxed);
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
		return false;
	}
	atomic_store_explicit(&s->chunk[c].owner, g->id, memory_order_relaxed);
	atomic_store_explicit(&s->chunk[c].used, 0, memory_order_relaxed);
	g->chunk = c;
	g->next = s->direct_cap + c * SP_TIMER_CHUNK;
	g->end = g->next + SP_TIMER_CHUNK;
	return true;
}

static uint32_t take_stream(void *ctx, uint32_t need)
{
	stream_take *st = ctx;
	sp_gpu_stream *g = st->g;
	if (g->next + need > g->end && !new_chunk(g, st->s))
		return UINT32_MAX;
	/* Counted in the chunk (publish_chunk) once the timer is written. */
	return g->next++;
}

/* The chunk's count of timers handed out, after they were written: collect
 * reads them (acquire) and every timer below it. */
static void publish_chunk(sp_gpu_stream *g, sp_gpu_slot *s)
{
	if (g->chunk != UINT32_MAX)
		atomic_store_explicit(&s->chunk[g->chunk].used,
				      g->next - (s->direct_cap + g->chunk * SP_TIMER_CHUNK),
				      memory_order_release);
}

sp_gpu_timer *sp_gpu_stream_begin(sp_gpu_stream *g, uint64_t frame, unsigned slot, uint32_t pass)
{
	if (g->frame != frame) {
		g->frame = frame;
		g->next = g->end = 0;
		g->chunk = UINT32_MAX;
		g->open = 0;
		sp_gpu_places_reset(&g->places);
	}
	sp_gpu_queue *q = &sp_gpu.q[g->queue];
	sp_gpu_slot *s = &q->slots[slot];
	if (!atomic_load_explicit(&s->streams_open, memory_order_acquire))
		return NULL;
	if (!g->cmd)
		return NULL; /* no command buffer named: no place for stamps */
	stream_take st = {g, s};
	bool lead = sp_gpu_empty_before(q, slot, g->cmd, &g->places, pass, g->open != 0,
					take_stream, &st);
	uint32_t i = take_stream(&st, 1);
	if (i == UINT32_MAX) {
		publish_chunk(g, s);
		return NULL;
	}
	sp_gpu_timer *t = &s->timers[i];
	*t = (sp_gpu_timer){.next = g->cmd_gen, .lead = lead, .named = 1,
			    .state = SP_TIMER_BEGUN, .work = s->work && !g->open};
	q->b.write_cmd(q->b.user, g->cmd, slot, 2u + 2u * i, SP_GPU_STAMP_TIMER_BEGIN);
	if (t->work)
		q->b.work_begin(q->b.user, g->cmd, slot, i);
	g->open++;
	publish_chunk(g, s);
	return t;
}

uint32_t sp_gpu_stream_end(sp_gpu_stream *g, unsigned slot, sp_gpu_timer *t)
{
	sp_gpu_queue *q = &sp_gpu.q[g->queue];
	sp_gpu_slot *s = &q->slots[slot];
	uintptr_t p = (uintptr_t)t, lo = (uintptr_t)s->timers;
	uint32_t first = s->direct_cap;
	/* Only a timer of a chunk this stream owns is read: another thread's
	 * may be written right now. */
	if (!g->cmd || !s->timers || p < lo + first * sizeof *t ||
	    p >= lo + (first + s->chunks * SP_TIMER_CHUNK) * sizeof *t || (p - lo) % sizeof *t)
		return SP_NO_ENTRY;
	uint32_t i = (uint32_t)((p - lo) / sizeof *t);
	uint32_t c = (i - first) / SP_TIMER_CHUNK;
	if (c >= atomic_load_explicit(&s->chunk_next, memory_order_relaxed) ||
	    atomic_load_explicit(&s->chunk[c].owner, memory_order_relaxed) != g->id ||
	    i - (first + c * SP_TIMER_CHUNK) >=
		    atomic_load_explicit(&s->chunk[c].used, memory_order_relaxed) ||
	    t->state != SP_TIMER_BEGUN || t->next != g->cmd_gen)
		return SP_NO_ENTRY;
	if (t->work)
		q->b.work_end(q->b.user, g->cmd, slot, i);
	q->b.write_cmd(q->b.user, g->cmd, slot, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
	t->state = SP_TIMER_ENDED;
	t->next = SP_NO_ENTRY;
	g->open--;
	return sp_timer_id(g->queue, i);
}

sp_gpu_timer *sp_gpu_timer_at(unsigned slot, uint32_t id)
{
	sp_gpu_slot *s = &sp_gpu.q[id >> SP_TIMER_QUEUE_SHIFT].slots[slot];
	return &s->timers[id & SP_TIMER_INDEX_MASK];
}

