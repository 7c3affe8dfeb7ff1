/* The validation worlds: each solver's settings, tanks, fills and running. */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const vsolver validate_solvers[] = {
	{"clavet", PDL_SOLVER_CLAVET},
	{"sph", PDL_SOLVER_SPH},
#ifdef VALIDATE_HAVE_DFSPH
	{"dfsph", PDL_SOLVER_DFSPH},
#endif
};
const int validate_solver_count = (int)(sizeof validate_solvers / sizeof validate_solvers[0]);

/* Clavet's water is the "stiff water" of the engine's Archimedes tests (tests/test_bodies.c):
 * k = 150 h/s^2, k_near = 75, two substeps a frame (k dt_sub^2 = 0.010, inside the 0.02 that
 * stays stable, docs/physics.md "Time step"). At the default k = 60 a pool 15 h deep squeezes
 * by over 10 % at its floor; at 150 by a few percent, which the pool case states. Viscosity is
 * the default (sigma 0.5 1/s, beta 0.1 1/h). The SPH solvers' water is the default material:
 * their rest density follows from mass and rest spacing. */
pdl_material_def vworld_water(const vsolver* solver)
{
	pdl_material_def m = pdl_default_material_def();
	if (solver->kind == PDL_SOLVER_CLAVET) {
		m.stiffness = 150.0f;
		m.near_stiffness = 75.0f;
	}
	return m;
}

pdl_world* vworld_create(const vsolver* solver, const voptions* opt, int dims, float deepest,
                         const pdl_material_def* water)
{
	pdl_world_def d = pdl_default_world_def();
	d.dimensions = dims;
	d.threads = opt->threads;
	d.solver = solver->kind;
	if (solver->kind == PDL_SOLVER_CLAVET) d.substeps = 2;
	/* Weakly compressible SPH: the speed of sound from Monaghan 1994 ("Simulating free surface
	 * flows with SPH", J. Comput. Phys. 110, 399), c^2 = 200 g H for water H deep: a fall from
	 * H reaches sqrt(2 g H), a tenth of c, so the density varies by about 1 %. Never below the
	 * default 100 h/s. DFSPH has no speed of sound (incompressible); the field is unused. */
	double c = sqrt(200.0 * 10.0 * deepest);
	if (solver->kind == PDL_SOLVER_SPH && c > d.sph.speed_of_sound) d.sph.speed_of_sound = (float)c;
	/* Bigger worlds than the default 4M would never be asked for here. */
	pdl_error err;
	pdl_world* w = pdl_world_create(&d, &err);
	pdl_material_def m = water ? *water : vworld_water(solver);
	if (!w || pdl_world_add_material(w, &m, &err) < 0) {
		fprintf(stderr, "puddle-validate: %s world refused: %s\n", solver->name, err.message);
		exit(2);
	}
	return w;
}

/* The centre and half extents of the box with corners lo and hi. */
static void box_from_corners(pdl_vec3 lo, pdl_vec3 hi, pdl_vec3* centre, pdl_vec3* half)
{
	*centre = (pdl_vec3){0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y), 0.5f * (lo.z + hi.z)};
	*half = (pdl_vec3){0.5f * (hi.x - lo.x), 0.5f * (hi.y - lo.y), 0.5f * (hi.z - lo.z)};
}

pdl_boundary_id vworld_add_tank(pdl_world* w, pdl_vec3 lo, pdl_vec3 hi)
{
	pdl_boundary_def b = pdl_default_boundary_def();
	b.kind = PDL_BOUNDARY_BOX_CONTAINER;
	box_from_corners(lo, hi, &b.position, &b.half_extents);
	pdl_error err;
	pdl_boundary_id id = pdl_world_add_boundary(w, &b, &err);
	if (id.index < 0) {
		fprintf(stderr, "puddle-validate: tank refused: %s\n", err.message);
		exit(2);
	}
	return id;
}

int vworld_fill_box(pdl_world* w, int material, pdl_vec3 lo, pdl_vec3 hi)
{
	pdl_fill_def f = pdl_default_fill_def();
	f.material = material;
	box_from_corners(lo, hi, &f.position, &f.half_extents);
	pdl_error err;
	int n = pdl_world_fill(w, &f, &err);
	if (n < 0) {
		fprintf(stderr, "puddle-validate: fill refused: %s\n", err.message);
		exit(2);
	}
	return n;
}

void vworld_run(pdl_world* w, double seconds)
{
	const double frame = pdl_world_get_def(w).dt;
	long frames = lround(seconds / frame);
	for (long k = 0; k < frames; ++k) pdl_world_step(w);
}

bool vworld_intact(pdl_world* w, int expected, const char* solver, const char* case_name)
{
	pdl_stats st = pdl_world_stats(w);
	if (st.particles == expected && st.non_finite == 0) return true;
	char what[128];
	snprintf(what, sizeof what, "%d of %d particles left, %d not finite", st.particles, expected, st.non_finite);
	vreport_error(solver, case_name, what);
	return false;
}

/* A private copy of n floats (or NULL): pdl_world_set_particles copies its input into the world's
 * own arrays, which must not be the same memory. */
static float* copy_floats(const float* from, int n)
{
	if (!from) return NULL;
	float* to = malloc((size_t)(n > 0 ? n : 1) * sizeof *to);
	if (n > 0) memcpy(to, from, (size_t)n * sizeof *to);
	return to;
}

void vworld_rewrite(pdl_world* w, const float* vx, const float* vy, const uint8_t* material)
{
	const pdl_particle_data p = pdl_world_particles(w);
	const int n = p.count;
	float *x = copy_floats(p.x, n), *y = copy_floats(p.y, n), *z = copy_floats(p.z, n);
	float *u = copy_floats(vx ? vx : p.vx, n), *v = copy_floats(vy ? vy : p.vy, n), *wz = copy_floats(p.vz, n);
	uint8_t* m = malloc((size_t)(n > 0 ? n : 1));
	uint32_t* id = malloc((size_t)(n > 0 ? n : 1) * sizeof *id);
	if (n > 0) memcpy(m, material ? material : p.material, (size_t)n), memcpy(id, p.id, (size_t)n * sizeof *id);
	pdl_particle_data d = {.count = n, .x = x, .y = y, .z = z, .vx = u, .vy = v, .vz = wz, .material = m, .id = id,
	                       .next_id = p.next_id};
	pdl_error err;
	pdl_error_id refused = pdl_world_set_particles(w, &d, &err);
	free(x), free(y), free(z), free(u), free(v), free(wz), free(m), free(id);
	if (refused) {
		fprintf(stderr, "puddle-validate: particles refused: %s\n", err.message);
		exit(2);
	}
}
