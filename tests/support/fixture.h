/* Test fixture for the source profiler: an injected clock the test moves
 * by hand, a fake GPU timer backend whose stamps the test controls, and a
 * log that records what the profiler said. */
#ifndef SRCPROF_FIXTURE_H
#define SRCPROF_FIXTURE_H

#include "srcprof/gpu_timer.h"
#include "srcprof/source_profiler.h"

#include <stdbool.h>
#include <stdint.h>

#define FX_MAX_QUERIES 20000

extern uint64_t fx_now;     /* CPU clock, ns */
extern uint64_t fx_gpu_now; /* GPU clock of the fake backend, ns */

typedef struct fx_gpu {
	uint64_t stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][FX_MAX_QUERIES];
	uint32_t capacity_limit;    /* queries reserve grants at most (0: FX_MAX_QUERIES) */
	sp_gpu_read next_status;    /* returned by the next read, then OK again */
	uint32_t reads, writes, reserves;
	uint32_t last_write_slot, last_read_slot;
} fx_gpu;

extern fx_gpu fx_backend;

/* Fresh profiler: shutdown, injected clock at 1 s, log captured, 60 fps,
 * fake backend installed, profiling (and GPU timing when `gpu`) requested. */
void fx_init(bool gpu);
void fx_install_backend(void);

/* One frame's pieces. */
void fx_begin(void);                      /* frame_begin */
void fx_tick(const void *src, uint64_t ns);
void fx_render_begin(void);               /* frame-level GPU range */
void fx_render(const void *src, uint64_t cpu_ns, uint64_t gpu_ns);
void fx_end(void);                        /* render_end + collect */

/* A whole frame: every source ticked for tick_ns and rendered once for
 * cpu_ns / gpu_ns. */
void fx_frame(const void *const *srcs, int n, uint64_t tick_ns, uint64_t cpu_ns, uint64_t gpu_ns);

/* Log lines the profiler wrote since fx_init. */
int fx_log_count(void);
const char *fx_log_line(int i);
int fx_log_count_containing(const char *needle);

profiler_result_t fx_result(const void *src); /* zeroed if fill_result is false */
uint32_t fx_cpu_samples(const void *src);
uint32_t fx_gpu_samples(const void *src);

#endif
