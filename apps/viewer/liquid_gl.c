/* puddle-view: screen-space fluid rendering of 3D particles, the "liquid" render mode (Green
 * 2010, depth and thickness; the depth smoothed by a narrow-range filter, Truong & Yuksel 2018).
 * The shaders and the look's constants are shaders/liquid/, the same files web/demo/liquid.js
 * loads; this file makes the targets and issues the passes, each one draw call:
 *   scene      renderer3d.c draws the floor, walls, obstacles and bodies into `scene_fb` (an
 *              RGBA8 colour texture and a depth texture): what the water refracts
 *   depth      particles as sphere impostors (instanced quads facing the camera) into an R32F
 *              texture of view depth (0: no water), nearest first through a depth buffer of
 *              their own, left out behind the scene's depth (a body in front hides the water)
 *   thickness  additive Gaussian splats at a half to a quarter of the resolution into RGBA16F:
 *              alpha the summed thickness, rgb the particle's colour weighted by the splat and
 *              a falloff below the water's surface; the weight into an R16F beside it
 *   smooth     separable narrow-range filter on the depth, horizontal + vertical, in rounds
 *   composite  a full-screen triangle into the default framebuffer: the water over the scene
 *              (composite.frag.glsl); writes the nearer of the scene's and the water's depth
 *   foam       fast particles with few neighbours as small white discs on top, then the world's
 *              diffuse particles (spray, foam, bubbles: src/diffuse.c) as white discs too
 *              (diffuse.vert.glsl), unless render.diffuse is off (W key, the panel)
 * Needs float colour targets (GL 3.0 core has R32F and RGBA16F renderable; Mesa llvmpipe blends
 * them); an incomplete framebuffer turns the mode off (viewer_liquid_begin returns false).
 *
 * SPDX-License-Identifier: MIT */
#include "liquid_gl.h"
#include "gpu_timer.h"
#include "particles_gl.h"

#include <SDL.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Shaders ----------------------------------------------------------------------------- */

/* The passes' GLSL is shaders/liquid/ (shared with web/demo/liquid.js), embedded at build time
 * (cmake/embed_text.cmake). Each program is the #version line, look.h's constants, for the
 * particle passes the particles' inputs below, and the file. */
#include "liquid/look.h"
#include "liquid_shaders.h"

/* The particles' inputs as particle.vert.glsl asks for them: viewer_instances' layout
 * (attribute 0 the corner, 1-9 the particle arrays) and the viewer's colour map. */
static const char* particle_inputs =
	VIEWER_PARTICLE_INPUTS_GLSL
	VIEWER_COLOR_MAP_GLSL
	"vec3 pdl_center() { return vec3(a_x, a_y, a_z); }\n"
	"float pdl_speed() { return length(vec3(a_vx, a_vy, a_vz)); }\n"
	"vec3 pdl_color() { return particle_color(a_material, pdl_speed(), a_density, a_pressure); }\n"
	"float pdl_density_share() { return a_density / u_rest_density[clamp(int(a_material + 0.5), 0, 31)]; }\n";

/* The diffuse particles' inputs as diffuse.vert.glsl asks for them: x, y, z, life and kind
 * (one byte) as attributes 1-5 (viewer_instances). */
static const char* diffuse_inputs =
	"layout(location = 1) in float a_x;\n"
	"layout(location = 2) in float a_y;\n"
	"layout(location = 3) in float a_z;\n"
	"layout(location = 4) in float a_life;\n"
	"layout(location = 5) in float a_kind;\n"
	"vec3 pdl_diffuse_center() { return vec3(a_x, a_y, a_z); }\n"
	"float pdl_diffuse_kind() { return a_kind; }\n"
	"float pdl_diffuse_life() { return a_life; }\n";
enum { DIFFUSE_X = 0, DIFFUSE_Y, DIFFUSE_Z, DIFFUSE_LIFE, DIFFUSE_KIND, DIFFUSE_ARRAYS };

/* "#version 330 core", look.h, `inputs` (may be empty) and `body`, in one allocation. */
static char* shader_source(const char* inputs, const char* body)
{
	static const char version[] = "#version 330 core\n";
	size_t a = strlen(version), b = strlen(pdl_text_look_h), c = strlen(inputs), d = strlen(body);
	char* s = malloc(a + b + c + d + 1);
	if (s == NULL) return NULL;
	memcpy(s, version, a);
	memcpy(s + a, pdl_text_look_h, b);
	memcpy(s + a + b, inputs, c);
	memcpy(s + a + b + c, body, d + 1);
	return s;
}

