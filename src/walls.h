/* Internal: the walls (containers and obstacles) and one particle's collisions with them,
 * Clavet, Beaudoin & Poulin 2005 section 6. Plain C that CUDA compiles too: the CPU's boundary
 * stage (boundary.c) and the GPU step (cuda_step.cu) run these same functions, so a wall treats
 * a particle the same way on either. Not part of the public API. */
#ifndef PUDDLE_WALLS_H
#define PUDDLE_WALLS_H

#include "hd.h"

/* A boundary with its shape in world space, recomputed whenever its def changes. */
typedef struct boundary {
	bool alive;
	uint32_t generation; /* how many times the slot was used before (pdl_boundary_id) */
	pdl_boundary_def def;
	int vertex_count;                             /* box and polygon: world-space corners */
	pdl_vec2 vertices[PDL_MAX_POLYGON_VERTICES];  /* counter-clockwise */
	pdl_vec2 normals[PDL_MAX_POLYGON_VERTICES];   /* outward normal of edge i -> i+1 */
	/* the faces as planes (a point and the outward normal): the edges, and in 3D a box's top
	 * and bottom (the obstacle collision clips against them) */
	int plane_count;
	pdl_vec3 plane_point[PDL_MAX_POLYGON_VERTICES + 2], plane_normal[PDL_MAX_POLYGON_VERTICES + 2];
	float cos_angle, sin_angle;
	pdl_vec3 bounds_min, bounds_max; /* the shape's bounding box (the broad phase of obstacles) */
} boundary;

/* Coulomb friction at a contact (walls, obstacles, bodies' surfaces): the factor that scales
 * the tangential velocity t (relative to the surface, |t| = tangential) when the contact
 * changes the normal velocity by normal_change (>= 0): the sliding speed drops by mu times
 * that, and no further than to rest, |dv_t| <= mu |dv_n|. A particle pressed lightly against
 * a wall (a film on a vertical wall, water on a slope steeper than atan mu) keeps sliding; one
 * that hits hard is slowed hard. (A fixed share 1 - mu of t per contact, as before, made a
 * film on a vertical wall or a board tilted 17 degrees hold still for good.) */
PDL_HD static inline float pdl_coulomb_keep(float tangential, float normal_change, float mu)
{
	float drop = mu * normal_change;
	return tangential > drop ? 1.0f - drop / tangential : 0.0f;
}

/* The nearest point to (px, py) on a closed polygon's edges (v[0] to v[1], ..., v[count-1] back
 * to v[0]; count >= 1): returns the distance and writes the offset from that point to (px, py)
 * and the edge's index. Polygon bodies and polygon boundaries both measure with it, so they
 * agree to the bit; each picks its own normal where the distance is 0 (the offset has no
 * direction there). Edge untouched and INFINITY returned when no distance compares (NaN). */
PDL_HD static inline float pdl_polygon_nearest_edge(const pdl_vec2* v, int count, float px, float py, float offset[2], int* edge)
{
	float best = INFINITY;
	for (int i = 0; i < count; ++i) {
		pdl_vec2 a = v[i], c = v[(i + 1) % count];
		float ex = c.x - a.x, ey = c.y - a.y, qx = px - a.x, qy = py - a.y;
		float t = (qx * ex + qy * ey) / (ex * ex + ey * ey); /* the foot's place on the edge */
		t = t < 0 ? 0 : t > 1 ? 1 : t;
		float rx = qx - t * ex, ry = qy - t * ey, d = sqrtf(rx * rx + ry * ry);
		if (d < best) best = d, offset[0] = rx, offset[1] = ry, *edge = i;
	}
	return best;
}

/* Collisions are written once for 2D and 3D: vectors have three components, and in a 2D world
 * every z (positions, velocities, normals) is 0, so the z terms add nothing. */

/* One particle during the boundary stage: where it is, where it started the step, and the
 * velocity that the velocity stage will turn into (x - x_prev) / dt. */
