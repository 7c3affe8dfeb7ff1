/* The bodies' part of a solver step (docs/physics.md, "Bodies"). clavet.c calls these between
 * the fluid's stages:
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
 * By topic, each file calling only files listed after it (body_step.h):
 *   body_sph.c       the SPH and DFSPH solvers' coupling (sph.c, dfsph.c)
 *   body_fluid.c     Clavet's coupling: the density and relax stages' fluid-body pairs
 *   body_step.c      the frame: forces, predict (sampling, the near lists), velocity, and the
 *                    order of the collide stage
 *   body_contacts.c  bodies against walls and each other
 *   body_contain.c   no fluid particle left inside a body
 *
 * Determinism: every parallel loop writes only its own entries (the fluid side gathers from
 * the boundary particles, the body side from the fluid), and the sums per body run in the
 * boundary particles' sorted order, so the result is the same for any thread count. */
#include "core.h"
#include "body_step.h"
#include "simd.h" /* PDL_SIMD_PAD: the gathers read the boundary particles eight at a time */

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool pdl_bodies_active(const pdl_world* w) { return w->bodies.live > 0; }

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

void pdl_bodies_collide(pdl_world* w, float dt)
{
	pdl_bodies_find_contacts(w);
	pdl_bodies_solve_contacts(w);
	pdl_bodies_contain_fluid(w, dt);
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
	pdl_bodies_contact_velocities(w, dt);
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
