#version 450
#include "common.glsl"

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec3 v_world;
layout(location = 2) in vec2 v_uv;

UBO(Mesh) {
	mat4 mvp;
	mat4 model;
	vec4 color;
	vec4 light_dir;
	vec4 eye;
} u;

layout(location = 0) out vec4 out_color;

void main()
{
	vec3 n = normalize(v_normal);
	vec3 l = normalize(u.light_dir.xyz);
	vec3 v = normalize(u.eye.xyz - v_world);
	vec3 h = normalize(l + v);
	float diffuse = max(dot(n, l), 0.0);
	float specular = pow(max(dot(n, h), 0.0), 32.0);
	float checker = mod(floor(v_uv.x * 8.0) + floor(v_uv.y * 8.0), 2.0) * 0.08;
	vec3 c = u.color.rgb * (0.18 + 0.82 * diffuse - checker) + vec3(0.35) * specular;
	out_color = vec4(c, u.color.a);
}
