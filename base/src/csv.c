#include "srcprof_base/csv.h"

#include <string.h>

bool csv_needs_quotes(const char *s)
{
	/* A name starting with '#' is quoted too: a row that begins with it
	 * would read as a comment line (grep -v '^#'). */
	return strpbrk(s, ",\"\n\r") || s[0] == '#';
}

void csv_field(FILE *f, const char *s)
{
	if (!csv_needs_quotes(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
