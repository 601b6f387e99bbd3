/* The fixture of test_streams: a fake backend per queue that stamps the
 * command buffers the caller names (two queues whose clocks are far
 * apart), workers that run one job at a time, and the jobs they run. */
#ifndef SRCPROF_TEST_STREAMS_FIXTURE_H
#define SRCPROF_TEST_STREAMS_FIXTURE_H

#include "fixture.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define QUERIES 4096
#define SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT

typedef struct fake_queue {
	uint64_t now; /* its GPU clock */
	uint64_t stamps[SLOTS][QUERIES];
	uintptr_t cmd_of[SLOTS][QUERIES]; /* 0: not written this frame */
	uintptr_t unsubmitted;            /* a command buffer never executed */
	uint32_t writes_into[4];          /* stamps written into cmd 1..3 */
	uint32_t opens;
	bool with_cmd;
} fake_queue;

/* The two queues' backends. */
extern fake_queue fq[2];

/* A fresh profiler on queue 0 (and queue 1 when `two`), every frame timed;
 * `with_cmd`: the backends stamp named command buffers (write_cmd). */
void start(bool two, bool with_cmd);

typedef struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	void (*job)(void *);
	void *arg;
	bool quit;
} worker;

void worker_start(worker *w);
/* Runs job(arg) on the worker and waits for it. */
void run_on(worker *w, void (*job)(void *), void *arg);
void worker_stop(worker *w);

typedef struct render_job {
	const void *src;
	const char *pass;  /* NULL: the thread's current pass */
	uint32_t queue;    /* the command buffer's queue */
	uintptr_t cmd;     /* 0: none named */
	uint64_t cpu_ns, gpu_ns;
	uint64_t before_ns; /* CPU clock moved before the render begins */
} render_job;

/* Jobs: a tick of 10 ns of source `p`; the render_job `p`; a profiler
 * call, after which the thread has its stream. */
void tick_job(void *p);
void render_on(void *p);
void join_job(void *p);

/* A render on the calling thread with the fake queues' GPU clock. */
void render_here(const void *src, uint64_t cpu_ns, uint64_t gpu_ns);

#endif
