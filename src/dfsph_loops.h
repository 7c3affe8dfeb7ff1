/* Internal: the neighbour-list loops of DFSPH (dfsph.c explains the method), written once with
 * the vectors of simd.h and compiled once per backend, as relax_loops.h: dfsph.c includes this
 * file for the backend the compiler targets (SSE2, WebAssembly SIMD128, plain C), dfsph_avx2.c
 * and dfsph_avx512.c for AVX2 and AVX-512VL, and dfsph.c runs the copy the processor has
 * (pdl_best_loops). The includer defines DFSPH_LOOP(name) to give each copy its own entry
 * points; every copy gives the same bits (simd.h). Besides the loops: the job they share with
 * dfsph.c and the walls' terms (walls_at), which dfsph.c's scalar passes read too. */
#include "core.h"
#include "kernels.h"
#include "simd.h"

#include <math.h>
#include <string.h>

#ifndef DFSPH_LOOP
#error "define DFSPH_LOOP(name) before including dfsph_loops.h"
#endif

void DFSPH_LOOP(scan_range)(void* ctx, int begin, int end);
void DFSPH_LOOP(scan_range_3d)(void* ctx, int begin, int end);
void DFSPH_LOOP(density_range)(void* ctx, int begin, int end);
void DFSPH_LOOP(density_range_3d)(void* ctx, int begin, int end);
void DFSPH_LOOP(pressure_range)(void* ctx, int begin, int end);
void DFSPH_LOOP(compression_range)(void* ctx, int begin, int end);
void DFSPH_LOOP(forces_range)(void* ctx, int begin, int end);
void DFSPH_LOOP(forces_range_3d)(void* ctx, int begin, int end);

typedef struct dfsph_job {
	pdl_world* w;
	float dt;
	pdl_kernels k;
	float volume[PDL_MAX_MATERIALS], inv_rest[PDL_MAX_MATERIALS], rest[PDL_MAX_MATERIALS];
	bool uniform;        /* every material has the same volume and rest density */
	float xsph, nu;      /* this substep's XSPH share, kinematic viscosity */
	bool tension;
	float omega[PDL_MAX_MATERIALS]; /* the Jacobi damping (pdl_dfsph_jacobi_weight) */
	float correction[PDL_MAX_MATERIALS]; /* L of eq. 1 (pdl_dfsph_gradient_correction) */
	const float* change; /* the pressure change pressure_range applies */
	/* the solve under way (compression_range's update): which, its pressures, and per chunk of
	 * SOLVE_GRAIN particles the exact sum of its error (solve_error) */
	bool divergence;
	float* pressure;
	pdl_ghost_error* chunk_error;
	float chebyshev; /* this iteration's weight w_k of the Chebyshev acceleration (solve; 1: plain) */
	bool couple; /* the bodies move inside the solves (pdl_bodies_couple) */
	bool warm_start; /* the forces pass applies the density solve's warm start, dv of `pressure` (pdl_dfsph_step) */
} dfsph_job;

/* The error the density solve compares with its tolerance: the larger of the mean |r| and the
 * largest |r| over MAX_OVER_MEAN (a mean alone hides a compressed layer at the floor of a deep
 * pool under the rest of it). The divergence solve's is the mean alone, as B&K 2017 alg. 2: the
 * density solve that follows it catches such a layer, and with the guard the divergence solve
 * chased the few fastest particles of a splash (3D dam break: 2.6 iterations a substep, 0.6
 * without; every validation row the same but for the last digits, solve_error). */
#define MAX_OVER_MEAN 20.0

/* The relative density below which the divergence solve leaves a particle alone (solve). */
#define DIVERGENCE_MIN_DENSITY 0.95f

/* The particles a chunk of the solves' passes takes: compression_range sums each chunk's error
 * apart, so that the sum over the chunks is the same however they are shared out. */
enum { SOLVE_GRAIN = 256 };

/* The kernel terms of eight pairs of particle i. */
typedef struct pair8 {
	f8 dx, dy, dz; /* x_i - x_j */
	f8 r2, r;
	m8 in;         /* the lanes that hold a pair */
	bool whole;    /* all eight do (a constant where the loops call terms_at with n = 8) */
	f8 grad;       /* s: grad W_ij = s (x_i - x_j) */
} pair8;

/* a in the lanes that hold a pair, +0 in the others (no mask to apply to a whole block) */
static inline f8 in_pairs(const pair8* q, f8 a) { return q->whole ? a : f8_mask(q->in, a); }

/* What the pair loops read of the job, copied into a local of each pass: the compiler then
 * knows that the pass's stores (into float arrays) do not change them, and keeps them in
 * registers instead of loading them again after every store. */
typedef struct pair_consts {
	bool uniform; /* job->uniform */
	float inv_h, minus_grad; /* 1 / h, -k.wendland_grad */
	float volume[PDL_MAX_MATERIALS], inv_rest[PDL_MAX_MATERIALS], rest[PDL_MAX_MATERIALS];
	float correction[PDL_MAX_MATERIALS];
} pair_consts;

static inline pair_consts pair_consts_of(const dfsph_job* job)
{
	pair_consts c = {.uniform = job->uniform, .inv_h = 1.0f / job->k.h, .minus_grad = -job->k.wendland_grad};
	memcpy(c.volume, job->volume, sizeof c.volume);
	memcpy(c.inv_rest, job->inv_rest, sizeof c.inv_rest);
	memcpy(c.rest, job->rest, sizeof c.rest);
	memcpy(c.correction, job->correction, sizeof c.correction);
	return c;
}

