/* puddle-view: drawing 3D worlds (pdl_world_def.dimensions == 3) with OpenGL 3.3 core, through
 * the orbit camera (app->camera, pdl_camera_matrix).
 *
 * Particles are sphere impostors: one instanced quad per particle (one draw call, the world's
 * own structure-of-arrays buffers as vertex buffers, as in 2D), facing the camera; the fragment
 * shader finds the point of the sphere under each pixel, shades it with its normal (ambient,
 * diffuse and a small highlight) and writes that point's depth, so spheres cut into each other,
 * the walls and the obstacles where real balls would. Colours are the 2D view's: material,
 * speed, density or pressure, with the same colour maps.
 *
 * The container: its faces turned away from the camera (the far walls and, seen from above,
 * the floor) are filled, shaded per face, so the fluid is seen against a tank and never behind
 * a wall; then its 12 edges as lines (a sphere container: its outline and equator). Obstacles
 * are shaded solids (boxes face by face, spheres per vertex) with their edges. Rigid bodies
 * likewise, in their own colours: boxes turned by their orientation quaternion (the 8 corners
 * rotated), spheres with the octants of their own frame in two tones so that their spin shows;
 * all depth-tested against the particle spheres. While the pointer acts (a drag, a pour, the
 * eraser) its reach is a ring round the anchor point, facing the camera. Shading (Lambert) of
 * walls, obstacles and bodies is computed on the CPU into the vertex colours: a few thousand
 * vertices a frame.
 *
 * The liquid mode (the default in 3D) draws the same scene into liquid_gl.c's framebuffer
 * instead, and liquid_gl.c turns the particles, spheres of the metaball mode's radius, into a
 * water surface over it (screen-space fluid rendering); the pointer's ring goes on top.
 *
 * SPDX-License-Identifier: MIT */
#include "particles_gl.h"
#include "gpu_timer.h"
#include "liquid_gl.h"
#include "frontend.h"

#include "../../src/vec.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- Shaders ----------------------------------------------------------------------------- */

static const char* sphere_vertex_shader =
	"#version 330 core\n"
	"layout(location = 0) in vec2 a_corner;\n"
	VIEWER_PARTICLE_INPUTS_GLSL
	"uniform mat4 u_view_projection;\n"
	"uniform vec3 u_right;\n"
	"uniform vec3 u_up;\n"
	"uniform float u_radius;\n"
	"out vec2 v_corner;\n"
	"out vec3 v_color;\n"
	"out vec3 v_center;\n"
	VIEWER_COLOR_MAP_GLSL
	"void main() {\n"
	"  v_color = particle_color(a_material, length(vec3(a_vx, a_vy, a_vz)), a_density, a_pressure);\n"
	"  v_corner = a_corner;\n"
	"  v_center = vec3(a_x, a_y, a_z);\n"
	"  vec3 p = v_center + (u_right * a_corner.x + u_up * a_corner.y) * u_radius;\n"
	"  gl_Position = u_view_projection * vec4(p, 1.0);\n"
	"}\n";

/* The sphere under the pixel: its normal from the quad corner, its depth from that point. */
static const char* sphere_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_color;\n"
	"in vec3 v_center;\n"
	"uniform mat4 u_view_projection;\n"
	"uniform vec3 u_right;\n"
	"uniform vec3 u_up;\n"
	"uniform vec3 u_back;\n"
	"uniform vec3 u_light;\n"
	"uniform float u_radius;\n"
	"out vec4 frag;\n"
	"void main() {\n"
	"  float r2 = dot(v_corner, v_corner);\n"
	"  if (r2 > 1.0) discard;\n"
	"  vec3 n = u_right * v_corner.x + u_up * v_corner.y + u_back * sqrt(1.0 - r2);\n"
	"  vec4 clip = u_view_projection * vec4(v_center + n * u_radius, 1.0);\n"
	"  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;\n"
	"  float diffuse = max(dot(n, u_light), 0.0);\n"
	"  vec3 half_vector = normalize(u_light + u_back);\n"
	"  float highlight = pow(max(dot(n, half_vector), 0.0), 40.0);\n"
	"  frag = vec4(v_color * (0.38 + 0.62 * diffuse) + vec3(0.22 * highlight), 1.0);\n"
	"}\n";

