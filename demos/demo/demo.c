/* srcprof-demo: runs a scene with the profiler on and prints the per-source
 * table (in a window when there is a display, else headless).
 *
 * However the run ends - its frames or seconds done, Esc, the window
 * closed, Ctrl-C or SIGTERM, the X display gone - it prints the table and
 * completes every file it was asked for. Exit status: 0; 1 for an error
 * (the device could not start or was lost, a file could not be written,
 * validation messages with --validate, the X display lost); 2 for a bad
 * command line; 128 + the signal (130 for SIGINT, 143 for SIGTERM) when a
 * signal ended a run that otherwise went well. */
#include "app.h"
#include "capture.h"
#include "cli.h"
#include "demo_args.h"
#include "demo_out.h"
#include "interrupt.h"
#include "out_file.h"
#include "report.h"
#include "scenes.h"
#include "serve.h"
#include "xdisplay.h"

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
#include <unistd.h>

#define PROG DEMO_PROG

typedef struct demo_run {
	demo_options o;
	demo_out csv, pass_csv, trace;
	FILE *perf;
	eng_engine *e;
	demo_app app;
	bool app_ready;
	time_t started;
	int status;
	bool screenshot_done; /* --screenshot was written or said to have failed */
	void *display; /* held open until the window is (xdisplay.h) */
	demo_serve *serve; /* the live view (--serve, SRCPROF_SERVE) */
} demo_run;

/* Opens an output file now, so a bad path fails before any work. */
static FILE *open_output(const char *opt, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, PROG ": %s: cannot write '%s': %s\n", opt, path, strerror(errno));
	return f;
}

static bool check_out_dir(const char *dir)
{
	if (!dir)
		return true;
	char probe[1100];
	snprintf(probe, sizeof probe, "%s/.srcprof-write-test", dir);
	FILE *f = fopen(probe, "w");
	if (!f) {
		fprintf(stderr, PROG ": --out-dir: cannot write into '%s': %s\n", dir, strerror(errno));
		return false;
	}
	fclose(f);
	remove(probe);
	return true;
}

/* Windowed unless there is no display to open: then headless, saying so in
 * one wording whatever the reason. */
static void choose_display(demo_run *r)
{
	demo_options *o = &r->o;
	if (o->engine.gfx.headless)
		return;
	char why[300] = "";
	if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
		snprintf(why, sizeof why, "DISPLAY is not set");
	else if (getenv("DISPLAY") && !(r->display = xdisplay_open(why, sizeof why)))
		; /* why says which display */
	else
		return;
	fprintf(stderr, PROG ": no display (%s): running headless\n", why);
	o->engine.gfx.headless = true;
}

/* --work-check: the sources' counts of one frame against one query around
 * the same frame (eng_check_work); 1 where they differ or cannot be had. */
static int work_check(eng_engine *e)
{
	eng_work_check w;
	eng_result r = eng_check_work(e, &w);
	if (r != ENG_OK || !w.counted) {
		const char *why = r == ENG_ERR_INVALID || r == ENG_OK
					  ? "no work counted (GPU timing off, profiling off or\n"
					    "paused, or a device without pipeline statistics)"
					  : eng_result_str(r);
		printf("work check: not done: %s\n", why);
		return 1;
	}
	uint32_t same = 0, counted = 0;
	for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
		if (w.counted & (1u << c)) {
			counted++;
			same += w.sources[c] + w.passes[c] == w.frame[c];
		}
	printf("work check: %u sources' counts of one frame, summed, plus its passes with nothing "
	       "drawn, against one query around the whole frame: %s (%u of %u counters)\n",
	       w.n_sources, same == counted ? "equal" : "DIFFERENT", same, counted);
	printf("  %-15s %12s   %10s   %12s\n", "counter", "sources", "passes", "whole frame");
	for (uint32_t c = 0; c < SOURCE_PROFILER_COUNTERS; c++) {
		const char *name = source_profiler_counter_name((source_profiler_counter)c);
		if (!(w.counted & (1u << c))) {
			printf("  %-15s %12s   %10s   %12s\n", name, "n/a", "n/a", "n/a");
			continue;
		}
		unsigned long long src = w.sources[c], pass = w.passes[c], all = w.frame[c];
		printf("  %-15s %12llu + %10llu %s %12llu\n", name, src, pass,
		       src + pass == all ? "=" : "!=", all);
	}
	return same == counted ? 0 : 1;
}

/* Waits for the GPU so that a screenshot or trace asked for near the end
 * is written. Uses the window and the GPU: not after the display is lost. */
