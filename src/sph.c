/* The second solver: smoothed particle hydrodynamics after Mueller, Charypar & Gross 2003
 * ("Particle-Based Fluid Simulation for Interactive Applications", SCA 2003), weakly
 * compressible with a stiff equation of state (Monaghan 1994; Becker & Teschner 2007), Akinci
 * 2013 surface tension, and a CFL-limited adaptive step. World def: solver = PDL_SOLVER_SPH,
 * settings in world.sph (include/puddle/types.h); docs/physics.md, "SPH", has the equations.
 *
 * One pdl_world_step() takes n substeps of dt / n, n from the CFL rule (pdl_sph_substeps).
 * Each substep:
 *
 *   1. forces     v += dt (g + pointers)                  (step.c, the Clavet stage, shared)
 *   2. grid       sort particles into the neighbour grid at x
 *   3. density    rho_i = sum_j m_j W_poly6(r_ij), self included, + walls  (Mueller eq. 3)
 *                 p_i = EOS(rho_i), clamped at 0
 *   4. normals    n_i = h sum_j m_j / rho_j grad W_poly6        (Akinci eq. 5; tension only)
 *   5. internal   a_i = pressure (+ walls) + viscosity + surface tension, XSPH, then
 *                 symplectic Euler: v_i += dt a_i, x_prev_i = x_i, x_i += dt v_i
 *   6. boundaries walls and obstacles on x / x_prev                      (boundary.c, shared)
 *   7. velocity   v = (x - x_prev) / dt                                    (step.c, shared)
 *
 * Every pass is a gather: particle i reads its neighbours' state from the previous pass and
 * writes only its own entries, summing its neighbours in grid order, so the result is bitwise
 * the same for any thread count. Pair terms are written so that the (i, j) and (j, i) terms are
 * exact negatives (symmetric weights times an antisymmetric difference), which conserves
 * momentum up to the rounding of the sums.
 *
 * Scratch arrays: the spare xp2 / yp2 / zp2 (free after a permutation without x_prev) hold the
 * surface normals between the normals pass and the internal pass.
 *
 * 2D and 3D share every pass: each is written once with a constant `three` that switches the z
 * terms on, and the kernels take their 3D normalisation (kernels.h). */
#include "core.h"
#include "kernels.h"
#include "simd.h"

#include <math.h>

/* ---- Walls -------------------------------------------------------------------------------
 *
 * A particle near a wall is missing the neighbours the wall cuts off: its density sum is too
 * low (about half at the wall), its pressure clamps to 0, and nothing keeps it from being
 * squeezed against the wall and its wall neighbours. puddle treats the space behind each wall
 * as fluid at rest density rho0_i and adds its share to the density in closed form:
 *
 *   density   rho_i += rho0_i F(d / h),  F(t) = integral of W_poly6 over the half plane y < -t
 *                                                (h = 1; F(0) = 1/2, F(1) = 0)
 *
 * with d the distance to the wall. The matching force is the one that conserves energy: the
 * particle's internal energy changes with rho_i as p_i / rho_i^2 (the same rule that gives the
 * pair forces their p_i / rho_i^2 term), so
 *
 *   pressure  a_i = -(p_i / rho_i^2) grad(rho0_i F(d / h)) = (p_i / rho_i^2) rho0_i G(d / h) / h n,
 *             G(t) = -F'(t) = W_poly6 integrated along the line y = t
 *
 * with n the wall's unit normal into the fluid. (A mirror particle, p_j = p_i, would give twice
 * this; measured, that pumps energy into a resting pool.) Each wall within h counts once: each
 * side of a box container, each obstacle; in a corner both sides add. The boundary stage still
 * keeps particles inside and applies friction. */

/* The Poly6 tables (dimensionless, h = 1), built by pdl_wall_tables. G(t), the Poly6 kernel integrated along the
 * line y = t (3D: over the plane y = t), is closed form. 2D: the integral of (a^2 - x^2)^3 over
 * [-a, a] is (32/35) a^7, so G(t) = 4/pi (32/35) (1 - t^2)^(7/2). 3D: the integral of
 * (a^2 - rho^2)^3 over the disc of radius a is pi a^8 / 4, so G(t) = 315/(64 pi) pi/4
 * (1 - t^2)^4. F(t) is its integral from t to 1 (Simpson's rule); F(0) = 1/2 in both. */
