/* A finished trace capture written out as Chrome Trace Event JSON
 * (trace_write_json): the events recorded by trace.c, the tracks' names,
 * and what each source's figures stood on when it was written. */
#include "srcprof/export.h"

#include "sp_clock.h"
#include "sp_gpu.h"
#include "sp_trace_capture.h"
#include "srcprof_base/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Microseconds with ns precision, from ns relative to the base. */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static const event *g_sort_events;

static int by_track_ts(const void *a, const void *b)
{
	const event *x = &g_sort_events[*(const uint32_t *)a];
	const event *y = &g_sort_events[*(const uint32_t *)b];
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* Longer first, so a container precedes what it contains. */
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static const char *category(uint8_t type)
{
	switch (type) {
	case EV_TICK:
		return "tick";
	case EV_RENDER:
		return "render";
	case EV_GPU:
		return "gpu";
	case EV_GPU_FRAME:
		return "gpu_frame";
	case EV_BLOCK:
		return "block";
	default:
		return "frame";
	}
}

typedef struct sample_list {
	FILE *f;
	uint32_t n;
} sample_list;

static void source_samples(const void *source, const char *name, void *user)
{
	sample_list *sl = user;
	uint32_t cpu = 0, gpu = 0;
	if (!source_profiler_get_sample_counts(source, &cpu, &gpu))
		return;
	fprintf(sl->f, "%s{\"name\":", sl->n++ ? "," : "");
	json_string(sl->f, name);
	fprintf(sl->f, ",\"cpu_samples\":%u,\"gpu_samples\":%u}", cpu, gpu);
}

int source_profiler_trace_write_json(FILE *f)
{
	if (atomic_load(&sp_capture.state) != SOURCE_PROFILER_TRACE_FINISHED || !f) {
		errno = EINVAL;
		return -1;
	}
	event *evs = atomic_load(&sp_capture.events);
	uint64_t n64 = atomic_load(&sp_capture.next);
	uint32_t cap = atomic_load_explicit(&sp_capture.cap, memory_order_relaxed);
	uint32_t n = (uint32_t)(n64 < cap ? n64 : cap);

	/* Base: the earliest stamp, so every ts is >= 0. */
	uint64_t base = atomic_load_explicit(&sp_capture.begin_ns, memory_order_relaxed);
	for (uint32_t i = 0; i < n; i++)
		if (atomic_load_explicit(&evs[i].type, memory_order_acquire) && evs[i].ts < base)
			base = evs[i].ts;

	/* GPU events may overlap where a device pipelines one source's work
	 * into the next; X events on one track must nest, so a GPU event
	 * starts no earlier than the previous one on the track ended. */
	uint32_t *gpu = malloc((size_t)n * sizeof *gpu + 1);
	uint32_t n_gpu = 0;
	uint64_t clamped = 0;
	for (uint32_t i = 0; gpu && i < n; i++)
		if (atomic_load_explicit(&evs[i].type, memory_order_acquire) == EV_GPU)
			gpu[n_gpu++] = i;
	if (gpu) {
		g_sort_events = evs;
		qsort(gpu, n_gpu, sizeof *gpu, by_track_ts);
		uint64_t prev_end = 0;
		for (uint32_t k = 0; k < n_gpu; k++) {
			event *e = &evs[gpu[k]];
			if (k && e->track != evs[gpu[k - 1]].track)
				prev_end = 0; /* each queue's track on its own */
			if (e->ts < prev_end) {
				uint64_t end = e->ts + e->dur;
				e->ts = prev_end;
				e->dur = end > prev_end ? end - prev_end : 0;
				clamped++;
			}
			prev_end = e->ts + e->dur;
		}
		free(gpu);
	}

	fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"srcprof\","
		   "\"clock\":");
	json_string(f, srcprof_clock_source());
	fprintf(f, ",\"gpu_mode\":");
	json_string(f, sp_capture.gpu_mode);
	fprintf(f, ",\"frames\":%u,\"dropped_events\":%llu,\"gpu_events_clamped\":%llu,",
		atomic_load_explicit(&sp_capture.frames, memory_order_relaxed),
		(unsigned long long)atomic_load(&sp_capture.dropped), (unsigned long long)clamped);
	fprintf(f, "\"gpu_resolution_ns\":%llu,", (unsigned long long)sp_gpu_resolution());
	/* What each source's figures stood on when the trace was written. */
	fprintf(f, "\"sources\":[");
	sample_list sl = {f, 0};
	source_profiler_enum_sources(source_samples, &sl);
	fprintf(f, "]},\n");
	fprintf(f, "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
		   "\"args\":{\"name\":\"srcprof\"}}");
	uint32_t tracks = atomic_load(&sp_capture.n_tracks);
	for (uint32_t t = 0; t < tracks; t++) {
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{"
			   "\"name\":",
			t);
		json_string(f, sp_capture.track_names[t]);
		fprintf(f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			   "\"args\":{\"sort_index\":%u}}",
			t, sp_capture.track_gpu[t] ? 1000u + t : t);
	}
	for (uint32_t i = 0; i < n; i++) {
		const event *e = &evs[i];
		uint8_t type = atomic_load_explicit(&e->type, memory_order_acquire);
		if (type == EV_NONE)
			continue;
		if (type == EV_FRAME_TIME) {
			fprintf(f, ",\n{\"name\":\"frame time\",\"ph\":\"C\",\"pid\":1,\"tid\":0,\"ts\":");
			put_us(f, e->ts - base);
			fprintf(f, ",\"args\":{\"ms\":%.3f}}", (double)e->dur / 1e6);
			continue;
		}
		fprintf(f, ",\n{\"name\":");
		if (type == EV_FRAME || type == EV_GPU_FRAME) {
			char buf[48];
			snprintf(buf, sizeof buf, "%s %u", type == EV_FRAME ? "frame" : "GPU frame",
				 e->frame);
			json_string(f, buf);
		} else {
			json_string(f, e->name);
		}
		fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", category(type),
			e->track);
		put_us(f, e->ts - base);
		fprintf(f, ",\"dur\":");
		put_us(f, e->dur);
		fprintf(f, ",\"args\":{");
		if (type == EV_BLOCK) {
			fprintf(f, "\"depth\":%u", e->depth);
		} else {
			fprintf(f, "\"frame\":%u", e->frame);
			if (type == EV_RENDER || type == EV_GPU) {
				const char *pass = source_profiler_pass_name(e->pass);
				fprintf(f, ",\"pass\":");
				json_string(f, pass ? pass : "default");
			}
			/* Its render's work counts, those counted. */
			static const char *const keys[SOURCE_PROFILER_COUNTERS] = {
				"input_vertices",       "input_primitives",    "vs_invocations",
				"clipping_invocations", "clipping_primitives", "fs_invocations",
				"cs_invocations"};
			if (type == EV_GPU && e->work && sp_capture.work)
				for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
					if (sp_capture.work_counted & (1u << c))
						fprintf(f, ",\"%s\":%u", keys[c], sp_capture.work[e->work - 1][c]);
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n]}\n");
	fflush(f);
	return ferror(f) ? -1 : 0;
}
