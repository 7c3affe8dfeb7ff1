/* The third solver: divergence-free SPH after Bender & Koschier 2015 ("Divergence-Free Smoothed
 * Particle Hydrodynamics", SCA 2015) and 2017 ("Divergence-Free SPH for Incompressible and
 * Viscous Fluids", IEEE TVCG 23(3)): incompressible water. World def: solver = PDL_SOLVER_DFSPH,
 * settings in world.sph (include/puddle/types.h); docs/physics.md, "DFSPH", has the equations.
 *
 * Notation. Every particle carries a rest volume V_i (its material's: the inverse of the
 * kernel's sum over the fill lattice, so a fill starts exactly at rest) and a mass
 * m_i = rho0_i V_i. The solver works with the relative density
 *
 *   rho^_i = sum_j V_j W_ij + psi_i        (self included; psi: the walls' share, below)
 *
 * which is 1 at rest whatever the material, so that fluids of different densities are each
 * incompressible and meet without a density jump at their interface (the volume form of
 * Solenthaler & Pajarola 2008). p_i is a physical pressure; the pressure force is the one that
 * conserves momentum and energy for the constraint rho^_i = 1:
 *
 *   a_i = -(1 / rho0_i) (sum_j V_j (p_i + p_j) L_ij grad W_ij + p_i grad psi_i)     (1)
 *
 * (from F_i = -sum_k V_k p_k grad_i rho^_k). L_ij, the mean of the two materials'
 * pdl_dfsph_gradient_correction, is a constant (1.012 for 2D water, 1.048 in 3D) that makes the
 * particles' sum exact for a linear pressure on the rest lattice: uncorrected, sum_j V_j p_j
 * grad W_ij there gives 0.988 (2D) and 0.954 (3D) of grad p (Wendland C2 with few neighbours),
 * so still water needed that much more pressure to hold its weight, and pushed bodies and
 * walls that much harder (the half-space's integral grad psi is exact and is left as it is).
 * It is the rest lattice's value of the correction matrix of Bonet & Lok 1999 (Comput.
 * Methods Appl. Mech. Engrg. 180, 97), kept constant so that the force stays symmetric and
 * conserves momentum. Its effect on rho^_i's rate of change through p_i alone gives the DFSPH
 * factor (B&K 2017 eq. 11 in this form):
 *
 *   alpha_i = 1 / (g_i . g'_i / rho0_i + V_i sum_j V_j L_ij |grad W_ij|^2 / rho0_j),
 *   g_i = sum_j V_j grad W_ij + grad psi_i,  g'_i = sum_j V_j L_ij grad W_ij + grad psi_i (2)
 *
 * Each substep of dt (n substeps a frame from the CFL rule, pdl_dfsph_substeps_for):
 *
 *   1. grid      sort the particles into the neighbour grid at x
 *   2. density   rho^_i and alpha_i (one pass; positions only)
 *   3. divergence solve (B&K 2017 alg. 2): iterations of
 *                  b_i = dt D rho^_i / Dt,  D rho^_i / Dt = sum_j V_j (v_i - v_j).grad W_ij
 *                                                       + (v_i - v_wall).grad psi_i
 *                  p_i <- max(0, p_i + omega_i b_i alpha_i / dt^2);  v_i += dt a_i(change of p)
 *                until the rate of compression is below sph.divergence_tolerance (the
 *                particles below 0.95 of their rest density, the free surface and spray, are
 *                left alone: SPlisHSPlasH does the same by neighbour count)
 *   4. forces    v += dt (g + pointers), then viscosity, XSPH, surface tension (one pass), which
 *                also applies the density solve's warm start (below) when the bodies are not coupled
 *   5. density solve (alg. 3): the same iterations with b_i = rho^_i - 1 + dt D rho^_i / Dt,
 *                until the predicted compression is below sph.density_tolerance
 *   6. advance   wall friction, x += dt v
 *   7. walls     boundary.c's collisions, as a safety net (the walls' psi keeps particles off)
 *   8. velocity  v = (x - x_prev) / dt
 *
 * The iterations are B&K's Jacobi steps, damped by omega_i (pdl_dfsph_jacobi_weight: on the
 * fill lattice B&K's undamped step lets a checkerboard of pressure grow) and projected: the
 * pressures stay >= 0 (Ihmsen et al. 2014 clamp IISPH's the same way), so a free surface is
 * not pulled together. Each solve starts from the pressure its last solve ended with (warm
 * start, B&K 2017 sec. 4.1): particles.near_pressure (Clavet's, unused here) keeps the
 * divergence solve's, and particles.pressure the sum of both, the fluid's pressure (each pushes
 * for a whole substep; in still water the share of the weight each holds up swings from
 * substep to substep); the density solve takes its own back as the difference. Both move with their particles.
 * A solve's warm start is a pressure pass of the pressures it starts from. The density solve's reads only the
 * lists and those pressures, not the velocities, so the forces pass (step 4) applies it to its own result, the
 * same dv in the same float operations (pressure_acceleration): one pass over the pairs less a substep, the same
 * bits. Not while rigid bodies are coupled to the solves: they move after every pressure pass (couple_bodies).
 *
 * Walls are volume maps in closed form (Koschier & Bender 2017, "Density maps for improved SPH
 * boundary handling"): the space behind a wall counts as fluid at rest, psi_i = F(d_i / h),
 * grad psi_i = -G(d_i / h) / h n, with F and G the kernel integrated over the half-space
 * and the plane at distance d (tables built once, sph.c's pdl_wall_tables). The wall moves
 * with its velocity; it takes no force back.
 *
 * Determinism: every pass is a gather in grid order (particle i reads its neighbours and writes
 * only its own entries), and each solve's mean error is summed exactly (fixed point, so in any
 * order: solve_error), so the iteration counts and every bit are the same for any thread count.
 *
 * A split world (partition.h, the MPI layer's ghosts) holds its own particles and ghosts of its
 * neighbours' one cell reach around them: the ghost function brings them in before each
 * substep's grid (PDL_GHOST_POSITIONS), hands them their owners' values after every pass that
 * changes what a neighbour reads (PDL_GHOST_FIELDS: velocities after each pressure and the
 * viscosity pass, the warm-start pressures, the density solve's before the forces pass that applies
 * them, densities and normals for the surface tension), and
 * sums each iteration's error over every process (PDL_GHOST_ERROR, with the iteration's
 * pressure change in the same exchange), so every process ends each solve after the whole
 * world's iterations. */
