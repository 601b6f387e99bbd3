/* The fixture of test_streams (described in streams_fixture.h). */
#include "streams_fixture.h"

#include "check.h"

#include <string.h>

/* --- a backend per queue that stamps named command buffers ------------------ */

fake_queue fq[2];

static uint32_t q_reserve(void *user, uint32_t slot, uint32_t queries)
{
	(void)user, (void)slot;
	return queries < QUERIES ? queries : QUERIES;
}

static void q_stamp(fake_queue *q, uintptr_t cmd, uint32_t slot, uint32_t query)
{
	if (query == 0)
		memset(q->cmd_of[slot], 0, sizeof q->cmd_of[slot]);
	if (query >= QUERIES)
		return;
	q->stamps[slot][query] = q->now;
	q->cmd_of[slot][query] = cmd ? cmd : (uintptr_t)-1;
	if (cmd < 4)
		q->writes_into[cmd]++;
}

static void q_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)kind;
	q_stamp(user, 0, slot, query);
}

static void q_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	(void)kind;
	q_stamp(user, (uintptr_t)cmd, slot, query);
}

static sp_gpu_read q_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	fake_queue *q = user;
	memcpy(ns, q->stamps[slot], count * sizeof *ns);
	return SP_GPU_READ_OK;
}

static sp_gpu_read q_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
			       uint8_t *avail)
{
	fake_queue *q = user;
	for (uint32_t i = 0; i < count && i < QUERIES; i++) {
		uintptr_t c = q->cmd_of[slot][i];
		avail[i] = c && c != q->unsubmitted;
		ns[i] = q->stamps[slot][i];
	}
	return SP_GPU_READ_OK;
}

static void q_open(void *user, uint32_t slot)
{
	fake_queue *q = user;
	memset(q->cmd_of[slot], 0, sizeof q->cmd_of[slot]);
	q->opens++;
}

static sp_gpu_timer_backend backend_of(fake_queue *q, const char *mode)
{
	return (sp_gpu_timer_backend){
		.mode = mode,
		.user = q,
		.reserve = q_reserve,
		.write = q_write,
		.read = q_read,
		.write_cmd = q->with_cmd ? q_write_cmd : NULL,
		.read_each = q_read_each,
		.frame_open = q_open,
	};
}

/* A fresh profiler on queue 0 (and queue 1 when `two`), every frame timed. */
void start(bool two, bool with_cmd)
{
	fx_init(true);
	memset(fq, 0, sizeof fq);
	fq[0].now = 5000000000ull;
	fq[1].now = 900000000000ull; /* another clock altogether */
	fq[0].with_cmd = fq[1].with_cmd = with_cmd;
	sp_gpu_timer_backend b0 = backend_of(&fq[0], "fake-cmd");
	source_profiler_set_gpu_backend(&b0);
	if (two) {
		sp_gpu_timer_backend b1 = backend_of(&fq[1], "fake-compute");
		CHECK_EQ(source_profiler_add_gpu_queue(&b1, "compute"), 1);
	}
}

/* --- workers that run one job at a time ----------------------------------------- */

static void *worker_main(void *p)
{
	worker *w = p;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->job && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->job) {
			w->job(w->arg);
			w->job = NULL;
			pthread_cond_broadcast(&w->cond);
		} else {
			break;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

void worker_start(worker *w)
{
	memset(w, 0, sizeof *w);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	pthread_create(&w->thread, NULL, worker_main, w);
}

/* Runs job(arg) on the worker and waits for it. */
void run_on(worker *w, void (*job)(void *), void *arg)
{
	pthread_mutex_lock(&w->lock);
	w->job = job;
	w->arg = arg;
	pthread_cond_broadcast(&w->cond);
	while (w->job)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void worker_stop(worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
}

/* --- jobs ---------------------------------------------------------------------- */

void tick_job(void *p)
{
	fx_tick(p, 10);
}

void render_on(void *p)
{
	render_job *j = p;
	fx_now += j->before_ns;
	if (j->pass)
		source_profiler_set_pass(source_profiler_pass_id(j->pass));
	source_profiler_set_command_buffer(j->queue, (void *)j->cmd);
	sp_gpu_timer *timer;
	uint64_t t = source_profiler_source_render_begin(&timer);
	fx_now += j->cpu_ns;
	fq[j->queue].now += j->gpu_ns;
	source_profiler_source_render_end(j->src, t, timer);
	fq[j->queue].now += 7; /* between renders: nobody's */
}

/* A render on the calling thread with the fake queues' GPU clock. */
void render_here(const void *src, uint64_t cpu_ns, uint64_t gpu_ns)
{
	sp_gpu_timer *timer;
	uint64_t t = source_profiler_source_render_begin(&timer);
	fx_now += cpu_ns;
	fq[0].now += gpu_ns;
	source_profiler_source_render_end(src, t, timer);
	fq[0].now += 7;
}

/* A profiler call: the thread has its stream from here on. */
void join_job(void *p)
{
	(void)p;
	source_profiler_set_pass(0);
}
