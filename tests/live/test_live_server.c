#define _GNU_SOURCE /* strcasestr */
/* The live server in a process of its own, over real sockets, while a
 * graphics thread runs frames: what a renderer must survive. A hundred
 * connections at once, oversized headers, a client that stops reading or
 * vanishes mid-stream (no SIGPIPE may reach this process: it keeps the
 * default disposition, which would kill it), a request that never ends,
 * viewers connected while the server stops, the profiler turned off and on
 * while viewers read, ten viewers at once, requests without the token or
 * from another origin, and where it listens. No timing is asserted: waits
 * are long and only outcomes are checked. Run under TSan too. */
#include "check.h"

#include "srcprof/export.h"
#include "srcprof/live.h"
#include "srcprof/source_profiler.h"

#include <cjson/cJSON.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SOURCES 12

/* A program with large thread-local storage (glibc puts it in every
 * thread's stack): the server's threads must still start. */
static _Thread_local char g_tls_ballast[1 << 20];

/* --- A renderer: one graphics thread ticking and rendering sources ---------- */

static int g_src[SOURCES];
static pthread_t g_graphics;
static _Atomic bool g_stop_graphics, g_toggle, g_stop_server_asked, g_server_stopped;
static _Atomic uint64_t g_frames;
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

static void scene_start(void)
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

static void scene_stop(void)
{
	atomic_store(&g_stop_graphics, true);
	pthread_join(g_graphics, NULL);
	srcprof_live *live = atomic_exchange(&g_live, NULL);
	srcprof_live_stop(live);
	source_profiler_shutdown();
}

/* Starts a scene and a server with `desc` (NULL: defaults). */
static srcprof_live *serve(const srcprof_live_desc *desc)
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

static const char *token_of(const srcprof_live *live)
{
	const char *t = strstr(srcprof_live_url(live), "token=");
	return t ? t + 6 : "";
}

/* --- A small HTTP client on raw sockets ---------------------------------------- */

static int dial(uint16_t port)
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

static bool send_all(int fd, const char *s, size_t n)
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
static char *read_all(int fd, int ms, size_t *len)
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

static int status_of(const char *resp)
{
	int st = 0;
	return sscanf(resp, "HTTP/1.%*d %d", &st) == 1 ? st : 0;
}

/* One request with Connection: close; returns the status (0: no answer)
 * and, when body is not NULL, the whole answer (the caller frees). */
static int request(uint16_t port, const char *method, const char *path, const char *headers,
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
static const char *good(const srcprof_live *live)
{
	snprintf(g_hdr, sizeof g_hdr, "Host: 127.0.0.1:%u\r\nAuthorization: Bearer %s\r\n",
		 srcprof_live_port(live), token_of(live));
	return g_hdr;
}

static bool snapshot_ok(const srcprof_live *live)
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

/* --- Cases ------------------------------------------------------------------------ */

TEST(a_hundred_connections_at_once_are_served_or_closed_cleanly)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	uint16_t port = srcprof_live_port(live);
	enum { N = 100 };
	int fds[N];
	for (int i = 0; i < N; i++)
		fds[i] = dial(port);
	char req[512];
	snprintf(req, sizeof req, "GET /api/v1/snapshot HTTP/1.1\r\n%sConnection: close\r\n\r\n",
		 good(live));
	for (int i = 0; i < N; i++)
		if (fds[i] >= 0 && !send_all(fds[i], req, strlen(req))) {
			close(fds[i]);
			fds[i] = -2; /* refused before the request was written */
		}
	int served = 0, closed = 0, other = 0;
	for (int i = 0; i < N; i++) {
		if (fds[i] < 0) {
			closed++;
			continue;
		}
		size_t n;
		char *r = read_all(fds[i], 120000, &n);
		if (status_of(r) == 200 && strstr(r, "\"sources\""))
			served++;
		else if (n == 0)
			closed++;
		else
			other++;
		free(r);
		close(fds[i]);
	}
	printf("100 at once: %d served, %d closed by the server (its limit is 64), %d other\n", served,
	       closed, other);
	CHECK_EQ(other, 0);
	CHECK(served >= 1);
	CHECK(snapshot_ok(live)); /* and it goes on serving */
	uint64_t f = atomic_load(&g_frames);
	usleep(100000);
	CHECK(atomic_load(&g_frames) > f); /* the renderer went on too */
	scene_stop();
}