static GLuint liquid_program(const char* vertex, const char* fragment, char* err, int err_size)
{
	const char* inputs = vertex == pdl_text_particle_vert_glsl  ? particle_inputs
	                     : vertex == pdl_text_diffuse_vert_glsl ? diffuse_inputs
	                                                            : "";
	char* vs = shader_source(inputs, vertex);
	char* fs = shader_source("", fragment);
	GLuint program = 0;
	if (vs == NULL || fs == NULL) snprintf(err, (size_t)err_size, "out of memory");
	else program = viewer_gl_program(vs, fs, err, err_size);
	free(vs);
	free(fs);
	return program;
}

/* ---- State ------------------------------------------------------------------------------- */

enum {
	ARRAY_X = 0,
	ARRAY_Y,
	ARRAY_Z,
	ARRAY_VX,
	ARRAY_VY,
	ARRAY_VZ,
	ARRAY_DENSITY,
	ARRAY_PRESSURE,
	ARRAY_MATERIAL,
	ARRAY_COUNT
};

enum { TEX_SCENE, TEX_SCENE_DEPTH, TEX_WATER_DEPTH, TEX_DEPTH0, TEX_DEPTH1, TEX_THICKNESS, TEX_WEIGHT, TEX_OUT, TEX_OUT_DEPTH, TEX_COUNT };
/* FB_OUT: the picture at the targets' resolution when that is below the viewport's, scaled up
 * into the viewport by a blit (viewer_liquid_begin's scale) */
enum { FB_SCENE, FB_DEPTH0, FB_DEPTH1, FB_THICKNESS, FB_OUT, FB_COUNT };

struct viewer_liquid {
	GLuint depth_program, thickness_program, foam_program, smooth_program, composite_program, diffuse_program;
	viewer_color_uniforms thickness_colors, foam_colors;
	viewer_instances points, diffuse_points;
	GLuint empty_vao;
	GLuint textures[TEX_COUNT], framebuffers[FB_COUNT];
	int width, height; /* the targets' size: the viewport's times `scale` */
	float scale;
	bool failed; /* a framebuffer was incomplete: the mode is off for good */
	int thickness_divisor; /* the last frame's */
	PFNGLDRAWBUFFERSPROC draw_buffers;
};

viewer_liquid* viewer_liquid_create(char* err, int err_size)
{
	viewer_liquid* l = calloc(1, sizeof *l);
	if (l == NULL) {
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	const char* point = pdl_text_particle_vert_glsl;
	const char* full = pdl_text_fullscreen_vert_glsl;
	l->depth_program = liquid_program(point, pdl_text_depth_frag_glsl, err, err_size);
	if (l->depth_program)
		l->thickness_program = liquid_program(point, pdl_text_thickness_frag_glsl, err, err_size);
	if (l->thickness_program)
		l->foam_program = liquid_program(point, pdl_text_foam_frag_glsl, err, err_size);
	if (l->foam_program)
		l->smooth_program = liquid_program(full, pdl_text_smooth_frag_glsl, err, err_size);
	if (l->smooth_program)
		l->composite_program = liquid_program(full, pdl_text_composite_frag_glsl, err, err_size);
	if (l->composite_program)
		l->diffuse_program = liquid_program(pdl_text_diffuse_vert_glsl, pdl_text_foam_frag_glsl, err, err_size);
	/* glDrawBuffers (GL 2.0) for the thickness pass's two targets; gl.h's table lacks it */
	void* address = SDL_GL_GetProcAddress("glDrawBuffers");
	if (address != NULL) SDL_memcpy(&l->draw_buffers, &address, sizeof l->draw_buffers);
	if (l->diffuse_program == 0 || l->draw_buffers == NULL) {
		if (l->draw_buffers == NULL) snprintf(err, (size_t)err_size, "no glDrawBuffers");
		viewer_liquid_destroy(l);
		return NULL;
	}
	viewer_color_uniforms_locate(&l->thickness_colors, l->thickness_program);
	viewer_color_uniforms_locate(&l->foam_colors, l->foam_program);
	viewer_instances_create(&l->points, ARRAY_COUNT, ARRAY_MATERIAL);
	viewer_instances_create(&l->diffuse_points, DIFFUSE_ARRAYS, DIFFUSE_KIND);
	gl.GenVertexArrays(1, &l->empty_vao);
	return l;
}

static void release_targets(viewer_liquid* l)
{
	gl.DeleteFramebuffers(FB_COUNT, l->framebuffers);
	gl.DeleteTextures(TEX_COUNT, l->textures);
	for (int i = 0; i < FB_COUNT; ++i) l->framebuffers[i] = 0;
	for (int i = 0; i < TEX_COUNT; ++i) l->textures[i] = 0;
	l->width = l->height = 0;
}

void viewer_liquid_destroy(viewer_liquid* l)
{
	if (l == NULL) return;
	GLuint programs[6] = {l->depth_program, l->thickness_program, l->foam_program,
	                      l->smooth_program, l->composite_program, l->diffuse_program};
	for (int i = 0; i < 6; ++i) {
		if (programs[i]) gl.DeleteProgram(programs[i]);
	}
	if (l->points.vao) viewer_instances_destroy(&l->points);
	if (l->diffuse_points.vao) viewer_instances_destroy(&l->diffuse_points);
	if (l->empty_vao) gl.DeleteVertexArrays(1, &l->empty_vao);
	if (l->width > 0) release_targets(l);
	free(l);
}

static GLuint make_texture(int w, int h, GLenum internal, GLenum format, GLenum type, GLenum filter)
{
	GLuint t;
	gl.GenTextures(1, &t);
	gl.BindTexture(GL_TEXTURE_2D, t);
	gl.TexImage2D(GL_TEXTURE_2D, 0, (GLint)internal, w, h, 0, format, type, NULL);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)filter);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	return t;
}

