/*
 * srcprof/machine.h - how much of the machine other processes take.
 *
 * On a software device (lavapipe, llvmpipe) the "GPU" is the CPU: when
 * other processes take cores, every GPU time reads longer, and no placement
 * of timestamps can tell that from a costlier source. A report should say
 * so with a figure, and a test of timing truth should skip rather than
 * fail. This measures that figure: the CPU time all processes used (Linux
 * /proc/stat) minus this process's own (all its threads), over a span of
 * wall time, as a share of all cores.
 *
 *     srcprof_load_meter m;
 *     srcprof_load_start(&m);
 *     ... run ...
 *     double busy = srcprof_load_others_pct(&m); // e.g. 46.2; < 0: unknown
 *
 * For a figure that follows the machine (a report refreshed every frame),
 * call srcprof_load_sample each frame and srcprof_load_recent_pct to read
 * about the last second.
 *
 * A meter is a value the caller owns; nothing is shared between meters.
 * Where /proc/stat cannot be read the figure is unknown (negative).
 */
#ifndef SRCPROF_MACHINE_H
#define SRCPROF_MACHINE_H

#include "srcprof/api.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Above this share of the machine taken by other processes, srcprof's
 * reports call the machine busy and its truth tests skip. */
#define SRCPROF_BUSY_PCT 10.0

/* One reading of the machine. */
typedef struct srcprof_load_reading {
	uint64_t wall_ns;                 /* CLOCK_MONOTONIC */
	uint64_t busy_ticks, total_ticks; /* all CPUs, /proc/stat */
	uint64_t self_ns;                 /* this process's CPU time */
} srcprof_load_reading;

#define SRCPROF_LOAD_RING 16

typedef struct srcprof_load_meter {
	srcprof_load_reading start;
	/* srcprof_load_sample's readings, the newest at ring[(next + RING - 1) % RING]. */
	srcprof_load_reading ring[SRCPROF_LOAD_RING];
	uint32_t next, held;
	bool valid;
} srcprof_load_meter;

/* Starts (or restarts) a span. False when the machine's load cannot be
 * read (then every figure reads negative). */
SRCPROF_API bool srcprof_load_start(srcprof_load_meter *m);

/* Percent of all cores' time since the span started that processes other
 * than this one used (0 to 100), or -1 when unknown or too little time
 * passed (the machine counts in clock ticks, 10 ms). The span goes on:
 * call again for a longer one, or srcprof_load_start to begin a new one.
 * Reads /proc/stat. */
SRCPROF_API double srcprof_load_others_pct(const srcprof_load_meter *m);

/* For a running figure: keeps a reading (at most one per 100 ms, so it can
 * be called every frame). */
SRCPROF_API void srcprof_load_sample(srcprof_load_meter *m);

/* The same percent over about the last second: from the newest kept
 * reading at least a second old (else the oldest, else the start) to now.
 * Reads /proc/stat. A meter is one thread's: sample and read it from the
 * same thread, or lock around it. */
SRCPROF_API double srcprof_load_recent_pct(const srcprof_load_meter *m);

#ifdef __cplusplus
}
#endif

#endif
