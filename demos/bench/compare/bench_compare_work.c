/* srcprof-bench compare, --work's counts: each source's work a frame
 * compared exactly (the device counts it; the same frames give the same
 * counts), beside the verdict on its GPU time, so that a source whose
 * time moved while its work did not is told from one whose work changed.
 * No statistics and no effect on the exit status: equal, or changed by
 * N%. */
#include "bench_compare.h"
#include "bench_page.h"
#include "srcprof_base/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROG CMP_PROG

const char *const cmp_work_state_names[3] = {"equal", "changed", "not counted"};

double cmp_work_change(const cmp_work_row *w, int c)
{
	double a = w->a->v[c], b = w->b->v[c];
	if (a == b)
		return 0;
	return a > 0 ? (b - a) / a : copysign(INFINITY, b - a);
}

const char *cmp_work_reading(const cmp_work_row *w)
{
	bool time_moved = w->timed && w->time != CMP_SAME;
	switch (w->state) {
	case CMP_WORK_EQUAL:
		return time_moved ? "time changed, work did not" : "neither changed";
	case CMP_WORK_CHANGED:
		return time_moved ? "work changed, and time with it"
				  : "work changed, time not significantly";
	default:
		return time_moved ? "time changed; work not compared" : "work not compared";
	}
}

/* The verdict of `name`'s GPU row (pointer-equal: rows name BASE's
 * sources), if it has one. */
static const cmp_row *gpu_row(const cmp_point *cp, const char *name)
{
	for (uint32_t k = 0; k < cp->n_rows; k++) {
		const cmp_row *row = &cp->rows[k];
		if (row->source == name && (row->figure == CMP_GPU_MARGINAL ||
					    row->figure == CMP_GPU_ALONE || row->figure == CMP_GPU_FRAME))
			return row;
	}
	return NULL;
}

static void judge(cmp_work_row *w)
{
	const brun_work *a = w->a, *b = w->b;
	w->state = CMP_WORK_NOT_COUNTED;
	if (!a->present || !b->present || !a->frames || !b->frames)
		return;
	w->both = a->counted & b->counted;
	if (!w->both)
		return;
	for (int c = 0; c < BRUN_COUNTERS; c++)
		if ((w->both >> c & 1u) && a->v[c] != b->v[c])
			w->changed |= 1u << c;
	w->state = w->changed ? CMP_WORK_CHANGED : CMP_WORK_EQUAL;
}

bool cmp_work_compare(cmp_result *r)
{
	r->work_base = r->base->work;
	r->work_new = r->nw->work;
	for (uint32_t i = 0; i < r->n_points; i++) {
		cmp_point *cp = &r->points[i];
		const brun_point *a = cp->base, *b = cp->nw;
		cp->work = calloc(a->n_src ? a->n_src : 1, sizeof *cp->work);
		bool *used = calloc(b->n_src ? b->n_src : 1, sizeof *used);
		if (!cp->work || !used) {
			free(used);
			fprintf(stderr, PROG ": out of memory comparing work\n");
			return false;
		}
		/* Sources paired as the time rows pair them: by name, in order. */
		for (uint32_t s = 0; s < a->n_src; s++) {
			const brun_source *t = NULL;
			for (uint32_t k = 0; k < b->n_src && !t; k++) {
				if (!used[k] && !strcmp(b->src[k].name, a->src[s].name)) {
					used[k] = true;
					t = &b->src[k];
				}
			}
			if (!t)
				continue;
			cmp_work_row *w = &cp->work[cp->n_work++];
			*w = (cmp_work_row){.source = a->src[s].name, .a = &a->src[s].work, .b = &t->work};
			const cmp_row *g = gpu_row(cp, a->src[s].name);
			if (g) {
				w->timed = true;
				w->time_figure = g->figure;
				w->time = g->verdict;
			}
			judge(w);
			r->work_equal += w->state == CMP_WORK_EQUAL;
			r->work_changed += w->state == CMP_WORK_CHANGED;
			r->work_not_counted += w->state == CMP_WORK_NOT_COUNTED;
		}
		free(used);
	}
	return true;
}

/* Why a row's work was not compared, in a few words. */
static const char *not_counted_why(const cmp_work_row *w)
{
	if (!w->a->present && !w->b->present)
		return "not counted in BASE or NEW";
	if (!w->a->present)
		return "not counted in BASE";
	if (!w->b->present)
		return "not counted in NEW";
	if (!w->a->frames || !w->b->frames)
		return "no frame counted";
	return "n/a on the device";
}

/* "+300.0%", "from 0", "to 0". */
static void change_text(char *buf, size_t size, double ch)
{
	if (isinf(ch))
		snprintf(buf, size, ch > 0 ? "from 0" : "to 0");
	else
		snprintf(buf, size, "%+.1f%%", ch * 100);
}

