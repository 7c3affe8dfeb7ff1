/* puddle-view: drawing on the GPU, with OpenGL 3.3 core.
 *
 * Particles: one instanced draw call per pass (the Rust stratification demo, "GPU-instanced
 * particle rendering (single draw call for all particles)"). Each particle is a quad whose
 * centre, velocity, density, pressure and material come straight from the world's
 * structure-of-arrays buffers, one vertex buffer per array, so nothing is repacked on the CPU.
 *
 * Metaballs: the Unity SPH demo's "alpha cutout rendering": every particle becomes a soft disc
 * (weight 1 at the centre, 0 at the edge), the discs are summed in an offscreen float buffer,
 * and a full-screen pass draws the fluid where the sum crosses a threshold, with a smooth edge.
 * Overlapping discs of neighbouring particles sum above the threshold and merge into one
 * surface. The buffer also sums colour * weight, so the threshold pass shows the weighted mean
 * colour: per-material colour, blended where materials meet.
 *
 * Containers, obstacles, rigid bodies and the pointer's reach are a few triangles rebuilt every
 * frame. Bodies are filled in their own colour with a darker outline, and a circle carries a
 * spoke from its centre so that its spin shows; a held body's outline is light.
 *
 * Contours (O key, with puddle_io): the fluid's outline by marching squares over the smoothed
 * density field (io/include/puddle/surface.h), computed on the CPU every frame and drawn as
 * thin quads over the fluid, the same outline `puddle run --surface` writes.
 *
 * SPDX-License-Identifier: MIT */
#include "particles_gl.h"
#include "gpu_timer.h"
#include "frontend.h"

#include "puddle/surface.h"

#include <SDL.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Shaders ----------------------------------------------------------------------------- */

/* Shared by the dot and splat passes: places the quad and picks the particle's colour. */
static const char* particle_vertex_shader =
	"#version 330 core\n"
	"layout(location = 0) in vec2 a_corner;\n"
	"layout(location = 1) in float a_x;\n"
	"layout(location = 2) in float a_y;\n"
	"layout(location = 3) in float a_vx;\n"
	"layout(location = 4) in float a_vy;\n"
	"layout(location = 5) in float a_density;\n"
	"layout(location = 6) in float a_pressure;\n"
	"layout(location = 7) in float a_material;\n"
	"uniform vec2 u_scale;\n"
	"uniform vec2 u_offset;\n"
	"uniform float u_radius;\n"
	"out vec2 v_corner;\n"
	"out vec3 v_color;\n"
	VIEWER_COLOR_MAP_GLSL
	"void main() {\n"
	"  v_color = particle_color(a_material, length(vec2(a_vx, a_vy)), a_density, a_pressure);\n"
	"  v_corner = a_corner;\n"
	"  vec2 p = vec2(a_x, a_y) + a_corner * u_radius;\n"
	"  gl_Position = vec4(p * u_scale + u_offset, 0.0, 1.0);\n"
	"}\n";

/* A disc with a one-pixel smooth rim and a little shading toward the rim. */
static const char* dot_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_color;\n"
	"uniform float u_pixel_radius;\n"
	"out vec4 frag;\n"
	"void main() {\n"
	"  float r = length(v_corner);\n"
	"  float aa = 1.0 / max(u_pixel_radius, 1.0);\n"
	"  float alpha = 1.0 - smoothstep(1.0 - aa, 1.0, r);\n"
	"  if (alpha <= 0.0) discard;\n"
	"  frag = vec4(v_color * (1.0 - 0.3 * r * r), alpha);\n"
	"}\n";

/* The Unity SPH demo's soft disc: weight (1 - r^2)^2, smooth at the centre and at the edge, so
 * the summed field has no creases. RGB carries colour * weight for the weighted mean. */
static const char* splat_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_corner;\n"
	"in vec3 v_color;\n"
	"out vec4 frag;\n"
	"void main() {\n"
	"  float r2 = dot(v_corner, v_corner);\n"
	"  if (r2 >= 1.0) discard;\n"
	"  float w = (1.0 - r2) * (1.0 - r2);\n"
	"  frag = vec4(v_color * w, w);\n"
	"}\n";

/* One triangle covering the viewport; no vertex buffer (positions from gl_VertexID). */
static const char* fullscreen_vertex_shader =
	"#version 330 core\n"
	"out vec2 v_uv;\n"
	"void main() {\n"
	"  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
	"  v_uv = p;\n"
	"  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
	"}\n";

