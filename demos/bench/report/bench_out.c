/* srcprof-bench's text report on stdout and its CSV (a row per source),
 * and how it says a figure is not reliable. */
#include "bench.h"
#include "bench_scaling.h"
#include "capture.h"
#include "srcprof_base/csv.h"
#include "out_file.h"
#include "srcprof_base/stats.h"
#include "srcprof/machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double pct(double ratio)
{
	return (ratio - 1.0) * 100.0;
}

unsigned bench_noise(double effect, double lo, double hi, uint32_t n, double busy_pct)
{
	unsigned why = 0;
	if (n < BENCH_MIN_PAIRS)
		why |= BENCH_NOISY_FEW;
	if (hi - lo > fabs(effect))
		why |= BENCH_NOISY_SPREAD;
	if (busy_pct > SRCPROF_BUSY_PCT)
		why |= BENCH_NOISY_BUSY;
	return why;
}

const char *bench_noise_text(unsigned why, uint32_t n, const char *unit, double busy_pct,
			     char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	if (why & BENCH_NOISY_FEW)
		at += (size_t)snprintf(buf + at, size - at, "only %u %s (%d or more needed)", n, unit,
				       BENCH_MIN_PAIRS);
	if ((why & BENCH_NOISY_SPREAD) && at < size)
		at += (size_t)snprintf(buf + at, size - at, "%sthe spread is wider than the effect",
				       at ? "; " : "");
	if ((why & BENCH_NOISY_BUSY) && at < size)
		snprintf(buf + at, size - at, "%sother processes used %.0f%% of the CPU",
			 at ? "; " : "", busy_pct);
	return buf;
}

static const char *flat_text(bool flat)
{
	return flat ? "flat within 20%" : "NOT flat within 20%";
}

/* One verdict line on what each added source cost, step by step. */
static void print_steps(FILE *out, const char *api, const char *what, const char *unit,
			const bench_steps *st, int k)
{
	if (!st->n)
		return;
	const bench_spread *sp = &st->range[k];
	fprintf(out, "%s: each source added, %s:", api, what);
	for (uint32_t j = 0; j < st->n; j++)
		fprintf(out, "%s %.0f->%.0f %.2f", j ? "," : "", st->from[j], st->to[j], st->v[k][j]);
	fprintf(out, " %s (max/min %.2f): %s\n", unit, sp->hi / (sp->lo > 0 ? sp->lo : 1),
		flat_text(sp->flat));
}

/* How frame and profiler cost grow with the number of sources, per API,
 * and whether the cost per source stays flat. */
