/* Internal: the world's data and the stages of the step. Not part of the public API. */
#ifndef PUDDLE_CORE_H
#define PUDDLE_CORE_H

#include "puddle/partition.h"
#include "puddle/puddle.h"

#include <math.h>

#include "grid.h"
#include "pool.h"
#include "walls.h"

#include <stddef.h>

#define PDL_K PDL_MAX_SPRINGS_PER_PARTICLE
#define PDL_CONTAIN_BODIES 4

/* Whether a world is 3D (its particles have z). */
#define PDL_IS_3D(w) ((w)->def.dimensions == 3)

/* relax_avx2.c, relax_avx512.c (and the springs' likewise): AVX2 and AVX-512VL copies of the
 * neighbour loops, chosen at run time (GCC on x86-64). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(PUDDLE_NO_SIMD)
#define PDL_HAVE_AVX2_LOOPS 1
#else
#define PDL_HAVE_AVX2_LOOPS 0
#endif

/* The compiled copies of the neighbour loops (relax.c, springs.c): the baseline the compiler
 * targets (SSE2 on x86-64, SIMD128 in WebAssembly), AVX2, and AVX2 with AVX-512VL's registers. */
typedef enum pdl_loops { PDL_LOOPS_BASELINE, PDL_LOOPS_AVX2, PDL_LOOPS_AVX512 } pdl_loops;

/* Material with the values the inner loops need precomputed. */
typedef struct material {
	pdl_material_def def;
	float inv_mass;
	bool springs; /* spring_stiffness > 0 */
	/* The spacing of the lattice whose kernel density is rest_density (pdl_rest_spacing, 3D:
	 * _3d), and the SPH rest density rho0, mass / area: the density of that lattice with the
	 * world's SPH kernel, Wendland C2 (then the DFSPH one below) or Poly6 (poly6_rest_density,
	 * rest_density.c's pdl_sph_rest_density). Worked out again only when h, rest_density or
	 * mass differ from lattice_of's (the spacing is a bisection over a lattice sum, the largest
	 * cost of building a world: world.c, pdl_update_material_tables); bodies are sampled at
	 * material 0's. */
	float rest_spacing, sph_rest_density;
	float poly6_rest_density;
	/* DFSPH (dfsph.c): the rest volume V = 1 / (Wendland C2's sum over that lattice) and
	 * the rest density mass / V */
	float dfsph_volume, dfsph_rest_density;
	/* The damping of its Jacobi iterations (dfsph.c, pdl_dfsph_jacobi_weight), of h and the
	 * spacing alone; 0 until the first DFSPH step after either changed works it out: its scan of
	 * wave vectors takes 6 ms in 2D and 58 ms in 3D, the rest of this table under 0.1 ms, and
	 * the other solvers never read it. */
	float dfsph_omega;
	float gradient_correction; /* pdl_dfsph_gradient_correction of its lattice (SPH, DFSPH) */
	struct {
		bool known;
		float h, rest_density, mass;
	} lattice_of;
} material;

/* Material m's density at rest in the units the world's solver measures (pdl_world_rest_density). */
#define pdl_rest_density_of(w, m)                                                                  \
	((w)->def.solver == PDL_SOLVER_SPH     ? (m)->sph_rest_density                                 \
	 : (w)->def.solver == PDL_SOLVER_DFSPH ? (m)->dfsph_rest_density                               \
	                                       : (m)->def.rest_density)

/* A rigid body (body.c). Its def holds its state: def.position is the centre of mass, def.angle
 * (2D) or def.orientation (3D) its rotation, def.linear_velocity and def.angular_velocity its
 * velocities; nothing else persists between steps, so re-adding a body from its def restores it
 * bitwise. During a solver step def.position and the rotation are the predicted pose (body_step.c). */