/* The threshold: opaque where the summed weight is above it, a smooth edge of +-softness, and
 * slightly darker where the fluid is thick so the surface reads as a volume. */
static const char* threshold_fragment_shader =
	"#version 330 core\n"
	"in vec2 v_uv;\n"
	"uniform sampler2D u_field;\n"
	"uniform float u_threshold;\n"
	"uniform float u_softness;\n"
	"out vec4 frag;\n"
	"void main() {\n"
	"  vec4 f = texture(u_field, v_uv);\n"
	"  float alpha = smoothstep(u_threshold - u_softness, u_threshold + u_softness, f.a);\n"
	"  if (alpha <= 0.0) discard;\n"
	"  vec3 c = f.rgb / max(f.a, 1e-4);\n"
	"  float depth = clamp((f.a - u_threshold) / (6.0 * u_threshold), 0.0, 1.0);\n"
	"  c *= mix(1.12, 0.8, depth);\n"
	"  frag = vec4(c, alpha);\n"
	"}\n";

/* Containers, obstacles, pointer ring: world-space triangles with a colour each. */
static const char* shape_vertex_shader =
	"#version 330 core\n"
	"layout(location = 0) in vec2 a_position;\n"
	"layout(location = 1) in vec4 a_color;\n"
	"uniform vec2 u_scale;\n"
	"uniform vec2 u_offset;\n"
	"out vec4 v_color;\n"
	"void main() {\n"
	"  v_color = a_color;\n"
	"  gl_Position = vec4(a_position * u_scale + u_offset, 0.0, 1.0);\n"
	"}\n";

static const char* shape_fragment_shader =
	"#version 330 core\n"
	"in vec4 v_color;\n"
	"out vec4 frag;\n"
	"void main() { frag = v_color; }\n";

/* ---- Colours ----------------------------------------------------------------------------- */

typedef struct rgba {
	float r, g, b, a;
} rgba;

static const rgba container_rim_color = {0.42f, 0.45f, 0.52f, 1.0f};
static const rgba obstacle_held_color = {0.85f, 0.78f, 0.6f, 1.0f};
static const rgba body_held_outline_color = {1.0f, 0.95f, 0.8f, 1.0f};
static const rgba attract_ring_color = {0.55f, 0.85f, 1.0f, 0.7f};
static const rgba repel_ring_color = {1.0f, 0.55f, 0.45f, 0.7f};
static const rgba idle_ring_color = {1.0f, 1.0f, 1.0f, 0.18f};

static rgba from_hex(uint32_t color)
{
	return (rgba){(float)((color >> 16) & 0xff) / 255.0f, (float)((color >> 8) & 0xff) / 255.0f,
	              (float)(color & 0xff) / 255.0f, 1.0f};
}

/* ---- Renderer ---------------------------------------------------------------------------- */

enum {
	PARTICLE_X = 0,
	PARTICLE_Y,
	PARTICLE_VX,
	PARTICLE_VY,
	PARTICLE_DENSITY,
	PARTICLE_PRESSURE,
	PARTICLE_MATERIAL,
	PARTICLE_ARRAY_COUNT
};

typedef struct shape_vertex {
	float x, y;
	rgba color;
} shape_vertex;

typedef struct particle_program {
	GLuint program;
	GLint scale, offset, radius, pixel_radius;
	viewer_color_uniforms colors;
} particle_program;

struct viewer_renderer {
	particle_program dots;
	particle_program splats;
	GLuint threshold_program;
	GLint threshold_field, threshold_value, threshold_softness;
	GLuint shape_program;
	GLint shape_scale, shape_offset;

	viewer_instances particles;
	GLuint empty_vao;
	GLuint shape_vao, shape_buffer;

	/* The metaball field: RGBA16F, the size of the viewport. */
	GLuint field_framebuffer, field_texture;
	int field_width, field_height;

	shape_vertex* shapes;
	int shape_count, shape_capacity;
	double contour_ms;
	/* 3D worlds are drawn by renderer3d.c */
	viewer_renderer3d* three_d;
};

double viewer_renderer_contour_ms(const viewer_renderer* r) { return r ? r->contour_ms : 0; }
int viewer_renderer_thickness_divisor(const viewer_renderer* r)
{
	return r ? viewer_renderer3d_thickness_divisor(r->three_d) : 0;
}

