#version 450
// vulkan_threads' simulation step: particles drift through a flow field,
// `loops` sub-steps each, in place over a storage buffer (one invocation
// per particle, so no two invocations touch the same element).
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Particles {
	vec4 particle[]; // position xy, velocity zw
};

layout(push_constant) uniform Step {
	uint loops;
	float dt;
} step;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	vec4 p = particle[i];
	float seed = float(i) * 0.00123;
	for (uint k = 0u; k < step.loops; k++) {
		vec2 flow = vec2(sin(p.y * 6.2 + seed + float(k)), cos(p.x * 5.3 - seed));
		p.zw = p.zw * 0.98 + flow * step.dt;
		p.xy = fract(p.xy + p.zw * step.dt);
	}
	particle[i] = p;
}
