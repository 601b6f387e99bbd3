/* gl_objects: a small headless OpenGL renderer - three objects of
 * different cost drawn into an FBO on an EGL context with no window - profiled
 * per object with the installed srcprof package (srcprof::gl). The lines
 * marked "srcprof" are all the profiling it takes. GL functions come from
 * libOpenGL directly; the timer loads its own through eglGetProcAddress.
 *
 *     gl_objects [--frames N] [--check] [--validate] [--timing auto|plain|flushed]
 *                [--serve [ADDR:]PORT]
 *
 * --check measures each object in the frame against the object drawn alone
 * (see common.c); --validate makes a debug context and fails on any
 * KHR_debug message above notification; --serve shows the figures live in a
 * browser (srcprof::live, the lines marked "srcprof live"; until Ctrl-C unless
 * --frames). */
#include "common.h"

#include <srcprof/gl.h>              /* srcprof */
#include <srcprof/source_profiler.h> /* srcprof */

#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *vertex_src =
	"#version 330 core\n"
	"uniform vec4 rect;\n"
	"void main() {\n"
	"	vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);\n"
	"	gl_Position = vec4(mix(rect.xy, rect.zw, corner), 0.0, 1.0);\n"
	"}\n";

/* The same fragment cost as the Vulkan example's shader. */
static const char *fragment_src =
	"#version 330 core\n"
	"uniform vec4 color;\n"
	"uniform uint loops;\n"
	"out vec4 out_color;\n"
	"void main() {\n"
	"	vec2 q = gl_FragCoord.xy * 0.001;\n"
	"	float v = 0.25;\n"
	"	for (uint i = 0u; i < loops * 8u; i++) {\n"
	"		v = fract(sin(v * 12.9898 + q.x + float(i)) * 43758.5453);\n"
	"		q = q.yx + v;\n"
	"	}\n"
	"	out_color = vec4(color.rgb * (0.5 + 0.5 * v), 1.0);\n"
	"}\n";

static struct {
	EGLDisplay display;
	EGLContext context;
	GLuint fbo, texture, program, vao;
	GLint u_rect, u_color, u_loops;
	GLsync fences[2]; /* the last two frames */
	uint64_t frame;
	uint32_t messages;
	srcprof_gl_timer *timer; /* srcprof */
} g;

static void die(const char *what)
{
	fprintf(stderr, "gl_objects: %s\n", what);
	exit(1);
}

static void APIENTRY on_debug(GLenum source, GLenum type, GLuint id, GLenum severity,
				GLsizei length, const GLchar *message, const void *user)
{
	(void)source, (void)type, (void)id, (void)length, (void)user;
	if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
		return;
	g.messages++;
	fprintf(stderr, "GL debug: %s\n", message);
}

/* A GPU's EGL device when there is one (a headless NVIDIA card has no
 * other platform), else Mesa's surfaceless platform (its software device
 * here; LIBGL_ALWAYS_SOFTWARE=1 asks for it). */
static EGLDisplay open_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get_display)
{
	PFNEGLQUERYDEVICESEXTPROC query_devices =
		(PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
	PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
		(PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
	const char *sw = getenv("LIBGL_ALWAYS_SOFTWARE");
	EGLDeviceEXT devices[16];
	EGLint n = 0;
	if ((!sw || !*sw || !strcmp(sw, "0")) && query_devices && device_string &&
	    query_devices(16, devices, &n)) {
		for (EGLint i = 0; i < n; i++) {
			const char *ext = device_string(devices[i], EGL_EXTENSIONS);
			if (ext && strstr(ext, "EGL_MESA_device_software"))
				continue;
			EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
			if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL))
				return d;
		}
	}
	EGLDisplay d = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	return d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL) ? d : EGL_NO_DISPLAY;
}

static void make_context(bool debug)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		die("EGL lacks EGL_EXT_platform_base");
	g.display = open_display(get_display);
	if (g.display == EGL_NO_DISPLAY)
		die("no EGL display without a window (a GPU's EGL device, or Mesa's EGL)");
	if (!eglBindAPI(EGL_OPENGL_API))
		die("EGL cannot run desktop OpenGL");
	EGLint config_attrs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
	EGLConfig config;
	EGLint n = 0;
	if (!eglChooseConfig(g.display, config_attrs, &config, 1, &n) || n < 1)
		die("EGL offers no OpenGL config");
	EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4,
			      EGL_CONTEXT_MINOR_VERSION, 5,
			      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
			      EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE,
			      EGL_NONE};
	g.context = eglCreateContext(g.display, config, EGL_NO_CONTEXT, ctx_attrs);
	if (g.context == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(g.display, EGL_NO_SURFACE, EGL_NO_SURFACE, g.context))
		die("no OpenGL 4.5 core context without a surface");
	printf("device: %s\n", (const char *)glGetString(GL_RENDERER));
	if (debug) {
		glEnable(GL_DEBUG_OUTPUT);
		glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
		glDebugMessageCallback(on_debug, NULL);
	}
}

static GLuint shader(GLenum kind, const char *src)
{
	GLuint s = glCreateShader(kind);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024];
		glGetShaderInfoLog(s, sizeof log, NULL, log);
		fprintf(stderr, "gl_objects: shader: %s\n", log);
		exit(1);
	}
	return s;
}

