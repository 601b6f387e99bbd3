/* srcprof-bench compare BASE.json NEW.json: what got costlier, what got
 * cheaper, and how sure the figures are.
 *
 * Points are matched by API and source count (the scene must be the
 * same), sources by name. For each matched source: its GPU cost (alone,
 * the --isolate rounds, where both runs have them; else in frame), CPU
 * render and tick time; for each point its frame time with the profiler
 * off. Each figure's change is the Hodges-Lehmann shift of NEW from BASE
 * over BASE's median, with a 95% interval, tested with Mann-Whitney U
 * (bench_stats.h) on the --isolate rounds or on the medians of
 * consecutive blocks of frames (frames of one run are not independent
 * samples: they share the machine's state; docs/bench.md). A figure is
 * costlier (cheaper) when it moved up (down) by more than the threshold
 * and the floor, significantly: the same test against BASE moved by that
 * margin (p_beyond), kept at a false-discovery rate of alpha over all the
 * figures compared (Benjamini-Hochberg: with nothing changed, no verdict at
 * all with probability 1 - alpha; with real changes, most of them). p, the
 * test of no change, and the 1 - alpha interval are reported beside it.
 * Exit status: 0 nothing costlier, 1 something costlier, 2 bad input.
 *
 * bench_compare.c matches and judges, bench_compare_out.c writes the
 * text, JSON and HTML. */
#ifndef DEMOS_BENCH_COMPARE_H
#define DEMOS_BENCH_COMPARE_H

#include "bench_load.h"
#include "srcprof_base/json.h"

#include <stdio.h>

#define CMP_PROG "srcprof-bench compare"

/* Runs a side at most (compare B1 B2 ... vs N1 N2 ...). */
#define CMP_MAX_RUNS 16

typedef struct cmp_opts {
	const char *base, *nw;  /* the first BASE and NEW files */
	/* Every file a side, in order; n_base = n_new = 1 without "vs". */
	const char *base_files[CMP_MAX_RUNS], *new_files[CMP_MAX_RUNS];
	uint32_t n_base, n_new;
	bool vs;                /* the files were given as BASE... vs NEW... */
	double threshold;       /* fraction (0.05: 5%) */
	double alpha;           /* significance level */
	double floor_us;        /* a change must exceed this too, us a frame */
	uint32_t blocks;        /* frames per run become this many medians; 0: every frame */
	const char *json, *html; /* outputs, or NULL */
} cmp_opts;

/* The figures compared. */
typedef enum cmp_figure {
	CMP_GPU_MARGINAL, /* us, per --isolate round: what one more copy adds */
	CMP_GPU_ALONE, /* us, per --isolate round */
	CMP_GPU_FRAME, /* us per frame, all renders, in frame */
	CMP_RENDER,    /* CPU us per frame, all renders */
	CMP_TICK,      /* CPU us per frame */
	CMP_FRAME,     /* the point's frame time, ms, profiler off */
	CMP_N_FIGURES
} cmp_figure;
extern const char *const cmp_figure_names[CMP_N_FIGURES]; /* "GPU alone", ... */
extern const char *const cmp_figure_keys[CMP_N_FIGURES];  /* "gpu_alone", ... (JSON) */

typedef enum cmp_verdict { CMP_SAME, CMP_COSTLIER, CMP_CHEAPER } cmp_verdict;
extern const char *const cmp_verdict_names[3]; /* "no significant change", ... */

/* Why a row is not reliable, as bits (beside BENCH_NOISY_FEW and _BUSY,
 * whose meaning is the bench's). */
enum {
	CMP_NOISY_FEW = 1,      /* fewer than 3 samples on a side */
	CMP_NOISY_WIDE = 2,     /* a change whose interval is wider than itself */
	CMP_NOISY_REACHES = 4,  /* no change, but the interval reaches beyond the threshold */
	CMP_NOISY_BUSY = 8,     /* a run's machine was busy */
	CMP_NOISY_NO_CI = 16,   /* too few samples for a 95% interval */
	CMP_NOISY_NO_SPREAD = 32, /* runs as samples that do not vary at all: no interval */
};

typedef struct cmp_row {
	const char *source; /* NULL: the point's frame time */
	cmp_figure figure;
	double base_med, new_med; /* medians of what was tested, in the figure's unit */
	double shift;             /* the estimated change, in the figure's unit */
	double change, lo, hi;    /* relative to base_med; +-INFINITY: unbounded / from 0 */
	bool bounded;             /* the interval is (enough samples for one) */
	double p_beyond;          /* the test of a change beyond the margin (two-sided) */
	int side;                 /* of that change: +1 up, -1 down */
	double p;
	uint32_t n_base, n_new;   /* samples tested (blocks, frames or rounds) */
	bool blocked;             /* the samples are medians of blocks of frames */
	cmp_verdict verdict;
	unsigned noisy;
	/* p < alpha, yet not flagged: the interval reaches within the
	 * threshold (1), under the floor (2), or beyond both but not kept
	 * among the figures (3); 0 otherwise. */
	int held_back;
	/* What was tested, for the second pass (cmp_run). */
	const brun_series *sa, *sb;
	bool in_blocks;
	/* Two or more runs a side: each run's median of the figure, tested
	 * with Welch's t (bench_stats.h) instead of sa / sb. */
	bool by_runs;
	double ra[CMP_MAX_RUNS], rb[CMP_MAX_RUNS];
} cmp_row;

