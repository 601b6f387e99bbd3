/* The examples' scene, command line, table and truth check (common.h). */
#include "common.h"

#include <srcprof/machine.h>
#include <srcprof/source_profiler.h>
#ifdef EX_HAVE_LIVE
#include <srcprof/live.h>
#endif

#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Equal areas, fragment costs 1 : 4 : 12 units (plus a fixed cost per pixel). */
ex_object ex_objects[EX_OBJECTS] = {
	{"small", {-0.92f, -0.8f, -0.36f, 0.8f}, {0.3f, 0.8f, 0.4f, 1}, 1, 0},
	{"medium", {-0.28f, -0.8f, 0.28f, 0.8f}, {0.3f, 0.5f, 0.9f, 1}, 4, 0},
	{"large", {0.36f, -0.8f, 0.92f, 0.8f}, {0.9f, 0.4f, 0.3f, 1}, 12, 0},
};

/* "[ADDR:]PORT": a numeric address (IPv6 in brackets) or localhost, a
 * port 0 to 65535 (0: a free one). */
static bool parse_listen(const char *v, ex_options *o)
{
	const char *colon = v[0] == '[' ? strstr(v, "]:") : strrchr(v, ':');
	const char *port = v;
	if (colon) {
		const char *host = v[0] == '[' ? v + 1 : v;
		size_t n = (size_t)(colon - host);
		unsigned char bin[16];
		if (n == 0 || n >= sizeof o->address)
			return false;
		memcpy(o->address, host, n);
		o->address[n] = '\0';
		if (v[0] == '[' ? inet_pton(AF_INET6, o->address, bin) != 1
				: strcmp(o->address, "localhost") && inet_pton(AF_INET, o->address, bin) != 1)
			return false;
		port = colon + (v[0] == '[' ? 2 : 1);
	}
	char *end;
	unsigned long p = strtoul(port, &end, 10);
	if (port[0] < '0' || port[0] > '9' || *end || p > 65535)
		return false;
	o->port = (uint16_t)p;
	o->serve = true;
	return true;
}

static bool parse(int argc, char **argv, const char *prog, ex_options *o, bool threads)
{
	*o = (ex_options){.frames = 120, .threads = threads ? 2 : 0};
	bool frames_set = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0) {
			o->check = true;
		} else if (strcmp(argv[i], "--validate") == 0) {
			o->validate = true;
		} else if ((strcmp(argv[i], "--timing") == 0 || strcmp(argv[i], "--gpu-timing") == 0) &&
			   i + 1 < argc) {
			const char *opt = argv[i], *m = argv[++i];
			o->timing = !strcmp(m, "auto") ? 0 : !strcmp(m, "plain") ? 1
							   : !strcmp(m, "flushed") ? 2 : -1;
			if (o->timing < 0) {
				fprintf(stderr, "%s: %s takes auto, plain or flushed (got '%s')\n",
					prog, opt, m);
				return false;
			}
		} else if (threads && strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);
			if (argv[i][0] < '0' || argv[i][0] > '9' || *end || n < 1 || n > EX_MAX_THREADS) {
				fprintf(stderr, "%s: --threads takes 1 to %d (got '%s')\n", prog,
					EX_MAX_THREADS, argv[i]);
				return false;
			}
			o->threads = (uint32_t)n;
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);
			if (*end || n < 1 || n > 100000) {
				fprintf(stderr, "%s: --frames takes 1 to 100000 (got '%s')\n", prog,
					argv[i]);
				return false;
			}
			o->frames = (uint32_t)n;
			frames_set = true;
		} else if (strcmp(argv[i], "--serve") == 0 && i + 1 < argc) {
			if (!parse_listen(argv[++i], o)) {
				fprintf(stderr, "%s: --serve takes [ADDR:]PORT, PORT 0 to 65535 (got '%s')\n",
					prog, argv[i]);
				return false;
			}
		} else {
			fprintf(stderr,
				"usage: %s [--frames N] [--check] [--validate] "
				"[--timing|--gpu-timing auto|plain|flushed] [--serve [ADDR:]PORT]%s\n",
				prog, threads ? " [--threads N]" : "");
			return false;
		}
	}
	if (o->serve && !frames_set)
		o->frames = 0; /* served until Ctrl-C */
	return true;
}

bool ex_parse(int argc, char **argv, const char *prog, ex_options *o)
{
	return parse(argc, argv, prog, o, false);
}

bool ex_parse_threads(int argc, char **argv, const char *prog, ex_options *o)
{
	return parse(argc, argv, prog, o, true);
}

