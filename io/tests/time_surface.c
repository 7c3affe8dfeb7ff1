/* Times surface extraction on lattice shapes at rest spacing (not a test; built beside them):
 *
 *     build/io/tests/time_surface [PARTICLES_3D [PARTICLES_2D [REPEATS]]]
 *
 * a ball of about PARTICLES_3D particles (default 10000; cubic lattice, spacing h/2, R = h = 1,
 * cells h/3) through pdl_surface_mesh, and a disc of about PARTICLES_2D (default 20000;
 * hexagonal lattice at the default rest spacing, cells h/4) through pdl_surface_contours.
 * Prints the median, min and max wall time of REPEATS runs (default 9) of the field alone and
 * of the whole extraction. */
#define _POSIX_C_SOURCE 200809L
#include "puddle/surface.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

static void report(const char* what, double* ms, int n)
{
	qsort(ms, (size_t)n, sizeof *ms, compare_double);
	printf("  %-34s median %8.3f ms   (min %.3f, max %.3f, %d runs)\n", what, ms[n / 2], ms[0], ms[n - 1], n);
}

int main(int argc, char** argv)
{
	int n3 = argc > 1 ? atoi(argv[1]) : 10000, n2 = argc > 2 ? atoi(argv[2]) : 20000;
	int repeats = argc > 3 ? atoi(argv[3]) : 9;
	if (n3 < 1 || n2 < 1 || repeats < 1 || repeats > 1000) {
		fprintf(stderr, "usage: time_surface [PARTICLES_3D [PARTICLES_2D [REPEATS]]]\n");
		return 2;
	}
	double* field_ms = malloc((size_t)repeats * sizeof *field_ms);
	double* total_ms = malloc((size_t)repeats * sizeof *total_ms);
	const double pi = 3.14159265358979323846;

	/* 3D: a cubic-lattice ball, radius from the count */
	pdl_surface_def d3 = pdl_default_surface_def_3d();
	d3.spacing = 0.5f;
	double s = d3.spacing, r = s * cbrt(3.0 * n3 / (4.0 * pi));
	int k = (int)(r / s) + 1, count = 0;
	float* x = malloc((size_t)(2 * k + 1) * (size_t)(2 * k + 1) * (size_t)(2 * k + 1) * 3 * sizeof *x);
	float *y = x + (size_t)(2 * k + 1) * (size_t)(2 * k + 1) * (size_t)(2 * k + 1), *z = y + (y - x);
	for (int c = -k; c <= k; ++c)
		for (int b = -k; b <= k; ++b)
			for (int a = -k; a <= k; ++a)
				if ((double)(a * a + b * b + c * c) * s * s <= r * r)
					x[count] = (float)(a * s), y[count] = (float)(b * s), z[count] = (float)(c * s), count++;
	pdl_mesh mesh = {0};
	for (int i = 0; i < repeats; ++i) {
		pdl_field f;
		double t0 = now_ms();
		if (!pdl_surface_field(&d3, 3, x, y, z, count, &f, NULL)) return 1;
		double t1 = now_ms();
		pdl_field_free(&f);
		pdl_mesh_free(&mesh);
		double t2 = now_ms();
		if (!pdl_surface_mesh(&d3, x, y, z, count, &mesh, NULL)) return 1;
		field_ms[i] = t1 - t0, total_ms[i] = now_ms() - t2;
	}
	printf("3D ball: %d particles (spacing %.2f, R = %.2f, cell %.3f): %d vertices, %d triangles\n", count, s,
	       d3.radius, d3.cell_size, mesh.vertex_count, mesh.triangle_count);
	report("field", field_ms, repeats);
	report("field + marching tetrahedra", total_ms, repeats);
	pdl_mesh_free(&mesh);
	free(x);

	/* 2D: a hexagonal-lattice disc */
	pdl_surface_def d2 = pdl_default_surface_def();
	s = d2.spacing, r = sqrt(n2 * 0.8660254037844386 * s * s / pi);
	int rows = (int)(r / (0.8660254037844386 * s)) + 1, cols = (int)(r / s) + 2;
	x = malloc((size_t)(2 * rows + 1) * (size_t)(2 * cols + 1) * 2 * sizeof *x);
	y = x + (size_t)(2 * rows + 1) * (size_t)(2 * cols + 1);
	count = 0;
	for (int j = -rows; j <= rows; ++j)
		for (int i = -cols; i <= cols; ++i) {
			double px = (i + 0.5 * (j & 1)) * s, py = j * 0.8660254037844386 * s;
			if (px * px + py * py <= r * r) x[count] = (float)px, y[count] = (float)py, count++;
		}
	pdl_contours contours = {0};
	for (int i = 0; i < repeats; ++i) {
		pdl_field f;
		double t0 = now_ms();
		if (!pdl_surface_field(&d2, 2, x, y, NULL, count, &f, NULL)) return 1;
		double t1 = now_ms();
		pdl_field_free(&f);
		pdl_contours_free(&contours);
		double t2 = now_ms();
		if (!pdl_surface_contours(&d2, x, y, count, &contours, NULL)) return 1;
		field_ms[i] = t1 - t0, total_ms[i] = now_ms() - t2;
	}
	printf("2D disc: %d particles (spacing %.4f, R = %.2f, cell %.3f): %d contours, %d points\n", count, s, d2.radius,
	       d2.cell_size, contours.contour_count, contours.point_count);
	report("field", field_ms, repeats);
	report("field + marching squares", total_ms, repeats);
	pdl_contours_free(&contours);
	free(x);
	free(field_ms);
	free(total_ms);
	return 0;
}
