#define _GNU_SOURCE
/* The renderer and the HTTP client of test_live_server's files (described
 * in live_server_fixture.h). */
#include "live_server_fixture.h"

#include "srcprof/live.h"
#include "srcprof/source_profiler.h"

#include <cjson/cJSON.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SOURCES 12

/* --- A renderer: one graphics thread ticking and rendering sources ---------- */

static int g_src[SOURCES];
pthread_t g_graphics;
_Atomic bool g_stop_graphics, g_toggle, g_stop_server_asked, g_server_stopped;
_Atomic uint64_t g_frames;
static srcprof_live *_Atomic g_live;

static void spin_us(int us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *graphics(void *arg)
{
	(void)arg;
	uint32_t passes[2] = {source_profiler_pass_id("main"), source_profiler_pass_id("shadow")};
	bool on = true;
	while (!atomic_load(&g_stop_graphics)) {
		uint64_t f = atomic_fetch_add(&g_frames, 1);
		if (atomic_load(&g_toggle) && f % 40 == 0) {
			on = !on;
			source_profiler_enable(on);
		}
		source_profiler_frame_begin();
		for (int i = 0; i < SOURCES; i++) {
			uint64_t t = source_profiler_source_tick_start();
			spin_us(5 + i);
			source_profiler_source_tick_end(&g_src[i], t);
		}
		source_profiler_render_begin();
		for (int p = 0; p < 2; p++) {
			source_profiler_set_pass(passes[p]);
			for (int i = 0; i < SOURCES; i += p + 1) {
				sp_gpu_timer *timer;
				uint64_t t = source_profiler_source_render_begin(&timer);
				spin_us(10 + 2 * i);
				source_profiler_source_render_end(&g_src[i], t, timer);
			}
		}
		source_profiler_render_end();
		source_profiler_frame_collect();
		srcprof_live *live = atomic_load(&g_live);
		srcprof_live_poll(live);
		if (atomic_load(&g_stop_server_asked) && live) {
			/* The graphics thread stops the server (as a renderer would). */
			srcprof_live_stop(live);
			atomic_store(&g_live, NULL);
			atomic_store(&g_server_stopped, true);
		}
		usleep(2000);
	}
	return NULL;
}

void scene_start(void)
{
	source_profiler_shutdown();
	for (int i = 0; i < SOURCES; i++) {
		char name[32];
		snprintf(name, sizeof name, "%s-%d", i % 3 ? "mesh" : "video", i);
		source_profiler_set_source_name(&g_src[i], name);
		srcprof_live_set_source_type(&g_src[i], i % 3 ? "mesh" : "video");
	}
	source_profiler_enable(true);
	atomic_store(&g_stop_graphics, false);
	atomic_store(&g_frames, 0);
	pthread_create(&g_graphics, NULL, graphics, NULL);
}

void scene_stop(void)
{
	atomic_store(&g_stop_graphics, true);
	pthread_join(g_graphics, NULL);
	srcprof_live *live = atomic_exchange(&g_live, NULL);
	srcprof_live_stop(live);
	source_profiler_shutdown();
}

/* Starts a scene and a server with `desc` (NULL: defaults). */
srcprof_live *serve(const srcprof_live_desc *desc)
{
	scene_start();
	srcprof_live *live = srcprof_live_start(desc);
	if (!live)
		printf("srcprof_live_start: %s\n", srcprof_live_error());
	atomic_store(&g_live, live);
	while (atomic_load(&g_frames) < 20)
		usleep(1000);
	return live;
}

const char *token_of(const srcprof_live *live)
{
	const char *t = strstr(srcprof_live_url(live), "token=");
	return t ? t + 6 : "";
}

/* --- A small HTTP client on raw sockets ---------------------------------------- */

int dial(uint16_t port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

bool send_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
		if (w <= 0)
			return false;
		s += w;
		n -= (size_t)w;
	}
	return true;
}

/* Reads until the peer closes or `ms` pass; returns the bytes (NUL-ended,
 * the caller frees), *len their count. */
char *read_all(int fd, int ms, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		int left = ms - (int)((now.tv_sec - start.tv_sec) * 1000 +
				      (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			break;
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, left) <= 0)
			break;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
		ssize_t r = recv(fd, buf + n, cap - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int status_of(const char *resp)
{
	int st = 0;
	return sscanf(resp, "HTTP/1.%*d %d", &st) == 1 ? st : 0;
}

/* One request with Connection: close; returns the status (0: no answer)
 * and, when body is not NULL, the whole answer (the caller frees). */
int request(uint16_t port, const char *method, const char *path, const char *headers,
		   char **answer)
{
	int fd = dial(port);
	if (fd < 0)
		return 0;
	/* Sized to the request: a fixed buffer would cut an oversized header
	 * short, and the server would wait for the rest of it. */
	size_t cap = strlen(method) + strlen(path) + strlen(headers) + 64;
	char *req = malloc(cap);
	snprintf(req, cap, "%s %s HTTP/1.1\r\n%sConnection: close\r\n\r\n", method, path, headers);
	int st = 0;
	if (send_all(fd, req, strlen(req))) {
		size_t n;
		char *r = read_all(fd, 60000, &n);
		st = status_of(r);
		if (answer)
			*answer = r;
		else
			free(r);
	}
	free(req);
	close(fd);
	return st;
}

static _Thread_local char g_hdr[1024]; /* reader threads build their own */

/* The headers of a good request: this server's Host and the token. */
const char *good(const srcprof_live *live)
{
	snprintf(g_hdr, sizeof g_hdr, "Host: 127.0.0.1:%u\r\nAuthorization: Bearer %s\r\n",
		 srcprof_live_port(live), token_of(live));
	return g_hdr;
}

bool snapshot_ok(const srcprof_live *live)
{
	char *a = NULL;
	int st = request(srcprof_live_port(live), "GET", "/api/v1/snapshot", good(live), &a);
	const char *body = a ? strstr(a, "\r\n\r\n") : NULL;
	cJSON *j = body ? cJSON_Parse(body + 4) : NULL;
	bool ok = st == 200 && j && cJSON_GetObjectItem(j, "sources");
	cJSON_Delete(j);
	free(a);
	return ok;
}

int open_stream(const srcprof_live *live, int rcvbuf)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(srcprof_live_port(live))};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	char req[512];
	snprintf(req, sizeof req, "GET /api/v1/stream HTTP/1.1\r\n%s\r\n", good(live));
	if (!send_all(fd, req, strlen(req))) {
		close(fd);
		return -1;
	}
	return fd;
}

int updates_on(int fd, int want, int ms)
{
	int seen = 0;
	char buf[65536];
	size_t keep = 0;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (seen < want) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		int left = ms - (int)((now.tv_sec - start.tv_sec) * 1000 +
				      (now.tv_nsec - start.tv_nsec) / 1000000);
		struct pollfd p = {fd, POLLIN, 0};
		if (left <= 0 || poll(&p, 1, left) <= 0)
			break;
		ssize_t r = recv(fd, buf + keep, sizeof buf - keep - 1, 0);
		if (r <= 0)
			break;
		buf[keep + (size_t)r] = '\0';
		for (char *s = buf; (s = strstr(s, "event: update")); s += 13)
			seen++;
		/* Keep a tail so a marker split between reads counts once. */
		size_t total = keep + (size_t)r;
		keep = total > 16 ? 16 : total;
		memmove(buf, buf + total - keep, keep);
		buf[keep] = '\0';
		if (strstr(buf, "event: update"))
			keep = 0;
	}
	return seen;
}
