/* Rigid bodies in the fluid (src/body.c, src/body_step.c): Archimedes, momentum, containment,
 * stacking, determinism and bad input. */
#include "test.h"
#include "worlds.h"

#include <stdlib.h>
#include <string.h>

#ifndef STIFF
#define STIFF 150.0f
#endif
#ifndef SUBSTEPS
#define SUBSTEPS 2
#endif

/* ---- Measuring ------------------------------------------------------------------------------- */

/* The mean free surface of a pool: the mean over columns of width h of the top fluid particle's
 * y plus half a rest spacing (the particles' own radius), over the columns farther than `skip`
 * from x = avoid (the bodies) and at least 2 h from the walls at +-wall. */
static float free_surface_2d(const pdl_world* w, float wall, const float* avoid, int avoid_count, float skip)
{
	pdl_particle_data p = pdl_world_particles(w);
	int columns = (int)(2 * wall);
	float* top = malloc((size_t)columns * sizeof *top);
	for (int c = 0; c < columns; ++c) top[c] = -1e30f;
	for (int i = 0; i < p.count; ++i) {
		int c = (int)floorf(p.x[i] + wall);
		if (c >= 0 && c < columns && p.y[i] > top[c]) top[c] = p.y[i];
	}
	double sum = 0;
	int used = 0;
	for (int c = 0; c < columns; ++c) {
		float x = (float)c + 0.5f - wall;
		bool near = fabsf(x) > wall - 2;
		for (int k = 0; k < avoid_count; ++k) near |= fabsf(x - avoid[k]) < skip;
		if (near || top[c] < -1e29f) continue;
		sum += top[c];
		used++;
	}
	free(top);
	pdl_material_def m = pdl_world_get_material(w, 0);
	return (float)(sum / used) + 0.5f * pdl_rest_spacing(pdl_world_get_def(w).interaction_radius, m.rest_density);
}

/* Area of a convex polygon below the line y = level (clipped, Sutherland-Hodgman). */
static float area_below(const pdl_vec2* v, int n, float level)
{
	pdl_vec2 out[2 * PDL_MAX_POLYGON_VERTICES];
	int m = 0;
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n];
		bool ain = a.y <= level, bin = b.y <= level;
		if (ain) out[m++] = a;
		if (ain != bin) {
			float t = (level - a.y) / (b.y - a.y);
			out[m++] = (pdl_vec2){a.x + t * (b.x - a.x), level};
		}
	}
	double area = 0;
	for (int i = 0; i < m; ++i) area += (double)out[i].x * out[(i + 1) % m].y - (double)out[(i + 1) % m].x * out[i].y;
	return (float)(0.5 * area);
}

/* The water's density over that of its rest lattice, to which body densities refer: the
 * particles times the lattice's area (3D: volume) per particle, over the measure of the tank
 * under the mean free surface less the bodies' parts under it. Archimedes holds for the water
 * a body is in, and a settled Clavet pool is denser than its fill lattice (the surface layer
 * draws in, the bulk packs more tightly than the lattice at the same kernel density): 2D about
 * 1.03 times, 3D about 1.2 times. */
static double water_density(const pdl_world* w, double under_surface)
{
	const float h = pdl_world_get_def(w).interaction_radius, rho0 = pdl_world_get_material(w, 0).rest_density;
	const bool three = pdl_world_get_def(w).dimensions == 3;
	const double s = three ? pdl_rest_spacing_3d(h, rho0) : pdl_rest_spacing(h, rho0);
	const double cell = three ? s * s * s / sqrt(2.0) : s * s * sqrt(3.0) / 2;
	return pdl_world_particle_count(w) * cell / under_surface;
}

static pdl_body_id add_box(pdl_world* w, float x, float y, float half, float density)
{
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){x, y, 0};
	d.half_extents = (pdl_vec3){half, half, half};
	d.density = density;
	pdl_error err;
	pdl_body_id id = pdl_world_add_body(w, &d, &err);
	if (id.index < 0) fprintf(stderr, "add_body: %s\n", err.message);
	return id;
}

/* ---- Archimedes ------------------------------------------------------------------------------- */

/* The 2D pool of the Archimedes tests (a 48 x 24 tank, boxes of side 2 half): each box's
 * share of its area under the mean free surface and the water's density (water_density),
 * averaged over `samples` samples 15 steps apart; returns the mean centre of the fourth box. */
static float measure_pool_2d(pdl_world* w, const pdl_body_id* ids, float half, int samples, double* share,
                             double* water, pdl_body_def* d)
{
	double floor_y = 0;
	*water = 0;
	for (int k = 0; k < 4; ++k) share[k] = 0;
	for (int sample = 0; sample < samples; ++sample) {
		for (int s = 0; s < (worlds_quick() ? 5 : 15); ++s) pdl_world_step(w);
		float at[4];
		for (int k = 0; k < 4; ++k) {
			pdl_world_get_body(w, ids[k], &d[k]);
			at[k] = d[k].position.x;
		}
		float surface = free_surface_2d(w, 24, at, 4, 3.5f);
		double bodies_under = 0;
		for (int k = 0; k < 4; ++k) {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
			int n = pdl_body_world_vertices(&d[k], v);
			float under = area_below(v, n, surface);
			bodies_under += under;
			share[k] += under / (4 * half * half) / samples;
		}
		*water += water_density(w, 48.0 * (surface + 12) - bodies_under) / samples;
		floor_y += d[3].position.y / samples;
	}
	return (float)floor_y;
}

/* Prints the Archimedes table: ratio, the share expected in the water as it is, measured. */
static void report_archimedes(const char* what, const float* ratios, const double* share, double water,
                              const char* measure)
{
	printf("  %swater %.3f times its rest lattice's density\n", what, water);
	for (int k = 0; k < 4; ++k)
		printf("  %sdensity ratio %.2f: expected %.3f, measured %.3f of its %s under the surface\n", what, ratios[k],
		       fmin(1, ratios[k] / water), share[k], measure);
}

/* Boxes at 0.25, 0.5 and 0.75 of the water's density, and one at 1.5, dropped into a pool:
 * after settling, each light one has that share of its area below the mean free surface (the
 * mean over 40 samples in 10 s), and the heavy one lies on the floor. The water is made stiff
 * (two substeps, k = 150), so that it is compressed by under 3% at the pool's floor: a body
 * floats on the fluid's real density, which is its rest density times that compression. */
