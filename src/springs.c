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

#include <math.h>

static inline float distance(const particles* p, int i, int j)
{
	float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i];
	return sqrtf(dx * dx + dy * dy);
}

/* Algorithm 3: plastic flow of rest lengths, and removal. */
static void plasticity_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius, dt = job->dt;
	for (int i = begin; i < end; ++i) {
		const material* m = &w->materials[p->material[i]];
		int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		float* rest = p->spring_rest + (size_t)i * PDL_K;
		for (int s = 0; s < PDL_K; ++s) {
			int j = partner[s];
			if (j < 0) continue;
			if (!m->springs) { /* the material's springs were turned off */
				partner[s] = -1;
				continue;
			}
			float r = distance(p, i, j), L = rest[s];
			if (r < h) {
				float d = m->def.yield_ratio * L;
				if (r > L + d) L += dt * m->def.plasticity * (r - L - d);
				else if (r < L - d) L -= dt * m->def.plasticity * (L - d - r);
			}
			if (L > h) partner[s] = -1;
			rest[s] = L;
		}
	}
}

static bool connected(const int32_t* partner, int j)
{
	for (int s = 0; s < PDL_K; ++s)
		if (partner[s] == j) return true;
	return false;
}

/* Each particle lists its nearest unconnected same-material neighbours, up to its free slots. */
static void propose_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	const pdl_grid* g = &w->grid;
	float h = w->def.interaction_radius, h2 = h * h;
	for (int i = begin; i < end; ++i) {
		int32_t* out = p->proposals + (size_t)i * PDL_K;
		int count = 0;
		const int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		int free_slots = 0;
		for (int s = 0; s < PDL_K; ++s) free_slots += partner[s] < 0;
		uint8_t mat = p->material[i];
		if (free_slots > 0 && w->materials[mat].springs) {
			float best[PDL_K];
			float xi = p->x[i], yi = p->y[i];
			pdl_grid_runs runs;
			pdl_grid_runs_around(g, xi, yi, &runs);
			for (int r = 0; r < runs.count; ++r) {
				for (int j = runs.begin[r]; j < runs.end[r]; ++j) {
					if (j == i || p->material[j] != mat) continue;
					float dx = p->x[j] - xi, dy = p->y[j] - yi, r2 = dx * dx + dy * dy;
					if (r2 >= h2 || connected(partner, j)) continue;
					/* insertion into the sorted list of the nearest free_slots candidates */
					if (count == free_slots && r2 >= best[count - 1]) continue;
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

/* Algorithm 4: spring displacements, gathered per particle from frozen positions. */
static void displace_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float h = w->def.interaction_radius, inv_h = 1.0f / h, dt2 = job->dt * job->dt;
	for (int i = begin; i < end; ++i) {
		const int32_t* partner = p->spring_partner + (size_t)i * PDL_K;
		const float* rest = p->spring_rest + (size_t)i * PDL_K;
		float k = w->materials[p->material[i]].def.spring_stiffness;
		float xi = p->x[i], yi = p->y[i], sx = 0, sy = 0;
		for (int s = 0; s < PDL_K; ++s) {
			int j = partner[s];
			if (j < 0) continue;
			float dx = p->x[j] - xi, dy = p->y[j] - yi, r = sqrtf(dx * dx + dy * dy), ux, uy;
			if (r > 0) {
				ux = dx / r;
				uy = dy / r;
			} else {
				pdl_vec2 u = pdl_coincident_direction(p->id[i], p->id[j]);
				ux = u.x;
				uy = u.y;
			}
			float L = rest[s];
			float d = 0.5f * dt2 * k * (1.0f - L * inv_h) * (L - r); /* same material: halves */
			sx -= d * ux;
			sy -= d * uy;
		}
		p->x2[i] = xi + sx;
		p->y2[i] = yi + sy;
	}
}

void pdl_stage_springs(pdl_world* w, float dt)
{
	particles* p = &w->p;
	if (!p->spring_partner) return;
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, p->count, 1024, plasticity_range, &job);
	if (w->any_springs) {
		pdl_pool_for(w->pool, p->count, 512, propose_range, &job);
		pdl_pool_for(w->pool, p->count, 1024, accept_range, &job);
	}
	pdl_pool_for(w->pool, p->count, 1024, displace_range, &job);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
}
