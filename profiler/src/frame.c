/* The frame protocol: enable and reset_video, frame_begin, frames in
 * flight, render_begin / render_end, and frame_collect with its loop over
 * every entry. The tick and render calls between them are in record.c.
 * Graphics thread, but for enable / gpu_enable and frames_in_flight. */
#include "sp_arena.h"
#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_lifecycle.h"
#include "sp_rcu.h"
#include "sp_record.h"
#include "sp_sampler.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_trace.h"
#include "sp_util.h"
#include "sp_window.h"
#include "sp_window_push.h"
#include "sp_work.h"

#include <string.h>

/* --- frame protocol ------------------------------------------------------- */

void source_profiler_frame_begin(void)
{
	SP_STORE(sp_core.graphics, &sp_thread_token);
	srcprof_clock_maintain();
	sp_core.tsc = SP_HAVE_TSC && SP_LOAD(sp_clock.kind) == SP_CLOCK_TSC;
	sp_core.mult = sp_core.tsc ? SP_LOAD(sp_clock.mult) : 1ull << 32;
	if (!sp_core.mult)
		sp_core.mult = 1ull << 32;
	/* Below it the product is exact in 64 bits and the duration fits 32. */
	sp_core.fast_ticks = UINT64_MAX / sp_core.mult;
	sp_process_removals();
	sp_retire_flush();

	if (!sp_core.on && atomic_load(&sp_core.enable_next))
		sp_turn_on();
	sp_core.gpu_possible =
		sp_core.on && atomic_load(&sp_core.gpu_enable_next) && sp_gpu_has_backend();
	atomic_store(&sp_core.gpu_live, sp_core.gpu_possible);
	sp_core.frame++;
	sp_core.slot = (unsigned)(sp_core.frame % sp_fif);
	/* The last pass of a frame is left here, not by set_pass: its column
	 * must be remembered too (every frame's first render in it missed). */
	sp_core.col_of_pass[sp_core.pass & 0xffu] = (uint8_t)sp_core.pass_column;
	sp_core.pass = sp_pass_key(0, sp_gpu_bound_queue());
	sp_core.pass_column = sp_core.col_of_pass[0];
	sp_core.timer_asks = 0;
	sp_core.range = 0;
	sp_core.tick_next = sp_core.tick_first;
	sp_core.tick_link = &sp_core.tick_first;
	sp_core.render_next = sp_core.render_first;
	sp_core.render_link = &sp_core.render_first;

	bool trace = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	uint64_t now = trace || sp_core.on ? sp_now() : 0;
	if (trace || sp_core.on) {
		sp_trace_maintain(now);
		if (atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
			sp_trace_frame((uint32_t)sp_core.frame, now);
	}
	sp_core.gpu_frame =
		sp_core.on && sp_sampler_frame_begin(sp_core.gpu_possible, now, sp_core.frame);
#if SP_HAVE_TSC
	sp_core.frame_base = sp_core.tsc ? __rdtsc() : srcprof_clock_ns();
#else
	sp_core.frame_base = srcprof_clock_ns();
#endif
	sp_fast_paths();
	if (sp_core.gpu_frame) {
		sp_gpu_set_threads(sp_streams_live());
		sp_gpu_prepare(sp_core.slot, SP_LOAD(sp_core.sources));
	}
}

bool source_profiler_gpu_frame_timed(void)
{
	return sp_core.gpu_frame;
}

void source_profiler_set_frames_in_flight(uint32_t n)
{
	if (n < 1 || n > SP_MAX_FIF) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "set_frames_in_flight(%u): must be 1 to %u; keeping %u", n, SP_MAX_FIF, sp_fif);
		sp_ignored();
		return;
	}
	if (n == sp_fif)
		return;
	sp_fif = n;
	atomic_store(&sp_core.fif_pub, n);
	/* Frames recorded so far would be collected from the wrong slots. */
	sp_core.on_since = sp_core.frame + 1;
	sp_core.slot = (unsigned)(sp_core.frame % sp_fif);
	sp_gpu_reset_slots();
}

uint32_t source_profiler_frames_in_flight(void)
{
	return atomic_load(&sp_core.fif_pub);
}

