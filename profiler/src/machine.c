/* How much CPU other processes take (srcprof/machine.h): /proc/stat's
 * first line sums every CPU's time in USER_HZ ticks; this process's own CPU
 * time (all threads) comes from CLOCK_PROCESS_CPUTIME_ID. The share is of
 * the ticks the machine counted (every core the kernel shows this process,
 * which in a container may differ from the cores it may run on), so no
 * core count is needed. */
#include "srcprof/machine.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* All CPUs' busy and total ticks now; false when /proc/stat is unreadable. */
static bool read_now(srcprof_load_reading *r)
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
	r->busy_ticks = b;
	r->total_ticks = b + idle;
	r->self_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	r->wall_ns = clock_ns(CLOCK_MONOTONIC);
	return true;
}

/* Others' share between two readings, percent; -1 when no tick passed. */
static double pct_between(const srcprof_load_reading *a, const srcprof_load_reading *b)
{
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || b->total_ticks <= a->total_ticks || b->busy_ticks < a->busy_ticks)
		return -1.0;
	double all_s = (double)(b->total_ticks - a->total_ticks) / (double)hz;
	double busy_s = (double)(b->busy_ticks - a->busy_ticks) / (double)hz;
	double self_s = b->self_ns > a->self_ns ? (double)(b->self_ns - a->self_ns) * 1e-9 : 0;
	/* Ticks are coarse: a short span can read a little below this
	 * process's own time. */
	double pct = 100.0 * (busy_s - self_s) / all_s;
	return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

bool srcprof_load_start(srcprof_load_meter *m)
{
	if (!m)
		return false;
	*m = (srcprof_load_meter){0};
	m->valid = read_now(&m->start);
	return m->valid;
}

double srcprof_load_others_pct(const srcprof_load_meter *m)
{
	srcprof_load_reading now;
	if (!m || !m->valid || !read_now(&now))
		return -1.0;
	return pct_between(&m->start, &now);
}

void srcprof_load_sample(srcprof_load_meter *m)
{
	if (!m || !m->valid)
		return;
	if (m->held) {
		const srcprof_load_reading *last =
			&m->ring[(m->next + SRCPROF_LOAD_RING - 1) % SRCPROF_LOAD_RING];
		if (clock_ns(CLOCK_MONOTONIC) - last->wall_ns < 100000000u)
			return;
	}
	if (!read_now(&m->ring[m->next]))
		return;
	m->next = (m->next + 1) % SRCPROF_LOAD_RING;
	m->held += m->held < SRCPROF_LOAD_RING;
}

double srcprof_load_recent_pct(const srcprof_load_meter *m)
{
	srcprof_load_reading now;
	if (!m || !m->valid || !read_now(&now))
		return -1.0;
	/* Newest to oldest: the first reading a second old or more; none yet
	 * (sampling for under a second): the start, older than all. */
	const srcprof_load_reading *from = &m->start;
	for (uint32_t k = 1; k <= m->held; k++) {
		const srcprof_load_reading *r =
			&m->ring[(m->next + SRCPROF_LOAD_RING - k) % SRCPROF_LOAD_RING];
		if (now.wall_ns - r->wall_ns >= 1000000000u) {
			from = r;
			break;
		}
	}
	return pct_between(from, &now);
}
