// The Dear ImGui panel (srcprof/live_imgui.h) compiled against Debian's
// libimgui-dev and drawn in a real window (GLFW, OpenGL 3 backend; under
// xvfb-run in ctest), over a small renderer whose sources are GPU-timed by
// srcprof::gl, the particles simulated on a second, "compute" queue (a
// fake one whose stamps are the CPU clock's): after the frames it checks
// that every source has a row, in the default order (GPU p50, largest
// first) of what the profiler holds, that the header names both queues and
// the particles' GPU sums per queue are there for their tooltips, and
// writes the window as PNG (argv[1]) for docs/live.md.
//
//     imgui_panel OUT.png [FRAMES]
#include "srcprof/gl.h"
#include "srcprof/gpu_timer.h"
#include "srcprof/live.h"
#include "srcprof/live_imgui.h"
#include "srcprof/source_profiler.h"

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

#include <GL/gl.h>
#include <GLFW/glfw3.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 1280, kHeight = 560;

struct Source {
	const char *name, *type;
	int clears; // its GPU work: this many full clears of its rectangle
	int x, y, w, h;
	int simulate_us; // its work on the compute queue (0: none)
};

Source g_sources[] = {
	{"terrain", "mesh", 12, 0, 0, 640, 280, 0},    {"water", "mesh", 6, 640, 0, 640, 280, 0},
	{"sparks", "particles", 3, 0, 280, 320, 280, 300}, {"smoke", "particles", 2, 320, 280, 320, 280, 150},
	{"hud", "ui", 1, 640, 280, 320, 140, 0},       {"minimap", "ui", 1, 960, 280, 320, 140, 0},
	{"bloom", "effect", 8, 640, 420, 640, 140, 0},  {"logic", "logic", 0, 0, 0, 0, 0, 0},
};
constexpr int kSources = sizeof g_sources / sizeof g_sources[0];

// ASan builds: the GL driver is dlopen'ed and unloaded by glfwTerminate,
// before LeakSanitizer reports, so its allocations would read "<unknown
// module>" (as engine/src/core/process.c explains); kept mapped, they are
// named, and tests/lsan.supp can tell the driver's from ours.
void pin_loaded_libraries()
{
#if defined(__SANITIZE_ADDRESS__)
	dl_iterate_phdr(
		[](struct dl_phdr_info *info, size_t, void *) {
			if (info->dlpi_name && info->dlpi_name[0])
				dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
			return 0;
		},
		nullptr);
#endif
}

int fail(const char *what)
{
	std::fprintf(stderr, "imgui_panel: FAIL: %s\n", what);
	return 1;
}

void spin_us(int us)
{
	double end = glfwGetTime() + us * 1e-6;
	while (glfwGetTime() < end) {
	}
}

// The "compute" queue: its stamps are the CPU clock's (what a render
// spins), written into the command buffer the graphics thread names.
constexpr uint32_t kQueries = 256;
uint64_t g_compute_stamps[SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT][kQueries];

uint64_t cpu_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

sp_gpu_timer_backend compute_backend()
{
	sp_gpu_timer_backend b{};
	b.mode = "cpu-clock";
	b.reserve = [](void *, uint32_t, uint32_t queries) { return std::min(queries, kQueries); };
	b.write = [](void *, uint32_t slot, uint32_t query, sp_gpu_stamp) {
		if (query < kQueries)
			g_compute_stamps[slot][query] = cpu_ns();
	};
	b.write_cmd = [](void *, void *, uint32_t slot, uint32_t query, sp_gpu_stamp) {
		if (query < kQueries)
			g_compute_stamps[slot][query] = cpu_ns();
	};
	b.read = [](void *, uint32_t slot, uint32_t count, uint64_t *ns) {
		std::memcpy(ns, g_compute_stamps[slot], std::min(count, kQueries) * sizeof *ns);
		return SP_GPU_READ_OK;
	};
	return b;
}