typedef struct rigid_body {
	bool alive;
	uint32_t generation;
	pdl_body_def def;
	/* polygon vertices around the centre of mass (the def's are around the def's own origin,
	 * moved to the centroid when the body is added); boxes use def.half_extents */
	float mass, inv_mass;   /* inv_mass 0: kinematic */
	pdl_vec3 inv_inertia;   /* body frame: 2D in z; 3D principal; 0 for kinematic bodies */
	int first, count;       /* its boundary particles: body_local[first .. first + count) */
	int surface;            /* the first `surface` of them are the outer layer (the contacts') */
	float bound_radius;     /* farthest point of the shape from the centre of mass */
	float rot[9];           /* rotation matrix of the current pose, row major */
	/* start of the solver step */
	pdl_vec3 start_position, start_linear_velocity, start_angular_velocity;
	float start_angle;
	pdl_quat start_orientation;
	/* momentum the fluid gave the body: this pdl_world_step (for pdl_world_body_force) */
	double fluid_impulse[3], fluid_angular_impulse[3];
	pdl_body_force force;
	/* velocity changes from the fluid's containment, applied after the velocity stage */
	double pending_dv[3], pending_dw[3];
	double pending_sum[6]; /* scratch: a pass's linear and angular position impulse */
	/* DFSPH's coupling inside the pressure solves (body_sph.c, pdl_bodies_couple): the
	 * velocity the fluid sees (linear, then angular), the momentum the solves' pressure changes
	 * gave the body so far this substep (linear, angular), and I + M^-1 K, K the fluid's
	 * linearised response to the body's velocity, row major */
	float couple_velocity[6];
	double couple_sum[6];
	double couple_matrix[36];
	pdl_vec3 sample_position; /* the centre the boundary particles were placed around */
	float sample_lo[3], sample_hi[3]; /* their bounding box (world units; NaN left out) */
	float start_rot[9];       /* the rotation at the start of the step */
	/* circles and balls under SPH and DFSPH: the walls' tables (core.h, pdl_sph_wall_density)
	 * for this curvature, the kernel integrated over the disc (ball) instead of the half-space
	 * behind its tangent (body_step.c, curved_wall_tables); made for wall_h, wall_radius and
	 * wall_kernel (0: not made, 1: Poly6, 2: Wendland C2) */
	float wall_density[PDL_SPH_WALL_TABLE + 1], wall_force[PDL_SPH_WALL_TABLE + 1];
	float wall_h, wall_radius;
	int wall_kernel;
} rigid_body;

/* A live dynamic body lighter than the water it displaces (pdl_body_def.density < 1): DFSPH
 * couples it inside its solves (body_sph.c, coupled) and its contacts keep a film of water
 * between it and the walls (body_contacts.c, point_contacts). */
static inline bool pdl_body_is_light(const rigid_body* b)
{
	return b->alive && b->def.type == PDL_BODY_DYNAMIC && b->def.density < 1;
}

/* The bodies of a world, their boundary particles, and the scratch of the coupling. */
typedef struct body_set {
	rigid_body* bodies;
	int slots, slot_capacity; /* slots ever used (live or not), allocated */
	int live;
	/* boundary particles in their bodies' frames, body by body, and the share of a fluid
	 * particle each stands for (body.c, sample_shape) */
	float *lx, *ly, *lz, *lw;
	int local_count, local_capacity;
	float spacing; /* material 0's rest spacing when the last body was sampled */
	/* pdl_body_density_scale for Clavet's and the SPH kernel at that spacing and scales_h (two
	 * more lattice sums: worked out again only when either changes) */
	float density_scale, sph_density_scale, scales_h;
	bool scales_known;
	/* this solver step: world positions and velocities, sorted into body_grid's order */
	int n, capacity;
	float *x, *y, *z, *vx, *vy, *vz, *wt;
	int32_t* body;     /* body slot */
	int32_t* local;    /* index into lx/ly/lz */
	float *jx, *jy, *jz; /* each particle's momentum from the fluid this pass (mass * length) */
	float *ux, *uy, *uz, *uvx, *uvy, *uvz, *uwt; /* unsorted build arrays */
	int32_t *ubody, *ulocal;
	pdl_grid grid;
	/* the fluid particles near some body (sorted slots); per fluid slot a flag bit (bit s % 64
	 * of flag[s / 64]) and, for the flagged, its index in `near` */
	int32_t* near;
	int near_count, near_capacity;
	uint64_t* flag;
	int32_t* near_index;
	int flag_capacity; /* fluid slots */
	/* finding them (body_step.c, flag_near_by_shape): per body slot, its candidates' count
	 * and its first in near_hits */
	int32_t *near_total, *near_first, *near_hits;
	int near_slots_capacity, near_hits_capacity;
	bool near_hits_known; /* this step's near_hits list every body's candidates */
	/* per body slot k, the indices of its share records in the near list's order, from
	 * body_records[near_first[k]], body_record_count[k] of them (body_step.c,
	 * list_body_records); known when they are all of them */
	int32_t *body_records, *body_record_count;
	int body_records_capacity, body_record_count_capacity;
	bool body_records_known;
	atomic_int share_records; /* records the density pass filled, for that check */
	/* contacts of the body solver (body_step.c) */
	struct body_contact* contacts;
	int contact_count, contact_capacity;
	struct body_delta* delta; /* per body slot */
	int delta_capacity;
	/* Per near fluid particle e, records e * PDL_CONTAIN_BODIES + k for up to
	 * PDL_CONTAIN_BODIES bodies: the body slot of each in its own array (-1: unused, and
	 * so are the ones after it), apart from the record itself, so that a pass over them
	 * reads 16 bytes a particle and only the records in use (most particles meet one body).
	 * containment: what its containment (or SPH's wall pressure) did to each body;
	 * shares: what Clavet's pair passes gave each (body_step.c, body_share). */
	int32_t* contained_body;
	struct containment* contained;
	int contained_capacity;
	int32_t* share_body;
	struct body_share* shares;
	int share_capacity;
	bool near_bodies_known; /* Clavet's density pass listed each near particle's bodies in share_body */
} body_set;

