/* A resting pool, 2D and 3D: a box of water filled at its rest lattice into a tank of the same
 * floor, settled, then measured from its particles' positions:
 *
 * - volume: the depth between the free surface and the floor surface (each the half-density
 *   surface of the smoothed particle field, vfluid_edge) against the depth the particle count
 *   implies, N times the rest lattice's area (volume) per particle over the floor area the
 *   fluid covers (measured the same way between the side walls);
 * - bulk density: each bulk particle's kernel density recomputed from positions with the
 *   solver's kernel, against its rest density;
 * - clumping: particles closer than half a rest spacing to another;
 * - hydrostatics: the slope of the SPH solvers' pressure over height against rho0 |g| (the
 *   hydrostatic law dp/dy = -rho g), averaged over every frame of the sampling window: an
 *   incompressible solver's pressure is a Lagrange multiplier that swings by tens of percent
 *   from frame to frame while the water stays within 0.01 % of its volume; the weight is carried
 *   on average; Clavet's pressure k (rho - rho0) is a displacement
 *   strength, not a pressure, so for it the pool states its compressibility: the number
 *   density at the bottom against the top. */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct pool_size {
	double width;   /* x (and z in 3D), h */
	double depth;   /* filled depth, h */
	double settle;  /* simulated seconds before measuring */
	double between; /* seconds between samples */
	int samples;
} pool_size;

/* 2D: 15 h deep (the pool), 24 h wide; 3D: 9.5 h deep in a 10 x 10 h tank. 20 s of
 * settling: the SPH pool of docs/physics.md still rearranges now and then until about 23 s, the
 * samples span the 2 s after that. */
static pool_size pool_size_for(int dims, const voptions* opt)
{
	pool_size s = {dims == 3 ? 10 : 24, dims == 3 ? 9.5 : 15, 20, 0.5, 5};
	if (opt->scale == VSCALE_QUICK) s = (pool_size){dims == 3 ? 6 : 12, dims == 3 ? 5 : 8, 6, 0.5, 3};
	if (opt->scale == VSCALE_SMOKE) s = (pool_size){dims == 3 ? 6 : 8, 5, opt->test_quick ? 0.05 : 0.3, 0.05, 1};
	return s;
}

/* One sample's measurements. */
typedef struct pool_sample {
	double top, bottom, depth, implied; /* h */
	double density_error;                /* mean |rho/rho0 - 1| in the bulk */
	double clumped;                      /* share */
	double slope;                        /* dp/dy, SPH solvers */
	double bottom_over_top_number, bottom_over_top_kernel; /* densities, minus 1 */
	double rms_speed;                    /* bulk, h/s */
} pool_sample;

/* Lines across the interior, at least `margin` from the side walls: 2D one row along x, 3D a
 * square grid over (x, z). Writes up to `capacity` (x, z) pairs; returns how many. */
static int interior_lines(int dims, double half_width, double margin, double step, double* xz, int capacity)
{
	int n = 0;
	for (double x = -half_width + margin; x <= half_width - margin + 1e-9; x += step) {
		if (dims == 2) {
			if (n < capacity) xz[2 * n] = x, xz[2 * n + 1] = 0, n++;
			continue;
		}
		for (double z = -half_width + margin; z <= half_width - margin + 1e-9; z += step)
			if (n < capacity) xz[2 * n] = x, xz[2 * n + 1] = z, n++;
	}
	return n;
}

/* The free surface, the floor surface (their mean heights over the interior), the depth between
 * them and the depth the particle count implies over the floor area the fluid covers, into r. */
static void measure_depths(const pdl_world* w, const vgrid* g, double width, double depth, pool_sample* r)
{
	const int dims = pdl_world_get_def(w).dimensions;
	const double cell = vrest_cell(w, 0), half = width / 2;
	const pdl_particle_data p = pdl_world_particles(w);

	/* free surface and floor surface along vertical lines 2 h from the walls and more */
	double xz[2 * 1024];
	int lines = interior_lines(dims, half, 2.0, dims == 3 ? 1.0 : 0.5, xz, 1024), used = 0;
	for (int k = 0; k < lines; ++k) {
		double x = xz[2 * k], z = xz[2 * k + 1], mid = depth / 2;
		double top = vsurface_height(g, cell, x, z, mid, depth + 3);
		const double inside[3] = {x, mid, z}, below[3] = {x, -2, z};
		double down = vfluid_edge(g, cell, inside, below);
		if (top < -1e29 || down < 0) continue;
		r->top += top, r->bottom += mid - down, used++;
	}
	r->top /= used > 0 ? used : 1, r->bottom /= used > 0 ? used : 1;
	r->depth = r->top - r->bottom;

	/* the floor area the fluid covers: its extent between the side walls, along horizontal
	 * lines through the middle third of the depth (3D: along x and along z) */
	double extent[2] = {0, 0};
	for (int axis = 0; axis < (dims == 3 ? 2 : 1); ++axis) {
		int n = 0;
		for (int k = 0; k < 5; ++k) {
			double y = r->bottom + r->depth * (1.0 / 3 + k / 12.0);
			for (double across = -half + 2; across <= half - 2 + 1e-9; across += dims == 3 ? 1.0 : 100) {
				double c = dims == 3 ? across : 0;
				double in[3] = {0, y, c}, lo[3] = {-half - 2, y, c}, hi[3] = {half + 2, y, c};
				if (axis == 1) in[0] = lo[0] = hi[0] = c, in[2] = 0, lo[2] = -half - 2, hi[2] = half + 2;
				double left = vfluid_edge(g, cell, in, lo), right = vfluid_edge(g, cell, in, hi);
				if (left < 0 || right < 0) continue;
				extent[axis] += left + right, n++;
			}
		}
		extent[axis] /= n > 0 ? n : 1;
	}
	double floor_area = dims == 3 ? extent[0] * extent[1] : extent[0];
	r->implied = p.count * cell / floor_area;
}