/* Flat discs (render.discs, the fallback's cheapest looks): one point a particle, its size the
 * sphere's on screen, in the particle's colour darkened a little toward the rim so that the
 * particles still show. Unlike the spheres, no depth written per fragment and no lighting: under
 * a software rasteriser the depth test can then run before the shader, and a point is one
 * vertex where an instanced quad is four. */
static const char* disc_vertex_shader =
	"#version 330 core\n"
	VIEWER_PARTICLE_INPUTS_GLSL
	"uniform mat4 u_view_projection;\n"
	"uniform float u_radius;\n"
	"uniform float u_pixels;\n" /* the target's pixels per unit of length at distance 1 */
	"out vec3 v_color;\n"
	VIEWER_COLOR_MAP_GLSL
	"void main() {\n"
	"  v_color = particle_color(a_material, length(vec3(a_vx, a_vy, a_vz)), a_density, a_pressure);\n"
	"  gl_Position = u_view_projection * vec4(a_x, a_y, a_z, 1.0);\n"
	"  gl_PointSize = max(2.0 * u_radius * u_pixels / gl_Position.w, 1.0);\n"
	"}\n";

static const char* disc_fragment_shader =
	"#version 330 core\n"
	"in vec3 v_color;\n"
	"out vec4 frag;\n"
	"void main() {\n"
	"  vec2 c = 2.0 * gl_PointCoord - 1.0;\n"
	"  float r2 = dot(c, c);\n"
	"  if (r2 > 1.0) discard;\n"
	"  frag = vec4(v_color * (1.0 - 0.3 * r2), 1.0);\n"
	"}\n";

static const char* solid_vertex_shader =
	"#version 330 core\n"
	"layout(location = 0) in vec3 a_position;\n"
	"layout(location = 1) in vec4 a_color;\n"
	"uniform mat4 u_view_projection;\n"
	"out vec4 v_color;\n"
	"void main() {\n"
	"  v_color = a_color;\n"
	"  gl_Position = u_view_projection * vec4(a_position, 1.0);\n"
	"}\n";

static const char* solid_fragment_shader =
	"#version 330 core\n"
	"in vec4 v_color;\n"
	"out vec4 frag;\n"
	"void main() { frag = v_color; }\n";

/* ---- Geometry helpers -------------------------------------------------------------------- */

typedef struct color4 {
	float r, g, b, a;
} color4;

typedef struct solid_vertex {
	float x, y, z;
	color4 color;
} solid_vertex;

typedef struct vertex_list {
	solid_vertex* v;
	int count, capacity;
} vertex_list;

enum {
	SPHERE_X = 0,
	SPHERE_Y,
	SPHERE_Z,
	SPHERE_VX,
	SPHERE_VY,
	SPHERE_VZ,
	SPHERE_DENSITY,
	SPHERE_PRESSURE,
	SPHERE_MATERIAL,
	SPHERE_ARRAY_COUNT
};

struct viewer_renderer3d {
	GLuint sphere_program;
	GLint s_view_projection, s_right, s_up, s_back, s_light, s_radius;
	viewer_color_uniforms s_colors;
	GLuint disc_program;
	GLint d_view_projection, d_radius, d_pixels;
	viewer_color_uniforms d_colors;
	viewer_instances discs;
	GLuint solid_program;
	GLint solid_view_projection;
	viewer_instances spheres;
	GLuint solid_vao, solid_buffer;
	vertex_list triangles, lines;
	viewer_liquid* liquid; /* NULL: its shaders did not build, liquid draws spheres */
};

static const color4 edge_color = {0.55f, 0.58f, 0.66f, 1.0f};
static const color4 held_color = {0.85f, 0.78f, 0.6f, 1.0f};
static const color4 attract_color = {0.55f, 0.85f, 1.0f, 0.8f};
static const color4 repel_color = {1.0f, 0.55f, 0.45f, 0.8f};
static const color4 idle_color = {1.0f, 1.0f, 1.0f, 0.3f};

static color4 hex_color(uint32_t c)
{
	return (color4){(float)((c >> 16) & 0xff) / 255.0f, (float)((c >> 8) & 0xff) / 255.0f,
	                (float)(c & 0xff) / 255.0f, 1.0f};
}

