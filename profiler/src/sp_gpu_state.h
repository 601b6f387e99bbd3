/* The GPU timers' state: one struct, sp_gpu, defined in gpu_queues.c (the
 * queues and their backends) and shared with gpu.c (the slots' pools),
 * gpu_stream.c (recording threads' chunks), gpu_collect.c (reading back),
 * gpu_empty.c and gpu_range.c; nothing else includes it. Graphics thread, but for
 * the atomics, which recording threads and readers use. Not installed. */
#ifndef SRCPROF_SP_GPU_STATE_H
#define SRCPROF_SP_GPU_STATE_H

#include "sp_gpu.h"

/* Timers a recording thread takes from a slot at a time: one atomic add
 * per 64 renders, none per render. */
#define SP_TIMER_CHUNK 64u

/* A chunk of a slot's timers that a recording thread took; a cache line
 * of its own, written only by that thread. */
typedef struct sp_gpu_chunk {
	_Atomic uint32_t used;  /* timers handed out from it (release) */
	_Atomic uint32_t owner; /* the stream's id */
	char pad[56];
} sp_gpu_chunk;
_Static_assert(sizeof(sp_gpu_chunk) == 64, "a chunk's counter is a cache line");

/* One frame slot of one queue: the timers of the frame recorded into it. */
typedef struct sp_gpu_slot {
	uint64_t frame;      /* frame recorded into this slot */
	bool on;             /* GPU timing was on for that frame */
	bool closed;         /* render_end closed its range */
	bool overflow;       /* a render found the pool full */
	bool forced;         /* test hook: treat as disjoint */
	bool work;           /* its renders' work is counted */
	uint32_t used;       /* the graphics thread's timers handed out: [0, used) */
	uint32_t open;       /* of those, begun and not ended */
	uint32_t denied;     /* renders that found the pool full */
	uint32_t capacity;   /* timers the backend holds for this slot */
	/* [0, direct_cap) the graphics thread's; then `chunks` chunks of
	 * SP_TIMER_CHUNK for recording threads. */
	uint32_t direct_cap, chunks;
	_Atomic uint32_t chunk_next; /* the next chunk to hand out */
	_Atomic uint32_t stream_denied; /* recording threads' renders that found none */
	_Atomic bool streams_open;      /* recording threads may begin timers */
	uint32_t refused;    /* the last want the backend could not hold */
	bool refusal_said;   /* ...and held back twice in a row: said once */
	uint32_t backend_gen;
	sp_gpu_timer *timers;
	uint32_t timers_cap;
	sp_gpu_chunk *chunk;
	uint32_t chunk_cap;
} sp_gpu_slot;

/* A queue's timer context: its backend and its slots. */
typedef struct sp_gpu_queue {
	bool installed;
	/* Empty timers are measured where the backend wants them subtracted,
	 * and where timers are costly (the sampler estimates a timed frame's
	 * cost from them). */
	bool measure_empty;
	sp_gpu_timer_backend b;
	uint32_t backend_gen;
	char name[32];
	sp_gpu_slot slots[SP_MAX_FIF];
	uint32_t want_direct, want_stream; /* more than the estimate, once a frame needed more */
	bool grown;                        /* ...which the next reserve says */
	uint32_t stream_last;              /* recording threads' timers in the last timed frame */
	uint64_t *ns;                      /* read-back buffer */
	uint8_t *avail;
	uint32_t ns_cap;
	uint64_t *work;                    /* work counters' read-back, per timer */
	uint8_t *work_avail;
	uint32_t work_cap;                 /* timers they hold */
} sp_gpu_queue;

typedef struct sp_gpu_state {
	sp_gpu_queue q[SP_MAX_QUEUES];
	uint32_t n_queues; /* queues [0, n_queues) may be installed */
	/* The graphics thread's binding (set_command_buffer on it). */
	uint32_t bound_queue;
	void *bound_cmd;
	uint32_t bound_gen;
	/* Its passes' empty timers in the frame being recorded, and how many
	 * passes the last timed frame had. */
	sp_gpu_places places;
	uint32_t passes_last;
	uint32_t empty_last; /* empty timers in the last collected GPU frame */
	bool force_pending;
	uint64_t last_warn_ns;
	uint64_t suppressed;
	bool said_unavailable, said_denied;
} sp_gpu_state;

extern SP_HIDDEN sp_gpu_state sp_gpu;

/* A queue's backend writes a stamp into the command buffer named, or,
 * with none named or a backend that takes none, into its own. */
static inline void sp_gpu_write(sp_gpu_queue *q, unsigned slot, void *cmd, uint32_t query,
				sp_gpu_stamp kind)
{
	if (cmd && q->b.write_cmd)
		q->b.write_cmd(q->b.user, cmd, slot, query, kind);
	else
		q->b.write(q->b.user, slot, query, kind);
}

/* gpu_empty.c: before a timer of `pass` is begun (by the graphics thread
 * in its frame or a recording thread in its command buffer `cmd`), writes
 * the pass's empty timers where their turn is; returns whether the timer
 * opens its pass (no empty timer in front of it). Timers come from
 * take(ctx, need): an index when at least `need` are left (one taken),
 * else UINT32_MAX. */
bool sp_gpu_empty_before(sp_gpu_queue *q, unsigned slot, void *cmd, sp_gpu_places *pl,
			 uint32_t pass, bool others_open, uint32_t (*take)(void *ctx, uint32_t need),
			 void *ctx);
/* A new frame or command buffer for these places. */
void sp_gpu_places_reset(sp_gpu_places *pl);
/* The collected frame's empty timers. */
void sp_gpu_empty_record(unsigned place, uint32_t pass, uint64_t ns);
/* Forgets what empty timers measured. */
void sp_gpu_empty_reset(void);
/* Publishes the backend's tick and whether empty timers are measured. */
void sp_gpu_empty_backend(double tick_ns, bool measured, bool installed);

/* gpu_range.c: forgets the frames' GPU ranges (a new backend); keeps a
 * kept frame's range. */
void sp_gpu_range_reset(void);
void sp_gpu_range_record(uint64_t ns);

/* gpu_queues.c: publishes the first queue's smallest slot capacity
 * (get_stats' gpu_timer_capacity). */
void sp_gpu_publish_capacity(void);

#endif
