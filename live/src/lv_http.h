/* What the server does with a request, decided from its method, target and
 * a few headers alone (no socket, no server): the Host check against DNS
 * rebinding, the same-origin checks, the token (constant time), the route
 * and its parameters. Kept apart so that tests and the fuzz target
 * (tests/fuzz/fuzz_live_request.c) drive it directly. */
#ifndef LV_HTTP_H
#define LV_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LV_TOKEN_MIN 32
#define LV_TOKEN_MAX 128
/* Longer targets are refused (414) before they are parsed. */
#define LV_TARGET_MAX 2048
#define LV_MAX_HOSTS 16
/* A request body (only the capture's POST may have one) above this is refused. */
#define LV_BODY_MAX 1024

typedef enum lv_route {
	LV_ROUTE_NONE,
	LV_ROUTE_LOGIN,    /* "/?token=...": set the cookie, redirect to "/" */
	LV_ROUTE_ASSET,    /* the page and its files */
	LV_ROUTE_SNAPSHOT, /* /api/v1/snapshot */
	LV_ROUTE_STREAM,   /* /api/v1/stream */
	LV_ROUTE_HISTORY,  /* /api/v1/history */
	LV_ROUTE_CAPTURE,  /* POST /api/v1/capture */
	LV_ROUTE_METRICS,  /* /metrics */
} lv_route;

/* A request as it arrived. Headers that were absent are NULL; a header
 * sent more than once counts in its *_count (a second Host, Origin, Cookie
 * or Authorization header is refused). */
typedef struct lv_request {
	const char *method;
	const char *target; /* the raw request-target: path, then ?query */
	const char *host, *origin, *sec_fetch_site, *authorization, *cookie;
	uint32_t host_count, origin_count, authorization_count, cookie_count;
	bool has_length;
	uint64_t content_length;
} lv_request;

/* What the server accepts: filled once at start. */
typedef struct lv_policy {
	char token[LV_TOKEN_MAX + 1];
	size_t token_len;
	char cookie_name[40];  /* "srcprof_live_<port>": servers on other ports keep theirs */
	uint16_t port;
	/* Host header values accepted as they are (host:port, lower case). */
	char hosts[LV_MAX_HOSTS][280];
	uint32_t n_hosts;
	/* Listening on every address: any numeric address with our port is
	 * accepted too (a rebinding attack needs a name). */
	bool any_numeric_host;
	bool metrics_open;
} lv_policy;

typedef struct lv_decision {
	int status;         /* 200 to serve `route`; else the error to answer */
	const char *reason; /* one line for an error's body */
	lv_route route;
	const char *asset;  /* LV_ROUTE_ASSET: the path ("/", "/live.js", ...) */
	bool head;          /* HEAD: headers only */
	bool csv;           /* snapshot as CSV (?format=csv) */
	uint32_t limit;     /* snapshot rows (?limit=N; 0: all) */
	/* The request carried the token in its target: answers set no
	 * referrer anyway, but the page is reloaded without it. */
	bool token_in_query;
} lv_decision;

/* Fills `p` for a server on `port` with `token`, accepting the loopback
 * names and `address` (numeric, as listened on) and `extra` names (NULL-
 * terminated, may be NULL). False when a name is too long or there are
 * too many (reason in `why`). */
bool lv_policy_init(lv_policy *p, const char *token, uint16_t port, const char *address,
		    bool any_address, const char *const *extra, bool metrics_open, char *why,
		    size_t why_size);

/* Decides what to do with `req`. */
void lv_decide(const lv_policy *p, const lv_request *req, lv_decision *d);

/* Whether the two strings are equal, in time that depends on their
 * lengths only. */
bool lv_token_equal(const char *a, size_t a_len, const char *b, size_t b_len);

/* Whether `t` is a token a desc may give: LV_TOKEN_MIN to LV_TOKEN_MAX
 * characters of [A-Za-z0-9._~-]. */
bool lv_token_valid(const char *t);

/* A new random token: 32 lowercase hex digits (128 bits) from getrandom
 * (or /dev/urandom). False when no randomness could be read. */
bool lv_token_random(char out[33]);

#endif
