/* Which frames are GPU-timed where timers are costly (see "GPU sampling" in
 * srcprof/source_profiler.h).
 *
 * A flushed timer on a software device costs about as much as the work it
 * times, so timing every render of every frame would double the frame and
 * change it. One frame in N is timed instead - all of its renders, which is
 * the regime the calibrated checks validate - and N grows until the timed
 * frames cost the budget's share of frame time. What a timed frame costs is
 * measured: the timed frame and the frames in flight after it (its GPU work
 * is waited for that much later) against as many untimed frames, the median
 * of the last 32 untimed frames with no timed frame before them in that
 * span. Until a timed frame has stood alone, the cost is estimated from the
 * empty timers (which see only the GPU side of a flush) times the timers
 * of the last frame, its renders' and the empty ones; and until an empty
 * timer has been measured, every frame is timed, so that there is
 * something to estimate from. Below a
 * budget of 100%, at most one frame in (frames in flight + 2) is timed:
 * each timed frame then has the untimed frames around it that measure it.
 *
 * Frame durations are frame_begin to frame_collect of the same frame on the
 * profiler clock, so frames the renderer runs without the profiler (a
 * benchmark's unprofiled blocks) are neither seen nor mismeasured. A frame
 * the renderer keeps untimed (gpu_skip_frame) is measured as an untimed
 * frame but does not count towards N. */
#include "sp_gpu.h"
#include "sp_sampler.h"
#include "sp_state.h"
#include "sp_trace.h"
#include "sp_util.h"
#include "srcprof_base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNTIMED_RING 32
#define EXCESS_RING 8
/* Lone timed frames measured before their median is the measured cost.
 * Until then it is their minimum (a frame is only ever slowed down), at
 * most EXCESS_EARLY_CAP times the empty timers' estimate: one stalled
 * frame (a shader compile, a window drag) among the first ones would
 * otherwise set N for minutes, as N frames pass before the next
 * measurement. The cap sits above what a flushed frame on a software
 * device costs against the estimate (docs/gpu-timing.md), so a true
 * figure passes it. */
#define EXCESS_TRUSTED 3u
#define EXCESS_EARLY_CAP 20.0
#define MAX_EVERY 100000u
/* Timed frames without an empty timer's figure after which sampling keeps
 * the least span anyway (a backend whose results never arrive). */
#define BLIND_TIMED 64u
#define DEFAULT_BUDGET 0.01
/* A frame period this long or longer is a pause, not a frame. */
#define PERIOD_GAP_NS 1000000000ull

/* Budget as a fraction, its bits in an atomic (any thread); 0: default. */
static _Atomic uint64_t g_budget_bits;
static _Atomic bool g_time_next;
static _Atomic bool g_burst_asked;
/* GPU warm-up frames, plus one (0: the default). */
static _Atomic uint32_t g_warmup_plus1;
#define WARMUP_MAX 1000000u

/* Published for source_profiler_get_sampling. */
static struct {
	_Atomic uint32_t every;
	_Atomic bool timed;
	_Atomic uint64_t frames_timed, timed_cost_ns, estimated_cost_ns, frame_ns, budget_bits;
	_Atomic bool burst, tracing;
	_Atomic uint32_t burst_samples;
	_Atomic uint64_t bursts, burst_frames;
} published;

/* Graphics thread. */
static struct {
	uint64_t begin_ns;  /* the frame being recorded began */
	bool timed;         /* it is GPU-timed (after commit) */
	uint32_t history;   /* bit i: the frame i + 1 frames back was timed */
	double window_ns;   /* the last timed frame and the frames after it */
	double window_period; /* the same frames' periods (0: one not known) */
	uint32_t window_n;
	double untimed[UNTIMED_RING];
	uint32_t untimed_n, untimed_head;
	double untimed_median;
	double excess[EXCESS_RING]; /* recent lone timed frames' extra cost */
	uint32_t excess_n, excess_head;
	double excess_median; /* 0 until one was measured */
	double frame_avg;     /* every frame, for before there are untimed ones */
	/* From one frame_collect to the next, of the same untimed frames: the
	 * whole loop, with a wait for the GPU wherever the renderer puts it
	 * (before frame_begin, it is outside begin..collect). */
	uint64_t end_ns;
	double periods[UNTIMED_RING];
	uint32_t periods_n, periods_head;
	double period_median;
	uint32_t every, wait; /* one in `every`; frames counted since the last timed */
	double jitter;        /* this interval's factor on `every`, 0.75 to 1.25 */
	uint32_t rng;         /* xorshift32 state for it */
	uint32_t blind_timed; /* frames timed before any empty timer was measured */
	uint32_t renders;     /* renders that asked for a timer in the last frame */
	uint64_t frames_timed;
	bool burst, burst_timed; /* a burst is on; it timed the frame being recorded */
	uint64_t burst_from;     /* the first frame it recorded */
	uint32_t burst_kept;     /* GPU frames of the burst collected and kept */
	uint64_t burst_start_ns, burst_end_ns; /* its start, the last one's end */
	uint64_t bursts, burst_frames;
	bool gpu_was_on;
} sampling;

