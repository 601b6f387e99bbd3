/*
 * srcprof/source_profiler.h - per-source CPU and GPU statistics.
 *
 * The source profiler measures, for every *source* of a scene (anything that
 * is ticked once per frame and rendered one or more times), its tick time, the
 * CPU time of its renders and, through a GPU timer backend
 * (srcprof/gpu_timer.h), the GPU time of those renders. It keeps the samples
 * of the last five seconds of frames per source and answers
 * source_profiler_fill_result() from any thread in constant time.
 *
 * Names and meaning follow OBS Studio's libobs/util/source-profiler.h: a
 * source is an opaque pointer the profiler never dereferences; toggles take
 * effect at frame boundaries; GPU results are read frames in flight - 1
 * frames late (SOURCE_PROFILER_FRAME_BUFFER_SIZE - 1 by default) so that
 * nothing waits on the GPU. srcprof adds per-pass
 * statistics, source names, counters and a log hook.
 *
 * It does not draw, own a graphics context, or know which API renders: the
 * engine brackets its frame with the calls below, and a backend implements
 * srcprof/gpu_timer.h.
 *
 * Frame protocol (the graphics thread - the one that calls frame_begin -
 * in this order):
 *     source_profiler_frame_begin();
 *     for each source: t = source_profiler_source_tick_start();
 *                      tick(source);
 *                      source_profiler_source_tick_end(source, t);
 *     source_profiler_render_begin();
 *     for each pass:   source_profiler_set_pass(pass_id);
 *       for each source: t = source_profiler_source_render_begin(&timer);
 *                        render(source);
 *                        source_profiler_source_render_end(source, t, timer);
 *     source_profiler_render_end();
 *     submit, present, wait for the frame frames-in-flight - 1 back;
 *     source_profiler_frame_collect();
 *
 * Several threads (a job system that ticks, workers that record passes
 * into command buffers of their own): between frame_begin and
 * frame_collect any number of threads may call tick_start / tick_end,
 * set_pass, render_begin / render_end and set_command_buffer at once,
 * with no lock and no shared write per call: each thread appends to a
 * stream of its own, which the graphics thread takes in at render_begin
 * (what was recorded by then: the ticks a render needs) and at
 * frame_collect. A thread's calls must end before the graphics thread's
 * frame_collect (join the workers before collecting); a source's tick
 * must end before its renders begin. Pass and command buffer are per
 * thread. With renders of one source on several threads, its "first
 * render of the frame" (render_avg, render_gpu_avg) is the one that began
 * first - the earliest render_begin stamp among all threads - which is
 * the first one where a single thread renders. GPU timers on a thread
 * need a command buffer named with set_command_buffer and a backend that
 * stamps named command buffers (srcprof/gpu_timer.h, write_cmd);
 * otherwise its renders have CPU times and no GPU sample.
 *
 * Bad input is defined, never a crash: NULL sources and unknown timers are
 * ignored and counted (source_profiler_stats_t.ignored_calls); renders of a
 * source not ticked in the frame are ignored; durations above 4.29 s are
 * stored as 4.29 s (counted in saturated_samples); a timer ended on a thread
 * or in a command buffer other than the one it began in has no end stamp
 * written and its render no GPU sample (gpu_timers_misplaced); ticks and
 * renders recorded after their frame was collected are dropped
 * (records_late); threads beyond set_max_threads are not profiled
 * (threads_refused). Each is said once in the log.
 */
#ifndef SRCPROF_SOURCE_PROFILER_H
#define SRCPROF_SOURCE_PROFILER_H

#include "srcprof/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Frames between recording a frame and collecting it, plus one, by default:
 * the renderer's frames in flight (NUM_TEXTURES). Renderers that run more
 * (or fewer) call source_profiler_set_frames_in_flight(). */
#define SOURCE_PROFILER_FRAME_BUFFER_SIZE 2

/* The most frames in flight source_profiler_set_frames_in_flight accepts. */
#define SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT 4

/* Length of the rolling window, in seconds of frames. */
#define SOURCE_PROFILER_WINDOW_SECONDS 5

/* Frame rates above this are clamped (window of 5,000 samples). */
#define SOURCE_PROFILER_MAX_FPS 1000

/* A GPU timer handed out by source_render_begin; owned by the profiler. */
typedef struct sp_gpu_timer sp_gpu_timer;

/* Statistics of one source over the window. Times in ns, rates in frames
 * per second. The caller owns the struct. */
