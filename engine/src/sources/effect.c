/* A multi-pass effect: draws an animated pattern into an offscreen image,
 * blurs it horizontally then vertically into two more images (each pass a
 * profiled render of its own), then draws the result in every view. */
#include "common.h"

typedef struct effect_source {
	eng_source base;
	eng_image scene, blur_h, blur_v;
	eng_pipeline scene_pipe, blur_pipe, show_pipe;
	uint32_t size;
	float time;
	float color[4];
} effect_source;

static void effect_tick(eng_source *s, double dt)
{
	((effect_source *)s)->time += (float)dt;
}

static void fullscreen_pass(eng_source *s, const char *pass, eng_image target, eng_pipeline pipe,
			    eng_image input, const pass_uniforms *u)
{
	eng_gpu_scope scope = eng_source_gpu_begin(s, pass);
	eng_gfx_begin_pass(&(eng_pass_desc){.target = target, .clear = true});
	eng_gfx_apply_pipeline(pipe);
	eng_gfx_apply_uniforms(u, sizeof *u);
	if (input.id)
		eng_gfx_apply_image(input);
	eng_gfx_draw(0, 3, 1);
	eng_gfx_end_pass();
	eng_source_gpu_end(&scope);
}

static void effect_prepare(eng_source *s)
{
	effect_source *fx = (effect_source *)s;
	float texel = 1.0f / (float)fx->size;
	fullscreen_pass(s, "fx-scene", fx->scene, fx->scene_pipe, (eng_image){0},
			&(pass_uniforms){{fx->time, fx->color[0], fx->color[1], fx->color[2]}});
	fullscreen_pass(s, "blur-h", fx->blur_h, fx->blur_pipe, fx->scene,
			&(pass_uniforms){{texel, 0.0f, 3.0f, 0.0f}});
	fullscreen_pass(s, "blur-v", fx->blur_v, fx->blur_pipe, fx->blur_h,
			&(pass_uniforms){{0.0f, texel, 3.0f, 0.0f}});
}

static void effect_render(eng_source *s, const eng_view *view)
{
	effect_source *fx = (effect_source *)s;
	quad_uniforms u = {.tint = {1, 1, 1, 1}};
	eng_billboard(view, s->position, s->scale, u.mvp);
	eng_gfx_apply_pipeline(fx->show_pipe);
	eng_gfx_apply_uniforms(&u, sizeof u);
	eng_gfx_apply_image(fx->blur_v);
	eng_gfx_draw(0, 6, 1);
}

static void effect_destroy(eng_source *s)
{
	effect_source *fx = (effect_source *)s;
	eng_gfx_destroy_image(fx->scene);
	eng_gfx_destroy_image(fx->blur_h);
	eng_gfx_destroy_image(fx->blur_v);
	free(fx);
}

static const eng_source_type effect_type = {
	.name = "effect",
	.tick = effect_tick,
	.prepare = effect_prepare,
	.render = effect_render,
	.destroy = effect_destroy,
};

eng_source *eng_effect_create(const eng_effect_desc *desc)
{
	effect_source *fx = calloc(1, sizeof *fx);
	if (!fx)
		return NULL;
	eng_source_init(&fx->base, &effect_type, desc->name, "effect");
	glm_vec3_copy((float *)desc->position, fx->base.position);
	fx->base.scale = desc->scale > 0 ? desc->scale : 1.0f;
	fx->size = desc->size ? desc->size : 256;
	eng_color_from_name(fx->base.name, fx->color);
	const eng_image_desc target = {
		.width = fx->size, .height = fx->size, .usage = ENG_IMAGE_TARGET};
	fx->scene = eng_gfx_make_image(&target);
	fx->blur_h = eng_gfx_make_image(&target);
	fx->blur_v = eng_gfx_make_image(&target);
	fx->scene_pipe = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "fullscreen.vert", .fs = "fx_scene.frag", .offscreen = true});
	fx->blur_pipe = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "fullscreen.vert", .fs = "blur.frag", .offscreen = true, .textured = true});
	fx->show_pipe = eng_gfx_make_pipeline(&(eng_pipeline_desc){
		.vs = "quad.vert", .fs = "textured.frag", .depth = true, .textured = true});
	if (!fx->scene.id || !fx->blur_h.id || !fx->blur_v.id || !fx->scene_pipe.id ||
	    !fx->blur_pipe.id || !fx->show_pipe.id) {
		effect_destroy(&fx->base);
		return NULL;
	}
	return &fx->base;
}