static double wall_line(double t, bool three)
{
	return three ? 315.0 / 256.0 * pow(1 - t * t, 4) : 128.0 / (35.0 * PDL_PI) * pow(1 - t * t, 3.5);
}

void pdl_wall_tables(double (*plane)(double t, bool three), bool three, float* density, float* force)
{
	enum { STEPS = 64 }; /* Simpson intervals per table cell */
	double acc = 0;
	density[PDL_SPH_WALL_TABLE] = 0;
	force[PDL_SPH_WALL_TABLE] = 0;
	for (int t = PDL_SPH_WALL_TABLE - 1; t >= 0; --t) {
		double a = (double)t / PDL_SPH_WALL_TABLE, b = (double)(t + 1) / PDL_SPH_WALL_TABLE;
		double step = (b - a) / STEPS, sum = plane(a, three) + plane(b, three);
		for (int k = 1; k < STEPS; ++k) sum += (k & 1 ? 4 : 2) * plane(a + k * step, three);
		acc += sum * step / 3;
		density[t] = (float)acc;
		force[t] = (float)plane(a, three);
	}
}

/* The Wendland C2 tables' G(t) (SPH with PDL_SPH_PRESSURE_WENDLAND, and DFSPH): 2D the integral
 * of W along the line y = t, 3D over the plane (2 pi rho drho), by Simpson's rule over the
 * chord (W is smooth there: 512 intervals are exact to about 1e-12). */
float pdl_sph_gradient_correction(const pdl_world* w, int m)
{
	return w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND ? w->materials[m].gradient_correction : 1.0f;
}

double pdl_wendland_plane(double t, bool three)
{
	if (t >= 1) return 0;
	const double sigma = three ? 21.0 / (2.0 * PDL_PI) : 7.0 / PDL_PI;
	enum { STEPS = 512 };
	double a = sqrt(1 - t * t), step = a / STEPS, sum = 0;
	for (int k = 0; k <= STEPS; ++k) {
		double x = k * step, f = pdl_wendland_shape(sqrt(t * t + x * x)) * (three ? 2 * PDL_PI * x : 2.0);
		sum += (k == 0 || k == STEPS ? 1 : (k & 1) ? 4 : 2) * f;
	}
	return sigma * sum * step / 3;
}

void pdl_sph_prepare(pdl_world* w)
{
	const bool wendland = w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND;
	if (w->sph_wall_ready && w->sph_wall_wendland == wendland) return;
	pdl_wall_tables(wendland ? pdl_wendland_plane : wall_line, PDL_IS_3D(w), w->sph_wall_density, w->sph_wall_force);
	w->sph_wall_ready = true;
	w->sph_wall_wendland = wendland;
}

float pdl_sph_xsph_share(const pdl_world* w, float dt)
{
	/* XSPH: a share eps per 1/60 s is 1 - (1 - eps)^(60 dt) per substep of dt */
	return (float)(1.0 - pow(1.0 - (double)w->def.sph.xsph, 60.0 * (double)dt));
}

float pdl_sph_wall_density(const pdl_world* w, float t) { return pdl_sph_table_at(w->sph_wall_density, t); }
float pdl_sph_wall_force(const pdl_world* w, float t) { return pdl_sph_table_at(w->sph_wall_force, t); }

/* ---- The CFL rule ------------------------------------------------------------------------ */

int pdl_sph_substeps(const pdl_world* w)
{
	const particles* p = &w->p;
	/* fastest particle now (a maximum does not depend on the order: deterministic) */
	float v2max = 0;
	for (int i = 0; i < p->count; ++i) {
		float v2 = p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + (p->vz ? p->vz[i] * p->vz[i] : 0);
		if (v2 > v2max) v2max = v2;
	}
	return pdl_sph_substeps_for(w, v2max);
}