static double budget(void)
{
	uint64_t bits = atomic_load_explicit(&g_budget_bits, memory_order_relaxed);
	double b;
	memcpy(&b, &bits, sizeof b);
	return bits && b > 0 ? b : DEFAULT_BUDGET;
}

void source_profiler_gpu_set_budget(double percent)
{
	double b = percent / 100.0;
	uint64_t bits = 0;
	if (b > 0 && !isnan(b))
		memcpy(&bits, &b, sizeof bits);
	atomic_store_explicit(&g_budget_bits, bits, memory_order_relaxed);
}

void source_profiler_gpu_set_warmup(uint32_t frames)
{
	if (frames > WARMUP_MAX)
		frames = WARMUP_MAX;
	atomic_store_explicit(&g_warmup_plus1, frames + 1, memory_order_relaxed);
}

uint32_t source_profiler_gpu_warmup(void)
{
	uint32_t w = atomic_load_explicit(&g_warmup_plus1, memory_order_relaxed);
	return w ? w - 1 : SOURCE_PROFILER_GPU_WARMUP_FRAMES;
}

void source_profiler_gpu_time_next_frame(void)
{
	atomic_store(&g_time_next, true);
}

void source_profiler_gpu_burst(void)
{
	atomic_store(&g_burst_asked, true);
}

#define BURST_NS ((uint64_t)SOURCE_PROFILER_BURST_SECONDS * 1000000000ull)

static void burst_start(uint64_t now, uint64_t frame)
{
	sampling.burst = true;
	sampling.burst_start_ns = now;
	sampling.burst_from = frame;
	sampling.burst_kept = 0;
	sampling.bursts++;
	atomic_store_explicit(&published.burst, true, memory_order_relaxed);
	atomic_store_explicit(&published.burst_samples, 0, memory_order_relaxed);
	atomic_store_explicit(&published.bursts, sampling.bursts, memory_order_relaxed);
}

static void burst_end(uint64_t now)
{
	sampling.burst = false;
	sampling.burst_end_ns = now ? now : 1;
	sampling.wait = 0; /* sampling resumes from here */
	atomic_store_explicit(&published.burst, false, memory_order_relaxed);
}

/* Whether this frame bursts: a burst asked for, GPU timing just turned on,
 * or sources changed a while after the last burst. */
static bool bursting(bool gpu, uint64_t now, uint64_t frame)
{
	bool asked = atomic_exchange(&g_burst_asked, false);
	bool changed = atomic_load_explicit(&sp_core.scene_changed, memory_order_relaxed);
	bool turned_on = gpu && !sampling.gpu_was_on;
	sampling.gpu_was_on = gpu;
	if (!gpu) {
		if (sampling.burst)
			burst_end(now); /* GPU timing went off (or its backend) mid-burst */
		return false;
	}
	bool quiet = !sampling.burst_end_ns || now - sampling.burst_end_ns >= BURST_NS;
	/* A change is kept until a burst covers it: one made while a burst
	 * runs is covered (the burst waits for the new sources' samples), one
	 * made in the quiet after a burst waits for its end. */
	if (changed && (sampling.burst || quiet))
		atomic_store_explicit(&sp_core.scene_changed, false, memory_order_relaxed);
	/* Asked while one runs (a scene switched during it): a burst anew,
	 * for the new sources. */
	if (asked || (!sampling.burst && (turned_on || (changed && quiet))))
		burst_start(now, frame);
	/* Its seconds count from its first GPU frame collected (frame_end);
	 * until then it waits twice as long for one, across a scene's slow
	 * first frames. */
	uint64_t limit = sampling.burst_kept ? BURST_NS
				       : (uint64_t)(SOURCE_PROFILER_BURST_LONGEST_SECONDS -
						    SOURCE_PROFILER_BURST_SECONDS) *
						 1000000000ull;
	if (sampling.burst && now - sampling.burst_start_ns > limit)
		burst_end(now);
	return sampling.burst;
}

