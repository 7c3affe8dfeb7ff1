/* Contacts of the rigid bodies: against the walls and obstacles and each other, on their
 * boundary particles (body_step.c's collide stage finds and solves them, its velocity stage
 * applies their restitution and friction). */
#include "core.h"
#include "body_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Contacts: bodies against walls and each other ---------------------------------------------
 *
 * Position-based rigid-body contacts (Mueller, Macklin, Chentanez, Jeschke & Kim 2020,
 * "Detailed Rigid Body Simulation with Extended Position Based Dynamics", sections 3.3-3.6), on
 * the boundary particles: a particle of a body closer to a wall than half a spacing, or to a
 * particle of another body than a spacing, is a contact. The particles are what give any pair
 * of shapes their contact points, so a box on a box has a row of them along the shared face
 * and stands still. Each iteration moves both bodies' poses apart along the contact normal by
 * the generalized inverse masses w = 1/M + (r x n) . I^-1 (r x n) (eq. 2-4), Gauss-Seidel in the
 * contacts' fixed order; static friction keeps a contact point where it was while the
 * tangential correction stays inside the friction cone (eq. 26-27); after the velocity update,
 * restitution and dynamic friction act on the velocities (section 3.6). */

enum { CONTACT_ITERATIONS = 16 };

typedef struct body_contact {
	int a, b;      /* body slots; b = -1: a wall */
	int wall;      /* boundary index when b = -1 */
	float la[3];   /* the point of a (a boundary particle or a corner), in a's frame */
	float rest;    /* the distance it keeps from the wall or b's surface */
	float lambda;  /* the normal position impulse so far (mass * length) */
	float lambda_t; /* the static friction's so far */
	bool sticking; /* static friction held it this step */
} body_contact;

static bool add_contact(body_set* set, const body_contact* c)
{
	if (set->contact_count == set->contact_capacity) {
		int cap = set->contact_capacity ? 2 * set->contact_capacity : 256;
		body_contact* grown = realloc(set->contacts, (size_t)cap * sizeof *grown);
		if (!grown) return false;
		set->contacts = grown;
		set->contact_capacity = cap;
	}
	set->contacts[set->contact_count++] = *c;
	return true;
}

static void anchor_of(const rigid_body* b, const float* l, const float* rot, const pdl_vec3* centre, float* r,
                      float* p)
{
	pdl_rotate(rot, l, r);
	p[0] = centre->x + r[0], p[1] = centre->y + r[1], p[2] = centre->z + r[2];
	(void)b;
}

/* The corners of a body's shape in its frame (2D box and polygon, 3D box): contacts of their
 * own, with no inset, so that a tilted box's corner stops at the wall and not half a spacing
 * past it (its particles sit half a spacing inside the surface). Returns their count. */
static int corners_of(const rigid_body* b, bool three, float out[8][3])
{
	const pdl_body_def* d = &b->def;
	if (d->shape == PDL_BODY_CIRCLE) return 0;
	if (d->shape == PDL_BODY_POLYGON) {
		for (int i = 0; i < d->vertex_count; ++i) out[i][0] = d->vertices[i].x, out[i][1] = d->vertices[i].y, out[i][2] = 0;
		return d->vertex_count < 8 ? d->vertex_count : 8;
	}
	int n = three ? 8 : 4;
	for (int i = 0; i < n; ++i) {
		out[i][0] = (i & 1 ? 1.0f : -1.0f) * d->half_extents.x;
		out[i][1] = (i & 2 ? 1.0f : -1.0f) * d->half_extents.y;
		out[i][2] = three ? (i & 4 ? 1.0f : -1.0f) * d->half_extents.z : 0;
	}
	return n;
}

/* Signed distance from world point p to body b's surface, with the outward normal n (world). */
/* Contacts of body a's points (its particles, kept half a spacing off, and its corners, kept
 * at the surface; under DFSPH, a light body's a rest spacing further) with a wall (b = -1) or
 * with body b's shape. */
