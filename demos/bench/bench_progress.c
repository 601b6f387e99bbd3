#include "bench_progress.h"

#include "srcprof/clock.h"

#include <stdio.h>
#include <string.h>

/* A frame's cost grows with its sources from a fixed part (passes,
 * clears, submission), weighed as 30 small sources: the progress line's
 * estimate needs only the order of it, not this machine's figure. */
static double weight_of(uint32_t sources)
{
	return (double)sources + 30.0;
}

/* The frames a point runs, as measure/ runs them (bench_run.c,
 * bench_isolate.c, bench_overhead.c): warm-up, the timed frames,
 * --isolate's rounds (a 7-frame window, then each of the costliest
 * sources alone, about a frame each), the overhead's settling and its
 * pairs (4 modes, --frames each in blocks of 8 with 2 washout frames). An
 * estimate: cheap frames run more (0.3 s at least per mode). */
static double point_frames(const bench_opts *o, uint32_t sources)
{
	double f = (double)o->warmup + o->frames;
	if (o->isolate) {
		double top = sources < BENCH_ISOLATE_TOP ? sources : BENCH_ISOLATE_TOP;
		f += o->isolate_rounds * (7.0 + top);
	}
	double settle = o->warmup / 2 < 4 ? 4 : o->warmup / 2;
	double blocks = (o->frames + 7) / 8;
	f += settle + 15 + 8 + (double)o->repeat * (o->work ? N_MODES : N_MODES - 1) * (o->frames + 2.0 * blocks);
	return f;
}

void bench_progress_init(bench_progress *p, const bench_opts *o, bool terminal)
{
	*p = (bench_progress){.terminal = terminal, .o = o};
	p->start_ns = p->last_ns = srcprof_clock_monotonic_ns();
	uint32_t runs = o->runs ? o->runs : 1;
	uint32_t threads = o->n_threads ? o->n_threads : 1;
	p->points = runs * o->n_apis * threads * o->n_points;
	for (uint32_t a = 0; a < runs * o->n_apis * threads; a++)
		for (uint32_t i = 0; i < o->n_points; i++)
			p->planned += point_frames(o, o->sources[i]) * weight_of(o->sources[i]);
	srcprof_load_start(&p->busy);
}

void bench_progress_point(bench_progress *p, const char *api, uint32_t sources, uint32_t index)
{
	if (!p)
		return;
	p->api = api;
	p->sources = sources;
	p->point = index;
	p->point_base = p->done;
	p->weight = weight_of(sources);
	p->point_planned = point_frames(p->o, sources) * p->weight;
	p->point_ns = srcprof_clock_monotonic_ns();
}

static void clock_text(double s, char *buf, size_t size)
{
	unsigned t = s > 0 ? (unsigned)(s + 0.5) : 0;
	if (t >= 3600)
		snprintf(buf, size, "%u:%02u:%02u", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%u:%02u", t / 60, t % 60);
}

/* Whether a report is due: on a terminal every 100 ms, else every
 * BENCH_PROGRESS_EVERY_S. */
static bool due(const bench_progress *p)
{
	double since = (double)(srcprof_clock_monotonic_ns() - p->last_ns) / 1e9;
	return since >= (p->terminal ? 0.1 : BENCH_PROGRESS_EVERY_S);
}

/* One report: how far, how long, what runs now (`what`). */
static void report(bench_progress *p, const char *what)
{
	uint64_t now = srcprof_clock_monotonic_ns();
	p->last_ns = now;
	srcprof_load_sample(&p->busy);
	double elapsed = (double)(now - p->start_ns) / 1e9;
	double frac = p->planned > 0 ? p->done / p->planned : 0;
	frac = frac > 0.999 ? 0.999 : frac;
	char spent[16], left[32] = "", busy[64] = "";
	clock_text(elapsed, spent, sizeof spent);
	/* No ETA before a little of the run has told its pace. */
	if (frac > 0.005 && elapsed > 2) {
		char t[16];
		clock_text(elapsed / frac - elapsed, t, sizeof t);
		snprintf(left, sizeof left, ", about %s left", t);
	}
	double others = srcprof_load_recent_pct(&p->busy);
	if (others > SRCPROF_BUSY_PCT)
		snprintf(busy, sizeof busy, "; others use %.0f%% of the CPU", others);
	char line[320];
	snprintf(line, sizeof line, "%3.0f%%, %s%s: %s%s", frac * 100, spent, left, what, busy);
	if (p->terminal) {
		fprintf(stderr, "\r%-110.110s", line);
		p->drawn = true;
	} else {
		fprintf(stderr, BENCH_PROG ": %s\n", line);
	}
	fflush(stderr);
}

void bench_progress_frames(bench_progress *p, const char *what, uint32_t frames)
{
	if (!p)
		return;
	/* A point that runs more than planned (cheap frames) stays within
	 * its share until it ends. */
	double done = p->done + frames * p->weight;
	double cap = p->point_base + p->point_planned * 0.98;
	p->done = done < cap ? done : (p->done > cap ? p->done : cap);
	if (!due(p))
		return;
	char buf[160];
	snprintf(buf, sizeof buf, "%s, %u sources (point %u of %u), %s", p->api, p->sources,
		 p->point + 1, p->points, what);
	report(p, buf);
}

void bench_progress_point_done(bench_progress *p, bool ok)
{
	if (!p)
		return;
	p->done = p->point_base + p->point_planned;
	if (p->terminal)
		return;
	uint64_t now = srcprof_clock_monotonic_ns();
	double frac = p->planned > 0 ? p->done / p->planned : 1, elapsed = (now - p->start_ns) / 1e9;
	char left[32] = "";
	if (p->point + 1 < p->points && frac > 0) {
		char t[16];
		clock_text(elapsed / frac - elapsed, t, sizeof t);
		snprintf(left, sizeof left, ", about %s left", t);
	}
	fprintf(stderr, BENCH_PROG ": point %u of %u %s (%s, %u sources) in %.0f s%s\n",
		p->point + 1, p->points, ok ? "done" : "failed", p->api, p->sources,
		(now - p->point_ns) / 1e9, left);
	fflush(stderr);
	p->last_ns = now;
}

void bench_progress_step(bench_progress *p, const char *what, uint32_t done, uint32_t total)
{
	if (!p || !due(p))
		return;
	char buf[160];
	snprintf(buf, sizeof buf, "%s (%u of %u)", what, done + 1, total);
	report(p, buf);
}

void bench_progress_clear(bench_progress *p)
{
	if (p && p->terminal && p->drawn) {
		fprintf(stderr, "\r%110s\r", "");
		fflush(stderr);
		p->drawn = false;
	}
}
