#version 450
#include "common.glsl"

// One triangle covering the target.
layout(location = 0) out vec2 v_uv;

void main()
{
	vec2 p = vec2(float((VERTEX_ID << 1) & 2), float(VERTEX_ID & 2));
	v_uv = p;
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
