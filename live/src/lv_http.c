/* The request policy (lv_http.h): checks in the order that leaks least -
 * the Host (a DNS-rebinding page cannot pass it), the origin, the token,
 * and only then the path and the method. */
#include "lv_http.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

bool lv_token_equal(const char *a, size_t a_len, const char *b, size_t b_len)
{
	if (a_len != b_len)
		return false;
	volatile unsigned char diff = 0;
	for (size_t i = 0; i < a_len; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

static bool token_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '~' || c == '-';
}

bool lv_token_valid(const char *t)
{
	size_t n = 0;
	for (; t[n]; n++)
		if (!token_char(t[n]) || n >= LV_TOKEN_MAX)
			return false;
	return n >= LV_TOKEN_MIN;
}

bool lv_token_random(char out[33])
{
	unsigned char raw[16];
	size_t got = 0;
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno != EINTR)
			break;
	}
	if (got < sizeof raw) {
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		got = 0;
		while (got < sizeof raw) {
			ssize_t n = read(fd, raw + got, sizeof raw - got);
			if (n > 0)
				got += (size_t)n;
			else if (n == 0 || errno != EINTR)
				break;
		}
		close(fd);
		if (got < sizeof raw)
			return false;
	}
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < sizeof raw; i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[32] = '\0';
	return true;
}

static bool add_host(lv_policy *p, const char *host, char *why, size_t why_size)
{
	if (p->n_hosts == LV_MAX_HOSTS) {
		snprintf(why, why_size, "more than %d host names", LV_MAX_HOSTS - 4);
		return false;
	}
	char *dst = p->hosts[p->n_hosts];
	int n = p->port == 80 ? snprintf(dst, sizeof p->hosts[0], "%s", host)
			      : snprintf(dst, sizeof p->hosts[0], "%s:%u", host, p->port);
	if (n < 0 || (size_t)n >= sizeof p->hosts[0] || !host[0] || strpbrk(host, " /\\@?#")) {
		snprintf(why, why_size, "host name '%.64s' is not a host name of at most 250 bytes", host);
		return false;
	}
	for (char *c = dst; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	p->n_hosts++;
	return true;
}

bool lv_policy_init(lv_policy *p, const char *token, uint16_t port, const char *address,
		    bool any_address, const char *const *extra, bool metrics_open, char *why,
		    size_t why_size)
{
	memset(p, 0, sizeof *p);
	snprintf(p->token, sizeof p->token, "%s", token);
	p->token_len = strlen(p->token);
	p->port = port;
	snprintf(p->cookie_name, sizeof p->cookie_name, "srcprof_live_%u", port);
	p->any_numeric_host = any_address;
	p->metrics_open = metrics_open;
	if (!add_host(p, "127.0.0.1", why, why_size) || !add_host(p, "localhost", why, why_size) ||
	    !add_host(p, "[::1]", why, why_size))
		return false;
	if (address && !any_address && strcmp(address, "127.0.0.1") && strcmp(address, "::1")) {
		char bracketed[64];
		const char *a = address;
		if (strchr(address, ':')) {
			snprintf(bracketed, sizeof bracketed, "[%s]", address);
			a = bracketed;
		}
		if (!add_host(p, a, why, why_size))
			return false;
	}
	for (size_t i = 0; extra && extra[i]; i++)
		if (!add_host(p, extra[i], why, why_size))
			return false;
	return true;
}

/* Whether `h` is a numeric IPv4 address ("10.0.0.7") or a bracketed IPv6
 * one ("[fe80::1]") followed by ":port" (ours). */
static bool numeric_host(const char *h, uint16_t port)
{
	const char *colon;
	if (h[0] == '[') {
		const char *end = strchr(h, ']');
		if (!end || end == h + 1)
			return false;
		for (const char *c = h + 1; c < end; c++)
			if (!isxdigit((unsigned char)*c) && *c != ':' && *c != '.')
				return false;
		colon = end + 1;
		if (*colon != ':')
			return port == 80 && *colon == '\0';
	} else {
		int dots = 0, digits = 0;
		const char *c = h;
		for (; *c && *c != ':'; c++) {
			if (*c == '.') {
				if (!digits)
					return false;
				dots++;
				digits = 0;
			} else if (isdigit((unsigned char)*c) && digits < 3) {
				digits++;
			} else {
				return false;
			}
		}
		if (dots != 3 || !digits)
			return false;
		colon = c;
		if (*colon != ':')
			return port == 80 && *colon == '\0';
	}
	char want[8];
	snprintf(want, sizeof want, "%u", port);
	return strcmp(colon + 1, want) == 0;
}

static bool host_allowed(const lv_policy *p, const char *host)
{
	for (uint32_t i = 0; i < p->n_hosts; i++)
		if (strcasecmp(p->hosts[i], host) == 0)
			return true;
	return p->any_numeric_host && numeric_host(host, p->port);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes [s, s + n) into out (size > n); '+' is a space. False
 * for a bad escape or a NUL. */
static bool decode(const char *s, size_t n, char *out, size_t *out_len)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '%') {
			if (n - i < 3)
				return false; /* fewer than two characters after it */
			int h = hexval(s[i + 1]), l = hexval(s[i + 2]);
			if (h < 0 || l < 0)
				return false;
			c = (char)(h * 16 + l);
			i += 2;
		} else if (c == '+') {
			c = ' ';
		}
		if (c == '\0')
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	*out_len = o;
	return true;
}

