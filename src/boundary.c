/* Containers and obstacles: their shapes, and the collision stage (Clavet 2005 section 6:
 * friction impulse, stickiness impulse), with swept tests so that no speed tunnels through. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Shapes ------------------------------------------------------------------------------ */

pdl_boundary_def pdl_default_boundary_def(void)
{
	return (pdl_boundary_def){PDL_BOUNDARY_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

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

/* ---- Ids ------------------------------------------------------------------------------------ */

/* The packed int keeps the generation modulo this range, so that index + generation *
 * PDL_MAX_BOUNDARIES fits a non-negative int32; live() compares generations the same way. */
#define GENERATION_RANGE (0x7fffffffu / PDL_MAX_BOUNDARIES)

int32_t pdl_boundary_id_to_int(pdl_boundary_id id)
{
	if (id.index < 0 || id.index >= PDL_MAX_BOUNDARIES) return -1;
	return id.index + (int32_t)(id.generation % GENERATION_RANGE) * PDL_MAX_BOUNDARIES;
}

pdl_boundary_id pdl_boundary_id_from_int(int32_t packed)
{
	if (packed < 0) return (pdl_boundary_id){-1, 0};
	return (pdl_boundary_id){packed % PDL_MAX_BOUNDARIES, (uint32_t)(packed / PDL_MAX_BOUNDARIES)};
}

static boundary* live(const pdl_world* w, pdl_boundary_id id)
{
	if (!w || id.index < 0 || id.index >= w->boundary_count) return NULL;
	boundary* b = &w->boundaries[id.index];
	return b->alive && b->generation % GENERATION_RANGE == id.generation % GENERATION_RANGE ? b : NULL;
}

/* ---- Adding, changing, removing ---------------------------------------------------------- */

pdl_boundary_id pdl_world_add_boundary(pdl_world* w, const pdl_boundary_def* def, pdl_error* err)
{
	const pdl_boundary_id none = {-1, 0};
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), none;
	if (pdl_validate_boundary_def(def, w->def.dimensions, err)) return none;
	/* the first free slot, so that ids stay small and a removed boundary leaves no hole the
	 * step walks past; a reused slot's generation goes up, so the old id stays refused */
	int slot = 0;
	while (slot < w->boundary_count && w->boundaries[slot].alive) ++slot;
	if (slot == PDL_MAX_BOUNDARIES) return pdl_fail(err, PDL_ERR_TOO_MANY_BOUNDARIES, slot + 1), none;
	if (slot == w->boundary_capacity) {
		int cap = w->boundary_capacity ? 2 * w->boundary_capacity : 16;
		boundary* grown = realloc(w->boundaries, (size_t)cap * sizeof *grown);
		if (!grown) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN), none;
		w->boundaries = grown;
		w->boundary_capacity = cap;
	}
	uint32_t generation = 0;
	if (slot == w->boundary_count) w->boundary_count++;
	else generation = w->boundaries[slot].generation + 1;
	boundary* b = &w->boundaries[slot];
	memset(b, 0, sizeof *b);
	b->alive = true;
	b->generation = generation;
	b->def = *def;
	pdl_boundary_update_shape(b, PDL_IS_3D(w));
	return (pdl_boundary_id){slot, generation};
}

pdl_error_id pdl_world_set_boundary(pdl_world* w, pdl_boundary_id id, const pdl_boundary_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	boundary* b = live(w, id);
	if (!b) return pdl_fail(err, PDL_ERR_BOUNDARY_ID, id.index);
	pdl_error_id e = pdl_validate_boundary_def(def, w->def.dimensions, err);
	if (e) return e;
	b->def = *def;
	pdl_boundary_update_shape(b, PDL_IS_3D(w));
	return PDL_OK;
}

bool pdl_world_get_boundary(const pdl_world* w, pdl_boundary_id id, pdl_boundary_def* def)
{
	const boundary* b = live(w, id);
	if (!b) return false;
	if (def) *def = b->def;
	return true;
}

pdl_error_id pdl_world_remove_boundary(pdl_world* w, pdl_boundary_id id, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	boundary* b = live(w, id);
	if (!b) return pdl_fail(err, PDL_ERR_BOUNDARY_ID, id.index);
	b->alive = false; /* the slot keeps its generation, which its next boundary's goes past */
	return PDL_OK;
}

bool pdl_world_boundary_valid(const pdl_world* w, pdl_boundary_id id) { return live(w, id) != NULL; }

int pdl_world_boundary_slots(const pdl_world* w) { return w ? w->boundary_count : 0; }

pdl_boundary_id pdl_world_boundary_in_slot(const pdl_world* w, int slot)
{
	if (!w || slot < 0 || slot >= w->boundary_count || !w->boundaries[slot].alive) return (pdl_boundary_id){-1, 0};
	return (pdl_boundary_id){slot, w->boundaries[slot].generation};
}

/* ---- Collisions ------------------------------------------------------------------------- */

float pdl_boundary_distance(const boundary* w, const float p[3], bool three, float n[3])
{
	float c[3];
	pdl_wall_centre(w, c);
	if (!three) c[2] = 0;
	n[0] = n[1] = n[2] = 0;
	switch (w->def.kind) {
	case PDL_BOUNDARY_CIRCLE_CONTAINER:
	case PDL_BOUNDARY_CIRCLE: {
		float o[3] = {p[0] - c[0], p[1] - c[1], three ? p[2] - c[2] : 0};
		float dist = sqrtf(pdl_dot3(o, o)), sign = w->def.kind == PDL_BOUNDARY_CIRCLE ? 1.0f : -1.0f;
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
			float u = pdl_dot3(axes[axis], o), room = half[axis] - fabsf(u);
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
			float sep = pdl_dot3(pn, rel);
			if (sep > deepest) deepest = sep, face = i;
		}
		if (deepest <= 0) {
			n[0] = w->plane_normal[face].x, n[1] = w->plane_normal[face].y, n[2] = w->plane_normal[face].z;
			return deepest;
		}
		return pdl_wall_polygon_distance(w, p, three, n);
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
		pdl_wall_centre(wall, c);
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

/* The exact tests of particle i against every wall (walls.h). */
static void collide(pdl_world* w, int i, float dt, bool three)
{
	particles* p = &w->p;
	const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
	const float a[3] = {p->xp[i], p->yp[i], three ? p->zp[i] : 0};
	const pdl_material_def* m = &w->materials[p->material[i]].def;
	pdl_wall_particle b = {{x[0], x[1], x[2]}, {a[0], a[1], a[2]},
	                       {(x[0] - a[0]) / dt, (x[1] - a[1]) / dt, (x[2] - a[2]) / dt}, false};
	pdl_collide_walls(&b, w->boundaries, w->boundary_count, m->wall_friction, m->wall_stickiness,
	                  m->stick_distance, w->def.interaction_radius, dt, three);
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
