/* srcprof-demo: runs a scene with the profiler on and prints the per-source
 * table (in a window when there is a display, else headless). */
#include "app.h"
#include "cli.h"
#include "demo_args.h"
#include "report.h"
#include "scenes.h"

#include "engine/engine.h"
#include "engine/log.h"
#include "srcprof/clock.h"
#include "srcprof/export.h"
#include "srcprof/perf_block.h"
#include "srcprof/source_profiler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG DEMO_PROG

/* Opens an output file now, so a bad path fails before any work. */
static FILE *open_output(const char *opt, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, PROG ": %s: cannot write '%s': %s\n", opt, path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	eng_pin_allocator();
	demo_options o;
	demo_options_init(&o);
	int p = demo_parse_args(argc, argv, &o);
	if (p != 0)
		return p > 0 ? 0 : 2;

	if (!o.engine.gfx.headless && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		fprintf(stderr, PROG ": no display: running headless\n");
		o.engine.gfx.headless = true;
	}
	if (o.engine.gfx.headless && !o.frames && o.seconds == 0)
		o.seconds = 6.0;
	if (!o.sources_given)
		o.sources = o.scene->default_sources;
	o.engine.views = o.scene->views;

	if (o.out_dir) {
		char probe[1100];
		snprintf(probe, sizeof probe, "%s/.srcprof-write-test", o.out_dir);
		FILE *f = fopen(probe, "w");
		if (!f) {
			fprintf(stderr, PROG ": --out-dir: cannot write into '%s': %s\n", o.out_dir,
				strerror(errno));
			return 2;
		}
		fclose(f);
		remove(probe);
	}
	if (!cli_check_writable(PROG, "--screenshot", o.screenshot))
		return 2;
	FILE *csv = NULL, *pass_csv = NULL, *perf = NULL, *trace = NULL;
	if ((o.csv && !(csv = open_output("--csv", o.csv))) ||
	    (o.pass_csv && !(pass_csv = open_output("--pass-csv", o.pass_csv))) ||
	    (o.perf_log && !(perf = open_output("--perf-log", o.perf_log))) ||
	    (o.trace && !(trace = open_output("--trace", o.trace))))
		return 2;
	if (perf)
		perf_block_set_output(perf);
	source_profiler_trace_name_thread("graphics");

	eng_result r;
	eng_engine *e = eng_create(&o.engine, &r);
	if (!e && r == ENG_ERR_SURFACE && !o.engine.gfx.headless) {
		/* A display that cannot be opened: still show the numbers. */
		fprintf(stderr, PROG ": no window could be opened: running headless\n");
		o.engine.gfx.headless = true;
		if (!o.frames && o.seconds == 0)
			o.seconds = 6.0;
		e = eng_create(&o.engine, &r);
	}
	if (!e) {
		fprintf(stderr, PROG ": cannot start: %s\n", eng_result_str(r));
		return 1;
	}
	if (!o.scene->build(e, o.sources)) {
		fprintf(stderr, PROG ": cannot build the scene '%s'\n", o.scene->name);
		eng_destroy(e);
		return 1;
	}
	eng_info("scene %s: %u sources%s", o.scene->name, eng_source_count(e),
		 o.engine.gfx.headless ? ", headless" : "");
	demo_app app;
	app_init(&app, e, o.scene, o.sources, o.out_dir, !o.no_overlay, o.engine.gfx.vsync,
		 !o.engine.no_profile, !o.engine.no_gpu_profile);
	if (trace)
		source_profiler_trace_start(NULL);

	uint64_t start = srcprof_clock_ns(), last_report = start;
	int status = 0;
	for (uint32_t f = 0;; f++) {
		uint64_t now = srcprof_clock_ns();
		bool last = (o.frames && f + 1 >= o.frames) ||
			    (o.seconds > 0 && (double)(now - start) * 1e-9 >= o.seconds);
		if (last && o.screenshot)
			eng_screenshot_request(e, o.screenshot);
		for (uint32_t k = 0; k < o.n_script; k++)
			if (o.script[k].frame == f + 1)
				app_key(&app, o.script[k].key);
		if (eng_frame(e) == ENG_ERR_DEVICE_LOST) {
			fprintf(stderr, PROG ": the device was lost; stopping\n");
			status = 1;
			break;
		}
		app_after_frame(&app);
		if (o.verbose && now - last_report >= 5000000000ull) {
			report_print(stdout, e, 0);
			last_report = now;
		}
		if (last || eng_should_close(e) || app.quit)
			break;
	}
	/* Let a screenshot or trace asked for near the end finish. */
	eng_gfx_wait_frame(0);
	app_after_frame(&app);
	if (app.trace_running) {
		source_profiler_trace_stop();
		app_after_frame(&app);
	}
	eng_gfx_wait_frame(0);
	if (o.screenshot) {
		int s = eng_screenshot_poll(e);
		if (s > 0)
			printf("screenshot: %s\n", o.screenshot);
		else {
			fprintf(stderr, PROG ": --screenshot: no frame was captured\n");
			status = 1;
		}
	}
	report_print(stdout, e, 40);
	if (csv) {
		int rows = source_profiler_write_csv(csv);
		if (rows < 0 || fclose(csv) != 0) {
			fprintf(stderr, PROG ": --csv: writing '%s' failed\n", o.csv);
			status = 1;
		} else {
			printf("csv: %s (%d sources)\n", o.csv, rows);
		}
	}
	if (pass_csv) {
		int rows = source_profiler_write_pass_csv(pass_csv);
		if (rows < 0 || fclose(pass_csv) != 0) {
			fprintf(stderr, PROG ": --pass-csv: writing '%s' failed\n", o.pass_csv);
			status = 1;
		} else {
			printf("pass csv: %s (%d rows)\n", o.pass_csv, rows);
		}
	}
	if (trace) {
		source_profiler_trace_stop();
		source_profiler_trace_info ti;
		source_profiler_trace_get_info(&ti);
		if (source_profiler_trace_write_json(trace) != 0 || fclose(trace) != 0) {
			fprintf(stderr, PROG ": --trace: writing '%s' failed\n", o.trace);
			status = 1;
		} else {
			printf("trace: %s (%llu events, %u frames%s)\n", o.trace,
			       (unsigned long long)ti.events, ti.frames,
			       ti.dropped ? ", buffer full: later events dropped" : "");
		}
		source_profiler_trace_discard();
	}
	app_shutdown(&app);
	uint32_t messages = eng_gfx_validation_messages();
	if (o.engine.gfx.validate) {
		printf("validation: %u messages\n", messages);
		if (messages)
			status = 1;
	}
	eng_destroy(e);
	if (perf) {
		perf_block_set_output(NULL);
		fclose(perf);
		printf("perf log: %s\n", o.perf_log);
	}
	source_profiler_shutdown();
	return status;
}
