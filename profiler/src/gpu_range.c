/* The GPU frame ranges (get_stats' gpu_frame_avg_ns / max_ns): each kept
 * frame's first-to-last stamp on the first queue, over a window as long as
 * the sources'. Written at collect (graphics thread), read on any. */
#include "sp_gpu_state.h"
#include "sp_profiler.h"

/* The frame ranges of the last window of kept GPU frames. */
static struct {
	uint32_t ns[SOURCE_PROFILER_MAX_FPS * SOURCE_PROFILER_WINDOW_SECONDS];
	uint32_t head, count;
	uint64_t sum;
	uint32_t max, max_n;
} g_range;
static _Atomic uint64_t g_range_avg, g_range_max;

void sp_gpu_range_reset(void)
{
	g_range.head = g_range.count = 0;
	g_range.sum = 0;
	g_range.max = g_range.max_n = 0;
	atomic_store(&g_range_avg, 0);
	atomic_store(&g_range_max, 0);
}

/* Keeps the frame's GPU range in a window as long as the sources' and
 * publishes its average and maximum: a running sum, and the maximum with
 * the number of ranges equal to it, so that the ring is rescanned only when
 * the last copy of the maximum leaves it (as the sources' windows do). */
void sp_gpu_range_record(uint64_t ns)
{
	uint32_t cap = sp_capacity;
	uint32_t v = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	if (g_range.head >= cap)
		g_range.head = 0;
	bool full = g_range.count >= cap;
	uint32_t old = full ? g_range.ns[g_range.head] : 0;
	g_range.ns[g_range.head] = v;
	g_range.head = g_range.head + 1 == cap ? 0 : g_range.head + 1;
	if (!full)
		g_range.count++;
	g_range.sum = g_range.sum - old + v;
	bool rescan = false;
	if (v > g_range.max) {
		g_range.max = v;
		g_range.max_n = 1;
	} else {
		if (v == g_range.max)
			g_range.max_n++;
		rescan = full && old == g_range.max && --g_range.max_n == 0;
	}
	if (rescan) {
		g_range.max = g_range.max_n = 0;
		for (uint32_t i = 0; i < g_range.count; i++) {
			if (g_range.ns[i] > g_range.max) {
				g_range.max = g_range.ns[i];
				g_range.max_n = 1;
			} else if (g_range.ns[i] == g_range.max) {
				g_range.max_n++;
			}
		}
	}
	atomic_store_explicit(&g_range_avg, g_range.sum / g_range.count, memory_order_relaxed);
	atomic_store_explicit(&g_range_max, g_range.max, memory_order_relaxed);
}

void sp_gpu_frame_range(uint64_t *avg, uint64_t *max)
{
	*avg = atomic_load_explicit(&g_range_avg, memory_order_relaxed);
	*max = atomic_load_explicit(&g_range_max, memory_order_relaxed);
}

