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
 * A meter is a value the caller owns; nothing is shared between meters.
 * Where /proc/stat cannot be read the figure is unknown (negative).
 */
#ifndef SRCPROF_MACHINE_H
#define SRCPROF_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this header declares is the library's interface: exported from the
 * shared library, global in the static one. Everything else is hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Above this share of the machine taken by other processes, srcprof's
 * reports call the machine busy and its truth tests skip. */
#define SRCPROF_BUSY_PCT 10.0

typedef struct srcprof_load_meter {
	uint64_t busy_ticks, total_ticks; /* all CPUs, /proc/stat */
	uint64_t self_ns;                 /* this process's CPU time */
	bool valid;
} srcprof_load_meter;

/* Starts (or restarts) a span. False when the machine's load cannot be
 * read (then others_pct reads negative). */
bool srcprof_load_start(srcprof_load_meter *m);

/* Percent of all cores' time since the span started that processes other
 * than this one used (0 to 100), or -1 when unknown or no time passed. The
 * span goes on: call again for a longer one, or srcprof_load_start to begin
 * a new one. Any thread. */
double srcprof_load_others_pct(const srcprof_load_meter *m);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
