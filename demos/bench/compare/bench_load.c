#include "bench_load.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "srcprof-bench compare"

/* Where in the file a message points: the label, the path, the point and
 * source being read. */
typedef struct where {
	const char *label, *path;
	int run, point, source; /* run: other_runs' index; -1: the file's points */
	const char *api, *name;
	uint32_t sources;
} where;

static void complain(const where *w, const char *fmt, ...)
{
	fprintf(stderr, PROG ": %s '%s': ", w->label, w->path);
	if (w->run >= 0)
		fprintf(stderr, "other_runs[%d] (run %d): ", w->run, w->run + 2);
	if (w->point >= 0)
		fprintf(stderr, "points[%d] (%s, %u sources): ", w->point, w->api ? w->api : "?",
			w->sources);
	if (w->source >= 0)
		fprintf(stderr, "sources_detail[%d] ('%s'): ", w->source, w->name ? w->name : "?");
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Bench files this size or larger are refused (a reader of /dev/zero
 * would grow without end): 100,000 sources of 1,000 frames fit. */
#define BENCH_FILE_MAX (sizeof(size_t) > 4 ? (size_t)4 << 30 : (size_t)1 << 30)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		if (cap >= BENCH_FILE_MAX) {
			free(buf);
			fclose(f);
			errno = EFBIG;
			return NULL;
		}
		char *grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
		cap *= 2;
	}
	int err = ferror(f) ? (errno ? errno : EIO) : buf ? 0 : ENOMEM;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static const cJSON *need(const where *w, const cJSON *obj, const char *key, bool ok_null)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!v || (!ok_null && cJSON_IsNull(v)))
		complain(w, "no '%s'", key);
	return v;
}

static bool number(const where *w, const cJSON *obj, const char *key, double min, double *out)
{
	const cJSON *v = need(w, obj, key, false);
	if (!v)
		return false;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < min) {
		complain(w, "'%s' is not a number from %g", key, min);
		return false;
	}
	*out = v->valuedouble;
	return true;
}

