/* The collapse of a water column on a dry floor, against the experiment of Martin & Moyce 1952
 * (J. C. Martin and W. J. Moyce, "Part IV. An experimental study of the collapse of liquid
 * columns on a rigid horizontal plane", Phil. Trans. R. Soc. Lond. A 244 (882), 312-324).
 *
 * A column a wide and 2a tall (their n^2 = 2) stands against the left wall of a long dry tank
 * and is let go at t = 0. The surge front's distance from that wall, Z = x / a, is compared
 * with theirs at the same dimensionless time T = t sqrt(2 g / a), over T in [1, 6.8]: the mean
 * of |Z / Z_experiment - 1| at their points must be at most 4 %, at the finest resolution.
 * The column is resolved by 16, 32 and 64 particles across (a = N s, s the rest spacing), and
 * the front curve must converge: the mean change |Z_16 - Z_32| over T in [1, 6.8] must be
 * larger than |Z_32 - Z_64|.
 *
 * The front is the farthest point of the connected water: the largest cluster of particles
 * joined when closer than h (the interaction radius: particles farther apart do not interact,
 * so a droplet ahead that is not joined to the rest is not part of the surge), its largest x
 * plus half a rest spacing (the particle's share of the lattice, so that the column at rest,
 * whose outermost particles sit half a spacing in from its side, measures Z = 1 exactly). */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Martin & Moyce 1952, Fig. 3, n^2 = 2, a = 2.25 in: (T, Z) read off the figure, as tabled in
 * PySPH's pysph/examples/db_exp_data.py (mm_data_2; github.com/pypr/pysph). Its first point,
 * T = 0.832, lies before T = 1 and is not compared; the last ones after 6.8 neither. */
static const double martin_moyce[][2] = {
	{0.832, 1.217}, {1.219, 1.474}, {1.997, 2.292}, {2.547, 2.995}, {3.345, 4.134},
	{4.034, 4.944}, {4.418, 5.881}, {5.091, 6.980}, {5.685, 7.945}, {6.306, 8.966},
	{6.822, 9.986}, {7.439, 10.963}, {8.031, 11.977}, {8.633, 13.005}, {9.237, 13.970},
};
static const int martin_moyce_count = (int)(sizeof martin_moyce / sizeof martin_moyce[0]);
static const double T_first = 1.0, T_last = 6.83; /* the compared range (6.822 inclusive) */

double vdam_front(const pdl_world* w, double a)
{
	const pdl_particle_data p = pdl_world_particles(w);
	const int dims = pdl_world_get_def(w).dimensions;
	unsigned char* member = malloc((size_t)(p.count > 0 ? p.count : 1));
	vlargest_cluster(&p, dims, pdl_world_get_def(w).interaction_radius, member);
	double front = -1e30;
	for (int i = 0; i < p.count; ++i)
		if (member[i] && p.x[i] > front) front = p.x[i];
	free(member);
	return (front + 0.5 * vrest_spacing(w, 0)) / a;
}

/* Z(T) sampled every frame. */
typedef struct front_curve {
	int count;
	double *T, *Z;
} front_curve;

/* Linear interpolation of the curve at T; NAN outside it. */
static double front_at(const front_curve* c, double T)
{
	for (int k = 1; k < c->count; ++k)
		if (c->T[k] >= T && c->T[k - 1] <= T) {
			double u = (T - c->T[k - 1]) / (c->T[k] - c->T[k - 1]);
			return c->Z[k - 1] + u * (c->Z[k] - c->Z[k - 1]);
		}
	return NAN;
}

/* Runs the collapse with `across` particles across the column up to T_end; false if particles
 * were lost (reported). */
static bool run_column(const vsolver* solver, const voptions* opt, int across, double T_end, front_curve* c)
{
	const pdl_material_def water = vworld_water(solver);
	const double s = pdl_rest_spacing(1, water.rest_density), a = across * s, g = 10;
	pdl_world* w = vworld_create(solver, opt, 2, (float)(2 * a), NULL);
	/* 14 a of floor: the front reaches Z = 10 at T = 6.8 in the experiment; no wall ahead */
	vworld_add_tank(w, (pdl_vec3){0, 0, -1}, (pdl_vec3){(float)(14 * a), (float)(3 * a), 1});
	const int n = vworld_fill_box(w, 0, (pdl_vec3){0, 0, -1}, (pdl_vec3){(float)a, (float)(2 * a), 1});
	const double T_per_second = sqrt(2 * g / a), frame = pdl_world_get_def(w).dt;
	const int frames = (int)ceil(T_end / T_per_second / frame) + 1;
	c->T = malloc((size_t)(frames + 1) * sizeof *c->T);
	c->Z = malloc((size_t)(frames + 1) * sizeof *c->Z);
	c->count = 0;
	for (int f = 0; f <= frames; ++f) {
		if (f > 0) pdl_world_step(w);
		c->T[c->count] = pdl_world_time(w) * T_per_second;
		c->Z[c->count] = vdam_front(w, a);
		c->count++;
	}
	bool intact = vworld_intact(w, n, solver->name, "dam_break");
	pdl_world_destroy(w);
	return intact;
}

