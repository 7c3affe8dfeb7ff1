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
	float c = cosf(d->angle), s = sinf(d->angle);
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

void pdl_boundary_update_shape(boundary* b)
{
	b->cos_angle = cosf(b->def.angle);
	b->sin_angle = sinf(b->def.angle);
	b->vertex_count = pdl_boundary_world_vertices(&b->def, b->vertices);
	for (int i = 0; i < b->vertex_count; ++i) {
		pdl_vec2 a = b->vertices[i], c = b->vertices[(i + 1) % b->vertex_count];
		float ex = c.x - a.x, ey = c.y - a.y, len = sqrtf(ex * ex + ey * ey);
		b->normals[i] = (pdl_vec2){ey / len, -ex / len}; /* outward for counter-clockwise */
	}
	/* obstacles: bounding box of the shape; containers: the box's inner half extents */
	pdl_vec2 lo = {b->def.position.x - b->def.radius, b->def.position.y - b->def.radius};
	pdl_vec2 hi = {b->def.position.x + b->def.radius, b->def.position.y + b->def.radius};
	for (int i = 0; i < b->vertex_count; ++i) {
		pdl_vec2 v = b->vertices[i];
		if (i == 0) lo = hi = v;
		lo = (pdl_vec2){fminf(lo.x, v.x), fminf(lo.y, v.y)};
		hi = (pdl_vec2){fmaxf(hi.x, v.x), fmaxf(hi.y, v.y)};
	}
	b->bounds_min = lo;
	b->bounds_max = hi;
}

int pdl_world_add_boundary(pdl_world* w, const pdl_boundary_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), -1;
	if (pdl_validate_boundary_def(def, err)) return -1;
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
	pdl_boundary_update_shape(b);
	return id;
}

static bool live(const pdl_world* w, int id) { return id >= 0 && id < w->boundary_count && w->boundaries[id].alive; }

pdl_error_id pdl_world_set_boundary(pdl_world* w, int id, const pdl_boundary_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!live(w, id)) return pdl_fail(err, PDL_ERR_OBSTACLE_ID, id);
	pdl_error_id e = pdl_validate_boundary_def(def, err);
	if (e) return e;
	w->boundaries[id].def = *def;
	pdl_boundary_update_shape(&w->boundaries[id]);
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

/* One particle during the boundary stage: where it is, where it started the step, and the
 * velocity that the velocity stage will turn into (x - x_prev) / dt. */
typedef struct body {
	float x, y;   /* current position */
	float ax, ay; /* start of the step: the swept segment runs from here to (x, y) */
	float vx, vy; /* implied velocity */
	bool touched;
} body;

typedef struct surface_params {
	float friction, restitution, stickiness, stick_distance, skin, dt;
} surface_params;

/* Clavet section 6 contact: move to the surface point (plus a skin, so the next step starts
 * outside), then split the velocity relative to the wall into normal and tangential parts:
 * the inward normal part is reflected by the restitution, the tangential part keeps (1 - mu).
 * Keeping the tangential velocity (and the bounce) is what stops particles from gluing to
 * walls (the anti-stick problem of reference 004): the position is projected, the velocity
 * is not thrown away. n points into the fluid. */
static void contact(body* b, float cx, float cy, float nx, float ny, const boundary* wall,
                    const surface_params* s)
{
	b->x = cx + nx * s->skin;
	b->y = cy + ny * s->skin;
	float rvx = b->vx - wall->def.velocity.x, rvy = b->vy - wall->def.velocity.y;
	float vn = rvx * nx + rvy * ny;
	if (vn < 0) {
		float tx = rvx - vn * nx, ty = rvy - vn * ny;
		float keep = 1.0f - s->friction;
		rvx = keep * tx - s->restitution * vn * nx;
		rvy = keep * ty - s->restitution * vn * ny;
		b->vx = wall->def.velocity.x + rvx;
		b->vy = wall->def.velocity.y + rvy;
	}
	b->touched = true;
}

/* Clavet section 6 stickiness: I = -dt k_stick d (1 - d / d_stick) n for 0 <= d < d_stick. */
static void stick(body* b, float d, float nx, float ny, const surface_params* s)
{
	if (s->stickiness <= 0 || d < 0 || d >= s->stick_distance) return;
	float impulse = s->dt * s->stickiness * d * (1.0f - d / s->stick_distance);
	b->vx -= impulse * nx;
	b->vy -= impulse * ny;
	b->touched = true;
}

