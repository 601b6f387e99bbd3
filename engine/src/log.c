#include "engine/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

static _Atomic int g_level = ENG_LOG_INFO;
static void (*g_hook)(int, const char *, void *);
static void *g_hook_user;

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
