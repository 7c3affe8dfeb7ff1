/* puddle-view: screen-space fluid rendering of 3D particles, the "liquid" render mode: the
 * OpenGL 3.3 port of web/demo/liquid.js (van der Laan, Green & Sainz 2009, "Screen Space Fluid
 * Rendering with Curvature Flow", with the depth smoothed by a narrow-range filter, Truong &
 * Yuksel 2018). Passes, each one draw call:
 *   scene      renderer3d.c draws the floor, walls, obstacles and bodies into `scene_fb` (an
 *              RGBA8 colour texture and a depth texture): what the water refracts
 *   depth      particles as sphere impostors (instanced quads facing the camera) into an R32F
 *              texture of view depth (0: no water), nearest first through a depth buffer of
 *              their own, left out behind the scene's depth (a body in front hides the water)
 *   thickness  additive Gaussian splats of twice the radius at half resolution into RGBA16F:
 *              alpha the summed thickness, rgb the particle's colour weighted by the splat and
 *              a falloff below the water's surface; the weight into an R16F beside it
 *   smooth     separable narrow-range filter on the depth, 2 rounds of horizontal + vertical
 *   composite  a full-screen triangle into the default framebuffer: normals from the smoothed
 *              depth, Schlick Fresnel reflection of a sky gradient, refraction of the scene
 *              texture offset by normal x thickness, Beer-Lambert absorption in the splatted
 *              colour, a highlight; writes the nearer of the scene's and the water's depth
 *   foam       fast particles with few neighbours as small white discs on top
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

/* ---- Shaders ----------------------------------------------------------------------------- */

/* One quad per particle (viewer_instances: attribute 0 the corner, 1-9 the particle arrays),
 * u_scale radii across, facing the camera; the depth, thickness and foam passes share it. */
static const char* point_vertex_shader =
	"#version 330 core\n"
	"layout(location = 0) in vec2 a_corner;\n"
	"layout(location = 1) in float a_x;\n"
	"layout(location = 2) in float a_y;\n"
	"layout(location = 3) in float a_z;\n"
	"layout(location = 4) in float a_vx;\n"
	"layout(location = 5) in float a_vy;\n"
	"layout(location = 6) in float a_vz;\n"
	"layout(location = 7) in float a_density;\n"
	"layout(location = 8) in float a_pressure;\n"
	"layout(location = 9) in float a_material;\n"
	"uniform mat4 u_view_projection;\n"
	"uniform vec3 u_right;\n"
	"uniform vec3 u_up;\n"
	"uniform vec3 u_back;\n"
	"uniform float u_radius;\n"
	"uniform float u_scale;\n"
	"uniform int u_foam_only;\n"
	"uniform vec2 u_foam;\n" /* x: speed above which, y: share of the rest density below which */
	"out vec2 v_corner;\n"
	"out vec3 v_color;\n"
	"out vec3 v_center;\n"
	"out float v_depth;\n"
	VIEWER_COLOR_MAP_GLSL
	"void main() {\n"
	"  float speed = length(vec3(a_vx, a_vy, a_vz));\n"
	"  v_color = particle_color(a_material, speed, a_density, a_pressure);\n"
	"  v_corner = a_corner;\n"
	"  v_center = vec3(a_x, a_y, a_z);\n"
	"  vec3 c = v_center;\n"
	"  float size = u_radius * u_scale;\n"
	"  if (u_foam_only == 1) {\n"
	"    int m = clamp(int(a_material + 0.5), 0, 31);\n"
	"    float fast = speed / u_foam.x - 1.0;\n"
	"    float lonely = 1.0 - a_density / (u_foam.y * u_rest_density[m]);\n"
	"    float f = min(fast, 2.0 * lonely);\n"
	"    v_color = vec3(clamp(f * 3.0, 0.0, 1.0));\n"
	"    c += u_back * 1.1 * u_radius;\n" /* in front of its own sphere */
	"    if (f <= 0.0) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); v_depth = 0.0; return; }\n"
	"  }\n"
	"  v_depth = (u_view_projection * vec4(c, 1.0)).w;\n"
	"  gl_Position = u_view_projection * vec4(c + (u_right * a_corner.x + u_up * a_corner.y) * size, 1.0);\n"
	"}\n";

