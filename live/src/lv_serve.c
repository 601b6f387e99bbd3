/* The answer of each route (lv_server.h): the page's files, snapshots as
 * JSON or CSV, the history, Prometheus text, captures, and streams of
 * Server-Sent Events, each waiting on its own connection's thread for
 * the next snapshot. */
#include "lv_assets.h"
#include "lv_out.h"
#include "lv_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A stream sends a comment line when no update came for this long. */
#define HEARTBEAT_MS 15000

/* --- Answers ------------------------------------------------------------ */

enum MHD_Result lv_answer(struct MHD_Connection *conn, unsigned status,
			  struct MHD_Response *resp, const char *type)
{
	if (!resp)
		return MHD_NO;
	/* Every answer: no caching, no sniffing, no referrer, no framing,
	 * not readable by other origins; no CORS header, ever. */
	MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'none'; script-src 'self'; style-src 'self'; "
				"img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; "
				"form-action 'none'; frame-ancestors 'none'");
	enum MHD_Result r = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return r;
}

static enum MHD_Result send_owned(struct MHD_Connection *conn, unsigned status, char *body,
				  size_t len, const char *type)
{
	if (!body)
		return MHD_NO; /* out of memory: the connection closes */
	return lv_answer(conn, status, MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE),
		    type);
}

enum MHD_Result lv_send_error(struct MHD_Connection *conn, int status, const char *reason)
{
	lv_buf b = {0};
	lv_buf_printf(&b, "%d %s\n", status, reason ? reason : "");
	size_t len;
	char *body = lv_buf_take(&b, &len);
	if (!body)
		return MHD_NO;
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (resp && status == 405)
		MHD_add_response_header(resp, "Allow", "GET, HEAD, POST");
	return lv_answer(conn, (unsigned)status, resp, "text/plain; charset=utf-8");
}

static enum MHD_Result send_buf(struct MHD_Connection *conn, lv_buf *b, const char *type)
{
	size_t len;
	char *body = lv_buf_take(b, &len);
	if (!body)
		return lv_send_error(conn, 500, "out of memory");
	return send_owned(conn, 200, body, len, type);
}

static enum MHD_Result serve_login(srcprof_live *lv, struct MHD_Connection *conn)
{
	/* The token becomes a cookie the page's own requests carry, and the
	 * address bar (and history) lose it. */
	struct MHD_Response *resp = MHD_create_response_from_buffer(0, "", MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	char cookie[256];
	snprintf(cookie, sizeof cookie, "%s=%s; Path=/; HttpOnly; SameSite=Strict",
		 lv->policy.cookie_name, lv->policy.token);
	MHD_add_response_header(resp, "Set-Cookie", cookie);
	MHD_add_response_header(resp, "Location", "/");
	return lv_answer(conn, MHD_HTTP_SEE_OTHER, resp, "text/plain; charset=utf-8");
}

static enum MHD_Result serve_asset(struct MHD_Connection *conn, const char *path)
{
	for (size_t i = 0; i < lv_asset_count; i++)
		if (strcmp(lv_assets[i].path, path) == 0)
			return lv_answer(conn, 200,
				    MHD_create_response_from_buffer(lv_assets[i].size,
								    (void *)lv_assets[i].data,
								    MHD_RESPMEM_PERSISTENT),
				    lv_assets[i].type);
	return lv_send_error(conn, 404, "no such page");
}

static enum MHD_Result serve_snapshot(srcprof_live *lv, struct MHD_Connection *conn,
				      const lv_decision *d)
{
	lv_snapshot *s = lv_model_fresh(&lv->model);
	if (!s)
		return lv_send_error(conn, 503, "no snapshot yet (out of memory?)");
	lv_buf b = {0};
	enum MHD_Result r;
	if (d->csv) {
		lv_snapshot_write_csv(s, lv_model_info(&lv->model), &b);
		r = send_buf(conn, &b, "text/csv; charset=utf-8");
	} else if (d->limit) {
		lv_snapshot_write_json(s, lv_model_info(&lv->model), d->limit, &b);
		r = send_buf(conn, &b, "application/json");
	} else {
		size_t len;
		const char *json = lv_snapshot_json(s, &len);
		r = json ? lv_answer(conn, 200,
				MHD_create_response_from_buffer(len, (void *)json, MHD_RESPMEM_MUST_COPY),
				"application/json")
			 : lv_send_error(conn, 500, "out of memory");
	}
	lv_snapshot_release(s);
	return r;
}

static enum MHD_Result serve_history(srcprof_live *lv, struct MHD_Connection *conn)
{
	lv_buf b = {0};
	lv_model_write_history(&lv->model, &b);
	return send_buf(conn, &b, "application/json");
}

static enum MHD_Result serve_metrics(srcprof_live *lv, struct MHD_Connection *conn)
{
	lv_snapshot *s = lv_model_fresh(&lv->model);
	if (!s)
		return lv_send_error(conn, 503, "no snapshot yet (out of memory?)");
	lv_buf b = {0};
	lv_snapshot_write_metrics(s, lv_model_info(&lv->model), lv_model_streams(&lv->model), &b);
	lv_snapshot_release(s);
	return send_buf(conn, &b, "text/plain; version=0.0.4; charset=utf-8");
}

static enum MHD_Result serve_capture(srcprof_live *lv, struct MHD_Connection *conn)
{
	char *json;
	size_t len;
	const char *reason = "";
	int status = lv_capture_request(&lv->capture, &json, &len, &reason);
	if (status != 200)
		return lv_send_error(conn, status, reason);
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, json, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(json);
		return MHD_NO;
	}
	char name[64], disposition[160];
	time_t now = time(NULL);
	struct tm tm;
	if (!localtime_r(&now, &tm) || !strftime(name, sizeof name, "%Y%m%d-%H%M%S", &tm))
		snprintf(name, sizeof name, "capture");
	snprintf(disposition, sizeof disposition,
		 "attachment; filename=\"srcprof-trace-%s.json\"", name);
	MHD_add_response_header(resp, "Content-Disposition", disposition);
	return lv_answer(conn, 200, resp, "application/json");
}

