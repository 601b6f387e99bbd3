/* The GL context: the window's (windowed, engine/src/platform), or EGL
 * with no surface (headless, since GLFW 3.3 cannot run without X: a GPU's
 * EGL device, else Mesa's surfaceless platform, else any EGL device).
 * Loads GL through glad, checks for GL 4.5 with ARB_gl_spirv, and counts
 * KHR_debug messages when validating.
 *
 * glad's EGL loader reads the EGL version from a display, so EGL is loaded
 * twice: once with no display (client extensions, to find the platform),
 * then again with the initialized display. */
#include "gl_internal.h"

#include "../platform/window.h"

#include <glad/egl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* KHR_debug: errors and high-severity messages fail validation and are
 * counted; other warnings are logged; notifications are not delivered. */
static void GLAD_API_PTR on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity,
					  GLsizei length, const GLchar *message,
					  const void *user)
{
	(void)source;
	(void)length;
	if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
		return;
	bool counted = type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH;
	if (counted)
		((gl_device *)(uintptr_t)user)->messages++;
	eng_log(counted ? ENG_LOG_ERROR : ENG_LOG_WARNING, "gl debug (id %u): %s", id, message);
}

/* Mesa's software device says so in its device extensions. */
static bool software_device(EGLDeviceEXT device)
{
	const char *ext =
		GLAD_EGL_EXT_device_query ? eglQueryDeviceStringEXT(device, EGL_EXTENSIONS) : NULL;
	return ext && strstr(ext, "EGL_MESA_device_software");
}

/* LIBGL_ALWAYS_SOFTWARE=1 asks for Mesa's software rasterizer. */
static bool software_asked(void)
{
	const char *v = getenv("LIBGL_ALWAYS_SOFTWARE");
	return v && *v && strcmp(v, "0") != 0;
}

#define MAX_EGL_DEVICES 16

/* A GPU's EGL device (a headless NVIDIA card has no other platform, and
 * on a machine with Mesa's EGL too, the surfaceless platform would be
 * Mesa's software rasterizer), when there is one and software was not
 * asked for. */
static EGLDisplay open_hardware_device(void)
{
	if (software_asked() || !GLAD_EGL_EXT_platform_device || !GLAD_EGL_EXT_device_enumeration)
		return EGL_NO_DISPLAY;
	EGLDeviceEXT devices[MAX_EGL_DEVICES];
	EGLint n = 0;
	if (!eglQueryDevicesEXT(MAX_EGL_DEVICES, devices, &n))
		return EGL_NO_DISPLAY;
	for (EGLint i = 0; i < n; i++) {
		if (software_device(devices[i]))
			continue;
		EGLint major, minor;
		EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
		if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor))
			return d;
	}
	return EGL_NO_DISPLAY;
}

/* The display of the first headless platform that initializes: a GPU's
 * device, Mesa's surfaceless platform, any device. */
static EGLDisplay open_display(void)
{
	if (!GLAD_EGL_EXT_platform_base) {
		eng_error("gl: EGL lacks EGL_EXT_platform_base; headless OpenGL needs Mesa's EGL "
			  "(libegl-mesa0) or a GPU driver's EGL device platform");
		return EGL_NO_DISPLAY;
	}
	EGLDisplay hw = open_hardware_device();
	if (hw != EGL_NO_DISPLAY)
		return hw;
	EGLint major, minor;
	if (GLAD_EGL_MESA_platform_surfaceless) {
		EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
							EGL_DEFAULT_DISPLAY, NULL);
		if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor))
			return d;
		eng_warn("gl: EGL's surfaceless platform did not initialize (0x%x); trying the "
			 "device platform",
			 (unsigned)eglGetError());
	}
	if (GLAD_EGL_EXT_platform_device && GLAD_EGL_EXT_device_enumeration) {
		EGLDeviceEXT device;
		EGLint n = 0;
		if (eglQueryDevicesEXT(1, &device, &n) && n > 0) {
			EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, NULL);
			if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor))
				return d;
		}
	}
	eng_error("gl: no headless EGL platform (neither EGL_MESA_platform_surfaceless nor an "
		  "EGL device initialized); install Mesa's EGL (libegl-mesa0) or run windowed");
	return EGL_NO_DISPLAY;
}