/* Particle arrays, structure of arrays. Each sortable array has a spare of the same size so a
 * permutation is a gather into the spare and a pointer swap (no allocation in the step). */
typedef struct particles {
	int count, capacity;
	float *x, *y, *z;    /* position (z: 3D worlds only, NULL in 2D) */
	float *xp, *yp, *zp; /* position at the start of the solver step (Clavet alg. 1 x_prev) */
	float *vx, *vy, *vz;
	uint8_t* material;
	uint32_t* id;
	float *density, *pressure, *near_pressure;
	int32_t* spring_partner; /* capacity * PDL_K, or NULL while no material has springs */
	float* spring_rest;
	/* spares for sorting and Jacobi updates */
	float *x2, *y2, *z2, *xp2, *yp2, *zp2, *vx2, *vy2, *vz2;
	uint8_t* material2;
	uint32_t* id2;
	int32_t* spring_partner2;
	float* spring_rest2;
	int32_t* scratch; /* capacity ints: inverse permutation, proposal counts */
	/* ghosts (ghosts.c): -1 for the world's own particles, else the origin the caller gave the
	 * copy; NULL (all own) until pdl_world_set_ghost_fn */
	int32_t *origin, *origin2;
	int32_t* proposals; /* capacity * PDL_K, spring creation candidates */
	uint32_t next_id;
	/* Bumped by everything that changes the arrays on the host (particles.c, ghosts.c, a step on
	 * the CPU), so that a CUDA world copies its particles to the GPU only after such a change
	 * (step.c). */
	uint64_t revision;
} particles;

/* A body within h of a fluid particle as a moving wall (DFSPH; body_step.c): distance d >= 0,
 * unit normal n into the fluid, r the surface point nearest the particle from the body's
 * centre, v the body's velocity there. */
typedef struct pdl_body_contact {
	float d, n[3], r[3], v[3];
	int body; /* its slot */
	const float *density, *force; /* its wall tables (the body's own for a circle or ball) */
	bool film; /* the particle is in a film between the body and a wall (body_sph.c, in_film):
	              the body does not take its push */
} pdl_body_contact;

