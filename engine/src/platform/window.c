/* The GLFW window behind engine/src/platform/window.h: creation per client
 * API, events, GLFW's key codes turned into eng_key, and the two things
 * the backends need from the window system (a Vulkan surface, a GL
 * context). */
#include "window.h"

#include "engine/log.h"

#include <stdlib.h>
#include <string.h>

#ifdef SRCPROF_HAVE_VULKAN
/* Types only (VK_NO_PROTOTYPES): GLFW declares glfwCreateWindowSurface
 * with them when they are there. */
#include <vulkan/vulkan_core.h>
#endif
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

struct eng_window {
	GLFWwindow *glfw;
	eng_window_desc desc;
	eng_window_api api;
};

static void on_glfw_error(int code, const char *msg)
{
	eng_warn("glfw: %s (0x%x)", msg, code);
}

static eng_key key_from_glfw(int key)
{
	if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)
		return (eng_key)(ENG_KEY_A + (key - GLFW_KEY_A));
	if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)
		return (eng_key)(ENG_KEY_0 + (key - GLFW_KEY_0));
	if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12)
		return (eng_key)(ENG_KEY_F1 + (key - GLFW_KEY_F1));
	if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9)
		return (eng_key)(ENG_KEY_KP_0 + (key - GLFW_KEY_KP_0));
	switch (key) {
	case GLFW_KEY_SPACE: return ENG_KEY_SPACE;
	case GLFW_KEY_MINUS: return ENG_KEY_MINUS;
	case GLFW_KEY_EQUAL: return ENG_KEY_EQUAL;
	case GLFW_KEY_ENTER: return ENG_KEY_ENTER;
	case GLFW_KEY_ESCAPE: return ENG_KEY_ESCAPE;
	case GLFW_KEY_TAB: return ENG_KEY_TAB;
	case GLFW_KEY_BACKSPACE: return ENG_KEY_BACKSPACE;
	case GLFW_KEY_INSERT: return ENG_KEY_INSERT;
	case GLFW_KEY_DELETE: return ENG_KEY_DELETE;
	case GLFW_KEY_UP: return ENG_KEY_UP;
	case GLFW_KEY_DOWN: return ENG_KEY_DOWN;
	case GLFW_KEY_LEFT: return ENG_KEY_LEFT;
	case GLFW_KEY_RIGHT: return ENG_KEY_RIGHT;
	case GLFW_KEY_PAGE_UP: return ENG_KEY_PAGE_UP;
	case GLFW_KEY_PAGE_DOWN: return ENG_KEY_PAGE_DOWN;
	case GLFW_KEY_HOME: return ENG_KEY_HOME;
	case GLFW_KEY_END: return ENG_KEY_END;
	case GLFW_KEY_KP_ADD: return ENG_KEY_KP_ADD;
	case GLFW_KEY_KP_SUBTRACT: return ENG_KEY_KP_SUBTRACT;
	case GLFW_KEY_KP_MULTIPLY: return ENG_KEY_KP_MULTIPLY;
	case GLFW_KEY_KP_DIVIDE: return ENG_KEY_KP_DIVIDE;
	case GLFW_KEY_KP_ENTER: return ENG_KEY_KP_ENTER;
	default: return ENG_KEY_UNKNOWN;
	}
}

static int mods_from_glfw(int mods)
{
	return (mods & GLFW_MOD_SHIFT ? ENG_MOD_SHIFT : 0) |
	       (mods & GLFW_MOD_CONTROL ? ENG_MOD_CONTROL : 0) |
	       (mods & GLFW_MOD_ALT ? ENG_MOD_ALT : 0) | (mods & GLFW_MOD_SUPER ? ENG_MOD_SUPER : 0);
}

static void on_resize(GLFWwindow *g, int width, int height)
{
	eng_window *w = glfwGetWindowUserPointer(g);
	if (w && w->desc.on_resize)
		w->desc.on_resize((uint32_t)(width > 0 ? width : 0),
				  (uint32_t)(height > 0 ? height : 0), w->desc.user);
}

static void on_key(GLFWwindow *g, int key, int scancode, int action, int mods)
{
	(void)scancode;
	eng_window *w = glfwGetWindowUserPointer(g);
	if (w && w->desc.on_key && action == GLFW_PRESS)
		w->desc.on_key(key_from_glfw(key), mods_from_glfw(mods), w->desc.user);
}