/* View depth of the sphere's front surface into R32F, its window depth for the depth test;
 * behind the scene's depth, nothing. */
static const char* depth_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_center;\n"
	"uniform mat4 u_view_projection;\n"
	"uniform vec3 u_right;\n"
	"uniform vec3 u_up;\n"
	"uniform vec3 u_back;\n"
	"uniform float u_radius;\n"
	"uniform sampler2D u_solid;\n"
	"out vec4 o_depth;\n"
	"void main() {\n"
	"  float r2 = dot(v_corner, v_corner);\n"
	"  if (r2 > 1.0) discard;\n"
	"  vec3 n = u_right * v_corner.x + u_up * v_corner.y + u_back * sqrt(1.0 - r2);\n"
	"  vec4 clip = u_view_projection * vec4(v_center + n * u_radius, 1.0);\n"
	"  float d = 0.5 * clip.z / clip.w + 0.5;\n"
	"  if (d >= texelFetch(u_solid, ivec2(gl_FragCoord.xy), 0).r) discard;\n"
	"  gl_FragDepth = d;\n"
	"  o_depth = vec4(clip.w, 0.0, 0.0, 1.0);\n"
	"}\n";

/* A Gaussian splat twice the sphere's radius holding its volume (1.05 r at the centre, e^-3 at
 * the edge); the colour weighted by it times a falloff with the depth below the surface over
 * u_layer, so one sees the colour of the liquid near the surface and layers show. */
static const char* thickness_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_color;\n"
	"in float v_depth;\n"
	"uniform float u_radius;\n"
	"uniform float u_layer;\n"
	"uniform sampler2D u_surface;\n" /* the depth pass's target, full resolution */
	"uniform sampler2D u_solid;\n"   /* the scene's depth */
	"uniform vec2 u_depth_ab;\n"
	"uniform vec2 u_down;\n" /* full-resolution pixels per thickness texel, x and y */
	"layout(location = 0) out vec4 o_color;\n"  /* rgb colour x weight, a thickness */
	"layout(location = 1) out vec4 o_weight;\n" /* r the colour's weight */
	"void main() {\n"
	"  float r2 = dot(v_corner, v_corner);\n"
	"  if (r2 > 1.0) discard;\n"
	"  ivec2 at = ivec2(gl_FragCoord.xy * u_down);\n"
	"  float solid = 2.0 * texelFetch(u_solid, at, 0).r - 1.0;\n"
	"  if (solid < 1.0 && v_depth > u_depth_ab.y / (solid + u_depth_ab.x)) discard;\n"
	"  float t = 1.05 * u_radius * exp(-3.0 * r2);\n"
	"  float surface = texelFetch(u_surface, at, 0).r;\n"
	"  float weight = t * (surface > 0.0 ? exp(-max(v_depth - u_radius - surface, 0.0) / u_layer) : 1.0);\n"
	"  o_color = vec4(v_color * weight, t);\n"
	"  o_weight = vec4(weight, 0.0, 0.0, 0.0);\n"
	"}\n";

static const char* foam_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_color;\n"
	"out vec4 o_color;\n"
	"void main() {\n"
	"  float a = (1.0 - dot(v_corner, v_corner)) * v_color.r;\n"
	"  if (a <= 0.0) discard;\n"
	"  o_color = vec4(vec3(0.95, 0.97, 1.0), 0.85 * a);\n"
	"}\n";

/* One triangle over the whole target. */
static const char* full_vertex_shader =
	"#version 330 core\n"
	"void main() {\n"
	"  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
	"  gl_Position = vec4(p, 0.0, 1.0);\n"
	"}\n";

