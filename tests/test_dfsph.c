/* The DFSPH solver (src/dfsph.c, world.solver = PDL_SOLVER_DFSPH): a fill at rest spacing starts
 * at rest; a resting pool keeps its volume (measured from its depth, not from the kernel
 * density), holds its density within the solver's tolerance in the bulk, does not clump and
 * rests; deep water's solves are accelerated; results are bitwise equal for 1, 2 and 3 threads and every copy of the vector loops
 * in 2D and 3D; a dam break stays in
 * its tank and its front runs; a heavy fluid poured over a light one sinks through it; every
 * bad DFSPH setting gives its exact error id. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test.h"
#include "worlds.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static pdl_world* dfsph_create(int threads, int dimensions)
{
	return worlds_solver_create(threads, dimensions, PDL_SOLVER_DFSPH, NULL);
}

static float max_speed(const pdl_world* w)
{
	pdl_particle_data p = pdl_world_particles(w);
	float v2 = 0;
	for (int i = 0; i < p.count; ++i)
		v2 = fmaxf(v2, p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + (p.vz ? p.vz[i] * p.vz[i] : 0));
	return sqrtf(v2);
}

/* Without gravity a block filled at the default spacing is at rest density, and the solver
 * leaves it alone. */
static void test_fill_starts_at_rest(void)
{
	pdl_world* w = dfsph_create(2, 2);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0};
	ENSURE(pdl_world_set_def(w, &d, NULL) == PDL_OK);
	worlds_fill_box(w, 0, 0, 0, 6, 4);
	for (int f = 0; f < 60; ++f) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	float rho0 = pdl_world_rest_density(w, 0), interior = 0;
	for (int i = 0; i < p.count; ++i)
		if (fabsf(p.x[i]) < 4.5f && fabsf(p.y[i]) < 2.5f) interior = fmaxf(interior, fabsf(p.density[i] / rho0 - 1));
	printf("  max speed %.2e h/s, interior density error %.2e\n", max_speed(w), interior);
	ENSURE(interior < 1e-4f);
	ENSURE(max_speed(w) < 1e-3f);
	pdl_world_destroy(w);
}

/* A 2D pool 10 h deep in a 16 h wide tank, settled for 10 s. Its depth, measured as the mean
 * height of the highest particle in each column one spacing wide plus half a row, against the
 * depth its particles' rest area implies (count x the hexagonal lattice's s^2 sqrt(3)/2 over the
 * width): within 2 % (measured -1.9 %: the first row settles closer to the floor than the fill
 * put it). The bulk (2 h off walls and surface) within 0.1 % of rest density (0.01 %), under 3 %
 * clumped (1.2 %, pairs at the free surface, where nothing is under pressure), slower than
 * 0.1 h/s r.m.s. (0.044 h/s) (Clavet's pool: 13 % denser at the bottom; SPH's: 99 % clumped and 7 % of its
 * volume gone, docs/validation.md.) */
static void test_pool_keeps_its_volume(void)
{
	pdl_world* w = dfsph_create(2, 2);
	const float half_width = 8, depth = 10;
	worlds_add_box_container(w, half_width, 8);
	int n = worlds_fill_box(w, 0, 0, -8 + depth / 2, half_width, depth / 2);
	for (int f = 0; f < worlds_settle_steps(600); ++f) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	pdl_stats st = pdl_world_stats(w);
	ENSURE(st.non_finite == 0 && p.count == n);
	if (worlds_quick()) {
		pdl_world_destroy(w);
		return;
	}
	const float s = pdl_rest_spacing(1, pdl_world_get_material(w, 0).rest_density), row = s * 0.8660254f;
	enum { COLUMNS = 256 };
	float top[COLUMNS];
	const int columns = (int)(2 * half_width / s);
	for (int c = 0; c < columns; ++c) top[c] = -1e9f;
	for (int i = 0; i < p.count; ++i) {
		int c = (int)((p.x[i] + half_width) / s);
		if (c >= 0 && c < columns && p.y[i] > top[c]) top[c] = p.y[i];
	}
	double sum = 0, surface;
	for (int c = 0; c < columns; ++c) sum += top[c];
	surface = sum / columns + row / 2;
	const double measured = surface - (-8), implied = n * (double)s * row / (2 * half_width);
	double bulk = 0, speed2 = 0;
	int bulk_count = 0;
	float rho0 = pdl_world_rest_density(w, 0);
	for (int i = 0; i < p.count; ++i) {
		speed2 += p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i];
		if (fabsf(p.x[i]) > half_width - 2 || p.y[i] < -6 || p.y[i] > surface - 2) continue;
		bulk += fabs(p.density[i] / rho0 - 1);
		bulk_count++;
	}
	bulk /= bulk_count;
	const double rms = sqrt(speed2 / p.count);
	printf("  depth %.3f h against %.3f implied (%+.2f %%), bulk density error %.4f %%, clumped %.2f %%, r.m.s. "
	       "speed %.4f h/s\n",
	       measured, implied, 100 * (measured / implied - 1), 100 * bulk, 100 * st.clumped, rms);
	ENSURE(fabs(measured / implied - 1) < 0.02);
	ENSURE(bulk < 0.001);
	ENSURE(st.clumped < 0.03f);
	ENSURE(rms < 0.1);
	pdl_world_destroy(w);
}

