/* How much CPU other processes take (srcprof/machine.h): /proc/stat's
 * first line sums every CPU's time in USER_HZ ticks; this process's own CPU
 * time (all threads) comes from CLOCK_PROCESS_CPUTIME_ID. */
#include "srcprof/machine.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* All CPUs' busy and total ticks; false when /proc/stat is unreadable. */
static bool read_stat(uint64_t *busy, uint64_t *total)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return false;
	unsigned long long v[8] = {0};
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return false;
	/* user nice system idle iowait irq softirq steal (guest time is in
	 * user already). */
	uint64_t idle = v[3] + v[4];
	uint64_t b = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*busy = b;
	*total = b + idle;
	return true;
}

static uint64_t self_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool srcprof_load_start(srcprof_load_meter *m)
{
	if (!m)
		return false;
	m->valid = read_stat(&m->busy_ticks, &m->total_ticks);
	m->self_ns = self_cpu_ns();
	return m->valid;
}

double srcprof_load_others_pct(const srcprof_load_meter *m)
{
	uint64_t busy, total;
	if (!m || !m->valid || !read_stat(&busy, &total))
		return -1.0;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || total <= m->total_ticks)
		return -1.0;
	double all_s = (double)(total - m->total_ticks) / (double)hz;
	double busy_s = (double)(busy - m->busy_ticks) / (double)hz;
	double self_s = (double)(self_cpu_ns() - m->self_ns) * 1e-9;
	/* Ticks are coarse (10 ms): a short span can read a little below this
	 * process's own time. */
	double others = busy_s - self_s;
	double pct = 100.0 * others / all_s;
	return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}