int pdl_sph_substeps_for(const pdl_world* w, float v2max)
{
	const pdl_sph_def* s = &w->def.sph;
	double h = w->def.interaction_radius, c = s->speed_of_sound, cfl = s->cfl;
	int least = w->def.substeps > 1 ? w->def.substeps : 1;
	if (least > s->max_substeps) least = s->max_substeps;
	/* Acceleration bound of the forces the sound-speed condition does not cover: gravity,
	 * pointers, and surface tension (an acceleration of order gamma_st). Pressure and
	 * viscosity need no term: pressure moves a particle by about c^2 dt^2 / h (drho / rho),
	 * a small share of cfl^2 h once dt <= cfl h / c, and viscosity has its own condition. The
	 * bound depends only on the current state, never on the last step, so a run resumed from
	 * a snapshot takes the same substeps as the run that wrote it. */
	double scale = 0;
	for (int m = 0; m < w->material_count; ++m) scale = fmax(scale, fabs(w->materials[m].def.gravity_scale));
	pdl_vec3 g = w->def.gravity;
	double a = sqrt((double)g.x * g.x + (double)g.y * g.y + (PDL_IS_3D(w) ? (double)g.z * g.z : 0)) * scale +
	           s->surface_tension;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k)
		if (w->pointer_active[k]) a += fabs(w->pointers[k].strength);
	/* Monaghan 1992 / Becker & Teschner 2007: sound and flow cross at most cfl h per substep,
	 * the forces move a particle from rest by at most cfl^2 h / 2, and explicit viscosity stays
	 * stable (its diffusion number nu dt / h^2 below 1/8) */
	double dt_max = cfl * h / (c + sqrt((double)v2max));
	if (a > 0) dt_max = fmin(dt_max, cfl * sqrt(h / a));
	if (s->viscosity > 0) dt_max = fmin(dt_max, cfl * h * h / (8.0 * s->viscosity));
	double n = ceil(w->def.dt / dt_max);
	if (!(n <= s->max_substeps)) return s->max_substeps; /* also NaN */
	return n < least ? least : (int)n;
}

/* ---- The passes -------------------------------------------------------------------------- */

typedef struct sph_job {
	pdl_world* w;
	float dt;
	pdl_kernels k;
	float mass[PDL_MAX_MATERIALS], rest[PDL_MAX_MATERIALS]; /* m and rho0 per material */
	float xsph;    /* the XSPH share for this substep */
	bool tension;  /* surface_tension > 0: normals pass and tension terms */
	bool uniform_mass; /* every material has the same mass: no per-neighbour mass lookup */
	bool wendland;     /* Wendland C2 for W and grad W (else Poly6; Spiky's gradient for pressure) */
	float correction[PDL_MAX_MATERIALS]; /* L of the pressure term (internal_pass), per material */
	bool uniform_correction;             /* every material has the same L */
} sph_job;

/* The density kernel W's shape at distance r (r2 its square; the caller masks lanes beyond h):
 * Wendland C2 (1 - q)^4 (1 + 4q), q = r / h, to be scaled by k.wendland, or Poly6
 * (h^2 - r^2)^3, scaled by k.poly6 (which does not read r). */
static inline f8 kernel_shape(const sph_job* job, f8 r2, f8 r)
{
	if (job->wendland) {
		f8 q = f8_mul(r, f8_set1(1.0f / job->k.h)), d = f8_sub(f8_set1(1.0f), q), d2 = f8_mul(d, d);
		return f8_mul(f8_mul(d2, d2), f8_add(f8_set1(1.0f), f8_mul(f8_set1(4.0f), q)));
	}
	f8 d = f8_sub(f8_set1(job->k.h2), r2);
	return f8_mul(f8_mul(d, d), d);
}

/* The density kernel's gradient scale s, grad W(x_i - x_j) = s (x_i - x_j), s <= 0: Wendland
 * -wendland_grad (1 - q)^3, Poly6 -poly6_grad (h^2 - r^2)^2 (kernels.h), as kernel_shape. */
static inline f8 kernel_grad_scale(const sph_job* job, f8 r2, f8 r)
{
	if (job->wendland) {
		f8 d = f8_sub(f8_set1(1.0f), f8_mul(r, f8_set1(1.0f / job->k.h)));
		return f8_mul(f8_set1(-job->k.wendland_grad), f8_mul(f8_mul(d, d), d));
	}
	f8 d = f8_sub(f8_set1(job->k.h2), r2);
	return f8_mul(f8_set1(-job->k.poly6_grad), f8_mul(d, d));
}

/* The passes run four neighbour candidates at a time with simd.h, like relax.c: lane k of a
 * neighbour run sums candidates k, k+8, ..., and every backend gives the same bits. Lanes past
 * the run's end or beyond h are masked to +0 before they are added. */