/* The light, from above, a little from the front-right; unit. */
static pdl_vec3 light_direction(void) { return pdl_v3_normalize(pdl_v3(0.35f, 1.0f, 0.55f)); }

/* Lambert shading of a surface colour for a normal, with the spheres' ambient share. */
static color4 shade(color4 c, pdl_vec3 normal)
{
	float k = 0.45f + 0.55f * fmaxf(pdl_v3_dot(pdl_v3_normalize(normal), light_direction()), 0.0f);
	return (color4){c.r * k, c.g * k, c.b * k, c.a};
}

static void push(vertex_list* l, pdl_vec3 p, color4 c)
{
	if (l->count == l->capacity) {
		int capacity = l->capacity ? 2 * l->capacity : 1024;
		solid_vertex* grown = realloc(l->v, (size_t)capacity * sizeof *grown);
		if (grown == NULL) return;
		l->v = grown;
		l->capacity = capacity;
	}
	l->v[l->count++] = (solid_vertex){p.x, p.y, p.z, c};
}

static void push_quad(vertex_list* l, pdl_vec3 a, pdl_vec3 b, pdl_vec3 c, pdl_vec3 d, color4 color)
{
	push(l, a, color);
	push(l, b, color);
	push(l, c, color);
	push(l, a, color);
	push(l, c, color);
	push(l, d, color);
}

static void push_line(vertex_list* l, pdl_vec3 a, pdl_vec3 b, color4 color)
{
	push(l, a, color);
	push(l, b, color);
}

/* The 8 corners of a box turned by angle about z; corner k has x, y, z signs from bits 0-2. */
static void box_corners(const pdl_boundary_def* def, pdl_vec3 out[8])
{
	float c = cosf(def->angle), s = sinf(def->angle);
	for (int k = 0; k < 8; ++k) {
		float x = (k & 1 ? 1.0f : -1.0f) * def->half_extents.x;
		float y = (k & 2 ? 1.0f : -1.0f) * def->half_extents.y;
		float z = (k & 4 ? 1.0f : -1.0f) * def->half_extents.z;
		out[k] = pdl_v3(def->position.x + c * x - s * y, def->position.y + s * x + c * y,
		            def->position.z + z);
	}
}

/* The six faces of a box as corner indices, counter-clockwise seen from outside. */
static const int box_faces[6][4] = {
	{0, 4, 6, 2}, /* -x */
	{1, 3, 7, 5}, /* +x */
	{0, 1, 5, 4}, /* -y */
	{2, 6, 7, 3}, /* +y */
	{0, 2, 3, 1}, /* -z */
	{4, 5, 7, 6}, /* +z */
};

static void push_box_edges(vertex_list* l, const pdl_vec3 c[8], color4 color)
{
	for (int a = 0; a < 8; ++a) {
		for (int bit = 1; bit < 8; bit <<= 1) {
			if (a & bit) continue;
			push_line(l, c[a], c[a | bit], color);
		}
	}
}

/* Faces of a box: `facing_away` picks the faces turned away from the eye (a container's far
 * walls) instead of those turned to it (an obstacle's visible sides; the others are hidden by
 * the depth test anyway, so all are pushed). */
static void push_box_faces(vertex_list* l, const pdl_vec3 c[8], pdl_vec3 eye, color4 color,
                           bool container)
{
	for (int f = 0; f < 6; ++f) {
		const int* q = box_faces[f];
		pdl_vec3 n = pdl_v3_normalize(pdl_v3_cross(pdl_v3_sub(c[q[1]], c[q[0]]), pdl_v3_sub(c[q[2]], c[q[0]])));
		pdl_vec3 centre = pdl_v3_scale(pdl_v3_add(pdl_v3_add(c[q[0]], c[q[1]]), pdl_v3_add(c[q[2]], c[q[3]])), 0.25f);
		bool away = pdl_v3_dot(n, pdl_v3_sub(eye, centre)) < 0;
		if (container && !away) continue;
		/* a container's wall is lit from inside: its inward normal; its floor (the face whose
		 * inward normal is up) a little lighter, for the eye to find the ground */
		color4 base = color;
		if (container && n.y < -0.9f) {
			base = (color4){color.r + 0.1f * (1.0f - color.r), color.g + 0.1f * (1.0f - color.g),
			                color.b + 0.1f * (1.0f - color.b), color.a};
		}
		color4 shaded = shade(base, container ? pdl_v3_scale(n, -1.0f) : n);
		push_quad(l, c[q[0]], c[q[1]], c[q[2]], c[q[3]], shaded);
	}
}