/* Narrow-range filter, one direction: Gaussian weights over a radius proportional to the
 * projected particle radius; a sample farther than the centre by more than the range (another
 * surface behind) is left out, a nearer one clamped to the range, so edges stay edges and the
 * particles' bumps flatten. The range is measured from the plane through the pixel with the
 * surface's slope along the pass, not from the pixel's depth: where the surface is seen at a
 * grazing angle (a crater's wall, the tank-side face) its depth changes by more than the range
 * within the filter, and measured from the pixel's depth the pass left out or clamped most
 * samples there, so the bumps stayed in one direction and showed as streaks along the other
 * (docs/viewer.md; viewer_liquid3d's smoothness measure fell from 951 to 175 with the plane).
 * Pixels without water stay 0. */
static const char* smooth_fragment_shader =
	"#version 330 core\n"
	"uniform sampler2D u_depth;\n"
	"uniform vec2 u_dir;\n"
	"uniform float u_radius;\n"
	"uniform float u_pixels;\n"
	"out vec4 o_depth;\n"
	"const int TAPS = 12;\n"
	"void main() {\n"
	"  ivec2 p = ivec2(gl_FragCoord.xy), size = textureSize(u_depth, 0);\n"
	"  float z = texelFetch(u_depth, p, 0).r;\n"
	"  if (z <= 0.0) { o_depth = vec4(0.0); return; }\n"
	"  float radius_px = clamp(4.0 * u_radius * u_pixels / z, 1.0, 48.0);\n"
	"  float stride = max(1.0, radius_px / float(TAPS));\n"
	"  float sigma = 0.5 * radius_px, range = 3.0 * u_radius;\n"
	/* the surface's slope along this pass, over half the filter's radius, from the side that
	 * changes less (so a silhouette next to the pixel does not count), at most a range over
	 * that (steeper is a rim, not a wall: unclamped it darkened the rims), none across a gap */
	"  int k = max(1, int(0.5 * radius_px));\n"
	"  float zl = texelFetch(u_depth, clamp(p - ivec2(u_dir) * k, ivec2(0), size - 1), 0).r;\n"
	"  float zr = texelFetch(u_depth, clamp(p + ivec2(u_dir) * k, ivec2(0), size - 1), 0).r;\n"
	"  float dl = zl > 0.0 ? z - zl : 1e30, dr = zr > 0.0 ? zr - z : 1e30;\n"
	"  float slope = min(abs(dl), abs(dr)) > 2.0 * range ? 0.0 : clamp(abs(dr) < abs(dl) ? dr : dl, -range, range) / float(k);\n"
	/* the samples' heights over that slope's plane through the pixel, averaged */
	"  float sum = 0.0, weights = 1.0;\n"
	"  for (int i = -TAPS; i <= TAPS; ++i) {\n"
	"    float d = float(i) * stride;\n"
	"    if (i == 0 || abs(d) > radius_px) continue;\n"
	"    int o = int(d);\n"
	"    ivec2 q = clamp(p + ivec2(u_dir) * o, ivec2(0), size - 1);\n"
	"    float s = texelFetch(u_depth, q, 0).r;\n"
	"    float e = s - z - slope * float(o);\n"
	"    if (s <= 0.0 || e > range) continue;\n"
	"    e = max(e, -range);\n"
	"    float w = exp(-d * d / (2.0 * sigma * sigma));\n"
	"    sum += e * w;\n"
	"    weights += w;\n"
	"  }\n"
	"  o_depth = vec4(z + sum / weights, 0.0, 0.0, 1.0);\n"
	"}\n";