typedef struct pdl_wall_particle {
	float x[3];  /* current position */
	float a[3];  /* start of the step: the swept segment runs from here to x */
	float v[3];  /* implied velocity */
	bool touched;
} pdl_wall_particle;

typedef struct pdl_wall_surface {
	float friction, restitution, stickiness, stick_distance, skin, dt;
	/* the strongest stickiness impulse, dt k_stick d_stick / 4 (at d = d_stick / 2), world
	 * units / s: a sticky material's normal load for friction */
	float adhesion;
} pdl_wall_surface;

/* Clavet section 6 contact: move to the surface point c (plus a skin, so the next step starts
 * outside), then split the velocity relative to the wall into normal and tangential parts:
 * the inward normal part is reflected by the restitution, the tangential part loses Coulomb
 * friction, at most mu times the normal change (pdl_coulomb_keep).
 * Keeping the tangential velocity (and the bounce) is what stops particles from gluing to
 * walls (the anti-stick problem of the blobs demo): the position is projected, the velocity
 * is not thrown away. n points into the fluid. */
PDL_HD static inline void pdl_wall_contact(pdl_wall_particle* b, const float c[3], const float n[3], const boundary* wall,
                    const pdl_wall_surface* s)
{
	const float wv[3] = {wall->def.velocity.x, wall->def.velocity.y, wall->def.velocity.z};
	float rv[3];
	for (int k = 0; k < 3; ++k) {
		b->x[k] = c[k] + n[k] * s->skin;
		rv[k] = b->v[k] - wv[k];
	}
	float vn = pdl_dot3(rv, n);
	if (vn < 0) {
		float t[3];
		for (int k = 0; k < 3; ++k) t[k] = rv[k] - vn * n[k];
		/* the normal velocity changes by (1 + e) |vn|; Coulomb friction takes at most mu times
		 * that, and times the adhesion's pull where the material sticks to this wall: the load
		 * that holds lava to a vertical wall although Clavet's stickiness is 0 at contact */
		float load = -(1.0f + s->restitution) * vn + s->adhesion;
		float keep = pdl_coulomb_keep(sqrtf(pdl_dot3(t, t)), load, s->friction);
		for (int k = 0; k < 3; ++k) b->v[k] = wv[k] + (keep * t[k] - s->restitution * vn * n[k]);
	}
	b->touched = true;
}

/* Clavet section 6 stickiness: I = -dt k_stick d (1 - d / d_stick) n for 0 <= d < d_stick. */
PDL_HD static inline void pdl_wall_stick(pdl_wall_particle* b, float d, const float n[3], const pdl_wall_surface* s)
{
	if (s->stickiness <= 0 || d < 0 || d >= s->stick_distance) return;
	float impulse = s->dt * s->stickiness * d * (1.0f - d / s->stick_distance);
	for (int k = 0; k < 3; ++k) b->v[k] -= impulse * n[k];
	b->touched = true;
}

PDL_HD static inline void pdl_wall_centre(const boundary* w, float c[3])
{
	c[0] = w->def.position.x, c[1] = w->def.position.y, c[2] = w->def.position.z;
}

/* Outside a circle (sphere): the first crossing of its surface along the swept segment. */
PDL_HD static inline void pdl_collide_circle_obstacle(pdl_wall_particle* b, const boundary* w, const pdl_wall_surface* s, bool three)
{
	float c[3], f[3], d[3], r = w->def.radius;
	pdl_wall_centre(w, c);
	if (!three) c[2] = 0;
	for (int k = 0; k < 3; ++k) f[k] = b->a[k] - c[k], d[k] = b->x[k] - b->a[k];
	float cc = pdl_dot3(f, f) - r * r;
	float t = -1;
	if (cc >= 0) { /* started outside: first crossing along the segment */
		float a = pdl_dot3(d, d), bb = 2 * pdl_dot3(f, d);
		float disc = bb * bb - 4 * a * cc;
		if (a > 0 && disc >= 0) {
			float root = (-bb - sqrtf(disc)) / (2 * a);
			if (root >= 0 && root <= 1) t = root;
		}
	}
	float o[3];
	for (int k = 0; k < 3; ++k) o[k] = (t >= 0 ? b->a[k] + t * d[k] : b->x[k]) - c[k];
	float dist = sqrtf(pdl_dot3(o, o));
	float n[3] = {dist > 0 ? o[0] / dist : 1.0f, dist > 0 ? o[1] / dist : 0.0f, dist > 0 ? o[2] / dist : 0.0f};
	if (t >= 0 || dist < r) {
		float at[3] = {c[0] + n[0] * r, c[1] + n[1] * r, c[2] + n[2] * r};
		pdl_wall_contact(b, at, n, w, s);
		return;
	}
	pdl_wall_stick(b, dist - r, n, s);
}