typedef struct profiler_result {
	uint64_t tick_avg, tick_max;
	/* CPU time of the source's first render of each frame. */
	uint64_t render_avg, render_max;
	/* GPU time of the source's first render of each frame. */
	uint64_t render_gpu_avg, render_gpu_max;
	/* All renders of a frame summed, averaged over frames. */
	uint64_t render_sum, render_gpu_sum;
	/* Async (video-like) sources only: frames per second received and
	 * rendered, and the shortest / longest time between two frames. */
	double async_input, async_rendered;
	uint64_t async_input_best, async_input_worst;
	uint64_t async_rendered_best, async_rendered_worst;
} profiler_result_t;

/* --- Control (any thread) ------------------------------------------------ */

/* Turns profiling on or off. On takes effect at the next frame_begin; off at
 * the end of the next frame_collect, which frees all statistics. */
SRCPROF_API void source_profiler_enable(bool enable);

/* Turns GPU timing on or off from the next frame_begin. Turning it on counts
 * only while the profiler is on or being turned on: the stored request is
 * `enable && (profiler enable requested)`. */
SRCPROF_API void source_profiler_gpu_enable(bool enable);

/* --- Results (any thread, any time) ------------------------------------- */

/* Fills *result with the source's statistics and returns true; returns false
 * and leaves *result untouched while the profiler is off, the source has no
 * entry, or no sample of it was collected yet (its first frame is collected
 * FRAME_BUFFER_SIZE - 1 frames after it: OBS's "no data yet"). Constant
 * time, never blocks the graphics thread. */
SRCPROF_API bool source_profiler_fill_result(const void *source, profiler_result_t *result);

/* As fill_result, into a new struct the caller frees with free(); NULL when
 * fill_result would return false. */
SRCPROF_API profiler_result_t *source_profiler_get_result(const void *source);

/* --- Engine side (graphics thread unless noted) -------------------------- */

/* Sets the window to ceil(fps_num / fps_den) * 5 samples and drops every
 * collected and uncollected sample. 60 fps is assumed before the first call.
 * fps_num or fps_den of 0 is ignored (logged); rates above
 * SOURCE_PROFILER_MAX_FPS are clamped. */
SRCPROF_API void source_profiler_reset_video(uint32_t fps_num, uint32_t fps_den);

/* Starts a frame: applies a pending enable and GPU toggle, processes
 * removals queued since the last frame. */
SRCPROF_API void source_profiler_frame_begin(void);

/* Returns the start stamp of a tick (0 while off); pass it to tick_end. A
 * stamp is the profiler clock's raw reading (the TSC's ticks, or ns with
 * another clock), not a time to compare with srcprof_clock_ns(). */
SRCPROF_API uint64_t source_profiler_source_tick_start(void);

/* Records the tick of `source` that began at `start`. The first tick of an
 * unknown source creates its entry. */
SRCPROF_API void source_profiler_source_tick_end(const void *source, uint64_t start);

/* Opens the frame's GPU range. Source GPU timers exist only between
 * render_begin and render_end. Once a frame: a second call in the same
 * frame is ignored (counted in ignored_calls, logged once), and renders
 * after the range's render_end get no GPU timer. */
SRCPROF_API void source_profiler_render_begin(void);

/* Graphics thread, between frame_begin and render_begin (after
 * render_begin it is ignored, counted and logged once): this frame opens
 * no GPU range - no stamp written, nothing read back - and is a GPU-off
 * frame for every source, while GPU timing stays on (get_stats still says
 * gpu_enabled). For engines that GPU-time one frame in N where a timer is
 * costly: the frame range's own stamps would cost every other frame too.
 * Not part of the OBS API. */
SRCPROF_API void source_profiler_gpu_skip_frame(void);

/* Returns the start stamp of a render (0 while off; see tick_start) and sets
 * *timer to a GPU timer when this frame is GPU-timed, else NULL. `timer`
 * may be NULL. */
SRCPROF_API uint64_t source_profiler_source_render_begin(sp_gpu_timer **timer);

/* Records a render of `source` begun at `start`, in the current pass, and
 * ends `timer` (NULL when none). A render without a timer in a frame with
 * GPU timing on (the engine samples which sources it times, or passed no
 * timer pointer) leaves the source without a GPU sample for that frame -
 * neither 0 nor a partial sum. */
SRCPROF_API void source_profiler_source_render_end(const void *source, uint64_t start,
						   sp_gpu_timer *timer);

/* Closes the frame's GPU range; timers left open are closed and ignored. */
SRCPROF_API void source_profiler_render_end(void);

/* Moves the samples of the frame FRAME_BUFFER_SIZE - 1 frames old into the
 * statistics, reading its GPU results without waiting (results not ready
 * mean the frame's GPU samples are dropped). Applies a pending disable. */