TEST(oversized_headers_are_refused)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	char *big = malloc(100 * 1024);
	memset(big, 'a', 100 * 1024 - 1);
	big[100 * 1024 - 1] = '\0';
	char *hdr = malloc(110 * 1024);
	snprintf(hdr, 110 * 1024, "%sX-Big: %s\r\n", good(live), big);
	char *a = NULL;
	int st = request(srcprof_live_port(live), "GET", "/api/v1/snapshot", hdr, &a);
	printf("100 KiB header: status %d\n", st);
	/* libmicrohttpd answers it itself: 431, its own page (no security
	 * headers: nothing of the request in it). */
	CHECK_EQ(st, 431);
	free(a);
	/* A header that fits the connection's memory is read, and answered. */
	big[8 * 1024] = '\0';
	snprintf(hdr, 110 * 1024, "%sX-Big: %s\r\n", good(live), big);
	st = request(srcprof_live_port(live), "GET", "/api/v1/snapshot?limit=1", hdr, NULL);
	printf("8 KiB header: status %d\n", st);
	CHECK_EQ(st, 200);
	/* A target beyond the policy's limit (but within the connection's). */
	char path[3000] = "/api/v1/snapshot?x=";
	memset(path + strlen(path), 'b', 2500);
	path[2900] = '\0';
	st = request(srcprof_live_port(live), "GET", path, good(live), NULL);
	printf("2.9 kB target: status %d\n", st);
	CHECK(st == 414 || st == 0 || st == 431);
	CHECK(snapshot_ok(live));
	free(big);
	free(hdr);
	scene_stop();
}

/* open streams now, from /metrics; -1 when it cannot be read */
static int streams_now(const srcprof_live *live)
{
	char *a = NULL;
	int n = -1;
	if (request(srcprof_live_port(live), "GET", "/metrics", good(live), &a) == 200) {
		const char *s = strstr(a, "\nsrcprof_live_streams ");
		if (s)
			n = atoi(s + 22);
	}
	free(a);
	return n;
}

static int open_stream(const srcprof_live *live, int rcvbuf)
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

/* Counts "event: update" in what arrives on fd within ms, until `want`. */
static int updates_on(int fd, int want, int ms)
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

TEST(a_client_that_stops_reading_does_not_hold_the_server)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	int stalled = open_stream(live, 4096); /* never read */
	CHECK(stalled >= 0);
	for (int i = 0; i < 20; i++)
		CHECK(snapshot_ok(live));
	uint64_t f = atomic_load(&g_frames);
	usleep(200000);
	CHECK(atomic_load(&g_frames) > f);
	/* Its stream ends once its buffers are full and it stayed idle. */
	int n = -1;
	for (int i = 0; i < 240 && n != 0; i++) {
		usleep(500000);
		n = streams_now(live);
	}
	printf("streams left open after the stalled client: %d\n", n);
	CHECK_EQ(n, 0);
	close(stalled);
	CHECK(snapshot_ok(live));
	scene_stop();
}

TEST(clients_that_vanish_mid_answer_raise_no_sigpipe)
{
	struct sigaction sa;
	sigaction(SIGPIPE, NULL, &sa);
	CHECK(sa.sa_handler == SIG_DFL); /* a SIGPIPE would end this process */
	srcprof_live *live = serve(NULL);
	CHECK(live);
	for (int i = 0; i < 30; i++) {
		int fd = i % 2 ? open_stream(live, 0) : dial(srcprof_live_port(live));
		CHECK(fd >= 0);
		if (i % 2 == 0) {
			char req[512];
			snprintf(req, sizeof req, "GET /api/v1/history HTTP/1.1\r\n%s\r\n", good(live));
			send_all(fd, req, strlen(req));
		}
		char buf[256];
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 10000) > 0)
			(void)recv(fd, buf, i % 3 ? sizeof buf : 1, 0);
		/* Reset, not a polite close: the server's next write fails. */
		struct linger lg = {1, 0};
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
		close(fd);
	}
	usleep(1500000); /* the streams' next updates hit the closed sockets */
	CHECK(snapshot_ok(live));
	CHECK_EQ(streams_now(live), 0);
	scene_stop();
}

