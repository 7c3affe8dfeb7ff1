/* puddle-view: the 3D view. A 3D world (pdl_world_def.dimensions == 3) is seen through the
 * shared orbit camera (io/include/puddle/camera.h); this file turns mouse points into rays and
 * rays into the points where the viewer acts, picks obstacles and bodies, and moves the camera.
 *
 * Where a 3D pour, box or eraser acts: a screen point is a whole ray of world points, so one is
 * chosen: where the ray crosses the plane that faces the camera through the centre of the world
 * box (the container), then pulled inside the box. Near the middle of the picture that is the
 * middle of the tank, at the depth the eye reads as "where I clicked" for a box seen whole.
 *
 * SPDX-License-Identifier: MIT */
#include "viewer.h"

#include "../../src/vec.h"

#include <math.h>
#include <stddef.h>

#define DEG (3.14159265358979323846f / 180.0f)

/* The camera's unit frame, as camera.c builds it: forward (eye to target), right, up. */
static void basis(const pdl_camera* c, pdl_vec3* forward, pdl_vec3* right, pdl_vec3* up)
{
	float cy = cosf(c->yaw * DEG), sy = sinf(c->yaw * DEG);
	float cp = cosf(c->pitch * DEG), sp = sinf(c->pitch * DEG);
	*forward = (pdl_vec3){-sy * cp, -sp, -cy * cp};
	*right = (pdl_vec3){cy, 0, -sy};
	*up = (pdl_vec3){right->y * forward->z - right->z * forward->y,
	                 right->z * forward->x - right->x * forward->z,
	                 right->x * forward->y - right->y * forward->x};
}

float viewer_view_aspect(const viewer_view* v)
{
	return v->viewport_height > 0 ? (float)v->viewport_width / (float)v->viewport_height : 1.0f;
}

/* The distance at which every corner of the scene's bounds lies in the view, across both fields
 * of view with 5% to spare, seen along the camera's direction at its target: a corner p (from
 * the target) lies dot(p, forward) + d in front of the eye and must stay within tan(half angle)
 * of that depth sideways and up. */
static float fit_distance(const viewer_app* app, const pdl_camera* c)
{
	pdl_vec3 forward, right, up;
	basis(c, &forward, &right, &up);
	const float tan_v = tanf(0.5f * c->fov * DEG) / 1.05f, tan_h = tan_v * viewer_view_aspect(&app->view);
	const pdl_vec3 lo = app->bounds3_min, hi = app->bounds3_max;
	float d = 0;
	for (int k = 0; k < 8; ++k) {
		const pdl_vec3 corner = {k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z};
		const pdl_vec3 p = pdl_v3_sub(corner, c->target);
		const float depth = pdl_v3_dot(p, forward);
		d = fmaxf(d, fmaxf(fabsf(pdl_v3_dot(p, right)) / tan_h - depth, fabsf(pdl_v3_dot(p, up)) / tan_v - depth));
	}
	return d;
}

/* Moves the eye back along the view until it is outside the scene's bounds (with 1% of their
 * size to spare): orbiting, zooming or panning never puts the camera inside the tank, where the
 * walls it looks through are culled and the picture is of the inside of a wall. */
static void keep_outside(viewer_app* app)
{
	pdl_camera* c = &app->camera;
	pdl_vec3 forward, right, up;
	basis(c, &forward, &right, &up);
	const pdl_vec3 size = pdl_v3_sub(app->bounds3_max, app->bounds3_min);
	const float spare = 0.01f * sqrtf(pdl_v3_dot(size, size));
	const float lo[3] = {app->bounds3_min.x - spare, app->bounds3_min.y - spare, app->bounds3_min.z - spare};
	const float hi[3] = {app->bounds3_max.x + spare, app->bounds3_max.y + spare, app->bounds3_max.z + spare};
	const pdl_vec3 eye = pdl_camera_eye(c);
	const float e[3] = {eye.x, eye.y, eye.z};
	for (int k = 0; k < 3; ++k)
		if (!(e[k] > lo[k] && e[k] < hi[k])) return; /* already outside */
	/* the eye is at target - forward * t: where that ray leaves the box (slab test) */
	const float t0[3] = {c->target.x, c->target.y, c->target.z}, g[3] = {-forward.x, -forward.y, -forward.z};
	float leave = INFINITY;
	for (int k = 0; k < 3; ++k)
		if (g[k] != 0) leave = fminf(leave, fmaxf((lo[k] - t0[k]) / g[k], (hi[k] - t0[k]) / g[k]));
	if (isfinite(leave) && leave > c->distance) c->distance = leave * 1.0001f + 1e-4f;
}