static void test_archimedes_2d(void)
{
	const float ratios[4] = {0.25f, 0.5f, 0.75f, 1.5f}, xs[4] = {-15, -5, 5, 15}, half = 1.5f;
	pdl_material_def water = pdl_default_material_def();
	water.stiffness = STIFF;
	water.near_stiffness = 0.5f * STIFF;
	pdl_world* w = worlds_create(0, &water);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.substeps = SUBSTEPS;
	pdl_world_set_def(w, &wd, NULL);
	worlds_add_box_container(w, 24, 12);
	worlds_fill_box(w, 0, 0, -7.5f, 24, 4.5f);
	pdl_body_id ids[4];
	for (int k = 0; k < 4; ++k) ids[k] = add_box(w, xs[k], 0, half, ratios[k]);
	for (int k = 0; k < 4; ++k) ENSURE(ids[k].index >= 0);
	int steps = worlds_settle_steps(1200);
	for (int s = 0; s < steps; ++s) pdl_world_step(w);
	double share[4], dense, floor_y;
	pdl_body_def d[4];
	floor_y = measure_pool_2d(w, ids, half, worlds_quick() ? 1 : 40, share, &dense, d);
	pdl_stats st = pdl_world_stats(w);
	printf("  mean density error %.3f\n", st.mean_density_error);
	report_archimedes("", ratios, share, dense, "area");
	printf("  the heavy box's centre: %.3f (floor + half size: %.3f)\n", floor_y, -12 + half);
	pdl_world_destroy(w);
	if (worlds_quick()) return;
	for (int k = 0; k < 3; ++k)
		ENSURE_MSG(fabs(share[k] - ratios[k] / dense) < 0.05, "ratio %.2f floats with %.3f under", ratios[k], share[k]);
	ENSURE_MSG(floor_y < -12 + half + 0.25f, "the heavy box's centre is at %.3f", floor_y);
}

/* Share of a body's volume below y = level, sampled on a 24^3 grid of its box in its frame. */
static float volume_below_3d(const pdl_body_def* b, float level)
{
	const int n = 24;
	pdl_quat q = b->orientation;
	float r[9] = {1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y - q.z * q.w), 2 * (q.x * q.z + q.y * q.w),
	              2 * (q.x * q.y + q.z * q.w), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.x * q.w),
	              2 * (q.x * q.z - q.y * q.w), 2 * (q.y * q.z + q.x * q.w), 1 - 2 * (q.x * q.x + q.y * q.y)};
	int below = 0;
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j)
			for (int k = 0; k < n; ++k) {
				float l[3] = {((float)i + 0.5f) / n * 2 - 1, ((float)j + 0.5f) / n * 2 - 1, ((float)k + 0.5f) / n * 2 - 1};
				l[0] *= b->half_extents.x, l[1] *= b->half_extents.y, l[2] *= b->half_extents.z;
				below += b->position.y + r[3] * l[0] + r[4] * l[1] + r[5] * l[2] <= level;
			}
	return (float)below / (float)(n * n * n);
}

/* The 3D pool's mean free surface: the mean top particle (plus half a spacing) of the columns of
 * h x h farther than `skip` from every body and 2 h from the walls (|x| < wx, |z| < wz). */
static float free_surface_3d(const pdl_world* w, float wx, float wz, const pdl_vec3* avoid, int avoid_count, float skip)
{
	pdl_particle_data p = pdl_world_particles(w);
	int nx = (int)(2 * wx), nz = (int)(2 * wz);
	float* top = malloc((size_t)(nx * nz) * sizeof *top);
	for (int c = 0; c < nx * nz; ++c) top[c] = -1e30f;
	for (int i = 0; i < p.count; ++i) {
		int cx = (int)floorf(p.x[i] + wx), cz = (int)floorf(p.z[i] + wz);
		if (cx >= 0 && cx < nx && cz >= 0 && cz < nz && p.y[i] > top[cz * nx + cx]) top[cz * nx + cx] = p.y[i];
	}
	double sum = 0;
	int used = 0;
	for (int cz = 0; cz < nz; ++cz)
		for (int cx = 0; cx < nx; ++cx) {
			float x = (float)cx + 0.5f - wx, z = (float)cz + 0.5f - wz;
			bool near = fabsf(x) > wx - 2 || fabsf(z) > wz - 2;
			for (int k = 0; k < avoid_count; ++k)
				near |= fabsf(x - avoid[k].x) < skip && fabsf(z - avoid[k].z) < skip;
			if (near || top[cz * nx + cx] < -1e29f) continue;
			sum += top[cz * nx + cx];
			used++;
		}
	free(top);
	pdl_material_def m = pdl_world_get_material(w, 0);
	return (float)(sum / used) + 0.5f * pdl_rest_spacing_3d(pdl_world_get_def(w).interaction_radius, m.rest_density);
}

/* Archimedes in 3D: cubes at 0.25, 0.5 and 0.75 of the water's density, and one at 1.5, in a
 * 24 x 12 x 12 tank of water 5 h deep; the same measure by volume (mean of 20 samples in 5 s). */
static void test_archimedes_3d(void)
{
	const float ratios[4] = {0.25f, 0.5f, 0.75f, 1.5f}, half = 1.25f;
	pdl_material_def water = pdl_default_material_def();
	water.stiffness = STIFF;
	water.near_stiffness = 0.5f * STIFF;
	pdl_world* w = worlds_3d_create(0, PDL_SOLVER_CLAVET, &water);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.substeps = SUBSTEPS;
	pdl_world_set_def(w, &wd, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){12, 6, 6};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def fill = pdl_default_fill_def();
	fill.position = (pdl_vec3){0, -3.5f, 0};
	fill.half_extents = (pdl_vec3){12, 2.5f, 6};
	ENSURE(pdl_world_fill(w, &fill, NULL) > 0);
	pdl_body_id ids[4];
	pdl_vec3 at[4];
	for (int k = 0; k < 4; ++k) {
		pdl_body_def d = pdl_default_body_def();
		d.position = (pdl_vec3){-8.25f + 5.5f * (float)k, 1, 0};
		d.half_extents = (pdl_vec3){half, half, half};
		d.density = ratios[k];
		ids[k] = pdl_world_add_body(w, &d, NULL);
		ENSURE(ids[k].index >= 0);
	}
	int steps = worlds_settle_steps(600);
	for (int s = 0; s < steps; ++s) pdl_world_step(w);
	double share[4] = {0}, dense = 0;
	const int samples = worlds_quick() ? 1 : 20;
	const double cube = 8.0 * half * half * half;
	pdl_body_def d[4];
	for (int sample = 0; sample < samples; ++sample) {
		for (int s = 0; s < (worlds_quick() ? 5 : 15); ++s) pdl_world_step(w);
		for (int k = 0; k < 4; ++k) {
			pdl_world_get_body(w, ids[k], &d[k]);
			at[k] = d[k].position;
		}
		float surface = free_surface_3d(w, 12, 6, at, 4, 3.0f);
		double bodies_under = 0;
		for (int k = 0; k < 4; ++k) {
			float under = volume_below_3d(&d[k], surface);
			bodies_under += under * cube;
			share[k] += under / samples;
		}
		dense += water_density(w, 24.0 * 12.0 * (surface + 6) - bodies_under) / samples;
	}
	report_archimedes("3D ", ratios, share, dense, "volume");
	printf("  the heavy cube's centre: %.3f (floor + half size: %.3f)\n", d[3].position.y, -6 + half);
	pdl_world_destroy(w);
	if (worlds_quick()) return;
	/* the cubes at 0.5 and 0.75 float tilted on an edge (upright is unstable between 0.21 and
	 * 0.79): volume_below_3d follows their turn */
	for (int k = 0; k < 3; ++k)
		ENSURE_MSG(fabs(share[k] - ratios[k] / dense) < 0.05, "ratio %.2f floats with %.3f under", ratios[k], share[k]);
	ENSURE_MSG(d[3].position.y < -6 + half + 0.25f, "the heavy cube's centre is at %.3f", d[3].position.y);
}