SRCPROF_API void source_profiler_frame_collect(void);

/* Marks `source` as async (video-like): its async_* fields are computed.
 * The mark lasts until the source is removed. Any thread. */
SRCPROF_API void source_profiler_set_async(const void *source, bool async);

/* An async source received a frame now. Any thread. Counted once the source
 * has an entry (its first tick). */
SRCPROF_API void source_profiler_async_frame_received(const void *source);

/* The renderer drew the async frame stamped `frame_ts_ns` for `source` in
 * this frame; one timestamp per collected frame enters the window. */
SRCPROF_API void source_profiler_async_frame_rendered(const void *source, uint64_t frame_ts_ns);

/* Drops the source's statistics, uncollected samples, name and async mark
 * by the next frame_begin at the latest. Any thread. GPU timers of the
 * source still in flight are discarded when their frame is collected. */
SRCPROF_API void source_profiler_remove_source(const void *source);

/* Replaces the clock used for every measurement (ns, monotonic). NULL
 * restores the default (TSC-backed CLOCK_MONOTONIC, see srcprof/clock.h).
 * Call while no frame is in progress and no other thread measures (a
 * PERF_BLOCK, async_frame_received): the clock is read without a lock, and
 * a reading at the moment of the switch may call the old function, or the
 * old function with the new `user`. `now_ns` must be thread-safe. */
SRCPROF_API void source_profiler_set_clock(uint64_t (*now_ns)(void *user), void *user);

/* --- srcprof extensions --------------------------------------------------- */

/* Sets the renderer's frames in flight, 1 to SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
 * (default SOURCE_PROFILER_FRAME_BUFFER_SIZE): the samples of frame N are
 * collected at the end of frame N + n - 1, and GPU timer backends get n
 * frame slots. Graphics thread, between frames. Samples of frames not yet
 * collected are dropped; the sources' collected statistics are kept, while
 * what the GPU timers measured of themselves (the empty timers' cost, the
 * resolution, the frames' GPU range in get_stats) is measured afresh.
 * Other values are ignored (logged, counted in ignored_calls). */
SRCPROF_API void source_profiler_set_frames_in_flight(uint32_t n);

/* The frames in flight in force. Any thread. */
SRCPROF_API uint32_t source_profiler_frames_in_flight(void);

/* The frame slot (0 to frames in flight - 1) of the frame being recorded,
 * from its frame_begin to its frame_collect: for GPU timer backends that
 * prepare a slot's queries when the renderer begins its command buffer
 * (srcprof/vulkan.h). Graphics thread. */
SRCPROF_API uint32_t source_profiler_frame_slot(void);

/* The number of the frame being recorded: frame_begin calls since start
 * (never reset, 0 before the first). Graphics thread. */
SRCPROF_API uint64_t source_profiler_frame_index(void);

/* --- GPU sampling ---------------------------------------------------------
 * Where each GPU timer is costly (the backend says so: flushed timestamps on
 * software devices cost a flush each), timing every render of every frame
 * would slow the frame down and change it. The profiler then GPU-times all
 * renders of one frame in N and no render of the others (they write and
 * read no stamps), N chosen so that the timed frames cost about the budget's
 * share of frame time (the longer of frame_begin to frame_collect and one
 * frame_collect to the next, so that a wait for the GPU at the top of the
 * loop counts): it measures what a timed frame costs beyond an
 * untimed one (the timed frame and the frames in flight after it, against
 * the median of recent untimed frames), and until it has, estimates it from
 * the empty timers' cost times the timers of a timed frame, the empty ones
 * among them (after it has, the larger of the two is used, so
 * that a noisy near-zero measurement cannot time every frame; until three
 * timed frames are measured, their minimum, at most 20 times the estimate,
 * so that one stalled frame cannot set N for minutes). Each
 * interval is N times a factor from 0.75 to 1.25 drawn at the timed frame
 * (never under frames in flight + 2 once an empty timer has been measured,
 * which the first timed frames do; before that every frame can be timed,
 * for at most 64 timed frames): N on average, and a source whose
 * work comes every k-th frame is not always sampled in one phase of it.
 * Where timers are cheap, every frame is timed.
 * Renders of untimed frames get no timer (render_begin sets *timer to NULL)
 * and leave the source without a GPU sample for that frame. */

/* Share of frame time costly GPU timers may cost, in percent: (0, 100); 100
 * or more times every frame; 0, a negative value or NaN restores the
 * default, 1. Backends whose timers are cheap (sp_gpu_timer_backend.costly
 * false) time every frame whatever the budget. From the next frame_begin.
 * Any thread. */
