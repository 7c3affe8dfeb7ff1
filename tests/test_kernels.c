/* SPH kernels (src/kernels.h, Mueller, Charypar & Gross 2003 eq. 20-22; Akinci 2013 eq. 3):
 * each integrates to 1 over its support in 2D (area) and 3D (volume), by midpoint quadrature on
 * a Cartesian grid (not in polar form, so the test does not share the derivation it checks);
 * each gradient matches a central finite difference of its kernel, and the viscosity Laplacian
 * matches the finite-difference Laplacian of the viscosity kernel. A wrong normalisation
 * constant (the 3D one in 2D, 20 instead of 40 for the 2D viscosity Laplacian, ...) fails. */
#include "test.h"

#include "../src/core.h"
#include "../src/kernels.h"

#include <math.h>

typedef double (*kernel_fn)(const pdl_kernels* k, double r);

static double poly6_of(const pdl_kernels* k, double r) { return pdl_poly6(k, (float)(r * r)); }
static double spiky_of(const pdl_kernels* k, double r) { return pdl_spiky(k, (float)r); }
static double visc_of(const pdl_kernels* k, double r) { return pdl_viscosity_kernel(k, (float)r); }
static double cohesion_of(const pdl_kernels* k, double r) { return pdl_cohesion(k, (float)r); }

/* Midpoint rule over the square (2D) or cube (3D) [-h, h]^dim with n cells a side. The cell
 * centres never hit r = 0 (n even), where the viscosity kernel is infinite but integrable. */
static double integrate(const pdl_kernels* k, kernel_fn f, int n)
{
	double h = k->h, d = 2 * h / n, sum = 0;
	if (k->dim == 2) {
		for (int i = 0; i < n; ++i)
			for (int j = 0; j < n; ++j) {
				double x = -h + (i + 0.5) * d, y = -h + (j + 0.5) * d;
				sum += f(k, sqrt(x * x + y * y));
			}
		return sum * d * d;
	}
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j)
			for (int l = 0; l < n; ++l) {
				double x = -h + (i + 0.5) * d, y = -h + (j + 0.5) * d, z = -h + (l + 0.5) * d;
				sum += f(k, sqrt(x * x + y * y + z * z));
			}
	return sum * d * d * d;
}

static void test_kernels_integrate_to_one(void)
{
	const char* names[] = {"poly6", "spiky", "viscosity", "cohesion"};
	kernel_fn fns[] = {poly6_of, spiky_of, visc_of, cohesion_of};
	const float radii[] = {1.0f, 0.37f, 2.5f};
	for (int dim = 2; dim <= 3; ++dim)
		for (int ri = 0; ri < 3; ++ri) {
			pdl_kernels k = pdl_kernels_make(dim, radii[ri]);
			for (int f = 0; f < 4; ++f) {
				/* the viscosity kernel's singularity at r = 0 needs finer cells */
				int n = dim == 2 ? (f == 2 ? 2000 : 600) : (f == 2 ? 240 : 120);
				double integral = integrate(&k, fns[f], n);
				printf("  %dD h = %.2f %-9s integral %.6f\n", dim, radii[ri], names[f], integral);
				ENSURE_MSG(fabs(integral - 1) < 1e-3, "%dD %s integrates to %.6f", dim, names[f], integral);
			}
		}
}

/* The gradients against central differences along each axis, at points all over the support,
 * in 2D and 3D. */
