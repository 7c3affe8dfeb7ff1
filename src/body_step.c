/* The bodies' part of a solver step (docs/physics.md, "Bodies"). step.c calls these between the
 * fluid's stages:
 *
 *   forces     V += dt g                                      (dynamic bodies)
 *   predict    save the pose, advance it by (V, omega) dt, place the boundary particles, sort
 *              them into their own grid, list the fluid particles near them
 *   density    the fluid counts boundary particles in its densities; viscosity impulses
 *              between fluid and bodies (Clavet alg. 5)
 *   relax      the relaxation displacement of every fluid-body pair (Clavet alg. 2): the fluid
 *              takes its share, the body the opposite momentum, turned into a move of its pose
 *   collide    body-wall and body-body contacts on the boundary particles (position based, Mueller
 *              et al. 2020), then no fluid particle is left inside a body
 *   velocity   V = (x - x_start) / dt, omega from the rotation, as Clavet's v = (x - x_prev) / dt
 *
 * Fluid-body pairs (Akinci et al. 2012, "Versatile Rigid-Fluid Coupling for Incompressible
 * SPH"): a boundary particle k near fluid particle i counts in i's density with the same kernel
 * as a fluid neighbour, and has i's own pressure ("pressure mirroring", Akinci eq. 10), so the
 * pair's displacement is Clavet's D = dt^2 ((P_i + P_k)(1 - q) + (P_near_i + P_near_k)(1 - q)^2)
 * with P_k = P_i, P_near_k = P_near_i, and the fluid particle takes half of it, as from a fluid
 * neighbour of its own mass. To the fluid a body is more fluid at its own pressure, so the
 * pressure field runs on through the surface and Archimedes' force comes out of it. The body
 * takes the opposite momentum, m_i D / 2 along r^, summed over its particles into a change of
 * its linear and angular momentum (Akinci eq. 12, 13), which moves its predicted pose: the
 * position-based form of their force and torque. Momentum is exchanged exactly pair by pair;
 * the body's mass and inertia (from its shape and density) decide how far it moves.
 *
 * Determinism: every parallel loop writes only its own entries (the fluid side gathers from
 * the boundary particles, the body side from the fluid), and the sums per body run in the
 * boundary particles' sorted order, so the result is the same for any thread count. */
#include "core.h"
#include "body_pairs.h"
#include "kernels.h"

#define BODY_GATHER(name) name
#include "body_gather.h"

/* the copies of the gather, by pdl_loops (body_gather_avx2.c, body_gather_avx512.c) */
#if PDL_HAVE_AVX2_LOOPS
static pdl_task_fn* const gather_density[] = {pdl_body_gather_density, pdl_body_gather_density_avx2,
                                               pdl_body_gather_density_avx512};
#else
static pdl_task_fn* const gather_density[] = {pdl_body_gather_density};
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool pdl_bodies_active(const pdl_world* w) { return w->bodies.live > 0; }

/* ---- Small vector helpers (dot and cross products: vec.h) ------------------------------------ */

/* r = R l (the body's rotation matrix, row major) */
static inline void position_of(const rigid_body* b, float* c)
{
	c[0] = b->def.position.x, c[1] = b->def.position.y, c[2] = b->def.position.z;
}

/* I^-1 v in world space: R diag(inv_inertia) R^T v (2D: only z turns). */
static void apply_inv_inertia(const rigid_body* b, bool three, const float* v, float* out)
{
	if (!three) {
		out[0] = out[1] = 0;
		out[2] = b->inv_inertia.z * v[2];
		return;
	}
	float l[3];
	pdl_unrotate(b->rot, v, l);
	l[0] *= b->inv_inertia.x, l[1] *= b->inv_inertia.y, l[2] *= b->inv_inertia.z;
	pdl_rotate(b->rot, l, out);
}

/* Turns the body by the small rotation vector theta (radians; 2D: z). */
static void turn(rigid_body* b, bool three, const float* theta)
{
	if (!three) {
		b->def.angle += theta[2];
	} else {
		pdl_quat q = b->def.orientation;
		/* q += 0.5 (theta, 0) q, then normalise (Baraff 2001, the quaternion rate) */
		float x = q.x + 0.5f * (theta[0] * q.w + theta[1] * q.z - theta[2] * q.y);
		float y = q.y + 0.5f * (theta[1] * q.w + theta[2] * q.x - theta[0] * q.z);
		float z = q.z + 0.5f * (theta[2] * q.w + theta[0] * q.y - theta[1] * q.x);
		float w = q.w - 0.5f * (theta[0] * q.x + theta[1] * q.y + theta[2] * q.z);
		float len = sqrtf(x * x + y * y + z * z + w * w);
		b->def.orientation = (pdl_quat){x / len, y / len, z / len, w / len};
	}
	pdl_body_update_rotation(b, three);
}

static bool grow_ints(int32_t** a, int cap)
{
	int32_t* p = realloc(*a, (size_t)cap * sizeof **a);
	if (!p) return false;
	*a = p;
	return true;
}

/* ---- Frames, forces ----------------------------------------------------------------------------- */

void pdl_bodies_begin_frame(pdl_world* w)
{
	for (int k = 0; k < w->bodies.slots; ++k) {
		rigid_body* b = &w->bodies.bodies[k];
		memset(b->fluid_impulse, 0, sizeof b->fluid_impulse);
		memset(b->fluid_angular_impulse, 0, sizeof b->fluid_angular_impulse);
	}
}

void pdl_bodies_end_frame(pdl_world* w, float frame_dt)
{
	for (int k = 0; k < w->bodies.slots; ++k) {
		rigid_body* b = &w->bodies.bodies[k];
		if (!b->alive) continue;
		const double* j = b->fluid_impulse;
		const double* l = b->fluid_angular_impulse;
		b->force.force = (pdl_vec3){(float)(j[0] / frame_dt), (float)(j[1] / frame_dt), (float)(j[2] / frame_dt)};
		b->force.torque = (pdl_vec3){(float)(l[0] / frame_dt), (float)(l[1] / frame_dt), (float)(l[2] / frame_dt)};
	}
}

void pdl_bodies_forces(pdl_world* w, float dt)
{
	pdl_vec3 g = w->def.gravity;
	for (int k = 0; k < w->bodies.slots; ++k) {
		rigid_body* b = &w->bodies.bodies[k];
		if (!b->alive || b->def.type != PDL_BODY_DYNAMIC) continue;
		float s = b->def.gravity_scale;
		b->def.linear_velocity.x += dt * (g.x * s);
		b->def.linear_velocity.y += dt * (g.y * s);
		if (PDL_IS_3D(w)) b->def.linear_velocity.z += dt * (g.z * s);
	}
}

/* ---- Predict: advance the poses and place the boundary particles ------------------------------ */

static bool reserve_particles(body_set* set, int n, int fluid)
{
	bool ok = true;
	/* + PDL_SIMD_PAD: the fluid's gather reads eight boundary particles at a time (simd.h) */
	if (n + PDL_SIMD_PAD > set->capacity) {
		int cap = set->capacity ? set->capacity : 1024;
		while (cap < n + PDL_SIMD_PAD) cap *= 2;
		float** const floats[] = {&set->x, &set->y, &set->z, &set->vx, &set->vy, &set->vz, &set->jx, &set->jy,
		                    &set->jz, &set->ux, &set->uy, &set->uz, &set->uvx, &set->uvy, &set->uvz,
		                    &set->wt, &set->uwt};
		ok = pdl_grow_float_arrays(floats, sizeof floats / sizeof floats[0], cap);
		ok = ok && grow_ints(&set->body, cap) && grow_ints(&set->local, cap) && grow_ints(&set->ubody, cap) &&
		     grow_ints(&set->ulocal, cap);
		if (ok) set->capacity = cap;
	}
	ok = ok && pdl_grid_reserve(&set->grid, n > 0 ? n : 1);
	if (ok && fluid > set->flag_capacity) {
		int cap = fluid < 1024 ? 1024 : fluid;
		uint64_t* f = realloc(set->flag, (size_t)(cap / 64 + 1) * sizeof *f);
		int32_t* near = realloc(set->near, (size_t)cap * sizeof *near);
		int32_t* index = realloc(set->near_index, (size_t)cap * sizeof *index);
		if (f) set->flag = f;
		if (near) set->near = near;
		if (index) set->near_index = index;
		ok = f && near && index;
		if (ok) {
			memset(set->flag, 0, (size_t)(cap / 64 + 1) * sizeof *set->flag);
			set->flag_capacity = set->near_capacity = cap;
		}
	}
	return ok;
}

/* ---- The fluid near the bodies ----------------------------------------------------------------- */

enum { NEAR_MAX_RUNS = 2048 }; /* rows of fluid cells a body's box may span; more: the fallback */

typedef struct near_job {
	pdl_world* w;
	bool fill; /* false: count the candidates; true: test them */
} near_job;

/* Body b's bounding box at its pose, grown by h, in world space: a box's and a polygon's from
 * their corners (for boxes in a dam break the circle round them held 1.8 times the fluid
 * slots), a circle's or sphere's from the radius. (h, not the narrower band near_range tests:
 * the margin covers the rounding of the corners.) */
static void near_box(const pdl_world* w, const rigid_body* b, float* lo, float* hi)
{
	const bool three = PDL_IS_3D(w);
	const float c[3] = {b->def.position.x, b->def.position.y, three ? b->def.position.z : 0};
	float from[3] = {-b->bound_radius, -b->bound_radius, -b->bound_radius}, to[3];
	if (b->def.shape == PDL_BODY_BOX) {
		const float e[3] = {b->def.half_extents.x, b->def.half_extents.y, three ? b->def.half_extents.z : 0};
		for (int k = 0; k < 3; ++k)
			from[k] = -(fabsf(b->rot[3 * k]) * e[0] + fabsf(b->rot[3 * k + 1]) * e[1] + fabsf(b->rot[3 * k + 2]) * e[2]);
	}
	for (int k = 0; k < 3; ++k) to[k] = -from[k];
	if (b->def.shape == PDL_BODY_POLYGON) {
		for (int k = 0; k < 3; ++k) from[k] = INFINITY, to[k] = -INFINITY;
		for (int v = 0; v < b->def.vertex_count; ++v) {
			const float l[3] = {b->def.vertices[v].x, b->def.vertices[v].y, 0};
			float r[3];
			pdl_rotate(b->rot, l, r);
			for (int k = 0; k < 3; ++k) from[k] = r[k] < from[k] ? r[k] : from[k], to[k] = r[k] > to[k] ? r[k] : to[k];
		}
	}
	const float h = w->def.interaction_radius;
	for (int k = 0; k < 3; ++k) lo[k] = c[k] + from[k] - h, hi[k] = c[k] + to[k] + h;
}