#define DFSPH_LOOP(name) pdl_dfsph_##name
#include "dfsph_loops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Rest volume: the kernel over the fill lattice ------------------------------------------- */

/* The points of the fill lattice of the given spacing closer than h to the origin, origin
 * included, in double: 2D the hexagonal lattice of pdl_world_fill (rows spacing sqrt(3)/2
 * apart, odd rows shifted by half a spacing), 3D its face-centred cubic lattice (points
 * (i, j, k) a with i + j + k even, a = spacing / sqrt 2). Returns them (to be freed) and their
 * number in *n; NULL when out of memory. */
static double (*lattice_points(double h, double spacing, bool three, int* n))[3]
{
	const int reach = (int)ceil(2.0 * h / spacing) + 1, side = 2 * reach + 1;
	double(*pt)[3] = malloc((size_t)side * side * (three ? side : 1) * sizeof *pt);
	*n = 0;
	if (!pt) return NULL;
	for (int k = three ? -reach : 0; k <= (three ? reach : 0); ++k)
		for (int j = -reach; j <= reach; ++j)
			for (int i = -reach; i <= reach; ++i) {
				double p[3];
				if (three) {
					if ((i + j + k) & 1) continue;
					double a = spacing * 0.70710678118654752;
					p[0] = i * a, p[1] = j * a, p[2] = k * a;
				} else {
					p[0] = i * spacing + ((j & 1) ? 0.5 * spacing : 0.0), p[1] = j * spacing * 0.8660254037844386, p[2] = 0;
				}
				if (!(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] < h * h)) continue;
				for (int e = 0; e < 3; ++e) pt[*n][e] = p[e];
				++*n;
			}
	return pt;
}

/* The kernel's moments over the fill lattice: *sum = sum_j W(r_j) (self included) and *moment =
 * sum_j r_j |grad W(r_j)|, Wendland C2 (kernels.h). False when out of memory. */
static bool lattice_moments(double h, double spacing, bool three, double* sum, double* moment)
{
	const double sigma = three ? 21.0 / (2.0 * PDL_PI * h * h * h) : 7.0 / (PDL_PI * h * h);
	int n;
	double(*pt)[3] = lattice_points(h, spacing, three, &n);
	if (!pt) return false;
	*sum = *moment = 0;
	for (int m = 0; m < n; ++m) {
		double q = sqrt(pt[m][0] * pt[m][0] + pt[m][1] * pt[m][1] + pt[m][2] * pt[m][2]) / h, d = 1 - q;
		*sum += pdl_wendland_shape(q) * sigma;
		*moment += 20.0 * sigma * d * d * d * q * q; /* r |grad W| = wendland_grad (1 - q)^3 r^2 */
	}
	free(pt);
	return true;
}

static double lattice_sum(double h, double spacing, bool three)
{
	double sum, moment;
	return lattice_moments(h, spacing, three, &sum, &moment) ? sum : 0;
}

/* The largest eigenvalue of the Jacobi iteration's matrix D^-1 A on the fill lattice, where
 * A p is what the pressures p do to the predicted densities (eq. 1 into the compression) and D
 * its diagonal (1 / alpha). On a lattice A is diagonal in Fourier space: a pressure wave of
 * wave vector k changes rho^ by -dt^2 |g(k)|^2 / rho0 with g(k) = V sum_j grad W(r_j) sin(k.r_j)
 * (in the bulk, where sum_j grad W = 0), and D = V^2 sum_j |grad W(r_j)|^2 / rho0, so
 *   lambda_max = max_k |sum_j grad W(r_j) sin(k.r_j)|^2 / sum_j |grad W(r_j)|^2.
 * It is more than 2 at every spacing the fills use: plain Jacobi (B&K's omega = 1) lets a
 * checkerboard of pressure grow without bound, so the iteration is damped to omega =
 * 1 / lambda_max. (1.5 / lambda_max, which shrinks every mode of the lattice, still let the
 * pressure of particles pressed into a wall or a corner grow without bound: a dam break's jet
 * reaching the tank's lid went NaN within a frame.)
 * Scanned over wave vectors on a grid covering the lattice's first Brillouin zone with margin
 * (2D 96^2, 3D 28^3 points). */
