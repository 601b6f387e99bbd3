/* The GPU timers of every queue the renderer submits to: gpu_queues.c
 * (queues and their backends), gpu.c (frame slots and their pools, timers
 * handed out on the graphics thread), gpu_stream.c (on recording threads),
 * gpu_collect.c (read-back and the checks on it), gpu_range.c (the frames'
 * GPU ranges), gpu_empty.c (what an empty timer costs where). Not
 * installed. */
#ifndef SRCPROF_SP_GPU_H
#define SRCPROF_SP_GPU_H

#include "sp_common.h"
#include "srcprof/gpu_timer.h"

/* Queues: 0 is the backend source_profiler_set_gpu_backend installs. */
#define SP_MAX_QUEUES SOURCE_PROFILER_MAX_QUEUES

/* A timer as the frame's chains name it: its queue in the top byte, its
 * index in that queue's slot below (queue 0's are plain indices). */
#define SP_TIMER_QUEUE_SHIFT 24
#define SP_TIMER_INDEX_MASK ((1u << SP_TIMER_QUEUE_SHIFT) - 1u)
static inline uint32_t sp_timer_id(uint32_t queue, uint32_t index)
{
	return queue << SP_TIMER_QUEUE_SHIFT | index;
}

struct sp_gpu_timer { /* 8 bytes: a pool holds ~4 a source */
	/* Next timer of the same source this frame (a timer id); on a
	 * recording thread, until the timer's render is merged, the
	 * command buffer generation it began in. */
	uint32_t next;
	uint8_t pass;       /* global pass id (< SOURCE_PROFILER_MAX_PASSES) */
	uint8_t pass_local; /* column in the owner's records (< MAX_SOURCE_PASSES) */
	uint8_t first : 1;  /* the owner's first render of the frame */
	uint8_t lead : 1;   /* its pass's first timer of the frame */
	uint8_t named : 1;  /* in a command buffer the renderer named */
	uint8_t work : 1;   /* its render's work is counted (set `index`) */
	uint8_t state;
};
/* Where in a pass an empty timer is measured: its first timer of the
 * frame (or of a command buffer), or after it. */
enum { SP_GPU_LEAD, SP_GPU_LATER, SP_GPU_PLACES };
_Static_assert(SOURCE_PROFILER_MAX_PASSES <= 256 && SOURCE_PROFILER_MAX_SOURCE_PASSES <= 256,
	       "pass ids fit a timer's bytes");
_Static_assert(sizeof(struct sp_gpu_timer) == 8, "a timer is 8 bytes");
_Static_assert(SOURCE_PROFILER_MAX_PASSES <= 64, "a pass bit must fit a 64-bit mask");

/* A timer's state; UNUSABLE: ended, but its stamps were not there at
 * collect (or out of order): its render has no GPU sample. */
enum {
	SP_TIMER_BEGUN = 1,
	SP_TIMER_ENDED,
	SP_TIMER_ORPHAN,
	SP_TIMER_EMPTY,
	SP_TIMER_EMPTY_LATER,
	SP_TIMER_UNUSABLE,
};

/* Where a pass's empty timers go among its renders: in a frame (the
 * graphics thread) or in a command buffer (a recording thread). */
typedef struct sp_gpu_places {
	uint64_t done;     /* passes with a timer so far */
	uint32_t last_pass; /* of the last timer begun */
	uint32_t renders[SOURCE_PROFILER_MAX_PASSES], renders_last[SOURCE_PROFILER_MAX_PASSES];
	uint32_t later_at[SOURCE_PROFILER_MAX_PASSES], later_turn[SOURCE_PROFILER_MAX_PASSES];
} sp_gpu_places;

/* What a recording thread's stream (stream.c) keeps of GPU timing: the
 * command buffer it names, its chunk of timers, its passes' empty timers.
 * Owned by its thread. */
typedef struct sp_gpu_stream {
	uint16_t id;        /* the stream's number: the owner of its chunks */
	uint32_t queue;     /* the queue of cmd */
	void *cmd;          /* where its stamps go; NULL: none named */
	uint32_t cmd_gen;   /* set_command_buffer calls: a timer ends where it began */
	uint64_t frame;     /* the frame the chunk and places below belong to */
	uint32_t next, end; /* timer indices left in its chunk */
	uint32_t chunk;     /* that chunk's number; UINT32_MAX: none */
	uint32_t open;      /* timers begun in cmd and not ended */
	uint32_t asks;      /* renders that asked for a timer this frame */
	bool said_backend;  /* "this backend stamps no other thread" said */
	sp_gpu_places places;
} sp_gpu_stream;

/* --- gpu_queues.c, gpu.c, gpu_stream.c: queues, frames, timers ----------- */

/* Graphics thread, at frame_begin of a GPU-timed frame: makes every
 * queue's pool hold the timers the frame is likely to need (the backend
 * creates query objects here, before the renderer records commands). */
