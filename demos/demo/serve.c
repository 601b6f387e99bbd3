/* srcprof-demo's live view (serve.h). */
#include "serve.h"
#include "demo_args.h"

#include "engine/gfx.h"

#include <stdio.h>
#include <stdlib.h>

void demo_serve_say_missing(const char *what, bool fatal)
{
	fprintf(stderr,
		DEMO_PROG ": %s: this build has no live view (libmicrohttpd was not found when it "
			  "was configured: apt-get install libmicrohttpd-dev, then configure again)%s\n",
		what, fatal ? "" : "; running without it");
}

#ifdef SRCPROF_HAVE_LIVE
#include "srcprof/live.h"

struct demo_serve {
	srcprof_live *live;
};

bool demo_serve_available(void)
{
	return true;
}

demo_serve *demo_serve_start(const char *what, const char *address, uint16_t port, eng_engine *e,
			     uint32_t target_fps, bool fatal)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	demo_serve *s = calloc(1, sizeof *s);
	if (!s) {
		fprintf(stderr, DEMO_PROG ": %s: out of memory\n", what);
		return NULL;
	}
	s->live = srcprof_live_start(&(srcprof_live_desc){
		.address = address,
		.port = port,
		.token = getenv("SRCPROF_LIVE_TOKEN"),
		.captures = true,
		.software_device = info.software,
		.program = DEMO_PROG " " DEMO_VERSION,
		.api = info.api,
		.device = info.device,
		.target_fps = target_fps,
	});
	if (!s->live) {
		fprintf(stderr, DEMO_PROG ": %s: no live view: %s%s\n", what, srcprof_live_error(),
			fatal ? "" : "; running without it");
		free(s);
		return NULL;
	}
	demo_serve_sources(s, e);
	printf("live view: %s\n", srcprof_live_url(s->live));
	fflush(stdout);
	return s;
}

void demo_serve_sources(demo_serve *s, eng_engine *e)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < eng_source_count(e); i++) {
		const eng_source *src = eng_source_at(e, i);
		srcprof_live_set_source_type(src, src->type->name);
	}
	srcprof_live_set_source_type(eng_overlay_key(), "overlay");
}

void demo_serve_poll(demo_serve *s)
{
	if (s)
		srcprof_live_poll(s->live);
}

const char *demo_serve_url(const demo_serve *s)
{
	return s ? srcprof_live_url(s->live) : NULL;
}

void demo_serve_stop(demo_serve *s)
{
	if (!s)
		return;
	srcprof_live_stop(s->live);
	free(s);
}

#else /* no libmicrohttpd when this build was configured */

bool demo_serve_available(void)
{
	return false;
}

demo_serve *demo_serve_start(const char *what, const char *address, uint16_t port, eng_engine *e,
			     uint32_t target_fps, bool fatal)
{
	(void)address, (void)port, (void)e, (void)target_fps;
	demo_serve_say_missing(what, fatal);
	return NULL;
}

void demo_serve_sources(demo_serve *s, eng_engine *e)
{
	(void)s, (void)e;
}

void demo_serve_poll(demo_serve *s)
{
	(void)s;
}

const char *demo_serve_url(const demo_serve *s)
{
	(void)s;
	return NULL;
}

void demo_serve_stop(demo_serve *s)
{
	(void)s;
}
#endif