/* Exact distance from p to a convex polygon (3D: a box turned about z) it is outside of, with
 * the unit direction from the shape to p. */
PDL_HD static inline float pdl_wall_polygon_distance(const boundary* w, const float p[3], bool three, float n[3])
{
	if (three) { /* the box in its own frame: clamp, and measure to the clamped point */
		float o[3] = {p[0] - w->def.position.x, p[1] - w->def.position.y, p[2] - w->def.position.z};
		float c = w->cos_angle, sn = w->sin_angle;
		float l[3] = {c * o[0] + sn * o[1], -sn * o[0] + c * o[1], o[2]};
		float half[3] = {w->def.half_extents.x, w->def.half_extents.y, w->def.half_extents.z};
		float r[3];
		for (int k = 0; k < 3; ++k) r[k] = l[k] - fmaxf(-half[k], fminf(half[k], l[k]));
		float d = sqrtf(pdl_dot3(r, r));
		if (!(d > 0)) return 0;
		n[0] = (c * r[0] - sn * r[1]) / d;
		n[1] = (sn * r[0] + c * r[1]) / d;
		n[2] = r[2] / d;
		return d;
	}
	float off[2] = {0, 0};
	int edge = 0;
	float best = pdl_polygon_nearest_edge(w->vertices, w->vertex_count, p[0], p[1], off, &edge);
	if (best < INFINITY) {
		n[0] = best > 0 ? off[0] / best : w->normals[edge].x;
		n[1] = best > 0 ? off[1] / best : w->normals[edge].y;
		n[2] = 0;
	}
	return best;
}

/* Out of a shape the particle ends inside, by the face it is least deep behind (sep < 0). */
PDL_HD static inline void pdl_wall_push_out(pdl_wall_particle* b, const boundary* w, int face, float sep, const pdl_wall_surface* s)
{
	const float n[3] = {w->plane_normal[face].x, w->plane_normal[face].y, w->plane_normal[face].z};
	float at[3] = {b->x[0] - sep * n[0], b->x[1] - sep * n[1], b->x[2] - sep * n[2]};
	pdl_wall_contact(b, at, n, w, s);
}