static bool make_particle_program(particle_program* p, const char* fragment_source, char* err,
                                  int err_size)
{
	p->program = viewer_gl_program(particle_vertex_shader, fragment_source, err, err_size);
	if (p->program == 0) return false;
	p->scale = gl.GetUniformLocation(p->program, "u_scale");
	p->offset = gl.GetUniformLocation(p->program, "u_offset");
	p->radius = gl.GetUniformLocation(p->program, "u_radius");
	viewer_color_uniforms_locate(&p->colors, p->program);
	p->pixel_radius = gl.GetUniformLocation(p->program, "u_pixel_radius");
	return true;
}

viewer_renderer* viewer_renderer_create(char* err, int err_size)
{
	viewer_renderer* r = calloc(1, sizeof *r);
	if (r == NULL) {
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	if (!make_particle_program(&r->dots, dot_fragment_shader, err, err_size) ||
	    !make_particle_program(&r->splats, splat_fragment_shader, err, err_size)) {
		viewer_renderer_destroy(r);
		return NULL;
	}
	r->threshold_program = viewer_gl_program(fullscreen_vertex_shader, threshold_fragment_shader, err,
	                                    err_size);
	r->shape_program = viewer_gl_program(shape_vertex_shader, shape_fragment_shader, err, err_size);
	if (r->threshold_program == 0 || r->shape_program == 0) {
		viewer_renderer_destroy(r);
		return NULL;
	}
	r->threshold_field = gl.GetUniformLocation(r->threshold_program, "u_field");
	r->threshold_value = gl.GetUniformLocation(r->threshold_program, "u_threshold");
	r->threshold_softness = gl.GetUniformLocation(r->threshold_program, "u_softness");
	r->shape_scale = gl.GetUniformLocation(r->shape_program, "u_scale");
	r->shape_offset = gl.GetUniformLocation(r->shape_program, "u_offset");

	viewer_instances_create(&r->particles, PARTICLE_ARRAY_COUNT, PARTICLE_MATERIAL);

	gl.GenVertexArrays(1, &r->empty_vao);

	gl.GenVertexArrays(1, &r->shape_vao);
	gl.BindVertexArray(r->shape_vao);
	gl.GenBuffers(1, &r->shape_buffer);
	gl.BindBuffer(GL_ARRAY_BUFFER, r->shape_buffer);
	gl.EnableVertexAttribArray(0);
	gl.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(shape_vertex), NULL);
	gl.EnableVertexAttribArray(1);
	gl.VertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(shape_vertex),
	                       (const void*)offsetof(shape_vertex, color));
	gl.BindVertexArray(0);

	gl.GenFramebuffers(1, &r->field_framebuffer);
	gl.GenTextures(1, &r->field_texture);
	r->three_d = viewer_renderer3d_create(err, err_size);
	if (r->three_d == NULL) {
		viewer_renderer_destroy(r);
		return NULL;
	}
	return r;
}

void viewer_renderer_destroy(viewer_renderer* r)
{
	if (r == NULL) return;
	if (r->dots.program) gl.DeleteProgram(r->dots.program);
	if (r->splats.program) gl.DeleteProgram(r->splats.program);
	if (r->threshold_program) gl.DeleteProgram(r->threshold_program);
	if (r->shape_program) gl.DeleteProgram(r->shape_program);
	viewer_instances_destroy(&r->particles);
	if (r->shape_buffer) gl.DeleteBuffers(1, &r->shape_buffer);
	if (r->empty_vao) gl.DeleteVertexArrays(1, &r->empty_vao);
	if (r->shape_vao) gl.DeleteVertexArrays(1, &r->shape_vao);
	if (r->field_framebuffer) gl.DeleteFramebuffers(1, &r->field_framebuffer);
	if (r->field_texture) gl.DeleteTextures(1, &r->field_texture);
	viewer_renderer3d_destroy(r->three_d);
	free(r->shapes);
	free(r);
}

/* ---- Shape building ---------------------------------------------------------------------- */

static void push_vertex(viewer_renderer* r, pdl_vec2 p, rgba color)
{
	if (r->shape_count == r->shape_capacity) {
		int capacity = r->shape_capacity ? 2 * r->shape_capacity : 1024;
		shape_vertex* grown = realloc(r->shapes, (size_t)capacity * sizeof *grown);
		if (grown == NULL) return;
		r->shapes = grown;
		r->shape_capacity = capacity;
	}
	r->shapes[r->shape_count++] = (shape_vertex){p.x, p.y, color};
}