#ifdef EX_HAVE_LIVE
struct srcprof_live *ex_serve_start(const ex_options *o, const char *prog, const char *api,
				    const char *device)
{
	if (!o->serve)
		return NULL;
	srcprof_live *live = srcprof_live_start(&(srcprof_live_desc){
		.address = o->address[0] ? o->address : NULL,
		.port = o->port,
		.captures = true, /* ex_serve_frame polls between frames */
		.program = prog,
		.api = api,
		.device = device,
	});
	if (!live) {
		fprintf(stderr, "%s: --serve: %s\n", prog, srcprof_live_error());
		exit(2);
	}
	printf("live view: %s\n", srcprof_live_url(live));
	fflush(stdout);
	return live;
}

void ex_serve_frame(struct srcprof_live *live)
{
	srcprof_live_poll(live);
}

void ex_serve_stop(struct srcprof_live *live)
{
	srcprof_live_stop(live);
}
#else
struct srcprof_live *ex_serve_start(const ex_options *o, const char *prog, const char *api,
				    const char *device)
{
	(void)api, (void)device;
	if (!o->serve)
		return NULL;
	fprintf(stderr, "%s: --serve: this srcprof was installed without its live view "
			"(libmicrohttpd-dev was missing when it was built)\n",
		prog);
	exit(2);
}

void ex_serve_frame(struct srcprof_live *live)
{
	(void)live;
}

void ex_serve_stop(struct srcprof_live *live)
{
	(void)live;
}
#endif

