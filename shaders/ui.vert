#version 450
#include "common.glsl"

// 2D overlay: positions in pixels of the main target, colors per vertex.
layout(location = 0) in vec2 in_pos;
layout(location = 1) in vec4 in_color;

UBO(Ui) {
	vec4 screen; // width, height
} u;

layout(location = 0) out vec4 v_color;

void main()
{
	v_color = in_color;
	gl_Position = vec4(in_pos / u.screen.xy * 2.0 - 1.0, 0.0, 1.0);
}
