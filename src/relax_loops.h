/* Internal: the two neighbour loops of relaxation (relax.c explains the method), written once
 * with the vectors of simd.h and compiled once per backend: relax.c includes this file for the
 * backend the compiler targets (SSE2, WebAssembly SIMD128, plain C) and relax_avx2.c for AVX2.
 * The includer defines RELAX_LOOP(name) to give each copy its own function names; every copy
 * gives the same bits (simd.h).
 *
 * 2D and 3D share the loops: each takes `three` as a constant argument, and the _3d entry
 * points are the same code with the z terms switched on (the compiler drops them in 2D). */
#include "core.h"
#include "simd.h"
#include "viscosity.h"

#include <string.h>

#ifndef RELAX_LOOP
#error "define RELAX_LOOP(name) before including relax_loops.h"
#endif

void RELAX_LOOP(density_range)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_range)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_range)(void* ctx, int begin, int end);
void RELAX_LOOP(density_range_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_range_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_range_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(density_pairs)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_pairs)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_pairs)(void* ctx, int begin, int end);
void RELAX_LOOP(density_pairs_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_pairs_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_pairs_3d)(void* ctx, int begin, int end);

/* The offsets (dx, dy, dz) = x_j - x_i of candidates j .. j + 7 and their squared distances. */
static inline f8 candidate_offsets(const float* px, const float* py, const float* pz, int j, f8 xi,
                                   f8 yi, f8 zi, bool three, f8* dx, f8* dy, f8* dz)
{
	*dx = f8_sub(f8_load(px + j), xi);
	*dy = f8_sub(f8_load(py + j), yi);
	f8 r2 = f8_add(f8_mul(*dx, *dx), f8_mul(*dy, *dy));
	*dz = f8_set1(0.0f);
	if (three) {
		*dz = f8_sub(f8_load(pz + j), zi);
		r2 = f8_add(r2, f8_mul(*dz, *dz));
	}
	return r2;
}

/* First pass: rho_i and rho_near_i, then the pressures; with viscosity on, also i's viscosity
 * velocity change dv_i (alg. 5), stored as the position change dt dv_i in vx2, vy2. Lane k of
 * each neighbour run sums candidates k, k+8, ... (see simd.h), so every backend gives the same
 * bits. */
static inline void density_pass(const pdl_stage_job* job, int begin, int end, bool with_viscosity,
                                bool three)
{
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius;
	const f8 h2 = f8_set1(h * h), inv_h = f8_set1(1.0f / h), one = f8_set1(1.0f), zero = f8_set1(0);
	const f8 dt = f8_set1(job->dt);
	const float *px = p->x, *py = p->y, *pz = p->z, *pvx = p->vx, *pvy = p->vy, *pvz = p->vz;
	const uint8_t* mat = p->material;
	viscosity_i vi = {.uniform_viscosity = w->uniform_viscosity, .uniform_mass = w->uniform_mass};
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = three ? f8_set1(pz[i]) : zero;
		f8 rho = zero, rho_near = zero, dvx = zero, dvy = zero, dvz = zero;
		if (with_viscosity) {
			int row = mat[i] * PDL_MAX_MATERIALS;
			vi.vx = f8_set1(pvx[i]);
			vi.vy = f8_set1(pvy[i]);
			if (three) vi.vz = f8_set1(pvz[i]);
			vi.sigma = f8_set1(w->pair_sigma[row]);
			vi.beta = f8_set1(w->pair_beta[row]);
			vi.sigma_row = w->pair_sigma + row;
			vi.beta_row = w->pair_beta + row;
			vi.weight_row = w->pair_weight + row;
		}
		pdl_grid_runs_of(g, i, px[i], py[i], three ? pz[i] : 0, &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += PDL_LANES) {
				f8 dx, dy, dz;
				f8 r2 = candidate_offsets(px, py, pz, j, xi, yi, zi, three, &dx, &dy, &dz);
				m8 in = m8_and(m8_first(runs.end[r] - j), f8_lt(r2, h2)); /* i itself too */
				f8 dist = f8_sqrt(r2);
				f8 a = f8_mask(in, f8_sub(one, f8_mul(dist, inv_h)));
				f8 a2 = f8_mul(a, a);
				rho = f8_add(rho, a2);
				rho_near = f8_add(rho_near, f8_mul(a2, a));
				/* pairs at the same place have no direction: no viscosity between them */
				if (with_viscosity)
					viscosity_impulses(&vi, m8_and(in, f8_gt(r2, zero)), dx, dy, dz, dist, a,
					                   f8_load(pvx + j), f8_load(pvy + j),
					                   three ? f8_load(pvz + j) : zero, mat + j, dt, three, &dvx,
					                   &dvy, &dvz);
			}
		}
		const pdl_material_def* m = &w->materials[mat[i]].def;
		/* the candidates include i itself, at r = 0: (1 - 0)^2 = (1 - 0)^3 = 1 exactly; masking
		 * it lane by lane cost more than taking it off here */
		float d = f8_sum(rho) - 1.0f, dn = f8_sum(rho_near) - 1.0f;
		p->density[i] = d;
		p->pressure[i] = m->stiffness * (d - m->rest_density);
		p->near_pressure[i] = m->near_stiffness * dn;
		if (with_viscosity) {
			p->vx2[i] = job->dt * f8_sum(dvx);
			p->vy2[i] = job->dt * f8_sum(dvy);
			if (three) p->vz2[i] = job->dt * f8_sum(dvz);
		}
	}
}