void profiled_frame()
{
	source_profiler_frame_begin();
	for (int i = 0; i < kSources; i++) {
		uint64_t t = source_profiler_source_tick_start();
		spin_us(20 * (i + 1));
		source_profiler_source_tick_end(&g_sources[i], t);
	}
	source_profiler_render_begin();
	source_profiler_set_pass(source_profiler_pass_id("simulate"));
	for (int i = 0; i < kSources; i++) {
		const Source &s = g_sources[i];
		if (!s.simulate_us)
			continue;
		source_profiler_set_command_buffer(1, (void *)&g_compute_stamps);
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		spin_us(s.simulate_us);
		source_profiler_source_render_end(&s, t, timer);
		source_profiler_set_command_buffer(0, nullptr); // back to the GL timer
	}
	source_profiler_set_pass(source_profiler_pass_id("main"));
	glEnable(GL_SCISSOR_TEST);
	for (int i = 0; i < kSources; i++) {
		const Source &s = g_sources[i];
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		glScissor(s.x, s.y, s.w, s.h);
		for (int k = 0; k < s.clears; k++) {
			glClearColor(0.1f + 0.05f * i, 0.12f, 0.2f + 0.03f * k, 1);
			glClear(GL_COLOR_BUFFER_BIT);
		}
		source_profiler_source_render_end(&s, t, timer);
	}
	glDisable(GL_SCISSOR_TEST);
	source_profiler_render_end();
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: imgui_panel OUT.png [FRAMES]\n");
		return 2;
	}
	int frames = argc > 2 ? std::atoi(argv[2]) : 240;
	if (!glfwInit())
		return fail("no window system (run it under xvfb-run -a)");
	glfwWindowHint(GLFW_VISIBLE, GLFW_TRUE);
	GLFWwindow *win = glfwCreateWindow(kWidth, kHeight, "srcprof ImGui panel", nullptr, nullptr);
	if (!win)
		return fail("no window");
	glfwMakeContextCurrent(win);
	glfwSwapInterval(0);

	IMGUI_CHECKVERSION();
	ImGui::CreateContext();
	ImGui::GetIO().IniFilename = nullptr;
	ImGui::StyleColorsDark();
	ImGui_ImplGlfw_InitForOpenGL(win, true);
	ImGui_ImplOpenGL3_Init("#version 130");

	srcprof_gl_timer_desc desc{};
	desc.get_proc_address = (srcprof_gl_proc(*)(const char *))glfwGetProcAddress;
	srcprof_gl_timer *timer = srcprof_gl_timer_create(&desc);
	source_profiler_set_gpu_backend(srcprof_gl_timer_backend(timer));
	source_profiler_gpu_set_budget(100.0); // every frame GPU-timed: full windows fast
	sp_gpu_timer_backend compute = compute_backend();
	if (source_profiler_add_gpu_queue(&compute, "compute") != 1)
		return fail("the compute queue was not added");
	for (Source &s : g_sources) {
		source_profiler_set_source_name(&s, s.name);
		srcprof_live_set_source_type(&s, s.type);
	}
	source_profiler_enable(true);
	source_profiler_gpu_enable(true);

	srcprof::LivePanel panel;
	panel.SetRefreshSeconds(0.05f);
	std::vector<unsigned char> px((size_t)kWidth * kHeight * 4), flipped(px.size());
	// The profiled frames, then ImGui frames alone: the profiler holds
	// still, and the panel's last refresh reads what the check reads.
	for (int f = 0; f < frames + 20 && !glfwWindowShouldClose(win); f++) {
		glfwPollEvents();
		glViewport(0, 0, kWidth, kHeight);
		glClearColor(0.07f, 0.08f, 0.1f, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		if (f < frames)
			profiled_frame();
		ImGui_ImplOpenGL3_NewFrame();
		ImGui_ImplGlfw_NewFrame();
		ImGui::NewFrame();
		ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
		ImGui::SetNextWindowSize(ImVec2(kWidth - 20, kHeight - 20), ImGuiCond_Always);
		panel.Draw("srcprof: sources");
		ImGui::Render();
		ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
		if (f == frames + 19) // the last: the picture, before it is swapped away
			glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
		glfwSwapBuffers(win);
		if (f < frames)
			source_profiler_frame_collect(); // the frame before is done (swap)
		if (f >= frames)
			spin_us(60000); // past the panel's refresh period
	}

	for (int y = 0; y < kHeight; y++)
		std::memcpy(&flipped[(size_t)y * kWidth * 4], &px[(size_t)(kHeight - 1 - y) * kWidth * 4],
			    (size_t)kWidth * 4);
	int status = 0;
	if (!stbi_write_png(argv[1], kWidth, kHeight, 4, flipped.data(), kWidth * 4))
		status = fail("cannot write the PNG");

	// Every source has a row, in GPU p50 order.
	std::printf("panel rows:");
	for (size_t i = 0; i < panel.RowCount(); i++)
		std::printf(" %s", panel.RowName(i));
	std::printf("\n");
	if (panel.RowCount() != (size_t)kSources)
		status = fail("not one row per source");
	// The header names both queues; the particles have a GPU sum on each.
	std::printf("header: %s\n", panel.ThreadsLine());
	if (!std::strstr(panel.ThreadsLine(), "queues: graphics, compute"))
		status = fail("the header does not name the queues");
	for (size_t i = 0; i < panel.RowCount(); i++) {
		const char *q = panel.RowQueues(i);
		bool particles = !std::strcmp(panel.RowName(i), "sparks") || !std::strcmp(panel.RowName(i), "smoke");
		std::printf("  %-8s %s\n", panel.RowName(i), q);
		if (particles != (std::strstr(q, "graphics ") && std::strstr(q, " + compute ")))
			status = fail("a source's GPU sum per queue");
	}
	uint64_t prev = UINT64_MAX;
	for (size_t i = 0; i < panel.RowCount(); i++) {
		const Source *s = nullptr;
		for (const Source &c : g_sources)
			if (!std::strcmp(c.name, panel.RowName(i)))
				s = &c;
		source_profiler_medians_t m;
		if (!s || !source_profiler_fill_medians(s, &m))
			return fail("a row names no source with figures");
		std::printf("  %-8s GPU p50 %8.1f us, %u GPU samples\n", s->name,
			    m.render_gpu_sum_p50 / 1e3, m.gpu_samples);
		if (m.render_gpu_sum_p50 > prev)
			status = fail("rows are not in GPU p50 order");
		prev = m.render_gpu_sum_p50;
	}
	// The panel drew something beside the background.
	size_t inked = 0;
	for (size_t i = 0; i < px.size(); i += 4)
		inked += px[i] > 150 || px[i + 1] > 150 || px[i + 2] > 150;
	std::printf("bright pixels (text, lines): %zu\n", inked);
	if (inked < 2000)
		status = fail("the panel drew almost nothing");

	source_profiler_remove_gpu_queue(1);
	source_profiler_set_gpu_backend(nullptr);
	srcprof_gl_timer_destroy(timer);
	source_profiler_shutdown();
	pin_loaded_libraries();
	ImGui_ImplOpenGL3_Shutdown();
	ImGui_ImplGlfw_Shutdown();
	ImGui::DestroyContext();
	glfwDestroyWindow(win);
	glfwTerminate();
	if (!status)
		std::printf("ok: %d sources in the panel, in GPU p50 order; %s written\n", kSources, argv[1]);
	return status;
}