static const char* composite_fragment_shader =
	"#version 330 core\n"
	"uniform sampler2D u_scene;\n"        /* what is behind the water */
	"uniform sampler2D u_scene_depth;\n"  /* the scene's depth */
	"uniform sampler2D u_water_depth;\n"  /* the spheres' window depth (1: none) */
	"uniform sampler2D u_depth;\n"        /* smoothed view depth, 0 where no water */
	"uniform sampler2D u_thickness;\n"    /* rgb colour x weight, a thickness, lower resolution */
	"uniform sampler2D u_weight;\n"       /* r the colour's weight */
	"uniform vec2 u_thickness_scale;\n"   /* the part of those two drawn (uv) */
	"uniform vec2 u_thickness_max;\n"     /* its last texel's centre (uv) */
	"uniform vec2 u_origin;\n"            /* the viewport's corner in the window */
	"uniform vec2 u_tan_half;\n"          /* tan(fov / 2) times aspect, tan(fov / 2) */
	"uniform vec3 u_right;\n"
	"uniform vec3 u_up;\n"
	"uniform vec3 u_back;\n"
	"uniform vec3 u_light;\n"             /* towards the light, view space */
	"uniform float u_absorb;\n"
	"uniform float u_specular;\n"
	"out vec4 o_color;\n"
	"vec3 view_pos(vec2 uv, float z) { return vec3((uv * 2.0 - 1.0) * u_tan_half * z, -z); }\n"
	"vec3 sky(vec3 d) {\n"
	"  vec3 horizon = vec3(0.78, 0.86, 0.95), zenith = vec3(0.22, 0.45, 0.82), ground = vec3(0.16, 0.18, 0.21);\n"
	"  return d.y >= 0.0 ? mix(horizon, zenith, sqrt(d.y)) : mix(horizon * 0.6, ground, sqrt(min(-d.y * 4.0, 1.0)));\n"
	"}\n"
	"void main() {\n"
	"  ivec2 p = ivec2(gl_FragCoord.xy - u_origin), size = textureSize(u_depth, 0);\n"
	"  vec2 texel = 1.0 / vec2(size), uv = (vec2(p) + 0.5) * texel;\n"
	"  vec3 background = texelFetch(u_scene, p, 0).rgb;\n"
	"  gl_FragDepth = min(texelFetch(u_scene_depth, p, 0).r, texelFetch(u_water_depth, p, 0).r);\n"
	"  float z = texelFetch(u_depth, p, 0).r;\n"
	"  if (z <= 0.0) { o_color = vec4(background, 1.0); return; }\n"
	"  vec3 P = view_pos(uv, z);\n"
	/* per axis the one-sided difference with the smaller depth step, so a silhouette does not
	 * bend the normal of the surface next to it */
	"  float zl = texelFetch(u_depth, max(p - ivec2(1, 0), ivec2(0)), 0).r;\n"
	"  float zr = texelFetch(u_depth, min(p + ivec2(1, 0), size - 1), 0).r;\n"
	"  float zd = texelFetch(u_depth, max(p - ivec2(0, 1), ivec2(0)), 0).r;\n"
	"  float zu = texelFetch(u_depth, min(p + ivec2(0, 1), size - 1), 0).r;\n"
	"  vec3 dx = (zr > 0.0 && (zl <= 0.0 || abs(zr - z) < abs(z - zl))) ? view_pos(uv + vec2(texel.x, 0.0), zr) - P : P - view_pos(uv - vec2(texel.x, 0.0), zl > 0.0 ? zl : z);\n"
	"  vec3 dy = (zu > 0.0 && (zd <= 0.0 || abs(zu - z) < abs(z - zd))) ? view_pos(uv + vec2(0.0, texel.y), zu) - P : P - view_pos(uv - vec2(0.0, texel.y), zd > 0.0 ? zd : z);\n"
	"  vec3 n = normalize(cross(dx, dy));\n"
	"  if (n.z < 0.0) n = -n;\n"
	"  vec3 v = normalize(-P);\n"
	"  vec2 tuv = min(uv * u_thickness_scale, u_thickness_max);\n"
	"  vec4 th = texture(u_thickness, tuv);\n"
	"  float thickness = th.a;\n"
	"  float weight = texture(u_weight, tuv).r;\n"
	"  vec3 color = weight > 1e-5 ? th.rgb / weight : vec3(0.2, 0.5, 0.85);\n"
	/* refraction: what is behind, displaced along the normal by the thickness */
	"  vec2 offset = n.xy * min(thickness, 6.0) * 0.012;\n"
	"  vec3 behind = texture(u_scene, clamp(uv + offset, vec2(0.0), vec2(1.0))).rgb;\n"
	/* Beer-Lambert: each channel absorbed as far as the colour lacks it; the light the water
	 * scatters towards the eye grows with the thickness, in its colour */
	"  vec3 transmit = exp(-(1.0 - color) * u_absorb * thickness);\n"
	"  float scatter = 1.0 - exp(-0.5 * thickness);\n"
	"  vec3 body = behind * transmit + color * scatter * (0.55 + 0.55 * max(dot(n, u_light), 0.0));\n"
	/* the sky reflected, Schlick's Fresnel with water's F0 */
	"  vec3 r = reflect(-v, n);\n"
	"  vec3 world = r.x * u_right + r.y * u_up + r.z * u_back;\n"
	"  float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);\n"
	"  vec3 c = mix(body, sky(world), fresnel);\n"
	"  c += vec3(u_specular) * pow(max(dot(n, normalize(u_light + v)), 0.0), 120.0);\n"
	"  c = mix(background, c, smoothstep(0.0, 0.25, thickness));\n" /* thin edges fade */
	"  o_color = vec4(c, 1.0);\n"
	"}\n";