/* Eight floats from an array that has no SIMD padding (the normals): lanes past `end` read 0. */
static inline f8 load_upto(const float* a, int j, int end)
{
	float v[PDL_LANES] = {0};
	for (int k = 0; k < PDL_LANES && j + k < end; ++k) v[k] = a[j + k];
	return f8_load(v);
}

/* 3. Density (Mueller eq. 3 with Wendland C2, or Poly6 eq. 20) and the equation of state. The runs include i itself
 * (r = 0), so the self term m_i W(0) is in the sum: without it an isolated particle would have
 * zero density. */
static inline void density_pass(void* ctx, int begin, int end, bool three)
{
	sph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	const pdl_sph_def* s = &w->def.sph;
	const float h = job->k.h, h2 = job->k.h2, inv_h = 1.0f / h;
	const float *px = p->x, *py = p->y, *pz = p->z;
	const f8 h2v = f8_set1(h2), mass0 = f8_set1(job->mass[0]);
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const float xi = px[i], yi = py[i], zi = three ? pz[i] : 0;
		const f8 xi4 = f8_set1(xi), yi4 = f8_set1(yi), zi4 = f8_set1(zi);
		f8 sum = f8_set1(0);
		pdl_grid_runs_of(g, i, xi, yi, zi, &runs, &cached);
		for (int r = 0; r < runs.count; ++r)
			for (int j = runs.begin[r]; j < runs.end[r]; j += PDL_LANES) {
				f8 dx = f8_sub(f8_load(px + j), xi4), dy = f8_sub(f8_load(py + j), yi4);
				f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
				if (three) {
					f8 dz = f8_sub(f8_load(pz + j), zi4);
					r2 = f8_add(r2, f8_mul(dz, dz));
				}
				m8 in = m8_and(m8_lanes(j, runs.end[r], -1), f8_lt(r2, h2v)); /* self included */
				f8 m = job->uniform_mass ? mass0 : f8_gather(job->mass, p->material + j);
				sum = f8_add(sum, f8_mask(in, f8_mul(m, kernel_shape(job, r2, job->wendland ? f8_sqrt(r2) : r2))));
			}
		float rho0 = job->rest[p->material[i]], rho = (job->wendland ? job->k.wendland : job->k.poly6) * f8_sum(sum);
		pdl_sph_wall_contact walls[PDL_SPH_MAX_CONTACTS];
		const float at[3] = {xi, yi, zi};
		int nw = pdl_sph_wall_contacts(w->boundaries, w->boundary_count, at, h, three, walls);
		for (int c = 0; c < nw; ++c) rho += rho0 * pdl_sph_table_at(w->sph_wall_density, walls[c].d * inv_h);
		/* Tait: B = rho0 c^2 / gamma, so dp/drho = c^2 at rho0 for both laws. Negative pressure
		 * (a particle with fewer neighbours than at rest: the free surface, a splash) is
		 * clamped to 0: it would pull particles together into clumps (tensile instability). */
		float pressure = pdl_sph_pressure(s, rho, rho0);
		p->density[i] = rho;
		p->pressure[i] = pressure > 0 ? pressure : 0;
	}
}

static void density_range(void* ctx, int begin, int end) { density_pass(ctx, begin, end, false); }
static void density_range_3d(void* ctx, int begin, int end) { density_pass(ctx, begin, end, true); }

/* 4. Surface normals for the curvature term, Akinci 2013 eq. 5: n_i = h sum_j m_j / rho_j
 * grad W(x_i - x_j), with the density kernel's gradient. |n| is about 1 at the surface and 0
 * inside. */
