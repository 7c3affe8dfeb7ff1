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

#ifndef RELAX_LOOP
#error "define RELAX_LOOP(name) before including relax_loops.h"
#endif

void RELAX_LOOP(density_range)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_range)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_range)(void* ctx, int begin, int end);
void RELAX_LOOP(density_range_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(density_viscosity_range_3d)(void* ctx, int begin, int end);
void RELAX_LOOP(displace_range_3d)(void* ctx, int begin, int end);

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
	int32_t cached = -1;
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
				f8 dx = f8_sub(f8_load(px + j), xi), dy = f8_sub(f8_load(py + j), yi);
				f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
				f8 dz = zero;
				if (three) {
					dz = f8_sub(f8_load(pz + j), zi);
					r2 = f8_add(r2, f8_mul(dz, dz));
				}
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
	int32_t cached = -1;
	for (int i = begin; i < end; ++i) {
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = three ? f8_set1(pz[i]) : zero;
		const f8 pi = f8_set1(p->pressure[i]), pni = f8_set1(p->near_pressure[i]);
		const float* weight_row = w->pair_weight + p->material[i] * PDL_MAX_MATERIALS;
		f8 sx = zero, sy = zero, sz = zero;
		float coincident[3] = {0, 0, 0};
		pdl_grid_runs_of(g, i, px[i], py[i], three ? pz[i] : 0, &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			for (int j = runs.begin[r]; j < runs.end[r]; j += PDL_LANES) {
				f8 dx = f8_sub(f8_load(px + j), xi), dy = f8_sub(f8_load(py + j), yi);
				f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
				f8 dz = zero;
				if (three) {
					dz = f8_sub(f8_load(pz + j), zi);
					r2 = f8_add(r2, f8_mul(dz, dz));
				}
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
					pdl_coincident_lanes(same, dk, p->id, i, j, three, coincident);
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

