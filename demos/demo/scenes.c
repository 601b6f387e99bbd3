/* The demo scenes. Every builder places sources on a grid around the
 * origin so the orbiting main camera and the top-down preview frame them. */
#include "scenes.h"
#include "options.h"

#include "engine/log.h"
#include "engine/sources.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Simulation steps a frame of the particle sources simulated on the GPU
 * (--compute): enough work that a dispatch's GPU time stands well above
 * a software device's timer resolution. */
#define GPU_STEPS 32

/* Position i of n on a square grid, `spacing` apart, centered. */
static void grid_pos(uint32_t i, uint32_t n, float spacing, vec3 out)
{
	uint32_t side = (uint32_t)ceil(sqrt((double)(n ? n : 1)));
	float half = (float)(side - 1) * spacing * 0.5f;
	out[0] = (float)(i % side) * spacing - half;
	out[1] = 0.0f;
	out[2] = (float)(i / side) * spacing - half;
}

static bool add(eng_engine *e, eng_source *s)
{
	if (!s)
		return false;
	eng_add_source(e, s);
	return true;
}

static bool add_mesh(eng_engine *e, uint32_t i, uint32_t n, float spacing, float scale)
{
	char name[32];
	snprintf(name, sizeof name, "mesh-%u", i);
	eng_mesh_desc d = {.name = name, .shape = (eng_shape)(i % 3), .scale = scale,
			   .spin = 0.4f + 0.1f * (float)(i % 7)};
	grid_pos(i, n, spacing, d.position);
	d.position[1] = scale * 0.5f;
	return add(e, eng_mesh_create(&d));
}

/* One of every kind, then meshes up to `n`. */
static bool build_mix(eng_engine *e, uint32_t n)
{
	const uint32_t fixed = 7;
	uint32_t total = n > fixed ? n : fixed;
	uint32_t i = 0;
	vec3 p;
	bool ok = true;
	grid_pos(i++, total, 2.0f, p);
	ok &= add(e, eng_particles_create(&(eng_particles_desc){
			     .name = "fountain", .position = {p[0], 0, p[2]}, .count = 4000,
			     .gpu_simulation = true, .gpu_steps = GPU_STEPS}));
	grid_pos(i++, total, 2.0f, p);
	ok &= add(e, eng_particles_create(&(eng_particles_desc){
			     .name = "sparks", .position = {p[0], 0, p[2]}, .count = 1500,
			     .color = {0.4f, 0.7f, 1.0f, 1.0f}, .seed = 7, .gpu_simulation = true,
			     .gpu_steps = GPU_STEPS}));
	grid_pos(i++, total, 2.0f, p);
	ok &= add(e, eng_video_create(&(eng_video_desc){
			     .name = "video-30fps", .position = {p[0], 0.8f, p[2]}, .scale = 1.4f,
			     .fps = 30}));
	grid_pos(i++, total, 2.0f, p);
	ok &= add(e, eng_video_create(&(eng_video_desc){
			     .name = "video-24fps", .position = {p[0], 0.8f, p[2]}, .scale = 1.4f,
			     .fps = 24}));
	grid_pos(i++, total, 2.0f, p);
	ok &= add(e, eng_effect_create(&(eng_effect_desc){
			     .name = "blur-effect", .position = {p[0], 0.8f, p[2]}, .scale = 1.4f}));
	ok &= add(e, eng_heavy_create(&(eng_heavy_desc){
			     .name = "heavy-k2", .k = 2, .rect = {40, 500, 160, 160}}));
	ok &= add(e, eng_logic_create(&(eng_logic_desc){.name = "game-logic", .work = 30}));
	/* The heavy and logic sources take no grid place: meshes fill the
	 * places from here until the scene holds `total` sources. */
	for (uint32_t m = fixed; m < total && ok; m++, i++)
		ok &= add_mesh(e, i, total, 2.0f, 0.9f);
	return ok;
}

static bool build_grid(eng_engine *e, uint32_t n)
{
	bool ok = true;
	float spacing = n > 400 ? 1.2f : 1.8f;
	for (uint32_t i = 0; i < n && ok; i++)
		ok &= add_mesh(e, i, n, spacing, spacing * 0.5f);
	return ok;
}

static bool build_media(eng_engine *e, uint32_t n)
{
	static const double rates[] = {24, 30, 60};
	bool ok = true;
	uint32_t total = n < 4 ? 4 : n;
	for (uint32_t i = 0; i < total && ok; i++) {
		char name[48];
		eng_video_desc d = {.name = name, .scale = 1.6f};
		if (i == 3) {
			/* Starved: the renderer takes only every other frame. */
			d.fps = 30;
			d.accept_every = 2;
			snprintf(name, sizeof name, "video-30fps-starved");
		} else {
			d.fps = rates[i % 3];
			snprintf(name, sizeof name, "video-%gfps-%u", d.fps, i);
		}
		grid_pos(i, total, 2.2f, d.position);
		d.position[1] = 0.9f;
		ok &= add(e, eng_video_create(&d));
	}
	return ok;
}