/* ---- State ------------------------------------------------------------------------------- */

/* The look's knobs, liquid.js's SETTINGS: foam above foam_speed world units / s and under
 * foam_density of the rest density; Beer-Lambert absorption per world unit of thickness of a
 * colour channel at 0; smoothing rounds; the highlight; the colour's layer in particle radii. */
static const float foam_speed = 4.0f, foam_density = 0.8f, absorb = 0.35f, specular = 0.8f;
static const float layer_radii = 6.0f;
enum { ROUNDS = 2 };

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

enum { TEX_SCENE, TEX_SCENE_DEPTH, TEX_WATER_DEPTH, TEX_DEPTH0, TEX_DEPTH1, TEX_THICKNESS, TEX_WEIGHT, TEX_COUNT };
enum { FB_SCENE, FB_DEPTH0, FB_DEPTH1, FB_THICKNESS, FB_COUNT };

struct viewer_liquid {
	GLuint depth_program, thickness_program, foam_program, smooth_program, composite_program;
	viewer_color_uniforms thickness_colors, foam_colors;
	viewer_instances points;
	GLuint empty_vao;
	GLuint textures[TEX_COUNT], framebuffers[FB_COUNT];
	int width, height;
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
	l->depth_program = viewer_gl_program(point_vertex_shader, depth_fragment_shader, err, err_size);
	if (l->depth_program)
		l->thickness_program = viewer_gl_program(point_vertex_shader, thickness_fragment_shader, err, err_size);
	if (l->thickness_program)
		l->foam_program = viewer_gl_program(point_vertex_shader, foam_fragment_shader, err, err_size);
	if (l->foam_program)
		l->smooth_program = viewer_gl_program(full_vertex_shader, smooth_fragment_shader, err, err_size);
	if (l->smooth_program)
		l->composite_program = viewer_gl_program(full_vertex_shader, composite_fragment_shader, err, err_size);
	/* glDrawBuffers (GL 2.0) for the thickness pass's two targets; gl.h's table lacks it */
	void* address = SDL_GL_GetProcAddress("glDrawBuffers");
	if (address != NULL) SDL_memcpy(&l->draw_buffers, &address, sizeof l->draw_buffers);
	if (l->composite_program == 0 || l->draw_buffers == NULL) {
		if (l->draw_buffers == NULL) snprintf(err, (size_t)err_size, "no glDrawBuffers");
		viewer_liquid_destroy(l);
		return NULL;
	}
	viewer_color_uniforms_locate(&l->thickness_colors, l->thickness_program);
	viewer_color_uniforms_locate(&l->foam_colors, l->foam_program);
	viewer_instances_create(&l->points, ARRAY_COUNT, ARRAY_MATERIAL);
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
	GLuint programs[5] = {l->depth_program, l->thickness_program, l->foam_program,
	                      l->smooth_program, l->composite_program};
	for (int i = 0; i < 5; ++i) {
		if (programs[i]) gl.DeleteProgram(programs[i]);
	}
	if (l->points.vao) viewer_instances_destroy(&l->points);
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
	gl.BindTexture(GL_TEXTURE_2D, 0);
	GLuint* f = l->framebuffers;
	bool ok = make_framebuffer(l, &f[FB_SCENE], t[TEX_SCENE], 0, t[TEX_SCENE_DEPTH]);
	ok = make_framebuffer(l, &f[FB_DEPTH0], t[TEX_DEPTH0], 0, t[TEX_WATER_DEPTH]) && ok;
	ok = make_framebuffer(l, &f[FB_DEPTH1], t[TEX_DEPTH1], 0, 0) && ok;
	ok = make_framebuffer(l, &f[FB_THICKNESS], t[TEX_THICKNESS], t[TEX_WEIGHT], 0) && ok;
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	l->width = w;
	l->height = h;
	return ok;
}

