/* Internal: SPH smoothing kernels of Mueller, Charypar & Gross 2003 ("Particle-Based Fluid
 * Simulation for Interactive Applications", SCA 2003), normalised for 2D and for 3D, and the
 * cohesion spline of Akinci, Akinci & Teschner 2013 ("Versatile Surface Tension and Adhesion
 * for SPH Fluids", SIGGRAPH Asia 2013).
 *
 * Every kernel W here has support r < h and integrates to 1 over it: over the disc of radius h
 * in 2D (area integral, units 1 / length^2) and over the ball in 3D (volume integral,
 * 1 / length^3). The paper gives the 3D constants; the 2D ones are derived the same way, by
 * integrating the kernel's shape over the disc (tests/test_kernels.c checks both by quadrature):
 *
 *   kernel (shape, r < h)            integral of the shape     2D constant       3D constant
 *   Poly6  (h^2 - r^2)^3    eq. 20   pi h^8 / 4 | 64 pi h^9/315  4 / (pi h^8)      315 / (64 pi h^9)
 *   Spiky  (h - r)^3        eq. 21   pi h^5 / 10 | pi h^6 / 15   10 / (pi h^5)     15 / (pi h^6)
 *   Viscosity               eq. 22   see below                 40 / (pi h^5)     15 / (2 pi h^3)
 *   Cohesion (Akinci eq. 3)          209 pi h^8 / 35840 |      35840/(209 pi h^8) 10752/(79 pi h^9)
 *                                    79 pi h^9 / 10752
 *
 * Viscosity. Mueller builds this kernel backwards from its Laplacian, which must be positive
 * everywhere (so viscosity only ever slows relative motion) and proportional to (h - r). In 3D
 * that is eq. 22, W = 15/(2 pi h^3) (-r^3/(2h^3) + r^2/h^2 + h/(2r) - 1), with Laplacian
 * 45/(pi h^6) (h - r). The same polynomial does NOT give (h - r) in 2D (its 2D Laplacian is
 * -9r/(2h^3) + 4/h^2 + h/(2r^3)), so several 2D codes use a Laplacian that belongs to no kernel.
 * Solving (1/r)(r W')' = C (h - r) in 2D with W(h) = W'(h) = 0 gives
 *     W = C (h (r^2 - h^2)/4 - (r^3 - h^3)/9 - (h^3/6) ln(r/h)),     integral pi C h^5 / 40,
 * so C = 40 / (pi h^5) and the 2D Laplacian is 40/(pi h^5) (h - r). (Like the 3D kernel it is
 * infinite at r = 0, integrably; only the Laplacian is used by the solver.)
 *
 * Cohesion. Akinci's spline is a force profile (attractive for r > h/2, slightly repulsive
 * below), not a density kernel: their 3D constant 32/(pi h^9) integrates to 79/336, about 0.235.
 * puddle normalises it to 1 like the others, so its surface tension coefficient means the same
 * in 2D and 3D; a gamma from the paper is 336/79 = 4.25 times puddle's in 3D.
 *
 * Use: make a pdl_kernels once per step with pdl_kernels_make(dim, h), then call the inline
 * evaluators. Gradients are returned as a scale s with grad W(x_i - x_j) = s (x_i - x_j), so a
 * caller never divides by r where it does not need to. The 2D solver (sph.c) and the future 3D
 * one share these functions: only `dim` differs. */
#ifndef PUDDLE_KERNELS_H
#define PUDDLE_KERNELS_H

#include "hd.h"
#include "puddle/types.h"

#include <math.h>

#define PDL_PI 3.14159265358979323846