/* Per body slot: count the fluid slots of the cells its box meets (-1: too many rows), or
 * list those that can be within h of its boundary particles into near_hits from near_first[k]. */
static void near_range(void* ctx, int begin, int end)
{
	near_job* job = ctx;
	pdl_world* w = job->w;
	body_set* set = &w->bodies;
	const particles* p = &w->p;
	const bool three = PDL_IS_3D(w);
	/* SPH: the wall tables reach h from the surface. Clavet: every boundary particle lies at
	 * least half a lattice step under its body's surface, and the distance to a convex shape
	 * grows at most as fast as the distance to any point of it, so a fluid particle within h
	 * of one is nearer the surface than h - a / 2. (+ 1e-3 h for rounding) */
	const float h = w->def.interaction_radius;
	const float sunk = w->def.solver == PDL_SOLVER_SPH ? 0 : 0.5f * pdl_body_lattice_step(set->spacing, three);
	const float band = h - sunk + 1e-3f * h;
	int32_t* rb = malloc(2 * NEAR_MAX_RUNS * sizeof *rb);
	if (!rb) { /* out of memory: every body says "too many", and the fallback runs */
		for (int k = begin; k < end; ++k) set->near_total[k] = -1;
		return;
	}
	int32_t* re = rb + NEAR_MAX_RUNS;
	for (int k = begin; k < end; ++k) {
		const rigid_body* b = &set->bodies[k];
		set->near_total[k] = 0;
		if (!b->alive) continue;
		float lo[3], hi[3];
		near_box(w, b, lo, hi);
		int runs = pdl_grid_runs_in_box(&w->grid, lo, hi, rb, re, NEAR_MAX_RUNS);
		if (runs < 0) {
			set->near_total[k] = -1;
			continue;
		}
		if (!job->fill) {
			int total = 0;
			for (int r = 0; r < runs; ++r) total += re[r] - rb[r];
			set->near_total[k] = total;
			continue;
		}
		int32_t* out = set->near_hits + set->near_first[k];
		int hits = 0;
		const float c[3] = {b->def.position.x, b->def.position.y, b->def.position.z};
		if (b->def.shape == PDL_BODY_BOX) { /* boxes, most bodies: a loop without branches (inside
		                                     * counts as within the band: distance <= 0) */
			for (int r = 0; r < runs; ++r)
				for (int i = rb[r]; i < re[r]; ++i) {
					float o[3] = {p->x[i] - c[0], p->y[i] - c[1], three ? p->z[i] - c[2] : 0}, l[3];
					pdl_unrotate(b->rot, o, l);
					out[hits] = i;
					hits += pdl_box_gap(b, l, three) < band;
				}
		} else {
			for (int r = 0; r < runs; ++r)
				for (int i = rb[r]; i < re[r]; ++i) {
					float o[3] = {p->x[i] - c[0], p->y[i] - c[1], three ? p->z[i] - c[2] : 0}, l[3], n[3];
					pdl_unrotate(b->rot, o, l);
					if (pdl_body_local_distance(b, l, three, n) < band) out[hits++] = i;
				}
		}
		set->near_total[k] = hits;
	}
	free(rb);
}

/* Flags the fluid slots within h - a / 2 of some body's surface (or inside one). False where the
 * fluid's grid is hashed or a body spans too many of its rows (nothing flagged then). */
static bool flag_near_by_shape(pdl_world* w)
{
	body_set* set = &w->bodies;
	if (!w->grid.dense) return false;
	if (set->slots > set->near_slots_capacity) {
		int32_t* total = realloc(set->near_total, (size_t)set->slots * sizeof *total);
		if (total) set->near_total = total;
		int32_t* first = realloc(set->near_first, (size_t)set->slots * sizeof *first);
		if (first) set->near_first = first;
		if (!total || !first) return false;
		set->near_slots_capacity = set->slots;
	}
	near_job job = {w, false};
	pdl_pool_for(w->pool, set->slots, 1, near_range, &job);
	long long sum = 0;
	for (int k = 0; k < set->slots; ++k) {
		if (set->near_total[k] < 0) return false;
		set->near_first[k] = (int32_t)sum;
		sum += set->near_total[k];
	}
	if (sum > INT32_MAX) return false;
	if (sum == 0) return true; /* no fluid near any body: nothing to flag (and no list to index:
	                            * near_hits may still be NULL, found by the snapshot fuzzer) */
	if (sum > set->body_records_capacity) {
		int32_t* records = realloc(set->body_records, (size_t)sum * sizeof *records);
		if (!records) return false;
		set->body_records = records;
		set->body_records_capacity = (int)sum;
	}
	if (set->slots > set->body_record_count_capacity) {
		int32_t* counts = realloc(set->body_record_count, (size_t)set->slots * sizeof *counts);
		if (!counts) return false;
		set->body_record_count = counts;
		set->body_record_count_capacity = set->slots;
	}
	if (sum > set->near_hits_capacity) {
		int32_t* hits = realloc(set->near_hits, (size_t)sum * sizeof *hits);
		if (!hits) return false;
		set->near_hits = hits;
		set->near_hits_capacity = (int)sum;
	}
	job.fill = true;
	pdl_pool_for(w->pool, set->slots, 1, near_range, &job);
	for (int k = 0; k < set->slots; ++k) {
		if (set->near_total[k] < 0) { /* (cannot happen: the same rows as counted) */
			memset(set->flag, 0, (size_t)(w->p.count / 64 + 1) * sizeof *set->flag);
			return false;
		}
		const int32_t* hits = set->near_hits + set->near_first[k];
		for (int e = 0; e < set->near_total[k]; ++e) set->flag[hits[e] / 64] |= 1ull << (hits[e] % 64);
	}
	return true;
}

/* Flags fluid slots [begin, end). */
static void flag_slots(uint64_t* flag, int begin, int end)
{
	for (int i = begin; i < end;) {
		if (i % 64 == 0 && end - i >= 64) {
			flag[i / 64] = ~0ull;
			i += 64;
		} else {
			flag[i / 64] |= 1ull << (i % 64);
			i++;
		}
	}
}

/* The flagged fluid slots into the near list, in slot order, and the flags cleared: a word of
 * 64 flags at a time, most of them zero. */
static void list_near(pdl_world* w)
{
	body_set* set = &w->bodies;
	int count = 0;
	for (int word = 0; word <= w->p.count / 64; ++word) {
		for (uint64_t bits = set->flag[word]; bits; bits &= bits - 1) {
			int slot = word * 64 + __builtin_ctzll(bits);
			set->near[count] = slot;
			set->near_index[slot] = count++;
		}
		set->flag[word] = 0;
	}
	set->near_count = count;
}

/* Saves each body's pose and velocity as the step's start, advances the pose by dt (0: not at
 * all), and places, sorts and lists as above. */
static void begin_step(pdl_world* w, float dt);

void pdl_bodies_predict(pdl_world* w, float dt) { begin_step(w, dt); }

/* The kernel the SPH solvers' walls use: 1 Poly6, 2 Wendland C2 (core.h, rigid_body.wall_kernel). */
static int wall_kernel_of(const pdl_world* w)
{
	if (w->def.solver == PDL_SOLVER_DFSPH) return 2;
	return w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND ? 2 : 1;
}

/* The density kernel (h = 1, normalised to 1 over the disc or ball of radius 1) at distance r. */
static double unit_kernel(double r, int kernel, bool three)
{
	if (!(r < 1)) return 0;
	if (kernel == 2) return (three ? 21.0 / (2.0 * PDL_PI) : 7.0 / PDL_PI) * pdl_wendland_shape(r);
	double d = 1 - r * r;
	return (three ? 315.0 / (64.0 * PDL_PI) : 4.0 / PDL_PI) * d * d * d;
}

/* The kernel summed over a disc (ball) of radius R (in h) from a point D (in h) from its centre:
 * in shells of radius r around the point, the share of each shell inside the disc, 2D the arc
 * 2 r acos(c), 3D the cap 2 pi r^2 (1 - c), with c = (D^2 + r^2 - R^2) / (2 D r) the cosine of
 * the half angle it subtends (the law of cosines). Simpson's rule in r; the integrand bends where
 * a shell first reaches the disc, r = D - R, so the range is split there. */
static double kernel_over_ball(double D, double R, int kernel, bool three)
{
	enum { STEPS = 256 };
	double edge = fmin(fmax(D - R, 0), 1), total = 0;
	const double from[2] = {0, edge}, to[2] = {edge, 1};
	for (int part = 0; part < 2; ++part) {
		double a = from[part], step = (to[part] - a) / STEPS, sum = 0;
		if (!(step > 0)) continue;
		for (int k = 0; k <= STEPS; ++k) {
			double r = a + k * step, f = 0;
			if (r > 0) {
				double c = fmin(fmax((D * D + r * r - R * R) / (2 * D * r), -1), 1);
				f = unit_kernel(r, kernel, three) * (three ? 2 * PDL_PI * r * r * (1 - c) : 2 * r * acos(c));
			}
			sum += (k == 0 || k == STEPS ? 1 : (k & 1) ? 4 : 2) * f;
		}
		total += sum * step / 3;
	}
	return total;
}

/* A circle's (ball's) own wall tables for the world's kernel: density[t] the kernel over the
 * disc at distance t / PDL_SPH_WALL_TABLE h from its surface, force[t] minus its derivative
 * (central differences), the same units as the world's half-space tables (sph.c,
 * pdl_wall_tables), which they approach as the radius grows. Measured as what a convex body
 * lacks: with the half-space's tables the fluid keeps too far from a disc of 2 h, and it
 * floats 0.02 of its size too high (3D, a ball of 1.5 h: 0.05). */
