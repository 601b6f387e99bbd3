/* The window and its input: the one part of the engine that knows GLFW.
 *
 * The engine core makes one window per windowed engine and hears about
 * resizes and key presses through the callbacks it gives; the backends get
 * the window from the dispatch (gfx.c) and ask it for what only the window
 * system can give them: a Vulkan surface, a current GL context. A window
 * is made for one client API (no API for Vulkan, an OpenGL 4.5 core
 * context for GL); eng_window_use_api remakes it for another one, keeping
 * title, size and callbacks (--api auto falling back from Vulkan to GL).
 *
 * Graphics thread only. Not a public header: engine/engine.h shows none of
 * this. */
#ifndef ENGINE_PLATFORM_WINDOW_H
#define ENGINE_PLATFORM_WINDOW_H

#include "engine/keys.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct eng_window eng_window;

typedef enum eng_window_api {
	ENG_WINDOW_NO_API, /* Vulkan makes its own surface */
	ENG_WINDOW_GL,     /* an OpenGL 4.5 core context */
} eng_window_api;

typedef struct eng_window_desc {
	const char *title;      /* NULL: "srcprof" */
	uint32_t width, height; /* of the client area */
	bool gl_debug;          /* GL: a debug context */
	/* The framebuffer changed size; called from eng_window_poll. */
	void (*on_resize)(uint32_t width, uint32_t height, void *user);
	/* A key was pressed (not released, not repeated). */
	void (*on_key)(eng_key key, int mods, void *user);
	void *user;
} eng_window_desc;

/* Opens a window for `api`. NULL, with one line saying why (no display, no
 * context of that kind), when it cannot. */
eng_window *eng_window_create(const eng_window_desc *desc, eng_window_api api);
/* Closes the window and the window system (an engine has at most one
 * window, and one engine runs at a time). NULL is fine. */
void eng_window_destroy(eng_window *w);
/* Remakes the window for `api` unless it already is for it. False (said)
 * when the new one cannot be made; the window is then gone, and only
 * eng_window_destroy may be called. */
bool eng_window_use_api(eng_window *w, eng_window_api api);

/* Handles pending window events (resize and key callbacks run here). */
void eng_window_poll(eng_window *w);
/* The user asked to close the window. */
bool eng_window_should_close(const eng_window *w);
/* The framebuffer size in pixels (0 x 0 while minimized). */
void eng_window_framebuffer_size(const eng_window *w, uint32_t *width, uint32_t *height);
/* Asks the window system for a new client size (it may decline; the resize
 * callback says what happened). */
void eng_window_set_size(eng_window *w, uint32_t width, uint32_t height);

/* --- Vulkan ----------------------------------------------------------------- */

/* The instance extensions a surface for this window system needs, or NULL
 * (said) when the window system cannot present with Vulkan. */
const char *const *eng_window_vk_extensions(uint32_t *count);
/* Makes a surface for the window: `instance` is a VkInstance, `surface` a
 * VkSurfaceKHR * that receives it. Returns the VkResult. (void * keeps
 * Vulkan's types out of this header; only engine/src/vk calls it.) */
int eng_window_vk_surface(eng_window *w, void *instance, void *surface);

/* --- OpenGL ----------------------------------------------------------------- */

typedef void (*eng_gl_proc)(void);
/* Makes the window's context current on this thread (NULL: none). */
void eng_window_gl_make_current(eng_window *w);
/* A GL function of the current context by name, or NULL. */
eng_gl_proc eng_window_gl_proc(const char *name);
/* Swaps wait for vertical blank (1) or not (0), for the current context. */
void eng_window_gl_swap_interval(int interval);
/* Presents the default framebuffer. */
void eng_window_gl_swap(eng_window *w);

#endif