typedef struct pdl_kernels {
	int dim;            /* 2 or 3 */
	float h, h2;        /* support radius and its square, world units */
	float poly6;        /* W_poly6 = poly6 (h^2 - r^2)^3 */
	float poly6_grad;   /* grad W_poly6 = -poly6_grad (h^2 - r^2)^2 (x_i - x_j); = 6 poly6 */
	float spiky;        /* W_spiky = spiky (h - r)^3 */
	float spiky_grad;   /* grad W_spiky = -spiky_grad (h - r)^2 (x_i - x_j) / r; = 3 spiky */
	float viscosity;    /* W_visc = viscosity * shape (2D log form or 3D eq. 22) */
	float viscosity_lap; /* laplacian W_visc = viscosity_lap (h - r) */
	float cohesion;     /* C = cohesion * Akinci's spline */
	/* Wendland's C2 function (Wendland 1995; Dehnen & Aly 2012, "Improving convergence in
	 * smoothed particle hydrodynamics simulations without pairing instability"), the DFSPH
	 * kernel, support h: with q = r / h,
	 *   W = wendland (1 - q)^4 (1 + 4q),   wendland = 7 / (pi h^2) in 2D, 21 / (2 pi h^3) in 3D,
	 *   grad W(x_i - x_j) = s (x_i - x_j),   s = -wendland_grad (1 - q)^3,  wendland_grad =
	 *   20 wendland / h^2.
	 * Its Fourier transform is positive, so particles do not pair up at any neighbour count
	 * (Dehnen & Aly sec. 3): the clumping that Poly6's gradient and, above about 25 neighbours in
	 * 2D, the cubic spline let happen (measured: 48-65 % of a DFSPH pool closer than half a
	 * spacing within 9 s with the cubic spline at 30 neighbours). The gradient needs no division
	 * by r and is finite (0) at r = 0. */
	float wendland, wendland_grad;
} pdl_kernels;

/* The constants for dimension dim (2 or 3; anything else is treated as 2) and radius h. They
 * are computed in double and rounded once. */
static inline pdl_kernels pdl_kernels_make(int dim, float h)
{
	double H = h, pi = PDL_PI;
	pdl_kernels k;
	k.dim = dim == 3 ? 3 : 2;
	k.h = h;
	k.h2 = h * h;
	if (k.dim == 2) {
		k.poly6 = (float)(4.0 / (pi * pow(H, 8)));
		k.spiky = (float)(10.0 / (pi * pow(H, 5)));
		k.viscosity = (float)(40.0 / (pi * pow(H, 5)));
		k.viscosity_lap = (float)(40.0 / (pi * pow(H, 5)));
		k.cohesion = (float)(35840.0 / (209.0 * pi * pow(H, 8)));
	} else {
		k.poly6 = (float)(315.0 / (64.0 * pi * pow(H, 9)));
		k.spiky = (float)(15.0 / (pi * pow(H, 6)));
		k.viscosity = (float)(15.0 / (2.0 * pi * pow(H, 3)));
		k.viscosity_lap = (float)(45.0 / (pi * pow(H, 6)));
		k.cohesion = (float)(10752.0 / (79.0 * pi * pow(H, 9)));
	}
	double wendland = k.dim == 2 ? 7.0 / (pi * H * H) : 21.0 / (2.0 * pi * H * H * H);
	k.wendland = (float)wendland;
	k.wendland_grad = (float)(20.0 * wendland / (H * H));
	k.poly6_grad = (float)(6.0 * (double)k.poly6);
	k.spiky_grad = (float)(3.0 * (double)k.spiky);
	return k;
}

/* Poly6 (eq. 20), from r^2: density. 0 at and beyond h. */
static inline float pdl_poly6(const pdl_kernels* k, float r2)
{
	if (!(r2 < k->h2)) return 0.0f;
	float d = k->h2 - r2;
	return k->poly6 * d * d * d;
}

/* Scale s of the Poly6 gradient, grad W = s (x_i - x_j) (s <= 0: W falls outwards). Used for
 * the surface normals of the surface tension. */
