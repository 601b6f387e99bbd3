/* A particle fountain: the tick simulates every particle on the CPU and
 * writes the sprites drawn this frame; each view uploads them again. With
 * GPU simulation the state lives in a storage buffer: the tick only
 * advances time, prepare dispatches shaders/particles.comp (the same
 * steps) on the compute queue, and the views draw the sprites it wrote. */
#include "common.h"

#include <math.h>

typedef struct particle {
	float pos[3], vel[3];
	float life, max_life;
} particle;

/* What particles.comp's push constants hold. */
typedef struct sim_step {
	float origin_scale[4];
	float color[4];
	float dt;
	uint32_t count, seed, steps;
} sim_step;

typedef struct particles_source {
	eng_source base;
	eng_pipeline pipeline;
	/* GPU simulation: state and sprites in storage buffers. */
	eng_pipeline sim;
	eng_buffer state, sprite_buf;
	uint32_t steps, frame;
	float dt; /* ticked since the last dispatch */
	particle *p;
	eng_sprite *sprites;
	uint32_t count;
	uint32_t rng;
	float color[4];
} particles_source;

static float rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return (float)(*s & 0xffffff) / (float)0x1000000;
}

static void spawn(particles_source *ps, particle *p)
{
	float a = rnd(&ps->rng) * 6.2831853f, r = rnd(&ps->rng) * 0.6f;
	p->pos[0] = p->pos[1] = p->pos[2] = 0.0f;
	p->vel[0] = cosf(a) * r;
	p->vel[1] = 2.0f + rnd(&ps->rng) * 1.5f;
	p->vel[2] = sinf(a) * r;
	p->max_life = p->life = 1.2f + rnd(&ps->rng) * 1.0f;
}

static void particles_tick(eng_source *s, double dt)
{
	particles_source *ps = (particles_source *)s;
	if (ps->sim.id) {
		ps->dt += (float)dt;
		return;
	}
	float fdt = (float)dt, scale = s->scale;
	for (uint32_t i = 0; i < ps->count; i++) {
		particle *p = &ps->p[i];
		p->life -= fdt;
		if (p->life <= 0.0f)
			spawn(ps, p);
		p->vel[1] -= 2.5f * fdt;
		for (int k = 0; k < 3; k++) {
			p->vel[k] *= 1.0f - 0.2f * fdt;
			p->pos[k] += p->vel[k] * fdt;
		}
		if (p->pos[1] < 0.0f) { /* bounce on the ground */
			p->pos[1] = -p->pos[1];
			p->vel[1] = -p->vel[1] * 0.5f;
		}
		float t = p->life / p->max_life;
		eng_sprite *sp = &ps->sprites[i];
		sp->pos[0] = s->position[0] + p->pos[0] * scale;
		sp->pos[1] = s->position[1] + p->pos[1] * scale;
		sp->pos[2] = s->position[2] + p->pos[2] * scale;
		sp->size = (0.04f + 0.06f * t) * scale;
		sp->color[0] = ps->color[0];
		sp->color[1] = ps->color[1] * (0.5f + 0.5f * t);
		sp->color[2] = ps->color[2] * t;
		sp->color[3] = t * 0.8f;
	}
}

static void particles_render(eng_source *s, const eng_view *view)
{
	particles_source *ps = (particles_source *)s;
	sprite_uniforms u;
	glm_mat4_copy((vec4 *)view->view_proj, u.view_proj);
	for (int i = 0; i < 3; i++) {
		u.right[i] = view->view[i][0];
		u.up[i] = view->view[i][1];
	}
	u.right[3] = u.up[3] = 0.0f;
	eng_gfx_apply_pipeline(ps->pipeline);
	eng_gfx_apply_uniforms(&u, sizeof u);
	if (ps->sim.id)
		eng_gfx_apply_vertices(ps->sprite_buf, (eng_buffer){0});
	else
		eng_gfx_apply_transient_vertices(ps->sprites, ps->count * sizeof *ps->sprites);
	eng_gfx_draw(0, 4, ps->count);
}

