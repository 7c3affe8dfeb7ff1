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
 * displacement plus dt times its viscosity velocity change. On a dense grid each pass visits
 * every pair once and adds to both particles (relax_loops.h, second half); on a hashed grid
 * each particle gathers from all its neighbours (first half). */

#define RELAX_LOOP(name) pdl_##name
#include "relax_loops.h"

#include <stdlib.h>
#include <string.h>

/* The loops of each backend, [3D][kind]: kind 0 density, 1 density and viscosity, 2
 * displacement over every particle's neighbours; 3, 4, 5 the same over each pair once. One list
 * of the names (dim: nothing or _3d; sfx: the copy), applied by F to make a table row or the
 * declarations. */
#define LOOP_KINDS(F, dim, sfx)                                                                \
	F(pdl_density_range##dim##sfx) F(pdl_density_viscosity_range##dim##sfx)                   \
	F(pdl_displace_range##dim##sfx) F(pdl_density_pairs##dim##sfx)                           \
	F(pdl_density_viscosity_pairs##dim##sfx) F(pdl_displace_pairs##dim##sfx)
#define LOOP_ENTRY(name) name,
#define LOOP_TABLE(sfx) {{LOOP_KINDS(LOOP_ENTRY, , sfx)}, {LOOP_KINDS(LOOP_ENTRY, _3d, sfx)}}

/* The AVX2 and AVX-512VL copies of the loops (relax_avx2.c, relax_avx512.c). */
#if PDL_HAVE_AVX2_LOOPS
#define DECLARE_LOOP(name) void name(void* ctx, int begin, int end);
#define DECLARE_COPY(sfx) LOOP_KINDS(DECLARE_LOOP, , sfx) LOOP_KINDS(DECLARE_LOOP, _3d, sfx)
DECLARE_COPY(_avx2)
DECLARE_COPY(_avx512)
/* by pdl_loops, then [3D][kind] */
static pdl_task_fn* const loop_copies[][2][6] = {LOOP_TABLE(), LOOP_TABLE(_avx2), LOOP_TABLE(_avx512)};

pdl_loops pdl_best_loops(void)
{
	const char* cap = getenv("PUDDLE_SIMD");
	if (cap && strcmp(cap, "baseline") == 0) return PDL_LOOPS_BASELINE;
	if (!__builtin_cpu_supports("avx2")) return PDL_LOOPS_BASELINE;
	if (cap && strcmp(cap, "avx2") == 0) return PDL_LOOPS_AVX2;
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return PDL_LOOPS_AVX512;
	return PDL_LOOPS_AVX2;
}
#else
static pdl_task_fn* const loop_copies[][2][6] = {LOOP_TABLE()};
pdl_loops pdl_best_loops(void) { return PDL_LOOPS_BASELINE; }
#endif

const char* pdl_vector_loops(void)
{
	static const char* const names[] = {"baseline", "avx2", "avx512vl"};
	return names[pdl_best_loops()];
}

/* The loops for this world's dimensions and processor. */
static pdl_task_fn* const* loops_of(const pdl_world* w) { return loop_copies[w->loops][PDL_IS_3D(w)]; }

/* Runs a pass: over each pair once, even slabs then odd ones, on a dense grid; else (a hashed
 * grid, whose slots are not in spatial order) over every particle's neighbours. */
static void run_pass(pdl_world* w, float dt, int kind)
{
	const pdl_grid* g = &w->grid;
	if (g->dense) {
		for (int parity = 0; parity < 2; ++parity) {
			pdl_stage_job job = {.w = w, .dt = dt, .parity = parity};
			int items = (g->slab_count + 1 - parity) / 2;
			if (items > 0) pdl_pool_for(w->pool, items, 1, loops_of(w)[kind + 3], &job);
		}
	} else {
		pdl_stage_job job = {.w = w, .dt = dt};
		pdl_pool_for(w->pool, w->p.count, 256, loops_of(w)[kind], &job);
	}
}

void pdl_stage_density(pdl_world* w, float dt) { run_pass(w, dt, w->any_viscosity ? 1 : 0); }

void pdl_stage_relax(pdl_world* w, float dt)
{
	particles* p = &w->p;
	run_pass(w, dt, 2);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
	t = p->z; p->z = p->z2; p->z2 = t;
}
