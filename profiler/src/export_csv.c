/* CSV snapshots of every source's results. */
#include "srcprof/export.h"

#include "sp_gpu.h"
#include "sp_profiler.h"
#include "sp_work.h"
#include "srcprof/gpu_timer.h"
#include "srcprof_base/csv.h"

#include <errno.h>
#include <string.h>

/* The work columns' names: counted frames, then each counter's average
 * per frame. */
#define WORK_HEADER                                                                           \
	"work_frames,input_vertices_per_frame,input_primitives_per_frame,"                    \
	"vs_invocations_per_frame,clipping_invocations_per_frame,"                            \
	"clipping_primitives_per_frame,fs_invocations_per_frame,cs_invocations_per_frame"

/* ",frames,avg,..." for a source or pass with counts; a counter the
 * device cannot count reads n/a. Without counts: 0 frames and n/a while
 * work counting is on (nothing counted it: GPU timing off, no device
 * that counts, nested renders), empty fields while it is off. */
static void put_work(FILE *f, const source_profiler_work_t *w)
{
	if (!w) {
		fputs(sp_work_wanted() ? ",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a" : ",,,,,,,,", f);
		return;
	}
	fprintf(f, ",%u", w->samples);
	for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (w->counted & (1u << c))
			fprintf(f, ",%llu", (unsigned long long)w->avg[c]);
		else
			fputs(",n/a", f);
}

typedef struct csv_ctx {
	FILE *f;
	int rows;
	const char *mode;
	unsigned long long resolution;
} csv_ctx;

static void result_row(const void *source, const char *name, void *user)
{
	csv_ctx *c = user;
	profiler_result_t r;
	if (!source_profiler_fill_result(source, &r))
		return;
	csv_field(c->f, name);
	fprintf(c->f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%llu,%llu,%.3f,%llu,%llu,",
		(unsigned long long)r.tick_avg, (unsigned long long)r.tick_max,
		(unsigned long long)r.render_avg, (unsigned long long)r.render_max,
		(unsigned long long)r.render_sum, (unsigned long long)r.render_gpu_avg,
		(unsigned long long)r.render_gpu_max, (unsigned long long)r.render_gpu_sum,
		r.async_input, (unsigned long long)r.async_input_best,
		(unsigned long long)r.async_input_worst, r.async_rendered,
		(unsigned long long)r.async_rendered_best, (unsigned long long)r.async_rendered_worst);
	csv_field(c->f, c->mode);
	source_profiler_medians_t m = {0};
	source_profiler_fill_medians(source, &m);
	source_profiler_intervals_t iv = {0};
	source_profiler_fill_intervals(source, &iv);
	fprintf(c->f, ",%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,", m.cpu_samples,
		m.gpu_samples, (unsigned long long)m.tick_p50, (unsigned long long)m.render_p50,
		(unsigned long long)m.render_sum_p50, (unsigned long long)m.render_gpu_p50,
		(unsigned long long)m.render_gpu_sum_p50, c->resolution,
		(unsigned long long)iv.render_sum_ci95, (unsigned long long)iv.render_gpu_sum_ci95);
	/* Its GPU sum on each queue: "graphics:5839000;compute:864800". */
	source_profiler_queue_result_t q[SOURCE_PROFILER_MAX_QUEUES];
	size_t nq = source_profiler_fill_queue_results(source, q, SOURCE_PROFILER_MAX_QUEUES);
	char queues[SOURCE_PROFILER_MAX_QUEUES * 56] = "";
	size_t len = 0;
	for (size_t i = 0; i < nq && i < SOURCE_PROFILER_MAX_QUEUES; i++) {
		const char *qn = source_profiler_queue_name(q[i].queue);
		int w = snprintf(queues + len, sizeof queues - len, "%s%s:%llu", i ? ";" : "",
				 qn ? qn : "?", (unsigned long long)q[i].render_gpu_sum);
		if (w < 0 || (size_t)w >= sizeof queues - len)
			break;
		len += (size_t)w;
	}
	csv_field(c->f, queues);
	source_profiler_work_t w;
	put_work(c->f, source_profiler_fill_work(source, &w) ? &w : NULL);
	fputc('\n', c->f);
	c->rows++;
}

