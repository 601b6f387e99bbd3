#version 450
#include "common.glsl"

layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

UBO(Mesh) {
	mat4 mvp;
	mat4 model;
	vec4 color;
	vec4 light_dir;
	vec4 eye;
} u;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec3 v_world;
layout(location = 2) out vec2 v_uv;

void main()
{
	v_world = (u.model * vec4(in_pos, 1.0)).xyz;
	v_normal = mat3(u.model) * in_normal;
	v_uv = in_uv;
	gl_Position = u.mvp * vec4(in_pos, 1.0);
}
