/* The rest densities of the fill lattices (include/puddle/puddle.h): the Poly6 density sum of
 * one particle among the neighbours pdl_world_fill() places around it at a spacing (Mueller,
 * Charypar & Gross 2003, eq. 3, with W_poly6 of eq. 20). The world's material tables
 * (world.c), the bodies' density scale (body.c) and the SPH solver read them; they read
 * nothing of the world, so they live below all three. */
#include "core.h"
#include "kernels.h"

#include <math.h>

float pdl_sph_rest_density(float h, float spacing, float mass)
{
	if (!(h > 0) || !(spacing > 0) || !(mass > 0) || !isfinite(h) || !isfinite(spacing)) return 0;
	/* The same hexagonal lattice as pdl_world_fill(): rows spacing * sqrt(3)/2 apart, odd rows
	 * shifted by half a spacing. Summed in double, rounded once. */
	double H = h, s = spacing, row = s * 0.8660254037844386, sum = 0;
	double poly6 = 4.0 / (PDL_PI * pow(H, 8));
	int reach_j = (int)ceil(H / row) + 1, reach_i = (int)ceil(H / s) + 2;
	for (int j = -reach_j; j <= reach_j; ++j) {
		double y = j * row, offset = (j & 1) ? 0.5 * s : 0.0;
		for (int i = -reach_i; i <= reach_i; ++i) {
			double x = i * s + offset, r2 = x * x + y * y;
			if (r2 < H * H) sum += poly6 * pow(H * H - r2, 3);
		}
	}
	return (float)(mass * sum);
}

float pdl_sph_rest_density_3d(float h, float spacing, float mass)
{
	if (!(h > 0) || !(spacing > 0) || !(mass > 0) || !isfinite(h) || !isfinite(spacing)) return 0;
	/* The same face-centred cubic lattice as pdl_world_fill() in 3D: the points (i, j, k) a
	 * with a = spacing / sqrt 2 and i + j + k even. 3D Poly6: 315 / (64 pi h^9) (h^2 - r^2)^3. */
	double H = h, a = spacing * 0.70710678118654752, sum = 0;
	double poly6 = 315.0 / (64.0 * PDL_PI * pow(H, 9));
	int reach = (int)ceil(H / a) + 1;
	for (int k = -reach; k <= reach; ++k)
		for (int j = -reach; j <= reach; ++j)
			for (int i = -reach; i <= reach; ++i) {
				if ((i + j + k) & 1) continue;
				double r2 = a * a * (double)(i * i + j * j + k * k);
				if (r2 < H * H) sum += poly6 * pow(H * H - r2, 3);
			}
	return (float)(mass * sum);
}