static void test_gradients_match_finite_differences(void)
{
	for (int dim = 2; dim <= 3; ++dim) {
		float h = 1.3f;
		pdl_kernels k = pdl_kernels_make(dim, h);
		double eps = 1e-3 * h, worst_poly6 = 0, worst_spiky = 0;
		double scale_poly6 = k.poly6_grad * pow(h, 5), scale_spiky = k.spiky_grad * h * h;
		for (int s = 1; s < 40; ++s) {
			double r = h * s / 40.0;
			/* a direction that is not along an axis */
			double u[3] = {0.6, dim == 3 ? 0.48 : 0.8, dim == 3 ? 0.64 : 0};
			double x[3] = {r * u[0], r * u[1], r * u[2]};
			for (int a = 0; a < dim; ++a) {
				double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
				xp[a] += eps;
				xm[a] -= eps;
				double rp = sqrt(xp[0] * xp[0] + xp[1] * xp[1] + xp[2] * xp[2]);
				double rm = sqrt(xm[0] * xm[0] + xm[1] * xm[1] + xm[2] * xm[2]);
				/* Poly6 in double from its constant, so rounding of float does not dominate */
				double fd_poly6 = (k.poly6 * pow(fmax(0, h * h - rp * rp), 3) -
				                   k.poly6 * pow(fmax(0, h * h - rm * rm), 3)) / (2 * eps);
				double an_poly6 = pdl_poly6_grad_scale(&k, (float)(r * r)) * x[a];
				double fd_spiky = (k.spiky * pow(fmax(0, h - rp), 3) - k.spiky * pow(fmax(0, h - rm), 3)) / (2 * eps);
				double an_spiky = -pdl_spiky_grad_magnitude(&k, (float)r) * x[a] / r;
				worst_poly6 = fmax(worst_poly6, fabs(fd_poly6 - an_poly6) / scale_poly6);
				worst_spiky = fmax(worst_spiky, fabs(fd_spiky - an_spiky) / scale_spiky);
				/* and the float kernels themselves agree with the double forms used above */
				ENSURE(fabs(pdl_poly6(&k, (float)(r * r)) - k.poly6 * pow(h * h - r * r, 3)) <= 1e-5 * k.poly6 * pow(h, 6));
				ENSURE(fabs(pdl_spiky(&k, (float)r) - k.spiky * pow(h - r, 3)) <= 1e-5 * k.spiky * pow(h, 3));
			}
		}
		printf("  %dD worst relative gradient error: poly6 %.2e, spiky %.2e\n", dim, worst_poly6, worst_spiky);
		ENSURE(worst_poly6 < 1e-3);
		ENSURE(worst_spiky < 1e-3);
	}
}

/* The viscosity kernel in double, from the same constant, so that the finite differences below
 * measure the kernel and not float rounding (checked against the float kernel first). */
static double visc_double(const pdl_kernels* k, double r)
{
	double h = k->h;
	if (!(r < h)) return 0;
	if (k->dim == 2)
		return k->viscosity * (h * (r * r - h * h) / 4 - (r * r * r - h * h * h) / 9 - (h * h * h / 6) * log(r / h));
	return k->viscosity * (-(r * r * r) / (2 * h * h * h) + (r * r) / (h * h) + h / (2 * r) - 1);
}

/* Finite-difference Laplacian (5-point in 2D, 7-point in 3D) of the viscosity kernel against
 * the analytic one, from r = 0.1 h (the kernel is singular at 0) to the edge. */
static void test_viscosity_laplacian_matches_finite_differences(void)
{
	for (int dim = 2; dim <= 3; ++dim) {
		float h = 1.2f;
		pdl_kernels k = pdl_kernels_make(dim, h);
		double eps = 1e-4 * h, worst = 0;
		for (int s = 5; s < 50; ++s) {
			double r = h * s / 50.0;
			double vf = visc_of(&k, r), vd = visc_double(&k, r);
			ENSURE_MSG(fabs(vf - vd) <= 1e-5 * fabs(vd) + 1e-6 * k.viscosity, "%dD kernel at r = %g: float %g, double %g", dim, r, vf, vd);
			double x[3] = {r * 0.6, r * (dim == 3 ? 0.48 : 0.8), r * (dim == 3 ? 0.64 : 0)};
			double centre = visc_double(&k, r), lap = 0;
			for (int a = 0; a < dim; ++a) {
				double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
				xp[a] += eps;
				xm[a] -= eps;
				double rp = sqrt(xp[0] * xp[0] + xp[1] * xp[1] + xp[2] * xp[2]);
				double rm = sqrt(xm[0] * xm[0] + xm[1] * xm[1] + xm[2] * xm[2]);
				lap += (visc_double(&k, rp) - 2 * centre + visc_double(&k, rm)) / (eps * eps);
			}
			double analytic = pdl_viscosity_laplacian(&k, (float)r);
			worst = fmax(worst, fabs(lap - analytic) / (k.viscosity_lap * h));
		}
		printf("  %dD worst relative Laplacian error %.2e\n", dim, worst);
		ENSURE_MSG(worst < 1e-3, "%dD viscosity Laplacian off by %.3g of its peak", dim, worst);
	}
}