static bool build_effects(eng_engine *e, uint32_t n)
{
	bool ok = true;
	for (uint32_t i = 0; i < n && ok; i++) {
		char name[32];
		snprintf(name, sizeof name, "effect-%u", i);
		eng_effect_desc d = {.name = name, .scale = 1.5f};
		grid_pos(i, n, 2.0f, d.position);
		d.position[1] = 0.8f;
		ok &= add(e, eng_effect_create(&d));
	}
	return ok;
}

/* Five rectangles of the same size, k = 0, 1, 2, 4, 8, apart from each
 * other, drawn in the main view only, each with one unit of base work:
 * a software device's timers jitter by a fraction of a millisecond
 * (docs/known-limits.md), so even k = 0 must cost milliseconds for a 5%
 * check to mean anything. */
static bool build_calibrated(eng_engine *e, uint32_t n)
{
	static const float ks[] = {0, 1, 2, 4, 8};
	/* The pass's first render carries some of the pass's clear on
	 * lavapipe (docs/known-limits.md): a small backdrop takes it. */
	bool ok = add(e, eng_heavy_create(&(eng_heavy_desc){.name = "backdrop",
							     .rect = {0, 0, 16, 16}}));
	uint32_t count = n ? (n < 5 ? n : 5) : 5;
	for (uint32_t i = 0; i < count && ok; i++) {
		char name[32];
		snprintf(name, sizeof name, "heavy-k%g", ks[i]);
		ok &= add(e, eng_heavy_create(&(eng_heavy_desc){
				     .name = name,
				     .k = ks[i],
				     .base = CALIBRATED_BASE,
				     .rect = {(int32_t)(24 + (i % 3) * 416), (int32_t)(24 + (i / 3) * 356),
					      400, 300},
			     }));
	}
	return ok;
}

static bool build_stress(eng_engine *e, uint32_t n)
{
	bool ok = true;
	for (uint32_t i = 0; i < n && ok; i++)
		ok &= add_mesh(e, i, n, 0.6f, 0.25f);
	return ok;
}

/* Equal rectangles on a fixed pixel grid (cells of 12 x 7 pixels from the
 * main view's top left, 106 across: room for 10,812 at 1280 x 720), so that
 * every source does the same work whatever their number: the scene for
 * sweeps of per-source cost. Main view only, no overlap. */
static bool build_tiles(eng_engine *e, uint32_t n)
{
	const uint32_t cols = 106, rows = 102; /* the last row ends at y 714 */
	if (n > cols * rows) {
		eng_error("scene tiles holds at most %u sources (%u asked)", cols * rows, n);
		return false;
	}
	bool ok = true;
	for (uint32_t i = 0; i < n && ok; i++) {
		char name[32];
		snprintf(name, sizeof name, "tile-%u", i);
		ok &= add(e, eng_heavy_create(&(eng_heavy_desc){
				     .name = name,
				     .k = 8,
				     .rect = {(int32_t)(4 + (i % cols) * 12), (int32_t)(2 + (i / cols) * 7),
					      10, 5},
			     }));
	}
	return ok;
}

/* The work scene's sphere whose triangles + doubles and - halves. */
#define DETAIL_SPHERE "detail-sphere"
#define DETAIL_START 5 /* 16 rings of 32 quads: 1,024 triangles */

/* Work and time together and apart (--work): three equal rectangles, one
 * plain (k 1), one with 8x the shading per pixel (k 8: its time grows,
 * its work does not), one drawn 8 times over itself (its fragments and its
 * time grow 8x); a sphere whose triangles + and - double and halve (its
 * vertices grow, its pixels stay); then meshes on the grid. */
static bool build_work(eng_engine *e, uint32_t n)
{
	static const struct {
		const char *name;
		float k;
		uint32_t layers;
	} rects[] = {{"plain-k1", 1, 1}, {"costly-k8", 8, 1}, {"overdraw-x8", 1, 8}};
	bool ok = true;
	for (uint32_t i = 0; i < 3 && ok; i++)
		ok &= add(e, eng_heavy_create(&(eng_heavy_desc){
				     .name = rects[i].name,
				     .k = rects[i].k,
				     .base = 1,
				     .layers = rects[i].layers,
				     .rect = {(int32_t)(24 + i * 224), 540, 200, 150},
			     }));
	if (n > 3 && ok)
		ok &= add(e, eng_mesh_create(&(eng_mesh_desc){.name = DETAIL_SPHERE,
							      .shape = ENG_SHAPE_SPHERE,
							      .position = {3.4f, 1.6f, 1.0f},
							      .scale = 1.4f,
							      .detail = DETAIL_START}));
	for (uint32_t m = 4; m < n && ok; m++)
		ok &= add_mesh(e, m - 4, n - 4, 1.8f, 0.9f);
	return ok;
}

