/* Primitive meshes: cube, UV sphere, torus; built once per device. */
#include "common.h"

#include <math.h>

typedef struct builder {
	eng_mesh_vertex *v;
	uint32_t *idx;
	uint32_t nv, ni;
} builder;

static void vertex(builder *b, float px, float py, float pz, float nx, float ny, float nz, float u,
		   float v)
{
	b->v[b->nv++] = (eng_mesh_vertex){{px, py, pz}, {nx, ny, nz}, {u, v}};
}

static void build_cube(builder *b)
{
	static const float n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
	for (int f = 0; f < 6; f++) {
		/* Two axes spanning the face, chosen so corners wind counter-
		 * clockwise seen from outside. */
		float u[3] = {n[f][1], n[f][2], n[f][0]};
		float w[3] = {n[f][1] * u[2] - n[f][2] * u[1], n[f][2] * u[0] - n[f][0] * u[2],
			      n[f][0] * u[1] - n[f][1] * u[0]};
		uint32_t base = b->nv;
		for (int c = 0; c < 4; c++) {
			float su = (c == 1 || c == 2) ? 0.5f : -0.5f;
			float sw = (c >= 2) ? 0.5f : -0.5f;
			vertex(b, n[f][0] * 0.5f + u[0] * su + w[0] * sw,
			       n[f][1] * 0.5f + u[1] * su + w[1] * sw,
			       n[f][2] * 0.5f + u[2] * su + w[2] * sw, n[f][0], n[f][1], n[f][2],
			       su + 0.5f, sw + 0.5f);
		}
		uint32_t q[6] = {0, 1, 2, 0, 2, 3};
		for (int i = 0; i < 6; i++)
			b->idx[b->ni++] = base + q[i];
	}
}

static void grid_indices(builder *b, uint32_t base, uint32_t cols, uint32_t rows)
{
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t c = 0; c < cols; c++) {
			uint32_t a = base + r * (cols + 1) + c, d = a + cols + 1;
			uint32_t q[6] = {a, d, a + 1, a + 1, d, d + 1};
			for (int i = 0; i < 6; i++)
				b->idx[b->ni++] = q[i];
		}
}

static void build_sphere(builder *b, uint32_t cols, uint32_t rows)
{
	for (uint32_t r = 0; r <= rows; r++) {
		float phi = (float)M_PI * (float)r / (float)rows;
		for (uint32_t c = 0; c <= cols; c++) {
			float th = 2.0f * (float)M_PI * (float)c / (float)cols;
			float x = sinf(phi) * cosf(th), y = cosf(phi), z = sinf(phi) * sinf(th);
			vertex(b, x * 0.5f, y * 0.5f, z * 0.5f, x, y, z, (float)c / (float)cols,
			       (float)r / (float)rows);
		}
	}
	grid_indices(b, 0, cols, rows);
}

static void build_torus(builder *b, uint32_t cols, uint32_t rows)
{
	const float R = 0.35f, r = 0.15f;
	for (uint32_t i = 0; i <= rows; i++) {
		float a = 2.0f * (float)M_PI * (float)i / (float)rows;
		for (uint32_t j = 0; j <= cols; j++) {
			float t = 2.0f * (float)M_PI * (float)j / (float)cols;
			float nx = cosf(t) * cosf(a), ny = sinf(t), nz = cosf(t) * sinf(a);
			vertex(b, (R + r * cosf(t)) * cosf(a), r * sinf(t), (R + r * cosf(t)) * sinf(a),
			       nx, ny, nz, (float)j / (float)cols, (float)i / (float)rows);
		}
	}
	grid_indices(b, 0, cols, rows);
}

static eng_geometry cache[3];
static uint32_t generation[3];
/* Spheres by tessellation level, 1 .. ENG_MESH_MAX_DETAIL (index 0 unused). */
static eng_geometry detail_cache[ENG_MESH_MAX_DETAIL + 1];
static uint32_t detail_generation[ENG_MESH_MAX_DETAIL + 1];

static void release(eng_geometry *g, uint32_t *gen)
{
	if (*gen == eng_gfx_generation()) {
		eng_gfx_destroy_buffer(g->vertices);
		eng_gfx_destroy_buffer(g->indices);
	}
	*g = (eng_geometry){0};
}

void eng_shapes_release(void)
{
	for (int i = 0; i < 3; i++)
		release(&cache[i], &generation[i]);
	for (int i = 0; i <= ENG_MESH_MAX_DETAIL; i++)
		release(&detail_cache[i], &detail_generation[i]);
}

/* Rings of a sphere at each level: about sqrt(2) more a level, so about
 * twice the triangles. */
static const uint32_t k_detail_rows[ENG_MESH_MAX_DETAIL + 1] = {
	0, 4, 6, 8, 12, 16, 23, 32, 45, 64, 91, 128, 181, 256};

eng_geometry eng_sphere_geometry(uint32_t detail)
{
	if (detail < 1 || detail > ENG_MESH_MAX_DETAIL)
		return (eng_geometry){0};
	if (detail_generation[detail] == eng_gfx_generation() && detail_cache[detail].vertices.id)
		return detail_cache[detail];
	uint32_t rows = k_detail_rows[detail], cols = 2 * rows;
	builder b = {
		.v = malloc(sizeof(eng_mesh_vertex) * (cols + 1) * (rows + 1)),
		.idx = malloc(sizeof(uint32_t) * 6 * cols * rows),
	};
	eng_geometry g = {0};
	if (b.v && b.idx) {
		build_sphere(&b, cols, rows);
		g.vertices =
			eng_gfx_make_buffer(&(eng_buffer_desc){.data = b.v, .size = b.nv * sizeof *b.v});
		g.indices = eng_gfx_make_buffer(&(eng_buffer_desc){
			.data = b.idx, .size = b.ni * sizeof *b.idx, .type = ENG_BUFFER_INDEX});
		g.index_count = b.ni;
	}
	free(b.v);
	free(b.idx);
	if (!g.vertices.id || !g.indices.id) {
		eng_gfx_destroy_buffer(g.vertices);
		eng_gfx_destroy_buffer(g.indices);
		return (eng_geometry){0};
	}
	detail_cache[detail] = g;
	detail_generation[detail] = eng_gfx_generation();
	return g;
}

eng_geometry eng_shape_geometry(eng_shape shape)
{
	if (shape > ENG_SHAPE_TORUS)
		shape = ENG_SHAPE_CUBE;
	if (generation[shape] == eng_gfx_generation() && cache[shape].vertices.id)
		return cache[shape];
	builder b = {
		.v = malloc(sizeof(eng_mesh_vertex) * 4096),
		.idx = malloc(sizeof(uint32_t) * 16384),
	};
	eng_geometry g = {0};
	if (b.v && b.idx) {
		if (shape == ENG_SHAPE_CUBE)
			build_cube(&b);
		else if (shape == ENG_SHAPE_SPHERE)
			build_sphere(&b, 32, 20);
		else
			build_torus(&b, 32, 20);
		g.vertices =
			eng_gfx_make_buffer(&(eng_buffer_desc){.data = b.v, .size = b.nv * sizeof *b.v});
		g.indices = eng_gfx_make_buffer(&(eng_buffer_desc){
			.data = b.idx, .size = b.ni * sizeof *b.idx, .type = ENG_BUFFER_INDEX});
		g.index_count = b.ni;
	}
	free(b.v);
	free(b.idx);
	cache[shape] = g;
	generation[shape] = eng_gfx_generation();
	return g;
}
