#version 450

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_corner;
layout(location = 0) out vec4 out_color;

void main()
{
	float r = dot(v_corner, v_corner);
	float a = clamp(1.0 - r, 0.0, 1.0);
	out_color = vec4(v_color.rgb, v_color.a * a * a);
}