static void curved_wall_tables(rigid_body* b, float h, int kernel, bool three)
{
	const double R = b->def.radius / h, step = 1e-4;
	for (int t = 0; t <= PDL_SPH_WALL_TABLE; ++t) {
		double u = (double)t / PDL_SPH_WALL_TABLE;
		b->wall_density[t] = (float)kernel_over_ball(R + u, R, kernel, three);
		double up = kernel_over_ball(R + u + step, R, kernel, three), down = kernel_over_ball(R + u - step, R, kernel, three);
		b->wall_force[t] = t == PDL_SPH_WALL_TABLE ? 0 : (float)((down - up) / (2 * step));
	}
	b->wall_density[PDL_SPH_WALL_TABLE] = 0;
	b->wall_h = h, b->wall_radius = b->def.radius, b->wall_kernel = kernel;
}

void pdl_bodies_sph_sample(pdl_world* w)
{
	const int kernel = wall_kernel_of(w);
	const float h = w->def.interaction_radius;
	for (int k = 0; k < w->bodies.slots; ++k) {
		rigid_body* b = &w->bodies.bodies[k];
		if (b->alive && b->def.shape == PDL_BODY_CIRCLE &&
		    (b->wall_kernel != kernel || b->wall_h != h || b->wall_radius != b->def.radius))
			curved_wall_tables(b, h, kernel, PDL_IS_3D(w));
	}
	begin_step(w, 0);
}

/* The wall tables a fluid particle reads beside body b: its own for a circle (ball), else the
 * world's (SPH's or DFSPH's half-space tables). */
static const float* body_density_table(const pdl_world* w, const rigid_body* b)
{
	if (b->def.shape == PDL_BODY_CIRCLE && b->wall_kernel) return b->wall_density;
	return w->def.solver == PDL_SOLVER_DFSPH ? w->dfsph_wall_density : w->sph_wall_density;
}

static const float* body_force_table(const pdl_world* w, const rigid_body* b)
{
	if (b->def.shape == PDL_BODY_CIRCLE && b->wall_kernel) return b->wall_force;
	return w->def.solver == PDL_SOLVER_DFSPH ? w->dfsph_wall_force : w->sph_wall_force;
}

/* Places body slots [begin, end)'s boundary particles at their bodies' poses (begin_step). */
static void place_range(void* ctx, int begin, int end)
{
	pdl_world* w = ctx;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	for (int k = begin; k < end; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		float c[3], v[3] = {b->def.linear_velocity.x, b->def.linear_velocity.y, b->def.linear_velocity.z};
		float om[3] = {b->def.angular_velocity.x, b->def.angular_velocity.y, b->def.angular_velocity.z};
		position_of(b, c);
		b->sample_position = b->def.position;
		float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
		for (int i = b->first; i < b->first + b->count; ++i) {
			float l[3] = {set->lx[i], set->ly[i], set->lz[i]}, r[3], spin[3];
			pdl_rotate(b->rot, l, r);
			pdl_cross3(om, r, spin);
			set->ux[i] = c[0] + r[0], set->uy[i] = c[1] + r[1], set->uz[i] = three ? c[2] + r[2] : 0;
			const float at[3] = {set->ux[i], set->uy[i], set->uz[i]};
			for (int a = 0; a < 3; ++a) { /* (as fminf / fmaxf, NaN left out, without their libm calls) */
				lo[a] = at[a] < lo[a] ? at[a] : lo[a];
				hi[a] = at[a] > hi[a] ? at[a] : hi[a];
			}
			set->uvx[i] = v[0] + spin[0], set->uvy[i] = v[1] + spin[1], set->uvz[i] = three ? v[2] + spin[2] : 0;
			set->uwt[i] = set->lw[i];
			set->ubody[i] = k;
			set->ulocal[i] = i;
		}
		memcpy(b->sample_lo, lo, sizeof lo);
		memcpy(b->sample_hi, hi, sizeof hi);
	}
}

/* Stores sorted slots [begin, end) of the boundary particles in their grid's order. */
static void sort_range(void* ctx, int begin, int end)
{
	body_set* set = ctx;
	const pdl_grid* g = &set->grid;
	for (int s = begin; s < end; ++s) {
		int o = g->order[s];
		set->x[s] = set->ux[o], set->y[s] = set->uy[o], set->z[s] = set->uz[o];
		set->vx[s] = set->uvx[o], set->vy[s] = set->uvy[o], set->vz[s] = set->uvz[o];
		set->body[s] = set->ubody[o], set->local[s] = set->ulocal[o], set->wt[s] = set->uwt[o];
	}
}

static void begin_step(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	int n = 0;
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		b->start_position = b->def.position;
		b->start_angle = b->def.angle;
		b->start_orientation = b->def.orientation;
		b->start_linear_velocity = b->def.linear_velocity;
		b->start_angular_velocity = b->def.angular_velocity;
		memcpy(b->start_rot, b->rot, sizeof b->rot);
		memset(b->pending_dv, 0, sizeof b->pending_dv);
		memset(b->pending_dw, 0, sizeof b->pending_dw);
		pdl_vec3 v = b->def.linear_velocity, om = b->def.angular_velocity;
		if (dt == 0) {
			n += b->count;
			continue;
		}
		b->def.position.x += dt * v.x;
		b->def.position.y += dt * v.y;
		if (three) b->def.position.z += dt * v.z;
		float theta[3] = {dt * om.x, dt * om.y, dt * om.z};
		turn(b, three, theta);
		n += b->count;
	}
	set->n = 0;
	if (!reserve_particles(set, n, w->p.count)) return; /* out of memory: the bodies sit out */
	/* the boundary particles at the predicted pose, with their rigid velocities V + omega x r
	 * (body by body on the threads: a body's particles are body_local[first, first + count),
	 * and a removed body keeps none, so they land at the same indices here) */
	pdl_pool_for(w->pool, set->slots, 1, place_range, w);
	/* their own grid, and the particles stored in its order; laid out densely over the bodies'
	 * bounding box where that takes under 2^21 cells (8 MiB), however few the particles: a
	 * hashed grid costs 25 hashes a neighbourhood in 2D, and every near fluid particle asks
	 * for one (100 bodies in a 100k dam break: the bodies took 11 ms a step, 4.9 ms dense) */
	pdl_grid* g = &set->grid;
	if (n > 0) {
		float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
		for (int k = 0; k < set->slots; ++k) {
			const rigid_body* b = &set->bodies[k];
			if (!b->alive || b->count == 0) continue;
			for (int a = 0; a < 3; ++a) {
				lo[a] = b->sample_lo[a] < lo[a] ? b->sample_lo[a] : lo[a];
				hi[a] = b->sample_hi[a] > hi[a] ? b->sample_hi[a] : hi[a];
			}
		}
		const float per_h = (float)(three ? PDL_GRID_CELLS_PER_H_3D : PDL_GRID_CELLS_PER_H_2D) / w->def.interaction_radius;
		double cells = 1;
		for (int k = 0; k < (three ? 3 : 2); ++k) cells *= floor((double)hi[k] * per_h) - floor((double)lo[k] * per_h) + 1;
		/* (not finite when a body's samples are not, such as one placed near FLT_MAX: hashed then) */
		const double limit = (double)(1u << 21);
		pdl_grid_allow_dense(g, cells >= 1 && cells <= limit ? (uint32_t)cells : 0);
	}
	pdl_grid_build(g, w->pool, n, set->ux, set->uy, three ? set->uz : NULL, NULL, w->def.interaction_radius);
	pdl_pool_for(w->pool, n, 1024, sort_range, set);
	for (int s = n; s < n + PDL_SIMD_PAD; ++s) { /* read by vectors, masked off */
		set->x[s] = set->y[s] = set->z[s] = set->vx[s] = set->vy[s] = set->vz[s] = set->wt[s] = 0;
		set->body[s] = -1;
	}
	set->n = n;
	/* The fluid particles near the bodies, in slot order: those within h - a / 2 of a body's
	 * surface (or inside it), each body testing the fluid cells of its bounding box against its shape
	 * (near_range); where the fluid's grid is hashed, every slot of the fluid cells around
	 * each cell that holds boundary particles (a wider superset, found without a distance
	 * test). Either way a superset of the fluid particles within h of a boundary particle. */
	set->near_count = 0;
	set->near_bodies_known = set->near_hits_known = set->body_records_known = false;
	if (w->p.count == 0 || n == 0) return;
	set->near_hits_known = flag_near_by_shape(w);
	if (!set->near_hits_known) {
		pdl_grid_runs runs;
		for (int s = 0; s < n; ++s) {
			if (s > 0 && g->slot_key[s] == g->slot_key[s - 1]) continue;
			pdl_grid_runs_around(&w->grid, set->x[s], set->y[s], three ? set->z[s] : 0, &runs);
			for (int r = 0; r < runs.count; ++r)
				flag_slots(set->flag, runs.begin[r], runs.end[r]);
		}
	}
	list_near(w);
}

/* ---- Fluid-body pairs --------------------------------------------------------------------------- */

/* What a near fluid particle's containment (or SPH's wall pressure) did to one body. */
typedef struct containment {
	/* (its body: body_set.contained_body) */
	float momentum[3]; /* the body's momentum change, mass * world units / s */
	float r[3];        /* where, from the body's centre */
} containment;

/* The relaxation, over the near list, from the density pass's sums (the same pairs): the
 * fluid particle moves by -dt^2 (P sum w (1 - q) r^ + P_near sum w (1 - q)^2 r^) (Clavet alg. 2,
 * the body's pressures mirrored from the fluid's), each body's part of it booked, opposite, to
 * its record; the viscosity's momentum there was already applied. */
