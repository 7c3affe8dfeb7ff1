/* The smoke run's checks of the measuring tools themselves, on worlds whose answers are known
 * by construction (freshly filled lattices, not stepped): if these fail, no row of the table can
 * be trusted. */
#include "validate.h"

#include <math.h>
#include <stdio.h>

static int failures;

static void expect(bool ok, const char* what, double got, double want)
{
	printf("  measure check: %-58s got %.5f, want %.5f: %s\n", what, got, want, ok ? "ok" : "FAILED");
	if (!ok) failures++;
}

/* A fresh pool in a tank of its own width: its depth from geometry equals the depth its count
 * implies within 1 %. No particle is clumped, and
 * the kernel densities recomputed in the middle equal the rest density. */
static void check_fresh_pool(const vsolver* solver, int dims)
{
	const voptions opt = {VSCALE_SMOKE, 1, false};
	const double width = dims == 3 ? 8 : 12, depth = dims == 3 ? 6 : 9;
	pdl_world* w = vworld_create(solver, &opt, dims, (float)depth, NULL);
	vworld_add_tank(w, (pdl_vec3){(float)(-width / 2), 0, (float)(-width / 2)},
	                (pdl_vec3){(float)(width / 2), (float)(depth + 3), (float)(width / 2)});
	vworld_fill_box(w, 0, (pdl_vec3){(float)(-width / 2), 0, (float)(-width / 2)},
	                (pdl_vec3){(float)(width / 2), (float)depth, (float)(width / 2)});
	char what[96];
	double implied, measured = vpool_depth(w, width, depth, &implied);
	snprintf(what, sizeof what, "%s %dD fresh pool: depth from geometry / implied", solver->name, dims);
	expect(fabs(measured / implied - 1) <= 0.01, what, measured / implied, 1);
	const pdl_particle_data p = pdl_world_particles(w);
	snprintf(what, sizeof what, "%s %dD fresh pool: share closer than s/2", solver->name, dims);
	double clumped = vclumped_share(&p, dims, 0.5 * vrest_spacing(w, 0));
	expect(clumped == 0, what, clumped, 0);
	/* the particle nearest the pool's middle */
	int middle = 0;
	double best = 1e30;
	for (int i = 0; i < p.count; ++i) {
		double dx = p.x[i], dy = p.y[i] - depth / 2, dz = dims == 3 ? p.z[i] : 0;
		if (dx * dx + dy * dy + dz * dz < best) best = dx * dx + dy * dy + dz * dz, middle = i;
	}
	vgrid g;
	vgrid_build(&g, &p, dims, 1.0);
	const double rho0 = solver->kind == PDL_SOLVER_CLAVET ? pdl_world_get_material(w, 0).rest_density
	                                                      : pdl_world_rest_density(w, 0);
	double rho = vkernel_density(&g, &p, vkernel_of(w), dims, 1.0, pdl_world_get_material(w, 0).mass, middle);
	vgrid_free(&g);
	/* every solver's rest density is its kernel's sum over this lattice (DFSPH's: mass over
	 * the rest volume, the inverse of that sum; src/dfsph.c) */
	snprintf(what, sizeof what, "%s %dD fresh pool: kernel density / rest density", solver->name, dims);
	expect(fabs(rho / rho0 - 1) <= 1e-3, what, rho / rho0, 1);
	pdl_world_destroy(w);
}

/* The mass-density kernels (Poly6, Wendland C2) integrate to 1: on a lattice
 * much finer than h, m sum_j W equals the number density m / cell within 0.5 %. */
static void check_fine_lattice(const vsolver* solver, int dims)
{
	if (solver->kind == PDL_SOLVER_CLAVET) return;
	const voptions opt = {VSCALE_SMOKE, 1, false};
	const double spacing = dims == 3 ? 0.2 : 0.1;
	pdl_world* w = vworld_create(solver, &opt, dims, 3, NULL);
	vworld_add_tank(w, (pdl_vec3){-3, -3, -3}, (pdl_vec3){3, 3, 3});
	pdl_fill_def f = pdl_default_fill_def();
	f.half_extents = (pdl_vec3){2, 2, 2};
	f.spacing = (float)spacing;
	pdl_world_fill(w, &f, NULL);
	const pdl_particle_data p = pdl_world_particles(w);
	int middle = 0;
	double best = 1e30;
	for (int i = 0; i < p.count; ++i) {
		double r2 = (double)p.x[i] * p.x[i] + (double)p.y[i] * p.y[i] + (dims == 3 ? (double)p.z[i] * p.z[i] : 0);
		if (r2 < best) best = r2, middle = i;
	}
	vgrid g;
	vgrid_build(&g, &p, dims, 1.0);
	const double cell = dims == 3 ? spacing * spacing * spacing / sqrt(2.0) : spacing * spacing * sqrt(3.0) / 2;
	const double rho = vkernel_density(&g, &p, vkernel_of(w), dims, 1.0, 1.0, middle) * cell;
	vgrid_free(&g);
	char what[96];
	snprintf(what, sizeof what, "%s %dD kernel on a fine lattice: m sum W / (m / cell)", solver->name, dims);
	expect(fabs(rho - 1) <= 0.005, what, rho, 1);
	pdl_world_destroy(w);
}