void sp_gpu_prepare(unsigned slot, uint32_t sources);
/* Graphics thread, frame_begin: how many threads other than it record. */
void sp_gpu_set_threads(uint32_t threads);
/* Graphics thread, at render_begin: opens slot `slot` for frame `frame` on
 * every queue if GPU timing is on; recording threads may then begin
 * timers. */
void sp_gpu_frame_begin(unsigned slot, uint64_t frame, bool gpu_on, uint32_t sources);
/* At render_end: closes the frame's range; timers the graphics thread left
 * open are closed and ignored, recording threads begin no more. */
void sp_gpu_frame_end(unsigned slot);
/* Graphics thread: a timer for a render in `pass`, in the command buffer
 * and queue it named (sp_gpu_bind), or NULL. */
sp_gpu_timer *sp_gpu_timer_begin(unsigned slot, uint32_t pass);
/* Ends `t` if it is a live timer of the graphics thread and returns its
 * id; SP_NO_ENTRY for a bad pointer, or one begun in another command
 * buffer (counted by the caller). */
uint32_t sp_gpu_timer_end(unsigned slot, sp_gpu_timer *t);
/* Graphics thread: its renders' stamps go into `cmd` on `queue` (NULL:
 * the backend's own command buffer, as before set_command_buffer). */
void sp_gpu_bind(uint32_t queue, void *cmd);
/* The queue the graphics thread's renders go to. */
uint32_t sp_gpu_bound_queue(void);
/* Recording threads: the same for a stream, for frame `frame`, slot
 * `slot`; NULL when the frame is not GPU-timed, its range is not open, or
 * the backend cannot stamp this thread's command buffers (said once). */
sp_gpu_timer *sp_gpu_stream_begin(sp_gpu_stream *g, uint64_t frame, unsigned slot, uint32_t pass);
uint32_t sp_gpu_stream_end(sp_gpu_stream *g, unsigned slot, sp_gpu_timer *t);
/* A stream names a command buffer; false when `queue` has no backend. */
bool sp_gpu_stream_bind(sp_gpu_stream *g, uint32_t queue, void *cmd);
/* A timer by id (graphics thread, while its frame is not collected). */
sp_gpu_timer *sp_gpu_timer_at(unsigned slot, uint32_t id);

void sp_gpu_reset_slots(void);
void sp_gpu_shutdown(void);
bool sp_gpu_has_backend(void);
bool sp_gpu_costly(void);     /* queue 0's timers are costly: sample, measure empty timers */
bool sp_gpu_costly_pub(void); /* the same, any thread, from the backend's installation */
int64_t sp_gpu_cpu_offset(uint32_t queue);
/* Graphics thread: the empty timers a timed frame writes, as many as the
 * last timed frame's passes wrote (one a pass, two where the backend
 * subtracts them); 0 where none are measured. */
uint32_t sp_gpu_empty_timers_last(void);
extern SP_HIDDEN _Atomic uint32_t sp_gpu_capacity_pub;
const char *sp_gpu_mode(void);
/* Queue `queue`'s backend has empty timers subtracted (graphics thread). */
bool sp_gpu_subtracts(uint32_t queue);
/* Queue `queue`'s backend stamps named command buffers; its mode. Any
 * thread. */
bool sp_gpu_queue_stamps_cmds(uint32_t queue);
const char *sp_gpu_queue_mode(uint32_t queue);

/* --- gpu_collect.c: read-back -------------------------------------------- */

/* The stamps of a collected frame: per queue, its timers (a timer whose
 * stamps cannot be used is SP_TIMER_UNUSABLE) and their stamps; NULL for
 * a queue that timed nothing. */
typedef struct sp_gpu_frame {
	const sp_gpu_timer *timers[SP_MAX_QUEUES];
	const uint64_t *ns[SP_MAX_QUEUES];
	/* Work counters where the frame counted them: timer i's set at
	 * work[q][i * SOURCE_PROFILER_COUNTERS], there when work_avail[q][i]. */
	const uint64_t *work[SP_MAX_QUEUES];
	const uint8_t *work_avail[SP_MAX_QUEUES];
} sp_gpu_frame;

/* Reads slot's results for frame `frame` on every queue and checks them;
 * false when the frame has no GPU samples (off, or dropped as disjoint).
 * Else *out says where each timer's stamps are: timer i of queue q,
 * stamps [2 + 2i] and [3 + 2i]. */
bool sp_gpu_collect(unsigned slot, uint64_t frame, sp_gpu_frame *out);
void sp_gpu_frame_range(uint64_t *avg, uint64_t *max); /* any thread */

/* --- gpu_empty.c: the cost of an empty timer -------------------------- */

/* The ns subtracted from timer t (the median of the empty timers measured
 * where it is: its pass's first timer, or after it), 0 when the backend
 * does not ask for it or none is measured yet. */
uint32_t sp_gpu_overhead(const sp_gpu_timer *t, bool subtract);
/* The mean over passes of what an empty timer costs. */
uint64_t sp_gpu_overhead_mean(void);
uint64_t sp_gpu_resolution(void);

#endif