struct pdl_world {
	pdl_world_def def;
	material materials[PDL_MAX_MATERIALS];
	int material_count;
	/* pair tables indexed [a * PDL_MAX_MATERIALS + b]: share of a pair displacement that moves a
	 * (inverse-mass weight m_b / (m_a + m_b)), and the pair's mean viscosity */
	float pair_weight[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
	float pair_sigma[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
	float pair_beta[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
	bool any_springs;
	bool any_viscosity;
	bool uniform_mass;      /* every pair splits displacements in halves */
	bool uniform_viscosity; /* every pair has the same sigma and beta */

	particles p;
	/* The neighbour grid, built once a step at the predicted positions (springs, densities,
	 * viscosity, relaxation, and the statistics). */
	pdl_grid grid;

	boundary* boundaries;
	int boundary_count, boundary_capacity; /* slots used (live or removed), slots allocated */

	pdl_pointer pointers[PDL_MAX_POINTERS];
	bool pointer_active[PDL_MAX_POINTERS];

	body_set bodies; /* rigid bodies (body.c, body_step.c) */

	pdl_pool* pool; /* runs def.threads threads (one per core when 0) */
	pdl_loops loops; /* the copy of the neighbour loops it runs (all give the same bits) */
	bool gather_passes; /* relaxation gathers on dense grids too (pdl_world_set_grid_frame) */
	/* The CUDA backend (def.backend, cuda_step.h): the GPU's buffers; NULL on the CPU. After a
	 * step on the GPU the particles are in the GPU grid's order and `grid` is not theirs
	 * (grid_stale: the statistics take the GPU's neighbour count instead), and the GPU holds
	 * them as they are while p.revision == cuda_revision. backend_note says
	 * why the last step ran on the CPU although def.backend is CUDA ("" when it did not). */
	struct pdl_cuda* cuda;
	uint64_t cuda_revision; /* p.revision the GPU's copy of the particles is of */
	float cuda_fastest;     /* the largest squared speed the last GPU frame left (SPH's CFL) */
	bool grid_stale;
	char backend_note[160];
	pdl_ghost_fn* ghost_fn; /* called at the Clavet and DFSPH steps' ghost stages (ghosts.c) */
	void* ghost_context;
	/* what the next PDL_GHOST_FIELDS and PDL_GHOST_ERROR stages hand over (pdl_ghost_view) */
	int ghost_field_count;
	float* ghost_fields[PDL_GHOST_MAX_FIELDS];
	pdl_ghost_error ghost_error;

	double time;
	long long steps;
	pdl_profile profile;
	/* SPH: the walls' share of the kernel sums, tabulated on the first SPH step (sph.c):
	 * entry t is for a wall at distance t / PDL_SPH_WALL_TABLE h */
	bool sph_wall_ready;
	bool sph_wall_wendland; /* the tables are Wendland C2's (else Poly6's) */
	int next_substeps; /* SPH: the next step's substeps when > 0 (pdl_world_set_next_substeps) */
	float sph_wall_density[PDL_SPH_WALL_TABLE + 1];
	float sph_wall_force[PDL_SPH_WALL_TABLE + 1];
	/* DFSPH (dfsph.c): the walls' tables for its kernel, and the scratch of a substep (never
	 * permuted; dfsph_capacity floats each, padded for vector loads): the factor alpha, a
	 * solve's pressure change, and the surface normals */
	bool dfsph_wall_ready;
	float dfsph_wall_density[PDL_SPH_WALL_TABLE + 1];
	float dfsph_wall_force[PDL_SPH_WALL_TABLE + 1];
	float *dfsph_alpha, *dfsph_change, *dfsph_normal[3];
	/* the velocities during a solve in rows of four floats, vx vy vz 0 (the pressure pass writes
	 * them with vx, vy, vz; the compression pass reads a neighbour's with one load) */
	float* dfsph_velocity;
	float* dfsph_position; /* the positions the same way, for the density pass */
	pdl_ghost_error* dfsph_chunk_error; /* the solves' error sums, one per chunk of particles */
	int dfsph_capacity;
	/* with rigid bodies: per particle its index e in the bodies' near list or -1 (NULL without
	 * bodies), and per e its contacts (PDL_CONTAIN_BODIES slots each) and how many */
	int32_t* dfsph_body_near;
	pdl_body_contact* dfsph_contacts;
	int* dfsph_contact_count;
	int dfsph_near_capacity;
	/* the substep's neighbour lists (dfsph.c, "Neighbour lists"): particle i's neighbours are
	 * dfsph_neighbour[dfsph_row[i] .. dfsph_row[i + 1]), each with V_j grad W_ij in
	 * dfsph_grad (three planes of dfsph_pair_capacity + 8 floats: x, y, z); per particle its walls' sum of |grad psi| n (3 floats) and
	 * of |grad psi| (v_wall . n) in dfsph_wall_grad and dfsph_wall_rate */
	int64_t* dfsph_row;
	int32_t* dfsph_scan; /* the scan's rows (dfsph_list_stride slots a particle, dfsph_scan_slots in all) */
	int dfsph_list_stride;
	size_t dfsph_scan_slots;
	int32_t* dfsph_neighbour;
	float* dfsph_grad;
	int64_t dfsph_pair_capacity;
	float *dfsph_wall_grad, *dfsph_wall_rate;
	/* spray, foam and bubbles (diffuse.c); NULL while they are off */
	struct pdl_diffuse_state* diffuse;
};

/* error.c */
pdl_error_id pdl_fail(pdl_error* err, pdl_error_id id, double value);
pdl_error_id pdl_fail_text(pdl_error* err, pdl_error_id id, const char* detail);

/* validate.c: each returns PDL_OK or fills err */
pdl_error_id pdl_validate_world_def(const pdl_world_def* def, pdl_error* err);
pdl_error_id pdl_validate_sph_def(const pdl_sph_def* def, pdl_error* err);
pdl_error_id pdl_validate_material_def(const pdl_material_def* def, pdl_error* err);
pdl_error_id pdl_validate_boundary_def(const pdl_boundary_def* def, int dimensions, pdl_error* err);
pdl_error_id pdl_validate_fill_def(const pdl_world* w, const pdl_fill_def* def, pdl_error* err);
/* A body's def in w: its sizes are relative to material 0's rest spacing (src/validate.c). */
pdl_error_id pdl_validate_body_def(const pdl_world* w, const pdl_body_def* def, pdl_error* err);
pdl_error_id pdl_validate_pointer(const pdl_pointer* p, pdl_error* err);

/* world.c */
void pdl_update_material_tables(pdl_world* w);
/* Milliseconds since *t, which becomes now (the step's stage timers). */
static inline float pdl_since(double* t)
{
	double now = pdl_now_ms();
	float ms = (float)(now - *t);
	*t = now;
	return ms;
}
/* Swaps two particle arrays (a buffer and its spare). */
static inline void pdl_swap(float** a, float** b)
{
	float* t = *a;
	*a = *b;
	*b = t;
}

/* particles.c */
bool pdl_particles_reserve(pdl_world* w, int capacity);
bool pdl_particles_enable_springs(pdl_world* w);
void pdl_particles_free(particles* p);
/* Applies order (new slot k holds old particle order[k]) to every particle array, remapping
 * spring partners; x_prev too when with_prev (it is rewritten by prediction anyway). */
void pdl_particles_permute(pdl_world* w, const int32_t* order, bool with_prev);
/* Keeps particles whose keep[i] != 0, in order; remaps springs. Returns removed count. */
int pdl_particles_compact(pdl_world* w, const uint8_t* keep);
/* Particle `from`'s state into slot `to` (not its springs, which are indices: compact renames
 * them). */
void pdl_particles_move(particles* p, int to, int from);
/* Per-particle origins (ghosts.c), all -1: once the first ghost function is set. */
bool pdl_particles_enable_ghosts(pdl_world* w);

/* relax.c: the fastest copy of the loops this processor runs, capped by the environment
 * variable PUDDLE_SIMD ("baseline" or "avx2"; tests compare the copies with it). Read at world
 * creation. */
pdl_loops pdl_best_loops(void);

/* cos and sin of `angle` (radians) from IEEE +, -, *, / and floor alone, no libm: the web
 * build's libm (musl) and glibc round cosf/sinf differently for some arguments, and a body's
 * angle is turned into its rotation every substep, so one ulp there split the wasm and native
 * runs of the same world (web/test/native.test.mjs, 2D bodies). The angle is reduced to
 * [-pi/4, pi/4] against pi/2 in two parts (Cody & Waite; the first part's 33 bits make k pi/2
 * exact for |k| < 2^20), and Taylor series to r^15 and r^16 (error < 5e-17 there) are summed in
 * double, then rounded to float. Angles past 2 pi are first brought back by fmod (exact);
 * NaN and infinities give NaN. */
static inline void pdl_cos_sin(float angle, float* c, float* s)
{
	const double half_pi_hi = 1.57079632673412561417e+00, half_pi_lo = 6.07710050650619224932e-11;
	/* fmod is exact (no rounding, the same everywhere) and leaves |angle| < 2 pi as it is */
	double a = fabs((double)angle) < 6.28318530717958647692 ? (double)angle : fmod((double)angle, 6.28318530717958647692);
	double k = floor(a * 6.36619772367581382433e-01 + 0.5);
	double r = (a - k * half_pi_hi) - k * half_pi_lo, r2 = r * r;
	double sr = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 +
	            r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0))))))));
	double cr = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
	            r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))))));
	/* the quadrant, k mod 4, in double: exact for any k, where converting a huge k (an angle of
	 * 1e29 from a fuzzed snapshot) to an integer type is undefined */
	double q = k - 4 * floor(k * 0.25);
	double cq = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
	double sq = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
	*c = (float)cq, *s = (float)sq;
}