static void collide_circle_obstacle(body* b, const boundary* w, const surface_params* s)
{
	float cx = w->def.position.x, cy = w->def.position.y, r = w->def.radius;
	float fx = b->ax - cx, fy = b->ay - cy;
	float dx = b->x - b->ax, dy = b->y - b->ay;
	float c = fx * fx + fy * fy - r * r;
	float t = -1;
	if (c >= 0) { /* started outside: first crossing of the circle along the segment */
		float a = dx * dx + dy * dy, bb = 2 * (fx * dx + fy * dy);
		float disc = bb * bb - 4 * a * c;
		if (a > 0 && disc >= 0) {
			float root = (-bb - sqrtf(disc)) / (2 * a);
			if (root >= 0 && root <= 1) t = root;
		}
	}
	float px, py;
	if (t >= 0) {
		px = b->ax + t * dx;
		py = b->ay + t * dy;
	} else {
		px = b->x;
		py = b->y;
	}
	float ox = px - cx, oy = py - cy, dist = sqrtf(ox * ox + oy * oy);
	float nx = dist > 0 ? ox / dist : 1.0f, ny = dist > 0 ? oy / dist : 0.0f;
	if (t >= 0 || dist < r) {
		contact(b, cx + nx * r, cy + ny * r, nx, ny, w, s);
		return;
	}
	stick(b, dist - r, nx, ny, s);
}

/* Exact distance from p to a convex polygon it is outside of, with the unit direction from the
 * polygon to p. */
static float polygon_distance(const boundary* w, float px, float py, float* nx, float* ny)
{
	float best = INFINITY;
	for (int i = 0; i < w->vertex_count; ++i) {
		pdl_vec2 a = w->vertices[i], c = w->vertices[(i + 1) % w->vertex_count];
		float ex = c.x - a.x, ey = c.y - a.y, qx = px - a.x, qy = py - a.y;
		float t = (qx * ex + qy * ey) / (ex * ex + ey * ey);
		t = t < 0 ? 0 : t > 1 ? 1 : t;
		float rx = qx - t * ex, ry = qy - t * ey, d = sqrtf(rx * rx + ry * ry);
		if (d < best) {
			best = d;
			*nx = d > 0 ? rx / d : w->normals[i].x;
			*ny = d > 0 ? ry / d : w->normals[i].y;
		}
	}
	return best;
}

static void collide_polygon_obstacle(body* b, const boundary* w, const surface_params* s)
{
	/* Cyrus-Beck clip of the segment start -> end against the edges' half-planes: the entry
	 * point, if any, is where the particle first touched the polygon, however fast it went. */
	float dx = b->x - b->ax, dy = b->y - b->ay;
	float t_enter = 0, t_exit = 1;
	int enter_edge = -1;
	bool start_inside = true, hit = true;
	float end_sep = -INFINITY;
	int end_edge = 0;
	for (int i = 0; i < w->vertex_count; ++i) {
		pdl_vec2 v = w->vertices[i], n = w->normals[i];
		float f = n.x * (b->ax - v.x) + n.y * (b->ay - v.y); /* > 0: start outside this edge */
		float g = n.x * dx + n.y * dy;
		float e = f + g; /* end point's separation */
		if (e > end_sep) {
			end_sep = e;
			end_edge = i;
		}
		if (f > 0) start_inside = false;
		if (g == 0) {
			if (f > 0) hit = false;
		} else {
			float t = -f / g;
			if (g < 0) {
				if (t > t_enter) {
					t_enter = t;
					enter_edge = i;
				}
			} else if (t < t_exit) {
				t_exit = t;
			}
		}
	}
	if (start_inside) {
		if (end_sep < 0) { /* still inside (the obstacle moved onto it): out by the nearest edge */
			pdl_vec2 n = w->normals[end_edge];
			contact(b, b->x - end_sep * n.x, b->y - end_sep * n.y, n.x, n.y, w, s);
		}
	} else if (hit && enter_edge >= 0 && t_enter <= t_exit && t_enter <= 1) {
		pdl_vec2 n = w->normals[enter_edge];
		contact(b, b->ax + t_enter * dx, b->ay + t_enter * dy, n.x, n.y, w, s);
		return;
	} else if (end_sep < 0) { /* rounding: the clip missed but the end is inside */
		pdl_vec2 n = w->normals[end_edge];
		contact(b, b->x - end_sep * n.x, b->y - end_sep * n.y, n.x, n.y, w, s);
		return;
	}
	if (s->stickiness > 0 && end_sep < s->stick_distance) {
		float nx = 0, ny = 0, d = polygon_distance(w, b->x, b->y, &nx, &ny);
		stick(b, d, nx, ny, s);
	}
}

static void collide_circle_container(body* b, const boundary* w, const surface_params* s)
{
	float cx = w->def.position.x, cy = w->def.position.y, r = w->def.radius;
	float ox = b->x - cx, oy = b->y - cy, dist = sqrtf(ox * ox + oy * oy);
	if (dist == 0) return;
	float nx = -ox / dist, ny = -oy / dist; /* inward */
	float limit = r - s->skin;
	if (dist > limit) {
		contact(b, cx - nx * r, cy - ny * r, nx, ny, w, s);
		return;
	}
	stick(b, r - dist, nx, ny, s);
}