SRCPROF_API void source_profiler_gpu_set_budget(double percent);

/* Whether the frame being recorded GPU-times its renders (decided at
 * frame_begin; false after gpu_skip_frame, or while GPU timing is off).
 * Graphics thread. */
SRCPROF_API bool source_profiler_gpu_frame_timed(void);

/* Makes the next frame with GPU timing on a timed one (a benchmark block
 * that must start on one). Any thread. */
SRCPROF_API void source_profiler_gpu_time_next_frame(void);

/* A burst GPU-times every frame until every source rendered in the last
 * GPU-timed frame holds SOURCE_PROFILER_BURST_SAMPLES GPU samples, or for
 * SOURCE_PROFILER_BURST_SECONDS from its first GPU frame collected
 * (waiting at most twice that for one: a scene's slow first frames do not
 * use it up), whichever comes first; then sampling goes
 * on at the budget. So fresh figures stand on samples within a second or
 * two instead of one sample every N frames. The profiler starts one when
 * it is enabled and when GPU timing turns on, and when sources appear or
 * are removed (at most one such burst every SOURCE_PROFILER_BURST_SECONDS
 * after the last, so that a scene that always changes is still sampled; a
 * change in that quiet time bursts when it ends); while a trace records,
 * every frame is timed. A burst asked for while one runs starts anew.
 * GPU timing turned off ends a burst. Only costly
 * timers sample, so only they burst. */
#define SOURCE_PROFILER_BURST_SAMPLES 30
#define SOURCE_PROFILER_BURST_SECONDS 3
/* The longest a burst can run: waiting for its first GPU frame, then its
 * seconds. */
#define SOURCE_PROFILER_BURST_LONGEST_SECONDS (3 * SOURCE_PROFILER_BURST_SECONDS)

/* Starts a burst now ("measure now": a scene changed, a user asked).
 * From the next frame_begin. Any thread. */
SRCPROF_API void source_profiler_gpu_burst(void);

/* A source's first frames pay once what later ones do not: shader
 * variants built at first draw, buffers and textures touched for the first
 * time, each frame slot's resources at their first use. With GPU timing
 * sampled, one such sample can be most of a source's figure (many times
 * the source's median on lavapipe and llvmpipe: docs/known-limits.md). So the GPU
 * samples of a source's first `frames` collected frames (frames it was
 * ticked or rendered in, timed or not) are not kept: timing is unchanged,
 * its CPU samples count as ever, and the source holds no GPU sample for
 * those frames (a burst goes on until it holds its samples). The count
 * restarts with the source's window: reset_video, the profiler disabled
 * and enabled again, shutdown, a source that returns after remove_source.
 * 0 keeps every sample (OBS's behaviour); the default is
 * SOURCE_PROFILER_GPU_WARMUP_FRAMES, which only shutdown restores; values
 * over 1,000,000 (more than any window holds) are taken as 1,000,000. A
 * window shorter than `frames` ends the warm-up once it is full. From the
 * next frame_collect. Any thread. */
#define SOURCE_PROFILER_GPU_WARMUP_FRAMES 3
SRCPROF_API void source_profiler_gpu_set_warmup(uint32_t frames);
SRCPROF_API uint32_t source_profiler_gpu_warmup(void);

typedef struct source_profiler_sampling {
	double budget_pct;     /* the budget in force, percent (100: every frame) */
	bool costly;           /* the installed backend's timers are costly: sampling applies */
	bool frame_timed;      /* the frame being recorded, or the last one */
	uint32_t timed_every;  /* one frame in this many is timed (1: every frame) */
	uint64_t frames_timed; /* frames GPU-timed since the profiler was enabled */
	/* What a timed frame costs beyond an untimed one, as measured (0 until
	 * a timed frame stood alone), and the estimate from empty timers. */
	uint64_t timed_cost_ns, estimated_cost_ns;
	/* The recent untimed frames' median time: the longer of frame_begin
	 * to frame_collect and one frame_collect to the next (which holds a
	 * wait for the GPU wherever the loop does it). */
	uint64_t frame_ns;
	/* A burst is on: every frame timed until each rendered source holds
	 * burst_target GPU samples; the fewest one holds now. */
	bool burst;
	uint32_t burst_samples, burst_target;
	uint64_t bursts, burst_frames; /* bursts started, frames they timed */
	bool tracing;                  /* a trace records: every frame timed */
} source_profiler_sampling_t;

/* Fills *s with the sampler's state. Any thread. */
SRCPROF_API void source_profiler_get_sampling(source_profiler_sampling_t *s);

