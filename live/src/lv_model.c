/* Snapshots, history and the sampler thread (lv_model.h). */
#include "lv_model.h"
#include "lv_map.h"

#include "srcprof/gpu_timer.h"
#include "srcprof/live.h"
#include "srcprof/machine.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A deadline `ms` from now for pthread_cond_timedwait (CLOCK_MONOTONIC:
 * the conditions are made with it). */
static struct timespec deadline_in(uint64_t ns)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t t = (uint64_t)ts.tv_nsec + ns % 1000000000ull;
	ts.tv_sec += (time_t)(ns / 1000000000ull + t / 1000000000ull);
	ts.tv_nsec = (long)(t % 1000000000ull);
	return ts;
}

/* --- Snapshots ----------------------------------------------------------- */

typedef struct gather {
	lv_row *rows;
	uint32_t n, cap;
	bool oom;
} gather;

static void on_source(const void *source, const char *name, void *user)
{
	gather *g = user;
	if (g->oom)
		return;
	if (g->n == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 64;
		lv_row *r = realloc(g->rows, (size_t)cap * sizeof *r);
		if (!r) {
			g->oom = true;
			return;
		}
		g->rows = r;
		g->cap = cap;
	}
	lv_row *row = &g->rows[g->n++];
	memset(row, 0, sizeof *row);
	row->key = source;
	snprintf(row->name, sizeof row->name, "%s", name ? name : "");
}

/* The row's work, where a frame of it was counted; false when out of
 * memory. */
static bool fill_work(lv_row *row)
{
	source_profiler_work_t total;
	if (!source_profiler_fill_work(row->key, &total))
		return true;
	row->work = malloc(sizeof *row->work);
	if (!row->work)
		return false;
	row->work->total = total;
	size_t n = source_profiler_fill_pass_work(row->key, row->work->pass,
						  SOURCE_PROFILER_MAX_SOURCE_PASSES);
	row->work->n_pass = (uint32_t)(n < SOURCE_PROFILER_MAX_SOURCE_PASSES ? n
								       : SOURCE_PROFILER_MAX_SOURCE_PASSES);
	return true;
}

/* False when out of memory. */
static bool fill_row(lv_row *row)
{
	srcprof_live_get_source_type(row->key, row->type, sizeof row->type);
	row->have = source_profiler_fill_result(row->key, &row->r);
	if (!row->have)
		return true;
	const profiler_result_t *r = &row->r;
	row->async = r->async_input > 0 || r->async_rendered > 0 || r->async_input_best ||
		     r->async_rendered_best;
	source_profiler_get_sample_counts(row->key, &row->cpu_n, &row->gpu_n);
	row->have_med = source_profiler_fill_medians(row->key, &row->m);
	row->have_ci = source_profiler_fill_intervals(row->key, &row->iv);
	size_t n = source_profiler_fill_pass_results(row->key, row->pass,
						     SOURCE_PROFILER_MAX_SOURCE_PASSES);
	row->n_pass = (uint32_t)(n < SOURCE_PROFILER_MAX_SOURCE_PASSES ? n
								 : SOURCE_PROFILER_MAX_SOURCE_PASSES);
	/* Two calls, each consistent in itself: a pass added in between is
	 * one more than the pass results hold, and is left out. */
	source_profiler_fill_pass_queues(row->key, row->pass_queue, row->n_pass);
	n = source_profiler_fill_queue_results(row->key, row->queue, SOURCE_PROFILER_MAX_QUEUES);
	row->n_queue = (uint32_t)(n < SOURCE_PROFILER_MAX_QUEUES ? n : SOURCE_PROFILER_MAX_QUEUES);
	return fill_work(row);
}

static void free_rows(lv_row *rows, uint32_t n)
{
	for (uint32_t i = 0; rows && i < n; i++)
		free(rows[i].work);
	free(rows);
}

