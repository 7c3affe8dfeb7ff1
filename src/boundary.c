/* Containers and obstacles: their shapes, and the collision stage (Clavet 2005 section 6:
 * friction impulse, stickiness impulse), with swept tests so that no speed tunnels through. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Shapes ------------------------------------------------------------------------------ */

static pdl_vec2 rotate(pdl_vec2 v, float c, float s) { return (pdl_vec2){c * v.x - s * v.y, s * v.x + c * v.y}; }

int pdl_boundary_world_vertices(const pdl_boundary_def* d, pdl_vec2 out[PDL_MAX_POLYGON_VERTICES])
{
	if (!d) return 0;
	float c, s;
	pdl_cos_sin(d->angle, &c, &s);
	int n = 0;
	pdl_vec2 local[PDL_MAX_POLYGON_VERTICES];
	if (d->kind == PDL_BOUNDARY_BOX || d->kind == PDL_BOUNDARY_BOX_CONTAINER) {
		float hx = d->half_extents.x, hy = d->half_extents.y;
		local[0] = (pdl_vec2){-hx, -hy};
		local[1] = (pdl_vec2){hx, -hy};
		local[2] = (pdl_vec2){hx, hy};
		local[3] = (pdl_vec2){-hx, hy};
		n = 4;
	} else if (d->kind == PDL_BOUNDARY_POLYGON) {
		n = d->vertex_count < 0 ? 0 : d->vertex_count > PDL_MAX_POLYGON_VERTICES ? PDL_MAX_POLYGON_VERTICES : d->vertex_count;
		memcpy(local, d->vertices, (size_t)n * sizeof *local);
	}
	for (int i = 0; i < n; ++i) {
		pdl_vec2 r = rotate(local[i], c, s);
		out[i] = (pdl_vec2){d->position.x + r.x, d->position.y + r.y};
	}
	return n;
}

void pdl_boundary_update_shape(boundary* b, bool three)
{
	pdl_cos_sin(b->def.angle, &b->cos_angle, &b->sin_angle);
	b->vertex_count = pdl_boundary_world_vertices(&b->def, b->vertices);
	b->plane_count = b->vertex_count;
	for (int i = 0; i < b->vertex_count; ++i) {
		pdl_vec2 a = b->vertices[i], c = b->vertices[(i + 1) % b->vertex_count];
		float ex = c.x - a.x, ey = c.y - a.y, len = sqrtf(ex * ex + ey * ey);
		b->normals[i] = (pdl_vec2){ey / len, -ex / len}; /* outward for counter-clockwise */
		b->plane_point[i] = (pdl_vec3){a.x, a.y, b->def.position.z};
		b->plane_normal[i] = (pdl_vec3){b->normals[i].x, b->normals[i].y, 0};
	}
	float hz = three ? (b->def.kind == PDL_BOUNDARY_BOX || b->def.kind == PDL_BOUNDARY_BOX_CONTAINER
	                        ? b->def.half_extents.z
	                        : b->def.radius)
	                 : 0;
	if (three && b->vertex_count > 0) { /* a 3D box: its top and bottom faces too */
		pdl_vec3 c = b->def.position;
		b->plane_point[b->plane_count] = (pdl_vec3){c.x, c.y, c.z + hz};
		b->plane_normal[b->plane_count++] = (pdl_vec3){0, 0, 1};
		b->plane_point[b->plane_count] = (pdl_vec3){c.x, c.y, c.z - hz};
		b->plane_normal[b->plane_count++] = (pdl_vec3){0, 0, -1};
	}
	/* obstacles: bounding box of the shape */
	pdl_vec3 lo = {b->def.position.x - b->def.radius, b->def.position.y - b->def.radius, 0};
	pdl_vec3 hi = {b->def.position.x + b->def.radius, b->def.position.y + b->def.radius, 0};
	for (int i = 0; i < b->vertex_count; ++i) {
		pdl_vec2 v = b->vertices[i];
		if (i == 0) lo.x = hi.x = v.x, lo.y = hi.y = v.y;
		lo.x = fminf(lo.x, v.x), lo.y = fminf(lo.y, v.y);
		hi.x = fmaxf(hi.x, v.x), hi.y = fmaxf(hi.y, v.y);
	}
	lo.z = b->def.position.z - hz;
	hi.z = b->def.position.z + hz;
	b->bounds_min = lo;
	b->bounds_max = hi;
}

