/* CSV fields as the demo programs write them (the demo's log, the bench's
 * --csv): a field holding a comma, a double quote or a line break, or
 * starting with '#' (which would make its row read as a comment line), is
 * quoted, its quotes doubled (RFC 4180); any other is written as it is.
 * Rows, separators and numbers stay with the caller, which knows its
 * columns. The library's own CSV (srcprof/export.h) is not written here. */
#ifndef DEMOS_CSV_H
#define DEMOS_CSV_H

#include <stdio.h>

/* Writes s to f as one CSV field. */
void csv_field(FILE *f, const char *s);

#endif
