/* Internal: the two neighbour loops of the springs (springs.c explains the method), written
 * once with the vectors of simd.h and compiled once per backend, as relax_loops.h is: springs.c
 * includes this file for the backend the compiler targets, springs_avx2.c for AVX2 (the same
 * bits: simd.h). The includer defines SPRINGS_LOOP(name) to name each copy. */
#include "core.h"
#include "simd.h"

#include <math.h>

#ifndef SPRINGS_LOOP
#error "define SPRINGS_LOOP(name) before including springs_loops.h"
#endif

void SPRINGS_LOOP(plasticity_displace)(void* ctx, int begin, int end);
void SPRINGS_LOOP(propose)(void* ctx, int begin, int end);

/* Algorithms 3 and 4 in one pass over each particle's springs, gathered from frozen positions:
 * plastic flow of the rest length L (and removal past h), then the spring displacement with
 * the new L, both from the same distance r. Springs made later in the step (below) start at
 * L = r, so their displacement this step is exactly zero and doing this pass first changes
 * nothing but the cost. The PDL_K slots of a particle go eight at a time (simd.h): lane k
 * takes slots k and k + 8, empty slots are masked, and the branches of algorithm 3 are
 * selects, the same bits in every backend. */
_Static_assert(PDL_K % PDL_LANES == 0, "spring slots come in whole vectors");

void SPRINGS_LOOP(plasticity_displace)(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius, dt = job->dt, dt2 = dt * dt;
	const bool three = PDL_IS_3D(w);
	const f8 zero = f8_set1(0), one = f8_set1(1), h_v = f8_set1(h), inv_h = f8_set1(1.0f / h);
	for (int i = begin; i < end; ++i) {
		const material* m = &w->materials[p->material[i]];
		int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		float* rest = p->spring_rest + (size_t)i * PDL_K;
		if (!m->springs) { /* the material's springs were turned off */
			for (int s = 0; s < PDL_K; ++s) partner[s] = -1;
			p->x2[i] = p->x[i];
			p->y2[i] = p->y[i];
			if (three) p->z2[i] = p->z[i];
			continue;
		}
		const f8 xi = f8_set1(p->x[i]), yi = f8_set1(p->y[i]), zi = f8_set1(three ? p->z[i] : 0);
		const f8 yield = f8_set1(m->def.yield_ratio), flow = f8_set1(dt * m->def.plasticity);
		const f8 half_k = f8_set1(0.5f * dt2 * m->def.spring_stiffness);
		f8 sx = zero, sy = zero, sz = zero;
		float same[3] = {0, 0, 0}; /* springs between particles at one place (below) */
		for (int s0 = 0; s0 < PDL_K; s0 += PDL_LANES) {
			const int32_t* js = partner + s0;
			m8 used = m8_valid_index(js);
			int live = m8_bits(used);
			if (!live) continue;
			f8 dx = f8_sub(f8_gather_index(p->x, js), xi), dy = f8_sub(f8_gather_index(p->y, js), yi);
			f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
			f8 dz = zero;
			if (three) {
				dz = f8_sub(f8_gather_index(p->z, js), zi);
				r2 = f8_add(r2, f8_mul(dz, dz));
			}
			f8 r = f8_sqrt(r2), L = f8_load(rest + s0);
			/* algorithm 3, within h: L += dt alpha (r - L - d) past L + d, L -= dt alpha
			 * (L - d - r) below L - d, d = gamma L */
			f8 d = f8_mul(yield, L);
			m8 near = f8_lt(r, h_v);
			m8 grow = m8_and(near, f8_gt(r, f8_add(L, d)));
			m8 shrink = m8_andnot(grow, m8_and(near, f8_lt(r, f8_sub(L, d))));
			f8 grown = f8_add(L, f8_mul(flow, f8_sub(f8_sub(r, L), d)));
			f8 shrunk = f8_sub(L, f8_mul(flow, f8_sub(f8_sub(L, d), r)));
			L = f8_select(grow, grown, f8_select(shrink, shrunk, L));
			f8_store(rest + s0, L);
			/* springs stretched past h go */
			int gone = live & m8_bits(f8_gt(L, h_v));
			for (int k = 0; gone; ++k, gone >>= 1)
				if (gone & 1) partner[s0 + k] = -1;
			m8 kept = m8_andnot(f8_gt(L, h_v), used);
			/* algorithm 4: D = dt^2 k (1 - L/h) (L - r) r^_ij, half to each end (same material) */
			f8 D = f8_mul(f8_mul(half_k, f8_sub(one, f8_mul(L, inv_h))), f8_sub(L, r));
			m8 apart = m8_and(kept, f8_gt(r, zero));
			f8 scale = f8_mask(apart, f8_div(D, r));
			sx = f8_sub(sx, f8_mul(scale, dx));
			sy = f8_sub(sy, f8_mul(scale, dy));
			if (three) sz = f8_sub(sz, f8_mul(scale, dz));
			/* a spring between two particles at one place pushes along their fixed direction */
			int coincident = m8_bits(m8_andnot(apart, kept));
			if (coincident) {
				float Dk[PDL_LANES];
				f8_store(Dk, D);
				pdl_coincident_lanes(coincident, Dk, p->id, i, js, 0, three, same);
			}
		}
		p->x2[i] = p->x[i] + (f8_sum(sx) + same[0]);
		p->y2[i] = p->y[i] + (f8_sum(sy) + same[1]);
		if (three) p->z2[i] = p->z[i] + (f8_sum(sz) + same[2]);
	}
}