static void fluid_relax_range(void* ctx, int begin, int end)
{
	pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float dt2 = job->dt * job->dt;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e];
		body_share* rec = &set->shares[(size_t)e * PDL_CONTAIN_BODIES];
		const int32_t* rec_body = &set->share_body[(size_t)e * PDL_CONTAIN_BODIES];
		const float mass = w->materials[p->material[i]].def.mass;
		const float pressure = dt2 * p->pressure[i], near = dt2 * p->near_pressure[i];
		const float x[3] = {p->x2[i], p->y2[i], three ? p->z2[i] : 0};
		float move[3] = {0, 0, 0};
		for (int k = 0; k < PDL_CONTAIN_BODIES && rec_body[k] >= 0; ++k) {
			body_share* sh = &rec[k];
			for (int c = 0; c < 3; ++c) {
				float d = pressure * sh->a1[c] + near * sh->a2[c];
				move[c] -= d;
				sh->j[c] = mass * d; /* the fluid particle moved by -d, so the body gains m d */
			}
			moment_of(set, rec_body[k], sh, x, three);
		}
		p->x[i] += move[0];
		p->y[i] += move[1];
		if (three) p->z[i] += move[2];
	}
}

/* *records (each `size` bytes) and their body slots, *capacity of each, grown to
 * PDL_CONTAIN_BODIES per near particle; false when out of memory (the capacity then stays
 * what both still hold). */
static bool grow_per_near(const body_set* set, void** records, int32_t** bodies, int* capacity, size_t size)
{
	size_t need = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	if (need <= (size_t)*capacity) return true;
	void* grown = realloc(*records, need * size);
	if (grown) *records = grown;
	int32_t* grown_bodies = realloc(*bodies, need * sizeof *grown_bodies);
	if (grown_bodies) *bodies = grown_bodies;
	if (!grown || !grown_bodies) return false;
	*capacity = (int)need;
	return true;
}

static bool reserve_contained(body_set* set)
{
	void* records = set->contained;
	bool ok = grow_per_near(set, &records, &set->contained_body, &set->contained_capacity, sizeof *set->contained);
	set->contained = records;
	return ok;
}

static bool reserve_shares(body_set* set)
{
	void* records = set->shares;
	bool ok = grow_per_near(set, &records, &set->share_body, &set->share_capacity, sizeof *set->shares);
	set->shares = records;
	return ok;
}

/* Body slots [begin, end): the indices of their records in the near list's order, from their
 * candidates (near_hits, in slot order, as the near list is). */
static void body_records_range(void* ctx, int begin, int end)
{
	body_set* set = ctx;
	for (int k = begin; k < end; ++k) {
		const int32_t* hits = set->near_hits + set->near_first[k];
		int32_t* out = set->body_records + set->near_first[k];
		int count = 0;
		for (int h = 0; h < set->near_total[k]; ++h) {
			const int32_t* met = &set->share_body[(size_t)set->near_index[hits[h]] * PDL_CONTAIN_BODIES];
			for (int s = 0; s < PDL_CONTAIN_BODIES && met[s] >= 0; ++s)
				if (met[s] == k) {
					out[count++] = (int32_t)(met + s - set->share_body);
					break;
				}
		}
		set->body_record_count[k] = count;
	}
}

/* Per body, the indices of its records (the density pass's: the relaxation's and the
 * containment's fill the same places) in the near list's order, so that the threads can sum
 * them body by body in the order one thread would sum them all. Found from each body's
 * candidates; known when that finds every record the density pass filled (a particle that
 * moved after they were listed, e.g. by its springs, may meet a body it was no candidate of:
 * then the sums run on one thread). */
static void list_body_records(pdl_world* w)
{
	body_set* set = &w->bodies;
	if (!set->near_hits_known) return;
	pdl_pool_for(w->pool, set->slots, 1, body_records_range, set);
	long long found = 0;
	for (int k = 0; k < set->slots; ++k) found += set->body_record_count[k];
	set->body_records_known = found == atomic_load_explicit(&set->share_records, memory_order_relaxed);
}

/* Body b's records' sum (pending_sum, mass * length and its moment) booked for
 * pdl_world_body_force and, for a dynamic body, moved by. */
static void move_by_pair_impulse(rigid_body* b, bool three, float dt)
{
	for (int c = 0; c < 3; ++c) {
		b->fluid_impulse[c] += b->pending_sum[c] / dt;
		b->fluid_angular_impulse[c] += b->pending_sum[3 + c] / dt;
	}
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	float lin[3] = {(float)b->pending_sum[0], (float)b->pending_sum[1], (float)b->pending_sum[2]};
	float ang[3] = {(float)b->pending_sum[3], (float)b->pending_sum[4], (float)b->pending_sum[5]}, dtheta[3];
	b->def.position.x += lin[0] * b->inv_mass;
	b->def.position.y += lin[1] * b->inv_mass;
	if (three) b->def.position.z += lin[2] * b->inv_mass;
	apply_inv_inertia(b, three, ang, dtheta);
	turn(b, three, dtheta);
}

static inline void add_share(rigid_body* b, const body_share* sh)
{
	for (int c = 0; c < 3; ++c) {
		b->pending_sum[c] += sh->j[c];
		b->pending_sum[3 + c] += sh->t[c];
	}
}

static void pair_impulses_range(void* ctx, int begin, int end)
{
	pair_job* job = ctx;
	body_set* set = &job->w->bodies;
	for (int k = begin; k < end; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		memset(b->pending_sum, 0, sizeof b->pending_sum);
		const int32_t* records = set->body_records + set->near_first[k];
		for (int r = 0; r < set->body_record_count[k]; ++r) add_share(b, &set->shares[records[r]]);
		move_by_pair_impulse(b, PDL_IS_3D(job->w), job->dt);
	}
}

/* Sums the records per body (in the near list's order) and moves the dynamic bodies' poses by
 * them; every body books the momentum for pdl_world_body_force. Body by body on the threads
 * where each body's records are listed, else the same sums on one thread. */
static void apply_pair_impulses(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->body_records_known) {
		pair_job job = {w, dt};
		pdl_pool_for(w->pool, set->slots, 1, pair_impulses_range, &job);
		return;
	}
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	const size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q)
		if (set->share_body[q] >= 0) add_share(&set->bodies[set->share_body[q]], &set->shares[q]);
	for (int k = 0; k < set->slots; ++k)
		if (set->bodies[k].alive) move_by_pair_impulse(&set->bodies[k], PDL_IS_3D(w), dt);
}

void pdl_bodies_density(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	if (!reserve_shares(set)) {
		set->near_count = 0; /* out of memory: the bodies sit out this step */
		return;
	}
	pair_job job = {w, dt};
	atomic_store_explicit(&set->share_records, 0, memory_order_relaxed);
	pdl_pool_for(w->pool, set->near_count, 64, gather_density[w->loops], &job);
	/* the containment needs only the bodies of these pairs (a particle farther than h from
	 * every boundary particle cannot reach a body's surface in one relaxation) */
	set->near_bodies_known = true;
	list_body_records(w);
	if (w->any_viscosity) apply_pair_impulses(w, dt);
}

void pdl_bodies_relax(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	pair_job job = {w, dt};
	pdl_pool_for(w->pool, set->near_count, 64, fluid_relax_range, &job);
	apply_pair_impulses(w, dt);
}

/* ---- Contacts: bodies against walls and each other ---------------------------------------------
 *
 * Position-based rigid-body contacts (Mueller, Macklin, Chentanez, Jeschke & Kim 2020,
 * "Detailed Rigid Body Simulation with Extended Position Based Dynamics", sections 3.3-3.6), on
 * the boundary particles: a particle of a body closer to a wall than half a spacing, or to a
 * particle of another body than a spacing, is a contact. The particles are what give any pair
 * of shapes their contact points, so a box on a box has a row of them along the shared face
 * and stands still. Each iteration moves both bodies' poses apart along the contact normal by
 * the generalized inverse masses w = 1/M + (r x n) . I^-1 (r x n) (eq. 2-4), Gauss-Seidel in the
 * contacts' fixed order; static friction keeps a contact point where it was while the
 * tangential correction stays inside the friction cone (eq. 26-27); after the velocity update,
 * restitution and dynamic friction act on the velocities (section 3.6). */

enum { CONTACT_ITERATIONS = 16 };

typedef struct body_contact {
	int a, b;      /* body slots; b = -1: a wall */
	int wall;      /* boundary index when b = -1 */
	float la[3];   /* the point of a (a boundary particle or a corner), in a's frame */
	float rest;    /* the distance it keeps from the wall or b's surface */
	float lambda;  /* the normal position impulse so far (mass * length) */
	float lambda_t; /* the static friction's so far */
	bool sticking; /* static friction held it this step */
} body_contact;

static bool add_contact(body_set* set, const body_contact* c)
{
	if (set->contact_count == set->contact_capacity) {
		int cap = set->contact_capacity ? 2 * set->contact_capacity : 256;
		body_contact* grown = realloc(set->contacts, (size_t)cap * sizeof *grown);
		if (!grown) return false;
		set->contacts = grown;
		set->contact_capacity = cap;
	}
	set->contacts[set->contact_count++] = *c;
	return true;
}

static void anchor_of(const rigid_body* b, const float* l, const float* rot, const pdl_vec3* centre, float* r,
                      float* p)
{
	pdl_rotate(rot, l, r);
	p[0] = centre->x + r[0], p[1] = centre->y + r[1], p[2] = centre->z + r[2];
	(void)b;
}

/* The corners of a body's shape in its frame (2D box and polygon, 3D box): contacts of their
 * own, with no inset, so that a tilted box's corner stops at the wall and not half a spacing
 * past it (its particles sit half a spacing inside the surface). Returns their count. */
static int corners_of(const rigid_body* b, bool three, float out[8][3])
{
	const pdl_body_def* d = &b->def;
	if (d->shape == PDL_BODY_CIRCLE) return 0;
	if (d->shape == PDL_BODY_POLYGON) {
		for (int i = 0; i < d->vertex_count; ++i) out[i][0] = d->vertices[i].x, out[i][1] = d->vertices[i].y, out[i][2] = 0;
		return d->vertex_count < 8 ? d->vertex_count : 8;
	}
	int n = three ? 8 : 4;
	for (int i = 0; i < n; ++i) {
		out[i][0] = (i & 1 ? 1.0f : -1.0f) * d->half_extents.x;
		out[i][1] = (i & 2 ? 1.0f : -1.0f) * d->half_extents.y;
		out[i][2] = three ? (i & 4 ? 1.0f : -1.0f) * d->half_extents.z : 0;
	}
	return n;
}