/* The same world on 1, 2 and 3 threads, and on 2 threads with the baseline and AVX2 copies of
 * the loops (dfsph_loops.h; the runs before take the best copy the processor has): the same bits
 * (every pass is a gather, each solve's error is summed in one order, so the iteration counts
 * agree too). */
static void check_threads(int dimensions)
{
	enum { RUNS = 5 };
	static const char* const copy[RUNS] = {NULL, NULL, NULL, "baseline", "avx2"};
	uint64_t hashes[RUNS];
	int iterations[RUNS];
	for (int t = 0; t < RUNS; ++t) {
		const int threads = t < 3 ? t + 1 : 2;
		if (copy[t]) setenv("PUDDLE_SIMD", copy[t], 1); /* (read as the world is made) */
		pdl_world* w = dimensions == 3 ? worlds_dam_break_3d(threads, PDL_SOLVER_DFSPH) : dfsph_create(threads, 2);
		unsetenv("PUDDLE_SIMD");
		if (dimensions == 2) {
			pdl_material_def heavy = pdl_default_material_def();
			heavy.mass = 2;
			int m = pdl_world_add_material(w, &heavy, NULL);
			worlds_add_box_container(w, 16, 10);
			worlds_fill_box(w, 0, -11, -1, 5, 9);
			worlds_fill_box(w, m, 9, -8.5f, 4, 1.4f);
			worlds_add_triangle(w, 2, -10);
		}
		/* a light body dropped into the flow: the bodies' coupling is a gather too */
		pdl_body_def b = pdl_default_body_def();
		b.shape = dimensions == 3 ? PDL_BODY_CIRCLE : PDL_BODY_BOX;
		b.radius = 0.8f;
		b.half_extents = (pdl_vec3){1, 0.6f, 0.6f};
		b.density = 0.6f;
		b.position = (pdl_vec3){dimensions == 3 ? -6.0f : -8.0f, dimensions == 3 ? 3.5f : 9.0f, 0};
		ENSURE(pdl_world_add_body(w, &b, NULL).index >= 0);
		int total = 0;
		/* quick mode (ThreadSanitizer): a few frames run every pass on every thread */
		const int frames = worlds_quick() ? (dimensions == 3 ? 3 : 10) : (dimensions == 3 ? 30 : 90);
		for (int f = 0; f < frames; ++f) {
			pdl_world_step(w);
			total += pdl_world_profile(w).density_iterations + pdl_world_profile(w).divergence_iterations;
		}
		hashes[t] = pdl_world_hash(w);
		iterations[t] = total;
		pdl_world_destroy(w);
	}
	printf("  %dD: %016" PRIx64 " %016" PRIx64 " %016" PRIx64 ", baseline %016" PRIx64 ", avx2 %016" PRIx64
	       ", %d iterations\n",
	       dimensions, hashes[0], hashes[1], hashes[2], hashes[3], hashes[4], iterations[0]);
	for (int t = 1; t < RUNS; ++t) {
		ENSURE(hashes[t] == hashes[0]);
		ENSURE(iterations[t] == iterations[0]);
	}
}

static void test_same_bits_on_any_thread_count_2d(void) { check_threads(2); }
static void test_same_bits_on_any_thread_count_3d(void) { check_threads(3); }

/* The dam break of scenes/dam-break.json under DFSPH: every particle stays in the tank and none
 * goes non-finite, the front reaches the far wall within 2 s (Martin & Moyce: a column 10 h
 * wide reaches 2.5 widths in T = 2.7, t = 0.5 s at g = 10), and the substeps follow the flow. */
