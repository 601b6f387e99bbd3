/* The sources' types (srcprof/live.h, lv_types.h): a table under one lock,
 * read by the server's threads, written by whoever names sources. */
#include "srcprof/live.h"

#include "lv_map.h"
#include "lv_types.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct type_entry {
	const void *source;
	char type[LV_TYPE_MAX];
	/* A server saw the profiler list it: its absence later means the
	 * source went (a type set before the source's first tick is kept). */
	bool listed;
} type_entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static lv_map g_index;
static type_entry *g_entries;
static uint32_t g_count, g_cap;

static void remove_at(uint32_t i)
{
	lv_map_remove(&g_index, g_entries[i].source);
	uint32_t last = --g_count;
	if (i != last) {
		g_entries[i] = g_entries[last];
		lv_map_put(&g_index, g_entries[i].source, i); /* present: cannot grow */
	}
	if (!g_count) {
		free(g_entries);
		g_entries = NULL;
		g_cap = 0;
		lv_map_free(&g_index);
	}
}

void srcprof_live_set_source_type(const void *source, const char *type)
{
	if (!source)
		return;
	pthread_mutex_lock(&g_lock);
	uint32_t i;
	bool have = lv_map_get(&g_index, source, &i);
	if (!type || !*type) {
		if (have)
			remove_at(i);
	} else {
		if (!have && g_count == g_cap) {
			uint32_t cap = g_cap ? g_cap * 2 : 64;
			type_entry *e = cap > g_cap ? realloc(g_entries, cap * sizeof *e) : NULL;
			if (!e)
				goto out;
			g_entries = e;
			g_cap = cap;
		}
		if (!have) {
			if (!lv_map_put(&g_index, source, g_count))
				goto out;
			i = g_count++;
		}
		type_entry *e = &g_entries[i];
		e->source = source;
		snprintf(e->type, sizeof e->type, "%s", type);
		e->listed = false;
	}
out:
	pthread_mutex_unlock(&g_lock);
}

bool srcprof_live_get_source_type(const void *source, char *buf, size_t size)
{
	if (!buf || !size)
		return false;
	buf[0] = '\0';
	pthread_mutex_lock(&g_lock);
	uint32_t i;
	bool have = source && lv_map_get(&g_index, source, &i);
	if (have)
		snprintf(buf, size, "%s", g_entries[i].type);
	pthread_mutex_unlock(&g_lock);
	return have;
}

void lv_types_prune(bool (*present)(const void *source, void *user), void *user)
{
	pthread_mutex_lock(&g_lock);
	for (uint32_t i = 0; i < g_count;) {
		if (present(g_entries[i].source, user)) {
			g_entries[i].listed = true;
			i++;
		} else if (g_entries[i].listed) {
			remove_at(i); /* the last entry moved into i: look at it next */
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&g_lock);
}