double vpool_depth(const pdl_world* w, double width, double depth, double* implied)
{
	const pdl_particle_data p = pdl_world_particles(w);
	vgrid g;
	vgrid_build(&g, &p, pdl_world_get_def(w).dimensions, pdl_world_get_def(w).interaction_radius);
	pool_sample r = {0};
	measure_depths(w, &g, width, depth, &r);
	vgrid_free(&g);
	*implied = r.implied;
	return r.depth;
}

static pool_sample measure_pool(pdl_world* w, const vsolver* solver, const pool_size* size)
{
	const pdl_world_def d = pdl_world_get_def(w);
	const int dims = d.dimensions;
	const double h = d.interaction_radius, half = size->width / 2;
	const pdl_particle_data p = pdl_world_particles(w);
	vgrid g;
	vgrid_build(&g, &p, dims, h);
	pool_sample r = {0};
	measure_depths(w, &g, size->width, size->depth, &r);

	/* the bulk: 1.5 h (more than a kernel) from the walls, the floor and the surface */
	const double rho0 = solver->kind == PDL_SOLVER_CLAVET ? pdl_world_get_material(w, 0).rest_density
	                                                      : pdl_world_rest_density(w, 0);
	const double mass = pdl_world_get_material(w, 0).mass;
	int bulk = 0;
	double speed2 = 0;
	/* slabs 2 h thick, 1 h in from the floor and the surface, for the compressibility */
	double slab_count[2] = {0, 0}, slab_kernel[2] = {0, 0};
	for (int i = 0; i < p.count; ++i) {
		bool away = fabs(p.x[i]) < half - 1.5 && (dims == 2 || fabs(p.z[i]) < half - 1.5);
		if (!away) continue;
		if (p.y[i] > r.bottom + 1 && p.y[i] < r.bottom + 3) {
			slab_count[0] += 1;
			slab_kernel[0] += vkernel_density(&g, &p, vkernel_of(w), dims, h, mass, i);
		}
		if (p.y[i] > r.top - 3 && p.y[i] < r.top - 1) {
			slab_count[1] += 1;
			slab_kernel[1] += vkernel_density(&g, &p, vkernel_of(w), dims, h, mass, i);
		}
		if (p.y[i] < r.bottom + 1.5 || p.y[i] > r.top - 1.5) continue;
		double rho = vkernel_density(&g, &p, vkernel_of(w), dims, h, mass, i);
		r.density_error += fabs(rho / rho0 - 1);
		speed2 += p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + (dims == 3 ? p.vz[i] * p.vz[i] : 0);
		bulk++;
	}
	r.density_error /= bulk > 0 ? bulk : 1;
	r.rms_speed = sqrt(speed2 / (bulk > 0 ? bulk : 1));
	if (slab_count[0] > 0 && slab_count[1] > 0) {
		r.bottom_over_top_number = slab_count[0] / slab_count[1] - 1;
		r.bottom_over_top_kernel = (slab_kernel[0] / slab_count[0]) / (slab_kernel[1] / slab_count[1]) - 1;
	}
	vgrid_free(&g);
	r.clumped = vclumped_share(&p, dims, 0.5 * vrest_spacing(w, 0));
	return r;
}

/* The slope dp/dy of the pressure over height of the particles 1.5 h from the walls, between
 * heights lo and hi. */
static double bulk_slope(const pdl_world* w, double half, double lo, double hi)
{
	const pdl_particle_data p = pdl_world_particles(w);
	const bool three = pdl_world_get_def(w).dimensions == 3;
	double* ys = malloc((size_t)p.count * sizeof *ys);
	double* ps = malloc((size_t)p.count * sizeof *ps);
	int n = 0;
	for (int i = 0; i < p.count; ++i) {
		bool away = fabs(p.x[i]) < half - 1.5 && (!three || fabs(p.z[i]) < half - 1.5);
		if (away && p.y[i] > lo && p.y[i] < hi) ys[n] = p.y[i], ps[n] = p.pressure[i], n++;
	}
	double slope = vfit_slope(ys, ps, n, NULL);
	free(ys);
	free(ps);
	return slope;
}

