/* A heavy fluid over a light one turns over (the Rayleigh-Taylor instability: Rayleigh 1883,
 * Taylor 1950). A tank 20 h wide is filled 20 h deep; the upper half is a second material with
 * twice the particle mass (same rest spacing, so twice the density: Atwood number 1/3). The
 * interface is bent by one half-wave of amplitude 1 h, y = 10 + cos(pi (x + 10) / 20), so the
 * heavy fluid starts down on the right. Linear theory grows the bend at
 * sigma = sqrt(A g k) = sqrt(10/3 * pi/20) = 0.72 1/s (without viscosity): from 1 h to the tank's
 * size in about 4 s. The check, after 10 s: the heavy fluid's centre of mass lies below the
 * light fluid's (they started 10 h the other way round). */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Mean height of the particles of one material, h. */
static double mean_height(const pdl_particle_data* p, int material)
{
	double sum = 0;
	int n = 0;
	for (int i = 0; i < p->count; ++i)
		if (p->material[i] == material) sum += p->y[i], n++;
	return n > 0 ? sum / n : NAN;
}

void vcase_overturn(const vsolver* solver, const voptions* opt)
{
	const double W = opt->scale == VSCALE_SMOKE ? 6 : 20, depth = W;
	const double seconds = opt->scale == VSCALE_FULL ? 10 : opt->scale == VSCALE_QUICK ? 10 : opt->test_quick ? 0.1 : 0.5;
	pdl_world* w = vworld_create(solver, opt, 2, (float)depth, NULL);
	pdl_material_def heavy = vworld_water(solver);
	heavy.mass = 2;
	heavy.color = 0xd4462a;
	const int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	vworld_add_tank(w, (pdl_vec3){(float)(-W / 2), 0, -1}, (pdl_vec3){(float)(W / 2), (float)(depth + 2), 1});
	const int n = vworld_fill_box(w, 0, (pdl_vec3){(float)(-W / 2), 0, -1}, (pdl_vec3){(float)(W / 2), (float)depth, 1});
	const pdl_particle_data p = pdl_world_particles(w);
	uint8_t* material = malloc((size_t)n);
	for (int i = 0; i < n; ++i)
		material[i] = (uint8_t)(p.y[i] > depth / 2 + cos(3.14159265358979323846 * (p.x[i] + W / 2) / W) ? heavy_id : 0);
	vworld_rewrite(w, NULL, NULL, material);
	free(material);
	const pdl_particle_data p0 = pdl_world_particles(w);
	const double start = mean_height(&p0, heavy_id) - mean_height(&p0, 0);
	vworld_run(w, seconds);
	if (!vworld_intact(w, n, solver->name, "overturn")) {
		pdl_world_destroy(w);
		return;
	}
	const pdl_particle_data p1 = pdl_world_particles(w);
	const double end = mean_height(&p1, heavy_id) - mean_height(&p1, 0);
	char measured[96], check[64];
	snprintf(measured, sizeof measured, "heavy - light centre: %+.2f h (at t = 0: %+.2f h)", end, start);
	snprintf(check, sizeof check, "heavy below light after %.0f s", seconds);
	vreport_check(solver->name, "overturn", check, end < 0, measured, "< 0 h", "-");
	pdl_world_destroy(w);
}