static double lattice_jacobi_bound(double h, double spacing, bool three)
{
	int all;
	double(*r)[3] = lattice_points(h, spacing, three, &all), (*gw)[3] = malloc((size_t)(all > 0 ? all : 1) * sizeof *gw),
	    diagonal = 0;
	if (!r || !gw) {
		free(r), free(gw);
		return 2; /* omega 1/2: safe on every lattice the fills make */
	}
	int n = 0;
	for (int m = 0; m < all; ++m) {
		double d = sqrt(r[m][0] * r[m][0] + r[m][1] * r[m][1] + r[m][2] * r[m][2]), q = d / h;
		if (!(d > 0)) continue;
		double s = -20.0 * (1 - q) * (1 - q) * (1 - q) / (h * h); /* Wendland C2: dW/dr / r, unscaled */
		for (int e = 0; e < 3; ++e) r[n][e] = r[m][e], gw[n][e] = s * r[m][e];
		diagonal += s * s * d * d;
		n++;
	}
	if (!(diagonal > 0)) {
		free(r), free(gw);
		return 1;
	}
	const int steps = three ? 28 : 96;
	const double reach_k = 1.25 * 2.0 * PDL_PI / spacing, dk = 2.0 * reach_k / steps;
	double most = 0;
	for (int c = 0; c <= (three ? steps : 0); ++c)
		for (int b = 0; b <= steps; ++b)
			for (int a = 0; a <= steps; ++a) {
				double kv[3] = {-reach_k + a * dk, -reach_k + b * dk, three ? -reach_k + c * dk : 0}, g[3] = {0, 0, 0};
				for (int m = 0; m < n; ++m) {
					double sn = sin(kv[0] * r[m][0] + kv[1] * r[m][1] + kv[2] * r[m][2]);
					for (int e = 0; e < 3; ++e) g[e] += gw[m][e] * sn;
				}
				most = fmax(most, g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
			}
	free(r), free(gw);
	return most / diagonal;
}

float pdl_dfsph_jacobi_weight(float h, float spacing, bool three)
{
	if (!(h > 0) || !(spacing > 0) || !isfinite(h) || !isfinite(spacing) || spacing < 0.05f * h) return 0.5f;
	return (float)fmin(1.0, 1.0 / lattice_jacobi_bound(h, spacing, three));
}

float pdl_dfsph_rest_volume(float h, float spacing, bool three)
{
	if (!(h > 0) || !(spacing > 0) || !isfinite(h) || !isfinite(spacing)) return 0;
	double sum = lattice_sum(h, spacing, three);
	return sum > 0 ? (float)(1.0 / sum) : 0;
}

float pdl_dfsph_gradient_correction(float h, float spacing, bool three)
{
	double sum, moment;
	if (!(h > 0) || !(spacing > 0) || !isfinite(h) || !isfinite(spacing) ||
	    !lattice_moments(h, spacing, three, &sum, &moment) || !(sum > 0) || !(moment > 0))
		return 1;
	return (float)((three ? 3 : 2) * sum / moment);
}

void pdl_dfsph_prepare(pdl_world* w)
{
	if (w->dfsph_wall_ready) return;
	pdl_wall_tables(pdl_wendland_plane, PDL_IS_3D(w), w->dfsph_wall_density, w->dfsph_wall_force);
	w->dfsph_wall_ready = true;
}

/* ---- The CFL rule --------------------------------------------------------------------------- */

int pdl_dfsph_substeps_for(const pdl_world* w, float v2max)
{
	const pdl_sph_def* s = &w->def.sph;
	int least = w->def.substeps > 1 ? w->def.substeps : 1;
	if (least > s->max_substeps) least = s->max_substeps;
	/* s: the smallest rest spacing, the particle "diameter" of B&K 2017 sec. 4.3 */
	double spacing = INFINITY, scale = 0;
	for (int m = 0; m < w->material_count; ++m) {
		spacing = fmin(spacing, w->materials[m].rest_spacing);
		scale = fmax(scale, fabs(w->materials[m].def.gravity_scale));
	}
	if (!(spacing < INFINITY)) spacing = w->def.interaction_radius;
	pdl_vec3 g = w->def.gravity;
	double a = sqrt((double)g.x * g.x + (double)g.y * g.y + (PDL_IS_3D(w) ? (double)g.z * g.z : 0)) * scale +
	           s->surface_tension;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k)
		if (w->pointer_active[k]) a += fabs(w->pointers[k].strength);
	/* a particle moves at most cfl spacings a substep: from its speed, and from rest under the
	 * forces (cfl^2 s / 2); explicit viscosity stays stable (diffusion number below 1/8) */
	double h = w->def.interaction_radius, dt_max = INFINITY, v = sqrt((double)v2max);
	if (v > 0) dt_max = s->cfl * spacing / v;
	if (a > 0) dt_max = fmin(dt_max, s->cfl * sqrt(spacing / a));
	if (s->viscosity > 0) dt_max = fmin(dt_max, s->cfl * h * h / (8.0 * s->viscosity));
	double n = ceil(w->def.dt / dt_max);
	if (!(n <= s->max_substeps)) return s->max_substeps; /* also NaN */
	return n < least ? least : (int)n;
}

/* ---- The passes: the loops of dfsph_loops.h, in the copy this processor runs -------------- */