/* The constants quoted in the brief and in docs/physics.md. */
static void test_2d_constants(void)
{
	double pi = PDL_PI;
	pdl_kernels k = pdl_kernels_make(2, 2.0f);
	ENSURE(fabs(k.poly6 - 4 / (pi * pow(2, 8))) < 1e-6 * k.poly6);
	ENSURE(fabs(k.spiky - 10 / (pi * pow(2, 5))) < 1e-6 * k.spiky);
	ENSURE(fabs(k.viscosity_lap - 40 / (pi * pow(2, 5))) < 1e-6 * k.viscosity_lap);
	/* outside the support everything is zero */
	ENSURE(pdl_poly6(&k, 4.0f) == 0 && pdl_spiky(&k, 2.0f) == 0 && pdl_viscosity_laplacian(&k, 2.5f) == 0);
	ENSURE(pdl_cohesion(&k, 2.0f) == 0 && pdl_spiky_grad_magnitude(&k, 2.0f) == 0);
}

/* pdl_cos_sin (core.h), the libm-free cos and sin bodies and walls turn by: within an ulp of
 * the double-precision cos and sin rounded to float, over many turns both ways. */
static void test_cos_sin_without_libm(void)
{
	int off = 0, worst_ulps = 0;
	for (int i = -200000; i <= 200000; ++i) {
		float a = (float)i * 1.7e-4f, c, s;
		pdl_cos_sin(a, &c, &s);
		float want_c = (float)cos((double)a), want_s = (float)sin((double)a);
		float dc = fabsf(c - want_c), ds = fabsf(s - want_s);
		float ulp_c = nextafterf(fabsf(want_c), INFINITY) - fabsf(want_c), ulp_s = nextafterf(fabsf(want_s), INFINITY) - fabsf(want_s);
		int ulps = (int)fmaxf(dc / ulp_c, ds / ulp_s);
		if (ulps > 0) off++;
		if (ulps > worst_ulps) worst_ulps = ulps;
	}
	printf("  401,001 angles in [-34, 34] rad: %d differ from libm's correctly rounded value, by at most %d ulp\n", off,
	       worst_ulps);
	ENSURE(worst_ulps <= 1);
	/* any float is an angle (the snapshot fuzzer gave -4.69e29, whose quadrant once went through
	 * an undefined conversion to long long): finite in, within [-1, 1] out; NaN in, NaN out */
	const float odd[] = {-4.69159e29f, 4.69159e29f, 3.4e38f, -3.4e38f, 1e7f, -1e7f, 16777216.0f};
	for (size_t k = 0; k < sizeof odd / sizeof odd[0]; ++k) {
		float c, s;
		pdl_cos_sin(odd[k], &c, &s);
		ENSURE(fabsf(c) <= 1 && fabsf(s) <= 1);
	}
	float c, s;
	pdl_cos_sin(NAN, &c, &s);
	ENSURE(isnan(c) && isnan(s));
}

int main(void)
{
	RUN_TEST(test_kernels_integrate_to_one);
	RUN_TEST(test_cos_sin_without_libm);
	RUN_TEST(test_gradients_match_finite_differences);
	RUN_TEST(test_viscosity_laplacian_matches_finite_differences);
	RUN_TEST(test_2d_constants);
	return TEST_SUMMARY();
}
