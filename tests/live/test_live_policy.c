/* The live server's request policy alone (live/src/lv_http.c): the Host
 * check against DNS rebinding, same-origin checks, the token in its three
 * forms, routes, methods and parameters, decided without a socket. */
#include "check.h"
#include "lv_buf.h"
#include "lv_http.h"

#define TOKEN "0123456789abcdef0123456789abcdef"
#define PORT 8123

static lv_policy g_p;

static void policy(bool any_address, bool metrics_open)
{
	char why[200];
	const char *extra[] = {"render-07.farm.example", NULL};
	bool ok = lv_policy_init(&g_p, TOKEN, PORT, any_address ? "0.0.0.0" : "127.0.0.1",
				 any_address, extra, metrics_open, why, sizeof why);
	if (!ok)
		printf("policy: %s\n", why);
}

/* A GET of target from this server's own name with the bearer token. */
static lv_request get(const char *target)
{
	return (lv_request){.method = "GET", .target = target, .host = "127.0.0.1:8123",
			    .host_count = 1, .authorization = "Bearer " TOKEN,
			    .authorization_count = 1};
}

static lv_decision decide(lv_request r)
{
	lv_decision d;
	lv_decide(&g_p, &r, &d);
	return d;
}

TEST(the_token_compares_equal_only_when_equal)
{
	CHECK(lv_token_equal("abc", 3, "abc", 3));
	CHECK(!lv_token_equal("abc", 3, "abd", 3));
	CHECK(!lv_token_equal("abc", 3, "abcd", 4));
	CHECK(lv_token_valid(TOKEN));
	CHECK(!lv_token_valid("short"));
	CHECK(!lv_token_valid("0123456789abcdef0123456789abcde!"));
	char a[33], b[33];
	CHECK(lv_token_random(a));
	CHECK(lv_token_random(b));
	CHECK_EQ(strlen(a), 32);
	CHECK(strspn(a, "0123456789abcdef") == 32);
	CHECK(strcmp(a, b) != 0);
}

TEST(the_right_token_in_any_of_its_three_forms_is_accepted)
{
	policy(false, false);
	CHECK_EQ(decide(get("/api/v1/snapshot")).status, 200);
	CHECK_EQ(decide(get("/api/v1/snapshot")).route, LV_ROUTE_SNAPSHOT);
	lv_request r = get("/api/v1/snapshot");
	r.authorization = "bearer   " TOKEN "  ";
	CHECK_EQ(decide(r).status, 200);
	r = get("/api/v1/stream?token=" TOKEN);
	r.authorization = NULL;
	r.authorization_count = 0;
	lv_decision d = decide(r);
	CHECK_EQ(d.status, 200);
	CHECK_EQ(d.route, LV_ROUTE_STREAM);
	CHECK(d.token_in_query);
	r = get("/live.js");
	r.authorization = NULL;
	r.authorization_count = 0;
	r.cookie = "other=1; srcprof_live_8123=" TOKEN "; x=y";
	r.cookie_count = 1;
	CHECK_EQ(decide(r).status, 200);
	CHECK_EQ(decide(r).route, LV_ROUTE_ASSET);
	r.target = "/work.js";
	CHECK_EQ(decide(r).route, LV_ROUTE_ASSET);
	CHECK(!strcmp(decide(r).asset, "/work.js"));
}

