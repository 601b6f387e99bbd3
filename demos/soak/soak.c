/* srcprof-soak: 100,000 frames (by default) headless with sources replaced
 * every frame. Prints a line every --report-every frames and a verdict:
 * resident memory flat after warm-up, GPU timer pools and live GPU objects
 * not growing, no validation message, error or dropped frame. */
#include "soak.h"

#include "engine/gfx.h"
#include "engine/log.h"
#include "engine/sources.h"
#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PROG SOAK_PROG

typedef struct soak_counters {
	uint64_t errors, warnings;
} soak_counters;

static void count_log(int level, const char *line, void *user)
{
	soak_counters *c = user;
	c->errors += level == ENG_LOG_ERROR;
	c->warnings += level == ENG_LOG_WARNING;
	fprintf(stderr, "%s\n", line);
}

static double rss_mb(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* The serial-th source made: every kind in turn, each with its own name. */
static eng_source *make_source(uint64_t serial, uint32_t slot, const soak_opts *o)
{
	uint32_t enabled[SOAK_KINDS], n = 0;
	for (uint32_t k = 0; k < SOAK_KINDS; k++)
		if (o->kinds & (1u << k))
			enabled[n++] = k;
	uint32_t kind = enabled[serial % n];
	char name[48];
	snprintf(name, sizeof name, "soak-%s-%llu", soak_kind_names[kind],
		 (unsigned long long)serial);
	float x = (float)(slot % 8) - 3.5f, z = (float)(slot / 8 % 8) - 3.5f;
	switch (kind) {
	case 0:
		return eng_mesh_create(&(eng_mesh_desc){.name = name, .shape = (eng_shape)(serial % 3),
							.position = {x, 0.5f, z}, .scale = 0.6f});
	case 1:
		return eng_particles_create(&(eng_particles_desc){
			.name = name, .position = {x, 0, z}, .count = 300, .seed = (uint32_t)serial,
			.gpu_simulation = true, .gpu_steps = 8});
	case 2:
		return eng_effect_create(
			&(eng_effect_desc){.name = name, .position = {x, 0.5f, z}, .size = 64});
	case 3:
		return eng_video_create(&(eng_video_desc){.name = name, .position = {x, 0.5f, z},
							  .fps = 60, .width = 64, .height = 36});
	case 4:
		return eng_logic_create(&(eng_logic_desc){.name = name, .work = 2});
	default: {
		uint32_t w = o->width / 8, h = o->height / 8;
		return eng_heavy_create(&(eng_heavy_desc){
			.name = name, .k = 0.5f,
			.rect = {(int32_t)(slot % 8 * w), (int32_t)(slot / 8 % 8 * h), w, h}});
	}
	}
}

#define SOAK_RSS_EVERY 100

typedef struct rss_fit {
	double slope; /* MB per frame */
	double min, max;
} rss_fit;

static rss_fit fit_line(const double *x, const double *y, uint32_t n)
{
	rss_fit f = {0};
	if (!n)
		return f;
	double mx = 0, my = 0;
	f.min = f.max = y[0];
	for (uint32_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
		f.min = y[i] < f.min ? y[i] : f.min;
		f.max = y[i] > f.max ? y[i] : f.max;
	}
	mx /= n;
	my /= n;
	double sxy = 0, sxx = 0;
	for (uint32_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
	}
	f.slope = sxx > 0 ? sxy / sxx : 0;
	return f;
}

typedef struct soak_sample {
	uint64_t frame;
	double rss;
	source_profiler_stats_t st;
	eng_gfx_counts gfx;
	uint32_t messages;
	uint64_t failures;
} soak_sample;

static soak_sample sample(eng_engine *e, uint64_t frame)
{
	soak_sample s = {.frame = frame, .rss = rss_mb()};
	source_profiler_get_stats(&s.st);
	eng_gfx_get_counts(&s.gfx);
	s.messages = eng_gfx_validation_messages();
	s.failures = eng_failures(e);
	return s;
}

static void print_sample(const soak_sample *s, double ms_per_frame)
{
	printf("frame %7llu  %6.2f ms/frame  rss %7.1f MB  profiler %6.1f KB (threads' %.0f KB), "
	       "%u sources, %u timers/frame  gpu objects %u buffers %u images %u pipelines  "
	       "gpu frames %llu kept %llu dropped  messages %u  failures %llu\n",
	       (unsigned long long)s->frame, ms_per_frame, s->rss, (double)s->st.bytes / 1024.0,
	       (double)s->st.thread_bytes / 1024.0, s->st.sources, s->st.gpu_timer_capacity, s->gfx.buffers, s->gfx.images,
	       s->gfx.pipelines, (unsigned long long)s->st.gpu_frames_collected,
	       (unsigned long long)s->st.gpu_frames_disjoint, s->messages,
	       (unsigned long long)s->failures);
	fflush(stdout);
}

static bool verdict(bool ok, const char *what)
{
	printf("  %-4s %s\n", ok ? "ok" : "FAIL", what);
	return ok;
}

int main(int argc, char **argv)
{
	eng_pin_allocator();
	soak_opts o;
	soak_opts_init(&o);
	int p = soak_parse_args(argc, argv, &o);
	if (p != 0)
		return p > 0 ? 0 : 2;
	soak_counters logs = {0};
	eng_log_set_hook(count_log, &logs);

	eng_result r;
	eng_engine *e = eng_create(&(eng_desc){.gfx = {.api = o.api, .headless = true,
						       .gpu_timing = o.gpu_timing,
						       .width = o.width, .height = o.height,
						       .validate = o.validate,
						       .shader_dir = o.shader_dir,
						       .compute = o.compute},
					       .fixed_dt = 1.0 / 60.0,
					       .tick_threads = o.tick_threads,
					       .record_threads = o.record_threads},
				   &r);
	if (!e) {
		fprintf(stderr, PROG ": cannot start: %s\n", eng_result_str(r));
		return 1;
	}
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	printf(PROG ": %s on %s (%s), %u frames, %u sources, %u replaced per frame, "
	       "warm-up %u frames, validation %s\n",
	       info.api, info.device, info.gpu_timing, o.frames, o.sources, o.churn, o.warmup,
	       o.validate ? "on" : "off");

	eng_source **live = calloc(o.sources, sizeof *live);
	uint64_t serial = 0;
	int status = 0;
	for (uint32_t i = 0; i < o.sources; i++) {
		live[i] = make_source(serial++, i, &o);
		if (!live[i]) {
			fprintf(stderr, PROG ": cannot create source %u\n", i);
			status = 1;
			goto done;
		}
		eng_add_source(e, live[i]);
	}

	soak_sample base = {0}, last = {0};
	uint32_t capacity_max = 0, pipelines_max = 0, buffers_max = 0, images_max = 0;
	soak_sample mid = {0};
	/* Resident memory every SOAK_RSS_EVERY frames after warm-up, for a
	 * least-squares line: a leak is a slope, allocator noise is not. */
	uint32_t n_rss = 0, cap_rss = o.frames / SOAK_RSS_EVERY + 2;
	double *rss = malloc(cap_rss * sizeof *rss), *rss_frame = malloc(cap_rss * sizeof *rss);
	uint32_t next = 0;
	uint64_t t0 = srcprof_clock_ns(), t_report = t0, f_report = 0;
	for (uint64_t f = 1; f <= o.frames; f++) {
		for (uint32_t c = 0; c < o.churn; c++) {
			uint32_t slot = next++ % o.sources;
			eng_remove_source(e, live[slot]);
			live[slot] = make_source(serial++, slot, &o);
			if (!live[slot]) {
				fprintf(stderr, PROG ": frame %llu: cannot create a source\n",
					(unsigned long long)f);
				status = 1;
				goto done;
			}
			eng_add_source(e, live[slot]);
		}
		eng_result fr = eng_frame(e);
		if (fr != ENG_OK) {
			fprintf(stderr, PROG ": frame %llu: %s\n", (unsigned long long)f,
				eng_result_str(fr));
			status = 1;
			goto done;
		}
		bool measured = f >= o.warmup;
		if (measured && (f - o.warmup) % SOAK_RSS_EVERY == 0 && rss && rss_frame &&
		    n_rss < cap_rss) {
			rss_frame[n_rss] = (double)f;
			rss[n_rss++] = rss_mb();
		}
		bool at_base = f == (o.warmup ? o.warmup : 1);
		/* Half-way through the measured frames: threads' buffers settle
		 * by then (a thread writes two chunks in turn once its first
		 * wraps), and must not grow after. */
		bool at_mid = f == o.warmup + (o.frames - o.warmup) / 2;
		if (at_base || at_mid || f % o.report_every == 0 || f == o.frames) {
			soak_sample s = sample(e, f);
			uint64_t now = srcprof_clock_ns();
			print_sample(&s, (double)(now - t_report) * 1e-6 / (double)(f - f_report));
			t_report = now;
			f_report = f;
			if (at_base)
				base = s;
			if (at_mid)
				mid = s;
			if (measured) {
				capacity_max = s.st.gpu_timer_capacity > capacity_max
						       ? s.st.gpu_timer_capacity
						       : capacity_max;
				pipelines_max = s.gfx.pipelines > pipelines_max ? s.gfx.pipelines
										: pipelines_max;
				buffers_max = s.gfx.buffers > buffers_max ? s.gfx.buffers : buffers_max;
				images_max = s.gfx.images > images_max ? s.gfx.images : images_max;
			}
			last = s;
		}
	}
	double secs = (double)(srcprof_clock_ns() - t0) * 1e-9;
	printf("%llu sources made and removed in %.0f s (%.2f ms/frame)\n",
	       (unsigned long long)serial, secs, secs * 1e3 / o.frames);
	rss_fit fit = fit_line(rss_frame, rss, n_rss);
	double span = n_rss > 1 ? rss_frame[n_rss - 1] - rss_frame[0] : 0;
	double growth_kb = fit.slope * span * 1024.0;
	char line[256];
	snprintf(line, sizeof line,
		 "resident memory over frames %llu-%llu: %.1f MB at the start, %.1f MB at the "
		 "end, %.1f-%.1f MB; fitted growth %+.0f KB (%+.1f bytes/frame; allowed %u KB)",
		 (unsigned long long)base.frame, (unsigned long long)last.frame, n_rss ? rss[0] : 0,
		 n_rss ? rss[n_rss - 1] : 0, fit.min, fit.max, growth_kb,
		 fit.slope * 1024.0 * 1024.0, o.max_growth_kb);
	bool ok = verdict(n_rss > 1 && growth_kb <= o.max_growth_kb, line);
	free(rss);
	free(rss_frame);
	snprintf(line, sizeof line, "GPU timer pools: %u timers per frame at warm-up, at most %u after",
		 base.st.gpu_timer_capacity, capacity_max);
	ok &= verdict(capacity_max <= base.st.gpu_timer_capacity, line);
	snprintf(line, sizeof line,
		 "live GPU objects: %u buffers, %u images, %u pipelines at warm-up; at most "
		 "%u, %u, %u after",
		 base.gfx.buffers, base.gfx.images, base.gfx.pipelines, buffers_max, images_max,
		 pipelines_max);
	ok &= verdict(buffers_max <= base.gfx.buffers + 2 * o.churn &&
			      images_max <= base.gfx.images + 2 * o.churn &&
			      pipelines_max <= base.gfx.pipelines,
		      line);
	/* The profiler's own memory, threads' buffers apart: those hold a
	 * frame's records per thread, in chunks each thread reuses. */
	size_t own_base = base.st.bytes - base.st.thread_bytes;
	size_t own_last = last.st.bytes - last.st.thread_bytes;
	snprintf(line, sizeof line, "profiler: %.1f KB at warm-up, %.1f KB at the end, %u entries",
		 (double)own_base / 1024.0, (double)own_last / 1024.0, last.st.sources);
	ok &= verdict(own_last <= own_base + 64 * 1024 &&
			      last.st.sources <= o.sources + 2 * o.churn + 1,
		      line);
	if (base.st.threads || last.st.threads) {
		snprintf(line, sizeof line,
			 "threads' buffers: %u threads; %.0f KB at warm-up, %.0f KB half-way, %.0f KB "
			 "at the end",
			 last.st.threads, (double)base.st.thread_bytes / 1024.0,
			 (double)mid.st.thread_bytes / 1024.0, (double)last.st.thread_bytes / 1024.0);
		ok &= verdict(last.st.thread_bytes <= mid.st.thread_bytes, line);
	}
	snprintf(line, sizeof line,
		 "messages: %u validation, %llu errors, %llu warnings logged; %llu failures; "
		 "%llu GPU frames dropped",
		 last.messages, (unsigned long long)logs.errors, (unsigned long long)logs.warnings,
		 (unsigned long long)last.failures, (unsigned long long)last.st.gpu_frames_disjoint);
	ok &= verdict(!last.messages && !logs.errors && !logs.warnings && !last.failures &&
			      !last.st.gpu_frames_disjoint,
		      line);
	if (!ok)
		status = 1;
	printf("%s\n", ok ? "soak: PASS" : "soak: FAIL");
done:
	eng_destroy(e);
	free(live);
	source_profiler_shutdown();
	uint32_t teardown = eng_gfx_validation_messages();
	if (teardown) {
		fprintf(stderr, PROG ": %u validation messages (teardown included)\n", teardown);
		status = 1;
	}
	eng_log_set_hook(NULL, NULL);
	return status;
}