TEST(a_request_that_never_ends_does_not_block_others)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	int slow = dial(srcprof_live_port(live));
	CHECK(slow >= 0);
	const char *part = "GET /api/v1/snapshot HTTP/1.1\r\nHost: 127.0.0.1";
	CHECK(send_all(slow, part, strlen(part)));
	for (int i = 0; i < 10; i++)
		CHECK(snapshot_ok(live));
	close(slow);
	scene_stop();
}

TEST(viewers_connected_while_the_server_stops_see_their_streams_end)
{
	srcprof_live *live = serve(&(srcprof_live_desc){.captures = true});
	CHECK(live);
	int fds[3];
	for (int i = 0; i < 3; i++) {
		fds[i] = open_stream(live, 0);
		CHECK(fds[i] >= 0);
		CHECK(updates_on(fds[i], 1, 60000) >= 1);
	}
	/* A capture under way too: its request waits while it records. */
	int cap = dial(srcprof_live_port(live));
	char req[512];
	snprintf(req, sizeof req, "POST /api/v1/capture HTTP/1.1\r\n%sContent-Length: 0\r\n\r\n",
		 good(live));
	CHECK(send_all(cap, req, strlen(req)));
	usleep(300000);
	atomic_store(&g_stop_server_asked, true);
	for (int i = 0; i < 600 && !atomic_load(&g_server_stopped); i++)
		usleep(100000);
	CHECK(atomic_load(&g_server_stopped));
	atomic_store(&g_stop_server_asked, false);
	atomic_store(&g_server_stopped, false);
	for (int i = 0; i < 3; i++) {
		size_t n;
		char *rest = read_all(fds[i], 30000, &n); /* ends at EOF, not at the timeout */
		free(rest);
		char c;
		CHECK_EQ(recv(fds[i], &c, 1, MSG_DONTWAIT), 0); /* closed by the server */
		close(fds[i]);
	}
	size_t n;
	char *a = read_all(cap, 30000, &n);
	printf("the waiting capture got: %.40s\n", n ? a : "(closed)");
	CHECK(n == 0 || status_of(a) == 503 || status_of(a) == 200);
	free(a);
	close(cap);
	CHECK_EQ(source_profiler_trace_state(), SOURCE_PROFILER_TRACE_IDLE);
	scene_stop();
}

static _Atomic long g_reads, g_bad_reads;

static void *reader(void *arg)
{
	const srcprof_live *live = arg;
	while (!atomic_load(&g_stop_graphics)) {
		const char *paths[] = {"/api/v1/snapshot", "/metrics", "/api/v1/history",
				       "/api/v1/snapshot?format=csv"};
		for (int i = 0; i < 4; i++) {
			char *a = NULL;
			int st = request(srcprof_live_port(live), "GET", paths[i], good(live), &a);
			const char *body = a ? strstr(a, "\r\n\r\n") : NULL;
			bool ok = st == 200 && body;
			if (ok && i != 1 && i != 3) {
				cJSON *j = cJSON_Parse(body + 4);
				ok = j != NULL;
				cJSON_Delete(j);
			}
			if (!ok && atomic_fetch_add(&g_bad_reads, 1) < 3)
				printf("bad read of %s: status %d: %.300s\n", paths[i], st, a ? a : "");
			atomic_fetch_add(&g_reads, 1);
			free(a);
		}
	}
	return NULL;
}

TEST(the_profiler_turned_off_and_on_while_viewers_read)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	atomic_store(&g_reads, 0);
	atomic_store(&g_bad_reads, 0);
	int stream = open_stream(live, 0);
	CHECK(stream >= 0);
	pthread_t th[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, reader, live);
	atomic_store(&g_toggle, true);
	uint64_t f0 = atomic_load(&g_frames);
	int seen = updates_on(stream, 8, 120000);
	while (atomic_load(&g_frames) < f0 + 400)
		usleep(10000);
	atomic_store(&g_toggle, false);
	atomic_store(&g_stop_graphics, true);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("%ld reads while the profiler went off and on every 40 frames, %ld bad; %d stream "
	       "updates\n",
	       (long)atomic_load(&g_reads), (long)atomic_load(&g_bad_reads), seen);
	CHECK_EQ(atomic_load(&g_bad_reads), 0);
	CHECK(atomic_load(&g_reads) > 0);
	CHECK(seen >= 8);
	close(stream);
	scene_stop();
}