TEST(no_token_or_a_wrong_one_is_refused)
{
	policy(false, false);
	lv_request r = get("/api/v1/snapshot");
	r.authorization = NULL;
	r.authorization_count = 0;
	CHECK_EQ(decide(r).status, 403);
	r.authorization = "Bearer 0123456789abcdef0123456789abcdee";
	r.authorization_count = 1;
	CHECK_EQ(decide(r).status, 403);
	r.authorization = "Basic " TOKEN;
	CHECK_EQ(decide(r).status, 403);
	/* A wrong token refuses even beside a right one. */
	r = get("/api/v1/snapshot?token=wrong");
	CHECK_EQ(decide(r).status, 403);
	r = get("/api/v1/snapshot");
	r.cookie = "srcprof_live_8123=nope";
	r.cookie_count = 1;
	CHECK_EQ(decide(r).status, 403);
	/* Another port's cookie is not ours. */
	r = get("/api/v1/snapshot");
	r.authorization = NULL;
	r.authorization_count = 0;
	r.cookie = "srcprof_live_9000=" TOKEN;
	r.cookie_count = 1;
	CHECK_EQ(decide(r).status, 403);
	/* A token with a NUL or a bad escape is no token. */
	CHECK_EQ(decide(get("/api/v1/snapshot?token=%00" TOKEN)).status, 403);
	CHECK_EQ(decide(get("/api/v1/snapshot?token=%zz")).status, 403);
	/* Unknown paths and methods are refused as 403 too without a token. */
	r = get("/nothing");
	r.authorization = NULL;
	r.authorization_count = 0;
	CHECK_EQ(decide(r).status, 403);
}

TEST(the_host_must_name_this_server)
{
	policy(false, false);
	lv_request r = get("/api/v1/snapshot");
	const char *ok[] = {"127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", "[::1]:8123",
			    "render-07.farm.example:8123"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		r.host = ok[i];
		CHECK_EQ(decide(r).status, 200);
	}
	const char *bad[] = {"attacker.example:8123", "127.0.0.1:8124", "127.0.0.1", "10.0.0.1:8123",
			     "localhost.attacker.example:8123", "127.0.0.1:8123.evil", ""};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		r.host = bad[i];
		CHECK_EQ(decide(r).status, 403);
	}
	r.host = NULL;
	r.host_count = 0;
	CHECK_EQ(decide(r).status, 403);
	r.host = "127.0.0.1:8123";
	r.host_count = 2;
	CHECK_EQ(decide(r).status, 400);
}

TEST(on_every_address_numeric_hosts_with_our_port_pass_and_names_do_not)
{
	policy(true, false);
	lv_request r = get("/metrics");
	const char *ok[] = {"10.1.2.3:8123", "[fe80::1]:8123", "127.0.0.1:8123",
			    "render-07.farm.example:8123"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		r.host = ok[i];
		CHECK_EQ(decide(r).status, 200);
	}
	const char *bad[] = {"10.1.2.3:8124", "attacker.example:8123", "1.2.3:8123", "1.2.3.4.5:8123",
			     "1234.1.1.1:8123", "[fe80::g]:8123", "[]:8123"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		r.host = bad[i];
		CHECK_EQ(decide(r).status, 403);
	}
}

TEST(cross_origin_requests_are_refused)
{
	policy(false, false);
	lv_request r = get("/api/v1/snapshot");
	r.origin = "http://127.0.0.1:8123";
	CHECK_EQ(decide(r).status, 200);
	r.origin = "http://attacker.example";
	CHECK_EQ(decide(r).status, 403);
	r.origin = "null";
	CHECK_EQ(decide(r).status, 403);
	r.origin = "https://127.0.0.1:8123";
	CHECK_EQ(decide(r).status, 403);
	r.origin = NULL;
	r.sec_fetch_site = "cross-site";
	CHECK_EQ(decide(r).status, 403);
	r.sec_fetch_site = "same-site"; /* another port of localhost */
	CHECK_EQ(decide(r).status, 403);
	r.sec_fetch_site = "same-origin";
	CHECK_EQ(decide(r).status, 200);
	r.sec_fetch_site = "none";
	CHECK_EQ(decide(r).status, 200);
}