static int bits(uint32_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

void cmp_print_work(FILE *out, const cmp_result *r, const cmp_point *p)
{
	if (!r->work_base && !r->work_new)
		return;
	fprintf(out, "work (--work: counts a frame, compared exactly: equal, or changed by N%%):\n");
	fprintf(out, "  %-22s %-22s %-26s %s\n", "source", "time (GPU)", "work", "reading");
	for (uint32_t k = 0; k < p->n_work; k++) {
		const cmp_work_row *w = &p->work[k];
		char work[64];
		if (w->state == CMP_WORK_EQUAL)
			snprintf(work, sizeof work, "equal (%d counters)", bits(w->both));
		else if (w->state == CMP_WORK_CHANGED)
			snprintf(work, sizeof work, "changed (%d of %d)", bits(w->changed), bits(w->both));
		else
			snprintf(work, sizeof work, "%s", not_counted_why(w));
		fprintf(out, "  %-22.22s %-22s %-26s %s\n", w->source,
			w->timed ? cmp_verdict_names[w->time] : "not tested", work,
			cmp_work_reading(w));
		for (int c = 0; c < BRUN_COUNTERS; c++) {
			if (!(w->changed >> c & 1u))
				continue;
			char ch[16];
			change_text(ch, sizeof ch, cmp_work_change(w, c));
			fprintf(out, "      %s: %.0f -> %.0f a frame (%s)\n", brun_work_names[c],
				w->a->v[c], w->b->v[c], ch);
		}
	}
}

void cmp_json_work(json_w *jw, const cmp_result *r, const cmp_point *p)
{
	if (!r->work_base && !r->work_new) {
		json_w_null(jw, "work");
		return;
	}
	json_w_array(jw, "work");
	for (uint32_t k = 0; k < p->n_work; k++) {
		const cmp_work_row *w = &p->work[k];
		json_w_break(jw, 6);
		json_w_object(jw, NULL);
		json_w_string(jw, "source", w->source);
		if (w->timed) {
			json_w_string(jw, "time_verdict", cmp_verdict_names[w->time]);
			json_w_string(jw, "time_figure", cmp_figure_keys[w->time_figure]);
		} else {
			json_w_null(jw, "time_verdict");
		}
		json_w_string(jw, "work", cmp_work_state_names[w->state]);
		json_w_string(jw, "reading", cmp_work_reading(w));
		if (w->state == CMP_WORK_NOT_COUNTED)
			json_w_string(jw, "why", not_counted_why(w));
		json_w_uint(jw, "base_frames", w->a->frames);
		json_w_uint(jw, "new_frames", w->b->frames);
		json_w_object(jw, "counters");
		for (int c = 0; c < BRUN_COUNTERS; c++) {
			bool ca = w->a->present && (w->a->counted >> c & 1u),
			     cb = w->b->present && (w->b->counted >> c & 1u);
			json_w_object(jw, brun_work_keys[c]);
			json_w_number(jw, "base", "%.0f", ca ? w->a->v[c] : NAN);
			json_w_number(jw, "new", "%.0f", cb ? w->b->v[c] : NAN);
			/* From 0: null, as the time rows' unbounded changes. */
			double ch = ca && cb ? cmp_work_change(w, c) : NAN;
			json_w_number(jw, "change_pct", "%.4f", ch * 100);
			json_w_end(jw);
		}
		json_w_end(jw);
		json_w_end(jw);
	}
	json_w_end(jw);
}

void cmp_html_work(FILE *f, const cmp_result *r, const cmp_point *p)
{
	if (!r->work_base && !r->work_new)
		return;
	fputs("<div class=\"scroll\"><table class=\"sortable work\">\n<thead><tr><th class=\"t\">"
	      "source</th><th class=\"t\">time (GPU)</th><th class=\"t\" data-default=\"desc\">"
	      "work</th><th class=\"t\">reading</th><th class=\"t\">counters changed</th></tr>"
	      "</thead>\n<tbody>\n",
	      f);
	for (uint32_t k = 0; k < p->n_work; k++) {
		const cmp_work_row *w = &p->work[k];
		fputs("<tr><td class=\"t\">", f);
		page_text(f, w->source);
		fprintf(f, "</td><td class=\"t\">%s</td><td class=\"t\">%s</td><td class=\"t\">",
			w->timed ? cmp_verdict_names[w->time] : "not tested",
			w->state == CMP_WORK_NOT_COUNTED ? not_counted_why(w)
							 : cmp_work_state_names[w->state]);
		page_text(f, cmp_work_reading(w));
		fputs("</td><td class=\"t\">", f);
		for (int c = 0, n = 0; c < BRUN_COUNTERS; c++) {
			if (!(w->changed >> c & 1u))
				continue;
			char ch[16];
			change_text(ch, sizeof ch, cmp_work_change(w, c));
			fprintf(f, "%s%s %.0f &rarr; %.0f (%s)", n++ ? "; " : "", brun_work_names[c],
				w->a->v[c], w->b->v[c], ch);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p>Work (--work): each source's counts a frame, compared "
	      "exactly; a change of work is no statistical verdict and does not set the exit "
	      "status.</p>\n",
	      f);
}
