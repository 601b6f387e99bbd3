/* The live server's request handling (live/src/lv_http.c): a request as
 * text - "METHOD TARGET" on the first line, then "Name: value" header lines
 * - decided under a policy the first byte picks (loopback or every address,
 * /metrics open or not). Checks what must hold whatever arrives: a status
 * the server can answer, a route only with 200, and no route but open
 * metrics without the token somewhere in the request. Then the target goes
 * through the JSON string writer, whose output must be valid UTF-8 JSON. */
#define _GNU_SOURCE /* memmem */
#include "fuzz.h"
#include "lv_buf.h"
#include "lv_http.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOKEN "0123456789abcdef0123456789abcdef"

static void header(lv_request *r, const char *name, const char *value)
{
	struct {
		const char *name;
		const char **slot;
		uint32_t *count;
	} known[] = {
		{"host", &r->host, &r->host_count},
		{"origin", &r->origin, &r->origin_count},
		{"authorization", &r->authorization, &r->authorization_count},
		{"cookie", &r->cookie, &r->cookie_count},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcasecmp(name, known[i].name)) {
			if ((*known[i].count)++ == 0)
				*known[i].slot = value;
			return;
		}
	if (!strcasecmp(name, "sec-fetch-site"))
		r->sec_fetch_site = value;
	if (!strcasecmp(name, "content-length")) {
		r->has_length = true;
		r->content_length = strtoull(value, NULL, 10);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t mode = data[0];
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';

	lv_policy p;
	char why[200];
	const char *extra[] = {"render-07.farm.example", NULL};
	if (!lv_policy_init(&p, TOKEN, 8123, (mode & 1) ? "0.0.0.0" : "127.0.0.1", mode & 1,
			    (mode & 4) ? extra : NULL, mode & 2, why, sizeof why))
		abort();

	lv_request r = {0};
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	if (line) {
		char *sp = strchr(line, ' ');
		r.method = line;
		r.target = "";
		if (sp) {
			*sp = '\0';
			r.target = sp + 1;
		}
		while ((line = strtok_r(NULL, "\n", &save))) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			*colon = '\0';
			const char *v = colon + 1;
			while (*v == ' ')
				v++;
			header(&r, line, v);
		}
	}
	lv_decision d;
	lv_decide(&p, &r, &d);
	static const int statuses[] = {200, 400, 403, 404, 405, 413, 414};
	bool known = false;
	for (size_t i = 0; i < sizeof statuses / sizeof *statuses; i++)
		known |= d.status == statuses[i];
	if (!known || (d.status == 200) != (d.route != LV_ROUTE_NONE) || (d.status != 200 && !d.reason))
		abort();
	/* Served without the token: only /metrics, and only when open. The
	 * token may arrive percent-encoded in the query, hence the '%'. */
	bool open = d.route == LV_ROUTE_METRICS && (mode & 2);
	if (d.status == 200 && !open && !memmem(data, size, TOKEN, strlen(TOKEN)) &&
	    !memchr(data, '%', size))
		abort();
	if (d.route == LV_ROUTE_ASSET && !d.asset)
		abort();

	lv_buf b = {0};
	lv_buf_json_string(&b, r.target ? r.target : "");
	if (!b.oom) {
		if (b.len < 2 || b.data[0] != '"' || b.data[b.len - 1] != '"')
			abort();
		for (size_t i = 0; i < b.len;) {
			unsigned char c = (unsigned char)b.data[i];
			if (c < 0x20)
				abort(); /* control characters are escaped */
			size_t n = lv_utf8_len((const unsigned char *)b.data + i, b.len - i);
			if (!n)
				abort();
			i += n;
		}
	}
	lv_buf_free(&b);
	free(text);
	return 0;
}
