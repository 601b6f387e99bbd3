/* Names and async marks of sources, keyed by pointer, under one mutex. They
 * outlive statistics: a mark set before a source's first tick applies when
 * its entry is created, and survives enable/disable, until remove_source.
 * Names are retired, not freed, because entries and exporters on other
 * threads may be reading them. */
#include "sp_meta.h"
#include "sp_rcu.h"
#include "sp_util.h"

#include <pthread.h>
#include <string.h>

#define EMPTY ((uintptr_t)0)
#define TOMB UINTPTR_MAX

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static sp_meta *g_slots;
static uint32_t g_cap, g_used, g_live;

void sp_meta_lock(void)
{
	pthread_mutex_lock(&g_lock);
}

void sp_meta_unlock(void)
{
	pthread_mutex_unlock(&g_lock);
}

static uint32_t slot_of(uintptr_t key, uint32_t cap)
{
	return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

sp_meta *sp_meta_find(uintptr_t key)
{
	if (!g_cap)
		return NULL;
	uint32_t i = slot_of(key, g_cap);
	for (uint32_t n = 0; n < g_cap; n++, i = (i + 1) & (g_cap - 1)) {
		if (g_slots[i].key == key)
			return &g_slots[i];
		if (g_slots[i].key == EMPTY)
			return NULL;
	}
	return NULL;
}

static bool grow(void)
{
	uint32_t cap = 64;
	while (cap < (g_live + 1) * 4u)
		cap *= 2;
	sp_meta *slots = sp_alloc(cap * sizeof *slots);
	if (!slots)
		return false;
	for (uint32_t i = 0; i < g_cap; i++) {
		uintptr_t k = g_slots[i].key;
		if (k == EMPTY || k == TOMB)
			continue;
		uint32_t j = slot_of(k, cap);
		while (slots[j].key != EMPTY)
			j = (j + 1) & (cap - 1);
		slots[j] = g_slots[i];
	}
	sp_free(g_slots, g_cap * sizeof *g_slots);
	g_slots = slots;
	g_cap = cap;
	g_used = g_live;
	return true;
}

sp_meta *sp_meta_get(uintptr_t key)
{
	sp_meta *m = sp_meta_find(key);
	if (m)
		return m;
	if ((g_used + 1) * 2 > g_cap && !grow())
		return NULL;
	uint32_t i = slot_of(key, g_cap);
	while (g_slots[i].key != EMPTY && g_slots[i].key != TOMB)
		i = (i + 1) & (g_cap - 1);
	if (g_slots[i].key == EMPTY)
		g_used++;
	g_live++;
	g_slots[i] = (sp_meta){.key = key};
	return &g_slots[i];
}

void sp_meta_delete(uintptr_t key)
{
	sp_meta *m = sp_meta_find(key);
	if (!m)
		return;
	sp_retire(m->name, 0);
	*m = (sp_meta){.key = TOMB};
	g_live--;
}

void sp_meta_clear(void)
{
	for (uint32_t i = 0; i < g_cap; i++) {
		uintptr_t k = g_slots[i].key;
		if (k != EMPTY && k != TOMB)
			sp_retire(g_slots[i].name, 0);
	}
	sp_free(g_slots, g_cap * sizeof *g_slots);
	g_slots = NULL;
	g_cap = g_used = g_live = 0;
}