/* Adds v to a ring of `cap` values (at most UNTIMED_RING) and returns the
 * median of what it holds (of an even count, the mean of the middle two:
 * of two, one slow frame must not be the figure). */
static double ring_median(double *ring, uint32_t cap, uint32_t *head, uint32_t *n, double v)
{
	ring[*head] = v;
	*head = (*head + 1) % cap;
	if (*n < cap)
		(*n)++;
	double sorted[UNTIMED_RING];
	memcpy(sorted, ring, *n * sizeof *sorted);
	return stats_median_of(sorted, *n);
}

/* The frame time the budget is a share of: the longer of the untimed
 * frames' begin..collect and their period, which holds what the renderer
 * does outside begin..collect (a fence wait at the top of its loop). */
static double frame_estimate(void)
{
	double span = sampling.untimed_median > 0 ? sampling.untimed_median : sampling.frame_avg;
	return sampling.period_median > span ? sampling.period_median : span;
}

bool sp_sampler_frame_begin(bool gpu, uint64_t now, uint64_t frame)
{
	sampling.begin_ns = now;
	sampling.timed = false;
	sampling.burst_timed = false;
	bool costly = sp_gpu_costly();
	bool tracing = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	atomic_store_explicit(&published.tracing, tracing && gpu && costly, memory_order_relaxed);
	double b = budget();
	uint64_t b_bits;
	memcpy(&b_bits, &b, sizeof b_bits);
	atomic_store_explicit(&published.budget_bits, costly ? b_bits : 0, memory_order_relaxed);
	if (!costly || b >= 1.0) {
		sampling.every = 1;
		sampling.gpu_was_on = gpu;
		/* Every frame is timed: nothing to burst, and a burst asked for
		 * now is done, not kept for a later budget. */
		atomic_store(&g_burst_asked, false);
		if (sampling.burst)
			burst_end(now);
		atomic_store_explicit(&published.every, 1, memory_order_relaxed);
		return gpu;
	}
	if (bursting(gpu, now, frame) || (gpu && tracing)) {
		sampling.burst_timed = sampling.burst;
		return true;
	}
	/* Every timer of a timed frame flushes, its empty ones too. */
	double per_timer = (double)sp_gpu_overhead_mean();
	double cost = per_timer * (sampling.renders + sp_gpu_empty_timers_last());
	atomic_store_explicit(&published.estimated_cost_ns, (uint64_t)cost, memory_order_relaxed);
	if (per_timer > 0 && sampling.excess_n) {
		double measured = sampling.excess_median;
		if (sampling.excess_n < EXCESS_TRUSTED) {
			measured = sampling.excess[0];
			for (uint32_t i = 1; i < sampling.excess_n; i++)
				measured = sampling.excess[i] < measured ? sampling.excess[i] : measured;
			if (measured > EXCESS_EARLY_CAP * cost)
				measured = EXCESS_EARLY_CAP * cost;
		}
		if (measured > cost)
			cost = measured;
	}
	double frame_est = frame_estimate();
	double every = frame_est > 0 && cost > 0 ? cost / (b * frame_est) : 1.0;
	/* Once there is an estimate, at least a span of untimed frames on
	 * either side of each timed one, so that both keep being measured: an
	 * estimate too low to sample on would otherwise time every frame and
	 * never learn what that costs. */
	double least = per_timer > 0 || sampling.blind_timed >= BLIND_TIMED ? sp_fif + 2 : 1;
	if (every < least)
		every = least;
	sampling.every = every > MAX_EVERY ? MAX_EVERY : (uint32_t)every;
	atomic_store_explicit(&published.every, sampling.every, memory_order_relaxed);
	/* Each interval is N times a factor drawn at the last timed frame (at
	 * least the span above): a fixed N would never time a source drawn
	 * every k-th frame when k divides N, or only ever its drawn frames. */
	double target = sampling.every > 1 ? sampling.every * sampling.jitter : 1.0;
	if (target < least)
		target = least;
	return gpu && (sampling.wait + 1 >= target || atomic_load(&g_time_next));
}

