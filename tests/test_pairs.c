/* Relaxation over each neighbour pair once (src/relax_loops.h): a particle visits only the
 * candidates after it and adds every pair's share to both, slab by slab. These cases check the
 * sums against a direct sum over all pairs, and the shares against momentum, in 2D and 3D, with
 * two materials of different masses (unequal shares), clumps of very different sizes (slabs of
 * very different sizes, rows with many particles) and particles at the very same place. */
#include "test.h"
#include "worlds.h"

#include "../src/core.h" /* the grid's axes */

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COUNT = 4000 };

static float uniform(uint32_t* s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) / 16777216.0f;
}

typedef struct cloud {
	float x[COUNT], y[COUNT], z[COUNT], vx[COUNT], vy[COUNT], vz[COUNT];
	uint8_t material[COUNT];
} cloud;

/* Particles in a 40 x 20 (x 10) region: a dense clump, a long flat strip, a small clump, sparse
 * ones, and every 97th particle put exactly on the one before it. Random velocities, so the
 * viscosity impulses act. */
static void make_cloud(cloud* c, bool three, float spacing)
{
	uint32_t seed = three ? 7u : 3u;
	for (int i = 0; i < COUNT; ++i) {
		float u = uniform(&seed), v = uniform(&seed), t = uniform(&seed);
		int part = i % 4;
		if (part == 0) { /* dense clump */
			c->x[i] = -12 + 8 * u, c->y[i] = -6 + 8 * v, c->z[i] = -2 + 4 * t;
		} else if (part == 1) { /* flat strip: rows full of particles */
			c->x[i] = -19 + 38 * u, c->y[i] = 2 + 1.5f * v, c->z[i] = -1 + 2 * t;
		} else if (part == 2) { /* small clump */
			c->x[i] = 10 + 3 * u, c->y[i] = -8 + 3 * v, c->z[i] = 1 + 3 * t;
		} else { /* sparse */
			c->x[i] = -19 + 38 * u, c->y[i] = -9 + 18 * v, c->z[i] = -4.5f + 9 * t;
		}
		/* about the rest spacing in the clumps, so pressures are moderate */
		c->x[i] *= spacing * 2.2f, c->y[i] *= spacing * 2.2f, c->z[i] *= spacing * 2.2f;
		c->vx[i] = uniform(&seed) - 0.5f, c->vy[i] = uniform(&seed) - 0.5f, c->vz[i] = uniform(&seed) - 0.5f;
		c->material[i] = (uint8_t)(uniform(&seed) < 0.3f);
		if (i % 97 == 96) { /* at the very same place as particle i - 1 */
			c->x[i] = c->x[i - 1], c->y[i] = c->y[i - 1], c->z[i] = c->z[i - 1];
		}
	}
}

/* Moves the cloud's x values to y, y to z and z to x, `turns` times, so that its widest extent (40
 * along x) lies along x, y or z: the 3D grid cuts its slabs across its widest axis (grid.h,
 * axis_of). */
static void turn_axes(cloud* c, int turns)
{
	static float t[COUNT];
	for (int k = 0; k < turns; ++k) {
		float* axes[2][3] = {{c->x, c->y, c->z}, {c->vx, c->vy, c->vz}};
		for (int a = 0; a < 2; ++a) {
			memcpy(t, axes[a][2], sizeof t);
			memcpy(axes[a][2], axes[a][1], sizeof t);
			memcpy(axes[a][1], axes[a][0], sizeof t);
			memcpy(axes[a][0], t, sizeof t);
		}
	}
}

