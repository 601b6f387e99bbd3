/* gpu_check_summary [--real-gpu] DEFAULT.json CALIBRATED.json OVERHEAD.json:
 * the figures scripts/gpu-check.sh reports, read from three srcprof-bench
 * JSON files (each with one point per API):
 *
 *   DEFAULT.json     the default scene with --isolate and --runs 2: each
 *                    source's in-frame / alone, and how far the two runs'
 *                    GPU p50 lie apart, for the sources of 1% or more of
 *                    the frame;
 *   CALIBRATED.json  the calibrated scene: (cost(k) - cost(0)) over
 *                    (cost(1) - cost(0)) for k = 1, 2, 4, 8, in the frame
 *                    (GPU p50) and alone;
 *   OVERHEAD.json    1,000 sources: the frame time CPU+GPU profiling adds.
 *
 * With --real-gpu the targets of a real GPU are checked (calibrated within
 * 5% of 1:2:4:8, in/alone 0.9-1.1, runs within 10%, overhead under 1%) and
 * the exit status is 1 when one misses; without it (a software device) the
 * figures are printed for information and only a file that cannot be read
 * fails (exit 2). */
#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "gpu_check_summary: cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = len > 0 ? malloc((size_t)len + 1) : NULL;
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(text);
		fprintf(stderr, "gpu_check_summary: cannot read %s\n", path);
		return NULL;
	}
	text[len] = '\0';
	fclose(f);
	cJSON *root = cJSON_Parse(text);
	free(text);
	if (!root || !cJSON_IsArray(cJSON_GetObjectItem(root, "points")))
		fprintf(stderr, "gpu_check_summary: %s is not a srcprof-bench JSON file\n", path);
	return root;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(v) ? v->valuestring : "?";
}

static const cJSON *find_source(const cJSON *point, const char *name)
{
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(point, "sources_detail"))
	{
		if (!strcmp(str(s, "name"), name))
			return s;
	}
	return NULL;
}

/* The point of `api` in a file's first run, or in its run `run` (2...). */
static const cJSON *find_point(const cJSON *root, const char *api, int run)
{
	const cJSON *points = cJSON_GetObjectItem(root, "points");
	if (run > 1) {
		const cJSON *r;
		points = NULL;
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "other_runs"))
		{
			if ((int)num(r, "run") == run)
				points = cJSON_GetObjectItem(r, "points");
		}
	}
	const cJSON *p;
	cJSON_ArrayForEach(p, points)
	{
		if (!strcmp(str(p, "api"), api))
			return p;
	}
	return NULL;
}

static bool real_gpu;
static int misses, checks;

/* A target: counted and said only on a real GPU. */
static const char *verdict(bool ok)
{
	if (!real_gpu)
		return "(software device: not a target here)";
	checks++;
	misses += !ok;
	return ok ? "ok" : "MISSED";
}

static void default_scene(const cJSON *root, const char *api)
{
	const cJSON *p = find_point(root, api, 1), *p2 = find_point(root, api, 2);
	if (!p)
		return;
	printf("%s: %s (%s), GPU timing %s%s\n", api, str(p, "device"), str(p, "driver"),
	       str(p, "gpu_timing"), cJSON_IsTrue(cJSON_GetObjectItem(p, "software"))
					     ? ", software device"
					     : "");
	printf("  default scene, sources of 1%% or more of the frame: in-frame / alone; run 2 / "
	       "run 1 (GPU p50)\n");
	bool in_ok = true, runs_ok = true;
	int shown = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(p, "sources_detail"))
	{
		if (!(num(s, "share") >= 0.01))
			continue;
		double ratio = num(s, "in_frame_over_alone");
		const cJSON *s2 = p2 ? find_source(p2, str(s, "name")) : NULL;
		double a = num(s, "gpu_p50_us"), b = s2 ? num(s2, "gpu_p50_us") : NAN;
		double runs = a > 0 && b >= 0 ? b / a : NAN;
		printf("    %-16s %5.1f%%  in/alone %6.3f  runs %6.3f\n", str(s, "name"),
		       num(s, "share") * 100, ratio, runs);
		in_ok &= ratio >= 0.9 && ratio <= 1.1;
		runs_ok &= runs >= 0.9 && runs <= 1.1;
		shown++;
	}
	if (!shown)
		printf("    (none)\n");
	printf("  in/alone within 0.9-1.1: %s\n", verdict(shown && in_ok));
	printf("  two runs within 10%%: %s\n", verdict(shown && p2 && runs_ok));
}

static void calibrated(const cJSON *root, const char *api)
{
	const cJSON *p = find_point(root, api, 1);
	if (!p)
		return;
	static const int ks[] = {0, 1, 2, 4, 8};
	double in[5], alone[5];
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof name, "heavy-k%d", ks[i]);
		const cJSON *s = find_source(p, name);
		in[i] = s ? num(s, "gpu_p50_us") : NAN;
		alone[i] = s ? num(s, "isolated_us") : NAN;
	}
	printf("  calibrated (cost(k) - cost(0)) / (cost(1) - cost(0)), k = 1 2 4 8:\n");
	bool ok = true;
	for (int w = 0; w < 2; w++) {
		const double *c = w ? alone : in;
		printf("    %-8s", w ? "alone" : "in frame");
		for (int i = 1; i < 5; i++) {
			double r = (c[i] - c[0]) / (c[1] - c[0]);
			printf(" %6.2f", r);
			if (!w)
				ok &= fabs(r / ks[i] - 1.0) <= 0.05;
		}
		printf("   (cost(0) %.1f us, cost(8) %.1f us)\n", c[0], c[4]);
	}
	printf("  in frame within 5%% of 1:2:4:8: %s\n", verdict(ok));
}

static void overhead(const cJSON *root, const char *api)
{
	const cJSON *p = find_point(root, api, 1);
	if (!p)
		return;
	const cJSON *gpu = cJSON_GetObjectItem(p, "overhead_cpu_gpu"),
		    *cpu = cJSON_GetObjectItem(p, "overhead_cpu");
	double g = (num(gpu, "median") - 1.0) * 100, c = (num(cpu, "median") - 1.0) * 100;
	printf("  overhead at %.0f sources: CPU timing %+.2f%%, CPU+GPU %+.2f%% of frame time "
	       "(%.0f pairs; frame off %.2f ms)\n",
	       num(p, "sources_held"), c, g, num(p, "pairs"),
	       num(cJSON_GetObjectItem(p, "frames_off"), "mean_ms"));
	printf("  CPU+GPU overhead under 1%%: %s\n", verdict(g < 1.0));
}

int main(int argc, char **argv)
{
	int a = 1;
	if (a < argc && !strcmp(argv[a], "--real-gpu")) {
		real_gpu = true;
		a++;
	}
	if (argc - a != 3) {
		fprintf(stderr, "usage: gpu_check_summary [--real-gpu] DEFAULT.json CALIBRATED.json "
				"OVERHEAD.json\n");
		return 2;
	}
	cJSON *def = load(argv[a]), *cal = load(argv[a + 1]), *ovh = load(argv[a + 2]);
	if (!def || !cal || !ovh)
		return 2;
	static const char *const apis[] = {"vulkan", "gl"};
	for (int i = 0; i < 2; i++) {
		if (!find_point(def, apis[i], 1))
			continue;
		default_scene(def, apis[i]);
		calibrated(cal, apis[i]);
		overhead(ovh, apis[i]);
	}
	if (real_gpu)
		printf("targets: %d of %d met\n", checks - misses, checks);
	cJSON_Delete(def);
	cJSON_Delete(cal);
	cJSON_Delete(ovh);
	return misses ? 1 : 0;
}
