/* Page-started trace captures (lv_capture.h). */
#include "lv_capture.h"

#include "srcprof/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long a request waits for the graphics thread to start its capture
 * (a renderer that stopped drawing never does). */
#define START_WAIT_S 10
/* Beyond its span, how long it waits for the capture to finish. */
#define FINISH_SLACK_S 30

void lv_capture_init(lv_capture *c, bool enabled, uint32_t seconds, size_t max_bytes)
{
	memset(c, 0, sizeof *c);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&c->busy, 0);
	c->enabled = enabled;
	c->seconds = seconds;
	c->max_bytes = max_bytes;
}

static void fail(lv_capture *c, int status, const char *fmt, const char *arg)
{
	c->state = LV_CAP_FAILED;
	c->status = status;
	snprintf(c->reason, sizeof c->reason, fmt, arg);
}

static struct timespec after(uint32_t seconds)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += seconds;
	return ts;
}

int lv_capture_request(lv_capture *c, char **json, size_t *len, const char **reason)
{
	*json = NULL;
	*len = 0;
	if (!c->enabled) {
		*reason = "this renderer takes no captures from the page (it does not call "
			  "srcprof_live_poll); use its own trace capture";
		return 501;
	}
	pthread_mutex_lock(&c->lock);
	if (c->stopping) {
		pthread_mutex_unlock(&c->lock);
		*reason = "the server is stopping";
		return 503;
	}
	if (c->state != LV_CAP_IDLE) {
		pthread_mutex_unlock(&c->lock);
		*reason = "a capture is running: one at a time";
		return 409;
	}
	c->state = LV_CAP_ASKED;
	c->waiter = true;
	atomic_store(&c->busy, 1);
	struct timespec start_by = after(START_WAIT_S);
	struct timespec finish_by = after(START_WAIT_S + c->seconds + FINISH_SLACK_S);
	int status = 0;
	while (!status) {
		if (c->stopping) {
			status = 503;
			*reason = "the server is stopping";
		} else if (c->state == LV_CAP_DONE) {
			*json = c->json;
			*len = c->len;
			c->json = NULL;
			status = 200;
		} else if (c->state == LV_CAP_FAILED) {
			status = c->status;
			*reason = c->reason; /* lives until the next capture */
		} else if (pthread_cond_timedwait(&c->cond, &c->lock,
						  c->state == LV_CAP_ASKED ? &start_by : &finish_by) ==
			   ETIMEDOUT) {
			status = 503;
			*reason = c->state == LV_CAP_ASKED
					  ? "the renderer did not start the capture (is it drawing "
					    "frames?)"
					  : "the capture did not finish in time";
		}
	}
	c->waiter = false;
	if (c->state == LV_CAP_ASKED) {
		/* Never started: nothing for the graphics thread to do. */
		c->state = LV_CAP_IDLE;
		atomic_store(&c->busy, 0);
	} else if (c->state == LV_CAP_DONE || c->state == LV_CAP_FAILED) {
		c->state = LV_CAP_IDLE;
	}
	/* Still recording (timed out, stopping): the graphics thread
	 * discards it when it finishes and goes back to idle. */
	if (status != 200 && *reason == c->reason) {
		/* Copy out before another capture could overwrite it. */
		static _Thread_local char copy[sizeof c->reason];
		snprintf(copy, sizeof copy, "%s", c->reason);
		*reason = copy;
	}
	pthread_mutex_unlock(&c->lock);
	return status;
}

/* Writes the finished capture into memory, then discards it. */
static void finish(lv_capture *c)
{
	source_profiler_trace_info info;
	source_profiler_trace_get_info(&info);
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	int rc = mem ? source_profiler_trace_write_json(mem) : -1;
	if (mem && fclose(mem) != 0)
		rc = -1;
	source_profiler_trace_discard();
	if (rc != 0 || !buf) {
		free(buf);
		fail(c, 500, "writing the capture failed (%s)", strerror(errno ? errno : ENOMEM));
	} else if (size > c->max_bytes) {
		free(buf);
		char mb[32];
		snprintf(mb, sizeof mb, "%.1f", (double)size / (1024.0 * 1024.0));
		fail(c, 413, "the capture's %s MiB are more than the server's cap", mb);
	} else {
		c->json = buf;
		c->len = size;
		c->state = LV_CAP_DONE;
	}
	if (!c->waiter) {
		free(c->json);
		c->json = NULL;
		c->state = LV_CAP_IDLE;
	}
	atomic_store(&c->busy, 0);
	(void)info;
}

void lv_capture_poll(lv_capture *c)
{
	if (!atomic_load_explicit(&c->busy, memory_order_acquire))
		return;
	pthread_mutex_lock(&c->lock);
	if (c->state == LV_CAP_ASKED) {
		if (source_profiler_trace_state() != SOURCE_PROFILER_TRACE_IDLE) {
			fail(c, 409, "%s", "the renderer is recording a trace of its own");
			atomic_store(&c->busy, 0);
		} else {
			/* Events: a JSON event is about 100-150 bytes. */
			size_t events = c->max_bytes / 128;
			events = events < 1024 ? 1024 : events > 1048576 ? 1048576 : events;
			source_profiler_trace_desc d = {
				.duration_ns = (uint64_t)c->seconds * 1000000000ull,
				.max_events = (uint32_t)events};
			if (source_profiler_trace_start(&d)) {
				c->state = LV_CAP_RECORDING;
			} else {
				fail(c, 500, "%s", "the profiler could not start a capture (no memory)");
				atomic_store(&c->busy, 0);
			}
		}
	} else if (c->state == LV_CAP_RECORDING) {
		int st = source_profiler_trace_state();
		if (st == SOURCE_PROFILER_TRACE_FINISHED) {
			finish(c);
		} else if (st == SOURCE_PROFILER_TRACE_IDLE) {
			fail(c, 500, "%s", "the renderer discarded the capture");
			if (!c->waiter)
				c->state = LV_CAP_IDLE;
			atomic_store(&c->busy, 0);
		}
	}
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

void lv_capture_stop(lv_capture *c)
{
	pthread_mutex_lock(&c->lock);
	c->stopping = true;
	if (c->state == LV_CAP_RECORDING) {
		source_profiler_trace_stop();
		source_profiler_trace_discard();
		c->state = LV_CAP_IDLE;
	}
	atomic_store(&c->busy, 0);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

void lv_capture_free(lv_capture *c)
{
	free(c->json);
	c->json = NULL;
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
}
