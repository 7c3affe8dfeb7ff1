/* Diffuse particles (src/diffuse.c, Ihmsen et al. 2012): they never change the fluid, they are
 * the same for any thread count, a dam break throws them at the far wall, a drop leaves foam on
 * the pool, they stay in the tank and under their cap, and bad defs are refused by id. */
#include "test.h"
#include "worlds.h"

#include <puddle/puddle.h>

/* A box tank of half size (hx, hy, hz) at the origin and a column of water at its left end,
 * `width` wide and `height` tall, as deep as the tank: a small dam break. */
static pdl_world* dam_break(int threads, int dimensions, pdl_solver_kind solver, float hx, float hy, float hz,
                            float width, float height)
{
	pdl_world* w = worlds_solver_create(threads, dimensions, solver, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){hx, hy, hz};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def fill = pdl_default_fill_def();
	fill.position = (pdl_vec3){-hx + 0.5f * width, -hy + 0.5f * height, 0};
	fill.half_extents = (pdl_vec3){0.5f * width - 0.05f, 0.5f * height - 0.05f, hz - 0.05f};
	int n = pdl_world_fill(w, &fill, NULL);
	if (n <= 0) {
		fprintf(stderr, "dam_break: fill failed\n");
		exit(2);
	}
	return w;
}

static pdl_diffuse_def diffuse_on(int dimensions)
{
	pdl_diffuse_def d = pdl_default_diffuse_def();
	d.enabled = 1;
	if (dimensions == 2) d.spray_neighbours = 2, d.bubble_neighbours = 8; /* 2D has fewer neighbours */
	return d;
}

static void enable(pdl_world* w, const pdl_diffuse_def* d)
{
	pdl_error err;
	if (pdl_world_set_diffuse(w, d, &err) != PDL_OK) {
		fprintf(stderr, "set_diffuse: %s\n", err.message);
		exit(2);
	}
}

/* Each kind's count. */
static void counts(const pdl_world* w, int out[3])
{
	pdl_diffuse_data d = pdl_world_diffuse(w);
	for (int k = 0; k < 3; ++k) out[k] = d.kind_count[k];
}

/* The world steps to the same bits with diffuse particles on (and made: the test could fail) as
 * off, for each solver, 2D and 3D. */
static void test_hash_same_on_and_off(void)
{
	const pdl_solver_kind solvers[] = {PDL_SOLVER_CLAVET, PDL_SOLVER_SPH, PDL_SOLVER_DFSPH};
	for (int dims = 2; dims <= 3; ++dims)
		for (int s = 0; s < 3; ++s) {
			float hz = dims == 3 ? 2.0f : 1.0f;
			pdl_world* off = dam_break(2, dims, solvers[s], 8, 5, hz, 4, 7);
			pdl_world* on = dam_break(2, dims, solvers[s], 8, 5, hz, 4, 7);
			pdl_diffuse_def d = diffuse_on(dims);
			enable(on, &d);
			int made = 0;
			for (int step = 0; step < worlds_steps(90); ++step) {
				pdl_world_step(off);
				pdl_world_step(on);
				ENSURE_MSG(pdl_world_hash(on) == pdl_world_hash(off), "%dD solver %d step %d", dims, s, step);
				int c = pdl_world_diffuse(on).count;
				made = c > made ? c : made;
			}
			printf("  %dD solver %d: up to %d diffuse particles\n", dims, s, made);
			bool off_none = pdl_world_diffuse(off).count == 0;
			pdl_world_destroy(off);
			pdl_world_destroy(on);
			/* (quick mode's few steps end before the surge makes any in 2D) */
			ENSURE_MSG(made > 0 || worlds_quick(), "%dD solver %d made none", dims, s);
			ENSURE(off_none);
		}
}

/* The same diffuse particles, to the bit, on 1 and 2 threads (and 3). */
static void test_same_for_any_thread_count(void)
{
	pdl_world* ref = dam_break(1, 3, PDL_SOLVER_DFSPH, 8, 5, 2, 4, 7);
	pdl_world* two = dam_break(2, 3, PDL_SOLVER_DFSPH, 8, 5, 2, 4, 7);
	pdl_world* three = dam_break(3, 3, PDL_SOLVER_DFSPH, 8, 5, 2, 4, 7);
	pdl_diffuse_def d = diffuse_on(3);
	enable(ref, &d), enable(two, &d), enable(three, &d);
	int most = 0;
	for (int step = 0; step < worlds_steps(90); ++step) {
		pdl_world_step(ref), pdl_world_step(two), pdl_world_step(three);
		pdl_diffuse_data a = pdl_world_diffuse(ref);
		pdl_world* others[2] = {two, three};
		for (int o = 0; o < 2; ++o) {
			pdl_diffuse_data b = pdl_world_diffuse(others[o]);
			ENSURE_MSG(a.count == b.count, "step %d: %d against %d", step, a.count, b.count);
			size_t n = (size_t)a.count * sizeof(float);
			ENSURE(a.count == 0 || (memcmp(a.x, b.x, n) == 0 && memcmp(a.y, b.y, n) == 0 && memcmp(a.z, b.z, n) == 0 &&
			                        memcmp(a.vx, b.vx, n) == 0 && memcmp(a.vy, b.vy, n) == 0 &&
			                        memcmp(a.vz, b.vz, n) == 0 && memcmp(a.life, b.life, n) == 0 &&
			                        memcmp(a.kind, b.kind, (size_t)a.count) == 0));
		}
		most = a.count > most ? a.count : most;
	}
	pdl_world_destroy(ref), pdl_world_destroy(two), pdl_world_destroy(three);
	ENSURE(most > 0 || worlds_quick());
}