/* Archimedes with the SPH solver: the same 2D pool, coupled through Akinci's boundary forces
 * (body_sph.c, "SPH"), with boxes 5 h across: the 0.25 box of 3 h drew 0.5 h, less than the
 * kernel's reach, and its draft moved by 0.1 h (0.04 of its area) with the walls' friction
 * rule, which has nothing to do with buoyancy. */
static void test_archimedes_sph(void)
{
	const float ratios[4] = {0.25f, 0.5f, 0.75f, 1.5f}, xs[4] = {-15, -5, 5, 15}, half = 2.5f;
	pdl_world* w = worlds_sph_create(0);
	worlds_add_box_container(w, 24, 12);
	worlds_fill_box(w, 0, 0, -7.5f, 24, 4.5f);
	pdl_body_id ids[4];
	for (int k = 0; k < 4; ++k) ids[k] = add_box(w, xs[k], 0, half, ratios[k]);
	for (int k = 0; k < 4; ++k) ENSURE(ids[k].index >= 0);
	int steps = worlds_settle_steps(600);
	for (int s = 0; s < steps; ++s) pdl_world_step(w);
	double share[4], dense;
	pdl_body_def d[4];
	measure_pool_2d(w, ids, half, worlds_quick() ? 1 : 20, share, &dense, d);
	report_archimedes("SPH ", ratios, share, dense, "area");
	printf("  the heavy box's centre: %.3f (floor + half size: %.3f)\n", d[3].position.y, -12 + half);
	pdl_world_destroy(w);
	if (worlds_quick()) return;
	/* measured: within 0.012, 0.032 and 0.010 */
	for (int k = 0; k < 3; ++k)
		ENSURE_MSG(fabs(share[k] - ratios[k] / dense) < 0.05, "ratio %.2f floats with %.3f under", ratios[k], share[k]);
	/* The heavy box sinks, but slowly: the SPH water (nu = 0.5) under it drains through the
	 * gap at about 0.01 h/s once it is 3 h off the floor (docs/physics.md, "Bodies"). */
	ENSURE_MSG(share[3] > 0.999 && d[3].position.y < d[2].position.y - 2, "the heavy box's centre is at %.3f",
	           d[3].position.y);
}

/* ---- Momentum ----------------------------------------------------------------------------------- */

/* Linear momentum of fluid and bodies together, and sum m |v|. */
static void total_momentum(const pdl_world* w, double p[3], double* magnitude)
{
	pdl_particle_data d = pdl_world_particles(w);
	p[0] = p[1] = p[2] = 0;
	*magnitude = 0;
	for (int i = 0; i < d.count; ++i) {
		double m = pdl_world_get_material(w, d.material[i]).mass;
		double vz = d.vz ? d.vz[i] : 0;
		p[0] += m * d.vx[i], p[1] += m * d.vy[i], p[2] += m * vz;
		*magnitude += m * sqrt((double)d.vx[i] * d.vx[i] + (double)d.vy[i] * d.vy[i] + vz * vz);
	}
	pdl_body_id ids[64];
	int n = pdl_world_bodies(w, ids, 64);
	for (int k = 0; k < n; ++k) {
		pdl_body_def b;
		pdl_world_get_body(w, ids[k], &b);
		double m = pdl_world_body_mass(w, ids[k]).mass;
		pdl_vec3 v = b.linear_velocity;
		p[0] += m * v.x, p[1] += m * v.y, p[2] += m * v.z;
		*magnitude += m * sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
	}
}

/* No gravity, a closed box far bigger than the fluid: two bodies thrown through a blob of water
 * and into each other. Fluid-body pairs, containment and body contacts all exchange momentum in
 * equal and opposite parts, so the total stays put (to 1e-4 of sum m |v|) for 600 steps. */
static void test_momentum_fluid_and_bodies(void)
{
	pdl_world* w = worlds_create(0, NULL);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &wd, NULL);
	worlds_add_box_container(w, 60, 60);
	worlds_fill_box(w, 0, 0, 0, 6, 6);
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){-12, 0.5f, 0};
	d.linear_velocity = (pdl_vec3){4, 0, 0};
	d.angular_velocity = (pdl_vec3){0, 0, 1};
	d.density = 0.8f;
	ENSURE(pdl_world_add_body(w, &d, NULL).index >= 0);
	d.shape = PDL_BODY_CIRCLE;
	d.position = (pdl_vec3){12, -0.5f, 0};
	d.linear_velocity = (pdl_vec3){-3, 0.5f, 0};
	d.density = 1.3f;
	ENSURE(pdl_world_add_body(w, &d, NULL).index >= 0);
	double p0[3], p[3], scale, worst = 0;
	total_momentum(w, p0, &scale);
	int steps = worlds_steps(600);
	for (int s = 0; s < steps; ++s) {
		pdl_world_step(w);
		double mag;
		total_momentum(w, p, &mag);
		double drift = sqrt((p[0] - p0[0]) * (p[0] - p0[0]) + (p[1] - p0[1]) * (p[1] - p0[1]));
		if (drift / scale > worst) worst = drift / scale;
	}
	printf("  largest drift of the total momentum: %.2e of sum m|v| (%.1f)\n", worst, scale);
	ENSURE_MSG(worst < 1e-4, "drift %.3e", worst);
	pdl_world_destroy(w);
}