static inline float pdl_poly6_grad_scale(const pdl_kernels* k, float r2)
{
	if (!(r2 < k->h2)) return 0.0f;
	float d = k->h2 - r2;
	return -k->poly6_grad * d * d;
}

/* Spiky (eq. 21), from r: its value (for tests and diagnostics). */
static inline float pdl_spiky(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float d = k->h - r;
	return k->spiky * d * d * d;
}

/* Magnitude of the Spiky gradient, |grad W| = spiky_grad (h - r)^2, pointing from x_i towards
 * x_j (W falls outwards): grad W(x_i - x_j) = -this * (x_i - x_j) / r. Unlike Poly6 it does not
 * vanish at r = 0, so close particles keep pushing apart (the reason Mueller uses it for
 * pressure). The caller supplies the direction, also for r = 0. */
static inline float pdl_spiky_grad_magnitude(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float d = k->h - r;
	return k->spiky_grad * d * d;
}

/* The viscosity kernel itself (2D: the log form derived above; 3D: eq. 22), r > 0. Only the
 * tests use it: the solver needs only its Laplacian. */
static inline float pdl_viscosity_kernel(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float h = k->h;
	if (k->dim == 2)
		return k->viscosity * (h * (r * r - h * h) / 4.0f - (r * r * r - h * h * h) / 9.0f -
		                       (h * h * h / 6.0f) * logf(r / h));
	return k->viscosity *
	       (-(r * r * r) / (2.0f * h * h * h) + (r * r) / (h * h) + h / (2.0f * r) - 1.0f);
}

/* Laplacian of the viscosity kernel (eq. 22 in 3D, derived above in 2D): viscosity_lap (h - r),
 * positive inside the support. */
static inline float pdl_viscosity_laplacian(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	return k->viscosity_lap * (k->h - r);
}

/* Akinci 2013 eq. 3, cohesion spline, normalised (see above):
 *   (h - r)^3 r^3                  for h/2 < r < h
 *   2 (h - r)^3 r^3 - h^6 / 64     for 0 <= r <= h/2 */
static inline float pdl_cohesion(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float h = k->h, a = (h - r) * r;
	float s = a * a * a;
	if (2.0f * r <= h) {
		float h3 = h * h * h;
		s = 2.0f * s - h3 * h3 / 64.0f;
	}
	return k->cohesion * s;
}

/* Wendland C2's shape w(q), W = wendland w(r / h), in double (lattice sums and wall tables). */
static inline double pdl_wendland_shape(double q)
{
	if (!(q < 1)) return 0;
	double d = 1 - q, d2 = d * d;
	return d2 * d2 * (1 + 4 * q);
}

/* Wendland C2 (see pdl_kernels.wendland), from r: its value. 0 at and beyond h. */
static inline float pdl_wendland(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float q = r / k->h, d = 1.0f - q, d2 = d * d;
	return k->wendland * d2 * d2 * (1.0f + 4.0f * q);
}

/* Scale s of Wendland C2's gradient, grad W = s (x_i - x_j) (s <= 0), from r. */
static inline float pdl_wendland_grad_scale(const pdl_kernels* k, float r)
{
	if (!(r < k->h)) return 0.0f;
	float d = 1.0f - r / k->h;
	return -k->wendland_grad * d * d * d;
}

/* The equation of state (types.h, pdl_sph_eos): Tait p = B ((rho/rho0)^gamma - 1) with
 * B = rho0 c^2 / gamma, or linear p = c^2 (rho - rho0); dp/drho = c^2 at rho0 for both. The
 * caller clamps negative pressures. */
PDL_HD static inline float pdl_sph_pressure(const pdl_sph_def* s, float rho, float rho0)
{
	const float c2 = s->speed_of_sound * s->speed_of_sound, gamma = s->gamma;
	return s->eos == PDL_SPH_EOS_TAIT ? rho0 * c2 / gamma * (powf(rho / rho0, gamma) - 1.0f) : c2 * (rho - rho0);
}

#endif
