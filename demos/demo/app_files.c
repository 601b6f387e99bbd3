/* C, T, S and L: each file gets a name of its own (capture.h) and says
 * what it measured (app_files.h). */
#include "app_files.h"

#include "srcprof/clock.h"
#include "srcprof/export.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void files_init(app_files *f, const char *out_dir)
{
	*f = (app_files){.out_dir = out_dir ? out_dir : "."};
}

void files_free(app_files *f)
{
	runlog_free(&f->log);
	if (f->trace_running)
		source_profiler_trace_discard();
	f->trace_running = false;
}

void files_write_snapshot(app_files *fs, const demo_model *model, status_line *s)
{
	char path[1024];
	FILE *f = capture_open(fs->out_dir, "snapshot", "csv", path, sizeof path);
	if (!f) {
		status_fail(s, "C: cannot write %s: %s", path, strerror(errno));
		return;
	}
	capture_meta m;
	model_meta(model, &m);
	capture_write_csv_header(f, &m, "snapshot: every source's results over the window");
	int rows = source_profiler_write_csv(f);
	int err = rows < 0 || ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (rows < 0 || err) {
		remove(path); /* a snapshot cut short is no snapshot */
		status_fail(s, "C: writing %s failed (%s); no file left", path, strerror(err));
	} else if (!model->profiler_on)
		status_say(s, "C: profiler is off: %s has the header only", path);
	else
		status_say(s, "C: CSV snapshot of %d sources written to %s%s", capture_sources(rows), path,
			capture_has_overlay() ? " (and a row for the overlay)" : "");
}

void files_start_trace(app_files *f, const demo_model *m, status_line *s)
{
	if (f->trace_running) {
		status_say(s, "T: a trace is already being captured");
		return;
	}
	if (!source_profiler_trace_start(&(source_profiler_trace_desc){.duration_ns = 5000000000ull,
								   .max_events = 1u << 21})) {
		status_say(s, "T: cannot start a trace capture (out of memory?)");
		return;
	}
	f->trace_running = true;
	/* While a trace records, the profiler GPU-times every frame (where
	 * timers are costly it otherwise times one in N). */
	status_say(s, "T: capturing a 5-second trace%s",
		m->profiler_on ? "" : " (profiler is off: only PERF blocks and frames)");
}

static void finish_trace(app_files *fs, const demo_model *model, status_line *s)
{
	char path[1024];
	source_profiler_trace_info ti;
	source_profiler_trace_get_info(&ti);
	FILE *f = capture_open(fs->out_dir, "trace", "json", path, sizeof path);
	int rc = -1, err = errno;
	if (f) {
		capture_meta m;
		model_meta(model, &m);
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
	fs->trace_running = false;
	if (rc != 0) {
		status_fail(s, "T: writing the trace to %s failed: %s", path, strerror(err));
	} else {
		status_say(s, "T: trace of %u frames (%llu events%s) written to %s; open it in "
			   "ui.perfetto.dev",
			ti.frames, (unsigned long long)ti.events, ti.dropped ? ", buffer full" : "",
			path);
	}
}

void files_request_screenshot(app_files *fs, const demo_model *m, status_line *s)
{
	if (fs->screenshot_pending) {
		status_say(s, "S: a screenshot is already being written");
		return;
	}
	if (fs->run_shot_asked) {
		/* The engine holds one request: --screenshot's. */
		status_say(s, "S: --screenshot is being taken; not this one");
		return;
	}
	/* The name is taken now (an empty file), the engine fills it when the
	 * frame is ready. */
	FILE *f = capture_open(fs->out_dir, "screenshot", "png", fs->screenshot_path,
			       sizeof fs->screenshot_path);
	if (!f) {
		status_fail(s, "S: cannot write %s: %s", fs->screenshot_path, strerror(errno));
		return;
	}
	fclose(f);
	fs->screenshot_frame = eng_frame_index(m->engine);
	eng_screenshot_request(m->engine, fs->screenshot_path);
	fs->screenshot_pending = true;
	status_say(s, "S: screenshot requested");
}

bool files_log_start(app_files *fs, const demo_model *model, status_line *s, const char *path)
{
	char name[1024];
	FILE *f;
	if (path) {
		snprintf(name, sizeof name, "%s", path);
		f = fopen(path, "w");
	} else {
		f = capture_open(fs->out_dir, "log", "csv", name, sizeof name);
	}
	if (!f) {
		status_fail(s, "L: cannot write %s: %s", name, strerror(errno));
		return false;
	}
	capture_meta m;
	model_meta(model, &m);
	runlog_start(&fs->log, f, name, &m, srcprof_clock_ns());
	status_say(s, "L: logging every source once a second to %s", name);
	return true;
}

void files_log_stop(app_files *f, const demo_model *m, status_line *s)
{
	if (!f->log.f)
		return;
	bool ok = runlog_stop(&f->log, m->engine, srcprof_clock_ns());
	uint64_t rows = f->log.rows;
	if (ok) {
		status_say(s, "L: log stopped: %llu rows in %s", (unsigned long long)rows, f->log.path);
	} else {
		status_fail(s, "L: writing the log %s failed; the rows before the failure stay",
			    f->log.path);
	}
}

void files_cancel_screenshot(app_files *f, status_line *s)
{
	if (!f->screenshot_pending)
		return;
	f->screenshot_pending = false;
	remove(f->screenshot_path);
	status_fail(s, "S: no frame was captured for %s", f->screenshot_path);
}

/* A screenshot whose frame is ready: its record added, or its file gone. */
static void finish_screenshot(app_files *f, const demo_model *model, status_line *s)
{
	int ready = eng_screenshot_poll(model->engine);
	if (!ready)
		return;
	f->screenshot_pending = false;
	if (ready < 0) {
		remove(f->screenshot_path);
		status_fail(s, "S: cannot write %s", f->screenshot_path);
		return;
	}
	capture_meta m;
	model_meta(model, &m);
	m.frame = f->screenshot_frame;
	if (capture_note_png(f->screenshot_path, &m))
		status_say(s, "S: screenshot written to %s", f->screenshot_path);
	else
		status_fail(s, "S: screenshot written to %s without its record (the run's facts): "
			       "rewriting it failed", f->screenshot_path);
}

void files_after_frame(app_files *f, const demo_model *m, status_line *s)
{
	if (f->trace_running && source_profiler_trace_state() == SOURCE_PROFILER_TRACE_FINISHED)
		finish_trace(f, m, s);
	if (f->screenshot_pending)
		finish_screenshot(f, m, s);
	runlog_frame(&f->log, m->engine, srcprof_clock_ns());
}