/* Writes one line through the profiler's log (source_profiler_set_log), as
 * printf. For GPU timer modules and engines that report beside it. Any
 * thread. */
#if defined(__GNUC__) || defined(__clang__)
#define SOURCE_PROFILER_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SOURCE_PROFILER_PRINTF(f, a)
#endif
SRCPROF_API void source_profiler_log(int level, const char *fmt, ...) SOURCE_PROFILER_PRINTF(2, 3);

/* Returns the id of the pass or view called `name` ("main", "preview",
 * "blur-h"), registering it on first use. Id 0 is "default", the pass renders
 * belong to until set_pass is called. Returns 0 for NULL or when
 * SOURCE_PROFILER_MAX_PASSES passes exist (logged). Any thread. */
SRCPROF_API uint32_t source_profiler_pass_id(const char *name);

/* Name of a registered pass, or NULL. The string lives until shutdown. */
SRCPROF_API const char *source_profiler_pass_name(uint32_t pass);

/* The calling thread's renders from now until its next call belong to
 * `pass` (each thread has its own; the graphics thread's starts every
 * frame at "default"). Any thread. */
SRCPROF_API void source_profiler_set_pass(uint32_t pass);

#define SOURCE_PROFILER_MAX_PASSES 64
/* A source keeps separate statistics for at most this many passes; renders
 * in further passes are added to its last one. */
#define SOURCE_PROFILER_MAX_SOURCE_PASSES 8

/* Statistics of one source in one pass: the sum of its renders in that pass
 * per frame, over the window (frames where it was not rendered in the pass
 * count as 0). */
typedef struct source_profiler_pass_result {
	uint32_t pass;
	uint64_t render_avg, render_max;         /* ns, CPU */
	uint64_t render_gpu_avg, render_gpu_max; /* ns, 0 while GPU timing is off */
} source_profiler_pass_result_t;

/* Fills up to `max_out` pass results of `source`, in first-rendered order,
 * and returns how many passes the source has (0 when fill_result would
 * return false). Any thread. */
SRCPROF_API size_t source_profiler_fill_pass_results(const void *source,
						     source_profiler_pass_result_t *out,
						     size_t max_out);

/* Samples in the source's windows: *cpu counts the collected frames it
 * was ticked in (the last ones, at most the window capacity); *gpu the GPU
 * samples held, which are the last frames with GPU results kept, at most
 * the capacity too. With sampling (one frame in N GPU-timed) the GPU
 * samples reach further back than the CPU window's frames, and they are
 * not a subset of them. False (and nothing written) when fill_result
 * would return false. Any thread. */
SRCPROF_API bool source_profiler_get_sample_counts(const void *source, uint32_t *cpu,
						   uint32_t *gpu);

/* Medians of a source's window: the figure one outlier cannot move (a
 * first frame's shader compile, a hitch), shown beside OBS's averages and
 * maxima. Each p50 is the middle sample, or the mean of the two middle
 * ones (integer division); times in ns. GPU medians are 0 while the window
 * holds no GPU sample (gpu_samples 0: "waiting", not a measured 0). */
typedef struct source_profiler_medians {
	uint32_t cpu_samples, gpu_samples; /* what the windows hold */
	uint64_t tick_p50, render_p50, render_sum_p50;
	uint64_t render_gpu_p50, render_gpu_sum_p50;
} source_profiler_medians_t;

/* Fills *m and returns true; false (nothing written) when fill_result
 * would return false. Any thread: it copies the source's window and selects,
 * work that grows with the samples it holds, so call it for what is shown,
 * not every frame for every source. */
SRCPROF_API bool source_profiler_fill_medians(const void *source, source_profiler_medians_t *m);

/* How far each of a source's averages could move with other samples of
 * the same work: half the width of its 95% confidence interval, Student's
 * t(0.975, n - 1) x sd / sqrt(n) over the n samples of the window (ns,
 * rounded; 0 with fewer than two samples: not known). An average of 300 us
 * with a render_gpu_sum_ci95 of 30 us reads "300 us +-10%"; two runs whose
 * averages differ by less than the root of the sum of their squared
 * half-widths are not told apart by their samples. It treats the samples
 * as independent draws: it covers how the frames spread, not a machine
 * that slows down or a scene whose cost changes over the run, which move
 * every sample together. GPU fields are 0 while GPU timing is off. Fills
 * *iv and returns true; false (nothing written) when fill_result would
 * return false. Any thread; it copies the window, as fill_medians. */