/* Grows each of the n arrays to cap floats (body.c); false if any could not grow (those that
 * did keep their new size, the rest their old one: the caller keeps its old capacity). */
bool pdl_grow_float_arrays(float** const arrays[], size_t n, int cap);

/* boundary.c */
void pdl_boundary_update_shape(boundary* b, bool three);
/* Signed distance from p to the wall's solid side: > 0 in the space the fluid may fill, < 0
 * inside the wall (outside a container, inside an obstacle); n (unit) points into the free
 * space. */
float pdl_boundary_distance(const boundary* b, const float p[3], bool three, float n[3]);

/* diffuse.c: the diffuse particles' pass after a pdl_world_step (nothing while they are off),
 * and their memory */
void pdl_diffuse_step(pdl_world* w);
void pdl_diffuse_free(pdl_world* w);

/* body.c */
void pdl_bodies_free(body_set* set);
/* out = R l and out = R^T v for a body's row-major rotation matrix R (body frame to world). */
static inline void pdl_rotate(const float* r, const float* l, float* out)
{
	float x = r[0] * l[0] + r[1] * l[1] + r[2] * l[2];
	float y = r[3] * l[0] + r[4] * l[1] + r[5] * l[2];
	float z = r[6] * l[0] + r[7] * l[1] + r[8] * l[2];
	out[0] = x, out[1] = y, out[2] = z;
}