/* Signed distance from world point p to body b's surface, with the outward normal n (world). */
/* Contacts of body a's points (its particles, kept half a spacing off, and its corners, kept
 * at the surface) with a wall (b = -1) or with body b's shape. */
static bool point_contacts(pdl_world* w, int a, int b, int wall)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const rigid_body* A = &set->bodies[a];
	const float spacing = set->spacing;
	/* corners against walls only: against another body's shape, a corner on the other's edge
	 * (two boxes of one width stacked) has no single nearest face, and a sideways normal there
	 * made the stack creep */
	float corners[8][3];
	int ncorners = b < 0 ? corners_of(A, three, corners) : 0;
	/* the outer layer only: the deeper ones never come within reach of a contact */
	for (int i = -ncorners; i < A->surface; ++i) {
		float l[3], r[3], p[3], n[3], rest;
		if (i < 0) {
			memcpy(l, corners[-1 - i], sizeof l);
			rest = 0;
		} else {
			l[0] = set->lx[A->first + i], l[1] = set->ly[A->first + i], l[2] = set->lz[A->first + i];
			rest = 0.5f * pdl_body_lattice_step(spacing, three);
		}
		anchor_of(A, l, A->rot, &A->def.position, r, p);
		if (!three) p[2] = 0;
		float d = b < 0 ? pdl_boundary_distance(&w->boundaries[wall], p, three, n)
		                : pdl_body_distance(&set->bodies[b], p, three, n);
		if (d >= rest + 0.5f * spacing) continue;
		body_contact ct = {.a = a, .b = b, .wall = wall, .la = {l[0], l[1], l[2]}, .rest = rest};
		if (!add_contact(set, &ct)) return false;
	}
	return true;
}

/* Contacts are found once a solver step, at the poses after the fluid's push, with a margin of
 * half a spacing so that a contact about to close is in the list. Bodies are paired by their
 * bounding spheres (O(bodies^2), cheap for the hundreds a scene holds); each pair's contacts
 * are each body's points against the other's shape, its signed distance giving a smooth normal
 * (as Macklin et al. 2014, section 5, give rigid particles their shape's distance field): point
 * against point would let rows of particles slip into each other's gaps. */
static void find_contacts(pdl_world* w)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float spacing = set->spacing;
	set->contact_count = 0;
	for (int a = 0; a < set->slots; ++a) {
		const rigid_body* A = &set->bodies[a];
		if (!A->alive) continue;
		float c[3], n[3];
		position_of(A, c);
		if (!three) c[2] = 0;
		if (A->def.type == PDL_BODY_DYNAMIC)
			for (int k = 0; k < w->boundary_count; ++k) {
				const boundary* wall = &w->boundaries[k];
				/* no point of the body is nearer the wall than its centre less its radius */
				if (!wall->alive || pdl_boundary_distance(wall, c, three, n) > A->bound_radius + spacing) continue;
				if (!point_contacts(w, a, -1, k)) return;
			}
		for (int b = a + 1; b < set->slots; ++b) {
			const rigid_body* B = &set->bodies[b];
			if (!B->alive || (A->def.type != PDL_BODY_DYNAMIC && B->def.type != PDL_BODY_DYNAMIC)) continue;
			float d[3] = {B->def.position.x - c[0], B->def.position.y - c[1], three ? B->def.position.z - c[2] : 0};
			float reach = A->bound_radius + B->bound_radius + spacing;
			if (pdl_dot3(d, d) > reach * reach) continue;
			if (!point_contacts(w, a, b, -1) || !point_contacts(w, b, a, -1)) return;
		}
	}
}

/* The generalized inverse mass of body b for a correction along n at offset r (eq. 2, 3). */
static float generalized_inverse_mass(const rigid_body* b, bool three, const float* r, const float* n)
{
	if (b->def.type != PDL_BODY_DYNAMIC) return 0;
	float rn[3], irn[3];
	pdl_cross3(r, n, rn);
	apply_inv_inertia(b, three, rn, irn);
	return b->inv_mass + pdl_dot3(rn, irn);
}

/* Where contact c's points are now and at the start of the step, and its normal and gap. */
typedef struct contact_state {
	float ra[3], rb[3], pa[3], pb[3], n[3];
	float gap; /* separation minus rest: < 0 overlaps */
	float slide[3]; /* relative motion of the two points since the start of the step */
} contact_state;

static void contact_state_of(const pdl_world* w, const body_contact* c, contact_state* s)
{
	const bool three = PDL_IS_3D(w);
	const body_set* set = &w->bodies;
	const rigid_body* A = &set->bodies[c->a];
	float start_r[3], start_a[3], start_b[3];
	anchor_of(A, c->la, A->rot, &A->def.position, s->ra, s->pa);
	anchor_of(A, c->la, A->start_rot, &A->start_position, start_r, start_a);
	if (!three) s->pa[2] = start_a[2] = 0;
	float d;
	if (c->b < 0) {
		const boundary* wall = &w->boundaries[c->wall];
		d = pdl_boundary_distance(wall, s->pa, three, s->n);
		for (int k = 0; k < 3; ++k) s->pb[k] = s->pa[k] - d * s->n[k], s->rb[k] = 0;
		/* a moving obstacle's surface moved by its velocity over the step */
		const float v[3] = {wall->def.velocity.x, wall->def.velocity.y, wall->def.velocity.z};
		float dt = w->def.dt / (float)w->def.substeps;
		for (int k = 0; k < 3; ++k) start_b[k] = s->pb[k] - v[k] * dt;
	} else {
		const rigid_body* B = &set->bodies[c->b];
		d = pdl_body_distance(B, s->pa, three, s->n);
		float o[3], lb[3];
		for (int k = 0; k < 3; ++k) {
			s->pb[k] = s->pa[k] - d * s->n[k];
			o[k] = s->pb[k] - (k == 0 ? B->def.position.x : k == 1 ? B->def.position.y : B->def.position.z);
		}
		if (!three) o[2] = 0;
		memcpy(s->rb, o, sizeof o);
		/* the same material point of B at its start pose */
		pdl_unrotate(B->rot, o, lb);
		anchor_of(B, lb, B->start_rot, &B->start_position, o, start_b);
		if (!three) start_b[2] = 0;
	}
	s->gap = d - c->rest;
	for (int k = 0; k < 3; ++k) s->slide[k] = (s->pa[k] - start_a[k]) - (s->pb[k] - start_b[k]);
}

/* One iteration's corrections of one body, summed over its contacts, then averaged. */
typedef struct body_delta {
	float move[3], turn[3];
	int count;
} body_delta;

static void add_delta(body_delta* d, const rigid_body* b, bool three, const float* r, const float* n, float lambda)
{
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	float p[3] = {lambda * n[0], lambda * n[1], lambda * n[2]}, t[3], dtheta[3];
	pdl_cross3(r, p, t);
	apply_inv_inertia(b, three, t, dtheta);
	for (int k = 0; k < 3; ++k) {
		d->move[k] += p[k] * b->inv_mass;
		d->turn[k] += dtheta[k];
	}
}

/* Jacobi iterations with constraint averaging (Macklin et al. 2014, section 4.2.1): every
 * contact's correction comes from the same poses, each body moves by the mean of its contacts'
 * corrections. Gauss-Seidel sweeps, which move a body after each contact, left a bias of the
 * contacts' order: a stack of five boxes leaned and crept sideways by 0.1 h/s. The order now
 * plays no part, and a symmetric stack stays symmetric. */
static void solve_contacts(pdl_world* w)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	if (set->slots > set->delta_capacity) {
		body_delta* grown = realloc(set->delta, (size_t)set->slots * sizeof *grown);
		if (!grown) return;
		set->delta = grown;
		set->delta_capacity = set->slots;
	}
	for (int c = 0; c < set->contact_count; ++c)
		set->contacts[c].lambda = set->contacts[c].lambda_t = 0, set->contacts[c].sticking = false;
	/* iterations stop once no contact overlaps or slides by more than this (world units) */
	const float settled = 1e-4f * set->spacing;
	for (int it = 0; it < CONTACT_ITERATIONS; ++it) {
		memset(set->delta, 0, (size_t)set->slots * sizeof *set->delta);
		float worst = 0;
		for (int c = 0; c < set->contact_count; ++c) {
			body_contact* ct = &set->contacts[c];
			rigid_body* A = &set->bodies[ct->a];
			rigid_body* B = ct->b >= 0 ? &set->bodies[ct->b] : NULL;
			body_delta* da = &set->delta[ct->a];
			body_delta* db = B ? &set->delta[ct->b] : NULL;
			contact_state s;
			contact_state_of(w, ct, &s);
			bool acted = false;
			if (-s.gap > worst) worst = -s.gap;
			if (s.gap < 0) {
				float wa = generalized_inverse_mass(A, three, s.ra, s.n);
				float wb = B ? generalized_inverse_mass(B, three, s.rb, s.n) : 0;
				if (wa + wb > 0) {
					float dlambda = -s.gap / (wa + wb);
					add_delta(da, A, three, s.ra, s.n, dlambda);
					if (B) add_delta(db, B, three, s.rb, s.n, -dlambda);
					ct->lambda += dlambda;
					acted = true;
				}
			}
			/* static friction, on every contact that has pushed this step: undo the tangential
			 * slide of its two points, as far as mu times its normal push allows */
			if (ct->lambda > 0) {
				float along = pdl_dot3(s.slide, s.n), t[3];
				for (int k = 0; k < 3; ++k) t[k] = s.slide[k] - along * s.n[k];
				float slide = sqrtf(pdl_dot3(t, t));
				if (slide > worst && !ct->sticking) worst = slide;
				if (slide > 1e-9f) {
					for (int k = 0; k < 3; ++k) t[k] /= -slide;
					float wta = generalized_inverse_mass(A, three, s.ra, t);
					float wtb = B ? generalized_inverse_mass(B, three, s.rb, t) : 0;
					float mu = B ? 0.5f * (A->def.friction + B->def.friction)
					             : A->def.friction * w->boundaries[ct->wall].def.friction;
					float need = slide / (wta + wtb), allowed = mu * ct->lambda;
					float take = need < allowed ? need : allowed;
					ct->sticking = need <= allowed;
					add_delta(da, A, three, s.ra, t, take);
					if (B) add_delta(db, B, three, s.rb, t, -take);
					acted = true;
				}
			}
			if (acted) {
				da->count++;
				if (db) db->count++;
			}
		}
		if (worst <= settled) break;
		for (int k = 0; k < set->slots; ++k) {
			body_delta* d = &set->delta[k];
			if (d->count == 0) continue;
			rigid_body* b = &set->bodies[k];
			float inv = 1.0f / (float)d->count, dtheta[3] = {d->turn[0] * inv, d->turn[1] * inv, d->turn[2] * inv};
			b->def.position.x += d->move[0] * inv;
			b->def.position.y += d->move[1] * inv;
			if (three) b->def.position.z += d->move[2] * inv;
			turn(b, three, dtheta);
		}
	}
}