static void print_scaling(FILE *out, const bench_opts *o, const bench_result *r)
{
	fprintf(out,
		"\nscaling (%s):\n%6s %8s %9s %9s %10s %-22s %8s %8s %9s %9s %10s %9s\n"
		"%6s %8s %9s %9s %10s %-22s %8s %8s %9s %9s %10s %9s\n",
		o->scene->name, "api", "sources", "frame ms", "none ms", "us/source", " (spread)",
		"CPU us", "src GPU", "CPU prof", "GPU prof", "GPU prof", "own prof", "", "", "(off)",
		"", "", "", "/source", "us", "", "", "us/source", "ns/source");
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		double n = bench_held(p) > 0 ? bench_held(p) : 1;
		char range[40];
		snprintf(range, sizeof range, " (%.2f .. %.2f)", p->source_cost.min, p->source_cost.max);
		/* A thread sweep's points: "vk/4", 4 record threads. */
		char api[16];
		if (o->n_threads > 1)
			snprintf(api, sizeof api, "%s/%u", strcmp(p->api, "vulkan") ? p->api : "vk",
				 p->record_threads);
		else
			snprintf(api, sizeof api, "%s", p->api);
		fprintf(out,
			"%6s %8.0f %9.2f %9.2f %10.2f %-22s %8.2f %8.1f %8.2f%% %8.2f%% %10.2f %9.1f\n",
			api, bench_held(p), p->off.mean, p->empty.mean, p->source_cost.median, range,
			p->source_work.median, bench_source_gpu_mean(p), pct(p->ratio_cpu.median),
			pct(p->ratio_gpu.median), pct(p->ratio_gpu.median) / 100 * p->off.mean * 1000 / n,
			r->replayed ? p->prof_cpu_ns : NAN);
	}
	fprintf(out, "us/source: (frame with the profiler off - frame with no sources) / sources, "
		     "median (spread)\nof the interleaved pairs; CPU us/source: the same in CPU time of "
		     "all threads (the work,\nwherever it ran); src GPU: the mean of the sources' "
		     "in-frame GPU figures;\nGPU prof us/source: the CPU+GPU overhead per source; own "
		     "prof: the profiler's own CPU\ncost per source and frame with CPU timing, its calls "
		     "replayed without drawing\n");
	if (o->n_threads > 1)
		fprintf(out, "api/N: the views recorded on N threads\n");
	bench_scaling sc[2 * BENCH_MAX_POINTS];
	uint32_t n_sc = bench_scalings(r, sc);
	for (uint32_t k = 0; k < n_sc; k++) {
		const bench_scaling *s = &sc[k];
		const bench_spread *cost = &s->per_source[BENCH_SERIES_COST],
				   *work = &s->per_source[BENCH_SERIES_WORK],
				   *prof = &s->per_source[BENCH_SERIES_PROF],
				   *prof_gpu = &s->per_source[BENCH_SERIES_PROF_GPU];
		const bench_point *a = &r->points[s->first], *b = &r->points[s->first + s->n - 1];
		fprintf(out, "%s: cost per source %.2f .. %.2f us from %.0f to %.0f sources (max/min "
			     "%.2f): %s\n",
			s->label, cost->lo, cost->hi, bench_held(a), bench_held(b),
			cost->hi / (cost->lo > 0 ? cost->lo : 1), flat_text(cost->flat));
		fprintf(out, "%s: CPU time (all threads) per source %.2f .. %.2f us (max/min %.2f): %s\n",
			s->label, work->lo, work->hi, work->hi / (work->lo > 0 ? work->lo : 1),
			flat_text(work->flat));
		print_steps(out, s->label, "frame time", "us", &s->added, BENCH_SERIES_COST);
		print_steps(out, s->label, "CPU time", "us", &s->added, BENCH_SERIES_WORK);
		/* Not replayed (interrupted): no figures of the profiler's own. */
		if (r->replayed) {
			fprintf(out, "%s: the profiler's own cost per source %.1f .. %.1f ns with CPU timing "
				     "(max/min %.2f): %s;\n  %.1f .. %.1f ns with CPU+GPU timing, every frame "
				     "timed (max/min %.2f): %s\n",
				s->label, prof->lo, prof->hi, prof->hi / (prof->lo > 0 ? prof->lo : 1),
				flat_text(prof->flat), prof_gpu->lo, prof_gpu->hi,
				prof_gpu->hi / (prof_gpu->lo > 0 ? prof_gpu->lo : 1), flat_text(prof_gpu->flat));
			print_steps(out, s->label, "the profiler's own cost, CPU timing", "ns", &s->added,
				    BENCH_SERIES_PROF);
			print_steps(out, s->label, "the profiler's own cost, CPU+GPU timing", "ns", &s->added,
				    BENCH_SERIES_PROF_GPU);
		}
		if (s->fitted)
			fprintf(out, "%s: the sources add %.1f us once + %.2f us each to the frame "
				     "(fit; largest deviation %.1f%%: %s)\n",
				s->label, s->once, s->each, s->worst * 100,
				s->worst <= 0.1 ? "linear within 10%" : "NOT linear within 10%");
		fprintf(out, "%s: the profiler's in-frame GPU figure per source %.1f .. %.1f us "
			     "(max/min %.2f): %s\n",
			s->label, s->gpu.lo, s->gpu.hi, s->gpu.hi / (s->gpu.lo > 0 ? s->gpu.lo : 1),
			flat_text(s->gpu.flat));
		if (!s->gpu.flat && a->software && b->flushed)
			fprintf(out, "  (a timer costs this software device %.0f us, jittering by "
				     "tens of us: figures for sources\n  much cheaper than that are "
				     "its noise; --isolate measures them alone)\n",
				b->timer_overhead);
	}
}