static inline void normals_pass(void* ctx, int begin, int end, bool three)
{
	sph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	const float h = job->k.h;
	const float *px = p->x, *py = p->y, *pz = p->z, *rho = p->density;
	const f8 h2v = f8_set1(job->k.h2), mass0 = f8_set1(job->mass[0]);
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const f8 xi = f8_set1(px[i]), yi = f8_set1(py[i]), zi = f8_set1(three ? pz[i] : 0);
		f8 nx = f8_set1(0), ny = f8_set1(0), nz = f8_set1(0), dz = f8_set1(0);
		pdl_grid_runs_of(g, i, px[i], py[i], three ? pz[i] : 0, &runs, &cached);
		for (int r = 0; r < runs.count; ++r)
			for (int j = runs.begin[r]; j < runs.end[r]; j += PDL_LANES) {
				f8 dx = f8_sub(xi, f8_load(px + j)), dy = f8_sub(yi, f8_load(py + j));
				f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
				if (three) {
					dz = f8_sub(zi, f8_load(pz + j));
					r2 = f8_add(r2, f8_mul(dz, dz));
				}
				m8 in = m8_and(m8_lanes(j, runs.end[r], i), f8_lt(r2, h2v));
				if (!m8_bits(in)) continue;
				f8 m = job->uniform_mass ? mass0 : f8_gather(job->mass, p->material + j);
				f8 grad = kernel_grad_scale(job, r2, job->wendland ? f8_sqrt(r2) : r2);
				f8 sc = f8_mask(in, f8_mul(f8_div(m, f8_load(rho + j)), grad));
				nx = f8_add(nx, f8_mul(sc, dx));
				ny = f8_add(ny, f8_mul(sc, dy));
				if (three) nz = f8_add(nz, f8_mul(sc, dz));
			}
		p->xp2[i] = h * f8_sum(nx);
		p->yp2[i] = h * f8_sum(ny);
		if (three) p->zp2[i] = h * f8_sum(nz);
	}
}

static void normals_range(void* ctx, int begin, int end) { normals_pass(ctx, begin, end, false); }
static void normals_range_3d(void* ctx, int begin, int end) { normals_pass(ctx, begin, end, true); }

/* 5. Internal forces and symplectic Euler. For each neighbour j within h, with u the unit vector
 * from j to i, r = |x_i - x_j|, and the symmetric weight s_ij = 2 m_j / (rho_i + rho_j):
 *
 *   pressure   a_i += m_j (p_i / rho_i^2 + p_j / rho_j^2) L_ij |grad W(r)| u
 *              (Mueller eq. 10 in Monaghan's symmetric form: equal and opposite pair forces),
 *              W = Wendland C2 (default), Poly6 or Spiky (world.sph.pressure_kernel, types.h).
 *              With Wendland, L_ij is the mean of the two materials' gradient correction
 *              (pdl_dfsph_gradient_correction; dfsph.c's head has why): the particles' sum is
 *              then exact for a linear pressure on the rest lattice, and still water holds its
 *              weight with the hydrostatic pressure rho g depth, not 1.2 % (2D) or 4.6 % (3D)
 *              more. 1 with the other kernels.
 *   viscosity  a_i += nu s_ij (v_j - v_i) lap W_visc(r)       (Mueller eq. 14, symmetrised)
 *   cohesion   a_i -= gamma_st s_ij C(r) u                     (Akinci eq. 2, per unit mass)
 *   curvature  a_i -= gamma_st K_ij s_ij / h^2 (n_i - n_j),    (Akinci eq. 4 and 1)
 *              K_ij = (rho0_i + rho0_j) / (rho_i + rho_j)
 *   XSPH       v_i += eps s_ij W_poly6(r) (v_j - v_i)          (Monaghan 1989)
 *
 * Akinci writes the forces per particle, -gamma m_i m_j C u and -gamma m_i (n_i - n_j), so
 * their balance depends on the mass unit. Here both are accelerations of order gamma_st: the
 * cohesion weighted by the neighbour's volume s_ij ~ m_j / rho_j (C has units 1 / area), the
 * curvature term by s_ij / h^2 (summed over a neighbourhood, s_ij / h^2 adds up to about pi),
 * instead of once per neighbour (about 25 times as strong; measured, gamma_st = 100 then
 * drives a dam break to 50 h/s). Every pair term is antisymmetric: s_ij m_i = s_ji m_j.
 *
 * Two particles at the same place take the pair's fixed direction (core.h), so they separate
 * instead of producing 0/0. */
