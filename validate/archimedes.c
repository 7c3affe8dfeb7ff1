/* Archimedes' principle against the bare density ratio, 2D and 3D: discs (balls) of 0.3, 0.5
 * and 0.8 times the water's density float with that share of their area (volume) under the
 * free surface, within 0.02; one of 1.5 sinks and comes to rest within 0.1 h of the floor.
 *
 * The body's density is relative to the water's rest lattice (pdl_body_def.density: material
 * 0's mass over the area or volume one particle fills at its rest spacing), so the ratio is what
 * a fluid that keeps its rest density would float the body at. Round bodies float the same in
 * any orientation, so the share under the surface is the circular segment (spherical cap)
 * below the free surface, measured as the half-density surface of the particles on vertical
 * lines 1 to 2.5 h from the body's side (vsurface_height), averaged over the last seconds. */
#include "validate.h"

#include <math.h>
#include <stdio.h>

#define BODIES 4

static const float ratios[BODIES] = {0.3f, 0.5f, 0.8f, 1.5f};

typedef struct arch_size {
	double half_x, half_z, depth, radius, settle, between;
	int samples;
} arch_size;

/* 2D: discs of radius 2 h (the 0.3 disc draws 1.4 h, more than the kernel's reach) in water
 * 9 h deep, 32 h wide; 3D: balls of radius 1.5 h in water 6 h deep, 24 x 8 h. 20 s to settle,
 * then 20 samples over 5 s. */
static arch_size arch_size_for(int dims, const voptions* opt)
{
	arch_size s = dims == 3 ? (arch_size){12, 4, 6, 1.5, 20, 0.25, 20} : (arch_size){16, 0, 9, 2, 20, 0.25, 20};
	if (opt->scale == VSCALE_QUICK) s.settle = 8, s.samples = 8;
	if (opt->scale == VSCALE_SMOKE) {
		s = dims == 3 ? (arch_size){6, 2, 3, 0.75, 0.2, 0.05, 1} : (arch_size){8, 0, 4, 1, 0.3, 0.05, 1};
		if (opt->test_quick) s.settle = 0.05;
	}
	return s;
}

/* The mean free surface around body k: vertical lines 1, 1.5, 2 and 2.5 h beyond its radius
 * (2D on both sides, 3D on a ring of 12), skipping lines within 1 h of a wall or of another
 * body. */
static double surface_around(const vgrid* g, double cell, const pdl_body_def* b, int k, const arch_size* s,
                             int dims, double tank_top)
{
	double sum = 0;
	int used = 0;
	for (int ring = 0; ring < 4; ++ring) {
		const double d = s->radius + 1.0 + 0.5 * ring;
		const int around = dims == 3 ? 12 : 2;
		for (int j = 0; j < around; ++j) {
			double angle = 2 * 3.14159265358979323846 * j / around;
			double x = b[k].position.x + d * cos(angle), z = dims == 3 ? b[k].position.z + d * sin(angle) : 0;
			if (fabs(x) > s->half_x - 1 || (dims == 3 && fabs(z) > s->half_z - 1)) continue;
			bool near_other = false;
			for (int o = 0; o < BODIES; ++o) {
				double dx = x - b[o].position.x, dz = dims == 3 ? z - b[o].position.z : 0;
				near_other |= o != k && sqrt(dx * dx + dz * dz) < s->radius + 1;
			}
			if (near_other) continue;
			double y = vsurface_height(g, cell, x, z, 0.5 * s->depth, tank_top + 1);
			if (y < -1e29) continue;
			sum += y, used++;
		}
	}
	return used > 0 ? sum / used : NAN;
}

static void run_archimedes(const vsolver* solver, const voptions* opt, int dims)
{
	const char* name = dims == 3 ? "archimedes3d" : "archimedes2d";
	const arch_size s = arch_size_for(dims, opt);
	const double tank_top = 2 * s.depth;
	pdl_world* w = vworld_create(solver, opt, dims, (float)s.depth, NULL);
	vworld_add_tank(w, (pdl_vec3){(float)-s.half_x, 0, (float)-s.half_z - (dims == 2)},
	                (pdl_vec3){(float)s.half_x, (float)tank_top, (float)s.half_z + (dims == 2)});
	/* bodies first, so that the fill leaves their room; each starts centred on the filled
	 * level, spread evenly along x */
	pdl_body_id ids[BODIES];
	for (int k = 0; k < BODIES; ++k) {
		pdl_body_def b = pdl_default_body_def();
		b.shape = PDL_BODY_CIRCLE;
		b.radius = (float)s.radius;
		b.density = ratios[k];
		b.position = (pdl_vec3){(float)(-s.half_x + s.half_x * (2 * k + 1) / BODIES), (float)s.depth, 0};
		pdl_error err;
		ids[k] = pdl_world_add_body(w, &b, &err);
		if (ids[k].index < 0) {
			vreport_error(solver->name, name, err.message);
			pdl_world_destroy(w);
			return;
		}
	}
	const int n = vworld_fill_box(w, 0, (pdl_vec3){(float)-s.half_x, 0, (float)-s.half_z - (dims == 2)},
	                              (pdl_vec3){(float)s.half_x, (float)s.depth, (float)s.half_z + (dims == 2)});
	vworld_run(w, s.settle);
	double share[BODIES] = {0}, gap = 0;
	const double cell = vrest_cell(w, 0);
	for (int sample = 0; sample < s.samples; ++sample) {
		if (sample > 0) vworld_run(w, s.between);
		if (!vworld_intact(w, n, solver->name, name)) {
			pdl_world_destroy(w);
			return;
		}
		pdl_body_def b[BODIES];
		for (int k = 0; k < BODIES; ++k) pdl_world_get_body(w, ids[k], &b[k]);
		const pdl_particle_data p = pdl_world_particles(w);
		vgrid g;
		vgrid_build(&g, &p, dims, pdl_world_get_def(w).interaction_radius);
		for (int k = 0; k < BODIES - 1; ++k) {
			double level = surface_around(&g, cell, b, k, &s, dims, tank_top);
			share[k] += vshare_below(dims, s.radius, b[k].position.y, level) / s.samples;
		}
		vgrid_free(&g);
		gap += (b[BODIES - 1].position.y - s.radius) / s.samples; /* the floor is y = 0 */
	}
	char check[64], measured[96], expected[64];
	for (int k = 0; k < BODIES - 1; ++k) {
		snprintf(check, sizeof check, "share under the surface, density %.1f", ratios[k]);
		snprintf(measured, sizeof measured, "%.3f", share[k]);
		snprintf(expected, sizeof expected, "%.3f", ratios[k]);
		vreport_check(solver->name, name, check, fabs(share[k] - ratios[k]) <= 0.02, measured, expected, "0.02");
	}
	snprintf(measured, sizeof measured, "%.3f h above the floor", gap);
	vreport_check(solver->name, name, "density 1.5 rests on the floor", fabs(gap) <= 0.1, measured, "0 h", "0.1 h");
	pdl_world_destroy(w);
}

void vcase_archimedes2d(const vsolver* solver, const voptions* opt) { run_archimedes(solver, opt, 2); }

void vcase_archimedes3d(const vsolver* solver, const voptions* opt) { run_archimedes(solver, opt, 3); }
