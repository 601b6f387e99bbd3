#define _GNU_SOURCE /* strcasestr */
/* The live server's access: where it listens, requests without the token
 * or from a foreign host or origin, metrics open only when asked, bad
 * descs and taken ports, captures from the page, and a program with large
 * thread-local storage. The rest of test_live_server's cases are in
 * test_live_server.c (the same executable). */
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

/* A program with large thread-local storage (glibc puts it in every
 * thread's stack): the server's threads must still start. */
static _Thread_local char g_tls_ballast[1 << 20];

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
