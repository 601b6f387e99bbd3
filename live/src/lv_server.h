/* What the server's two halves share: live.c (libmicrohttpd, start and
 * stop, the request's way in) and lv_serve.c (the answer of each route). */
#ifndef LV_SERVER_H
#define LV_SERVER_H

#include "lv_capture.h"
#include "lv_http.h"
#include "lv_model.h"

#include "srcprof/live.h"

#include <microhttpd.h>

#include <locale.h>
#include <stdatomic.h>

struct srcprof_live {
	struct MHD_Daemon *daemon;
	lv_policy policy;
	lv_model model;
	lv_capture capture;
	locale_t c_locale;
	uint32_t max_streams;
	char url[400];
	/* libmicrohttpd's own message while it starts (it says nothing else:
	 * what it would log later is dropped). */
	_Atomic bool starting;
	char start_error[200];
};

/* Answers `status` with `resp` (NULL: out of memory, the connection
 * closes) of Content-Type `type`, with the headers every answer carries:
 * no caching, no sniffing, no referrer, no framing, the CSP; never a CORS
 * header. Destroys resp. */
enum MHD_Result lv_answer(struct MHD_Connection *conn, unsigned status,
			  struct MHD_Response *resp, const char *type);
/* An error: "<status> <reason>" as text/plain. */
enum MHD_Result lv_send_error(struct MHD_Connection *conn, int status, const char *reason);
/* The answer of the route d decided (d->status 200). */
enum MHD_Result lv_serve(srcprof_live *lv, struct MHD_Connection *conn, const lv_decision *d);

#endif
