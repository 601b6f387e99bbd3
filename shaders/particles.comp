#version 450

// The particle fountain's simulation on the GPU (particles sources with
// gpu_simulation): the same steps as particles.c's tick, one invocation per
// particle, writing the sprite each view draws. Vulkan only: the engine's
// OpenGL backend simulates on the CPU.

layout(local_size_x = 64) in;

struct Particle {
	vec4 pos_life;     // xyz position (source space), w life left
	vec4 vel_max_life; // xyz velocity, w life at spawn
};

struct Sprite {
	vec4 pos_size;
	vec4 color;
};

layout(std430, set = 0, binding = 0) buffer State { Particle p[]; } state;
layout(std430, set = 1, binding = 0) writeonly buffer Sprites { Sprite s[]; } sprites;

layout(push_constant) uniform Step {
	vec4 origin_scale; // xyz the source's position, w its scale
	vec4 color;
	float dt;
	uint count;
	uint seed; // changes every frame: respawns differ
	uint steps; // simulation steps this dispatch (the work per frame)
} step;

uint hash(uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

float rnd(inout uint s)
{
	s = hash(s);
	return float(s & 0xffffffu) / 16777216.0;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= step.count)
		return;
	Particle p = state.p[i];
	uint rng = hash(i * 0x9e3779b9u ^ step.seed);
	float h = step.dt / float(max(step.steps, 1u));
	for (uint k = 0u; k < max(step.steps, 1u); k++) {
		p.pos_life.w -= h;
		if (p.pos_life.w <= 0.0) {
			float a = rnd(rng) * 6.2831853, r = rnd(rng) * 0.6;
			p.pos_life.xyz = vec3(0.0);
			p.vel_max_life.xyz = vec3(cos(a) * r, 2.0 + rnd(rng) * 1.5, sin(a) * r);
			p.vel_max_life.w = 1.2 + rnd(rng) * 1.0;
			p.pos_life.w = p.vel_max_life.w;
		}
		p.vel_max_life.y -= 2.5 * h;
		p.vel_max_life.xyz *= 1.0 - 0.2 * h;
		p.pos_life.xyz += p.vel_max_life.xyz * h;
		if (p.pos_life.y < 0.0) { // bounce on the ground
			p.pos_life.y = -p.pos_life.y;
			p.vel_max_life.y = -p.vel_max_life.y * 0.5;
		}
	}
	state.p[i] = p;
	float t = p.pos_life.w / p.vel_max_life.w;
	float scale = step.origin_scale.w;
	sprites.s[i].pos_size = vec4(step.origin_scale.xyz + p.pos_life.xyz * scale,
				     (0.04 + 0.06 * t) * scale);
	sprites.s[i].color = vec4(step.color.r, step.color.g * (0.5 + 0.5 * t), step.color.b * t,
				  t * 0.8);
}