static inline void internal_pass(void* ctx, int begin, int end, bool three)
{
	sph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	const pdl_kernels* k = &job->k;
	const float h = k->h, inv_h = 1.0f / h, dt = job->dt, nu = w->def.sph.viscosity;
	const float gamma_st = w->def.sph.surface_tension, eps = job->xsph;
	const bool spiky = w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_SPIKY, tension = job->tension;
	const float *px = p->x, *py = p->y, *pz = p->z, *pvx = p->vx, *pvy = p->vy, *pvz = p->vz;
	const float *rho = p->density, *pressure = p->pressure, *nxs = p->xp2, *nys = p->yp2, *nzs = p->zp2;
	const f8 zero = f8_set1(0), two = f8_set1(2), hv = f8_set1(h), h2v = f8_set1(k->h2);
	const f8 mass0 = f8_set1(job->mass[0]);
	const f8 spiky_c = f8_set1(k->spiky_grad), lap_c = f8_set1(k->viscosity_lap);
	const f8 kernel_c = f8_set1(job->wendland ? k->wendland : k->poly6), coh_c = f8_set1(k->cohesion), inv_h2 = f8_set1(1.0f / k->h2);
	const f8 h6_64 = f8_set1(k->h2 * k->h2 * k->h2 / 64.0f), half_h = f8_set1(0.5f * h);
	pdl_grid_runs runs = {0};
	pdl_grid_cell cached = {.valid = false};
	for (int i = begin; i < end; ++i) {
		const float xi = px[i], yi = py[i], vxi = pvx[i], vyi = pvy[i], rhoi = rho[i];
		const float zi = three ? pz[i] : 0, vzi = three ? pvz[i] : 0;
		const float pi_term = pressure[i] / (rhoi * rhoi), rho0i = job->rest[p->material[i]];
		const f8 xi4 = f8_set1(xi), yi4 = f8_set1(yi), vxi4 = f8_set1(vxi), vyi4 = f8_set1(vyi);
		const f8 zi4 = f8_set1(zi), vzi4 = f8_set1(vzi);
		const f8 rhoi4 = f8_set1(rhoi), pi4 = f8_set1(pi_term), rho0i4 = f8_set1(rho0i);
		const f8 li4 = f8_set1(job->correction[p->material[i]]);
		const f8 nxi = f8_set1(tension ? nxs[i] : 0), nyi = f8_set1(tension ? nys[i] : 0);
		const f8 nzi = f8_set1(tension && three ? nzs[i] : 0);
		f8 ax = zero, ay = zero, az = zero, lapx = zero, lapy = zero, lapz = zero;
		f8 smx = zero, smy = zero, smz = zero, dz = zero;
		float same_place[3] = {0, 0, 0}; /* pairs at the same place */
		pdl_grid_runs_of(g, i, xi, yi, zi, &runs, &cached);
		for (int r = 0; r < runs.count; ++r) {
			const int run_end = runs.end[r];
			for (int j = runs.begin[r]; j < run_end; j += PDL_LANES) {
				f8 dx = f8_sub(xi4, f8_load(px + j)), dy = f8_sub(yi4, f8_load(py + j));
				f8 r2 = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
				if (three) {
					dz = f8_sub(zi4, f8_load(pz + j));
					r2 = f8_add(r2, f8_mul(dz, dz));
				}
				m8 in = m8_and(m8_lanes(j, run_end, i), f8_lt(r2, h2v));
				if (!m8_bits(in)) continue;
				f8 dist = f8_sqrt(r2), hr = f8_sub(hv, dist);
				f8 rhoj = f8_load(rho + j);
				f8 mj = job->uniform_mass ? mass0 : f8_gather(job->mass, p->material + j);
				f8 sym = f8_div(f8_mul(two, mj), f8_add(rhoi4, rhoj));
				/* |grad W| along u: Spiky 30/(pi h^5) (h - r)^2, else -s r with s the density
				 * kernel's gradient scale */
				f8 grad = spiky ? f8_mul(spiky_c, f8_mul(hr, hr))
				                : f8_mul(f8_sub(f8_set1(0), kernel_grad_scale(job, r2, dist)), dist);
				f8 fp = f8_mul(f8_mul(mj, f8_add(pi4, f8_div(f8_load(pressure + j), f8_mul(rhoj, rhoj)))), grad);
				fp = f8_mul(fp, job->uniform_correction ? li4 : f8_mul(f8_set1(0.5f), f8_add(li4, f8_gather(job->correction, p->material + j))));
				f8 coh = zero;
				if (tension) { /* Akinci's spline, the inner branch below h / 2 */
					f8 a = f8_mul(hr, dist), s3 = f8_mul(f8_mul(a, a), a);
					m8 inner = f8_lt(dist, half_h);
					f8 spline = f8_add(f8_mask(inner, f8_sub(f8_mul(two, s3), h6_64)), f8_mask(m8_andnot(inner, in), s3));
					coh = f8_mul(sym, f8_mul(coh_c, spline));
				}
				/* along u = (dx, dy) / r; pairs at the same place below */
				f8 along = f8_sub(fp, f8_mul(f8_set1(gamma_st), coh));
				m8 apart = m8_and(in, f8_gt(r2, zero));
				f8 scale = f8_mask(apart, f8_div(along, dist));
				ax = f8_add(ax, f8_mul(scale, dx));
				ay = f8_add(ay, f8_mul(scale, dy));
				if (three) az = f8_add(az, f8_mul(scale, dz));
				int same = m8_bits(m8_andnot(apart, in));
				if (same) { /* along the fixed direction from i to j */
					float al[PDL_LANES];
					f8_store(al, along);
					pdl_coincident_lanes(same, al, p->id, i, NULL, j, three, same_place);
				}
				f8 dvx = f8_sub(f8_load(pvx + j), vxi4), dvy = f8_sub(f8_load(pvy + j), vyi4);
				f8 lv = f8_mask(in, f8_mul(sym, f8_mul(lap_c, hr)));
				lapx = f8_add(lapx, f8_mul(lv, dvx));
				lapy = f8_add(lapy, f8_mul(lv, dvy));
				f8 ws = f8_mask(in, f8_mul(sym, f8_mul(kernel_c, kernel_shape(job, r2, dist))));
				smx = f8_add(smx, f8_mul(ws, dvx));
				smy = f8_add(smy, f8_mul(ws, dvy));
				if (three) {
					f8 dvz = f8_sub(f8_load(pvz + j), vzi4);
					lapz = f8_add(lapz, f8_mul(lv, dvz));
					smz = f8_add(smz, f8_mul(ws, dvz));
				}
				if (tension) {
					f8 rho0j = f8_gather(job->rest, p->material + j);
					f8 curv = f8_mask(in, f8_mul(f8_div(f8_add(rho0i4, rho0j), f8_add(rhoi4, rhoj)), f8_mul(sym, inv_h2)));
					f8 nxj = load_upto(nxs, j, run_end), nyj = load_upto(nys, j, run_end);
					ax = f8_sub(ax, f8_mul(f8_set1(gamma_st), f8_mul(curv, f8_sub(nxi, nxj))));
					ay = f8_sub(ay, f8_mul(f8_set1(gamma_st), f8_mul(curv, f8_sub(nyi, nyj))));
					if (three) {
						f8 nzj = load_upto(nzs, j, run_end);
						az = f8_sub(az, f8_mul(f8_set1(gamma_st), f8_mul(curv, f8_sub(nzi, nzj))));
					}
				}
			}
		}
		float f[3] = {f8_sum(ax) + same_place[0] + nu * f8_sum(lapx),
		              f8_sum(ay) + same_place[1] + nu * f8_sum(lapy),
		              three ? f8_sum(az) + same_place[2] + nu * f8_sum(lapz) : 0};
		pdl_sph_wall_contact walls[PDL_SPH_MAX_CONTACTS];
		const float at[3] = {xi, yi, zi};
		int nw = pdl_sph_wall_contacts(w->boundaries, w->boundary_count, at, h, three, walls);
		float push[PDL_SPH_MAX_CONTACTS];
		for (int c = 0; c < nw; ++c) {
			push[c] = pi_term * rho0i * pdl_sph_table_at(w->sph_wall_force, walls[c].d * inv_h) * inv_h;
			for (int e = 0; e < 3; ++e) f[e] += push[c] * walls[c].n[e];
		}
		float v[3] = {vxi + dt * f[0] + eps * f8_sum(smx), vyi + dt * f[1] + eps * f8_sum(smy),
		              three ? vzi + dt * f[2] + eps * f8_sum(smz) : 0};
		/* Coulomb friction against each wall that pushes (walls.h) */
		pdl_sph_wall_friction(v, walls, push, nw, w->boundaries, w->materials[p->material[i]].def.wall_friction, dt,
		                      three);
		p->vx2[i] = v[0];
		p->vy2[i] = v[1];
		p->xp[i] = xi;
		p->yp[i] = yi;
		p->x2[i] = xi + dt * v[0];
		p->y2[i] = yi + dt * v[1];
		if (three) {
			p->vz2[i] = v[2];
			p->zp[i] = zi;
			p->z2[i] = zi + dt * v[2];
		}
	}
}