/* Wendland C2's shape (1 - q)^4 (1 + 4q) at the pairs' distances, 0 outside them */
static inline f8 shape8(const pair_consts* c, const pair8* pairs)
{
	f8 q = f8_mul(pairs->r, f8_set1(c->inv_h)), d = f8_sub(f8_set1(1.0f), q), d2 = f8_mul(d, d);
	return in_pairs(pairs, f8_mul(f8_mul(d2, d2), f8_add(f8_set1(1.0f), f8_mul(f8_set1(4.0f), q))));
}

/* table[material of each listed neighbour]: a per-material constant of the neighbours in list
 * entries idx[0..7] (table[0] in every lane when all materials share it) */
static inline f8 of_neighbours(const pair_consts* c, const float* table, const uint8_t* of, const int32_t* idx)
{
	if (c->uniform) return f8_set1(table[0]);
	float v[PDL_LANES];
	for (int k = 0; k < PDL_LANES; ++k) v[k] = table[of[idx[k]]];
	return f8_load(v);
}

/* L_ij of eq. 1 for particle i (its material's L is li) and the listed neighbours */
static inline f8 correction_of(const pair_consts* c, float li, const uint8_t* of, const int32_t* idx)
{
	return c->uniform ? f8_set1(li)
	                  : f8_mul(f8_set1(0.5f), f8_add(f8_set1(li), of_neighbours(c, c->correction, of, idx)));
}

/* The kernel terms of the neighbours at xj, yj, zj (lane k: list entry k) of particle i (the
 * lanes from n on are masked: their indices are other rows' or the padding's, always particles
 * that exist). The list holds only neighbours within h (within_h, the same arithmetic). */
static PDL_ALWAYS_INLINE pair8 terms_at(const pair_consts* c, const f8 xi, const f8 yi, const f8 zi, const f8 xj,
                                        const f8 yj, const f8 zj, int n, bool three)
{
	pair8 q;
	q.dx = f8_sub(xi, xj);
	q.dy = f8_sub(yi, yj);
	q.r2 = f8_add(f8_mul(q.dx, q.dx), f8_mul(q.dy, q.dy));
	q.dz = f8_set1(0);
	if (three) {
		q.dz = f8_sub(zi, zj);
		q.r2 = f8_add(q.r2, f8_mul(q.dz, q.dz));
	}
	q.in = m8_first(n);
	q.whole = n >= PDL_LANES;
	q.r = f8_sqrt(q.r2);
	f8 d = f8_sub(f8_set1(1.0f), f8_mul(q.r, f8_set1(c->inv_h)));
	q.grad = in_pairs(&q, f8_mul(f8_set1(c->minus_grad), f8_mul(f8_mul(d, d), d)));
	return q;
}

/* The width of the block of list entries from k on, of a row that ends at `end`: 8, or fewer at
 * the row's end. */
static inline int block_width(int64_t k, int64_t end)
{
	return end - k < PDL_LANES ? (int)(end - k) : PDL_LANES;
}

/* The walls near x: their share psi of rho^ and its gradient, for the passes. */
/* The walls within h of a particle: the world's boundaries (statics of them, first), then the
 * rigid bodies near it (body_step.c samples them at each substep's start; dfsph_contacts holds
 * each near particle's, worked out once a substep: positions do not change during the solves). */
enum { MAX_WALLS = PDL_SPH_MAX_CONTACTS + PDL_CONTAIN_BODIES };
typedef struct wall_terms {
	int count, statics;
	pdl_sph_wall_contact c[MAX_WALLS]; /* (a body's `wall` is -1) */
	float psi[MAX_WALLS];              /* F(d / h) */
	float grad[MAX_WALLS];             /* |grad psi| = G(d / h) / h, along -n */
	float v[MAX_WALLS][3];             /* the wall's velocity */
} wall_terms;

static inline void walls_at(const pdl_world* w, int i, float x, float y, float z, bool three, wall_terms* t)
{
	const float h = w->def.interaction_radius, at[3] = {x, y, z};
	t->count = t->statics = pdl_sph_wall_contacts(w->boundaries, w->boundary_count, at, h, three, t->c);
	for (int c = 0; c < t->count; ++c) {
		const pdl_vec3 vw = w->boundaries[t->c[c].wall].def.velocity;
		t->v[c][0] = vw.x, t->v[c][1] = vw.y, t->v[c][2] = three ? vw.z : 0;
	}
	const int e = w->dfsph_body_near ? w->dfsph_body_near[i] : -1;
	for (int k = 0; e >= 0 && k < w->dfsph_contact_count[e]; ++k) {
		const pdl_body_contact* b = &w->dfsph_contacts[(size_t)e * PDL_CONTAIN_BODIES + k];
		pdl_sph_wall_contact* c = &t->c[t->count];
		c->d = b->d, c->wall = -1;
		for (int a = 0; a < 3; ++a) c->n[a] = b->n[a], t->v[t->count][a] = b->v[a];
		t->count++;
	}
	for (int c = 0; c < t->count; ++c) { /* (a circle's own tables for a body contact) */
		const bool body = c >= t->statics;
		const pdl_body_contact* b = body ? &w->dfsph_contacts[(size_t)e * PDL_CONTAIN_BODIES + (c - t->statics)] : NULL;
		float u = t->c[c].d / h;
		t->psi[c] = pdl_sph_table_at(body ? b->density : w->dfsph_wall_density, u);
		t->grad[c] = pdl_sph_table_at(body ? b->force : w->dfsph_wall_force, u) / h;
	}
}

