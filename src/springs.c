/* Stage 4: viscoelastic springs with plasticity, Clavet 2005 algorithms 3 and 4.
 *
 * Springs join neighbours (q < 1) of the same material when that material's spring_stiffness
 * k_spring > 0. Each has a rest length L that flows when stretched or squeezed past the yield
 * ratio gamma (algorithm 3, alpha = plasticity, 1/s):
 *     d = gamma L
 *     if r > L + d:  L += dt alpha (r - L - d)
 *     if r < L - d:  L -= dt alpha (L - d - r)
 * and springs whose L grows past h are removed. The displacement (algorithm 4) is
 *     D = dt^2 k_spring (1 - L/h) (L - r) r^_ij,    x_i -= D/2,  x_j += D/2.
 *
 * Departure from the paper: a new spring starts at L = r (its current length) rather than
 * L = h, so a blob holds the shape it was made in instead of waiting for plastic flow to
 * shorten its springs first.
 *
 * Storage: each particle holds up to PDL_MAX_SPRINGS_PER_PARTICLE slots (partner index, L);
 * both ends hold the spring and update it identically from the same r, so every pass is a
 * gather and runs in parallel deterministically. New springs are made in two passes: each
 * particle proposes its nearest unconnected neighbours, as many as it has free slots, and a
 * spring is made where two particles proposed each other. */
#define SPRINGS_LOOP(name) pdl_##name
#include "springs_loops.h"

#include <math.h>

/* The AVX2 and AVX-512VL copies of the loops (springs_avx2.c, springs_avx512.c), picked as
 * relax.c picks its own. */
#if PDL_HAVE_AVX2_LOOPS
void pdl_plasticity_displace_avx2(void* ctx, int begin, int end);
void pdl_propose_avx2(void* ctx, int begin, int end);
void pdl_plasticity_displace_avx512(void* ctx, int begin, int end);
void pdl_propose_avx512(void* ctx, int begin, int end);
/* by pdl_loops */
static pdl_task_fn* const plasticity_displace_of[] = {pdl_plasticity_displace, pdl_plasticity_displace_avx2,
                                                      pdl_plasticity_displace_avx512};
static pdl_task_fn* const propose_of[] = {pdl_propose, pdl_propose_avx2, pdl_propose_avx512};
#else
static pdl_task_fn* const plasticity_displace_of[] = {pdl_plasticity_displace};
static pdl_task_fn* const propose_of[] = {pdl_propose};
#endif

static inline float distance(const particles* p, int i, int j)
{
	float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z ? p->z[j] - p->z[i] : 0;
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* A spring is made where i and j proposed each other. */
static void accept_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	particles* p = &job->w->p;
	for (int i = begin; i < end; ++i) {
		const int32_t* mine = p->proposals + (size_t)i * PDL_K;
		int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		float* rest = p->spring_rest + (size_t)i * PDL_K;
		int slot = 0;
		for (int a = 0; a < p->scratch[i]; ++a) {
			int j = mine[a];
			const int32_t* theirs = p->proposals + (size_t)j * PDL_K;
			bool mutual = false;
			for (int b = 0; b < p->scratch[j]; ++b) mutual |= theirs[b] == i;
			if (!mutual) continue;
			while (partner[slot] >= 0) ++slot; /* a free slot exists: i proposed no more than it had */
			partner[slot] = j;
			rest[slot] = distance(p, i, j);
		}
	}
}

void pdl_stage_springs(pdl_world* w, float dt)
{
	particles* p = &w->p;
	if (!p->spring_partner) return;
	pdl_stage_job job = {w, dt};
	/* writes x2 and reads x; creation below reads x too, the positions before the springs */
	pdl_pool_for(w->pool, p->count, 1024, plasticity_displace_of[w->loops], &job);
	if (w->any_springs) {
		pdl_pool_for(w->pool, p->count, 512, propose_of[w->loops], &job);
		pdl_pool_for(w->pool, p->count, 1024, accept_range, &job);
	}
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
	t = p->z; p->z = p->z2; p->z2 = t;
}
