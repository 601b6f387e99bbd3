/* Trace captures asked for by the page (POST /api/v1/capture), carried out
 * by the renderer's graphics thread in srcprof_live_poll: the profiler's
 * trace calls are graphics-thread calls. One at a time; the JSON is kept
 * in memory only, for the request that asked. */
#ifndef LV_CAPTURE_H
#define LV_CAPTURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum lv_capture_state {
	LV_CAP_IDLE,
	LV_CAP_ASKED,     /* a request waits for the graphics thread to start it */
	LV_CAP_RECORDING, /* the profiler records it */
	LV_CAP_DONE,      /* json holds it */
	LV_CAP_FAILED,    /* status and reason say why */
} lv_capture_state;

typedef struct lv_capture {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Non-zero from a request until the graphics thread is done with
	 * it: what srcprof_live_poll reads first, without the lock. */
	atomic_int busy;
	lv_capture_state state;
	bool waiter;   /* the request still waits for the result */
	bool stopping;
	bool enabled;  /* the renderer polls (desc.captures) */
	uint32_t seconds;
	size_t max_bytes;
	char *json;
	size_t len;
	int status;
	char reason[200];
} lv_capture;

void lv_capture_init(lv_capture *c, bool enabled, uint32_t seconds, size_t max_bytes);
/* Request side: asks for a capture and waits for it. Returns 200 with the
 * JSON in *json (the caller frees it), or an HTTP status with *reason. */
int lv_capture_request(lv_capture *c, char **json, size_t *len, const char **reason);
/* Graphics thread: srcprof_live_poll. */
void lv_capture_poll(lv_capture *c);
/* Wakes a waiting request (answered 503); on the graphics thread, stops
 * and discards a capture it started. */
void lv_capture_stop(lv_capture *c);
void lv_capture_free(lv_capture *c);

#endif
