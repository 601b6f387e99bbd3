/* lifecycle.c: turning the profiler on and off, dropping every entry, the
 * fast paths. Graphics thread. Not installed. */
#ifndef SRCPROF_SP_LIFECYCLE_H
#define SRCPROF_SP_LIFECYCLE_H

/* Chooses the tick and render paths again from what they depend on
 * (profiling on, the clock, a capture recording, GPU timing this frame). */
void sp_fast_paths(void);

/* Drops every entry and what refers to entries (work totals, GPU slots,
 * the streams' lookups); readers are let back if the profiler is on. */
void sp_drop_all(void);

/* frame_begin, enable asked: the profiler goes live from this frame. */
void sp_turn_on(void);
/* frame_collect, disable asked: off, every entry dropped. */
void sp_turn_off(void);

#endif
