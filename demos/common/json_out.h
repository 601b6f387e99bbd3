/* JSON strings as the bench's --json, compare's --json and the demo's
 * capture records write them: quoted, '"' and '\' escaped, control
 * characters as \u00XX; other bytes (UTF-8 names) as they are; numbers
 * that are not finite as null. The structure stays with the caller, which
 * knows its keys. */
#ifndef DEMOS_JSON_OUT_H
#define DEMOS_JSON_OUT_H

#include <stdio.h>

/* Writes s to f as one JSON string, quotes included. */
void json_string(FILE *f, const char *s);
/* Writes v with the printf format fmt ("%.4f"), or null where it is not
 * finite (JSON has no inf or nan). */
void json_number(FILE *f, const char *fmt, double v);

#endif
