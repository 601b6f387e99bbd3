#include "common.h"

#include <math.h>
#include <stdio.h>

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

void eng_color_from_name(const char *name, float color[4])
{
	uint32_t h = hash(name);
	float hue = (float)(h % 360) / 60.0f;
	float x = 1.0f - fabsf(fmodf(hue, 2.0f) - 1.0f);
	float r = 0, g = 0, b = 0;
	switch ((int)hue) {
	case 0: r = 1; g = x; break;
	case 1: r = x; g = 1; break;
	case 2: g = 1; b = x; break;
	case 3: g = x; b = 1; break;
	case 4: r = x; b = 1; break;
	default: r = 1; b = x; break;
	}
	color[0] = 0.25f + 0.7f * r;
	color[1] = 0.25f + 0.7f * g;
	color[2] = 0.25f + 0.7f * b;
	color[3] = 1.0f;
}

void eng_billboard(const eng_view *view, const vec3 pos, float scale, mat4 mvp)
{
	/* Camera right and up are the first two rows of the view matrix. */
	mat4 model = GLM_MAT4_IDENTITY_INIT;
	for (int i = 0; i < 3; i++) {
		model[0][i] = view->view[i][0] * scale;
		model[1][i] = view->view[i][1] * scale;
		model[2][i] = view->view[i][2] * scale;
	}
	model[3][0] = pos[0];
	model[3][1] = pos[1];
	model[3][2] = pos[2];
	glm_mat4_mul((vec4 *)view->view_proj, model, mvp);
}

void eng_rect_mvp(const eng_view *view, eng_rect r, mat4 mvp)
{
	float w = (float)view->area.w, h = (float)view->area.h;
	float cx = ((float)r.x + (float)r.w * 0.5f) / w * 2.0f - 1.0f;
	float cy = ((float)r.y + (float)r.h * 0.5f) / h * 2.0f - 1.0f;
	glm_mat4_identity(mvp);
	mvp[0][0] = (float)r.w / w * 2.0f;
	mvp[1][1] = (float)r.h / h * 2.0f;
	mvp[3][0] = cx;
	mvp[3][1] = cy;
	mvp[3][2] = 0.5f;
}

void eng_source_init(eng_source *s, const eng_source_type *type, const char *name,
		     const char *fallback)
{
	static uint32_t counter;
	s->type = type;
	if (name && *name)
		snprintf(s->name, sizeof s->name, "%s", name);
	else
		snprintf(s->name, sizeof s->name, "%s-%u", fallback, ++counter);
	s->scale = 1.0f;
}
