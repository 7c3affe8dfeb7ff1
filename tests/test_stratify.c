/* Stratification (as in the Rust stratification demo): three materials with rest densities
 * 12/10/8 scaled to h = 1 units (here 6/5/4), gravity scales 1.2/1.0/0.75 and masses in
 * proportion to rest density, mixed at the start, separate into layers: heavy below medium below
 * light. */
#include "test.h"
#include "worlds.h"

#include <stdlib.h>

static int compare_float(const void* a, const void* b)
{
	float x = *(const float*)a, y = *(const float*)b;
	return (x > y) - (x < y);
}

static float quantile(float* v, int n, double q)
{
	qsort(v, (size_t)n, sizeof *v, compare_float);
	return v[(int)(q * (n - 1))];
}

/* Mean height of each class, and the share of particles out of their layer: the boundary
 * between two layers is the midpoint between the lower class's 90th percentile height and the
 * upper class's 10th percentile. */
static void measure_layers(const pdl_world* w, double mean[3], double* overlap)
{
	pdl_particle_data p = pdl_world_particles(w);
	float* ys[3];
	int count[3] = {0, 0, 0};
	for (int c = 0; c < 3; ++c) {
		ys[c] = malloc((size_t)p.count * sizeof(float));
		mean[c] = 0;
	}
	for (int i = 0; i < p.count; ++i) {
		int c = p.material[i];
		ys[c][count[c]++] = p.y[i];
		mean[c] += p.y[i];
	}
	for (int c = 0; c < 3; ++c) mean[c] /= count[c];
	float q90_heavy = quantile(ys[0], count[0], 0.9), q10_medium = quantile(ys[1], count[1], 0.1);
	float q90_medium = quantile(ys[1], count[1], 0.9), q10_light = quantile(ys[2], count[2], 0.1);
	float cut_hm = 0.5f * (q90_heavy + q10_medium), cut_ml = 0.5f * (q90_medium + q10_light);
	int wrong = 0;
	for (int k = 0; k < count[0]; ++k) wrong += ys[0][k] > cut_hm;
	for (int k = 0; k < count[1]; ++k) wrong += ys[1][k] < cut_hm || ys[1][k] > cut_ml;
	for (int k = 0; k < count[2]; ++k) wrong += ys[2][k] < cut_ml;
	*overlap = (double)wrong / p.count;
	for (int c = 0; c < 3; ++c) free(ys[c]);
}

static void test_three_classes_stratify(void)
{
	pdl_world* w = NULL;
	int ids[3];
	const float rest[3] = {6, 5, 4}, gscale[3] = {1.2f, 1.0f, 0.75f};
	for (int c = 0; c < 3; ++c) {
		pdl_material_def m = pdl_default_material_def();
		m.rest_density = rest[c];
		m.mass = rest[c] / 5.0f; /* inverse mass proportional to 1 / rest density, as in 001 */
		m.gravity_scale = gscale[c];
		m.viscosity_sigma = 0.1f;
		m.viscosity_beta = 0.05f;
		if (c == 0) {
			w = worlds_create(2, &m);
			ids[0] = 0;
		} else {
			ids[c] = pdl_world_add_material(w, &m, NULL);
		}
	}
	worlds_add_circle_container(w, 14);
	/* a sunflower disc per class, interleaved by offsetting the start angle: well mixed */
	for (int c = 0; c < 3; ++c) {
		pdl_fill_def f = pdl_default_fill_def();
		f.shape = PDL_FILL_SPIRAL;
		f.material = ids[c];
		f.radius = 12;
		f.count = 600;
		f.position = (pdl_vec3){0.35f * (c - 1), 0.2f * (c - 1)};
		pdl_world_fill(w, &f, NULL);
	}
	double mixed[3], mixed_overlap;
	measure_layers(w, mixed, &mixed_overlap);
	for (int s = 0; s < worlds_steps(6000); ++s) pdl_world_step(w); /* 100 s to settle */
	/* waves run along the interfaces, so one snapshot can catch a crest: average ten, 1/6 s apart */
	double mean[3] = {0, 0, 0}, overlap = 0;
	const int samples = 10;
	for (int k = 0; k < samples; ++k) {
		for (int s = 0; s < 10; ++s) pdl_world_step(w);
		double m[3], o;
		measure_layers(w, m, &o);
		for (int c = 0; c < 3; ++c) mean[c] += m[c] / samples;
		overlap += o / samples;
	}
	printf("  at the start %.1f%% of particles are out of their layer; after settling: mean height heavy "
	       "%.2f, medium %.2f, light %.2f; %.1f%% out of their layer\n",
	       100 * mixed_overlap, mean[0], mean[1], mean[2], 100 * overlap);
	pdl_world_destroy(w);
	if (worlds_quick()) return; /* not separated yet: only the full run asserts the layers */
	ENSURE(mixed_overlap > 0.4); /* the start really is mixed */
	ENSURE(mean[0] < mean[1]);
	ENSURE(mean[1] < mean[2]);
	ENSURE_MSG(overlap < 0.10, "overlap %g", overlap);
}

int main(void)
{
	RUN_TEST(test_three_classes_stratify);
	return TEST_SUMMARY();
}