/* A "not reliable" line under a figure of p's pairs, when it is not. */
static void print_noise(FILE *out, double effect, double lo, double hi, const bench_point *p)
{
	char why[256];
	unsigned bits = bench_noise(effect, lo, hi, p->pairs, p->machine_busy_pct);
	if (bits)
		fprintf(out, "           not reliable: %s\n",
			bench_noise_text(bits, p->pairs, "pairs", p->machine_busy_pct, why, sizeof why));
}

void bench_print_busy(FILE *out, const bench_point *p, const char *indent)
{
	if (p->machine_busy_pct > SRCPROF_BUSY_PCT)
		fprintf(out, "%smachine busy: other processes used %.0f%% of the CPU while this point "
			     "ran;\n%s%s\n",
			indent, p->machine_busy_pct, indent,
			p->software ? "software-device GPU times are inflated, and so are frame times"
				    : "frame and CPU times are inflated");
}

/* A GPU figure (us) for the table: "<X" below the resolution X. */
static void gpu_cell(char *buf, double us, double resolution)
{
	if (resolution > 0 && us < resolution) {
		buf[0] = '<';
		stats_format_us_up(buf + 1, 15, resolution);
	}
	else
		snprintf(buf, 16, "%.1f", us);
}

/* The GPU figure compare tests of source `name` in p: the marginal
 * reference where measured, else alone, else its in-frame GPU p50; < 0:
 * p has no such source. */
static double run_figure(const bench_point *p, const char *name)
{
	for (uint32_t k = 0; k < p->n_src; k++) {
		const bench_source *b = &p->src[k];
		if (!strcmp(b->name, name))
			return b->marginal_rounds ? b->marginal
			       : b->isolated >= 0 ? b->isolated
						  : b->gpu_p50;
	}
	return -1;
}

/* One line of --runs: `label`, then each run's figure and their spread
 * (largest minus smallest over the mean). */
static void print_run_line(FILE *out, const char *label, const double *v, uint32_t n)
{
	double lo = v[0], hi = v[0], sum = 0;
	fprintf(out, "  %-24.24s", label);
	for (uint32_t k = 0; k < n; k++) {
		fprintf(out, " %10.1f", v[k]);
		lo = v[k] < lo ? v[k] : lo;
		hi = v[k] > hi ? v[k] : hi;
		sum += v[k];
	}
	if (sum > 0)
		fprintf(out, "   %5.1f%%", (hi - lo) / (sum / n) * 100);
	fputc('\n', out);
}

/* --runs: point i's figures in every run, so the spread between runs of
 * one build shows (what compare tests them against). */
static void print_runs(FILE *out, const bench_result *r, uint32_t i)
{
	const bench_point *p = &r->points[i];
	uint32_t n = 1 + r->n_more;
	double v[BENCH_MAX_RUNS];
	fprintf(out, "runs: %u, each on a new engine (compare tests them as samples); GPU us a "
		     "frame, marginal\nwhere measured (what compare tests), else in frame (p50); "
		     "the spread is (largest -\nsmallest) / mean\n  %-24s",
		n, "");
	for (uint32_t k = 0; k < n; k++)
		fprintf(out, "      run %u", k + 1);
	fprintf(out, "   spread\n");
	bench_source *s = bench_sorted_sources(p);
	uint32_t shown = p->n_src < 25 ? p->n_src : 25;
	for (uint32_t j = 0; s && j < shown; j++) {
		if (s[j].gpu_p50 <= 0 && s[j].isolated <= 0)
			continue; /* draws nothing */
		v[0] = run_figure(p, s[j].name);
		for (uint32_t k = 0; k < r->n_more; k++)
			v[k + 1] = run_figure(&r->more[k][i], s[j].name);
		print_run_line(out, s[j].name, v, n);
	}
	free(s);
	v[0] = p->off.p50 * 1000;
	for (uint32_t k = 0; k < r->n_more; k++)
		v[k + 1] = r->more[k][i].off.p50 * 1000;
	print_run_line(out, "frame us, profiler off", v, n);
}

/* A sweep over record threads: per API and source count, each thread
 * count's frame time (profiler off) and its sources' GPU figures against
 * those of the first count - what recording on threads changes. */