/* A framebuffer of up to two colour textures and a depth texture (0: none); false if incomplete. */
static bool make_framebuffer(viewer_liquid* l, GLuint* fb, GLuint color0, GLuint color1, GLuint depth)
{
	gl.GenFramebuffers(1, fb);
	gl.BindFramebuffer(GL_FRAMEBUFFER, *fb);
	gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color0, 0);
	if (color1) gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, color1, 0);
	if (depth) gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
	GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
	l->draw_buffers(color1 ? 2 : 1, buffers);
	return gl.CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static bool resize(viewer_liquid* l, int w, int h)
{
	if (l->width == w && l->height == h) return true;
	if (l->width > 0) release_targets(l);
	int hw = w > 1 ? w / 2 : 1, hh = h > 1 ? h / 2 : 1;
	GLuint* t = l->textures;
	t[TEX_SCENE] = make_texture(w, h, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_LINEAR);
	t[TEX_SCENE_DEPTH] = make_texture(w, h, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_NEAREST);
	t[TEX_WATER_DEPTH] = make_texture(w, h, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_NEAREST);
	t[TEX_DEPTH0] = make_texture(w, h, GL_R32F, GL_RED, GL_FLOAT, GL_NEAREST);
	t[TEX_DEPTH1] = make_texture(w, h, GL_R32F, GL_RED, GL_FLOAT, GL_NEAREST);
	t[TEX_THICKNESS] = make_texture(hw, hh, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, GL_LINEAR);
	t[TEX_WEIGHT] = make_texture(hw, hh, GL_R16F, GL_RED, GL_HALF_FLOAT, GL_LINEAR);
	t[TEX_OUT] = make_texture(w, h, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_LINEAR);
	t[TEX_OUT_DEPTH] = make_texture(w, h, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_NEAREST);
	gl.BindTexture(GL_TEXTURE_2D, 0);
	GLuint* f = l->framebuffers;
	bool ok = make_framebuffer(l, &f[FB_SCENE], t[TEX_SCENE], 0, t[TEX_SCENE_DEPTH]);
	ok = make_framebuffer(l, &f[FB_DEPTH0], t[TEX_DEPTH0], 0, t[TEX_WATER_DEPTH]) && ok;
	ok = make_framebuffer(l, &f[FB_DEPTH1], t[TEX_DEPTH1], 0, 0) && ok;
	ok = make_framebuffer(l, &f[FB_THICKNESS], t[TEX_THICKNESS], t[TEX_WEIGHT], 0) && ok;
	ok = make_framebuffer(l, &f[FB_OUT], t[TEX_OUT], 0, t[TEX_OUT_DEPTH]) && ok;
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	l->width = w;
	l->height = h;
	return ok;
}