/* Angular momentum of the fluid about a point (2D: z). */
static double fluid_angular_momentum(const pdl_world* w, float cx, float cy)
{
	pdl_particle_data d = pdl_world_particles(w);
	double l = 0;
	for (int i = 0; i < d.count; ++i)
		l += pdl_world_get_material(w, d.material[i]).mass * ((d.x[i] - cx) * (double)d.vy[i] - (d.y[i] - cy) * (double)d.vx[i]);
	return l;
}

/* A box spinning in still water, with no gravity: the water's viscosity slows it down and the
 * water takes up the angular momentum the box loses. */
static void test_spinning_body_slows_and_stirs(void)
{
	pdl_world* w = worlds_create(0, NULL);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &wd, NULL);
	worlds_add_box_container(w, 20, 20);
	worlds_fill_box(w, 0, 0, 0, 12, 12);
	pdl_world_remove_particles_in_box(w, (pdl_vec3){0, 0, 0}, (pdl_vec3){2.5f, 1.0f, 0});
	pdl_body_def d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){2.5f, 1.0f, 1};
	d.density = 1.0f;
	d.angular_velocity = (pdl_vec3){0, 0, 3};
	pdl_body_id id = pdl_world_add_body(w, &d, NULL);
	ENSURE(id.index >= 0);
	/* let the water fill in around it for a moment with the box held, then let it spin */
	double inertia = pdl_world_body_mass(w, id).inertia.z;
	double fluid0 = fluid_angular_momentum(w, 0, 0), body0 = inertia * 3;
	int steps = worlds_steps(120);
	for (int s = 0; s < steps; ++s) pdl_world_step(w);
	pdl_world_get_body(w, id, &d);
	double body1 = inertia * d.angular_velocity.z, fluid1 = fluid_angular_momentum(w, d.position.x, d.position.y);
	printf("  omega 3 -> %.3f rad/s in 2 s; body L %.1f -> %.1f, fluid L %.1f -> %.1f (sum %.1f -> %.1f)\n",
	       d.angular_velocity.z, body0, body1, fluid0, fluid1, body0 + fluid0, body1 + fluid1);
	ENSURE_MSG(d.angular_velocity.z < 0.8 * 3 && d.angular_velocity.z > 0, "omega %.3f", d.angular_velocity.z);
	ENSURE_MSG(fluid1 - fluid0 > 0.5 * (body0 - body1), "the fluid took %.1f of the %.1f the body lost", fluid1 - fluid0,
	           body0 - body1);
	pdl_world_destroy(w);
}

/* ---- Containment and stacking ------------------------------------------------------------------- */

/* Whether (x, y) lies deeper than tol inside a 2D box body. */
static bool inside_box(const pdl_body_def* b, float x, float y, float tol)
{
	float c = cosf(b->angle), s = sinf(b->angle), ox = x - b->position.x, oy = y - b->position.y;
	float lx = c * ox + s * oy, ly = -s * ox + c * oy;
	return fabsf(lx) < b->half_extents.x - tol && fabsf(ly) < b->half_extents.y - tol;
}

/* Bodies added before the fluid: the fill leaves their space (no particle inside a body or
 * within half a spacing of its surface), so nothing is pushed out at the start; then the light
 * ones rise, lightest highest, and the heavy one sinks to the floor. */
static void test_fill_around_bodies(void)
{
	pdl_world* w = worlds_create(0, NULL);
	worlds_add_box_container(w, 24, 12);
	const float ratios[3] = {0.25f, 0.75f, 1.5f};
	pdl_body_id ids[3];
	pdl_body_def d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){1.5f, 1.5f, 1.5f};
	for (int k = 0; k < 3; ++k) {
		d.position = (pdl_vec3){-12 + 12.0f * (float)k, -7, 0};
		d.angle = 0.4f * (float)k;
		d.density = ratios[k];
		ids[k] = pdl_world_add_body(w, &d, NULL);
		ENSURE(ids[k].index >= 0);
	}
	const int n = worlds_fill_box(w, 0, 0, -7.5f, 24, 4.5f);
	const float s = pdl_rest_spacing(1, pdl_world_get_material(w, 0).rest_density);
	pdl_particle_data p = pdl_world_particles(w);
	ENSURE(p.count == n);
	int close = 0;
	for (int k = 0; k < 3; ++k) {
		pdl_body_def b;
		pdl_world_get_body(w, ids[k], &b);
		for (int i = 0; i < p.count; ++i) close += inside_box(&b, p.x[i], p.y[i], -0.49f * s);
	}
	ENSURE_MSG(close == 0, "%d particles inside or within half a spacing of a body", close);
	/* the same fill without the bodies makes about 3 boxes' worth of particles more */
	pdl_world* empty = worlds_create(0, NULL);
	worlds_add_box_container(empty, 24, 12);
	const int all = worlds_fill_box(empty, 0, 0, -7.5f, 24, 4.5f);
	pdl_world_destroy(empty);
	const float boxes = 3 * 9 / (s * s * 0.8660254f); /* particles of the rest lattice in 3 boxes */
	printf("  %d particles around 3 bodies, %d without (3 boxes hold %.0f)\n", n, all, boxes);
	ENSURE(all - n > boxes && all - n < 1.6f * boxes);
	for (int step = 0, steps = worlds_steps(600); step < steps; ++step) pdl_world_step(w);
	pdl_body_def b[3];
	for (int k = 0; k < 3; ++k) pdl_world_get_body(w, ids[k], &b[k]);
	printf("  after 10 s: centres at y %.2f (0.25), %.2f (0.75), %.2f (1.5; floor + half size -10.5)\n",
	       b[0].position.y, b[1].position.y, b[2].position.y);
	if (!worlds_quick()) {
		ENSURE(b[0].position.y > b[1].position.y + 0.5f);
		ENSURE(b[1].position.y > -7);
		ENSURE(b[2].position.y < -10.5f + 0.3f);
	}
	pdl_world_destroy(w);
}

/* A dam break into a stack of three boxes: at every frame no fluid particle is inside a body
 * (by more than 0.05 h), and no body's corner leaves the tank (by more than 0.05 h, a seventh
 * of the particle spacing: the wave presses the stack into the wall and the Jacobi contact
 * iterations leave a little overlap for the next substep; measured 0.025 h). */
