/* srcprof-bench --work: each source's GPU work per frame (the device's
 * pipeline statistics over the point's timed frames, exact) in the JSON,
 * the CSV, the text report and the page. A counter the device does not
 * count is n/a (JSON null), never 0. */
#include "bench.h"
#include "bench_page.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The JSON keys and CSV columns, in source_profiler_counter's order. */
static const char *const g_keys[SOURCE_PROFILER_COUNTERS] = {
	"vertices", "primitives", "vs_invocations", "clip_in", "clip_out", "fs_invocations",
	"cs_invocations"};
_Static_assert(SOURCE_PROFILER_COUNTERS == 7, "a key per counter");

const char bench_csv_work_header[] =
	",work_frames,vertices_per_frame,primitives_per_frame,vs_invocations_per_frame,"
	"clip_in_per_frame,clip_out_per_frame,fs_invocations_per_frame,cs_invocations_per_frame";

static bool counted(const bench_source *b, int c)
{
	return b->work_frames && (b->work_counted >> c & 1u);
}

void bench_json_work(json_w *w, const bench_opts *o, const bench_source *b)
{
	if (!o->work)
		return;
	json_w_object(w, "work");
	json_w_uint(w, "frames", b->work_frames);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		if (counted(b, c))
			json_w_uint(w, g_keys[c], b->work[c]);
		else
			json_w_null(w, g_keys[c]);
	}
	json_w_end(w);
}

void bench_csv_work(FILE *f, const bench_opts *o, const bench_source *b)
{
	if (!o->work) {
		fputs(",,,,,,,,", f);
		return;
	}
	fprintf(f, ",%u", b->work_frames);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		if (counted(b, c))
			fprintf(f, ",%llu", (unsigned long long)b->work[c]);
		else
			fputs(",n/a", f);
	}
}

/* Counter c of b per us of its GPU time; NAN where either is unknown (not
 * counted, no GPU time, or a time under the timers' resolution). */
static double per_us(const bench_point *p, const bench_source *b, int c)
{
	bool timed = b->gpu_avg > 0 && !(p->gpu_resolution > 0 && b->gpu_avg < p->gpu_resolution);
	return counted(b, c) && timed ? (double)b->work[c] / b->gpu_avg : NAN;
}

static void count_cell(FILE *out, const bench_source *b, int c)
{
	if (counted(b, c))
		fprintf(out, " %11llu", (unsigned long long)b->work[c]);
	else
		fprintf(out, " %11s", "n/a");
}

static void rate_cell(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, " %8.1f", v);
	else
		fprintf(out, " %8s", "-");
}

void bench_print_work(FILE *out, const bench_opts *o, const bench_point *p,
		      const bench_source *s, uint32_t shown)
{
	if (!o->work)
		return;
	uint32_t any = 0;
	for (uint32_t k = 0; k < p->n_src; k++)
		any |= s[k].work_frames ? s[k].work_counted : 0;
	fprintf(out, "work per frame (--work: the device's counts over the timed frames, exact):\n");
	if (!any) {
		fprintf(out, "  n/a: %s counted no work (no pipeline statistics queries on the "
			     "device, or no GPU-timed frame)\n",
			p->api);
		return;
	}
	fprintf(out, "%-22s %6s %11s %11s %11s %11s %11s %11s %11s %8s %8s %8s\n", "source",
		"frames", "vertices", "primitives", "VS inv", "clip in", "clip out", "FS inv",
		"CS inv", "VS/us", "FS/us", "CS/us");
	for (uint32_t k = 0; k < shown; k++) {
		const bench_source *b = &s[k];
		fprintf(out, "%-22.22s %6u", b->name, b->work_frames);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			count_cell(out, b, c);
		rate_cell(out, per_us(p, b, SOURCE_PROFILER_VS_INVOCATIONS));
		rate_cell(out, per_us(p, b, SOURCE_PROFILER_FS_INVOCATIONS));
		rate_cell(out, per_us(p, b, SOURCE_PROFILER_CS_INVOCATIONS));
		fputc('\n', out);
	}
	if (p->n_src > shown)
		fprintf(out, "... %u more sources (all in --json and --csv)\n", p->n_src - shown);
	fprintf(out, "counts per frame, all the source's renders, averaged over its counted frames "
		     "(n/a: not counted\nby this device); VS/us, FS/us, CS/us: shader invocations "
		     "per us of its GPU time (-: not\ncounted, or no GPU time above the "
		     "resolution)\n");
}

void bench_html_work(FILE *f, const bench_opts *o, const bench_point *p)
{
	if (!o->work)
		return;
	fprintf(f, "<div class=\"scroll\"><table class=\"sortable work\" data-api=\"%s\" "
		   "data-sources=\"%u\">\n<thead><tr><th class=\"t\">source</th><th>frames</th>"
		   "<th>vertices</th><th>primitives</th><th>VS inv</th><th>clip in</th>"
		   "<th>clip out</th><th data-default=\"desc\">FS inv</th><th>CS inv</th>"
		   "<th>VS/us</th><th>FS/us</th><th>CS/us</th></tr></thead>\n<tbody>\n",
		p->api, p->sources);
	for (uint32_t k = 0; k < p->n_src; k++) {
		const bench_source *b = &p->src[k];
		fputs("<tr><td class=\"t\">", f);
		page_text(f, b->name);
		fputs("</td>", f);
		page_num(f, "%.0f", b->work_frames);
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			page_num(f, "%.0f", counted(b, c) ? (double)b->work[c] : NAN);
		page_num(f, "%.1f", per_us(p, b, SOURCE_PROFILER_VS_INVOCATIONS));
		page_num(f, "%.1f", per_us(p, b, SOURCE_PROFILER_FS_INVOCATIONS));
		page_num(f, "%.1f", per_us(p, b, SOURCE_PROFILER_CS_INVOCATIONS));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p>Work per frame (--work): the device's counts of each "
	      "source's renders over the timed frames, exact; \"-\": not counted by this device. "
	      "VS/us, FS/us, CS/us: shader invocations per us of the source's GPU time.</p>\n",
	      f);
}
