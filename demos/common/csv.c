#include "csv.h"

#include <string.h>

void csv_field(FILE *f, const char *s)
{
	/* A name starting with '#' is quoted too: a row that begins with it
	 * would read as a comment line (grep -v '^#'). */
	if (!strpbrk(s, ",\"\n\r") && s[0] != '#') {
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
