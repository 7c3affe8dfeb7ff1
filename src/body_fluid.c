/* The bodies in Clavet's fluid: the fluid-body pairs of the density and relax stages
 * (clavet.c calls pdl_bodies_density and pdl_bodies_relax after the fluid's passes; body_step.c
 * has the frame around them).
 *
 * Fluid-body pairs (Akinci et al. 2012, "Versatile Rigid-Fluid Coupling for Incompressible
 * SPH"): a boundary particle k near fluid particle i counts in i's density with the same kernel
 * as a fluid neighbour, and has i's own pressure ("pressure mirroring", Akinci eq. 10), so the
 * pair's displacement is Clavet's D = dt^2 ((P_i + P_k)(1 - q) + (P_near_i + P_near_k)(1 - q)^2)
 * with P_k = P_i, P_near_k = P_near_i, and the fluid particle takes half of it, as from a fluid
 * neighbour of its own mass. To the fluid a body is more fluid at its own pressure, so the
 * pressure field runs on through the surface and Archimedes' force comes out of it. The body
 * takes the opposite momentum, m_i D / 2 along r^, summed over its particles into a change of
 * its linear and angular momentum (Akinci eq. 12, 13), which moves its predicted pose: the
 * position-based form of their force and torque. Momentum is exchanged exactly pair by pair;
 * the body's mass and inertia (from its shape and density) decide how far it moves.
 *
 * The density pass's fluid side is body_gather.h, compiled here and once per vector backend. */
#include "core.h"
#include "body_pairs.h"
#include "body_step.h"

#define BODY_GATHER(name) name
#include "body_gather.h"

/* the copies of the gather, by pdl_loops (body_gather_avx2.c, body_gather_avx512.c) */
#if PDL_HAVE_AVX2_LOOPS
static pdl_task_fn* const gather_density[] = {pdl_body_gather_density, pdl_body_gather_density_avx2,
                                               pdl_body_gather_density_avx512};
#else
static pdl_task_fn* const gather_density[] = {pdl_body_gather_density};
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Fluid-body pairs ------------------------------------------------------------------------ */
/* The relaxation, over the near list, from the density pass's sums (the same pairs): the
 * fluid particle moves by -dt^2 (P sum w (1 - q) r^ + P_near sum w (1 - q)^2 r^) (Clavet alg. 2,
 * the body's pressures mirrored from the fluid's), each body's part of it booked, opposite, to
 * its record; the viscosity's momentum there was already applied. */
static void fluid_relax_range(void* ctx, int begin, int end)
{
	pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float dt2 = job->dt * job->dt;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e];
		body_share* rec = &set->shares[(size_t)e * PDL_CONTAIN_BODIES];
		const int32_t* rec_body = &set->share_body[(size_t)e * PDL_CONTAIN_BODIES];
		const float mass = w->materials[p->material[i]].def.mass;
		const float pressure = dt2 * p->pressure[i], near = dt2 * p->near_pressure[i];
		const float x[3] = {p->x2[i], p->y2[i], three ? p->z2[i] : 0};
		float move[3] = {0, 0, 0};
		for (int k = 0; k < PDL_CONTAIN_BODIES && rec_body[k] >= 0; ++k) {
			body_share* sh = &rec[k];
			for (int c = 0; c < 3; ++c) {
				float d = pressure * sh->a1[c] + near * sh->a2[c];
				move[c] -= d;
				sh->j[c] = mass * d; /* the fluid particle moved by -d, so the body gains m d */
			}
			moment_of(set, rec_body[k], sh, x, three);
		}
		p->x[i] += move[0];
		p->y[i] += move[1];
		if (three) p->z[i] += move[2];
	}
}

static bool reserve_shares(body_set* set)
{
	void* records = set->shares;
	bool ok = grow_per_near(set, &records, &set->share_body, &set->share_capacity, sizeof *set->shares);
	set->shares = records;
	return ok;
}

/* Body slots [begin, end): the indices of their records in the near list's order, from their
 * candidates (near_hits, in slot order, as the near list is). */
static void body_records_range(void* ctx, int begin, int end)
{
	body_set* set = ctx;
	for (int k = begin; k < end; ++k) {
		const int32_t* hits = set->near_hits + set->near_first[k];
		int32_t* out = set->body_records + set->near_first[k];
		int count = 0;
		for (int h = 0; h < set->near_total[k]; ++h) {
			const int32_t* met = &set->share_body[(size_t)set->near_index[hits[h]] * PDL_CONTAIN_BODIES];
			for (int s = 0; s < PDL_CONTAIN_BODIES && met[s] >= 0; ++s)
				if (met[s] == k) {
					out[count++] = (int32_t)(met + s - set->share_body);
					break;
				}
		}
		set->body_record_count[k] = count;
	}
}