/* The table's default order, as the demo's: GPU p50 (the median frame's
 * GPU sum), then GPU sum, rend p50, rend sum; sources without figures
 * last; then by name. */
static int row_order(const void *pa, const void *pb)
{
	const lv_row *a = pa, *b = pb;
	if (a->have != b->have)
		return a->have ? -1 : 1;
	uint64_t ka[4] = {a->have_med ? a->m.render_gpu_sum_p50 : 0, a->r.render_gpu_sum,
			  a->have_med ? a->m.render_sum_p50 : 0, a->r.render_sum};
	uint64_t kb[4] = {b->have_med ? b->m.render_gpu_sum_p50 : 0, b->r.render_gpu_sum,
			  b->have_med ? b->m.render_sum_p50 : 0, b->r.render_sum};
	for (int i = 0; i < 4; i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i] ? -1 : 1;
	return strcmp(a->name, b->name);
}

void lv_snapshot_release(lv_snapshot *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	free_rows(s->rows, s->n_rows);
	free(s->json);
	pthread_mutex_destroy(&s->json_lock);
	free(s);
}

static lv_snapshot *snapshot_ref(lv_snapshot *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

/* Reads the profiler into a new snapshot (no lock of the model held). */
static lv_snapshot *take(lv_model *m)
{
	uint64_t t0 = mono_ns();
	lv_snapshot *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	atomic_init(&s->refs, 1);
	s->info = &m->info;
	pthread_mutex_init(&s->json_lock, NULL);
	gather g = {0};
	source_profiler_enum_sources(on_source, &g);
	if (g.oom) {
		free(g.rows);
		pthread_mutex_destroy(&s->json_lock);
		free(s);
		return NULL;
	}
	for (uint32_t i = 0; i < g.n && !g.oom; i++)
		g.oom = !fill_row(&g.rows[i]);
	if (g.oom) {
		free_rows(g.rows, g.n);
		pthread_mutex_destroy(&s->json_lock);
		free(s);
		return NULL;
	}
	if (g.n)
		qsort(g.rows, g.n, sizeof *g.rows, row_order);
	s->rows = g.rows;
	s->n_rows = g.n;
	source_profiler_get_stats(&s->st);
	snprintf(s->gpu_mode, sizeof s->gpu_mode, "%s", s->st.gpu_mode ? s->st.gpu_mode : "none");
	s->st.gpu_mode = NULL; /* the copy is what the writers use */
	source_profiler_get_sampling(&s->sm);
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++) {
		const char *name = source_profiler_queue_name(q);
		snprintf(s->queue_names[q], LV_QUEUE_NAME_MAX, "%s", name ? name : "");
	}
	s->frames_in_flight = source_profiler_frames_in_flight();
	s->work_enabled = source_profiler_work_enabled();
	s->have_frame_work = source_profiler_frame_work(&s->frame_work);
	for (uint32_t p = 0; p < SOURCE_PROFILER_MAX_PASSES; p++) {
		const char *name = source_profiler_pass_name(p);
		snprintf(s->pass_names[p], LV_PASS_NAME_MAX, "%s", name ? name : "");
	}
	srcprof_load_meter *load = m->load;
	srcprof_load_sample(load);
	s->others_pct = srcprof_load_recent_pct(load);
	s->mono_ns = mono_ns();
	s->wall_ms = wall_ms();
	s->cost_ns = s->mono_ns - t0;
	return s;
}

/* --- History --------------------------------------------------------------- */

static void free_track(lv_model *m, lv_track *t)
{
	if (t->gpu)
		m->with_history--;
	free(t->gpu);
	free(t->cpu);
}

typedef struct present_ctx {
	const lv_map *map;
} present_ctx;

static bool is_present(const void *source, void *user)
{
	uint32_t i;
	return lv_map_get(((present_ctx *)user)->map, source, &i);
}

/* Gives each row its track (reusing the one of the same key and name),
 * frees the tracks of sources gone and writes the snapshot's slot of the
 * history. Under m->lock. */