static bool adjust_work(eng_engine *e, int dir, char *said, size_t n)
{
	eng_source *s = NULL;
	for (uint32_t i = 0; i < eng_source_count(e) && !s; i++)
		if (strcmp(eng_source_at(e, i)->name, DETAIL_SPHERE) == 0 && eng_mesh_detail(eng_source_at(e, i)))
			s = eng_source_at(e, i);
	if (!s)
		return false;
	uint32_t was = eng_mesh_detail(s), before = eng_mesh_triangles(s);
	uint32_t want = dir > 0 ? was + 1 : was - 1;
	if (want < 1 || want > ENG_MESH_MAX_DETAIL) {
		snprintf(said, n, "%s at its %s detail (%u triangles)", DETAIL_SPHERE,
			 dir > 0 ? "most" : "least", before);
		return true;
	}
	if (!eng_mesh_set_detail(s, want)) {
		snprintf(said, n, "%s: level %u could not be made; %u triangles as before",
			 DETAIL_SPHERE, want, before);
		return true;
	}
	snprintf(said, n, "%s: %u -> %u triangles (level %u of %u: its vertices change, its area does not)",
		 DETAIL_SPHERE, before, eng_mesh_triangles(s), want, ENG_MESH_MAX_DETAIL);
	return true;
}

static const scene_def g_scenes[] = {
	{"default", "one of every source type (particles, video, effect, heavy, logic) and meshes",
	 12, 2, build_mix, 7, 100000, 0, NULL},
	{"grid", "N lit meshes on a grid (N from --sources)", 100, 2, build_grid, 1, 100000, 0, NULL},
	{"multiview", "the default mix seen by three views: render_sum is 3x render_avg", 12, 3,
	 build_mix, 7, 100000, 0, NULL},
	{"media", "video sources at 24, 30 and 60 fps; one starved (renders half its input)", 4, 2,
	 build_media, 4, 100000, 0, NULL},
	{"effects", "multi-pass sources: offscreen scene, horizontal and vertical blur", 4, 2,
	 build_effects, 1, 100000, 0, NULL},
	{"calibrated", "heavy sources with k = 0, 1, 2, 4, 8 (GPU cost linear in k) and a backdrop",
	 5, 2, build_calibrated, 1, 5, 1, NULL},
	{"stress", "10,000 small meshes", 10000, 2, build_stress, 1, 100000, 0, NULL},
	{"tiles", "N equal 10x5-pixel rectangles (heavy, k = 8) on a fixed grid: the same work "
		  "per source at any N (sweeps)", 100, 1, build_tiles, 1, 10812, 0, NULL},
	{"work", "work and time apart: equal rectangles plain, 8x costlier per pixel, drawn 8x "
		 "over themselves (--work), a sphere whose triangles + and - double and halve, and "
		 "meshes",
	 8, 2, build_work, 3, 100000, 0, adjust_work},
};

uint32_t scene_count(void)
{
	return sizeof g_scenes / sizeof g_scenes[0];
}

const scene_def *scene_at(uint32_t i)
{
	return i < scene_count() ? &g_scenes[i] : NULL;
}

const scene_def *scene_find(const char *name)
{
	for (uint32_t i = 0; i < scene_count(); i++)
		if (strcmp(g_scenes[i].name, name) == 0)
			return &g_scenes[i];
	return NULL;
}

const scene_def *scene_parse(const char *prog, const char *opt, const char *name,
			     const char *list_hint)
{
	const scene_def *s = scene_find(name);
	if (s)
		return s;
	int near = opt_suggest(name, scene_names(), scene_count());
	if (near >= 0)
		fprintf(stderr, "%s: %s: no scene '%s'; did you mean '%s'? (%s)\n", prog, opt, name,
			scene_names()[near], list_hint);
	else
		fprintf(stderr, "%s: %s: no scene '%s' (%s)\n", prog, opt, name, list_hint);
	return NULL;
}

const char *const *scene_names(void)
{
	/* Filled on every call with the same values: no first-call race. */
	static const char *names[sizeof g_scenes / sizeof g_scenes[0] + 1];
	for (uint32_t i = 0; i < scene_count(); i++)
		names[i] = g_scenes[i].name;
	return names;
}

uint32_t scene_total_sources(const scene_def *s, uint32_t sources)
{
	uint32_t n = sources ? sources : s->default_sources;
	if (n < s->min_sources)
		n = s->min_sources;
	if (n > s->max_sources)
		n = s->max_sources;
	return n + s->extra_sources;
}