void RELAX_LOOP(density_range)(void* ctx, int begin, int end)
{
	density_pass(ctx, begin, end, false, false);
}

void RELAX_LOOP(density_viscosity_range)(void* ctx, int begin, int end)
{
	density_pass(ctx, begin, end, true, false);
}

void RELAX_LOOP(density_range_3d)(void* ctx, int begin, int end)
{
	density_pass(ctx, begin, end, false, true);
}

void RELAX_LOOP(density_viscosity_range_3d)(void* ctx, int begin, int end)
{
	density_pass(ctx, begin, end, true, true);
}

/* Displacement pass: each particle gathers -D m_j / (m_i + m_j) from every pair. */
static inline void displace_pass(void* ctx, int begin, int end, bool three)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius, dt2 = job->dt * job->dt;
	const f8 h2 = f8_set1(h * h), inv_h = f8_set1(1.0f / h), one = f8_set1(1.0f), zero = f8_set1(0);
	/* with equal masses every pair splits in halves: fold the 1/2 into dt^2 */
	const f8 dt2_v = f8_set1(w->uniform_mass ? 0.5f * dt2 : dt2);
	const float *px = p->x, *py = p->y, *pz = p->z, *pressure_of = p->pressure, *near_of = p->near_pressure;
	const bool uniform_mass = w->uniform_mass, viscosity = w->any_viscosity;
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = three ? f8_set1(pz[i]) : zero;
		const f8 pi = f8_set1(p->pressure[i]), pni = f8_set1(p->near_pressure[i]);
		const float* weight_row = w->pair_weight + p->material[i] * PDL_MAX_MATERIALS;
		f8 sx = zero, sy = zero, sz = zero;
		float coincident[3] = {0, 0, 0};
		pdl_grid_runs_of(g, i, px[i], py[i], three ? pz[i] : 0, &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += PDL_LANES) {
				f8 dx, dy, dz;
				f8 r2 = candidate_offsets(px, py, pz, j, xi, yi, zi, three, &dx, &dy, &dz);
				m8 in = m8_and(m8_first(runs.end[r] - j), f8_lt(r2, h2)); /* i itself too */
				f8 dist = f8_sqrt(r2);
				f8 a = f8_sub(one, f8_mul(dist, inv_h));
				f8 pressure = f8_add(pi, f8_load(pressure_of + j));
				f8 near = f8_add(pni, f8_load(near_of + j));
				/* dt^2 (P (1 - q) + P_near (1 - q)^2) = dt^2 a (P + P_near a) */
				f8 d = f8_mul(f8_mul(dt2_v, a), f8_add(pressure, f8_mul(near, a)));
				if (!uniform_mass) d = f8_mul(d, f8_gather(weight_row, p->material + j));
				/* d along the unit vector dx / dist; a pair at the same place (dist = 0) takes
				 * its fixed direction below */
				m8 apart = m8_and(in, f8_gt(r2, zero));
				f8 scale = f8_mask(apart, f8_div(d, dist));
				sx = f8_sub(sx, f8_mul(scale, dx));
				sy = f8_sub(sy, f8_mul(scale, dy));
				if (three) sz = f8_sub(sz, f8_mul(scale, dz));
				int same = m8_bits(m8_andnot(apart, in));
				if (same) {
					float dk[PDL_LANES];
					f8_store(dk, d);
					pdl_coincident_lanes(same, dk, p->id, i, NULL, j, three, coincident);
				}
			}
		}
		float move_x = f8_sum(sx) + coincident[0], move_y = f8_sum(sy) + coincident[1];
		float move_z = three ? f8_sum(sz) + coincident[2] : 0;
		if (viscosity) { /* dt dv from the first pass */
			move_x += p->vx2[i];
			move_y += p->vy2[i];
			if (three) move_z += p->vz2[i];
		}
		p->x2[i] = px[i] + move_x;
		p->y2[i] = py[i] + move_y;
		if (three) p->z2[i] = pz[i] + move_z;
	}
}