static void test_dam_break_runs_and_stays_in_its_tank(void)
{
	pdl_world* w = dfsph_create(2, 2);
	worlds_add_box_container(w, 16, 10);
	int n = worlds_fill_box(w, 0, -11, -1, 5, 9);
	float front = -16;
	int most_substeps = 0;
	for (int f = 0; f < (worlds_quick() ? 10 : 120); ++f) {
		pdl_world_step(w);
		most_substeps = pdl_world_profile(w).substeps > most_substeps ? pdl_world_profile(w).substeps : most_substeps;
	}
	pdl_particle_data p = pdl_world_particles(w);
	int outside = 0;
	for (int i = 0; i < p.count; ++i) {
		front = fmaxf(front, p.x[i]);
		outside += !(fabsf(p.x[i]) <= 16 && fabsf(p.y[i]) <= 10);
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  front at x = %.2f h after %.2f s, %d substeps at most, %d outside, clumped %.2f %%\n", front,
	       pdl_world_time(w), most_substeps, outside, 100 * st.clumped);
	ENSURE(p.count == n && outside == 0 && st.non_finite == 0);
	if (!worlds_quick()) ENSURE(most_substeps >= 2); /* the fall takes the CFL rule past one substep */
	if (!worlds_quick()) ENSURE(front > 15);
	pdl_world_destroy(w);
}

/* Rayleigh-Taylor: a layer twice as dense (mass 2 at the same spacing) above a light one turns
 * over: after 16 s the heavy fluid's mean height is below the light one's. */
static void test_heavy_fluid_sinks_through_light(void)
{
	pdl_world* w = dfsph_create(2, 2);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 2;
	int m = pdl_world_add_material(w, &heavy, NULL);
	worlds_add_box_container(w, 6, 8);
	worlds_fill_box(w, 0, 0, -6, 6, 2);
	worlds_fill_box(w, m, 0, -2, 6, 2);
	for (int f = 0; f < (worlds_quick() ? 30 : 960); ++f) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	double y[2] = {0, 0};
	int c[2] = {0, 0};
	for (int i = 0; i < p.count; ++i) {
		y[p.material[i]] += p.y[i];
		c[p.material[i]]++;
	}
	printf("  mean height: light %.2f h, heavy %.2f h (start -6, -2)\n", y[0] / c[0], y[1] / c[1]);
	ENSURE(pdl_world_stats(w).non_finite == 0);
	if (!worlds_quick()) ENSURE(y[1] / c[1] < y[0] / c[0]);
	pdl_world_destroy(w);
}

/* Each bad DFSPH setting, its exact error id; the same settings are not checked in a Clavet
 * world (they do not apply there). */
static void test_bad_settings_name_their_field(void)
{
	struct {
		float density_tolerance, divergence_tolerance;
		int max_iterations;
		pdl_error_id id;
	} cases[] = {
		{0, 0.001f, 100, PDL_ERR_SPH_DENSITY_TOLERANCE},
		{0.2f, 0.001f, 100, PDL_ERR_SPH_DENSITY_TOLERANCE},
		{NAN, 0.001f, 100, PDL_ERR_SPH_DENSITY_TOLERANCE},
		{0.001f, 0, 100, PDL_ERR_SPH_DIVERGENCE_TOLERANCE},
		{0.001f, 11, 100, PDL_ERR_SPH_DIVERGENCE_TOLERANCE},
		{0.001f, 0.001f, 0, PDL_ERR_SPH_MAX_ITERATIONS},
		{0.001f, 0.001f, 1001, PDL_ERR_SPH_MAX_ITERATIONS},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		pdl_world_def d = pdl_default_world_def();
		d.solver = PDL_SOLVER_DFSPH;
		d.sph.density_tolerance = cases[k].density_tolerance;
		d.sph.divergence_tolerance = cases[k].divergence_tolerance;
		d.sph.max_iterations = cases[k].max_iterations;
		pdl_error err;
		pdl_world* w = pdl_world_create(&d, &err);
		ENSURE_MSG(!w && err.id == cases[k].id, "case %zu: id %d, expected %d (%s)", k, (int)err.id,
		           (int)cases[k].id, err.message);
		d.solver = PDL_SOLVER_CLAVET;
		w = pdl_world_create(&d, &err);
		ENSURE(w != NULL);
		pdl_world_destroy(w);
	}
	pdl_world_def d = pdl_default_world_def();
	d.solver = PDL_SOLVER_KIND_COUNT;
	pdl_error err;
	ENSURE(pdl_world_create(&d, &err) == NULL && err.id == PDL_ERR_WORLD_SOLVER);
}

