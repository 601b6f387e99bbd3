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

/* True when $DISPLAY names an X server that accepts a connection; else
 * false with the reason in why ("cannot open ':57'"). */
bool xdisplay_probe(char *why, size_t size);

/* From now on a broken X connection calls save(user), which must not use
 * the window or the GPU, then exits with status 1. */
void xdisplay_on_lost(void (*save)(void *user), void *user);

#endif
