/* bench_check JSON CSV SVG: checks srcprof-bench's outputs for structure and
 * self-consistency (not speed): the JSON has every key, shares add up to
 * at most 100%, p50 <= p95 <= max for every source, the CSV has a row per
 * source, the SVG is well-formed XML with one bar per source shown. */
#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                                    \
	do {                                                 \
		if (!(cond)) {                               \
			fprintf(stderr, "bench_check: " __VA_ARGS__); \
			fputc('\n', stderr);                 \
			failures++;                          \
		}                                            \
	} while (0)

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) == (size_t)n)
		s[n] = '\0';
	fclose(f);
	return s;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	EXPECT(cJSON_IsNumber(v), "missing number '%s'", key);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Well-formed: every tag closed in order, no stray '<'. Returns bars. */
static int check_xml(const char *s)
{
	const char *stack[64];
	size_t lens[64];
	int depth = 0, bars = 0;
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		if (p[1] == '?' || p[1] == '!')
			continue;
		const char *end = strchr(p, '>');
		if (!end) {
			EXPECT(0, "svg: unterminated tag");
			return -1;
		}
		if (p[1] == '/') {
			size_t len = strcspn(p + 2, " >");
			if (!depth || lens[depth - 1] != len || strncmp(stack[depth - 1], p + 2, len)) {
				EXPECT(0, "svg: </%.*s> closes the wrong element", (int)len, p + 2);
				return -1;
			}
			depth--;
		} else {
			size_t len = strcspn(p + 1, " />");
			if (!strncmp(p, "<rect class=\"bar\"", 17))
				bars++;
			if (end[-1] != '/') {
				if (depth == 64)
					return -1;
				stack[depth] = p + 1;
				lens[depth++] = len;
			}
		}
		p = end;
	}
	EXPECT(depth == 0, "svg: %d elements left open", depth);
	return bars;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: bench_check JSON CSV SVG\n");
		return 2;
	}
	char *json = slurp(argv[1]), *csv = slurp(argv[2]), *svg = slurp(argv[3]);
	EXPECT(json && csv && svg, "an output is missing");
	cJSON *root = json && csv && svg ? cJSON_Parse(json) : NULL;
	EXPECT(!json || root, "JSON does not parse");
	if (!root) {
		free(json);
		free(csv);
		free(svg);
		return 1;
	}
	const char *top[] = {"generator", "machine", "git", "scene", "frames", "points"};
	for (size_t i = 0; i < sizeof top / sizeof *top; i++)
		EXPECT(cJSON_GetObjectItem(root, top[i]), "missing key '%s'", top[i]);
	const cJSON *points = cJSON_GetObjectItem(root, "points"), *pt;
	int total_sources = 0, first_sources = -1;
	cJSON_ArrayForEach(pt, points)
	{
		const char *keys[] = {"api", "sources", "device", "driver", "gpu_timing", "frame_gpu_us",
				      "frames_timed", "frames_off", "frames_cpu", "frames_cpu_gpu",
				      "overhead_cpu", "overhead_cpu_gpu", "sources_detail",
				      "frames_empty", "source_cost_us"};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
			EXPECT(cJSON_GetObjectItem(pt, keys[i]), "point without '%s'", keys[i]);
		const char *frames[] = {"frames_timed", "frames_off", "frames_cpu", "frames_cpu_gpu",
					"frames_empty"};
		for (int i = 0; i < 5; i++) {
			const cJSON *f = cJSON_GetObjectItem(pt, frames[i]);
			double p50 = num(f, "p50_ms"), p95 = num(f, "p95_ms"), p99 = num(f, "p99_ms");
			EXPECT(p50 <= p95 && p95 <= p99, "%s: p50 %g, p95 %g, p99 %g out of order", frames[i],
			       p50, p95, p99);
			EXPECT(num(f, "mean_ms") > 0, "%s: no frames", frames[i]);
		}
		const cJSON *ov = cJSON_GetObjectItem(pt, "overhead_cpu_gpu");
		EXPECT(num(ov, "min") <= num(ov, "median") && num(ov, "median") <= num(ov, "max"),
		       "overhead spread out of order");
		const cJSON *method = cJSON_GetObjectItem(pt, "overhead_method");
		EXPECT(cJSON_IsString(method) && (!strcmp(method->valuestring, "direct") ||
						  !strcmp(method->valuestring, "composed")),
		       "overhead_method is neither direct nor composed");
		double share = 0, gpu_sum = 0;
		const cJSON *src, *detail = cJSON_GetObjectItem(pt, "sources_detail");
		int n = 0;
		cJSON_ArrayForEach(src, detail)
		{
			double p50 = num(src, "gpu_p50_us"), p95 = num(src, "gpu_p95_us"),
			       max = num(src, "gpu_max_us");
			EXPECT(p50 <= p95 && p95 <= max, "source %d: p50 %g p95 %g max %g out of order", n,
			       p50, p95, max);
			share += num(src, "share");
			gpu_sum += num(src, "gpu_avg_us");
			num(src, "tick_avg_us");
			num(src, "render_avg_us");
			n++;
		}
		EXPECT(n == (int)num(pt, "sources") || n > 0, "no sources listed");
		/* Each source's cost, (off - empty) / sources per pair: the
		 * median within the pairs' range, and above 0 (the bench's scenes
		 * draw something for every source; the empty frame is several
		 * times cheaper than any point's frame, far beyond noise). */
		const cJSON *cost = cJSON_GetObjectItem(pt, "source_cost_us");
		double c_min = num(cost, "min"), c_med = num(cost, "median"), c_max = num(cost, "max");
		EXPECT(c_min <= c_med && c_med <= c_max, "source_cost_us spread out of order");
		EXPECT(c_med > 0, "source_cost_us median %g: the sources cost nothing", c_med);
		/* The pooled frame means weigh the same pairs' frames: their
		 * (off - empty) / sources lies within the pairs' range. */
		double pooled = (num(cJSON_GetObjectItem(pt, "frames_off"), "mean_ms") -
				 num(cJSON_GetObjectItem(pt, "frames_empty"), "mean_ms")) *
				1000.0 / (n ? n : 1);
		double tol = 0.01 + 0.01 * fabs(c_med);
		EXPECT(pooled >= c_min - tol && pooled <= c_max + tol,
		       "pooled (off - empty) / sources %g is outside source_cost_us %g .. %g", pooled,
		       c_min, c_max);
		EXPECT(num(cJSON_GetObjectItem(pt, "frames_empty"), "mean_ms") <
			       num(cJSON_GetObjectItem(pt, "frames_off"), "mean_ms"),
		       "a frame with no sources is not cheaper than one with them");
		EXPECT(share <= 1.0 + 1e-9, "shares add up to %.1f%%", share * 100);
		double mean = n ? gpu_sum / n : 0;
		EXPECT(fabs(num(pt, "source_gpu_mean_us") - mean) <= 0.01 + 1e-3 * mean,
		       "source_gpu_mean_us %g is not the sources' mean %g",
		       num(pt, "source_gpu_mean_us"), mean);
		if (first_sources < 0)
			first_sources = n;
		total_sources += n;
	}
	/* CSV: a header and a row per source of every point. */
	int rows = -1;
	for (const char *p = csv; *p; p++)
		rows += *p == '\n';
	EXPECT(!strncmp(csv, "api,sources,source,type,gpu_avg_us,", 35), "CSV header");
	EXPECT(rows == total_sources, "CSV has %d rows for %d sources", rows, total_sources);
	int bars = check_xml(svg);
	int want = first_sources < 40 ? first_sources : 40;
	EXPECT(bars == want, "SVG has %d bars for %d sources", bars, want);
	printf("bench_check: %d points, %d source rows, %d bars: %s\n", cJSON_GetArraySize(points),
	       rows, bars, failures ? "FAILED" : "ok");
	cJSON_Delete(root);
	free(json);
	free(csv);
	free(svg);
	return failures ? 1 : 0;
}