/* Whether i already has a spring to j: every slot compared at once (simd.h), no early exit,
 * since most candidates of a blob are connected and a branch per slot mispredicts. */
static bool connected(const int32_t* partner, int j)
{
	m8 any = m8_index_is(partner, j);
	for (int s = PDL_LANES; s < PDL_K; s += PDL_LANES) any = m8_or(any, m8_index_is(partner + s, j));
	return m8_bits(any) != 0;
}

/* Each particle lists its nearest unconnected same-material neighbours, up to its free slots.
 * Eight candidates at a time are tested for distance (simd.h); only those within h go on to
 * the scalar tests. */
void SPRINGS_LOOP(propose)(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius;
	const f8 h2 = f8_set1(h * h);
	const bool three = PDL_IS_3D(w);
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		int32_t* out = p->proposals + (size_t)i * PDL_K;
		int count = 0;
		const int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		int free_slots = 0;
		for (int s = 0; s < PDL_K; ++s) free_slots += partner[s] < 0;
		uint8_t mat = p->material[i];
		float xi = p->x[i], yi = p->y[i], zi = three ? p->z[i] : 0;
		pdl_grid_runs_of(g, i, xi, yi, zi, &runs, &cached);
		if (free_slots > 0 && w->materials[mat].springs) {
			float best[PDL_K];
			const f8 xi8 = f8_set1(xi), yi8 = f8_set1(yi), zi8 = f8_set1(zi);
			for (int r = 0; r < runs.count; ++r) {
				for (int j0 = runs.begin[r]; j0 < runs.end[r]; j0 += PDL_LANES) {
					f8 dx = f8_sub(f8_load(p->x + j0), xi8), dy = f8_sub(f8_load(p->y + j0), yi8);
					f8 r2v = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
					if (three) {
						f8 dz = f8_sub(f8_load(p->z + j0), zi8);
						r2v = f8_add(r2v, f8_mul(dz, dz));
					}
					int in = m8_bits(m8_and(m8_lanes(j0, runs.end[r], i), f8_lt(r2v, h2)));
					float r2s[PDL_LANES];
					f8_store(r2s, r2v);
					for (; in; in &= in - 1) { /* each lane within h, lowest first */
						int k = __builtin_ctz((unsigned)in);
						int j = j0 + k;
						float r2 = r2s[k];
						if (p->material[j] != mat) continue;
						/* insertion into the sorted list of the nearest free_slots candidates */
						if (count == free_slots && r2 >= best[count - 1]) continue;
						if (connected(partner, j)) continue;
						int at = count < free_slots ? count++ : count - 1;
						while (at > 0 && best[at - 1] > r2) {
							best[at] = best[at - 1];
							out[at] = out[at - 1];
							--at;
						}
						best[at] = r2;
						out[at] = j;
					}
				}
			}
		}
		p->scratch[i] = count;
	}
}