/* --work: a source's work compared exactly (bench_compare_work.c): no
 * statistics, the counts a frame are equal or they changed. */
typedef enum cmp_work_state {
	CMP_WORK_EQUAL,       /* every counter counted on both sides is equal */
	CMP_WORK_CHANGED,     /* one or more of them changed */
	CMP_WORK_NOT_COUNTED, /* a side has no counts (no --work, n/a, no frame counted) */
} cmp_work_state;
extern const char *const cmp_work_state_names[3]; /* "equal", "changed", "not counted" */

typedef struct cmp_work_row {
	const char *source;
	const brun_work *a, *b;
	cmp_work_state state;
	uint32_t both;     /* bit c: counter c counted on both sides */
	uint32_t changed;  /* bit c: counted on both, and not equal */
	/* The source's GPU figure's verdict (the time beside the work), and
	 * whether it was tested at all. */
	bool timed;
	cmp_figure time_figure;
	cmp_verdict time;
} cmp_work_row;

/* "time changed, work did not", "work changed", ... for a row. */
const char *cmp_work_reading(const cmp_work_row *w);
/* Counter c's change from BASE, relative (+3.0: +300%); +-INFINITY from 0. */
double cmp_work_change(const cmp_work_row *w, int c);

typedef struct cmp_point {
	const brun_point *base, *nw;
	cmp_row *rows; /* sorted by change, costliest first */
	uint32_t n_rows;
	cmp_work_row *work; /* a row per source in both runs, BASE's order */
	uint32_t n_work;
	uint32_t only_base, only_new; /* sources in one run only */
	char only_names[512];         /* some of them, for the report */
} cmp_point;

typedef struct cmp_result {
	const cmp_opts *o;
	const brun *base, *nw;         /* the first run of each side */
	const brun *bases, *news;      /* every run, n_base and n_new of them */
	uint32_t n_base, n_new;
	bool by_runs;                  /* two or more runs a side: runs are the samples */
	cmp_point *points;
	uint32_t n_points;
	uint32_t unmatched_base, unmatched_new; /* points in one run only */
	uint32_t costlier, cheaper, same, noisy;
	/* --work: whether each side's first run counted work, and the
	 * sources whose work is equal, changed, or not compared. */
	bool work_base, work_new;
	uint32_t work_equal, work_changed, work_not_counted;
	uint32_t figures;
	double cut; /* rows with p_beyond at or under it are kept; < 0: none */
	char settings[1200]; /* what differs between the runs' settings, or "" */
} cmp_result;

/* bench_args.c: argv after "compare" (argv[0] is "compare"). 0: run; 1:
 * --help printed (exit 0); -1: a usage error, already reported (exit 2). */
int cmp_parse_args(int argc, char **argv, cmp_opts *o);

/* Compares loaded runs (same scene: checked by the caller), n_base of
 * BASE and n_new of NEW, into r. With one a side the frames (blocks) and
 * rounds of the two runs are the samples; with two or more a side, each
 * run's median of each figure is one sample, so that the spread between
 * runs of one build counts. A point or source of the first runs that
 * another run lacks is bad input. False (said) on bad input or out of
 * memory. */
bool cmp_run(const cmp_opts *o, const brun *base, uint32_t n_base, const brun *nw,
	     uint32_t n_new, cmp_result *r);
void cmp_free(cmp_result *r);
/* The work rows of every point of r, once its time verdicts are known
 * (cmp_run calls it); false when out of memory (said). */
bool cmp_work_compare(cmp_result *r);

/* The row's reasons as one clause, into buf. */
const char *cmp_noise_text(const cmp_result *r, const cmp_point *p, const cmp_row *row,
			   char *buf, size_t size);
/* The same in a few words for the text table ("busy; reaches +31%"), with
 * why a change with p < alpha was held back. */
const char *cmp_short_notes(const cmp_result *r, const cmp_row *row, char *buf, size_t size);
/* The figure's unit ("us", "ms"). */
const char *cmp_unit(cmp_figure f);

/* A point's machine_busy_pct as text: "40%", or "unknown" (not recorded). */
const char *cmp_busy_text(double pct, char *buf, size_t size);
/* The busy warning's figures: "2% (BASE) and 40% (NEW)". */
void cmp_busy_pair(const brun_point *base, const brun_point *nw, char *buf, size_t size);

/* bench_compare_out.c. */
/* The table; `status` is the exit status it states. */
void cmp_print(FILE *out, const cmp_result *r, int status);
/* Each point's work table (text, JSON "work", HTML), in
 * bench_compare_work.c. */
void cmp_print_work(FILE *out, const cmp_result *r, const cmp_point *p);
void cmp_json_work(json_w *w, const cmp_result *r, const cmp_point *p);
void cmp_html_work(FILE *f, const cmp_result *r, const cmp_point *p);
/* srcprof-bench compare ARGS... (argv[0] "compare"): the whole program
 * (bench_compare_main.c); its exit status. */
int cmp_main(int argc, char **argv);

/* --json and --html to f (the caller checks ferror and closes it). */
void cmp_write_json(FILE *f, const cmp_result *r);
void cmp_write_html(FILE *f, const cmp_result *r);

#endif