static void make_scene(void)
{
	glGenTextures(1, &g.texture);
	glBindTexture(GL_TEXTURE_2D, g.texture);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, EX_WIDTH, EX_HEIGHT);
	glGenFramebuffers(1, &g.fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g.texture, 0);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		die("the FBO is incomplete");
	glViewport(0, 0, EX_WIDTH, EX_HEIGHT);
	GLuint vs = shader(GL_VERTEX_SHADER, vertex_src), fs = shader(GL_FRAGMENT_SHADER, fragment_src);
	g.program = glCreateProgram();
	glAttachShader(g.program, vs);
	glAttachShader(g.program, fs);
	glLinkProgram(g.program);
	glDeleteShader(vs);
	glDeleteShader(fs);
	GLint ok = 0;
	glGetProgramiv(g.program, GL_LINK_STATUS, &ok);
	if (!ok)
		die("the program does not link");
	g.u_rect = glGetUniformLocation(g.program, "rect");
	g.u_color = glGetUniformLocation(g.program, "color");
	g.u_loops = glGetUniformLocation(g.program, "loops");
	glGenVertexArrays(1, &g.vao);
	glBindVertexArray(g.vao);
	glUseProgram(g.program);
}

static void clear(void)
{
	glClearColor(0.05f, 0.05f, 0.08f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
}

static void draw(const ex_object *obj)
{
	glUniform4fv(g.u_rect, 1, obj->rect);
	glUniform4fv(g.u_color, 1, obj->color);
	glUniform1ui(g.u_loops, obj->loops);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* One frame, every object ticked and drawn, profiled. */
static bool frame(void *user)
{
	(void)user;
	int slot = (int)(g.frame++ % 2);
	source_profiler_frame_begin(); /* srcprof */
	for (int i = 0; i < EX_OBJECTS; i++) {
		uint64_t t = source_profiler_source_tick_start(); /* srcprof */
		ex_tick(&ex_objects[i]);
		source_profiler_source_tick_end(&ex_objects[i], t); /* srcprof */
	}
	source_profiler_render_begin(); /* srcprof */
	clear();
	for (int i = 0; i < EX_OBJECTS; i++) {
		sp_gpu_timer *timer;                                          /* srcprof */
		uint64_t t = source_profiler_source_render_begin(&timer);      /* srcprof */
		draw(&ex_objects[i]);
		source_profiler_source_render_end(&ex_objects[i], t, timer); /* srcprof */
	}
	source_profiler_render_end(); /* srcprof */
	g.fences[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	glFlush();
	/* The frame before must be done before it is collected. */
	GLsync before = g.fences[slot ^ 1];
	if (before) {
		while (glClientWaitSync(before, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull) ==
		       GL_TIMEOUT_EXPIRED)
			;
		glDeleteSync(before);
		g.fences[slot ^ 1] = NULL;
	}
	source_profiler_frame_collect(); /* srcprof */
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Object `i` (or nothing, -1) drawn on its own, glFinish to glFinish on the
 * CPU clock. Not profiled. */
static bool alone(void *user, int i, uint64_t *ns)
{
	(void)user;
	glFinish();
	uint64_t t0 = now_ns();
	clear();
	if (i >= 0)
		draw(&ex_objects[i]);
	glFinish();
	*ns = now_ns() - t0;
	return true;
}

int main(int argc, char **argv)
{
	ex_options o;
	if (!ex_parse(argc, argv, "gl_objects", &o))
		return 2;
	make_context(o.validate);
	make_scene();

	g.timer = srcprof_gl_timer_create(&(srcprof_gl_timer_desc){
		.get_proc_address = (srcprof_gl_proc(*)(const char *))eglGetProcAddress, /* srcprof */
		.timing = (srcprof_gpu_timing)o.timing}); /* (--timing; 0 is auto) */
	source_profiler_set_gpu_backend(srcprof_gl_timer_backend(g.timer));              /* srcprof */
	for (int i = 0; i < EX_OBJECTS; i++)
		source_profiler_set_source_name(&ex_objects[i], ex_objects[i].name); /* srcprof */
	source_profiler_enable(true);                                                /* srcprof */
	source_profiler_gpu_enable(true);                                            /* srcprof */
	struct srcprof_live *live = ex_serve_start(&o, "gl_objects", "OpenGL", /* srcprof live */
						   (const char *)glGetString(GL_RENDERER));

	int status = 0;
	if (o.check) {
		status = ex_check("gl", frame, alone, NULL);
	} else {
		for (uint32_t f = 0; !o.frames || f < o.frames; f++) {
			frame(NULL);
			ex_serve_frame(live); /* srcprof live: captures from the page */
		}
		ex_print_table("gl");
	}

	glFinish();
	source_profiler_set_gpu_backend(NULL); /* srcprof */
	srcprof_gl_timer_destroy(g.timer);     /* srcprof */
	ex_serve_stop(live);                   /* srcprof live */
	source_profiler_shutdown();            /* srcprof */
	for (int i = 0; i < 2; i++)
		if (g.fences[i])
			glDeleteSync(g.fences[i]);
	glDeleteVertexArrays(1, &g.vao);
	glDeleteProgram(g.program);
	glDeleteFramebuffers(1, &g.fbo);
	glDeleteTextures(1, &g.texture);
	eglMakeCurrent(g.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(g.display, g.context);
	eglTerminate(g.display);
	if (o.validate) {
		printf("GL debug: %u messages\n", g.messages);
		if (g.messages && !status)
			status = 1;
	}
	return status;
}
