/* Internal: the world's data and the stages of the step. Not part of the public API. */
#ifndef PUDDLE_CORE_H
#define PUDDLE_CORE_H

#include "puddle/puddle.h"

#include "grid.h"
#include "pool.h"

#include <stddef.h>

#define PDL_K PDL_MAX_SPRINGS_PER_PARTICLE
#define PDL_SPH_WALL_TABLE 64

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
	/* SPH rest density rho0, mass / area: the Poly6 density of a hexagonal lattice at this
	 * material's rest spacing (sph.c, pdl_sph_rest_density); recomputed when h changes */
	float sph_rest_density;
} material;

/* A boundary with its shape in world space, recomputed whenever its def changes. */
typedef struct boundary {
	bool alive;
	pdl_boundary_def def;
	int vertex_count;                             /* box and polygon: world-space corners */
	pdl_vec2 vertices[PDL_MAX_POLYGON_VERTICES];  /* counter-clockwise */
	pdl_vec2 normals[PDL_MAX_POLYGON_VERTICES];   /* outward normal of edge i -> i+1 */
	/* the faces as planes (a point and the outward normal): the edges, and in 3D a box's top
	 * and bottom (the obstacle collision clips against them) */
	int plane_count;
	pdl_vec3 plane_point[PDL_MAX_POLYGON_VERTICES + 2], plane_normal[PDL_MAX_POLYGON_VERTICES + 2];
	float cos_angle, sin_angle;
	pdl_vec3 bounds_min, bounds_max; /* the shape's bounding box (the broad phase of obstacles) */
} boundary;

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
	int32_t* proposals; /* capacity * PDL_K, spring creation candidates */
	uint32_t next_id;
} particles;

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
	int boundary_count, boundary_capacity;

	pdl_pointer pointers[PDL_MAX_POINTERS];
	bool pointer_active[PDL_MAX_POINTERS];

	pdl_pool* pool; /* runs def.threads threads (one per core when 0) */
	pdl_loops loops; /* the copy of the neighbour loops it runs (all give the same bits) */

	double time;
	long long steps;
	pdl_profile profile;
	/* SPH: the walls' share of the kernel sums, tabulated on the first SPH step (sph.c):
	 * entry t is for a wall at distance t / PDL_SPH_WALL_TABLE h */
	bool sph_wall_ready;
	float sph_wall_density[PDL_SPH_WALL_TABLE + 1];
	float sph_wall_force[PDL_SPH_WALL_TABLE + 1];
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
pdl_error_id pdl_validate_pointer(const pdl_pointer* p, pdl_error* err);

/* world.c */
void pdl_update_material_tables(pdl_world* w);
double pdl_now_ms(void);

/* particles.c */
bool pdl_particles_reserve(pdl_world* w, int capacity);
bool pdl_particles_enable_springs(pdl_world* w);
void pdl_particles_free(particles* p);
/* Applies order (new slot k holds old particle order[k]) to every particle array, remapping
 * spring partners; x_prev too when with_prev (it is rewritten by prediction anyway). */
void pdl_particles_permute(pdl_world* w, const int32_t* order, bool with_prev);
/* Keeps particles whose keep[i] != 0, in order; remaps springs. Returns removed count. */
int pdl_particles_compact(pdl_world* w, const uint8_t* keep);

/* relax.c: the fastest copy of the loops this processor runs, capped by the environment
 * variable PUDDLE_SIMD ("baseline" or "avx2"; tests compare the copies with it). Read at world
 * creation. */
pdl_loops pdl_best_loops(void);

/* boundary.c */
void pdl_boundary_update_shape(boundary* b, bool three);

/* What every stage's parallel loop gets: the world and the solver step dt in seconds. */
typedef struct pdl_stage_job {
	pdl_world* w;
	float dt;
	int parity; /* the neighbour pair passes (relax.c): 0 runs the even slabs, 1 the odd */
} pdl_stage_job;

/* The stages of one solver step, in order (step.c calls them; Clavet 2005 alg. 1). dt is the
 * solver step in seconds. */
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
/* One pdl_world_step() of an SPH world: CFL substeps, each forces, grid, density, forces and
 * symplectic Euler, boundaries, velocity. Fills *prof. */
void pdl_sph_step(pdl_world* w, pdl_profile* prof);

/* A direction for two particles at the same place: unit, deterministic, and exactly
 * opposite for (b, a), so the pair still conserves momentum (instead of 0/0 = NaN). In 2D one
 * of eight directions in the plane, in 3D one of the eight cube diagonals. */
static inline pdl_vec3 pdl_coincident_direction(uint32_t id_a, uint32_t id_b, bool three)
{
	uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
	uint32_t h = lo * 0x9E3779B1u ^ (hi + 0x7F4A7C15u) * 0x85EBCA77u;
	h ^= h >> 15;
	/* eight fixed unit directions are enough to separate them */
	static const float dirs[8][2] = {{1, 0},         {0.70710678f, 0.70710678f},
	                                 {0, 1},         {-0.70710678f, 0.70710678f},
	                                 {-1, 0},        {-0.70710678f, -0.70710678f},
	                                 {0, -1},        {0.70710678f, -0.70710678f}};
	float s = id_a < id_b ? 1.0f : -1.0f;
	if (three) {
		const float c = 0.57735027f; /* 1 / sqrt 3 */
		return (pdl_vec3){s * (h & 1 ? c : -c), s * (h & 2 ? c : -c), s * (h & 4 ? c : -c)};
	}
	return (pdl_vec3){s * dirs[h & 7][0], s * dirs[h & 7][1], 0};
}

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
