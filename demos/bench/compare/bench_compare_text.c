/* The names and notes compare's outputs share: its figures and
 * verdicts, why a row is not reliable (in full for --json and --html,
 * short for the table), a busy machine. */
#include "bench_compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

const char *const cmp_figure_names[CMP_N_FIGURES] = {"GPU marginal", "GPU alone", "GPU in frame", "CPU render",
						     "CPU tick", "frame time"};
const char *const cmp_figure_keys[CMP_N_FIGURES] = {"gpu_marginal", "gpu_alone", "gpu_in_frame", "cpu_render",
						    "cpu_tick", "frame_time"};
const char *const cmp_verdict_names[3] = {"no significant change", "costlier", "cheaper"};

const char *cmp_unit(cmp_figure f)
{
	return f == CMP_FRAME ? "ms" : "us";
}

/* Appends "; " (after the first) and the formatted text to buf[0..size),
 * *at the length so far; truncates, never overflows. */
__attribute__((format(printf, 4, 5))) static void say(char *buf, size_t size, size_t *at,
						       const char *fmt, ...)
{
	if (*at < size)
		*at += (size_t)snprintf(buf + *at, size - *at, "%s", *at ? "; " : "");
	if (*at < size) {
		va_list ap;
		va_start(ap, fmt);
		*at += (size_t)vsnprintf(buf + *at, size - *at, fmt, ap);
		va_end(ap);
	}
}

const char *cmp_busy_text(double pct, char *buf, size_t size)
{
	if (pct < 0)
		snprintf(buf, size, "unknown");
	else
		snprintf(buf, size, "%.0f%%", pct);
	return buf;
}

void cmp_busy_pair(const brun_point *base, const brun_point *nw, char *buf, size_t size)
{
	char a[16], b[16];
	snprintf(buf, size, "%s (BASE) and %s (NEW)", cmp_busy_text(base->busy_pct, a, sizeof a),
		 cmp_busy_text(nw->busy_pct, b, sizeof b));
}

const char *cmp_noise_text(const cmp_result *r, const cmp_point *p, const cmp_row *row,
			   char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	bool rounds = row->figure == CMP_GPU_ALONE || row->figure == CMP_GPU_MARGINAL;
	const char *what = row->by_runs ? "runs" : rounds ? "rounds" : row->blocked ? "blocks" : "frames";
	if (row->noisy & CMP_NOISY_FEW)
		say(buf, size, &at, "only %u and %u %s (3 or more needed)", row->n_base, row->n_new, what);
	if ((row->noisy & CMP_NOISY_NO_CI) && !(row->noisy & CMP_NOISY_FEW))
		say(buf, size, &at, "too few %s for a 95%% interval", what);
	if (row->noisy & CMP_NOISY_NO_SPREAD)
		say(buf, size, &at, "the runs of each side agree exactly: no spread to weigh the change with");
	if (row->noisy & CMP_NOISY_WIDE)
		say(buf, size, &at, "the interval is wider than the change");
	if (row->noisy & CMP_NOISY_REACHES)
		say(buf, size, &at, "the interval reaches %+.1f%%, beyond the %.0f%% threshold",
		    (fabs(row->hi) >= fabs(row->lo) ? row->hi : row->lo) * 100,
		    r->o->threshold * 100);
	if (row->noisy & CMP_NOISY_BUSY) {
		char pair[64];
		cmp_busy_pair(p->base, p->nw, pair, sizeof pair);
		say(buf, size, &at, "machine busy: other processes used %s of the CPU", pair);
	}
	return buf;
}

const char *cmp_short_notes(const cmp_result *r, const cmp_row *row, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	if (row->held_back == 1)
		say(buf, size, &at, "p < %g, may be within +-%.0f%%", r->o->alpha, r->o->threshold * 100);
	if (row->held_back == 2)
		say(buf, size, &at, "p < %g, may be under %g us", r->o->alpha, r->o->floor_us);
	if (row->held_back == 3)
		say(buf, size, &at, "p < %g, beyond +-%.0f%% at p %.3g, not kept over %u figures", r->o->alpha,
		    r->o->threshold * 100, row->p_beyond, r->figures);
	if (row->noisy & (CMP_NOISY_FEW | CMP_NOISY_NO_CI))
		say(buf, size, &at, "few samples");
	if (row->noisy & CMP_NOISY_NO_SPREAD)
		say(buf, size, &at, "no spread");
	if (row->noisy & CMP_NOISY_WIDE)
		say(buf, size, &at, "wide interval");
	if ((row->noisy & CMP_NOISY_REACHES) && !row->held_back)
		say(buf, size, &at, "reaches %+.0f%%", (fabs(row->hi) >= fabs(row->lo) ? row->hi : row->lo) * 100);
	if (row->noisy & CMP_NOISY_BUSY)
		say(buf, size, &at, "busy");
	return buf;
}
