/* A lit primitive. Its tick builds the model matrix (CPU transforms with
 * cglm); it draws once per view with Blinn-Phong lighting. */
#include "common.h"

typedef struct mesh_source {
	eng_source base;
	eng_geometry geometry;
	eng_pipeline pipeline;
	eng_shape shape;
	uint32_t detail; /* a sphere's tessellation level; 0: the shared one */
	float color[4];
	float spin, angle;
	vec3 axis;
	mat4 model;
} mesh_source;

static void mesh_tick(eng_source *s, double dt)
{
	mesh_source *m = (mesh_source *)s;
	m->angle += m->spin * (float)dt;
	glm_mat4_identity(m->model);
	glm_translate(m->model, s->position);
	glm_rotate(m->model, m->angle, m->axis);
	glm_scale_uni(m->model, s->scale);
}

static void mesh_render(eng_source *s, const eng_view *view)
{
	mesh_source *m = (mesh_source *)s;
	mesh_uniforms u = {
		.color = {m->color[0], m->color[1], m->color[2], m->color[3]},
		.light_dir = {0.4f, 0.8f, 0.45f, 0.0f},
		.eye = {view->eye[0], view->eye[1], view->eye[2], 1.0f},
	};
	glm_mat4_copy(m->model, u.model);
	glm_mat4_mul((vec4 *)view->view_proj, m->model, u.mvp);
	eng_gfx_apply_pipeline(m->pipeline);
	eng_gfx_apply_uniforms(&u, sizeof u);
	eng_gfx_apply_vertices(m->geometry.vertices, m->geometry.indices);
	eng_gfx_draw(0, m->geometry.index_count, 1);
}

static void mesh_destroy(eng_source *s)
{
	free(s);
}

static const eng_source_type mesh_type = {
	.name = "mesh",
	.tick = mesh_tick,
	.render = mesh_render,
	.destroy = mesh_destroy,
};

eng_source *eng_mesh_create(const eng_mesh_desc *desc)
{
	mesh_source *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	eng_source_init(&m->base, &mesh_type, desc->name, "mesh");
	glm_vec3_copy((float *)desc->position, m->base.position);
	m->base.scale = desc->scale > 0 ? desc->scale : 1.0f;
	if (desc->color[3] > 0)
		memcpy(m->color, desc->color, sizeof m->color);
	else
		eng_color_from_name(m->base.name, m->color);
	m->spin = desc->spin;
	glm_vec3_copy((vec3){0.3f, 1.0f, 0.2f}, m->axis);
	glm_vec3_normalize(m->axis);
	m->shape = desc->shape;
	m->geometry = eng_shape_geometry(desc->shape);
	if (desc->shape == ENG_SHAPE_SPHERE && desc->detail) {
		m->detail = desc->detail > ENG_MESH_MAX_DETAIL ? ENG_MESH_MAX_DETAIL : desc->detail;
		m->geometry = eng_sphere_geometry(m->detail);
	}
	m->pipeline = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "mesh.vert",
		.fs = "mesh.frag",
		.layout = ENG_LAYOUT_MESH,
		.depth = true,
	});
	if (!m->pipeline.id || !m->geometry.vertices.id) {
		free(m);
		return NULL;
	}
	mesh_tick(&m->base, 0);
	return &m->base;
}

static mesh_source *sphere(const eng_source *s)
{
	if (!s || s->type != &mesh_type)
		return NULL;
	mesh_source *m = (mesh_source *)s;
	return m->shape == ENG_SHAPE_SPHERE ? m : NULL;
}

uint32_t eng_mesh_set_detail(eng_source *s, uint32_t detail)
{
	mesh_source *m = sphere(s);
	if (!m)
		return 0;
	if (detail < 1)
		detail = 1;
	if (detail > ENG_MESH_MAX_DETAIL)
		detail = ENG_MESH_MAX_DETAIL;
	eng_geometry g = eng_sphere_geometry(detail);
	if (!g.vertices.id)
		return 0;
	m->geometry = g; /* the old level's stays cached for the frames in flight */
	m->detail = detail;
	return detail;
}

uint32_t eng_mesh_detail(const eng_source *s)
{
	const mesh_source *m = sphere(s);
	return m ? m->detail : 0;
}

uint32_t eng_mesh_triangles(const eng_source *s)
{
	if (!s || s->type != &mesh_type)
		return 0;
	return ((const mesh_source *)s)->geometry.index_count / 3;
}
