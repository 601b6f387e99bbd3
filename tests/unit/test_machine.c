/* The machine-load meter: other processes' CPU shows, this process's own
 * does not. Both need a quiet machine to start from: when it is busy
 * already the cases skip, saying how busy. */
#include "check.h"
#include "srcprof/machine.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spin(double s)
{
	volatile uint64_t x = 0;
	for (double end = seconds() + s; seconds() < end;)
		for (int i = 0; i < 100000; i++)
			x += (uint64_t)i;
}

/* Skips the case unless the last half second was quiet. */
#define REQUIRE_QUIET()                                                              \
	do {                                                                          \
		srcprof_load_meter q;                                                 \
		CHECK(srcprof_load_start(&q));                                        \
		usleep(500000);                                                       \
		double busy = srcprof_load_others_pct(&q);                            \
		if (busy > SRCPROF_BUSY_PCT)                                          \
			CHECK_SKIP("machine busy: other processes used %.1f%% of the CPU " \
				   "(threshold %.0f%%)", busy, SRCPROF_BUSY_PCT);       \
	} while (0)

TEST(this_processes_own_work_is_not_counted)
{
	REQUIRE_QUIET();
	srcprof_load_meter m;
	CHECK(srcprof_load_start(&m));
	spin(1.0);
	double busy = srcprof_load_others_pct(&m);
	printf("spinning ourselves for 1 s: others %.1f%%\n", busy);
	CHECK(busy >= 0 && busy < SRCPROF_BUSY_PCT);
}

TEST(another_process_spinning_is_counted)
{
	REQUIRE_QUIET();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	srcprof_load_meter m;
	CHECK(srcprof_load_start(&m));
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		spin(1.0);
		_exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	double busy = srcprof_load_others_pct(&m);
	/* One core of `cpus` busy for the whole span. */
	double expect = 100.0 / (double)cpus;
	printf("a child spinning for 1 s on %ld CPUs: others %.1f%% (one core: %.1f%%)\n", cpus,
	       busy, expect);
	CHECK(busy > 0.6 * expect && busy < 1.4 * expect + 5);
}

TEST(an_unstarted_meter_reads_unknown)
{
	srcprof_load_meter m = {0};
	CHECK(srcprof_load_others_pct(&m) < 0);
	CHECK(srcprof_load_others_pct(NULL) < 0);
}