static void finish_frames(demo_run *r)
{
	demo_app *a = &r->app;
	eng_gfx_wait_frame(0);
	app_after_frame(a);
	if (a->files.trace_running) {
		source_profiler_trace_stop();
		app_after_frame(a);
	}
	eng_gfx_wait_frame(0);
	if (r->o.screenshot) {
		int s = eng_screenshot_poll(r->e);
		r->screenshot_done = true;
		capture_meta m;
		model_meta(&a->model, &m);
		if (s > 0 && capture_note_png(r->o.screenshot, &m)) {
			printf("screenshot: %s\n", r->o.screenshot);
		} else {
			fprintf(stderr, PROG ": --screenshot: %s\n",
				s > 0	? "written without its record: rewriting it failed"
				: s < 0 ? "writing it failed (said above); no file left"
					: "no frame was captured");
			r->status = 1;
		}
	}
}

/* demo_out_end, and the run's status 1 when it failed. */
static bool end_output(demo_run *r, demo_out *out, bool written)
{
	if (demo_out_end(out, written))
		return true;
	r->status = 1;
	return false;
}

/* Writes a CSV output (its header, then `write`'s rows) and closes it,
 * whatever the write did; the rows, or -1 with the failure said and the
 * run's status 1. */
static int out_write_csv(demo_run *r, demo_out *out, const capture_meta *m, const char *what,
			 int (*write_rows)(FILE *f))
{
	FILE *f = demo_out_begin(out);
	int rows = -1;
	if (f) {
		capture_write_csv_header(f, m, what);
		rows = write_rows(f);
		if (fflush(f) != 0 || ferror(f))
			rows = -1;
	}
	if (!f) {
		r->status = 1;
		return -1;
	}
	return end_output(r, out, rows >= 0) ? rows : -1;
}

/* The table and every file, from the profiler's state alone (no window or
 * GPU call), so that it also runs when the X display is gone. */
static void finish_files(demo_run *r)
{
	demo_app *a = &r->app;
	capture_meta m;
	model_meta(&a->model, &m);
	report_print(stdout, r->e, a->model.scene->name, a->model.sort, 40,
		     model_busy_run(&a->model));
	if (r->csv.reserved) {
		int rows = out_write_csv(r, &r->csv, &m,
					 "snapshot: every source's results over the window",
					 source_profiler_write_csv);
		if (rows >= 0)
			printf("csv: %s (%d sources%s)\n", r->o.csv, capture_sources(rows),
			       capture_has_overlay() ? " and a row for the overlay" : "");
	}
	if (r->pass_csv.reserved) {
		int rows = out_write_csv(r, &r->pass_csv, &m, "passes: every source's results per pass",
					 source_profiler_write_pass_csv);
		if (rows >= 0)
			printf("pass csv: %s (%d rows)\n", r->o.pass_csv, rows);
	}
	if (r->trace.reserved) {
		source_profiler_trace_stop();
		source_profiler_trace_info ti;
		source_profiler_trace_get_info(&ti);
		FILE *f = demo_out_begin(&r->trace);
		bool written = f && capture_write_trace(f, &m) == 0 && fflush(f) == 0 && !ferror(f);
		if (!f)
			r->status = 1;
		if (f && end_output(r, &r->trace, written)) {
			printf("trace: %s (%llu events, %u frames%s)\n", r->o.trace,
			       (unsigned long long)ti.events, ti.frames,
			       ti.dropped ? ", buffer full: later events dropped" : "");
		}
		source_profiler_trace_discard();
	}
	/* An S whose frame never came (a lost device); the log's last rows,
	 * checked and closed. */
	files_cancel_screenshot(&a->files, &a->status);
	files_log_stop(&a->files, &a->model, &a->status);
	if (a->status.failed)
		r->status = 1; /* said where it happened (C, T, S, L, --log) */
}

static void close_perf_log(demo_run *r)
{
	if (!r->perf)
		return;
	perf_block_set_output(NULL);
	if (fclose(r->perf) != 0) {
		fprintf(stderr, PROG ": --perf-log: writing '%s' failed\n", r->o.perf_log);
		r->status = 1;
	} else {
		printf("perf log: %s\n", r->o.perf_log);
	}
	r->perf = NULL;
}

/* From Xlib's I/O error handler: the window and its GPU surface are gone. */
static void on_display_lost(void *user)
{
	demo_run *r = user;
	if (r->app_ready)
		finish_files(r);
	if (r->o.screenshot && !r->screenshot_done) {
		/* Its frame needs the window, which went with the display. */
		fprintf(stderr, PROG ": --screenshot: not written: the display was lost\n");
		r->status = 1;
	}
	close_perf_log(r);
	fflush(stdout);
}

/* The live view: --serve asked for it (a failure is a bad option: exit
 * 2), or SRCPROF_SERVE=[ADDR:]PORT did (a failure is said, the run goes
 * on without it). False: stop with exit status 2. */
