/* Containment: no fluid particle left inside a body (body_step.c's collide stage, after the
 * contacts). A particle inside is moved out through the nearest clear face and the body takes
 * the momentum that took; the SPH coupling (body_sph.c) books its wall pressure in the same
 * records. */
#include "core.h"
#include "body_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Containment: no fluid particle inside a body --------------------------------------------- */

bool pdl_bodies_reserve_contained(body_set* set)
{
	void* records = set->contained;
	bool ok = grow_per_near(set, &records, &set->contained_body, &set->contained_capacity, sizeof *set->contained);
	set->contained = records;
	return ok;
}

typedef struct contain_job {
	pdl_world* w;
	float dt;
} contain_job;

/* How far particle l (body frame, inside body b) moves out of b, and along which normal nl:
 * through the nearest face whose exit point (skin past it) is clear of every wall and obstacle,
 * else through the nearest face. Without this a particle under a body lying on the floor is
 * pushed into the floor, the wall stage puts it back into the body next substep, and every
 * round trip hands the body the particle's momentum: a box resting on the floor felt 1.4 times
 * (SPH: 2.4 times) the buoyancy of the same box in mid-water. */
static float exit_depth(const pdl_world* w, const rigid_body* b, const float* l, bool three, float skin, float* nl)
{
	float depth[PDL_BODY_MAX_EXITS], n[PDL_BODY_MAX_EXITS][3];
	int count = pdl_body_local_exits(b, l, three, depth, n);
	for (int e = 0; e < count; ++e) {
		float out[3], at[3], wn[3];
		for (int k = 0; k < 3; ++k) out[k] = l[k] + (depth[e] + skin) * n[e][k];
		pdl_rotate(b->rot, out, at);
		at[0] += b->def.position.x, at[1] += b->def.position.y;
		at[2] = three ? at[2] + b->def.position.z : 0;
		bool clear = true;
		for (int k = 0; k < w->boundary_count && clear; ++k)
			clear = !w->boundaries[k].alive || pdl_boundary_distance(&w->boundaries[k], at, three, wn) >= 0;
		if (clear) {
			memcpy(nl, n[e], sizeof n[e]);
			return depth[e];
		}
	}
	memcpy(nl, n[0], sizeof n[0]);
	return depth[0];
}

/* Pushes near fluid particle i out of every body it ended up in, to the surface (plus a skin),
 * and, as a wall does (boundary.c's contact), keeps its velocity relative to the body's surface
 * but for the inward normal part, with Coulomb friction on the tangential part. The momentum
 * this takes from the fluid goes to the body, recorded per particle. */
static void contain_range(void* ctx, int begin, int end)
{
	contain_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float dt = job->dt, skin = 1e-3f * w->def.interaction_radius; /* as the walls' */
	for (int e = begin; e < end; ++e) {
		int i = set->near[e];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		/* the bodies with particles around it: Clavet's density pass listed them */
		int bodies[PDL_CONTAIN_BODIES], count = 0;
		bool moved = false;
		if (set->near_bodies_known) {
			const int32_t* met = &set->share_body[(size_t)e * PDL_CONTAIN_BODIES];
			while (count < PDL_CONTAIN_BODIES && met[count] >= 0) bodies[count] = met[count], count++;
		} else {
			count = pdl_bodies_around(set, x, bodies);
		}
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const material* m = &w->materials[p->material[i]];
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[bodies[k]];
			float o[3] = {x[0] - b->def.position.x, x[1] - b->def.position.y, three ? x[2] - b->def.position.z : 0};
			float l[3], nl[3], n[3];
			pdl_unrotate(b->rot, o, l);
			if (b->def.shape == PDL_BODY_BOX && pdl_box_gap(b, l, three) >= skin) continue; /* most */
			float d = pdl_body_local_distance(b, l, three, nl);
			if (d >= skin) continue;
			if (d < 0) d = -exit_depth(w, b, l, three, skin, nl);
			pdl_rotate(b->rot, nl, n);
			if (!three) n[2] = 0;
			float xp[3] = {p->xp[i], p->yp[i], three ? p->zp[i] : 0}, v[3], vb[3], start[3], rl[3];
			/* the body's surface point's velocity over the step: the same material point at the
			 * start pose and now */
			pdl_rotate(b->start_rot, l, rl);
			start[0] = b->start_position.x + rl[0], start[1] = b->start_position.y + rl[1];
			start[2] = three ? b->start_position.z + rl[2] : 0;
			for (int c = 0; c < 3; ++c) {
				v[c] = (x[c] - xp[c]) / dt;
				vb[c] = (x[c] - start[c]) / dt;
				x[c] += (skin - d) * n[c];
			}
			float rv[3] = {v[0] - vb[0], v[1] - vb[1], v[2] - vb[2]}, vn = pdl_dot3(rv, n), nv[3], t[3];
			for (int c = 0; c < 3; ++c) t[c] = rv[c] - vn * n[c];
			float keep = pdl_coulomb_keep(sqrtf(pdl_dot3(t, t)), -vn, m->def.wall_friction * b->def.friction);
			for (int c = 0; c < 3; ++c) nv[c] = vn < 0 ? vb[c] + keep * t[c] : v[c];
			for (int c = 0; c < 3; ++c) {
				rec[k].momentum[c] = -m->def.mass * (nv[c] - v[c]);
				rec[k].r[c] = x[c] - (c == 0 ? b->def.position.x : c == 1 ? b->def.position.y : b->def.position.z);
			}
			rec_body[k] = bodies[k];
			moved = true;
			p->xp[i] = x[0] - nv[0] * dt;
			p->yp[i] = x[1] - nv[1] * dt;
			if (three) p->zp[i] = x[2] - nv[2] * dt;
		}
		if (!moved) continue; /* (no store: most near particles touch no body) */
		p->x[i] = x[0];
		p->y[i] = x[1];
		if (three) p->z[i] = x[2];
	}
}