static void record(lv_model *m, lv_snapshot *s)
{
	lv_map old = {0};
	bool indexed = true;
	for (uint32_t i = 0; i < m->n_tracks && indexed; i++)
		indexed = lv_map_put(&old, m->tracks[i].key, i);
	lv_track *tracks = calloc(s->n_rows ? s->n_rows : 1, sizeof *tracks);
	if (!tracks || !indexed) {
		/* Out of memory: no ids change, no history is written. */
		free(tracks);
		lv_map_free(&old);
		return;
	}
	uint32_t slot = (uint32_t)(s->seq % LV_HISTORY);
	lv_map now = {0};
	for (uint32_t r = 0; r < s->n_rows; r++) {
		lv_row *row = &s->rows[r];
		lv_track *t = &tracks[r];
		uint32_t i;
		if (lv_map_get(&old, row->key, &i) && m->tracks[i].key &&
		    strcmp(m->tracks[i].name, row->name) == 0) {
			*t = m->tracks[i];
			m->tracks[i].key = NULL; /* moved */
		} else {
			*t = (lv_track){.key = row->key, .id = ++m->next_id, .first_seq = s->seq};
			snprintf(t->name, sizeof t->name, "%s", row->name);
			if (m->with_history < LV_HISTORY_SOURCES) {
				t->gpu = malloc(LV_HISTORY * sizeof *t->gpu);
				t->cpu = malloc(LV_HISTORY * sizeof *t->cpu);
				if (t->gpu && t->cpu) {
					m->with_history++;
				} else {
					free(t->gpu);
					free(t->cpu);
					t->gpu = t->cpu = NULL;
				}
			}
		}
		row->id = t->id;
		lv_map_put(&now, row->key, r); /* out of memory: only pruning suffers */
		if (t->gpu) {
			bool gpu = row->have && row->gpu_n && s->st.gpu_enabled;
			t->gpu[slot] = gpu ? (float)(row->r.render_gpu_sum / 1e3) : NAN;
			t->cpu[slot] = row->have ? (float)(row->r.render_sum / 1e3) : NAN;
		}
	}
	for (uint32_t i = 0; i < m->n_tracks; i++)
		if (m->tracks[i].key)
			free_track(m, &m->tracks[i]);
	free(m->tracks);
	m->tracks = tracks;
	m->n_tracks = m->cap_tracks = s->n_rows;
	m->hist_wall_ms[slot] = s->wall_ms;
	m->hist_frame_ms[slot] = s->frame_mean_ns > 0 ? (float)(s->frame_mean_ns / 1e6) : NAN;
	lv_map_free(&old);
	if (now.count == s->n_rows)
		lv_types_prune(is_present, &(present_ctx){&now});
	lv_map_free(&now);
}

/* Takes a snapshot unless one newer than `max_age_ns` was published while
 * waiting for the sample lock (0: always), and publishes it. */
static void sample(lv_model *m, uint64_t max_age_ns)
{
	pthread_mutex_lock(&m->sample_lock);
	if (max_age_ns) {
		pthread_mutex_lock(&m->lock);
		bool fresh = m->current && mono_ns() - m->current->mono_ns < max_age_ns;
		pthread_mutex_unlock(&m->lock);
		if (fresh) {
			pthread_mutex_unlock(&m->sample_lock);
			return;
		}
	}
	lv_snapshot *s = take(m);
	if (!s) {
		pthread_mutex_unlock(&m->sample_lock);
		return;
	}
	pthread_mutex_lock(&m->lock);
	s->seq = ++m->seq;
	/* Frames collected since the last snapshot that saw some (a slow
	 * frame spans several snapshots), over the time between them. */
	bool advanced = s->st.frames_collected > m->prev_frames;
	if (s->st.enabled && m->prev_enabled && advanced && s->mono_ns > m->prev_mono_ns)
		s->frame_mean_ns = (double)(s->mono_ns - m->prev_mono_ns) /
				   (double)(s->st.frames_collected - m->prev_frames);
	if (advanced || s->st.frames_collected < m->prev_frames || s->st.enabled != m->prev_enabled) {
		m->prev_frames = s->st.frames_collected;
		m->prev_mono_ns = s->mono_ns;
		m->prev_enabled = s->st.enabled;
	}
	record(m, s);
	lv_snapshot *old = m->current;
	m->current = s;
	pthread_cond_broadcast(&m->changed);
	pthread_mutex_unlock(&m->lock);
	lv_snapshot_release(old);
	pthread_mutex_unlock(&m->sample_lock);
}

