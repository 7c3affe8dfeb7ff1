/* Time: k and k_near are accelerations, so the fluid is the same liquid whether a frame is
 * one solver step or eight (the trap of the Rust stratification demo, where a per-step
 * stiffness turned water into gas when dt changed). */
#include "test.h"
#include "worlds.h"

#include <math.h>

typedef struct pool_shape {
	float depth, interior_density, neighbours;
} pool_shape;

static pool_shape settle(int substeps, float dt)
{
	pdl_world* w = worlds_create(2, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.substeps = substeps;
	d.dt = dt;
	pdl_world_set_def(w, &d, NULL);
	worlds_add_box_container(w, 10, 10);
	worlds_fill_box(w, 0, -5, -5, 5, 5);
	int frames = worlds_steps((int)(12.0f / dt)); /* 12 simulated seconds */
	for (int s = 0; s < frames; ++s) pdl_world_step(w);
	float ymin, ymax;
	worlds_y_range(w, &ymin, &ymax);
	pdl_particle_data p = pdl_world_particles(w);
	double sum = 0;
	int n = 0;
	for (int i = 0; i < p.count; ++i)
		if (p.y[i] < ymax - 1.5f && p.y[i] > -9 && fabsf(p.x[i]) < 9) {
			sum += p.density[i];
			n++;
		}
	pool_shape r = {ymax - ymin, (float)(sum / n), pdl_world_stats(w).mean_neighbours};
	pdl_world_destroy(w);
	return r;
}

static void test_substeps_keep_the_same_liquid(void)
{
	pool_shape one = settle(1, 1.0f / 60.0f);
	pool_shape two = settle(2, 1.0f / 60.0f);
	pool_shape eight = settle(8, 1.0f / 60.0f);
	pool_shape small_dt = settle(1, 1.0f / 240.0f);
	printf("  substeps 1: depth %.2f density %.2f neighbours %.1f\n", one.depth, one.interior_density, one.neighbours);
	printf("  substeps 2: depth %.2f density %.2f neighbours %.1f\n", two.depth, two.interior_density, two.neighbours);
	printf("  substeps 8: depth %.2f density %.2f neighbours %.1f\n", eight.depth, eight.interior_density, eight.neighbours);
	printf("  dt 1/240:   depth %.2f density %.2f neighbours %.1f\n", small_dt.depth, small_dt.interior_density, small_dt.neighbours);
	if (worlds_quick()) return; /* not settled yet: only the full run compares the pools */
	pool_shape all[3] = {two, eight, small_dt};
	for (int k = 0; k < 3; ++k) {
		/* a gas would fill the 20 x 20 box; the liquid keeps its depth and density */
		ENSURE(fabsf(all[k].depth / one.depth - 1) < 0.15f);
		ENSURE(fabsf(all[k].interior_density / one.interior_density - 1) < 0.1f);
	}
}

static void test_frame_is_substeps_solver_steps(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.substeps = 4;
	pdl_world_set_def(w, &d, NULL);
	pdl_world_step(w);
	pdl_world_step(w);
	ENSURE(pdl_world_step_count(w) == 8);
	ENSURE(fabs(pdl_world_time(w) - 2.0 / 60.0) < 1e-6);
	pdl_world_set_clock(w, 10.0, 600);
	ENSURE(pdl_world_time(w) == 10.0 && pdl_world_step_count(w) == 600);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_substeps_keep_the_same_liquid);
	RUN_TEST(test_frame_is_substeps_solver_steps);
	return TEST_SUMMARY();
}