static void test_containment_dam_break_into_boxes(void)
{
	pdl_world* w = worlds_create(0, NULL);
	worlds_add_box_container(w, 20, 10);
	worlds_fill_box(w, 0, -15, -3, 5, 7);
	pdl_body_id ids[3];
	for (int k = 0; k < 3; ++k) {
		pdl_body_def d = pdl_default_body_def();
		d.position = (pdl_vec3){8, -9 + 2.02f * (float)k, 0};
		d.density = 0.7f;
		ids[k] = pdl_world_add_body(w, &d, NULL);
		ENSURE(ids[k].index >= 0);
	}
	int steps = worlds_steps(400), inside = 0, outside = 0;
	float worst = -1;
	for (int s = 0; s < steps; ++s) {
		pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		for (int k = 0; k < 3; ++k) {
			pdl_body_def d;
			pdl_world_get_body(w, ids[k], &d);
			for (int i = 0; i < p.count; ++i) inside += inside_box(&d, p.x[i], p.y[i], 0.05f);
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
			int n = pdl_body_world_vertices(&d, v);
			for (int c = 0; c < n; ++c) {
				float out = fmaxf(fabsf(v[c].x) - 20, fabsf(v[c].y) - 10);
				worst = fmaxf(worst, out);
				outside += out > 0.05f;
			}
		}
	}
	printf("  corners: at most %.4f h past the walls\n", worst);
	ENSURE_MSG(inside == 0, "%d particle-frames inside a body", inside);
	ENSURE_MSG(outside == 0, "%d corner-frames outside the tank", outside);
	pdl_world_destroy(w);
}

/* External coupling: a kinematic paddle driven at constant speed through a blob of water in
 * empty space (no gravity, no wall within reach). Each step the force it reports, times dt, is
 * minus the momentum the water gained: what an external rigid-body engine reads back is exactly
 * the reaction. */
static void test_kinematic_force_is_the_reaction(void)
{
	pdl_world* w = worlds_create(0, NULL);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.gravity = (pdl_vec3){0, 0, 0};
	pdl_world_set_def(w, &wd, NULL);
	worlds_add_box_container(w, 60, 60);
	worlds_fill_box(w, 0, 0, 0, 8, 8);
	pdl_body_def d = pdl_default_body_def();
	d.type = PDL_BODY_KINEMATIC;
	d.half_extents = (pdl_vec3){0.75f, 3, 1};
	d.position = (pdl_vec3){-12, 0.3f, 0};
	d.linear_velocity = (pdl_vec3){6, 0, 0};
	d.angular_velocity = (pdl_vec3){0, 0, 0.5f};
	pdl_body_id paddle = pdl_world_add_body(w, &d, NULL);
	ENSURE(paddle.index >= 0);
	double p0[3], p1[3], scale, worst = 0, largest = 0;
	/* (at least 40 steps: the paddle reaches the water in its 33rd) */
	for (int s = 0, n = worlds_steps(240) > 40 ? worlds_steps(240) : 40; s < n; ++s) {
		total_momentum(w, p0, &scale);
		pdl_world_get_body(w, paddle, &d); /* drive it: the pose follows its velocity */
		d.position.x += wd.dt * d.linear_velocity.x;
		d.angle += wd.dt * d.angular_velocity.z;
		pdl_world_set_body(w, paddle, &d, NULL);
		pdl_world_step(w);
		total_momentum(w, p1, &scale); /* (the kinematic body's own momentum cancels out) */
		pdl_body_force f = pdl_world_body_force(w, paddle);
		double fx = f.force.x * wd.dt, fy = f.force.y * wd.dt;
		double gx = p1[0] - p0[0], gy = p1[1] - p0[1];
		worst = fmax(worst, hypot(fx + gx, fy + gy));
		largest = fmax(largest, hypot(gx, gy));
	}
	printf("  largest momentum the water gained in a step %.3f; largest mismatch with -F dt %.2e\n", largest, worst);
	ENSURE(largest > 1);
	ENSURE_MSG(worst < 1e-4 * largest, "the reported force misses the reaction by %.3g", worst);
	pdl_world_destroy(w);
}

/* A kinematic box lying on the floor of a pool, beside the same box held in mid-water: the
 * fluid under the floor box must not be pumped between the box and the floor (pushed out of
 * the box into the floor, put back into the box by the floor, each round trip handing the box
 * its momentum): it then felt 1.43 times the mid-water box's Archimedes force. With nothing
 * under it, the water above presses it down; the box in mid-water feels Archimedes (and the
 * 3 to 9% of the water's compression at that depth). */
static void test_box_on_the_floor_is_not_pumped(void)
{
	pdl_material_def water = pdl_default_material_def();
	water.stiffness = STIFF;
	water.near_stiffness = 0.5f * STIFF;
	pdl_world* w = worlds_create(0, &water);
	pdl_world_def wd = pdl_world_get_def(w);
	wd.substeps = SUBSTEPS;
	pdl_world_set_def(w, &wd, NULL);
	worlds_add_box_container(w, 24, 12);
	worlds_fill_box(w, 0, 0, -7.5f, 24, 4.5f);
	pdl_body_def d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){1.5f, 1.5f, 1.5f};
	d.position = (pdl_vec3){0, 5, 0};
	d.density = 1;
	pdl_body_id probe = pdl_world_add_body(w, &d, NULL); /* density 1: the displaced water's mass */
	const float archimedes = pdl_world_body_mass(w, probe).mass * 10;
	pdl_world_remove_body(w, probe, NULL);
	d.type = PDL_BODY_KINEMATIC;
	d.position = (pdl_vec3){-8, -12 + 1.5f, 0};
	pdl_body_id floor_box = pdl_world_add_body(w, &d, NULL);
	d.position = (pdl_vec3){8, -7.5f, 0};
	pdl_body_id mid_box = pdl_world_add_body(w, &d, NULL);
	ENSURE(floor_box.index >= 0 && mid_box.index >= 0);
	for (int s = 0, n = worlds_steps(1200); s < n; ++s) pdl_world_step(w);
	double on_floor = 0, mid = 0;
	const int window = worlds_quick() ? 50 : 300;
	for (int s = 0; s < window; ++s) {
		pdl_world_step(w);
		on_floor += pdl_world_body_force(w, floor_box).force.y / window;
		mid += pdl_world_body_force(w, mid_box).force.y / window;
	}
	printf("  upward force from the fluid: on the floor %.0f, in mid-water %.0f (Archimedes %.0f)\n", on_floor, mid, archimedes);
	ENSURE_MSG(on_floor < 0.5 * archimedes, "the box on the floor is pushed up by %.0f", on_floor);
	if (!worlds_quick()) ENSURE_MSG(fabs(mid / archimedes - 1.05) < 0.1, "mid-water: %.3f of Archimedes", mid / archimedes);
	pdl_world_destroy(w);
}