static pdl_world* cloud_world(const cloud* c, bool three)
{
	pdl_world* w = three ? worlds_3d_create(2, PDL_SOLVER_CLAVET, NULL) : worlds_create(2, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 3.0f;
	heavy.viscosity_sigma = 0.8f;
	heavy.viscosity_beta = 0.3f;
	pdl_error err;
	if (pdl_world_add_material(w, &heavy, &err) != 1) {
		fprintf(stderr, "add_material: %s\n", err.message);
		pdl_world_destroy(w);
		return NULL;
	}
	pdl_particle_data data = {.count = COUNT, .x = c->x, .y = c->y, .vx = c->vx, .vy = c->vy,
	                          .material = c->material};
	if (three) data.z = c->z, data.vz = c->vz;
	if (pdl_world_set_particles(w, &data, &err) != PDL_OK) {
		fprintf(stderr, "set_particles: %s\n", err.message);
		pdl_world_destroy(w);
		return NULL;
	}
	return w;
}

static void check_pairs(bool three, int turns)
{
	static cloud c;
	float h = 1.0f;
	make_cloud(&c, three, three ? pdl_rest_spacing_3d(h, 4) : pdl_rest_spacing(h, 4));
	turn_axes(&c, turns);
	pdl_world* w = cloud_world(&c, three);
	ENSURE(w);
	pdl_world_def def = pdl_world_get_def(w);
	ENSURE(def.interaction_radius == h && def.substeps == 1);
	float dt = def.dt;
	float mass[2] = {pdl_world_get_material(w, 0).mass, pdl_world_get_material(w, 1).mass};
	/* the predicted positions, as the step computes them (x += dt v; no gravity, no pointer) */
	static float px[COUNT], py[COUNT], pz[COUNT];
	double momentum[3] = {0, 0, 0}, scale = 0;
	for (int i = 0; i < COUNT; ++i) {
		px[i] = c.x[i] + dt * c.vx[i];
		py[i] = c.y[i] + dt * c.vy[i];
		pz[i] = three ? c.z[i] + dt * c.vz[i] : 0;
		double m = mass[c.material[i]];
		momentum[0] += m * c.vx[i], momentum[1] += m * c.vy[i], momentum[2] += three ? m * c.vz[i] : 0;
		scale += m * sqrt(c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i] + (three ? c.vz[i] * c.vz[i] : 0));
	}
	pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	ENSURE(p.count == COUNT);
	if (three) /* the slabs were cut across the widest axis, the one this case means to test */
		ENSURE_MSG(w->grid.dense && w->grid.axis_of[2] == turns, "grid axes %d %d %d",
		           w->grid.axis_of[0], w->grid.axis_of[1], w->grid.axis_of[2]);

	/* densities: sum_j (1 - r/h)^2 over every other particle within h (Clavet eq. 1) */
	int checked = 0, crowded = 0;
	for (int k = 0; k < COUNT; ++k) {
		int i = (int)p.id[k]; /* ids are the input order */
		ENSURE(i >= 0 && i < COUNT);
		double rho = 0;
		int near = 0;
		for (int j = 0; j < COUNT; ++j) {
			if (j == i) continue;
			double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
			double r = sqrt(dx * dx + dy * dy + dz * dz);
			if (r < h) rho += (1 - r / h) * (1 - r / h), near++;
		}
		ENSURE_MSG(fabs(p.density[k] - rho) <= 1e-4 * (1 + rho), "particle %d: density %.7g, direct sum %.7g",
		           i, p.density[k], rho);
		checked++;
		crowded += near >= 20;
	}
	ENSURE(checked == COUNT && crowded > COUNT / 4); /* real neighbourhoods, not an empty cloud */

	/* the new positions: Clavet alg. 2 and 5 summed directly over all pairs, in double (pairs
	 * at the same place take a fixed direction: those particles are left out) */
	pdl_material_def md[2] = {pdl_world_get_material(w, 0), pdl_world_get_material(w, 1)};
	static double rho_of[COUNT], near_of[COUNT];
	for (int i = 0; i < COUNT; ++i) {
		rho_of[i] = near_of[i] = 0;
		for (int j = 0; j < COUNT; ++j) {
			double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
			double r = sqrt(dx * dx + dy * dy + dz * dz);
			if (j == i || r >= h) continue;
			rho_of[i] += (1 - r / h) * (1 - r / h);
			near_of[i] += (1 - r / h) * (1 - r / h) * (1 - r / h);
		}
	}
	int compared = 0;
	for (int k = 0; k < COUNT; ++k) {
		int i = (int)p.id[k];
		if (i % 97 == 96 || i % 97 == 95) continue;
		const pdl_material_def* mi = &md[c.material[i]];
		double pi = mi->stiffness * (rho_of[i] - mi->rest_density), ni = mi->near_stiffness * near_of[i];
		double move[3] = {0, 0, 0}, size = 0; /* size: the sum of the terms' magnitudes */
		for (int j = 0; j < COUNT; ++j) {
			double d3[3] = {px[j] - px[i], py[j] - py[i], pz[j] - pz[i]};
			double r = sqrt(d3[0] * d3[0] + d3[1] * d3[1] + d3[2] * d3[2]);
			if (j == i || r >= h || r == 0) continue;
			const pdl_material_def* mj = &md[c.material[j]];
			double q = r / h, share = mass[c.material[j]] / (mass[c.material[i]] + mass[c.material[j]]);
			double pj = mj->stiffness * (rho_of[j] - mj->rest_density), nj = mj->near_stiffness * near_of[j];
			double D = (double)dt * dt * ((pi + pj) * (1 - q) + (ni + nj) * (1 - q) * (1 - q));
			double vi[3] = {c.vx[i], c.vy[i], three ? c.vz[i] : 0}, vj[3] = {c.vx[j], c.vy[j], three ? c.vz[j] : 0};
			double u = ((vi[0] - vj[0]) * d3[0] + (vi[1] - vj[1]) * d3[1] + (vi[2] - vj[2]) * d3[2]) / r;
			double impulse = 0;
			if (u > 0) {
				double sigma = 0.5 * (mi->viscosity_sigma + mj->viscosity_sigma);
				double beta = 0.5 * (mi->viscosity_beta + mj->viscosity_beta);
				impulse = fmin(dt * (1 - q) * (sigma * u + beta * u * u), u);
			}
			for (int a = 0; a < 3; ++a) move[a] -= (D + dt * impulse) * share * d3[a] / r;
			size += fabs(D + dt * impulse) * share;
		}
		double want[3] = {px[i] + move[0], py[i] + move[1], pz[i] + move[2]};
		double got[3] = {p.x[k], p.y[k], three ? p.z[k] : 0};
		for (int a = 0; a < 3; ++a)
			/* float sums: a few units in the last place of the position and of each term */
			ENSURE_MSG(fabs(got[a] - want[a]) < 1e-6 * (fabs(want[a]) + size) + 1e-6,
			           "particle %d axis %d: at %.7g, direct sum %.7g (terms %.3g)", i, a, got[a], want[a], size);
		compared++;
	}
	ENSURE(compared > COUNT * 9 / 10);

	/* every pair's shares cancel: total momentum unchanged (relaxation and viscosity) */
	double after[3] = {0, 0, 0}, moved = 0;
	for (int k = 0; k < COUNT; ++k) {
		double m = mass[p.material[k]];
		after[0] += m * p.vx[k], after[1] += m * p.vy[k], after[2] += three ? m * p.vz[k] : 0;
		int i = (int)p.id[k];
		moved += fabs(p.vx[k] - c.vx[i]) + fabs(p.vy[k] - c.vy[i]);
	}
	ENSURE(moved > 1.0); /* relaxation did move the particles */
	for (int a = 0; a < 3; ++a)
		ENSURE_MSG(fabs(after[a] - momentum[a]) < 1e-4 * scale, "momentum %d: %.7g before, %.7g after (scale %.4g)",
		           a, momentum[a], after[a], scale);
	pdl_world_destroy(w);
}

static void test_pairs_2d(void) { check_pairs(false, 0); }

/* The same cloud widest along x, y and z: the grid's layers (slabs) cut across each world axis
 * in turn. */
static void test_pairs_3d_wide_in_x(void) { check_pairs(true, 0); }

static void test_pairs_3d_wide_in_y(void) { check_pairs(true, 1); }

static void test_pairs_3d_wide_in_z(void) { check_pairs(true, 2); }

int main(void)
{
	RUN_TEST(test_pairs_2d);
	RUN_TEST(test_pairs_3d_wide_in_x);
	RUN_TEST(test_pairs_3d_wide_in_y);
	RUN_TEST(test_pairs_3d_wide_in_z);
	return TEST_SUMMARY();
}