void RELAX_LOOP(displace_range)(void* ctx, int begin, int end) { displace_pass(ctx, begin, end, false); }

void RELAX_LOOP(displace_range_3d)(void* ctx, int begin, int end)
{
	displace_pass(ctx, begin, end, true);
}


/* ---- The same two passes over each pair once ----------------------------------------------
 *
 * On a dense grid particle i visits only the candidates after it in the sorted order (each run
 * clipped to start at i + 1) and adds every pair's share to both particles: to i in its vector
 * sums, to j in place in the arrays, eight neighbours at a time. That halves the pair work of
 * the passes above, which see every pair from both sides.
 *
 * The arrays then take writes from other particles' turns, so the work is split into slabs
 * (grid.h): a particle's later neighbours lie in its own slab or the next, so the even slabs
 * can run in parallel, and the odd slab s once the even slabs s - 1 and s + 1 are done
 * (relax.c, run_pass). Which thread runs a slab changes nothing, and every value is summed in
 * one fixed order: the same bits for any thread count. The even slab s clears the sums of slabs
 * s and s + 1 before it starts; a slab is final once its own turn and the previous slab's are
 * done, so the odd slab s finishes slabs s and s + 1 (slab 0, with no slab before it, finishes
 * itself). */

/* The first slot of slab s (s = slab_count: the end). */
static inline int slab_first(const pdl_grid* g, int s)
{
	return g->slab_start[s < g->slab_count ? s : g->slab_count];
}

/* One slab's turn in a pass over pairs, as the comment above says: its slots [first, last); the
 * slots it clears at the start (the even slabs: [first, next_last), its own and the next
 * slab's), which are also those its pairs may add to; and the slots final after it, which it
 * finishes: [first, finish_end). */
typedef struct slab_turn {
	int first, last, next_last;
	bool clears;
	int finish_end; /* first: nothing to finish */
} slab_turn;

static inline slab_turn slab_turn_of(const pdl_stage_job* job, int item)
{
	const pdl_grid* g = &job->w->grid;
	int s = 2 * item + job->parity;
	slab_turn t = {slab_first(g, s), slab_first(g, s + 1), slab_first(g, s + 2), job->parity == 0, 0};
	t.finish_end = job->parity == 1 ? t.next_last : s == 0 ? t.last : t.first;
	return t;
}

/* What each neighbour j gets of a pair's value v_i: v_i itself with equal masses, else
 * v_i w_j / w_i computed as base w_j, where base = v_i / w_i is what both shares scale. */
typedef struct pair_shares {
	bool uniform_mass;
	const float* row; /* w_i = pair_weight[mat_i][mat_j], by mat_j */
	float column[PDL_MAX_MATERIALS]; /* w_j = pair_weight[mat_j][mat_i], by mat_j */
} pair_shares;

static inline void pair_shares_of(pair_shares* sh, const pdl_world* w, int mat_i)
{
	sh->uniform_mass = w->uniform_mass;
	sh->row = w->pair_weight + mat_i * PDL_MAX_MATERIALS;
	if (!sh->uniform_mass)
		for (int m = 0; m < w->material_count; ++m) sh->column[m] = w->pair_weight[m * PDL_MAX_MATERIALS + mat_i];
}

/* Adds a pair value along the offsets (dx, dy, dz) = x_j - x_i to both particles: i's vector
 * sums take -value w_i, j's sums in memory (slots j..) +value w_j. `value` is the pair value
 * before the shares and `equal` the share of each when the masses are equal (the caller may
 * have folded the 1/2 in already). */
