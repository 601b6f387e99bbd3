/* GPU timer pools per frame slot, and the checks that decide whether a
 * frame's GPU results can be trusted (disjoint frames: docs/gpu-timing.md).
 *
 * A slot's timers are an array sized once and reused every
 * FRAME_BUFFER_SIZE frames: render_begin hands out the next record and
 * asks the backend to stamp query 2 + 2i. When a frame needs more timers
 * than the slot holds, the extra renders get no timer, the frame's GPU
 * samples are dropped (gpu_disjoint_overflow) and the slot grows before its
 * next use: pools never overrun and never grow in the middle of a frame. */
#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_profiler.h"
#include "sp_trace.h"
#include "sp_util.h"

#include <stdlib.h>
#include <string.h>

enum { SP_TIMER_BEGUN = 1, SP_TIMER_ENDED, SP_TIMER_ORPHAN, SP_TIMER_EMPTY, SP_TIMER_EMPTY_LATER };

typedef struct sp_gpu_slot {
	uint64_t frame;    /* frame recorded into this slot */
	bool on;           /* GPU timing was on for that frame */
	bool closed;       /* render_end wrote the range end */
	bool overflow;     /* a render found the pool full */
	bool forced;       /* test hook: treat as disjoint */
	uint32_t used;     /* timers handed out */
	uint32_t open;     /* begun, not ended */
	uint32_t denied;   /* renders that found the pool full */
	uint32_t capacity; /* timers the backend holds for this slot */
	uint32_t refused;  /* the last want the backend could not hold */
	bool refusal_said; /* ...and held back twice in a row: said once */
	uint32_t backend_gen;
	sp_gpu_timer *timers;
	uint32_t timers_cap;
} sp_gpu_slot;

_Atomic uint32_t sp_gpu_capacity_pub;
static _Atomic(const char *) g_mode = "none";
/* How many of its latest empty timers a place in a pass keeps: their
 * median is what its renders have subtracted. An empty timer reads 59-79
 * us here with an interquartile range of 22-38 us, so a median of 16 is
 * off by 5-9 us (4-7% of a source of 1% of the frame), one of 64 by half
 * that. Two
 * batches of interleaved 20 s runs of the default scene, pairs with every
 * source of 1% or more within 20%: OpenGL 34 of 38 with 64 against 30 of
 * 38 with 16, Vulkan 19 of 38 against 11 of 38 (docs/reading-numbers.md,
 * "Run to run"; the machine's speed moves the rest). */
#define SP_EMPTY_RING 64u

/* Per kind of place (SP_GPU_LEAD: a pass's first timer of the frame;
 * SP_GPU_LATER: any after it) and pass, what an empty timer there costs.
 * They differ: on llvmpipe and lavapipe an empty timer that opens the
 * main view reads 110-160 us and one after a render in it 80-85 us
 * (docs/gpu-timing.md, "Empty timers"). */