/* The simulation step of the time ticked since the last one. */
static void particles_prepare(eng_source *s)
{
	particles_source *ps = (particles_source *)s;
	if (!ps->sim.id)
		return;
	sim_step step = {
		.origin_scale = {s->position[0], s->position[1], s->position[2], s->scale},
		.color = {ps->color[0], ps->color[1], ps->color[2], ps->color[3]},
		.dt = ps->dt,
		.count = ps->count,
		.seed = ps->rng ^ (++ps->frame * 0x9e3779b9u),
		.steps = ps->steps,
	};
	eng_gpu_scope scope;
	if (!eng_source_compute_begin(s, "simulate", &scope))
		return;
	eng_gfx_dispatch(ps->sim, ps->state, ps->sprite_buf, &step, sizeof step,
			 (ps->count + 63) / 64);
	eng_source_compute_end(&scope);
	ps->dt = 0;
}

static void particles_destroy(eng_source *s)
{
	particles_source *ps = (particles_source *)s;
	eng_gfx_destroy_buffer(ps->state);
	eng_gfx_destroy_buffer(ps->sprite_buf);
	free(ps->p);
	free(ps->sprites);
	free(ps);
}

static const eng_source_type particles_type = {
	.name = "particles",
	.tick = particles_tick,
	.render = particles_render,
	.destroy = particles_destroy,
};

static const eng_source_type particles_gpu_type = {
	.name = "particles",
	.tick = particles_tick,
	.prepare = particles_prepare,
	.render = particles_render,
	.destroy = particles_destroy,
};

/* The CPU's starting state, copied into the storage buffers. */
static bool start_gpu_simulation(particles_source *ps)
{
	float *state = malloc((size_t)ps->count * 8 * sizeof *state);
	if (!state)
		return false;
	for (uint32_t i = 0; i < ps->count; i++) {
		const particle *p = &ps->p[i];
		float *o = &state[(size_t)i * 8];
		o[0] = p->pos[0], o[1] = p->pos[1], o[2] = p->pos[2], o[3] = p->life;
		o[4] = p->vel[0], o[5] = p->vel[1], o[6] = p->vel[2], o[7] = p->max_life;
	}
	ps->state = eng_gfx_make_buffer(&(eng_buffer_desc){.data = state,
							   .size = (size_t)ps->count * 8 * sizeof *state,
							   .type = ENG_BUFFER_STORAGE});
	free(state);
	ps->sprite_buf = eng_gfx_make_buffer(&(eng_buffer_desc){
		.data = ps->sprites,
		.size = (size_t)ps->count * sizeof *ps->sprites,
		.type = ENG_BUFFER_STORAGE});
	ps->sim = eng_gfx_make_compute_pipeline("particles.comp");
	return ps->state.id && ps->sprite_buf.id && ps->sim.id;
}

eng_source *eng_particles_create(const eng_particles_desc *desc)
{
	particles_source *ps = calloc(1, sizeof *ps);
	if (!ps)
		return NULL;
	eng_source_init(&ps->base, &particles_type, desc->name, "particles");
	glm_vec3_copy((float *)desc->position, ps->base.position);
	ps->base.scale = desc->scale > 0 ? desc->scale : 1.0f;
	ps->count = desc->count ? desc->count : 4000;
	ps->rng = desc->seed ? desc->seed : 0x9e3779b9u;
	if (desc->color[3] > 0)
		memcpy(ps->color, desc->color, sizeof ps->color);
	else
		memcpy(ps->color, (float[4]){1.0f, 0.75f, 0.3f, 1.0f}, sizeof ps->color);
	ps->p = calloc(ps->count, sizeof *ps->p);
	ps->sprites = calloc(ps->count, sizeof *ps->sprites);
	ps->pipeline = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "sprite.vert",
		.fs = "sprite.frag",
		.layout = ENG_LAYOUT_SPRITE,
		.blend = ENG_BLEND_ADD,
	});
	if (!ps->p || !ps->sprites || !ps->pipeline.id) {
		particles_destroy(&ps->base);
		return NULL;
	}
	/* Start with a fountain already in flight. */
	for (uint32_t i = 0; i < ps->count; i++) {
		spawn(ps, &ps->p[i]);
		ps->p[i].life *= rnd(&ps->rng);
	}
	particles_tick(&ps->base, 0);
	if (desc->gpu_simulation && eng_gfx_has_compute()) {
		ps->base.type = &particles_gpu_type;
		ps->steps = desc->gpu_steps ? desc->gpu_steps : 1;
		if (!start_gpu_simulation(ps)) {
			particles_destroy(&ps->base);
			return NULL;
		}
	}
	return &ps->base;
}