/* A sphere shaded per vertex. With an orientation (a body's), the octants of its own frame
 * alternate between the colour and a lighter tone, so a turning ball is seen to turn. */
static void push_sphere(vertex_list* l, pdl_vec3 centre, float radius, color4 color,
                        const pdl_quat* orientation)
{
	color4 light = {color.r + 0.35f * (1.0f - color.r), color.g + 0.35f * (1.0f - color.g),
	                color.b + 0.35f * (1.0f - color.b), color.a};
	enum { RINGS = 16, SEGMENTS = 32 };
	for (int i = 0; i < RINGS; ++i) {
		float t0 = 3.14159265f * (float)i / RINGS, t1 = 3.14159265f * (float)(i + 1) / RINGS;
		for (int j = 0; j < SEGMENTS; ++j) {
			float p0 = 6.2831853f * (float)j / SEGMENTS, p1 = 6.2831853f * (float)(j + 1) / SEGMENTS;
			pdl_vec3 n[4] = {
				pdl_v3(sinf(t0) * cosf(p0), cosf(t0), sinf(t0) * sinf(p0)),
				pdl_v3(sinf(t1) * cosf(p0), cosf(t1), sinf(t1) * sinf(p0)),
				pdl_v3(sinf(t1) * cosf(p1), cosf(t1), sinf(t1) * sinf(p1)),
				pdl_v3(sinf(t0) * cosf(p1), cosf(t0), sinf(t0) * sinf(p1)),
			};
			int order[6] = {0, 1, 2, 0, 2, 3};
			for (int k = 0; k < 6; ++k) {
				pdl_vec3 nn = n[order[k]];
				color4 c = color;
				if (orientation != NULL) {
					pdl_vec3 own = viewer_quat_unrotate(*orientation, nn);
					if (own.x * own.y * own.z > 0) c = light;
				}
				push(l, pdl_v3_add(centre, pdl_v3_scale(nn, radius)), shade(c, nn));
			}
		}
	}
}

/* Lines across a box container's floor, about 16 across its longer side at a round spacing,
 * a hair above it (so they win the depth test over the floor): depth cues for the eye. */
static void push_floor_grid(vertex_list* l, const pdl_boundary_def* def, color4 floor)
{
	float hx = def->half_extents.x, hz = def->half_extents.z;
	float raw = 2.0f * fmaxf(hx, hz) / 16.0f;
	float step = powf(10.0f, floorf(log10f(raw)));
	if (raw > 5.0f * step) step *= 5.0f;
	else if (raw > 2.0f * step) step *= 2.0f;
	float lift = 1e-3f * fmaxf(hx, hz);
	color4 line = {floor.r + 0.16f * (1.0f - floor.r), floor.g + 0.16f * (1.0f - floor.g),
	               floor.b + 0.16f * (1.0f - floor.b), 1.0f};
	float c = cosf(def->angle), s = sinf(def->angle);
	pdl_vec3 o = def->position;
	float y = -def->half_extents.y + lift;
	/* local (x, z) -> world, turned about z like the box (a turned box's floor tilts) */
#define FLOOR_POINT(lx, lz) pdl_v3(o.x + c * (lx) - s * y, o.y + s * (lx) + c * y, o.z + (lz))
	for (float x = ceilf(-hx / step) * step; x < hx; x += step) {
		push_line(l, FLOOR_POINT(x, -hz), FLOOR_POINT(x, hz), line);
	}
	for (float z = ceilf(-hz / step) * step; z < hz; z += step) {
		push_line(l, FLOOR_POINT(-hx, z), FLOOR_POINT(hx, z), line);
	}
#undef FLOOR_POINT
}

