/* The X display under a windowed demo run (GLFW's X11 platform): whether
 * it can be opened at all, and what happens when its connection breaks.
 *
 * Xlib reports a broken connection (the X server killed or gone) to an I/O
 * error handler that must not return: the default one prints "X
 * connection to :N broken" and calls exit(1), so without one a run loses
 * everything it measured. xdisplay_on_lost installs a handler that calls
 * the program's save function first, on the thread that met the error
 * (the graphics thread, inside the window's event polling or a GL swap),
 * then exits with status 1. */
#ifndef DEMOS_XDISPLAY_H
#define DEMOS_XDISPLAY_H

#include <stdbool.h>
#include <stddef.h>

/* Opens $DISPLAY to see whether it accepts a connection, and keeps the
 * connection until xdisplay_close: an X server with no client left resets
 * (unless started with -noreset, which xvfb-run does not pass), and
 * refuses connections meanwhile, so closing it at once made the window's
 * own connection fail a moment later (measured under Xvfb). For the same
 * reason a refused connection is tried again for half a second (another
 * client may have just left). Close it once the window is open. NULL, with
 * the reason in why ("cannot open ':57'"), when there is no such server. */
void *xdisplay_open(char *why, size_t size);
void xdisplay_close(void *display);

/* From now on a broken X connection calls save(user), which must not use
 * the window or the GPU, then exits with status 1. */
void xdisplay_on_lost(void (*save)(void *user), void *user);

#endif
