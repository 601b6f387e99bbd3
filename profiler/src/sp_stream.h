/* stream.c: ticks and renders of threads other than the graphics thread,
 * each appended to a stream of its own and merged into the entries by the
 * graphics thread. Not installed. */
#ifndef SRCPROF_SP_STREAM_H
#define SRCPROF_SP_STREAM_H

#include "sp_state.h"

/* Each thread's address of this is its identity: the graphics thread's is
 * sp_core.graphics (set at frame_begin). Initial-exec: one instruction to
 * find, also from the shared library (loaded with the program). */
extern SP_HIDDEN _Thread_local char sp_thread_token __attribute__((tls_model("initial-exec")));

static inline bool sp_on_graphics_thread(void)
{
	return atomic_load_explicit(&sp_core.graphics, memory_order_relaxed) == &sp_thread_token;
}

/* Graphics thread, frame_begin (and gpu_skip_frame, which changes
 * gpu_frame): what recording threads need of the frame. */
void sp_streams_publish(uint64_t frame, unsigned slot, uint8_t stamp_path, bool gpu_frame);
/* Graphics thread: takes in what recording threads published so far, the
 * ticks of every stream before the renders. At render_begin and at
 * frame_collect (`final`: threads that exited give their stream back). */
void sp_streams_merge(bool final);
/* Graphics thread: entries were dropped (disable, reset_video): the
 * merge's lookup hints go. */
void sp_streams_forget_entries(void);
/* Shutdown: every stream freed; threads that had one join anew. */
void sp_streams_shutdown(void);
/* Any thread: the counters get_stats shows. */
void sp_streams_stats(source_profiler_stats_t *st);
uint32_t sp_streams_live(void); /* threads with a stream now */
void sp_streams_reset_counters(void);

/* The public calls on a thread that is not the graphics thread. */
uint64_t sp_stream_stamp(void);
void sp_stream_tick_end(uintptr_t key, uint64_t start);
uint64_t sp_stream_render_begin(sp_gpu_timer **timer);
void sp_stream_render_end(uintptr_t key, uint64_t start, sp_gpu_timer *timer);
void sp_stream_set_pass(uint32_t pass);
void sp_stream_set_command_buffer(uint32_t queue, void *cmd);
/* A timer ended on the wrong thread or command buffer (any thread). */
void sp_streams_misplaced(void);

#endif
