/* A growing byte buffer for the server's answers (JSON, CSV, Prometheus
 * text, SSE events). Out of memory is sticky: later writes do nothing and
 * `oom` says so, so a writer checks once at the end. */
#ifndef LV_BUF_H
#define LV_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lv_buf {
	char *data; /* NUL-terminated while not oom */
	size_t len, cap;
	bool oom;
} lv_buf;

void lv_buf_put(lv_buf *b, const char *s, size_t n);
void lv_buf_puts(lv_buf *b, const char *s);
void lv_buf_printf(lv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `s` as a JSON string, quotes included: control characters escaped,
 * bytes that are not UTF-8 written as U+FFFD. */
void lv_buf_json_string(lv_buf *b, const char *s);
/* A number for JSON: integers as integers, non-finite values as null. */
void lv_buf_json_double(lv_buf *b, double v, int decimals);
/* Gives the bytes to the caller (free()), leaving b empty; NULL when oom
 * (b's memory freed). */
char *lv_buf_take(lv_buf *b, size_t *len);
void lv_buf_free(lv_buf *b);

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the
 * bytes there are not one. n: bytes available. */
size_t lv_utf8_len(const unsigned char *s, size_t n);
/* Appends the UTF-8 sequence at p (n bytes left) where it is valid, else
 * `bad` (the writer's replacement character); returns the bytes of p it
 * took (the sequence's, or 1). */
size_t lv_buf_put_utf8(lv_buf *b, const unsigned char *p, size_t n, const char *bad);

#endif