static void print_thread_sweep(FILE *out, const bench_opts *o, const bench_result *r)
{
	fprintf(out, "\nrecord threads (%s):\n", o->scene->name);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *base = &r->points[i];
		if (base->record_threads != o->record_threads[0])
			continue;
		fprintf(out, "%s, %u sources:", base->api, base->sources);
		for (uint32_t j = i; j < r->n_points; j++) {
			const bench_point *p = &r->points[j];
			if (strcmp(p->api, base->api) || p->sources != base->sources)
				continue;
			/* Each source's GPU average against the base point's. */
			double ratio[512];
			uint32_t n = 0;
			for (uint32_t k = 0; k < p->n_src && k < base->n_src && n < 512; k++)
				if (base->src[k].gpu_avg > 0 && !strcmp(p->src[k].name, base->src[k].name))
					ratio[n++] = p->src[k].gpu_avg / base->src[k].gpu_avg;
			stats_sort(ratio, n);
			fprintf(out, "\n  %2u%s: frame %.2f ms (profiler off), %.2f ms (every frame "
				     "GPU-timed)",
				p->record_threads, p->record_threads_used < p->record_threads ? " (1 used)" : "",
				p->off.mean, p->timed.mean);
			if (j != i && n)
				fprintf(out, "; sources' GPU / %u thread%s: median %.3f (%.3f .. %.3f)",
					base->record_threads, base->record_threads > 1 ? "s" : "",
					stats_quantile(ratio, n, 0.5), ratio[0], ratio[n - 1]);
		}
		fputc('\n', out);
	}
}

void bench_print_threads(FILE *out, const bench_point *p)
{
	if (p->record_threads <= 1 && p->tick_threads_used <= 1 && p->n_queues <= 1)
		return;
	fprintf(out, "threads: ticks on %u, each view recorded on %u", p->tick_threads_used,
		p->record_threads_used);
	if (p->record_threads_used < p->record_threads)
		fprintf(out, " (%u asked; %s records on one)", p->record_threads, p->api);
	if (p->n_queues > 1) {
		fprintf(out, "; queues:");
		for (uint32_t q = 0; q < p->n_queues; q++)
			fprintf(out, "%s %s", q ? "," : "", p->queues[q]);
		fprintf(out, " (a source's GPU figures add its time on each)");
	}
	fputc('\n', out);
}

