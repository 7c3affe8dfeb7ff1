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
#include "core.h"
#include "simd.h"

#include <math.h>

static inline float distance(const particles* p, int i, int j)
{
	float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z ? p->z[j] - p->z[i] : 0;
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Algorithms 3 and 4 in one pass over each particle's springs, gathered from frozen positions:
 * plastic flow of the rest length L (and removal past h), then the spring displacement with
 * the new L, both from the same distance r. Springs made later in the step (below) start at
 * L = r, so their displacement this step is exactly zero and doing this pass first changes
 * nothing but the cost. */
static void plasticity_displace_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius, inv_h = 1.0f / h, dt = job->dt, dt2 = dt * dt;
	const bool three = PDL_IS_3D(w);
	for (int i = begin; i < end; ++i) {
		const material* m = &w->materials[p->material[i]];
		int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		float* rest = p->spring_rest + (size_t)i * PDL_K;
		float k = m->def.spring_stiffness, xi = p->x[i], yi = p->y[i], zi = three ? p->z[i] : 0;
		float sx = 0, sy = 0, sz = 0;
		for (int s = 0; s < PDL_K; ++s) {
			int j = partner[s];
			if (j < 0) continue;
			if (!m->springs) { /* the material's springs were turned off */
				partner[s] = -1;
				continue;
			}
			float dx = p->x[j] - xi, dy = p->y[j] - yi, dz = three ? p->z[j] - zi : 0;
			float r = sqrtf(dx * dx + dy * dy + dz * dz);
			float L = rest[s];
			if (r < h) { /* algorithm 3 */
				float d = m->def.yield_ratio * L;
				if (r > L + d) L += dt * m->def.plasticity * (r - L - d);
				else if (r < L - d) L -= dt * m->def.plasticity * (L - d - r);
			}
			rest[s] = L;
			if (L > h) {
				partner[s] = -1;
				continue;
			}
			/* algorithm 4: D = dt^2 k (1 - L/h) (L - r) r^_ij, half to each end (same material) */
			float ux, uy, uz;
			if (r > 0) {
				float inv_r = 1.0f / r;
				ux = dx * inv_r;
				uy = dy * inv_r;
				uz = dz * inv_r;
			} else {
				pdl_vec3 u = pdl_coincident_direction(p->id[i], p->id[j], three);
				ux = u.x;
				uy = u.y;
				uz = u.z;
			}
			float D = 0.5f * dt2 * k * (1.0f - L * inv_h) * (L - r);
			sx -= D * ux;
			sy -= D * uy;
			sz -= D * uz;
		}
		p->x2[i] = xi + sx;
		p->y2[i] = yi + sy;
		if (three) p->z2[i] = zi + sz;
	}
}

/* Whether i already has a spring to j. Branch-free over all slots so the compiler vectorizes
 * it: most candidates of a blob are connected, and an early exit mispredicts. */
static bool connected(const int32_t* partner, int j)
{
	int any = 0;
	for (int s = 0; s < PDL_K; ++s) any |= partner[s] == j;
	return any != 0;
}

/* Each particle lists its nearest unconnected same-material neighbours, up to its free slots.
 * Eight candidates at a time are tested for distance (simd.h); only those within h go on to
 * the scalar tests. */
static void propose_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius;
	const f8 h2 = f8_set1(h * h);
	const bool three = PDL_IS_3D(w);
	pdl_grid_runs runs = {0};
	int32_t cached = -1;
	for (int i = begin; i < end; ++i) {
		int32_t* out = p->proposals + (size_t)i * PDL_K;
		int count = 0;
		const int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		int free_slots = 0;
		for (int s = 0; s < PDL_K; ++s) free_slots += partner[s] < 0;
		uint8_t mat = p->material[i];
		float xi = p->x[i], yi = p->y[i], zi = three ? p->z[i] : 0;
		pdl_grid_runs_of(g, i, xi, yi, zi, &runs, &cached);
		if (free_slots > 0 && w->materials[mat].springs) {
			float best[PDL_K];
			const f8 xi8 = f8_set1(xi), yi8 = f8_set1(yi), zi8 = f8_set1(zi);
			for (int r = 0; r < runs.count; ++r) {
				for (int j0 = runs.begin[r]; j0 < runs.end[r]; j0 += PDL_LANES) {
					f8 dx = f8_sub(f8_load(p->x + j0), xi8), dy = f8_sub(f8_load(p->y + j0), yi8);
					f8 r2v = f8_add(f8_mul(dx, dx), f8_mul(dy, dy));
					if (three) {
						f8 dz = f8_sub(f8_load(p->z + j0), zi8);
						r2v = f8_add(r2v, f8_mul(dz, dz));
					}
					int in = m8_bits(m8_and(m8_lanes(j0, runs.end[r], i), f8_lt(r2v, h2)));
					float r2s[PDL_LANES];
					f8_store(r2s, r2v);
					for (int k = 0; in; ++k, in >>= 1) {
						if (!(in & 1)) continue;
						int j = j0 + k;
						float r2 = r2s[k];
						if (p->material[j] != mat) continue;
						/* insertion into the sorted list of the nearest free_slots candidates */
						if (count == free_slots && r2 >= best[count - 1]) continue;
						if (connected(partner, j)) continue;
						int at = count < free_slots ? count++ : count - 1;
						while (at > 0 && best[at - 1] > r2) {
							best[at] = best[at - 1];
							out[at] = out[at - 1];
							--at;
						}
						best[at] = r2;
						out[at] = j;
					}
				}
			}
		}
		p->scratch[i] = count;
	}
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
	pdl_pool_for(w->pool, p->count, 1024, plasticity_displace_range, &job);
	if (w->any_springs) {
		pdl_pool_for(w->pool, p->count, 512, propose_range, &job);
		pdl_pool_for(w->pool, p->count, 1024, accept_range, &job);
	}
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
	t = p->z; p->z = p->z2; p->z2 = t;
}