static _Atomic uint32_t g_overhead[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
/* Per place and pass: the spread of its last SP_EMPTY_RING empty timers,
 * their interquartile range (75th minus 25th percentile): how far apart
 * two readings of the same work typically are. Not the extremes: one
 * empty timer in eight or so reads several times the rest here (a
 * rasterizer thread preempted, a scene waiting), which averages out of a
 * window's figures but would make every source read "below resolution". */
static _Atomic uint32_t g_spread[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
/* Per pass: the later place holds 4 empty timers, enough for its figures
 * to stand for the pass in the reports (its spread needs 4). */
static _Atomic bool g_later_ready[SOURCE_PROFILER_MAX_PASSES];
/* For readers on any thread: the backend's tick (0: no backend) and
 * whether it measures empty timers. */
static _Atomic uint64_t g_tick_pub;
static _Atomic bool g_empty_pub, g_costly_pub;
static _Atomic uint64_t g_range_avg, g_range_max;

/* empty_done is a bit per pass. */
_Static_assert(SOURCE_PROFILER_MAX_PASSES <= 64, "a pass bit must fit in empty_done");

static struct {
	bool has_backend;
	/* Empty timers are measured where the backend wants them subtracted,
	 * and where timers are costly (the sampler estimates a timed frame's
	 * cost from them). */
	bool measure_empty;
	sp_gpu_timer_backend b;
	uint32_t backend_gen;
	sp_gpu_slot slots[SP_MAX_FIF];
	uint32_t want; /* timers per frame to hold */
	uint64_t *ns;  /* read-back buffer */
	uint32_t ns_cap;
	/* The frame ranges of the last window of kept GPU frames. */
	uint32_t range_ns[SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS];
	uint32_t range_head, range_count;
	uint64_t range_sum;
	uint32_t range_max, range_max_n;
	/* Empty timers of the last frames, per place and pass, when the
	 * backend asks for them; a bit per pass that has had a timer in the
	 * frame being recorded. */
	uint32_t empty_ns[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES][SP_EMPTY_RING];
	uint8_t empty_head[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
	uint8_t empty_count[SP_GPU_PLACES][SOURCE_PROFILER_MAX_PASSES];
	uint64_t empty_done;
	/* Per pass: renders timed in it this frame and in its last frame, and
	 * in a frame that measures, how many renders go before the later empty
	 * timer (0: none), taken in turn from 1 to the last frame's count - 1. */
	uint32_t renders[SOURCE_PROFILER_MAX_PASSES], renders_last[SOURCE_PROFILER_MAX_PASSES];
	uint32_t later_at[SOURCE_PROFILER_MAX_PASSES], later_turn[SOURCE_PROFILER_MAX_PASSES];
	uint32_t passes_last; /* passes with a timer in the last timed frame */
	uint32_t last_pass;   /* of the last timer begun this frame */
	bool force_pending;
	uint64_t last_warn_ns;
	uint64_t suppressed;
} gg;

enum reason { R_NONE, R_BACKEND, R_ORDER, R_RANGE, R_LONG, R_UNAVAILABLE, R_OVERFLOW };

static const char *const reason_text[] = {
	"", "reported by the device", "a timer ends before it begins",
	"a timer lies outside its frame",
	"a timer lasts over 4.29 s: the GPU waited on the CPU inside it, or stamps of another clock",
	"results not available at collect", "more renders than GPU timers"};

const char *sp_gpu_mode(void)
{
	return atomic_load_explicit(&g_mode, memory_order_acquire);
}

bool sp_gpu_has_backend(void)
{
	return gg.has_backend;
}

bool sp_gpu_costly(void)
{
	return gg.has_backend && gg.b.costly;
}

bool sp_gpu_costly_pub(void)
{
	return atomic_load_explicit(&g_costly_pub, memory_order_relaxed);
}



int64_t sp_gpu_cpu_offset(void)
{
	return gg.has_backend && gg.b.cpu_offset_ns ? gg.b.cpu_offset_ns(gg.b.user) : 0;
}

static void publish_capacity(void)
{
	uint32_t cap = UINT32_MAX;
	for (unsigned i = 0; i < sp_fif; i++)
		if (gg.slots[i].capacity < cap)
			cap = gg.slots[i].capacity;
	atomic_store(&sp_gpu_capacity_pub, cap == UINT32_MAX ? 0 : cap);
}

static void reset_measured(void);

void source_profiler_set_gpu_backend(const sp_gpu_timer_backend *backend)
{
	gg.has_backend = backend && backend->reserve && backend->write && backend->read;
	if (gg.has_backend)
		gg.b = *backend;
	else
		memset(&gg.b, 0, sizeof gg.b);
	gg.measure_empty = gg.b.subtract_empty_timer || gg.b.costly;
	/* 1 ns below (and for NaN); a tick of a second at most above (an
	 * infinite or absurd tick_ns would not convert). */
	double tick = gg.b.tick_ns > 1.0 ? gg.b.tick_ns : 1.0;
	if (!(tick <= 1e9))
		tick = 1e9;
	atomic_store_explicit(&g_tick_pub, gg.has_backend ? (uint64_t)(tick + 0.5) : 0,
			      memory_order_relaxed);
	atomic_store_explicit(&g_empty_pub, gg.measure_empty, memory_order_relaxed);
	atomic_store_explicit(&g_costly_pub, gg.has_backend && gg.b.costly, memory_order_relaxed);
	gg.backend_gen++;
	/* What the last backend's empty timers cost says nothing of this one's:
	 * its renders would have the old figure subtracted for dozens of timed
	 * frames. */
	reset_measured();
	for (unsigned i = 0; i < SP_MAX_FIF; i++) {
		gg.slots[i].on = false;
		gg.slots[i].capacity = 0;
		gg.slots[i].refused = 0;
		gg.slots[i].refusal_said = false;
	}
	atomic_store_explicit(&g_mode,
			      gg.has_backend && gg.b.mode ? gg.b.mode : "none",
			      memory_order_release);
	publish_capacity();
}

void source_profiler_force_gpu_disjoint(void)
{
	uint64_t frame = sp_current_frame();
	sp_gpu_slot *s = &gg.slots[sp_current_slot()];
	if (s->frame == frame && s->on && !s->closed)
		s->forced = true;
	else
		gg.force_pending = true; /* the next frame that opens its range */
}

/* Makes slot hold `want` timers; false when nothing could be reserved. */
static bool reserve(unsigned slot, uint32_t want)
{
	sp_gpu_slot *s = &gg.slots[slot];
	uint32_t queries = gg.b.reserve(gg.b.user, slot, 2u + 2u * want);
	uint32_t timers = queries >= 2 ? (queries - 2) / 2 : 0;
	if (timers > s->timers_cap) {
		sp_gpu_timer *t = sp_alloc(timers * sizeof *t);
		if (!t) {
			timers = s->timers_cap;
		} else {
			sp_free(s->timers, s->timers_cap * sizeof *s->timers);
			s->timers = t;
			s->timers_cap = timers;
		}
	}
	if (2u + 2u * timers > gg.ns_cap) {
		uint64_t *ns = sp_alloc((2u + 2u * timers) * sizeof *ns);
		if (!ns) {
			timers = gg.ns_cap >= 2 ? (gg.ns_cap - 2) / 2 : 0;
		} else {
			sp_free(gg.ns, gg.ns_cap * sizeof *gg.ns);
			gg.ns = ns;
			gg.ns_cap = 2u + 2u * timers;
		}
	}
	if (s->capacity && timers > s->capacity)
		sp_log(SOURCE_PROFILER_LOG_INFO, "GPU timer pool of frame slot %u grown to %u timers",
		       slot, timers);
	/* A backend that cannot grow is asked again each timed frame: said
	 * once for each size wanted, when it is refused a second time in a
	 * row, as a backend may grow a slot only at its next frame (Vulkan
	 * without host query reset, which resets the pool in the frame's
	 * commands). */
	if (timers < want && want == s->refused && !s->refusal_said) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "GPU timer pool of frame slot %u holds %u timers, %u wanted", slot, timers,
		       want);
		s->refusal_said = true;
	} else if (timers >= want || want != s->refused) {
		s->refusal_said = false;
	}
	s->refused = timers < want ? want : 0;
	s->capacity = timers;
	s->backend_gen = gg.backend_gen;
	publish_capacity();
	return timers > 0;
}

/* Timers the slot should hold: two renders per source is the common case
 * (main + preview), and the two empty timers of each pass the last timed
 * frame had; more once a frame has needed more. */
static uint32_t wanted(uint32_t sources)
{
	uint32_t want = 2u * sources + 16u + 2u * gg.passes_last;
	return gg.want > want ? gg.want : want;
}

static bool ensure_capacity(unsigned slot, uint32_t want)
{
	sp_gpu_slot *s = &gg.slots[slot];
	if (s->capacity >= want && s->backend_gen == gg.backend_gen)
		return true;
	return reserve(slot, want);
}

void sp_gpu_prepare(unsigned slot, uint32_t sources)
{
	if (gg.has_backend)
		ensure_capacity(slot, wanted(sources));
}

void sp_gpu_frame_begin(unsigned slot, uint64_t frame, bool gpu_on, uint32_t sources)
{
	sp_gpu_slot *s = &gg.slots[slot];
	s->frame = frame;
	s->on = s->closed = s->overflow = s->forced = false;
	s->used = s->open = s->denied = 0;
	if (!gpu_on || !gg.has_backend)
		return;
	if (!ensure_capacity(slot, wanted(sources)))
		return;
	s->on = true;
	/* Asked between frames: this frame's results, the first timed one's
	 * (an untimed frame has none to drop). */
	s->forced = gg.force_pending;
	gg.force_pending = false;
	if (gg.empty_done)
		gg.passes_last = (uint32_t)__builtin_popcountll(gg.empty_done);
	gg.empty_done = 0;
	gg.last_pass = UINT32_MAX;
	gg.b.write(gg.b.user, slot, 0, SP_GPU_STAMP_FRAME_BEGIN);
}

/* The place whose figures stand for the pass in the reports: after its
 * first timer, where its renders are, once measured there four times. */
static unsigned usual_place(uint32_t pass)
{
	return atomic_load_explicit(&g_later_ready[pass], memory_order_relaxed) ? SP_GPU_LATER
										  : SP_GPU_LEAD;
}

uint32_t sp_gpu_empty_timers_last(void)
{
	if (!gg.measure_empty)
		return 0;
	return gg.passes_last * (gg.b.subtract_empty_timer ? 2u : 1u);
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

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The median of the last SP_EMPTY_RING empty timers of a place in a pass
 * becomes its overhead; until it has 4, their minimum: a timer is only
 * ever slowed down (a preempted queue thread), and one slow first sample
 * must not swallow every render measured against it. */
static void record_empty(unsigned place, uint32_t pass, uint64_t ns)
{
	if (pass >= SOURCE_PROFILER_MAX_PASSES)
		return;
	uint32_t *ring = gg.empty_ns[place][pass];
	uint8_t *head = &gg.empty_head[place][pass], *count = &gg.empty_count[place][pass];
	ring[*head] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	*head = (uint8_t)((*head + 1) % SP_EMPTY_RING);
	if (*count < SP_EMPTY_RING)
		(*count)++;
	uint32_t sorted[SP_EMPTY_RING];
	uint32_t n = *count;
	memcpy(sorted, ring, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_u32);
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

static void write_empty(sp_gpu_slot *s, unsigned slot, uint32_t pass, uint8_t state)
{
	s->timers[s->used] = (sp_gpu_timer){.next = SP_NO_ENTRY, .pass = (uint8_t)pass,
					    .state = state};
	gg.b.write(gg.b.user, slot, 2u + 2u * s->used, SP_GPU_STAMP_TIMER_BEGIN);
	gg.b.write(gg.b.user, slot, 3u + 2u * s->used, SP_GPU_STAMP_TIMER_END);
	s->used++;
}

/* The pass's first timer this frame, none open: time an empty one here,
 * in the same context (target, pass state) as the renders that follow.
 * It takes what the pass's start leaves (on llvmpipe the main view's
 * first timer pays for its clear: 110-160 us against 80-85 after it), so
 * that no render opens its pass. The pass's renders are then measured by
 * a second empty timer among them, after k of them (k taken in turn from
 * 0, right after the first empty timer, to the last frame's count - 1):
 * its median is what they have subtracted. In every timed frame: measured
 * one frame in four, the median of a 20 s run stood on ~15 empty timers
 * and its own error (~10 us a render) moved the small sources by 10-40%
 * from run to run. Two empty timers a pass cost ~1 ms of a 20-40 ms timed
 * frame of the default scene, which the sampler's measured cost of a
 * timed frame holds. Only the first where the backend does not subtract
 * them (the sampler's estimate needs one). */
static void begin_pass(sp_gpu_slot *s, unsigned slot, uint32_t pass)
{
	gg.renders_last[pass] = gg.renders[pass];
	gg.renders[pass] = 0;
	gg.later_at[pass] = 0;
	if (s->open || s->used + 1 >= s->capacity)
		return;
	write_empty(s, slot, pass, SP_TIMER_EMPTY);
	if (!gg.b.subtract_empty_timer)
		return;
	uint32_t n = gg.renders_last[pass] > 1 ? gg.renders_last[pass] : 1;
	gg.later_turn[pass] = (gg.later_turn[pass] + 1) % n;
	if (gg.later_turn[pass])
		gg.later_at[pass] = gg.later_turn[pass];
	else if (s->used + 1 < s->capacity)
		write_empty(s, slot, pass, SP_TIMER_EMPTY_LATER);
}

sp_gpu_timer *sp_gpu_timer_begin(unsigned slot, uint32_t pass)
{
	sp_gpu_slot *s = &gg.slots[slot];
	if (!s->on || s->closed)
		return NULL;
	/* The pass bit first: set after a pass's first timer of the frame. */
	bool lead = false;
	if (SP_UNLIKELY(!(gg.empty_done & (1ull << pass)))) {
		gg.empty_done |= 1ull << pass; /* considered once per frame */
		uint32_t before = s->used;
		if (gg.measure_empty)
			begin_pass(s, slot, pass);
		lead = s->used == before; /* no empty timer in front of it */
	} else if (SP_UNLIKELY(gg.later_at[pass]) && gg.renders[pass] >= gg.later_at[pass] &&
		   !s->open && gg.last_pass == pass && s->used + 1 < s->capacity) {
		/* Between two renders of the pass, none open (nothing of theirs
		 * inside), not where it is entered again (another target). */
		write_empty(s, slot, pass, SP_TIMER_EMPTY_LATER);
		gg.later_at[pass] = 0;
	}
	gg.renders[pass]++;
	gg.last_pass = pass;
	if (s->used == s->capacity) {
		s->overflow = true;
		s->denied++;
		return NULL;
	}
	sp_gpu_timer *t = &s->timers[s->used];
	*t = (sp_gpu_timer){.next = SP_NO_ENTRY, .lead = lead, .state = SP_TIMER_BEGUN};
	gg.b.write(gg.b.user, slot, 2u + 2u * s->used, SP_GPU_STAMP_TIMER_BEGIN);
	s->used++;
	s->open++;
	return t;
}

uint32_t sp_gpu_timer_end(unsigned slot, sp_gpu_timer *t)
{
	sp_gpu_slot *s = &gg.slots[slot];
	uintptr_t p = (uintptr_t)t, lo = (uintptr_t)s->timers;
	if (!s->on || p < lo || p >= lo + s->used * sizeof *t || (p - lo) % sizeof *t ||
	    t->state != SP_TIMER_BEGUN)
		return SP_NO_ENTRY;
	uint32_t i = (uint32_t)((p - lo) / sizeof *t);
	gg.b.write(gg.b.user, slot, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
	t->state = SP_TIMER_ENDED;
	s->open--;
	return i;
}

void sp_gpu_frame_end(unsigned slot)
{
	sp_gpu_slot *s = &gg.slots[slot];
	if (!s->on || s->closed)
		return;
	for (uint32_t i = 0; s->open && i < s->used; i++) {
		if (s->timers[i].state == SP_TIMER_BEGUN) {
			gg.b.write(gg.b.user, slot, 3u + 2u * i, SP_GPU_STAMP_TIMER_END);
			s->timers[i].state = SP_TIMER_ORPHAN;
			s->open--;
		}
	}
	gg.b.write(gg.b.user, slot, 1, SP_GPU_STAMP_FRAME_END);
	s->closed = true;
}

static enum reason check(const sp_gpu_slot *s, const uint64_t *ns)
{
	uint64_t fb = ns[0], fe = ns[1];
	if (fe < fb)
		return R_ORDER;
	enum reason r = R_NONE;
	for (uint32_t i = 0; i < s->used; i++) {
		uint64_t b = ns[2 + 2 * i], e = ns[3 + 2 * i];
		if (e < b)
			return R_ORDER;
		if (b < fb || e > fe)
			r = R_RANGE;
		/* No render costs that much: 32-bit ns would saturate and a
		 * maximum of 4,294.967 ms would stand for a minute. */
		else if (e - b > UINT32_MAX && r == R_NONE)
			r = R_LONG;
	}
	return r;
}

static void drop(enum reason r, _Atomic uint64_t *counter)
{
	sp_count_add(&sp_count.gpu_frames_disjoint, 1);
	sp_count_add(counter, 1);
	uint64_t now = sp_now();
	if (gg.last_warn_ns && now - gg.last_warn_ns < 1000000000ull) {
		gg.suppressed++;
		return;
	}
	if (gg.suppressed)
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "GPU timers were disjoint, discarding samples (%s; %llu more frames since "
		       "the last warning)",
		       reason_text[r], (unsigned long long)gg.suppressed);
	else
		sp_log(SOURCE_PROFILER_LOG_WARNING, "GPU timers were disjoint, discarding samples (%s)",
		       reason_text[r]);
	gg.last_warn_ns = now ? now : 1;
	gg.suppressed = 0;
}

/* Keeps the frame's GPU range in a window as long as the sources' and
 * publishes its average and maximum: a running sum, and the maximum with
 * the number of ranges equal to it, so that the ring is rescanned only when
 * the last copy of the maximum leaves it (as the sources' windows do). */
static void record_range(uint64_t ns)
{
	uint32_t cap = sp_capacity;
	uint32_t v = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	if (gg.range_head >= cap)
		gg.range_head = 0;
	bool full = gg.range_count >= cap;
	uint32_t old = full ? gg.range_ns[gg.range_head] : 0;
	gg.range_ns[gg.range_head] = v;
	gg.range_head = gg.range_head + 1 == cap ? 0 : gg.range_head + 1;
	if (!full)
		gg.range_count++;
	gg.range_sum = gg.range_sum - old + v;
	bool rescan = false;
	if (v > gg.range_max) {
		gg.range_max = v;
		gg.range_max_n = 1;
	} else {
		if (v == gg.range_max)
			gg.range_max_n++;
		rescan = full && old == gg.range_max && --gg.range_max_n == 0;
	}
	if (rescan) {
		gg.range_max = gg.range_max_n = 0;
		for (uint32_t i = 0; i < gg.range_count; i++) {
			if (gg.range_ns[i] > gg.range_max) {
				gg.range_max = gg.range_ns[i];
				gg.range_max_n = 1;
			} else if (gg.range_ns[i] == gg.range_max) {
				gg.range_max_n++;
			}
		}
	}
	atomic_store_explicit(&g_range_avg, gg.range_sum / gg.range_count, memory_order_relaxed);
	atomic_store_explicit(&g_range_max, gg.range_max, memory_order_relaxed);
}

void sp_gpu_frame_range(uint64_t *avg, uint64_t *max)
{
	*avg = atomic_load_explicit(&g_range_avg, memory_order_relaxed);
	*max = atomic_load_explicit(&g_range_max, memory_order_relaxed);
}

bool sp_gpu_collect(unsigned slot, uint64_t frame)
{
	sp_gpu_slot *s = &gg.slots[slot];
	if (s->frame != frame || !s->on)
		return false;
	s->on = false;
	if (!gg.has_backend || s->backend_gen != gg.backend_gen)
		return false; /* recorded with a backend that is gone */

	enum reason r = R_NONE;
	if (!s->closed)
		r = R_UNAVAILABLE; /* render_end never wrote the range end */
	else if (s->overflow) {
		uint32_t need = s->used + s->denied;
		if (need + need / 2 > gg.want)
			gg.want = need + need / 2;
		r = R_OVERFLOW;
	}
	else if (s->forced)
		r = R_BACKEND;
	else {
		uint32_t n = 2u + 2u * s->used;
		switch (gg.b.read(gg.b.user, slot, n, gg.ns)) {
		case SP_GPU_READ_OK:
			r = check(s, gg.ns);
			break;
		case SP_GPU_READ_NOT_READY:
			r = R_UNAVAILABLE;
			break;
		default:
			r = R_BACKEND;
			break;
		}
	}
	switch (r) {
	case R_NONE:
		break;
	case R_BACKEND:
		drop(r, &sp_count.disjoint_backend);
		return false;
	case R_ORDER:
		drop(r, &sp_count.disjoint_order);
		return false;
	case R_RANGE:
	case R_LONG:
		drop(r, &sp_count.disjoint_range);
		return false;
	case R_UNAVAILABLE:
		drop(r, &sp_count.disjoint_unavailable);
		return false;
	case R_OVERFLOW:
		drop(r, &sp_count.disjoint_overflow);
		return false;
	}

	record_range(gg.ns[1] - gg.ns[0]);
	for (uint32_t i = 0; i < s->used; i++)
		if (s->timers[i].state == SP_TIMER_EMPTY ||
		    s->timers[i].state == SP_TIMER_EMPTY_LATER)
			record_empty(s->timers[i].state == SP_TIMER_EMPTY ? SP_GPU_LEAD : SP_GPU_LATER,
				     s->timers[i].pass, gg.ns[3 + 2 * i] - gg.ns[2 + 2 * i]);
	if (atomic_load_explicit(&sp_trace_recording, memory_order_relaxed))
		sp_trace_gpu_frame(frame, gg.ns[0], gg.ns[1]);
	return true;
}

const sp_gpu_timer *sp_gpu_timers(unsigned slot)
{
	return gg.slots[slot].timers;
}

const uint64_t *sp_gpu_stamps(void)
{
	return gg.ns;
}

uint32_t sp_gpu_overhead(const sp_gpu_timer *t)
{
	if (!gg.b.subtract_empty_timer || t->pass >= SOURCE_PROFILER_MAX_PASSES)
		return 0;
	uint32_t v = t->lead ? 0 : atomic_load_explicit(&g_overhead[SP_GPU_LATER][t->pass],
							memory_order_relaxed);
	/* A render that opens its pass (no empty timer fitted before it, or
	 * another timer was open) has the first place's figure subtracted,
	 * and so does any render before the later place is measured. */
	return v ? v : atomic_load_explicit(&g_overhead[SP_GPU_LEAD][t->pass], memory_order_relaxed);
}

/* Forgets the empty timers and frame ranges measured so far. */
static void reset_measured(void)
{
	gg.range_head = gg.range_count = 0;
	gg.range_sum = 0;
	gg.range_max = gg.range_max_n = 0;
	memset(gg.empty_head, 0, sizeof gg.empty_head);
	memset(gg.empty_count, 0, sizeof gg.empty_count);
	memset(gg.renders, 0, sizeof gg.renders);
	memset(gg.renders_last, 0, sizeof gg.renders_last);
	memset(gg.later_at, 0, sizeof gg.later_at);
	gg.passes_last = 0;
	for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++)
		atomic_store(&g_later_ready[p], false);
	for (unsigned k = 0; k < SP_GPU_PLACES; k++)
		for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++) {
			atomic_store(&g_overhead[k][p], 0);
			atomic_store(&g_spread[k][p], 0);
		}
	atomic_store(&g_range_avg, 0);
	atomic_store(&g_range_max, 0);
}

void sp_gpu_reset_slots(void)
{
	for (unsigned i = 0; i < SP_MAX_FIF; i++)
		gg.slots[i].on = false;
	gg.force_pending = false;
	reset_measured();
}

void sp_gpu_shutdown(void)
{
	for (unsigned i = 0; i < SP_MAX_FIF; i++) {
		sp_free(gg.slots[i].timers, gg.slots[i].timers_cap * sizeof(sp_gpu_timer));
		gg.slots[i] = (sp_gpu_slot){0};
	}
	sp_free(gg.ns, gg.ns_cap * sizeof *gg.ns);
	gg.ns = NULL;
	gg.ns_cap = 0;
	gg.want = 0;
	gg.last_warn_ns = 0;
	gg.suppressed = 0;
	source_profiler_set_gpu_backend(NULL);
}
