#include "pool.h"

#include <assert.h>
#include <string.h>

void eng_pool_init(eng_pool *p, uint32_t capacity)
{
	assert(capacity > 0 && capacity <= ENG_POOL_MAX);
	memset(p, 0, sizeof *p);
	p->capacity = capacity;
	/* Pushed high to low: slot 0 is on top. */
	for (uint32_t i = 0; i < capacity; i++)
		p->free[i] = (uint16_t)(capacity - 1 - i);
	p->n_free = capacity;
}

uint32_t eng_pool_alloc(eng_pool *p)
{
	if (!p->n_free)
		return 0;
	uint32_t slot = p->free[--p->n_free];
	uint16_t gen = (uint16_t)(p->gen[slot] + 1);
	if (!gen)
		gen = 1; /* 0 would make slot 0's first id 1 again after a wrap */
	p->gen[slot] = gen;
	uint32_t id = (uint32_t)gen << 16 | (slot + 1);
	p->id[slot] = id;
	p->live++;
	return id;
}

bool eng_pool_live(const eng_pool *p, uint32_t id)
{
	uint32_t slot = eng_handle_slot(id);
	return id && slot < p->capacity && p->id[slot] == id;
}

bool eng_pool_release(eng_pool *p, uint32_t id)
{
	if (!eng_pool_live(p, id))
		return false;
	uint32_t slot = eng_handle_slot(id);
	p->id[slot] = 0;
	p->free[p->n_free++] = (uint16_t)slot;
	p->live--;
	return true;
}

void eng_pool_release_all(eng_pool *p)
{
	for (uint32_t slot = p->capacity; slot-- > 0;)
		if (p->id[slot])
			eng_pool_release(p, p->id[slot]);
}
