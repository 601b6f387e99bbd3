/* The GL context: a GLFW window's (windowed), or EGL with no surface
 * (headless: Mesa's surfaceless platform, else the EGL device platform,
 * since GLFW 3.3 cannot run without X). Loads GL through glad, checks for
 * GL 4.5 with ARB_gl_spirv, and counts KHR_debug messages when validating.
 *
 * glad's EGL loader reads the EGL version from a display, so EGL is loaded
 * twice: once with no display (client extensions, to find the platform),
 * then again with the initialized display. */
#include "gl_internal.h"

#include <glad/egl.h>

#include <stdio.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

gl_device gl_dev;

static struct {
	EGLDisplay display;
	EGLContext context;
	EGLSurface pbuffer; /* only without EGL_KHR_surfaceless_context */
	bool loaded;
} egl;

static bool g_debug_output; /* the callback is installed */
static uint32_t g_messages; /* KHR_debug output is synchronous: one thread */

uint32_t gl_messages(void)
{
	return g_messages;
}

/* KHR_debug: errors and high-severity messages fail validation and are
 * counted; other warnings are logged; notifications are not delivered. */
static void GLAD_API_PTR on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity,
					  GLsizei length, const GLchar *message,
					  const void *user)
{
	(void)source;
	(void)length;
	(void)user;
	if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
		return;
	bool counted = type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH;
	if (counted)
		g_messages++;
	eng_log(counted ? ENG_LOG_ERROR : ENG_LOG_WARNING, "gl debug (id %u): %s", id, message);
}

/* The display of the first headless platform that initializes. */
static EGLDisplay open_display(void)
{
	if (!GLAD_EGL_EXT_platform_base) {
		eng_error("gl: EGL lacks EGL_EXT_platform_base; headless OpenGL needs Mesa's EGL "
			  "(libegl-mesa0)");
		return EGL_NO_DISPLAY;
	}
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

static eng_result make_egl_context(bool debug)
{
	if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
		eng_error("gl: cannot load libEGL.so.1 (install libegl1)");
		return ENG_ERR_NO_DRIVER;
	}
	egl.loaded = true;
	egl.display = open_display();
	if (egl.display == EGL_NO_DISPLAY)
		return ENG_ERR_NO_DRIVER;
	int version = gladLoaderLoadEGL(egl.display);
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
	if (!eglChooseConfig(egl.display, config_attrs, &config, 1, &n) || n < 1) {
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
	egl.context = eglCreateContext(egl.display, config, EGL_NO_CONTEXT, ctx_attrs);
	if (egl.context == EGL_NO_CONTEXT) {
		eng_error("gl: OpenGL 4.5 with ARB_gl_spirv required; found no OpenGL 4.5 core "
			  "context through EGL (0x%x)",
			  (unsigned)eglGetError());
		return ENG_ERR_NO_DEVICE;
	}
	if (!surfaceless) {
		EGLint pb_attrs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
		egl.pbuffer = eglCreatePbufferSurface(egl.display, config, pb_attrs);
		if (egl.pbuffer == EGL_NO_SURFACE) {
			eng_error("gl: cannot create an EGL pbuffer (0x%x)", (unsigned)eglGetError());
			return ENG_ERR_NO_DEVICE;
		}
	}
	EGLSurface s = surfaceless ? EGL_NO_SURFACE : egl.pbuffer;
	if (!eglMakeCurrent(egl.display, s, s, egl.context)) {
		eng_error("gl: cannot make the EGL context current (0x%x)", (unsigned)eglGetError());
		return ENG_ERR_NO_DEVICE;
	}
	if (!gladLoadGL((GLADloadfunc)eglGetProcAddress)) {
		eng_error("gl: cannot load OpenGL functions through EGL");
		return ENG_ERR_NO_DRIVER;
	}
	return ENG_OK;
}

static eng_result make_window_context(const eng_gfx_desc *desc)
{
	glfwMakeContextCurrent(desc->window);
	if (!gladLoadGL(glfwGetProcAddress)) {
		eng_error("gl: the window has no usable OpenGL context");
		return ENG_ERR_NO_DRIVER;
	}
	glfwSwapInterval(desc->vsync ? 1 : 0);
	return ENG_OK;
}

/* GL 4.5 and ARB_gl_spirv, or one line saying what there is instead. */
static eng_result check_version(void)
{
	GLint major = 0, minor = 0;
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	const char *version = (const char *)glGetString(GL_VERSION);
	snprintf(gl_dev.renderer, sizeof gl_dev.renderer, "%s", renderer ? renderer : "?");
	snprintf(gl_dev.version, sizeof gl_dev.version, "%s", version ? version : "?");
	bool v45 = major > 4 || (major == 4 && minor >= 5);
	if (!v45 || !GLAD_GL_ARB_gl_spirv || !glSpecializeShaderARB) {
		eng_error("gl: OpenGL 4.5 with ARB_gl_spirv required; found OpenGL %s on %s%s",
			  gl_dev.version, gl_dev.renderer,
			  GLAD_GL_ARB_gl_spirv ? "" : " without ARB_gl_spirv");
		return ENG_ERR_NO_DEVICE;
	}
	gl_dev.software = strstr(gl_dev.renderer, "llvmpipe") || strstr(gl_dev.renderer, "softpipe");
	glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &gl_dev.ubo_align);
	return ENG_OK;
}

eng_result gl_context_init(const eng_gfx_desc *desc)
{
	memset(&gl_dev, 0, sizeof gl_dev);
	memset(&egl, 0, sizeof egl);
	g_messages = 0;
	gl_dev.headless = desc->headless || !desc->window;
	gl_dev.window = gl_dev.headless ? NULL : desc->window;
	eng_result r = gl_dev.headless ? make_egl_context(desc->validate)
				       : make_window_context(desc);
	if (r == ENG_OK)
		r = check_version();
	if (r != ENG_OK) {
		gl_context_shutdown();
		return r;
	}
	if (desc->validate) {
		glEnable(GL_DEBUG_OUTPUT);
		glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
		glDebugMessageCallback(on_debug_message, NULL);
		glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0,
				      NULL, GL_FALSE);
		g_debug_output = true;
	}
	return ENG_OK;
}

void gl_context_shutdown(void)
{
	if (g_debug_output) {
		glDebugMessageCallback(NULL, NULL);
		glDisable(GL_DEBUG_OUTPUT);
		g_debug_output = false;
	}
	if (gl_dev.window) {
		glfwMakeContextCurrent(NULL);
	} else if (egl.loaded) {
		if (egl.display != EGL_NO_DISPLAY) {
			eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
			if (egl.context != EGL_NO_CONTEXT)
				eglDestroyContext(egl.display, egl.context);
			if (egl.pbuffer != EGL_NO_SURFACE)
				eglDestroySurface(egl.display, egl.pbuffer);
			eglTerminate(egl.display);
		}
		/* libEGL stays loaded for the process (the next init reuses it):
		 * glvnd and Mesa keep allocations in their globals that unloading
		 * would leave unreachable. */
		eglReleaseThread();
	}
	memset(&egl, 0, sizeof egl);
	gl_dev.window = NULL;
}

srcprof_gl_proc gl_context_proc(const char *name)
{
	if (gl_dev.window)
		return (srcprof_gl_proc)glfwGetProcAddress(name);
	return (srcprof_gl_proc)eglGetProcAddress(name);
}

void gl_context_set_vsync(bool on)
{
	if (gl_dev.window)
		glfwSwapInterval(on ? 1 : 0);
}

void gl_context_swap(void)
{
	if (gl_dev.window)
		glfwSwapBuffers(gl_dev.window);
}