void viewer_view3d_frame(viewer_app* app)
{
	if (app->scene.has_camera) {
		/* the scene file's own camera, which was chosen for a 16:9 picture: the viewport beside
		 * the panel (920 x 800 in a 1280 x 800 window) is narrower, and boats-3d's tank began
		 * off its left edge and ran under the panel. Its direction and target are kept, and it
		 * steps back as far as the whole of the bounds needs. */
		app->camera = app->scene.camera;
		app->camera.distance = fmaxf(app->camera.distance, fit_distance(app, &app->camera));
		keep_outside(app);
		return;
	}
	pdl_camera c = pdl_camera_framing(app->bounds3_min, app->bounds3_max);
	/* camera_framing fits the box's bounding sphere into the vertical field of view, for a
	 * 16:9 picture; the viewport beside the panel is often narrower than tall, so fit the
	 * narrower of the two fields of view. */
	pdl_vec3 size = pdl_v3_sub(app->bounds3_max, app->bounds3_min);
	float radius = 0.5f * sqrtf(pdl_v3_dot(size, size));
	float half_v = 0.5f * c.fov * DEG;
	float half_h = atanf(tanf(half_v) * viewer_view_aspect(&app->view));
	/* 5% to spare: the sphere's edge is the picture's edge */
	float d = 1.05f * radius / sinf(fminf(half_v, half_h));
	if (d > 0) c.distance = d;
	app->camera = c;
	keep_outside(app);
}

static void window_to_ndc(const viewer_view* v, float x, float y, float* nx, float* ny)
{
	float px = x * v->pixel_ratio, py = y * v->pixel_ratio;
	*nx = 2.0f * (px - (float)v->viewport_x) / (float)(v->viewport_width > 0 ? v->viewport_width : 1) - 1.0f;
	*ny = 1.0f - 2.0f * (py - (float)v->viewport_y) / (float)(v->viewport_height > 0 ? v->viewport_height : 1);
}

void viewer_view3d_ndc_to_window(const viewer_view* v, float nx, float ny, float* x, float* y)
{
	float px = (float)v->viewport_x + 0.5f * (nx + 1.0f) * (float)v->viewport_width;
	float py = (float)v->viewport_y + 0.5f * (1.0f - ny) * (float)v->viewport_height;
	float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
	*x = px / ratio;
	*y = py / ratio;
}

void viewer_view3d_ray(const viewer_app* app, float x, float y, pdl_vec3* origin,
                       pdl_vec3* direction)
{
	float nx, ny;
	window_to_ndc(&app->view, x, y, &nx, &ny);
	*origin = pdl_camera_eye(&app->camera);
	*direction = pdl_camera_ray(&app->camera, viewer_view_aspect(&app->view), nx, ny);
}

pdl_vec3 viewer_view3d_on_plane(const viewer_app* app, pdl_vec3 origin, pdl_vec3 direction,
                                pdl_vec3 point)
{
	pdl_vec3 forward, right, up;
	basis(&app->camera, &forward, &right, &up);
	float along = pdl_v3_dot(direction, forward);
	/* a ray grazing the plane (never, with fov <= 120 degrees) stays at the point's depth */
	float t = along > 1e-4f ? pdl_v3_dot(pdl_v3_sub(point, origin), forward) / along : pdl_v3_dot(pdl_v3_sub(point, origin), direction);
	return pdl_v3_add(origin, pdl_v3_scale(direction, t));
}

