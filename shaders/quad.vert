#version 450
#include "common.glsl"

// A unit quad (-0.5..0.5) from the vertex index, placed by mvp.
UBO(Quad) {
	mat4 mvp;
	vec4 tint;
	vec4 params;
} u;

layout(location = 0) out vec2 v_uv;

void main()
{
	const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1),
				       vec2(0, 0), vec2(1, 1), vec2(0, 1));
	vec2 c = corners[VERTEX_ID];
	v_uv = c;
	gl_Position = u.mvp * vec4(c - 0.5, 0.0, 1.0);
}