/* The free surface beside a floating body at x: the highest particles more than `clear` from x
 * and left of `right`, plus half a rest spacing (the surface lies that far above the top row's
 * centres). */
static double surface_beside(const pdl_world* w, float x, float clear, float right)
{
	pdl_particle_data p = pdl_world_particles(w);
	double top = -1e30;
	for (int i = 0; i < p.count; ++i)
		if (fabsf(p.x[i] - x) > clear && p.x[i] < right) top = fmax(top, p.y[i]);
	return top + 0.5 * pdl_rest_spacing(1, pdl_world_get_material(w, 0).rest_density);
}

/* Rigid bodies are moving walls to DFSPH (body_sph.c, "DFSPH"): in a pool 6 h deep, a disc at 0.5 of
 * the water's density floats in the surface, one at 1.5 sinks to the floor and rests within
 * 0.1 h of it after 12 s (-0.016 h: its rigid contact's overlap). The particles of the film
 * thinner than a spacing under it push it no more (body_sph.c, in_film); while they did, this
 * disc of radius 1 h stopped 0.16 h above the floor, on them.
 * (The surface here is the top row of particles beside the disc, good to a few tenths of h;
 * puddle-validate's archimedes cases measure the floating depth to 0.02 against the density
 * ratio.) */
static void test_bodies_float_and_sink(void)
{
	pdl_world* w = dfsph_create(2, 2);
	worlds_add_box_container(w, 8, 8);
	float density[2] = {0.5f, 1.5f};
	pdl_body_id id[2];
	for (int k = 0; k < 2; ++k) {
		pdl_body_def b = pdl_default_body_def();
		b.shape = PDL_BODY_CIRCLE;
		b.radius = 1;
		b.density = density[k];
		b.position = (pdl_vec3){k ? 3.0f : -3.0f, -2};
		pdl_error err;
		id[k] = pdl_world_add_body(w, &b, &err);
		ENSURE_MSG(id[k].index >= 0, "%s", err.message);
	}
	worlds_fill_box(w, 0, 0, -5, 7.9f, 2.9f); /* surface at y = -2 */
	for (int f = 0, n = worlds_settle_steps(720); f < n; ++f) pdl_world_step(w);
	pdl_body_def b[2];
	for (int k = 0; k < 2; ++k) ENSURE(pdl_world_get_body(w, id[k], &b[k]));
	/* the surface beside the light disc, left of the middle (the heavy one is right of it) */
	const double top = surface_beside(w, b[0].position.x, 2.5f, 0);
	/* the share of the light disc's area below the surface (a circular segment) */
	const double depth = fmin(fmax(top - (b[0].position.y - 1), 0), 2), a = 1 - depth;
	const double under = (acos(a) - a * sqrt(1 - a * a)) / 3.14159265358979;
	printf("  light disc %.3f under (expected 0.5), heavy disc's bottom at %.3f (floor -8), speeds %.3f and %.3f\n",
	       under, b[1].position.y - 1, hypotf(b[0].linear_velocity.x, b[0].linear_velocity.y),
	       hypotf(b[1].linear_velocity.x, b[1].linear_velocity.y));
	ENSURE(pdl_world_stats(w).non_finite == 0 && pdl_world_stats(w).particles == pdl_world_particles(w).count);
	if (!worlds_quick()) {
		ENSURE(under > 0.25 && under < 0.75);
		ENSURE(fabsf(b[1].position.y - 1 - -8) < 0.1f);
	}
	pdl_world_destroy(w);
}

/* A light box pressed flat onto the floor comes up and floats (body_contacts.c, point_contacts:
 * a light body keeps a rest spacing of water between itself and a wall). A box of 0.3 the
 * water's density, 3 h by 1.5 h, starts flat on the floor of a pool 5 h deep, the water filled
 * around and above it. With nothing under it but a film too thin for a particle (body_sph.c,
 * in_film), the water's weight on its top held it down for good (its centre stayed at -7.25,
 * the floor's level plus its half height, for the 12 s); now it floats in the surface, flat,
 * 0.22 of it under after 12 s (the pool still moves; puddle-validate's archimedes cases measure
 * floating to 0.02).
 * Also in dam-break-boxes, where the surge threw light crates flat onto the floor and against
 * the far wall, and four of six stayed there. */
