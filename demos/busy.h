/* How busy other processes keep the machine: the CPU time the whole
 * machine spent (/proc/stat) minus this process's own (every thread), as a
 * percent of the machine's capacity (wall time x online cores). A software
 * device rasterizes on the CPU, so on a shared machine its "GPU" times grow
 * with this figure; a report can say so instead of passing them off as the
 * sources' cost.
 *
 * It does not say which processes, nor how busy this one is. Linux only
 * (/proc/stat); elsewhere busy_start() returns false and the figures read
 * -1. Not thread-safe: one sampler per thread.
 *
 * Use: busy_start(&s) when a measurement begins; busy_pct_since_start(&s)
 * when it ends. For a running figure call busy_sample(&s) now and then
 * (each frame is fine: it reads /proc/stat at most every 100 ms) and
 * busy_pct_recent(&s) for about the last second. */
#ifndef DEMOS_BUSY_H
#define DEMOS_BUSY_H

#include <stdbool.h>
#include <stdint.h>

/* Above this percent a report calls the machine busy. */
#define BUSY_REPORT_PCT 10.0

/* What the sampler read at one moment. */
typedef struct busy_snapshot {
	uint64_t wall_ns;    /* CLOCK_MONOTONIC */
	double machine_s;    /* CPU time of the whole machine, every core, s */
	double self_s;       /* this process's CPU time, every thread, s */
} busy_snapshot;

#define BUSY_RING 16

typedef struct busy_sampler {
	bool ok;
	uint32_t cores;
	busy_snapshot start;
	busy_snapshot ring[BUSY_RING]; /* busy_sample's, the newest at ring[(next - 1) % RING] */
	uint32_t next, held;
} busy_sampler;

/* Reads the starting point. False (and every figure -1) when /proc/stat
 * cannot be read. */
bool busy_start(busy_sampler *s);

/* Percent of the machine (0..100) other processes used since busy_start;
 * -1 when not started or unreadable. Reads /proc/stat now. */
double busy_pct_since_start(busy_sampler *s);

/* Keeps a reading for busy_pct_recent (at most one per 100 ms). */
void busy_sample(busy_sampler *s);

/* The same percent over about the last second: from the newest kept
 * reading at least a second old (else the oldest, else the start) to now. */
double busy_pct_recent(busy_sampler *s);

#endif
