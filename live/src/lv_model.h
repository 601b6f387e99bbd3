/* What the server shows: snapshots of every source's figures, read through
 * the profiler's any-thread calls, and the history of the last minutes
 * (sparklines, the frame-time graph).
 *
 * A sampler thread takes a snapshot every update period while someone
 * watches (a stream is open, or a request came in the last 10 s) and every
 * 2 s otherwise, so that the history reaches back before a viewer arrives;
 * a request that finds the newest snapshot older than the period takes a
 * fresh one itself. Each snapshot is published with a sequence number and
 * shared by reference: readers never copy the rows. The sampler keeps its
 * own cost under about 5% of one core: after a snapshot that took t, the
 * next one waits at least 20 t. */
#ifndef LV_MODEL_H
#define LV_MODEL_H

#include "lv_buf.h"
#include "lv_types.h"

#include "srcprof/source_profiler.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LV_NAME_MAX 128
#define LV_PASS_NAME_MAX 40
/* A queue's name: source_profiler_add_gpu_queue keeps 31 characters. */
#define LV_QUEUE_NAME_MAX 32
/* Updates kept: 300, five minutes at the idle period, 2.5 at 500 ms. */
#define LV_HISTORY 300
/* Sources with a history (sparklines); others have none. */
#define LV_HISTORY_SOURCES 4096
#define LV_IDLE_MS 2000
/* A request in this span keeps the sampler at the update period. */
#define LV_WATCH_NS 10000000000ull

/* A source's work per frame (source_profiler_fill_work), over all its
 * passes and per pass (fill_pass_work, in the order of lv_row.pass): held
 * only by rows with a counted frame. */
typedef struct lv_work {
	source_profiler_work_t total;
	uint32_t n_pass; /* pass figures kept */
	source_profiler_work_t pass[SOURCE_PROFILER_MAX_SOURCE_PASSES];
} lv_work;

