#version 450
#include "common.glsl"

// Separable Gaussian: params.xy = one texel along the blur direction,
// params.z = radius in texels (taps at -4..4 scaled by radius / 4).
UBO(Pass) {
	vec4 params;
} u;
TEXTURE tex;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	const float w[5] = float[](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);
	vec2 step = u.params.xy * (u.params.z / 4.0 + 1.0);
	vec4 c = texture(tex, v_uv) * w[0];
	for (int i = 1; i < 5; i++) {
		c += texture(tex, v_uv + step * float(i)) * w[i];
		c += texture(tex, v_uv - step * float(i)) * w[i];
	}
	out_color = c;
}
