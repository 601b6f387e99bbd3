/* The last action's line (status_line.h). */
#include "status_line.h"

#include <stdarg.h>
#include <stdio.h>

void status_say(status_line *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->text, sizeof s->text, fmt, ap);
	va_end(ap);
	printf("%s\n", s->text);
	fflush(stdout);
}

void status_fail(status_line *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->text, sizeof s->text, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "srcprof-demo: %s\n", s->text);
	s->failed = true;
}
