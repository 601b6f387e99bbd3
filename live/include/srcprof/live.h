/*
 * srcprof/live.h - the profiler's figures live, while the renderer runs
 * (library srcprof::live, pkg-config srcprof-live).
 *
 * A small HTTP server inside the renderer's process (libmicrohttpd, on
 * threads of its own) that serves:
 *   /                 a page: the per-source table (time, or work per
 *                     frame while work counting is on), sparklines, the
 *                     frame time graph, a source's passes, CSV / JSON
 *                     snapshots and 5-second trace captures (for
 *                     ui.perfetto.dev);
 *   /api/v1/snapshot  every source's figures as JSON (?format=csv: CSV);
 *   /api/v1/stream    the same as Server-Sent Events, one per update;
 *   /api/v1/history   the last minutes the server kept (sparklines);
 *   /api/v1/capture   POST: a trace capture, answered with its JSON;
 *   /metrics          Prometheus text: srcprof_* series with a source label.
 * docs/live.md describes each and the page.
 *
 * The render thread does nothing new per frame: the server's threads read
 * the profiler through its any-thread calls (source_profiler_fill_result,
 * _fill_medians, _fill_intervals, _get_sample_counts, _fill_pass_results,
 * _fill_work, _fill_pass_work, _frame_work, _get_stats, _get_sampling,
 * _enum_sources) at the rate viewers ask, and
 * keep the history the page draws. The one exception is optional: a trace
 * capture can only be started and written on the graphics thread, so a
 * renderer that wants captures from the page calls srcprof_live_poll()
 * between frames (one atomic load while none is asked).
 *
 * Secure by default: it listens on 127.0.0.1 only (another address only
 * when the desc names one, with a warning in the log); every request needs
 * the random 128-bit token of the URL srcprof_live_url() gives (as
 * ?token=, an "Authorization: Bearer" header, or the HttpOnly SameSite=Strict
 * cookie the page gets in exchange), compared in constant time; the Host
 * header must name this server (DNS rebinding), cross-origin requests are
 * refused and no CORS header is ever sent; GET and HEAD only, besides the
 * capture's POST; connections, streams, request sizes and idle time are
 * limited; nothing a request does writes to disk. The library installs no
 * signal handler, and no SIGPIPE reaches the process from it.
 *
 * Use:
 *     srcprof_live *live = srcprof_live_start(&(srcprof_live_desc){
 *             .program = "my-renderer", .api = "Vulkan", .device = gpu_name});
 *     if (live)
 *             printf("live view: %s\n", srcprof_live_url(live));
 *     else
 *             printf("no live view: %s\n", srcprof_live_error());
 *     every frame, optionally, after source_profiler_frame_collect():
 *             srcprof_live_poll(live);           (page-started captures)
 *     at the end, before source_profiler_shutdown():
 *             srcprof_live_stop(live);
 *
 * It does not draw (srcprof/live_imgui.h is a Dear ImGui panel of the same
 * table, compiled by the engine against its own ImGui), start or stop the
 * profiler, or keep anything across runs.
 */
#ifndef SRCPROF_LIVE_H
#define SRCPROF_LIVE_H

#include "srcprof/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct srcprof_live srcprof_live;

/* The server's settings. Zero (or NULL) is the default written beside
 * each field. Strings are copied by srcprof_live_start. */