static inline void pdl_unrotate(const float* r, const float* v, float* out)
{
	float x = r[0] * v[0] + r[3] * v[1] + r[6] * v[2];
	float y = r[1] * v[0] + r[4] * v[1] + r[7] * v[2];
	float z = r[2] * v[0] + r[5] * v[1] + r[8] * v[2];
	out[0] = x, out[1] = y, out[2] = z;
}

/* Signed distance from world point p to body b's surface at its current pose (< 0 inside),
 * with the outward unit normal in world space (2D: n[2] = 0). */
float pdl_body_distance(const rigid_body* b, const float p[3], bool three, float n[3]);
/* Signed distance from a point given in the body's frame to its surface (< 0 inside), with the
 * outward unit normal in the body frame. */
float pdl_body_local_distance(const rigid_body* b, const float p[3], bool three, float n[3]);
/* A box body's distance to a point given in its frame when the point is outside, 0 inside:
 * pdl_body_local_distance's outside case, the same bits, without the normal and without a
 * branch (the loops that test many points against a box). */
static inline float pdl_box_gap(const rigid_body* b, const float l[3], bool three)
{
	float qx = fabsf(l[0]) - b->def.half_extents.x, qy = fabsf(l[1]) - b->def.half_extents.y;
	float qz = three ? fabsf(l[2]) - b->def.half_extents.z : 0;
	qx = qx > 0 ? qx : 0, qy = qy > 0 ? qy : 0, qz = qz > 0 ? qz : 0; /* (fmaxf: a libm call) */
	return sqrtf(qx * qx + qy * qy + qz * qz);
}
/* The ways straight out of a body for a point inside it, in the body frame: each face's depth
 * (how far to move along its outward normal n to reach its plane), nearest first; a circle or
 * sphere has one. Returns the count (at most PDL_BODY_MAX_EXITS). */
#define PDL_BODY_MAX_EXITS PDL_MAX_POLYGON_VERTICES
int pdl_body_local_exits(const rigid_body* b, const float p[3], bool three, float depth[], float n[][3]);
/* The rotation matrix of the body's current def (angle or orientation) into b->rot. */
void pdl_body_update_rotation(rigid_body* b, bool three);
/* Material 0's rest spacing, from which bodies are sampled. */
static inline float pdl_body_spacing(const pdl_world* w) { return w->materials[0].rest_spacing; }
/* The step of the boundary particles' layers (body.c, sample_shape); the outer layer lies half
 * of it inside the surface. */
float pdl_body_lattice_step(float spacing, bool three);
float pdl_body_density_scale(float h, float spacing, bool three, bool poly6);

