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

#include <stdbool.h>

/* What the impulse loop needs for particle i. */
typedef struct viscosity_i {
	f8 vx, vy, vz;      /* v_i (vz: 3D only) */
	f8 sigma, beta;     /* i's pair values when uniform */
	const float* sigma_row; /* pair tables row of i's material, when not uniform */
	const float* beta_row;
	const float* weight_row; /* inverse-mass shares, when masses differ */
	bool uniform_viscosity, uniform_mass;
} viscosity_i;

/* Adds to (dvx, dvy, dvz) the velocity change of i from the candidates in lanes `in` (within h,
 * not coincident), at offsets (dx, dy, dz) = x_j - x_i with distance dist and a = 1 - q. The z
 * terms count only when `three` (a constant: the 2D copy has none). */
static inline void viscosity_impulses(const viscosity_i* vi, m8 in, f8 dx, f8 dy, f8 dz, f8 dist,
                                      f8 a, f8 vxj, f8 vyj, f8 vzj, const uint8_t* mat_j, f8 dt,
                                      bool three, f8* dvx, f8* dvy, f8* dvz)
{
	const f8 zero = f8_set1(0.0f), one = f8_set1(1.0f);
	f8 inv_dist = f8_div(one, dist);
	f8 du = f8_add(f8_mul(f8_sub(vi->vx, vxj), dx), f8_mul(f8_sub(vi->vy, vyj), dy));
	if (three) du = f8_add(du, f8_mul(f8_sub(vi->vz, vzj), dz));
	f8 u = f8_mul(du, inv_dist); /* approach speed along r^_ij */
	in = m8_and(in, f8_gt(u, zero));
	f8 sigma = vi->sigma, beta = vi->beta, weight = f8_set1(0.5f);
	if (!vi->uniform_viscosity) {
		sigma = f8_gather(vi->sigma_row, mat_j);
		beta = f8_gather(vi->beta_row, mat_j);
	}
	if (!vi->uniform_mass) weight = f8_gather(vi->weight_row, mat_j);
	/* dt (1 - q) (sigma u + beta u^2) = dt a u (sigma + beta u) */
	f8 impulse = f8_mul(f8_mul(f8_mul(dt, a), u), f8_add(sigma, f8_mul(beta, u)));
	impulse = f8_mul(f8_min(impulse, u), weight);
	f8 scale = f8_mask(in, f8_mul(impulse, inv_dist));
	*dvx = f8_sub(*dvx, f8_mul(scale, dx));
	*dvy = f8_sub(*dvy, f8_mul(scale, dy));
	if (three) *dvz = f8_sub(*dvz, f8_mul(scale, dz));
}

#endif
