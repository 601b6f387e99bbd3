/* srcprof-live-bench: what the live view costs the renderer, and how late
 * its updates arrive. Prints figures; judges nothing.
 *
 *   srcprof-live-bench [--sources N] [--rounds R] [--viewers V] [--seconds S]
 *
 * Overhead: the profiler's calls of a frame replayed without an engine
 * (profiler/bench/replay.h, as srcprof-microbench) for N sources (default
 * 100), CPU and GPU timing, in R rounds (default 9) of pairs in alternating
 * order: alone, and with a live server and two viewers reading its stream.
 * Per pair, ns per source-frame on the graphics thread and frame_begin's
 * p99; then the median ratio with-server / alone and its range.
 *
 * Viewers: V viewers (default 10) read /api/v1/stream for S seconds
 * (default 20) while frames are replayed at 60 fps; per viewer, the
 * updates it got and how long after its snapshot each arrived (the
 * snapshot's mono_ns against this process's CLOCK_MONOTONIC).
 */
#include "replay.h"

#include "srcprof/clock.h"
#include "srcprof/live.h"
#include "srcprof/source_profiler.h"
#include "srcprof_base/stats.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The house's rules (base/): the median of the middle two of an even
 * count, nearest rank for the other quantiles. */
static double quantile(double *v, int n, double q)
{
	if (n <= 0)
		return 0;
	stats_sort(v, (uint32_t)n);
	return q == 0.5 ? stats_median(v, (uint32_t)n) : stats_quantile(v, (uint32_t)n, q);
}

/* --- A viewer: one SSE connection, read on a thread of its own ---------- */

#define MAX_LAT 4096

typedef struct viewer {
	pthread_t th;
	uint16_t port;
	char token[160];
	atomic_bool stop;
	int updates;
	double lat_ms[MAX_LAT];
	int n_lat;
	bool failed;
} viewer;

static void *view(void *arg)
{
	viewer *v = arg;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(v->port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	char req[512];
	snprintf(req, sizeof req,
		 "GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nAuthorization: Bearer %s\r\n\r\n",
		 v->port, v->token);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
	    send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) {
		v->failed = true;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	enum { BUF = 1 << 20 };
	char *buf = malloc(BUF);
	size_t have = 0;
	while (!atomic_load(&v->stop)) {
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 200) <= 0)
			continue;
		ssize_t r = recv(fd, buf + have, BUF - have - 1, 0);
		if (r <= 0)
			break;
		uint64_t now = srcprof_clock_monotonic_ns();
		have += (size_t)r;
		buf[have] = '\0';
		/* Whole events end in a blank line. */
		char *end;
		while ((end = strstr(buf, "\n\n"))) {
			*end = '\0';
			if (strstr(buf, "event: update")) {
				const char *m = strstr(buf, "\"mono_ns\":");
				if (m && v->n_lat < MAX_LAT)
					v->lat_ms[v->n_lat++] =
						((double)now - strtod(m + 10, NULL)) / 1e6;
				v->updates++;
			}
			size_t used = (size_t)(end - buf) + 2;
			memmove(buf, buf + used, have - used + 1);
			have -= used;
		}
		if (have > BUF - 65536)
			have = 0; /* an event larger than the buffer: dropped */
	}
	close(fd);
	free(buf);
	return NULL;
}

static void viewers_start(viewer *v, int n, srcprof_live *live)
{
	const char *t = strstr(srcprof_live_url(live), "token=");
	for (int i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof v[i]);
		v[i].port = srcprof_live_port(live);
		snprintf(v[i].token, sizeof v[i].token, "%s", t ? t + 6 : "");
		atomic_init(&v[i].stop, false);
		pthread_create(&v[i].th, NULL, view, &v[i]);
	}
}

static void viewers_stop(viewer *v, int n)
{
	for (int i = 0; i < n; i++)
		atomic_store(&v[i].stop, true);
	for (int i = 0; i < n; i++)
		pthread_join(v[i].th, NULL);
}

/* --- Overhead pairs --------------------------------------------------------- */

/* ns per source-frame over `ms` of frames, and frame_begin's p99 (us). */
static void measure(double ms, double *ns, double *begin_p99)
{
	*ns = replay_run_for(ms);
	static double b[2000];
	for (int i = 0; i < 2000; i++)
		b[i] = (double)replay_frame_timing_begin() / 1e3;
	*begin_p99 = quantile(b, 2000, 0.99);
}

