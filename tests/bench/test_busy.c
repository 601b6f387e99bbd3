/* The busy sampler (demos/busy.c): other processes' CPU counts, this
 * process's own does not. The machine is shared: a case that needs it
 * quiet measures it first and skips (exit 77, the figure printed) when it
 * is not, rather than fail for someone else's build. */
#include "busy.h"
#include "check.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SKIP 77

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&ts, NULL);
}

/* What others use over `s` seconds of this process sleeping. */
static double others_over(double s)
{
	busy_sampler b;
	if (!busy_start(&b))
		return -1;
	sleep_s(s);
	return busy_pct_since_start(&b);
}

/* Skips the case when the machine is busy without us. */
static void need_quiet(const char *when)
{
	double pct = others_over(1.0);
	if (pct > BUSY_REPORT_PCT) {
		printf("skipped: other processes used %.1f%% of the CPU %s (over %.0f%% needs a "
		       "quiet machine)\n",
		       pct, when, BUSY_REPORT_PCT);
		exit(SKIP);
	}
	printf("others %s: %.1f%%\n", when, pct);
}

/* `n` children spinning `yes > /dev/null`. */
static void spin_children(pid_t *pids, uint32_t n)
{
	fflush(stdout); /* or the children inherit what it holds */
	for (uint32_t i = 0; i < n; i++) {
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

static void stop_children(pid_t *pids, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGTERM);
			waitpid(pids[i], NULL, 0);
		}
	}
}

TEST(an_unstarted_sampler_reads_minus_one)
{
	busy_sampler b = {0};
	CHECK_NEAR(busy_pct_since_start(&b), -1, 0);
	CHECK_NEAR(busy_pct_recent(&b), -1, 0);
	busy_sample(&b); /* harmless */
	CHECK_EQ(b.held, 0);
}

/* One `yes` per core keeps the machine full: others read most of it. It
 * cannot fail for a busy machine (that only adds to the figure). */
TEST(children_spinning_on_every_core_read_well_above_10_percent)
{
	busy_sampler b;
	CHECK(busy_start(&b));
	uint32_t cores = b.cores;
	CHECK(cores >= 1 && cores <= 4096);
	pid_t pids[64] = {0};
	uint32_t n = cores < 64 ? cores : 64;
	spin_children(pids, n);
	busy_start(&b);
	sleep_s(1.5);
	double pct = busy_pct_since_start(&b);
	stop_children(pids, n);
	printf("%u children spinning on %u cores: others used %.1f%%\n", n, cores, pct);
	CHECK(pct > 50.0 * n / cores);
}

/* This process spinning on one core is its own time, not others'. */
TEST(this_process_spinning_reads_near_0)
{
	need_quiet("before");
	busy_sampler b;
	CHECK(busy_start(&b));
	volatile double x = 0;
	double t0 = seconds_now();
	while (seconds_now() - t0 < 1.0)
		x += 1;
	double pct = busy_pct_since_start(&b);
	printf("this process spinning 1 s: others used %.1f%%\n", pct);
	if (pct > BUSY_REPORT_PCT)
		need_quiet("after"); /* someone else's load arrived meanwhile: skip */
	CHECK(pct <= BUSY_REPORT_PCT);
}

/* The recent figure forgets a busy spell over a second ago; the figure
 * since the start keeps it. */
TEST(the_recent_figure_covers_about_the_last_second)
{
	need_quiet("before");
	busy_sampler b;
	CHECK(busy_start(&b));
	pid_t pids[64] = {0};
	uint32_t n = b.cores < 64 ? b.cores : 64;
	spin_children(pids, n);
	double t0 = seconds_now();
	while (seconds_now() - t0 < 1.5) {
		busy_sample(&b);
		sleep_s(0.05);
	}
	stop_children(pids, n);
	double busy_recent = busy_pct_recent(&b);
	t0 = seconds_now();
	while (seconds_now() - t0 < 1.5) {
		busy_sample(&b);
		sleep_s(0.05);
	}
	double quiet_recent = busy_pct_recent(&b), overall = busy_pct_since_start(&b);
	printf("recent while spinning %.1f%%, recent after %.1f%%, since the start %.1f%%\n",
	       busy_recent, quiet_recent, overall);
	CHECK(busy_recent > 50.0);
	if (quiet_recent > BUSY_REPORT_PCT)
		need_quiet("after");
	CHECK(quiet_recent <= BUSY_REPORT_PCT);
	CHECK(overall > 25.0 && overall < busy_recent);
}
