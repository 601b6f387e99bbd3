#include "srcprof_base/json.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void json_number(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

void json_w_init(json_w *w, FILE *f)
{
	*w = (json_w){.f = f, .indent = -1};
}

static void pending_break(json_w *w)
{
	if (w->indent < 0)
		return;
	fprintf(w->f, "\n%*s", w->indent, "");
	w->indent = -1;
}

/* The separator before an item, the pending line break, and its key. */
static void item(json_w *w, const char *key)
{
	if (w->depth && w->items[w->depth - 1]) {
		fputc(',', w->f);
		if (w->indent < 0 && !w->tight[w->depth - 1])
			fputc(' ', w->f);
	}
	pending_break(w);
	if (w->depth)
		w->items[w->depth - 1] = true;
	assert(!key == !(w->depth && w->close[w->depth - 1] == '}') || !w->depth);
	if (key) {
		json_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void open_container(json_w *w, const char *key, char bracket, bool tight)
{
	item(w, key);
	assert(w->depth < JSON_W_DEPTH);
	fputc(bracket, w->f);
	w->items[w->depth] = false;
	w->tight[w->depth] = tight;
	w->close[w->depth] = bracket == '{' ? '}' : ']';
	w->depth++;
}

void json_w_object(json_w *w, const char *key)
{
	open_container(w, key, '{', false);
}

void json_w_array(json_w *w, const char *key)
{
	open_container(w, key, '[', false);
}

void json_w_array_tight(json_w *w, const char *key)
{
	open_container(w, key, '[', true);
}

void json_w_end(json_w *w)
{
	assert(w->depth > 0);
	pending_break(w);
	fputc(w->close[--w->depth], w->f);
}

void json_w_string(json_w *w, const char *key, const char *s)
{
	item(w, key);
	if (s)
		json_string(w->f, s);
	else
		fputs("null", w->f);
}

void json_w_number(json_w *w, const char *key, const char *fmt, double v)
{
	item(w, key);
	json_number(w->f, fmt, v);
}

void json_w_uint(json_w *w, const char *key, uint64_t v)
{
	item(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void json_w_bool(json_w *w, const char *key, bool v)
{
	item(w, key);
	fputs(v ? "true" : "false", w->f);
}

void json_w_null(json_w *w, const char *key)
{
	item(w, key);
	fputs("null", w->f);
}

void json_w_break(json_w *w, int indent)
{
	w->indent = indent;
}