static inline void add_pair_vector(const pair_shares* sh, f8 equal, f8 value, const uint8_t* mat_j,
                                   f8 dx, f8 dy, f8 dz, bool three, f8* sx, f8* sy, f8* sz,
                                   float* jx, float* jy, float* jz, int lanes)
{
	f8 si = equal, sj = equal;
	if (!sh->uniform_mass) {
		si = f8_mul(value, f8_gather(sh->row, mat_j));
		sj = f8_mul(value, f8_gather(sh->column, mat_j));
	}
	*sx = f8_sub(*sx, f8_mul(si, dx));
	*sy = f8_sub(*sy, f8_mul(si, dy));
	f8_accumulate(jx, f8_mul(sj, dx), lanes);
	f8_accumulate(jy, f8_mul(sj, dy), lanes);
	if (three) {
		*sz = f8_sub(*sz, f8_mul(si, dz));
		f8_accumulate(jz, f8_mul(sj, dz), lanes);
	}
}

/* What the pair loops of one slab share. */
typedef struct pair_pass {
	pdl_world* w;
	float dt, dt2_share; /* dt^2, halved for equal masses (each takes half of every pair) */
	int owned_end;       /* the end of the slots this turn owns: its slab and the next */
} pair_pass;

/* Density pass, particle i and the candidates after it in `runs`: adds the pairs' (1 - q)^2,
 * (1 - q)^3 and viscosity velocity changes to both particles' sums in density, near_pressure
 * and vx2/vy2/vz2. Kept out of line, and without calls, so the compiler holds its vectors in
 * registers. */
static PDL_ALWAYS_INLINE void density_pairs_of(const pair_pass* pass, int i, const pdl_grid_runs* runs,
                                               bool with_viscosity, bool three)
{
	pdl_world* w = pass->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius;
	const f8 h2 = f8_set1(h * h), inv_h = f8_set1(1.0f / h), one = f8_set1(1.0f), zero = f8_set1(0);
	const f8 dt_v = f8_set1(pass->dt), half = f8_set1(0.5f);
	const float *px = p->x, *py = p->y, *pz = p->z, *pvx = p->vx, *pvy = p->vy, *pvz = p->vz;
	float *rho_of = p->density, *near_of = p->near_pressure, *dvx_of = p->vx2, *dvy_of = p->vy2,
	      *dvz_of = p->vz2;
	const uint8_t* mat = p->material;
	const bool uniform_viscosity = w->uniform_viscosity;
	const int owned_end = pass->owned_end;
	const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = three ? f8_set1(pz[i]) : zero;
	f8 vxi = zero, vyi = zero, vzi = zero, sigma = zero, beta = zero;
	const float *sigma_row = NULL, *beta_row = NULL;
	pair_shares sh;
	if (with_viscosity) {
		int row = mat[i] * PDL_MAX_MATERIALS;
		vxi = f8_set1(pvx[i]);
		vyi = f8_set1(pvy[i]);
		if (three) vzi = f8_set1(pvz[i]);
		sigma = f8_set1(w->pair_sigma[row]);
		beta = f8_set1(w->pair_beta[row]);
		sigma_row = w->pair_sigma + row;
		beta_row = w->pair_beta + row;
		pair_shares_of(&sh, w, mat[i]);
	}
	f8 rho = zero, rho_near = zero, dvx = zero, dvy = zero, dvz = zero;
	for (int r = 0; r < runs->count; ++r) {
		int32_t end = runs->end[r];
		for (int32_t j = runs->begin[r] > i ? runs->begin[r] : i + 1; j < end; j += PDL_LANES) {
			/* lanes past the run add zeros: whole vectors while they stay in the slots this
			 * turn owns, only the run's own lanes near their end */
			int lanes = owned_end - j;
			f8 dx, dy, dz;
			f8 r2 = candidate_offsets(px, py, pz, j, xi, yi, zi, three, &dx, &dy, &dz);
			m8 in = m8_and(m8_first(end - j), f8_lt(r2, h2));
			f8 dist = f8_sqrt(r2);
			f8 a = f8_mask(in, f8_sub(one, f8_mul(dist, inv_h)));
			f8 a2 = f8_mul(a, a), a3 = f8_mul(a2, a);
			rho = f8_add(rho, a2);
			rho_near = f8_add(rho_near, a3);
			f8_accumulate(rho_of + j, a2, lanes);
			f8_accumulate(near_of + j, a3, lanes);
			if (!with_viscosity) continue;
			/* Clavet alg. 5 (viscosity.h): u = (v_i - v_j) . r^_ij, the approach speed;
			 * I = dt (1 - q) (sigma u + beta u^2), at most u; v_i -= I w_i r^, v_j += I w_j r^.
			 * Pairs at the same place have no direction: no viscosity between them. */
			/* 1 / dist = dist / r^2: the division runs beside the square root instead of after
			 * it, which shortens the chain of dependent operations */
			f8 inv_dist = f8_mul(dist, f8_div(one, r2));
			f8 du = f8_add(f8_mul(f8_sub(vxi, f8_load(pvx + j)), dx), f8_mul(f8_sub(vyi, f8_load(pvy + j)), dy));
			if (three) du = f8_add(du, f8_mul(f8_sub(vzi, f8_load(pvz + j)), dz));
			f8 u = f8_mul(du, inv_dist);
			m8 act = m8_and(m8_and(in, f8_gt(r2, zero)), f8_gt(u, zero));
			f8 sig = sigma, bet = beta;
			if (!uniform_viscosity) {
				sig = f8_gather(sigma_row, mat + j);
				bet = f8_gather(beta_row, mat + j);
			}
			/* dt (1 - q) (sigma u + beta u^2) = dt a u (sigma + beta u) */
			f8 impulse = f8_mul(f8_mul(f8_mul(dt_v, a), u), f8_add(sig, f8_mul(bet, u)));
			f8 base = f8_mask(act, f8_mul(f8_min(impulse, u), inv_dist));
			add_pair_vector(&sh, f8_mul(base, half), base, mat + j, dx, dy, dz, three, &dvx, &dvy, &dvz,
			                dvx_of + j, dvy_of + j, three ? dvz_of + j : NULL, lanes);
		}
	}
	rho_of[i] += f8_sum(rho);
	near_of[i] += f8_sum(rho_near);
	if (with_viscosity) {
		dvx_of[i] += f8_sum(dvx);
		dvy_of[i] += f8_sum(dvy);
		if (three) dvz_of[i] += f8_sum(dvz);
	}
}

