/* What the snapshot's three written forms share (lv_out.h): the names a
 * pass and a queue are written under, and the work counters' keys. Each
 * form is a file of its own (lv_json.c, lv_csv.c, lv_metrics.c), so that a
 * change to one format's text is read and reviewed alone. */
#include "lv_out.h"

const char *const lv_work_keys[SOURCE_PROFILER_COUNTERS] = {
	"vertices", "primitives", "vs_invocations", "clip_in", "clip_out", "fs_invocations",
	"cs_invocations"};
_Static_assert(SOURCE_PROFILER_COUNTERS == 7, "a key per counter");

const char *lv_pass_name(const lv_snapshot *s, uint32_t pass)
{
	const char *n = pass < SOURCE_PROFILER_MAX_PASSES ? s->pass_names[pass] : "";
	return n[0] ? n : "default";
}

const char *lv_queue_name(const lv_snapshot *s, uint32_t queue)
{
	const char *n = queue < SOURCE_PROFILER_MAX_QUEUES ? s->queue_names[queue] : "";
	return n[0] ? n : "?";
}

bool lv_several_queues(const lv_snapshot *s)
{
	return s->st.gpu_queues > 1;
}

bool lv_work_counted(const source_profiler_work_t *w, int c)
{
	return w->counted >> c & 1u;
}
