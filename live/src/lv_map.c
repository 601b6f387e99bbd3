/* Pointer-keyed hash map (lv_map.h). */
#include "lv_map.h"

#include <stdlib.h>

static size_t hash(const void *key, size_t mask)
{
	uint64_t x = (uint64_t)(uintptr_t)key;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & mask;
}

static lv_map_slot *find(const lv_map *m, const void *key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = hash(key, mask);; i = (i + 1) & mask) {
		if (m->slots[i].key == key)
			return &m->slots[i];
		if (!m->slots[i].key)
			return NULL;
	}
}

bool lv_map_get(const lv_map *m, const void *key, uint32_t *value)
{
	const lv_map_slot *s = find(m, key);
	if (!s)
		return false;
	*value = s->value;
	return true;
}

static void insert(lv_map_slot *slots, size_t cap, const void *key, uint32_t value)
{
	size_t mask = cap - 1;
	size_t i = hash(key, mask);
	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & mask;
	slots[i] = (lv_map_slot){key, value};
}

bool lv_map_put(lv_map *m, const void *key, uint32_t value)
{
	lv_map_slot *s = find(m, key);
	if (s) {
		s->value = value;
		return true;
	}
	/* At most half full. */
	if ((m->count + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		lv_map_slot *slots = calloc(cap, sizeof *slots);
		if (!slots)
			return false;
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].key)
				insert(slots, cap, m->slots[i].key, m->slots[i].value);
		free(m->slots);
		m->slots = slots;
		m->cap = cap;
	}
	insert(m->slots, m->cap, key, value);
	m->count++;
	return true;
}

bool lv_map_remove(lv_map *m, const void *key)
{
	lv_map_slot *s = find(m, key);
	if (!s)
		return false;
	size_t mask = m->cap - 1, hole = (size_t)(s - m->slots);
	/* Backward shift: move later members of the cluster into the hole
	 * when their home slot does not lie between the hole and them. */
	for (size_t j = (hole + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
		size_t home = hash(m->slots[j].key, mask);
		bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
		if (!stays) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole] = (lv_map_slot){0};
	m->count--;
	return true;
}

void lv_map_free(lv_map *m)
{
	free(m->slots);
	*m = (lv_map){0};
}