/* One out-of-line copy per case, so each keeps only its own terms. */
typedef void density_pairs_fn(const pair_pass* pass, int i, const pdl_grid_runs* runs);
#define DENSITY_PAIRS_CASE(name, with_viscosity, three)                                          \
	static PDL_NOINLINE void name(const pair_pass* pass, int i, const pdl_grid_runs* runs)        \
	{                                                                                          \
		density_pairs_of(pass, i, runs, with_viscosity, three);                                \
	}
DENSITY_PAIRS_CASE(density_pairs_2d, false, false)
DENSITY_PAIRS_CASE(density_viscosity_pairs_2d, true, false)
DENSITY_PAIRS_CASE(density_pairs_3d, false, true)
DENSITY_PAIRS_CASE(density_viscosity_pairs_3d, true, true)

/* The pressures of slots [first, last) from their final sums, and dt dv. */
static inline void density_pairs_finish(pdl_world* w, int first, int last, float dt,
                                        bool with_viscosity, bool three)
{
	particles* p = &w->p;
	for (int i = first; i < last; ++i) {
		const pdl_material_def* m = &w->materials[p->material[i]].def;
		p->pressure[i] = m->stiffness * (p->density[i] - m->rest_density);
		p->near_pressure[i] = m->near_stiffness * p->near_pressure[i];
		if (with_viscosity) {
			p->vx2[i] = dt * p->vx2[i];
			p->vy2[i] = dt * p->vy2[i];
			if (three) p->vz2[i] = dt * p->vz2[i];
		}
	}
}

static inline void clear_slots(float* a, int first, int last)
{
	if (a && last > first) memset(a + first, 0, (size_t)(last - first) * sizeof *a);
}