static int bodies_around(const body_set* set, const float* x, int* out);

/* ---- Containment: no fluid particle inside a body --------------------------------------------- */

typedef struct contain_job {
	pdl_world* w;
	float dt;
} contain_job;

/* How far particle l (body frame, inside body b) moves out of b, and along which normal nl:
 * through the nearest face whose exit point (skin past it) is clear of every wall and obstacle,
 * else through the nearest face. Without this a particle under a body lying on the floor is
 * pushed into the floor, the wall stage puts it back into the body next substep, and every
 * round trip hands the body the particle's momentum: a box resting on the floor felt 1.4 times
 * (SPH: 2.4 times) the buoyancy of the same box in mid-water. */
static float exit_depth(const pdl_world* w, const rigid_body* b, const float* l, bool three, float skin, float* nl)
{
	float depth[PDL_BODY_MAX_EXITS], n[PDL_BODY_MAX_EXITS][3];
	int count = pdl_body_local_exits(b, l, three, depth, n);
	for (int e = 0; e < count; ++e) {
		float out[3], at[3], wn[3];
		for (int k = 0; k < 3; ++k) out[k] = l[k] + (depth[e] + skin) * n[e][k];
		pdl_rotate(b->rot, out, at);
		at[0] += b->def.position.x, at[1] += b->def.position.y;
		at[2] = three ? at[2] + b->def.position.z : 0;
		bool clear = true;
		for (int k = 0; k < w->boundary_count && clear; ++k)
			clear = !w->boundaries[k].alive || pdl_boundary_distance(&w->boundaries[k], at, three, wn) >= 0;
		if (clear) {
			memcpy(nl, n[e], sizeof n[e]);
			return depth[e];
		}
	}
	memcpy(nl, n[0], sizeof n[0]);
	return depth[0];
}

/* Pushes near fluid particle i out of every body it ended up in, to the surface (plus a skin),
 * and, as a wall does (boundary.c's contact), keeps its velocity relative to the body's surface
 * but for the inward normal part, with Coulomb friction on the tangential part. The momentum
 * this takes from the fluid goes to the body, recorded per particle. */
static void contain_range(void* ctx, int begin, int end)
{
	contain_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float dt = job->dt, skin = 1e-3f * w->def.interaction_radius; /* as the walls' */
	for (int e = begin; e < end; ++e) {
		int i = set->near[e];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		/* the bodies with particles around it: Clavet's density pass listed them */
		int bodies[PDL_CONTAIN_BODIES], count = 0;
		bool moved = false;
		if (set->near_bodies_known) {
			const int32_t* met = &set->share_body[(size_t)e * PDL_CONTAIN_BODIES];
			while (count < PDL_CONTAIN_BODIES && met[count] >= 0) bodies[count] = met[count], count++;
		} else {
			count = bodies_around(set, x, bodies);
		}
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const material* m = &w->materials[p->material[i]];
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[bodies[k]];
			float o[3] = {x[0] - b->def.position.x, x[1] - b->def.position.y, three ? x[2] - b->def.position.z : 0};
			float l[3], nl[3], n[3];
			pdl_unrotate(b->rot, o, l);
			if (b->def.shape == PDL_BODY_BOX && pdl_box_gap(b, l, three) >= skin) continue; /* most */
			float d = pdl_body_local_distance(b, l, three, nl);
			if (d >= skin) continue;
			if (d < 0) d = -exit_depth(w, b, l, three, skin, nl);
			pdl_rotate(b->rot, nl, n);
			if (!three) n[2] = 0;
			float xp[3] = {p->xp[i], p->yp[i], three ? p->zp[i] : 0}, v[3], vb[3], start[3], rl[3];
			/* the body's surface point's velocity over the step: the same material point at the
			 * start pose and now */
			pdl_rotate(b->start_rot, l, rl);
			start[0] = b->start_position.x + rl[0], start[1] = b->start_position.y + rl[1];
			start[2] = three ? b->start_position.z + rl[2] : 0;
			for (int c = 0; c < 3; ++c) {
				v[c] = (x[c] - xp[c]) / dt;
				vb[c] = (x[c] - start[c]) / dt;
				x[c] += (skin - d) * n[c];
			}
			float rv[3] = {v[0] - vb[0], v[1] - vb[1], v[2] - vb[2]}, vn = pdl_dot3(rv, n), nv[3], t[3];
			for (int c = 0; c < 3; ++c) t[c] = rv[c] - vn * n[c];
			float keep = pdl_coulomb_keep(sqrtf(pdl_dot3(t, t)), -vn, m->def.wall_friction * b->def.friction);
			for (int c = 0; c < 3; ++c) nv[c] = vn < 0 ? vb[c] + keep * t[c] : v[c];
			for (int c = 0; c < 3; ++c) {
				rec[k].momentum[c] = -m->def.mass * (nv[c] - v[c]);
				rec[k].r[c] = x[c] - (c == 0 ? b->def.position.x : c == 1 ? b->def.position.y : b->def.position.z);
			}
			rec_body[k] = bodies[k];
			moved = true;
			p->xp[i] = x[0] - nv[0] * dt;
			p->yp[i] = x[1] - nv[1] * dt;
			if (three) p->zp[i] = x[2] - nv[2] * dt;
		}
		if (!moved) continue; /* (no store: most near particles touch no body) */
		p->x[i] = x[0];
		p->y[i] = x[1];
		if (three) p->z[i] = x[2];
	}
}

/* Body b takes containment record c's momentum: booked for pdl_world_body_force, and for a
 * dynamic body a change of velocity after the velocity stage, so the fluid just pushed out
 * stays out of its final pose. */
static void take_containment(rigid_body* b, const containment* c, bool three)
{
	float t[3], dw[3];
	pdl_cross3(c->r, c->momentum, t);
	for (int k = 0; k < 3; ++k) {
		b->fluid_impulse[k] += c->momentum[k];
		b->fluid_angular_impulse[k] += t[k];
	}
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	apply_inv_inertia(b, three, t, dw);
	for (int k = 0; k < 3; ++k) {
		b->pending_dv[k] += c->momentum[k] * b->inv_mass;
		b->pending_dw[k] += dw[k];
	}
}

/* Body slots [begin, end) take their containment records, from their lists of records (the
 * containment's are where the density pass's were: contain_range). */
static void take_containment_range(void* ctx, int begin, int end)
{
	contain_job* job = ctx;
	body_set* set = &job->w->bodies;
	for (int k = begin; k < end; ++k) {
		const int32_t* records = set->body_records + set->near_first[k];
		for (int r = 0; r < set->body_record_count[k]; ++r)
			if (set->contained_body[records[r]] >= 0)
				take_containment(&set->bodies[k], &set->contained[records[r]], PDL_IS_3D(job->w));
	}
}

static void contain_fluid(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0 || !reserve_contained(set)) return;
	contain_job job = {w, dt};
	pdl_pool_for(w->pool, set->near_count, 64, contain_range, &job);
	/* the bodies take the momentum, each in the near list's order: body by body on the threads
	 * where each body's records are listed, else on one thread */
	if (set->body_records_known && set->near_bodies_known) {
		pdl_pool_for(w->pool, set->slots, 1, take_containment_range, &job);
		return;
	}
	const size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q)
		if (set->contained_body[q] >= 0) take_containment(&set->bodies[set->contained_body[q]], &set->contained[q], PDL_IS_3D(w));
}

void pdl_bodies_collide(pdl_world* w, float dt)
{
	find_contacts(w);
	solve_contacts(w);
	contain_fluid(w, dt);
}

/* ---- Velocity ----------------------------------------------------------------------------------- */

/* Restitution and dynamic friction on the velocities of the contacts that pushed this step
 * (Mueller et al. 2020, section 3.6): the normal approach speed is replaced by -e times the
 * speed it had before the step (0 below 2 |g| dt, so resting contacts do not bounce), and the
 * tangential speed of a contact that slid loses mu |lambda| / dt of speed. */