/* ---- Neighbour lists ------------------------------------------------------------------------ *
 * Every pass of a substep after the grid (the density pass once, the solves' iterations tens of
 * times, the forces once) reads only the neighbours that the positions fix for the substep. One
 * scan of the neighbour cells writes them into lists, so that the passes stream through the
 * pairs instead of testing every candidate of the neighbour cells (in 3D about six candidates
 * for each neighbour) again; the density pass adds V_j grad W_ij of each pair, and the walls'
 * terms, for the iterations. The scan writes each particle's neighbours into a row of
 * dfsph_list_stride slots of dfsph_scan (and counts any beyond them: the stride then grows and
 * the scan runs again, rarely, as the water's densest spot squeezes); the density pass copies
 * them into the packed lists: dfsph_neighbour (int32 indices, the rows back to back from
 * dfsph_row[i]) and V_j grad W_ij of each pair in three planes of floats (dfsph_grad: x, y, z).
 * The lists are in grid order and each particle's in the order the scan meets its neighbours:
 * the same for any thread count and SIMD width.
 * A solve's pass streams 16 bytes a pair and fetches the neighbour's p_j (pressure pass: a
 * gather) or v_j (compression pass: one 16-byte row of dfsph_velocity; the density pass reads
 * x_j the same way, from dfsph_position, 14 % less time in it, and the forces pass x_j and v_j,
 * 30 % less). The gathers, not the
 * stream, are what these passes wait on (perf, 3D dam break at 10,000 particles, 60 frames, one
 * thread): two layouts that stream less were slower. One 128-byte record per block of eight
 * pairs (indices, gx, gy, gz; rows padded to whole blocks, one stream and aligned loads): the
 * pressure pass 1.2 to 1.4 times and the compression pass 1.1 to 1.3 times as long, software
 * prefetching or not. Only V_j s of grad W_ij = s (x_i - x_j) kept a pair, x_i - x_j again
 * from the positions (8 bytes a pair, three more gathers a block): 2.6 and 1.8 times. */

/* |x_i - x_j|^2 of the candidates j .. j + 7 (the scan's arithmetic, which terms_at repeats) */
static inline f8 distance2(const f8 xi, const f8 yi, const f8 zi, const float* px, const float* py, const float* pz,
                           int j, bool three)
{
	f8 dx = f8_sub(xi, f8_load(px + j)), dy = f8_sub(yi, f8_load(py + j));
	f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
	if (three) {
		f8 dz = f8_sub(zi, f8_load(pz + j));
		r2 = f8_add(r2, f8_mul(dz, dz));
	}
	return r2;
}

/* Candidates j from j of a run ending at end that lie within h of particle i (i itself not). */
static inline m8 within_h(const dfsph_job* job, const f8 xi, const f8 yi, const f8 zi, const float* px,
                          const float* py, const float* pz, int j, int end, int i, bool three)
{
	return m8_and(m8_lanes(j, end, i), f8_lt(distance2(xi, yi, zi, px, py, pz, j, three), f8_set1(job->k.h2)));
}

/* dfsph_row[i + 1] = particle i's neighbours (within h, itself not included), the first
 * dfsph_list_stride of them into its row of dfsph_scan. */
static inline void scan_pass(void* ctx, int begin, int end, bool three)
{
	dfsph_job* job = ctx;
	pdl_world* w = job->w;
	const particles* p = &w->p;
	const float *px = p->x, *py = p->y, *pz = p->z;
	const int64_t stride = w->dfsph_list_stride;
	const f8 h2 = f8_set1(job->k.h2);
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const float zi = three ? pz[i] : 0;
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi8 = f8_set1(zi);
		int32_t* row = w->dfsph_scan + (size_t)i * (size_t)stride;
		int64_t count = 0;
		pdl_grid_runs_of(&w->grid, i, px[i], py[i], zi, &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			const int run_end = runs.end[r];
			int j = runs.begin[r];
			/* a run without i: its whole blocks need no mask, and while the row has room for a
			 * block whatever it holds, no check of the stride; and no test of whether a block holds
			 * a neighbour (an append of none writes at most past the count, where the next one writes):
			 * that branch, taken or not about as often, was mispredicted, 40 % of the scan's time */
			if (!(i >= j && i < run_end))
				for (; run_end - j >= PDL_LANES && count + PDL_LANES <= stride; j += PDL_LANES) {
					const unsigned bits = (unsigned)m8_bits(f8_lt(distance2(xi, yi, zi8, px, py, pz, j, three), h2));
					count += pdl_append_lanes(row + count, bits, j);
				}
			for (; j < run_end; j += PDL_LANES) { /* the rest: the run's end, i, the stride */
				unsigned bits = (unsigned)m8_bits(within_h(job, xi, yi, zi8, px, py, pz, j, run_end, i, three));
				if (count + PDL_LANES <= stride)
					count += pdl_append_lanes(row + count, bits, j);
				else
					for (; bits; bits &= bits - 1, count++)
						if (count < stride) row[count] = j + __builtin_ctz(bits);
			}
		}
		/* up to the next block of eight, particle 0: the blocks the density pass reads */
		for (int64_t k = count; k < stride && k % PDL_LANES; ++k) row[k] = 0;
		w->dfsph_row[i + 1] = count;
	}
}

void DFSPH_LOOP(scan_range)(void* ctx, int begin, int end) { scan_pass(ctx, begin, end, false); }
void DFSPH_LOOP(scan_range_3d)(void* ctx, int begin, int end) { scan_pass(ctx, begin, end, true); }

/* The lists' gradients: PDL_LANES floats of padding after each of the three planes (a block of
 * eight read from a row's last entries runs past it). */
static inline float* grad_plane(const pdl_world* w, int e)
{
	return w->dfsph_grad + (size_t)e * (size_t)(w->dfsph_pair_capacity + PDL_LANES);
}

/* What density_pass sums over a particle's neighbours, lane by lane. */
typedef struct density_sums {
	f8 sum, gx, gy, gz, lx, ly, lz, sq;
} density_sums;

/* density_pass's block of list entries k .. k + n of a particle: the sums, and V_j grad W_ij into
 * the lists (n = PDL_LANES, a whole block: compiled without the masks) */