/* A circle of `radius` round centre in the plane spanned by unit vectors u and w. */
static void push_circle(vertex_list* l, pdl_vec3 centre, pdl_vec3 u, pdl_vec3 w, float radius,
                        color4 color)
{
	enum { SEGMENTS = 96 };
	for (int i = 0; i < SEGMENTS; ++i) {
		float a0 = 6.2831853f * (float)i / SEGMENTS, a1 = 6.2831853f * (float)(i + 1) / SEGMENTS;
		pdl_vec3 p0 = pdl_v3_add(centre, pdl_v3_add(pdl_v3_scale(u, radius * cosf(a0)), pdl_v3_scale(w, radius * sinf(a0))));
		pdl_vec3 p1 = pdl_v3_add(centre, pdl_v3_add(pdl_v3_scale(u, radius * cosf(a1)), pdl_v3_scale(w, radius * sinf(a1))));
		push_line(l, p0, p1, color);
	}
}

/* ---- Renderer ---------------------------------------------------------------------------- */

viewer_renderer3d* viewer_renderer3d_create(char* err, int err_size)
{
	viewer_renderer3d* r = calloc(1, sizeof *r);
	if (r == NULL) {
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	r->sphere_program = viewer_gl_program(sphere_vertex_shader, sphere_fragment_shader, err, err_size);
	r->solid_program = viewer_gl_program(solid_vertex_shader, solid_fragment_shader, err, err_size);
	r->disc_program = viewer_gl_program(disc_vertex_shader, disc_fragment_shader, err, err_size);
	if (r->sphere_program == 0 || r->solid_program == 0 || r->disc_program == 0) {
		viewer_renderer3d_destroy(r);
		return NULL;
	}
	GLuint p = r->sphere_program;
	r->s_view_projection = gl.GetUniformLocation(p, "u_view_projection");
	r->s_right = gl.GetUniformLocation(p, "u_right");
	r->s_up = gl.GetUniformLocation(p, "u_up");
	r->s_back = gl.GetUniformLocation(p, "u_back");
	r->s_light = gl.GetUniformLocation(p, "u_light");
	r->s_radius = gl.GetUniformLocation(p, "u_radius");
	viewer_color_uniforms_locate(&r->s_colors, p);
	r->solid_view_projection = gl.GetUniformLocation(r->solid_program, "u_view_projection");
	r->d_view_projection = gl.GetUniformLocation(r->disc_program, "u_view_projection");
	r->d_radius = gl.GetUniformLocation(r->disc_program, "u_radius");
	r->d_pixels = gl.GetUniformLocation(r->disc_program, "u_pixels");
	viewer_color_uniforms_locate(&r->d_colors, r->disc_program);

	viewer_instances_create(&r->spheres, SPHERE_ARRAY_COUNT, SPHERE_MATERIAL);
	viewer_instances_create(&r->discs, SPHERE_ARRAY_COUNT, SPHERE_MATERIAL);
	viewer_instances_per_vertex(&r->discs);
	char liquid_err[512];
	r->liquid = viewer_liquid_create(liquid_err, sizeof liquid_err);
	if (r->liquid == NULL) fprintf(stderr, "puddle-view: liquid: %s; drawing spheres\n", liquid_err);

	gl.GenVertexArrays(1, &r->solid_vao);
	gl.BindVertexArray(r->solid_vao);
	gl.GenBuffers(1, &r->solid_buffer);
	gl.BindBuffer(GL_ARRAY_BUFFER, r->solid_buffer);
	gl.EnableVertexAttribArray(0);
	gl.VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(solid_vertex), NULL);
	gl.EnableVertexAttribArray(1);
	gl.VertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(solid_vertex),
	                       (const void*)offsetof(solid_vertex, color));
	gl.BindVertexArray(0);
	return r;
}

void viewer_renderer3d_destroy(viewer_renderer3d* r)
{
	if (r == NULL) return;
	if (r->sphere_program) gl.DeleteProgram(r->sphere_program);
	if (r->solid_program) gl.DeleteProgram(r->solid_program);
	if (r->disc_program) gl.DeleteProgram(r->disc_program);
	viewer_instances_destroy(&r->spheres);
	viewer_instances_destroy(&r->discs);
	viewer_liquid_destroy(r->liquid);
	if (r->solid_buffer) gl.DeleteBuffers(1, &r->solid_buffer);
	if (r->solid_vao) gl.DeleteVertexArrays(1, &r->solid_vao);
	free(r->triangles.v);
	free(r->lines.v);
	free(r);
}