static void contact_velocities(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	pdl_vec3 g = w->def.gravity;
	float resting = 2.0f * sqrtf(g.x * g.x + g.y * g.y + g.z * g.z) * dt;
	for (int c = 0; c < set->contact_count; ++c) {
		body_contact* ct = &set->contacts[c];
		if (!(ct->lambda > 0)) continue;
		rigid_body* A = &set->bodies[ct->a];
		rigid_body* B = ct->b >= 0 ? &set->bodies[ct->b] : NULL;
		contact_state s;
		contact_state_of(w, ct, &s);
		float va[3], vb[3] = {0, 0, 0}, va0[3], vb0[3] = {0, 0, 0}, spin[3];
		const float oa[3] = {A->def.angular_velocity.x, A->def.angular_velocity.y, A->def.angular_velocity.z};
		const float oa0[3] = {A->start_angular_velocity.x, A->start_angular_velocity.y, A->start_angular_velocity.z};
		pdl_cross3(oa, s.ra, spin);
		va[0] = A->def.linear_velocity.x + spin[0], va[1] = A->def.linear_velocity.y + spin[1], va[2] = A->def.linear_velocity.z + spin[2];
		pdl_cross3(oa0, s.ra, spin);
		va0[0] = A->start_linear_velocity.x + spin[0], va0[1] = A->start_linear_velocity.y + spin[1];
		va0[2] = A->start_linear_velocity.z + spin[2];
		float e = A->def.restitution;
		if (B) {
			const float ob[3] = {B->def.angular_velocity.x, B->def.angular_velocity.y, B->def.angular_velocity.z};
			const float ob0[3] = {B->start_angular_velocity.x, B->start_angular_velocity.y, B->start_angular_velocity.z};
			pdl_cross3(ob, s.rb, spin);
			vb[0] = B->def.linear_velocity.x + spin[0], vb[1] = B->def.linear_velocity.y + spin[1], vb[2] = B->def.linear_velocity.z + spin[2];
			pdl_cross3(ob0, s.rb, spin);
			vb0[0] = B->start_linear_velocity.x + spin[0], vb0[1] = B->start_linear_velocity.y + spin[1];
			vb0[2] = B->start_linear_velocity.z + spin[2];
			e = 0.5f * (A->def.restitution + B->def.restitution);
		} else {
			const boundary* wall = &w->boundaries[ct->wall];
			vb[0] = vb0[0] = wall->def.velocity.x, vb[1] = vb0[1] = wall->def.velocity.y, vb[2] = vb0[2] = wall->def.velocity.z;
			e = e > wall->def.restitution ? e : wall->def.restitution;
		}
		float rel[3] = {va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]};
		float rel0[3] = {va0[0] - vb0[0], va0[1] - vb0[1], va0[2] - vb0[2]};
		if (!three) rel[2] = rel0[2] = 0;
		float vn = pdl_dot3(rel, s.n), vn0 = pdl_dot3(rel0, s.n);
		float wa = generalized_inverse_mass(A, three, s.ra, s.n), wb = B ? generalized_inverse_mass(B, three, s.rb, s.n) : 0;
		if (wa + wb <= 0) continue;
		float impulse[3] = {0, 0, 0};
		/* a contact that closed fast bounces back at e times its approach speed; resting ones
		 * keep the velocities the positions gave them */
		if (-vn0 > resting) {
			float dvn = -vn - e * vn0; /* > 0 pushes apart */
			for (int k = 0; k < 3; ++k) impulse[k] = s.n[k] * dvn / (wa + wb);
		}
		if (!ct->sticking && -vn0 > resting) { /* dynamic friction against a fast slide */
			float t[3];
			for (int k = 0; k < 3; ++k) t[k] = rel[k] - vn * s.n[k];
			float vt = sqrtf(pdl_dot3(t, t));
			if (vt > 1e-9f) {
				float mu = B ? 0.5f * (A->def.friction + B->def.friction) : A->def.friction * w->boundaries[ct->wall].def.friction;
				for (int k = 0; k < 3; ++k) t[k] /= vt;
				float wta = generalized_inverse_mass(A, three, s.ra, t), wtb = B ? generalized_inverse_mass(B, three, s.rb, t) : 0;
				/* the friction impulse is at most mu times the normal one, lambda / dt */
				float pt = fminf(mu * ct->lambda / dt, vt / (wta + wtb));
				for (int k = 0; k < 3; ++k) impulse[k] -= t[k] * pt;
			}
		}
		/* velocities: dV = p / M, domega = I^-1 (r x p) */
		float ta[3], dw[3];
		if (A->def.type == PDL_BODY_DYNAMIC) {
			pdl_cross3(s.ra, impulse, ta);
			apply_inv_inertia(A, three, ta, dw);
			A->def.linear_velocity.x += impulse[0] * A->inv_mass, A->def.linear_velocity.y += impulse[1] * A->inv_mass;
			if (three) A->def.linear_velocity.z += impulse[2] * A->inv_mass;
			A->def.angular_velocity.x += three ? dw[0] : 0, A->def.angular_velocity.y += three ? dw[1] : 0;
			A->def.angular_velocity.z += dw[2];
		}
		if (B && B->def.type == PDL_BODY_DYNAMIC) {
			pdl_cross3(s.rb, impulse, ta);
			apply_inv_inertia(B, three, ta, dw);
			B->def.linear_velocity.x -= impulse[0] * B->inv_mass, B->def.linear_velocity.y -= impulse[1] * B->inv_mass;
			if (three) B->def.linear_velocity.z -= impulse[2] * B->inv_mass;
			B->def.angular_velocity.x -= three ? dw[0] : 0, B->def.angular_velocity.y -= three ? dw[1] : 0;
			B->def.angular_velocity.z -= dw[2];
		}
	}
}

void pdl_bodies_velocity(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive || b->def.type != PDL_BODY_DYNAMIC) continue;
		pdl_vec3 c = b->def.position, c0 = b->start_position;
		b->def.linear_velocity = (pdl_vec3){(c.x - c0.x) / dt, (c.y - c0.y) / dt, three ? (c.z - c0.z) / dt : 0};
		if (!three) {
			b->def.angular_velocity = (pdl_vec3){0, 0, (b->def.angle - b->start_angle) / dt};
		} else { /* dq = q q0^-1; omega = 2 vec(dq) / dt (the short way round) */
			pdl_quat q = b->def.orientation, p = b->start_orientation;
			float x = q.w * -p.x + q.x * p.w + q.y * -p.z - q.z * -p.y;
			float y = q.w * -p.y - q.x * -p.z + q.y * p.w + q.z * -p.x;
			float z = q.w * -p.z + q.x * -p.y - q.y * -p.x + q.z * p.w;
			float s = q.w * p.w - q.x * -p.x - q.y * -p.y - q.z * -p.z;
			float sign = s < 0 ? -2.0f : 2.0f;
			b->def.angular_velocity = (pdl_vec3){sign * x / dt, sign * y / dt, sign * z / dt};
		}
	}
	contact_velocities(w, dt);
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive || b->def.type != PDL_BODY_DYNAMIC) continue;
		b->def.linear_velocity.x += (float)b->pending_dv[0];
		b->def.linear_velocity.y += (float)b->pending_dv[1];
		if (three) b->def.linear_velocity.z += (float)b->pending_dv[2];
		if (three) {
			b->def.angular_velocity.x += (float)b->pending_dw[0];
			b->def.angular_velocity.y += (float)b->pending_dw[1];
		}
		b->def.angular_velocity.z += (float)b->pending_dw[2];
	}
}

/* ---- SPH ---------------------------------------------------------------------------------------
 *
 * With the SPH solver the bodies are sampled at the start of each substep, where the fluid is.
 * Pressure: a body is a wall to the fluid, as the containers and obstacles are (sph.c): a fluid
 * particle at distance d from a body's surface gains rho0 G(d / h) of density and the force
 * (p_i / rho_i^2) rho0 F(d / h) / h along the surface normal, G and F the density kernel
 * integrated over the half-space behind the surface (sph.c's wall tables; a circle's or ball's
 * own tables integrate it over the disc or ball, curved_wall_tables). Boundary particles
 * with Akinci's forces were tried first: with Poly6's gradient, which vanishes as r -> 0, fluid
 * pressed against a body slipped in (a submerged box felt a third of its buoyancy); with Spiky's
 * the boundary squeezed the Poly6 fluid under a heavy body into clumps that held it up.
 * Viscosity: the boundary particles, as in the Clavet coupling, with the fluid's Laplacian form
 *   a_i += nu (m_i / rho_i) lap W(r_ik) (v_k - v_i).
 * The body takes the opposite momentum, -m_i a_i dt, at the surface point nearest the fluid
 * particle (pressure) or at the boundary particle (viscosity), turned into its velocity and spin
 * before its pose moves by them (symplectic Euler, as the fluid). */

typedef struct sph_pair_job {
	pdl_world* w;
	float dt;
	pdl_kernels k;
} sph_pair_job;

/* The bodies with boundary particles around x (at most PDL_CONTAIN_BODIES, in the order met). */
static int bodies_around(const body_set* set, const float* x, int* out)
{
	pdl_grid_runs runs;
	int count = 0;
	pdl_grid_runs_around(&set->grid, x[0], x[1], x[2], &runs);
	for (int r = 0; r < runs.count; ++r)
		for (int s = runs.begin[r]; s < runs.end[r]; ++s) {
			int b = set->body[s], seen = 0;
			for (int k = 0; k < count; ++k) seen |= out[k] == b;
			if (!seen && count < PDL_CONTAIN_BODIES) out[count++] = b;
		}
	return count;
}

static void sph_fluid_density_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e], near[PDL_CONTAIN_BODIES];
		const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		const material* m = &w->materials[p->material[i]];
		float add = 0, n[3];
		int count = bodies_around(set, x, near);
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[near[k]];
			float d = pdl_body_distance(b, x, three, n);
			if (d < h) add += m->sph_rest_density * pdl_sph_table_at(body_density_table(w, b), (d > 0 ? d : 0) / h);
		}
		if (add == 0) continue;
		p->density[i] += add;
		float pressure = pdl_sph_pressure(&w->def.sph, p->density[i], m->sph_rest_density);
		p->pressure[i] = pressure > 0 ? pressure : 0;
	}
}

/* Viscosity between fluid particle i and boundary particle k at offset u = x_i - x_k. */
static inline void sph_viscosity(const sph_pair_job* job, float mass, float rho, const float* vi, const float* vk,
                                 float r2, float* a)
{
	float visc = job->w->def.sph.viscosity * (mass / rho) * pdl_viscosity_laplacian(&job->k, sqrtf(r2));
	for (int c = 0; c < 3; ++c) a[c] = visc * (vk[c] - vi[c]);
}

/* Fluid side: the bodies' wall pressure and the boundary particles' viscosity, into v2 and x2;
 * the pressure's momentum is recorded per body for the bodies' side. */
