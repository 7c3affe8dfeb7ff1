/* A resting pool settles: its density is within 5% of the rest density and it comes to rest
 * (max speed below 1% of the shallow-water wave speed sqrt(g H)). */
#include "test.h"
#include "worlds.h"

#include <math.h>

static void test_resting_pool_settles(void)
{
	pdl_material_def water = pdl_default_material_def();
	water.viscosity_sigma = 2.0f; /* a little linear damping so sloshing dies within the test */
	pdl_world* w = worlds_create(2, &water);
	const float hx = 15, hy = 12;
	worlds_add_box_container(w, hx, hy);
	worlds_fill_box(w, 0, 0, -hy + 4, hx, 4);
	const float g = 10;
	for (int s = 0; s < worlds_steps(1800); ++s) pdl_world_step(w);
	float ymin, ymax;
	worlds_y_range(w, &ymin, &ymax);
	float depth = ymax - ymin;
	/* density of the interior: more than h from the free surface and the walls (particles at
	 * the surface have neighbours on one side only and are thin by nature) */
	pdl_particle_data p = pdl_world_particles(w);
	double sum = 0;
	int n = 0;
	for (int i = 0; i < p.count; ++i) {
		if (p.y[i] > ymax - 1.5f || p.y[i] < -hy + 1.0f || fabsf(p.x[i]) > hx - 1.0f) continue;
		sum += p.density[i];
		n++;
	}
	double mean = sum / n, rho0 = water.rest_density;
	pdl_stats st = pdl_world_stats(w);
	double limit = 0.01 * sqrt(g * depth);
	printf("  %d particles, depth %.2f, interior mean density %.3f (rest %.1f, %+.1f%%), max speed %.4f (limit %.4f)\n",
	       p.count, depth, mean, rho0, 100 * (mean / rho0 - 1), st.max_speed, limit);
	pdl_world_destroy(w); /* (before the quick return: the sanitizer build checks for leaks) */
	ENSURE(n > p.count / 2);
	if (worlds_quick()) return; /* not settled yet: only the full run asserts the physics */
	ENSURE_MSG(fabs(mean / rho0 - 1) < 0.05, "mean density %g", mean);
	ENSURE_MSG(st.max_speed < limit, "max speed %g", st.max_speed);
}

int main(void)
{
	RUN_TEST(test_resting_pool_settles);
	return TEST_SUMMARY();
}
