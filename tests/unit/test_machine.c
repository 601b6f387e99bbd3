/* The machine-load meter: other processes' CPU shows, this process's own
 * does not. Both need a quiet machine to start from: when it is busy
 * already the cases skip, saying how busy. */
#include "check.h"
#include "srcprof/machine.h"

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

/* Other processes' share of the CPU over the next 0.3 s. */
static double background(void)
{
	srcprof_load_meter q;
	srcprof_load_start(&q);
	usleep(300000);
	return srcprof_load_others_pct(&q);
}

/* Runs `measure` until it ran between two quiet spans (the machine's own
 * load cannot be told from a wrong figure otherwise), at most 3 times;
 * skips when it never did, saying how busy the machine was. */
#define ON_A_QUIET_MACHINE(ok_expr, ...)                                              \
	do {                                                                          \
		double worst = 0;                                                     \
		for (int attempt = 0; attempt < 3; attempt++) {                       \
			double before = background();                                 \
			__VA_ARGS__;                                                  \
			double after = background();                                  \
			double b = before > after ? before : after;                   \
			if (b <= SRCPROF_BUSY_PCT) {                                  \
				CHECK(ok_expr);                                       \
				return;                                               \
			}                                                             \
			worst = b > worst ? b : worst;                                \
		}                                                                     \
		CHECK_SKIP("machine busy: other processes used %.1f%% of the CPU "    \
			   "(threshold %.0f%%)", worst, SRCPROF_BUSY_PCT);           \
	} while (0)

TEST(this_processes_own_work_is_not_counted)
{
	double busy = -1;
	ON_A_QUIET_MACHINE(busy >= 0 && busy < SRCPROF_BUSY_PCT, {
		srcprof_load_meter m;
		srcprof_load_start(&m);
		spin(1.0);
		busy = srcprof_load_others_pct(&m);
		printf("spinning ourselves for 1 s: others %.1f%%\n", busy);
	});
}

TEST(another_process_spinning_is_counted)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double expect = 100.0 / (double)cpus; /* one core of `cpus` busy throughout */
	double busy = -1;
	ON_A_QUIET_MACHINE(busy > 0.6 * expect && busy < 1.4 * expect + 5, {
		srcprof_load_meter m;
		srcprof_load_start(&m);
		pid_t child = fork();
		if (child == 0) {
			spin(1.0);
			_exit(0);
		}
		int status;
		waitpid(child, &status, 0);
		busy = srcprof_load_others_pct(&m);
		printf("a child spinning for 1 s on %ld CPUs: others %.1f%% (one core: %.1f%%)\n",
		       cpus, busy, expect);
	});
}

TEST(an_unstarted_meter_reads_unknown)
{
	srcprof_load_meter m = {0};
	CHECK(srcprof_load_others_pct(&m) < 0);
	CHECK(srcprof_load_others_pct(NULL) < 0);
}
