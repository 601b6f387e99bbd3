/* C, T, S and L: each file gets a name of its own (capture.h) and says
 * what it measured. */
#include "app_files.h"

#include "srcprof/clock.h"
#include "srcprof/export.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void app_write_snapshot(demo_app *a)
{
	char path[1024];
	FILE *f = capture_open(a->out_dir, "snapshot", "csv", path, sizeof path);
	if (!f) {
		app_fail(a, "C: cannot write %s: %s", path, strerror(errno));
		return;
	}
	capture_meta m;
	app_meta(a, &m);
	capture_write_csv_header(f, &m, "snapshot: every source's results over the window");
	int rows = source_profiler_write_csv(f);
	int err = rows < 0 || ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (rows < 0 || err) {
		remove(path); /* a snapshot cut short is no snapshot */
		app_fail(a, "C: writing %s failed (%s); no file left", path, strerror(err));
	} else if (!a->profiler_on)
		app_say(a, "C: profiler is off: %s has the header only", path);
	else
		app_say(a, "C: CSV snapshot of %d sources written to %s%s", capture_sources(rows), path,
			capture_has_overlay() ? " (and a row for the overlay)" : "");
}

void app_start_trace(demo_app *a)
{
	if (a->trace_running) {
		app_say(a, "T: a trace is already being captured");
		return;
	}
	if (!source_profiler_trace_start(&(source_profiler_trace_desc){.duration_ns = 5000000000ull,
								   .max_events = 1u << 21})) {
		app_say(a, "T: cannot start a trace capture (out of memory?)");
		return;
	}
	a->trace_running = true;
	/* While a trace records, the profiler GPU-times every frame (where
	 * timers are costly it otherwise times one in N). */
	app_say(a, "T: capturing a 5-second trace%s",
		a->profiler_on ? "" : " (profiler is off: only PERF blocks and frames)");
}

static void finish_trace(demo_app *a)
{
	char path[1024];
	source_profiler_trace_info ti;
	source_profiler_trace_get_info(&ti);
	FILE *f = capture_open(a->out_dir, "trace", "json", path, sizeof path);
	int rc = -1, err = errno;
	if (f) {
		capture_meta m;
		app_meta(a, &m);
		rc = capture_write_trace(f, &m);
		err = errno;
		if (fclose(f) != 0 && rc == 0) {
			rc = -1;
			err = errno;
		}
		if (rc != 0)
			remove(path); /* a trace cut short does not load */
	}
	source_profiler_trace_discard();
	a->trace_running = false;
	if (rc != 0) {
		app_fail(a, "T: writing the trace to %s failed: %s", path, strerror(err));
	} else {
		app_say(a, "T: trace of %u frames (%llu events%s) written to %s; open it in "
			   "ui.perfetto.dev",
			ti.frames, (unsigned long long)ti.events, ti.dropped ? ", buffer full" : "",
			path);
	}
}

void app_request_screenshot(demo_app *a)
{
	if (a->screenshot_pending) {
		app_say(a, "S: a screenshot is already being written");
		return;
	}
	if (a->run_shot_asked) {
		/* The engine holds one request: --screenshot's. */
		app_say(a, "S: --screenshot is being taken; not this one");
		return;
	}
	/* The name is taken now (an empty file), the engine fills it when the
	 * frame is ready. */
	FILE *f = capture_open(a->out_dir, "screenshot", "png", a->screenshot_path,
			       sizeof a->screenshot_path);
	if (!f) {
		app_fail(a, "S: cannot write %s: %s", a->screenshot_path, strerror(errno));
		return;
	}
	fclose(f);
	a->screenshot_frame = eng_frame_index(a->engine);
	eng_screenshot_request(a->engine, a->screenshot_path);
	a->screenshot_pending = true;
	app_say(a, "S: screenshot requested");
}

bool app_log_start(demo_app *a, const char *path)
{
	char name[1024];
	FILE *f;
	if (path) {
		snprintf(name, sizeof name, "%s", path);
		f = fopen(path, "w");
	} else {
		f = capture_open(a->out_dir, "log", "csv", name, sizeof name);
	}
	if (!f) {
		app_fail(a, "L: cannot write %s: %s", name, strerror(errno));
		return false;
	}
	capture_meta m;
	app_meta(a, &m);
	runlog_start(&a->log, f, name, &m, srcprof_clock_ns());
	app_say(a, "L: logging every source once a second to %s", name);
	return true;
}

void app_log_stop(demo_app *a)
{
	if (!a->log.f)
		return;
	bool ok = runlog_stop(&a->log, a->engine, srcprof_clock_ns());
	uint64_t rows = a->log.rows;
	if (ok) {
		app_say(a, "L: log stopped: %llu rows in %s", (unsigned long long)rows, a->log.path);
	} else {
		app_fail(a, "L: writing the log %s failed; the rows before the failure stay",
			 a->log.path);
	}
}

void app_cancel_screenshot(demo_app *a)
{
	if (!a->screenshot_pending)
		return;
	a->screenshot_pending = false;
	remove(a->screenshot_path);
	app_fail(a, "S: no frame was captured for %s", a->screenshot_path);
}

void app_files_after_frame(demo_app *a)
{
	if (a->trace_running && source_profiler_trace_state() == SOURCE_PROFILER_TRACE_FINISHED)
		finish_trace(a);
	if (!a->screenshot_pending)
		return;
	int s = eng_screenshot_poll(a->engine);
	if (!s)
		return;
	a->screenshot_pending = false;
	if (s < 0) {
		remove(a->screenshot_path);
		app_fail(a, "S: cannot write %s", a->screenshot_path);
		return;
	}
	capture_meta m;
	app_meta(a, &m);
	m.frame = a->screenshot_frame;
	if (capture_note_png(a->screenshot_path, &m))
		app_say(a, "S: screenshot written to %s", a->screenshot_path);
	else
		app_fail(a, "S: screenshot written to %s without its record (the run's facts): "
			    "rewriting it failed", a->screenshot_path);
}