static void *sampler(void *arg)
{
	lv_model *m = arg;
	/* Numbers in the answers are written with '.' whatever the program's
	 * locale. */
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c)
		uselocale(c);
	pthread_mutex_lock(&m->lock);
	while (!m->stopping) {
		uint64_t now = mono_ns();
		bool watched = m->streams > 0 || (m->last_request_ns &&
						   now - m->last_request_ns < LV_WATCH_NS);
		uint64_t period = (uint64_t)(watched ? m->update_ms
						     : (m->update_ms > LV_IDLE_MS ? m->update_ms
										 : LV_IDLE_MS)) *
				  1000000ull;
		uint64_t cost = m->current ? m->current->cost_ns : 0;
		if (period < 20 * cost)
			period = 20 * cost;
		uint64_t due = m->current ? m->current->mono_ns + period : now;
		if (now < due) {
			struct timespec ts = deadline_in(due - now);
			pthread_cond_timedwait(&m->wake, &m->lock, &ts);
			continue;
		}
		pthread_mutex_unlock(&m->lock);
		sample(m, 0);
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	if (c) {
		uselocale(LC_GLOBAL_LOCALE);
		freelocale(c);
	}
	return NULL;
}

bool lv_model_start(lv_model *m, const lv_info *info, uint32_t update_ms)
{
	memset(m, 0, sizeof *m);
	m->info = *info;
	m->update_ms = update_ms;
	m->load = calloc(1, sizeof(srcprof_load_meter));
	if (!m->load)
		return false;
	srcprof_load_start(m->load);
	for (int i = 0; i < LV_HISTORY; i++)
		m->hist_frame_ms[i] = NAN;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->sample_lock, NULL);
	pthread_cond_init(&m->changed, &ca);
	pthread_cond_init(&m->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* The first snapshot before anyone asks: the history starts now. */
	sample(m, 0);
	if (pthread_create(&m->thread, NULL, sampler, m) != 0) {
		lv_model_free(m);
		return false;
	}
	m->running = true;
	return true;
}

void lv_model_stop(lv_model *m)
{
	pthread_mutex_lock(&m->lock);
	m->stopping = true;
	pthread_cond_broadcast(&m->wake);
	pthread_cond_broadcast(&m->changed);
	pthread_mutex_unlock(&m->lock);
	if (m->running)
		pthread_join(m->thread, NULL);
	m->running = false;
}

void lv_model_free(lv_model *m)
{
	lv_snapshot_release(m->current);
	m->current = NULL;
	for (uint32_t i = 0; i < m->n_tracks; i++)
		if (m->tracks[i].key)
			free_track(m, &m->tracks[i]);
	free(m->tracks);
	m->tracks = NULL;
	m->n_tracks = 0;
	free(m->load);
	m->load = NULL;
	pthread_cond_destroy(&m->changed);
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->sample_lock);
	pthread_mutex_destroy(&m->lock);
}

