/* engine/null.h: what a test reads and sets on the null device, found as
 * the dispatch layer's current device when the null backend drives it.
 * Above both: the backend never calls up into gfx.c. */
#include "null_internal.h"

static null_ctx *current(void)
{
	return eng_gfx_context_of(null_gfx_backend());
}

bool eng_null_get_record(eng_null_record *r)
{
	null_ctx *c = current();
	if (!c)
		return false;
	*r = c->rec;
	r->gpu_ns = c->gpu_ns;
	r->compute_ns = c->compute_ns;
	r->events = c->events;
	return true;
}

void eng_null_clear_record(void)
{
	null_ctx *c = current();
	if (c)
		c->rec = (eng_null_record){0};
}

void eng_null_set_costs(const eng_null_desc *costs)
{
	null_ctx *c = current();
	if (c)
		c->costs = costs ? *costs : (eng_null_desc){0};
}

uint64_t eng_null_cpu_ns(void)
{
	null_ctx *c = current();
	return c ? atomic_load(&c->cpu_ns) : 0;
}
