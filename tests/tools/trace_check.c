/* trace_check FILE.json [--gpu] [--blocks]: checks a srcprof trace the way a
 * viewer needs it: valid JSON with traceEvents, every X event with ts/dur,
 * X events properly nested per track, a "frame time" counter; with --gpu a
 * GPU track holding GPU events, with --blocks PERF_BLOCK events. Prints a
 * summary; exit 1 with the reason otherwise. */
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
		return fail("usage: trace_check FILE.json [--gpu] [--blocks]");
	bool want_gpu = false, want_blocks = false;
	for (int i = 2; i < argc; i++) {
		want_gpu |= strcmp(argv[i], "--gpu") == 0;
		want_blocks |= strcmp(argv[i], "--blocks") == 0;
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
	int nx = 0, counters = 0, gpu_events = 0, blocks = 0, gpu_tid = -1;
	const cJSON *e;
	cJSON_ArrayForEach(e, events)
	{
		const cJSON *ph = cJSON_GetObjectItem(e, "ph"), *name = cJSON_GetObjectItem(e, "name");
		if (!cJSON_IsString(ph) || !cJSON_IsString(name))
			return fail("an event without ph or name");
		if (!strcmp(ph->valuestring, "M") && !strcmp(name->valuestring, "thread_name")) {
			const cJSON *args = cJSON_GetObjectItem(e, "args");
			const cJSON *tn = args ? cJSON_GetObjectItem(args, "name") : NULL;
			if (cJSON_IsString(tn) && !strncmp(tn->valuestring, "GPU", 3))
				gpu_tid = cJSON_GetObjectItem(e, "tid")->valueint;
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
				gpu_events += !strcmp(cat->valuestring, "gpu");
				blocks += !strcmp(cat->valuestring, "block");
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
	printf("trace_check: %d X events nested on their tracks, %d GPU events, %d blocks, %d "
	       "frame-time counters\n",
	       nx, gpu_events, blocks, counters);
	cJSON_Delete(root);
	free(x);
	free(text);
	return 0;
}
