/* Stage 2: viscosity impulses, Clavet 2005 algorithm 5.
 *
 * For each neighbour pair with q = r/h < 1 that is approaching (u > 0):
 *     u = (v_i - v_j) . r^_ij
 *     I = dt (1 - q) (sigma u + beta u^2) r^_ij,    v_i -= I/2,  v_j += I/2
 * sigma (1/s) damps linearly, beta (1/length) quadratically. Here every particle gathers the
 * impulses of all its pairs from the frozen velocities (Jacobi), which is order-free (the
 * paper's one-particle-at-a-time sweep drifts in the sweep direction) and parallel; the pair
 * impulse splits by inverse mass (equal halves for equal masses). One safeguard: an impulse
 * never exceeds u, so a very viscous pair stops approaching instead of bouncing apart.
 *
 * The neighbours are those at the positions the step starts from, as in the paper: the
 * particles are sorted into the grid of those positions first. */
#include "core.h"
#include "simd.h"

#include <math.h>

static void viscosity_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius;
	const f4 h2 = f4_set1(h * h), inv_h = f4_set1(1.0f / h), one = f4_set1(1.0f), zero = f4_set1(0);
	const f4 dt = f4_set1(job->dt), half = f4_set1(0.5f);
	const float *px = p->x, *py = p->y, *pvx = p->vx, *pvy = p->vy;
	const uint8_t* mat = p->material;
	const bool uniform_viscosity = w->uniform_viscosity, uniform_mass = w->uniform_mass;
	pdl_grid_runs runs = {0};
	int32_t cached = -1;
	for (int i = begin; i < end; ++i) {
		const f4 xi = f4_set1(p->x[i]), yi = f4_set1(p->y[i]);
		const f4 vxi = f4_set1(p->vx[i]), vyi = f4_set1(p->vy[i]);
		int row = p->material[i] * PDL_MAX_MATERIALS;
		const f4 sigma_i = f4_set1(w->pair_sigma[row]), beta_i = f4_set1(w->pair_beta[row]);
		f4 dvx = zero, dvy = zero;
		pdl_grid_runs_of(g, i, p->x[i], p->y[i], &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += 4) {
				f4 dx = f4_sub(f4_load(px + j), xi), dy = f4_sub(f4_load(py + j), yi);
				f4 r2 = f4_add(f4_mul(dx, dx), f4_mul(dy, dy));
				/* pairs at the same place have no direction and are skipped */
				m4 in = m4_and(m4_and(m4_lanes(j, runs.end[r], i), f4_lt(r2, h2)), f4_gt(r2, zero));
				if (!m4_bits(in)) continue;
				f4 dist = f4_sqrt(r2), inv_dist = f4_div(one, dist);
				f4 du = f4_add(f4_mul(f4_sub(vxi, f4_load(pvx + j)), dx),
				               f4_mul(f4_sub(vyi, f4_load(pvy + j)), dy));
				f4 u = f4_mul(du, inv_dist); /* approach speed along r^_ij */
				in = m4_and(in, f4_gt(u, zero));
				if (!m4_bits(in)) continue;
				f4 sigma = sigma_i, beta = beta_i, weight = half;
				if (!uniform_viscosity) {
					sigma = f4_gather(w->pair_sigma + row, mat + j);
					beta = f4_gather(w->pair_beta + row, mat + j);
				}
				if (!uniform_mass) weight = f4_gather(w->pair_weight + row, mat + j);
				f4 a = f4_sub(one, f4_mul(dist, inv_h));
				f4 impulse = f4_mul(f4_mul(dt, a), f4_add(f4_mul(sigma, u), f4_mul(f4_mul(beta, u), u)));
				impulse = f4_mul(f4_min(impulse, u), weight);
				f4 scale = f4_mask(in, f4_mul(impulse, inv_dist));
				dvx = f4_sub(dvx, f4_mul(scale, dx));
				dvy = f4_sub(dvy, f4_mul(scale, dy));
			}
		}
		p->vx2[i] = p->vx[i] + f4_sum(dvx);
		p->vy2[i] = p->vy[i] + f4_sum(dvy);
	}
}

void pdl_stage_viscosity(pdl_world* w, float dt)
{
	if (!w->any_viscosity) return;
	particles* p = &w->p;
	pdl_grid* g = &w->grid;
	pdl_grid_build(g, w->pool, p->count, p->x, p->y, w->def.interaction_radius);
	pdl_particles_permute(w, g->order, false);
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 256, viscosity_range, &job);
	float* t;
	t = p->vx; p->vx = p->vx2; p->vx2 = t;
	t = p->vy; p->vy = p->vy2; p->vy2 = t;
}