void sp_sampler_commit(bool timed)
{
	sampling.timed = timed;
	if (!timed) {
		sampling.wait++;
		return;
	}
	atomic_store_explicit(&published.timed, true, memory_order_relaxed);
	sampling.wait = 0;
	/* Blind: a timed frame of costly timers (only they measure empty
	 * timers; cheap ones measure none, which is no sign of anything)
	 * after a frame with renders (a frame without any writes no empty
	 * timer), and still no empty timer's figure. */
	if (sp_gpu_costly() && sampling.renders && !sp_gpu_overhead_mean() &&
	    sampling.blind_timed < BLIND_TIMED && ++sampling.blind_timed == BLIND_TIMED)
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "GPU timers gave no result in %u timed frames (results never ready?); "
		       "timing at most one frame in %u until they do",
		       BLIND_TIMED, sp_fif + 2);
	sampling.rng ^= sampling.rng << 13;
	sampling.rng ^= sampling.rng >> 17;
	sampling.rng ^= sampling.rng << 5;
	sampling.jitter = 0.75 + 0.5 * (double)(sampling.rng >> 8) / (double)(1u << 24);
	sampling.frames_timed++;
	if (sampling.burst_timed) {
		sampling.burst_frames++;
		atomic_store_explicit(&published.burst_frames, sampling.burst_frames, memory_order_relaxed);
	}
	atomic_store(&g_time_next, false);
	atomic_store_explicit(&published.frames_timed, sampling.frames_timed, memory_order_relaxed);
}

/* What a timed frame costs: called once per frame with its duration d
 * (begin..collect) and its period (0: not known). */
static void measure(double d, double period, bool timed)
{
	uint32_t span = sp_fif + 1; /* the timed frame and those in flight after it */
	sampling.history = (sampling.history << 1) | (timed ? 1u : 0u);
	uint32_t recent = sampling.history & ((1u << span) - 1u);
	if (!recent) {
		sampling.untimed_median =
			ring_median(sampling.untimed, UNTIMED_RING, &sampling.untimed_head, &sampling.untimed_n, d);
		if (period > 0)
			sampling.period_median = ring_median(sampling.periods, UNTIMED_RING, &sampling.periods_head,
						      &sampling.periods_n, period);
		sampling.window_ns = 0;
		sampling.window_period = 0;
		sampling.window_n = 0;
		return;
	}
	sampling.window_ns += d;
	sampling.window_period = period > 0 && (sampling.window_n == 0 || sampling.window_period > 0)
				  ? sampling.window_period + period
				  : 0;
	sampling.window_n++;
	if (recent != 1u << (span - 1))
		return;
	/* The timed frame has left the span with no timed frame after it: a
	 * lone one when the window started right after untimed frames. */
	if (sampling.window_n == span && sampling.untimed_median > 0) {
		/* Over begin..collect, and over the periods where they are
		 * known: a timed frame's extra GPU work lands in a fence wait
		 * outside begin..collect when the loop waits before frame_begin. */
		double excess = sampling.window_ns - span * sampling.untimed_median;
		if (sampling.window_period > 0 && sampling.period_median > 0 &&
		    sampling.window_period - span * sampling.period_median > excess)
			excess = sampling.window_period - span * sampling.period_median;
		sampling.excess_median =
			ring_median(sampling.excess, EXCESS_RING, &sampling.excess_head, &sampling.excess_n, excess);
		atomic_store_explicit(&published.timed_cost_ns,
				      sampling.excess_median > 0 ? (uint64_t)sampling.excess_median : 0,
				      memory_order_relaxed);
	}
	sampling.window_ns = 0;
	sampling.window_period = 0;
	sampling.window_n = 0;
}