/* Outside a convex polygon (2D) or box (3D), given as the planes of its faces. */
PDL_HD static inline void pdl_collide_polygon_obstacle(pdl_wall_particle* b, const boundary* w, const pdl_wall_surface* s, bool three)
{
	/* Cyrus-Beck clip of the segment start -> end against the faces' half-spaces: the entry
	 * point, if any, is where the particle first touched the shape, however fast it went. */
	float d[3] = {b->x[0] - b->a[0], b->x[1] - b->a[1], b->x[2] - b->a[2]};
	float t_enter = 0, t_exit = 1;
	int enter_face = -1;
	bool start_inside = true, hit = true;
	float end_sep = -INFINITY;
	int end_face = 0;
	for (int i = 0; i < w->plane_count; ++i) {
		const float v[3] = {w->plane_point[i].x, w->plane_point[i].y, w->plane_point[i].z};
		const float n[3] = {w->plane_normal[i].x, w->plane_normal[i].y, w->plane_normal[i].z};
		const float rel[3] = {b->a[0] - v[0], b->a[1] - v[1], three ? b->a[2] - v[2] : 0};
		float f = pdl_dot3(n, rel); /* > 0: start outside this face */
		float g = pdl_dot3(n, d);
		float e = f + g; /* end point's separation */
		if (e > end_sep) {
			end_sep = e;
			end_face = i;
		}
		if (f > 0) start_inside = false;
		if (g == 0) {
			if (f > 0) hit = false;
		} else {
			float t = -f / g;
			if (g < 0) {
				if (t > t_enter) {
					t_enter = t;
					enter_face = i;
				}
			} else if (t < t_exit) {
				t_exit = t;
			}
		}
	}
	if (start_inside) {
		if (end_sep < 0) pdl_wall_push_out(b, w, end_face, end_sep, s); /* the obstacle moved onto it */
	} else if (hit && enter_face >= 0 && t_enter <= t_exit && t_enter <= 1) {
		const float n[3] = {w->plane_normal[enter_face].x, w->plane_normal[enter_face].y,
		                    w->plane_normal[enter_face].z};
		float at[3] = {b->a[0] + t_enter * d[0], b->a[1] + t_enter * d[1], b->a[2] + t_enter * d[2]};
		pdl_wall_contact(b, at, n, w, s);
		return;
	} else if (end_sep < 0) { /* rounding: the clip missed but the end is inside */
		pdl_wall_push_out(b, w, end_face, end_sep, s);
		return;
	}
	if (s->stickiness > 0 && end_sep < s->stick_distance) {
		float n[3] = {0, 0, 0};
		float dist = pdl_wall_polygon_distance(w, b->x, three, n);
		pdl_wall_stick(b, dist, n, s);
	}
}

/* Inside a circle (sphere). */
PDL_HD static inline void pdl_collide_circle_container(pdl_wall_particle* b, const boundary* w, const pdl_wall_surface* s, bool three)
{
	float c[3], r = w->def.radius;
	pdl_wall_centre(w, c);
	if (!three) c[2] = 0;
	float o[3] = {b->x[0] - c[0], b->x[1] - c[1], b->x[2] - c[2]};
	float dist = sqrtf(pdl_dot3(o, o));
	if (dist == 0) return;
	float n[3] = {-o[0] / dist, -o[1] / dist, -o[2] / dist}; /* inward */
	float limit = r - s->skin;
	if (dist > limit) {
		float at[3] = {c[0] - n[0] * r, c[1] - n[1] * r, c[2] - n[2] * r};
		pdl_wall_contact(b, at, n, w, s);
		return;
	}
	pdl_wall_stick(b, r - dist, n, s);
}

/* Inside a box turned by angle about z: clamp along each of its axes in turn. */
PDL_HD static inline void pdl_collide_box_container(pdl_wall_particle* b, const boundary* w, const pdl_wall_surface* s, bool three)
{
	float c = w->cos_angle, sn = w->sin_angle;
	float half_of[3] = {w->def.half_extents.x, w->def.half_extents.y, w->def.half_extents.z};
	/* the box's axes in world space */
	const float axes[3][3] = {{c, sn, 0}, {-sn, c, 0}, {0, 0, 1}};
	for (int axis = 0; axis < (three ? 3 : 2); ++axis) {
		/* local coordinate, recomputed after each clamp */
		float o[3] = {b->x[0] - w->def.position.x, b->x[1] - w->def.position.y,
		              three ? b->x[2] - w->def.position.z : 0};
		float u = pdl_dot3(axes[axis], o), half = half_of[axis];
		for (int side = -1; side <= 1; side += 2) {
			float depth = side * u - half; /* > 0: outside this wall */
			float n[3] = {-side * axes[axis][0], -side * axes[axis][1], -side * axes[axis][2]};
			if (depth > -s->skin) {
				float at[3] = {b->x[0] + n[0] * depth, b->x[1] + n[1] * depth, b->x[2] + n[2] * depth};
				pdl_wall_contact(b, at, n, w, s);
				u = side * (half - s->skin);
			} else {
				pdl_wall_stick(b, -depth, n, s);
			}
		}
	}
}

