/* The null device's GPU: the commands every call becomes, run on its
 * clock in the order a device would run them (the frame's stream at once,
 * a recorder's at its pass's end), each logged as an event; and the
 * stores its timers' stamps and work counts land in as they run. What the
 * commands cost comes from the test's eng_null_desc. */
#include "null_internal.h"

#include <stdlib.h>
#include <string.h>

bool null_note_at(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d,
		  uint64_t clock)
{
	if (c->rec.n_events == ENG_NULL_MAX_EVENTS) {
		c->rec.events_dropped = true;
		return false;
	}
	c->events[c->rec.n_events++] = (eng_null_event){call, a, b, d, clock};
	return true;
}

/* The same, with the graphics clock. */
bool null_note(null_ctx *c, eng_null_call call, uint32_t a, uint32_t b, uint32_t d)
{
	return null_note_at(c, call, a, b, d, c->gpu_ns);
}

/* What a timer's queries hold, per frame slot. */
uint32_t null_stamps_reserve(null_stamps *t, uint32_t slot, uint32_t queries)
{
	if (slot >= NULL_SLOTS)
		return 0;
	if (queries > t->cap[slot]) {
		uint64_t *s = realloc(t->ns[slot], queries * sizeof *s);
		if (s)
			t->ns[slot] = s;
		uint8_t *w = s ? realloc(t->written[slot], queries) : NULL;
		if (!w)
			return t->cap[slot];
		memset(w + t->cap[slot], 0, queries - t->cap[slot]);
		t->written[slot] = w;
		t->cap[slot] = queries;
	}
	return t->cap[slot];
}

bool null_stamps_put(null_stamps *t, uint32_t slot, uint32_t query, uint64_t ns)
{
	if (slot >= NULL_SLOTS || query >= t->cap[slot])
		return false;
	t->ns[slot][query] = ns;
	t->written[slot][query] = 1;
	return true;
}

sp_gpu_read null_stamps_read_each(const null_stamps *t, uint32_t slot, uint32_t count,
				  uint64_t *ns, uint8_t *avail)
{
	if (slot >= NULL_SLOTS)
		return SP_GPU_READ_OK;
	for (uint32_t q = 0; q < count && q < t->cap[slot]; q++)
		if (t->written[slot][q]) {
			avail[q] = 1;
			ns[q] = t->ns[slot][q];
		}
	return SP_GPU_READ_OK;
}

void null_stamps_free(null_stamps *t)
{
	for (int i = 0; i < NULL_SLOTS; i++) {
		free(t->ns[i]);
		free(t->written[i]);
	}
}

/* Sets for the timers of `queries` stamps: (queries - 2) / 2. */
void null_work_reserve(null_work *w, uint32_t slot, uint32_t queries)
{
	uint32_t sets = queries > 2 ? (queries - 2) / 2 : 0;
	if (slot >= NULL_SLOTS || sets <= w->cap[slot])
		return;
	uint64_t *v = realloc(w->v[slot], (size_t)sets * SOURCE_PROFILER_COUNTERS * sizeof *v);
	if (v)
		w->v[slot] = v;
	uint8_t *d = v ? realloc(w->done[slot], sets) : NULL;
	if (!d)
		return;
	memset(d + w->cap[slot], 0, sets - w->cap[slot]);
	w->done[slot] = d;
	w->cap[slot] = sets;
	w->n_open = 0; /* the sets may have moved */
}

/* A slot's frame starts over: its sets are not there. */
void null_work_clear(null_work *w, uint32_t slot)
{
	if (slot < NULL_SLOTS && w->cap[slot])
		memset(w->done[slot], 0, w->cap[slot]);
}

void null_work_run_begin(null_work *w, uint32_t slot, uint32_t set)
{
	if (slot >= NULL_SLOTS || set >= w->cap[slot] || w->n_open == NULL_WORK_OPEN)
		return;
	uint64_t *v = w->v[slot] + (size_t)set * SOURCE_PROFILER_COUNTERS;
	memset(v, 0, SOURCE_PROFILER_COUNTERS * sizeof *v);
	w->done[slot][set] = 0;
	w->open[w->n_open++] = v;
}

void null_work_run_end(null_work *w, uint32_t slot, uint32_t set)
{
	if (slot >= NULL_SLOTS || set >= w->cap[slot])
		return;
	uint64_t *v = w->v[slot] + (size_t)set * SOURCE_PROFILER_COUNTERS;
	for (uint32_t i = 0; i < w->n_open; i++)
		if (w->open[i] == v) {
			w->open[i] = w->open[--w->n_open];
			w->done[slot][set] = 1;
			return;
		}
}

