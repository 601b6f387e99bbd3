/* Growing byte buffers (lv_buf.h). */
#include "lv_buf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(lv_buf *b, size_t more)
{
	if (b->oom)
		return false;
	if (more > SIZE_MAX / 2 - b->len - 1) {
		b->oom = true;
		return false;
	}
	size_t need = b->len + more + 1;
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p) {
		free(b->data);
		*b = (lv_buf){.oom = true};
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void lv_buf_put(lv_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void lv_buf_puts(lv_buf *b, const char *s)
{
	lv_buf_put(b, s, strlen(s));
}

void lv_buf_printf(lv_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		lv_buf_put(b, small, (size_t)n);
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

size_t lv_utf8_len(const unsigned char *s, size_t n)
{
	if (n == 0)
		return 0;
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned min;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	unsigned cp = c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

size_t lv_buf_put_utf8(lv_buf *b, const unsigned char *p, size_t n, const char *bad)
{
	size_t len = lv_utf8_len(p, n);
	if (!len) {
		lv_buf_puts(b, bad);
		return 1;
	}
	lv_buf_put(b, (const char *)p, len);
	return len;
}

void lv_buf_json_string(lv_buf *b, const char *s)
{
	lv_buf_put(b, "\"", 1);
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);
	while (n > 0) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			char esc[2] = {'\\', (char)c};
			lv_buf_put(b, esc, 2);
			p++, n--;
		} else if (c < 0x20 || c == 0x7f) {
			lv_buf_printf(b, "\\u%04x", c);
			p++, n--;
		} else if (c < 0x80) {
			/* Runs of plain ASCII in one copy. */
			size_t run = 1;
			while (run < n && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' &&
			       p[run] != '\\')
				run++;
			lv_buf_put(b, (const char *)p, run);
			p += run, n -= run;
		} else {
			size_t len = lv_buf_put_utf8(b, p, n, "\\ufffd");
			p += len, n -= len;
		}
	}
	lv_buf_put(b, "\"", 1);
}

void lv_buf_json_double(lv_buf *b, double v, int decimals)
{
	if (!isfinite(v))
		lv_buf_puts(b, "null");
	else if (v == floor(v) && fabs(v) < 9e15)
		lv_buf_printf(b, "%.0f", v);
	else
		lv_buf_printf(b, "%.*f", decimals, v);
}

char *lv_buf_take(lv_buf *b, size_t *len)
{
	if (b->oom) {
		*b = (lv_buf){0};
		if (len)
			*len = 0;
		return NULL;
	}
	if (!b->data) {
		if (!reserve(b, 0)) {
			*b = (lv_buf){0};
			return NULL;
		}
		b->data[0] = '\0';
	}
	char *p = b->data;
	if (len)
		*len = b->len;
	*b = (lv_buf){0};
	return p;
}

void lv_buf_free(lv_buf *b)
{
	free(b->data);
	*b = (lv_buf){0};
}