static bool count(const where *w, const cJSON *obj, const char *key, uint32_t *out)
{
	double v;
	if (!number(w, obj, key, 0, &v))
		return false;
	if (v > 4e9 || v != floor(v)) {
		complain(w, "'%s' is not a whole number", key);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool string(const where *w, const cJSON *obj, const char *key, char *out, size_t size)
{
	const cJSON *v = need(w, obj, key, false);
	if (!v)
		return false;
	if (!cJSON_IsString(v)) {
		complain(w, "'%s' is not a string", key);
		return false;
	}
	if (strlen(v->valuestring) >= size) {
		complain(w, "'%s' is longer than %zu characters", key, size - 1);
		return false;
	}
	snprintf(out, size, "%s", v->valuestring);
	return true;
}

/* A sample's largest value in its file's unit (ns, us or ms): 1e15 ns is
 * 11 days a frame. */
#define SAMPLE_MAX 1e15

/* An array of numbers from 0 to SAMPLE_MAX, times `scale`. */
static bool series(const where *w, const cJSON *obj, const char *key, double scale,
		   brun_series *out)
{
	const cJSON *a = need(w, obj, key, false), *e;
	if (!a)
		return false;
	if (!cJSON_IsArray(a)) {
		complain(w, "'%s' is not an array", key);
		return false;
	}
	int n = cJSON_GetArraySize(a);
	out->v = malloc((n ? (size_t)n : 1) * sizeof *out->v);
	if (!out->v) {
		complain(w, "out of memory for '%s' (%d values)", key, n);
		return false;
	}
	out->n = 0;
	cJSON_ArrayForEach(e, a)
	{
		/* Bounded so that no median, shift or variance overflows. */
		if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || e->valuedouble > SAMPLE_MAX) {
			complain(w, "'%s'[%u] is not a number from 0 to %g", key, out->n, SAMPLE_MAX);
			return false;
		}
		out->v[out->n++] = e->valuedouble * scale;
	}
	return true;
}

const char *const brun_work_keys[BRUN_COUNTERS] = {
	"vertices", "primitives", "vs_invocations", "clip_in", "clip_out", "fs_invocations",
	"cs_invocations"};
const char *const brun_work_names[BRUN_COUNTERS] = {
	"vertices", "primitives", "VS invocations", "clip in", "clip out", "FS invocations",
	"CS invocations"};

/* A count a frame can hold: the profiler keeps 32 bits a frame. */
#define WORK_MAX 4294967295.0

/* A source's "work" object (bench --work), where the file has one; with
 * `required` (the file says --work) it must. */
static bool load_work(const where *w, const cJSON *js, bool required, brun_work *out)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(js, "work");
	if (!o) {
		if (required)
			complain(w, "no 'work', yet the file says \"work\": true (--work)");
		return !required;
	}
	if (!cJSON_IsObject(o)) {
		complain(w, "'work' is not an object of counts (bench --work writes "
			    "{\"frames\": N, \"vertices\": N or null, ...})");
		return false;
	}
	double frames;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "frames");
	if (!f || !cJSON_IsNumber(f) || !((frames = f->valuedouble) >= 0) || frames > 4e9 ||
	    frames != floor(frames)) {
		if (f)
			complain(w, "'work': 'frames' is not a whole number from 0");
		else
			complain(w, "'work': no 'frames'");
		return false;
	}
	out->frames = (uint32_t)frames;
	for (int c = 0; c < BRUN_COUNTERS; c++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, brun_work_keys[c]);
		if (!v) {
			complain(w, "'work': no '%s' (a count a frame, or null where not counted)",
				 brun_work_keys[c]);
			return false;
		}
		if (cJSON_IsNull(v))
			continue;
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > WORK_MAX ||
		    v->valuedouble != floor(v->valuedouble)) {
			complain(w, "'work': '%s' is not a whole number from 0 to %.0f, or null (not "
				    "counted)",
				 brun_work_keys[c], WORK_MAX);
			return false;
		}
		out->v[c] = v->valuedouble;
		out->counted |= 1u << c;
	}
	out->present = true;
	return true;
}

static bool load_source(where *w, const cJSON *js, bool work, brun_source *s)
{
	if (!string(w, js, "name", s->name, sizeof s->name))
		return false;
	w->name = s->name;
	if (!string(w, js, "type", s->type, sizeof s->type) ||
	    !number(w, js, "gpu_avg_us", 0, &s->gpu_avg))
		return false;
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(js, "samples");
	if (!cJSON_IsObject(samples)) {
		complain(w, "no 'samples' (a file from a srcprof-bench that did not keep them: run "
			    "the bench again)");
		return false;
	}
	if (!series(w, samples, "tick_ns", 1e-3, &s->tick) ||
	    !series(w, samples, "render_sum_ns", 1e-3, &s->render) ||
	    !series(w, samples, "gpu_sum_ns", 1e-3, &s->gpu))
		return false;
	s->isolated = -1;
	if (cJSON_GetObjectItemCaseSensitive(js, "isolated_us")) {
		if (!number(w, js, "isolated_us", 0, &s->isolated) ||
		    !series(w, js, "isolated_rounds_us", 1, &s->alone))
			return false;
	}
	/* Absent in files from before the marginal rounds were kept. */
	if (cJSON_GetObjectItemCaseSensitive(js, "marginal_rounds_us") &&
	    !series(w, js, "marginal_rounds_us", 1, &s->marginal))
		return false;
	return load_work(w, js, work, &s->work);
}

bool brun_same_point(const brun_point *a, const brun_point *b)
{
	return !strcmp(a->api, b->api) && a->sources == b->sources &&
	       a->record_threads == b->record_threads;
}

