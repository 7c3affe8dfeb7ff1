/* 3D: the same engine with dimensions = 3. Containment (no particle lost or outside its tank
 * in a dam break), determinism across thread counts and vector backends, momentum
 * conservation, the 3D boundaries (sphere container, sphere and box obstacles), the pointer
 * ray, fills, and the 3D-only errors. Both solvers. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test.h"
#include "worlds.h"

#include <stdlib.h>

/* Sum of m v over the particles, in double, and the sum of m |v| for scale. */
static void momentum3(const pdl_world* w, double out[3], double* scale)
{
	pdl_particle_data p = pdl_world_particles(w);
	out[0] = out[1] = out[2] = *scale = 0;
	for (int i = 0; i < p.count; ++i) {
		double m = pdl_world_get_material(w, p.material[i]).mass;
		out[0] += m * p.vx[i];
		out[1] += m * p.vy[i];
		out[2] += m * p.vz[i];
		*scale += m * sqrt((double)p.vx[i] * p.vx[i] + (double)p.vy[i] * p.vy[i] + (double)p.vz[i] * p.vz[i]);
	}
}

/* Particles farther than `tolerance` outside the box |x| <= hx, |y| <= hy, |z| <= hz. */
static int outside_box(const pdl_world* w, float hx, float hy, float hz, float tolerance)
{
	pdl_particle_data p = pdl_world_particles(w);
	int n = 0;
	for (int i = 0; i < p.count; ++i)
		n += fabsf(p.x[i]) > hx + tolerance || fabsf(p.y[i]) > hy + tolerance || fabsf(p.z[i]) > hz + tolerance;
	return n;
}

static void dam_break_keeps_every_particle(pdl_solver_kind solver, int frames)
{
	pdl_world* w = worlds_dam_break_3d(2, solver);
	int n0 = pdl_world_particle_count(w);
	ENSURE(n0 > 2000);
	float zmin = 1e9f, zmax = -1e9f;
	for (int f = 0; f < frames; ++f) {
		pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		for (int i = 0; i < p.count; ++i) {
			zmin = fminf(zmin, p.z[i]);
			zmax = fmaxf(zmax, p.z[i]);
		}
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  %s: %d particles after %d frames, max speed %.2f h/s, z in [%.2f, %.2f], %.1f neighbours\n",
	       solver == PDL_SOLVER_SPH ? "SPH" : "Clavet", st.particles, frames, st.max_speed, zmin, zmax,
	       st.mean_neighbours);
	ENSURE(st.particles == n0);
	ENSURE(st.non_finite == 0);
	ENSURE_MSG(outside_box(w, 8, 5, 4, 1e-3f) == 0, "%d outside", outside_box(w, 8, 5, 4, 1e-3f));
	/* the fluid really is 3D: it spans the tank's depth and has 3D neighbourhoods */
	ENSURE(zmin < -3.5f && zmax > 3.5f);
	ENSURE(st.mean_neighbours > 25);
	/* and nothing got into the obstacles: the sphere at (2, -4, 0) radius 1.5 */
	pdl_particle_data p = pdl_world_particles(w);
	int in_ball = 0;
	for (int i = 0; i < p.count; ++i) {
		float dx = p.x[i] - 2, dy = p.y[i] + 4, dz = p.z[i];
		in_ball += dx * dx + dy * dy + dz * dz < 1.5f * 1.5f * 0.99f;
	}
	ENSURE_MSG(in_ball == 0, "%d inside the sphere obstacle", in_ball);
	pdl_world_destroy(w);
}

static void test_clavet_dam_break_keeps_every_particle(void)
{
	dam_break_keeps_every_particle(PDL_SOLVER_CLAVET, worlds_steps(240));
}

static void test_sph_dam_break_keeps_every_particle(void)
{
	dam_break_keeps_every_particle(PDL_SOLVER_SPH, worlds_steps(90));
}

/* Bitwise-equal states for 1, 2, 3 and 4 threads (and, for Clavet, the baseline, AVX2 and
 * AVX-512VL copies of the neighbour loops). */
