#include "xdisplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <X11/Xlib.h>

static void (*g_save)(void *user);
static void *g_user;

/* Tries to connect this many times, this far apart: a server resetting
 * (its last client just left: under xvfb-run, a tool such as xdotool
 * polling for the window) refuses connections for a moment. */
#define OPEN_TRIES 10
#define OPEN_PAUSE_US 50000

void *xdisplay_open(char *why, size_t size)
{
	for (int i = 0; i < OPEN_TRIES; i++) {
		Display *d = XOpenDisplay(NULL);
		if (d)
			return d;
		usleep(OPEN_PAUSE_US);
	}
	snprintf(why, size, "cannot open '%s'", XDisplayName(NULL));
	return NULL;
}

void xdisplay_close(void *display)
{
	if (display)
		XCloseDisplay(display);
}

static int on_io_error(Display *d)
{
	static int entered;
	if (entered++) /* the save itself met the broken connection */
		_exit(1);
	fprintf(stderr, "srcprof-demo: the connection to the X display '%s' broke (server gone?): "
			"saving what was measured, then exiting with status 1\n",
		d ? DisplayString(d) : XDisplayName(NULL));
	if (g_save)
		g_save(g_user);
	fflush(NULL);
	exit(1);
}

void xdisplay_on_lost(void (*save)(void *user), void *user)
{
	g_save = save;
	g_user = user;
	XSetIOErrorHandler(on_io_error);
}