static void push_triangle(viewer_renderer* r, pdl_vec2 a, pdl_vec2 b, pdl_vec2 c, rgba color)
{
	push_vertex(r, a, color);
	push_vertex(r, b, color);
	push_vertex(r, c, color);
}

static void push_quad(viewer_renderer* r, pdl_vec2 a, pdl_vec2 b, pdl_vec2 c, pdl_vec2 d,
                      rgba color)
{
	push_triangle(r, a, b, c, color);
	push_triangle(r, a, c, d, color);
}

/* Circles use enough segments that the edge error stays under half a pixel. */
static int circle_segments(float radius, float pixels_per_unit)
{
	float pixels = radius * pixels_per_unit;
	int n = (int)(6.2832f * sqrtf(fmaxf(pixels, 1.0f)) * 1.5f);
	return n < 16 ? 16 : (n > 256 ? 256 : n);
}

static pdl_vec2 on_circle(pdl_vec2 c, float radius, float angle)
{
	return (pdl_vec2){c.x + radius * cosf(angle), c.y + radius * sinf(angle)};
}

static void push_disc(viewer_renderer* r, pdl_vec2 c, float radius, int segments, rgba color)
{
	for (int i = 0; i < segments; ++i) {
		float a0 = 6.2831853f * (float)i / (float)segments;
		float a1 = 6.2831853f * (float)(i + 1) / (float)segments;
		push_triangle(r, c, on_circle(c, radius, a0), on_circle(c, radius, a1), color);
	}
}

static void push_ring(viewer_renderer* r, pdl_vec2 c, float inner, float outer, int segments,
                      rgba color)
{
	for (int i = 0; i < segments; ++i) {
		float a0 = 6.2831853f * (float)i / (float)segments;
		float a1 = 6.2831853f * (float)(i + 1) / (float)segments;
		push_quad(r, on_circle(c, inner, a0), on_circle(c, outer, a0), on_circle(c, outer, a1),
		          on_circle(c, inner, a1), color);
	}
}

static void push_polygon(viewer_renderer* r, const pdl_vec2* v, int n, rgba color)
{
	for (int i = 1; i + 1 < n; ++i) push_triangle(r, v[0], v[i], v[i + 1], color);
}

/* A band of the given width just outside a counter-clockwise convex polygon. */
static void push_polygon_rim(viewer_renderer* r, const pdl_vec2* v, int n, float width, rgba color)
{
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n];
		float dx = b.x - a.x, dy = b.y - a.y;
		float len = sqrtf(dx * dx + dy * dy);
		if (len <= 0) continue;
		/* outward normal of a CCW edge */
		pdl_vec2 normal = {dy / len * width, -dx / len * width};
		push_quad(r, a, b, (pdl_vec2){b.x + normal.x, b.y + normal.y},
		          (pdl_vec2){a.x + normal.x, a.y + normal.y}, color);
		push_disc(r, b, width, 8, color); /* fills the gap at the corner */
	}
}

/* The bodies, over the fluid: each filled in its colour, outlined `rim` wide in a darker shade
 * of it (the held one in a light one); a circle's spoke points along its angle. */
static void push_bodies(viewer_renderer* r, const viewer_app* app, float rim)
{
	const pdl_world* world = app->scene.world;
	float ppu = app->view.pixels_per_unit;
	pdl_body_id ids[PDL_MAX_BODIES];
	int count = pdl_world_bodies(world, ids, PDL_MAX_BODIES);
	for (int k = 0; k < count; ++k) {
		pdl_body_def def;
		if (!pdl_world_get_body(world, ids[k], &def)) continue;
		rgba fill = from_hex(def.color);
		bool held = app->input.action == VIEWER_POINTER_GRAB_BODY &&
		            viewer_body_id_equal(app->input.held_body, ids[k]);
		rgba outline = held ? body_held_outline_color
		                    : (rgba){0.55f * fill.r, 0.55f * fill.g, 0.55f * fill.b, 1.0f};
		pdl_vec2 c = viewer_vec2(def.position);
		if (def.shape == PDL_BODY_CIRCLE) {
			int segments = circle_segments(def.radius, ppu);
			push_disc(r, c, def.radius, segments, fill);
			push_ring(r, c, def.radius, def.radius + rim, segments, outline);
			pdl_vec2 tip = on_circle(c, def.radius, def.angle);
			pdl_vec2 side = {-sinf(def.angle) * 0.5f * rim, cosf(def.angle) * 0.5f * rim};
			push_quad(r, (pdl_vec2){c.x - side.x, c.y - side.y}, (pdl_vec2){tip.x - side.x, tip.y - side.y},
			          (pdl_vec2){tip.x + side.x, tip.y + side.y}, (pdl_vec2){c.x + side.x, c.y + side.y},
			          outline);
		} else {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
			int n = pdl_body_world_vertices(&def, v);
			push_polygon(r, v, n, fill);
			push_polygon_rim(r, v, n, rim, outline);
		}
	}
}