static void same_for_every_thread_count(pdl_solver_kind solver, int frames)
{
	/* quick mode (under the sanitizers, where races are the point): 1 and 2 threads and the
	 * baseline loops; the release run takes 1 to 4 threads and both SIMD variants */
	const bool quick = worlds_quick();
	uint64_t first = 0;
	for (int threads = 1; threads <= (quick ? 2 : 4); ++threads) {
		pdl_world* w = worlds_dam_break_3d(threads, solver);
		for (int f = 0; f < frames; ++f) pdl_world_step(w);
		uint64_t h = pdl_world_hash(w);
		printf("  %d thread(s): %016llx, %d springs\n", threads, (unsigned long long)h, pdl_world_stats(w).springs);
		if (threads == 1) first = h;
		ENSURE(h == first);
		pdl_world_destroy(w);
	}
	if (solver != PDL_SOLVER_CLAVET) return;
	const char* caps[] = {"avx2", "baseline"}; /* the default above: the best copy there is */
	for (int c = quick ? 1 : 0; c < 2; ++c) {
		setenv("PUDDLE_SIMD", caps[c], 1);
		pdl_world* w = worlds_dam_break_3d(2, solver);
		unsetenv("PUDDLE_SIMD");
		for (int f = 0; f < frames; ++f) pdl_world_step(w);
		printf("  PUDDLE_SIMD=%s: %016llx\n", caps[c], (unsigned long long)pdl_world_hash(w));
		ENSURE(pdl_world_hash(w) == first);
		pdl_world_destroy(w);
	}
}

static void test_clavet_same_for_every_thread_count(void)
{
	same_for_every_thread_count(PDL_SOLVER_CLAVET, worlds_steps(90));
}

static void test_sph_same_for_every_thread_count(void)
{
	same_for_every_thread_count(PDL_SOLVER_SPH, worlds_steps(30));
}

/* No gravity, no walls: two blobs of different mass (one with springs) collide off-axis, with
 * three particles at one point. Every interaction is a symmetric pair, so momentum stays. */
static void momentum_conserved(pdl_solver_kind solver, int frames)
{
	pdl_material_def light = pdl_default_material_def();
	light.viscosity_sigma = 1.0f;
	pdl_world* w = worlds_3d_create(2, solver, &light);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_material_def heavy = pdl_default_material_def();
	heavy.mass = 3.0f;
	heavy.spring_stiffness = solver == PDL_SOLVER_CLAVET ? 200.0f : 0.0f;
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	pdl_fill_def a = pdl_default_fill_def();
	a.shape = PDL_FILL_DISC;
	a.radius = 2.5f;
	a.position = (pdl_vec3){-4, 0.5f, -0.3f};
	a.velocity = (pdl_vec3){5, 0, 1};
	pdl_world_fill(w, &a, NULL);
	pdl_fill_def b = a;
	b.material = heavy_id;
	b.position = (pdl_vec3){4, -0.5f, 0.4f};
	b.velocity = (pdl_vec3){-3, 1, -2};
	pdl_world_fill(w, &b, NULL);
	pdl_fill_def c = pdl_default_fill_def();
	c.shape = PDL_FILL_POINT;
	c.count = 3;
	c.position = (pdl_vec3){-4, 0.5f, -0.3f};
	pdl_world_fill(w, &c, NULL);
	double p0[3], p1[3] = {0, 0, 0}, scale;
	momentum3(w, p0, &scale);
	double max_drift = 0;
	for (int f = 0; f < frames; ++f) {
		pdl_world_step(w);
		momentum3(w, p1, &scale);
		double drift = sqrt((p1[0] - p0[0]) * (p1[0] - p0[0]) + (p1[1] - p0[1]) * (p1[1] - p0[1]) +
		                    (p1[2] - p0[2]) * (p1[2] - p0[2]));
		if (drift > max_drift) max_drift = drift;
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  %d particles, %d springs, momentum (%.4f, %.4f, %.4f) -> (%.4f, %.4f, %.4f), max drift %.3g of %.1f\n",
	       st.particles, st.springs, p0[0], p0[1], p0[2], p1[0], p1[1], p1[2], max_drift, scale);
	ENSURE(st.non_finite == 0);
	if (solver == PDL_SOLVER_CLAVET) ENSURE(st.springs > 0);
	/* SPH: the three particles at one point start far above rho0 (Wendland C2's W(0) is large
	 * against its lattice sum), and the stiff Tait law flings a few out at up to 200 h/s: the
	 * pair sums cancel in float with a larger rounding (drift 2.7 in 60 frames). */
	const double tolerance = solver == PDL_SOLVER_SPH ? 3e-4 : 1e-4;
	ENSURE_MSG(max_drift < tolerance * scale, "drift %g, scale %g", max_drift, scale);
	pdl_world_destroy(w);
}