/* A column at rest measures Z = 1 (its front is its side), and still does with a lone particle
 * 3 h ahead of it (not connected water). */
static void check_fresh_column(void)
{
	const voptions opt = {VSCALE_SMOKE, 1, false};
	const double a = 16 * pdl_rest_spacing(1, 4);
	pdl_world* w = vworld_create(&validate_solvers[0], &opt, 2, (float)(2 * a), NULL);
	vworld_add_tank(w, (pdl_vec3){0, 0, -1}, (pdl_vec3){(float)(10 * a), (float)(3 * a), 1});
	vworld_fill_box(w, 0, (pdl_vec3){0, 0, -1}, (pdl_vec3){(float)a, (float)(2 * a), 1});
	expect(fabs(vdam_front(w, a) - 1) <= 1e-3, "dam break: Z of the column at t = 0", vdam_front(w, a), 1);
	pdl_fill_def drop = pdl_default_fill_def();
	drop.shape = PDL_FILL_POINT;
	drop.position = (pdl_vec3){(float)(a + 3), 0.2f, 0};
	pdl_world_fill(w, &drop, NULL);
	expect(fabs(vdam_front(w, a) - 1) <= 1e-3, "dam break: Z with a lone droplet 3 h ahead", vdam_front(w, a), 1);
	pdl_world_destroy(w);
}

/* Shares under a level: half at the centre, none below, all above, and a point case of each. */
static void check_shares(void)
{
	expect(fabs(vshare_below(2, 2, 5, 5) - 0.5) < 1e-12, "disc half under", vshare_below(2, 2, 5, 5), 0.5);
	expect(fabs(vshare_below(3, 2, 5, 5) - 0.5) < 1e-12, "ball half under", vshare_below(3, 2, 5, 5), 0.5);
	expect(vshare_below(2, 2, 5, 2.9) == 0 && vshare_below(3, 2, 5, 7.1) == 1, "disc none under, ball all under",
	       vshare_below(2, 2, 5, 2.9) + vshare_below(3, 2, 5, 7.1), 1);
	/* a cap of depth r/2: pi (r/2)^2 (3r - r/2) / 3 = 5 pi r^3 / 24, over 4/3 pi r^3: 5/32 */
	expect(fabs(vshare_below(3, 2, 5, 4) - 5.0 / 32) < 1e-12, "ball cap r/2 deep = 5/32", vshare_below(3, 2, 5, 4),
	       5.0 / 32);
	/* a circular segment of depth r/2: r^2 (pi/3 - sqrt(3)/4) over pi r^2 */
	const double segment = (3.14159265358979323846 / 3 - sqrt(3.0) / 4) / 3.14159265358979323846;
	expect(fabs(vshare_below(2, 2, 5, 4) - segment) < 1e-12, "disc segment r/2 deep", vshare_below(2, 2, 5, 4),
	       segment);
	const double x[4] = {0, 1, 2, 3}, y[4] = {1, 3, 5, 7};
	double b;
	expect(fabs(vfit_slope(x, y, 4, &b) - 2) < 1e-12 && fabs(b - 1) < 1e-12, "line fit slope", vfit_slope(x, y, 4, &b),
	       2);
}

int vsmoke_measures(void)
{
	failures = 0;
	printf("Measuring tools on constructed lattices:\n");
	for (int s = 0; s < validate_solver_count; ++s) {
		check_fresh_pool(&validate_solvers[s], 2);
		check_fresh_pool(&validate_solvers[s], 3);
		check_fine_lattice(&validate_solvers[s], 2);
		check_fine_lattice(&validate_solvers[s], 3);
	}
	check_fresh_column();
	check_shares();
	printf("%d measure check(s) failed\n\n", failures);
	return failures;
}