static bool is_container(pdl_boundary_kind kind)
{
	return kind == PDL_BOUNDARY_CIRCLE_CONTAINER || kind == PDL_BOUNDARY_BOX_CONTAINER;
}

/* What one shape pass draws. Containers (interior and rim) go first, under the fluid, so that
 * fluid resting on a wall is not hidden by the rim. The fluid's soft edge reaches about half
 * an h past the particles, so past the walls too: the mask pass then paints the background
 * over everything outside the rim. Obstacles, bodies and the pointer ring go last, over the
 * fluid. */
typedef enum shape_pass {
	SHAPES_CONTAINERS,
	SHAPES_OUTSIDE_MASK,
	SHAPES_OBSTACLES,
} shape_pass;

/* Everything outside a convex CCW polygon grown by `offset`: the union of one far-reaching
 * quad per edge, each covering the half-plane beyond that edge. */
static void push_polygon_exterior(viewer_renderer* r, const pdl_vec2* v, int n, float offset,
                                  float far, rgba color)
{
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n];
		float dx = b.x - a.x, dy = b.y - a.y;
		float len = sqrtf(dx * dx + dy * dy);
		if (len <= 0) continue;
		pdl_vec2 t = {dx / len, dy / len};
		pdl_vec2 nrm = {t.y, -t.x};
		pdl_vec2 a0 = {a.x - t.x * far + nrm.x * offset, a.y - t.y * far + nrm.y * offset};
		pdl_vec2 b0 = {b.x + t.x * far + nrm.x * offset, b.y + t.y * far + nrm.y * offset};
		pdl_vec2 b1 = {b0.x + nrm.x * far, b0.y + nrm.y * far};
		pdl_vec2 a1 = {a0.x + nrm.x * far, a0.y + nrm.y * far};
		push_quad(r, a0, b0, b1, a1, color);
	}
}

static void build_shapes(viewer_renderer* r, const viewer_app* app, shape_pass pass)
{
	const pdl_world* world = app->scene.world;
	const viewer_view* view = &app->view;
	float ppu = view->pixels_per_unit;
	float rim = 3.0f * view->pixel_ratio / ppu;
	/* far enough to leave the viewport from anywhere in the framed region */
	float far = 4.0f * (float)(view->viewport_width + view->viewport_height) / ppu;
	rgba inside = from_hex(app->render.inside_color);
	rgba outside = from_hex(app->render.outside_color);
	rgba obstacle = from_hex(app->render.obstacle_color);
	int limit = pdl_world_boundary_slots(world);
	r->shape_count = 0;
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		const pdl_boundary_id id = pdl_world_boundary_in_slot(world, slot);
		if (!pdl_world_get_boundary(world, id, &def)) continue;
		pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
		int n = pdl_boundary_world_vertices(&def, v);
		bool circle = def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER || def.kind == PDL_BOUNDARY_CIRCLE;
		int segments = circle ? circle_segments(def.radius, ppu) : 0;
		if (is_container(def.kind)) {
			if (pass == SHAPES_CONTAINERS && circle) {
				push_disc(r, viewer_vec2(def.position), def.radius, segments, inside);
				push_ring(r, viewer_vec2(def.position), def.radius, def.radius + rim, segments,
				          container_rim_color);
			} else if (pass == SHAPES_CONTAINERS) {
				push_polygon(r, v, n, inside);
				push_polygon_rim(r, v, n, rim, container_rim_color);
			} else if (pass == SHAPES_OUTSIDE_MASK && circle) {
				/* the ring's outer edge is coarse, but it lies far outside the viewport */
				push_ring(r, viewer_vec2(def.position), def.radius + rim, def.radius + rim + far, segments,
				          outside);
			} else if (pass == SHAPES_OUTSIDE_MASK) {
				push_polygon_exterior(r, v, n, rim, far, outside);
			}
			continue;
		}
		if (pass != SHAPES_OBSTACLES) continue;
		bool held = app->input.action == VIEWER_POINTER_DRAG_OBSTACLE &&
		            viewer_boundary_id_equal(app->input.dragged_obstacle, id);
		rgba color = held ? obstacle_held_color : obstacle;
		if (circle) push_disc(r, viewer_vec2(def.position), def.radius, segments, color);
		else push_polygon(r, v, n, color);
	}
	if (pass == SHAPES_OBSTACLES) push_bodies(r, app, 1.5f * view->pixel_ratio / ppu);
	if (pass == SHAPES_OBSTACLES && app->input.mouse_inside &&
	    app->input.action != VIEWER_POINTER_DRAG_OBSTACLE &&
	    app->input.action != VIEWER_POINTER_GRAB_BODY) {
		rgba color = app->input.action == VIEWER_POINTER_ATTRACT  ? attract_ring_color
		             : app->input.action == VIEWER_POINTER_REPEL ? repel_ring_color
		                                                          : idle_ring_color;
		float radius = viewer_pointer_radius(app);
		float width = 1.5f * view->pixel_ratio / ppu;
		push_ring(r, app->input.mouse_world, radius - width, radius, circle_segments(radius, ppu),
		          color);
	}
}

