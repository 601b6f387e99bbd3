// srcprof/live_imgui.h: the live view's table in the engine's own Dear ImGui.
// Compiled by the engine with its ImGui (see the header); reads the profiler
// through its any-thread calls, refreshed at most every refresh period.
#include "srcprof/live_imgui.h"

#include "srcprof/gpu_timer.h"
#include "srcprof/live.h"
#include "srcprof/machine.h"
#include "srcprof/source_profiler.h"

#include "imgui.h"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace srcprof {
namespace {

constexpr int kHistory = 240; // refreshes kept per source: a minute at 0.25 s

struct Row {
	const void *key = nullptr;
	std::string name, type;
	bool have = false, async = false, have_med = false, have_ci = false;
	profiler_result_t r{};
	uint32_t cpu_n = 0, gpu_n = 0;
	source_profiler_medians_t m{};
	source_profiler_intervals_t iv{};
	// Its GPU sum on each queue it was rendered on (read with several
	// queues only), and that as the GPU sum cell's tooltip says it.
	size_t n_queue = 0;
	source_profiler_queue_result_t queue[SOURCE_PROFILER_MAX_QUEUES]{};
	std::string queues;
};

// A source's sparkline values, oldest first (a ring).
struct History {
	float gpu[kHistory] = {}, cpu[kHistory] = {};
	int count = 0, next = 0;
	bool seen = false;
	void push(float g, float c)
	{
		gpu[next] = g;
		cpu[next] = c;
		next = (next + 1) % kHistory;
		if (count < kHistory)
			count++;
	}
	float at(const float *v, int i) const
	{
		return v[(next - count + i + kHistory) % kHistory];
	}
};

enum Col {
	C_NAME, C_TYPE, C_TICK, C_TICK_MAX, C_RENDER, C_RENDER_MAX, C_RENDER_SUM, C_RENDER_P50,
	C_GPU, C_GPU_MAX, C_GPU_SUM, C_GPU_CI, C_GPU_P50, C_GPU_N, C_IN_FPS, C_OUT_FPS,
	C_GPU_TREND, C_CPU_TREND, C_COUNT
};

const char *const kLabels[C_COUNT] = {"source", "type", "tick", "tick max", "render", "rend max",
				      "rend sum", "rend p50", "GPU", "GPU max", "GPU sum", "sum +-",
				      "GPU p50", "GPU n", "in fps", "out fps", "GPU trend",
				      "CPU trend"};

bool is_time(int c)
{
	return (c >= C_TICK && c <= C_GPU_SUM) || c == C_GPU_P50;
}

bool is_gpu(int c)
{
	return c >= C_GPU && c <= C_GPU_N;
}

// The figure of a column, or NAN where the row has none.
double value(const Row &w, int c)
{
	const profiler_result_t &r = w.r;
	switch (c) {
	case C_TICK: return (double)r.tick_avg;
	case C_TICK_MAX: return (double)r.tick_max;
	case C_RENDER: return (double)r.render_avg;
	case C_RENDER_MAX: return (double)r.render_max;
	case C_RENDER_SUM: return (double)r.render_sum;
	case C_RENDER_P50: return w.have_med ? (double)w.m.render_sum_p50 : NAN;
	case C_GPU: return (double)r.render_gpu_avg;
	case C_GPU_MAX: return (double)r.render_gpu_max;
	case C_GPU_SUM: return (double)r.render_gpu_sum;
	case C_GPU_CI:
		return w.have_ci && w.iv.gpu_samples > 1 && r.render_gpu_sum
			       ? 100.0 * (double)w.iv.render_gpu_sum_ci95 / (double)r.render_gpu_sum
			       : NAN;
	case C_GPU_P50: return w.have_med ? (double)w.m.render_gpu_sum_p50 : NAN;
	case C_GPU_N: return (double)w.gpu_n;
	case C_IN_FPS: return r.async_input;
	case C_OUT_FPS: return r.async_rendered;
	}
	return NAN;
}

struct Unit {
	const char *name = "";
	double ns = 1;
	int dec = 1;
};

// As the demo's overlay: where rounding to the decimals shown would print
// 1000 in the smaller unit.
Unit time_unit(double max_ns)
{
	if (max_ns < 999950.0)
		return {"us", 1e3, 1};
	if (max_ns < 999999500.0)
		return {"ms", 1e6, 3};
	return {"s", 1e9, 3};
}

} // namespace

