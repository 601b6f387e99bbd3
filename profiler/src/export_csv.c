/* CSV snapshots of every source's results. */
#include "srcprof/export.h"

#include "sp_gpu.h"
#include "sp_profiler.h"
#include "srcprof/gpu_timer.h"

#include <errno.h>
#include <string.h>

static void put_field(FILE *f, const char *s)
{
	/* A name starting with '#' is quoted too: a row that begins with it
	 * would read as a comment line (grep -v '^#'). */
	if (!strpbrk(s, ",\"\n\r") && s[0] != '#') {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
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
	put_field(c->f, name);
	fprintf(c->f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%llu,%llu,%.3f,%llu,%llu,",
		(unsigned long long)r.tick_avg, (unsigned long long)r.tick_max,
		(unsigned long long)r.render_avg, (unsigned long long)r.render_max,
		(unsigned long long)r.render_sum, (unsigned long long)r.render_gpu_avg,
		(unsigned long long)r.render_gpu_max, (unsigned long long)r.render_gpu_sum,
		r.async_input, (unsigned long long)r.async_input_best,
		(unsigned long long)r.async_input_worst, r.async_rendered,
		(unsigned long long)r.async_rendered_best, (unsigned long long)r.async_rendered_worst);
	put_field(c->f, c->mode);
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
	put_field(c->f, queues);
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
	      "gpu_sum_by_queue_ns\n",
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
	for (size_t i = 0; i < n && i < SOURCE_PROFILER_MAX_SOURCE_PASSES; i++) {
		const char *pass = source_profiler_pass_name(pr[i].pass);
		put_field(c->f, name);
		fputc(',', c->f);
		put_field(c->f, pass ? pass : "default");
		fprintf(c->f, ",%llu,%llu,%llu,%llu,", (unsigned long long)pr[i].render_avg,
			(unsigned long long)pr[i].render_max, (unsigned long long)pr[i].render_gpu_avg,
			(unsigned long long)pr[i].render_gpu_max);
		put_field(c->f, c->mode);
		fputc(',', c->f);
		const char *qn = source_profiler_queue_name(queue[i]);
		put_field(c->f, qn ? qn : "");
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
	      "gpu_mode,queue\n",
	      f);
	source_profiler_enum_sources(pass_rows, &c);
	fflush(f);
	return ferror(f) ? -1 : c.rows;
}