static void test_clavet_momentum_conserved(void) { momentum_conserved(PDL_SOLVER_CLAVET, worlds_steps(600)); }

static void test_sph_momentum_conserved(void) { momentum_conserved(PDL_SOLVER_SPH, worlds_steps(60)); }

/* A sphere container holds a falling ball of fluid; a 3D box fill has the FCC count. */
static void test_sphere_container_and_fills(void)
{
	pdl_world* w = worlds_3d_create(2, PDL_SOLVER_CLAVET, NULL);
	pdl_boundary_def bowl = pdl_default_boundary_def();
	bowl.kind = PDL_BOUNDARY_CIRCLE_CONTAINER;
	bowl.position = (pdl_vec3){0, 0, 1};
	bowl.radius = 6;
	ENSURE(pdl_world_add_boundary(w, &bowl, NULL).index >= 0);
	pdl_fill_def ball = pdl_default_fill_def();
	ball.shape = PDL_FILL_DISC;
	ball.position = (pdl_vec3){0, 2, 1};
	ball.radius = 3;
	int n = pdl_world_fill(w, &ball, NULL);
	/* FCC at spacing s has sqrt 2 / s^3 points per unit volume */
	float s = pdl_rest_spacing_3d(1, 4);
	double expected = 4.0 / 3.0 * 3.14159265 * pow(3 - 0.5 * s, 3) * sqrt(2.0) / (s * s * s);
	printf("  ball of radius 3: %d particles (volume estimate %.0f), spacing %.4f h\n", n, expected, s);
	ENSURE(fabs(n - expected) < 0.06 * expected);
	for (int f = 0; f < 180; ++f) pdl_world_step(w); /* 3 s: the ball reaches the bottom */
	pdl_particle_data p = pdl_world_particles(w);
	int out = 0;
	float lowest = 1e9f;
	for (int i = 0; i < p.count; ++i) {
		float dz = p.z[i] - 1, r = sqrtf(p.x[i] * p.x[i] + p.y[i] * p.y[i] + dz * dz);
		out += r > 6 + 1e-3f;
		lowest = fminf(lowest, p.y[i]);
	}
	ENSURE_MSG(out == 0, "%d outside the sphere", out);
	ENSURE(lowest < -5); /* it fell to the bottom of the bowl */
	ENSURE(pdl_world_stats(w).non_finite == 0);
	pdl_world_destroy(w);
}

/* A pointer ray pulls the particles near it towards its line; a point pointer (no direction)
 * pulls towards its centre. */
static void test_pointer_ray_pulls_towards_its_line(void)
{
	pdl_material_def m = pdl_default_material_def();
	m.stiffness = 0;
	m.near_stiffness = 0;
	m.viscosity_sigma = m.viscosity_beta = 0;
	pdl_world* w = worlds_3d_create(1, PDL_SOLVER_CLAVET, &m);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_POINT;
	f.position = (pdl_vec3){1, 0, -5}; /* 1 from the ray's line, far down the ray */
	pdl_world_fill(w, &f, NULL);
	f.position = (pdl_vec3){1, 0, 5}; /* behind the ray's start: pulled towards the start */
	pdl_world_fill(w, &f, NULL);
	pdl_pointer ray = pdl_default_pointer();
	ray.position = (pdl_vec3){0, 0, 3};
	ray.direction = (pdl_vec3){0, 0, -2}; /* need not be unit */
	ray.radius = 3;
	ray.strength = 50;
	ENSURE(pdl_world_set_pointer(w, 0, &ray, NULL) == PDL_OK);
	pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	for (int i = 0; i < p.count; ++i) {
		if (p.id[i] == 0) { /* towards the line: -x only */
			ENSURE(p.vx[i] < 0);
			ENSURE(p.vy[i] == 0 && p.vz[i] == 0);
		} else { /* towards the start point (0, 0, 3): -x and -z */
			ENSURE(p.vx[i] < 0 && p.vz[i] < 0);
		}
	}
	pdl_world_destroy(w);
}

