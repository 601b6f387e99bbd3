/* What the examples share that is not about profiling: the scene (three
 * objects whose fragment cost differs), the command line, and the check
 * that the profiler's figures are true (each object's in-frame GPU time
 * against the same object drawn alone). vulkan_threads brings a scene of
 * its own and checks it with the same method (ex_check_sources). */
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
	uint32_t threads; /* --threads N, 1 to EX_MAX_THREADS (default 2; ex_parse_threads only) */
} ex_options;

#define EX_MAX_THREADS 8

/* Parses argv; false (after a message) on bad input. --gpu-timing is
 * --timing's other name (the demos' one). */
bool ex_parse(int argc, char **argv, const char *prog, ex_options *o);
/* As ex_parse, and --threads N for the examples that record on threads. */
bool ex_parse_threads(int argc, char **argv, const char *prog, ex_options *o);

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

/* A source the table and the check name: an object, or other GPU work
 * the profiler times (a compute dispatch). */
typedef struct ex_source {
	const void *source; /* the profiler's key */
	const char *name;
	/* What it costs, to rank by: in frame, a source of higher cost must
	 * read more than every source of lower cost. 0: not ranked. */
	uint32_t cost;
	/* In frame / alone must lie within [lo, hi]; 0, 0: 0.8 to 1.25. */
	double lo, hi;
} ex_source;

#define EX_MAX_SOURCES 16

/* Prints the profiler's per-object table, costliest GPU first. */
void ex_print_table(const char *api);
/* The same table for any sources (at most EX_MAX_SOURCES). */
void ex_print_sources(const char *api, const ex_source *sources, int n);

/* The truth check. Calls `frame()` for in-frame windows and `alone(i)` for
 * object i drawn alone (-1: the pass with nothing), in rounds paired in
 * time; returns the process exit status (0 true, 1 untrue, 77 skipped
 * because the machine is busy). */
int ex_check(const char *api, bool (*frame)(void *user), bool (*alone)(void *user, int object,
								       uint64_t *ns),
	     void *user);

/* The truth check for any sources (at most EX_MAX_SOURCES): `alone(user,
 * i, true, ns)` times source i's work alone, `alone(user, i, false, ns)`
 * the same submission without it (each source subtracts its own empty
 * submission: a render pass, a compute command buffer). Same rounds, load
 * meter and exit status as ex_check; every pair of ranked sources must
 * read in the order of their costs. */
int ex_check_sources(const char *api, const ex_source *sources, int n,
		     bool (*frame)(void *user),
		     bool (*alone)(void *user, int source, bool with_work, uint64_t *ns), void *user);

#endif
