/* The server (srcprof/live.h): its listening socket, libmicrohttpd on
 * threads of its own (one per connection, so that a stream may wait for
 * the next update), and a request's way in. What to answer is decided in
 * lv_http.c, answered in lv_serve.c; what to show is in lv_model.c. */
#include "srcprof/live.h"

#include "lv_server.h"

#include "srcprof/source_profiler.h"

#include <microhttpd.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_UPDATE_MS 500
#define DEFAULT_CONNECTIONS 64
#define DEFAULT_STREAMS 16
#define DEFAULT_CAPTURE_S 5
#define DEFAULT_CAPTURE_BYTES ((size_t)64 << 20)
/* Idle connections (and clients that stop reading) are closed after this. */
#define IDLE_TIMEOUT_S 30
/* A connection's memory: request line and headers must fit in about half. */
#define CONNECTION_MEMORY (32 * 1024)
/* A connection's send buffer: a client that stops reading fills it within
 * seconds, and the idle timeout then closes it (the kernel's default on
 * loopback grows to megabytes, minutes of updates). */
#define SEND_BUFFER (64 * 1024)


static _Thread_local char t_error[300];

static void set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t_error, sizeof t_error, fmt, ap);
	va_end(ap);
}

const char *srcprof_live_error(void)
{
	return t_error;
}

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	srcprof_live *lv = cls;
	if (atomic_load(&lv->starting) && !lv->start_error[0]) {
		vsnprintf(lv->start_error, sizeof lv->start_error, fmt, ap);
		lv->start_error[strcspn(lv->start_error, "\n")] = '\0';
	}
}

/* --- Per request -------------------------------------------------------- */

typedef struct req_ctx {
	char target[LV_TARGET_MAX + 2]; /* one more than allowed: "too long" */
	bool started;
	uint64_t body;
	lv_decision d;
} req_ctx;

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	(void)cls, (void)conn;
	req_ctx *rc = calloc(1, sizeof *rc);
	if (rc)
		snprintf(rc->target, sizeof rc->target, "%s", uri ? uri : "");
	return rc;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls, (void)conn, (void)toe;
	free(*con_cls);
	*con_cls = NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	(void)cls, (void)socket_context;
	if (toe != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (info) {
		int size = SEND_BUFFER;
		setsockopt(info->connect_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	}
}

static enum MHD_Result on_header(void *cls, enum MHD_ValueKind kind, const char *key,
				 const char *value)
{
	(void)kind;
	lv_request *r = cls;
	if (!key || !value)
		return MHD_YES;
	struct {
		const char *name;
		const char **slot;
		uint32_t *count;
	} known[] = {
		{"Host", &r->host, &r->host_count},
		{"Origin", &r->origin, &r->origin_count},
		{"Authorization", &r->authorization, &r->authorization_count},
		{"Cookie", &r->cookie, &r->cookie_count},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strcasecmp(key, known[i].name) == 0) {
			if ((*known[i].count)++ == 0)
				*known[i].slot = value;
			return MHD_YES;
		}
	if (strcasecmp(key, "Sec-Fetch-Site") == 0 && !r->sec_fetch_site)
		r->sec_fetch_site = value;
	if (strcasecmp(key, "Content-Length") == 0) {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(value, &end, 10);
		r->has_length = true;
		r->content_length = (*end || errno || value[0] == '-') ? UINT64_MAX : n;
	}
	if (strcasecmp(key, "Transfer-Encoding") == 0) {
		/* A body of unknown size, at least a byte: only the POST may
		 * (its body is cut at LV_BODY_MAX as it arrives). */
		r->has_length = true;
		if (r->content_length == 0)
			r->content_length = 1;
	}
	return MHD_YES;
}

/* --- The handler ------------------------------------------------------------ */

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	(void)url, (void)version, (void)upload_data;
	srcprof_live *lv = cls;
	req_ctx *rc = *con_cls;
	if (!rc)
		return MHD_NO; /* out of memory when it arrived */
	uselocale(lv->c_locale);
	if (!rc->started) {
		rc->started = true;
		lv_request req = {.method = method, .target = rc->target};
		MHD_get_connection_values(conn, MHD_HEADER_KIND, on_header, &req);
		lv_decide(&lv->policy, &req, &rc->d);
		if (rc->d.status != 200)
			return lv_send_error(conn, rc->d.status, rc->d.reason);
		if (rc->d.route == LV_ROUTE_CAPTURE)
			return MHD_YES; /* answered once its (small) body is read */
	} else if (*upload_data_size) {
		rc->body += *upload_data_size;
		*upload_data_size = 0;
		return rc->body > LV_BODY_MAX ? MHD_NO : MHD_YES;
	}
	return lv_serve(lv, conn, &rc->d);
}