pdl_vec3 viewer_view3d_anchor(const viewer_app* app, pdl_vec3 origin, pdl_vec3 direction,
                              float margin)
{
	pdl_vec3 lo = app->bounds3_min, hi = app->bounds3_max;
	pdl_vec3 centre = pdl_v3_scale(pdl_v3_add(lo, hi), 0.5f);
	pdl_vec3 p = viewer_view3d_on_plane(app, origin, direction, centre);
	float m[3] = {fminf(margin, 0.5f * (hi.x - lo.x)), fminf(margin, 0.5f * (hi.y - lo.y)),
	              fminf(margin, 0.5f * (hi.z - lo.z))};
	p.x = fminf(fmaxf(p.x, lo.x + m[0]), hi.x - m[0]);
	p.y = fminf(fmaxf(p.y, lo.y + m[1]), hi.y - m[1]);
	p.z = fminf(fmaxf(p.z, lo.z + m[2]), hi.z - m[2]);
	return p;
}

/* Ray against an axis-aligned box of half size `half` round the origin, the ray given in the
 * box's own frame (slab test); the entry distance, or INFINITY on a miss. */
static float ray_local_box(pdl_vec3 origin, pdl_vec3 direction, pdl_vec3 half_extents)
{
	float o[3] = {origin.x, origin.y, origin.z};
	float dir[3] = {direction.x, direction.y, direction.z};
	float half[3] = {half_extents.x, half_extents.y, half_extents.z};
	float t0 = 0, t1 = INFINITY;
	for (int k = 0; k < 3; ++k) {
		if (fabsf(dir[k]) < 1e-12f) {
			if (fabsf(o[k]) > half[k]) return INFINITY;
			continue;
		}
		float a = (-half[k] - o[k]) / dir[k], z = (half[k] - o[k]) / dir[k];
		if (a > z) {
			float t = a;
			a = z;
			z = t;
		}
		t0 = fmaxf(t0, a);
		t1 = fminf(t1, z);
		if (t0 > t1) return INFINITY;
	}
	return t0;
}

/* Ray against a box obstacle turned by `angle` about z. */
static float ray_box(pdl_vec3 o, pdl_vec3 d, const pdl_boundary_def* b)
{
	float c = cosf(b->angle), s = sinf(b->angle);
	pdl_vec3 q = pdl_v3_sub(o, b->position);
	return ray_local_box((pdl_vec3){c * q.x + s * q.y, -s * q.x + c * q.y, q.z},
	                     (pdl_vec3){c * d.x + s * d.y, -s * d.x + c * d.y, d.z}, b->half_extents);
}

static float ray_sphere(pdl_vec3 o, pdl_vec3 d, pdl_vec3 centre, float radius)
{
	pdl_vec3 q = pdl_v3_sub(o, centre);
	float b = pdl_v3_dot(q, d), c = pdl_v3_dot(q, q) - radius * radius;
	float disc = b * b - c;
	if (disc < 0) return INFINITY;
	float t = -b - sqrtf(disc);
	if (t < 0) t = -b + sqrtf(disc);
	return t < 0 ? INFINITY : t;
}

pdl_boundary_id viewer_view3d_pick_obstacle(const pdl_world* world, pdl_vec3 origin, pdl_vec3 direction,
                                            float* t_hit)
{
	pdl_boundary_id hit = {-1, 0};
	float best = INFINITY;
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		const pdl_boundary_id id = pdl_world_boundary_in_slot(world, slot);
		if (!pdl_world_get_boundary(world, id, &def)) continue;
		float t = INFINITY;
		if (def.kind == PDL_BOUNDARY_BOX) t = ray_box(origin, direction, &def);
		else if (def.kind == PDL_BOUNDARY_CIRCLE) t = ray_sphere(origin, direction, def.position, def.radius);
		if (t < best) {
			best = t;
			hit = id;
		}
	}
	if (t_hit != NULL) *t_hit = best;
	return hit;
}

