/* A fixed set of worker threads that run the tasks of one call at a time:
 * the engine's ticks (--tick-threads) and the recorders of a pass
 * (--record-threads). Task i runs on worker i % workers; the call returns
 * when every task has run. Nothing is allocated per call. */
#ifndef ENGINE_CORE_JOBS_H
#define ENGINE_CORE_JOBS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct core_jobs core_jobs;

/* `workers` threads (1 to 64) named "<name> N" for traces; NULL when they
 * cannot be started (logged). */
core_jobs *core_jobs_create(uint32_t workers, const char *name);
void core_jobs_destroy(core_jobs *j);
uint32_t core_jobs_workers(const core_jobs *j);

/* Runs fn(user, i) for i in [0, n) on the workers and waits for all. */
void core_jobs_run(core_jobs *j, uint32_t n, void (*fn)(void *user, uint32_t i), void *user);

#endif