typedef struct source_profiler_intervals {
	uint32_t cpu_samples, gpu_samples; /* what the windows hold */
	uint64_t tick_ci95, render_ci95, render_sum_ci95;
	uint64_t render_gpu_ci95, render_gpu_sum_ci95;
} source_profiler_intervals_t;

SRCPROF_API bool source_profiler_fill_intervals(const void *source,
						source_profiler_intervals_t *iv);

/* The per-frame samples behind a source's statistics, for percentiles. */
typedef enum source_profiler_series {
	SOURCE_PROFILER_TICK,       /* tick, ns */
	SOURCE_PROFILER_RENDER,     /* CPU, first render of the frame */
	SOURCE_PROFILER_RENDER_SUM, /* CPU, all renders of the frame */
	SOURCE_PROFILER_GPU,        /* GPU, first render */
	SOURCE_PROFILER_GPU_SUM,    /* GPU, all renders */
} source_profiler_series;

/* Copies up to `max` samples of `series` for `source`, oldest first, and
 * returns how many the window holds. A frame's sum over passes above
 * 4.29 s is copied as UINT32_MAX (render_sum in fill_result is exact).
 * Graphics thread, between frames. */
SRCPROF_API size_t source_profiler_copy_samples(const void *source, source_profiler_series series,
						uint32_t *out, size_t max);

/* Gives `source` a name for exports and traces (copied). Any thread. */
SRCPROF_API void source_profiler_set_source_name(const void *source, const char *name);

/* Copies the source's name into buf (size > 0) and returns true, or writes
 * "0x<address>" and returns false when it has none. Any thread. */
SRCPROF_API bool source_profiler_get_source_name(const void *source, char *buf, size_t size);

/* Counters since the last reset_video or enable. Any thread. */
typedef struct source_profiler_stats {
	bool enabled, gpu_enabled;
	uint32_t window_capacity; /* samples per source window */
	uint32_t sources;         /* entries alive */
	uint64_t frames_collected;
	uint64_t gpu_frames_collected; /* frames whose GPU samples were kept */
	/* Frames whose GPU samples were dropped, in total and by reason. */
	uint64_t gpu_frames_disjoint;
	uint64_t gpu_disjoint_backend;     /* the backend said so */
	uint64_t gpu_disjoint_order;       /* a timer ends before it begins */
	uint64_t gpu_disjoint_range;       /* a timer outside its frame, or over 4.29 s */
	uint64_t gpu_disjoint_unavailable; /* results not ready at collect */
	uint64_t gpu_disjoint_overflow;    /* more timers than the pool held */
	uint32_t gpu_timer_capacity;       /* timers per frame the pools hold */
	/* The frame's own GPU time (render_begin to render_end stamps) over
	 * the frames whose GPU samples were kept in the last window. */
	uint64_t gpu_frame_avg_ns, gpu_frame_max_ns;
	/* What an empty GPU timer costs in this mode among a pass's renders
	 * (after its first timer of the frame), averaged over passes; each
	 * pass's own figure is subtracted from its renders' GPU times (0
	 * unless the backend asks for it). */
	uint64_t gpu_timer_overhead_ns;
	uint64_t ignored_calls;     /* NULL source, render_end without begin, ... */
	uint64_t saturated_samples; /* durations above 4.29 s */
	uint64_t allocations;       /* heap allocations made by the profiler */
	size_t bytes;               /* heap bytes held by the profiler */
	const char *gpu_mode;       /* the backend's timing mode, or "none" */
	/* The finest GPU time the timers resolve, ns: where empty timers are
	 * measured (flushed stamps), how far apart two readings of the same
	 * work typically are - the interquartile range of the last 64 empty
	 * timers a pass's renders have subtracted, the largest over passes -
	 * and at least the timer's
	 * tick; else the tick (1 ns unless the backend says). A GPU figure
	 * above 0 and below it is "below resolution", and reports show it as
	 * such ("<41.0"). 0: not known yet (no empty timer measured, or no
	 * backend). */
	uint64_t gpu_resolution_ns;
	/* Several threads (fields added at the end: recompile against this
	 * header). Threads besides the graphics thread that record now, and
	 * the bytes their buffers hold (bounded: a thread's buffer holds at
	 * most SOURCE_PROFILER_THREAD_RECORDS ticks and renders of a frame;
	 * more are dropped and counted in records_dropped). */
	uint32_t threads;
	size_t thread_bytes;
	uint64_t threads_refused;    /* threads beyond set_max_threads, not profiled */
	uint64_t records_late;       /* ticks and renders of a frame already collected */
	uint64_t records_dropped;    /* a thread's buffer full in a frame */
	uint64_t gpu_timers_unavailable; /* stamps not there at collect (a command buffer late) */
	uint64_t gpu_timers_misplaced;   /* ended on another thread or command buffer */
	uint32_t gpu_queues;             /* queues installed, the first included */
	/* Renders on recording threads that found every GPU timer of their
	 * frame taken (threads that began recording in it, more than its pool
	 * was sized for): those renders' sources have no GPU sample that
	 * frame, the others keep theirs, and the pool grows for the next. */
	uint64_t gpu_timers_denied;
} source_profiler_stats_t;