bool viewer_liquid_begin(viewer_liquid* l, int width, int height, float scale, const float clear_rgb[3])
{
	if (l == NULL || l->failed || width <= 0 || height <= 0) return false;
	l->scale = scale > 0.0f && scale < 1.0f ? scale : 1.0f;
	/* the targets' pixels: the viewport's times the scale, rounded, at least one */
	int scaled_width = (int)fmaxf(1.0f, floorf((float)width * l->scale + 0.5f));
	int scaled_height = (int)fmaxf(1.0f, floorf((float)height * l->scale + 0.5f));
	width = scaled_width, height = scaled_height;
	if (!resize(l, width, height)) {
		fprintf(stderr, "puddle-view: liquid: a float framebuffer is incomplete; drawing spheres\n");
		release_targets(l);
		l->failed = true;
		return false;
	}
	gl.BindFramebuffer(GL_FRAMEBUFFER, l->framebuffers[FB_SCENE]);
	gl.Viewport(0, 0, width, height);
	gl.ClearColor(clear_rgb[0], clear_rgb[1], clear_rgb[2], 1.0f);
	gl.DepthMask(GL_TRUE);
	gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	return true;
}

/* ---- Drawing ------------------------------------------------------------------------------ */

static GLint at(GLuint program, const char* name) { return gl.GetUniformLocation(program, name); }

static void bind_texture(int unit, GLuint texture)
{
	gl.ActiveTexture((GLenum)(GL_TEXTURE0 + unit));
	gl.BindTexture(GL_TEXTURE_2D, texture);
}

/* The point programs' shared uniforms (the program in use). */
static void point_uniforms(GLuint program, const viewer_liquid_view* v, float scale, int foam_only)
{
	gl.UniformMatrix4fv(at(program, "u_view_projection"), 1, GL_FALSE, v->view_projection);
	gl.Uniform3f(at(program, "u_right"), v->right.x, v->right.y, v->right.z);
	gl.Uniform3f(at(program, "u_up"), v->up.x, v->up.y, v->up.z);
	gl.Uniform3f(at(program, "u_back"), v->back.x, v->back.y, v->back.z);
	gl.Uniform1f(at(program, "u_radius"), v->radius);
	gl.Uniform1f(at(program, "u_scale"), scale);
	gl.Uniform1i(at(program, "u_foam_only"), foam_only);
}

/* How many window pixels a thickness texel spans, each way (2 to 4), from the radius of a
 * sphere at the camera's target in pixels. The splat is a Gaussian of standard deviation
 * sqrt(2/3) radius (thickness_fragment_shader's exp(-3 r^2) over twice the radius); summed
 * at texels no wider than that deviation it is resolved, and the sum of many of them is
 * smoother still. A coarser target costs less in proportion: at 100,000 particles the
 * thickness pass was 62% of the liquid's GPU time at half resolution (docs/viewer.md). */
static int thickness_divisor(float radius_pixels)
{
	/* PUDDLE_VIEW_THICKNESS_DIVISOR=2, 3 or 4 fixes it (to compare pictures and costs) */
	const char* fixed = getenv("PUDDLE_VIEW_THICKNESS_DIVISOR");
	if (fixed != NULL && fixed[0] >= '2' && fixed[0] <= '4' && fixed[1] == '\0') return fixed[0] - '0';
	float sigma_pixels = 0.8165f * radius_pixels;
	return sigma_pixels >= 4.0f ? 4 : sigma_pixels >= 3.0f ? 3 : 2;
}

int viewer_liquid_thickness_divisor(const viewer_liquid* l) { return l ? l->thickness_divisor : 0; }