void vcase_dam_break(const vsolver* solver, const voptions* opt)
{
	int across[3] = {16, 32, 64};
	double T_end = 6.9;
	if (opt->scale == VSCALE_QUICK) across[0] = 8, across[1] = 16, across[2] = 32;
	if (opt->scale == VSCALE_SMOKE) across[0] = 4, across[1] = 6, across[2] = 8, T_end = opt->test_quick ? 1.1 : 1.5;
	front_curve curve[3];
	for (int r = 0; r < 3; ++r)
		if (!run_column(solver, opt, across[r], T_end, &curve[r])) {
			for (int k = 0; k <= r; ++k) free(curve[k].T), free(curve[k].Z);
			return;
		}
	if (opt->curves) {
		printf("%s dam_break front: T, Z (Martin & Moyce), Z at %d, %d, %d across\n", solver->name, across[0], across[1],
		       across[2]);
		for (int k = 0; k < martin_moyce_count; ++k) {
			double T = martin_moyce[k][0];
			printf("  %6.3f %7.3f %7.3f %7.3f %7.3f\n", T, martin_moyce[k][1], front_at(&curve[0], T),
			       front_at(&curve[1], T), front_at(&curve[2], T));
		}
	}
	/* against the experiment, at each resolution (the finest is the check) */
	char measured[96], check[64], expected[64];
	double error[3];
	for (int r = 0; r < 3; ++r) {
		double sum = 0;
		int used = 0;
		for (int k = 0; k < martin_moyce_count; ++k) {
			double T = martin_moyce[k][0];
			if (T < T_first || T > T_last) continue;
			double Z = front_at(&curve[r], T);
			if (isnan(Z)) continue;
			sum += fabs(Z / martin_moyce[k][1] - 1), used++;
		}
		error[r] = used > 0 ? sum / used : NAN;
	}
	for (int r = 0; r < 2; ++r) {
		snprintf(check, sizeof check, "front vs Martin & Moyce, %d across", across[r]);
		snprintf(measured, sizeof measured, "mean abs(Z/Z_exp - 1) = %.2f %%", 100 * error[r]);
		vreport_statement(solver->name, "dam_break", check, measured, "(coarser resolution)");
	}
	snprintf(measured, sizeof measured, "mean abs(Z/Z_exp - 1) = %.2f %% (Z(6.8) = %.2f)", 100 * error[2],
	         front_at(&curve[2], 6.822));
	snprintf(expected, sizeof expected, "Martin & Moyce 1952 (Z(6.822) = 9.986)");
	vreport_check(solver->name, "dam_break", "front vs Martin & Moyce, finest", error[2] <= 0.04, measured,
	              expected, "<= 4 %");
	/* convergence of the curve itself */
	double change[2] = {0, 0};
	int used = 0;
	for (double T = T_first; T <= T_last; T += 0.05) {
		double z0 = front_at(&curve[0], T), z1 = front_at(&curve[1], T), z2 = front_at(&curve[2], T);
		if (isnan(z0) || isnan(z1) || isnan(z2)) continue;
		change[0] += fabs(z0 - z1), change[1] += fabs(z1 - z2), used++;
	}
	change[0] /= used > 0 ? used : 1, change[1] /= used > 0 ? used : 1;
	snprintf(measured, sizeof measured, "%d->%d: %.3f, %d->%d: %.3f", across[0], across[1], change[0], across[1],
	         across[2], change[1]);
	vreport_check(solver->name, "dam_break", "front curve converges (mean abs dZ)", used > 0 && change[0] > change[1],
	              measured, "first change larger", "-");
	for (int r = 0; r < 3; ++r) free(curve[r].T), free(curve[r].Z);
}
