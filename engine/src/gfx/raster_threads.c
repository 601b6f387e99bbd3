/* Mesa's software rasterizers (lavapipe, llvmpipe) split each scene over
 * threads: how many is set here before a device is made (LP_NUM_THREADS,
 * eng_gfx_desc.raster_threads) and counted after it is (eng_gfx_info's
 * raster_threads). Process-wide by nature: the environment and /proc. */
#include "gfx_backend.h"
#include "raster_threads.h"

#include "engine/log.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Mesa's software rasterizers read LP_NUM_THREADS when they make a
 * device's screen, so it is set before any backend starts. */
bool eng_gfx_set_raster_threads(const eng_gfx_desc *desc)
{
	if (!desc->raster_threads_set)
		return true;
	if (desc->raster_threads > ENG_MAX_RASTER_THREADS) {
		eng_error("gfx: raster_threads %u is over %d", desc->raster_threads,
			  ENG_MAX_RASTER_THREADS);
		return false;
	}
	char n[16];
	snprintf(n, sizeof n, "%u", desc->raster_threads);
	/* setenv races getenv on other threads: only when it changes. */
	const char *now = getenv("LP_NUM_THREADS");
	return (now && !strcmp(now, n)) || setenv("LP_NUM_THREADS", n, 1) == 0;
}

/* Threads of this process named "llvmpipe-N": the rasterizer threads of
 * lavapipe and llvmpipe (both name theirs so). -1 when /proc cannot say. */
static int count_named_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *t;
	while ((t = readdir(d))) {
		if (t->d_name[0] == '.')
			continue;
		char path[64], comm[32] = {0};
		snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", t->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof comm, f) && !strncmp(comm, "llvmpipe-", 9))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Mesa 22.3's llvmpipe and lavapipe start at most this many rasterizer
 * threads (LP_MAX_THREADS in lp_limits.h); a larger LP_NUM_THREADS gets
 * this many. */
#define MESA_MAX_RASTER_THREADS 32

/* How many the driver should start: what desc asks, else the
 * environment's, read as Mesa reads it (strtol with base 0, the digits it
 * finds: "0x4" and "4x" are 4, "010" is 8; no digits: the default), else
 * llvmpipe's default (one per CPU; none, rasterizing on the caller, with
 * one CPU); at most Mesa's cap. Mesa keeps the number unsigned, so a
 * negative one is capped as well. */
static int expected_raster_threads(const eng_gfx_desc *desc)
{
	long v;
	if (desc->raster_threads_set) {
		v = (long)desc->raster_threads;
	} else {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		v = cpus > 1 ? cpus : 0;
		const char *env = getenv("LP_NUM_THREADS");
		if (env) {
			char *end;
			long e = strtol(env, &end, 0);
			if (end != env)
				v = e;
		}
	}
	return v < 0 || v > MESA_MAX_RASTER_THREADS ? MESA_MAX_RASTER_THREADS : (int)v;
}

/* A rasterizer thread names itself once it runs, a moment after the
 * device is made, so the count is read until it has held: 20 ms once the
 * expected number is there (a thread beyond it would show in that time:
 * what is counted is what runs, not what was asked), 200 ms while fewer
 * are (a driver that starts fewer); at most a second. */
int eng_gfx_count_raster_threads(const eng_gfx_desc *desc)
{
	int want = expected_raster_threads(desc), n = -1, held_ms = 0;
	for (int ms = 0; ms <= 1000; ms++) {
		int now = count_named_threads();
		if (now < 0)
			return -1;
		held_ms = now == n ? held_ms + 1 : 0;
		n = now;
		if (held_ms >= (n >= want ? 20 : 200))
			break;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	return n;
}
