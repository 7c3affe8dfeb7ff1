/* Stage 5: double density relaxation, Clavet 2005 algorithm 2.
 *
 * Density and near density from the neighbours within h (q = r/h):
 *     rho_i = sum_j (1 - q)^2        rho_near_i = sum_j (1 - q)^3              (eq. 1, 4)
 *     P_i = k (rho_i - rho0)         P_near_i = k_near rho_near_i              (eq. 2, 5)
 * and for each pair a displacement along r^_ij (from i to j)
 *     D = dt^2 ((P_i + P_j) (1 - q) + (P_near_i + P_near_j) (1 - q)^2) r^_ij
 * that moves i by -D m_j / (m_i + m_j) and j by +D m_i / (m_i + m_j).
 *
 * The paper sweeps particles one at a time, moving neighbours as it goes; its total pair
 * displacement is the sum of the two halves from i's and j's turns, which is the symmetric
 * (P_i + P_j) form above. Computing every particle's displacement from frozen positions
 * (Jacobi) makes the result independent of order and thread count, and exactly
 * antisymmetric per pair, so m_i dx_i + m_j dx_j = 0 and momentum is conserved. Splitting by
 * inverse mass makes heavy particles move less than light ones, so they sink through them
 * (reference 001's stratification). k and k_near are accelerations (length / s^2): the
 * displacement per step is dt^2 times them, so the fluid is the same at any dt. */
#include "core.h"

#include <math.h>

typedef struct relax_job {
	pdl_world* w;
	float dt;
} relax_job;

static void density_range(void* ctx, int begin, int end)
{
	relax_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid_pred;
	float h = w->def.interaction_radius, inv_h = 1.0f / h, h2 = h * h;
	for (int i = begin; i < end; ++i) {
		float xi = p->x[i], yi = p->y[i];
		float rho = 0, rho_near = 0;
		pdl_grid_runs runs;
		pdl_grid_runs_around(g, xi, yi, &runs);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; ++j) {
				float dx = p->x[j] - xi, dy = p->y[j] - yi, r2 = dx * dx + dy * dy;
				if (r2 >= h2 || j == i) continue;
				float a = 1.0f - sqrtf(r2) * inv_h, a2 = a * a;
				rho += a2;
				rho_near += a2 * a;
			}
		}
		const pdl_material_def* m = &w->materials[p->material[i]].def;
		p->density[i] = rho;
		p->near_density[i] = rho_near;
		p->pressure[i] = m->stiffness * (rho - m->rest_density);
		p->near_pressure[i] = m->near_stiffness * rho_near;
	}
}

static void displace_range(void* ctx, int begin, int end)
{
	relax_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid_pred;
	float h = w->def.interaction_radius, inv_h = 1.0f / h, h2 = h * h, dt2 = job->dt * job->dt;
	for (int i = begin; i < end; ++i) {
		float xi = p->x[i], yi = p->y[i], pi = p->pressure[i], pni = p->near_pressure[i];
		int mi = p->material[i] * PDL_MAX_MATERIALS;
		float dx_sum = 0, dy_sum = 0;
		pdl_grid_runs runs;
		pdl_grid_runs_around(g, xi, yi, &runs);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; ++j) {
				float dx = p->x[j] - xi, dy = p->y[j] - yi, r2 = dx * dx + dy * dy;
				if (r2 >= h2 || j == i) continue;
				float dist = sqrtf(r2), ux, uy;
				if (dist > 0) {
					ux = dx / dist;
					uy = dy / dist;
				} else {
					pdl_vec2 u = pdl_coincident_direction(p->id[i], p->id[j]);
					ux = u.x;
					uy = u.y;
				}
				float a = 1.0f - dist * inv_h;
				float d = dt2 * ((pi + p->pressure[j]) * a + (pni + p->near_pressure[j]) * a * a);
				d *= w->pair_weight[mi + p->material[j]];
				dx_sum -= d * ux;
				dy_sum -= d * uy;
			}
		}
		p->x2[i] = xi + dx_sum;
		p->y2[i] = yi + dy_sum;
	}
}

void pdl_stage_relax(pdl_world* w, float dt)
{
	particles* p = &w->p;
	relax_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 512, density_range, &job);
	pdl_pool_for(w->pool, p->count, 512, displace_range, &job);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
}
