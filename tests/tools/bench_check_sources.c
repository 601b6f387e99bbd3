/* bench_check's checks of each source (described in bench_check.h): its
 * work counters against --work, the CSV's work cells against the JSON, its
 * samples against its counts, average and median alone. */
#include "bench_check.h"

#include "json_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int csv_fields(const char *line, const char **next)
{
	int fields = 1;
	bool quoted = false;
	const char *p = line;
	for (; *p && (quoted || *p != '\n'); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == ',' && !quoted)
			fields++;
	}
	*next = *p ? p + 1 : p;
	return fields;
}

/* --work's keys, in the CSV's column order. */
static const char *const work_keys[7] = {"vertices", "primitives", "vs_invocations", "clip_in",
					 "clip_out", "fs_invocations", "cs_invocations"};

void check_work(const cJSON *src, const char *api, bool want, double frames, int index)
{
	const cJSON *w = cJSON_GetObjectItem(src, "work");
	if (!want) {
		EXPECT(!w, "source %d has \"work\" without --work", index);
		return;
	}
	EXPECT(cJSON_IsObject(w), "source %d has no \"work\" object", index);
	if (!cJSON_IsObject(w))
		return;
	double n = num(w, "frames");
	EXPECT(n >= 0 && n <= frames && n == floor(n), "source %d: work frames %g of %g", index, n,
	       frames);
	int counted = 0;
	for (int c = 0; c < 7; c++) {
		const cJSON *v = cJSON_GetObjectItem(w, work_keys[c]);
		EXPECT(v && (cJSON_IsNull(v) || (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
						 v->valuedouble == floor(v->valuedouble))),
		       "source %d: work '%s' is neither null nor a whole count", index, work_keys[c]);
		counted += cJSON_IsNumber(v);
	}
	/* On Vulkan (lavapipe, a GPU with pipeline statistics) a source that
	 * drew was counted, vertices and all. */
	if (!strcmp(api, "vulkan") && num(src, "gpu_avg_us") > 0 &&
	    strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(src, "type")), "logic") != 0)
		EXPECT(n > 0 && counted == 7 && num(w, "vertices") > 0,
		       "source %d drew on Vulkan: %g work frames, %d counters, vertices %g", index,
		       n, counted, counted ? num(w, "vertices") : 0);
}

void check_csv_work(const char *line, const cJSON *src, int row)
{
	const char *eol = strchr(line, '\n');
	size_t len = eol ? (size_t)(eol - line) : strlen(line);
	char buf[256];
	const char *at = line + len;
	for (int commas = 0; at > line && commas < 8; at--)
		commas += at[-1] == ',';
	size_t n = (size_t)(line + len - at);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, at, n);
	buf[n] = '\0';
	const cJSON *w = src ? cJSON_GetObjectItem(src, "work") : NULL;
	char want[256];
	if (!w) {
		snprintf(want, sizeof want, ",,,,,,,,");
	} else {
		size_t k = (size_t)snprintf(want, sizeof want, ",%.0f", num(w, "frames"));
		for (int c = 0; c < 7 && k < sizeof want; c++) {
			const cJSON *v = cJSON_GetObjectItem(w, work_keys[c]);
			k += cJSON_IsNumber(v) ? (size_t)snprintf(want + k, sizeof want - k, ",%.0f",
								  v->valuedouble)
					       : (size_t)snprintf(want + k, sizeof want - k, ",n/a");
		}
	}
	EXPECT(!strcmp(buf, want), "CSV row %d's work cells '%s', the JSON's '%s'", row, buf, want);
}

/* The sum of an array of numbers (NAN if one is not), its size in *n. */
static double array_sum(const cJSON *a, int *n)
{
	double sum = 0;
	const cJSON *v;
	*n = 0;
	cJSON_ArrayForEach(v, a)
	{
		sum += cJSON_IsNumber(v) ? v->valuedouble : NAN;
		(*n)++;
	}
	return sum;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int rounds_asked;

void check_samples(const cJSON *src, int index)
{
	const cJSON *samples = cJSON_GetObjectItem(src, "samples");
	EXPECT(cJSON_IsObject(samples), "source %d: no samples", index);
	int n_tick, n_render, n_gpu;
	array_sum(cJSON_GetObjectItem(samples, "tick_ns"), &n_tick);
	array_sum(cJSON_GetObjectItem(samples, "render_sum_ns"), &n_render);
	double gpu = array_sum(cJSON_GetObjectItem(samples, "gpu_sum_ns"), &n_gpu);
	double cpu_n = num(src, "cpu_samples"), gpu_n = num(src, "gpu_samples");
	EXPECT(n_tick == (int)cpu_n && n_render == (int)cpu_n && n_gpu == (int)gpu_n,
	       "source %d: %d tick, %d render, %d GPU samples for cpu_samples %g, gpu_samples %g",
	       index, n_tick, n_render, n_gpu, cpu_n, gpu_n);
	double avg = n_gpu ? gpu / n_gpu / 1e3 : 0;
	EXPECT(fabs(avg - num(src, "gpu_avg_us")) <= 2e-3, "source %d: GPU samples average %g us, "
	       "gpu_avg_us %g", index, avg, num(src, "gpu_avg_us"));
	const cJSON *rounds = cJSON_GetObjectItem(src, "isolated_rounds_us");
	if (!cJSON_GetObjectItem(src, "isolated_us"))
		return;
	double v[64];
	int n = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, rounds)
		if (n < 64 && cJSON_IsNumber(e))
			v[n++] = e->valuedouble;
	EXPECT(n >= 1 && n == cJSON_GetArraySize(rounds) && n <= rounds_asked,
	       "source %d: %d rounds alone of %d", index, n, rounds_asked);
	if (n < 1)
		return;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	EXPECT(fabs(median - num(src, "isolated_us")) <= 2e-3,
	       "source %d: its rounds alone have median %g, isolated_us %g", index, median,
	       num(src, "isolated_us"));
}