static void test_light_box_on_the_floor_comes_up(void)
{
	pdl_world* w = dfsph_create(2, 2);
	worlds_add_box_container(w, 8, 8);
	pdl_body_def b = pdl_default_body_def();
	b.half_extents = (pdl_vec3){1.5f, 0.75f, 0};
	b.density = 0.3f;
	b.position = (pdl_vec3){0, -8 + 0.75f};
	pdl_error err;
	pdl_body_id id = pdl_world_add_body(w, &b, &err);
	ENSURE_MSG(id.index >= 0, "%s", err.message);
	worlds_fill_box(w, 0, 0, -5, 7.9f, 2.9f);
	float highest = b.position.y;
	for (int f = 0, n = worlds_settle_steps(720); f < n; ++f) {
		pdl_world_step(w);
		ENSURE(pdl_world_get_body(w, id, &b));
		highest = fmaxf(highest, b.position.y);
	}
	const float surface = (float)surface_beside(w, b.position.x, 4.0f, INFINITY);
	const float bottom = b.position.y - 0.75f, under = (surface - bottom) / 1.5f;
	printf("  the box's centre at %.3f after 12 s (on the floor: -7.25; highest %.3f), angle %.3f, the surface "
	       "at %.3f: %.3f of it under (0.3 afloat), speed %.3f\n",
	       b.position.y, highest, b.angle, surface, under, hypotf(b.linear_velocity.x, b.linear_velocity.y));
	ENSURE(pdl_world_stats(w).non_finite == 0);
	ENSURE(highest < surface + 1); /* it came up through the water, not flung out of it */
	if (!worlds_quick()) {
		ENSURE(under > 0.1f && under < 0.5f && fabsf(b.angle) < 0.1f);
		ENSURE(hypotf(b.linear_velocity.x, b.linear_velocity.y) < 0.5f);
	}
	pdl_world_destroy(w);
}

/* The solves' Chebyshev acceleration (dfsph.c, solve): a 2D pool 16 h deep and 8 h wide falls
 * from its fill and settles for 2 s, both solves at the default tolerances and limit. Damped
 * Jacobi alone took 22,477 iterations in all, the accelerated solves 3,930; under 8,000 it is
 * working. The bulk (2 h off walls, floor and surface) stays within 0.1 % of rest density
 * (0.010 % either way). Quick mode settles 10 frames and asserts neither (the release run
 * does): 120 frames were 36 s of CPU under TSan. */
static void test_deep_pool_solves_are_accelerated(void)
{
	pdl_world* w = dfsph_create(2, 2);
	worlds_add_box_container(w, 4, 9);
	worlds_fill_box(w, 0, 0, -9 + 8, 4, 8);
	long long total = 0;
	const int frames = worlds_settle_steps(120);
	for (int f = 0; f < frames; ++f) {
		pdl_world_step(w);
		total += pdl_world_profile(w).density_iterations + pdl_world_profile(w).divergence_iterations;
	}
	pdl_particle_data p = pdl_world_particles(w);
	const float rho0 = pdl_world_rest_density(w, 0);
	float top = -1e9f;
	for (int i = 0; i < p.count; ++i) top = fmaxf(top, p.y[i]);
	double bulk = 0;
	int bulk_count = 0;
	for (int i = 0; i < p.count; ++i)
		if (fabsf(p.x[i]) < 2 && p.y[i] > -7 && p.y[i] < top - 2) bulk += fabs(p.density[i] / rho0 - 1), bulk_count++;
	bulk /= bulk_count > 0 ? bulk_count : 1;
	printf("  %lld iterations in %d frames, bulk density error %.4f %%\n", total, frames, 100 * bulk);
	ENSURE(pdl_world_stats(w).non_finite == 0);
	if (!worlds_quick()) {
		ENSURE(total < 8000);
		ENSURE(bulk_count > 0 && bulk < 0.001);
	}
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_bodies_float_and_sink);
	RUN_TEST(test_light_box_on_the_floor_comes_up);
	RUN_TEST(test_fill_starts_at_rest);
	RUN_TEST(test_bad_settings_name_their_field);
	RUN_TEST(test_same_bits_on_any_thread_count_2d);
	RUN_TEST(test_same_bits_on_any_thread_count_3d);
	RUN_TEST(test_dam_break_runs_and_stays_in_its_tank);
	RUN_TEST(test_heavy_fluid_sinks_through_light);
	RUN_TEST(test_pool_keeps_its_volume);
	RUN_TEST(test_deep_pool_solves_are_accelerated);
	return TEST_SUMMARY();
}