static void overhead(uint32_t sources, int rounds, replay_mode mode, const char *what)
{
	double ratio[64] = {0}, alone_ns[64] = {0}, served_ns[64] = {0}, alone_p99[64] = {0},
	       served_p99[64] = {0};
	viewer v[2];
	printf("\n%s, %u sources: ns per source-frame on the graphics thread, and frame_begin's p99\n",
	       what, sources);
	printf("round   alone ns  with server ns   ratio   begin p99 us alone / with\n");
	for (int r = 0; r < rounds; r++) {
		replay_setup(mode, 60, false);
		bool served_first = r % 2;
		for (int k = 0; k < 2; k++) {
			bool served = (k == 0) == served_first;
			srcprof_live *live = NULL;
			if (served) {
				live = srcprof_live_start(NULL);
				if (!live) {
					printf("no server: %s\n", srcprof_live_error());
					return;
				}
				viewers_start(v, 2, live);
				usleep(1200000); /* both viewers streaming */
			}
			double ns, p99;
			measure(1500.0, &ns, &p99);
			if (served) {
				served_ns[r] = ns;
				served_p99[r] = p99;
				viewers_stop(v, 2);
				srcprof_live_stop(live);
			} else {
				alone_ns[r] = ns;
				alone_p99[r] = p99;
			}
		}
		ratio[r] = served_ns[r] / alone_ns[r];
		printf("%5d %10.1f %15.1f %7.3f %14.1f / %.1f\n", r + 1, alone_ns[r], served_ns[r],
		       ratio[r], alone_p99[r], served_p99[r]);
	}
	double lo = ratio[0], hi = ratio[0];
	for (int r = 1; r < rounds; r++) {
		lo = ratio[r] < lo ? ratio[r] : lo;
		hi = ratio[r] > hi ? ratio[r] : hi;
	}
	printf("median ratio with server / alone: %.3f (range %.3f-%.3f over %d pairs); alone %.1f "
	       "ns, with %.1f ns\n",
	       quantile(ratio, rounds, 0.5), lo, hi, rounds, quantile(alone_ns, rounds, 0.5),
	       quantile(served_ns, rounds, 0.5));
}

/* --- Viewers ------------------------------------------------------------------ */

static void viewers(uint32_t sources, int n, double seconds)
{
	replay_setup(REPLAY_GPU, 60, false);
	srcprof_live *live = srcprof_live_start(NULL);
	if (!live) {
		printf("no server: %s\n", srcprof_live_error());
		return;
	}
	viewer *v = calloc((size_t)n, sizeof *v);
	viewers_start(v, n, live);
	uint64_t end = srcprof_clock_monotonic_ns() + (uint64_t)(seconds * 1e9);
	uint64_t next = srcprof_clock_monotonic_ns();
	while (srcprof_clock_monotonic_ns() < end) {
		replay_frame();
		next += 16666667ull; /* 60 fps */
		int64_t wait = (int64_t)(next - srcprof_clock_monotonic_ns());
		if (wait > 0)
			usleep((useconds_t)(wait / 1000));
	}
	viewers_stop(v, n);
	srcprof_live_stop(live);
	printf("\n%d viewers of /api/v1/stream for %.0f s, %u sources at 60 fps (update period 500 "
	       "ms):\n",
	       n, seconds, sources);
	printf("viewer  updates  after its snapshot, ms: p50    p99    max\n");
	static double all[MAX_LAT * 16];
	int n_all = 0, served = 0;
	for (int i = 0; i < n; i++) {
		double lat[MAX_LAT];
		memcpy(lat, v[i].lat_ms, sizeof(double) * (size_t)v[i].n_lat);
		for (int k = 0; k < v[i].n_lat && n_all < MAX_LAT * 16; k++)
			all[n_all++] = v[i].lat_ms[k];
		served += v[i].updates > 0;
		printf("%6d %8d %26.1f %6.1f %6.1f%s\n", i + 1, v[i].updates,
		       quantile(lat, v[i].n_lat, 0.5), quantile(lat, v[i].n_lat, 0.99),
		       quantile(lat, v[i].n_lat, 1.0), v[i].failed ? "  (could not connect)" : "");
	}
	printf("all: %d of %d viewers served, %d updates; after the snapshot p50 %.1f ms, p99 %.1f "
	       "ms, max %.1f ms\n",
	       served, n, n_all, quantile(all, n_all, 0.5), quantile(all, n_all, 0.99),
	       quantile(all, n_all, 1.0));
	free(v);
}

int main(int argc, char **argv)
{
	uint32_t sources = 100;
	int rounds = 9, n_viewers = 10;
	double seconds = 20;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--sources"))
			sources = (uint32_t)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--viewers"))
			n_viewers = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atof(argv[i + 1]);
	}
	if (argc % 2 == 0 || sources < 1 || sources > 100000 || rounds < 1 || rounds > 64 ||
	    n_viewers < 0 || n_viewers > 64 || !(seconds > 0)) {
		fprintf(stderr, "usage: srcprof-live-bench [--sources 1-100000] [--rounds 1-64] "
				"[--viewers 0-64] [--seconds S]\n");
		return 2;
	}
	if (!replay_init(sources, 2)) {
		fprintf(stderr, "srcprof-live-bench: out of memory\n");
		return 1;
	}
	printf("srcprof-live-bench: %u sources, 2 passes; clock %s\n", sources, srcprof_clock_source());
	overhead(sources, rounds, REPLAY_CPU, "CPU timing");
	overhead(sources, rounds, REPLAY_GPU, "CPU and GPU timing (fake stamps)");
	if (n_viewers)
		viewers(sources, n_viewers, seconds);
	replay_free();
	return 0;
}