/* The entry points of a copy of the loops (sfx: nothing for dfsph.c's own, _avx2, _avx512). */
#define DFSPH_LOOP_NAMES(F, sfx)                                                                  \
	F(pdl_dfsph_scan_range##sfx) F(pdl_dfsph_scan_range_3d##sfx) F(pdl_dfsph_density_range##sfx)   \
	F(pdl_dfsph_density_range_3d##sfx) F(pdl_dfsph_pressure_range##sfx)                          \
	F(pdl_dfsph_compression_range##sfx) F(pdl_dfsph_forces_range##sfx) F(pdl_dfsph_forces_range_3d##sfx)
typedef struct dfsph_loops {
	pdl_task_fn *scan[2], *density[2], *pressure, *compression, *forces[2]; /* [3D] */
} dfsph_loops;
#define DFSPH_COPY(sfx)                                                                            \
	{{pdl_dfsph_scan_range##sfx, pdl_dfsph_scan_range_3d##sfx},                                 \
	 {pdl_dfsph_density_range##sfx, pdl_dfsph_density_range_3d##sfx},                           \
	 pdl_dfsph_pressure_range##sfx,                                                            \
	 pdl_dfsph_compression_range##sfx,                                                         \
	 {pdl_dfsph_forces_range##sfx, pdl_dfsph_forces_range_3d##sfx}}
#if PDL_HAVE_AVX2_LOOPS
#define DECLARE_LOOP(name) void name(void* ctx, int begin, int end);
DFSPH_LOOP_NAMES(DECLARE_LOOP, _avx2)
DFSPH_LOOP_NAMES(DECLARE_LOOP, _avx512)
/* by pdl_loops */
static const dfsph_loops loop_copies[] = {DFSPH_COPY(), DFSPH_COPY(_avx2), DFSPH_COPY(_avx512)};
#else
static const dfsph_loops loop_copies[] = {DFSPH_COPY()};
#endif

static const dfsph_loops* loops_of(const pdl_world* w) { return &loop_copies[w->loops]; }

/* ---- Neighbour lists (dfsph_loops.h has the scan) ------------------------------------------- */


/* Scans the neighbours (scan_pass) and sizes the lists: the rows' starts, room for the pairs. The
 * density pass fills them. False when out of memory. */
static bool scan_neighbours(dfsph_job* job)
{
	pdl_world* w = job->w;
	const int n = w->p.count;
	const bool three = PDL_IS_3D(w);
	for (;;) {
		if (w->dfsph_list_stride == 0) w->dfsph_list_stride = three ? 64 : 32; /* 1.5 times the rest lattice's */
		const size_t slots = (size_t)w->dfsph_capacity * (size_t)w->dfsph_list_stride;
		if (w->dfsph_scan_slots < slots) {
			int32_t* scan = realloc(w->dfsph_scan, slots * sizeof *scan);
			if (!scan) return false;
			w->dfsph_scan = scan;
			w->dfsph_scan_slots = slots;
		}
		pdl_pool_for(w->pool, n, 256, loops_of(w)->scan[three], job);
		int64_t most = 0;
		for (int i = 0; i < n; ++i) most = w->dfsph_row[i + 1] > most ? w->dfsph_row[i + 1] : most;
		if (most <= w->dfsph_list_stride) break;
		if (most > INT32_MAX / 2) return false;
		w->dfsph_list_stride = (int)((most + most / 4 + PDL_LANES) / PDL_LANES * PDL_LANES);
	}
	w->dfsph_row[0] = 0;
	for (int i = 0; i < n; ++i) w->dfsph_row[i + 1] += w->dfsph_row[i];
	const int64_t pairs = w->dfsph_row[n];
	if (pairs > w->dfsph_pair_capacity || !w->dfsph_neighbour) {
		int64_t cap = pairs + pairs / 2 + 1024;
		int32_t* neighbour = realloc(w->dfsph_neighbour, (size_t)(cap + PDL_LANES) * sizeof *neighbour);
		if (neighbour) w->dfsph_neighbour = neighbour;
		float* grad = realloc(w->dfsph_grad, (size_t)(cap + PDL_LANES) * 3 * sizeof *grad);
		if (grad) w->dfsph_grad = grad;
		if (!neighbour || !grad) return false;
		w->dfsph_pair_capacity = cap;
	}
	/* the padding: a block read past the last row's end gathers particle 0 and loads zeros */
	for (int k = 0; k < PDL_LANES; ++k) {
		w->dfsph_neighbour[pairs + k] = 0;
		for (int e = 0; e < 3; ++e) grad_plane(w, e)[pairs + k] = 0;
	}
	return true;
}


/* 6. Wall friction (Coulomb, against the walls' pressure push p_i / rho0_i |grad psi|, walls.h)
 * and x += dt v into x2 (x_prev = x), as sph.c's integration. */
static void advance_range(void* ctx, int begin, int end)
{
	dfsph_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const bool three = PDL_IS_3D(w);
	const float dt = job->dt;
	for (int i = begin; i < end; ++i) {
		const int m = p->material[i];
		float v[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
		wall_terms walls;
		walls_at(w, i, p->x[i], p->y[i], three ? p->z[i] : 0, three, &walls);
		if (walls.statics) { /* (the bodies' contacts have no friction) */
			float push[PDL_SPH_MAX_CONTACTS];
			for (int c = 0; c < walls.statics; ++c) push[c] = p->pressure[i] * job->inv_rest[m] * walls.grad[c];
			pdl_sph_wall_friction(v, walls.c, push, walls.statics, w->boundaries, w->materials[m].def.wall_friction, dt,
			                      three);
		}
		p->xp[i] = p->x[i];
		p->yp[i] = p->y[i];
		p->x2[i] = p->x[i] + dt * v[0];
		p->y2[i] = p->y[i] + dt * v[1];
		p->vx2[i] = v[0];
		p->vy2[i] = v[1];
		if (three) {
			p->zp[i] = p->z[i];
			p->z2[i] = p->z[i] + dt * v[2];
			p->vz2[i] = v[2];
		}
	}
}

/* ---- The step ------------------------------------------------------------------------------- */

/* The scratch arrays (rebuilt every substep, never permuted), padded for the vector loads. */
static bool reserve_scratch(pdl_world* w)
{
	const int need = w->p.capacity + PDL_SIMD_PAD;
	if (pdl_bodies_active(w) && !w->dfsph_body_near) {
		w->dfsph_body_near = malloc((size_t)need * sizeof *w->dfsph_body_near);
		if (!w->dfsph_body_near) return false;
		w->dfsph_capacity = 0; /* (grown below with the rest) */
	}
	if (w->dfsph_capacity >= need) return true;
	if (w->dfsph_body_near) {
		int32_t* grown = realloc(w->dfsph_body_near, (size_t)need * sizeof *grown);
		if (!grown) return false;
		w->dfsph_body_near = grown;
	}
	pdl_ghost_error* chunks = realloc(w->dfsph_chunk_error, ((size_t)need / SOLVE_GRAIN + 1) * sizeof *chunks);
	if (!chunks) return false;
	w->dfsph_chunk_error = chunks;
	/* each array and its floats a particle (the rows of four: f8_gather_rows3) */
	const struct {
		float** array;
		size_t floats;
	} arrays[] = {{&w->dfsph_alpha, 1},     {&w->dfsph_change, 1},    {&w->dfsph_normal[0], 1},
	              {&w->dfsph_normal[1], 1}, {&w->dfsph_normal[2], 1}, {&w->dfsph_wall_rate, 1},
	              {&w->dfsph_wall_grad, 3}, {&w->dfsph_velocity, 4},  {&w->dfsph_position, 4}};
	for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; ++a) {
		const size_t size = (size_t)need * arrays[a].floats * sizeof(float);
		float* grown = realloc(*arrays[a].array, size);
		if (!grown) return false;
		memset(grown, 0, size);
		*arrays[a].array = grown;
	}
	int64_t* row = realloc(w->dfsph_row, ((size_t)need + 1) * sizeof *row);
	if (!row) return false;
	w->dfsph_row = row;
	w->dfsph_capacity = need;
	return true;
}

/* The bodies' contacts of the particles near them, for walls_at, after pdl_bodies_sph_sample;
 * false when out of memory (the bodies then sit out the substep). */
static bool find_body_contacts(pdl_world* w)
{
	const body_set* set = &w->bodies;
	const int near = set->near_count;
	for (int i = 0; i < w->p.count; ++i) w->dfsph_body_near[i] = -1;
	if (near > w->dfsph_near_capacity) {
		pdl_body_contact* contacts = realloc(w->dfsph_contacts, (size_t)near * PDL_CONTAIN_BODIES * sizeof *contacts);
		if (contacts) w->dfsph_contacts = contacts;
		int* counts = realloc(w->dfsph_contact_count, (size_t)near * sizeof *counts);
		if (counts) w->dfsph_contact_count = counts;
		if (!contacts || !counts) return false;
		w->dfsph_near_capacity = near;
	}
	for (int e = 0; e < near; ++e) {
		w->dfsph_body_near[set->near[e]] = e;
		w->dfsph_contact_count[e] = pdl_bodies_contacts(w, e, &w->dfsph_contacts[(size_t)e * PDL_CONTAIN_BODIES]);
		/* a particle in a film between a body and a wall (body_sph.c, in_film) starts both solves
		 * from 0, not from the pressures it ended the last substep with: no pressure decompresses
		 * it, so each solve raises its pressure to the iteration limit, and warm-started substep
		 * after substep that grew to 150 times its neighbours' (a light crate against the tank's
		 * wall, scenes/dam-break-boxes.json run with DFSPH, 5.3 s); when the crate moved and the
		 * particle slipped out of the gap, that pressure flung it and its neighbours at 190 h/s,
		 * and the next frames at 10^4 h/s */
		for (int k = 0; k < w->dfsph_contact_count[e]; ++k)
			if (w->dfsph_contacts[(size_t)e * PDL_CONTAIN_BODIES + k].film) {
				w->p.pressure[set->near[e]] = w->p.near_pressure[set->near[e]] = 0;
				break;
			}
	}
	return true;
}

void pdl_dfsph_free(pdl_world* w)
{
	free(w->dfsph_body_near), free(w->dfsph_contacts), free(w->dfsph_contact_count);
	free(w->dfsph_alpha), free(w->dfsph_chunk_error), free(w->dfsph_change), free(w->dfsph_velocity);
	free(w->dfsph_position);
	free(w->dfsph_row), free(w->dfsph_scan), free(w->dfsph_neighbour), free(w->dfsph_grad), free(w->dfsph_wall_grad), free(w->dfsph_wall_rate);
	for (int e = 0; e < 3; ++e) free(w->dfsph_normal[e]);
}

/* A split world's process (partition.h) hands its ghosts the values of these arrays from their
 * owners (PDL_GHOST_FIELDS); nothing without a ghost function. */
static void ghost_fields(pdl_world* w, int n, float* a, float* b, float* c, float* d)
{
	if (!w->ghost_fn) return;
	float* fields[] = {a, b, c, d};
	w->ghost_field_count = n;
	for (int f = 0; f < n; ++f) w->ghost_fields[f] = fields[f];
	w->ghost_fn(w, PDL_GHOST_FIELDS, w->ghost_context);
	w->ghost_field_count = 0;
}

/* The velocities, after a pass that changed them. */
static void ghost_velocities(pdl_world* w)
{
	ghost_fields(w, PDL_IS_3D(w) ? 3 : 2, w->p.vx, w->p.vy, w->p.vz, NULL);
}

/* x, y (z) of the particles into rows of four floats, x y z 0 (z 0 in 2D), for f8_gather_rows3 */
static void pack_rows(const pdl_world* w, float* rows, const float* x, const float* y, const float* z)
{
	const bool three = PDL_IS_3D(w);
	for (int i = 0; i < w->p.count; ++i) {
		float* r = &rows[4 * i];
		r[0] = x[i], r[1] = y[i], r[2] = three ? z[i] : 0, r[3] = 0;
	}
}

/* The same inside a solve: and into the rows of dfsph_velocity, which the pressure pass wrote
 * before the ghosts got their owners' velocities. */
static void ghost_solve_velocities(pdl_world* w)
{
	if (!w->ghost_fn) return;
	ghost_velocities(w);
	pack_rows(w, w->dfsph_velocity, w->p.vx, w->p.vy, w->p.vz);
}

/* The error of a solve (above) over the world's own particles (not its ghosts), and in a split
 * world over every process's (PDL_GHOST_ERROR, which hands the ghosts their owners' `change`
 * in the same exchange): the chunks' exact sums of |b_i| (add_error) added up, so the same bits
 * for any split, thread count and particle order; 0 for no particles. */
static double solve_error(pdl_world* w, const pdl_ghost_error* chunk_error, int n, float* change, bool divergence)
{
	pdl_ghost_error sum = {0, 0, 0, 0.0};
	for (int c = 0; c < (n + SOLVE_GRAIN - 1) / SOLVE_GRAIN; ++c) pdl_ghost_error_add(&sum, &chunk_error[c]);
	if (w->ghost_fn) {
		w->ghost_error = sum;
		w->ghost_field_count = 1;
		w->ghost_fields[0] = change;
		w->ghost_fn(w, PDL_GHOST_ERROR, w->ghost_context);
		w->ghost_field_count = 0;
		sum = w->ghost_error;
	}
	const double mean = ((double)sum.hi + ldexp((double)sum.lo, -64)) / (double)sum.count;
	return sum.count > 0 ? (divergence ? mean : fmax(mean, sum.most / MAX_OVER_MEAN)) : 0;
}

/* After a pressure pass: the bodies' velocities the fluid sees follow the change it applied
 * (body_sph.c, "Coupling inside the solves"). */
static void couple_bodies(const dfsph_job* job)
{
	pdl_world* w = job->w;
	if (job->couple)
		pdl_bodies_couple(w, job->dt, job->change, job->inv_rest, w->dfsph_contacts, w->dfsph_contact_count,
		                  w->dfsph_wall_rate);
}

/* The Chebyshev acceleration of the solves (solve): the spectral radius rho its weights assume
 * for the damped Jacobi step, and the iterations it leaves plain first. Measured (both solves'
 * iterations; plain Jacobi against these): tests/test_dfsph.c's 2D pool 16 h deep settling for
 * 2 s, 22,477 against 3,930; the first 20 frames of scenes/dam-break-3d.json at 5,000 particles,
 * 91 against 74 (starting at once, 118: with the warm start most solves end within four
 * iterations, and an early w_2 = 2 / (2 - rho^2) near 2 overshoots them). rho 0.9 and 0.97 sped
 * the deep pool less (9,470 and 5,435, starting at once). */
#define CHEBYSHEV_RHO 0.99
/* Tried on bench/scenes/dam-break-3d-dfsph-100k.json (0.1 s, 12 substeps: 25.1 density and 80.6
 * divergence iterations a substep at 0.99) and left: rho estimated per solve from the ratio of
 * the errors of its last two plain steps (0.82 to 0.90, well below the slow modes the warm start
 * leaves; floored at 0.9), 53.1 and 91.7; rho raised while the solve runs to the mode that the
 * observed decay of 8 Chebyshev steps implies, restarting the weights (the adaptive procedure of
 * Hageman & Young 1981, "Applied Iterative Methods", ch. 5), 29.6 and 90.2; rho 0.995 for both,
 * 29.7 and 70.7; 0.995 for the divergence solve alone, 24.3 and 70.9 (0.997: 24.5 and 76.1), but
 * the 20k scenes ended with more density error (mean 0.70 % against 0.57 % after
 * scenes/drop-3d.json, 2.16 % against 2.07 % after 300 frames of scenes/dam-break-3d.json). */
enum { CHEBYSHEV_START = 3 };

/* One pressure solve on the velocities v (particles' vx, vy, vz), B&K 2017 alg. 2 and 3 as a
 * projected, damped Jacobi iteration (the pressures stay >= 0: a free surface is not pulled
 * together; Ihmsen et al. 2014 clamp IISPH's the same way). Each iteration:
 *   b_i = c_i(v) (+ rho^_i - 1 for the density solve): the compression v leaves after dt,
 *   p_i' = max(0, p_i + omega_i b_i alpha_i / dt^2),  v += dv(p' - p),  p = p'
 * (compression_range works out b and p' - p, pressure_range applies it). It starts from the
 * pressure the last solve ended with (warm start: its dv is applied first) and ends when the
 * error (solve_error of b over the particles under pressure; the divergence solve's per
 * second) is below `tolerance`, or after sph.max_iterations. Returns the iterations; *error
 * gets the last error. */
static int solve(dfsph_job* job, bool divergence, float* pressure, double tolerance, float* error)
{
	pdl_world* w = job->w;
	particles* p = &w->p;
	const int n = p->count;
	/* warm start, where the solve applies (the divergence solve not at the free surface: the
	 * pressure a particle kept from the last solve would push it again every substep), unless the
	 * forces pass applied it (job->warm_start, pdl_dfsph_step) */
	if (divergence)
		for (int i = 0; i < n; ++i)
			if (!(p->density[i] * job->inv_rest[p->material[i]] >= DIVERGENCE_MIN_DENSITY)) pressure[i] = 0;
	job->divergence = divergence;
	job->pressure = pressure;
	if (!job->warm_start) {
		ghost_fields(w, 1, pressure, NULL, NULL, NULL); /* (a split world's ghosts: their owners') */
		job->change = pressure;
		pdl_pool_for(w->pool, n, SOLVE_GRAIN, loops_of(w)->pressure, job); /* (and dfsph_velocity's rows) */
		ghost_solve_velocities(w);
		couple_bodies(job);
	} else /* (the forces pass applied it: the rows of the velocities it left, ghosts' included) */
		pack_rows(w, w->dfsph_velocity, p->vx, p->vy, p->vz);
	job->warm_start = false;
	const double scale = divergence ? 1.0 / job->dt : 1.0;
	int iterations = 0;
	/* Chebyshev semi-iterative acceleration (Golub & Varga 1961, Numer. Math. 3, 147; in the
	 * form of Wang 2015, "A Chebyshev Semi-Iterative Approach for Accelerating Projective and
	 * Position-based Dynamics", ACM TOG 34(6), eq. 12): iteration k + 1 takes
	 * x_k+1 = w_k+1 (y_k+1 - x_k-1) + x_k-1, y_k+1 the damped Jacobi step from x_k, with
	 * w_1 = 1, w_2 = 2 / (2 - rho^2), w_k+1 = 4 / (4 - rho^2 w_k) (update_pressures), after
	 * CHEBYSHEV_START + 1 plain steps (Wang's delay: a solve that ends within a few iterations,
	 * as most do with the warm start, stays plain Jacobi, bit for bit). On a linear
	 * system it converges wherever the Jacobi step does (|T_k(mu / rho)| <= T_k(1 / rho) for
	 * every eigenvalue |mu| <= 1 of the step), and where rho is the step's spectral radius it
	 * takes about the square root of Jacobi's iterations: a deep pool's slow pressure modes,
	 * which the damped step (omega = 1 / lambda_max) shrinks by 1 - lambda_min / lambda_max an
	 * iteration, are what it speeds up. The clamp p >= 0 stays on every iterate. Not while
	 * rigid bodies touch the water (job->couple): a light body's step inside the solves
	 * (pdl_bodies_couple) answers the plain Jacobi step's. */
	const double rho = job->couple ? 0 : CHEBYSHEV_RHO;
	double e = 0, weight = 1;
	for (;;) {
		job->chebyshev = (float)weight;
		pdl_pool_for(w->pool, n, SOLVE_GRAIN, loops_of(w)->compression, job);
		weight = iterations < CHEBYSHEV_START    ? 1.0
		         : iterations == CHEBYSHEV_START ? 2.0 / (2.0 - rho * rho)
		                                         : 4.0 / (4.0 - rho * rho * weight);
		e = solve_error(w, job->chunk_error, n, w->dfsph_change, divergence) * scale;
		if (e <= tolerance || iterations >= w->def.sph.max_iterations) break;
		job->change = w->dfsph_change;
		pdl_pool_for(w->pool, n, SOLVE_GRAIN, loops_of(w)->pressure, job); /* (and p += the change) */
		ghost_solve_velocities(w);
		couple_bodies(job);
		iterations++;
	}
	*error = (float)e;
	return iterations;
}

/* a += sign b, element by element (sign +-1: exact undoing up to one rounding, never below 0
 * for a, b >= 0) */
static void add_to(float* a, const float* b, float sign, int n)
{
	for (int i = 0; i < n; ++i) a[i] += sign * b[i];
}

void pdl_dfsph_step(pdl_world* w, pdl_profile* prof)
{
	double start = pdl_now_ms(), t = start;
	particles* p = &w->p;
	/* (a process of a split world with no particles of its own still takes part in every ghost
	 * stage: the others wait for it) */
	const bool three = PDL_IS_3D(w), fluid = p->count > 0 || w->ghost_fn;
	pdl_dfsph_prepare(w);
	if (fluid && !reserve_scratch(w)) { /* out of memory: the world stands still this frame */
		prof->step = (float)(pdl_now_ms() - start);
		return;
	}
	float v2max = 0; /* the fastest particle now (a maximum: the same in any order) */
	for (int i = 0; i < p->count; ++i) {
		float v2 = p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + (three ? p->vz[i] * p->vz[i] : 0);
		if (v2 > v2max) v2max = v2;
	}
	int n = pdl_dfsph_substeps_for(w, v2max);
	if (w->next_substeps > 0) n = w->next_substeps; /* a split world's, from all its processes */
	w->next_substeps = 0;
	const float dt = w->def.dt / (float)n;
	dfsph_job job = {.w = w, .dt = dt, .k = pdl_kernels_make(three ? 3 : 2, w->def.interaction_radius),
	                 .chunk_error = w->dfsph_chunk_error};
	job.uniform = true;
	for (int m = 0; m < w->material_count; ++m) {
		material* ma = &w->materials[m];
		if (!(ma->dfsph_omega > 0)) ma->dfsph_omega = pdl_dfsph_jacobi_weight(ma->lattice_of.h, ma->rest_spacing, three);
		job.volume[m] = ma->dfsph_volume;
		job.rest[m] = ma->dfsph_rest_density;
		job.inv_rest[m] = 1.0f / ma->dfsph_rest_density;
		job.omega[m] = ma->dfsph_omega;
		job.correction[m] = ma->gradient_correction;
		job.uniform &= ma->dfsph_volume == w->materials[0].dfsph_volume &&
		               ma->dfsph_rest_density == w->materials[0].dfsph_rest_density;
	}
	job.xsph = pdl_sph_xsph_share(w, dt);
	job.nu = w->def.sph.viscosity;
	job.tension = w->def.sph.surface_tension > 0;
	const bool needs_forces = job.nu > 0 || job.xsph > 0 || job.tension;
	/* rigid bodies (body_step.c) are walls that move; they take their turns as with SPH */
	const bool bodies = pdl_bodies_active(w);
	if (!bodies && w->dfsph_body_near) { /* the last one was removed */
		free(w->dfsph_body_near);
		w->dfsph_body_near = NULL;
	}
	if (bodies) pdl_bodies_begin_frame(w);
	for (int sub = 0; sub < n; ++sub) {
		if (bodies) pdl_bodies_forces(w, dt);
		if (fluid && w->ghost_fn) { /* a split world's ghosts at x and v (partition.h) */
			w->ghost_fn(w, PDL_GHOST_POSITIONS, w->ghost_context);
			if (!reserve_scratch(w)) abort(); /* (the other processes would wait for this one) */
		}
		if (fluid) {
			pdl_grid_build(&w->grid, w->pool, p->count, p->x, p->y, p->z, p->id, w->def.interaction_radius);
			pdl_particles_permute(w, w->grid.order, false); /* (the warm starts move too) */
		}
		prof->predict += pdl_since(&t);
		bool touching = false; /* the bodies' contacts are known */
		if (bodies && fluid) {
			pdl_bodies_sph_sample(w);
			touching = find_body_contacts(w);
			if (!touching)
				for (int i = 0; i < p->count; ++i) w->dfsph_body_near[i] = -1;
		}
		prof->bodies += pdl_since(&t);
		if (fluid && !scan_neighbours(&job)) { /* out of memory: the world stands still from here */
			prof->step = (float)(pdl_now_ms() - start);
			return;
		}
		if (fluid) {
			pack_rows(w, w->dfsph_position, p->x, p->y, p->z); /* (the rows the density pass reads) */
			pdl_pool_for(w->pool, p->count, 256, loops_of(w)->density[three], &job);
		}
		if (fluid && job.tension) /* what the forces pass reads of a neighbour, besides velocities */
			ghost_fields(w, three ? 4 : 3, p->density, w->dfsph_normal[0], w->dfsph_normal[1], w->dfsph_normal[2]);
		job.couple = bodies && fluid && touching;
		if (job.couple)
			pdl_bodies_couple_begin(w, w->dfsph_alpha, job.omega, job.inv_rest, w->dfsph_contacts,
			                        w->dfsph_contact_count);
		prof->density += pdl_since(&t);
		if (fluid) add_to(p->pressure, p->near_pressure, -1.0f, p->count); /* the density solve's own */
		if (fluid)
			prof->divergence_iterations +=
				solve(&job, true, p->near_pressure, w->def.sph.divergence_tolerance, &(float){0});
		prof->relax += pdl_since(&t);
		if (fluid) {
			pdl_stage_forces(w, dt);
			if (needs_forces) {
				/* the density solve's warm start (its first pressure pass) comes with the forces: it reads
				 * only the lists and the pressures, and adds its dv to the forces' v in the same float
				 * operations, so the same bits; not while the bodies are coupled (couple_bodies follows
				 * each pressure pass) */
				job.warm_start = !job.couple;
				if (job.warm_start) {
					job.pressure = p->pressure;
					ghost_fields(w, 1, p->pressure, NULL, NULL, NULL); /* (a split world's ghosts: their owners') */
				}
				/* (the rows of the velocities after gravity, which the forces pass reads) */
				pack_rows(w, w->dfsph_velocity, p->vx, p->vy, p->vz);
				pdl_pool_for(w->pool, p->count, 256, loops_of(w)->forces[three], &job);
				pdl_swap(&p->vx, &p->vx2);
				pdl_swap(&p->vy, &p->vy2);
				if (three) pdl_swap(&p->vz, &p->vz2);
				ghost_velocities(w);
			}
		}
		prof->forces += pdl_since(&t);
		if (fluid) {
			prof->density_iterations +=
				solve(&job, false, p->pressure, w->def.sph.density_tolerance, &prof->density_solve_error);
			add_to(p->pressure, p->near_pressure, 1.0f, p->count); /* the pressure: both solves' */
		}
		prof->relax += pdl_since(&t);
		if (bodies) { /* their share of the pressure's push, opposite, then they move */
			for (int i = 0; i < p->count; ++i) w->dfsph_change[i] = p->pressure[i] * job.inv_rest[p->material[i]];
			if (!touching) w->bodies.near_count = 0;
			pdl_bodies_wall_reaction(w, dt, w->dfsph_change, w->dfsph_contacts, w->dfsph_contact_count);
		}
		prof->bodies += pdl_since(&t);
		if (fluid) {
			pdl_pool_for(w->pool, p->count, 1024, advance_range, &job);
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
	if (!bodies) prof->bodies = 0;
	prof->substeps = n;
	prof->step = (float)(pdl_now_ms() - start);
}
