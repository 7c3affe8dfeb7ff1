/* Internal: the fluid side of the bodies' density pass (body_step.c explains the coupling),
 * written once with simd.h's vectors and compiled once per backend, as relax_loops.h is: the
 * includer defines BODY_GATHER(name) to name its copy. Every copy gives the same bits. */
#include "body_pairs.h"
#include "simd.h"

#include <string.h>

#ifndef BODY_GATHER
#error "define BODY_GATHER(name) before including body_gather.h"
#endif

/* One near fluid particle's lane sums (simd.h: lane l of a run holds its candidates l, l+8, ...)
 * per body it meets, for the first PDL_CONTAIN_BODIES bodies in the runs' order: a1 = sum w_k
 * (1 - q) r^, a2 = sum w_k (1 - q)^2 r^, and push = sum w_k I_k / 2 r^ (the viscosity). */
typedef struct lane_shares {
	int count;
	int body[PDL_CONTAIN_BODIES];
	f8 a1[PDL_CONTAIN_BODIES][3], a2[PDL_CONTAIN_BODIES][3], push[PDL_CONTAIN_BODIES][3];
} lane_shares;

/* The density pass, over the near list: boundary particles add to the density and near density
 * (so pressures follow), and the viscosity impulses (half to each side) to the fluid's dt dv and
 * to the bodies' records, which also gather the pair sums the relaxation uses. Eight boundary
 * particles at a time (simd.h), so every backend (SSE2, AVX2, WebAssembly, plain C) gives the
 * same bits; a lane's pair goes to the record of its own body, and a pair of a fifth body
 * counts in the density only (it pushes neither side). */