/* Body b takes containment record c's momentum: booked for pdl_world_body_force, and for a
 * dynamic body a change of velocity after the velocity stage, so the fluid just pushed out
 * stays out of its final pose. */
static void take_containment(rigid_body* b, const containment* c, bool three)
{
	float t[3], dw[3];
	pdl_cross3(c->r, c->momentum, t);
	for (int k = 0; k < 3; ++k) {
		b->fluid_impulse[k] += c->momentum[k];
		b->fluid_angular_impulse[k] += t[k];
	}
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	apply_inv_inertia(b, three, t, dw);
	for (int k = 0; k < 3; ++k) {
		b->pending_dv[k] += c->momentum[k] * b->inv_mass;
		b->pending_dw[k] += dw[k];
	}
}

/* Body slots [begin, end) take their containment records, from their lists of records (the
 * containment's are where the density pass's were: contain_range). */
static void take_containment_range(void* ctx, int begin, int end)
{
	contain_job* job = ctx;
	body_set* set = &job->w->bodies;
	for (int k = begin; k < end; ++k) {
		const int32_t* records = set->body_records + set->near_first[k];
		for (int r = 0; r < set->body_record_count[k]; ++r)
			if (set->contained_body[records[r]] >= 0)
				take_containment(&set->bodies[k], &set->contained[records[r]], PDL_IS_3D(job->w));
	}
}

void pdl_bodies_contain_fluid(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0 || !pdl_bodies_reserve_contained(set)) return;
	contain_job job = {w, dt};
	pdl_pool_for(w->pool, set->near_count, 64, contain_range, &job);
	/* the bodies take the momentum, each in the near list's order: body by body on the threads
	 * where each body's records are listed, else on one thread */
	if (set->body_records_known && set->near_bodies_known) {
		pdl_pool_for(w->pool, set->slots, 1, take_containment_range, &job);
		return;
	}
	const size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q)
		if (set->contained_body[q] >= 0) take_containment(&set->bodies[set->contained_body[q]], &set->contained[q], PDL_IS_3D(w));
}

/* The bodies with boundary particles around x (at most PDL_CONTAIN_BODIES, in the order met). */
int pdl_bodies_around(const body_set* set, const float* x, int* out)
{
	pdl_grid_runs runs;
	int count = 0;
	pdl_grid_runs_around(&set->grid, x[0], x[1], x[2], &runs);
	for (int r = 0; r < runs.count; ++r)
		for (int s = runs.begin[r]; s < runs.end[r]; ++s) {
			int b = set->body[s], seen = 0;
			for (int k = 0; k < count; ++k) seen |= out[k] == b;
			if (!seen && count < PDL_CONTAIN_BODIES) out[count++] = b;
		}
	return count;
}