uint32_t source_profiler_frame_slot(void)
{
	return sp_core.slot;
}

uint64_t source_profiler_frame_index(void)
{
	return sp_core.frame;
}

void sp_test_set_frame(uint64_t frame)
{
	sp_core.frame = frame;
}

/* --- render_begin / render_end, collect --------------------------------- */

/* A call that would open the frame's GPU range again, or change its timing
 * once open: ignored, counted, said once. Reopening would hand the frame's
 * timers out twice (two renders of one source on one timer). */
static bool range_misuse(const char *call)
{
	if (!sp_core.range)
		return false;
	sp_ignored();
	if (!sp_core.warned_range)
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "%s after render_begin in the same frame is ignored: a frame has one GPU "
		       "range (render_begin ... render_end); renders after its end get no GPU timer",
		       call);
	sp_core.warned_range = true;
	return true;
}

void source_profiler_render_begin(void)
{
	if (!sp_core.on || range_misuse("render_begin"))
		return;
	sp_core.range = 1;
	/* The ticks recorded on other threads: the renders that follow need
	 * their sources ticked in the frame. */
	sp_streams_merge(false);
	if (sp_core.gpu_possible)
		sp_sampler_commit(sp_core.gpu_frame);
	sp_gpu_frame_begin(sp_core.slot, sp_core.frame, sp_core.gpu_frame,
			   SP_LOAD(sp_core.sources));
}

void source_profiler_gpu_skip_frame(void)
{
	if (range_misuse("gpu_skip_frame"))
		return;
	/* A frame the renderer keeps untimed does not count towards the
	 * sampler's N (see sp_sampler_commit). */
	sp_core.gpu_frame = false;
	sp_core.gpu_possible = false;
	sp_fast_paths();
}

void source_profiler_render_end(void)
{
	if (!sp_core.on || sp_core.range != 1)
		return; /* no range open: the one render_begin ignored, or none */
	sp_core.range = 2;
	sp_gpu_frame_end(sp_core.slot);
}

/* The collected frame's GPU read-back, for gpu_sums. */
typedef struct gpu_frame {
	sp_gpu_frame f;
	bool trace;
	bool subtract[SP_MAX_QUEUES]; /* the queue's backend has empty timers subtracted */
	bool work; /* some queue counted work in this frame */
	uint32_t warmup; /* a source with fewer frames pushed keeps no GPU sample */
} gpu_frame;

/* The durations of the source's GPU timers in the collected frame, summed
 * per pass column into *out (zeroed here); false when one of them has no
 * usable stamps (its command buffer ran late or never): then the source
 * has no GPU sample for the frame, neither 0 nor a partial sum. */
static bool gpu_sums(sp_entry *e, const sp_frame_acc *a, uint64_t frame, const gpu_frame *gf,
		     sp_gpu_frame_ns *out)
{
	memset(out, 0, sizeof *out);
	for (uint32_t id = a->first_timer; id != SP_NO_ENTRY;) {
		uint32_t q = id >> SP_TIMER_QUEUE_SHIFT, i = id & SP_TIMER_INDEX_MASK;
		const sp_gpu_timer *timers = gf->f.timers[q];
		if (SP_UNLIKELY(!timers || timers[i].state == SP_TIMER_UNUSABLE))
			return false;
		const sp_gpu_timer *t = &timers[i];
		const uint64_t *ns = gf->f.ns[q];
		uint64_t begin = ns[2 + 2 * i], end = ns[3 + 2 * i];
		/* Less the timer's own cost; a render at or below that cost
		 * reads 1 ns ("below what the timer resolves"), not 0, which
		 * would mean "not rendered". */
		uint64_t overhead = sp_gpu_overhead(t, gf->subtract[q]);
		if (overhead)
			end = end - begin > overhead ? end - overhead : begin + 1;
		/* Fits 32 bits: sp_gpu_collect drops a frame (or marks a timer
		 * unusable) with a longer one. */
		uint32_t dur = (uint32_t)(end - begin);
		if (t->first)
			out->first = dur;
		out->pass[t->pass_local] = sp_add_sat(out->pass[t->pass_local], dur);
		if (gf->trace)
			sp_trace_gpu(e, q, t->pass, begin, end, (uint32_t)frame,
				     t->work && gf->f.work[q] && gf->f.work_avail[q][i]
					     ? gf->f.work[q] + (size_t)i * SOURCE_PROFILER_COUNTERS
					     : NULL);
		id = t->next;
	}
	return true;
}