TEST(routes_methods_and_parameters)
{
	policy(false, false);
	lv_decision d = decide(get("/?token=" TOKEN));
	CHECK_EQ(d.route, LV_ROUTE_LOGIN);
	CHECK_EQ(decide(get("/")).route, LV_ROUTE_ASSET);
	CHECK_EQ(decide(get("/nothing")).status, 404);
	CHECK_EQ(decide(get("/api/v1/snapshot/")).status, 404);
	CHECK_EQ(decide(get("/api/v1/%73napshot")).status, 404);
	CHECK_EQ(decide(get("//api/v1/snapshot")).status, 404);
	lv_request r = get("/api/v1/snapshot");
	r.method = "POST";
	CHECK_EQ(decide(r).status, 405);
	r.method = "HEAD";
	CHECK_EQ(decide(r).status, 200);
	CHECK(decide(r).head);
	r = get("/api/v1/capture");
	CHECK_EQ(decide(r).status, 405);
	r.method = "POST";
	CHECK_EQ(decide(r).route, LV_ROUTE_CAPTURE);
	r.has_length = true;
	r.content_length = 5000;
	CHECK_EQ(decide(r).status, 413);
	r = get("/api/v1/snapshot");
	r.has_length = true;
	r.content_length = 1;
	CHECK_EQ(decide(r).status, 413);
	CHECK(decide(get("/api/v1/snapshot?format=csv")).csv);
	CHECK(!decide(get("/api/v1/snapshot?format=json")).csv);
	CHECK_EQ(decide(get("/api/v1/snapshot?format=xml")).status, 400);
	CHECK_EQ(decide(get("/api/v1/snapshot?limit=5")).limit, 5);
	CHECK_EQ(decide(get("/api/v1/snapshot?limit=-1")).status, 400);
	CHECK_EQ(decide(get("/api/v1/snapshot?limit=99999999999")).status, 400);
	CHECK_EQ(decide(get("/api/v1/snapshot?x=1&&y&format=csv&format=json")).csv, 1);
	CHECK_EQ(decide(get("api/v1/snapshot")).status, 400);
	char longer[LV_TARGET_MAX + 20] = "/api/v1/snapshot?x=";
	memset(longer + strlen(longer), 'a', LV_TARGET_MAX);
	longer[LV_TARGET_MAX + 10] = '\0';
	CHECK_EQ(decide(get(longer)).status, 414);
	char many[512] = "/api/v1/snapshot?";
	for (int i = 0; i < 40; i++)
		strcat(many, "a=1&");
	CHECK_EQ(decide(get(many)).status, 400);
}

TEST(metrics_without_the_token_only_when_open)
{
	policy(false, true);
	lv_request r = get("/metrics");
	r.authorization = NULL;
	r.authorization_count = 0;
	CHECK_EQ(decide(r).status, 200);
	r.target = "/api/v1/snapshot";
	CHECK_EQ(decide(r).status, 403);
	policy(false, false);
	r.target = "/metrics";
	CHECK_EQ(decide(r).status, 403);
}

TEST(too_many_or_too_long_host_names_are_refused)
{
	char why[200];
	char name[300];
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	const char *one[] = {name, NULL};
	CHECK(!lv_policy_init(&g_p, TOKEN, PORT, "127.0.0.1", false, one, false, why, sizeof why));
	const char *many[20];
	for (int i = 0; i < 19; i++)
		many[i] = "host.example";
	many[19] = NULL;
	CHECK(!lv_policy_init(&g_p, TOKEN, PORT, "127.0.0.1", false, many, false, why, sizeof why));
	const char *slash[] = {"a/b", NULL};
	CHECK(!lv_policy_init(&g_p, TOKEN, PORT, "127.0.0.1", false, slash, false, why, sizeof why));
}

TEST(json_strings_are_escaped_and_valid_utf8)
{
	lv_buf b = {0};
	lv_buf_json_string(&b, "a\"b\\c\n\x01\xc3\xa9\xff\xed\xa0\x80z");
	CHECK(!b.oom);
	CHECK(strcmp(b.data, "\"a\\\"b\\\\c\\u000a\\u0001\xc3\xa9\\ufffd\\ufffd\\ufffd\\ufffdz\"") == 0);
	lv_buf_free(&b);
	lv_buf_json_double(&b, 1.0 / 0.0, 1);
	lv_buf_puts(&b, ",");
	lv_buf_json_double(&b, 3.0, 1);
	lv_buf_puts(&b, ",");
	lv_buf_json_double(&b, 2.25, 1);
	CHECK(strcmp(b.data, "null,3,2.2") == 0 || strcmp(b.data, "null,3,2.3") == 0);
	lv_buf_free(&b);
}
