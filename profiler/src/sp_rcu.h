/* rcu.c: grace periods for memory other threads may be reading. Not
 * installed. */
#ifndef SRCPROF_SP_RCU_H
#define SRCPROF_SP_RCU_H

#include "sp_common.h"

/* Readers bracket every access to entries, tables and names. */
unsigned sp_rcu_enter(void);
void sp_rcu_exit(unsigned idx);
/* Waits until every reader that entered before the call has left, of
 * either parity (not on the frame path: sp_retire_flush never waits). */
void sp_rcu_synchronize(void);

/* Frees `p` (of `size` bytes; size 0 for strings) once no reader can hold
 * it. Any thread. */
void sp_retire(void *p, size_t size);
/* An arena block (ring) readers may be copying (fill_medians): freed into
 * the arena once they left. Graphics thread. */
void sp_retire_arena(void *p, size_t size);
/* Graphics thread, each frame_begin: frees what readers have let go of and
 * starts a grace period for what was retired since; never waits. */
void sp_retire_flush(void);
/* Graphics thread, with no reader wanted (disable, reset, shutdown): waits
 * for readers and frees everything retired so far. */
void sp_retire_drain(void);
uint64_t sp_retire_deferred(void); /* flushes that found readers inside (counted) */

#endif