/* --- Streams ------------------------------------------------------------- */

typedef struct stream {
	srcprof_live *lv;
	lv_buf out;
	size_t pos;
	uint64_t seq;
	bool started;
} stream;

/* An SSE event of `name` whose data is `json` (one line: the writers put
 * no newline inside, only at the end). */
static void event(lv_buf *b, const char *name, uint64_t id, const char *json, size_t len)
{
	while (len && (json[len - 1] == '\n' || json[len - 1] == '\r'))
		len--;
	lv_buf_printf(b, "event: %s\n", name);
	if (id)
		lv_buf_printf(b, "id: %llu\n", (unsigned long long)id);
	lv_buf_puts(b, "data: ");
	lv_buf_put(b, json, len);
	lv_buf_puts(b, "\n\n");
}

static bool stream_next(stream *st)
{
	srcprof_live *lv = st->lv;
	lv_buf_free(&st->out);
	st->pos = 0;
	lv_snapshot *s = NULL;
	if (!st->started) {
		st->started = true;
		lv_buf_puts(&st->out, "retry: 2000\n\n");
		s = lv_model_fresh(&lv->model);
		lv_buf h = {0};
		lv_model_write_history(&lv->model, &h);
		if (!h.oom)
			event(&st->out, "history", 0, h.data, h.len);
		lv_buf_free(&h);
	} else {
		bool stopping;
		s = lv_model_wait(&lv->model, st->seq, HEARTBEAT_MS, &stopping);
		if (stopping)
			return false;
		if (!s) {
			lv_buf_puts(&st->out, ": still here\n\n");
			return !st->out.oom;
		}
	}
	if (s) {
		size_t len;
		const char *json = lv_snapshot_json(s, &len);
		if (json)
			event(&st->out, "update", s->seq, json, len);
		st->seq = s->seq;
		lv_snapshot_release(s);
	}
	return !st->out.oom;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)pos;
	stream *st = cls;
	uselocale(st->lv->c_locale);
	if (st->pos >= st->out.len && !stream_next(st))
		return MHD_CONTENT_READER_END_OF_STREAM;
	size_t n = st->out.len - st->pos;
	if (n > max)
		n = max;
	memcpy(buf, st->out.data + st->pos, n);
	st->pos += n;
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	stream *st = cls;
	lv_model_stream(&st->lv->model, false);
	lv_buf_free(&st->out);
	free(st);
}

static enum MHD_Result serve_stream(srcprof_live *lv, struct MHD_Connection *conn)
{
	if (lv_model_streams(&lv->model) >= lv->max_streams) {
		char why[96];
		snprintf(why, sizeof why, "too many viewers: at most %u streams at once",
			 lv->max_streams);
		return lv_send_error(conn, 503, why);
	}
	stream *st = calloc(1, sizeof *st);
	if (!st)
		return MHD_NO;
	st->lv = lv;
	lv_model_stream(&lv->model, true);
	struct MHD_Response *resp =
		MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, stream_read, st,
						  stream_free);
	if (!resp) {
		stream_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "X-Accel-Buffering", "no");
	return lv_answer(conn, 200, resp, "text/event-stream; charset=utf-8");
}

enum MHD_Result lv_serve(srcprof_live *lv, struct MHD_Connection *conn, const lv_decision *d)
{
	switch (d->route) {
	case LV_ROUTE_LOGIN: return serve_login(lv, conn);
	case LV_ROUTE_ASSET: return serve_asset(conn, d->asset);
	case LV_ROUTE_SNAPSHOT: return serve_snapshot(lv, conn, d);
	case LV_ROUTE_STREAM: return serve_stream(lv, conn);
	case LV_ROUTE_HISTORY: return serve_history(lv, conn);
	case LV_ROUTE_CAPTURE: return serve_capture(lv, conn);
	case LV_ROUTE_METRICS: return serve_metrics(lv, conn);
	case LV_ROUTE_NONE: break;
	}
	return lv_send_error(conn, 404, "no such page");
}