static bool load_point(where *w, const cJSON *js, bool work, brun_point *p)
{
	if (!string(w, js, "api", p->api, sizeof p->api) || !count(w, js, "sources", &p->sources))
		return false;
	w->api = p->api;
	w->sources = p->sources;
	/* Absent in files from before the threads: one. */
	p->record_threads = 1;
	if (cJSON_GetObjectItemCaseSensitive(js, "record_threads") &&
	    (!count(w, js, "record_threads", &p->record_threads) || !p->record_threads)) {
		if (!p->record_threads)
			complain(w, "'record_threads' is 0");
		return false;
	}
	if (!count(w, js, "sources_held", &p->held) || !count(w, js, "pairs", &p->pairs) ||
	    !string(w, js, "device", p->device, sizeof p->device) ||
	    !string(w, js, "gpu_timing", p->mode, sizeof p->mode))
		return false;
	const cJSON *sw = need(w, js, "software", false);
	if (!sw)
		return false;
	p->software = cJSON_IsTrue(sw);
	/* null: the machine could not be read; absent: an older file. */
	const cJSON *busy = need(w, js, "machine_busy_pct", true);
	if (!busy)
		return false;
	p->busy_pct = -1;
	if (!cJSON_IsNull(busy) && !number(w, js, "machine_busy_pct", 0, &p->busy_pct))
		return false;
	/* Absent in files older than --raster-threads; null on hardware. */
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(js, "raster_threads");
	p->raster_threads = -1;
	uint32_t threads;
	if (rt && !cJSON_IsNull(rt)) {
		/* A count of threads the bench saw run (Mesa 22.3 starts at
		 * most 32); far above that, the file is not one it wrote. */
		if (!count(w, js, "raster_threads", &threads))
			return false;
		if (threads > 1024) {
			complain(w, "'raster_threads' is %u, over 1024", threads);
			return false;
		}
		p->raster_threads = (int)threads;
	}
	const cJSON *off = need(w, js, "frames_off", false);
	if (!off || !series(w, off, "samples_ms", 1, &p->frames))
		return false;
	const cJSON *detail = need(w, js, "sources_detail", false), *e;
	if (!detail)
		return false;
	if (!cJSON_IsArray(detail)) {
		complain(w, "'sources_detail' is not an array");
		return false;
	}
	int n = cJSON_GetArraySize(detail);
	p->src = calloc(n ? (size_t)n : 1, sizeof *p->src);
	if (!p->src) {
		complain(w, "out of memory for %d sources", n);
		return false;
	}
	cJSON_ArrayForEach(e, detail)
	{
		w->source = (int)p->n_src;
		w->name = NULL;
		if (!load_source(w, e, work, &p->src[p->n_src++]))
			return false;
	}
	w->source = -1;
	return true;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A key of the object js twice, or NULL: its keys sorted (pairwise, a
 * file of 500,000 keys took minutes). `*oom` is set when the sort's array
 * cannot be had. */
static const char *twice_in(const cJSON *js, bool *oom)
{
	size_t n = 0;
	for (const cJSON *c = js->child; c; c = c->next)
		n++;
	if (n < 2)
		return NULL;
	const char **keys = malloc(n * sizeof *keys);
	if (!keys) {
		*oom = true;
		return NULL;
	}
	size_t i = 0;
	for (const cJSON *c = js->child; c; c = c->next)
		keys[i++] = c->string;
	qsort(keys, n, sizeof *keys, cmp_key);
	const char *twice = NULL;
	for (i = 1; i < n && !twice; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			twice = keys[i];
	free(keys);
	return twice;
}

/* A key that appears twice in one object anywhere in js (cJSON would
 * read the first silently), or NULL. */
static const char *duplicate_key(const cJSON *js, bool *oom)
{
	if (js && cJSON_IsObject(js)) {
		const char *t = twice_in(js, oom);
		if (t)
			return t;
	}
	for (const cJSON *c = js ? js->child : NULL; c && !*oom; c = c->next) {
		const char *t = duplicate_key(c, oom);
		if (t)
			return t;
	}
	return NULL;
}

/* A points array (the file's, or one of other_runs') into out. */
static bool load_points(where *w, const cJSON *points, brun *out)
{
	const cJSON *e;
	if (!cJSON_IsArray(points) || cJSON_GetArraySize(points) == 0) {
		complain(w, "'points' is not an array of points (%s)",
			 cJSON_IsArray(points) ? "it is empty" : "not an array");
		return false;
	}
	out->points = calloc((size_t)cJSON_GetArraySize(points), sizeof *out->points);
	if (!out->points) {
		complain(w, "out of memory for the points");
		return false;
	}
	cJSON_ArrayForEach(e, points)
	{
		w->point = (int)out->n_points;
		w->api = NULL;
		w->sources = 0;
		if (!load_point(w, e, out->work, &out->points[out->n_points++]))
			return false;
		const brun_point *p = &out->points[out->n_points - 1];
		for (uint32_t k = 0; k + 1 < out->n_points; k++) {
			if (brun_same_point(&out->points[k], p)) {
				/* Compare pairs points by API, count and threads. */
				complain(w, "points[%u] has the same API, source count and record threads",
					 k);
				return false;
			}
		}
	}
	w->point = -1;
	return true;
}

/* The run's settings, from the file's top level. */
static bool load_settings(where *w, const cJSON *root, brun *out)
{
	char generator[64] = "";
	if (!cJSON_IsObject(root)) {
		complain(w, "not a JSON object");
		return false;
	}
	if (!string(w, root, "generator", generator, sizeof generator))
		return false;
	if (strcmp(generator, "srcprof-bench") != 0) {
		complain(w, "written by '%s', not srcprof-bench", generator);
		return false;
	}
	if (!string(w, root, "scene", out->scene, sizeof out->scene) ||
	    !string(w, root, "git", out->git, sizeof out->git) ||
	    !string(w, root, "machine", out->machine, sizeof out->machine) ||
	    !count(w, root, "frames", &out->frames) || !count(w, root, "warmup", &out->warmup) ||
	    !count(w, root, "repeat", &out->repeat))
		return false;
	const cJSON *size = need(w, root, "size", false);
	if (!size)
		return false;
	uint32_t *wh[2] = {&out->width, &out->height};
	for (int i = 0; i < 2; i++) {
		const cJSON *e = cJSON_GetArrayItem(size, i);
		double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
		if (!cJSON_IsArray(size) || cJSON_GetArraySize(size) != 2 || !(v >= 1) ||
		    v > 65536 || v != floor(v)) {
			complain(w, "'size' is not [width, height], whole numbers from 1 to 65536");
			return false;
		}
		*wh[i] = (uint32_t)v;
	}
	out->isolate = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "isolate"));
	out->interrupted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "interrupted"));
	/* Absent in files from before --work: not counted. */
	const cJSON *work = cJSON_GetObjectItemCaseSensitive(root, "work");
	if (work && !cJSON_IsBool(work)) {
		complain(w, "'work' is not true or false");
		return false;
	}
	out->work = cJSON_IsTrue(work);
	return !out->interrupted ||
	       string(w, root, "interrupted_by", out->interrupted_by, sizeof out->interrupted_by);
}

