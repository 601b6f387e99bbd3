/* What the two examples share that is not about profiling: the scene (three
 * objects whose fragment cost differs), the command line, and the check
 * that the profiler's figures are true (each object's in-frame GPU time
 * against the same object drawn alone). */
#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#define EX_WIDTH 1280
#define EX_HEIGHT 720
#define EX_OBJECTS 3

typedef struct ex_object {
	const char *name;
	float rect[4];  /* x0, y0, x1, y1, clip space */
	float color[4];
	uint32_t loops; /* fragment cost, in units of 8 iterations */
	double spin;    /* "simulation" state its tick advances */
} ex_object;

extern ex_object ex_objects[EX_OBJECTS];

typedef struct ex_options {
	uint32_t frames; /* frames to run and report (default 120; with --serve: until Ctrl-C) */
	int timing;      /* srcprof_gpu_timing: 0 auto, 1 plain, 2 flushed */
	bool check;      /* measure in-frame against alone, exit 1 when untrue */
	bool validate;   /* API validation; any message fails the run */
	bool serve;      /* --serve [ADDR:]PORT: the live view (srcprof/live.h) */
	char address[64];
	uint16_t port;
} ex_options;

/* Parses argv; false (after a message) on bad input. */
bool ex_parse(int argc, char **argv, const char *prog, ex_options *o);

/* The live view where --serve asked for it: starts srcprof::live on the
 * example's figures and prints its URL; NULL without --serve. A server
 * that cannot start (a port in use, a bad address, an srcprof installed
 * without it) is said in one line and the process exits 2. */
struct srcprof_live *ex_serve_start(const ex_options *o, const char *prog, const char *api,
				    const char *device);
/* After each frame: captures the page asked for (srcprof_live_poll). */
void ex_serve_frame(struct srcprof_live *live);
/* Before source_profiler_shutdown. */
void ex_serve_stop(struct srcprof_live *live);

/* A little CPU work per object and frame, so that ticks have a cost. */
void ex_tick(ex_object *obj);

/* Prints the profiler's per-object table, costliest GPU first. */
void ex_print_table(const char *api);

/* The truth check. Calls `frame()` for in-frame windows and `alone(i)` for
 * object i drawn alone (-1: the pass with nothing), in rounds paired in
 * time; returns the process exit status (0 true, 1 untrue, 77 skipped
 * because the machine is busy). */
int ex_check(const char *api, bool (*frame)(void *user), bool (*alone)(void *user, int object,
								       uint64_t *ns),
	     void *user);

#endif