static bool point_contacts(pdl_world* w, int a, int b, int wall)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const rigid_body* A = &set->bodies[a];
	const float spacing = set->spacing;
	/* corners against walls only: against another body's shape, a corner on the other's edge
	 * (two boxes of one width stacked) has no single nearest face, and a sideways normal there
	 * made the stack creep */
	float corners[8][3];
	int ncorners = b < 0 ? corners_of(A, three, corners) : 0;
	/* Under DFSPH a body lighter than the water keeps a rest spacing of water between itself and
	 * a wall. Closer, no particle fits in the gap at its rest density (body_sph.c, in_film), so
	 * nothing pushes the body off the wall, while the water's weight on its far side presses it
	 * on: a light crate the surge threw flat onto the floor stayed there under water for good
	 * (dam-break-boxes: four of six). In water such a film fills at once and lifts the crate;
	 * one rest spacing is the thinnest gap a layer of particles fits in, and the pressure of the
	 * water under it then lifts it. A light body resting on a dry floor stands that far above it
	 * (0.35 h for 2D water at rest density 4, 0.5 h in 3D). */
	const float skin = b < 0 && w->def.solver == PDL_SOLVER_DFSPH && pdl_body_is_light(A) ? spacing : 0;
	/* the outer layer only: the deeper ones never come within reach of a contact */
	for (int i = -ncorners; i < A->surface; ++i) {
		float l[3], r[3], p[3], n[3], rest;
		if (i < 0) {
			memcpy(l, corners[-1 - i], sizeof l);
			rest = 0;
		} else {
			l[0] = set->lx[A->first + i], l[1] = set->ly[A->first + i], l[2] = set->lz[A->first + i];
			rest = 0.5f * pdl_body_lattice_step(spacing, three);
		}
		rest += skin;
		anchor_of(A, l, A->rot, &A->def.position, r, p);
		if (!three) p[2] = 0;
		float d = b < 0 ? pdl_boundary_distance(&w->boundaries[wall], p, three, n)
		                : pdl_body_distance(&set->bodies[b], p, three, n);
		if (d >= rest + 0.5f * spacing) continue;
		body_contact ct = {.a = a, .b = b, .wall = wall, .la = {l[0], l[1], l[2]}, .rest = rest};
		if (!add_contact(set, &ct)) return false;
	}
	return true;
}

/* Contacts are found once a solver step, at the poses after the fluid's push, with a margin of
 * half a spacing so that a contact about to close is in the list. Bodies are paired by their
 * bounding spheres (O(bodies^2), cheap for the hundreds a scene holds); each pair's contacts
 * are each body's points against the other's shape, its signed distance giving a smooth normal
 * (as Macklin et al. 2014, section 5, give rigid particles their shape's distance field): point
 * against point would let rows of particles slip into each other's gaps. */
void pdl_bodies_find_contacts(pdl_world* w)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float spacing = set->spacing;
	set->contact_count = 0;
	for (int a = 0; a < set->slots; ++a) {
		const rigid_body* A = &set->bodies[a];
		if (!A->alive) continue;
		float c[3], n[3];
		position_of(A, c);
		if (!three) c[2] = 0;
		if (A->def.type == PDL_BODY_DYNAMIC)
			for (int k = 0; k < w->boundary_count; ++k) {
				const boundary* wall = &w->boundaries[k];
				/* no point of the body is nearer the wall than its centre less its radius */
				if (!wall->alive || pdl_boundary_distance(wall, c, three, n) > A->bound_radius + spacing) continue;
				if (!point_contacts(w, a, -1, k)) return;
			}
		for (int b = a + 1; b < set->slots; ++b) {
			const rigid_body* B = &set->bodies[b];
			if (!B->alive || (A->def.type != PDL_BODY_DYNAMIC && B->def.type != PDL_BODY_DYNAMIC)) continue;
			float d[3] = {B->def.position.x - c[0], B->def.position.y - c[1], three ? B->def.position.z - c[2] : 0};
			float reach = A->bound_radius + B->bound_radius + spacing;
			if (pdl_dot3(d, d) > reach * reach) continue;
			if (!point_contacts(w, a, b, -1) || !point_contacts(w, b, a, -1)) return;
		}
	}
}

/* The generalized inverse mass of body b for a correction along n at offset r (eq. 2, 3). */
static float generalized_inverse_mass(const rigid_body* b, bool three, const float* r, const float* n)
{
	if (b->def.type != PDL_BODY_DYNAMIC) return 0;
	float rn[3], irn[3];
	pdl_cross3(r, n, rn);
	apply_inv_inertia(b, three, rn, irn);
	return b->inv_mass + pdl_dot3(rn, irn);
}