static void draw_list(viewer_renderer3d* r, vertex_list* l, GLenum mode)
{
	if (l->count == 0) return;
	gl.BindVertexArray(r->solid_vao);
	gl.BindBuffer(GL_ARRAY_BUFFER, r->solid_buffer);
	gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)l->count * (GLsizeiptr)sizeof(solid_vertex), l->v,
	              GL_STREAM_DRAW);
	gl.DrawArrays(mode, 0, l->count);
}

/* Dots: spheres of the dot radius, each one seen. Metaball and liquid: spheres of 0.3 h at the
 * default splat radius, a little over half the 3D rest spacing (0.498 h), so neighbours
 * overlap and the fluid reads as one body; the splat slider scales them. */
static float sphere_radius(const viewer_app* app)
{
	float h = pdl_world_get_def(app->scene.world).interaction_radius;
	return app->render.mode == VIEWER_RENDER_DOTS ? app->render.dot_radius * h
	                                              : 0.3f * h * app->render.splat_radius / 0.75f;
}

/* `target_height`: the pixels the viewport's height is drawn at (the discs' size). */
static void draw_spheres(viewer_renderer3d* r, const viewer_app* app, const float vp[16],
                         pdl_vec3 right, pdl_vec3 up, pdl_vec3 back, float target_height)
{
	const pdl_world* world = app->scene.world;
	pdl_particle_data p = pdl_world_particles(world);
	if (p.count == 0 || p.z == NULL) return;
	const void* arrays[SPHERE_ARRAY_COUNT] = {p.x,  p.y,       p.z,        p.vx,      p.vy,
	                                          p.vz, p.density, p.pressure, p.material};
	float radius = sphere_radius(app);
	if (app->render.discs && app->render.mode == VIEWER_RENDER_METABALL) {
		viewer_instances_upload(&r->discs, arrays, p.count);
		gl.UseProgram(r->disc_program);
		gl.UniformMatrix4fv(r->d_view_projection, 1, GL_FALSE, vp);
		gl.Uniform1f(r->d_radius, radius);
		/* pdl_camera_matrix's projection: 1 / tan(fov / 2) across half the height */
		float half_fov = 0.5f * app->camera.fov * 3.14159265f / 180.0f;
		gl.Uniform1f(r->d_pixels, 0.5f * target_height / tanf(half_fov));
		viewer_color_uniforms_set(&r->d_colors, app, &p);
		gl.Enable(GL_PROGRAM_POINT_SIZE);
		gl.DrawArrays(GL_POINTS, 0, p.count);
		gl.Disable(GL_PROGRAM_POINT_SIZE);
		return;
	}
	viewer_instances_upload(&r->spheres, arrays, p.count);
	pdl_vec3 light = light_direction();
	gl.UseProgram(r->sphere_program);
	gl.UniformMatrix4fv(r->s_view_projection, 1, GL_FALSE, vp);
	gl.Uniform3f(r->s_right, right.x, right.y, right.z);
	gl.Uniform3f(r->s_up, up.x, up.y, up.z);
	gl.Uniform3f(r->s_back, back.x, back.y, back.z);
	gl.Uniform3f(r->s_light, light.x, light.y, light.z);
	gl.Uniform1f(r->s_radius, radius);
	viewer_color_uniforms_set(&r->s_colors, app, &p);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, p.count);
}

static bool is_container(pdl_boundary_kind kind)
{
	return kind == PDL_BOUNDARY_CIRCLE_CONTAINER || kind == PDL_BOUNDARY_BOX_CONTAINER;
}

