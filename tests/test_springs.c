/* Viscoelastic springs (Clavet 2005 section 4): a blob with springs dropped on the floor
 * bounces and keeps its shape better than the same blob without springs; plastic springs
 * let it flow; springs are removed with their particles. */
#include "test.h"
#include "worlds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct drop_result {
	float width, height;  /* extent of the bulk after landing (bulk_extent) */
	float max_rebound_vy; /* largest upward centre-of-mass velocity after falling */
	int springs;
} drop_result;

static int compare_floats(const void* a, const void* b)
{
	float x = *(const float*)a, y = *(const float*)b;
	return (x > y) - (x < y);
}

/* The extent of the bulk along one axis: from the 2nd to the 98th percentile, so that a droplet
 * splashed up to the lid (a puddle once measured 40 x 15 by its extremes) does not count. */
static float bulk_extent(const float* v, int n)
{
	float* sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
	if (!sorted || n == 0) {
		free(sorted);
		return 0;
	}
	memcpy(sorted, v, (size_t)n * sizeof *sorted);
	qsort(sorted, (size_t)n, sizeof *sorted, compare_floats);
	float extent = sorted[(n - 1) * 98 / 100] - sorted[(n - 1) * 2 / 100];
	free(sorted);
	return extent;
}

static drop_result drop_blob(float spring_stiffness, float plasticity)
{
	pdl_material_def m = pdl_default_material_def();
	m.spring_stiffness = spring_stiffness;
	m.plasticity = plasticity;
	m.yield_ratio = 0.2f;
	pdl_world* w = worlds_create(2, &m);
	worlds_add_box_container(w, 20, 15);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_DISC;
	f.radius = 3;
	f.position = (pdl_vec3){0, 0};
	pdl_world_fill(w, &f, NULL);
	drop_result r = {0};
	float prev_y = 0;
	bool landed = false;
	for (int s = 0; s < 240; ++s) {
		pdl_world_step(w);
		pdl_stats st = pdl_world_stats(w);
		float y = st.centre_of_mass.y, vy = (y - prev_y) * 60.0f;
		if (vy < -5) landed = true; /* falling fast: any upward motion from now on is a rebound */
		if (landed && vy > r.max_rebound_vy) r.max_rebound_vy = vy;
		prev_y = y;
	}
	pdl_particle_data p = pdl_world_particles(w);
	r.width = bulk_extent(p.x, p.count);
	r.height = bulk_extent(p.y, p.count);
	r.springs = pdl_world_stats(w).springs;
	pdl_world_destroy(w);
	return r;
}

static void test_elastic_blob_bounces_and_keeps_its_shape(void)
{
	drop_result liquid = drop_blob(0, 0);
	drop_result jelly = drop_blob(1500, 0.1f);
	printf("  liquid: %.1f x %.1f, rebound %.2f | springs (%d): %.1f x %.1f, rebound %.2f\n",
	       liquid.width, liquid.height, liquid.max_rebound_vy, jelly.springs, jelly.width,
	       jelly.height, jelly.max_rebound_vy);
	ENSURE(liquid.springs == 0);
	ENSURE(jelly.springs > 1000);
	/* the liquid flattens into a puddle; the jelly stays close to its 6 x 6 disc */
	ENSURE(liquid.width / liquid.height > 3.0f);
	ENSURE_MSG(jelly.width / jelly.height < 2.0f, "jelly %g x %g", jelly.width, jelly.height);
	/* and it bounces: its centre of mass goes back up after the impact */
	ENSURE_MSG(jelly.max_rebound_vy > 1.0f, "rebound %g", jelly.max_rebound_vy);
	ENSURE(jelly.max_rebound_vy > liquid.max_rebound_vy);
}

static void test_removing_particles_removes_their_springs(void)
{
	pdl_material_def m = pdl_default_material_def();
	m.spring_stiffness = 500;
	pdl_world* w = worlds_create(1, &m);
	pdl_fill_def f = pdl_default_fill_def();
	f.half_extents = (pdl_vec3){3, 3};
	pdl_world_fill(w, &f, NULL);
	pdl_world_step(w);
	int before = pdl_world_stats(w).springs;
	int removed = pdl_world_remove_particles_in_box(w, (pdl_vec3){0, 0}, (pdl_vec3){1.5f, 10});
	ENSURE(removed > 0);
	/* every spring slot points at a live particle that points back */
	pdl_particle_data p = pdl_world_particles(w);
	for (int i = 0; i < p.count; ++i) {
		for (int s = 0; s < PDL_MAX_SPRINGS_PER_PARTICLE; ++s) {
			int j = p.spring_partner[i * PDL_MAX_SPRINGS_PER_PARTICLE + s];
			if (j < 0) continue;
			ENSURE(j < p.count && j != i);
			bool back = false;
			for (int t = 0; t < PDL_MAX_SPRINGS_PER_PARTICLE; ++t)
				back |= p.spring_partner[j * PDL_MAX_SPRINGS_PER_PARTICLE + t] == i;
			ENSURE(back);
		}
	}
	int after = pdl_world_stats(w).springs;
	printf("  springs %d -> %d after removing %d particles\n", before, after, removed);
	ENSURE(after < before && after > 0);
	pdl_world_destroy(w);
}

static void test_turning_springs_off_frees_the_fluid(void)
{
	pdl_material_def m = pdl_default_material_def();
	m.spring_stiffness = 500;
	pdl_world* w = worlds_create(1, &m);
	worlds_fill_box(w, 0, 0, 0, 3, 3);
	pdl_world_step(w);
	ENSURE(pdl_world_stats(w).springs > 0);
	m.spring_stiffness = 0;
	ENSURE(pdl_world_set_material(w, 0, &m, NULL) == PDL_OK);
	pdl_world_step(w);
	ENSURE(pdl_world_stats(w).springs == 0);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_elastic_blob_bounces_and_keeps_its_shape);
	RUN_TEST(test_removing_particles_removes_their_springs);
	RUN_TEST(test_turning_springs_off_frees_the_fluid);
	return TEST_SUMMARY();
}