/* The outline: each contour segment a quad 1.5 pixels wide, centred on the segment. */
static void build_contours(viewer_renderer* r, const viewer_app* app)
{
	r->shape_count = 0;
	const pdl_world* world = app->scene.world;
	pdl_particle_data p = pdl_world_particles(world);
	pdl_surface_def def = pdl_surface_def_from_world(world);
	pdl_contours c;
	Uint64 start = SDL_GetPerformanceCounter();
	if (!pdl_surface_contours(&def, p.x, p.y, p.count, &c, NULL)) return;
	r->contour_ms = 1000.0 * (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
	float half = 0.75f * app->view.pixel_ratio / app->view.pixels_per_unit;
	rgba line = {0.95f, 0.97f, 1.0f, 0.9f};
	for (int k = 0; k < c.contour_count; ++k) {
		int first = c.offsets[k], end = c.offsets[k + 1];
		for (int i = first; i < end; ++i) {
			int j = i + 1 < end ? i + 1 : first;
			pdl_vec2 a = {c.x[i], c.y[i]}, b = {c.x[j], c.y[j]};
			float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
			if (!(len > 0)) continue;
			pdl_vec2 n = {-dy / len * half, dx / len * half};
			push_quad(r, (pdl_vec2){a.x - n.x, a.y - n.y}, (pdl_vec2){b.x - n.x, b.y - n.y},
			          (pdl_vec2){b.x + n.x, b.y + n.y}, (pdl_vec2){a.x + n.x, a.y + n.y}, line);
		}
	}
	pdl_contours_free(&c);
}

static void draw_shapes(viewer_renderer* r, const float scale[2], const float offset[2])
{
	if (r->shape_count == 0) return;
	gl.UseProgram(r->shape_program);
	gl.Uniform2f(r->shape_scale, scale[0], scale[1]);
	gl.Uniform2f(r->shape_offset, offset[0], offset[1]);
	gl.BindVertexArray(r->shape_vao);
	gl.BindBuffer(GL_ARRAY_BUFFER, r->shape_buffer);
	gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)r->shape_count * (GLsizeiptr)sizeof(shape_vertex),
	              r->shapes, GL_STREAM_DRAW);
	gl.DrawArrays(GL_TRIANGLES, 0, r->shape_count);
}

/* ---- Particles --------------------------------------------------------------------------- */

static void upload_particles(viewer_renderer* r, const pdl_particle_data* p)
{
	const void* arrays[PARTICLE_ARRAY_COUNT] = {p->x,       p->y,        p->vx,      p->vy,
	                                            p->density, p->pressure, p->material};
	viewer_instances_upload(&r->particles, arrays, p->count);
}

