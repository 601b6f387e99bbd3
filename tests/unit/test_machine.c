/* The machine-load meter: other processes' CPU shows, this process's own
 * does not. Both need a quiet machine to start from: when it is busy
 * already the cases skip, saying how busy. */
#include "check.h"
#include "srcprof/machine.h"

#include <fcntl.h>
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

/* Other processes' share of the CPU over the next 0.3 s. */
static double background(void)
{
	srcprof_load_meter q;
	srcprof_load_start(&q);
	usleep(300000);
	return srcprof_load_others_pct(&q);
}

/* Runs `measure` until it ran between two quiet spans and gave the right
 * figure, at most 3 times. The machine's own load cannot be told from a
 * wrong figure: quiet spans before and after do not rule out a burst of
 * other work in the middle (another program starting), so a wrong figure
 * fails the case only when all 3 attempts ran between quiet spans and
 * were wrong; when any attempt found the machine busy and none was right,
 * the case skips, saying how busy it was. */
#define ON_A_QUIET_MACHINE(ok_expr, ...)                                              \
	do {                                                                          \
		double worst = 0;                                                     \
		int wrong = 0;                                                        \
		for (int attempt = 0; attempt < 3; attempt++) {                       \
			double before = background();                                 \
			__VA_ARGS__;                                                  \
			double after = background();                                  \
			double b = before > after ? before : after;                   \
			if (b <= SRCPROF_BUSY_PCT && (ok_expr))                       \
				return;                                               \
			if (b <= SRCPROF_BUSY_PCT)                                    \
				wrong++;                                              \
			worst = b > worst ? b : worst;                                \
			printf("  attempt %d: %s (others %.1f%% before or after)\n",  \
			       attempt + 1, b <= SRCPROF_BUSY_PCT ? "wrong" : "busy", b); \
		}                                                                     \
		if (wrong == 3)                                                       \
			CHECK(ok_expr);                                               \
		else                                                                  \
			CHECK_SKIP("machine busy: other processes used %.1f%% of the " \
				   "CPU (threshold %.0f%%)", worst, SRCPROF_BUSY_PCT);   \
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
	CHECK(srcprof_load_recent_pct(&m) < 0);
	CHECK(srcprof_load_recent_pct(NULL) < 0);
	srcprof_load_sample(&m); /* harmless */
	srcprof_load_sample(NULL);
	CHECK_EQ(m.held, 0);
}

/* `n` children running `yes > /dev/null`. */
static void spin_children(pid_t *pids, long n)
{
	fflush(stdout); /* or the children inherit what it holds */
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			int null = open("/dev/null", O_WRONLY);
			if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
				_exit(127);
			execlp("yes", "yes", (char *)NULL);
			_exit(127);
		}
	}
}

static void stop_children(pid_t *pids, long n)
{
	for (long i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGTERM);
			waitpid(pids[i], NULL, 0);
		}
	}
}

static long cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : n;
}

/* One `yes` per core keeps the machine full: others read most of it. A
 * busy machine only adds to the figure, so this runs anywhere. */
TEST(children_spinning_on_every_core_read_well_above_the_threshold)
{
	pid_t pids[64] = {0};
	long n = cores();
	spin_children(pids, n);
	srcprof_load_meter m;
	CHECK(srcprof_load_start(&m));
	usleep(1500000);
	double pct = srcprof_load_others_pct(&m);
	stop_children(pids, n);
	printf("%ld children spinning on %ld cores: others used %.1f%%\n", n, n, pct);
	CHECK(pct > 50.0);
}

/* Samples every 50 ms for `s` seconds. */
static void sample_for(srcprof_load_meter *m, double s)
{
	for (double end = seconds() + s; seconds() < end;) {
		srcprof_load_sample(m);
		usleep(50000);
	}
}

/* The recent figure forgets a busy spell over a second ago; the figure
 * since the start keeps it. */
TEST(the_recent_figure_covers_about_the_last_second)
{
	double quiet = -1, loaded = -1, overall = -1;
	ON_A_QUIET_MACHINE(loaded > 50.0 && quiet >= 0 && quiet <= SRCPROF_BUSY_PCT &&
				   overall > 20.0 && overall < loaded,
			   {
				   srcprof_load_meter m;
				   srcprof_load_start(&m);
				   pid_t pids[64] = {0};
				   long n = cores();
				   spin_children(pids, n);
				   sample_for(&m, 1.5);
				   stop_children(pids, n);
				   loaded = srcprof_load_recent_pct(&m);
				   sample_for(&m, 1.5);
				   quiet = srcprof_load_recent_pct(&m);
				   overall = srcprof_load_others_pct(&m);
				   printf("recent while spinning %.1f%%, recent after %.1f%%, since the "
					  "start %.1f%%\n",
					  loaded, quiet, overall);
			   });
}