static void collide_box_container(body* b, const boundary* w, const surface_params* s)
{
	float c = w->cos_angle, sn = w->sin_angle;
	float hx = w->def.half_extents.x, hy = w->def.half_extents.y;
	for (int axis = 0; axis < 2; ++axis) {
		/* local coordinates, recomputed after each clamp */
		float ox = b->x - w->def.position.x, oy = b->y - w->def.position.y;
		float lx = c * ox + sn * oy, ly = -sn * ox + c * oy;
		float u = axis == 0 ? lx : ly, half = axis == 0 ? hx : hy;
		/* the axis direction in world space */
		float ax = axis == 0 ? c : -sn, ay = axis == 0 ? sn : c;
		for (int side = -1; side <= 1; side += 2) {
			float depth = side * u - half; /* > 0: outside this wall */
			float nx = -side * ax, ny = -side * ay;
			if (depth > -s->skin) {
				contact(b, b->x + nx * depth, b->y + ny * depth, nx, ny, w, s);
				u = side * (half - s->skin);
			} else {
				stick(b, -depth, nx, ny, s);
			}
		}
	}
}

/* True when the segment from (ax, ay) to (x, y) is farther than `margin` from every point of the
 * wall, so that the wall can neither stop the particle nor pull it (stickiness reaches at most
 * h): most particles of a pool are, and skip the exact tests. */
static bool far_from(const boundary* wall, float x, float y, float ax, float ay, float margin)
{
	switch (wall->def.kind) {
	case PDL_BOUNDARY_CIRCLE_CONTAINER: {
		/* the disc shrunk by the margin is convex: both ends inside it, all of it inside */
		float r = wall->def.radius - margin, cx = wall->def.position.x, cy = wall->def.position.y;
		if (r <= 0) return false;
		float ex = x - cx, ey = y - cy, sx = ax - cx, sy = ay - cy;
		return ex * ex + ey * ey < r * r && sx * sx + sy * sy < r * r;
	}
	case PDL_BOUNDARY_BOX_CONTAINER: { /* the end point only: containers test where it ends */
		float ox = x - wall->def.position.x, oy = y - wall->def.position.y;
		float lx = wall->cos_angle * ox + wall->sin_angle * oy;
		float ly = -wall->sin_angle * ox + wall->cos_angle * oy;
		return fabsf(lx) < wall->def.half_extents.x - margin &&
		       fabsf(ly) < wall->def.half_extents.y - margin;
	}
	default: /* obstacles: the segment's box misses the shape's box grown by the margin */
		return fmaxf(x, ax) < wall->bounds_min.x - margin || fminf(x, ax) > wall->bounds_max.x + margin ||
		       fmaxf(y, ay) < wall->bounds_min.y - margin || fminf(y, ay) > wall->bounds_max.y + margin;
	}
}

static void boundaries_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float dt = job->dt, h = w->def.interaction_radius;
	/* farther than this from a wall, nothing happens: the contact skin is 1e-3 h and the
	 * stickiness reach stick_distance h <= h */
	const float margin = 1.01f * h;
	for (int i = begin; i < end; ++i) {
		bool near = false;
		for (int k = 0; k < w->boundary_count && !near; ++k)
			near = w->boundaries[k].alive &&
			       !far_from(&w->boundaries[k], p->x[i], p->y[i], p->xp[i], p->yp[i], margin);
		if (!near) continue;
		const material* m = &w->materials[p->material[i]];
		body b = {p->x[i], p->y[i], p->xp[i], p->yp[i], (p->x[i] - p->xp[i]) / dt,
		          (p->y[i] - p->yp[i]) / dt, false};
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
				switch (wall->def.kind) {
				case PDL_BOUNDARY_CIRCLE_CONTAINER: collide_circle_container(&b, wall, &s); break;
				case PDL_BOUNDARY_BOX_CONTAINER: collide_box_container(&b, wall, &s); break;
				case PDL_BOUNDARY_CIRCLE: collide_circle_obstacle(&b, wall, &s); break;
				default: collide_polygon_obstacle(&b, wall, &s); break;
				}
			}
		}
		if (b.touched) {
			p->x[i] = b.x;
			p->y[i] = b.y;
			/* x_prev carries the new velocity into the velocity stage */
			p->xp[i] = b.x - b.vx * dt;
			p->yp[i] = b.y - b.vy * dt;
		}
	}
}

void pdl_stage_boundaries(pdl_world* w, float dt)
{
	if (w->boundary_count == 0) return;
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 1024, boundaries_range, &job);
}