static PDL_ALWAYS_INLINE void density_block(const pair_consts* c, const particles* p, const float* position_rows,
                                            float* const lists[3], density_sums* a, const f8 xi, const f8 yi, const f8 zi, float li,
                                            const int32_t* idx, int64_t k, int n, bool three)
{
	float *gx_list = lists[0], *gy_list = lists[1], *gz_list = lists[2];
	f8 xj, yj, zj; /* (from dfsph_position's rows, one load a neighbour: as compression_pass) */
	f8_gather_rows3(position_rows, idx, &xj, &yj, &zj);
	pair8 q = terms_at(c, xi, yi, zi, xj, yj, zj, n, three);
	f8 vj = of_neighbours(c, c->volume, p->material, idx);
	a->sum = f8_add(a->sum, f8_mul(vj, shape8(c, &q)));
	f8 gs = f8_mul(vj, q.grad); /* 0 outside q.in */
	f8 ls = f8_mul(gs, correction_of(c, li, p->material, idx));
	const f8 vgx = f8_mul(gs, q.dx), vgy = f8_mul(gs, q.dy), vgz = three ? f8_mul(gs, q.dz) : f8_set1(0);
	a->gx = f8_add(a->gx, vgx);
	a->gy = f8_add(a->gy, vgy);
	a->lx = f8_add(a->lx, f8_mul(ls, q.dx));
	a->ly = f8_add(a->ly, f8_mul(ls, q.dy));
	if (three) a->gz = f8_add(a->gz, vgz), a->lz = f8_add(a->lz, f8_mul(ls, q.dz));
	if (q.whole) {
		f8_store(gx_list + k, vgx);
		f8_store(gy_list + k, vgy);
		if (three) f8_store(gz_list + k, vgz);
	} else { /* (the entries after the row are another particle's) */
		f8_store_first(gx_list + k, vgx, n);
		f8_store_first(gy_list + k, vgy, n);
		if (three) f8_store_first(gz_list + k, vgz, n);
	}
	f8 inv_rest_j = of_neighbours(c, c->inv_rest, p->material, idx);
	a->sq = f8_add(a->sq, f8_mul(f8_mul(inv_rest_j, ls), f8_mul(q.grad, q.r2)));
}

/* 2. rho^_i and alpha_i (eq. 2); the fluid part of g_i times h is the surface normal of
 * Akinci et al. 2013 eq. 5 (for the surface tension). Adds V_j grad W_ij to the lists. */
static inline void density_pass(void* ctx, int begin, int end, bool three)
{
	dfsph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const float h = job->k.h;
	const float *px = p->x, *py = p->y, *pz = p->z;
	int32_t* neighbour = w->dfsph_neighbour;
	const f8 zero = f8_set1(0);
	const pair_consts pc = pair_consts_of(job);
	float* const lists[3] = {grad_plane(w, 0), grad_plane(w, 1), grad_plane(w, 2)};
	const float* position_rows = w->dfsph_position;
	for (int i = begin; i < end; ++i) {
		const int m = p->material[i];
		const float zi = three ? pz[i] : 0, li = job->correction[m];
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi8 = f8_set1(zi);
		density_sums a = {zero, zero, zero, zero, zero, zero, zero, zero};
		/* (the blocks read from the scan's row: the packed list's entries after this row are
		 * another thread's to write) */
		const int64_t first = w->dfsph_row[i], last = w->dfsph_row[i + 1];
		const int32_t* scanned = w->dfsph_scan + (size_t)i * (size_t)w->dfsph_list_stride - first;
		memcpy(neighbour + first, scanned + first, (size_t)(last - first) * sizeof *neighbour);
		int64_t k = first;
		for (; last - k >= PDL_LANES; k += PDL_LANES)
			density_block(&pc, p, position_rows, lists, &a, xi, yi, zi8, li, scanned + k, k, PDL_LANES, three);
		if (k < last)
			density_block(&pc, p, position_rows, lists, &a, xi, yi, zi8, li, scanned + k, k, (int)(last - k), three);
		const f8 sum = a.sum, gx = a.gx, gy = a.gy, gz = a.gz, lx = a.lx, ly = a.ly, lz = a.lz, sq = a.sq;
		/* W, self included: W(0) = wendland */
		float rho = job->k.wendland * (job->volume[m] + f8_sum(sum)),
		      g3[3] = {f8_sum(gx), f8_sum(gy), three ? f8_sum(gz) : 0}, l3[3] = {f8_sum(lx), f8_sum(ly), three ? f8_sum(lz) : 0};
		w->dfsph_normal[0][i] = h * g3[0];
		w->dfsph_normal[1][i] = h * g3[1];
		if (three) w->dfsph_normal[2][i] = h * g3[2];
		wall_terms walls;
		walls_at(w, i, px[i], py[i], zi, three, &walls);
		float wall_grad[3] = {0, 0, 0}, wall_rate = 0;
		for (int c = 0; c < walls.count; ++c) {
			rho += walls.psi[c];
			for (int e = 0; e < 3; ++e) {
				const float gn = walls.grad[c] * walls.c[c].n[e]; /* grad psi = -gn */
				g3[e] -= gn, l3[e] -= gn, wall_grad[e] += gn;
			}
			wall_rate += walls.grad[c] * (walls.v[c][0] * walls.c[c].n[0] + walls.v[c][1] * walls.c[c].n[1] +
			                              walls.v[c][2] * walls.c[c].n[2]);
		}
		for (int e = 0; e < 3; ++e) w->dfsph_wall_grad[3 * i + e] = wall_grad[e];
		w->dfsph_wall_rate[i] = wall_rate;
		float D = (g3[0] * l3[0] + g3[1] * l3[1] + g3[2] * l3[2]) * job->inv_rest[m] + job->volume[m] * f8_sum(sq);
		p->density[i] = job->rest[m] * rho;
		w->dfsph_alpha[i] = D > 0 && isfinite(D) ? 1.0f / D : 0.0f;
	}
}