/* The work counts of the source's renders in the collected frame, per
 * pass column; false when one of its renders was not counted (nested, no
 * timer, a queue that does not count, its set not there): then the source
 * has no work sample for the frame. */
static bool work_sums(const sp_frame_acc *a, const gpu_frame *gf, sp_work_frame *out)
{
	out->passes = 0;
	for (uint32_t id = a->first_timer; id != SP_NO_ENTRY;) {
		uint32_t q = id >> SP_TIMER_QUEUE_SHIFT, i = id & SP_TIMER_INDEX_MASK;
		const sp_gpu_timer *t = &gf->f.timers[q][i];
		const uint64_t *v = gf->f.work[q];
		if (!t->work || !v || !gf->f.work_avail[q][i])
			return false;
		uint32_t p = t->pass_local;
		if (p >= out->passes) {
			for (uint32_t k = out->passes; k <= p; k++)
				memset(out->v[k], 0, sizeof out->v[k]);
			out->passes = p + 1;
		}
		for (uint32_t c = 0; c < SP_COUNTERS; c++) {
			uint64_t sum = out->v[p][c] + v[(size_t)i * SP_COUNTERS + c];
			out->v[p][c] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
		}
		id = t->next;
	}
	return out->passes != 0;
}

/* An entry's records sit kilobytes away from the next entry's, beyond the
 * hardware prefetcher: collect fetches the entry eight ahead, then the
 * records of the one four ahead, whose header has arrived by now. */
#define AHEAD_ENTRY 8
#define AHEAD_RECORDS 4

static inline void prefetch_entry(const sp_entry *e)
{
	/* The lines collect reads: all but those of the names and the async
	 * window. */
	const char *p = (const char *)e;
	sp_prefetch(p);
	sp_prefetch(p + 64);
	sp_prefetch(p + 128);
	sp_prefetch(p + 192);
	sp_prefetch(p + 256);
	sp_prefetch(p + offsetof(sp_entry, rings));
}

static inline void prefetch_records(const sp_entry *e, bool gpu)
{
	const uint32_t *rings = e->rings;
	if (rings) {
		sp_prefetch(rings + e->cpu_off);
		if (gpu)
			sp_prefetch(rings + e->gpu_off);
	}
}

/* Collects entry e's frame in `slot` if it has one; true when it did.
 * Its work counts, where the frame counted work, go to its work window
 * and into `totals` (*counted set). */
static inline bool collect_entry(sp_entry *e, unsigned slot, uint64_t frame,
				 const gpu_frame *gf, uint32_t *min_gpu, uint64_t *totals,
				 bool *counted)
{
	sp_frame_acc *a = &e->acc[slot];
	if (!SP_LOAD(e->key) || a->frame != (uint32_t)frame || a->collected)
		return false;
	/* A frame's GPU sums per pass exist only here, between its read-back
	 * and its push. */
	sp_gpu_frame_ns gpu_ns, *gpu = NULL;
	/* A source's first frames keep no GPU sample (gpu_set_warmup): the
	 * frames its window took so far say how far it is. */
	bool warming = gf && SP_LOAD(e->cpu_count) < gf->warmup;
	if (gf && !a->gpu_missing && !warming && gpu_sums(e, a, frame, gf, &gpu_ns))
		gpu = &gpu_ns;
	/* Work is exact from the first frame: no warm-up. */
	sp_work_frame wf;
	if (SP_UNLIKELY(gf && gf->work) && !a->gpu_missing && a->rendered && work_sums(a, gf, &wf)) {
		sp_work_push(e, &wf);
		for (uint32_t p = 0; p < wf.passes; p++)
			for (uint32_t c = 0; c < SP_COUNTERS; c++)
				totals[c] += wf.v[p][c];
		*counted = true;
	}
	if (SP_UNLIKELY(!e->rings) && !sp_window_rings(e, sp_capacity)) {
		/* Out of memory (logged): no sample, and the sums go. */
		sp_clear_pass_sums(e, slot);
		a->collected = 1;
		return true;
	}
	uint32_t rescan = sp_window_push(e, sp_capacity, slot, gpu);
	if (SP_UNLIKELY(rescan))
		sp_window_rescan(e, sp_capacity, rescan);
	a->collected = 1;
	/* A source still warming up holds a burst open as one with no sample. */
	if ((gpu || (warming && !a->gpu_missing)) && a->rendered) {
		uint32_t n = SP_LOAD(e->gpu_count);
		if (n < *min_gpu)
			*min_gpu = n;
	}
	if (SP_UNLIKELY(a->has_async_ts) && atomic_load_explicit(&e->async, memory_order_relaxed)) {
		/* set_async(false) on another thread may free the window: only
		 * use it under the lock. */
		sp_spin_lock(&e->async_lock);
		sp_async *as = atomic_load_explicit(&e->async, memory_order_relaxed);
		if (as)
			sp_async_push(as, true, as->rendered_ts[slot]);
		sp_spin_unlock(&e->async_lock);
	}
	return true;
}

