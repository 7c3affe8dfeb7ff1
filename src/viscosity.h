/* Internal: viscosity impulses, Clavet 2005 algorithm 5, as a per-pair function for the
 * neighbour pass that also sums the densities (relax.c).
 *
 * For each neighbour pair with q = r/h < 1 that is approaching (u > 0):
 *     u = (v_i - v_j) . r^_ij
 *     I = dt (1 - q) (sigma u + beta u^2) r^_ij,    v_i -= I/2,  v_j += I/2
 * sigma (1/s) damps linearly, beta (1/length) quadratically. Every particle gathers the
 * impulses of all its pairs from the frozen velocities (Jacobi), which is order-free (the
 * paper's one-particle-at-a-time sweep drifts in the sweep direction) and parallel; the pair
 * impulse splits by inverse mass (equal halves for equal masses). One safeguard: an impulse
 * never exceeds u, so a very viscous pair stops approaching instead of bouncing apart.
 *
 * Departure from the paper (docs/physics.md, "One neighbour pass for density and viscosity"):
 * the impulses are computed at the predicted positions, in the same pass over the neighbours
 * as the densities, and applied as the position change dt dv together with the relaxation
 * displacement. The paper applies them before prediction, at the start positions, which costs
 * a third pass over every neighbour pair and a second sort into the grid each step. */
#ifndef PUDDLE_VISCOSITY_H
#define PUDDLE_VISCOSITY_H

#include "simd.h"

/* What the impulse loop needs for particle i. */
typedef struct viscosity_i {
	f4 vx, vy;          /* v_i */
	f4 sigma, beta;     /* i's pair values when uniform */
	const float* sigma_row; /* pair tables row of i's material, when not uniform */
	const float* beta_row;
	const float* weight_row; /* inverse-mass shares, when masses differ */
	bool uniform_viscosity, uniform_mass;
} viscosity_i;

/* Adds to (dvx, dvy) the velocity change of i from the candidates in lanes `in` (within h, not
 * coincident), at offsets (dx, dy) = x_j - x_i with distance dist and a = 1 - q. */
static inline void viscosity_impulses(const viscosity_i* vi, m4 in, f4 dx, f4 dy, f4 dist, f4 a,
                                      f4 vxj, f4 vyj, const uint8_t* mat_j, f4 dt, f4* dvx,
                                      f4* dvy)
{
	const f4 zero = f4_set1(0.0f), one = f4_set1(1.0f);
	f4 inv_dist = f4_div(one, dist);
	f4 du = f4_add(f4_mul(f4_sub(vi->vx, vxj), dx), f4_mul(f4_sub(vi->vy, vyj), dy));
	f4 u = f4_mul(du, inv_dist); /* approach speed along r^_ij */
	in = m4_and(in, f4_gt(u, zero));
	f4 sigma = vi->sigma, beta = vi->beta, weight = f4_set1(0.5f);
	if (!vi->uniform_viscosity) {
		sigma = f4_gather(vi->sigma_row, mat_j);
		beta = f4_gather(vi->beta_row, mat_j);
	}
	if (!vi->uniform_mass) weight = f4_gather(vi->weight_row, mat_j);
	f4 impulse = f4_mul(f4_mul(dt, a), f4_add(f4_mul(sigma, u), f4_mul(f4_mul(beta, u), u)));
	impulse = f4_mul(f4_min(impulse, u), weight);
	f4 scale = f4_mask(in, f4_mul(impulse, inv_dist));
	*dvx = f4_sub(*dvx, f4_mul(scale, dx));
	*dvy = f4_sub(*dvy, f4_mul(scale, dy));
}

#endif
