/* A trace capture's events and state, shared by trace.c (recording) and
 * trace_json.c (writing it out); nothing else includes it. Not installed. */
#ifndef SRCPROF_SP_TRACE_CAPTURE_H
#define SRCPROF_SP_TRACE_CAPTURE_H

#include "srcprof/export.h"

#include "sp_common.h"

#include <pthread.h>

enum ev_type {
	EV_NONE,
	EV_TICK,
	EV_RENDER,
	EV_GPU,
	EV_GPU_FRAME,
	EV_BLOCK,
	EV_FRAME,
	EV_FRAME_TIME,
};

typedef struct event {
	_Atomic uint8_t type;
	uint8_t depth;
	uint16_t track;
	uint32_t frame;
	uint32_t pass;
	uint32_t work; /* EV_GPU: its render's counts at sp_capture.work[index], 1 + index; 0: none */
	const char *name;
	uint64_t ts, dur; /* ns on the profiler clock; EV_FRAME_TIME: dur = frame time */
} event;

#define MAX_TRACKS 256
#define TRACK_FRAMES 0
#define TRACK_GPU 1

typedef struct name_chunk {
	struct name_chunk *next;
	size_t used, cap;
	char data[];
} name_chunk;

/* The capture (one at a time): written by the graphics thread, which
 * starts, stops and frees captures; the atomics are read on any thread
 * (trace_get_info, recording threads' events). */
typedef struct sp_trace_capture {
	/* The GPU events' work counts (work counting on at trace_start), one
	 * record per event slot, written by the graphics thread at collect
	 * before its event is published; and the counters counted. */
	uint32_t (*work)[SOURCE_PROFILER_COUNTERS];
	uint32_t work_counted;
	_Atomic int state; /* SOURCE_PROFILER_TRACE_* */
	_Atomic(event *) events;
	/* Atomic (relaxed) where trace_get_info reads them from any thread. */
	_Atomic uint32_t cap;
	_Atomic uint64_t next, dropped;
	_Atomic uint64_t begin_ns, end_ns;
	uint64_t span_ns;
	_Atomic uint32_t frames;
	uint32_t capture_id;
	_Atomic uint32_t capture_id_pub;
	uint64_t prev_frame_ns;
	uint32_t prev_frame;
	char gpu_mode[64];
	name_chunk *names;
	/* The tracks: threads' and queues', named in the order they appear. */
	pthread_mutex_t track_lock;
	char track_names[MAX_TRACKS][80];
	bool track_gpu[MAX_TRACKS]; /* a queue's track: sorted after the threads */
	_Atomic uint32_t n_tracks;
	/* Graphics thread: each queue's track in the capture (0: none yet). */
	uint16_t queue_track[SP_MAX_QUEUES];
} sp_trace_capture;

extern SP_HIDDEN sp_trace_capture sp_capture;

#endif