/* --runs: other_runs[k] into out as run k + 2 of the file, with its
 * settings and a path naming the run. */
static bool load_other_run(where *w, const cJSON *js, const brun *first, uint32_t k, brun *out)
{
	*out = (brun){0};
	memcpy(out->path, first->path, sizeof out->path);
	/* "FILE#3": run 3 of FILE; longer paths lose their end, not the run. */
	char tag[16];
	snprintf(tag, sizeof tag, "#%u", k + 2);
	size_t room = sizeof out->path - strlen(tag) - 1;
	if (strlen(out->path) > room)
		out->path[room] = '\0';
	strcat(out->path, tag);
	memcpy(out->scene, first->scene, sizeof out->scene);
	memcpy(out->git, first->git, sizeof out->git);
	memcpy(out->machine, first->machine, sizeof out->machine);
	out->frames = first->frames;
	out->warmup = first->warmup;
	out->repeat = first->repeat;
	out->width = first->width;
	out->height = first->height;
	out->isolate = first->isolate;
	out->work = first->work;
	out->interrupted = first->interrupted;
	memcpy(out->interrupted_by, first->interrupted_by, sizeof out->interrupted_by);
	w->run = (int)k;
	if (!cJSON_IsObject(js)) {
		complain(w, "not an object");
		return false;
	}
	const cJSON *points = need(w, js, "points", false);
	return points && load_points(w, points, out);
}