static void set_particle_uniforms(const particle_program* p, const viewer_app* app,
                                  const float scale[2], const float offset[2], float radius)
{
	gl.UseProgram(p->program);
	gl.Uniform2f(p->scale, scale[0], scale[1]);
	gl.Uniform2f(p->offset, offset[0], offset[1]);
	gl.Uniform1f(p->radius, radius);
	pdl_particle_data particles = pdl_world_particles(app->scene.world);
	viewer_color_uniforms_set(&p->colors, app, &particles);
	if (p->pixel_radius >= 0) gl.Uniform1f(p->pixel_radius, radius * app->view.pixels_per_unit);
}

static bool ensure_field(viewer_renderer* r, int width, int height)
{
	if (r->field_width == width && r->field_height == height) return true;
	gl.BindTexture(GL_TEXTURE_2D, r->field_texture);
	gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, width, height, 0, GL_RGBA, GL_FLOAT, NULL);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	gl.BindFramebuffer(GL_FRAMEBUFFER, r->field_framebuffer);
	gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->field_texture,
	                        0);
	bool complete = gl.CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	if (!complete) return false;
	r->field_width = width;
	r->field_height = height;
	return true;
}

/* The pixels (GL convention: x, y from the bottom-left, width, height) that particles of
 * radius `reach` can touch, clipped to the viewport. */
static void fluid_pixel_box(const viewer_app* app, float reach, int gl_viewport_y, int box[4])
{
	const viewer_view* view = &app->view;
	pdl_particle_data p = pdl_world_particles(app->scene.world);
	float lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
	for (int i = 0; i < p.count; ++i) {
		lo_x = fminf(lo_x, p.x[i]);
		hi_x = fmaxf(hi_x, p.x[i]);
		lo_y = fminf(lo_y, p.y[i]);
		hi_y = fmaxf(hi_y, p.y[i]);
	}
	float left, top, right, bottom;
	viewer_view_world_to_pixel(view, (pdl_vec2){lo_x - reach, hi_y + reach}, &left, &top);
	viewer_view_world_to_pixel(view, (pdl_vec2){hi_x + reach, lo_y - reach}, &right, &bottom);
	float x0 = fmaxf(floorf(left) - 1.0f, (float)view->viewport_x);
	float x1 = fminf(ceilf(right) + 1.0f, (float)(view->viewport_x + view->viewport_width));
	float y0 = fmaxf(floorf(top) - 1.0f, (float)view->viewport_y);
	float y1 = fminf(ceilf(bottom) + 1.0f, (float)(view->viewport_y + view->viewport_height));
	if (!(x1 > x0) || !(y1 > y0)) {
		box[0] = box[1] = box[2] = box[3] = 0;
		return;
	}
	/* top-down rows to GL's bottom-up rows */
	box[0] = (int)x0;
	box[1] = gl_viewport_y + (view->viewport_y + view->viewport_height - (int)y1);
	box[2] = (int)(x1 - x0);
	box[3] = (int)(y1 - y0);
}

static void draw_metaballs(viewer_renderer* r, const viewer_app* app, int count,
                           const float scale[2], const float offset[2], float h,
                           int gl_viewport_y)
{
	const viewer_view* view = &app->view;
	float field_scale = fminf(fmaxf(app->render.field_scale, 0.1f), 1.0f);
	int field_width = (int)ceilf((float)view->viewport_width * field_scale);
	int field_height = (int)ceilf((float)view->viewport_height * field_scale);
	if (!ensure_field(r, field_width, field_height)) {
		/* no float render target: fall back to dots rather than show nothing */
		set_particle_uniforms(&r->dots, app, scale, offset, app->render.dot_radius * h);
		gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
		return;
	}
	/* 1. splat: sum soft discs (colour * weight, weight) into the float field */
	gl.BindFramebuffer(GL_FRAMEBUFFER, r->field_framebuffer);
	gl.Disable(GL_SCISSOR_TEST);
	gl.Viewport(0, 0, field_width, field_height);
	gl.ClearColor(0, 0, 0, 0);
	gl.Clear(GL_COLOR_BUFFER_BIT);
	gl.BlendFunc(GL_ONE, GL_ONE);
	set_particle_uniforms(&r->splats, app, scale, offset, app->render.splat_radius * h);
	gl.BindVertexArray(r->particles.vao);
	gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);

	/* 2. threshold: back on screen, blend the surface over the container. Only the particles'
	 * bounding box (grown by the splat radius) can hold fluid: scissoring the full-screen pass
	 * to it saves most of the fill when the fluid covers a small part of the view, which is
	 * what costs on a software rasteriser. */
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.Viewport(view->viewport_x, gl_viewport_y, view->viewport_width, view->viewport_height);
	int box[4];
	fluid_pixel_box(app, app->render.splat_radius * h, gl_viewport_y, box);
	gl.Scissor(box[0], box[1], box[2], box[3]);
	gl.Enable(GL_SCISSOR_TEST);
	gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	gl.UseProgram(r->threshold_program);
	gl.ActiveTexture(GL_TEXTURE0);
	gl.BindTexture(GL_TEXTURE_2D, r->field_texture);
	gl.Uniform1i(r->threshold_field, 0);
	gl.Uniform1f(r->threshold_value, app->render.threshold);
	gl.Uniform1f(r->threshold_softness, fmaxf(app->render.edge_softness, 1e-3f));
	gl.BindVertexArray(r->empty_vao);
	if (box[2] > 0 && box[3] > 0) gl.DrawArrays(GL_TRIANGLES, 0, 3);
	gl.Scissor(view->viewport_x, gl_viewport_y, view->viewport_width, view->viewport_height);
}