void DFSPH_LOOP(density_range)(void* ctx, int begin, int end) { density_pass(ctx, begin, end, false); }
void DFSPH_LOOP(density_range_3d)(void* ctx, int begin, int end) { density_pass(ctx, begin, end, true); }

/* The two passes of a solve's iteration. With p a pressure field (mass / (length^(d-2) s^2)),
 * its velocity change over dt is eq. 1,
 *
 *   dv_i = -(dt / rho0_i) (sum_j V_j (p_i + p_j) L_ij grad W_ij + p_i grad psi_i),
 *
 * and the compression a velocity field u makes over dt (the divergence, B&K 2017 eq. 8) is
 *
 *   c_i = dt (sum_j V_j (u_i - u_j).grad W_ij + (u_i - u_wall).grad psi_i). */

/* What the pressure passes read: the lists, and the pressure field whose dv they work out. */
typedef struct pressure_lists {
	const float *gx, *gy, *gz, *wall_grad, *pressure;
	const int32_t* neighbour;
	const int64_t* row;
	const uint8_t* material;
} pressure_lists;

static inline pressure_lists pressure_lists_of(const dfsph_job* job, const float* pressure)
{
	const pdl_world* w = job->w;
	return (pressure_lists){.gx = grad_plane(w, 0), .gy = grad_plane(w, 1), .gz = grad_plane(w, 2),
	                        .wall_grad = w->dfsph_wall_grad, .pressure = pressure, .neighbour = w->dfsph_neighbour,
	                        .row = w->dfsph_row, .material = w->p.material};
}

/* Particle i's velocity change over dt from the pressures l->pressure (eq. 1) is scale a, with scale =
 * -dt / rho0_i: into a[3]. The row's whole blocks of eight are summed without a mask, its last, partial block
 * with one (the same sums as masking every block: a masked lane adds +0 or -0, which changes no sum). Both the
 * pressure pass and the forces pass (which applies the density solve's warm start, pdl_dfsph_step) take it
 * from here, so the bits are the same wherever it is applied. */
static PDL_ALWAYS_INLINE void pressure_acceleration(const pair_consts* pc, const pressure_lists* l, int i, float li,
                                                    bool three, bool uniform, float a[3])
{
	const float *gx = l->gx, *gy = l->gy, *gz = l->gz, *pressure = l->pressure;
	const float pi = pressure[i];
	const f8 zero = f8_set1(0), pi8 = f8_set1(pi);
	f8 ax = zero, ay = zero, az = zero;
	const int64_t first = l->row[i], last = l->row[i + 1], whole = first + ((last - first) & ~(int64_t)(PDL_LANES - 1));
	for (int64_t k = first; k < last; k += PDL_LANES) {
		const int32_t* idx = l->neighbour + k;
		f8 s = f8_add(pi8, f8_gather_listed(pressure, idx));
		if (!uniform) s = f8_mul(s, correction_of(pc, li, l->material, idx));
		if (k >= whole) s = f8_mask(m8_first((int)(last - k)), s);
		ax = f8_add(ax, f8_mul(s, f8_load(gx + k)));
		ay = f8_add(ay, f8_mul(s, f8_load(gy + k)));
		if (three) az = f8_add(az, f8_mul(s, f8_load(gz + k)));
	}
	a[0] = f8_sum(ax), a[1] = f8_sum(ay), a[2] = three ? f8_sum(az) : 0;
	const float* wall = &l->wall_grad[3 * i];
	for (int e = 0; e < 3; ++e) a[e] = (uniform ? li * a[e] : a[e]) - pi * wall[e];
}

/* v += dv(job->change), in place (and into dfsph_velocity's rows, for compression_pass): the pass reads only
 * the lists and the changes; `three` and `uniform` (job->uniform) are constants in each of the entry point's
 * four copies. */
static PDL_ALWAYS_INLINE void pressure_pass(dfsph_job* job, int begin, int end, bool three, bool uniform)
{
	pdl_world* w = job->w;
	particles* p = &w->p;
	const float dt = job->dt, *change = job->change;
	const pair_consts pc = pair_consts_of(job);
	const pressure_lists lists = pressure_lists_of(job, change);
	float *vx = p->vx, *vy = p->vy, *vz = p->vz, *pressure = job->pressure, *velocity_rows = w->dfsph_velocity;
	const bool iteration = change != pressure;
	for (int i = begin; i < end; ++i) {
		const int m = lists.material[i];
		float a[3];
		pressure_acceleration(&pc, &lists, i, job->correction[m], three, uniform, a);
		const float scale = -dt * pc.inv_rest[m];
		float* v = &velocity_rows[4 * i];
		v[0] = vx[i] = vx[i] + scale * a[0];
		v[1] = vy[i] = vy[i] + scale * a[1];
		v[2] = three ? (vz[i] = vz[i] + scale * a[2]) : 0;
		v[3] = 0;
		if (iteration) pressure[i] += change[i]; /* (an iteration's change, not the warm start) */
	}
}

void DFSPH_LOOP(pressure_range)(void* ctx, int begin, int end)
{
	dfsph_job* job = ctx;
	const bool three = PDL_IS_3D(job->w);
	if (three && job->uniform) pressure_pass(job, begin, end, true, true);
	else if (three) pressure_pass(job, begin, end, true, false);
	else if (job->uniform) pressure_pass(job, begin, end, false, true);
	else pressure_pass(job, begin, end, false, false);
}