void source_profiler_frame_collect(void)
{
	if (!sp_core.on)
		return;
	/* What the recording threads did in this frame (they are done). */
	sp_streams_merge(true);
	uint32_t min_gpu = UINT32_MAX; /* fewest GPU samples of a source rendered this GPU frame */
	bool frame_gpu = false;
	/* Wide frame numbers: a 32-bit difference stopped collection after
	 * 2^31 frames (25 days at 1000 fps). */
	uint64_t frame = sp_core.frame - (sp_fif - 1);
	if (sp_core.frame >= sp_fif && frame >= sp_core.on_since) {
		unsigned slot = (unsigned)(frame % sp_fif);
		gpu_frame gf = {.trace = atomic_load_explicit(&sp_trace_recording,
							      memory_order_relaxed),
				.warmup = source_profiler_gpu_warmup()};
		bool gpu = sp_gpu_collect(slot, frame, &gf.f);
		for (uint32_t q = 0; q < SP_MAX_QUEUES; q++) {
			gf.subtract[q] = sp_gpu_subtracts(q);
			gf.work |= gf.f.work[q] != NULL;
		}
		uint64_t totals[SP_COUNTERS] = {0};
		bool counted = false;
		if (gf.warmup > sp_capacity)
			gf.warmup = sp_capacity;
		bool any = false;
		uint32_t hw = SP_LOAD(sp_core.high_water);
		/* Chunk by chunk: entries of a chunk are contiguous. */
		for (uint32_t c = 0; c * SP_CHUNK_SIZE < hw; c++) {
			sp_entry *chunk = SP_LOAD(sp_core.chunks[c]);
			uint32_t n = hw - c * SP_CHUNK_SIZE;
			if (n > SP_CHUNK_SIZE)
				n = SP_CHUNK_SIZE;
			for (uint32_t j = 0; j < n; j++) {
				sp_entry *e = &chunk[j];
				if (j + AHEAD_ENTRY < n)
					prefetch_entry(e + AHEAD_ENTRY);
				if (j + AHEAD_RECORDS < n)
					prefetch_records(e + AHEAD_RECORDS, gpu);
				any |= collect_entry(e, slot, frame, gpu ? &gf : NULL, &min_gpu,
						     totals, &counted);
			}
		}
		if (counted)
			sp_work_push_frame(totals);
		frame_gpu = gpu && any;
		sp_count_add(&sp_count.frames_collected, 1);
		if (gpu)
			sp_count_add(&sp_count.gpu_frames_collected, 1);
		if (sp_core.saturated_local) {
			sp_count_add(&sp_count.saturated_samples, sp_core.saturated_local);
			sp_core.saturated_local = 0;
		}
	}
	sp_arena_trim();
	sp_sampler_frame_end(sp_now(), sp_core.timer_asks, sp_core.frame - (sp_fif - 1), frame_gpu,
			     min_gpu);
	if (!atomic_load(&sp_core.enable_next))
		sp_turn_off();
}

