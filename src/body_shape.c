/* A rigid body's shape in its own frame and in the world: its rotation matrix, the signed
 * distance from a point to its surface with the outward normal, the faces a point inside can
 * leave through, and a box's or polygon's corners in the world. body.c builds bodies; this is
 * the geometry the step asks of them many times a substep (body_step.c: the fluid's
 * containment, the contacts), kept in a file of its own so that a fuzzing build can leave
 * libFuzzer's comparison tracing out of it as out of the step's other files (CMakeLists.txt:
 * it took 17% of a slow snapshot input's time here). */
#include "core.h"

#include <math.h>
#include <string.h>

void pdl_body_update_rotation(rigid_body* b, bool three)
{
	float* r = b->rot;
	if (!three) {
		float c, s;
		pdl_cos_sin(b->def.angle, &c, &s);
		const float m[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
		memcpy(r, m, sizeof m);
		return;
	}
	pdl_quat q = b->def.orientation;
	float x = q.x, y = q.y, z = q.z, w = q.w;
	r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y - z * w), r[2] = 2 * (x * z + y * w);
	r[3] = 2 * (x * y + z * w), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z - x * w);
	r[6] = 2 * (x * z - y * w), r[7] = 2 * (y * z + x * w), r[8] = 1 - 2 * (x * x + y * y);
}

float pdl_body_local_distance(const rigid_body* b, const float p[3], bool three, float n[3])
{
	const pdl_body_def* d = &b->def;
	switch (d->shape) {
	case PDL_BODY_CIRCLE: {
		float pz = three ? p[2] : 0, len = sqrtf(p[0] * p[0] + p[1] * p[1] + pz * pz);
		if (len > 0) n[0] = p[0] / len, n[1] = p[1] / len, n[2] = pz / len;
		else n[0] = 0, n[1] = 1, n[2] = 0;
		return len - d->radius;
	}
	case PDL_BODY_BOX: {
		const float half[3] = {d->half_extents.x, d->half_extents.y, three ? d->half_extents.z : 1.0f};
		const int axes = three ? 3 : 2;
		float q[3], outside = 0, inside = -INFINITY;
		int face = 0;
		for (int k = 0; k < axes; ++k) {
			q[k] = fabsf(p[k]) - half[k];
			if (q[k] > inside) inside = q[k], face = k;
		}
		for (int k = 0; k < axes; ++k) outside += q[k] > 0 ? q[k] * q[k] : 0;
		n[0] = n[1] = n[2] = 0;
		if (inside <= 0) { /* inside: the nearest face */
			n[face] = p[face] < 0 ? -1.0f : 1.0f;
			return inside;
		}
		float dist = sqrtf(outside);
		for (int k = 0; k < axes; ++k) n[k] = q[k] > 0 ? (p[k] < 0 ? -q[k] : q[k]) / dist : 0;
		return dist;
	}
	default: { /* convex polygon, 2D: the largest face separation inside, exact outside */
		int count = d->vertex_count;
		float inside = -INFINITY;
		float bn[2] = {0, 1};
		for (int i = 0; i < count; ++i) {
			pdl_vec2 a = d->vertices[i], c = d->vertices[(i + 1) % count];
			float ex = c.x - a.x, ey = c.y - a.y, len = sqrtf(ex * ex + ey * ey);
			float nx = ey / len, ny = -ex / len; /* outward: the vertices run counter-clockwise */
			float sep = (p[0] - a.x) * nx + (p[1] - a.y) * ny;
			if (sep > inside) inside = sep, bn[0] = nx, bn[1] = ny;
		}
		n[2] = 0;
		if (!(inside > 0)) { /* no face has p in front of it: inside (or NaN) */
			n[0] = bn[0], n[1] = bn[1];
			return inside;
		}
		/* outside: the nearest edge point, and the direction from it (on the edge: the face's) */
		float off[2] = {0, 0};
		int edge = 0;
		float best = pdl_polygon_nearest_edge(d->vertices, count, p[0], p[1], off, &edge);
		if (best < INFINITY) {
			n[0] = best > 0 ? off[0] / best : bn[0];
			n[1] = best > 0 ? off[1] / best : bn[1];
		}
		return best;
	}
	}
}

float pdl_body_distance(const rigid_body* b, const float p[3], bool three, float n[3])
{
	float o[3] = {p[0] - b->def.position.x, p[1] - b->def.position.y, three ? p[2] - b->def.position.z : 0};
	float l[3], nl[3];
	pdl_unrotate(b->rot, o, l);
	float d = pdl_body_local_distance(b, l, three, nl);
	pdl_rotate(b->rot, nl, n);
	if (!three) n[2] = 0;
	return d;
}

int pdl_body_local_exits(const rigid_body* b, const float p[3], bool three, float depth[], float n[][3])
{
	const pdl_body_def* d = &b->def;
	int count = 0;
	if (d->shape == PDL_BODY_BOX) {
		const float half[3] = {d->half_extents.x, d->half_extents.y, d->half_extents.z};
		for (int k = 0; k < (three ? 3 : 2); ++k)
			for (int side = -1; side <= 1; side += 2) {
				depth[count] = half[k] - (float)side * p[k];
				n[count][0] = n[count][1] = n[count][2] = 0;
				n[count][k] = (float)side;
				count++;
			}
	} else if (d->shape == PDL_BODY_POLYGON) {
		for (int i = 0; i < d->vertex_count; ++i) {
			pdl_vec2 a = d->vertices[i], c = d->vertices[(i + 1) % d->vertex_count];
			float ex = c.x - a.x, ey = c.y - a.y, len = sqrtf(ex * ex + ey * ey);
			n[count][0] = ey / len, n[count][1] = -ex / len, n[count][2] = 0;
			depth[count] = -((p[0] - a.x) * n[count][0] + (p[1] - a.y) * n[count][1]);
			count++;
		}
	} else {
		depth[0] = -pdl_body_local_distance(b, p, three, n[0]);
		count = 1;
	}
	/* nearest first (insertion sort: at most PDL_MAX_POLYGON_VERTICES faces) */
	for (int i = 1; i < count; ++i)
		for (int j = i; j > 0 && depth[j] < depth[j - 1]; --j) {
			float t = depth[j];
			depth[j] = depth[j - 1], depth[j - 1] = t;
			for (int k = 0; k < 3; ++k) t = n[j][k], n[j][k] = n[j - 1][k], n[j - 1][k] = t;
		}
	return count;
}

int pdl_body_world_vertices(const pdl_body_def* d, pdl_vec2 out[PDL_MAX_POLYGON_VERTICES])
{
	if (!d || d->shape == PDL_BODY_CIRCLE) return 0;
	pdl_boundary_def as_wall = pdl_default_boundary_def();
	as_wall.kind = d->shape == PDL_BODY_BOX ? PDL_BOUNDARY_BOX : PDL_BOUNDARY_POLYGON;
	as_wall.position = d->position;
	as_wall.angle = d->angle;
	as_wall.half_extents = d->half_extents;
	as_wall.vertex_count = d->vertex_count;
	memcpy(as_wall.vertices, d->vertices, sizeof as_wall.vertices);
	return pdl_boundary_world_vertices(&as_wall, out);
}
