#version 450
#include "common.glsl"

// One instance per particle; the four corners come from the vertex index.
layout(location = 0) in vec4 in_pos_size;
layout(location = 1) in vec4 in_color;

UBO(Sprite) {
	mat4 view_proj;
	vec4 right;
	vec4 up;
} u;

layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_corner;

void main()
{
	vec2 corner = vec2(float(VERTEX_ID & 1), float(VERTEX_ID >> 1)) * 2.0 - 1.0;
	vec3 p = in_pos_size.xyz + (corner.x * u.right.xyz + corner.y * u.up.xyz) * in_pos_size.w;
	v_color = in_color;
	v_corner = corner;
	gl_Position = u.view_proj * vec4(p, 1.0);
}