TEST(ten_viewers_at_once_each_get_updates)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	int fds[10];
	for (int i = 0; i < 10; i++) {
		fds[i] = open_stream(live, 0);
		CHECK(fds[i] >= 0);
	}
	for (int i = 0; i < 10; i++)
		CHECK_EQ(updates_on(fds[i], 3, 120000), 3);
	CHECK_EQ(streams_now(live), 10);
	for (int i = 0; i < 10; i++)
		close(fds[i]);
	scene_stop();
}

TEST(the_library_installs_no_signal_handler)
{
	/* glibc keeps some real-time signals for itself (sigaction refuses
	 * them): only those it reports are compared. */
	struct sigaction before[NSIG], after[NSIG];
	bool known[NSIG];
	for (int s = 1; s < NSIG; s++)
		known[s] = sigaction(s, NULL, &before[s]) == 0;
	srcprof_live *live = serve(&(srcprof_live_desc){.captures = true});
	CHECK(live);
	CHECK(snapshot_ok(live));
	int fd = open_stream(live, 0);
	CHECK(updates_on(fd, 1, 60000) == 1);
	close(fd);
	scene_stop();
	for (int s = 1; s < NSIG; s++) {
		if (!known[s] || sigaction(s, NULL, &after[s]) != 0)
			continue;
		if (after[s].sa_handler != before[s].sa_handler || after[s].sa_flags != before[s].sa_flags)
			printf("signal %d changed\n", s);
		CHECK(after[s].sa_handler == before[s].sa_handler);
	}
}

/* The local address of the listening socket on `port`, as /proc/net/tcp*
 * writes it ("0100007F" 127.0.0.1, "00000000" every address), or "". */
static void listener(uint16_t port, char *addr, size_t size)
{
	addr[0] = '\0';
	const char *files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
	for (int f = 0; f < 2; f++) {
		FILE *in = fopen(files[f], "r");
		char line[512];
		while (in && fgets(line, sizeof line, in)) {
			char local[64];
			unsigned p, st;
			if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x", local, &p, &st) == 3 &&
			    p == port && st == 0x0A /* LISTEN */)
				snprintf(addr, size, "%s", local);
		}
		if (in)
			fclose(in);
	}
}

static char g_logged[512];
static void keep_log(int level, const char *msg, void *user)
{
	(void)level, (void)user;
	snprintf(g_logged, sizeof g_logged, "%s", msg);
}

TEST(it_listens_on_loopback_unless_asked)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	char addr[64];
	listener(srcprof_live_port(live), addr, sizeof addr);
	printf("default: %s listens on %s\n", srcprof_live_url(live), addr);
	CHECK(strcmp(addr, "0100007F") == 0);
	CHECK(strncmp(srcprof_live_url(live), "http://127.0.0.1:", 17) == 0);
	scene_stop();

	scene_start();
	source_profiler_set_log(keep_log, NULL);
	live = srcprof_live_start(&(srcprof_live_desc){.address = "0.0.0.0"});
	CHECK(live);
	listener(srcprof_live_port(live), addr, sizeof addr);
	printf("asked for 0.0.0.0: listens on %s; said: %s\n", addr, g_logged);
	CHECK(strcmp(addr, "00000000") == 0);
	CHECK(strstr(g_logged, "beyond this machine") != NULL);
	CHECK(strncmp(srcprof_live_url(live), "http://127.0.0.1:", 17) == 0);
	/* Reached by a numeric address, which a rebinding page cannot send. */
	char hdr[256];
	snprintf(hdr, sizeof hdr, "Host: 10.1.2.3:%u\r\nAuthorization: Bearer %s\r\n",
		 srcprof_live_port(live), token_of(live));
	CHECK_EQ(request(srcprof_live_port(live), "GET", "/api/v1/snapshot", hdr, NULL), 200);
	snprintf(hdr, sizeof hdr, "Host: attacker.example:%u\r\nAuthorization: Bearer %s\r\n",
		 srcprof_live_port(live), token_of(live));
	CHECK_EQ(request(srcprof_live_port(live), "GET", "/api/v1/snapshot", hdr, NULL), 403);
	srcprof_live_stop(live);
	source_profiler_set_log(NULL, NULL);
	atomic_store(&g_stop_graphics, true);
	pthread_join(g_graphics, NULL);
	source_profiler_shutdown();
}

