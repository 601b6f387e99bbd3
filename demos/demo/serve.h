/* srcprof-demo's live view (--serve, srcprof/live.h): the server started
 * on the engine's device, the sources' types given to it, page-started
 * captures carried out between frames, and the URL said again (U). In a
 * build without libmicrohttpd every call says so or does nothing. */
#ifndef DEMOS_SERVE_H
#define DEMOS_SERVE_H

#include "engine/engine.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct demo_serve demo_serve;

/* Whether this build has the live view (libmicrohttpd when configured). */
bool demo_serve_available(void);

/* Starts serving on address:port (address NULL: 127.0.0.1; port 0: a free
 * one) with e's device in the page's header, and prints the URL. NULL
 * after one line on stderr saying why, prefixed with `what` ("--serve",
 * "SRCPROF_SERVE") and, when the run goes on without it (`fatal` false),
 * ending in "; running without it". target_fps: the frame graph's budget
 * lines (0: 60). The token comes from SRCPROF_LIVE_TOKEN when set. */
demo_serve *demo_serve_start(const char *what, const char *address, uint16_t port, eng_engine *e,
			     uint32_t target_fps, bool fatal);

/* The line saying this build has no live view, prefixed with `what`. */
void demo_serve_say_missing(const char *what, bool fatal);

/* Gives the server the types of e's sources (after the scene changed). */
void demo_serve_sources(demo_serve *s, eng_engine *e);

/* After each frame: a capture the page asked for (srcprof_live_poll). */
void demo_serve_poll(demo_serve *s);

/* The URL to open, or NULL without a server. */
const char *demo_serve_url(const demo_serve *s);

void demo_serve_stop(demo_serve *s);

#endif