/* --- Start and stop --------------------------------------------------------- */

static bool is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
		return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
	}
	const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
	return IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
}

static bool is_any(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

/* The listening socket, made here so that a failure says exactly why. */
static int listen_on(const char *address, uint16_t port, struct sockaddr_storage *ss,
		     uint16_t *bound)
{
	memset(ss, 0, sizeof *ss);
	socklen_t len;
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		len = sizeof *v4;
	} else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		len = sizeof *v6;
	} else {
		set_error("'%s' is not a numeric IPv4 or IPv6 address (or localhost)", address);
		return -1;
	}
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		set_error("cannot make a socket: %s", strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)ss, len) != 0 || listen(fd, 64) != 0) {
		int err = errno;
		char shown[80];
		snprintf(shown, sizeof shown, ss->ss_family == AF_INET6 ? "[%s]" : "%s", address);
		set_error("cannot listen on %s:%u: %s", shown, port, strerror(err));
		close(fd);
		return -1;
	}
	struct sockaddr_storage got;
	socklen_t got_len = sizeof got;
	if (getsockname(fd, (struct sockaddr *)&got, &got_len) != 0) {
		set_error("cannot read the port listened on: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*bound = ntohs(got.ss_family == AF_INET ? ((struct sockaddr_in *)&got)->sin_port
						: ((struct sockaddr_in6 *)&got)->sin6_port);
	return fd;
}