/* The walls' turn for one particle (pdl_wall_particle b: where it is, where it started the
 * solver step of dt seconds, its implied velocity): obstacles first, containers last, so that
 * whatever an obstacle did, the particle ends inside its container. mu, k_stick and d_stick
 * are its material's wall_friction, wall_stickiness and stick_distance; h the interaction
 * radius. */
PDL_HD static inline void pdl_collide_walls(pdl_wall_particle* b, const boundary* walls, int wall_count,
                                           float mu, float k_stick, float d_stick, float h, float dt,
                                           bool three)
{
	for (int pass = 0; pass < 2; ++pass) {
		for (int k = 0; k < wall_count; ++k) {
			const boundary* wall = &walls[k];
			if (!wall->alive) continue;
			bool container = wall->def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER ||
			                 wall->def.kind == PDL_BOUNDARY_BOX_CONTAINER;
			if (container != (pass == 1)) continue;
			pdl_wall_surface s = {
				.friction = mu * wall->def.friction,
				.restitution = wall->def.restitution,
				.stickiness = k_stick * wall->def.stickiness,
				.stick_distance = d_stick * h,
				.skin = 1e-3f * h,
				.dt = dt,
				/* the same product as 0.25 dt stickiness stick_distance of the fields above */
				.adhesion = 0.25f * dt * (k_stick * wall->def.stickiness) * (d_stick * h),
			};
			switch (wall->def.kind) {
			case PDL_BOUNDARY_CIRCLE_CONTAINER: pdl_collide_circle_container(b, wall, &s, three); break;
			case PDL_BOUNDARY_BOX_CONTAINER: pdl_collide_box_container(b, wall, &s, three); break;
			case PDL_BOUNDARY_CIRCLE: pdl_collide_circle_obstacle(b, wall, &s, three); break;
			default: pdl_collide_polygon_obstacle(b, wall, &s, three); break;
			}
		}
	}
}

/* ---- The SPH solver's walls (sph.c) --------------------------------------------------------
 *
 * SPH counts the space behind each wall within h as fluid at rest (sph.c, "Walls"): tabulated
 * shares of the density and of the pressure force, entry t for a wall t / PDL_SPH_WALL_TABLE h
 * away. */
#define PDL_SPH_WALL_TABLE 64
#define PDL_SPH_MAX_CONTACTS 8

/* A table's value at t in [0, 1] (linear between entries; 0 from t = 1 on). */
PDL_HD static inline float pdl_sph_table_at(const float* table, float t)
{
	if (!(t > 0)) return table[0];
	if (t >= 1) return 0;
	float u = t * PDL_SPH_WALL_TABLE;
	int k = (int)u;
	float a = u - (float)k;
	return table[k] + a * (table[k + 1] - table[k]);
}

typedef struct pdl_sph_wall_contact {
	float d, n[3]; /* distance (>= 0) and unit normal into the fluid (n[2] = 0 in 2D) */
	int wall;      /* its index in the world's boundaries */
} pdl_sph_wall_contact;

PDL_HD static inline int pdl_sph_add_contact(pdl_sph_wall_contact* out, int n, float d, float nx, float ny, float nz,
                                             float h, int wall)
{
	if (n >= PDL_SPH_MAX_CONTACTS || !(d < h)) return n;
	out[n].d = d > 0 ? d : 0;
	out[n].n[0] = nx, out[n].n[1] = ny, out[n].n[2] = nz;
	out[n].wall = wall;
	return n + 1;
}

/* The walls within h of x (x[2] = 0 in 2D), at most PDL_SPH_MAX_CONTACTS: each side of a box
 * container counts once, an obstacle by its nearest face. */
