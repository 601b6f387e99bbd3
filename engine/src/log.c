/* The engine's log (engine/log.h) and the misuse check of misuse.h. */
#include "engine/log.h"

#include "misuse.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic int g_level = ENG_LOG_INFO;
static void (*g_hook)(int, const char *, void *);
static void *g_hook_user;
static _Atomic bool g_misuse_fatal = true;

void eng_log_set_level(int level)
{
	atomic_store(&g_level, level);
}

void eng_log_set_hook(void (*fn)(int level, const char *line, void *user), void *user)
{
	g_hook = fn;
	g_hook_user = user;
}

void eng_log(int level, const char *fmt, ...)
{
	if (level > atomic_load(&g_level))
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (g_hook) {
		g_hook(level, msg, g_hook_user);
		return;
	}
	static const char *const names[] = {"error", "warning", "info", "debug"};
	fprintf(stderr, "srcprof: %s: %s\n", names[level < 0 || level > 3 ? 0 : level], msg);
}

void eng_log_set_misuse_fatal(bool fatal)
{
	atomic_store(&g_misuse_fatal, fatal);
}

void eng_misuse_trap(const char *file, int line, const char *what)
{
#ifdef SRCPROF_ENGINE_ASSERTS
	if (atomic_load(&g_misuse_fatal)) {
		eng_log(ENG_LOG_ERROR, "misuse at %s:%d: %s (SRCPROF_ENGINE_ASSERTS: aborting)",
			file, line, what);
		abort();
	}
#else
	(void)g_misuse_fatal;
	(void)file;
	(void)line;
	(void)what;
#endif
}

void eng_misuse_at(const char *file, int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	eng_log(ENG_LOG_ERROR, "%s", msg);
	eng_misuse_trap(file, line, msg);
}