uint32_t brun_load_runs(const char *path, const char *label, brun *out, uint32_t max)
{
	size_t len = 0;
	char *text = slurp(path, &len);
	if (!text) {
		out[0] = (brun){0};
		complain(&(where){.label = label, .path = path, .run = -1, .point = -1, .source = -1},
			 "cannot read it (%s)", strerror(errno));
		return 0;
	}
	uint32_t n = brun_parse_runs(text, len, path, label, out, max);
	free(text);
	return n;
}

uint32_t brun_parse_runs(const char *text, size_t len, const char *path, const char *label,
			 brun *out, uint32_t max)
{
	out[0] = (brun){0};
	snprintf(out[0].path, sizeof out[0].path, "%s", path);
	where w = {.label = label, .path = path, .run = -1, .point = -1, .source = -1};
	const char *end = NULL;
	if (strlen(text) != len) {
		complain(&w, "not JSON (a NUL byte at byte %zu)", strlen(text));
		return 0;
	}
	/* The terminating NUL counted: nothing may follow the value. */
	cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, true);
	if (!root) {
		const char *at = end ? end : cJSON_GetErrorPtr();
		long off = at && at >= text && at <= text + len ? (long)(at - text) : -1;
		complain(&w, "not JSON (the parse stopped at byte %ld)", off);
		return 0;
	}
	uint32_t n = 0;
	const cJSON *points, *others, *e;
	bool oom = false;
	const char *twice = duplicate_key(root, &oom);
	if (oom) {
		complain(&w, "out of memory checking its keys");
		goto fail;
	}
	if (twice) {
		complain(&w, "the key '%s' appears twice in one object", twice);
		goto fail;
	}
	if (!load_settings(&w, root, &out[0]))
		goto fail;
	points = need(&w, root, "points", false);
	if (!points || !load_points(&w, points, &out[0]))
		goto fail;
	n = 1;
	/* Absent in files from before --runs: one run. */
	others = cJSON_GetObjectItemCaseSensitive(root, "other_runs");
	if (others && !cJSON_IsArray(others)) {
		complain(&w, "'other_runs' is not an array");
		goto fail;
	}
	cJSON_ArrayForEach(e, others)
	{
		if (n == max) {
			w.run = -1;
			complain(&w, "holds %d runs; only %u more fit on this side, counting the "
				     "files before it",
				 cJSON_GetArraySize(others) + 1, max);
			goto fail;
		}
		if (!load_other_run(&w, e, &out[0], n - 1, &out[n])) {
			n++;
			goto fail;
		}
		n++;
	}
	cJSON_Delete(root);
	return n;
fail:
	cJSON_Delete(root);
	for (uint32_t i = 0; i < (n ? n : 1); i++)
		brun_free(&out[i]);
	return 0;
}

void brun_free(brun *r)
{
	for (uint32_t i = 0; r->points && i < r->n_points; i++) {
		brun_point *p = &r->points[i];
		for (uint32_t k = 0; p->src && k < p->n_src; k++) {
			free(p->src[k].tick.v);
			free(p->src[k].render.v);
			free(p->src[k].gpu.v);
			free(p->src[k].alone.v);
			free(p->src[k].marginal.v);
		}
		free(p->src);
		free(p->frames.v);
	}
	free(r->points);
	r->points = NULL;
	r->n_points = 0;
}
