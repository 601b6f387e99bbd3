/* The recording streams' shared state: records and chunks, a thread's
 * stream, the registry of streams, and what the graphics thread publishes
 * for recording threads. stream.c (the recording side) and
 * stream_merge.c (the graphics thread's merge) include it; nothing else.
 * Not installed. */
#ifndef SRCPROF_SP_STREAM_STATE_H
#define SRCPROF_SP_STREAM_STATE_H

#include "sp_gpu.h"
#include "sp_stream.h"
#include "sp_util.h"

#include <pthread.h>

#define CHUNK_RECS 2048u
/* A frame's records and two chunks of slack; more when the graphics
 * thread does not merge (no collect) are dropped. */
#define MAX_CHUNKS (SOURCE_PROFILER_THREAD_RECORDS / CHUNK_RECS + 2u)

enum { REC_FRAME = 1, REC_TICK, REC_RENDER };
enum { STREAM_FREE, STREAM_LIVE, STREAM_DEAD };

typedef struct sp_rec {
	uintptr_t key;       /* REC_FRAME: the frame number */
	uint64_t start, end; /* stamps */
	uint32_t timer;      /* a render's timer id; SP_NO_ENTRY: none */
	uint16_t pass;       /* a render's pass key */
	uint8_t kind;
	uint8_t asked;       /* a render asked for a GPU timer */
} sp_rec;
_Static_assert(sizeof(sp_rec) == 32, "a record is half a cache line");

typedef struct sp_chunk {
	_Atomic(struct sp_chunk *) next; /* published when the thread moves on */
	_Atomic uint32_t count;          /* records published */
	struct sp_chunk *free_next;      /* in a free list */
	sp_rec rec[CHUNK_RECS];
} sp_chunk;

/* Where the merge is in a stream. */
typedef struct cursor {
	sp_chunk *c;
	uint32_t i;      /* next record of c */
	uint64_t frame;  /* the frame of the records from here */
	uint32_t index;  /* records of that frame before here */
} cursor;

typedef struct sp_stream {
	/* Its thread's. */
	sp_chunk *cur;
	uint32_t n;          /* records in cur */
	uint64_t frame;      /* the frame its last marker named */
	uint32_t frame_recs; /* records of that frame */
	uint32_t pass;       /* the thread's pass key */
	sp_chunk *spare;     /* chunks to write next */
	bool said_no_backend;
	sp_gpu_stream gpu;
	/* Shared. */
	char pad[64];
	_Atomic(sp_chunk *) returned; /* chunks merged, given back (LIFO) */
	_Atomic int state;
	_Atomic uint32_t chunks;      /* chunks it holds */
	_Atomic uint32_t trace_id;    /* the capture trace_track belongs to */
	_Atomic uint32_t trace_track;
	/* The graphics thread's. */
	cursor read;
	uint32_t *hints; /* entry index of each record of the last frame */
	uint32_t hints_cap;
	uint32_t col_hint;
	uint32_t asks; /* renders that asked for a timer, merged this frame */
} sp_stream;

/* Published by the graphics thread for recording threads. */
typedef struct sp_stream_published {
	_Atomic uint64_t frame;
	_Atomic uint32_t slot;
	_Atomic uint8_t path; /* SP_PATH_OFF, SP_PATH_FAST (TSC stamps), SP_PATH_SLOW */
	_Atomic bool gpu_frame;
} sp_stream_published;

/* Every stream, and what the streams count and say once. */
typedef struct sp_stream_registry {
	pthread_mutex_t lock;
	pthread_once_t once;
	pthread_key_t key;
	_Atomic(sp_stream *) streams[SOURCE_PROFILER_MAX_THREADS];
	_Atomic uint32_t n;     /* streams [0, n) exist */
	_Atomic uint32_t epoch; /* shutdowns: a thread's stream of an older one is gone */
	_Atomic uint32_t max, live;
	_Atomic uint64_t refused, late, dropped, misplaced;
	_Atomic bool said_refused, said_late, said_dropped, said_misplaced, said_queue;
	_Atomic bool said_backend, said_no_cmd;
	cursor ends[SOURCE_PROFILER_MAX_THREADS]; /* graphics thread: the merge's snapshot */
} sp_stream_registry;

extern SP_HIDDEN sp_stream_published sp_stream_pub;
extern SP_HIDDEN sp_stream_registry sp_streams;

/* Says `msg` the first time `flag` is raised. */
static inline void sp_say_once(_Atomic bool *flag, const char *msg)
{
	if (!atomic_exchange_explicit(flag, true, memory_order_relaxed))
		sp_log(SOURCE_PROFILER_LOG_WARNING, "%s", msg);
}

#endif
