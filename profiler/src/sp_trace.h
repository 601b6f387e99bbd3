/* trace.c: hooks called while a capture records. Not installed. */
#ifndef SRCPROF_SP_TRACE_H
#define SRCPROF_SP_TRACE_H

#include "sp_common.h"

typedef struct sp_entry sp_entry;

enum { SP_TRACE_TICK, SP_TRACE_RENDER };

extern SP_HIDDEN _Atomic bool sp_trace_recording;
void sp_trace_frame(uint32_t frame, uint64_t begin_ns);
/* A tick or render on the calling thread's track; _on: on `track` (a
 * recording thread's, merged by the graphics thread). */
void sp_trace_cpu(const sp_entry *e, int kind, uint32_t pass, uint64_t start, uint64_t end,
		  uint32_t frame);
void sp_trace_cpu_on(uint16_t track, const sp_entry *e, int kind, uint32_t pass, uint64_t start,
		     uint64_t end, uint32_t frame);
/* A render's GPU time, and a frame's, on the track of their queue. */
void sp_trace_gpu(sp_entry *e, uint32_t queue, uint32_t pass, uint64_t begin, uint64_t end,
		  uint32_t frame, const uint64_t *work);
void sp_trace_gpu_frame(uint32_t queue, uint32_t frame, uint64_t begin, uint64_t end);
/* The capture being recorded (0: none yet), and the calling thread's
 * track in it (any thread). */
uint32_t sp_trace_capture_id(void);
uint16_t sp_trace_thread_track(void);
void sp_trace_block(const char *name, unsigned depth, uint64_t begin, uint64_t end);
void sp_trace_maintain(uint64_t now);
/* The calling thread's routine (perf_block_set_routine): its track's name
 * in captures where trace_name_thread gave none. */
void sp_trace_set_routine(const char *name);
void sp_trace_maintain_(uint64_t now); /* graphics thread: ends a capture whose span is over */

#endif
