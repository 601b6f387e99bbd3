/* What an empty GPU timer costs, where: written among a pass's renders
 * (by the graphics thread in its frame, by a recording thread in its
 * command buffer), measured at collect, subtracted from the renders'
 * times where the backend asks for it (docs/gpu-timing.md, "Empty
 * timers"), and the resolution the reports give. */
#include "sp_gpu_state.h"
#include "srcprof_base/stats.h"

#include <stdlib.h>
#include <string.h>

/* How many of its latest empty timers a place in a pass keeps: their
 * median is what its renders have subtracted (docs/gpu-timing.md, "Empty
 * timers", has why 64 and not 16). */
#define SP_EMPTY_RING 64u

/* Per kind of place (SP_GPU_LEAD: a pass's first timer of the frame or of
 * a command buffer; SP_GPU_LATER: any after it) and pass, what an empty
 * timer there costs: they differ where the first timer takes what the
 * pass's start leaves (a clear). */
static _Atomic uint32_t g_overhead[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
/* Per place and pass: the interquartile range of its last SP_EMPTY_RING
 * empty timers, how far apart two readings of the same work typically
 * are. Not the extremes: a rasterizer thread preempted now and then reads
 * several times the rest, which averages out of a window's figures but
 * would make every source read "below resolution". */
static _Atomic uint32_t g_spread[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
/* Per pass: the later place holds 4 empty timers, enough for its figures
 * to stand for the pass in the reports (its spread needs 4). */
static _Atomic bool g_later_ready[SOURCE_PROFILER_MAX_PASSES];
/* For readers on any thread: the backend's tick (0: no backend) and
 * whether it measures empty timers. */
static _Atomic uint64_t g_tick_pub;
static _Atomic bool g_empty_pub;

/* Graphics thread: the rings the medians come from. */
static struct {
	uint32_t ns[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES][SP_EMPTY_RING];
	uint8_t head[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
	uint8_t count[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
} g_rings;

void sp_gpu_empty_backend(double tick_ns, bool measured, bool installed)
{
	/* 1 ns below (and for NaN); a tick of a second at most above (an
	 * infinite or absurd tick_ns would not convert). */
	double tick = tick_ns > 1.0 ? tick_ns : 1.0;
	if (!(tick <= 1e9))
		tick = 1e9;
	atomic_store_explicit(&g_tick_pub, installed ? (uint64_t)(tick + 0.5) : 0,
			      memory_order_relaxed);
	atomic_store_explicit(&g_empty_pub, measured, memory_order_relaxed);
}

void sp_gpu_places_reset(sp_gpu_places *pl)
{
	pl->done = 0;
	pl->last_pass = UINT32_MAX;
}

static void write_empty(sp_gpu_queue *q, unsigned slot, void *cmd, uint32_t i, uint32_t pass,
			uint8_t state)
{
	sp_gpu_timer *timers = q->slots[slot].timers;
	timers[i] = (sp_gpu_timer){.next = SP_NO_ENTRY, .pass = (uint8_t)pass,
				   .named = cmd && q->b.write_cmd, .state = state};
	sp_gpu_write(q, slot, cmd, 2u + 2u * i, SP_GPU_STAMP_TIMER_BEGIN);
	sp_gpu_write(q, slot, cmd, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
}

/* The pass's first timer here, none open: time an empty one in front of
 * it, in the same context (target, pass state) as the renders that
 * follow. It takes what the pass's start leaves (on llvmpipe the main
 * view's first timer pays for its clear), so that no render opens its
 * pass. The pass's renders are then measured by a second empty timer
 * among them, after k of them (k taken in turn from 0, right after the
 * first empty timer, to the last count - 1): its median is what they have
 * subtracted. Only the first where the backend does not subtract them (the
 * sampler's estimate needs one). Returns whether one was written. */
static bool begin_pass(sp_gpu_queue *q, unsigned slot, void *cmd, sp_gpu_places *pl, uint32_t pass,
		       bool others_open, uint32_t (*take)(void *ctx, uint32_t need), void *ctx)
{
	pl->renders_last[pass] = pl->renders[pass];
	pl->renders[pass] = 0;
	pl->later_at[pass] = 0;
	if (others_open)
		return false;
	uint32_t i = take(ctx, 2); /* and room for the render's own */
	if (i == UINT32_MAX)
		return false;
	write_empty(q, slot, cmd, i, pass, SP_TIMER_EMPTY);
	if (!q->b.subtract_empty_timer)
		return true;
	uint32_t n = pl->renders_last[pass] > 1 ? pl->renders_last[pass] : 1;
	pl->later_turn[pass] = (pl->later_turn[pass] + 1) % n;
	if (pl->later_turn[pass]) {
		pl->later_at[pass] = pl->later_turn[pass];
	} else {
		i = take(ctx, 2);
		if (i != UINT32_MAX)
			write_empty(q, slot, cmd, i, pass, SP_TIMER_EMPTY_LATER);
	}
	return true;
}

bool sp_gpu_empty_before(sp_gpu_queue *q, unsigned slot, void *cmd, sp_gpu_places *pl,
			 uint32_t pass, bool others_open, uint32_t (*take)(void *ctx, uint32_t need),
			 void *ctx)
{
	bool lead = false;
	if (SP_UNLIKELY(!(pl->done & (1ull << pass)))) {
		pl->done |= 1ull << pass; /* considered once per frame (command buffer) */
		lead = !(q->measure_empty && begin_pass(q, slot, cmd, pl, pass, others_open, take, ctx));
	} else if (SP_UNLIKELY(pl->later_at[pass]) && pl->renders[pass] >= pl->later_at[pass] &&
		   !others_open && pl->last_pass == pass) {
		/* Between two renders of the pass, none open (nothing of theirs
		 * inside), not where it is entered again (another target). */
		uint32_t i = take(ctx, 2);
		if (i != UINT32_MAX)
			write_empty(q, slot, cmd, i, pass, SP_TIMER_EMPTY_LATER);
		pl->later_at[pass] = 0;
	}
	pl->renders[pass]++;
	pl->last_pass = pass;
	return lead;
}

/* The place whose figures stand for the pass in the reports: after its
 * first timer, where its renders are, once measured there four times. */
static unsigned usual_place(uint32_t pass)
{
	return atomic_load_explicit(&g_later_ready[pass], memory_order_relaxed) ? SP_GPU_LATER
										  : SP_GPU_LEAD;
}

uint64_t sp_gpu_overhead_mean(void)
{
	uint64_t sum = 0, n = 0;
	for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++) {
		uint32_t v = atomic_load_explicit(&g_overhead[usual_place(p)][p], memory_order_relaxed);
		if (v) {
			sum += v;
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* The median of the last SP_EMPTY_RING empty timers of a place in a pass
 * becomes its overhead; until it has 4, their minimum: a timer is only
 * ever slowed down (a preempted queue thread), and one slow first sample
 * must not swallow every render measured against it. */
void sp_gpu_empty_record(unsigned place, uint32_t pass, uint64_t ns)
{
	if (pass >= SOURCE_PROFILER_MAX_PASSES)
		return;
	uint32_t *ring = g_rings.ns[place][pass];
	uint8_t *head = &g_rings.head[place][pass], *count = &g_rings.count[place][pass];
	ring[*head] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	*head = (uint8_t)((*head + 1) % SP_EMPTY_RING);
	if (*count < SP_EMPTY_RING)
		(*count)++;
	uint32_t sorted[SP_EMPTY_RING];
	uint32_t n = *count;
	memcpy(sorted, ring, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, stats_cmp_u32);
	/* 0 means "not measured" to the readers: a timer that reads 0 (two
	 * stamps on one tick) is recorded as 1 ns. */
	uint32_t mid = sorted[n < 4 ? 0 : n / 2];
	if (!mid)
		mid = 1;
	atomic_store_explicit(&g_overhead[place][pass], mid, memory_order_relaxed);
	/* The spread needs a few to mean anything. */
	uint32_t spread = n < 4 ? 0 : sorted[(3 * n) / 4] - sorted[n / 4];
	atomic_store_explicit(&g_spread[place][pass], spread, memory_order_relaxed);
	if (place == SP_GPU_LATER && n >= 4)
		atomic_store_explicit(&g_later_ready[pass], true, memory_order_relaxed);
}

uint64_t sp_gpu_resolution(void)
{
	uint64_t res = atomic_load_explicit(&g_tick_pub, memory_order_relaxed);
	if (!res || !atomic_load_explicit(&g_empty_pub, memory_order_relaxed))
		return res;
	bool any = false;
	for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++) {
		unsigned place = usual_place(p);
		if (!atomic_load_explicit(&g_overhead[place][p], memory_order_relaxed))
			continue;
		any = true;
		uint32_t v = atomic_load_explicit(&g_spread[place][p], memory_order_relaxed);
		if (v > res)
			res = v;
	}
	return any ? res : 0; /* not known until a pass has measured empty timers */
}

uint32_t sp_gpu_overhead(const sp_gpu_timer *t, bool subtract)
{
	if (!subtract || t->pass >= SOURCE_PROFILER_MAX_PASSES)
		return 0;
	uint32_t v = t->lead ? 0 : atomic_load_explicit(&g_overhead[SP_GPU_LATER][t->pass],
							memory_order_relaxed);
	/* A render that opens its pass (no empty timer fitted before it, or
	 * another timer was open) has the first place's figure subtracted,
	 * and so does any render before the later place is measured. */
	return v ? v : atomic_load_explicit(&g_overhead[SP_GPU_LEAD][t->pass], memory_order_relaxed);
}

void sp_gpu_empty_reset(void)
{
	memset(g_rings.head, 0, sizeof g_rings.head);
	memset(g_rings.count, 0, sizeof g_rings.count);
	for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++)
		atomic_store(&g_later_ready[p], false);
	for (unsigned k = 0; k < SP_GPU_PLACES; k++)
		for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++) {
			atomic_store(&g_overhead[k][p], 0);
			atomic_store(&g_spread[k][p], 0);
		}
}