/* What 3D refuses, with the exact ids. */
static void test_3d_errors(void)
{
	pdl_world_def d = pdl_default_world_def();
	pdl_error e;
	d.dimensions = 4;
	ENSURE(pdl_world_create(&d, &e) == NULL && e.id == PDL_ERR_WORLD_DIMENSIONS);
	d.dimensions = 1;
	ENSURE(pdl_world_create(&d, &e) == NULL && e.id == PDL_ERR_WORLD_DIMENSIONS);
	pdl_world* w = worlds_3d_create(1, PDL_SOLVER_CLAVET, NULL);
	d = pdl_world_get_def(w);
	d.dimensions = 2;
	ENSURE(pdl_world_set_def(w, &d, &e) == PDL_ERR_WORLD_DIMENSIONS);
	pdl_boundary_def poly = pdl_default_boundary_def();
	poly.kind = PDL_BOUNDARY_POLYGON;
	poly.vertex_count = 3;
	poly.vertices[1] = (pdl_vec2){1, 0};
	poly.vertices[2] = (pdl_vec2){0, 1};
	ENSURE(pdl_world_add_boundary(w, &poly, &e).index < 0 && e.id == PDL_ERR_BOUNDARY_KIND_3D);
	pdl_boundary_def flat = pdl_default_boundary_def();
	flat.half_extents = (pdl_vec3){1, 1, 0};
	ENSURE(pdl_world_add_boundary(w, &flat, &e).index < 0 && e.id == PDL_ERR_BOUNDARY_HALF_EXTENTS);
	printf("  %s\n", e.message);
	pdl_fill_def spiral = pdl_default_fill_def();
	spiral.shape = PDL_FILL_SPIRAL;
	ENSURE(pdl_world_fill(w, &spiral, &e) < 0 && e.id == PDL_ERR_FILL_SHAPE_3D);
	pdl_fill_def thin = pdl_default_fill_def();
	thin.half_extents.z = -1;
	ENSURE(pdl_world_fill(w, &thin, &e) < 0 && e.id == PDL_ERR_FILL_HALF_EXTENTS);
	pdl_fill_def nan_z = pdl_default_fill_def();
	nan_z.position.z = NAN;
	ENSURE(pdl_world_fill(w, &nan_z, &e) < 0 && e.id == PDL_ERR_FILL_POSITION);
	pdl_pointer ray = pdl_default_pointer();
	ray.direction.z = INFINITY;
	ENSURE(pdl_world_set_pointer(w, 0, &ray, &e) == PDL_ERR_POINTER_DIRECTION);
	/* set_particles needs z and vz in 3D */
	float x = 0, y = 0, vx = 0, vy = 0;
	uint8_t mat = 0;
	pdl_particle_data data = {.count = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy, .material = &mat};
	ENSURE(pdl_world_set_particles(w, &data, &e) == PDL_ERR_NULL_ARGUMENT);
	/* a 3D box fill of half extents (5, 5, 5) is refused past max_particles, without walking it */
	d = pdl_world_get_def(w);
	d.max_particles = 1000;
	ENSURE(pdl_world_set_def(w, &d, NULL) == PDL_OK);
	ENSURE(pdl_world_fill(w, &(pdl_fill_def){.shape = PDL_FILL_BOX, .half_extents = {5, 5, 5}}, &e) < 0 &&
	       e.id == PDL_ERR_TOO_MANY_PARTICLES);
	pdl_world_destroy(w);
}

int main(void)
{
	/* RUN_TEST_THREADS_ELSEWHERE: left out under TSan, docs/testing.md ("threads-elsewhere") */
	RUN_TEST(test_3d_errors);
	RUN_TEST_THREADS_ELSEWHERE(test_pointer_ray_pulls_towards_its_line);
	RUN_TEST(test_sphere_container_and_fills);
	RUN_TEST_THREADS_ELSEWHERE(test_clavet_momentum_conserved);
	RUN_TEST(test_sph_momentum_conserved);
	RUN_TEST(test_clavet_dam_break_keeps_every_particle);
	RUN_TEST_THREADS_ELSEWHERE(test_sph_dam_break_keeps_every_particle);
	RUN_TEST(test_clavet_same_for_every_thread_count);
	RUN_TEST(test_sph_same_for_every_thread_count);
	return TEST_SUMMARY();
}