/* Where contact c's points are now and at the start of the step, and its normal and gap. */
typedef struct contact_state {
	float ra[3], rb[3], pa[3], pb[3], n[3];
	float gap; /* separation minus rest: < 0 overlaps */
	float slide[3]; /* relative motion of the two points since the start of the step */
} contact_state;

static void contact_state_of(const pdl_world* w, const body_contact* c, contact_state* s)
{
	const bool three = PDL_IS_3D(w);
	const body_set* set = &w->bodies;
	const rigid_body* A = &set->bodies[c->a];
	float start_r[3], start_a[3], start_b[3];
	anchor_of(A, c->la, A->rot, &A->def.position, s->ra, s->pa);
	anchor_of(A, c->la, A->start_rot, &A->start_position, start_r, start_a);
	if (!three) s->pa[2] = start_a[2] = 0;
	float d;
	if (c->b < 0) {
		const boundary* wall = &w->boundaries[c->wall];
		d = pdl_boundary_distance(wall, s->pa, three, s->n);
		for (int k = 0; k < 3; ++k) s->pb[k] = s->pa[k] - d * s->n[k], s->rb[k] = 0;
		/* a moving obstacle's surface moved by its velocity over the step */
		const float v[3] = {wall->def.velocity.x, wall->def.velocity.y, wall->def.velocity.z};
		float dt = w->def.dt / (float)w->def.substeps;
		for (int k = 0; k < 3; ++k) start_b[k] = s->pb[k] - v[k] * dt;
	} else {
		const rigid_body* B = &set->bodies[c->b];
		d = pdl_body_distance(B, s->pa, three, s->n);
		float o[3], lb[3];
		for (int k = 0; k < 3; ++k) {
			s->pb[k] = s->pa[k] - d * s->n[k];
			o[k] = s->pb[k] - (k == 0 ? B->def.position.x : k == 1 ? B->def.position.y : B->def.position.z);
		}
		if (!three) o[2] = 0;
		memcpy(s->rb, o, sizeof o);
		/* the same material point of B at its start pose */
		pdl_unrotate(B->rot, o, lb);
		anchor_of(B, lb, B->start_rot, &B->start_position, o, start_b);
		if (!three) start_b[2] = 0;
	}
	s->gap = d - c->rest;
	for (int k = 0; k < 3; ++k) s->slide[k] = (s->pa[k] - start_a[k]) - (s->pb[k] - start_b[k]);
}

/* One iteration's corrections of one body, summed over its contacts, then averaged. */
typedef struct body_delta {
	float move[3], turn[3];
	int count;
} body_delta;

static void add_delta(body_delta* d, const rigid_body* b, bool three, const float* r, const float* n, float lambda)
{
	if (b->def.type != PDL_BODY_DYNAMIC) return;
	float p[3] = {lambda * n[0], lambda * n[1], lambda * n[2]}, t[3], dtheta[3];
	pdl_cross3(r, p, t);
	apply_inv_inertia(b, three, t, dtheta);
	for (int k = 0; k < 3; ++k) {
		d->move[k] += p[k] * b->inv_mass;
		d->turn[k] += dtheta[k];
	}
}

/* Jacobi iterations with constraint averaging (Macklin et al. 2014, section 4.2.1): every
 * contact's correction comes from the same poses, each body moves by the mean of its contacts'
 * corrections. Gauss-Seidel sweeps, which move a body after each contact, left a bias of the
 * contacts' order: a stack of five boxes leaned and crept sideways by 0.1 h/s. The order now
 * plays no part, and a symmetric stack stays symmetric. */
