/* Stage 2: viscosity impulses, Clavet 2005 algorithm 5.
 *
 * For each neighbour pair with q = r/h < 1 that is approaching (u > 0):
 *     u = (v_i - v_j) . r^_ij
 *     I = dt (1 - q) (sigma u + beta u^2) r^_ij,    v_i -= I/2,  v_j += I/2
 * sigma (1/s) damps linearly, beta (1/length) quadratically. Here every particle gathers the
 * impulses of all its pairs from the frozen velocities (Jacobi), which is order-free (the
 * paper's one-particle-at-a-time sweep drifts in the sweep direction) and parallel; the pair
 * impulse splits by inverse mass (equal halves for equal masses). One safeguard: an impulse
 * never exceeds u, so a very viscous pair stops approaching instead of bouncing apart. */
#include "core.h"

#include <math.h>

typedef struct viscosity_job {
	pdl_world* w;
	float dt;
} viscosity_job;

static void viscosity_range(void* ctx, int begin, int end)
{
	viscosity_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid_now;
	float dt = job->dt, h = w->def.interaction_radius, inv_h = 1.0f / h, h2 = h * h;
	for (int i = begin; i < end; ++i) {
		float xi = p->x[i], yi = p->y[i], vxi = p->vx[i], vyi = p->vy[i];
		int mi = p->material[i] * PDL_MAX_MATERIALS;
		float dvx = 0, dvy = 0;
		pdl_grid_runs runs;
		pdl_grid_runs_around(g, xi, yi, &runs);
		for (int r = 0; r < runs.count; ++r) {
			for (int k = runs.begin[r]; k < runs.end[r]; ++k) {
				int j = g->order[k];
				float dx = p->x[j] - xi, dy = p->y[j] - yi, r2 = dx * dx + dy * dy;
				if (r2 >= h2 || r2 == 0) continue; /* also skips i itself */
				float dist = sqrtf(r2), ux = dx / dist, uy = dy / dist;
				float u = (vxi - p->vx[j]) * ux + (vyi - p->vy[j]) * uy;
				if (u <= 0) continue;
				int pair = mi + p->material[j];
				float q = dist * inv_h;
				float impulse = dt * (1.0f - q) * (w->pair_sigma[pair] * u + w->pair_beta[pair] * u * u);
				impulse = fminf(impulse, u) * w->pair_weight[pair];
				dvx -= impulse * ux;
				dvy -= impulse * uy;
			}
		}
		p->vx2[i] = vxi + dvx;
		p->vy2[i] = vyi + dvy;
	}
}

void pdl_stage_viscosity(pdl_world* w, float dt)
{
	bool any = false;
	for (int m = 0; m < w->material_count; ++m)
		any |= w->materials[m].def.viscosity_sigma > 0 || w->materials[m].def.viscosity_beta > 0;
	if (!any) return;
	particles* p = &w->p;
	/* neighbours at the positions the step starts from (the paper applies viscosity before
	 * prediction); the particles are not moved, `order` indexes them */
	pdl_grid_build(&w->grid_now, w->pool, p->count, p->x, p->y, w->def.interaction_radius);
	viscosity_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 512, viscosity_range, &job);
	float* t;
	t = p->vx; p->vx = p->vx2; p->vx2 = t;
	t = p->vy; p->vy = p->vy2; p->vy2 = t;
}