/* The error of a solve at particle i, |b_i| (0 where the particle is not under pressure), into
 * an exact sum: in units of 2^-64 (b_i is a float, so the split and its scaling are exact), from
 * 2^32 on 2^32. (NaN, which the solve never leaves, counts as 0.) */
static inline void add_error(pdl_ghost_error* sum, float b)
{
	const double e = fabs((double)b);
	sum->most = e > sum->most ? e : sum->most; /* (fmax, without a call: NaN keeps the most) */
	sum->count++;
	if (!(e > 0)) return;
	/* floor(e) by truncation and the fraction times 2^64 by a power of two: both exact, the
	 * values of floor and ldexp without their calls (a tenth of the iteration's instructions) */
	const bool big = e >= 4294967296.0;
	const uint64_t whole = big ? UINT64_C(4294967296) : (uint64_t)e;
	const uint64_t fraction = big ? 0 : (uint64_t)((e - (double)whole) * 0x1p64);
	const uint64_t lo = sum->lo + fraction;
	sum->hi += whole + (lo < fraction); /* (the carry, as pdl_ghost_error_add) */
	sum->lo = lo;
}

/* What an iteration's update reads and writes besides the lists, taken out of the job and the
 * world once a pass into a local, so that the compiler need not load them again after each
 * store. */
typedef struct solve_arrays {
	const float *density, *alpha, *wall_grad, *wall_rate;
	const uint8_t* material;
	const int32_t* origin; /* NULL in a world that is not split */
	float *pressure, *change;
	float dt, inv_dt2, chebyshev;
	bool divergence;
	float inv_rest[PDL_MAX_MATERIALS], omega[PDL_MAX_MATERIALS];
} solve_arrays;

static inline solve_arrays solve_arrays_of(const dfsph_job* job)
{
	const pdl_world* w = job->w;
	solve_arrays a = {.density = w->p.density, .alpha = w->dfsph_alpha, .wall_grad = w->dfsph_wall_grad,
	                  .wall_rate = w->dfsph_wall_rate, .material = w->p.material, .origin = w->p.origin,
	                  .pressure = job->pressure, .change = w->dfsph_change, .dt = job->dt,
	                  .inv_dt2 = 1.0f / (job->dt * job->dt), .chebyshev = job->chebyshev, .divergence = job->divergence};
	memcpy(a.inv_rest, job->inv_rest, sizeof a.inv_rest);
	memcpy(a.omega, job->omega, sizeof a.omega);
	return a;
}

/* One iteration's update of the solve under way (solve(), below) for the n particles i .. i + n - 1
 * (n <= 8) at once, from their rates of compression c_i / dt of the velocities in rate[0 .. n - 1]:
 * b_i, the new pressures, their changes, and the errors, added in the particles' order. Lane by
 * lane the float operations are the same for any n and backend, so the same bits (a scalar copy
 * of this update, one particle at a time, was near half of the compression pass's time). */
static PDL_ALWAYS_INLINE f8 load_lanes(const float* p, int n) { return n == PDL_LANES ? f8_load(p) : f8_load_first(p, n); }
static PDL_ALWAYS_INLINE void update_pressures(const solve_arrays* a, int i, const float* rate, int n, pdl_ghost_error* sum)
{
	float omega[PDL_LANES] = {0}, inv_rest[PDL_LANES] = {0};
	for (int k = 0; k < n; ++k) omega[k] = a->omega[a->material[i + k]], inv_rest[k] = a->inv_rest[a->material[i + k]];
	const f8 c = f8_mul(f8_set1(a->dt), load_lanes(rate, n)), zero = f8_set1(0);
	const f8 rho = f8_mul(load_lanes(a->density + i, n), f8_load(inv_rest)), p = load_lanes(a->pressure + i, n);
	/* the divergence solve leaves the particles of the free surface and of the spray alone
	 * (SPlisHSPlasH the same, by their neighbour count): with few neighbours a particle's alpha
	 * is large, and a fast pair in the air would be flung apart */
	const f8 bi = a->divergence ? f8_mask(f8_ge(rho, f8_set1(DIVERGENCE_MIN_DENSITY)), c)
	                            : f8_sub(f8_add(c, rho), f8_set1(1.0f));
	f8 now = f8_add(p, f8_mul(f8_mul(f8_mul(f8_load(omega), bi), load_lanes(a->alpha + i, n)), f8_set1(a->inv_dt2)));
	/* Chebyshev's step (solve): x_k+1 = w (y - x_k-1) + x_k-1 with y the Jacobi step above and
	 * x_k-1 = p_i - change_i (change still holds the last iteration's), that is
	 * p_i + w (y - p_i) + (w - 1) change_i; w = 1 is plain Jacobi, bit for bit */
	const float w = a->chebyshev;
	if (w != 1.0f)
		now = f8_add(f8_add(p, f8_mul(f8_set1(w), f8_sub(now, p))),
		             f8_mul(f8_set1(w - 1.0f), load_lanes(a->change + i, n)));
	const m8 pushed = f8_gt(now, zero);
	now = f8_mask(pushed, now); /* (also NaN: 0) */
	if (n == PDL_LANES) f8_store(a->change + i, f8_sub(now, p));
	else f8_store_first(a->change + i, f8_sub(now, p), n);
	float b[PDL_LANES];
	f8_store(b, f8_mask(pushed, bi));
	for (int k = 0; k < n; ++k)
		if (!a->origin || a->origin[i + k] < 0) add_error(sum, b[k]); /* (own particles only) */
}

/* c_i of the particles' velocities (the walls move with their velocity), and with it the
 * iteration's update (update_pressures), each chunk's error into job->chunk_error. Whole blocks
 * unmasked, as pressure_pass. The neighbours' velocities come from dfsph_velocity's rows, one
 * load each (f8_gather_rows3), not three gathers from vx, vy, vz: the same values, and on the
 * 100k bench's scene at 30,000 particles on one thread (0.2 s simulated, perf's samples) 14 %
 * less time in this pass. */
