#version 450
// A fragment cost proportional to `loops`: a dependent chain the compiler
// cannot shorten.
layout(push_constant) uniform Object {
	vec4 rect;
	vec4 color;
	uint loops;
} obj;

layout(location = 0) out vec4 out_color;

void main()
{
	vec2 q = gl_FragCoord.xy * 0.001;
	float v = 0.25;
	for (uint i = 0u; i < obj.loops * 8u; i++) {
		v = fract(sin(v * 12.9898 + q.x + float(i)) * 43758.5453);
		q = q.yx + v;
	}
	out_color = vec4(obj.color.rgb * (0.5 + 0.5 * v), 1.0);
}