/* A 3D dam break: the surge hits the far wall and throws spray and foam there. Counted in the
 * last 3 h before the wall, from when the front arrives. */
static void test_dam_break_throws_white_water_at_far_wall(void)
{
	const float hx = 10, hy = 6, hz = 2;
	pdl_world* w = dam_break(2, 3, PDL_SOLVER_DFSPH, hx, hy, hz, 5, 9);
	pdl_diffuse_def d = diffuse_on(3);
	enable(w, &d);
	int arrived = -1, best_near = 0, best_far_kinds[3] = {0};
	float best_mean_x = 0;
	for (int step = 0; step < 150; ++step) {
		pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		float front = -hx;
		for (int i = 0; i < p.count; ++i) front = p.x[i] > front ? p.x[i] : front;
		if (arrived < 0 && front > hx - 1.0f) arrived = step;
		pdl_diffuse_data dd = pdl_world_diffuse(w);
		int near = 0, kinds[3] = {0};
		double sum_x = 0;
		for (int i = 0; i < dd.count; ++i) {
			/* none leaves the tank */
			ENSURE_MSG(fabsf(dd.x[i]) <= hx + 1e-3f && fabsf(dd.y[i]) <= hy + 1e-3f && fabsf(dd.z[i]) <= hz + 1e-3f,
			           "step %d: (%g, %g, %g)", step, dd.x[i], dd.y[i], dd.z[i]);
			if (dd.x[i] > hx - 3.0f && dd.kind[i] != PDL_DIFFUSE_BUBBLE) near++, kinds[dd.kind[i]]++, sum_x += dd.x[i];
		}
		if (arrived >= 0 && step <= arrived + 30 && near > best_near) {
			best_near = near;
			best_mean_x = (float)(sum_x / near);
			for (int k = 0; k < 3; ++k) best_far_kinds[k] = kinds[k];
		}
	}
	int all[3];
	counts(w, all);
	printf("  front at the far wall at step %d; within 3 h of it, at most %d spray and foam (%d spray, %d foam), "
	       "mean x %.2f; at the end %d spray, %d foam, %d bubbles\n",
	       arrived, best_near, best_far_kinds[0], best_far_kinds[1], best_mean_x, all[0], all[1], all[2]);
	ENSURE(arrived > 0 && arrived < 120);
	ENSURE_MSG(best_near >= 50, "%d", best_near);
	ENSURE_MSG(best_mean_x > hx - 2.0f, "%g", best_mean_x);
	ENSURE(best_far_kinds[PDL_DIFFUSE_SPRAY] > 0);
	pdl_world_destroy(w);
}

/* A ball of water falls into a pool: foam is left lying on the surface, within a band of the
 * fluid's top measured around each foam particle. */
static void test_drop_leaves_foam_on_the_pool(void)
{
	const float half = 5;
	pdl_world* w = worlds_solver_create(2, 3, PDL_SOLVER_DFSPH, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){half, half, half};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def pool = pdl_default_fill_def();
	pool.position = (pdl_vec3){0, -half + 1.5f, 0};
	pool.half_extents = (pdl_vec3){half - 0.05f, 1.45f, half - 0.05f};
	pdl_world_fill(w, &pool, NULL);
	pdl_fill_def ball = pdl_default_fill_def();
	ball.shape = PDL_FILL_DISC;
	ball.position = (pdl_vec3){0, 1.0f, 0};
	ball.radius = 2.0f;
	ball.velocity = (pdl_vec3){0, -8, 0};
	pdl_world_fill(w, &ball, NULL);
	pdl_diffuse_def d = diffuse_on(3);
	d.foam_lifetime_min = 4, d.foam_lifetime_max = 6;
	enable(w, &d);
	for (int step = 0; step < 150; ++step) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	pdl_diffuse_data dd = pdl_world_diffuse(w);
	int foam = 0, on_surface = 0;
	double worst = 0;
	for (int i = 0; i < dd.count; ++i) {
		if (dd.kind[i] != PDL_DIFFUSE_FOAM) continue;
		foam++;
		/* the pool's top under this foam particle: the highest fluid particle within 1 h across */
		float top = -1e30f;
		for (int j = 0; j < p.count; ++j) {
			float dx = p.x[j] - dd.x[i], dz = p.z[j] - dd.z[i];
			if (dx * dx + dz * dz < 1.0f && p.y[j] > top) top = p.y[j];
		}
		float gap = dd.y[i] - top;
		if (gap > -1.0f && gap < 1.0f) on_surface++;
		worst = fabs(gap) > worst ? fabs(gap) : worst;
	}
	int all[3];
	counts(w, all);
	printf("  after 2.5 s: %d spray, %d foam, %d bubbles; %d foam within 1 h of the pool's top (worst %.2f h)\n",
	       all[0], all[1], all[2], on_surface, worst);
	ENSURE_MSG(foam >= 50, "%d", foam);
	ENSURE_MSG(on_surface >= 0.9 * foam, "%d of %d", on_surface, foam);
	pdl_world_destroy(w);
}

