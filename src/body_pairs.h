/* Internal: what the bodies' fluid-side pair passes share (body_step.c, body_gather.h): the
 * job, and each near fluid particle's record of what its pairs gave each body. */
#ifndef PUDDLE_BODY_PAIRS_H
#define PUDDLE_BODY_PAIRS_H

#include "core.h"

typedef struct pair_job {
	pdl_world* w;
	float dt;
} pair_job;

/* What one near fluid particle's pairs gave one body in a pass: the momentum (mass * length: a
 * position impulse) and its moment about the body's sampled centre. The fluid side computes
 * both halves of every pair from the same operands, so what the body gains is exactly what the
 * fluid lost; the bodies then sum these in the near list's order, for any thread count. */
typedef struct body_share {
	/* (its body: body_set.share_body) momentum and its moment about the body's sampled centre c: every pair's push acts
	 * along r^ through the fluid particle x_i, so its moment is (x_i - c) x j, exactly the
	 * angular momentum the fluid particle loses */
	float j[3], t[3];
	/* for the relaxation, which sees the same pairs (the fluid's positions before relaxation
	 * are those the density pass saw, the boundary particles stay put within a substep):
	 * sums over the pairs of w_k (1 - q) r^ and w_k (1 - q)^2 r^ */
	float a1[3], a2[3];
} body_share;

/* rec's moment t = (x - c) x j, c the sampled centre of its body, slot `body`. */
static inline void moment_of(const body_set* set, int body, body_share* rec, const float* x, bool three)
{
	const rigid_body* b = &set->bodies[body];
	float arm[3] = {x[0] - b->sample_position.x, x[1] - b->sample_position.y, three ? x[2] - b->sample_position.z : 0};
	pdl_cross3(arm, rec->j, rec->t);
}

/* The density pass of the fluid near the bodies (body_gather.h), one copy per backend of
 * simd.h, all giving the same bits: body_step.c's baseline, body_gather_avx2.c,
 * body_gather_avx512.c. */
void pdl_body_gather_density(void* ctx, int begin, int end);
void pdl_body_gather_density_avx2(void* ctx, int begin, int end);
void pdl_body_gather_density_avx512(void* ctx, int begin, int end);

#endif