void BODY_GATHER(pdl_body_gather_density)(void* ctx, int begin, int end)
{
	pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w), viscosity = w->any_viscosity;
	const float h = w->def.interaction_radius, dt = job->dt;
	const f8 zero = f8_set1(0), one = f8_set1(1), half = f8_set1(0.5f), h2 = f8_set1(h * h),
	         inv_h = f8_set1(1.0f / h), dt_v = f8_set1(dt);
	const float *bx = set->x, *by = set->y, *bz = set->z, *bvx = set->vx, *bvy = set->vy, *bvz = set->vz;
	pdl_grid_runs runs;
	pdl_grid_cell cell = {.valid = false}; /* consecutive near particles often share a cell */
	lane_shares ls;
	int filled = 0; /* records, for body_step.c's check of its per-body lists */
	for (int e = begin; e < end; ++e) {
		int i = set->near[e];
		body_share* rec = &set->shares[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->share_body[(size_t)e * PDL_CONTAIN_BODIES];
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const float xi = p->x[i], yi = p->y[i], zi = three ? p->z[i] : 0;
		const f8 xv = f8_set1(xi), yv = f8_set1(yi), zv = f8_set1(zi);
		const f8 vix = f8_set1(p->vx[i]), viy = f8_set1(p->vy[i]), viz = f8_set1(three ? p->vz[i] : 0);
		const pdl_material_def* m = &w->materials[p->material[i]].def;
		const f8 sigma = f8_set1(m->viscosity_sigma), beta = f8_set1(m->viscosity_beta);
		f8 rho = zero, rho_near = zero;
		ls.count = 0;
		pdl_grid_runs_near(&set->grid, xi, yi, zi, &runs, &cell);
		for (int r = 0; r < runs.count; ++r)
			for (int k = runs.begin[r]; k < runs.end[r]; k += PDL_LANES) {
				f8 d[3] = {f8_sub(f8_load(bx + k), xv), f8_sub(f8_load(by + k), yv),
				           three ? f8_sub(f8_load(bz + k), zv) : zero};
				f8 r2 = f8_add(f8_mul(d[0], d[0]), f8_mul(d[1], d[1]));
				if (three) r2 = f8_add(r2, f8_mul(d[2], d[2]));
				m8 in = m8_and(m8_first(runs.end[r] - k), m8_and(f8_lt(r2, h2), f8_gt(r2, zero)));
				int left = m8_bits(in);
				if (!left) continue;
				f8 dist = f8_sqrt(r2);
				f8 a = f8_sub(one, f8_mul(dist, inv_h));
				f8 wt = f8_load(set->wt + k), wa = f8_mul(wt, a), waa = f8_mul(wa, a);
				rho = f8_add(rho, f8_mask(in, waa));
				rho_near = f8_add(rho_near, f8_mask(in, f8_mul(waa, a)));
				f8 dir[3] = {f8_div(d[0], dist), f8_div(d[1], dist), three ? f8_div(d[2], dist) : zero};
				f8 push = zero; /* w_k I_k / 2: Clavet alg. 5, half to each side */
				if (viscosity) {
					f8 u = f8_add(f8_mul(f8_sub(vix, f8_load(bvx + k)), dir[0]),
					              f8_mul(f8_sub(viy, f8_load(bvy + k)), dir[1]));
					if (three) u = f8_add(u, f8_mul(f8_sub(viz, f8_load(bvz + k)), dir[2]));
					f8 impulse = f8_mul(f8_mul(dt_v, a), f8_mul(u, f8_add(sigma, f8_mul(beta, u))));
					impulse = f8_min(impulse, u);
					push = f8_mask(f8_gt(u, zero), f8_mul(wt, f8_mul(half, impulse)));
				}
				m8 rest = in;
				for (int s = 0; left && s < PDL_CONTAIN_BODIES; ++s) {
					if (s == ls.count) { /* the first body not yet met opens the next record */
						int lane = __builtin_ctz((unsigned)left);
						ls.body[s] = set->body[k + lane];
						for (int c = 0; c < 3; ++c) ls.a1[s][c] = ls.a2[s][c] = ls.push[s][c] = zero;
						ls.count++;
					}
					m8 mine = m8_and(rest, m8_index_is(set->body + k, ls.body[s]));
					int bits = m8_bits(mine);
					if (!bits) continue;
					left &= ~bits;
					rest = m8_andnot(mine, rest);
					for (int c = 0; c < (three ? 3 : 2); ++c) {
						ls.a1[s][c] = f8_add(ls.a1[s][c], f8_mask(mine, f8_mul(wa, dir[c])));
						ls.a2[s][c] = f8_add(ls.a2[s][c], f8_mask(mine, f8_mul(waa, dir[c])));
						if (viscosity) ls.push[s][c] = f8_add(ls.push[s][c], f8_mask(mine, f8_mul(push, dir[c])));
					}
				}
			}
		float density = f8_sum(rho);
		if (density == 0) continue;
		const float x[3] = {xi, yi, zi};
		float dv[3] = {0, 0, 0};
		filled += ls.count;
		for (int s = 0; s < ls.count; ++s) {
			body_share* sh = &rec[s];
			rec_body[s] = ls.body[s];
			for (int c = 0; c < 3; ++c) {
				bool axis = three || c < 2;
				sh->a1[c] = axis ? f8_sum(ls.a1[s][c]) : 0;
				sh->a2[c] = axis ? f8_sum(ls.a2[s][c]) : 0;
				float pushed = axis && viscosity ? f8_sum(ls.push[s][c]) : 0;
				/* the fluid's velocity changes by -push: the body gains m dt push */
				dv[c] -= pushed;
				sh->j[c] = m->mass * (dt * pushed);
			}
			if (viscosity) moment_of(set, ls.body[s], sh, x, three);
			else memset(sh->t, 0, sizeof sh->t);
		}
		p->density[i] += density * set->density_scale;
		p->pressure[i] = m->stiffness * (p->density[i] - m->rest_density);
		p->near_pressure[i] += m->near_stiffness * (f8_sum(rho_near) * set->density_scale);
		if (viscosity) {
			p->vx2[i] += dt * dv[0];
			p->vy2[i] += dt * dv[1];
			if (three) p->vz2[i] += dt * dv[2];
		}
	}
	atomic_fetch_add_explicit(&set->share_records, filled, memory_order_relaxed);
}