void bench_print(FILE *out, const bench_opts *o, const bench_result *r)
{
	if (r->interrupted)
		fprintf(out, "INTERRUPTED (%s): %u of %u points finished; their figures follow\n",
			bench_signal_name(r->interrupted), r->n_points, r->planned);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		fprintf(out, "\n== %s, scene %s, %u sources", p->api, o->scene->name, p->sources);
		if (p->n_src && p->n_src != p->sources)
			fprintf(out, " (the scene holds %u)", p->n_src);
		fprintf(out, ": %s (%s)\n", p->device, p->driver);
		bench_print_threads(out, p);
		char res[24];
		stats_format_us_up(res, sizeof res, p->gpu_resolution);
		char sw[80];
		eng_gfx_software_text(&(eng_gfx_info){.software = p->software,
						      .raster_threads = p->raster_threads},
				      sw, sizeof sw);
		if (p->flushed)
			fprintf(out, "GPU timing mode: %s%s; an empty timer costs %.1f us and is "
				     "subtracted; resolution %s us\n",
				p->mode, sw, p->timer_overhead, res);
		else
			fprintf(out, "GPU timing mode: %s%s; bare stamps, nothing subtracted; "
				     "resolution %s us\n",
				p->mode, sw, res);
		if (p->software && !p->flushed)
			fprintf(out, "note: plain stamps on a software device do not measure each "
				     "source's cost: it runs the\nframe's work in binned scenes at "
				     "flushes, and a bare stamp reads when its part of\nthe scene got "
				     "there (docs/gpu-timing.md); --gpu-timing auto measures it here\n");
		bench_print_busy(out, p, "");
		fprintf(out, "frames (every frame GPU-timed): mean %.2f ms, p50 %.2f, p95 %.2f, p99 "
			     "%.2f, %.1f fps; the frame's GPU time %.1f us\n",
			p->timed.mean, p->timed.p50, p->timed.p95, p->timed.p99, p->timed.fps,
			p->frame_gpu_avg);
		bench_source *s = bench_sorted_sources(p);
		if (s) {
			bool iso = false;
			for (uint32_t k = 0; k < p->n_src; k++)
				iso |= s[k].isolated >= 0;
			fprintf(out, "%-22s %-9s %9s %9s %9s %9s %5s %6s %8s %8s%s\n", "source (us)",
				"type", "GPU avg", "p50", "p95", "max", "n", "share", "tick", "render",
				iso ? "     alone  in/alone  marginal in/marg" : "");
			uint32_t shown = p->n_src < 25 ? p->n_src : 25;
			for (uint32_t k = 0; k < shown; k++) {
				const bench_source *b = &s[k];
				char c[4][16];
				gpu_cell(c[0], b->gpu_avg, p->gpu_resolution);
				gpu_cell(c[1], b->gpu_p50, p->gpu_resolution);
				gpu_cell(c[2], b->gpu_p95, p->gpu_resolution);
				gpu_cell(c[3], b->gpu_max, p->gpu_resolution);
				fprintf(out, "%-22.22s %-9.9s %9s %9s %9s %9s %5u %5.1f%% %8.1f %8.1f",
					b->name, b->type, c[0], c[1], c[2], c[3], b->gpu_samples,
					b->share * 100, b->tick_avg, b->render_sum);
				if (b->isolated >= 0)
					fprintf(out, " %9.1f %8.3f", b->isolated, b->in_over_alone);
				if (b->isolated >= 0 && b->marginal >= 0)
					fprintf(out, " %9.1f %7.3f", b->marginal, b->in_over_marginal);
				fputc('\n', out);
			}
			if (p->n_src > shown)
				fprintf(out, "... %u more sources (all in --json and --csv)\n",
					p->n_src - shown);
			fprintf(out, "GPU: us a frame, all the source's renders (\"<X\": below the "
				     "timers' resolution X); n: GPU samples;\ntick, render: CPU us a "
				     "frame (render: all renders)\n");
			if (iso)
				fprintf(out, "alone: the source's draws in a submission of their own "
					     "(with minus without); in/alone:\nthe median over %d rounds "
					     "of a 5-frame in-frame window's median over the source\n"
					     "alone right after it; marginal: what %d more copies add to a "
					     "submission of one,\nper copy (no fixed cost of a submission; "
					     "copies share caches); in/marg: in-frame\nover it, the same "
					     "rounds\n",
					o->isolate_rounds, BENCH_MARGINAL_COPIES);
			if (iso && p->software && p->flushed && p->raster_threads > 1)
				fprintf(out, "note: this software device splits each timed scene over %d "
					     "rasterizer threads; sources\nof a few %% of the frame then can "
					     "read well off alone (in/alone above: this run's);\nthe measured "
					     "ranges: docs/bench-method.md, \"One rasterizer thread\"; "
					     "--raster-threads 1\ngives truer figures, with slower frames\n",
					p->raster_threads);
			bench_print_work(out, o, p, s, shown);
			free(s);
		}
		fprintf(out, "overhead, %u interleaved pairs (median, spread):\n", p->pairs);
		fprintf(out, "  off      mean %8.2f ms  p50 %8.2f  p95 %8.2f  p99 %8.2f  (%u frames)\n",
			p->off.mean, p->off.p50, p->off.p95, p->off.p99, p->off.frames);
		fprintf(out, "  none     mean %8.2f ms  (the frame with no sources: passes, clears, "
			     "submission)\n",
			p->empty.mean);
		fprintf(out, "  each source costs %.2f us (%.2f .. %.2f) of frame time: (off - none) / "
			     "%.0f\n",
			p->source_cost.median, p->source_cost.min, p->source_cost.max, bench_held(p));
		print_noise(out, p->source_cost.median, p->source_cost.min, p->source_cost.max, p);
		fprintf(out, "  and %.2f us (%.2f .. %.2f) of CPU time, all threads (the work, wherever "
			     "it ran)\n",
			p->source_work.median, p->source_work.min, p->source_work.max);
		fprintf(out, "  CPU      mean %8.2f ms  %+6.2f%% (%+.2f .. %+.2f)\n", p->cpu.mean,
			pct(p->ratio_cpu.median), pct(p->ratio_cpu.min), pct(p->ratio_cpu.max));
		print_noise(out, p->ratio_cpu.median - 1, p->ratio_cpu.min - 1, p->ratio_cpu.max - 1, p);
		fprintf(out, "           CPU time, all threads: %.3f ms a frame against %.3f off, %+.2f%% "
			     "(%+.2f .. %+.2f)\n",
			bench_cpu_per_frame(p, MODE_CPU), bench_cpu_per_frame(p, MODE_OFF),
			pct(p->ratio_cpu_work.median), pct(p->ratio_cpu_work.min),
			pct(p->ratio_cpu_work.max));
		print_noise(out, p->ratio_cpu_work.median - 1, p->ratio_cpu_work.min - 1,
			    p->ratio_cpu_work.max - 1, p);
		fprintf(out, "  CPU+GPU  mean %8.2f ms  %+6.2f%% (%+.2f .. %+.2f), one frame in %u "
			     "GPU-timed (budget %.1f%%)%s%s\n",
			p->gpu.mean, pct(p->ratio_gpu.median), pct(p->ratio_gpu.min),
			pct(p->ratio_gpu.max), p->gpu_every, o->gpu_budget * 100,
			o->work ? ", timing alone" : "",
			p->composed ? ",\n           composed: untimed blocks + (timed block - untimed) / "
				      "N; mean and frames: untimed"
				    : "");
		print_noise(out, p->ratio_gpu.median - 1, p->ratio_gpu.min - 1, p->ratio_gpu.max - 1, p);
		if (o->work) {
			fprintf(out, "  +work    mean %8.2f ms  %+6.2f%% (%+.2f .. %+.2f), CPU+GPU timing and "
				     "work counted in its timed frames:\n           %+.2f points of frame "
				     "time above timing alone (%+.2f .. %+.2f)%s\n",
				p->gpu_work.mean, pct(p->ratio_work.median), pct(p->ratio_work.min),
				pct(p->ratio_work.max), p->work_points.median, p->work_points.min,
				p->work_points.max,
				p->composed ? ",\n           composed: the timed blocks' difference / N "
					      "(untimed frames count nothing)"
					    : "");
			print_noise(out, p->work_points.median / 100, p->work_points.min / 100,
				    p->work_points.max / 100, p);
		}
		if (p->burst_frames && p->after_burst_ms > 0)
			fprintf(out, "  a GPU burst (every frame timed until each source holds %d GPU "
				     "samples): %u frames,\n  %.2f ms a frame against %.2f sampled "
				     "right after it (%+.1f%%)\n",
				SOURCE_PROFILER_BURST_SAMPLES, p->burst_frames, p->burst_ms,
				p->after_burst_ms, pct(p->burst_ms / p->after_burst_ms));
		if (r->replayed)
			fprintf(out, "  the profiler's own cost, its calls for these sources and %u views "
				     "replayed without\n  drawing: %.1f ns per source and frame with CPU "
				     "timing, %.1f with CPU+GPU (every frame)\n",
				o->scene->views, p->prof_cpu_ns, p->prof_gpu_ns);
		else
			fprintf(out, "  the profiler's own cost: not measured (the run was interrupted "
				     "before its replay)\n");
		if (p->changes_work)
			fprintf(out, "  note: on this software device GPU timing changes the driver's "
				     "work (%s,\n  splitting a timed frame into small scenes): the "
				     "CPU+GPU figure measures\n  that; the CPU figure is the profiler's "
				     "own cost.\n",
				p->flushed ? "each timer flushes" : "each end-of-pipe stamp flushes");
		if (p->failures)
			fprintf(out, "  %u validation messages during the run\n", p->failures);
		if (r->n_more)
			print_runs(out, r, i);
	}
	if (r->n_points > 1)
		print_scaling(out, o, r);
	if (o->n_threads > 1 && r->n_points > 1)
		print_thread_sweep(out, o, r);
	fprintf(out, "\n%s; git %s; %.0f s%s\n", r->machine, r->git, r->wall_s,
		r->interrupted ? "; INTERRUPTED, the points finished only" : "");
}