void pdl_bodies_solve_contacts(pdl_world* w)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	if (set->slots > set->delta_capacity) {
		body_delta* grown = realloc(set->delta, (size_t)set->slots * sizeof *grown);
		if (!grown) return;
		set->delta = grown;
		set->delta_capacity = set->slots;
	}
	for (int c = 0; c < set->contact_count; ++c)
		set->contacts[c].lambda = set->contacts[c].lambda_t = 0, set->contacts[c].sticking = false;
	/* iterations stop once no contact overlaps or slides by more than this (world units) */
	const float settled = 1e-4f * set->spacing;
	for (int it = 0; it < CONTACT_ITERATIONS; ++it) {
		memset(set->delta, 0, (size_t)set->slots * sizeof *set->delta);
		float worst = 0;
		for (int c = 0; c < set->contact_count; ++c) {
			body_contact* ct = &set->contacts[c];
			rigid_body* A = &set->bodies[ct->a];
			rigid_body* B = ct->b >= 0 ? &set->bodies[ct->b] : NULL;
			body_delta* da = &set->delta[ct->a];
			body_delta* db = B ? &set->delta[ct->b] : NULL;
			contact_state s;
			contact_state_of(w, ct, &s);
			bool acted = false;
			if (-s.gap > worst) worst = -s.gap;
			if (s.gap < 0) {
				float wa = generalized_inverse_mass(A, three, s.ra, s.n);
				float wb = B ? generalized_inverse_mass(B, three, s.rb, s.n) : 0;
				if (wa + wb > 0) {
					float dlambda = -s.gap / (wa + wb);
					add_delta(da, A, three, s.ra, s.n, dlambda);
					if (B) add_delta(db, B, three, s.rb, s.n, -dlambda);
					ct->lambda += dlambda;
					acted = true;
				}
			}
			/* static friction, on every contact that has pushed this step: undo the tangential
			 * slide of its two points, as far as mu times its normal push allows */
			if (ct->lambda > 0) {
				float along = pdl_dot3(s.slide, s.n), t[3];
				for (int k = 0; k < 3; ++k) t[k] = s.slide[k] - along * s.n[k];
				float slide = sqrtf(pdl_dot3(t, t));
				if (slide > worst && !ct->sticking) worst = slide;
				if (slide > 1e-9f) {
					for (int k = 0; k < 3; ++k) t[k] /= -slide;
					float wta = generalized_inverse_mass(A, three, s.ra, t);
					float wtb = B ? generalized_inverse_mass(B, three, s.rb, t) : 0;
					float mu = B ? 0.5f * (A->def.friction + B->def.friction)
					             : A->def.friction * w->boundaries[ct->wall].def.friction;
					float need = slide / (wta + wtb), allowed = mu * ct->lambda;
					float take = need < allowed ? need : allowed;
					ct->sticking = need <= allowed;
					add_delta(da, A, three, s.ra, t, take);
					if (B) add_delta(db, B, three, s.rb, t, -take);
					acted = true;
				}
			}
			if (acted) {
				da->count++;
				if (db) db->count++;
			}
		}
		if (worst <= settled) break;
		for (int k = 0; k < set->slots; ++k) {
			body_delta* d = &set->delta[k];
			if (d->count == 0) continue;
			rigid_body* b = &set->bodies[k];
			float inv = 1.0f / (float)d->count, dtheta[3] = {d->turn[0] * inv, d->turn[1] * inv, d->turn[2] * inv};
			b->def.position.x += d->move[0] * inv;
			b->def.position.y += d->move[1] * inv;
			if (three) b->def.position.z += d->move[2] * inv;
			turn(b, three, dtheta);
		}
	}
}

/* ---- Velocities ------------------------------------------------------------------------------ */

/* The velocity of body b's point at r from its centre (world units / s), now (v + omega x r) and
 * at the substep's start (from the start velocities). */
static void point_velocities(const rigid_body* b, const float r[3], float now[3], float start[3])
{
	float spin[3];
	const float o[3] = {b->def.angular_velocity.x, b->def.angular_velocity.y, b->def.angular_velocity.z};
	const float o0[3] = {b->start_angular_velocity.x, b->start_angular_velocity.y, b->start_angular_velocity.z};
	pdl_cross3(o, r, spin);
	now[0] = b->def.linear_velocity.x + spin[0], now[1] = b->def.linear_velocity.y + spin[1];
	now[2] = b->def.linear_velocity.z + spin[2];
	pdl_cross3(o0, r, spin);
	start[0] = b->start_linear_velocity.x + spin[0], start[1] = b->start_linear_velocity.y + spin[1];
	start[2] = b->start_linear_velocity.z + spin[2];
}

/* Restitution and dynamic friction on the velocities of the contacts that pushed this step
 * (Mueller et al. 2020, section 3.6): the normal approach speed is replaced by -e times the
 * speed it had before the step (0 below 2 |g| dt, so resting contacts do not bounce), and the
 * tangential speed of a contact that slid loses mu |lambda| / dt of speed. */