struct LivePanel::State {
	float refresh_s = 0.25f;
	std::chrono::steady_clock::time_point last{};
	bool fresh = false;
	std::vector<Row> rows;
	std::vector<int> order; // rows shown, in order
	std::unordered_map<const void *, History> hist;
	source_profiler_stats_t st{};
	char gpu_mode[64] = "";
	source_profiler_sampling_t sm{};
	std::vector<std::string> queue_names; // by number, "" where none
	std::string threads_line, lost_line;
	srcprof_load_meter load{};
	double busy = -1;
	ImGuiTextFilter filter;
	std::string type; // "" every type
	int sort_col = C_GPU_P50;
	bool sort_desc = true;

	void refresh();
	void sort();
	std::string queue_text(const Row &w) const;
	void threads_and_queues();
	bool gpu_on() const { return st.enabled && st.gpu_enabled; }
	std::string cell(const Row &w, int c, const Unit &u) const;
};

void LivePanel::State::refresh()
{
	rows.clear();
	source_profiler_enum_sources(
		[](const void *source, const char *name, void *user) {
			auto *v = static_cast<std::vector<Row> *>(user);
			Row w;
			w.key = source;
			w.name = name ? name : "";
			v->push_back(std::move(w));
		},
		&rows);
	for (auto &h : hist)
		h.second.seen = false;
	source_profiler_get_stats(&st);
	queue_names.assign(SOURCE_PROFILER_MAX_QUEUES, std::string());
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++)
		if (const char *name = source_profiler_queue_name(q))
			queue_names[q] = name;
	const bool several_queues = st.gpu_queues > 1;
	for (Row &w : rows) {
		char kind[32];
		srcprof_live_get_source_type(w.key, kind, sizeof kind);
		w.type = kind;
		w.have = source_profiler_fill_result(w.key, &w.r);
		if (w.have) {
			w.async = w.r.async_input > 0 || w.r.async_rendered > 0;
			source_profiler_get_sample_counts(w.key, &w.cpu_n, &w.gpu_n);
			w.have_med = source_profiler_fill_medians(w.key, &w.m);
			w.have_ci = source_profiler_fill_intervals(w.key, &w.iv);
			if (several_queues)
				w.n_queue = std::min<size_t>(
					source_profiler_fill_queue_results(w.key, w.queue,
									   SOURCE_PROFILER_MAX_QUEUES),
					SOURCE_PROFILER_MAX_QUEUES);
			w.queues = queue_text(w);
		}
		History &h = hist[w.key];
		h.seen = true;
		h.push(w.have && w.gpu_n ? (float)(w.r.render_gpu_sum / 1e3) : 0.0f,
		       w.have ? (float)(w.r.render_sum / 1e3) : 0.0f);
	}
	for (auto it = hist.begin(); it != hist.end();)
		it = it->second.seen ? std::next(it) : hist.erase(it);
	std::snprintf(gpu_mode, sizeof gpu_mode, "%s", st.gpu_mode ? st.gpu_mode : "none");
	st.gpu_mode = nullptr;
	source_profiler_get_sampling(&sm);
	threads_and_queues();
	srcprof_load_sample(&load);
	busy = srcprof_load_recent_pct(&load);
}

