/* trace_check FILE.json [--gpu] [--blocks] [--gpu-in-frames] [--gpu-tracks N]:
 * checks a srcprof trace the way a viewer needs it: valid JSON with
 * traceEvents, every X event with ts/dur, X events properly nested per
 * track, a "frame time" counter; with --gpu a GPU track holding GPU
 * events, with --blocks PERF_BLOCK events; with --gpu-in-frames every GPU
 * event of a source inside the GPU frame of its frame number (args.frame),
 * on its track, and every such frame present; with --gpu-tracks N exactly
 * N GPU tracks (one per queue) holding GPU events. Prints a summary; exit 1 with the reason
 * otherwise. */
#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct xev {
	int tid;
	long long ts, end;
} xev;

/* A GPU event or GPU frame, for --gpu-in-frames. */
typedef struct gev {
	int tid;
	long long frame, ts, end;
	bool is_frame;
} gev;

static int cmp_gev(const void *a, const void *b)
{
	const gev *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid - y->tid;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return (int)y->is_frame - (int)x->is_frame; /* the frame first */
}

/* Every GPU event inside the GPU frame of its number, on its track. */
static bool gpu_in_frames(gev *g, int n, int *checked)
{
	qsort(g, (size_t)n, sizeof *g, cmp_gev);
	const gev *frame = NULL;
	for (int i = 0; i < n; i++) {
		if (g[i].is_frame) {
			frame = &g[i];
			continue;
		}
		if (!frame || frame->tid != g[i].tid || frame->frame != g[i].frame) {
			fprintf(stderr, "trace_check: a GPU event of frame %lld has no GPU frame on its "
					"track %d\n",
				g[i].frame, g[i].tid);
			return false;
		}
		if (g[i].ts < frame->ts || g[i].end > frame->end) {
			fprintf(stderr, "trace_check: a GPU event of frame %lld, [%lld, %lld] ns, lies "
					"outside its GPU frame [%lld, %lld]\n",
				g[i].frame, g[i].ts, g[i].end, frame->ts, frame->end);
			return false;
		}
		(*checked)++;
	}
	return true;
}