void viewer_renderer_draw(viewer_renderer* r, const viewer_app* app)
{
	const viewer_view* view = &app->view;
	const pdl_world* world = app->scene.world;
	/* GL counts viewport rows from the bottom; the view counts from the top. */
	int gl_viewport_y = view->drawable_height - (view->viewport_y + view->viewport_height);
	if (app->three_d) {
		r->contour_ms = 0;
		viewer_renderer3d_draw(r->three_d, app);
		return;
	}

	gl.Viewport(0, 0, view->drawable_width, view->drawable_height);
	gl.Disable(GL_SCISSOR_TEST);
	rgba outside = from_hex(app->render.outside_color);
	gl.ClearColor(outside.r, outside.g, outside.b, 1.0f);
	gl.Clear(GL_COLOR_BUFFER_BIT);
	if (world == NULL || view->viewport_width <= 0 || view->viewport_height <= 0) return;

	gl.Viewport(view->viewport_x, gl_viewport_y, view->viewport_width, view->viewport_height);
	gl.Scissor(view->viewport_x, gl_viewport_y, view->viewport_width, view->viewport_height);
	gl.Enable(GL_SCISSOR_TEST);
	gl.Enable(GL_BLEND);
	gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

	/* world units -> clip space: the viewport's centre is view->center */
	float scale[2] = {2.0f * view->pixels_per_unit / (float)view->viewport_width,
	                  2.0f * view->pixels_per_unit / (float)view->viewport_height};
	float offset[2] = {-view->center.x * scale[0], -view->center.y * scale[1]};

	/* containers and the mask are opaque: no blending (it doubles the fill cost in software) */
	gl.Disable(GL_BLEND);
	build_shapes(r, app, SHAPES_CONTAINERS);
	draw_shapes(r, scale, offset);
	gl.Enable(GL_BLEND);

	pdl_particle_data particles = pdl_world_particles(world);
	if (particles.count > 0) {
		float h = pdl_world_get_def(world).interaction_radius;
		viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_PARTICLES);
		upload_particles(r, &particles);
		if (app->render.mode == VIEWER_RENDER_METABALL) {
			draw_metaballs(r, app, particles.count, scale, offset, h, gl_viewport_y);
		} else {
			set_particle_uniforms(&r->dots, app, scale, offset, app->render.dot_radius * h);
			gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, particles.count);
		}
		viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_SCENE);
	}

	/* the outline, like the fluid, under the mask: where it passes into a wall it is hidden */
	r->contour_ms = 0;
	if (app->render.contours) {
		build_contours(r, app);
		draw_shapes(r, scale, offset);
	}

	gl.Disable(GL_BLEND);
	build_shapes(r, app, SHAPES_OUTSIDE_MASK);
	draw_shapes(r, scale, offset);
	gl.Enable(GL_BLEND);
	gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	build_shapes(r, app, SHAPES_OBSTACLES);
	draw_shapes(r, scale, offset);

	gl.BindVertexArray(0);
	gl.UseProgram(0);
	gl.Disable(GL_SCISSOR_TEST);
	gl.Viewport(0, 0, view->drawable_width, view->drawable_height);
}
