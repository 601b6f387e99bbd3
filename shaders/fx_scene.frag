#version 450
#include "common.glsl"

// The effect's own scene: animated rings and spokes. params = time, rgb.
UBO(Pass) {
	vec4 params;
} u;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	vec2 p = v_uv * 2.0 - 1.0;
	float t = u.params.x;
	float r = length(p);
	float a = atan(p.y, p.x);
	float rings = step(0.5, fract(r * 6.0 - t * 0.8));
	float spokes = step(0.5, fract(a * 1.2732395 + t * 0.25));
	vec3 c = mix(u.params.yzw, vec3(1.0) - u.params.yzw, rings * 0.7 + spokes * 0.3);
	out_color = vec4(c * (1.0 - smoothstep(0.85, 1.0, r)), 1.0);
}
