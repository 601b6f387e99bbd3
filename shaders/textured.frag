#version 450
#include "common.glsl"

UBO(Quad) {
	mat4 mvp;
	vec4 tint;
	vec4 params;
} u;
TEXTURE tex;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	out_color = texture(tex, v_uv) * u.tint;
}