static PDL_ALWAYS_INLINE void compression_pass(dfsph_job* job, int begin, int end, bool three)
{
	pdl_world* w = job->w;
	const particles* p = &w->p;
	const solve_arrays sa = solve_arrays_of(job);
	const float *ux = p->vx, *uy = p->vy, *uz = p->vz, *velocity_rows = w->dfsph_velocity;
	const float *gx = grad_plane(w, 0), *gy = grad_plane(w, 1), *gz = grad_plane(w, 2);
	const int32_t* neighbour = w->dfsph_neighbour;
	const int64_t* row = w->dfsph_row;
	pdl_ghost_error* chunk_error = job->chunk_error;
	float rates[SOLVE_GRAIN];
	for (int chunk = begin; chunk < end; chunk += SOLVE_GRAIN) {
		pdl_ghost_error sum = {0, 0, 0, 0.0};
		const int chunk_end = end - chunk < SOLVE_GRAIN ? end : chunk + SOLVE_GRAIN;
		for (int i = chunk; i < chunk_end; ++i) {
			const float u[3] = {ux[i], uy[i], three ? uz[i] : 0};
			const f8 ux8 = f8_set1(u[0]), uy8 = f8_set1(u[1]), uz8 = f8_set1(u[2]);
			f8 rate8 = f8_set1(0);
			const int64_t first = row[i], last = row[i + 1], whole = first + ((last - first) & ~(int64_t)(PDL_LANES - 1));
			for (int64_t k = first; k < last; k += PDL_LANES) {
				f8 uxj, uyj, uzj;
				f8_gather_rows3(velocity_rows, neighbour + k, &uxj, &uyj, &uzj);
				f8 d = f8_add(f8_mul(f8_sub(ux8, uxj), f8_load(gx + k)), f8_mul(f8_sub(uy8, uyj), f8_load(gy + k)));
				if (three) d = f8_add(d, f8_mul(f8_sub(uz8, uzj), f8_load(gz + k)));
				if (k >= whole) d = f8_mask(m8_first((int)(last - k)), d);
				rate8 = f8_add(rate8, d);
			}
			float rate = f8_sum(rate8); /* D rho^ / Dt, 1 / s */
			const float* wall = &sa.wall_grad[3 * i];
			rate -= u[0] * wall[0] + u[1] * wall[1] + u[2] * wall[2] - sa.wall_rate[i];
			rates[i - chunk] = rate;
		}
		int i = chunk;
		for (; chunk_end - i >= PDL_LANES; i += PDL_LANES) update_pressures(&sa, i, rates + (i - chunk), PDL_LANES, &sum);
		if (i < chunk_end) update_pressures(&sa, i, rates + (i - chunk), chunk_end - i, &sum);
		chunk_error[chunk / SOLVE_GRAIN] = sum;
	}
}

void DFSPH_LOOP(compression_range)(void* ctx, int begin, int end)
{
	dfsph_job* job = ctx;
	if (PDL_IS_3D(job->w)) compression_pass(job, begin, end, true);
	else compression_pass(job, begin, end, false);
}


/* 4. Viscosity, XSPH and surface tension into vx2, vy2 (vz2), from the velocities after gravity, and with
 * job->warm_start the density solve's warm start, dv of job->pressure (pressure_acceleration) added to them.
 * With rho_ij = (rho0_i + rho0_j) / 2 and the weight w_ij = V_j rho_ij / rho0_i (so that
 * m_i a_i = -m_j a_j for every pair: momentum is conserved across materials):
 *
 *   viscosity  a_i += 2 (d + 2) nu sum_j w_ij (v_ij . x_ij) / (r^2 + 0.01 h^2) grad W_ij
 *              (Monaghan 2005 eq. 6.1, the Laplacian of SPlisHSPlasH's "standard" viscosity)
 *   XSPH       v_i += eps sum_j w_ij W_ij (v_j - v_i)                   (Monaghan 1989)
 *   cohesion   a_i -= gamma_st sum_j w_ij C(r) u_ij        (Akinci et al. 2013 eq. 2, as sph.c)
 *   curvature  a_i -= gamma_st sum_j K_ij w_ij / h^2 (n_i - n_j),  K_ij = 2 / (rho^_i + rho^_j)
 */
