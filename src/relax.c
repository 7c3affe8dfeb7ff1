/* Stage 5: double density relaxation, Clavet 2005 algorithm 2.
 *
 * Density and near density from the neighbours within h (q = r/h):
 *     rho_i = sum_j (1 - q)^2        rho_near_i = sum_j (1 - q)^3              (eq. 1, 4)
 *     P_i = k (rho_i - rho0)         P_near_i = k_near rho_near_i              (eq. 2, 5)
 * and for each pair a displacement along r^_ij (from i to j)
 *     D = dt^2 ((P_i + P_j) (1 - q) + (P_near_i + P_near_j) (1 - q)^2) r^_ij
 * that moves i by -D m_j / (m_i + m_j) and j by +D m_i / (m_i + m_j).
 *
 * The paper sweeps particles one at a time, moving neighbours as it goes; its total pair
 * displacement is the sum of the two halves from i's and j's turns, which is the symmetric
 * (P_i + P_j) form above. Computing every particle's displacement from frozen positions
 * (Jacobi) makes the result independent of order and thread count, and exactly
 * antisymmetric per pair, so m_i dx_i + m_j dx_j = 0 and momentum is conserved. Splitting by
 * inverse mass makes heavy particles move less than light ones, so they sink through them
 * (reference 001's stratification). k and k_near are accelerations (length / s^2): the
 * displacement per step is dt^2 times them, so the fluid is the same at any dt.
 *
 * Two passes over the neighbour pairs: the first sums the densities and, in the same loop, the
 * viscosity impulses (viscosity.h); the second moves each particle by its relaxation
 * displacement plus dt times its viscosity velocity change. */

#define RELAX_LOOP(name) pdl_##name
#include "relax_loops.h"

#include <stdlib.h>
#include <string.h>

/* The AVX2 copy of the loops (relax_avx2.c). */
#if PDL_HAVE_AVX2_LOOPS
void pdl_density_range_avx2(void* ctx, int begin, int end);
void pdl_density_viscosity_range_avx2(void* ctx, int begin, int end);
void pdl_displace_range_avx2(void* ctx, int begin, int end);

bool pdl_relax_has_avx2(void)
{
	const char* choice = getenv("PUDDLE_SIMD");
	if (choice && strcmp(choice, "baseline") == 0) return false;
	return __builtin_cpu_supports("avx2");
}
#else
bool pdl_relax_has_avx2(void) { return false; }
#define pdl_density_range_avx2 pdl_density_range
#define pdl_density_viscosity_range_avx2 pdl_density_viscosity_range
#define pdl_displace_range_avx2 pdl_displace_range
#endif

void pdl_stage_density(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	bool avx2 = w->avx2_loops;
	pdl_task_fn* fn;
	if (w->any_viscosity) fn = avx2 ? pdl_density_viscosity_range_avx2 : pdl_density_viscosity_range;
	else fn = avx2 ? pdl_density_range_avx2 : pdl_density_range;
	pdl_pool_for(w->pool, w->p.count, 256, fn, &job);
}

void pdl_stage_relax(pdl_world* w, float dt)
{
	particles* p = &w->p;
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 256, w->avx2_loops ? pdl_displace_range_avx2 : pdl_displace_range, &job);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
}