TEST(every_request_without_the_token_is_refused)
{
	srcprof_live *live = serve(&(srcprof_live_desc){.captures = true});
	CHECK(live);
	uint16_t port = srcprof_live_port(live);
	const char *paths[] = {"/", "/live.js", "/work.js", "/live.css", "/api/v1/snapshot",
			       "/api/v1/snapshot?format=csv", "/api/v1/stream", "/api/v1/history",
			       "/api/v1/capture", "/metrics", "/nothing", "/?token=", "/../etc/passwd"};
	const char *methods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"};
	char host[64], wrong[256], cookie[256];
	snprintf(host, sizeof host, "Host: 127.0.0.1:%u\r\n", port);
	snprintf(wrong, sizeof wrong, "%sAuthorization: Bearer %.31sx\r\n", host, token_of(live));
	snprintf(cookie, sizeof cookie, "%sCookie: srcprof_live_%u=%.31sx\r\n", host, port,
		 token_of(live));
	int n = 0;
	for (size_t p = 0; p < sizeof paths / sizeof *paths; p++)
		for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
			const char *hdrs[] = {host, wrong, cookie};
			for (int h = 0; h < 3; h++) {
				char *a = NULL;
				int st = request(port, methods[m], paths[p], hdrs[h], &a);
				if (st != 403)
					printf("%s %s (%s): %d\n", methods[m], paths[p],
					       h == 0 ? "no token" : h == 1 ? "wrong bearer" : "wrong cookie",
					       st);
				CHECK_EQ(st, 403);
				CHECK(!strcasestr(a, "Access-Control-"));
				free(a);
				n++;
			}
		}
	char wrong_query[128];
	snprintf(wrong_query, sizeof wrong_query, "/api/v1/snapshot?token=%.31sx", token_of(live));
	CHECK_EQ(request(port, "GET", wrong_query, host, NULL), 403);
	printf("%d requests without the right token: all 403\n", n + 1);
	scene_stop();
}

TEST(a_foreign_host_or_origin_is_refused)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	uint16_t port = srcprof_live_port(live);
	const char *tok = token_of(live);
	struct {
		const char *fmt;
		int want;
	} cases[] = {
		{"Host: attacker.example:%u\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:1%u\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:%u\r\nOrigin: http://attacker.example\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:%u\r\nOrigin: null\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:%u\r\nSec-Fetch-Site: cross-site\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:%u\r\nSec-Fetch-Site: same-site\r\nAuthorization: Bearer %s\r\n", 403},
		{"Host: 127.0.0.1:%u\r\nOrigin: http://127.0.0.1:%u\r\nAuthorization: Bearer %s\r\n", 200},
		{"Host: localhost:%u\r\nSec-Fetch-Site: same-origin\r\nAuthorization: Bearer %s\r\n", 200},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char hdr[512];
		if (strstr(cases[i].fmt, "Origin: http://127"))
			snprintf(hdr, sizeof hdr, cases[i].fmt, port, port, tok);
		else
			snprintf(hdr, sizeof hdr, cases[i].fmt, port, tok);
		char *a = NULL;
		int st = request(port, "GET", "/api/v1/snapshot", hdr, &a);
		if (st != cases[i].want)
			printf("case %zu: %d, not %d\n", i, st, cases[i].want);
		CHECK_EQ(st, cases[i].want);
		CHECK(!strcasestr(a, "Access-Control-"));
		free(a);
	}
	scene_stop();
}

TEST(metrics_are_open_without_the_token_only_when_asked)
{
	srcprof_live *live = serve(NULL);
	CHECK(live);
	char host[64];
	snprintf(host, sizeof host, "Host: 127.0.0.1:%u\r\n", srcprof_live_port(live));
	CHECK_EQ(request(srcprof_live_port(live), "GET", "/metrics", host, NULL), 403);
	scene_stop();
	live = serve(&(srcprof_live_desc){.metrics_open = true});
	CHECK(live);
	snprintf(host, sizeof host, "Host: 127.0.0.1:%u\r\n", srcprof_live_port(live));
	char *a = NULL;
	/* Until a snapshot after the first frames (one per update period). */
	for (int i = 0; i < 600; i++) {
		free(a);
		a = NULL;
		CHECK_EQ(request(srcprof_live_port(live), "GET", "/metrics", host, &a), 200);
		if (strstr(a, "pass=\"shadow\""))
			break;
		usleep(100000);
	}
	CHECK(strstr(a, "srcprof_source_tick_seconds{source=\"video-0\",type=\"video\",stat=\"avg\"}"));
	CHECK(strstr(a, "pass=\"shadow\""));
	free(a);
	CHECK_EQ(request(srcprof_live_port(live), "GET", "/api/v1/snapshot", host, NULL), 403);
	CHECK_EQ(request(srcprof_live_port(live), "GET", "/", host, NULL), 403);
	scene_stop();
}