static PDL_ALWAYS_INLINE void forces_pass(void* ctx, int begin, int end, bool three, bool uniform)
{
	dfsph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_kernels* k = &job->k;
	const float dt = job->dt, h = k->h, gamma_st = w->def.sph.surface_tension;
	const float visc = 2.0f * (float)((three ? 3 : 2) + 2) * job->nu, eps = job->xsph;
	const float *px = p->x, *py = p->y, *pz = p->z, *pvx = p->vx, *pvy = p->vy, *pvz = p->vz;
	const float *nxs = w->dfsph_normal[0], *nys = w->dfsph_normal[1], *nzs = w->dfsph_normal[2];
	const float *position_rows = w->dfsph_position, *velocity_rows = w->dfsph_velocity;
	const f8 zero = f8_set1(0), two = f8_set1(2.0f);
	const f8 soft = f8_set1(0.01f * k->h2), h6_64 = f8_set1(k->h2 * k->h2 * k->h2 / 64.0f), half_h = f8_set1(0.5f * h);
	const int32_t* neighbour = w->dfsph_neighbour;
	const pair_consts pc = pair_consts_of(job);
	const bool warm_start = job->warm_start;
	const pressure_lists lists = pressure_lists_of(job, job->pressure);
	for (int i = begin; i < end; ++i) {
		const int m = p->material[i];
		const float zi = three ? pz[i] : 0, vzi = three ? pvz[i] : 0, inv_rest_i = job->inv_rest[m];
		const float rho_i = p->density[i] * inv_rest_i;
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi8 = f8_set1(zi);
		const f8 vxi = f8_set1(pvx[i]), vyi = f8_set1(pvy[i]), vzi8 = f8_set1(vzi);
		const f8 rest_i = f8_set1(job->rest[m]), half_inv_rest_i = f8_set1(0.5f * inv_rest_i), rho_i8 = f8_set1(rho_i);
		const f8 nxi = f8_set1(nxs[i]), nyi = f8_set1(nys[i]), nzi = f8_set1(three ? nzs[i] : 0);
		f8 ax = zero, ay = zero, az = zero, sx = zero, sy = zero, sz = zero;
		for (int64_t kk = w->dfsph_row[i], last = w->dfsph_row[i + 1]; kk < last; kk += PDL_LANES) {
			const int32_t* idx = neighbour + kk;
			/* x_j and v_j from the rows of four (one load a neighbour each, as density_block and
			 * compression_pass) */
			f8 xj, yj, zj, uxj, uyj, uzj;
			f8_gather_rows3(position_rows, idx, &xj, &yj, &zj);
			f8_gather_rows3(velocity_rows, idx, &uxj, &uyj, &uzj);
			pair8 q = terms_at(&pc, xi, yi, zi8, xj, yj, zj, block_width(kk, last), three);
			f8 rest_j = of_neighbours(&pc, pc.rest, p->material, idx);
			f8 vj = of_neighbours(&pc, pc.volume, p->material, idx);
			f8 wij = f8_mask(q.in, f8_mul(vj, f8_mul(f8_add(rest_i, rest_j), half_inv_rest_i)));
			f8 dvx = f8_sub(vxi, uxj), dvy = f8_sub(vyi, uyj);
			f8 dvz = three ? f8_sub(vzi8, uzj) : zero;
			f8 dot = f8_add(f8_mul(dvx, q.dx), f8_mul(dvy, q.dy));
			if (three) dot = f8_add(dot, f8_mul(dvz, q.dz));
			/* viscosity along x_ij, with grad W = s x_ij */
			f8 along = f8_mul(f8_set1(visc), f8_div(f8_mul(wij, f8_mul(dot, q.grad)), f8_add(q.r2, soft)));
			/* XSPH: W_ij (the kernel's shape times its constant) */
			f8 ws = f8_mul(wij, shape8(&pc, &q));
			sx = f8_sub(sx, f8_mul(ws, dvx));
			sy = f8_sub(sy, f8_mul(ws, dvy));
			if (three) sz = f8_sub(sz, f8_mul(ws, dvz));
			if (job->tension) {
				/* cohesion along u = x_ij / r (pairs at one place have no direction: 0) */
				f8 hr = f8_sub(f8_set1(h), q.r), a = f8_mul(hr, q.r), s3 = f8_mul(f8_mul(a, a), a);
				m8 close = f8_lt(q.r, half_h);
				f8 spline = f8_add(f8_mask(close, f8_sub(f8_mul(two, s3), h6_64)), f8_mask(m8_andnot(close, q.in), s3));
				m8 apart = m8_and(q.in, f8_gt(q.r2, zero));
				f8 coh = f8_mask(apart, f8_div(f8_mul(f8_set1(gamma_st * k->cohesion), f8_mul(wij, spline)), q.r));
				along = f8_sub(along, coh);
				f8 rho_j = f8_div(f8_gather_listed(p->density, idx), rest_j);
				f8 curv = f8_div(f8_mul(f8_set1(2.0f * gamma_st / k->h2), wij), f8_add(rho_i8, rho_j));
				ax = f8_sub(ax, f8_mul(curv, f8_sub(nxi, f8_gather_listed(nxs, idx))));
				ay = f8_sub(ay, f8_mul(curv, f8_sub(nyi, f8_gather_listed(nys, idx))));
				if (three) az = f8_sub(az, f8_mul(curv, f8_sub(nzi, f8_gather_listed(nzs, idx))));
			}
			ax = f8_add(ax, f8_mul(along, q.dx));
			ay = f8_add(ay, f8_mul(along, q.dy));
			if (three) az = f8_add(az, f8_mul(along, q.dz));
		}
		const float c = k->wendland * eps;
		float v2[3] = {pvx[i] + dt * f8_sum(ax) + c * f8_sum(sx), pvy[i] + dt * f8_sum(ay) + c * f8_sum(sy),
		               three ? vzi + dt * f8_sum(az) + c * f8_sum(sz) : 0};
		if (warm_start) { /* the density solve's first pressure pass, on v2 as it would be on v after the swap */
			float a[3];
			pressure_acceleration(&pc, &lists, i, job->correction[m], three, uniform, a);
			const float scale = -dt * inv_rest_i;
			for (int e = 0; e < 3; ++e) v2[e] = v2[e] + scale * a[e];
		}
		p->vx2[i] = v2[0];
		p->vy2[i] = v2[1];
		if (three) p->vz2[i] = v2[2];
	}
}

/* (`uniform`, job->uniform, a constant in each copy: for the fused warm start's pressure_acceleration) */
void DFSPH_LOOP(forces_range)(void* ctx, int begin, int end)
{
	if (((const dfsph_job*)ctx)->uniform) forces_pass(ctx, begin, end, false, true);
	else forces_pass(ctx, begin, end, false, false);
}
void DFSPH_LOOP(forces_range_3d)(void* ctx, int begin, int end)
{
	if (((const dfsph_job*)ctx)->uniform) forces_pass(ctx, begin, end, true, true);
	else forces_pass(ctx, begin, end, true, false);
}
