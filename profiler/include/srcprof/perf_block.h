/*
 * srcprof/perf_block.h - nested timing blocks, in the style of Apollo Cyber
 * RT's profiler.
 *
 *     void update(void)
 *     {
 *         PERF_FUNCTION();              // block named "update"
 *         PERF_BLOCK("physics");        // depth 2
 *         step();
 *         PERF_BLOCK_END;               // closes "physics"
 *     }                                 // "update" closes at scope exit
 *
 * Blocks nest per thread; the outermost has depth 1. A block still open when
 * its scope exits is closed then; an extra PERF_BLOCK_END (nothing open) is
 * a no-op. When a thread's outermost block ends, the thread's frame is
 * written to the output (perf_block_set_output) as
 *
 *     Frame : <routine>
 *     <depth>,<name>,<duration_ns>,<begin_ns>,<end_ns>     (one per block,
 *                                                          in end order)
 *
 * where <routine> is the thread's routine name (perf_block_set_routine,
 * default "default_croutine"). While a trace capture runs
 * (srcprof/export.h) every block also becomes an event on its thread's
 * track. Times come from srcprof_clock_ns().
 *
 * Names must outlive the capture that may record them (string literals and
 * __func__ do). Up to PERF_BLOCK_MAX_DEPTH blocks nest; deeper ones are not
 * recorded but still balance. Up to PERF_BLOCK_MAX_FRAME blocks are kept per
 * frame; more are counted in perf_block_dropped().
 *
 * Compiled without SRCPROF_ENABLE_PROFILER defined, the three macros expand
 * to nothing: no code, no data, no calls. The functions stay available.
 */
#ifndef SRCPROF_PERF_BLOCK_H
#define SRCPROF_PERF_BLOCK_H

#include "srcprof/api.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERF_BLOCK_MAX_DEPTH 64
#define PERF_BLOCK_MAX_FRAME 1024

/* Where frames are written; NULL (the default) writes nothing. The caller
 * keeps the FILE open while it is set. Any thread. */
SRCPROF_API void perf_block_set_output(FILE *out);

/* Names the calling thread's routine in frame headers and trace tracks
 * (copied, up to 63 bytes). */
SRCPROF_API void perf_block_set_routine(const char *name);

/* Blocks not recorded (too deep, frame full), over all threads. */
SRCPROF_API uint64_t perf_block_dropped(void);

/* The machinery behind the macros; call through them. */
typedef struct perf_block_scope {
	uint32_t serial; /* 0: not recorded */
} perf_block_scope;

SRCPROF_API perf_block_scope perf_block_begin(const char *name);
SRCPROF_API void perf_block_end(void);
SRCPROF_API void perf_block_scope_exit(perf_block_scope *scope);

#define PERF_BLOCK_CAT2(a, b) a##b
#define PERF_BLOCK_CAT(a, b) PERF_BLOCK_CAT2(a, b)

#ifdef SRCPROF_ENABLE_PROFILER
#define PERF_BLOCK(name)                                                                  \
	__attribute__((cleanup(perf_block_scope_exit), unused)) perf_block_scope          \
		PERF_BLOCK_CAT(perf_block_scope_, __COUNTER__) = perf_block_begin(name)
#define PERF_BLOCK_END perf_block_end()
#define PERF_FUNCTION() PERF_BLOCK(__func__)
#else
#define PERF_BLOCK(name)
#define PERF_BLOCK_END
#define PERF_FUNCTION()
#endif

#ifdef __cplusplus
}
#endif

#endif