// A source's GPU sum per queue, in the unit of its GPU sum, which they add
// up to: "graphics 5.895 + compute 0.590 ms"; "" with fewer than two
// queues or no GPU sample.
std::string LivePanel::State::queue_text(const Row &w) const
{
	if (w.n_queue == 0 || !w.gpu_n || !gpu_on())
		return std::string();
	double max = (double)w.r.render_gpu_sum;
	for (size_t q = 0; q < w.n_queue; q++)
		max = std::max(max, (double)w.queue[q].render_gpu_sum);
	Unit u = time_unit(max);
	std::string text;
	char buf[96];
	for (size_t q = 0; q < w.n_queue; q++) {
		uint32_t n = w.queue[q].queue;
		const char *name = n < queue_names.size() && !queue_names[n].empty()
					   ? queue_names[n].c_str()
					   : "?";
		std::snprintf(buf, sizeof buf, "%s%s %.*f", q ? " + " : "", name, u.dec,
			      (double)w.queue[q].render_gpu_sum / u.ns);
		text += buf;
	}
	return text + " " + u.name;
}

// The header's queues and recording threads (when there are several) and
// what they lost (the counters that are not 0), as the page says them.
void LivePanel::State::threads_and_queues()
{
	threads_line.clear();
	if (st.gpu_queues > 1) {
		threads_line = "queues:";
		bool first = true;
		for (const std::string &q : queue_names)
			if (!q.empty()) {
				threads_line += (first ? " " : ", ") + q;
				first = false;
			}
	}
	if (st.threads > 0) {
		char buf[96];
		std::snprintf(buf, sizeof buf, "%s%u thread%s recording besides the graphics thread",
			      threads_line.empty() ? "" : " \xc2\xb7 ", st.threads,
			      st.threads == 1 ? "" : "s");
		threads_line += buf;
	}
	const struct {
		uint64_t n;
		const char *what;
	} lost[] = {
		{st.threads_refused, "threads refused"},
		{st.records_late, "ticks and renders late"},
		{st.records_dropped, "ticks and renders dropped"},
		{st.gpu_timers_unavailable, "GPU timers unavailable"},
		{st.gpu_timers_misplaced, "GPU timers misplaced"},
		{st.gpu_timers_denied, "GPU timers denied"},
	};
	lost_line.clear();
	for (const auto &l : lost)
		if (l.n) {
			char buf[96];
			std::snprintf(buf, sizeof buf, "%s%llu %s", lost_line.empty() ? "lost: " : "; ",
				      (unsigned long long)l.n, l.what);
			lost_line += buf;
		}
}

// The demo's rule: GPU orders follow the CPU figure of the same kind while
// GPU timing is off; rows without figures last; then by name.
void LivePanel::State::sort()
{
	int col = sort_col;
	if (!gpu_on() && is_gpu(col))
		col = col == C_GPU_P50 ? C_RENDER_P50 : col == C_GPU ? C_RENDER
				     : col == C_GPU_MAX ? C_RENDER_MAX : C_RENDER_SUM;
	std::stable_sort(order.begin(), order.end(), [&](int ia, int ib) {
		const Row &a = rows[(size_t)ia], &b = rows[(size_t)ib];
		if (a.have != b.have)
			return a.have;
		if (col == C_NAME || col == C_TYPE) {
			int c = (col == C_NAME ? a.name : a.type).compare(col == C_NAME ? b.name : b.type);
			if (c)
				return sort_desc ? c > 0 : c < 0;
		} else {
			double x = value(a, col), y = value(b, col);
			x = std::isnan(x) ? -1 : x;
			y = std::isnan(y) ? -1 : y;
			if (x != y)
				return sort_desc ? x > y : x < y;
		}
		return a.name < b.name;
	});
}

std::string LivePanel::State::cell(const Row &w, int c, const Unit &u) const
{
	char buf[48];
	if (c == C_NAME)
		return w.name;
	if (c == C_TYPE)
		return w.type;
	if (!w.have || ((c == C_IN_FPS || c == C_OUT_FPS) && !w.async))
		return "-";
	if (is_gpu(c) && !gpu_on())
		return "off";
	if (is_gpu(c) && c != C_GPU_N && !w.gpu_n)
		return "wait";
	double v = value(w, c);
	if (std::isnan(v))
		return "-";
	if (c == C_GPU_N) {
		std::snprintf(buf, sizeof buf, "%u", w.gpu_n);
	} else if (c == C_GPU_CI || c == C_IN_FPS || c == C_OUT_FPS) {
		std::snprintf(buf, sizeof buf, "%.1f", v);
	} else {
		double k = std::pow(10.0, u.dec);
		if (is_gpu(c) && v > 0 && v < (double)st.gpu_resolution_ns)
			std::snprintf(buf, sizeof buf, "<%.*f", u.dec,
				      std::ceil((double)st.gpu_resolution_ns / u.ns * k) / k);
		else if (v > 0 && v / u.ns < 0.5 / k)
			std::snprintf(buf, sizeof buf, "<%.*f", u.dec, 1.0 / k);
		else
			std::snprintf(buf, sizeof buf, "%.*f", u.dec, v / u.ns);
	}
	return buf;
}