lv_snapshot *lv_model_fresh(lv_model *m)
{
	uint64_t period = (uint64_t)m->update_ms * 1000000ull;
	pthread_mutex_lock(&m->lock);
	uint64_t now = mono_ns();
	bool was_watched = m->last_request_ns && now - m->last_request_ns < LV_WATCH_NS;
	m->last_request_ns = now;
	if (!was_watched)
		pthread_cond_signal(&m->wake); /* to the update period */
	bool fresh = m->current && now - m->current->mono_ns < period;
	bool stopping = m->stopping;
	pthread_mutex_unlock(&m->lock);
	if (!fresh && !stopping)
		sample(m, period);
	pthread_mutex_lock(&m->lock);
	lv_snapshot *s = snapshot_ref(m->current);
	pthread_mutex_unlock(&m->lock);
	return s;
}

lv_snapshot *lv_model_wait(lv_model *m, uint64_t after_seq, uint32_t timeout_ms, bool *stopping)
{
	struct timespec ts = deadline_in((uint64_t)timeout_ms * 1000000ull);
	pthread_mutex_lock(&m->lock);
	while (!m->stopping && (!m->current || m->current->seq <= after_seq))
		if (pthread_cond_timedwait(&m->changed, &m->lock, &ts) == ETIMEDOUT)
			break;
	*stopping = m->stopping;
	lv_snapshot *s = NULL;
	if (!m->stopping && m->current && m->current->seq > after_seq)
		s = snapshot_ref(m->current);
	pthread_mutex_unlock(&m->lock);
	return s;
}

void lv_model_stream(lv_model *m, bool open)
{
	pthread_mutex_lock(&m->lock);
	if (open)
		m->streams++;
	else if (m->streams)
		m->streams--;
	pthread_cond_signal(&m->wake);
	pthread_mutex_unlock(&m->lock);
}

uint32_t lv_model_streams(lv_model *m)
{
	pthread_mutex_lock(&m->lock);
	uint32_t n = m->streams;
	pthread_mutex_unlock(&m->lock);
	return n;
}

const lv_info *lv_model_info(const lv_model *m)
{
	return &m->info;
}

void lv_model_write_history(lv_model *m, lv_buf *b)
{
	pthread_mutex_lock(&m->lock);
	uint64_t last = m->seq;
	uint64_t first = last >= LV_HISTORY ? last - LV_HISTORY + 1 : 1;
	lv_buf_printf(b, "{\"schema\":\"srcprof-live/1\",\"seq\":%llu,\"time_ms\":[",
		      (unsigned long long)last);
	for (uint64_t q = first; q <= last && last; q++)
		lv_buf_printf(b, "%s%lld", q == first ? "" : ",",
			      (long long)m->hist_wall_ms[q % LV_HISTORY]);
	lv_buf_puts(b, "],\"frame_ms\":[");
	for (uint64_t q = first; q <= last && last; q++) {
		if (q != first)
			lv_buf_put(b, ",", 1);
		lv_buf_json_double(b, m->hist_frame_ms[q % LV_HISTORY], 3);
	}
	lv_buf_puts(b, "],\"sources\":[");
	bool comma = false;
	for (uint32_t i = 0; i < m->n_tracks; i++) {
		const lv_track *t = &m->tracks[i];
		if (!t->gpu)
			continue;
		uint64_t from = t->first_seq > first ? t->first_seq : first;
		lv_buf_printf(b, "%s{\"id\":%u,\"from\":%llu,\"gpu_sum_us\":[", comma ? "," : "",
			      t->id, (unsigned long long)(from - first));
		comma = true;
		for (uint64_t q = from; q <= last; q++) {
			if (q != from)
				lv_buf_put(b, ",", 1);
			lv_buf_json_double(b, t->gpu[q % LV_HISTORY], 1);
		}
		lv_buf_puts(b, "],\"cpu_sum_us\":[");
		for (uint64_t q = from; q <= last; q++) {
			if (q != from)
				lv_buf_put(b, ",", 1);
			lv_buf_json_double(b, t->cpu[q % LV_HISTORY], 1);
		}
		lv_buf_puts(b, "]}");
	}
	lv_buf_puts(b, "]}");
	pthread_mutex_unlock(&m->lock);
}