void viewer_liquid_draw(viewer_liquid* l, const viewer_app* app, const pdl_particle_data* p,
                        const viewer_liquid_view* v)
{
	int w = l->width, h = l->height, hw = w > 1 ? w / 2 : 1, hh = h > 1 ? h / 2 : 1;
	float tan_half = tanf(0.5f * v->fov * 3.14159265f / 180.0f);
	int down = thickness_divisor(v->radius * 0.5f * (float)h / tan_half / v->distance);
	int tw = w / down > 1 ? w / down : 1, th = h / down > 1 ? h / down : 1;
	l->thickness_divisor = down;
	int n = p->count;
	const GLuint* t = l->textures;
	const void* arrays[ARRAY_COUNT] = {p->x,  p->y,       p->z,        p->vx,      p->vy,
	                                   p->vz, p->density, p->pressure, p->material};
	viewer_instances_upload(&l->points, arrays, n); /* binds its vertex array */
	/* window depth d = 0.5 (-a + b / w) + 0.5 at view depth w (pdl_camera_matrix's a, b) */
	float depth_a = (v->far + v->near) / (v->near - v->far);
	float depth_b = 2.0f * v->far * v->near / (v->near - v->far);

	/* depth: the nearest sphere surface, none behind the scene */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_DEPTH);
	gl.BindFramebuffer(GL_FRAMEBUFFER, l->framebuffers[FB_DEPTH0]);
	gl.Viewport(0, 0, w, h);
	gl.ClearColor(0, 0, 0, 0);
	gl.DepthMask(GL_TRUE);
	gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	gl.Enable(GL_DEPTH_TEST);
	gl.DepthFunc(GL_LESS);
	gl.Disable(GL_BLEND);
	gl.UseProgram(l->depth_program);
	point_uniforms(l->depth_program, v, 1.0f, 0);
	gl.Uniform1i(at(l->depth_program, "u_solid"), 0);
	bind_texture(0, t[TEX_SCENE_DEPTH]);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);

	/* thickness and colour, summed at 1 / down of the resolution: the targets are made at half
	 * resolution and the splats drawn into their lower-left tw x th texels (all cleared) */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_THICKNESS);
	gl.BindFramebuffer(GL_FRAMEBUFFER, l->framebuffers[FB_THICKNESS]);
	gl.Viewport(0, 0, tw, th);
	gl.Clear(GL_COLOR_BUFFER_BIT);
	gl.Disable(GL_DEPTH_TEST);
	gl.Enable(GL_BLEND);
	gl.BlendFunc(GL_ONE, GL_ONE);
	GLuint tp = l->thickness_program;
	gl.UseProgram(tp);
	point_uniforms(tp, v, (float)PDL_LIQUID_SPLAT_RADII, 0);
	viewer_color_uniforms_set(&l->thickness_colors, app, p);
	gl.Uniform2f(at(tp, "u_depth_ab"), depth_a, depth_b);
	gl.Uniform2f(at(tp, "u_down"), (float)w / (float)tw, (float)h / (float)th);
	gl.Uniform1i(at(tp, "u_surface"), 0);
	gl.Uniform1i(at(tp, "u_solid"), 1);
	bind_texture(0, t[TEX_DEPTH0]);
	bind_texture(1, t[TEX_SCENE_DEPTH]);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
	gl.Disable(GL_BLEND);

	/* smoothing: depth 0 -> 1 horizontally, back vertically, ROUNDS times */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_SMOOTH);
	gl.Viewport(0, 0, w, h);
	gl.UseProgram(l->smooth_program);
	gl.BindVertexArray(l->empty_vao);
	gl.Uniform1f(at(l->smooth_program, "u_radius"), v->radius);
	gl.Uniform1f(at(l->smooth_program, "u_pixels"), 0.5f * (float)h / tan_half);
	gl.Uniform1i(at(l->smooth_program, "u_depth"), 0);
	GLint dir = at(l->smooth_program, "u_dir");
	gl.ActiveTexture(GL_TEXTURE0);
	for (int round = 0; round < PDL_LIQUID_FILTER_ROUNDS; ++round) {
		/* the water's depth buffer stays with depth 0's framebuffer; the filter needs none */
		gl.BindFramebuffer(GL_FRAMEBUFFER, l->framebuffers[FB_DEPTH1]);
		gl.BindTexture(GL_TEXTURE_2D, t[TEX_DEPTH0]);
		gl.Uniform2f(dir, 1, 0);
		gl.DrawArrays(GL_TRIANGLES, 0, 3);
		gl.BindFramebuffer(GL_FRAMEBUFFER, l->framebuffers[FB_DEPTH0]);
		gl.BindTexture(GL_TEXTURE_2D, t[TEX_DEPTH1]);
		gl.Uniform2f(dir, 0, 1);
		gl.DrawArrays(GL_TRIANGLES, 0, 3);
	}

	/* composite into the viewport, with the nearer of the scene's and the water's depth; at a
	 * lower resolution into FB_OUT, scaled up into the viewport below */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_SHADE);
	bool scaled = w != v->width || h != v->height;
	int origin_x = scaled ? 0 : v->x, origin_y = scaled ? 0 : v->y;
	gl.BindFramebuffer(GL_FRAMEBUFFER, scaled ? l->framebuffers[FB_OUT] : 0);
	gl.Viewport(origin_x, origin_y, w, h);
	gl.Enable(GL_DEPTH_TEST);
	gl.DepthFunc(GL_ALWAYS);
	GLuint cp = l->composite_program;
	gl.UseProgram(cp);
	static const char* const names[6] = {"u_scene", "u_scene_depth", "u_water_depth", "u_depth",
	                                     "u_thickness", "u_weight"};
	const GLuint bound[6] = {t[TEX_SCENE], t[TEX_SCENE_DEPTH], t[TEX_WATER_DEPTH], t[TEX_DEPTH0],
	                         t[TEX_THICKNESS], t[TEX_WEIGHT]};
	for (int i = 0; i < 6; ++i) {
		bind_texture(i, bound[i]);
		gl.Uniform1i(at(cp, names[i]), i);
	}
	gl.Uniform2f(at(cp, "u_origin"), (float)origin_x, (float)origin_y);
	gl.Uniform2f(at(cp, "u_thickness_scale"), (float)tw / (float)hw, (float)th / (float)hh);
	gl.Uniform2f(at(cp, "u_thickness_max"), ((float)tw - 0.5f) / (float)hw, ((float)th - 0.5f) / (float)hh);
	gl.Uniform2f(at(cp, "u_tan_half"), tan_half * (float)w / (float)h, tan_half);
	gl.Uniform3f(at(cp, "u_right"), v->right.x, v->right.y, v->right.z);
	gl.Uniform3f(at(cp, "u_up"), v->up.x, v->up.y, v->up.z);
	gl.Uniform3f(at(cp, "u_back"), v->back.x, v->back.y, v->back.z);
	gl.Uniform3f(at(cp, "u_background"), v->background[0], v->background[1], v->background[2]);
	gl.Uniform1f(at(cp, "u_radius"), v->radius);
	gl.Uniform1f(at(cp, "u_pixels"), 0.5f * (float)h / tan_half);
	gl.Uniform2f(at(cp, "u_depth_ab"), depth_a, depth_b);
	gl.DrawArrays(GL_TRIANGLES, 0, 3);
	for (int i = 5; i >= 0; --i) bind_texture(i, 0);

	/* foam and spray on top, hidden by what is nearer */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_FOAM);
	gl.DepthFunc(GL_LEQUAL);
	gl.DepthMask(GL_FALSE);
	gl.Enable(GL_BLEND);
	gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	gl.BindVertexArray(l->points.vao);
	gl.UseProgram(l->foam_program);
	point_uniforms(l->foam_program, v, (float)PDL_LIQUID_FOAM_SIZE, 1);
	viewer_color_uniforms_set(&l->foam_colors, app, p);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
	/* the diffuse particles, the same way (io/src/render_liquid.c's diffuse_discs) */
	pdl_diffuse_data d = app->render.diffuse ? pdl_world_diffuse(app->scene.world) : (pdl_diffuse_data){0};
	if (d.count > 0) {
		const void* arrays_d[DIFFUSE_ARRAYS] = {d.x, d.y, d.z, d.life, d.kind};
		viewer_instances_upload(&l->diffuse_points, arrays_d, d.count); /* binds its vertex array */
		gl.UseProgram(l->diffuse_program);
		point_uniforms(l->diffuse_program, v, 1.0f, 0);
		gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, d.count);
	}
	gl.Disable(GL_BLEND);
	gl.DepthMask(GL_TRUE);
	if (scaled) {
		/* the picture scaled up into the viewport, filtered; what is drawn after the water (the
		 * pointer's ring, the panel) needs no depth */
		gl.BindFramebuffer(GL_READ_FRAMEBUFFER, l->framebuffers[FB_OUT]);
		gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
		gl.BlitFramebuffer(0, 0, w, h, v->x, v->y, v->x + v->width, v->y + v->height, GL_COLOR_BUFFER_BIT, GL_LINEAR);
		gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
		gl.Viewport(v->x, v->y, v->width, v->height);
	}
}

void viewer_liquid_present_scene(viewer_liquid* l, int x, int y, int width, int height)
{
	gl.BindFramebuffer(GL_READ_FRAMEBUFFER, l->framebuffers[FB_SCENE]);
	gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
	gl.BlitFramebuffer(0, 0, l->width, l->height, x, y, x + width, y + height, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.Viewport(x, y, width, height);
}