int source_profiler_write_csv(FILE *f)
{
	if (!f) {
		errno = EINVAL;
		return -1;
	}
	csv_ctx c = {f, 0, sp_gpu_live() ? sp_gpu_mode() : "off",
		     sp_gpu_live() ? (unsigned long long)sp_gpu_resolution() : 0};
	fputs("source,tick_avg_ns,tick_max_ns,render_avg_ns,render_max_ns,render_sum_ns,"
	      "render_gpu_avg_ns,render_gpu_max_ns,render_gpu_sum_ns,async_input_fps,"
	      "async_input_best_ns,async_input_worst_ns,async_rendered_fps,"
	      "async_rendered_best_ns,async_rendered_worst_ns,gpu_mode,cpu_samples,gpu_samples,"
	      "tick_p50_ns,render_p50_ns,render_sum_p50_ns,render_gpu_p50_ns,"
	      "render_gpu_sum_p50_ns,gpu_resolution_ns,render_sum_ci95_ns,render_gpu_sum_ci95_ns,"
	      "gpu_sum_by_queue_ns," WORK_HEADER "\n",
	      f);
	source_profiler_enum_sources(result_row, &c);
	fflush(f);
	return ferror(f) ? -1 : c.rows;
}

static void pass_rows(const void *source, const char *name, void *user)
{
	csv_ctx *c = user;
	source_profiler_pass_result_t pr[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	uint32_t queue[SOURCE_PROFILER_MAX_SOURCE_PASSES] = {0};
	size_t n = source_profiler_fill_pass_results(source, pr, SOURCE_PROFILER_MAX_SOURCE_PASSES);
	source_profiler_fill_pass_queues(source, queue, SOURCE_PROFILER_MAX_SOURCE_PASSES);
	source_profiler_work_t w[SOURCE_PROFILER_MAX_SOURCE_PASSES];
	size_t nw = source_profiler_fill_pass_work(source, w, SOURCE_PROFILER_MAX_SOURCE_PASSES);
	for (size_t i = 0; i < n && i < SOURCE_PROFILER_MAX_SOURCE_PASSES; i++) {
		const char *pass = source_profiler_pass_name(pr[i].pass);
		csv_field(c->f, name);
		fputc(',', c->f);
		csv_field(c->f, pass ? pass : "default");
		fprintf(c->f, ",%llu,%llu,%llu,%llu,", (unsigned long long)pr[i].render_avg,
			(unsigned long long)pr[i].render_max, (unsigned long long)pr[i].render_gpu_avg,
			(unsigned long long)pr[i].render_gpu_max);
		csv_field(c->f, c->mode);
		fputc(',', c->f);
		const char *qn = source_profiler_queue_name(queue[i]);
		csv_field(c->f, qn ? qn : "");
		put_work(c->f, i < nw ? &w[i] : NULL);
		fputc('\n', c->f);
		c->rows++;
	}
}

int source_profiler_write_pass_csv(FILE *f)
{
	if (!f) {
		errno = EINVAL;
		return -1;
	}
	csv_ctx c = {f, 0, sp_gpu_live() ? sp_gpu_mode() : "off",
		     sp_gpu_live() ? (unsigned long long)sp_gpu_resolution() : 0};
	fputs("source,pass,render_avg_ns,render_max_ns,render_gpu_avg_ns,render_gpu_max_ns,"
	      "gpu_mode,queue," WORK_HEADER "\n",
	      f);
	source_profiler_enum_sources(pass_rows, &c);
	fflush(f);
	return ferror(f) ? -1 : c.rows;
}
