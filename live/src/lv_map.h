/* A hash map from pointer keys (the profiler's opaque source keys, never
 * dereferenced) to 32-bit values: open addressing, linear probing,
 * deletion by backward shift (no tombstones). Not thread-safe: its owner
 * locks. */
#ifndef LV_MAP_H
#define LV_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lv_map_slot {
	const void *key; /* NULL: empty */
	uint32_t value;
} lv_map_slot;

typedef struct lv_map {
	lv_map_slot *slots;
	size_t cap, count; /* cap: a power of two, or 0 */
} lv_map;

/* The value of `key`, in *value; false when absent. */
bool lv_map_get(const lv_map *m, const void *key, uint32_t *value);
/* Sets key's value (adding it). False when out of memory (m unchanged).
 * key must not be NULL. */
bool lv_map_put(lv_map *m, const void *key, uint32_t value);
/* Removes key; false when it was absent. */
bool lv_map_remove(lv_map *m, const void *key);
void lv_map_free(lv_map *m);

#endif