/* Counts `n` of counter c into every open set. */
void null_work_add(null_work *w, source_profiler_counter c, uint64_t n)
{
	for (uint32_t i = 0; i < w->n_open; i++)
		w->open[i][c] += n;
}

sp_gpu_read null_work_read(const null_work *w, uint32_t slot, uint32_t count, uint64_t *values,
			   uint8_t *avail)
{
	if (slot >= NULL_SLOTS)
		return SP_GPU_READ_OK;
	for (uint32_t i = 0; i < count && i < w->cap[slot]; i++)
		if (w->done[slot][i]) {
			avail[i] = 1;
			memcpy(values + (size_t)i * SOURCE_PROFILER_COUNTERS,
			       w->v[slot] + (size_t)i * SOURCE_PROFILER_COUNTERS,
			       SOURCE_PROFILER_COUNTERS * sizeof *values);
		}
	return SP_GPU_READ_OK;
}

void null_work_free(null_work *w)
{
	for (int i = 0; i < NULL_SLOTS; i++) {
		free(w->v[i]);
		free(w->done[i]);
	}
}

/* A stamp reaching the GPU: it takes the clock now. Query 0 opens the
 * slot's frame: the slot's earlier stamps are no longer available. */
void null_run_stamp(null_ctx *c, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	if (query == 0 && slot < NULL_SLOTS && c->gfx.cap[slot]) {
		memset(c->gfx.written[slot], 0, c->gfx.cap[slot]);
		null_work_clear(&c->gfx_work, slot);
	}
	if (!null_stamps_put(&c->gfx, slot, query, c->gpu_ns))
		return;
	c->gpu_ns += c->costs.stamp_ns;
	c->rec.stamps++;
	null_note(c, ENG_NULL_STAMP, slot, query, (uint32_t)kind);
}

/* A draw's work as the APIs define it: every vertex of every instance
 * fetched and shaded (no post-transform cache), triangles of a list or a
 * strip, each clipped into one (the null device clips nothing away). */
static void count_draw(null_ctx *c, uint32_t count, uint32_t instances)
{
	bool strip = c->strip[eng_handle_slot(c->run_pipeline) % ENG_GFX_MAX_PIPELINES];
	uint64_t verts = (uint64_t)count * instances;
	uint64_t prims = (uint64_t)(strip ? (count >= 3 ? count - 2 : 0) : count / 3) * instances;
	null_work *w = &c->gfx_work;
	null_work_add(w, SOURCE_PROFILER_INPUT_VERTICES, verts);
	null_work_add(w, SOURCE_PROFILER_INPUT_PRIMITIVES, prims);
	null_work_add(w, SOURCE_PROFILER_VS_INVOCATIONS, verts);
	null_work_add(w, SOURCE_PROFILER_CLIPPING_INVOCATIONS, prims);
	null_work_add(w, SOURCE_PROFILER_CLIPPING_PRIMITIVES, prims);
}

/* Runs one command on the GPU clock: what the frame's stream does at
 * once, and a recorder's commands at the end of their pass. */
void null_run(null_ctx *c, null_cmd k)
{
	switch (k.call) {
	case ENG_NULL_STAMP:
		null_run_stamp(c, k.a, k.b, (sp_gpu_stamp)k.d);
		return;
	case ENG_NULL_DRAW:
		c->gpu_ns += c->costs.draw_ns + c->costs.vertex_ns * k.b * k.d;
		c->rec.draws++;
		c->rec.vertices += (uint64_t)k.b * k.d;
		if (c->gfx_work.n_open)
			count_draw(c, k.b, k.d);
		break;
	case ENG_NULL_PIPELINE:
		c->run_pipeline = k.a;
		break;
	case ENG_NULL_WORK_BEGIN:
		null_work_run_begin(&c->gfx_work, k.a, k.b);
		break;
	case ENG_NULL_WORK_END:
		null_work_run_end(&c->gfx_work, k.a, k.b);
		break;
	default:
		break;
	}
	null_note(c, k.call, k.a, k.b, k.d);
}

/* Keeps a command of recorder r for its pass's end. */
void null_keep(null_recorder *r, null_cmd cmd)
{
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 64;
		null_cmd *k = realloc(r->cmds, cap * sizeof *k);
		if (!k) {
			r->overflow = true;
			return;
		}
		r->cmds = k;
		r->cap = cap;
	}
	r->cmds[r->n++] = cmd;
}
