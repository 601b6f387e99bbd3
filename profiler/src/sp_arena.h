/* arena.c: huge-page backed blocks for entries and rings (graphics thread;
 * 16-byte aligned, zeroed). Not installed. */
#ifndef SRCPROF_SP_ARENA_H
#define SRCPROF_SP_ARENA_H

#include "sp_common.h"

void *sp_arena_alloc(size_t size);
void sp_arena_free(void *p, size_t size);
void sp_arena_reset(void); /* every block must be dead */
/* Graphics thread, once a frame: 60 frames after the arena last grew, gives
 * back the resident pages past the last block carved (two madvise calls
 * then, a compare otherwise). */
void sp_arena_trim(void);

#endif
