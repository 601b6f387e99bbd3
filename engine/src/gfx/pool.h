/* Handle pools: the ids behind eng_buffer, eng_image and eng_pipeline.
 *
 * An id is (generation << 16) | (slot + 1): the low half names a slot of
 * the backend's resource arrays, the high half says which object that slot
 * held when the id was made. A slot's generation moves on each time it is
 * handed out again, so a stale id (its object destroyed, the slot reused,
 * or the device it came from shut down) no longer matches and is refused
 * instead of aliasing the new object. Free slots wait on a stack: making
 * and destroying are O(1). 0 is never an id.
 *
 * A generation is 16 bits: a handle kept across 65,535 reuses of its slot
 * would match again. No engine object lives that long unused. */
#ifndef ENGINE_GFX_POOL_H
#define ENGINE_GFX_POOL_H

#include <stdbool.h>
#include <stdint.h>

#define ENG_POOL_MAX 4096 /* slots a pool can have */

typedef struct eng_pool {
	uint32_t capacity; /* slots in use by this pool, 1..ENG_POOL_MAX */
	uint32_t live;     /* ids handed out and not released */
	uint32_t n_free;   /* entries on the free stack */
	uint32_t id[ENG_POOL_MAX];   /* per slot: its live id, 0 when free */
	uint16_t gen[ENG_POOL_MAX];  /* per slot: the generation handed out last */
	uint16_t free[ENG_POOL_MAX]; /* free slots, the next one on top */
} eng_pool;

/* Sets up an empty pool of `capacity` slots (at most ENG_POOL_MAX). Slot 0
 * is handed out first. */
void eng_pool_init(eng_pool *p, uint32_t capacity);
/* A new id, or 0 when every slot is taken. */
uint32_t eng_pool_alloc(eng_pool *p);
/* Releases a live id; false (nothing changed) for 0 or an id that is not
 * live. */
bool eng_pool_release(eng_pool *p, uint32_t id);
/* Whether `id` is live in this pool. */
bool eng_pool_live(const eng_pool *p, uint32_t id);
/* Releases every live id, keeping the generations: ids handed out before
 * stay refused. */
void eng_pool_release_all(eng_pool *p);

/* The slot an id names (whether or not it is live). */
static inline uint32_t eng_handle_slot(uint32_t id)
{
	return (id & 0xffffu) - 1u;
}

#endif