/* The GLFW window for `api`, its callbacks set. */
static bool open_glfw(eng_window *w, eng_window_api api)
{
	glfwDefaultWindowHints();
	if (api == ENG_WINDOW_GL) {
		glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
		glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
		glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, w->desc.gl_debug);
	} else {
		glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
	}
	w->glfw = glfwCreateWindow((int)w->desc.width, (int)w->desc.height,
				   w->desc.title ? w->desc.title : "srcprof", NULL, NULL);
	if (!w->glfw) {
		eng_error("cannot create a %ux%u window%s", w->desc.width, w->desc.height,
			  api == ENG_WINDOW_GL ? " with an OpenGL 4.5 core context" : "");
		return false;
	}
	w->api = api;
	glfwSetWindowUserPointer(w->glfw, w);
	glfwSetFramebufferSizeCallback(w->glfw, on_resize);
	glfwSetKeyCallback(w->glfw, on_key);
	return true;
}

eng_window *eng_window_create(const eng_window_desc *desc, eng_window_api api)
{
	glfwSetErrorCallback(on_glfw_error);
	if (!glfwInit()) {
		eng_error("cannot open a window: no display (set DISPLAY, run under xvfb-run -a, or "
			  "use --headless)");
		return NULL;
	}
	eng_window *w = calloc(1, sizeof *w);
	if (!w) {
		glfwTerminate();
		return NULL;
	}
	w->desc = *desc;
	if (!open_glfw(w, api)) {
		eng_window_destroy(w);
		return NULL;
	}
	return w;
}

void eng_window_destroy(eng_window *w)
{
	if (!w)
		return;
	if (w->glfw)
		glfwDestroyWindow(w->glfw);
	free(w);
	glfwTerminate(); /* one window per process: the engine's */
}

bool eng_window_use_api(eng_window *w, eng_window_api api)
{
	if (w->glfw && w->api == api)
		return true;
	if (w->glfw)
		glfwDestroyWindow(w->glfw);
	w->glfw = NULL;
	return open_glfw(w, api);
}

void eng_window_poll(eng_window *w)
{
	(void)w; /* GLFW polls every window of the process */
	glfwPollEvents();
}

bool eng_window_should_close(const eng_window *w)
{
	return w->glfw && glfwWindowShouldClose(w->glfw);
}

void eng_window_framebuffer_size(const eng_window *w, uint32_t *width, uint32_t *height)
{
	int fw = 0, fh = 0;
	if (w->glfw)
		glfwGetFramebufferSize(w->glfw, &fw, &fh);
	*width = (uint32_t)(fw > 0 ? fw : 0);
	*height = (uint32_t)(fh > 0 ? fh : 0);
}

void eng_window_set_size(eng_window *w, uint32_t width, uint32_t height)
{
	if (w->glfw)
		glfwSetWindowSize(w->glfw, (int)width, (int)height);
}

const char *const *eng_window_vk_extensions(uint32_t *count)
{
	const char **exts = glfwGetRequiredInstanceExtensions(count);
	if (!exts)
		eng_error("vulkan: GLFW found no Vulkan surface support on this display");
	return exts;
}

int eng_window_vk_surface(eng_window *w, void *instance, void *surface)
{
#ifdef SRCPROF_HAVE_VULKAN
	return (int)glfwCreateWindowSurface((VkInstance)instance, w->glfw, NULL,
					    (VkSurfaceKHR *)surface);
#else
	(void)w;
	(void)instance;
	(void)surface;
	return -3; /* VK_ERROR_INITIALIZATION_FAILED */
#endif
}

void eng_window_gl_make_current(eng_window *w)
{
	glfwMakeContextCurrent(w ? w->glfw : NULL);
}

eng_gl_proc eng_window_gl_proc(const char *name)
{
	return (eng_gl_proc)glfwGetProcAddress(name);
}

void eng_window_gl_swap_interval(int interval)
{
	glfwSwapInterval(interval);
}

void eng_window_gl_swap(eng_window *w)
{
	glfwSwapBuffers(w->glfw);
}