static bool start_serving(demo_run *r)
{
	demo_options *o = &r->o;
	const char *env = getenv("SRCPROF_SERVE");
	if (o->serve) {
		r->serve = demo_serve_start("--serve", o->serve_address[0] ? o->serve_address : NULL,
					    o->serve_port, r->e, o->engine.fps, true);
		if (!r->serve)
			return false;
	} else if (env && *env) {
		char address[64];
		uint16_t port;
		if (cli_listen(PROG, "SRCPROF_SERVE", env, address, sizeof address, &port))
			r->serve = demo_serve_start("SRCPROF_SERVE", address[0] ? address : NULL, port,
						    r->e, o->engine.fps, false);
		/* A malformed one was said by cli_listen; the run goes on. */
	}
	r->app.serve = r->serve;
	return true;
}

/* --serve-linger: the last frame's figures served a while longer (as the
 * files hold them), until the time is up or a signal comes. */
static void linger(demo_run *r)
{
	if (!r->serve || !(r->o.serve_linger > 0) || interrupt_signal())
		return;
	printf("live view: serving the final figures for %g s more\n", r->o.serve_linger);
	fflush(stdout);
	uint64_t end = srcprof_clock_monotonic_ns() + (uint64_t)(r->o.serve_linger * 1e9);
	while (!interrupt_signal() && srcprof_clock_monotonic_ns() < end)
		usleep(20000);
}

static int run(demo_run *r)
{
	demo_options *o = &r->o;
	eng_result res;
	/* Counting work: the scene's time advances a frame's worth a frame, so
	 * that frame N draws the same pixels in every run and the counts
	 * repeat exactly (videos' pictures and the overlay's text still
	 * follow the clock). */
	if (o->engine.gfx.work_counters && !(o->engine.fixed_dt > 0))
		o->engine.fixed_dt = 1.0 / (o->engine.fps ? o->engine.fps : 60);
	r->e = eng_create(&o->engine, &res);
	if (!r->e && res == ENG_ERR_SURFACE && !o->engine.gfx.headless) {
		/* A display that opens but gives no window: still show the numbers. */
		fprintf(stderr, PROG ": no window could be opened: running headless\n");
		o->engine.gfx.headless = true;
		if (!o->frames && o->seconds == 0 && !o->serve)
			o->seconds = 6.0;
		r->e = eng_create(&o->engine, &res);
	}
	xdisplay_close(r->display);
	r->display = NULL;
	if (!r->e) {
		fprintf(stderr, PROG ": cannot start: %s\n", eng_result_str(res));
		return 1;
	}
	if (!o->scene->build(r->e, o->sources ? o->sources : o->scene->default_sources)) {
		fprintf(stderr, PROG ": cannot build the scene '%s'\n", o->scene->name);
		eng_destroy(r->e);
		return 1;
	}
	eng_info("scene %s: %u sources%s", o->scene->name, eng_source_count(r->e),
		 o->engine.gfx.headless ? ", headless" : "");
	demo_app *a = &r->app;
	if (!app_init(a, r->e,
		      &(app_desc){.scene = o->scene, .out_dir = o->out_dir,
				  .overlay = !o->no_overlay, .vsync = o->engine.gfx.vsync,
				  .headless = o->engine.gfx.headless,
				  .profile = !o->engine.no_profile, .gpu = !o->engine.no_gpu_profile,
				  .overlay_scale = (float)o->overlay_scale,
				  .target_fps = o->engine.fps, .started = r->started})) {
		fprintf(stderr, PROG ": out of memory\n");
		eng_destroy(r->e);
		return 1;
	}
	r->app_ready = true;
	if (!start_serving(r)) {
		app_shutdown(a);
		r->app_ready = false;
		eng_destroy(r->e);
		return 2;
	}
	/* Written as frames go: opened once the scene runs, so that a run that
	 * cannot start leaves an older one as it was. */
	if (o->perf_log) {
		r->perf = open_output("--perf-log", o->perf_log);
		if (r->perf)
			perf_block_set_output(r->perf);
		else
			r->status = 1;
	}
	if (o->log && !files_log_start(&a->files, &a->model, &a->status, o->log))
		r->status = 1;
	if (r->trace.reserved)
		source_profiler_trace_start(NULL);
	if (!o->engine.gfx.headless)
		xdisplay_on_lost(on_display_lost, r);

	uint64_t start = srcprof_clock_ns(), last_report = start;
	bool shot_asked = false, lost = false;
	for (uint32_t f = 0; !interrupt_signal(); f++) {
		uint64_t now = srcprof_clock_ns();
		bool last = (o->frames && f + 1 >= o->frames) ||
			    (o->seconds > 0 && (double)(now - start) * 1e-9 >= o->seconds);
		for (uint32_t k = 0; k < o->n_script; k++)
			if (o->script[k].frame == f + 1)
				app_key(a, o->script[k].key);
		/* The engine holds one screenshot request: with an S pending
		 * (this frame's or one in flight) --screenshot waits for it,
		 * below, and is of one more frame. */
		if (last && o->screenshot && !a->files.screenshot_pending) {
			eng_screenshot_request(r->e, o->screenshot);
			a->files.run_shot_asked = true; /* a real S in this frame waits */
			shot_asked = true;
		}
		if (eng_frame(r->e) == ENG_ERR_DEVICE_LOST) {
			fprintf(stderr, PROG ": the device was lost; stopping\n");
			r->status = 1;
			lost = true;
			break;
		}
		app_after_frame(a);
		demo_serve_poll(r->serve);
		if (o->verbose && now - last_report >= 5000000000ull) {
			report_print(stdout, r->e, a->model.scene->name, a->model.sort, 0,
				     model_busy_run(&a->model));
			last_report = now;
		}
		if (last || eng_should_close(r->e) || a->quit)
			break;
	}
	if (interrupt_signal())
		fprintf(stderr, PROG ": %s: finishing as Esc does (send it again to stop at once)\n",
			interrupt_name(interrupt_signal()));
	/* Ended before its last frame (Esc, the window closed, a signal), or
	 * with an S screenshot pending: the --screenshot is of one more frame,
	 * after S's file is written. */
	if (o->screenshot && !shot_asked && !lost) {
		if (a->files.screenshot_pending) {
			eng_gfx_wait_frame(0);
			app_after_frame(a);
			/* Its frame was never drawn (a minimized window): it goes. */
			files_cancel_screenshot(&a->files, &a->status);
		}
		eng_screenshot_request(r->e, o->screenshot);
		a->files.run_shot_asked = true;
		if (eng_frame(r->e) == ENG_ERR_DEVICE_LOST) {
			fprintf(stderr, PROG ": the device was lost; stopping\n");
			r->status = 1;
		}
		app_after_frame(a);
	}
	if (o->work_check && !lost && !interrupt_signal() && work_check(r->e))
		r->status = 1;
	finish_frames(r);
	finish_files(r);
	linger(r);
	demo_serve_stop(r->serve);
	r->serve = a->serve = NULL;
	app_shutdown(a);
	r->app_ready = false;
	uint32_t messages = eng_gfx_validation_messages();
	if (o->engine.gfx.validate) {
		printf("validation: %u messages\n", messages);
		if (messages)
			r->status = 1;
	}
	eng_destroy(r->e);
	return r->status;
}

