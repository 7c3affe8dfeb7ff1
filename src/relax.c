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
 * displacement per step is dt^2 times them, so the fluid is the same at any dt.
 *
 * Two passes over the neighbour pairs: the first sums the densities and, in the same loop, the
 * viscosity impulses (viscosity.h); the second moves each particle by its relaxation
 * displacement plus dt times its viscosity velocity change. */
#include "core.h"
#include "simd.h"
#include "viscosity.h"

#include <math.h>

/* First pass: rho_i and rho_near_i, then the pressures; with viscosity on, also i's viscosity
 * velocity change dv_i (alg. 5), stored as the position change dt dv_i in vx2, vy2. Lane k of
 * each neighbour run sums candidates k, k+4, ... (see simd.h), so every backend gives the same
 * bits. */
static inline void density_pass(const pdl_stage_job* job, int begin, int end, bool with_viscosity)
{
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius;
	const f4 h2 = f4_set1(h * h), inv_h = f4_set1(1.0f / h), one = f4_set1(1.0f), zero = f4_set1(0);
	const f4 dt = f4_set1(job->dt);
	const float *px = p->x, *py = p->y, *pvx = p->vx, *pvy = p->vy;
	const uint8_t* mat = p->material;
	viscosity_i vi = {.uniform_viscosity = w->uniform_viscosity, .uniform_mass = w->uniform_mass};
	pdl_grid_runs runs = {0};
	int32_t cached = -1;
	for (int i = begin; i < end; ++i) {
		const f4 xi = f4_set1(px[i]), yi = f4_set1(py[i]);
		f4 rho = zero, rho_near = zero, dvx = zero, dvy = zero;
		if (with_viscosity) {
			int row = mat[i] * PDL_MAX_MATERIALS;
			vi.vx = f4_set1(pvx[i]);
			vi.vy = f4_set1(pvy[i]);
			vi.sigma = f4_set1(w->pair_sigma[row]);
			vi.beta = f4_set1(w->pair_beta[row]);
			vi.sigma_row = w->pair_sigma + row;
			vi.beta_row = w->pair_beta + row;
			vi.weight_row = w->pair_weight + row;
		}
		pdl_grid_runs_of(g, i, px[i], py[i], &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += 4) {
				f4 dx = f4_sub(f4_load(px + j), xi), dy = f4_sub(f4_load(py + j), yi);
				f4 r2 = f4_add(f4_mul(dx, dx), f4_mul(dy, dy));
				m4 in = m4_and(m4_lanes(j, runs.end[r], i), f4_lt(r2, h2));
				f4 dist = f4_sqrt(r2);
				f4 a = f4_mask(in, f4_sub(one, f4_mul(dist, inv_h)));
				f4 a2 = f4_mul(a, a);
				rho = f4_add(rho, a2);
				rho_near = f4_add(rho_near, f4_mul(a2, a));
				/* pairs at the same place have no direction: no viscosity between them */
				if (with_viscosity)
					viscosity_impulses(&vi, m4_and(in, f4_gt(r2, zero)), dx, dy, dist, a,
					                   f4_load(pvx + j), f4_load(pvy + j), mat + j, dt, &dvx, &dvy);
			}
		}
		const pdl_material_def* m = &w->materials[mat[i]].def;
		float d = f4_sum(rho), dn = f4_sum(rho_near);
		p->density[i] = d;
		p->pressure[i] = m->stiffness * (d - m->rest_density);
		p->near_pressure[i] = m->near_stiffness * dn;
		if (with_viscosity) {
			p->vx2[i] = job->dt * f4_sum(dvx);
			p->vy2[i] = job->dt * f4_sum(dvy);
		}
	}
}

static void density_range(void* ctx, int begin, int end) { density_pass(ctx, begin, end, false); }

static void density_viscosity_range(void* ctx, int begin, int end)
{
	density_pass(ctx, begin, end, true);
}

/* Displacement pass: each particle gathers -D m_j / (m_i + m_j) from every pair. */
static void displace_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius, dt2 = job->dt * job->dt;
	const f4 h2 = f4_set1(h * h), inv_h = f4_set1(1.0f / h), one = f4_set1(1.0f), zero = f4_set1(0);
	const f4 dt2_4 = f4_set1(dt2);
	const float *px = p->x, *py = p->y, *pressure_of = p->pressure, *near_of = p->near_pressure;
	const bool uniform_mass = w->uniform_mass, viscosity = w->any_viscosity;
	pdl_grid_runs runs = {0};
	int32_t cached = -1;
	for (int i = begin; i < end; ++i) {
		const f4 xi = f4_set1(p->x[i]), yi = f4_set1(p->y[i]);
		const f4 pi = f4_set1(p->pressure[i]), pni = f4_set1(p->near_pressure[i]);
		const float* weight_row = w->pair_weight + p->material[i] * PDL_MAX_MATERIALS;
		const f4 half = f4_set1(0.5f);
		f4 sx = zero, sy = zero;
		float coincident_x = 0, coincident_y = 0;
		pdl_grid_runs_of(g, i, p->x[i], p->y[i], &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += 4) {
				f4 dx = f4_sub(f4_load(px + j), xi), dy = f4_sub(f4_load(py + j), yi);
				f4 r2 = f4_add(f4_mul(dx, dx), f4_mul(dy, dy));
				m4 in = m4_and(m4_lanes(j, runs.end[r], i), f4_lt(r2, h2));
				f4 dist = f4_sqrt(r2);
				f4 a = f4_sub(one, f4_mul(dist, inv_h));
				f4 pressure = f4_add(pi, f4_load(pressure_of + j));
				f4 near = f4_add(pni, f4_load(near_of + j));
				f4 d = f4_mul(dt2_4, f4_add(f4_mul(pressure, a), f4_mul(f4_mul(near, a), a)));
				d = f4_mul(d, uniform_mass ? half : f4_gather(weight_row, p->material + j));
				/* d along the unit vector dx / dist; a pair at the same place (dist = 0) takes
				 * its fixed direction below */
				m4 apart = m4_and(in, f4_gt(r2, zero));
				f4 scale = f4_mask(apart, f4_div(d, dist));
				sx = f4_sub(sx, f4_mul(scale, dx));
				sy = f4_sub(sy, f4_mul(scale, dy));
				int same = m4_bits(m4_andnot(apart, in));
				for (int k = 0; same; ++k, same >>= 1) {
					if (!(same & 1)) continue;
					float dk[4];
					f4_store(dk, d);
					pdl_vec2 u = pdl_coincident_direction(p->id[i], p->id[j + k]);
					coincident_x -= dk[k] * u.x;
					coincident_y -= dk[k] * u.y;
				}
			}
		}
		float move_x = f4_sum(sx) + coincident_x, move_y = f4_sum(sy) + coincident_y;
		if (viscosity) { /* dt dv from the first pass */
			move_x += p->vx2[i];
			move_y += p->vy2[i];
		}
		p->x2[i] = p->x[i] + move_x;
		p->y2[i] = p->y[i] + move_y;
	}
}

void pdl_stage_density(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 256,
	             w->any_viscosity ? density_viscosity_range : density_range, &job);
}

void pdl_stage_relax(pdl_world* w, float dt)
{
	particles* p = &w->p;
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 256, displace_range, &job);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
}
