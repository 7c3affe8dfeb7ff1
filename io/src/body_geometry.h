/* Internal to puddle_io: a rigid body's pose as three axes, and points of its shape in world
 * space, for the renderer (render.c, render3d.c) and the exports (export.c). A body's whole
 * state is the pdl_body_def pdl_world_get_body returns; nothing here reads the world. */
#ifndef PUDDLE_IO_BODY_GEOMETRY_H
#define PUDDLE_IO_BODY_GEOMETRY_H

#include "puddle/puddle.h"

#include <math.h>
#include <stdbool.h>

/* World = origin + ax * local.x + ay * local.y + az * local.z (the axes are the columns of the
 * body's rotation matrix: unit and right-handed). */
typedef struct pdl_body_frame {
	pdl_vec3 origin;
	pdl_vec3 ax, ay, az;
} pdl_body_frame;

/* 2D: a turn by def->angle about z; 3D: the rotation of the unit quaternion def->orientation
 * (normalised here too, so a def filled by hand works). */
static inline pdl_body_frame pdl_body_frame_of(const pdl_body_def* d, bool three)
{
	pdl_body_frame f;
	f.origin = d->position;
	if (!three) {
		float c = cosf(d->angle), s = sinf(d->angle);
		f.origin.z = 0;
		f.ax = (pdl_vec3){c, s, 0}, f.ay = (pdl_vec3){-s, c, 0}, f.az = (pdl_vec3){0, 0, 1};
		return f;
	}
	pdl_quat q = d->orientation;
	float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
	if (len > 0) q.x /= len, q.y /= len, q.z /= len, q.w /= len;
	else q = (pdl_quat){0, 0, 0, 1};
	float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	f.ax = (pdl_vec3){1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)};
	f.ay = (pdl_vec3){2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)};
	f.az = (pdl_vec3){2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)};
	return f;
}

static inline pdl_vec3 pdl_body_frame_point(const pdl_body_frame* f, pdl_vec3 l)
{
	return (pdl_vec3){f->origin.x + f->ax.x * l.x + f->ay.x * l.y + f->az.x * l.z,
	                  f->origin.y + f->ax.y * l.x + f->ay.y * l.y + f->az.y * l.z,
	                  f->origin.z + f->ax.z * l.x + f->ay.z * l.y + f->az.z * l.z};
}

/* Velocity of the body's material point at world position p: v + w x (p - centre), world
 * units / s (2D bodies have w along z only). */
static inline pdl_vec3 pdl_body_point_velocity(const pdl_body_def* d, pdl_vec3 p)
{
	pdl_vec3 r = {p.x - d->position.x, p.y - d->position.y, p.z - d->position.z}, w = d->angular_velocity;
	return (pdl_vec3){d->linear_velocity.x + w.y * r.z - w.z * r.y, d->linear_velocity.y + w.z * r.x - w.x * r.z,
	                  d->linear_velocity.z + w.x * r.y - w.y * r.x};
}

/* The 8 corners of a 3D box body in world space; corner k has +half_extents on axis a where
 * bit a of k is set (x: 1, y: 2, z: 4). */
static inline void pdl_body_box_corners(const pdl_body_def* d, const pdl_body_frame* f, pdl_vec3 out[8])
{
	pdl_vec3 h = d->half_extents;
	for (int k = 0; k < 8; ++k)
		out[k] = pdl_body_frame_point(f, (pdl_vec3){k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z});
}

#endif