int pdl_world_add_boundary(pdl_world* w, const pdl_boundary_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), -1;
	if (pdl_validate_boundary_def(def, w->def.dimensions, err)) return -1;
	if (w->boundary_count == w->boundary_capacity) {
		int cap = w->boundary_capacity ? 2 * w->boundary_capacity : 16;
		boundary* b = realloc(w->boundaries, (size_t)cap * sizeof *b);
		if (!b) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN), -1;
		w->boundaries = b;
		w->boundary_capacity = cap;
	}
	int id = w->boundary_count++;
	boundary* b = &w->boundaries[id];
	memset(b, 0, sizeof *b);
	b->alive = true;
	b->def = *def;
	pdl_boundary_update_shape(b, PDL_IS_3D(w));
	return id;
}

static bool live(const pdl_world* w, int id) { return id >= 0 && id < w->boundary_count && w->boundaries[id].alive; }

pdl_error_id pdl_world_set_boundary(pdl_world* w, int id, const pdl_boundary_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!live(w, id)) return pdl_fail(err, PDL_ERR_OBSTACLE_ID, id);
	pdl_error_id e = pdl_validate_boundary_def(def, w->def.dimensions, err);
	if (e) return e;
	w->boundaries[id].def = *def;
	pdl_boundary_update_shape(&w->boundaries[id], PDL_IS_3D(w));
	return PDL_OK;
}

bool pdl_world_get_boundary(const pdl_world* w, int id, pdl_boundary_def* def)
{
	if (!w || !live(w, id)) return false;
	if (def) *def = w->boundaries[id].def;
	return true;
}

pdl_error_id pdl_world_remove_boundary(pdl_world* w, int id, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!live(w, id)) return pdl_fail(err, PDL_ERR_OBSTACLE_ID, id);
	w->boundaries[id].alive = false;
	return PDL_OK;
}

int pdl_world_boundary_id_limit(const pdl_world* w) { return w ? w->boundary_count : 0; }

/* ---- Collisions ------------------------------------------------------------------------- */

/* Collisions are written once for 2D and 3D: vectors have three components, and in a 2D world
 * every z (positions, velocities, normals) is 0, so the z terms add nothing. */

/* One particle during the boundary stage: where it is, where it started the step, and the
 * velocity that the velocity stage will turn into (x - x_prev) / dt. */
typedef struct body {
	float x[3];  /* current position */
	float a[3];  /* start of the step: the swept segment runs from here to x */
	float v[3];  /* implied velocity */
	bool touched;
} body;

typedef struct surface_params {
	float friction, restitution, stickiness, stick_distance, skin, dt;
	/* the strongest stickiness impulse, dt k_stick d_stick / 4 (at d = d_stick / 2), world
	 * units / s: a sticky material's normal load for friction */
	float adhesion;
} surface_params;

