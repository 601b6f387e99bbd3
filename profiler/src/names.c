/* Source names (any thread, under the meta lock) and passes: their ids,
 * names, and set_pass on the graphics thread. */
#include "sp_meta.h"
#include "sp_names.h"
#include "sp_gpu.h"
#include "sp_rcu.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_stream.h"
#include "sp_table.h"
#include "sp_util.h"
#include "sp_window.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Registered passes. Names live until shutdown. */
static pthread_mutex_t g_pass_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(char *) g_pass_names[SOURCE_PROFILER_MAX_PASSES];
static _Atomic uint32_t g_n_passes;

void source_profiler_set_source_name(const void *source, const char *name)
{
	uintptr_t key = (uintptr_t)source;
	if (!key || key == UINTPTR_MAX || !name) {
		sp_ignored();
		return;
	}
	char *copy = sp_strdup(name);
	if (!copy)
		return;
	sp_meta_lock();
	sp_meta *m = sp_meta_get(key);
	if (!m) {
		sp_meta_unlock();
		sp_free_str(copy);
		return;
	}
	char *old = m->name;
	m->name = copy;
	unsigned r = sp_rcu_enter();
	if (sp_live()) {
		sp_entry *e = sp_entry_at(sp_table_find(key));
		if (e && SP_LOAD(e->key) == key)
			atomic_store_explicit(&e->name, copy, memory_order_release);
	}
	sp_rcu_exit(r);
	sp_retire(old, 0);
	sp_meta_unlock();
}

bool source_profiler_get_source_name(const void *source, char *buf, size_t size)
{
	if (!buf || !size)
		return false;
	sp_meta_lock();
	sp_meta *m = sp_meta_find((uintptr_t)source);
	bool named = m && m->name;
	if (named)
		snprintf(buf, size, "%s", m->name);
	sp_meta_unlock();
	if (!named)
		snprintf(buf, size, "%p", source);
	return named;
}

uint32_t source_profiler_pass_id(const char *name)
{
	if (!name)
		return 0;
	pthread_mutex_lock(&g_pass_lock);
	if (!SP_LOAD(g_pass_names[0])) {
		SP_STORE(g_pass_names[0], sp_strdup("default"));
		atomic_store(&g_n_passes, 1);
	}
	uint32_t n = SP_LOAD(g_n_passes), id = 0;
	for (id = 0; id < n; id++)
		if (strcmp(SP_LOAD(g_pass_names[id]), name) == 0)
			break;
	if (id == n) {
		char *copy = n < SOURCE_PROFILER_MAX_PASSES ? sp_strdup(name) : NULL;
		if (!copy) {
			sp_log(SOURCE_PROFILER_LOG_WARNING,
			       "pass \"%s\" not registered (%u passes at most); counted as \"default\"",
			       name, SOURCE_PROFILER_MAX_PASSES);
			id = 0;
		} else {
			atomic_store_explicit(&g_pass_names[id], copy, memory_order_release);
			atomic_store(&g_n_passes, n + 1);
		}
	}
	pthread_mutex_unlock(&g_pass_lock);
	return id;
}

const char *source_profiler_pass_name(uint32_t pass)
{
	if (pass == 0)
		return "default";
	if (pass >= atomic_load(&g_n_passes))
		return NULL;
	return atomic_load_explicit(&g_pass_names[pass], memory_order_acquire);
}

void source_profiler_set_pass(uint32_t pass)
{
	if (pass != 0 && pass >= atomic_load(&g_n_passes)) {
		sp_ignored();
		pass = 0;
	}
	if (!sp_on_graphics_thread()) {
		sp_stream_set_pass(pass);
		return;
	}
	sp_core.col_of_pass[sp_core.pass & 0xffu] = (uint8_t)sp_core.pass_column;
	sp_core.pass = sp_pass_key(pass, sp_gpu_bound_queue());
	sp_core.pass_column = sp_core.col_of_pass[pass];
}

void sp_passes_free(void)
{
	pthread_mutex_lock(&g_pass_lock);
	uint32_t n = SP_LOAD(g_n_passes);
	for (uint32_t i = 0; i < n; i++) {
		sp_free_str(SP_LOAD(g_pass_names[i]));
		SP_STORE(g_pass_names[i], NULL);
	}
	atomic_store(&g_n_passes, 0);
	pthread_mutex_unlock(&g_pass_lock);
}