/* The query's parameters this server knows; others are ignored. */
typedef struct query {
	char token[LV_TOKEN_MAX + 1];
	bool has_token, token_bad;
	char format[8];
	bool has_format;
	char limit[12];
	bool has_limit;
} query;

static bool parse_query(const char *q, query *out)
{
	memset(out, 0, sizeof *out);
	uint32_t params = 0;
	while (*q) {
		if (++params > 32)
			return false;
		const char *amp = strchr(q, '&');
		size_t len = amp ? (size_t)(amp - q) : strlen(q);
		const char *eq = memchr(q, '=', len);
		size_t klen = eq ? (size_t)(eq - q) : len;
		const char *v = eq ? eq + 1 : q + len;
		size_t vlen = eq ? len - klen - 1 : 0;
		char key[16];
		size_t key_len;
		if (klen < sizeof key && decode(q, klen, key, &key_len)) {
			char *dst = NULL;
			size_t size = 0;
			bool *has = NULL;
			if (!strcmp(key, "token")) {
				dst = out->token, size = sizeof out->token, has = &out->has_token;
			} else if (!strcmp(key, "format")) {
				dst = out->format, size = sizeof out->format, has = &out->has_format;
			} else if (!strcmp(key, "limit")) {
				dst = out->limit, size = sizeof out->limit, has = &out->has_limit;
			}
			if (dst && !*has) {
				size_t n;
				*has = true;
				if (vlen >= size || !decode(v, vlen, dst, &n)) {
					dst[0] = '\0';
					if (dst == out->token)
						out->token_bad = true;
					else
						return false;
				}
			}
		}
		q += len;
		if (*q == '&')
			q++;
	}
	return true;
}

/* The value of cookie `name` in a Cookie header ("a=1; b=2"), copied into
 * out (size bytes); false when absent or too long. */
static bool cookie_value(const char *header, const char *name, char *out, size_t size)
{
	size_t name_len = strlen(name);
	const char *c = header;
	while (*c) {
		while (*c == ' ' || *c == ';')
			c++;
		const char *end = strchr(c, ';');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		if (len > name_len && strncmp(c, name, name_len) == 0 && c[name_len] == '=') {
			size_t vlen = len - name_len - 1;
			while (vlen && c[name_len + 1 + vlen - 1] == ' ')
				vlen--;
			if (vlen >= size)
				return false;
			memcpy(out, c + name_len + 1, vlen);
			out[vlen] = '\0';
			return true;
		}
		c += len;
	}
	return false;
}

static void refuse(lv_decision *d, int status, const char *reason)
{
	d->status = status;
	d->reason = reason;
	d->route = LV_ROUTE_NONE;
}

typedef struct route_def {
	const char *path;
	lv_route route;
	bool post; /* POST (else GET and HEAD) */
} route_def;

static const route_def g_routes[] = {
	{"/", LV_ROUTE_ASSET, false},
	{"/live.js", LV_ROUTE_ASSET, false},
	{"/work.js", LV_ROUTE_ASSET, false},
	{"/live.css", LV_ROUTE_ASSET, false},
	{"/api/v1/snapshot", LV_ROUTE_SNAPSHOT, false},
	{"/api/v1/stream", LV_ROUTE_STREAM, false},
	{"/api/v1/history", LV_ROUTE_HISTORY, false},
	{"/api/v1/capture", LV_ROUTE_CAPTURE, true},
	{"/metrics", LV_ROUTE_METRICS, false},
};