TEST(a_bad_desc_or_a_taken_port_fails_with_a_reason)
{
	srcprof_live *a = serve(NULL);
	CHECK(a);
	srcprof_live *b = srcprof_live_start(&(srcprof_live_desc){.port = srcprof_live_port(a)});
	printf("same port: %s\n", srcprof_live_error());
	CHECK(!b);
	CHECK(strstr(srcprof_live_error(), "in use"));
	CHECK(!srcprof_live_start(&(srcprof_live_desc){.address = "example.com"}));
	printf("a name: %s\n", srcprof_live_error());
	CHECK(strstr(srcprof_live_error(), "numeric"));
	CHECK(!srcprof_live_start(&(srcprof_live_desc){.address = "192.0.2.1"}));
	printf("not this machine's: %s\n", srcprof_live_error());
	CHECK(!srcprof_live_start(&(srcprof_live_desc){.token = "short"}));
	printf("a short token: %s\n", srcprof_live_error());
	CHECK(!srcprof_live_start(&(srcprof_live_desc){.update_ms = 20}));
	printf("update_ms 20: %s\n", srcprof_live_error());
	CHECK(srcprof_live_error()[0]);
	srcprof_live_stop(NULL);
	srcprof_live_poll(NULL);
	CHECK(strcmp(srcprof_live_url(NULL), "") == 0);
	/* A token of its own, kept across restarts (a fleet's scrape config). */
	scene_stop();
	const char *tok = "fleet-token-0123456789abcdefghijklmnop";
	a = serve(&(srcprof_live_desc){.token = tok});
	CHECK(a);
	CHECK(strstr(srcprof_live_url(a), tok));
	CHECK(snapshot_ok(a));
	scene_stop();
}

TEST(a_capture_from_the_page_is_one_at_a_time_and_a_valid_trace)
{
	srcprof_live *live = serve(&(srcprof_live_desc){.captures = true, .capture_seconds = 1});
	CHECK(live);
	uint16_t port = srcprof_live_port(live);
	char hdr[512];
	snprintf(hdr, sizeof hdr, "%sContent-Length: 0\r\n", good(live));
	int first = dial(port);
	char req[1024];
	snprintf(req, sizeof req, "POST /api/v1/capture HTTP/1.1\r\n%sConnection: close\r\n\r\n", hdr);
	CHECK(send_all(first, req, strlen(req)));
	usleep(200000);
	CHECK_EQ(request(port, "POST", "/api/v1/capture", hdr, NULL), 409);
	size_t n;
	char *a = read_all(first, 120000, &n);
	close(first);
	CHECK_EQ(status_of(a), 200);
	CHECK(strcasestr(a, "Content-Disposition: attachment"));
	const char *body = strstr(a, "\r\n\r\n");
	cJSON *j = body ? cJSON_Parse(body + 4) : NULL;
	CHECK(j && cJSON_IsArray(cJSON_GetObjectItem(j, "traceEvents")));
	printf("capture: %d events\n", cJSON_GetArraySize(cJSON_GetObjectItem(j, "traceEvents")));
	cJSON_Delete(j);
	free(a);
	CHECK_EQ(request(port, "GET", "/api/v1/capture", good(live), NULL), 405);
	snprintf(hdr, sizeof hdr, "%sContent-Length: 5000\r\n", good(live));
	CHECK_EQ(request(port, "POST", "/api/v1/capture", hdr, NULL), 413);
	scene_stop();
	/* A renderer that does not poll: refused, said why. */
	live = serve(NULL);
	snprintf(hdr, sizeof hdr, "%sContent-Length: 0\r\n", good(live));
	CHECK_EQ(request(srcprof_live_port(live), "POST", "/api/v1/capture", hdr, NULL), 501);
	scene_stop();
}

TEST(a_program_with_large_thread_local_storage_still_serves)
{
	g_tls_ballast[0] = 1;
	srcprof_live *live = serve(NULL);
	CHECK(live);
	CHECK(snapshot_ok(live));
	int fd = open_stream(live, 0);
	CHECK(updates_on(fd, 1, 60000) >= 1);
	close(fd);
	scene_stop();
}
