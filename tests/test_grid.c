/* Neighbour grid: unbounded worlds (particles spread over a huge area switch the grid to
 * hashed cells, with the same results), a hashed neighbourhood lists each particle once, and
 * coincident particles never give NaN. */
#include "test.h"
#include "worlds.h"

#include "../src/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A disc (3D: a ball) of radius 4 h at (offset_x, offset_y, offset_z) without gravity. */
static pdl_world* blob_world_in(bool three, float offset_x, float offset_y, float offset_z)
{
	pdl_world* w = three ? worlds_3d_create(2, PDL_SOLVER_CLAVET, NULL) : worlds_create(2, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_DISC;
	f.radius = 4;
	f.position = (pdl_vec3){offset_x, offset_y, offset_z};
	f.velocity = (pdl_vec3){1, 0.5f, three ? -0.25f : 0};
	pdl_world_fill(w, &f, NULL);
	return w;
}

static pdl_world* blob_world(float offset_x, float offset_y) { return blob_world_in(false, offset_x, offset_y, 0); }

/* One blob alone (dense grid), and the same blob with a second one 20,000 units away: the
 * occupied area is then far larger than the cell table, so the grid hashes cells. The first blob
 * must move as before. In 3D the far ball lies mostly along z, which the grid then takes as its
 * slowest axis (grid.h, axis_of), and its hashed cells are keyed in those axes. */
static void check_far_apart_blobs_behave_like_one(bool three)
{
	pdl_world* alone = blob_world_in(three, 0, 0, 0);
	pdl_world* pair = blob_world_in(three, 0, 0, 0);
	pdl_fill_def far = pdl_default_fill_def();
	far.shape = PDL_FILL_DISC;
	far.radius = 4;
	far.position = three ? (pdl_vec3){300, -200, 20000} : (pdl_vec3){20000, -15000};
	int n_far = pdl_world_fill(pair, &far, NULL);
	ENSURE(n_far > 0);
	/* (a ball of 2,526 particles amplifies its rounding differences sooner than a disc of 427:
	 * by 200 steps one particle was 0.023 h apart, with the grid's old axes as with these; by
	 * 100, 0.0017 h) */
	for (int s = 0; s < worlds_steps(three ? 100 : 200); ++s) { /* (quick mode: 30) */
		pdl_world_step(alone);
		pdl_world_step(pair);
	}
	pdl_particle_data a = pdl_world_particles(alone), b = pdl_world_particles(pair);
	ENSURE(b.count == a.count + n_far);
	/* match particles by id (storage order differs) */
	int matched = 0;
	float worst = 0;
	for (int i = 0; i < b.count; ++i) {
		if (b.id[i] >= (uint32_t)a.count) continue;
		for (int j = 0; j < a.count; ++j) {
			if (a.id[j] != b.id[i]) continue;
			/* the same up to summation order (hashed cells store particles in another order) */
			float dz = three ? fabsf(a.z[j] - b.z[i]) : 0;
			ENSURE_MSG(fabsf(a.x[j] - b.x[i]) < 0.02f && fabsf(a.y[j] - b.y[i]) < 0.02f && dz < 0.02f,
			           "id %u: (%g, %g) vs (%g, %g), z off by %g", a.id[j], a.x[j], a.y[j], b.x[i], b.y[i], dz);
			worst = fmaxf(worst, fmaxf(dz, fmaxf(fabsf(a.x[j] - b.x[i]), fabsf(a.y[j] - b.y[i]))));
			matched++;
		}
	}
	ENSURE(matched == a.count);
	printf("  %d particles, farthest apart %.2g h on an axis\n", a.count, worst);
	pdl_world_destroy(alone);
	pdl_world_destroy(pair);
}

static void test_far_apart_blobs_behave_like_one(void) { check_far_apart_blobs_behave_like_one(false); }

static void test_far_apart_balls_behave_like_one_3d(void) { check_far_apart_blobs_behave_like_one(true); }

static void test_blob_far_from_origin_keeps_together(void)
{
	pdl_world* w = blob_world(-1.0e5f, 3.0e4f);
	for (int s = 0; s < 100; ++s) pdl_world_step(w);
	pdl_stats st = pdl_world_stats(w);
	ENSURE(st.non_finite == 0);
	ENSURE(st.mean_neighbours > 10);
	pdl_world_destroy(w);
}

static void test_coincident_particles_spread_without_nan(void)
{
	pdl_world* w = worlds_create(2, NULL);
	worlds_add_box_container(w, 10, 10);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_POINT;
	f.count = 200;
	f.position = (pdl_vec3){1, 2};
	ENSURE(pdl_world_fill(w, &f, NULL) == 200);
	for (int s = 0; s < 300; ++s) pdl_world_step(w);
	pdl_stats st = pdl_world_stats(w);
	pdl_particle_data p = pdl_world_particles(w);
	int stacked = 0;
	for (int i = 1; i < p.count; ++i) stacked += p.x[i] == p.x[0] && p.y[i] == p.y[0];
	printf("  200 particles from one point: %d non-finite, %d still on the first one's spot, max speed %.2f\n",
	       st.non_finite, stacked, st.max_speed);
	ENSURE(st.non_finite == 0);
	ENSURE(stacked == 0);
	pdl_world_destroy(w);
}

static void test_hashed_grid_restores_exactly(void)
{
	/* Restoring a hashed-grid world into one with another reserved capacity (as a snapshot
	 * resume does) must step bitwise like the original: the hash table size follows the
	 * particle count, not the capacity. */
	pdl_world* a = blob_world(0, 0);
	pdl_fill_def far = pdl_default_fill_def();
	far.shape = PDL_FILL_DISC;
	far.radius = 4;
	far.position = (pdl_vec3){20000, -15000};
	pdl_world_fill(a, &far, NULL);
	for (int s = 0; s < 20; ++s) pdl_world_step(a);
	pdl_world* b = blob_world(0, 0);
	pdl_fill_def big = pdl_default_fill_def();
	big.half_extents = (pdl_vec3){30, 30}; /* grows b's capacity well past a's */
	pdl_world_fill(b, &big, NULL);
	pdl_particle_data pa = pdl_world_particles(a);
	ENSURE(pdl_world_set_particles(b, &pa, NULL) == PDL_OK);
	for (int s = 0; s < 30; ++s) {
		pdl_world_step(a);
		pdl_world_step(b);
	}
	ENSURE(pdl_world_hash(a) == pdl_world_hash(b));
	pdl_world_destroy(a);
	pdl_world_destroy(b);
}

/* A hashed grid's neighbourhood of a point lists each non-empty bucket of the cells around it
 * once, and so each particle once: cells that hash to one bucket (likely somewhere among
 * hundreds of neighbourhoods of 25 or 27 cells in a table of a few thousand buckets) must not
 * list it twice, or the particles in it would be summed twice. Every particle within h of the
 * point is in the runs. pdl_grid_runs_of with its cache gives the same runs as a fresh lookup. */
static void check_hashed_runs_list_each_particle_once(bool three)
{
	enum { CLUSTERS = 400, EACH = 4, N = CLUSTERS * EACH };
	const float h = 1;
	float x[N], y[N], z[N];
	uint32_t seed = three ? 11u : 5u;
	for (int c = 0; c < CLUSTERS; ++c) {
		/* clusters spread over 4000 h (hashed: far more cells than the table), each particle
		 * within h of its cluster's first */
		float cx = 0, cy = 0, cz = 0;
		for (int k = 0; k < EACH; ++k) {
			float r[3];
			for (int a = 0; a < 3; ++a) {
				seed = seed * 1664525u + 1013904223u;
				r[a] = (float)(seed >> 8) / 16777216.0f;
			}
			int i = c * EACH + k;
			if (k == 0) cx = 4000 * r[0] - 2000, cy = 4000 * r[1] - 2000, cz = three ? 4000 * r[2] - 2000 : 0;
			x[i] = cx + (k ? 0.5f * r[0] : 0), y[i] = cy + (k ? 0.5f * r[1] : 0), z[i] = three ? cz + (k ? 0.5f * r[2] : 0) : 0;
		}
	}
	pdl_grid g;
	memset(&g, 0, sizeof g);
	ENSURE(pdl_grid_reserve(&g, N));
	pdl_grid_build(&g, NULL, N, x, y, three ? z : NULL, NULL, h);
	ENSURE(!g.dense);
	int* seen = calloc(N, sizeof *seen);
	pdl_grid_cell cached = {.valid = false};
	pdl_grid_runs runs, fresh;
	for (int slot = 0; slot < N; ++slot) {
		int i = g.order[slot];
		pdl_grid_runs_of(&g, slot, x[i], y[i], z[i], &runs, &cached);
		pdl_grid_runs_around(&g, x[i], y[i], z[i], &fresh);
		ENSURE(runs.count == fresh.count);
		for (int r = 0; r < runs.count; ++r) ENSURE(runs.begin[r] == fresh.begin[r] && runs.end[r] == fresh.end[r]);
		memset(seen, 0, N * sizeof *seen);
		for (int r = 0; r < runs.count; ++r)
			for (int t = runs.begin[r]; t < runs.end[r]; ++t) seen[g.order[t]]++;
		for (int j = 0; j < N; ++j) {
			float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
			ENSURE_MSG(seen[j] <= 1, "particle %d listed %d times around particle %d", j, seen[j], i);
			if (dx * dx + dy * dy + dz * dz < h * h) ENSURE_MSG(seen[j] == 1, "neighbour %d of %d missing", j, i);
		}
	}
	free(seen);
	pdl_grid_free(&g);
}

static void test_hashed_runs_list_each_particle_once(void) { check_hashed_runs_list_each_particle_once(false); }

static void test_hashed_runs_list_each_particle_once_3d(void) { check_hashed_runs_list_each_particle_once(true); }

static void test_empty_and_single_particle_worlds(void)
{
	pdl_world* w = worlds_create(4, NULL);
	for (int s = 0; s < 10; ++s) pdl_world_step(w);
	ENSURE(pdl_world_step_count(w) == 10);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_POINT;
	pdl_world_fill(w, &f, NULL);
	for (int s = 0; s < 60; ++s) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	/* free fall for one second under g = 10: v = -10 */
	ENSURE_MSG(fabsf(p.vy[0] + 10.0f) < 1e-3f, "vy %g", p.vy[0]);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_far_apart_blobs_behave_like_one);
	RUN_TEST(test_far_apart_balls_behave_like_one_3d);
	RUN_TEST(test_blob_far_from_origin_keeps_together);
	RUN_TEST(test_coincident_particles_spread_without_nan);
	RUN_TEST(test_hashed_grid_restores_exactly);
	RUN_TEST(test_hashed_runs_list_each_particle_once);
	RUN_TEST(test_hashed_runs_list_each_particle_once_3d);
	RUN_TEST(test_empty_and_single_particle_worlds);
	return TEST_SUMMARY();
}