LivePanel::LivePanel() : state_(new State)
{
	srcprof_load_start(&state_->load);
}

LivePanel::~LivePanel()
{
	delete state_;
}

void LivePanel::SetRefreshSeconds(float seconds)
{
	state_->refresh_s = std::min(10.0f, std::max(0.05f, seconds));
}

size_t LivePanel::RowCount() const
{
	return state_->order.size();
}

const char *LivePanel::RowName(size_t i) const
{
	return i < state_->order.size() ? state_->rows[(size_t)state_->order[i]].name.c_str() : "";
}

const char *LivePanel::RowQueues(size_t i) const
{
	return i < state_->order.size() ? state_->rows[(size_t)state_->order[i]].queues.c_str() : "";
}

const char *LivePanel::ThreadsLine() const
{
	return state_->threads_line.c_str();
}

void LivePanel::Draw(const char *title, bool *open)
{
	if (ImGui::Begin(title, open))
		DrawContents();
	ImGui::End();
}

void LivePanel::DrawContents()
{
	State &s = *state_;
	auto now = std::chrono::steady_clock::now();
	if (!s.fresh || std::chrono::duration<float>(now - s.last).count() >= s.refresh_s) {
		s.refresh();
		s.last = now;
		s.fresh = true;
	}

	// Header: the timing mode, as the demo's overlay says it.
	if (!s.st.enabled) {
		ImGui::TextDisabled("profiler off: no figures");
	} else if (!s.gpu_on()) {
		ImGui::Text("GPU timing: off   %u sources, window %u frames", s.st.sources,
			    s.st.window_capacity);
	} else {
		ImGui::Text("GPU timing: %s, 1 frame in %u, resolution %.1f us   dropped frames: %llu",
			    s.gpu_mode, s.sm.timed_every, (double)s.st.gpu_resolution_ns / 1e3,
			    (unsigned long long)s.st.gpu_frames_disjoint);
		if (s.sm.burst) {
			ImGui::SameLine();
			ImGui::Text("  measuring %u/%u", s.sm.burst_samples, s.sm.burst_target);
		}
	}
	if (!s.threads_line.empty())
		ImGui::TextUnformatted(s.threads_line.c_str());
	if (!s.lost_line.empty())
		ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.38f, 1.0f), "%s", s.lost_line.c_str());
	if (s.busy > SRCPROF_BUSY_PCT)
		ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.38f, 1.0f),
				   "machine busy: other processes used %.0f%% of the CPU; GPU and CPU "
				   "times may be inflated",
				   s.busy);

	// Filters: name, type.
	s.filter.Draw("name", 180.0f);
	ImGui::SameLine();
	std::vector<std::string> types;
	for (const Row &w : s.rows)
		if (!w.type.empty() && std::find(types.begin(), types.end(), w.type) == types.end())
			types.push_back(w.type);
	std::sort(types.begin(), types.end());
	ImGui::SetNextItemWidth(140.0f);
	if (ImGui::BeginCombo("type", s.type.empty() ? "every type" : s.type.c_str())) {
		if (ImGui::Selectable("every type", s.type.empty()))
			s.type.clear();
		for (const std::string &t : types)
			if (ImGui::Selectable(t.c_str(), s.type == t))
				s.type = t;
		ImGui::EndCombo();
	}

	s.order.clear();
	for (size_t i = 0; i < s.rows.size(); i++)
		if (s.filter.PassFilter(s.rows[i].name.c_str()) &&
		    (s.type.empty() || s.rows[i].type == s.type))
			s.order.push_back((int)i);

	Unit units[C_COUNT];
	bool any_async = false;
	for (int c = 0; c < C_COUNT; c++) {
		double max = 0;
		for (int i : s.order) {
			const Row &w = s.rows[(size_t)i];
			any_async |= w.have && w.async;
			if (is_time(c) && w.have && !std::isnan(value(w, c)))
				max = std::max(max, value(w, c));
		}
		if (is_time(c))
			units[c] = time_unit(max);
		else if (c == C_GPU_CI)
			units[c] = {"%", 1, 1};
		else if (c == C_IN_FPS || c == C_OUT_FPS)
			units[c] = {"fps", 1, 1};
	}
	(void)any_async;

	const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
				      ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
				      ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit |
				      ImGuiTableFlags_Resizable | ImGuiTableFlags_Hideable;
	if (!ImGui::BeginTable("srcprof_sources", C_COUNT, flags))
		return;
	ImGui::TableSetupScrollFreeze(1, 2);
	for (int c = 0; c < C_COUNT; c++) {
		ImGuiTableColumnFlags f = 0;
		if (c == C_GPU_P50)
			f |= ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending;
		else if (c != C_NAME && c != C_TYPE)
			f |= ImGuiTableColumnFlags_PreferSortDescending;
		if (c == C_GPU_TREND || c == C_CPU_TREND)
			f |= ImGuiTableColumnFlags_NoSort;
		ImGui::TableSetupColumn(kLabels[c], f, 0.0f, (ImGuiID)c);
	}
	ImGui::TableHeadersRow();
	if (ImGuiTableSortSpecs *spec = ImGui::TableGetSortSpecs()) {
		if (spec->SpecsCount > 0) {
			s.sort_col = (int)spec->Specs[0].ColumnUserID;
			s.sort_desc = spec->Specs[0].SortDirection == ImGuiSortDirection_Descending;
		}
		spec->SpecsDirty = false;
	}
	s.sort();
	// The units under the labels, as the demo's table has them.
	ImGui::TableNextRow();
	for (int c = 0; c < C_COUNT; c++) {
		ImGui::TableSetColumnIndex(c);
		ImGui::TextDisabled("%s", units[c].name);
	}
	for (int i : s.order) {
		const Row &w = s.rows[(size_t)i];
		ImGui::TableNextRow();
		for (int c = 0; c < C_COUNT; c++) {
			ImGui::TableSetColumnIndex(c);
			if (c == C_GPU_TREND || c == C_CPU_TREND) {
				auto it = s.hist.find(w.key);
				if (it == s.hist.end() || it->second.count < 2)
					continue;
				const History &h = it->second;
				float v[kHistory];
				for (int k = 0; k < h.count; k++)
					v[k] = h.at(c == C_GPU_TREND ? h.gpu : h.cpu, k);
				ImGui::PushID(i * 2 + (c == C_GPU_TREND));
				ImGui::PlotLines("##trend", v, h.count, 0, nullptr, 0.0f, FLT_MAX,
						 ImVec2(96.0f, ImGui::GetTextLineHeight()));
				ImGui::PopID();
				continue;
			}
			std::string text = s.cell(w, c, units[c]);
			if (c == C_NAME || c == C_TYPE) {
				ImGui::TextUnformatted(text.c_str());
			} else {
				// Right-aligned, as numbers are in the demo's table.
				float width = ImGui::CalcTextSize(text.c_str()).x;
				float room = ImGui::GetContentRegionAvail().x;
				if (room > width)
					ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - width);
				if (text == "-" || text == "off" || text == "wait")
					ImGui::TextDisabled("%s", text.c_str());
				else
					ImGui::TextUnformatted(text.c_str());
				if (c == C_GPU_SUM && !w.queues.empty() && ImGui::IsItemHovered())
					ImGui::SetTooltip("GPU sum per queue: %s", w.queues.c_str());
			}
		}
	}
	ImGui::EndTable();
}

} // namespace srcprof
