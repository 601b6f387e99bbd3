/* A program whose own globals have the names of the profiler's internals
 * (sp_log, sp_count): it must link against the static library (no
 * duplicate symbol) and against the shared one (its sp_log never called by
 * the profiler, its sp_count never written by it). */
#include <srcprof/source_profiler.h>

#include <stdarg.h>
#include <stdio.h>

int sp_count = 12345;
int sp_log_calls;

void sp_log(int level, const char *fmt, ...);
void sp_log(int level, const char *fmt, ...)
{
	(void)level;
	(void)fmt;
	sp_log_calls++;
}

static int profiler_lines;

static void on_log(int level, const char *msg, void *user)
{
	(void)level;
	(void)msg;
	(void)user;
	profiler_lines++;
}

int main(void)
{
	static int source;
	source_profiler_set_log(on_log, NULL);
	source_profiler_reset_video(0, 1); /* logged through the profiler's own sp_log */
	source_profiler_enable(true);
	for (int f = 0; f < 4; f++) {
		source_profiler_frame_begin();
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&source, t);
		source_profiler_source_tick_end(NULL, t); /* counted in the profiler's counters */
		source_profiler_render_begin();
		source_profiler_render_end();
		source_profiler_frame_collect();
	}
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	int ok = sp_count == 12345 && sp_log_calls == 0 && profiler_lines == 1 &&
		 st.ignored_calls == 4 && st.frames_collected == 3;
	printf("sp_count %d, own sp_log called %d times, profiler log lines %d, ignored calls %llu, "
	       "frames collected %llu: %s\n",
	       sp_count, sp_log_calls, profiler_lines, (unsigned long long)st.ignored_calls,
	       (unsigned long long)st.frames_collected, ok ? "ok" : "FAILED");
	source_profiler_shutdown();
	return ok ? 0 : 1;
}