/* Steps `seconds` frame by frame; returns the mean over the frames of bulk_slope. */
static double run_measuring_slope(pdl_world* w, double seconds, double half, double lo, double hi)
{
	long frames = lround(seconds / pdl_world_get_def(w).dt);
	double sum = 0;
	for (long k = 0; k < frames; ++k) {
		pdl_world_step(w);
		sum += bulk_slope(w, half, lo, hi);
	}
	return frames > 0 ? sum / frames : bulk_slope(w, half, lo, hi);
}

static void run_pool(const vsolver* solver, const voptions* opt, int dims)
{
	const char* name = dims == 3 ? "pool3d" : "pool2d";
	const pool_size size = pool_size_for(dims, opt);
	const double half = size.width / 2, tank_top = size.depth + 3;
	pdl_world* w = vworld_create(solver, opt, dims, (float)size.depth, NULL);
	vworld_add_tank(w, (pdl_vec3){(float)-half, 0, (float)-half}, (pdl_vec3){(float)half, (float)tank_top, (float)half});
	const int n = vworld_fill_box(w, 0, (pdl_vec3){(float)-half, 0, (float)-half},
	                              (pdl_vec3){(float)half, (float)size.depth, (float)half});
	vworld_run(w, size.settle - size.between);
	pool_sample mean = {0};
	for (int k = 0; k < size.samples; ++k) {
		/* the bulk of the slope: 1.5 h from the floor and the filled depth's surface */
		double slope = run_measuring_slope(w, size.between, half, 1.5, size.depth - 1.5);
		if (!vworld_intact(w, n, solver->name, name)) {
			pdl_world_destroy(w);
			return;
		}
		pool_sample s = measure_pool(w, solver, &size);
		s.slope = slope;
		mean.depth += s.depth / size.samples, mean.implied += s.implied / size.samples;
		mean.density_error += s.density_error / size.samples, mean.clumped += s.clumped / size.samples;
		mean.slope += s.slope / size.samples, mean.rms_speed += s.rms_speed / size.samples;
		mean.bottom_over_top_number += s.bottom_over_top_number / size.samples;
		mean.bottom_over_top_kernel += s.bottom_over_top_kernel / size.samples;
	}
	char measured[96], expected[64];
	double volume_error = mean.depth / mean.implied - 1;
	snprintf(measured, sizeof measured, "depth %.3f h vs implied %.3f h: %+.2f %%", mean.depth, mean.implied,
	         100 * volume_error);
	vreport_check(solver->name, name, "volume from geometry", fabs(volume_error) <= 0.01, measured, "0 %",
	              "1 %");
	snprintf(measured, sizeof measured, "%.3f %%", 100 * mean.density_error);
	vreport_check(solver->name, name, "bulk density error", mean.density_error <= 0.001, measured, "0 %",
	              "<= 0.1 %");
	snprintf(measured, sizeof measured, "%.2f %% (pdl_stats: %.2f %%)", 100 * mean.clumped,
	         100 * pdl_world_stats(w).clumped);
	vreport_check(solver->name, name, "particles closer than s/2", mean.clumped < 0.01, measured, "0 %", "< 1 %");
	if (solver->kind == PDL_SOLVER_CLAVET) {
		snprintf(measured, sizeof measured, "number density %+.2f %%, kernel density %+.2f %%",
		         100 * mean.bottom_over_top_number, 100 * mean.bottom_over_top_kernel);
		vreport_statement(solver->name, name, "compressibility: bottom vs top", measured, "(as measured)");
	} else {
		const double g = 10, rho0 = pdl_world_rest_density(w, 0);
		double error = mean.slope / (-rho0 * g) - 1;
		snprintf(measured, sizeof measured, "dp/dy %.2f: %+.2f %%", mean.slope, 100 * error);
		snprintf(expected, sizeof expected, "-rho0 g = %.2f", -rho0 * g);
		vreport_check(solver->name, name, "hydrostatic pressure slope", fabs(error) <= 0.02, measured, expected,
		              "2 %");
	}
	snprintf(measured, sizeof measured, "%.4f h/s", mean.rms_speed);
	vreport_statement(solver->name, name, "bulk r.m.s. speed at the end", measured, "(as measured)");
	pdl_world_destroy(w);
}

void vcase_pool2d(const vsolver* solver, const voptions* opt) { run_pool(solver, opt, 2); }

void vcase_pool3d(const vsolver* solver, const voptions* opt) { run_pool(solver, opt, 3); }