PDL_HD static inline int pdl_sph_wall_contacts(const boundary* walls, int wall_count, const float x[3], float h,
                                               bool three, pdl_sph_wall_contact* out)
{
	int n = 0;
	for (int b = 0; b < wall_count; ++b) {
		const boundary* bd = &walls[b];
		if (!bd->alive) continue;
		float dx = x[0] - bd->def.position.x, dy = x[1] - bd->def.position.y;
		float dz = three ? x[2] - bd->def.position.z : 0;
		switch (bd->def.kind) {
		case PDL_BOUNDARY_CIRCLE_CONTAINER:
		case PDL_BOUNDARY_CIRCLE: {
			float rc = sqrtf(dx * dx + dy * dy + dz * dz);
			if (!(rc > 0)) break;
			if (bd->def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER)
				n = pdl_sph_add_contact(out, n, bd->def.radius - rc, -dx / rc, -dy / rc, -dz / rc, h, b);
			else
				n = pdl_sph_add_contact(out, n, rc - bd->def.radius, dx / rc, dy / rc, dz / rc, h, b);
			break;
		}
		case PDL_BOUNDARY_BOX_CONTAINER: {
			float c = bd->cos_angle, s = bd->sin_angle;
			float lx = c * dx + s * dy, ly = -s * dx + c * dy;
			float hx = bd->def.half_extents.x, hy = bd->def.half_extents.y;
			n = pdl_sph_add_contact(out, n, hx - lx, -c, -s, 0, h, b);
			n = pdl_sph_add_contact(out, n, hx + lx, c, s, 0, h, b);
			n = pdl_sph_add_contact(out, n, hy - ly, s, -c, 0, h, b);
			n = pdl_sph_add_contact(out, n, hy + ly, -s, c, 0, h, b);
			if (three) {
				float hz = bd->def.half_extents.z;
				n = pdl_sph_add_contact(out, n, hz - dz, 0, 0, -1, h, b);
				n = pdl_sph_add_contact(out, n, hz + dz, 0, 0, 1, h, b);
			}
			break;
		}
		case PDL_BOUNDARY_BOX:
		case PDL_BOUNDARY_POLYGON: {
			/* the nearest face by signed distance (exact on the faces, an estimate near edges) */
			float best = -INFINITY, nb[3] = {0, 0, 0};
			for (int e = 0; e < bd->plane_count; ++e) {
				pdl_vec3 v = bd->plane_point[e], nn = bd->plane_normal[e];
				float sd = nn.x * (x[0] - v.x) + nn.y * (x[1] - v.y) + (three ? nn.z * (x[2] - v.z) : 0);
				if (sd > best) {
					best = sd;
					nb[0] = nn.x, nb[1] = nn.y, nb[2] = nn.z;
				}
			}
			if (bd->plane_count > 0) n = pdl_sph_add_contact(out, n, best, nb[0], nb[1], nb[2], h, b);
			break;
		}
		default:
			break;
		}
	}
	return n;
}

/* Coulomb friction against each wall that pushes (the walls hold SPH's fluid off by pressure,
 * so it seldom reaches the contacts above): the sliding speed relative to the wall drops by at
 * most mu times the speed the wall's push gave this step. v is the particle's new velocity;
 * push[c] the acceleration contact c gave it; mu the material's wall_friction. */
PDL_HD static inline void pdl_sph_wall_friction(float v[3], const pdl_sph_wall_contact* contacts, const float* push,
                                               int count, const boundary* walls, float mu, float dt, bool three)
{
	for (int c = 0; c < count && mu > 0; ++c) {
		const boundary* bd = &walls[contacts[c].wall];
		if (!(push[c] > 0) || !(bd->def.friction > 0)) continue;
		const float* n = contacts[c].n;
		const float wv[3] = {bd->def.velocity.x, bd->def.velocity.y, three ? bd->def.velocity.z : 0};
		float rv[3] = {v[0] - wv[0], v[1] - wv[1], v[2] - wv[2]};
		float vn = rv[0] * n[0] + rv[1] * n[1] + rv[2] * n[2], t[3];
		for (int e = 0; e < 3; ++e) t[e] = rv[e] - vn * n[e];
		float keep = pdl_coulomb_keep(sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]), dt * push[c], mu * bd->def.friction);
		for (int e = 0; e < 3; ++e) v[e] -= (1.0f - keep) * t[e];
	}
}

#endif