/* body_step.c: the bodies' part of each solver step (clavet.c calls them in this order) */
bool pdl_bodies_active(const pdl_world* w);
void pdl_bodies_begin_frame(pdl_world* w);
void pdl_bodies_forces(pdl_world* w, float dt);    /* v += dt g */
void pdl_bodies_predict(pdl_world* w, float dt);   /* save the pose, advance it, sample it */
void pdl_bodies_density(pdl_world* w, float dt);   /* after the density pass: fluid-body terms */
void pdl_bodies_relax(pdl_world* w, float dt);     /* after the relaxation pass */
void pdl_bodies_collide(pdl_world* w, float dt);   /* after the walls: contacts, containment */
void pdl_bodies_velocity(pdl_world* w, float dt);  /* after the velocity stage */
void pdl_bodies_end_frame(pdl_world* w, float frame_dt);
/* the SPH solver's turns (sph.c): sample at the substep's start, densities, forces and the
 * bodies' integration; then pdl_bodies_collide and pdl_bodies_velocity as above */
void pdl_bodies_sph_sample(pdl_world* w);
void pdl_bodies_sph_density(pdl_world* w, float dt);
void pdl_bodies_sph_forces(pdl_world* w, float dt);
/* The DFSPH solver's (dfsph.c): sample with pdl_bodies_sph_sample; pdl_body_contact (above).
 * Writes up to PDL_CONTAIN_BODIES contacts of near particle e; returns how many. */
int pdl_bodies_contacts(const pdl_world* w, int e, pdl_body_contact* out);
/* After a substep's solves: each body takes -m_i dt scale_i G(d / h) / h n from each near
 * particle i (G from its contact's force table), then the bodies move by their velocities.
 * contacts and counts: pdl_bodies_contacts' of each near particle e, at e * PDL_CONTAIN_BODIES
 * and e, found at the substep's start (nothing has moved since). */
void pdl_bodies_wall_reaction(pdl_world* w, float dt, const float* scale, const pdl_body_contact* contacts,
                              const int* counts);
/* The bodies' velocities inside the pressure solves (body_sph.c, "Coupling inside the solves").
 * pdl_bodies_couple_begin after the density pass: alpha the particles' DFSPH factors, omega
 * and inv_rest per material (the Jacobi weight, 1 / rho0). pdl_bodies_couple after each
 * pressure pass, with the pressure change it applied: moves the velocity each body shows the
 * fluid towards what those changes give it, and updates the contacts' velocities and the
 * particles' wall_rate (sum of |grad psi| v_wall . n) to match. */
void pdl_bodies_couple_begin(pdl_world* w, const float* alpha, const float* omega, const float* inv_rest,
                             pdl_body_contact* contacts, const int* counts);
void pdl_bodies_couple(pdl_world* w, float dt, const float* change, const float* inv_rest, pdl_body_contact* contacts,
                       const int* counts, float* wall_rate);

/* What every stage's parallel loop gets: the world and the solver step dt in seconds. */
typedef struct pdl_stage_job {
	pdl_world* w;
	float dt;
	int parity; /* the neighbour pair passes (relax.c): 0 runs the even slabs, 1 the odd */
} pdl_stage_job;

/* The solver interface (step.c picks one by def.solver): one pdl_world_step()'s substeps on the
 * CPU, over the stages below; fills *prof. No solver calls step.c. */
typedef void pdl_solver_step_fn(pdl_world* w, pdl_profile* prof);
/* clavet.c: Clavet, Beaudoin & Poulin 2005, alg. 1, with the stages below in this order */
pdl_solver_step_fn pdl_clavet_step;

/* The stages of one solver step, in order (clavet.c calls them; Clavet 2005 alg. 1). dt is the
 * solver step in seconds. Forces and velocity (stages.c) and boundaries (boundary.c) serve the
 * SPH and DFSPH solvers too. */
void pdl_stage_forces(pdl_world* w, float dt);     /* 1. gravity, pointers */
void pdl_stage_predict(pdl_world* w, float dt);    /* 2. x_prev = x, x += dt v, regrid */
void pdl_stage_springs(pdl_world* w, float dt);    /* 3. plasticity and springs (alg. 3, 4) */
void pdl_stage_density(pdl_world* w, float dt);    /* 4. densities, viscosity (alg. 2, 5) */
void pdl_stage_relax(pdl_world* w, float dt);      /* 5. relaxation displacements (alg. 2) */
void pdl_stage_boundaries(pdl_world* w, float dt); /* 6. walls and obstacles (section 6) */
void pdl_stage_velocity(pdl_world* w, float dt);   /* 7. v = (x - x_prev) / dt */

