/* JSON as srcprof's programs write it (the bench's --json, compare's
 * --json, the demo's capture records): strings quoted, '"' and '\'
 * escaped, control characters as \u00XX, other bytes (UTF-8 names) as they
 * are; numbers that are not finite as null.
 *
 * json_string and json_number write one value. The streaming writer
 * (json_w) writes a whole document and keeps the commas: open objects and
 * arrays, write members (a key inside an object, NULL inside an array),
 * close them. Between two items it writes ", " (",", in a tight array);
 * json_w_break puts the next item, or the closing bracket, on a new line
 * indented by that many spaces, so that the files stay readable where a
 * person opens them. It never allocates, and nests up to JSON_W_DEPTH.
 */
#ifndef SRCPROF_BASE_JSON_H
#define SRCPROF_BASE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Writes s to f as one JSON string, quotes included. */
void json_string(FILE *f, const char *s);
/* Writes v with the printf format fmt ("%.4f"), or null where it is not
 * finite (JSON has no inf or nan). */
void json_number(FILE *f, const char *fmt, double v);

#define JSON_W_DEPTH 16

typedef struct json_w {
	FILE *f;
	uint32_t depth;
	bool items[JSON_W_DEPTH]; /* the container at each depth holds an item */
	bool tight[JSON_W_DEPTH]; /* "," rather than ", " between its items */
	char close[JSON_W_DEPTH]; /* '}' or ']' */
	int indent;               /* -1, or the next item's new line's indent */
} json_w;

/* Starts a document on f (nothing written yet). */
void json_w_init(json_w *w, FILE *f);

/* Opens an object or an array as the next item (key: its name inside an
 * object, NULL elsewhere); json_w_array_tight separates its items by ","
 * alone (long arrays of numbers). */
void json_w_object(json_w *w, const char *key);
void json_w_array(json_w *w, const char *key);
void json_w_array_tight(json_w *w, const char *key);
/* Closes the innermost object or array. */
void json_w_end(json_w *w);

/* One member or element: a string (NULL writes null), a number with a
 * printf format (null where not finite), an unsigned integer, a boolean,
 * null. */
void json_w_string(json_w *w, const char *key, const char *s);
void json_w_number(json_w *w, const char *key, const char *fmt, double v);
void json_w_uint(json_w *w, const char *key, uint64_t v);
void json_w_bool(json_w *w, const char *key, bool v);
void json_w_null(json_w *w, const char *key);

/* The next item (or closing bracket) starts a new line, indented by
 * `indent` spaces. */
void json_w_break(json_w *w, int indent);

#endif