/* Per body, the indices of its records (the density pass's: the relaxation's and the
 * containment's fill the same places) in the near list's order, so that the threads can sum
 * them body by body in the order one thread would sum them all. Found from each body's
 * candidates; known when that finds every record the density pass filled (a particle that
 * moved after they were listed, e.g. by its springs, may meet a body it was no candidate of:
 * then the sums run on one thread). */
static void list_body_records(pdl_world* w)
{
	body_set* set = &w->bodies;
	if (!set->near_hits_known) return;
	pdl_pool_for(w->pool, set->slots, 1, body_records_range, set);
	long long found = 0;
	for (int k = 0; k < set->slots; ++k) found += set->body_record_count[k];
	set->body_records_known = found == atomic_load_explicit(&set->share_records, memory_order_relaxed);
}

/* Body b's records' sum (pending_sum, mass * length and its moment) booked for
 * pdl_world_body_force and, for a dynamic body, moved by. */
static void move_by_pair_impulse(rigid_body* b, bool three, float dt)
{
	for (int c = 0; c < 3; ++c) {
		b->fluid_impulse[c] += b->pending_sum[c] / dt;
		b->fluid_angular_impulse[c] += b->pending_sum[3 + c] / dt;
	}
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	float lin[3] = {(float)b->pending_sum[0], (float)b->pending_sum[1], (float)b->pending_sum[2]};
	float ang[3] = {(float)b->pending_sum[3], (float)b->pending_sum[4], (float)b->pending_sum[5]}, dtheta[3];
	b->def.position.x += lin[0] * b->inv_mass;
	b->def.position.y += lin[1] * b->inv_mass;
	if (three) b->def.position.z += lin[2] * b->inv_mass;
	apply_inv_inertia(b, three, ang, dtheta);
	turn(b, three, dtheta);
}

static inline void add_share(rigid_body* b, const body_share* sh)
{
	for (int c = 0; c < 3; ++c) {
		b->pending_sum[c] += sh->j[c];
		b->pending_sum[3 + c] += sh->t[c];
	}
}

static void pair_impulses_range(void* ctx, int begin, int end)
{
	pair_job* job = ctx;
	body_set* set = &job->w->bodies;
	for (int k = begin; k < end; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		memset(b->pending_sum, 0, sizeof b->pending_sum);
		const int32_t* records = set->body_records + set->near_first[k];
		for (int r = 0; r < set->body_record_count[k]; ++r) add_share(b, &set->shares[records[r]]);
		move_by_pair_impulse(b, PDL_IS_3D(job->w), job->dt);
	}
}

/* Sums the records per body (in the near list's order) and moves the dynamic bodies' poses by
 * them; every body books the momentum for pdl_world_body_force. Body by body on the threads
 * where each body's records are listed, else the same sums on one thread. */
static void apply_pair_impulses(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->body_records_known) {
		pair_job job = {w, dt};
		pdl_pool_for(w->pool, set->slots, 1, pair_impulses_range, &job);
		return;
	}
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	const size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q)
		if (set->share_body[q] >= 0) add_share(&set->bodies[set->share_body[q]], &set->shares[q]);
	for (int k = 0; k < set->slots; ++k)
		if (set->bodies[k].alive) move_by_pair_impulse(&set->bodies[k], PDL_IS_3D(w), dt);
}

void pdl_bodies_density(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	if (!reserve_shares(set)) {
		set->near_count = 0; /* out of memory: the bodies sit out this step */
		return;
	}
	pair_job job = {w, dt};
	atomic_store_explicit(&set->share_records, 0, memory_order_relaxed);
	pdl_pool_for(w->pool, set->near_count, 64, gather_density[w->loops], &job);
	/* the containment needs only the bodies of these pairs (a particle farther than h from
	 * every boundary particle cannot reach a body's surface in one relaxation) */
	set->near_bodies_known = true;
	list_body_records(w);
	if (w->any_viscosity) apply_pair_impulses(w, dt);
}

void pdl_bodies_relax(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	pair_job job = {w, dt};
	pdl_pool_for(w->pool, set->near_count, 64, fluid_relax_range, &job);
	apply_pair_impulses(w, dt);
}