bool viewer_liquid_begin(viewer_liquid* l, int width, int height, const float clear_rgb[3])
{
	if (l == NULL || l->failed || width <= 0 || height <= 0) return false;
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
	gl.Uniform2f(at(program, "u_foam"), foam_speed, foam_density);
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
	point_uniforms(tp, v, 2.0f, 0);
	viewer_color_uniforms_set(&l->thickness_colors, app, p);
	gl.Uniform1f(at(tp, "u_layer"), layer_radii * v->radius);
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
	for (int round = 0; round < ROUNDS; ++round) {
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

	/* composite into the viewport, with the nearer of the scene's and the water's depth */
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_LIQUID_SHADE);
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.Viewport(v->x, v->y, w, h);
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
	gl.Uniform2f(at(cp, "u_origin"), (float)v->x, (float)v->y);
	gl.Uniform2f(at(cp, "u_thickness_scale"), (float)tw / (float)hw, (float)th / (float)hh);
	gl.Uniform2f(at(cp, "u_thickness_max"), ((float)tw - 0.5f) / (float)hw, ((float)th - 0.5f) / (float)hh);
	gl.Uniform2f(at(cp, "u_tan_half"), tan_half * (float)w / (float)h, tan_half);
	gl.Uniform3f(at(cp, "u_right"), v->right.x, v->right.y, v->right.z);
	gl.Uniform3f(at(cp, "u_up"), v->up.x, v->up.y, v->up.z);
	gl.Uniform3f(at(cp, "u_back"), v->back.x, v->back.y, v->back.z);
	/* the light in view space: its components along right, up, back */
	pdl_vec3 L = v->light;
	gl.Uniform3f(at(cp, "u_light"), L.x * v->right.x + L.y * v->right.y + L.z * v->right.z,
	             L.x * v->up.x + L.y * v->up.y + L.z * v->up.z,
	             L.x * v->back.x + L.y * v->back.y + L.z * v->back.z);
	gl.Uniform1f(at(cp, "u_absorb"), absorb);
	gl.Uniform1f(at(cp, "u_specular"), specular);
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
	point_uniforms(l->foam_program, v, 0.55f, 1);
	viewer_color_uniforms_set(&l->foam_colors, app, p);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
	gl.Disable(GL_BLEND);
	gl.DepthMask(GL_TRUE);
}
