/*
 * srcprof/live_imgui.h - the live view's table inside an engine's own Dear
 * ImGui debug UI (C++).
 *
 * One source file, installed with srcprof::live (share/srcprof/imgui/
 * srcprof_live_imgui.cpp; CMake: ${SRCPROF_LIVE_IMGUI_SOURCE} after
 * find_package(srcprof COMPONENTS live); pkg-config: --variable=imgui_source
 * srcprof-live), that the engine compiles with its own ImGui: ImGui's ABI
 * changes from release to release, so srcprof ships no ImGui binary and
 * links none. It needs ImGui 1.80 or later (tables) and srcprof::live.
 *
 * The panel draws the table of srcprof-demo and of the live page: every
 * source's tick, render and GPU figures in the demo's columns and units,
 * sample counts and sum +-, sortable by any column (GPU p50 first), a
 * filter by name and type, and per-source sparklines of GPU sum and rend
 * sum over the last minute. With several GPU queues or recording threads
 * the header names them, and a source's GPU sum per queue is its GPU sum
 * cell's tooltip. It reads the profiler through the same any-thread calls
 * as the server, on the thread that draws ImGui (the render thread,
 * usually), at most every refresh_seconds (0.25 s by default): between
 * refreshes a frame costs only the drawing. It needs no server running.
 *
 *     #include <srcprof/live_imgui.h>
 *     static srcprof::LivePanel panel;          // keeps its history
 *     ...between ImGui::NewFrame() and ImGui::Render():
 *     panel.Draw("srcprof");                     // a window of its own
 */
#ifndef SRCPROF_LIVE_IMGUI_H
#define SRCPROF_LIVE_IMGUI_H

#include <stddef.h>

namespace srcprof {

class LivePanel {
public:
	LivePanel();
	~LivePanel();
	LivePanel(const LivePanel &) = delete;
	LivePanel &operator=(const LivePanel &) = delete;

	/* Draws the panel in an ImGui window called `title` (open: as
	 * ImGui::Begin's p_open), refreshing its figures when they are older
	 * than the refresh period. Call between NewFrame and Render; size the
	 * window as any other (ImGui::SetNextWindowSize before). */
	void Draw(const char *title = "srcprof", bool *open = nullptr);

	/* Draws the panel's contents into the current window instead. */
	void DrawContents();

	/* How often the figures are read, seconds (0.05 to 10; default 0.25).
	 * Each refresh copies every source's window (a few microseconds a
	 * source). */
	void SetRefreshSeconds(float seconds);

	/* The rows of the last drawing, in their order (after sorting and
	 * filtering): their count and each one's name. For tests and tools. */
	size_t RowCount() const;
	const char *RowName(size_t i) const;
	/* The row's GPU sum per queue as its GPU sum cell's tooltip says it
	 * ("graphics 5.895 + compute 0.590 ms"; "" while the profiler has one
	 * queue or the row no GPU sample), and the header's line of queues
	 * and recording threads ("" with one queue and no recording thread). */
	const char *RowQueues(size_t i) const;
	const char *ThreadsLine() const;

private:
	struct State;
	State *state_;
};

} // namespace srcprof

#endif
