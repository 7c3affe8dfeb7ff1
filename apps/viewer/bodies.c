/* puddle-view: rigid bodies (pdl_world_add_body) as the viewer drops, finds and turns them.
 *
 * C drops a dynamic body with the panel's "next body" settings where the pointer is (3D: at
 * the mouse ray's anchor, view3d.c); input.c grabs and throws them; renderer.c and
 * renderer3d.c draw them. This file holds what those share: the drop itself, point-in-body
 * tests, and the body frame (2D: the angle; 3D: the orientation quaternion).
 *
 * SPDX-License-Identifier: MIT */
#include "viewer.h"

#include <math.h>
#include <stddef.h>

/* Dropped bodies take these colours in turn, so that neighbours tell apart: wood (the core's
 * default), then lighter and darker woods, a brick red and a slate blue. */
static const uint32_t body_palette[] = {0xb5651d, 0xd9a066, 0x7a4a21, 0xb5473a, 0x5b6c8f};

const char* viewer_body_shape_name(viewer_body_shape shape, bool three_d)
{
	switch (shape) {
	case VIEWER_BODY_BOX:
		return three_d ? "cube" : "box";
	case VIEWER_BODY_CIRCLE:
		return three_d ? "sphere" : "circle";
	default:
		return "?";
	}
}

pdl_body_id viewer_drop_body(viewer_app* app, pdl_vec3 p)
{
	const viewer_interaction_settings* s = &app->interaction;
	float h = pdl_world_get_def(app->scene.world).interaction_radius;
	pdl_body_def def = pdl_default_body_def();
	def.type = PDL_BODY_DYNAMIC;
	def.shape = s->body_shape == VIEWER_BODY_CIRCLE ? PDL_BODY_CIRCLE : PDL_BODY_BOX;
	def.position = p;
	if (!app->three_d) def.position.z = 0;
	def.radius = s->body_size * h;
	def.half_extents = (pdl_vec3){s->body_size * h, s->body_size * h, s->body_size * h};
	def.density = s->body_density;
	int palette = (int)(sizeof body_palette / sizeof body_palette[0]);
	def.color = body_palette[app->input.bodies_added % palette];
	pdl_error e;
	pdl_body_id id = pdl_world_add_body(app->scene.world, &def, &e);
	if (id.index < 0) {
		viewer_message(app, "body: %s", e.message);
		return id;
	}
	/* A body dropped into the fluid displaces what was there, as a scene's fills leave its
	 * bodies' space: the particles inside it would otherwise be squeezed out through its faces
	 * in one burst (a 3 h cube dropped into a 3D column held 288, and the fluid round it leapt
	 * from 4 to 15 h/s) and cling to its sides. It is new and unturned, so its box is axis
	 * aligned. */
	if (def.shape == PDL_BODY_CIRCLE) pdl_world_remove_particles_in_circle(app->scene.world, def.position, def.radius);
	else pdl_world_remove_particles_in_box(app->scene.world, def.position, def.half_extents);
	app->input.bodies_added += 1;
	return id;
}

int viewer_remove_all_bodies(viewer_app* app)
{
	pdl_world* world = app->scene.world;
	int count = pdl_world_body_count(world);
	for (int removed = 0; removed < count; ++removed) {
		pdl_body_id id;
		if (pdl_world_bodies(world, &id, 1) < 1) break;
		pdl_world_remove_body(world, id, NULL);
	}
	if (app->input.action == VIEWER_POINTER_GRAB_BODY) app->input.action = VIEWER_POINTER_NONE;
	return count;
}

/* Rodrigues' formula in quaternion form: v + 2w (u x v) + 2 u x (u x v), u = (x, y, z). */
pdl_vec3 viewer_quat_rotate(pdl_quat q, pdl_vec3 v)
{
	pdl_vec3 t = {2.0f * (q.y * v.z - q.z * v.y), 2.0f * (q.z * v.x - q.x * v.z),
	              2.0f * (q.x * v.y - q.y * v.x)};
	return (pdl_vec3){v.x + q.w * t.x + (q.y * t.z - q.z * t.y),
	                  v.y + q.w * t.y + (q.z * t.x - q.x * t.z),
	                  v.z + q.w * t.z + (q.x * t.y - q.y * t.x)};
}

pdl_vec3 viewer_quat_unrotate(pdl_quat q, pdl_vec3 v)
{
	return viewer_quat_rotate((pdl_quat){-q.x, -q.y, -q.z, q.w}, v);
}

pdl_vec3 viewer_body_to_world(const pdl_body_def* def, bool three_d, pdl_vec3 local)
{
	pdl_vec3 r;
	if (three_d) {
		r = viewer_quat_rotate(def->orientation, local);
	} else {
		float c = cosf(def->angle), s = sinf(def->angle);
		r = (pdl_vec3){c * local.x - s * local.y, s * local.x + c * local.y, 0};
	}
	return (pdl_vec3){def->position.x + r.x, def->position.y + r.y, def->position.z + r.z};
}

pdl_vec3 viewer_body_to_local(const pdl_body_def* def, bool three_d, pdl_vec3 world)
{
	pdl_vec3 d = {world.x - def->position.x, world.y - def->position.y,
	              three_d ? world.z - def->position.z : 0};
	if (three_d) return viewer_quat_unrotate(def->orientation, d);
	float c = cosf(def->angle), s = sinf(def->angle);
	return (pdl_vec3){c * d.x + s * d.y, -s * d.x + c * d.y, 0};
}

void viewer_body_box_corners(const pdl_body_def* def, pdl_vec3 out[8])
{
	for (int k = 0; k < 8; ++k) {
		pdl_vec3 local = {(k & 1 ? 1.0f : -1.0f) * def->half_extents.x,
		                  (k & 2 ? 1.0f : -1.0f) * def->half_extents.y,
		                  (k & 4 ? 1.0f : -1.0f) * def->half_extents.z};
		out[k] = viewer_body_to_world(def, true, local);
	}
}

bool viewer_inside_convex(const pdl_vec2* v, int n, pdl_vec2 p)
{
	if (n < 3) return false;
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n];
		float cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
		if (cross < 0) return false;
	}
	return true;
}

pdl_body_id viewer_body_at(const pdl_world* world, pdl_vec2 p)
{
	pdl_body_id hit = {-1, 0};
	pdl_body_id ids[PDL_MAX_BODIES];
	int count = pdl_world_bodies(world, ids, PDL_MAX_BODIES);
	for (int k = 0; k < count; ++k) {
		pdl_body_def def;
		if (!pdl_world_get_body(world, ids[k], &def)) continue;
		bool inside;
		if (def.shape == PDL_BODY_CIRCLE) {
			float dx = p.x - def.position.x, dy = p.y - def.position.y;
			inside = dx * dx + dy * dy <= def.radius * def.radius;
		} else {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
			int n = pdl_body_world_vertices(&def, v);
			inside = viewer_inside_convex(v, n, p);
		}
		if (inside) hit = ids[k];
	}
	return hit;
}
