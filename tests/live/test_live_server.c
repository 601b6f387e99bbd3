#define _GNU_SOURCE /* strcasestr */
/* The live server in a process of its own, over real sockets, while a
 * graphics thread runs frames: what a renderer must survive. A hundred
 * connections at once, oversized headers, a client that stops reading or
 * vanishes mid-stream (no SIGPIPE may reach this process: it keeps the
 * default disposition, which would kill it), a request that never ends,
 * viewers connected while the server stops, the profiler turned off and on
 * while viewers read, ten viewers at once, requests without the token or
 * from another origin, and where it listens. No timing is asserted: waits
 * are long and only outcomes are checked. Run under TSan too. The
 * renderer and the client are in live_server_fixture.c, the cases on who
 * may ask and where it listens in test_live_server_access.c. */
#include "check.h"
#include "live_server_fixture.h"

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
