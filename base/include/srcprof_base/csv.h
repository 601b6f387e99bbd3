/* CSV fields as srcprof writes them (the profiler's exports, the demo's
 * log, the bench's --csv): a field holding a comma, a double quote or a
 * line break, or starting with '#' (which would make its row read as a
 * comment line), is quoted, its quotes doubled (RFC 4180); any other is
 * written as it is. Rows, separators and numbers stay with the caller,
 * which knows its columns. */
#ifndef SRCPROF_BASE_CSV_H
#define SRCPROF_BASE_CSV_H

#include <stdbool.h>
#include <stdio.h>

/* Whether s must be quoted as a CSV field. */
bool csv_needs_quotes(const char *s);

/* Writes s to f as one CSV field. */
void csv_field(FILE *f, const char *s);

#endif
