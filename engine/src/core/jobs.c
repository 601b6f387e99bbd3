#include "jobs.h"

#include "engine/log.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_WORKERS 64

typedef struct worker {
	core_jobs *j;
	uint32_t index;
	pthread_t thread;
} worker;

struct core_jobs {
	pthread_mutex_t lock;
	pthread_cond_t go, done;
	uint64_t generation; /* calls started: a worker runs each once */
	uint32_t pending;    /* workers still running this call's tasks */
	uint32_t n;          /* this call's tasks */
	void (*fn)(void *user, uint32_t i);
	void *user;
	bool quit;
	uint32_t n_workers;
	char name[32];
	worker w[MAX_WORKERS];
};

static void *worker_main(void *arg)
{
	worker *w = arg;
	core_jobs *j = w->j;
	char name[48];
	snprintf(name, sizeof name, "%s %u", j->name, w->index + 1);
	source_profiler_trace_name_thread(name);
	perf_block_set_routine(name);
	uint64_t seen = 0;
	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (j->generation == seen && !j->quit)
			pthread_cond_wait(&j->go, &j->lock);
		if (j->quit)
			break;
		seen = j->generation;
		uint32_t n = j->n;
		void (*fn)(void *, uint32_t) = j->fn;
		void *user = j->user;
		pthread_mutex_unlock(&j->lock);
		for (uint32_t i = w->index; i < n; i += j->n_workers)
			fn(user, i);
		pthread_mutex_lock(&j->lock);
		if (--j->pending == 0)
			pthread_cond_signal(&j->done);
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

core_jobs *core_jobs_create(uint32_t workers, const char *name)
{
	if (workers < 1 || workers > MAX_WORKERS)
		return NULL;
	core_jobs *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->go, NULL);
	pthread_cond_init(&j->done, NULL);
	snprintf(j->name, sizeof j->name, "%s", name ? name : "worker");
	for (uint32_t i = 0; i < workers; i++) {
		j->w[i] = (worker){.j = j, .index = i};
		if (pthread_create(&j->w[i].thread, NULL, worker_main, &j->w[i]) != 0) {
			eng_error("cannot start %s thread %u of %u", j->name, i + 1, workers);
			j->n_workers = i;
			core_jobs_destroy(j);
			return NULL;
		}
		j->n_workers = i + 1;
	}
	return j;
}

uint32_t core_jobs_workers(const core_jobs *j)
{
	return j ? j->n_workers : 0;
}

void core_jobs_run(core_jobs *j, uint32_t n, void (*fn)(void *user, uint32_t i), void *user)
{
	if (!n)
		return;
	pthread_mutex_lock(&j->lock);
	j->fn = fn;
	j->user = user;
	j->n = n;
	j->pending = j->n_workers;
	j->generation++;
	pthread_cond_broadcast(&j->go);
	while (j->pending)
		pthread_cond_wait(&j->done, &j->lock);
	pthread_mutex_unlock(&j->lock);
}

void core_jobs_destroy(core_jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	j->quit = true;
	pthread_cond_broadcast(&j->go);
	pthread_mutex_unlock(&j->lock);
	for (uint32_t i = 0; i < j->n_workers; i++)
		pthread_join(j->w[i].thread, NULL);
	pthread_cond_destroy(&j->go);
	pthread_cond_destroy(&j->done);
	pthread_mutex_destroy(&j->lock);
	free(j);
}
