/* What test_live_server's files share: a renderer (one graphics thread
 * ticking and rendering sources, which can toggle the profiler and stop
 * the server when asked) and a small HTTP client on raw sockets. */
#ifndef LIVE_SERVER_FIXTURE_H
#define LIVE_SERVER_FIXTURE_H

#include "srcprof/live.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The graphics thread, its frame count, and what a case asks of it:
 * stop, toggle the profiler every 40 frames, stop the server (it says
 * when it has: g_server_stopped). */
extern pthread_t g_graphics;
extern _Atomic bool g_stop_graphics, g_toggle, g_stop_server_asked, g_server_stopped;
extern _Atomic uint64_t g_frames;

/* A fresh profiler with named sources and the graphics thread running. */
void scene_start(void);
/* Stops the graphics thread, the server serve() started, the profiler. */
void scene_stop(void);
/* Starts a scene and a server with `desc` (NULL: defaults). */
srcprof_live *serve(const srcprof_live_desc *desc);
/* The token of the server's URL. */
const char *token_of(const srcprof_live *live);

/* A connected loopback socket, or -1. */
int dial(uint16_t port);
bool send_all(int fd, const char *s, size_t n);
/* Reads until the peer closes or `ms` pass; returns the bytes (NUL-ended,
 * the caller frees), *len their count. */
char *read_all(int fd, int ms, size_t *len);
/* The status of an HTTP answer (0: none). */
int status_of(const char *resp);
/* One request with Connection: close; returns the status (0: no answer)
 * and, when body is not NULL, the whole answer (the caller frees). */
int request(uint16_t port, const char *method, const char *path, const char *headers,
	    char **answer);
/* The headers of a good request: this server's Host and the token (a
 * buffer of the calling thread's). */
const char *good(const srcprof_live *live);
/* A GET of the snapshot answers 200 with the sources. */
bool snapshot_ok(const srcprof_live *live);
/* A stream request with the token on a new socket (its receive buffer
 * `rcvbuf` bytes, 0: the default); the socket or -1. */
int open_stream(const srcprof_live *live, int rcvbuf);
/* Counts "event: update" in what arrives on fd within ms, until `want`. */
int updates_on(int fd, int want, int ms);

#endif