void sp_sampler_frame_end(uint64_t now, uint32_t renders, uint64_t collected, bool gpu_kept,
			  uint32_t min_gpu)
{
	atomic_store_explicit(&published.timed, sampling.timed, memory_order_relaxed);
	sampling.renders = renders;
	/* Fresh samples only: the burst's own GPU frames, and no source
	 * rendered in them with fewer samples than that. */
	if (sampling.burst && gpu_kept && collected >= sampling.burst_from && min_gpu != UINT32_MAX) {
		/* Its seconds count from its first GPU frame collected: the
		 * frames before it can be a scene's set-up (a scene of 10,000
		 * sources torn down took 5 s), which would end a burst
		 * before the new sources had a sample. */
		if (!sampling.burst_kept++)
			sampling.burst_start_ns = now;
		uint32_t have = min_gpu < sampling.burst_kept ? min_gpu : sampling.burst_kept;
		atomic_store_explicit(&published.burst_samples, have, memory_order_relaxed);
		if (have >= SOURCE_PROFILER_BURST_SAMPLES)
			burst_end(now);
	}
	/* Frames are measured only where the sampler needs it (its medians
	 * sort a ring each frame). */
	if (!sp_gpu_costly() || !sampling.begin_ns || now < sampling.begin_ns)
		return;
	double d = (double)(now - sampling.begin_ns);
	/* A period over PERIOD_GAP_NS is a pause (the profiler off, a
	 * window hidden), not a frame. */
	double period = sampling.end_ns && now > sampling.end_ns && now - sampling.end_ns < PERIOD_GAP_NS
				? (double)(now - sampling.end_ns)
				: 0;
	sampling.end_ns = now;
	measure(d, period, sampling.timed);
	sampling.frame_avg = sampling.frame_avg > 0 ? 0.95 * sampling.frame_avg + 0.05 * d : d;
	atomic_store_explicit(&published.frame_ns, (uint64_t)frame_estimate(), memory_order_relaxed);
}

void sp_sampler_reset(void)
{
	memset(&sampling, 0, sizeof sampling);
	sampling.every = 1;
	sampling.jitter = 1.0;
	sampling.rng = 0x9e3779b9u; /* a fixed seed: runs sample alike */
	atomic_store(&g_time_next, false);
	/* Enabling the profiler is a fresh start: measure at once. */
	atomic_store(&g_burst_asked, true);
	atomic_store(&sp_core.scene_changed, false);
	atomic_store(&published.burst, false);
	atomic_store(&published.burst_samples, 0);
	atomic_store(&published.bursts, 0);
	atomic_store(&published.burst_frames, 0);
	atomic_store(&published.every, 1);
	atomic_store(&published.timed, false);
	atomic_store(&published.frames_timed, 0);
	atomic_store(&published.timed_cost_ns, 0);
	atomic_store(&published.estimated_cost_ns, 0);
	atomic_store(&published.frame_ns, 0);
}

void sp_sampler_shutdown(void)
{
	sp_sampler_reset();
	atomic_store(&g_budget_bits, 0);
	atomic_store(&g_warmup_plus1, 0);
}

void source_profiler_get_sampling(source_profiler_sampling_t *s)
{
	if (!s)
		return;
	uint64_t bits = atomic_load_explicit(&published.budget_bits, memory_order_relaxed);
	double b = 1.0;
	if (bits)
		memcpy(&b, &bits, sizeof b);
	*s = (source_profiler_sampling_t){
		.budget_pct = b * 100.0,
		.costly = sp_gpu_costly_pub(),
		.frame_timed = atomic_load_explicit(&published.timed, memory_order_relaxed),
		.timed_every = atomic_load_explicit(&published.every, memory_order_relaxed),
		.frames_timed = atomic_load_explicit(&published.frames_timed, memory_order_relaxed),
		.timed_cost_ns = atomic_load_explicit(&published.timed_cost_ns, memory_order_relaxed),
		.estimated_cost_ns =
			atomic_load_explicit(&published.estimated_cost_ns, memory_order_relaxed),
		.frame_ns = atomic_load_explicit(&published.frame_ns, memory_order_relaxed),
		.burst = atomic_load_explicit(&published.burst, memory_order_relaxed),
		.burst_samples = atomic_load_explicit(&published.burst_samples, memory_order_relaxed),
		.burst_target = SOURCE_PROFILER_BURST_SAMPLES,
		.bursts = atomic_load_explicit(&published.bursts, memory_order_relaxed),
		.burst_frames = atomic_load_explicit(&published.burst_frames, memory_order_relaxed),
		.tracing = atomic_load_explicit(&published.tracing, memory_order_relaxed),
	};
}