static void sph_fluid_force_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = job->k.h, h2 = job->k.h2, dt = job->dt;
	pdl_grid_runs runs;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e], near[PDL_CONTAIN_BODIES];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		const float vi[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
		const material* m = &w->materials[p->material[i]];
		const float mass = m->def.mass, rho = p->density[i];
		float acc[3] = {0, 0, 0};
		int count = bodies_around(set, x, near);
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[near[k]];
			float n[3], d = pdl_body_distance(b, x, three, n);
			if (!(d < h)) continue;
			float push = p->pressure[i] / (rho * rho) * m->sph_rest_density *
			             pdl_sph_table_at(body_force_table(w, b), (d > 0 ? d : 0) / h) / h;
			rec_body[k] = near[k];
			for (int c = 0; c < 3; ++c) {
				acc[c] += push * n[c];
				rec[k].momentum[c] = -mass * (dt * (push * n[c]));
				rec[k].r[c] = x[c] - d * n[c] - (c == 0 ? b->def.position.x : c == 1 ? b->def.position.y : b->def.position.z);
			}
			if (!three) rec[k].r[2] = 0;
		}
		pdl_grid_runs_around(&set->grid, x[0], x[1], x[2], &runs);
		for (int r = 0; r < runs.count; ++r)
			for (int k = runs.begin[r]; k < runs.end[r]; ++k) {
				float u[3] = {x[0] - set->x[k], x[1] - set->y[k], three ? x[2] - set->z[k] : 0};
				float r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], a[3];
				if (!(r2 < h2)) continue;
				const float vk[3] = {set->vx[k], set->vy[k], set->vz[k]};
				sph_viscosity(job, mass, rho, vi, vk, r2, a);
				for (int c = 0; c < 3; ++c) acc[c] += set->wt[k] * a[c];
			}
		/* the internal pass wrote v2 = v + dt a and x2 = x + dt v2 */
		p->vx2[i] += dt * acc[0], p->x2[i] += dt * (dt * acc[0]);
		p->vy2[i] += dt * acc[1], p->y2[i] += dt * (dt * acc[1]);
		if (three) p->vz2[i] += dt * acc[2], p->z2[i] += dt * (dt * acc[2]);
	}
}

/* Body side of the viscosity, over the boundary particles. */
static void sph_body_viscosity_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h2 = job->k.h2, dt = job->dt;
	pdl_grid_runs runs;
	for (int k = begin; k < end; ++k) {
		float j[3] = {0, 0, 0};
		const float vk[3] = {set->vx[k], set->vy[k], set->vz[k]};
		pdl_grid_runs_around(&w->grid, set->x[k], set->y[k], set->z[k], &runs);
		for (int r = 0; r < runs.count; ++r)
			for (int i = runs.begin[r]; i < runs.end[r]; ++i) {
				const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
				float u[3] = {x[0] - set->x[k], x[1] - set->y[k], three ? x[2] - set->z[k] : 0};
				float r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], a[3];
				if (!(r2 < h2)) continue;
				const float vi[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
				const float mass = w->materials[p->material[i]].def.mass;
				sph_viscosity(job, mass, p->density[i], vi, vk, r2, a);
				for (int c = 0; c < 3; ++c) j[c] -= mass * (dt * (set->wt[k] * a[c]));
			}
		set->jx[k] = j[0], set->jy[k] = j[1], set->jz[k] = j[2];
	}
}

static sph_pair_job sph_job_of(pdl_world* w, float dt)
{
	return (sph_pair_job){w, dt, pdl_kernels_make(PDL_IS_3D(w) ? 3 : 2, w->def.interaction_radius)};
}


void pdl_bodies_sph_density(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	sph_pair_job job = sph_job_of(w, dt);
	pdl_pool_for(w->pool, set->near_count, 64, sph_fluid_density_range, &job);
}

/* Adds the pressure records (set->contained: the momentum each near particle's wall pressure
 * gave each body, and where) to the bodies' pending sums, in the near list's order. */
static void add_pressure_records(pdl_world* w)
{
	body_set* set = &w->bodies;
	size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q) {
		if (set->contained_body[q] < 0) continue;
		const containment* c = &set->contained[q];
		rigid_body* b = &set->bodies[set->contained_body[q]];
		float t[3];
		pdl_cross3(c->r, c->momentum, t);
		for (int k = 0; k < 3; ++k) b->pending_sum[k] += c->momentum[k], b->pending_sum[3 + k] += t[k];
	}
}

/* V += J / M, omega += I^-1 L from the pending sums, and the pose moves by the new velocities
 * (symplectic Euler, as the fluid). */
static void move_bodies(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		for (int c = 0; c < 3; ++c) {
			b->fluid_impulse[c] += b->pending_sum[c];
			b->fluid_angular_impulse[c] += b->pending_sum[3 + c];
		}
		if (b->def.type == PDL_BODY_DYNAMIC) {
			float ang[3] = {(float)b->pending_sum[3], (float)b->pending_sum[4], (float)b->pending_sum[5]}, dw[3];
			apply_inv_inertia(b, three, ang, dw);
			b->def.linear_velocity.x += (float)b->pending_sum[0] * b->inv_mass;
			b->def.linear_velocity.y += (float)b->pending_sum[1] * b->inv_mass;
			if (three) b->def.linear_velocity.z += (float)b->pending_sum[2] * b->inv_mass;
			if (three) b->def.angular_velocity.x += dw[0], b->def.angular_velocity.y += dw[1];
			b->def.angular_velocity.z += dw[2];
		}
		pdl_vec3 v = b->def.linear_velocity, om = b->def.angular_velocity;
		b->def.position.x += dt * v.x;
		b->def.position.y += dt * v.y;
		if (three) b->def.position.z += dt * v.z;
		float theta[3] = {dt * om.x, dt * om.y, dt * om.z};
		turn(b, three, theta);
	}
}

void pdl_bodies_sph_forces(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	sph_pair_job job = sph_job_of(w, dt);
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	if (set->near_count > 0 && reserve_contained(set)) {
		/* the body side first: the fluid side changes v2 and x2 only, which it does not read */
		pdl_pool_for(w->pool, set->n, 64, sph_body_viscosity_range, &job);
		pdl_pool_for(w->pool, set->near_count, 64, sph_fluid_force_range, &job);
		/* momentum per body: the viscosity in the boundary particles' sorted order, then the
		 * pressure in the near list's */
		for (int s = 0; s < set->n; ++s) {
			rigid_body* b = &set->bodies[set->body[s]];
			float r[3] = {set->x[s] - b->def.position.x, set->y[s] - b->def.position.y, three ? set->z[s] - b->def.position.z : 0};
			float j[3] = {set->jx[s], set->jy[s], set->jz[s]}, t[3];
			pdl_cross3(r, j, t);
			for (int c = 0; c < 3; ++c) b->pending_sum[c] += j[c], b->pending_sum[3 + c] += t[c];
		}
		add_pressure_records(w);
	}
	move_bodies(w, dt);
}

/* ---- DFSPH ------------------------------------------------------------------------------------
 *
 * The DFSPH solver (dfsph.c) treats a body as it treats a wall, a volume map in closed form
 * (Koschier & Bender 2017): a fluid particle at distance d from the body's surface gains
 * psi = F(d / h) of relative density, and the pressure solves push it with
 * (p_i / rho0_i) G(d / h) / h along the surface normal, against the body's velocity at the
 * surface point (both solves see the body move). The body is sampled at the start of each
 * substep (pdl_bodies_sph_sample) and holds still during the solves; afterwards it takes the
 * opposite momentum at the surface point nearest each particle, -m_i dt (p_i / rho0_i) G / h n,
 * and moves (symplectic Euler, as with SPH). Viscosity between fluid and body is left out. */

int pdl_bodies_contacts(const pdl_world* w, int e, pdl_body_contact* out)
{
	const body_set* set = &w->bodies;
	const particles* p = &w->p;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	const int i = set->near[e];
	const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
	int near[PDL_CONTAIN_BODIES], count = bodies_around(set, x, near), n = 0;
	for (int k = 0; k < count; ++k) {
		const rigid_body* b = &set->bodies[near[k]];
		float normal[3], d = pdl_body_distance(b, x, three, normal);
		if (!(d < h)) continue;
		pdl_body_contact* c = &out[n++];
		const float centre[3] = {b->def.position.x, b->def.position.y, three ? b->def.position.z : 0};
		const float om[3] = {b->def.angular_velocity.x, b->def.angular_velocity.y, b->def.angular_velocity.z};
		float r[3], spin[3];
		for (int a = 0; a < 3; ++a) r[a] = x[a] - d * normal[a] - centre[a];
		if (!three) r[2] = 0;
		pdl_cross3(om, r, spin);
		c->d = d > 0 ? d : 0;
		c->body = near[k];
		c->density = body_density_table(w, b), c->force = body_force_table(w, b);
		for (int a = 0; a < 3; ++a) c->n[a] = normal[a], c->r[a] = r[a];
		c->v[0] = b->def.linear_velocity.x + spin[0];
		c->v[1] = b->def.linear_velocity.y + spin[1];
		c->v[2] = three ? b->def.linear_velocity.z + spin[2] : 0;
	}
	return n;
}

typedef struct reaction_job {
	pdl_world* w;
	float dt;
	const float* scale;
	const pdl_body_contact* contacts;
	const int* counts;
} reaction_job;

static void reaction_range(void* ctx, int begin, int end)
{
	const reaction_job* job = ctx;
	pdl_world* w = job->w;
	body_set* set = &w->bodies;
	const float h = w->def.interaction_radius;
	for (int e = begin; e < end; ++e) {
		const int i = set->near[e];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const pdl_body_contact* contacts = &job->contacts[(size_t)e * PDL_CONTAIN_BODIES];
		const int count = job->counts[e];
		const float mass = w->materials[w->p.material[i]].def.mass;
		for (int k = 0; k < count; ++k) {
			const float push = job->scale[i] * pdl_sph_table_at(contacts[k].force, contacts[k].d / h) / h;
			rec_body[k] = contacts[k].body;
			for (int c = 0; c < 3; ++c) {
				rec[k].momentum[c] = -mass * (job->dt * (push * contacts[k].n[c]));
				rec[k].r[c] = contacts[k].r[c];
			}
		}
	}
}

void pdl_bodies_wall_reaction(pdl_world* w, float dt, const float* scale, const pdl_body_contact* contacts,
                              const int* counts)
{
	body_set* set = &w->bodies;
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	if (set->near_count > 0 && reserve_contained(set)) {
		reaction_job job = {w, dt, scale, contacts, counts};
		pdl_pool_for(w->pool, set->near_count, 64, reaction_range, &job);
		add_pressure_records(w);
	}
	move_bodies(w, dt);
}