/* The CSV's record, as the demo's files have it: what was measured,
 * where and when, as "# key: value" lines before the header. */
static void csv_record(FILE *f, const bench_opts *o, const bench_result *r)
{
	char started[40], written[40];
	capture_format_time(r->started, started, sizeof started);
	capture_format_time(time(NULL), written, sizeof written);
	fprintf(f, "# srcprof-bench per-source figures\n");
	fprintf(f, "# program: srcprof-bench %s (git %s)\n", SRCPROF_VERSION, r->git);
	fprintf(f, "# scene: %s, %ux%u, %u frames after %u warm-up, %u overhead pairs", o->scene->name,
		o->width, o->height, o->frames, o->warmup, o->repeat);
	if (o->isolate)
		fprintf(f, ", --isolate %u rounds", o->isolate_rounds);
	if (o->work)
		fprintf(f, ", --work (counted over the timed frames)");
	fprintf(f, "\n");
	if (r->n_more)
		fprintf(f, "# runs: %u; these rows are the first's (the JSON holds every run)\n",
			1 + r->n_more);
	fprintf(f, "# machine: %s\n", r->machine);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		char res[24];
		stats_format_us_up(res, sizeof res, p->gpu_resolution);
		fprintf(f, "# point: %s, %u sources: %s (%s)%s, gpu timing %s, resolution %s us", p->api,
			p->sources, p->device, p->driver, p->software ? ", software" : "", p->mode, res);
		if (p->software && p->raster_threads >= 0)
			fprintf(f, ", %d rasterizer threads", p->raster_threads);
		if (p->record_threads > 1 || p->tick_threads_used > 1 || p->n_queues > 1)
			fprintf(f, ", record threads %u (%u used), tick threads %u, queues %u",
				p->record_threads, p->record_threads_used, p->tick_threads_used,
				p->n_queues);
		if (p->machine_busy_pct >= 0)
			fprintf(f, ", other processes %.1f%% of the CPU", p->machine_busy_pct);
		fprintf(f, "\n");
	}
	if (r->interrupted)
		fprintf(f, "# interrupted: %s, %u of %u points finished\n",
			bench_signal_name(r->interrupted), r->n_points, r->planned);
	fprintf(f, "# run started: %s\n# written: %s\n", started, written);
	fprintf(f, "# units: each column name ends in its unit: _us microseconds; _per_frame: "
		   "counts a frame (--work; n/a: not counted by the device, empty: --work off); "
		   "share: a fraction of the frame's GPU time\n");
}