static eng_result make_egl_context(gl_device *dev, bool debug)
{
	if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
		eng_error("gl: cannot load libEGL.so.1 (install libegl1)");
		return ENG_ERR_NO_DRIVER;
	}
	dev->egl_loaded = true;
	EGLDisplay display = open_display();
	dev->egl_display = display;
	if (display == EGL_NO_DISPLAY)
		return ENG_ERR_NO_DRIVER;
	int version = gladLoaderLoadEGL(display);
	if (!version || !eglBindAPI(EGL_OPENGL_API)) {
		eng_error("gl: the EGL display cannot run desktop OpenGL");
		return ENG_ERR_NO_DRIVER;
	}
	bool surfaceless = GLAD_EGL_KHR_surfaceless_context;
	EGLint config_attrs[] = {
		EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
		EGL_NONE,
	};
	EGLConfig config;
	EGLint n = 0;
	if (!eglChooseConfig(display, config_attrs, &config, 1, &n) || n < 1) {
		eng_error("gl: EGL offers no OpenGL config%s", surfaceless ? "" : " with pbuffers");
		return ENG_ERR_NO_DEVICE;
	}
	/* EGL 1.5 and EGL_KHR_create_context share the version and profile
	 * attributes; the debug flag differs. */
	bool egl15 = GLAD_VERSION_MAJOR(version) > 1 || GLAD_VERSION_MINOR(version) >= 5;
	if (!egl15 && !GLAD_EGL_KHR_create_context) {
		eng_error("gl: EGL %d.%d without EGL_KHR_create_context cannot make a core context",
			  GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
		return ENG_ERR_NO_DEVICE;
	}
	EGLint ctx_attrs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 4,
		EGL_CONTEXT_MINOR_VERSION, 5,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		egl15 ? EGL_CONTEXT_OPENGL_DEBUG : EGL_CONTEXT_FLAGS_KHR,
		egl15 ? (debug ? EGL_TRUE : EGL_FALSE) : (debug ? EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR : 0),
		EGL_NONE,
	};
	EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, ctx_attrs);
	dev->egl_context = context;
	if (context == EGL_NO_CONTEXT) {
		eng_error("gl: OpenGL 4.5 with ARB_gl_spirv required; found no OpenGL 4.5 core "
			  "context through EGL (0x%x)",
			  (unsigned)eglGetError());
		return ENG_ERR_NO_DEVICE;
	}
	EGLSurface s = EGL_NO_SURFACE;
	if (!surfaceless) {
		EGLint pb_attrs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
		s = eglCreatePbufferSurface(display, config, pb_attrs);
		dev->egl_pbuffer = s;
		if (s == EGL_NO_SURFACE) {
			eng_error("gl: cannot create an EGL pbuffer (0x%x)", (unsigned)eglGetError());
			return ENG_ERR_NO_DEVICE;
		}
	}
	if (!eglMakeCurrent(display, s, s, context)) {
		eng_error("gl: cannot make the EGL context current (0x%x)", (unsigned)eglGetError());
		return ENG_ERR_NO_DEVICE;
	}
	if (!gladLoadGL((GLADloadfunc)eglGetProcAddress)) {
		eng_error("gl: cannot load OpenGL functions through EGL");
		return ENG_ERR_NO_DRIVER;
	}
	return ENG_OK;
}

static eng_result make_window_context(gl_device *dev, const eng_gfx_desc *desc)
{
	eng_window_gl_make_current(dev->window);
	if (!gladLoadGL((GLADloadfunc)eng_window_gl_proc)) {
		eng_error("gl: the window has no usable OpenGL context");
		return ENG_ERR_NO_DRIVER;
	}
	eng_window_gl_swap_interval(desc->vsync ? 1 : 0);
	return ENG_OK;
}