/* Five boxes stacked in air stand still for 10 s: each moves less than 0.05 h and turns less
 * than 0.02 rad. */
static void test_stack_of_five_stands(void)
{
	pdl_world* w = worlds_create(0, NULL);
	worlds_add_box_container(w, 20, 20);
	pdl_body_id ids[5];
	pdl_vec3 start[5];
	float spacing = 0;
	for (int k = 0; k < 5; ++k) {
		pdl_body_def d = pdl_default_body_def();
		d.half_extents = (pdl_vec3){1.5f, 1.0f, 1};
		d.position = (pdl_vec3){0, -19 + 2.0f * (float)k, 0};
		ids[k] = pdl_world_add_body(w, &d, NULL);
		ENSURE(ids[k].index >= 0);
		spacing = pdl_world_body_mass(w, ids[k]).spacing;
	}
	/* the first second lets them settle onto each other (they start touching, particle
	 * layers a spacing apart) */
	for (int s = 0; s < 60; ++s) pdl_world_step(w);
	for (int k = 0; k < 5; ++k) {
		pdl_body_def d;
		pdl_world_get_body(w, ids[k], &d);
		start[k] = d.position;
	}
	float worst_move = 0, worst_turn = 0;
	int steps = worlds_steps(600);
	for (int s = 0; s < steps; ++s) {
		pdl_world_step(w);
		for (int k = 0; k < 5; ++k) {
			pdl_body_def d;
			pdl_world_get_body(w, ids[k], &d);
			float dx = d.position.x - start[k].x, dy = d.position.y - start[k].y;
			worst_move = fmaxf(worst_move, sqrtf(dx * dx + dy * dy));
			worst_turn = fmaxf(worst_turn, fabsf(d.angle));
		}
	}
	pdl_body_def top;
	pdl_world_get_body(w, ids[4], &top);
	printf("  over 10 s: largest move %.4f h, largest turn %.4f rad; top box at y %.3f (spacing %.3f)\n", worst_move,
	       worst_turn, top.position.y, spacing);
	ENSURE_MSG(worst_move < 0.05f && worst_turn < 0.02f, "move %.4f turn %.4f", worst_move, worst_turn);
	pdl_world_destroy(w);
}

/* ---- Determinism -------------------------------------------------------------------------------- */

static pdl_world* dam_break_boxes(int threads)
{
	pdl_world* w = worlds_create(threads, NULL);
	worlds_add_box_container(w, 20, 10);
	worlds_fill_box(w, 0, -15, -3, 5, 7);
	for (int k = 0; k < 4; ++k) {
		pdl_body_def d = pdl_default_body_def();
		d.shape = k == 3 ? PDL_BODY_POLYGON : k == 2 ? PDL_BODY_CIRCLE : PDL_BODY_BOX;
		d.vertex_count = 3;
		d.vertices[0] = (pdl_vec2){-1, -1}, d.vertices[1] = (pdl_vec2){1.5f, -1}, d.vertices[2] = (pdl_vec2){0, 1.2f};
		d.position = (pdl_vec3){6 + 3.5f * (float)(k % 2), -8.5f + 2.5f * (float)(k / 2), 0};
		d.density = 0.4f + 0.3f * (float)k;
		if (pdl_world_add_body(w, &d, NULL).index < 0) abort();
	}
	return w;
}

/* The same hash for 1, 2 and 4 threads; and after a restore (particles with
 * pdl_world_set_particles, bodies re-added from pdl_world_get_body in slot order, the clock), as
 * a snapshot does, the run goes on bitwise as if never stopped. */
static void test_determinism_threads_and_restore(void)
{
	int steps = worlds_steps(240);
	uint64_t hashes[3];
	const int threads[3] = {1, 2, 4};
	for (int t = 0; t < 3; ++t) {
		pdl_world* w = dam_break_boxes(threads[t]);
		for (int s = 0; s < steps; ++s) pdl_world_step(w);
		hashes[t] = pdl_world_hash(w);
		pdl_world_destroy(w);
	}
	printf("  hashes: %016llx %016llx %016llx\n", (unsigned long long)hashes[0], (unsigned long long)hashes[1],
	       (unsigned long long)hashes[2]);
	ENSURE(hashes[0] == hashes[1] && hashes[1] == hashes[2]);
	/* restore halfway */
	pdl_world* a = dam_break_boxes(2);
	for (int s = 0; s < steps / 2; ++s) pdl_world_step(a);
	pdl_world* b = worlds_create(2, NULL);
	worlds_add_box_container(b, 20, 10);
	pdl_particle_data p = pdl_world_particles(a);
	ENSURE(pdl_world_set_particles(b, &p, NULL) == PDL_OK);
	pdl_body_id ids[16];
	int n = pdl_world_bodies(a, ids, 16);
	for (int k = 0; k < n; ++k) {
		pdl_body_def d;
		pdl_world_get_body(a, ids[k], &d);
		ENSURE(pdl_world_add_body(b, &d, NULL).index >= 0);
	}
	pdl_world_set_clock(b, pdl_world_time(a), pdl_world_step_count(a));
	ENSURE(pdl_world_hash(a) == pdl_world_hash(b));
	for (int s = steps / 2; s < steps; ++s) {
		pdl_world_step(a);
		pdl_world_step(b);
	}
	ENSURE(pdl_world_hash(a) == hashes[0]);
	ENSURE(pdl_world_hash(b) == hashes[0]);
	pdl_world_destroy(a);
	pdl_world_destroy(b);
}

/* ---- Bad input ---------------------------------------------------------------------------------- */

static void expect_refused(pdl_world* w, const pdl_body_def* d, pdl_error_id id)
{
	uint64_t before = pdl_world_hash(w);
	int count = pdl_world_body_count(w);
	pdl_error err;
	pdl_body_id got = pdl_world_add_body(w, d, &err);
	if (got.index >= 0 || err.id != id)
		fprintf(stderr, "  expected %s, got %s (%s)\n", pdl_error_name(id), pdl_error_name(err.id), err.message);
	test_case_failed |= got.index >= 0 || err.id != id || pdl_world_body_count(w) != count || pdl_world_hash(w) != before;
}

