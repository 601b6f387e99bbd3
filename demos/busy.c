#include "busy.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The machine's busy CPU time (s) from /proc/stat's first line, and the
 * cores it sums (its cpuN lines: the same set, which in a container may
 * differ from what sysconf reports). Busy is everything but idle and
 * iowait; guest time is inside user already. */
static bool read_stat(double *busy_s, uint32_t *cores)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return false;
	char line[512];
	unsigned long long v[8] = {0};
	bool got = false;
	*cores = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "cpu ", 4))
			got = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
				     &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4;
		else if (!strncmp(line, "cpu", 3))
			(*cores)++;
		else if (got)
			break; /* the cpu lines come first */
	}
	fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	if (!got || !*cores || hz <= 0)
		return false;
	/* user nice system idle iowait irq softirq steal */
	unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*busy_s = (double)busy / (double)hz;
	return true;
}

static bool snapshot(busy_snapshot *out, uint32_t *cores)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0 || !read_stat(&out->machine_s, cores))
		return false;
	out->self_s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	out->wall_ns = now_ns();
	return true;
}

/* Others' share of the machine between two readings, percent. The
 * machine's figure counts in clock ticks (10 ms) and this process's
 * exactly, so a short or idle span can read a little below 0: clamped. */
static double pct_between(const busy_snapshot *a, const busy_snapshot *b, uint32_t cores)
{
	double wall_s = (double)(b->wall_ns - a->wall_ns) / 1e9;
	if (wall_s <= 0 || !cores)
		return 0;
	double others = (b->machine_s - a->machine_s) - (b->self_s - a->self_s);
	double pct = others / (wall_s * cores) * 100.0;
	return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

bool busy_start(busy_sampler *s)
{
	*s = (busy_sampler){0};
	s->ok = snapshot(&s->start, &s->cores);
	return s->ok;
}

double busy_pct_since_start(busy_sampler *s)
{
	busy_snapshot now;
	uint32_t cores;
	if (!s->ok || !snapshot(&now, &cores))
		return -1;
	return pct_between(&s->start, &now, s->cores);
}

void busy_sample(busy_sampler *s)
{
	if (!s->ok)
		return;
	if (s->held) {
		const busy_snapshot *last = &s->ring[(s->next + BUSY_RING - 1) % BUSY_RING];
		if (now_ns() - last->wall_ns < 100000000u)
			return;
	}
	uint32_t cores;
	if (!snapshot(&s->ring[s->next], &cores))
		return;
	s->next = (s->next + 1) % BUSY_RING;
	s->held += s->held < BUSY_RING;
}

double busy_pct_recent(busy_sampler *s)
{
	busy_snapshot now;
	uint32_t cores;
	if (!s->ok || !snapshot(&now, &cores))
		return -1;
	/* Newest to oldest: the first reading a second old or more; none
	 * yet (sampling for under a second): the start, older than all. */
	const busy_snapshot *from = &s->start;
	for (uint32_t k = 1; k <= s->held; k++) {
		const busy_snapshot *r = &s->ring[(s->next + BUSY_RING - k) % BUSY_RING];
		if (now.wall_ns - r->wall_ns >= 1000000000u) {
			from = r;
			break;
		}
	}
	return pct_between(from, &now, s->cores);
}