int main(int argc, char **argv)
{
	eng_pin_allocator();
	static demo_run r; /* the X error handler reaches it through its user pointer */
	r.started = time(NULL);
	demo_options *o = &r.o;
	demo_options_init(o);
	int p = demo_parse_args(argc, argv, o);
	if (p != 0)
		return p > 0 ? 0 : 2;
	if (o->serve && !demo_serve_available()) {
		demo_serve_say_missing("--serve", true); /* before any window or device */
		return 2;
	}
	choose_display(&r);
	/* Headless runs end after 6 s unless told; one serving the live view
	 * (--serve) runs until Ctrl-C, as a window does until closed. */
	if (o->engine.gfx.headless && !o->frames && o->seconds == 0 && !o->serve)
		o->seconds = 6.0;
	o->engine.views = o->scene->views;

	if (!check_out_dir(o->out_dir) || !cli_check_writable(PROG, "--screenshot", o->screenshot) ||
	    !cli_check_writable(PROG, "--log", o->log))
		return 2;
	if (!cli_check_writable(PROG, "--perf-log", o->perf_log) ||
	    !demo_out_reserve(&r.csv, "--csv", o->csv) ||
	    !demo_out_reserve(&r.pass_csv, "--pass-csv", o->pass_csv) ||
	    !demo_out_reserve(&r.trace, "--trace", o->trace)) {
		demo_out_discard(&r.csv);
		demo_out_discard(&r.pass_csv);
		return 2;
	}
	source_profiler_trace_name_thread("graphics");
	interrupt_install(PROG);

	int status = run(&r);
	close_perf_log(&r);
	demo_out_discard(&r.csv);
	demo_out_discard(&r.pass_csv);
	demo_out_discard(&r.trace);
	if (status == 0 && r.status)
		status = r.status;
	source_profiler_shutdown();
	if (status == 0 && interrupt_signal())
		status = 128 + interrupt_signal();
	return status;
}
