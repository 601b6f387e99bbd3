/* srcprof-soak: a long headless run with sources added and removed every
 * frame, watching resident memory, GPU timer pools, live GPU objects and
 * messages. soak_args.c parses the command line. */
#ifndef DEMOS_SOAK_H
#define DEMOS_SOAK_H

#include "engine/engine.h"

#include <stdbool.h>
#include <stdint.h>

#define SOAK_PROG "srcprof-soak"
#define SOAK_MAX_SOURCES 4096
#define SOAK_KINDS 6
/* soak_opts.warmup until parsed: 10% of --frames, at most 10,000. */
#define SOAK_WARMUP_DEFAULT UINT32_MAX
extern const char *const soak_kind_names[SOAK_KINDS]; /* mesh particles ... */

typedef struct soak_opts {
	eng_api api;
	eng_gpu_timing gpu_timing;
	uint32_t tick_threads, record_threads;
	bool compute;
	uint32_t frames, warmup, report_every;
	uint32_t sources, churn; /* live sources; replaced per frame */
	uint32_t width, height;
	uint32_t max_growth_kb;  /* resident memory growth allowed after warm-up */
	uint32_t kinds;          /* bit per SOAK_KIND_NAMES entry */
	bool validate;
	const char *shader_dir;
} soak_opts;

void soak_opts_init(soak_opts *o);
/* 0: run; 1: --help printed, exit 0; -1: a usage error, already reported
 * on stderr (exit 2). */
int soak_parse_args(int argc, char **argv, soak_opts *o);

#endif