typedef struct lv_row {
	uint32_t id; /* stable while the source lives: the page's row key */
	const void *key;
	char name[LV_NAME_MAX];
	char type[LV_TYPE_MAX];
	bool have;     /* fill_result gave figures */
	bool async;    /* it received or drew async frames */
	bool have_med; /* fill_medians */
	bool have_ci;  /* fill_intervals */
	profiler_result_t r;
	uint32_t cpu_n, gpu_n;
	source_profiler_medians_t m;
	source_profiler_intervals_t iv;
	uint32_t n_pass; /* pass results kept (at most SOURCE_PROFILER_MAX_SOURCE_PASSES) */
	source_profiler_pass_result_t pass[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	uint32_t pass_queue[SOURCE_PROFILER_MAX_SOURCE_PASSES]; /* each pass's queue */
	/* Its GPU sum on each queue it was rendered on, in queue order
	 * (fill_queue_results): what the profiler's CSV writes as
	 * gpu_sum_by_queue_ns. */
	uint32_t n_queue;
	source_profiler_queue_result_t queue[SOURCE_PROFILER_MAX_QUEUES];
	lv_work *work; /* the snapshot's; NULL: no counted frame */
} lv_row;

typedef struct lv_info lv_info;

typedef struct lv_snapshot {
	atomic_uint refs;
	const lv_info *info; /* the model's: lives longer than any reader */
	uint64_t seq;     /* 1, 2, ... per model */
	uint64_t mono_ns; /* CLOCK_MONOTONIC when taken */
	int64_t wall_ms;  /* CLOCK_REALTIME when taken, ms */
	uint64_t cost_ns; /* what taking it cost */
	source_profiler_stats_t st;
	char gpu_mode[64]; /* st.gpu_mode, copied */
	source_profiler_sampling_t sm;
	double others_pct;    /* other processes' share of the CPU, last second; < 0 unknown */
	double frame_mean_ns; /* frames collected over the time since the last snapshot; 0 unknown */
	uint32_t frames_in_flight;
	bool work_enabled;    /* source_profiler_work_enabled */
	bool have_frame_work; /* source_profiler_frame_work gave frame_work */
	source_profiler_work_t frame_work;
	uint32_t n_rows;
	lv_row *rows; /* sorted: GPU p50, GPU sum, rend p50, rend sum, name */
	char pass_names[SOURCE_PROFILER_MAX_PASSES][LV_PASS_NAME_MAX];
	/* The installed queues' names ("" where none is), by number. */
	char queue_names[SOURCE_PROFILER_MAX_QUEUES][LV_QUEUE_NAME_MAX];
	/* The JSON form, made once when first asked (lv_snapshot_json). */
	pthread_mutex_t json_lock;
	char *json;
	size_t json_len;
} lv_snapshot;

/* What the page's header shows, fixed at start. */
struct lv_info {
	char program[64], api[64], device[128];
	uint32_t target_fps;
	bool software;
};

typedef struct lv_track {
	const void *key;
	uint32_t id;
	char name[LV_NAME_MAX];
	uint64_t first_seq; /* its first snapshot */
	float *gpu, *cpu;   /* LV_HISTORY each, us (NaN: no GPU sample); NULL: no history */
} lv_track;

typedef struct lv_model {
	lv_info info;
	uint32_t update_ms;

	pthread_mutex_t lock; /* everything below */
	pthread_cond_t changed; /* a snapshot was published, or stopping */
	pthread_cond_t wake;    /* the sampler: a viewer came, or stopping */
	pthread_mutex_t sample_lock; /* one snapshot taken at a time */
	pthread_t thread;
	bool running, stopping;
	lv_snapshot *current;
	uint64_t seq;
	uint32_t streams;        /* open streams */
	uint64_t last_request_ns;
	/* History, one slot per snapshot (seq % LV_HISTORY). */
	int64_t hist_wall_ms[LV_HISTORY];
	float hist_frame_ms[LV_HISTORY]; /* mean frame time (NaN unknown) */
	lv_track *tracks;
	uint32_t n_tracks, cap_tracks, with_history;
	uint32_t next_id;
	/* The last snapshot's frame count and time, for the mean frame time. */
	uint64_t prev_frames, prev_mono_ns;
	bool prev_enabled;
	/* The sampler's own load meter (srcprof/machine.h), under sample_lock. */
	void *load;
} lv_model;

/* Starts the sampler thread. False when it cannot (no memory or threads). */
bool lv_model_start(lv_model *m, const lv_info *info, uint32_t update_ms);
/* Stops the sampler and wakes every waiter (lv_model_wait returns NULL
 * from now on); the model still answers until lv_model_free. */
void lv_model_stop(lv_model *m);
/* Frees everything but the snapshots readers still hold (none may be
 * inside the model's calls any more). */
void lv_model_free(lv_model *m);

/* The newest snapshot, taking a fresh one first when it is older than
 * the update period; the caller releases it. NULL when out of memory. */
lv_snapshot *lv_model_fresh(lv_model *m);
/* Waits until a snapshot newer than `after_seq` is published or
 * `timeout_ms` passes, and returns the newest (NULL: timed out or
 * stopping, *stopping says which). The caller releases it. */
lv_snapshot *lv_model_wait(lv_model *m, uint64_t after_seq, uint32_t timeout_ms, bool *stopping);
void lv_snapshot_release(lv_snapshot *s);

/* A stream opened or closed: the sampler runs at the update period while
 * one is open. */
void lv_model_stream(lv_model *m, bool open);
/* Open streams now. */
uint32_t lv_model_streams(lv_model *m);

/* Writes the history (docs/live.md) as JSON. A snapshot's own written
 * forms (JSON, CSV, /metrics) are lv_out.h's. */
void lv_model_write_history(lv_model *m, lv_buf *b);

/* The model's info, for the writers. */
const lv_info *lv_model_info(const lv_model *m);

#endif