static inline void density_pairs_pass(void* ctx, int begin, int end, bool with_viscosity, bool three)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	for (int item = begin; item < end; ++item) {
		slab_turn t = slab_turn_of(job, item);
		if (t.clears) {
			clear_slots(p->density, t.first, t.next_last);
			clear_slots(p->near_pressure, t.first, t.next_last);
			if (with_viscosity) {
				clear_slots(p->vx2, t.first, t.next_last);
				clear_slots(p->vy2, t.first, t.next_last);
				if (three) clear_slots(p->vz2, t.first, t.next_last);
			}
		}
		pair_pass pass = {.w = w, .dt = job->dt, .owned_end = t.next_last};
		pdl_grid_runs runs = {0};
		int32_t cached = -1;
		density_pairs_fn* pairs_of = three ? (with_viscosity ? density_viscosity_pairs_3d : density_pairs_3d)
		                                   : (with_viscosity ? density_viscosity_pairs_2d : density_pairs_2d);
		for (int i = t.first; i < t.last; ++i) {
			pdl_grid_runs_after(g, i, &runs, &cached);
			pairs_of(&pass, i, &runs);
		}
		density_pairs_finish(w, t.first, t.finish_end, job->dt, with_viscosity, three);
	}
}

/* Pairs at the same place as i after it: D with q = 0 (a = 1) along their fixed direction
 * (pdl_coincident_direction), to both. Rare, so a second scan, kept out of the vector loop
 * (a call inside it would make the compiler keep that loop's vectors in memory). */
static void coincident_pairs(pdl_world* w, int i, float dt2, const pdl_grid_runs* runs,
                             bool three)
{
	particles* p = &w->p;
	for (int r = 0; r < runs->count; ++r)
		for (int j = runs->begin[r] > i ? runs->begin[r] : i + 1; j < runs->end[r]; ++j) {
			float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = three ? p->z[j] - p->z[i] : 0;
			float r2 = dx * dx + dy * dy;
			if (three) r2 += dz * dz;
			if (r2 != 0) continue; /* the vector loop's test, to the bit */
			/* dt^2 a (P + P_near a) at a = 1 */
			float d = dt2 * ((p->pressure[i] + p->pressure[j]) + (p->near_pressure[i] + p->near_pressure[j]));
			float di = d, dj = d;
			if (!w->uniform_mass) {
				di = d * w->pair_weight[p->material[i] * PDL_MAX_MATERIALS + p->material[j]];
				dj = d * w->pair_weight[p->material[j] * PDL_MAX_MATERIALS + p->material[i]];
			}
			pdl_vec3 u = pdl_coincident_direction(p->id[i], p->id[j], three);
			p->x2[i] -= di * u.x;
			p->y2[i] -= di * u.y;
			p->x2[j] += dj * u.x;
			p->y2[j] += dj * u.y;
			if (three) {
				p->z2[i] -= di * u.z;
				p->z2[j] += dj * u.z;
			}
		}
}

/* Displacement pass, particle i and the candidates after it in `runs`: adds each pair's
 * relaxation displacement to both particles' sums in x2/y2/z2. Returns whether i has pairs at
 * its very place after it (coincident_pairs). Out of line and without calls, as above. */
static PDL_ALWAYS_INLINE bool displace_pairs_of(const pair_pass* pass, int i, const pdl_grid_runs* runs,
                                                bool three)
{
	pdl_world* w = pass->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius;
	const f8 h2 = f8_set1(h * h), inv_h = f8_set1(1.0f / h), one = f8_set1(1.0f), zero = f8_set1(0);
	const f8 dt2_v = f8_set1(pass->dt2_share);
	const float *px = p->x, *py = p->y, *pz = p->z, *pressure_of = p->pressure, *near_of = p->near_pressure;
	float *sx_of = p->x2, *sy_of = p->y2, *sz_of = p->z2;
	const uint8_t* mat = p->material;
	const int owned_end = pass->owned_end;
	pair_shares sh;
	const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = three ? f8_set1(pz[i]) : zero;
	const f8 pi = f8_set1(pressure_of[i]), pni = f8_set1(near_of[i]);
	pair_shares_of(&sh, w, mat[i]);
	f8 sx = zero, sy = zero, sz = zero;
	int same = 0; /* lanes of pairs at the same place */
	for (int r = 0; r < runs->count; ++r) {
		int32_t end = runs->end[r];
		for (int32_t j = runs->begin[r] > i ? runs->begin[r] : i + 1; j < end; j += PDL_LANES) {
			int lanes = owned_end - j; /* as in density_pairs_of */
			f8 dx, dy, dz;
			f8 r2 = candidate_offsets(px, py, pz, j, xi, yi, zi, three, &dx, &dy, &dz);
			m8 in = m8_and(m8_first(end - j), f8_lt(r2, h2));
			m8 apart = m8_and(in, f8_gt(r2, zero));
			f8 dist = f8_sqrt(r2);
			f8 a = f8_sub(one, f8_mul(dist, inv_h));
			f8 pressure = f8_add(pi, f8_load(pressure_of + j));
			f8 near = f8_add(pni, f8_load(near_of + j));
			/* dt^2 (P (1 - q) + P_near (1 - q)^2) = dt^2 a (P + P_near a), along r^ */
			f8 d = f8_mul(f8_mul(dt2_v, a), f8_add(pressure, f8_mul(near, a)));
			/* d / dist as d dist / r^2 (as in density_pairs_of) */
			f8 base = f8_mask(apart, f8_mul(d, f8_mul(dist, f8_div(one, r2))));
			add_pair_vector(&sh, base, base, mat + j, dx, dy, dz, three, &sx, &sy, &sz, sx_of + j,
			                sy_of + j, three ? sz_of + j : NULL, lanes);
			same |= m8_bits(m8_andnot(apart, in));
		}
	}
	sx_of[i] += f8_sum(sx);
	sy_of[i] += f8_sum(sy);
	if (three) sz_of[i] += f8_sum(sz);
	return same != 0;
}