bool bench_write_csv(const char *path, const bench_opts *o, const bench_result *r)
{
	out_file of;
	FILE *f = out_open(&of, path, "w");
	if (!f)
		return false;
	csv_record(f, o, r);
	fputs("api,sources,source,type,gpu_avg_us,gpu_p50_us,gpu_p95_us,gpu_max_us,gpu_samples,"
	      "share,tick_avg_us,render_avg_us,render_sum_us,isolated_us,gpu_timing,cpu_samples,"
	      "record_threads,gpu_by_queue_us",
	      f);
	fprintf(f, "%s\n", bench_csv_work_header);
	for (uint32_t i = 0; i < r->n_points; i++) {
		const bench_point *p = &r->points[i];
		for (uint32_t k = 0; k < p->n_src; k++) {
			const bench_source *b = &p->src[k];
			fprintf(f, "%s,%u,", p->api, p->sources);
			csv_field(f, b->name);
			fprintf(f, ",%s,%.3f,%.3f,%.3f,%.3f,%u,%.5f,%.3f,%.3f,%.3f,", b->type, b->gpu_avg,
				b->gpu_p50, b->gpu_p95, b->gpu_max, b->gpu_samples, b->share, b->tick_avg,
				b->render_avg, b->render_sum);
			if (b->isolated >= 0)
				fprintf(f, "%.3f", b->isolated);
			fprintf(f, ",%s,%u,%u,", p->mode, b->cpu_samples, p->record_threads);
			/* "graphics:812.3;compute:97.1": a field without commas. */
			for (uint32_t q = 0; q < p->n_queues; q++)
				fprintf(f, "%s%s:%.3f", q ? ";" : "", p->queues[q], b->queue_gpu[q]);
			bench_csv_work(f, o, b);
			fputc('\n', f);
		}
	}
	return out_commit(&of);
}