static void copy_text(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

srcprof_live *srcprof_live_start(const srcprof_live_desc *desc_in)
{
	t_error[0] = '\0';
	srcprof_live_desc desc = desc_in ? *desc_in : (srcprof_live_desc){0};
	const char *address = desc.address ? desc.address : "127.0.0.1";
	if (strcasecmp(address, "localhost") == 0)
		address = "127.0.0.1";
	uint32_t update_ms = desc.update_ms ? desc.update_ms : DEFAULT_UPDATE_MS;
	if (update_ms < 100 || update_ms > 10000) {
		set_error("update_ms is %u; it takes 100 to 10000", update_ms);
		return NULL;
	}
	uint32_t seconds = desc.capture_seconds ? desc.capture_seconds : DEFAULT_CAPTURE_S;
	if (seconds > 60) {
		set_error("capture_seconds is %u; it takes 1 to 60", seconds);
		return NULL;
	}
	if (desc.max_connections > 1024 || desc.max_streams > 1024) {
		set_error("max_connections and max_streams take at most 1024");
		return NULL;
	}
	if (desc.token && !lv_token_valid(desc.token)) {
		set_error("the token must be %d to %d characters of A-Z a-z 0-9 . _ ~ -", LV_TOKEN_MIN,
			  LV_TOKEN_MAX);
		return NULL;
	}
	char token[LV_TOKEN_MAX + 1];
	if (desc.token) {
		copy_text(token, sizeof token, desc.token);
	} else if (!lv_token_random(token)) {
		set_error("no randomness for a token: %s", strerror(errno));
		return NULL;
	}

	srcprof_live *lv = calloc(1, sizeof *lv);
	if (!lv) {
		set_error("out of memory");
		return NULL;
	}
	lv->max_streams = desc.max_streams ? desc.max_streams : DEFAULT_STREAMS;
	struct sockaddr_storage ss;
	uint16_t port;
	int fd = listen_on(address, desc.port, &ss, &port);
	if (fd < 0) {
		free(lv);
		return NULL;
	}
	char why[200];
	if (!lv_policy_init(&lv->policy, token, port, address, is_any(&ss), desc.hosts,
			    desc.metrics_open, why, sizeof why)) {
		set_error("%s", why);
		close(fd);
		free(lv);
		return NULL;
	}
	lv->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	lv_info info = {.target_fps = desc.target_fps ? desc.target_fps : 60,
			.software = desc.software_device};
	copy_text(info.program, sizeof info.program, desc.program);
	copy_text(info.api, sizeof info.api, desc.api);
	copy_text(info.device, sizeof info.device, desc.device);
	if (!lv->c_locale || !lv_model_start(&lv->model, &info, update_ms)) {
		set_error("cannot start the server's thread: %s", strerror(errno ? errno : ENOMEM));
		if (lv->c_locale)
			freelocale(lv->c_locale);
		close(fd);
		free(lv);
		return NULL;
	}
	lv_capture_init(&lv->capture, desc.captures, seconds,
			desc.capture_max_bytes ? desc.capture_max_bytes : DEFAULT_CAPTURE_BYTES);

	/* Threads get the default stack size: a smaller one would fail where
	 * the program's thread-local storage is large (glibc places it in
	 * each thread's stack). */
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
			 MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	atomic_store(&lv->starting, true);
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	lv->daemon = MHD_start_daemon(
		flags, 0, NULL, NULL, handle, lv, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, lv,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)(desc.max_connections ? desc.max_connections : DEFAULT_CONNECTIONS),
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
		MHD_OPTION_URI_LOG_CALLBACK,
		on_uri, NULL, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
		MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
	atomic_store(&lv->starting, false);
	if (!lv->daemon) {
		set_error("libmicrohttpd could not start on %s:%u%s%s", address, port,
			  lv->start_error[0] ? ": " : "", lv->start_error);
		lv_model_stop(&lv->model);
		lv_model_free(&lv->model);
		lv_capture_free(&lv->capture);
		freelocale(lv->c_locale);
		close(fd);
		free(lv);
		return NULL;
	}
	/* A loopback URL wherever it listens on every address. */
	const char *shown = is_any(&ss) ? (ss.ss_family == AF_INET6 ? "::1" : "127.0.0.1") : address;
	snprintf(lv->url, sizeof lv->url,
		 strchr(shown, ':') ? "http://[%s]:%u/?token=%s" : "http://%s:%u/?token=%s", shown,
		 port, token);
	if (!is_loopback(&ss))
		source_profiler_log(SOURCE_PROFILER_LOG_WARNING,
				    "live view: listening on %s:%u, beyond this machine: anyone who "
				    "can reach it and has the token sees the figures%s",
				    address, port,
				    desc.metrics_open ? ", and /metrics is open without the token"
						      : "");
	return lv;
}

const char *srcprof_live_url(const srcprof_live *live)
{
	return live ? live->url : "";
}

uint16_t srcprof_live_port(const srcprof_live *live)
{
	return live ? live->policy.port : 0;
}

void srcprof_live_poll(srcprof_live *live)
{
	if (live)
		lv_capture_poll(&live->capture);
}

void srcprof_live_stop(srcprof_live *live)
{
	if (!live)
		return;
	/* Waiters first (a capture request, streams waiting for an update),
	 * so that the connection threads can end; then the connections. */
	lv_capture_stop(&live->capture);
	lv_model_stop(&live->model);
	MHD_stop_daemon(live->daemon);
	lv_model_free(&live->model);
	lv_capture_free(&live->capture);
	freelocale(live->c_locale);
	memset(live->policy.token, 0, sizeof live->policy.token);
	memset(live->url, 0, sizeof live->url);
	free(live);
}