static void internal_range(void* ctx, int begin, int end) { internal_pass(ctx, begin, end, false); }
static void internal_range_3d(void* ctx, int begin, int end) { internal_pass(ctx, begin, end, true); }

/* ---- The step ------------------------------------------------------------------------------- */

void pdl_sph_step(pdl_world* w, pdl_profile* prof)
{
	double start = pdl_now_ms(), t = start;
	particles* p = &w->p;
	pdl_sph_prepare(w);
	int n = p->count > 0 ? pdl_sph_substeps(w) : (w->def.substeps > 1 ? w->def.substeps : 1);
	if (w->next_substeps > 0) n = w->next_substeps; /* a split world's, from all its processes */
	w->next_substeps = 0;
	float dt = w->def.dt / (float)n;
	const bool three = PDL_IS_3D(w);
	sph_job job = {.w = w, .dt = dt, .k = pdl_kernels_make(three ? 3 : 2, w->def.interaction_radius)};
	for (int m = 0; m < w->material_count; ++m) {
		job.mass[m] = w->materials[m].def.mass;
		job.rest[m] = w->materials[m].sph_rest_density;
	}
	job.xsph = pdl_sph_xsph_share(w, dt);
	job.tension = w->def.sph.surface_tension > 0;
	job.uniform_mass = w->uniform_mass;
	job.wendland = w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND;
	job.uniform_correction = true;
	for (int m = 0; m < w->material_count; ++m) {
		job.correction[m] = pdl_sph_gradient_correction(w, m);
		job.uniform_correction &= job.correction[m] == job.correction[0];
	}
	/* rigid bodies (body_step.c) take their turns between the fluid's passes */
	const bool bodies = pdl_bodies_active(w), fluid = p->count > 0;
	if (bodies) pdl_bodies_begin_frame(w);
	for (int sub = 0; sub < n; ++sub) {
		if (fluid) pdl_stage_forces(w, dt);
		if (bodies) pdl_bodies_forces(w, dt);
		prof->forces += pdl_since(&t);
		if (fluid) {
			pdl_grid_build(&w->grid, w->pool, p->count, p->x, p->y, p->z, p->id, w->def.interaction_radius);
			pdl_particles_permute(w, w->grid.order, false);
		}
		prof->predict += pdl_since(&t);
		if (bodies) pdl_bodies_sph_sample(w);
		prof->bodies += pdl_since(&t);
		if (fluid) {
			pdl_pool_for(w->pool, p->count, 256, three ? density_range_3d : density_range, &job);
			if (bodies) pdl_bodies_sph_density(w, dt);
			if (job.tension)
				pdl_pool_for(w->pool, p->count, 256, three ? normals_range_3d : normals_range, &job);
		}
		prof->density += pdl_since(&t);
		if (fluid) pdl_pool_for(w->pool, p->count, 256, three ? internal_range_3d : internal_range, &job);
		prof->relax += pdl_since(&t);
		if (bodies) pdl_bodies_sph_forces(w, dt);
		prof->bodies += pdl_since(&t);
		if (fluid) {
			pdl_swap(&p->x, &p->x2);
			pdl_swap(&p->y, &p->y2);
			pdl_swap(&p->vx, &p->vx2);
			pdl_swap(&p->vy, &p->vy2);
			if (three) {
				pdl_swap(&p->z, &p->z2);
				pdl_swap(&p->vz, &p->vz2);
			}
			pdl_stage_boundaries(w, dt);
		}
		prof->boundaries += pdl_since(&t);
		if (bodies) pdl_bodies_collide(w, dt);
		prof->bodies += pdl_since(&t);
		if (fluid) pdl_stage_velocity(w, dt);
		prof->velocity += pdl_since(&t);
		if (bodies) pdl_bodies_velocity(w, dt);
		prof->bodies += pdl_since(&t);
		w->steps++;
		w->time += dt;
	}
	if (bodies) pdl_bodies_end_frame(w, w->def.dt);
	if (!bodies) prof->bodies = 0; /* what was summed is the timers' own cost between two stages */
	prof->substeps = n;
	prof->step = (float)(pdl_now_ms() - start);
}