void ex_tick(ex_object *obj)
{
	for (int i = 0; i < 2000; i++)
		obj->spin = fmod(obj->spin + sin(obj->spin + i) * 1e-3, 6.283185307);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The median of an object's last `n` GPU samples, ns (0 without). */
static double recent_gpu_median(const void *source, int n)
{
	uint32_t samples[4096];
	size_t have = source_profiler_copy_samples(source, SOURCE_PROFILER_GPU, samples, 4096);
	if (have > 4096)
		have = 4096;
	if ((int)have < n)
		n = (int)have;
	if (n <= 0)
		return 0;
	double v[4096];
	for (int i = 0; i < n; i++)
		v[i] = samples[have - (size_t)n + (size_t)i];
	return median(v, n);
}

void ex_print_sources(const char *api, const ex_source *src, int n)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	int order[EX_MAX_SOURCES];
	profiler_result_t r[EX_MAX_SOURCES] = {{0}};
	for (int i = 0; i < n; i++) {
		order[i] = i;
		source_profiler_fill_result(src[i].source, &r[i]);
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (r[order[j]].render_gpu_avg > r[order[i]].render_gpu_avg) {
				int t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	printf("%s, GPU timing %s: %llu frames, %llu GPU-timed and kept\n", api, st.gpu_mode,
	       (unsigned long long)st.frames_collected,
	       (unsigned long long)st.gpu_frames_collected);
	int w = 8; /* the name column: the longest name */
	for (int i = 0; i < n; i++)
		w = (int)strlen(src[i].name) > w ? (int)strlen(src[i].name) : w;
	printf("%-*s   GPU avg us  GPU p50 us  GPU samples  CPU render us  tick us\n", w, "object");
	for (int k = 0; k < n; k++) {
		int i = order[k];
		uint32_t cpu = 0, gpu = 0;
		source_profiler_get_sample_counts(src[i].source, &cpu, &gpu);
		printf("%-*s %12.1f %11.1f %12u %14.1f %8.1f\n", w, src[i].name,
		       r[i].render_gpu_avg / 1e3, recent_gpu_median(src[i].source, 4096) / 1e3, gpu,
		       r[i].render_avg / 1e3, r[i].tick_avg / 1e3);
	}
}

/* The three objects as sources: ranked by their fragment cost, 0.8-1.25. */
static void object_sources(ex_source *src)
{
	for (int i = 0; i < EX_OBJECTS; i++)
		src[i] = (ex_source){&ex_objects[i], ex_objects[i].name, ex_objects[i].loops, 0, 0};
}

void ex_print_table(const char *api)
{
	ex_source src[EX_OBJECTS];
	object_sources(src);
	ex_print_sources(api, src, EX_OBJECTS);
}

#define ROUNDS 9
#define WINDOW 8 /* frames per in-frame window */
#define ALONE_REPS 3

/* "a < b < c" of the ranked sources in the order they read in frame; false
 * when a source of lower cost reads as much as one of higher cost. */
static bool ranked_in_order(const ex_source *src, int n, const double *in_frame, char *line,
			    size_t size)
{
	int order[EX_MAX_SOURCES], m = 0;
	for (int i = 0; i < n; i++)
		if (src[i].cost)
			order[m++] = i;
	for (int i = 0; i < m; i++)
		for (int j = i + 1; j < m; j++)
			if (in_frame[order[j]] < in_frame[order[i]]) {
				int t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	bool ok = true;
	size_t at = 0;
	line[0] = '\0';
	for (int k = 0; k < m; k++) {
		/* Everything read before it must cost no more. */
		for (int e = 0; e < k; e++)
			ok = ok && src[order[e]].cost <= src[order[k]].cost;
		int w = snprintf(line + at, size - at, "%s%s", k ? " < " : "", src[order[k]].name);
		at = w > 0 && (size_t)w < size - at ? at + (size_t)w : size - 1;
	}
	return ok;
}

int ex_check_sources(const char *api, const ex_source *src, int n, bool (*frame)(void *user),
		     bool (*alone)(void *user, int source, bool with_work, uint64_t *ns), void *user)
{
	if (n < 1 || n > EX_MAX_SOURCES)
		return 1;
	srcprof_load_meter load;
	srcprof_load_start(&load);
	source_profiler_gpu_set_budget(100.0); /* every frame GPU-timed while checking */
	for (int f = 0; f < WINDOW; f++)
		if (!frame(user))
			return 1;
	/* Samples of the frames still in flight at a window's end belong to it
	 * but are collected in the next: use the ones surely of this window. */
	int fresh = WINDOW - (int)source_profiler_frames_in_flight();
	double in_frame[EX_MAX_SOURCES][ROUNDS], solo[EX_MAX_SOURCES][ROUNDS],
		ratio[EX_MAX_SOURCES][ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		for (int f = 0; f < WINDOW; f++)
			if (!frame(user))
				return 1;
		for (int i = 0; i < n; i++) {
			double with[ALONE_REPS], without[ALONE_REPS];
			for (int k = 0; k < ALONE_REPS; k++) {
				uint64_t a, b;
				if (!alone(user, i, true, &a) || !alone(user, i, false, &b))
					return 1;
				with[k] = (double)a;
				without[k] = (double)b;
			}
			in_frame[i][r] = recent_gpu_median(src[i].source, fresh);
			solo[i][r] = median(with, ALONE_REPS) - median(without, ALONE_REPS);
			ratio[i][r] = solo[i][r] > 0 ? in_frame[i][r] / solo[i][r] : 0;
		}
	}
	double busy = srcprof_load_others_pct(&load);
	printf("%s check, %d rounds of %d frames then each object alone (median of %d):\n", api,
	       ROUNDS, WINDOW, ALONE_REPS);
	int w = 8; /* the name column: the longest name */
	for (int i = 0; i < n; i++)
		w = (int)strlen(src[i].name) > w ? (int)strlen(src[i].name) : w;
	printf("%-*s   in frame us   alone us   in/alone\n", w, "object");
	double med_in[EX_MAX_SOURCES], med_solo[EX_MAX_SOURCES], med_ratio[EX_MAX_SOURCES];
	for (int i = 0; i < n; i++) {
		med_in[i] = median(in_frame[i], ROUNDS);
		med_solo[i] = median(solo[i], ROUNDS);
		med_ratio[i] = median(ratio[i], ROUNDS);
		printf("%-*s %13.1f %10.1f %10.3f\n", w, src[i].name, med_in[i] / 1e3,
		       med_solo[i] / 1e3, med_ratio[i]);
	}
	if (busy > SRCPROF_BUSY_PCT) {
		printf("skipped: machine busy: other processes used %.1f%% of the CPU (threshold "
		       "%.0f%%); software-device GPU times are inflated\n",
		       busy, SRCPROF_BUSY_PCT);
		return 77;
	}
	char line[512];
	bool ok = ranked_in_order(src, n, med_in, line, sizeof line);
	printf("in frame, cheapest first: %s (%s)\n", line,
	       ok ? "right" : "WRONG: not the order of their costs alone");
	for (int i = 0; i < n; i++) {
		double lo = src[i].lo || src[i].hi ? src[i].lo : 0.8;
		double hi = src[i].lo || src[i].hi ? src[i].hi : 1.25;
		bool in_range = med_ratio[i] >= lo && med_ratio[i] <= hi;
		if (!in_range)
			printf("%s: in frame / alone %.3f is outside %.2f-%.2f\n", src[i].name,
			       med_ratio[i], lo, hi);
		ok = ok && in_range;
	}
	printf("machine: other processes used %.1f%% of the CPU\n%s\n", busy < 0 ? 0 : busy,
	       ok ? "check passed" : "check FAILED");
	return ok ? 0 : 1;
}

/* ex_check's callbacks in ex_check_sources' shape. */
typedef struct objects_check {
	bool (*frame)(void *user);
	bool (*alone)(void *user, int object, uint64_t *ns);
	void *user;
} objects_check;

static bool objects_frame(void *user)
{
	const objects_check *c = user;
	return c->frame(c->user);
}

static bool objects_alone(void *user, int i, bool with_work, uint64_t *ns)
{
	const objects_check *c = user;
	return c->alone(c->user, with_work ? i : -1, ns);
}

int ex_check(const char *api, bool (*frame)(void *user),
	     bool (*alone)(void *user, int object, uint64_t *ns), void *user)
{
	ex_source src[EX_OBJECTS];
	object_sources(src);
	objects_check c = {frame, alone, user};
	return ex_check_sources(api, src, EX_OBJECTS, objects_frame, objects_alone, &c);
}