/* Containers' far walls (triangles) and edges (lines); obstacles' solids and edges. */
static void build_walls(viewer_renderer3d* r, const viewer_app* app, pdl_vec3 eye, pdl_vec3 right,
                        pdl_vec3 up)
{
	const pdl_world* world = app->scene.world;
	color4 inside = hex_color(app->render.inside_color);
	color4 obstacle = hex_color(app->render.obstacle_color);
	r->triangles.count = 0;
	r->lines.count = 0;
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		const pdl_boundary_id id = pdl_world_boundary_in_slot(world, slot);
		if (!pdl_world_get_boundary(world, id, &def)) continue;
		bool held = app->input.action == VIEWER_POINTER_DRAG_OBSTACLE &&
		            viewer_boundary_id_equal(app->input.dragged_obstacle, id);
		color4 solid = held ? held_color : obstacle;
		if (def.kind == PDL_BOUNDARY_BOX_CONTAINER || def.kind == PDL_BOUNDARY_BOX) {
			pdl_vec3 c[8];
			box_corners(&def, c);
			bool container = is_container(def.kind);
			push_box_faces(&r->triangles, c, eye, container ? inside : solid, container);
			color4 edges = container ? edge_color : shade(solid, pdl_v3(0, 1, 0));
			if (!container) edges = (color4){edges.r * 0.6f, edges.g * 0.6f, edges.b * 0.6f, 1.0f};
			push_box_edges(&r->lines, c, edges);
			if (container && eye.y > c[0].y) push_floor_grid(&r->lines, &def, inside);
		} else if (def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER) {
			/* its outline as seen from the eye, and its equator */
			push_circle(&r->lines, def.position, right, up, def.radius, edge_color);
			push_circle(&r->lines, def.position, pdl_v3(1, 0, 0), pdl_v3(0, 0, 1), def.radius, edge_color);
		} else if (def.kind == PDL_BOUNDARY_CIRCLE) {
			push_sphere(&r->triangles, def.position, def.radius, solid, NULL);
		}
	}
}

/* The bodies' solids (triangles) and box edges (lines), appended to the walls'. For the liquid
 * (`mark`) their alpha is 0: the water's waterline is drawn where it meets them
 * (shaders/liquid/composite.frag.glsl); everything else in the scene has alpha 1. */
static void build_bodies(viewer_renderer3d* r, const viewer_app* app, pdl_vec3 eye, bool mark)
{
	const pdl_world* world = app->scene.world;
	pdl_body_id ids[PDL_MAX_BODIES];
	int count = pdl_world_bodies(world, ids, PDL_MAX_BODIES);
	for (int k = 0; k < count; ++k) {
		pdl_body_def def;
		if (!pdl_world_get_body(world, ids[k], &def)) continue;
		bool held = app->input.action == VIEWER_POINTER_GRAB_BODY &&
		            viewer_body_id_equal(app->input.held_body, ids[k]);
		color4 color = held ? held_color : hex_color(def.color);
		if (mark) color.a = 0.0f;
		if (def.shape == PDL_BODY_CIRCLE) {
			push_sphere(&r->triangles, def.position, def.radius, color, &def.orientation);
			continue;
		}
		pdl_vec3 c[8];
		viewer_body_box_corners(&def, c);
		push_box_faces(&r->triangles, c, eye, color, false);
		push_box_edges(&r->lines, c, (color4){0.5f * color.r, 0.5f * color.g, 0.5f * color.b, color.a});
	}
}

/* The pointer's reach, a ring round the anchor facing the camera. */
static void build_pointer(viewer_renderer3d* r, const viewer_app* app, pdl_vec3 right, pdl_vec3 up)
{
	r->lines.count = 0;
	const viewer_input* in = &app->input;
	/* only while it acts: at rest the anchor is a point in the middle of the tank that nothing
	 * on screen marks, and a ring hanging there reads as an object */
	bool acting = in->action == VIEWER_POINTER_ATTRACT || in->action == VIEWER_POINTER_REPEL ||
	              in->spawning || in->erasing;
	if (!acting || !in->mouse_inside) return;
	color4 color = in->action == VIEWER_POINTER_ATTRACT ? attract_color
	               : in->action == VIEWER_POINTER_REPEL ? repel_color
	                                                    : idle_color;
	push_circle(&r->lines, in->anchor, right, up, viewer_pointer_radius(app), color);
}

int viewer_renderer3d_thickness_divisor(const viewer_renderer3d* r)
{
	return r ? viewer_liquid_thickness_divisor(r->liquid) : 0;
}

