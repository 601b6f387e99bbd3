#version 450
// A rectangle from its corners (push constants): four vertices, a strip.
layout(push_constant) uniform Object {
	vec4 rect; // x0, y0, x1, y1 in clip space
	vec4 color;
	uint loops;
} obj;

void main()
{
	vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
	gl_Position = vec4(mix(obj.rect.xy, obj.rect.zw, corner), 0.0, 1.0);
}