/* GL 4.5 and ARB_gl_spirv, or one line saying what there is instead. */
static eng_result check_version(gl_device *dev)
{
	GLint major = 0, minor = 0;
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	const char *version = (const char *)glGetString(GL_VERSION);
	snprintf(dev->renderer, sizeof dev->renderer, "%s", renderer ? renderer : "?");
	snprintf(dev->version, sizeof dev->version, "%s", version ? version : "?");
	bool v45 = major > 4 || (major == 4 && minor >= 5);
	if (!v45 || !GLAD_GL_ARB_gl_spirv || !glSpecializeShaderARB) {
		eng_error("gl: OpenGL 4.5 with ARB_gl_spirv required; found OpenGL %s on %s%s",
			  dev->version, dev->renderer,
			  GLAD_GL_ARB_gl_spirv ? "" : " without ARB_gl_spirv");
		return ENG_ERR_NO_DEVICE;
	}
	dev->software = strstr(dev->renderer, "llvmpipe") || strstr(dev->renderer, "softpipe");
	glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &dev->ubo_align);
	return ENG_OK;
}

eng_result gl_context_init(gl_device *dev, const eng_gfx_desc *desc, eng_window *window)
{
	memset(dev, 0, sizeof *dev);
	dev->egl_display = EGL_NO_DISPLAY;
	dev->egl_context = EGL_NO_CONTEXT;
	dev->egl_pbuffer = EGL_NO_SURFACE;
	dev->headless = desc->headless || !window;
	dev->window = dev->headless ? NULL : window;
	eng_result r = dev->headless ? make_egl_context(dev, desc->validate)
				     : make_window_context(dev, desc);
	if (r == ENG_OK)
		r = check_version(dev);
	if (r != ENG_OK) {
		gl_context_shutdown(dev);
		return r;
	}
	if (desc->validate) {
		glEnable(GL_DEBUG_OUTPUT);
		glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
		glDebugMessageCallback(on_debug_message, dev);
		glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0,
				      NULL, GL_FALSE);
		dev->debug_output = true;
	}
	return ENG_OK;
}

void gl_context_shutdown(gl_device *dev)
{
	if (dev->debug_output) {
		glDebugMessageCallback(NULL, NULL);
		glDisable(GL_DEBUG_OUTPUT);
		dev->debug_output = false;
	}
	if (dev->window) {
		eng_window_gl_make_current(NULL);
	} else if (dev->egl_loaded) {
		EGLDisplay display = dev->egl_display;
		if (display != EGL_NO_DISPLAY) {
			eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
			if (dev->egl_context != EGL_NO_CONTEXT)
				eglDestroyContext(display, dev->egl_context);
			if (dev->egl_pbuffer != EGL_NO_SURFACE)
				eglDestroySurface(display, dev->egl_pbuffer);
			eglTerminate(display);
		}
		/* libEGL stays loaded for the process (the next init reuses it):
		 * glvnd and Mesa keep allocations in their globals that unloading
		 * would leave unreachable. */
		eglReleaseThread();
	}
	dev->egl_loaded = false;
	dev->egl_display = EGL_NO_DISPLAY;
	dev->egl_context = EGL_NO_CONTEXT;
	dev->egl_pbuffer = EGL_NO_SURFACE;
	dev->window = NULL;
}

static srcprof_gl_proc egl_proc(const char *name)
{
	return (srcprof_gl_proc)eglGetProcAddress(name);
}

gl_loader gl_context_loader(const gl_device *dev)
{
	return dev->window ? eng_window_gl_proc : egl_proc;
}

void gl_context_set_vsync(void *ctx, bool on)
{
	gl_device *dev = &((gl_ctx *)ctx)->dev;
	if (dev->window)
		eng_window_gl_swap_interval(on ? 1 : 0);
}

void gl_context_swap(gl_device *dev)
{
	if (dev->window)
		eng_window_gl_swap(dev->window);
}
