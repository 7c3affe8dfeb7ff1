/* Internal to the bodies' step (body_step.c lists its files by topic): what more than one of
 * them uses, the bodies' pose helpers, the containment record and the arrays per near fluid
 * particle, and the entries that body_step.c and body_sph.c call in body_contacts.c and
 * body_contain.c. Nothing there calls back up. */
#ifndef PUDDLE_BODY_STEP_H
#define PUDDLE_BODY_STEP_H

#include "core.h"

#include <math.h>
#include <stdlib.h>

/* ---- Poses ----------------------------------------------------------------------------------- */

/* r = R l (the body's rotation matrix, row major) */
static inline void position_of(const rigid_body* b, float* c)
{
	c[0] = b->def.position.x, c[1] = b->def.position.y, c[2] = b->def.position.z;
}

/* I^-1 v in world space: R diag(inv_inertia) R^T v (2D: only z turns). */
static inline void apply_inv_inertia(const rigid_body* b, bool three, const float* v, float* out)
{
	if (!three) {
		out[0] = out[1] = 0;
		out[2] = b->inv_inertia.z * v[2];
		return;
	}
	float l[3];
	pdl_unrotate(b->rot, v, l);
	l[0] *= b->inv_inertia.x, l[1] *= b->inv_inertia.y, l[2] *= b->inv_inertia.z;
	pdl_rotate(b->rot, l, out);
}

/* Turns the body by the small rotation vector theta (radians; 2D: z). */
static inline void turn(rigid_body* b, bool three, const float* theta)
{
	if (!three) {
		b->def.angle += theta[2];
	} else {
		pdl_quat q = b->def.orientation;
		/* q += 0.5 (theta, 0) q, then normalise (Baraff 2001, the quaternion rate) */
		float x = q.x + 0.5f * (theta[0] * q.w + theta[1] * q.z - theta[2] * q.y);
		float y = q.y + 0.5f * (theta[1] * q.w + theta[2] * q.x - theta[0] * q.z);
		float z = q.z + 0.5f * (theta[2] * q.w + theta[0] * q.y - theta[1] * q.x);
		float w = q.w - 0.5f * (theta[0] * q.x + theta[1] * q.y + theta[2] * q.z);
		float len = sqrtf(x * x + y * y + z * z + w * w);
		b->def.orientation = (pdl_quat){x / len, y / len, z / len, w / len};
	}
	pdl_body_update_rotation(b, three);
}

/* What a near fluid particle's containment (or SPH's wall pressure) did to one body. */
typedef struct containment {
	/* (its body: body_set.contained_body) */
	float momentum[3]; /* the body's momentum change, mass * world units / s */
	float r[3];        /* where, from the body's centre */
} containment;

/* *records (each `size` bytes) and their body slots, *capacity of each, grown to
 * PDL_CONTAIN_BODIES per near particle; false when out of memory (the capacity then stays
 * what both still hold). */
static inline bool grow_per_near(const body_set* set, void** records, int32_t** bodies, int* capacity, size_t size)
{
	size_t need = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	if (need <= (size_t)*capacity) return true;
	void* grown = realloc(*records, need * size);
	if (grown) *records = grown;
	int32_t* grown_bodies = realloc(*bodies, need * sizeof *grown_bodies);
	if (grown_bodies) *bodies = grown_bodies;
	if (!grown || !grown_bodies) return false;
	*capacity = (int)need;
	return true;
}

/* body_contacts.c: contacts between the bodies' boundary particles and the walls or each
 * other, found and solved in the collide stage, their restitution and friction in the velocity
 * stage */
void pdl_bodies_find_contacts(pdl_world* w);
void pdl_bodies_solve_contacts(pdl_world* w);
void pdl_bodies_contact_velocities(pdl_world* w, float dt);

/* body_contain.c: the containment records (grown to the near list; false when out of memory),
 * the bodies with boundary particles around x (at most PDL_CONTAIN_BODIES of them, into out),
 * and the collide stage's last part: no fluid particle left inside a body */
bool pdl_bodies_reserve_contained(body_set* set);
int pdl_bodies_around(const body_set* set, const float* x, int* out);
void pdl_bodies_contain_fluid(pdl_world* w, float dt);

#endif