static PDL_NOINLINE bool displace_pairs_2d(const pair_pass* pass, int i, const pdl_grid_runs* runs)
{
	return displace_pairs_of(pass, i, runs, false);
}

static PDL_NOINLINE bool displace_pairs_3d(const pair_pass* pass, int i, const pdl_grid_runs* runs)
{
	return displace_pairs_of(pass, i, runs, true);
}

/* New positions of slots [first, last): x + displacement + dt dv. */
static inline void displace_pairs_finish(pdl_world* w, int first, int last, bool three)
{
	particles* p = &w->p;
	const bool viscosity = w->any_viscosity;
	for (int i = first; i < last; ++i) {
		float mx = p->x2[i], my = p->y2[i], mz = three ? p->z2[i] : 0;
		if (viscosity) {
			mx += p->vx2[i];
			my += p->vy2[i];
			if (three) mz += p->vz2[i];
		}
		p->x2[i] = p->x[i] + mx;
		p->y2[i] = p->y[i] + my;
		if (three) p->z2[i] = p->z[i] + mz;
	}
}

static inline void displace_pairs_pass(void* ctx, int begin, int end, bool three)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	for (int item = begin; item < end; ++item) {
		slab_turn t = slab_turn_of(job, item);
		if (t.clears) {
			clear_slots(p->x2, t.first, t.next_last);
			clear_slots(p->y2, t.first, t.next_last);
			if (three) clear_slots(p->z2, t.first, t.next_last);
		}
		float dt2 = job->dt * job->dt;
		pair_pass pass = {.w = w, .dt = job->dt, .dt2_share = w->uniform_mass ? 0.5f * dt2 : dt2,
		                  .owned_end = t.next_last};
		pdl_grid_runs runs = {0};
		int32_t cached = -1;
		for (int i = t.first; i < t.last; ++i) {
			pdl_grid_runs_after(g, i, &runs, &cached);
			if ((three ? displace_pairs_3d : displace_pairs_2d)(&pass, i, &runs)) coincident_pairs(w, i, pass.dt2_share, &runs, three);
		}
		displace_pairs_finish(w, t.first, t.finish_end, three);
	}
}

void RELAX_LOOP(density_pairs)(void* ctx, int begin, int end)
{
	density_pairs_pass(ctx, begin, end, false, false);
}

void RELAX_LOOP(density_viscosity_pairs)(void* ctx, int begin, int end)
{
	density_pairs_pass(ctx, begin, end, true, false);
}

void RELAX_LOOP(displace_pairs)(void* ctx, int begin, int end) { displace_pairs_pass(ctx, begin, end, false); }

void RELAX_LOOP(density_pairs_3d)(void* ctx, int begin, int end)
{
	density_pairs_pass(ctx, begin, end, false, true);
}

void RELAX_LOOP(density_viscosity_pairs_3d)(void* ctx, int begin, int end)
{
	density_pairs_pass(ctx, begin, end, true, true);
}

void RELAX_LOOP(displace_pairs_3d)(void* ctx, int begin, int end) { displace_pairs_pass(ctx, begin, end, true); }
