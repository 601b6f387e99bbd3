#version 450
#include "common.glsl"

// The calibrated cost: params.x iterations of a dependent loop per pixel.
// Nothing can be hoisted or skipped: each step needs the last, and the
// count is a uniform.
UBO(Quad) {
	mat4 mvp;
	vec4 tint;
	vec4 params;
} u;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	float v = v_uv.x * 0.73 + v_uv.y * 0.31;
	int n = int(u.params.x);
	for (int i = 0; i < n; i++)
		v = fract(v * 3.7 + sin(v * 12.9898 + float(i) * 0.013) * 0.5);
	float shade = 0.65 + 0.35 * v;
	out_color = vec4(u.tint.rgb * shade, u.tint.a);
}