void lv_decide(const lv_policy *p, const lv_request *req, lv_decision *d)
{
	memset(d, 0, sizeof *d);
	d->status = 200;
	const char *method = req->method ? req->method : "";
	const char *target = req->target ? req->target : "";
	if (strlen(target) > LV_TARGET_MAX) {
		refuse(d, 414, "request target too long");
		return;
	}
	if (target[0] != '/') {
		refuse(d, 400, "the request target must be a path");
		return;
	}
	/* Host: exactly one, naming this server (DNS rebinding: a foreign
	 * page whose name resolves to 127.0.0.1 still sends its own name). */
	if (!req->host || req->host_count != 1) {
		refuse(d, req->host ? 400 : 403,
		       req->host ? "more than one Host header" : "a Host header is needed");
		return;
	}
	if (!host_allowed(p, req->host)) {
		refuse(d, 403, "Host not allowed: open the address the program printed");
		return;
	}
	/* Same origin only: an Origin, when sent, is this server; fetch
	 * metadata, when sent, says the request came from our own page or
	 * from no page at all. */
	if (req->origin_count > 1) {
		refuse(d, 400, "more than one Origin header");
		return;
	}
	if (req->origin) {
		char want[300];
		snprintf(want, sizeof want, "http://%s", req->host);
		if (strcasecmp(req->origin, want) != 0) {
			refuse(d, 403, "cross-origin requests are refused");
			return;
		}
	}
	if (req->sec_fetch_site && strcmp(req->sec_fetch_site, "same-origin") != 0 &&
	    strcmp(req->sec_fetch_site, "none") != 0) {
		refuse(d, 403, "cross-site requests are refused");
		return;
	}
	if (req->cookie_count > 1 || req->authorization_count > 1) {
		refuse(d, 400, "more than one Cookie or Authorization header");
		return;
	}

	const char *qmark = strchr(target, '?');
	size_t path_len = qmark ? (size_t)(qmark - target) : strlen(target);
	query q;
	if (!parse_query(qmark ? qmark + 1 : "", &q)) {
		refuse(d, 400, "bad query string");
		return;
	}
	const route_def *rt = NULL;
	for (size_t i = 0; i < sizeof g_routes / sizeof *g_routes; i++)
		if (strlen(g_routes[i].path) == path_len &&
		    memcmp(g_routes[i].path, target, path_len) == 0)
			rt = &g_routes[i];

	/* The token: any of the three ways, each compared in constant time;
	 * one that is there and wrong refuses the request. */
	bool authed = false, wrong = q.token_bad;
	if (q.has_token && !q.token_bad) {
		if (lv_token_equal(q.token, strlen(q.token), p->token, p->token_len))
			authed = d->token_in_query = true;
		else
			wrong = true;
	}
	if (req->authorization) {
		const char *a = req->authorization;
		if (strncasecmp(a, "Bearer ", 7) == 0) {
			a += 7;
			while (*a == ' ')
				a++;
			size_t n = strlen(a);
			while (n && a[n - 1] == ' ')
				n--;
			if (lv_token_equal(a, n, p->token, p->token_len))
				authed = true;
			else
				wrong = true;
		} else {
			wrong = true;
		}
	}
	char value[LV_TOKEN_MAX + 1];
	if (req->cookie && cookie_value(req->cookie, p->cookie_name, value, sizeof value)) {
		if (lv_token_equal(value, strlen(value), p->token, p->token_len))
			authed = true;
		else
			wrong = true;
	}
	bool open_metrics = rt && rt->route == LV_ROUTE_METRICS && p->metrics_open;
	if (!open_metrics && (wrong || !authed)) {
		refuse(d, 403, wrong ? "wrong token" : "a token is needed: open the URL the program printed");
		return;
	}

	if (!rt) {
		refuse(d, 404, "no such page");
		return;
	}
	bool get = !strcmp(method, "GET"), head = !strcmp(method, "HEAD");
	bool post = !strcmp(method, "POST");
	if (rt->post ? !post : !(get || head)) {
		refuse(d, 405, rt->post ? "POST only" : "GET or HEAD only");
		return;
	}
	if (req->has_length && req->content_length > (rt->post ? LV_BODY_MAX : 0)) {
		refuse(d, 413, "request body too large");
		return;
	}
	d->head = head;
	d->route = rt->route;
	if (rt->route == LV_ROUTE_ASSET) {
		d->asset = rt->path;
		if (d->token_in_query && !strcmp(rt->path, "/"))
			d->route = LV_ROUTE_LOGIN;
	}
	if (rt->route == LV_ROUTE_SNAPSHOT) {
		if (q.has_format && strcmp(q.format, "json") && strcmp(q.format, "csv")) {
			refuse(d, 400, "format is json or csv");
			return;
		}
		d->csv = q.has_format && !strcmp(q.format, "csv");
		if (q.has_limit) {
			char *end;
			errno = 0;
			unsigned long n = strtoul(q.limit, &end, 10);
			if (!q.limit[0] || *end || errno || n > 1000000 || q.limit[0] == '-' ||
			    q.limit[0] == '+' || q.limit[0] == ' ') {
				refuse(d, 400, "limit is a whole number from 0 to 1000000");
				return;
			}
			d->limit = (uint32_t)n;
		}
	}
}
