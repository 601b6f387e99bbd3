/* JSON strings as the bench's --json, compare's --json and the demo's
 * capture records write them: quoted, '"' and '\' escaped, control
 * characters as \u00XX; other bytes (UTF-8 names) as they are. The
 * numbers and the structure stay with the caller, which knows its keys. */
#ifndef DEMOS_JSON_OUT_H
#define DEMOS_JSON_OUT_H

#include <stdio.h>

/* Writes s to f as one JSON string, quotes included. */
void json_string(FILE *f, const char *s);

#endif
