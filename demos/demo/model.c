/* The scene and the profiler's state as the demo set it, and the figures
 * read from them (model.h). */
#include "model.h"

#include "engine/sources.h"
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool model_init(demo_model *m, eng_engine *e, const model_desc *d)
{
	memset(m, 0, sizeof *m);
	m->engine = e;
	m->scene = d->scene;
	m->started = d->started;
	m->profiler_on = d->profile;
	m->gpu_on = d->profile && d->gpu;
	m->target_fps = d->target_fps ? d->target_fps : 60;
	/* Sized now so that gathering does not allocate while the scene
	 * stays as it is. */
	if (!rows_reserve(&m->rows, &m->rows_cap, eng_source_count(e) + 1))
		return false;
	srcprof_load_start(&m->load_run);
	srcprof_load_start(&m->load_recent);
	m->busy_recent = -1;
	return true;
}

void model_free(demo_model *m)
{
	free(m->rows);
	m->rows = NULL;
	rows_median_cache_free(&m->med);
}

bool model_gpu_timing(const demo_model *m)
{
	return m->profiler_on && m->gpu_on;
}

void model_burst(const demo_model *m)
{
	if (model_gpu_timing(m))
		source_profiler_gpu_burst();
}

void model_meta(const demo_model *m, capture_meta *out)
{
	*out = (capture_meta){
		.scene = m->scene->name,
		.sources = eng_source_count(m->engine),
		.frame = eng_frame_index(m->engine),
		.started = m->started,
		.gpu_on = model_gpu_timing(m),
		.gpu_every = eng_gpu_timed_every(m->engine),
	};
}

void model_record_frame(demo_model *m)
{
	uint64_t ns = eng_frame_time_ns(m->engine);
	m->frame_ms[m->graph_head] = (float)((double)ns / 1e6);
	m->graph_head = (m->graph_head + 1) % MODEL_GRAPH_FRAMES;
}

void model_frame_times(const demo_model *m, float *out, uint32_t n)
{
	n = n < MODEL_GRAPH_FRAMES ? n : MODEL_GRAPH_FRAMES;
	/* The newest n: the ring's last n entries from its head. */
	for (uint32_t i = 0; i < n; i++)
		out[i] = m->frame_ms[(m->graph_head + MODEL_GRAPH_FRAMES - n + i) % MODEL_GRAPH_FRAMES];
}

void model_gather_rows(demo_model *m)
{
	uint32_t n = eng_source_count(m->engine) + 1;
	if (!rows_reserve(&m->rows, &m->rows_cap, n))
		n = m->rows_cap;
	m->med.intervals = true; /* the "sum +-" column */
	rows_refresh_medians(m->engine, &m->med, MODEL_MEDIANS_PER_GATHER);
	m->n_rows = rows_gather(m->engine, m->rows, n, true, &m->med);
	if (m->n_rows > 1)
		rows_sort(m->rows, m->n_rows - 1, m->sort, model_gpu_timing(m));
}

int model_row_index(const demo_model *m, const void *key)
{
	for (uint32_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].key == key)
			return (int)i;
	return -1;
}

double model_busy_recent(demo_model *m)
{
	uint64_t now = srcprof_clock_ns();
	srcprof_load_sample(&m->load_recent);
	if (!m->busy_read_ns || now - m->busy_read_ns >= MODEL_BUSY_EVERY_NS) {
		m->busy_recent = srcprof_load_recent_pct(&m->load_recent);
		m->busy_read_ns = now;
	}
	return m->busy_recent;
}

double model_busy_run(demo_model *m)
{
	return srcprof_load_others_pct(&m->load_run);
}

bool model_busy_text(double pct, bool software, char *buf, size_t size)
{
	if (!(pct > SRCPROF_BUSY_PCT)) {
		if (size)
			buf[0] = '\0';
		return false;
	}
	snprintf(buf, size, "machine busy: other processes used %.0f%% of the CPU; %s", pct,
		 software ? "software-device GPU times are inflated" : "CPU times may be inflated");
	return true;
}

void model_set_profiler(demo_model *m, bool on)
{
	m->profiler_on = on;
	source_profiler_enable(on);
	if (on)
		source_profiler_gpu_enable(m->gpu_on);
}

void model_set_gpu(demo_model *m, bool on)
{
	m->gpu_on = on;
	source_profiler_gpu_enable(on);
}

void model_set_paused(demo_model *m, bool paused)
{
	m->paused = paused;
	eng_set_paused(m->engine, paused);
}

uint32_t model_add_sources(demo_model *m, uint32_t n)
{
	uint32_t done = 0;
	for (; done < n; done++) {
		char name[32];
		snprintf(name, sizeof name, "added-%u", m->added);
		float angle = (float)m->added * 0.7f, r = 2.0f + 0.15f * (float)m->added;
		eng_source *s = eng_mesh_create(&(eng_mesh_desc){
			.name = name,
			.shape = (eng_shape)(m->added % 3),
			.position = {r * cosf(angle), 0.5f, r * sinf(angle)},
			.scale = 0.6f,
			.spin = 1.0f,
		});
		if (!s)
			break;
		eng_add_source(m->engine, s);
		m->added++;
	}
	return done;
}

uint32_t model_remove_sources(demo_model *m, uint32_t n)
{
	uint32_t removed = 0;
	for (uint32_t i = eng_source_count(m->engine); i-- > 0 && removed < n;) {
		eng_source *s = eng_source_at(m->engine, i);
		if (!s->removing) {
			eng_remove_source(m->engine, s);
			removed++;
		}
	}
	return removed;
}

bool model_adjust_scene(demo_model *m, int dir, char *said, size_t size)
{
	return m->scene->adjust && m->scene->adjust(m->engine, dir, said, size);
}

bool model_switch_scene(demo_model *m, const scene_def *s)
{
	for (uint32_t i = 0; i < eng_source_count(m->engine); i++)
		eng_remove_source(m->engine, eng_source_at(m->engine, i));
	m->scene = s;
	m->added = 0;
	eng_set_view_count(m->engine, s->views);
	model_burst(m); /* the new sources' figures from their first second */
	return s->build(m->engine, s->default_sources);
}