pdl_body_id viewer_view3d_pick_body(const pdl_world* world, pdl_vec3 origin, pdl_vec3 direction,
                                    float* t_hit)
{
	pdl_body_id hit = {-1, 0};
	float best = INFINITY;
	pdl_body_id ids[PDL_MAX_BODIES];
	int count = pdl_world_bodies(world, ids, PDL_MAX_BODIES);
	for (int k = 0; k < count; ++k) {
		pdl_body_def def;
		if (!pdl_world_get_body(world, ids[k], &def)) continue;
		float t;
		if (def.shape == PDL_BODY_CIRCLE) {
			t = ray_sphere(origin, direction, def.position, def.radius);
		} else { /* the ray in the box's own frame: its orientation undone */
			t = ray_local_box(viewer_quat_unrotate(def.orientation, pdl_v3_sub(origin, def.position)),
			                  viewer_quat_unrotate(def.orientation, direction), def.half_extents);
		}
		if (t < best) {
			best = t;
			hit = ids[k];
		}
	}
	if (t_hit != NULL) *t_hit = best;
	return hit;
}

bool viewer_view3d_world_to_pixel(const viewer_app* app, pdl_vec3 p, float* px, float* py)
{
	float m[16];
	pdl_camera_matrix(&app->camera, viewer_view_aspect(&app->view), m);
	float cx = m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12];
	float cy = m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13];
	float cw = m[3] * p.x + m[7] * p.y + m[11] * p.z + m[15];
	if (!(cw > 0)) return false;
	const viewer_view* v = &app->view;
	*px = (float)v->viewport_x + 0.5f * (cx / cw + 1.0f) * (float)v->viewport_width;
	*py = (float)v->viewport_y + 0.5f * (1.0f - cy / cw) * (float)v->viewport_height;
	return true;
}

void viewer_view3d_orbit(viewer_app* app, float dx, float dy)
{
	/* dragging right turns the scene to the right (the camera goes left round it); dragging
	 * down tips the scene towards the viewer (the camera rises) */
	app->camera.yaw -= dx * VIEWER_ORBIT_DEGREES_PER_POINT;
	app->camera.yaw = fmodf(app->camera.yaw, 360.0f);
	float pitch = app->camera.pitch + dy * VIEWER_ORBIT_DEGREES_PER_POINT;
	app->camera.pitch = fminf(fmaxf(pitch, -89.0f), 89.0f);
	keep_outside(app);
}

void viewer_view3d_pan(viewer_app* app, float dx, float dy)
{
	pdl_vec3 forward, right, up;
	basis(&app->camera, &forward, &right, &up);
	/* world units per window point at the target's depth, so the target follows the hand */
	const viewer_view* v = &app->view;
	float height = (float)(v->viewport_height > 0 ? v->viewport_height : 1) / (v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f);
	float unit = 2.0f * app->camera.distance * tanf(0.5f * app->camera.fov * DEG) / height;
	app->camera.target = pdl_v3_add(app->camera.target, pdl_v3_add(pdl_v3_scale(right, -dx * unit), pdl_v3_scale(up, dy * unit)));
	keep_outside(app);
}

void viewer_view3d_zoom(viewer_app* app, float steps)
{
	float d = app->camera.distance * powf(0.9f, steps);
	/* no closer than 1 h-ish of the box's size, no farther than 20 times it */
	pdl_vec3 size = pdl_v3_sub(app->bounds3_max, app->bounds3_min);
	float extent = sqrtf(pdl_v3_dot(size, size));
	if (!(extent > 0)) extent = 1;
	app->camera.distance = fminf(fmaxf(d, 0.02f * extent), 20.0f * extent);
	keep_outside(app);
}