static inline float dot3(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Clavet section 6 contact: move to the surface point c (plus a skin, so the next step starts
 * outside), then split the velocity relative to the wall into normal and tangential parts:
 * the inward normal part is reflected by the restitution, the tangential part loses Coulomb
 * friction, at most mu times the normal change (pdl_coulomb_keep).
 * Keeping the tangential velocity (and the bounce) is what stops particles from gluing to
 * walls (the anti-stick problem of reference 004): the position is projected, the velocity
 * is not thrown away. n points into the fluid. */
static void contact(body* b, const float c[3], const float n[3], const boundary* wall,
                    const surface_params* s)
{
	const float wv[3] = {wall->def.velocity.x, wall->def.velocity.y, wall->def.velocity.z};
	float rv[3];
	for (int k = 0; k < 3; ++k) {
		b->x[k] = c[k] + n[k] * s->skin;
		rv[k] = b->v[k] - wv[k];
	}
	float vn = dot3(rv, n);
	if (vn < 0) {
		float t[3];
		for (int k = 0; k < 3; ++k) t[k] = rv[k] - vn * n[k];
		/* the normal velocity changes by (1 + e) |vn|; Coulomb friction takes at most mu times
		 * that, and times the adhesion's pull where the material sticks to this wall: the load
		 * that holds lava to a vertical wall although Clavet's stickiness is 0 at contact */
		float load = -(1.0f + s->restitution) * vn + s->adhesion;
		float keep = pdl_coulomb_keep(sqrtf(dot3(t, t)), load, s->friction);
		for (int k = 0; k < 3; ++k) b->v[k] = wv[k] + (keep * t[k] - s->restitution * vn * n[k]);
	}
	b->touched = true;
}

/* Clavet section 6 stickiness: I = -dt k_stick d (1 - d / d_stick) n for 0 <= d < d_stick. */
static void stick(body* b, float d, const float n[3], const surface_params* s)
{
	if (s->stickiness <= 0 || d < 0 || d >= s->stick_distance) return;
	float impulse = s->dt * s->stickiness * d * (1.0f - d / s->stick_distance);
	for (int k = 0; k < 3; ++k) b->v[k] -= impulse * n[k];
	b->touched = true;
}

static void centre_of(const boundary* w, float c[3])
{
	c[0] = w->def.position.x, c[1] = w->def.position.y, c[2] = w->def.position.z;
}

/* Outside a circle (sphere): the first crossing of its surface along the swept segment. */
static void collide_circle_obstacle(body* b, const boundary* w, const surface_params* s, bool three)
{
	float c[3], f[3], d[3], r = w->def.radius;
	centre_of(w, c);
	if (!three) c[2] = 0;
	for (int k = 0; k < 3; ++k) f[k] = b->a[k] - c[k], d[k] = b->x[k] - b->a[k];
	float cc = dot3(f, f) - r * r;
	float t = -1;
	if (cc >= 0) { /* started outside: first crossing along the segment */
		float a = dot3(d, d), bb = 2 * dot3(f, d);
		float disc = bb * bb - 4 * a * cc;
		if (a > 0 && disc >= 0) {
			float root = (-bb - sqrtf(disc)) / (2 * a);
			if (root >= 0 && root <= 1) t = root;
		}
	}
	float o[3];
	for (int k = 0; k < 3; ++k) o[k] = (t >= 0 ? b->a[k] + t * d[k] : b->x[k]) - c[k];
	float dist = sqrtf(dot3(o, o));
	float n[3] = {dist > 0 ? o[0] / dist : 1.0f, dist > 0 ? o[1] / dist : 0.0f, dist > 0 ? o[2] / dist : 0.0f};
	if (t >= 0 || dist < r) {
		float at[3] = {c[0] + n[0] * r, c[1] + n[1] * r, c[2] + n[2] * r};
		contact(b, at, n, w, s);
		return;
	}
	stick(b, dist - r, n, s);
}

/* Exact distance from p to a convex polygon (3D: a box turned about z) it is outside of, with
 * the unit direction from the shape to p. */
static float polygon_distance(const boundary* w, const float p[3], bool three, float n[3])
{
	if (three) { /* the box in its own frame: clamp, and measure to the clamped point */
		float o[3] = {p[0] - w->def.position.x, p[1] - w->def.position.y, p[2] - w->def.position.z};
		float c = w->cos_angle, sn = w->sin_angle;
		float l[3] = {c * o[0] + sn * o[1], -sn * o[0] + c * o[1], o[2]};
		float half[3] = {w->def.half_extents.x, w->def.half_extents.y, w->def.half_extents.z};
		float r[3];
		for (int k = 0; k < 3; ++k) r[k] = l[k] - fmaxf(-half[k], fminf(half[k], l[k]));
		float d = sqrtf(dot3(r, r));
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
static void push_out(body* b, const boundary* w, int face, float sep, const surface_params* s)
{
	const float n[3] = {w->plane_normal[face].x, w->plane_normal[face].y, w->plane_normal[face].z};
	float at[3] = {b->x[0] - sep * n[0], b->x[1] - sep * n[1], b->x[2] - sep * n[2]};
	contact(b, at, n, w, s);
}

/* Outside a convex polygon (2D) or box (3D), given as the planes of its faces. */
static void collide_polygon_obstacle(body* b, const boundary* w, const surface_params* s, bool three)
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
		float f = dot3(n, rel); /* > 0: start outside this face */
		float g = dot3(n, d);
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
		if (end_sep < 0) push_out(b, w, end_face, end_sep, s); /* the obstacle moved onto it */
	} else if (hit && enter_face >= 0 && t_enter <= t_exit && t_enter <= 1) {
		const float n[3] = {w->plane_normal[enter_face].x, w->plane_normal[enter_face].y,
		                    w->plane_normal[enter_face].z};
		float at[3] = {b->a[0] + t_enter * d[0], b->a[1] + t_enter * d[1], b->a[2] + t_enter * d[2]};
		contact(b, at, n, w, s);
		return;
	} else if (end_sep < 0) { /* rounding: the clip missed but the end is inside */
		push_out(b, w, end_face, end_sep, s);
		return;
	}
	if (s->stickiness > 0 && end_sep < s->stick_distance) {
		float n[3] = {0, 0, 0};
		float dist = polygon_distance(w, b->x, three, n);
		stick(b, dist, n, s);
	}
}

/* Inside a circle (sphere). */
static void collide_circle_container(body* b, const boundary* w, const surface_params* s, bool three)
{
	float c[3], r = w->def.radius;
	centre_of(w, c);
	if (!three) c[2] = 0;
	float o[3] = {b->x[0] - c[0], b->x[1] - c[1], b->x[2] - c[2]};
	float dist = sqrtf(dot3(o, o));
	if (dist == 0) return;
	float n[3] = {-o[0] / dist, -o[1] / dist, -o[2] / dist}; /* inward */
	float limit = r - s->skin;
	if (dist > limit) {
		float at[3] = {c[0] - n[0] * r, c[1] - n[1] * r, c[2] - n[2] * r};
		contact(b, at, n, w, s);
		return;
	}
	stick(b, r - dist, n, s);
}

/* Inside a box turned by angle about z: clamp along each of its axes in turn. */
static void collide_box_container(body* b, const boundary* w, const surface_params* s, bool three)
{
	float c = w->cos_angle, sn = w->sin_angle;
	float half_of[3] = {w->def.half_extents.x, w->def.half_extents.y, w->def.half_extents.z};
	/* the box's axes in world space */
	const float axes[3][3] = {{c, sn, 0}, {-sn, c, 0}, {0, 0, 1}};
	for (int axis = 0; axis < (three ? 3 : 2); ++axis) {
		/* local coordinate, recomputed after each clamp */
		float o[3] = {b->x[0] - w->def.position.x, b->x[1] - w->def.position.y,
		              three ? b->x[2] - w->def.position.z : 0};
		float u = dot3(axes[axis], o), half = half_of[axis];
		for (int side = -1; side <= 1; side += 2) {
			float depth = side * u - half; /* > 0: outside this wall */
			float n[3] = {-side * axes[axis][0], -side * axes[axis][1], -side * axes[axis][2]};
			if (depth > -s->skin) {
				float at[3] = {b->x[0] + n[0] * depth, b->x[1] + n[1] * depth, b->x[2] + n[2] * depth};
				contact(b, at, n, w, s);
				u = side * (half - s->skin);
			} else {
				stick(b, -depth, n, s);
			}
		}
	}
}

float pdl_boundary_distance(const boundary* w, const float p[3], bool three, float n[3])
{
	float c[3];
	centre_of(w, c);
	if (!three) c[2] = 0;
	n[0] = n[1] = n[2] = 0;
	switch (w->def.kind) {
	case PDL_BOUNDARY_CIRCLE_CONTAINER:
	case PDL_BOUNDARY_CIRCLE: {
		float o[3] = {p[0] - c[0], p[1] - c[1], three ? p[2] - c[2] : 0};
		float dist = sqrtf(dot3(o, o)), sign = w->def.kind == PDL_BOUNDARY_CIRCLE ? 1.0f : -1.0f;
		if (dist > 0)
			for (int k = 0; k < 3; ++k) n[k] = sign * o[k] / dist;
		else
			n[1] = 1;
		return sign * (dist - w->def.radius);
	}
	case PDL_BOUNDARY_BOX_CONTAINER: { /* the nearest of the box's walls, from the inside */
		float cs = w->cos_angle, sn = w->sin_angle;
		const float axes[3][3] = {{cs, sn, 0}, {-sn, cs, 0}, {0, 0, 1}};
		const float half[3] = {w->def.half_extents.x, w->def.half_extents.y, w->def.half_extents.z};
		float o[3] = {p[0] - c[0], p[1] - c[1], three ? p[2] - c[2] : 0}, best = INFINITY;
		for (int axis = 0; axis < (three ? 3 : 2); ++axis) {
			float u = dot3(axes[axis], o), room = half[axis] - fabsf(u);
			if (room < best) {
				best = room;
				float side = u < 0 ? 1.0f : -1.0f; /* towards the middle */
				for (int k = 0; k < 3; ++k) n[k] = side * axes[axis][k];
			}
		}
		return best;
	}
	default: { /* a convex obstacle: exact outside, the shallowest face inside */
		float deepest = -INFINITY;
		int face = 0;
		for (int i = 0; i < w->plane_count; ++i) {
			const float v[3] = {w->plane_point[i].x, w->plane_point[i].y, w->plane_point[i].z};
			const float pn[3] = {w->plane_normal[i].x, w->plane_normal[i].y, w->plane_normal[i].z};
			const float rel[3] = {p[0] - v[0], p[1] - v[1], three ? p[2] - v[2] : 0};
			float sep = dot3(pn, rel);
			if (sep > deepest) deepest = sep, face = i;
		}
		if (deepest <= 0) {
			n[0] = w->plane_normal[face].x, n[1] = w->plane_normal[face].y, n[2] = w->plane_normal[face].z;
			return deepest;
		}
		return polygon_distance(w, p, three, n);
	}
	}
}

/* The broad phase: flags the particles of a block that may touch one wall, so that the rest,
 * most particles of a pool, skip the exact tests. A particle is far from a wall when the
 * segment from a (its position at the start of the step) to x is farther than its margin from
 * every point of the wall: then the wall can neither stop it nor pull it (stickiness reaches at
 * most h). One loop per kind of wall over the whole block, so that the compiler turns it into
 * vector code: one scalar test per particle and wall, through a switch, took the 100k dam
 * break's boundary stage 0.40 ms a step on one thread (4% of the step); these loops, 0.18 ms,
 * with the same bits. */
enum { BOUNDARY_BLOCK = 256 };

typedef struct boundary_block {
	const float *x, *y, *z, *ax, *ay, *az; /* the block's positions now and at the start */
	const float* margin;                   /* each particle's margin */
	int count;
	bool three;
	int32_t* restrict near; /* out: nonzero where some wall may touch the particle */
} boundary_block;

static void mark_near(const boundary* wall, const boundary_block* bl)
{
	const float *x = bl->x, *y = bl->y, *z = bl->z, *ax = bl->ax, *ay = bl->ay, *az = bl->az;
	const float* margin = bl->margin;
	int32_t* restrict near = bl->near;
	const int count = bl->count;
	const bool three = bl->three;
	switch (wall->def.kind) {
	case PDL_BOUNDARY_CIRCLE_CONTAINER: {
		/* the ball shrunk by the margin is convex: both ends inside it, all of it inside */
		float c[3];
		centre_of(wall, c);
		const float radius = wall->def.radius;
		for (int k = 0; k < count; ++k) {
			float r = radius - margin[k];
			float ex = x[k] - c[0], ey = y[k] - c[1], sx = ax[k] - c[0], sy = ay[k] - c[1];
			float e2 = ex * ex + ey * ey, s2 = sx * sx + sy * sy;
			if (three) {
				float ez = z[k] - c[2], sz = az[k] - c[2];
				e2 += ez * ez;
				s2 += sz * sz;
			}
			near[k] |= !((r > 0) & (e2 < r * r) & (s2 < r * r));
		}
		break;
	}
	case PDL_BOUNDARY_BOX_CONTAINER: { /* the end point only: containers test where it ends */
		const float px = wall->def.position.x, py = wall->def.position.y, pz = wall->def.position.z;
		const float c = wall->cos_angle, sn = wall->sin_angle;
		const float hx = wall->def.half_extents.x, hy = wall->def.half_extents.y, hz = wall->def.half_extents.z;
		for (int k = 0; k < count; ++k) {
			float ox = x[k] - px, oy = y[k] - py;
			float lx = c * ox + sn * oy, ly = -sn * ox + c * oy;
			int inside = (fabsf(lx) < hx - margin[k]) & (fabsf(ly) < hy - margin[k]);
			if (three) inside &= fabsf(z[k] - pz) < hz - margin[k];
			near[k] |= !inside;
		}
		break;
	}
	default: { /* obstacles: the segment's box misses the shape's box grown by the margin */
		const pdl_vec3 lo = wall->bounds_min, hi = wall->bounds_max;
		/* (two loops: with the test of z inside, GCC left the loop scalar) */
#define MISSES(c, a, axis)                                                                    \
	(((c[k] < lo.axis - margin[k]) & (a[k] < lo.axis - margin[k])) |                          \
	 ((c[k] > hi.axis + margin[k]) & (a[k] > hi.axis + margin[k])))
		if (three)
			for (int k = 0; k < count; ++k) near[k] |= !(MISSES(x, ax, x) | MISSES(y, ay, y) | MISSES(z, az, z));
		else
			for (int k = 0; k < count; ++k) near[k] |= !(MISSES(x, ax, x) | MISSES(y, ay, y));
#undef MISSES
		break;
	}
	}
}

/* The exact tests of particle i against every wall. */
static void collide(pdl_world* w, int i, float dt, bool three)
{
	particles* p = &w->p;
	float h = w->def.interaction_radius;
	const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
	const float a[3] = {p->xp[i], p->yp[i], three ? p->zp[i] : 0};
	const material* m = &w->materials[p->material[i]];
	body b = {{x[0], x[1], x[2]}, {a[0], a[1], a[2]},
	          {(x[0] - a[0]) / dt, (x[1] - a[1]) / dt, (x[2] - a[2]) / dt}, false};
	/* obstacles first, containers last: whatever an obstacle did, the particle ends inside
	 * its container */
	for (int pass = 0; pass < 2; ++pass) {
		for (int k = 0; k < w->boundary_count; ++k) {
			const boundary* wall = &w->boundaries[k];
			if (!wall->alive) continue;
			bool container = wall->def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER ||
			                 wall->def.kind == PDL_BOUNDARY_BOX_CONTAINER;
			if (container != (pass == 1)) continue;
			surface_params s = {
				.friction = m->def.wall_friction * wall->def.friction,
				.restitution = wall->def.restitution,
				.stickiness = m->def.wall_stickiness * wall->def.stickiness,
				.stick_distance = m->def.stick_distance * h,
				.skin = 1e-3f * h,
				.dt = dt,
			};
			s.adhesion = 0.25f * dt * s.stickiness * s.stick_distance;
			switch (wall->def.kind) {
			case PDL_BOUNDARY_CIRCLE_CONTAINER: collide_circle_container(&b, wall, &s, three); break;
			case PDL_BOUNDARY_BOX_CONTAINER: collide_box_container(&b, wall, &s, three); break;
			case PDL_BOUNDARY_CIRCLE: collide_circle_obstacle(&b, wall, &s, three); break;
			default: collide_polygon_obstacle(&b, wall, &s, three); break;
			}
		}
	}
	if (b.touched) {
		p->x[i] = b.x[0];
		p->y[i] = b.x[1];
		/* x_prev carries the new velocity into the velocity stage */
		p->xp[i] = b.x[0] - b.v[0] * dt;
		p->yp[i] = b.x[1] - b.v[1] * dt;
		if (three) {
			p->z[i] = b.x[2];
			p->zp[i] = b.x[2] - b.v[2] * dt;
		}
	}
}

static void boundaries_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float dt = job->dt, h = w->def.interaction_radius;
	const bool three = PDL_IS_3D(w);
	/* Each material's margin: the contact skin is 1e-3 h (0.01 h leaves room for rounding),
	 * and stickiness pulls from at most stick_distance h (<= h), only where the material and
	 * some wall are both sticky. Most fluids are not, and then only the particles touching a
	 * wall go on to the exact tests. */
	float margin_of[PDL_MAX_MATERIALS];
	for (int m = 0; m < w->material_count; ++m) {
		const pdl_material_def* md = &w->materials[m].def;
		bool sticky = false;
		for (int k = 0; k < w->boundary_count; ++k)
			sticky |= w->boundaries[k].alive && md->wall_stickiness * w->boundaries[k].def.stickiness > 0;
		margin_of[m] = 0.01f * h + (sticky ? md->stick_distance * h : 0.0f);
	}
	float margin[BOUNDARY_BLOCK];
	int32_t near[BOUNDARY_BLOCK];
	for (int first = begin; first < end; first += BOUNDARY_BLOCK) {
		const int count = end - first < BOUNDARY_BLOCK ? end - first : BOUNDARY_BLOCK;
		for (int k = 0; k < count; ++k) {
			margin[k] = margin_of[p->material[first + k]];
			near[k] = 0;
		}
		boundary_block bl = {p->x + first, p->y + first, three ? p->z + first : NULL, p->xp + first,
		                     p->yp + first, three ? p->zp + first : NULL, margin, count, three, near};
		for (int k = 0; k < w->boundary_count; ++k)
			if (w->boundaries[k].alive) mark_near(&w->boundaries[k], &bl);
		for (int k = 0; k < count; ++k)
			if (near[k]) collide(w, first + k, dt, three);
	}
}

void pdl_stage_boundaries(pdl_world* w, float dt)
{
	if (w->boundary_count == 0) return;
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 1024, boundaries_range, &job);
}