/* Fills *stats. Any thread. */
SRCPROF_API void source_profiler_get_stats(source_profiler_stats_t *stats);

/* --- Several threads, command buffers and queues ---------------------------
 * (the frame protocol above, "Several threads"). */

/* Threads that may record besides the graphics thread: at most this many
 * at once (set_max_threads), each with buffers of its own. */
#define SOURCE_PROFILER_MAX_THREADS 1024
#define SOURCE_PROFILER_DEFAULT_THREADS 64
/* The most ticks and renders one thread's buffer holds for one frame. */
#define SOURCE_PROFILER_THREAD_RECORDS (1u << 20)

/* Sets how many threads besides the graphics thread may record, 1 to
 * SOURCE_PROFILER_MAX_THREADS (default SOURCE_PROFILER_DEFAULT_THREADS); a
 * thread that exits gives its place back. Calls from a thread beyond it
 * are dropped (threads_refused counts such threads; said once); other
 * values are ignored (logged, counted in ignored_calls). Any thread. */
SRCPROF_API void source_profiler_set_max_threads(uint32_t n);

/* The calling thread's renders from now on write their GPU stamps into
 * `cmd` (a VkCommandBuffer for srcprof/vulkan.h; primary, or secondary
 * executed inside a render pass), which the renderer submits to queue
 * `queue` (0: the backend of source_profiler_set_gpu_backend; others:
 * source_profiler_add_gpu_queue). Per thread, until the next call; NULL
 * names none (a thread that named none gets no GPU timers, but the
 * graphics thread, whose stamps then go where its backend puts them:
 * srcprof_vk_timer_begin_frame's command buffer). A timer ends in the
 * command buffer it began in: name the next one after its render_end.
 * A queue not installed is refused (counted in ignored_calls, logged
 * once) and the thread keeps what it named before. Results are read per
 * timer where the backend can (read_each): a command buffer submitted
 * late, or never, loses only its own renders' GPU samples for that frame
 * (gpu_timers_unavailable). Any thread, between frame_begin and
 * frame_collect (or before the first frame). */
SRCPROF_API void source_profiler_set_command_buffer(uint32_t queue, void *cmd);

/* The most GPU queues, the first included (source_profiler_add_gpu_queue in
 * srcprof/gpu_timer.h). */
#define SOURCE_PROFILER_MAX_QUEUES 8

/* A source's GPU time on one queue: the sum of its renders there per
 * frame, over the GPU samples of its window (ns). */
typedef struct source_profiler_queue_result {
	uint32_t queue;
	uint32_t gpu_samples;           /* GPU samples of the window */
	uint64_t render_gpu_sum;        /* average over them */
	uint64_t render_gpu_max;        /* the largest */
} source_profiler_queue_result_t;

/* Fills up to `max_out` queue results of `source`, in queue order, for the
 * queues it was rendered on, and returns how many queues that is (0 when
 * fill_result would return false). render_gpu_sum of fill_result is their
 * sum: GPU time on each queue added up, so that work of one source running
 * on two queues at once counts on both (busy time, not elapsed time). It
 * copies the window, as fill_medians: call it for what is shown. Any
 * thread. */
SRCPROF_API size_t source_profiler_fill_queue_results(const void *source,
						      source_profiler_queue_result_t *out,
						      size_t max_out);

/* The queue of each of `source`'s passes, in fill_pass_results' order (a
 * pass rendered on two queues is two passes there, one per queue); returns
 * how many passes the source has. Any thread. */
SRCPROF_API size_t source_profiler_fill_pass_queues(const void *source, uint32_t *queues,
						    size_t max_out);

/* --- Work counters (srcprof extension) --------------------------------------
 * What each source asks of the GPU, counted by the device: the pipeline
 * statistics of its renders (Vulkan VK_QUERY_TYPE_PIPELINE_STATISTICS,
 * OpenGL ARB_pipeline_statistics_query), beside its time. Time is noisy,
 * work is exact: the same frames give the same counts. Counted in the
 * frames that are GPU-timed, each render's commands between its timer's
 * stamps, where the GPU timer backend counts them (work_counters in
 * srcprof/gpu_timer.h; srcprof/vulkan.h and srcprof/gl.h when their desc
 * asks) and work_enable is on. A render begun while another is open on
 * the same thread (nested) counts nothing of its own: its work is in the
 * outer render's figures and its source has no work sample that frame.
 * Kept over the same window as the GPU times, in a ring per source
 * allocated with its first counted frame (4 bytes per counter, pass and
 * frame). */