typedef struct srcprof_live_desc {
	/* Where to listen: a numeric IPv4 or IPv6 address, or "localhost".
	 * NULL: "127.0.0.1". A non-loopback address ("0.0.0.0", a LAN
	 * address) is used because it was asked for, and said in the log. */
	const char *address;
	/* The TCP port; 0: a free one (srcprof_live_url says which). */
	uint16_t port;
	/* The token every request must carry: 32 to 128 characters of
	 * [A-Za-z0-9._~-] (a fleet's scrape configuration keeps one). NULL:
	 * a random 128-bit one (32 hex digits) from getrandom. */
	const char *token;
	/* Further names the Host header may carry, e.g. the machine's DNS
	 * name for a Prometheus that scrapes it by name (NULL-terminated;
	 * NULL: none). The loopback names and numeric addresses of the
	 * listening address are always accepted. */
	const char *const *hosts;
	/* Serve /metrics without a token (every other path still needs it). */
	bool metrics_open;
	/* The renderer calls srcprof_live_poll between frames: the page may
	 * start trace captures. false: /api/v1/capture answers 501. */
	bool captures;
	/* The GPU is a software device (lavapipe, llvmpipe): a busy machine
	 * then inflates GPU times, and the page says so. */
	bool software_device;
	/* Shown in the page's header and in /metrics' srcprof_info. */
	const char *program, *api, *device;
	/* The frame rate aimed at: the frame graph's budget lines at one and
	 * two frames of it. 0: 60. */
	uint32_t target_fps;
	/* Period of the updates while someone watches, ms, 100 to 10,000.
	 * 0: 500. Without viewers the history is kept every 2 s. */
	uint32_t update_ms;
	/* Limits. 0: 64 connections, 16 streams (/api/v1/stream) at once. */
	uint32_t max_connections, max_streams;
	/* A capture's span in seconds (0: 5, at most 60) and the most bytes
	 * of JSON it may have (0: 64 MiB): a bigger one is refused (413). */
	uint32_t capture_seconds;
	size_t capture_max_bytes;
} srcprof_live_desc;

/* Starts serving (desc may be NULL: every default) and returns the server,
 * or NULL when it cannot: a bad desc field, an address that is not this
 * machine's, a port in use, no memory or threads. Then
 * srcprof_live_error() says why in one line; nothing is logged. Any
 * thread; several servers may run at once (on different ports). */
SRCPROF_API srcprof_live *srcprof_live_start(const srcprof_live_desc *desc);

/* Why the calling thread's last srcprof_live_start returned NULL
 * ("cannot listen on 127.0.0.1:8080: Address already in use"); "" after
 * one that succeeded. The string lives until the thread's next start. */
SRCPROF_API const char *srcprof_live_error(void);

/* "http://127.0.0.1:PORT/?token=..." - the URL to print or open: a
 * loopback one wherever the server listens on every address. Lives as
 * long as the server. */
SRCPROF_API const char *srcprof_live_url(const srcprof_live *live);

/* The port the server listens on (the free one picked for port 0). */
SRCPROF_API uint16_t srcprof_live_port(const srcprof_live *live);

/* For renderers that set desc.captures: graphics thread, between frames
 * (after source_profiler_frame_collect). Starts a trace capture the page
 * asked for (source_profiler_trace_start) and, once the profiler finished
 * it, writes its JSON into memory for the request and discards it. One
 * atomic load when no capture is asked; writing a capture takes the frame
 * it happens in a few milliseconds more per megabyte. A capture the
 * renderer started itself is left alone (the page's request is refused).
 * NULL is ignored. */
SRCPROF_API void srcprof_live_poll(srcprof_live *live);

/* Stops serving: open streams end, a waiting capture request is answered
 * 503, connections close, threads are joined; then frees the server.
 * Call it from the thread that calls srcprof_live_poll (a capture the
 * page started and the profiler still records is stopped and discarded)
 * and before source_profiler_shutdown. NULL is ignored. */
SRCPROF_API void srcprof_live_stop(srcprof_live *live);

/* Gives `source` a type ("mesh", "particles", ...) for the page's type
 * filter, the table's type column and the metrics' type label (copied, 31
 * bytes at most). Any thread, with or without a server; call it where the
 * source gets its name (source_profiler_set_source_name). A source the
 * profiler no longer lists loses its type; NULL or "" removes it. */
SRCPROF_API void srcprof_live_set_source_type(const void *source, const char *type);

/* Copies the source's type into buf (size > 0) and returns true, or
 * writes "" and returns false when it has none. Any thread. */
SRCPROF_API bool srcprof_live_get_source_type(const void *source, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