static void test_bad_bodies_are_refused(void)
{
	pdl_world* empty = pdl_world_create(&(pdl_world_def){0}, NULL); /* an invalid def: NULL */
	ENSURE(empty == NULL);
	pdl_world_def wd = pdl_default_world_def();
	pdl_world* bare = pdl_world_create(&wd, NULL);
	pdl_body_def d = pdl_default_body_def();
	expect_refused(bare, &d, PDL_ERR_BODY_NO_MATERIAL);
	pdl_world_destroy(bare);

	pdl_world* w = worlds_create(1, NULL);
	worlds_add_box_container(w, 20, 10);
	worlds_fill_box(w, 0, -10, -5, 5, 5);
	pdl_body_id kept = pdl_world_add_body(w, &d, NULL);
	ENSURE(kept.index >= 0);
	pdl_error err;
	d.density = -1;
	expect_refused(w, &d, PDL_ERR_BODY_DENSITY);
	pdl_world_add_body(w, &d, &err);
	ENSURE(strcmp(err.message, "body.density must be finite and in (0, 1000], got -1") == 0);
	d = pdl_default_body_def();
	d.half_extents.x = 0;
	expect_refused(w, &d, PDL_ERR_BODY_HALF_EXTENTS);
	d = pdl_default_body_def();
	d.position.x = NAN;
	expect_refused(w, &d, PDL_ERR_BODY_POSITION);
	d = pdl_default_body_def();
	d.position = (pdl_vec3){19.5f, 0, 0};
	expect_refused(w, &d, PDL_ERR_BODY_OUTSIDE);
	d = pdl_default_body_def();
	d.shape = PDL_BODY_POLYGON;
	d.vertex_count = 4; /* a dart: the turn at (0, 0) is clockwise */
	d.vertices[0] = (pdl_vec2){-2, -2}, d.vertices[1] = (pdl_vec2){0, 0}, d.vertices[2] = (pdl_vec2){2, -2};
	d.vertices[3] = (pdl_vec2){0, 2};
	expect_refused(w, &d, PDL_ERR_BODY_VERTICES);
	d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){1e4f, 1e4f, 1};
	expect_refused(w, &d, PDL_ERR_BODY_SIZE);
	d = pdl_default_body_def();
	d.friction = 2;
	expect_refused(w, &d, PDL_ERR_BODY_FRICTION);
	d = pdl_default_body_def();
	d.type = (pdl_body_type)7;
	expect_refused(w, &d, PDL_ERR_BODY_TYPE);
	ENSURE(!test_case_failed);
	/* a removed body's id is refused, even once its slot is reused */
	ENSURE(pdl_world_remove_body(w, kept, NULL) == PDL_OK);
	ENSURE(pdl_world_remove_body(w, kept, &err) == PDL_ERR_BODY_ID);
	d = pdl_default_body_def();
	pdl_body_id again = pdl_world_add_body(w, &d, NULL);
	ENSURE(again.index == kept.index && again.generation != kept.generation);
	ENSURE(!pdl_world_body_valid(w, kept) && pdl_world_body_valid(w, again));
	ENSURE(pdl_world_set_body(w, kept, &d, &err) == PDL_ERR_BODY_ID);
	/* too many: fill up to the limit with small boxes, then one more */
	pdl_world* many = worlds_create(1, NULL);
	d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){0.3f, 0.3f, 1};
	for (int k = 0; k < PDL_MAX_BODIES; ++k) {
		d.position = (pdl_vec3){(float)(k % 64), (float)(k / 64), 0};
		if (pdl_world_add_body(many, &d, NULL).index < 0) break;
	}
	ENSURE(pdl_world_body_count(many) == PDL_MAX_BODIES);
	expect_refused(many, &d, PDL_ERR_TOO_MANY_BODIES);
	ENSURE(!test_case_failed);
	pdl_world_destroy(many);
	pdl_world_destroy(w);
}

/* The world works material 0's rest spacing out once and keeps it (body.c, body_spacing), so a
 * change of h or of material 0's rest density must make it work it out again: a body added after
 * the change weighs what the same body weighs in a world made with the new values, bit for bit. */
static pdl_body_mass add_and_weigh(pdl_world* w, float x)
{
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){x, 0, 0};
	pdl_body_id id = pdl_world_add_body(w, &d, NULL);
	return id.index >= 0 ? pdl_world_body_mass(w, id) : (pdl_body_mass){.particles = -1}; /* refused */
}

static bool same_weight(pdl_body_mass a, pdl_body_mass b)
{
	return a.particles > 0 && a.mass == b.mass && a.inertia.z == b.inertia.z && a.particles == b.particles &&
	       a.spacing == b.spacing;
}

static pdl_body_mass weigh_in_new_world(const pdl_world_def* wd, const pdl_material_def* md)
{
	pdl_world* w = pdl_world_create(wd, NULL);
	pdl_body_mass m = w && pdl_world_add_material(w, md, NULL) == 0 ? add_and_weigh(w, 0) : (pdl_body_mass){.particles = -1};
	pdl_world_destroy(w);
	return m;
}

static void test_spacing_follows_h_and_rest_density(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_world_def wd = pdl_world_get_def(w);
	pdl_material_def md = pdl_world_get_material(w, 0);
	pdl_body_mass first = add_and_weigh(w, 0);
	ENSURE(same_weight(add_and_weigh(w, 5), first));
	wd.interaction_radius *= 1.25f;
	ENSURE(pdl_world_set_def(w, &wd, NULL) == PDL_OK);
	pdl_body_mass wider = add_and_weigh(w, 10);
	ENSURE(wider.spacing != first.spacing);
	ENSURE(same_weight(wider, weigh_in_new_world(&wd, &md)));
	md.rest_density *= 2;
	ENSURE(pdl_world_set_material(w, 0, &md, NULL) == PDL_OK);
	pdl_body_mass denser = add_and_weigh(w, 15);
	ENSURE(denser.spacing != wider.spacing);
	ENSURE(same_weight(denser, weigh_in_new_world(&wd, &md)));
	/* and back */
	wd = pdl_world_get_def(w), wd.interaction_radius /= 1.25f;
	md.rest_density /= 2;
	ENSURE(pdl_world_set_def(w, &wd, NULL) == PDL_OK && pdl_world_set_material(w, 0, &md, NULL) == PDL_OK);
	ENSURE(same_weight(add_and_weigh(w, 20), first));
	printf("  spacing %.4f, with h x 1.25 %.4f, and rest density x 2 %.4f\n", first.spacing, wider.spacing, denser.spacing);
	pdl_world_destroy(w);
}