void viewer_renderer3d_draw(viewer_renderer3d* r, const viewer_app* app)
{
	const viewer_view* view = &app->view;
	int gl_viewport_y = view->drawable_height - (view->viewport_y + view->viewport_height);
	gl.Viewport(0, 0, view->drawable_width, view->drawable_height);
	gl.Disable(GL_SCISSOR_TEST);
	color4 outside = hex_color(app->render.outside_color);
	gl.ClearColor(outside.r, outside.g, outside.b, 1.0f);
	gl.DepthMask(GL_TRUE);
	gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	if (app->scene.world == NULL || view->viewport_width <= 0 || view->viewport_height <= 0) return;
	gl.Viewport(view->viewport_x, gl_viewport_y, view->viewport_width, view->viewport_height);

	float vp[16];
	pdl_camera_matrix(&app->camera, viewer_view_aspect(view), vp);
	pdl_vec3 eye = pdl_camera_eye(&app->camera);
	pdl_vec3 back = pdl_v3_normalize(pdl_v3_sub(eye, app->camera.target));
	pdl_vec3 right = pdl_v3_normalize(pdl_v3_cross(pdl_v3(0, 1, 0), back));
	pdl_vec3 up = pdl_v3_cross(back, right);

	/* liquid: the scene into the liquid's framebuffer, the water over it into the viewport */
	pdl_particle_data p = pdl_world_particles(app->scene.world);
	float clear[3] = {outside.r, outside.g, outside.b};
	bool liquid = app->render.mode == VIEWER_RENDER_LIQUID && p.count > 0 && p.z != NULL &&
	              viewer_liquid_begin(r->liquid, view->viewport_width, view->viewport_height,
	                                  app->render.scale_3d, clear);
	/* spheres or dots at a lower resolution: into the liquid's scene target, scaled up below */
	bool scaled = !liquid && app->render.scale_3d < 1.0f &&
	              viewer_liquid_begin(r->liquid, view->viewport_width, view->viewport_height,
	                                  app->render.scale_3d, clear);

	gl.Enable(GL_DEPTH_TEST);
	gl.DepthFunc(GL_LEQUAL);
	gl.Disable(GL_BLEND);
	build_walls(r, app, eye, right, up);
	build_bodies(r, app, eye, liquid);
	gl.UseProgram(r->solid_program);
	gl.UniformMatrix4fv(r->solid_view_projection, 1, GL_FALSE, vp);
	draw_list(r, &r->triangles, GL_TRIANGLES);

	if (!liquid) {
		viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_PARTICLES);
		float target_height = (float)view->viewport_height * (scaled ? app->render.scale_3d : 1.0f);
		draw_spheres(r, app, vp, right, up, back, target_height);
		viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_SCENE);
	}

	gl.UseProgram(r->solid_program);
	draw_list(r, &r->lines, GL_LINES);
	if (scaled) viewer_liquid_present_scene(r->liquid, view->viewport_x, gl_viewport_y, view->viewport_width,
	                                        view->viewport_height);

	if (liquid) {
		/* the water reflects the scene's background, as on the page and in puddle run's pictures */
		color4 sky = hex_color(app->render.inside_color);
		viewer_liquid_view lv = {.right = right, .up = up, .back = back,
		                         .background = {sky.r, sky.g, sky.b}, .radius = sphere_radius(app),
		                         .fov = app->camera.fov, .near = app->camera.distance / 100,
		                         .far = app->camera.distance * 100,
		                         .distance = app->camera.distance, .x = view->viewport_x,
		                         .y = gl_viewport_y, .width = view->viewport_width,
		                         .height = view->viewport_height};
		for (int i = 0; i < 16; ++i) lv.view_projection[i] = vp[i];
		viewer_liquid_draw(r->liquid, app, &p, &lv); /* marks its own stages */
		viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_SCENE);
		gl.UseProgram(r->solid_program);
	}

	/* the pointer ring over everything, blended */
	gl.Disable(GL_DEPTH_TEST);
	gl.Enable(GL_BLEND);
	gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	build_pointer(r, app, right, up);
	draw_list(r, &r->lines, GL_LINES);

	gl.BindVertexArray(0);
	gl.UseProgram(0);
	gl.Viewport(0, 0, view->drawable_width, view->drawable_height);
}