/* sph.c: the SPH solver (Mueller, Charypar & Gross 2003) */
/* The substeps the CFL rule asks for in the next pdl_world_step(), in [max(1, substeps),
 * max_substeps] */
int pdl_sph_substeps(const pdl_world* w);
/* The same rule for a given fastest particle's squared speed (pdl_world_cfl_substeps). */
int pdl_sph_substeps_for(const pdl_world* w, float v2max);
/* One pdl_world_step() of an SPH world: CFL substeps, each forces, grid, density, forces and
 * symplectic Euler, boundaries, velocity. Fills *prof. */
void pdl_sph_step(pdl_world* w, pdl_profile* prof);
/* The wall tables, once (a world's first SPH step; the CUDA step reads them too). */
void pdl_sph_prepare(pdl_world* w);
/* XSPH's share for a substep of dt seconds: world.sph.xsph per 1/60 s. */
float pdl_sph_xsph_share(const pdl_world* w, float dt);
/* A wall's share of an SPH particle's density and of its pressure force, per unit rest density,
 * at distance t h from it (the world's density kernel, Wendland C2 or Poly6, integrated over the
 * half-space behind the wall;
 * sph.c builds the tables on a world's first SPH step). Bodies use them too (body_step.c). */
float pdl_sph_wall_density(const pdl_world* w, float t);
float pdl_sph_wall_force(const pdl_world* w, float t);

/* The wall tables of a kernel (dimensionless, h = 1): force[t] = G(t / T) and density[t] = the
 * integral of G from t / T to 1, T = PDL_SPH_WALL_TABLE, with G(t) = plane(t, three), the
 * kernel integrated over the line (3D: plane) at distance t (sph.c; Simpson's rule). */
void pdl_wall_tables(double (*plane)(double t, bool three), bool three, float* density, float* force);
/* Wendland C2 (h = 1) integrated over the line (3D: plane) at distance t: its tables' plane */
double pdl_wendland_plane(double t, bool three);

/* dfsph.c: the DFSPH solver (Bender & Koschier 2015, 2017) */
/* One pdl_world_step() of a DFSPH world (CFL substeps; the file's head lists the stages). */
void pdl_dfsph_step(pdl_world* w, pdl_profile* prof);
/* The substeps the CFL rule asks for with the given fastest squared speed. */
int pdl_dfsph_substeps_for(const pdl_world* w, float v2max);
/* The walls' tables, once. */
void pdl_dfsph_prepare(pdl_world* w);
/* 1 / (Wendland C2's sum over the fill lattice of this spacing): a particle's rest volume. */
float pdl_dfsph_rest_volume(float h, float spacing, bool three);
/* The factor that makes the SPH gradient exact for a linear field on the fill lattice of this
 * spacing: d / (V sum_j r_j |grad W(r_j)|), Wendland C2, V the rest volume (1 as h / spacing
 * grows; 1.012 for 2D water, 1.048 for 3D). dfsph.c's head says where it enters. */
float pdl_dfsph_gradient_correction(float h, float spacing, bool three);
/* L of SPH's pressure term for a material: its gradient_correction with the Wendland kernel
 * (sph.c, internal_pass), else 1. */
float pdl_sph_gradient_correction(const pdl_world* w, int m);
/* The Jacobi damping omega for particles of this rest spacing (1 over the largest eigenvalue
 * of the iteration on the fill lattice). */
float pdl_dfsph_jacobi_weight(float h, float spacing, bool three);
void pdl_dfsph_free(pdl_world* w);

/* Pairs at the same place as i in a neighbour loop's vector: for each lane k set in `same`,
 * subtracts value[k] times the fixed direction from i to the lane's candidate from sum (x, y
 * and, in 3D, z), in lane order. The candidate of lane k is index[k], or j + k when index is
 * NULL (a run of sorted slots). i itself (r = 0 too) is skipped: it is no pair. */
static inline void pdl_coincident_lanes(int same, const float* value, const uint32_t* id, int i,
                                        const int32_t* index, int j, bool three, float sum[3])
{
	for (int k = 0; same; ++k, same >>= 1) {
		int other = index ? index[k] : j + k;
		if (!(same & 1) || other == i) continue;
		pdl_vec3 u = pdl_coincident_direction(id[i], id[other], three);
		sum[0] -= value[k] * u.x;
		sum[1] -= value[k] * u.y;
		if (three) sum[2] -= value[k] * u.z;
	}
}

#endif
