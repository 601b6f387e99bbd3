/* work.c: the work counters' windows (source_profiler_fill_work). A ring
 * per entry of each counted frame's counts per pass, allocated with the
 * entry's first counted frame, and one ring of the frames' totals; the
 * graphics thread pushes at collect, readers aggregate under the ring's
 * seqlock. Not installed. */
#ifndef SRCPROF_SP_WORK_H
#define SRCPROF_SP_WORK_H

#include "sp_common.h"
#include "srcprof/source_profiler.h"

#define SP_COUNTERS SOURCE_PROFILER_COUNTERS

typedef struct sp_entry sp_entry;

/* One counted frame of a source: its counts per pass column (the entry's
 * pass_local), saturated to 32 bits. */
typedef struct sp_work_frame {
	uint32_t passes; /* columns used: the highest pass_local + 1 */
	uint32_t v[SOURCE_PROFILER_MAX_SOURCE_PASSES][SP_COUNTERS];
} sp_work_frame;

/* Work counting asked for (source_profiler_work_enable), any thread. */
bool sp_work_wanted(void);
/* The counters of the backend in use (graphics thread, set at install). */
void sp_work_set_counted(uint32_t counted);
uint32_t sp_work_counted(void);

/* Graphics thread, at collect: the entry's counts of one frame; its ring
 * is made (or remade for more passes or another window size) here. */
void sp_work_push(sp_entry *e, const sp_work_frame *f);
/* ...and the frame's totals over the sources counted in it. */
void sp_work_push_frame(const uint64_t totals[SP_COUNTERS]);
/* The entry leaves (removed or dropped): its ring goes, after readers. */
void sp_work_release(sp_entry *e, bool readers);
/* The frames' totals go (every entry dropped). */
void sp_work_reset_totals(void);

#endif