void pdl_bodies_contact_velocities(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	pdl_vec3 g = w->def.gravity;
	float resting = 2.0f * sqrtf(g.x * g.x + g.y * g.y + g.z * g.z) * dt;
	for (int c = 0; c < set->contact_count; ++c) {
		body_contact* ct = &set->contacts[c];
		if (!(ct->lambda > 0)) continue;
		rigid_body* A = &set->bodies[ct->a];
		rigid_body* B = ct->b >= 0 ? &set->bodies[ct->b] : NULL;
		contact_state s;
		contact_state_of(w, ct, &s);
		float va[3], vb[3] = {0, 0, 0}, va0[3], vb0[3] = {0, 0, 0};
		point_velocities(A, s.ra, va, va0);
		float e = A->def.restitution;
		if (B) {
			point_velocities(B, s.rb, vb, vb0);
			e = 0.5f * (A->def.restitution + B->def.restitution);
		} else {
			const boundary* wall = &w->boundaries[ct->wall];
			vb[0] = vb0[0] = wall->def.velocity.x, vb[1] = vb0[1] = wall->def.velocity.y, vb[2] = vb0[2] = wall->def.velocity.z;
			e = e > wall->def.restitution ? e : wall->def.restitution;
		}
		float rel[3] = {va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]};
		float rel0[3] = {va0[0] - vb0[0], va0[1] - vb0[1], va0[2] - vb0[2]};
		if (!three) rel[2] = rel0[2] = 0;
		float vn = pdl_dot3(rel, s.n), vn0 = pdl_dot3(rel0, s.n);
		float wa = generalized_inverse_mass(A, three, s.ra, s.n), wb = B ? generalized_inverse_mass(B, three, s.rb, s.n) : 0;
		if (wa + wb <= 0) continue;
		float impulse[3] = {0, 0, 0};
		/* a contact that closed fast bounces back at e times its approach speed; resting ones
		 * keep the velocities the positions gave them */
		if (-vn0 > resting) {
			float dvn = -vn - e * vn0; /* > 0 pushes apart */
			for (int k = 0; k < 3; ++k) impulse[k] = s.n[k] * dvn / (wa + wb);
		}
		if (!ct->sticking && -vn0 > resting) { /* dynamic friction against a fast slide */
			float t[3];
			for (int k = 0; k < 3; ++k) t[k] = rel[k] - vn * s.n[k];
			float vt = sqrtf(pdl_dot3(t, t));
			if (vt > 1e-9f) {
				float mu = B ? 0.5f * (A->def.friction + B->def.friction) : A->def.friction * w->boundaries[ct->wall].def.friction;
				for (int k = 0; k < 3; ++k) t[k] /= vt;
				float wta = generalized_inverse_mass(A, three, s.ra, t), wtb = B ? generalized_inverse_mass(B, three, s.rb, t) : 0;
				/* the friction impulse is at most mu times the normal one, lambda / dt */
				float pt = fminf(mu * ct->lambda / dt, vt / (wta + wtb));
				for (int k = 0; k < 3; ++k) impulse[k] -= t[k] * pt;
			}
		}
		/* velocities: dV = p / M, domega = I^-1 (r x p) */
		float ta[3], dw[3];
		if (A->def.type == PDL_BODY_DYNAMIC) {
			pdl_cross3(s.ra, impulse, ta);
			apply_inv_inertia(A, three, ta, dw);
			A->def.linear_velocity.x += impulse[0] * A->inv_mass, A->def.linear_velocity.y += impulse[1] * A->inv_mass;
			if (three) A->def.linear_velocity.z += impulse[2] * A->inv_mass;
			A->def.angular_velocity.x += three ? dw[0] : 0, A->def.angular_velocity.y += three ? dw[1] : 0;
			A->def.angular_velocity.z += dw[2];
		}
		if (B && B->def.type == PDL_BODY_DYNAMIC) {
			pdl_cross3(s.rb, impulse, ta);
			apply_inv_inertia(B, three, ta, dw);
			B->def.linear_velocity.x -= impulse[0] * B->inv_mass, B->def.linear_velocity.y -= impulse[1] * B->inv_mass;
			if (three) B->def.linear_velocity.z -= impulse[2] * B->inv_mass;
			B->def.angular_velocity.x -= three ? dw[0] : 0, B->def.angular_velocity.y -= three ? dw[1] : 0;
			B->def.angular_velocity.z -= dw[2];
		}
	}
}
