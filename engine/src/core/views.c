/* The views: main (orbiting the scene), preview (from above, bottom right)
 * and side (from the left, top right), each its own profiler pass. */
#include "core.h"

#include "srcprof/source_profiler.h"

#include <cglm/clipspace/persp_rh_zo.h>
#include <math.h>

void core_views_setup(eng_engine *e)
{
	static const char *const names[CORE_MAX_VIEWS] = {"main", "preview", "side"};
	e->n_views = e->desc.views == 3 ? 3 : 2;
	for (uint32_t i = 0; i < e->n_views; i++) {
		e->views[i].name = names[i];
		e->views[i].pass = source_profiler_pass_id(names[i]);
	}
	e->overlay_pass = source_profiler_pass_id("overlay");
}

/* Cameras: the main view orbits the scene, the preview looks from above,
 * the side view from the left. Viewports follow the target size. */
void core_views_update(eng_engine *e)
{
	float radius = 4.0f;
	for (uint32_t i = 0; i < e->n_sources; i++) {
		eng_source *s = e->sources[i];
		float r = glm_vec3_norm(s->position) + s->scale;
		if (r > radius)
			radius = r;
	}
	uint32_t w = e->width, h = e->height;
	uint32_t pw = w / 3, ph = h / 3;
	for (uint32_t i = 0; i < e->n_views; i++) {
		eng_view *v = &e->views[i];
		v->time = (float)e->scene_time;
		vec3 center = {0, 0, 0}, up = {0, 1, 0};
		if (i == 0) {
			float a = (float)e->scene_time * 0.2f;
			v->eye[0] = sinf(a) * radius * 1.6f;
			v->eye[1] = radius * 0.6f;
			v->eye[2] = cosf(a) * radius * 1.6f;
			v->area = (eng_rect){0, 0, w, h};
		} else if (i == 1) {
			glm_vec3_copy((vec3){0.001f, radius * 2.2f, 0.0f}, v->eye);
			v->area = (eng_rect){(int32_t)(w - pw - 8), (int32_t)(h - ph - 8), pw, ph};
		} else {
			glm_vec3_copy((vec3){-radius * 2.0f, radius * 0.3f, 0.0f}, v->eye);
			v->area = (eng_rect){(int32_t)(w - pw - 8), 8, pw, ph};
		}
		glm_lookat_rh(v->eye, center, up, v->view);
		float aspect = v->area.h ? (float)v->area.w / (float)v->area.h : 1.0f;
		glm_perspective_rh_zo(glm_rad(50.0f), aspect, 0.1f, radius * 8.0f, v->proj);
		v->proj[1][1] *= -1.0f; /* Vulkan clip space: y down (GL matches, see gl backend) */
		glm_mat4_mul(v->proj, v->view, v->view_proj);
	}
}

uint32_t eng_view_count(const eng_engine *e)
{
	return e->n_views;
}

void eng_set_view_count(eng_engine *e, uint32_t views)
{
	e->desc.views = views;
	core_views_setup(e);
	core_views_update(e);
}

const eng_view *eng_view_at(const eng_engine *e, uint32_t i)
{
	return i < e->n_views ? &e->views[i] : NULL;
}