/* The set never grows past max_particles, and fills up to it; lowering it drops the newest. */
static void test_count_bounded_by_max(void)
{
	pdl_world* w = dam_break(2, 2, PDL_SOLVER_CLAVET, 8, 5, 1, 4, 7);
	pdl_diffuse_def d = diffuse_on(2);
	d.max_particles = 60;
	d.foam_lifetime_min = d.foam_lifetime_max = 100;
	enable(w, &d);
	int most = 0;
	for (int step = 0; step < 90; ++step) {
		pdl_world_step(w);
		int c = pdl_world_diffuse(w).count;
		ENSURE_MSG(c <= 60, "%d", c);
		most = c > most ? c : most;
	}
	ENSURE_MSG(most == 60, "%d", most);
	d.max_particles = 10;
	enable(w, &d);
	ENSURE(pdl_world_diffuse(w).count <= 10);
	d.enabled = 0;
	enable(w, &d);
	ENSURE(pdl_world_diffuse(w).count == 0);
	ENSURE(pdl_world_get_diffuse(w).enabled == 0);
	pdl_world_destroy(w);
}

/* Each broken rule is refused with its own id, and nothing changes. */
static void test_bad_defs_refused(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_error err;
	struct {
		pdl_diffuse_def d;
		pdl_error_id id;
	} cases[16];
	int n = 0;
	pdl_diffuse_def base = diffuse_on(3);
#define CASE(field, value, error)                                                                                      \
	cases[n].d = base, cases[n].d.field = value, cases[n].id = error, n++;
	CASE(enabled, 2, PDL_ERR_DIFFUSE_ENABLED)
	CASE(max_particles, 0, PDL_ERR_DIFFUSE_MAX_PARTICLES)
	CASE(trapped_air_rate, -1, PDL_ERR_DIFFUSE_TRAPPED_AIR_RATE)
	CASE(wave_crest_rate, NAN, PDL_ERR_DIFFUSE_WAVE_CREST_RATE)
	CASE(trapped_air_max, 1, PDL_ERR_DIFFUSE_TRAPPED_AIR_ORDER)
	CASE(wave_crest_max, 0.5f, PDL_ERR_DIFFUSE_WAVE_CREST_ORDER)
	CASE(kinetic_max, 0, PDL_ERR_DIFFUSE_KINETIC_MAX)
	CASE(kinetic_max, 4, PDL_ERR_DIFFUSE_KINETIC_ORDER)
	CASE(foam_lifetime_max, 1, PDL_ERR_DIFFUSE_FOAM_LIFETIME_ORDER)
	CASE(bubble_neighbours, 6, PDL_ERR_DIFFUSE_NEIGHBOURS_ORDER)
	CASE(bubble_buoyancy, INFINITY, PDL_ERR_DIFFUSE_BUBBLE_BUOYANCY)
	CASE(bubble_drag, -0.5f, PDL_ERR_DIFFUSE_BUBBLE_DRAG)
#undef CASE
	for (int k = 0; k < n; ++k) {
		pdl_error_id id = pdl_world_set_diffuse(w, &cases[k].d, &err);
		ENSURE_MSG(id == cases[k].id, "case %d: %s, wanted %s (%s)", k, pdl_error_name(id), pdl_error_name(cases[k].id),
		           err.message);
		ENSURE(pdl_world_get_diffuse(w).enabled == 0);
	}
	pdl_world_set_diffuse(w, &(pdl_diffuse_def){.enabled = 2}, &err);
	ENSURE(strcmp(err.message, "diffuse.enabled must be in [0, 1], got 2") == 0);
	ENSURE(pdl_world_set_diffuse(w, NULL, &err) == PDL_ERR_NULL_ARGUMENT);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_bad_defs_refused);
	RUN_TEST(test_count_bounded_by_max);
	RUN_TEST(test_hash_same_on_and_off);
	RUN_TEST(test_same_for_any_thread_count);
	RUN_TEST_THREADS_ELSEWHERE(test_dam_break_throws_white_water_at_far_wall);
	RUN_TEST_THREADS_ELSEWHERE(test_drop_leaves_foam_on_the_pool);
	return TEST_SUMMARY();
}
