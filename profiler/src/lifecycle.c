/* The profiler's lifecycle: enable and gpu_enable (taken at frame_begin),
 * turning on and off there, reset_video, dropping every entry with what
 * refers to entries, the fast paths that follow the on / off state, and
 * shutdown. Above the entry table, the GPU timers, the streams, the
 * sampler and the work counters, which it calls; the frame protocol
 * (frame.c) calls it.
 *
 * Graphics thread, but for enable / gpu_enable (any thread). */
#include "sp_gpu.h"
#include "sp_lifecycle.h"
#include "sp_meta.h"
#include "sp_names.h"
#include "sp_rcu.h"
#include "sp_sampler.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_trace.h"
#include "sp_util.h"
#include "sp_work.h"

/* get_stats' counters: the core's and the recording threads'. */
static void reset_counters(void)
{
	sp_reset_counters();
	sp_streams_reset_counters();
}

void sp_drop_all(void)
{
	bool was_live = sp_entries_drop();
	sp_work_reset_totals();
	sp_gpu_reset_slots();
	sp_streams_forget_entries();
	sp_retire_drain();
	if (was_live && sp_core.on)
		atomic_store(&sp_core.live, true);
}

/* --- enable, reset_video ------------------------------------------------ */

void source_profiler_enable(bool enable)
{
	atomic_store(&sp_core.enable_next, enable);
}

void source_profiler_gpu_enable(bool enable)
{
	atomic_store(&sp_core.gpu_enable_next, enable && atomic_load(&sp_core.enable_next));
}

void source_profiler_reset_video(uint32_t fps_num, uint32_t fps_den)
{
	if (!fps_num || !fps_den) {
		sp_log(SOURCE_PROFILER_LOG_WARNING,
		       "reset_video(%u, %u): frame rate must be positive; keeping %u samples", fps_num,
		       fps_den, sp_capacity);
		sp_ignored();
		return;
	}
	uint64_t fps = ((uint64_t)fps_num + fps_den - 1) / fps_den;
	if (fps > SOURCE_PROFILER_MAX_FPS) {
		sp_log(SOURCE_PROFILER_LOG_WARNING, "reset_video(%u, %u): clamped to %u fps", fps_num,
		       fps_den, SOURCE_PROFILER_MAX_FPS);
		fps = SOURCE_PROFILER_MAX_FPS;
	}
	sp_drop_all();
	sp_capacity = (uint32_t)fps * SOURCE_PROFILER_WINDOW_SECONDS;
	atomic_store(&sp_core.capacity_pub, sp_capacity);
	reset_counters(); /* get_stats' counters run "since the last reset_video or enable" */
}

/* --- the fast paths -------------------------------------------------------- */

/* The fast paths' bytes, from what they depend on: frame_begin chooses
 * them every frame (a capture started or finished shows there), and the
 * on / off turns here at once. Graphics thread. */
void sp_fast_paths(void)
{
	bool trace = atomic_load_explicit(&sp_trace_recording, memory_order_relaxed);
	uint8_t stamp = !sp_core.on ? SP_PATH_OFF : sp_core.tsc ? SP_PATH_FAST : SP_PATH_SLOW;
	uint8_t tick = stamp == SP_PATH_FAST && trace ? SP_PATH_SLOW : stamp;
	SP_STORE(sp_core.stamp_path, stamp);
	SP_STORE(sp_core.tick_path, tick);
	SP_STORE(sp_core.render_path,
		 tick == SP_PATH_FAST && sp_core.gpu_frame ? SP_PATH_TIMED : tick);
	/* Recording threads stamp with the same clock (their path is off,
	 * the TSC, or the clock; traces change nothing there). */
	sp_streams_publish(sp_core.frame, sp_core.slot, stamp, sp_core.gpu_frame);
}

void sp_turn_on(void)
{
	sp_core.on = true;
	sp_core.on_since = sp_core.frame + 1;
	reset_counters();
	sp_sampler_reset();
	atomic_store(&sp_core.live, true);
}

void sp_turn_off(void)
{
	sp_core.on = false;
	sp_core.gpu_frame = false;
	sp_fast_paths();
	atomic_store(&sp_core.gpu_live, false);
	sp_drop_all();
}

/* --- shutdown --------------------------------------------------------------- */

void source_profiler_shutdown(void)
{
	sp_drop_all();
	sp_streams_shutdown();
	atomic_store(&sp_core.live, false);
	atomic_store(&sp_core.gpu_live, false);
	atomic_store(&sp_core.enable_next, false);
	atomic_store(&sp_core.gpu_enable_next, false);
	source_profiler_work_enable(false);
	sp_core.on = sp_core.gpu_frame = false;
	sp_fast_paths();
	sp_gpu_shutdown();
	sp_meta_lock();
	sp_meta_clear();
	sp_removals_free();
	sp_meta_unlock();
	sp_passes_free();
	sp_retire_drain();
	sp_capacity = 60 * SOURCE_PROFILER_WINDOW_SECONDS;
	atomic_store(&sp_core.capacity_pub, sp_capacity);
	sp_fif = SOURCE_PROFILER_FRAME_BUFFER_SIZE;
	atomic_store(&sp_core.fif_pub, sp_fif);
	sp_sampler_shutdown();
	source_profiler_set_clock(NULL, NULL);
	reset_counters();
}
