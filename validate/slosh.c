/* A closed box sloshing without viscosity: the energy never rises.
 *
 * A tank 20 h wide and 14 h tall, closed on all sides, holds water 8 h deep, started in the
 * first sloshing mode of linear potential flow (Lamb 1932, "Hydrodynamics", art. 257; Ibrahim
 * 2005, "Liquid Sloshing Dynamics", ch. 2): velocity potential
 *     phi = A cos(k (x - x_wall)) cosh(k y),  k = pi / W  (floor at y = 0),
 * u = -A k sin(k (x - x_wall)) cosh(k y), v = A k cos(k (x - x_wall)) sinh(k y), which has no
 * divergence and no flow through the walls or the floor; A sets the surface speed to 2 h/s at
 * the walls. Every dissipation is turned off (the solvers' viscosities and XSPH 0; wall
 * friction 0), so the energy
 *     E = sum_i m_i (|v_i|^2 / 2 + |g| y_i) + sum_i m_i u(rho_i)
 * (kinetic, potential from the floor, and, for weakly compressible SPH, the equation of
 * state's stored energy per unit mass u(rho) = int_rho0^rho p / rho'^2 drho', zero where the
 * pressure is clamped to zero below rho0) may only fall: by collisions with the walls (no
 * restitution) and the solvers' own damping. The check: E(t) never rises more than 0.5 % of
 * E(0) above its lowest value so far (float noise in sums of ~1e4 terms is far smaller).
 * Clavet's relaxation and DFSPH's projection have no stored energy: E is kinetic plus
 * potential. */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Stored energy per unit mass of the SPH equation of state at density rho (docs/physics.md,
 * "Equation of state"): Tait p = B ((rho/rho0)^gamma - 1), B = rho0 c^2 / gamma, gives
 * u = B [(rho^(gamma-1) - rho0^(gamma-1)) / ((gamma - 1) rho0^gamma) + 1/rho - 1/rho0];
 * linear p = c^2 (rho - rho0) gives u = c^2 [ln(rho/rho0) + rho0/rho - 1]. */
static double stored_energy(const pdl_sph_def* sph, double rho0, double rho)
{
	if (!(rho > rho0)) return 0;
	const double c2 = (double)sph->speed_of_sound * sph->speed_of_sound;
	if (sph->eos == PDL_SPH_EOS_LINEAR) return c2 * (log(rho / rho0) + rho0 / rho - 1);
	const double gamma = sph->gamma, B = rho0 * c2 / gamma;
	return B * ((pow(rho, gamma - 1) - pow(rho0, gamma - 1)) / ((gamma - 1) * pow(rho0, gamma)) + 1 / rho - 1 / rho0);
}

static double total_energy(const pdl_world* w, pdl_solver_kind kind)
{
	const pdl_particle_data p = pdl_world_particles(w);
	const pdl_world_def d = pdl_world_get_def(w);
	const double g = sqrt((double)d.gravity.x * d.gravity.x + (double)d.gravity.y * d.gravity.y);
	const double m = pdl_world_get_material(w, 0).mass, rho0 = pdl_world_rest_density(w, 0);
	double e = 0;
	for (int i = 0; i < p.count; ++i) {
		e += m * (0.5 * ((double)p.vx[i] * p.vx[i] + (double)p.vy[i] * p.vy[i]) + g * p.y[i]);
		if (kind == PDL_SOLVER_SPH && p.density[i] > 0) e += m * stored_energy(&d.sph, rho0, p.density[i]);
	}
	return e;
}

void vcase_slosh(const vsolver* solver, const voptions* opt)
{
	const double W = opt->scale == VSCALE_SMOKE ? 8 : 20, depth = opt->scale == VSCALE_SMOKE ? 4 : 8;
	const double seconds = opt->scale == VSCALE_FULL ? 10 : opt->scale == VSCALE_QUICK ? 5 : opt->test_quick ? 0.1 : 0.5;
	pdl_material_def water = vworld_water(solver);
	water.viscosity_sigma = water.viscosity_beta = 0;
	water.wall_friction = 0;
	pdl_world* w = vworld_create(solver, opt, 2, (float)depth, &water);
	pdl_world_def d = pdl_world_get_def(w);
	d.sph.viscosity = 0;
	d.sph.xsph = 0;
	pdl_world_set_def(w, &d, NULL);
	vworld_add_tank(w, (pdl_vec3){(float)(-W / 2), 0, -1}, (pdl_vec3){(float)(W / 2), (float)(depth + 6), 1});
	const int n = vworld_fill_box(w, 0, (pdl_vec3){(float)(-W / 2), 0, -1}, (pdl_vec3){(float)(W / 2), (float)depth, 1});
	/* the first mode's velocities, 2 h/s at the surface by the walls */
	const double k = 3.14159265358979323846 / W, A = 2.0 / (k * sinh(k * depth));
	const pdl_particle_data p = pdl_world_particles(w);
	float* vx = malloc((size_t)n * sizeof *vx);
	float* vy = malloc((size_t)n * sizeof *vy);
	for (int i = 0; i < n; ++i) {
		double along = k * (p.x[i] + W / 2), up = k * p.y[i];
		vx[i] = (float)(-A * k * sin(along) * cosh(up));
		vy[i] = (float)(A * k * cos(along) * sinh(up));
	}
	vworld_rewrite(w, vx, vy, NULL);
	free(vx);
	free(vy);
	const double e0 = total_energy(w, solver->kind);
	double lowest = e0, rise = 0, rise_at = 0, e = e0;
	const long frames = lround(seconds / d.dt);
	for (long f = 0; f < frames; ++f) {
		pdl_world_step(w);
		e = total_energy(w, solver->kind);
		if (e - lowest > rise) rise = e - lowest, rise_at = pdl_world_time(w);
		if (e < lowest) lowest = e;
	}
	if (!vworld_intact(w, n, solver->name, "slosh")) {
		pdl_world_destroy(w);
		return;
	}
	/* the sloshing energy itself: E(0) less the energy of the same water at rest, flat */
	char measured[96], expected[64];
	snprintf(measured, sizeof measured, "largest rise %.3f %% of E(0) (at t = %.2f s); E(end)/E(0) = %.4f",
	         100 * rise / e0, rise_at, e / e0);
	snprintf(expected, sizeof expected, "no rise (E(0) = %.4g)", e0);
	vreport_check(solver->name, "slosh", "energy never rises", rise <= 0.005 * e0, measured, expected,
	              "0.5 % of E(0)");
	pdl_world_destroy(w);
}