/* pdl_body_mass.bound_radius: the farthest point of the shape from the centre of mass, in any
 * orientation (the MPI layer sizes each body's zone with it). */
static float bound_radius_of(pdl_world* w, pdl_body_def d)
{
	pdl_body_id id = pdl_world_add_body(w, &d, NULL);
	return id.index >= 0 ? pdl_world_body_mass(w, id).bound_radius : -1.0f;
}

static void test_bound_radius(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_body_def d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){1, 2, 0};
	const float box = bound_radius_of(w, d);
	d.position = (pdl_vec3){10, 0, 0}, d.angle = 0.7f;
	const float turned = bound_radius_of(w, d);
	pdl_body_def c = pdl_default_body_def();
	c.shape = PDL_BODY_CIRCLE, c.radius = 1.5f, c.position = (pdl_vec3){-10, 0, 0};
	const float circle = bound_radius_of(w, c);
	/* a right triangle: its centroid is (1, 1) from the right angle, the far vertex (3, 0) */
	pdl_body_def t = pdl_default_body_def();
	t.shape = PDL_BODY_POLYGON, t.position = (pdl_vec3){0, 8, 0}, t.vertex_count = 3;
	t.vertices[0] = (pdl_vec2){0, 0}, t.vertices[1] = (pdl_vec2){3, 0}, t.vertices[2] = (pdl_vec2){0, 3};
	const float triangle = bound_radius_of(w, t);
	pdl_world_destroy(w);
	pdl_world* w3 = worlds_3d_create(1, PDL_SOLVER_CLAVET, NULL);
	d = pdl_default_body_def();
	d.half_extents = (pdl_vec3){1, 2, 2};
	const float box3 = bound_radius_of(w3, d);
	c.position = (pdl_vec3){10, 0, 0};
	const float sphere = bound_radius_of(w3, c);
	pdl_world_destroy(w3);
	printf("  box 1 x 2: %.6f (turned %.6f), circle 1.5: %.6f, triangle: %.6f, 3D box 1 x 2 x 2: %.6f, sphere: %.6f\n",
	       box, turned, circle, triangle, box3, sphere);
	ENSURE(fabsf(box - sqrtf(5.0f)) < 1e-6f && turned == box);
	ENSURE(circle == 1.5f && sphere == 1.5f);
	ENSURE(fabsf(triangle - sqrtf(5.0f)) < 1e-5f);
	ENSURE(fabsf(box3 - 3.0f) < 1e-6f);
}

/* A body nowhere near the fluid: finding the near fluid finds none. The snapshot fuzzer (clang's
 * UBSan) found that this added an offset to a list never allocated, a NULL pointer; GCC's UBSan,
 * which make test's sanitizer build uses, does not check NULL + 0, so here this only keeps the
 * case running. The body still falls. */
static void test_body_far_from_all_fluid(void)
{
	pdl_world* w = worlds_create(1, NULL);
	worlds_add_box_container(w, 20, 10);
	ENSURE(worlds_fill_box(w, 0, -16, -8, 2, 2) > 0);
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){15, 5, 0};
	pdl_body_id id = pdl_world_add_body(w, &d, NULL);
	ENSURE(id.index >= 0);
	for (int s = 0; s < 10; ++s) pdl_world_step(w);
	pdl_body_def now;
	ENSURE(pdl_world_get_body(w, id, &now));
	printf("  the body fell from y 5 to %.3f; no fluid within reach\n", now.position.y);
	ENSURE(now.position.y < 5 && now.linear_velocity.y < 0);
	pdl_world_destroy(w);
}

/* A body the step sends past FLT_MAX (fuzz_snapshot found one of density 5.8e-39, legal, which
 * the fluid's pushes sent off; here one starts near FLT_MAX and moves on, to inf, then NaN).
 * The step must stay defined: the bodies' grid measured a box of NaN samples as -inf cells and
 * converted that to unsigned (UBSan in the sanitizer build of this test; fixed in
 * body_step.c). */
static void test_body_past_float_max_leaves_the_step_defined(void)
{
	pdl_world* w = worlds_create(1, NULL); /* no container: a body must lie inside one */
	const int fluid = worlds_fill_box(w, 0, 0, -7, 8, 2);
	ENSURE(fluid > 0);
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){3.3e38f, 0, 0};
	d.linear_velocity = (pdl_vec3){3.3e38f, 0, 0};
	pdl_error err;
	pdl_body_id id = pdl_world_add_body(w, &d, &err);
	ENSURE_MSG(id.index >= 0, "%s", err.message);
	for (int s = 0; s < 10; ++s) pdl_world_step(w); /* to inf, then NaN (inf - inf) */
	pdl_body_def now;
	ENSURE(pdl_world_get_body(w, id, &now));
	printf("  the body ends at x %g; the fluid keeps its %d particles\n", now.position.x, pdl_world_particle_count(w));
	ENSURE(pdl_world_particle_count(w) == fluid);
	pdl_world_destroy(w);
}

int main(void)
{
	/* RUN_TEST_THREADS_ELSEWHERE: left out under TSan, docs/testing.md ("threads-elsewhere") */
	RUN_TEST_THREADS_ELSEWHERE(test_archimedes_2d);
	RUN_TEST(test_archimedes_3d);
	RUN_TEST(test_archimedes_sph);
	RUN_TEST_THREADS_ELSEWHERE(test_momentum_fluid_and_bodies);
	RUN_TEST_THREADS_ELSEWHERE(test_spinning_body_slows_and_stirs);
	RUN_TEST(test_fill_around_bodies);
	RUN_TEST_THREADS_ELSEWHERE(test_containment_dam_break_into_boxes);
	RUN_TEST(test_kinematic_force_is_the_reaction);
	RUN_TEST(test_box_on_the_floor_is_not_pumped);
	RUN_TEST_THREADS_ELSEWHERE(test_stack_of_five_stands);
	RUN_TEST(test_determinism_threads_and_restore);
	RUN_TEST(test_bad_bodies_are_refused);
	RUN_TEST_THREADS_ELSEWHERE(test_body_far_from_all_fluid);
	RUN_TEST_THREADS_ELSEWHERE(test_body_past_float_max_leaves_the_step_defined);
	RUN_TEST_THREADS_ELSEWHERE(test_spacing_follows_h_and_rest_density);
	RUN_TEST_THREADS_ELSEWHERE(test_bound_radius);
	return TEST_SUMMARY();
}
