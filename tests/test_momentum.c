/* Momentum: with no gravity and no walls every interaction is a symmetric pair (relaxation,
 * viscosity, springs, each split by inverse mass), so total momentum stays what it was, to
 * float rounding, over 1000 steps. */
#include "test.h"
#include "worlds.h"

#include <stdlib.h>

static void momentum(const pdl_world* w, double out[2], double* scale)
{
	pdl_particle_data p = pdl_world_particles(w);
	out[0] = out[1] = *scale = 0;
	for (int i = 0; i < p.count; ++i) {
		double m = pdl_world_get_material(w, p.material[i]).mass;
		out[0] += m * p.vx[i];
		out[1] += m * p.vy[i];
		*scale += m * sqrt((double)p.vx[i] * p.vx[i] + (double)p.vy[i] * p.vy[i]);
	}
}

/* Two blobs of different materials and masses (one with springs) fly into each other. */
static pdl_world* collision_world(void)
{
	pdl_material_def light = pdl_default_material_def();
	light.viscosity_sigma = 1.0f;
	light.viscosity_beta = 0.3f;
	pdl_world* w = worlds_create(2, &light);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 3.0f;
	heavy.spring_stiffness = 200.0f;
	heavy.plasticity = 0.5f;
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	pdl_fill_def a = pdl_default_fill_def();
	a.shape = PDL_FILL_DISC;
	a.radius = 4;
	a.position = (pdl_vec3){-6, 0.5f};
	a.velocity = (pdl_vec3){6, 0};
	pdl_world_fill(w, &a, NULL);
	pdl_fill_def b = a;
	b.material = heavy_id;
	b.position = (pdl_vec3){6, -0.5f};
	b.velocity = (pdl_vec3){-3, 1};
	pdl_world_fill(w, &b, NULL);
	/* two particles at the same spot: the coincident-pair direction must conserve too */
	pdl_fill_def c = pdl_default_fill_def();
	c.shape = PDL_FILL_POINT;
	c.count = 3;
	c.position = (pdl_vec3){-6, 0.5f};
	pdl_world_fill(w, &c, NULL);
	return w;
}

static void test_momentum_conserved_over_1000_steps(void)
{
	pdl_world* w = collision_world();
	double p0[2], p1[2], scale;
	momentum(w, p0, &scale);
	double max_drift = 0;
	for (int s = 0; s < worlds_steps(1000); ++s) {
		pdl_world_step(w);
		momentum(w, p1, &scale);
		double drift = hypot(p1[0] - p0[0], p1[1] - p0[1]);
		if (drift > max_drift) max_drift = drift;
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  %d particles, %d springs, momentum (%.6f, %.6f) -> (%.6f, %.6f), max drift %.3g of sum m|v| %.1f\n",
	       st.particles, st.springs, p0[0], p0[1], p1[0], p1[1], max_drift, scale);
	ENSURE(st.springs > 0);     /* the springs really took part */
	ENSURE(st.non_finite == 0);
	/* float rounding: each step rounds every position (relative 6e-8) and divides by dt */
	ENSURE_MSG(max_drift < 1e-4 * scale, "drift %g, scale %g", max_drift, scale);
	pdl_world_destroy(w);
}

static void test_centre_of_mass_moves_uniformly(void)
{
	/* with momentum conserved the centre of mass moves in a straight line at constant speed */
	pdl_world* w = collision_world();
	pdl_vec3 c0 = pdl_world_stats(w).centre_of_mass;
	for (int s = 0; s < 300; ++s) pdl_world_step(w);
	pdl_stats st = pdl_world_stats(w);
	double total_mass = 0, px = 0, py = 0;
	pdl_particle_data p = pdl_world_particles(w);
	for (int i = 0; i < p.count; ++i) {
		double m = pdl_world_get_material(w, p.material[i]).mass;
		total_mass += m;
		px += m * p.vx[i];
		py += m * p.vy[i];
	}
	double t = 300.0 / 60.0;
	double ex = c0.x + px / total_mass * t, ey = c0.y + py / total_mass * t;
	ENSURE_MSG(hypot(st.centre_of_mass.x - ex, st.centre_of_mass.y - ey) < 1e-3,
	           "centre (%g, %g), expected (%g, %g)", st.centre_of_mass.x, st.centre_of_mass.y, ex, ey);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_momentum_conserved_over_1000_steps);
	RUN_TEST(test_centre_of_mass_moves_uniformly);
	return TEST_SUMMARY();
}