typedef enum source_profiler_counter {
	SOURCE_PROFILER_INPUT_VERTICES,       /* vertices the input assembler fetched */
	SOURCE_PROFILER_INPUT_PRIMITIVES,     /* primitives it assembled */
	SOURCE_PROFILER_VS_INVOCATIONS,       /* vertex shader invocations */
	SOURCE_PROFILER_CLIPPING_INVOCATIONS, /* primitives into clipping */
	SOURCE_PROFILER_CLIPPING_PRIMITIVES,  /* primitives out of clipping */
	SOURCE_PROFILER_FS_INVOCATIONS,       /* fragment shader invocations */
	SOURCE_PROFILER_CS_INVOCATIONS,       /* compute shader invocations */
	SOURCE_PROFILER_COUNTERS
} source_profiler_counter;

/* A short name for counter c ("vertices", "primitives", "VS invocations",
 * "clip in", "clip out", "FS invocations", "CS invocations"), "?" for
 * another value. */
SRCPROF_API const char *source_profiler_counter_name(source_profiler_counter c);

/* Turns work counting on or off from the next frame_begin (default off;
 * source_profiler_shutdown turns it off).
 * Counting costs what the backend's queries cost; it needs GPU timing on.
 * Any thread. */
SRCPROF_API void source_profiler_work_enable(bool enable);

/* Whether work counting is asked for (work_enable's last value). Any
 * thread. */
SRCPROF_API bool source_profiler_work_enabled(void);

/* Work per frame over the window's counted frames. A counter whose bit is
 * not in `counted` is one the device cannot count: "n/a", not 0. Counts
 * of a frame above 4,294,967,295 are kept as that (saturated). */
typedef struct source_profiler_work {
	uint32_t counted;  /* bit c: counter c is counted */
	uint32_t samples;  /* frames of the window with counts */
	uint64_t avg[SOURCE_PROFILER_COUNTERS];  /* per frame, all renders summed */
	uint64_t max[SOURCE_PROFILER_COUNTERS];  /* the largest frame */
	uint64_t last[SOURCE_PROFILER_COUNTERS]; /* the newest counted frame */
} source_profiler_work_t;

/* Fills *out with `source`'s work over all its passes and returns true;
 * false (out untouched) while the profiler is off, the source has no
 * entry, or no frame of it was counted yet. Any thread. */
SRCPROF_API bool source_profiler_fill_work(const void *source, source_profiler_work_t *out);

/* Fills up to `max_out` per-pass figures of `source`, in
 * source_profiler_fill_pass_results' order, and returns how many passes
 * its work window holds (0 as fill_work's false). Any thread. */
SRCPROF_API size_t source_profiler_fill_pass_work(const void *source, source_profiler_work_t *out,
						  size_t max_out);

/* The frame's totals: every counted source's work summed per frame, over
 * the window's counted frames. false before the first. Any thread. */
SRCPROF_API bool source_profiler_frame_work(source_profiler_work_t *out);

/* Calls `fn` for every source with an entry, with its name (or
 * "0x<address>"). Any thread; `fn` must not call back into the profiler's
 * engine-side functions. Returns the number of sources visited. */
SRCPROF_API size_t source_profiler_enum_sources(
	void (*fn)(const void *source, const char *name, void *user), void *user);

enum source_profiler_log_level {
	SOURCE_PROFILER_LOG_ERROR,
	SOURCE_PROFILER_LOG_WARNING,
	SOURCE_PROFILER_LOG_INFO,
};

/* Routes the profiler's log lines (one line, no newline) to `fn`; NULL
 * restores the default, which writes "srcprof: <level>: <msg>" to stderr.
 * Any thread; `fn` may be called from any thread that measures, and is
 * always called with the `user` given with it. A line being written when
 * set_log returns may still reach the old function: free what it uses
 * only once no thread can be logging (after shutdown, say). */
SRCPROF_API void source_profiler_set_log(void (*fn)(int level, const char *msg, void *user),
					 void *user);

/* Frees everything the profiler holds and returns it to its initial state
 * (off, 60 fps, no backend, no clock override). Graphics thread, no other
 * thread may be inside the profiler. */
SRCPROF_API void source_profiler_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