static int cmp(const void *a, const void *b)
{
	const xev *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid - y->tid;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

static int fail(const char *why)
{
	fprintf(stderr, "trace_check: %s\n", why);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return fail("usage: trace_check FILE.json [--gpu] [--blocks] [--gpu-in-frames] "
			    "[--gpu-tracks N]");
	bool want_gpu = false, want_blocks = false, want_in_frames = false;
	int want_tracks = -1; /* --gpu-tracks N: GPU tracks holding GPU events */
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--gpu-tracks") && i + 1 < argc)
			want_tracks = atoi(argv[++i]);
		want_gpu |= strcmp(argv[i], "--gpu") == 0;
		want_blocks |= strcmp(argv[i], "--blocks") == 0;
		want_in_frames |= strcmp(argv[i], "--gpu-in-frames") == 0;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return fail("cannot open the file");
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = malloc((size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len)
		return fail("cannot read the file");
	text[len] = '\0';
	fclose(f);
	cJSON *root = cJSON_Parse(text);
	if (!root)
		return fail("not valid JSON");
	const cJSON *events = cJSON_GetObjectItem(root, "traceEvents");
	if (!cJSON_IsArray(events))
		return fail("no traceEvents array");
	int n = cJSON_GetArraySize(events);
	xev *x = calloc((size_t)n + 1, sizeof *x);
	gev *g = calloc((size_t)n + 1, sizeof *g);
	int ng = 0;
	int nx = 0, counters = 0, gpu_events = 0, blocks = 0, gpu_tid = -1;
	int gpu_tids[16], gpu_tid_events[16] = {0}, n_gpu_tids = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *ph = cJSON_GetObjectItem(e, "ph"), *name = cJSON_GetObjectItem(e, "name");
		if (!cJSON_IsString(ph) || !cJSON_IsString(name))
			return fail("an event without ph or name");
		if (!strcmp(ph->valuestring, "M") && !strcmp(name->valuestring, "thread_name")) {
			const cJSON *args = cJSON_GetObjectItem(e, "args");
			const cJSON *tn = args ? cJSON_GetObjectItem(args, "name") : NULL;
			if (cJSON_IsString(tn) && !strncmp(tn->valuestring, "GPU", 3)) {
				gpu_tid = cJSON_GetObjectItem(e, "tid")->valueint;
				if (n_gpu_tids < 16)
					gpu_tids[n_gpu_tids++] = gpu_tid;
			}
		} else if (!strcmp(ph->valuestring, "C")) {
			counters += !strcmp(name->valuestring, "frame time");
		} else if (!strcmp(ph->valuestring, "X")) {
			const cJSON *ts = cJSON_GetObjectItem(e, "ts"), *dur = cJSON_GetObjectItem(e, "dur");
			const cJSON *tid = cJSON_GetObjectItem(e, "tid"), *cat = cJSON_GetObjectItem(e, "cat");
			if (!cJSON_IsNumber(ts) || !cJSON_IsNumber(dur) || !cJSON_IsNumber(tid) ||
			    dur->valuedouble < 0)
				return fail("an X event without ts, dur or tid");
			long long t = llround(ts->valuedouble * 1000.0);
			x[nx++] = (xev){tid->valueint, t, t + llround(dur->valuedouble * 1000.0)};
			if (cJSON_IsString(cat)) {
				bool is_gpu = !strcmp(cat->valuestring, "gpu");
				bool is_frame = !strcmp(cat->valuestring, "gpu_frame");
				gpu_events += is_gpu;
				for (int k = 0; is_gpu && k < n_gpu_tids; k++)
					gpu_tid_events[k] += gpu_tids[k] == tid->valueint;
				blocks += !strcmp(cat->valuestring, "block");
				const cJSON *args = cJSON_GetObjectItem(e, "args");
				const cJSON *fr = args ? cJSON_GetObjectItem(args, "frame") : NULL;
				if ((is_gpu || is_frame) && !cJSON_IsNumber(fr))
					return fail("a GPU event without args.frame");
				if (is_gpu || is_frame)
					g[ng++] = (gev){tid->valueint, (long long)fr->valuedouble, t,
							x[nx - 1].end, is_frame};
			}
		}
	}
	qsort(x, (size_t)nx, sizeof *x, cmp);
	long long stack[256];
	int depth = 0, tid = -1;
	for (int i = 0; i < nx; i++) {
		if (x[i].tid != tid) {
			tid = x[i].tid;
			depth = 0;
		}
		while (depth && x[i].ts >= stack[depth - 1])
			depth--;
		if (depth && x[i].end > stack[depth - 1]) {
			fprintf(stderr, "trace_check: track %d: [%lld, %lld] ns crosses an event ending at "
					"%lld\n",
				tid, x[i].ts, x[i].end, stack[depth - 1]);
			return 1;
		}
		if (depth == 256)
			return fail("events nest deeper than 256");
		stack[depth++] = x[i].end;
	}
	if (!counters)
		return fail("no frame time counter");
	if (want_gpu && (gpu_tid < 0 || !gpu_events))
		return fail("no GPU track with GPU events");
	if (want_blocks && !blocks)
		return fail("no PERF_BLOCK events");
	if (want_tracks >= 0) {
		int with = 0;
		for (int k = 0; k < n_gpu_tids; k++)
			with += gpu_tid_events[k] > 0;
		if (with != want_tracks) {
			fprintf(stderr, "trace_check: %d GPU tracks hold GPU events, not %d\n", with,
				want_tracks);
			return 1;
		}
		printf("trace_check: %d GPU tracks with GPU events\n", with);
	}
	int in_frames = 0;
	if (want_in_frames && !gpu_in_frames(g, ng, &in_frames))
		return 1;
	if (want_in_frames)
		printf("trace_check: %d GPU events inside their GPU frames\n", in_frames);
	printf("trace_check: %d X events nested on their tracks, %d GPU events, %d blocks, %d "
	       "frame-time counters\n",
	       nx, gpu_events, blocks, counters);
	cJSON_Delete(root);
	free(x);
	free(g);
	free(text);
	return 0;
}
