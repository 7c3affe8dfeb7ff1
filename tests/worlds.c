#include "worlds.h"
#include "test_env.h"

#include <stdio.h>
#include <stdlib.h>

pdl_world* worlds_solver_create(int threads, int dimensions, pdl_solver_kind solver, const pdl_material_def* material)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.threads = threads;
	wd.dimensions = dimensions;
	wd.solver = solver;
	pdl_error err;
	pdl_world* w = pdl_world_create(&wd, &err);
	pdl_material_def md = material ? *material : pdl_default_material_def();
	if (!w || pdl_world_add_material(w, &md, &err) < 0) {
		fprintf(stderr, "worlds_solver_create: %s\n", err.message);
		exit(3);
	}
	return w;
}

pdl_world* worlds_create(int threads, const pdl_material_def* material)
{
	return worlds_solver_create(threads, 2, PDL_SOLVER_CLAVET, material);
}

static pdl_boundary_id add_container(pdl_world* w, pdl_boundary_def* bd)
{
	pdl_error err;
	pdl_boundary_id id = pdl_world_add_boundary(w, bd, &err);
	if (id.index < 0) {
		fprintf(stderr, "add_container: %s\n", err.message);
		exit(3);
	}
	return id;
}

pdl_boundary_id worlds_add_box_container(pdl_world* w, float hx, float hy)
{
	pdl_boundary_def bd = pdl_default_boundary_def();
	bd.kind = PDL_BOUNDARY_BOX_CONTAINER;
	bd.half_extents = (pdl_vec3){hx, hy};
	bd.friction = 0.2f;
	return add_container(w, &bd);
}

pdl_boundary_id worlds_add_circle_container(pdl_world* w, float r)
{
	pdl_boundary_def bd = pdl_default_boundary_def();
	bd.kind = PDL_BOUNDARY_CIRCLE_CONTAINER;
	bd.radius = r;
	bd.friction = 0.2f;
	return add_container(w, &bd);
}

int worlds_fill_box(pdl_world* w, int material, float cx, float cy, float hx, float hy)
{
	pdl_fill_def fd = pdl_default_fill_def();
	fd.material = material;
	fd.position = (pdl_vec3){cx, cy};
	fd.half_extents = (pdl_vec3){hx, hy};
	pdl_error err;
	int n = pdl_world_fill(w, &fd, &err);
	if (n < 0) {
		fprintf(stderr, "fill: %s\n", err.message);
		exit(3);
	}
	return n;
}

pdl_boundary_id worlds_add_triangle(pdl_world* w, float x, float y)
{
	pdl_boundary_def tri = pdl_default_boundary_def();
	tri.kind = PDL_BOUNDARY_POLYGON;
	tri.position = (pdl_vec3){x, y};
	tri.vertex_count = 3;
	tri.vertices[0] = (pdl_vec2){-3, 0};
	tri.vertices[1] = (pdl_vec2){3, 0};
	tri.vertices[2] = (pdl_vec2){0, 2};
	return pdl_world_add_boundary(w, &tri, NULL);
}

