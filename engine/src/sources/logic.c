/* A source with CPU work only: ticked, never drawn (its GPU fields stay 0). */
#include "common.h"

typedef struct logic_source {
	eng_source base;
	uint32_t work;
	volatile double state;
} logic_source;

static void logic_tick(eng_source *s, double dt)
{
	logic_source *l = (logic_source *)s;
	double x = l->state + dt;
	/* ~1 us of dependent arithmetic per unit. */
	for (uint32_t i = 0; i < l->work * 300; i++)
		x = x * 1.0000001 + 0.5 / (x + 1.0);
	l->state = x;
}

static void logic_destroy(eng_source *s)
{
	free(s);
}

static const eng_source_type logic_type = {
	.name = "logic",
	.tick = logic_tick,
	.destroy = logic_destroy,
};

eng_source *eng_logic_create(const eng_logic_desc *desc)
{
	logic_source *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	eng_source_init(&l->base, &logic_type, desc->name, "logic");
	l->base.flags = ENG_SOURCE_NO_RENDER;
	l->work = desc->work ? desc->work : 20;
	return &l->base;
}