pdl_world* worlds_dam_break(int threads)
{
	pdl_world* w = worlds_create(threads, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 2.0f;
	heavy.rest_density = 5.0f;
	pdl_material_def slime = pdl_default_material_def();
	slime.spring_stiffness = 300.0f;
	slime.plasticity = 0.5f;
	slime.viscosity_sigma = 1.0f;
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	int slime_id = pdl_world_add_material(w, &slime, NULL);
	worlds_add_box_container(w, 25, 15);
	worlds_fill_box(w, 0, -19, -5, 5, 9);
	worlds_fill_box(w, heavy_id, 15, -12, 8, 2.5f);
	pdl_fill_def blob = pdl_default_fill_def();
	blob.shape = PDL_FILL_DISC;
	blob.material = slime_id;
	blob.position = (pdl_vec3){5, 8};
	blob.radius = 3;
	pdl_world_fill(w, &blob, NULL);
	pdl_boundary_def box = pdl_default_boundary_def();
	box.position = (pdl_vec3){-3, -10};
	box.half_extents = (pdl_vec3){1.5f, 3};
	box.angle = 0.3f;
	pdl_world_add_boundary(w, &box, NULL);
	worlds_add_triangle(w, 8, 0);
	pdl_pointer ptr = pdl_default_pointer();
	ptr.position = (pdl_vec3){-10, -10};
	ptr.velocity = (pdl_vec3){20, 0};
	ptr.drag = 5.0f;
	pdl_world_set_pointer(w, 0, &ptr, NULL);
	return w;
}

pdl_world* worlds_sph_create(int threads) { return worlds_solver_create(threads, 2, PDL_SOLVER_SPH, NULL); }

pdl_world* worlds_sph_dam_break(int threads)
{
	pdl_world* w = worlds_sph_create(threads);
	pdl_world_def d = pdl_world_get_def(w);
	d.sph.surface_tension = 10;
	pdl_world_set_def(w, &d, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 2.0f;
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	worlds_add_box_container(w, 16, 10);
	worlds_fill_box(w, 0, -11, -1, 5, 9);
	worlds_fill_box(w, heavy_id, 9, -8.5f, 4, 1.4f);
	pdl_boundary_def box = pdl_default_boundary_def();
	box.position = (pdl_vec3){-2, -8};
	box.half_extents = (pdl_vec3){1, 2};
	box.angle = 0.3f;
	pdl_world_add_boundary(w, &box, NULL);
	pdl_boundary_def tri = pdl_default_boundary_def();
	tri.kind = PDL_BOUNDARY_POLYGON;
	tri.position = (pdl_vec3){4, 2};
	tri.vertex_count = 3;
	tri.vertices[0] = (pdl_vec2){-2, 0};
	tri.vertices[1] = (pdl_vec2){2, 0};
	tri.vertices[2] = (pdl_vec2){0, 1.5f};
	pdl_world_add_boundary(w, &tri, NULL);
	pdl_pointer ptr = pdl_default_pointer();
	ptr.position = (pdl_vec3){-6, -6};
	ptr.velocity = (pdl_vec3){15, 0};
	ptr.drag = 3.0f;
	ptr.strength = 30.0f;
	pdl_world_set_pointer(w, 0, &ptr, NULL);
	return w;
}

void worlds_y_range(const pdl_world* w, float* ymin, float* ymax)
{
	pdl_particle_data p = pdl_world_particles(w);
	*ymin = 1e30f;
	*ymax = -1e30f;
	for (int i = 0; i < p.count; ++i) {
		if (p.y[i] < *ymin) *ymin = p.y[i];
		if (p.y[i] > *ymax) *ymax = p.y[i];
	}
}

bool worlds_quick(void) { return test_quick(); }

int worlds_steps(int full)
{
	if (!worlds_quick()) return full;
	/* TSan: a twentieth, at least 10: every stage runs on both threads in each step, and TSan
	 * makes a step 50 to 150 times slower, so its suite was half of make test's time */
	int part = test_tsan() ? 20 : 6, least = test_tsan() ? 10 : 30;
	return full / part > least ? full / part : least;
}

int worlds_settle_steps(int full) { return worlds_quick() ? 10 : full; }

pdl_world* worlds_3d_create(int threads, pdl_solver_kind solver, const pdl_material_def* material)
{
	return worlds_solver_create(threads, 3, solver, material);
}

pdl_world* worlds_dam_break_3d(int threads, pdl_solver_kind solver)
{
	pdl_world* w = worlds_3d_create(threads, solver, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.substeps = 2;
	pdl_world_set_def(w, &d, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 2.0f;
	heavy.spring_stiffness = solver == PDL_SOLVER_CLAVET ? 150.0f : 0.0f;
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){8, 5, 4};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_boundary_def ball = pdl_default_boundary_def();
	ball.kind = PDL_BOUNDARY_CIRCLE;
	ball.position = (pdl_vec3){2, -4, 0};
	ball.radius = 1.5f;
	pdl_world_add_boundary(w, &ball, NULL);
	pdl_boundary_def box = pdl_default_boundary_def();
	box.position = (pdl_vec3){5, -4, 1};
	box.half_extents = (pdl_vec3){0.8f, 1, 1.5f};
	box.angle = 0.4f;
	pdl_world_add_boundary(w, &box, NULL);
	pdl_fill_def column = pdl_default_fill_def();
	column.position = (pdl_vec3){-6, -1.5f, 0};
	column.half_extents = (pdl_vec3){2, 3.5f, 4};
	pdl_world_fill(w, &column, NULL);
	pdl_fill_def blob = pdl_default_fill_def();
	blob.shape = PDL_FILL_DISC;
	blob.material = heavy_id;
	blob.position = (pdl_vec3){0, 2, 0.5f};
	blob.radius = 1.5f;
	blob.velocity = (pdl_vec3){1, 0, -2};
	pdl_world_fill(w, &blob, NULL);
	/* a pointer ray from the front, stirring */
	pdl_pointer ray = pdl_default_pointer();
	ray.position = (pdl_vec3){-4, -2, 10};
	ray.direction = (pdl_vec3){0.1f, 0, -1};
	ray.radius = 2;
	ray.strength = -60;
	ray.drag = 2;
	ray.velocity = (pdl_vec3){3, 0, 0};
	pdl_world_set_pointer(w, 0, &ray, NULL);
	return w;
}
