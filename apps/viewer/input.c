/* puddle-view: mouse and keys acting on the world.
 *
 * The reference demos (docs/references.md) all let the user push the fluid: the Rust
 * stratification demo "click and drag to apply attracting or repelling forces", the Unity SPH
 * demo left click to push, right click to spawn particles, "C" to spawn boxes, the browser 3D
 * SPH demo click to splash. Here: left drag attracts, right drag (or shift + left) repels, E or
 * the middle button pours particles, X erases them, C drops a rigid body (bodies.c) that falls,
 * floats or sinks (B switches its shape), shift + C a fixed box obstacle; a left drag that starts on a body grabs it
 * and throws it on release, one that starts on an obstacle moves the obstacle, carrying fluid
 * with it through the boundary's velocity; Delete removes the body (else the obstacle) under
 * the pointer.
 *
 * In a 3D world (view3d.c) the mouse is a ray from the camera's eye: left drag pulls the fluid
 * towards that ray (shift + left pushes it away), right drag or alt + left drag orbits the
 * camera, middle drag pans it, the wheel zooms (shift + wheel sizes the pointer), Home
 * re-frames; E pours, X erases and C drops a body (shift + C a box obstacle) at the ray's
 * anchor point (view3d.c says where), and a left drag that starts on a body or an obstacle
 * moves it in the plane facing the camera through the point grabbed.
 *
 * Holding a body: it is not moved but steered. Before each step its velocity is set toward the
 * pointer (the gap closed in GRAB_FOLLOW_STEPS steps, at most GRAB_MAX_SPEED h/s), so the step
 * still moves it through the fluid and its contacts: it pushes water aside and stops at walls
 * instead of teleporting through them. Let go, it keeps the velocity it had: it is thrown.
 *
 * Events only record what is held and where; viewer_input_before_step() turns that into world
 * changes once per step, with the step's dt, so a drag acts the same at any display rate.
 *
 * SPDX-License-Identifier: MIT */
#include "frontend.h"

#include <SDL.h>

#include <math.h>

/* World pointer slot used by the mouse: the last one, since a scene's scripted strokes take
 * slots from 0 up. */
#define MOUSE_POINTER (PDL_MAX_POINTERS - 1)
/* A held body closes its gap to the pointer in about this many steps (4 steps of 1/60 s: it
 * trails a quick hand by 67 ms, and a throw leaves at about the hand's speed). */
#define GRAB_FOLLOW_STEPS 4.0f
/* The fastest a held body is steered, in h / s: twice the surge of a 20 h water column
 * (sqrt(2 g H) = 20 h/s at g = 10 h/s^2), enough for a hard throw, slow enough that a flick
 * across the window does not fire the body through the fluid in a few steps. */
#define GRAB_MAX_SPEED 40.0f

static const pdl_body_id no_body = {-1, 0};
static const pdl_boundary_id no_obstacle = {-1, 0};

viewer_interaction_settings viewer_default_interaction_settings(void)
{
	viewer_interaction_settings s;
	s.pointer_radius = 6.0f;
	s.pointer_strength = 8.0f;
	s.pointer_drag = 2.0f;
	s.spawn_radius = 1.2f;
	s.spawn_interval = 1.0f / 15.0f;
	s.box_half_extents = (pdl_vec2){2.0f, 2.0f};
	s.spawn_material = 0;
	s.body_shape = VIEWER_BODY_BOX;
	s.body_size = 1.5f;
	s.body_density = 0.5f;
	return s;
}

static float length_unit(const viewer_app* app)
{
	return pdl_world_get_def(app->scene.world).interaction_radius;
}

/* The pointer pulls in multiples of gravity, so "8" means the same in any unit system. */
static float pointer_acceleration(const viewer_app* app)
{
	pdl_world_def def = pdl_world_get_def(app->scene.world);
	float g = sqrtf(def.gravity.x * def.gravity.x + def.gravity.y * def.gravity.y +
	                def.gravity.z * def.gravity.z);
	if (g <= 0) g = 10.0f * def.interaction_radius;
	return app->interaction.pointer_strength * g;
}

/* The topmost (drawn last: the highest slot) obstacle under p, or {-1, 0}. Boxes and polygons
 * are convex and counter-clockwise, so p is inside when it is left of every edge. */
static pdl_boundary_id obstacle_at(const pdl_world* world, pdl_vec2 p)
{
	pdl_boundary_id hit = no_obstacle;
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		const pdl_boundary_id id = pdl_world_boundary_in_slot(world, slot);
		if (!pdl_world_get_boundary(world, id, &def) || viewer_is_container(def.kind)) continue;
		if (def.kind == PDL_BOUNDARY_CIRCLE) {
			float dx = p.x - def.position.x, dy = p.y - def.position.y;
			if (dx * dx + dy * dy <= def.radius * def.radius) hit = id;
			continue;
		}
		pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
		int n = pdl_boundary_world_vertices(&def, v);
		if (viewer_inside_convex(v, n, p)) hit = id;
	}
	return hit;
}

/* A box obstacle centred at p. In 3D its depth is its width, so it is a square column seen from
 * above; in 2D z is unused. */
static pdl_boundary_id drop_box_at(viewer_app* app, pdl_vec3 p)
{
	pdl_boundary_def def = pdl_default_boundary_def();
	def.kind = PDL_BOUNDARY_BOX;
	def.position = p;
	float h = length_unit(app);
	def.half_extents = (pdl_vec3){app->interaction.box_half_extents.x * h,
	                              app->interaction.box_half_extents.y * h,
	                              app->three_d ? app->interaction.box_half_extents.x * h : h};
	pdl_error e;
	pdl_boundary_id id = pdl_world_add_boundary(app->scene.world, &def, &e);
	if (id.index < 0) {
		viewer_message(app, "box: %s", e.message);
		return no_obstacle;
	}
	app->input.obstacles_added += 1;
	return id;
}

pdl_boundary_id viewer_input_drop_box(viewer_app* app, pdl_vec2 p)
{
	return drop_box_at(app, viewer_vec3(p));
}

/* 3D: the anchor, inside the container by `margin` (a box's or body's own half size), so
 * that what is dropped there fits. */
static pdl_vec3 anchor_with_margin(const viewer_app* app, float margin)
{
	return viewer_view3d_anchor(app, app->input.ray_origin, app->input.ray_direction, margin);
}

/* 3D: an obstacle in the air above the fluid hangs there (obstacles are fixed), so it is placed
 * at the anchor, inside the container by its own half size. */
static pdl_boundary_id drop_box_3d(viewer_app* app)
{
	float h = length_unit(app);
	float margin = fmaxf(app->interaction.box_half_extents.x, app->interaction.box_half_extents.y) * h;
	return drop_box_at(app, anchor_with_margin(app, margin));
}

/* C: a body under the cursor (3D: at the anchor, inside by its size and 1% for rounding, since
 * the core refuses a body reaching out of the container). */
static void drop_body_at_pointer(viewer_app* app)
{
	if (!app->three_d) {
		viewer_drop_body(app, viewer_vec3(app->input.mouse_world));
		return;
	}
	float margin = 1.01f * app->interaction.body_size * length_unit(app);
	viewer_drop_body(app, anchor_with_margin(app, margin));
}

/* The body under the pointer (3D: the first the mouse ray hits), or {-1, 0}. */
static pdl_body_id body_under_pointer(const viewer_app* app, float* t)
{
	const viewer_input* in = &app->input;
	if (app->three_d) {
		return viewer_view3d_pick_body(app->scene.world, in->ray_origin, in->ray_direction, t);
	}
	return viewer_body_at(app->scene.world, in->mouse_world);
}

/* Delete: the body under the pointer, else the obstacle. */
static void remove_at_pointer(viewer_app* app, pdl_vec2 p)
{
	viewer_input* in = &app->input;
	pdl_body_id body = body_under_pointer(app, NULL);
	if (body.index >= 0) {
		if (in->action == VIEWER_POINTER_GRAB_BODY && viewer_body_id_equal(in->held_body, body)) {
			in->action = VIEWER_POINTER_NONE;
		}
		pdl_world_remove_body(app->scene.world, body, NULL);
		return;
	}
	pdl_boundary_id id = app->three_d ? viewer_view3d_pick_obstacle(app->scene.world, in->ray_origin,
	                                                                in->ray_direction, NULL)
	                                  : obstacle_at(app->scene.world, p);
	if (id.index < 0) return;
	if (in->action == VIEWER_POINTER_DRAG_OBSTACLE && viewer_boundary_id_equal(in->dragged_obstacle, id)) {
		in->action = VIEWER_POINTER_NONE;
	}
	pdl_world_remove_boundary(app->scene.world, id, NULL);
}

/* Holds `body`, grabbed at the world point `at` (kept in the body's frame). */
static void grab_body(viewer_app* app, pdl_body_id body, pdl_vec3 at)
{
	viewer_input* in = &app->input;
	pdl_body_def def;
	if (!pdl_world_get_body(app->scene.world, body, &def)) return;
	in->action = VIEWER_POINTER_GRAB_BODY;
	in->held_body = body;
	in->body_grab_local = viewer_body_to_local(&def, app->three_d, at);
	in->grab_point = at;
	in->grab_warned = false;
}

void viewer_input_reset(viewer_app* app)
{
	viewer_input* in = &app->input;
	in->action = VIEWER_POINTER_NONE;
	in->dragged_obstacle = no_obstacle;
	in->spawning = false;
	in->erasing = false;
	in->orbiting = false;
	in->panning = false;
	in->anchor_velocity = (pdl_vec3){0, 0, 0};
	in->spawn_clock = 0;
	in->mouse_velocity = (pdl_vec2){0, 0};
	in->obstacles_added = 0;
	in->held_body = no_body;
	in->bodies_added = 0;
	if (app->scene.world != NULL) pdl_world_clear_pointer(app->scene.world, MOUSE_POINTER);
}

static void update_mouse(viewer_app* app, float x, float y)
{
	viewer_input* in = &app->input;
	in->mouse_x = x;
	in->mouse_y = y;
	in->mouse_world = viewer_view_window_to_world(&app->view, x, y);
	float px = x * app->view.pixel_ratio, py = y * app->view.pixel_ratio;
	const viewer_view* v = &app->view;
	in->mouse_inside = px >= (float)v->viewport_x && px < (float)(v->viewport_x + v->viewport_width) &&
	                   py >= (float)v->viewport_y && py < (float)(v->viewport_y + v->viewport_height);
	if (app->three_d) {
		viewer_view3d_ray(app, x, y, &in->ray_origin, &in->ray_direction);
		float margin = app->interaction.spawn_radius * length_unit(app);
		in->anchor = viewer_view3d_anchor(app, in->ray_origin, in->ray_direction, margin);
	}
}

void viewer_input_refresh_mouse(viewer_app* app)
{
	update_mouse(app, app->input.mouse_x, app->input.mouse_y);
	app->input.anchor_at_last_step = app->input.anchor;
}

/* The window's size, the panel's share of it, the stats strip above the view when shown, and
 * the 2D view that fits the scene in the rest; the mouse's world point follows. */
void viewer_update_view(viewer_app* app)
{
	viewer_view* v = &app->view;
	SDL_GetWindowSize(app->window, &v->window_width, &v->window_height);
	SDL_GL_GetDrawableSize(app->window, &v->drawable_width, &v->drawable_height);
	v->pixel_ratio = v->window_width > 0 ? (float)v->drawable_width / (float)v->window_width : 1.0f;
	int panel = app->show_panel ? (int)(app->panel_width * v->pixel_ratio) : 0;
	if (panel > v->drawable_width / 2) panel = v->drawable_width / 2;
	int stats = app->show_stats ? (int)ceilf(viewer_panel_stats_height() * v->pixel_ratio) : 0;
	if (stats > v->drawable_height / 2) stats = v->drawable_height / 2;
	v->viewport_x = 0;
	v->viewport_y = stats;
	v->viewport_width = v->drawable_width - panel;
	v->viewport_height = v->drawable_height - stats;
	if (app->scene.world != NULL) viewer_scene_bounds(&app->scene, &v->world_min, &v->world_max);
	viewer_view_fit(v);
	app->input.mouse_world = viewer_view_window_to_world(v, app->input.mouse_x, app->input.mouse_y);
	app->input.mouse_world_at_last_step = app->input.mouse_world;
	if (app->three_d) viewer_input_refresh_mouse(app);
}

/* 3D: a mouse move while orbiting or panning moves the camera by the hand's motion. */
static void move_mouse(viewer_app* app, float x, float y)
{
	viewer_input* in = &app->input;
	float dx = x - in->mouse_x, dy = y - in->mouse_y;
	if (app->three_d && in->orbiting) viewer_view3d_orbit(app, dx, dy);
	if (app->three_d && in->panning) viewer_view3d_pan(app, dx, dy);
	update_mouse(app, x, y);
	/* the camera moved: the anchor's jump is not a motion of the hand */
	if (app->three_d && (in->orbiting || in->panning)) in->anchor_at_last_step = in->anchor;
}

/* 3D presses: camera drags, a body or an obstacle grabbed along the ray (the nearer), or the
 * pointer. */
static void press_3d(viewer_app* app, int button)
{
	viewer_input* in = &app->input;
	bool alt = (SDL_GetModState() & KMOD_ALT) != 0;
	bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
	if (button == SDL_BUTTON_RIGHT || (button == SDL_BUTTON_LEFT && alt)) {
		in->orbiting = true;
		return;
	}
	if (button == SDL_BUTTON_MIDDLE) {
		in->panning = true;
		return;
	}
	if (button != SDL_BUTTON_LEFT) return;
	if (!shift) {
		float t, t_body;
		pdl_boundary_id id = viewer_view3d_pick_obstacle(app->scene.world, in->ray_origin, in->ray_direction, &t);
		pdl_body_id body = body_under_pointer(app, &t_body);
		if (body.index >= 0 && t_body <= t) {
			grab_body(app, body, (pdl_vec3){in->ray_origin.x + t_body * in->ray_direction.x,
			                                in->ray_origin.y + t_body * in->ray_direction.y,
			                                in->ray_origin.z + t_body * in->ray_direction.z});
			return;
		}
		pdl_boundary_def def;
		if (pdl_world_get_boundary(app->scene.world, id, &def)) {
			in->action = VIEWER_POINTER_DRAG_OBSTACLE;
			in->dragged_obstacle = id;
			in->grab_point = (pdl_vec3){in->ray_origin.x + t * in->ray_direction.x,
			                            in->ray_origin.y + t * in->ray_direction.y,
			                            in->ray_origin.z + t * in->ray_direction.z};
			in->grab_offset_3d = (pdl_vec3){in->grab_point.x - def.position.x,
			                                in->grab_point.y - def.position.y,
			                                in->grab_point.z - def.position.z};
			return;
		}
	}
	in->action = shift ? VIEWER_POINTER_REPEL : VIEWER_POINTER_ATTRACT;
}

static void press(viewer_app* app, int button)
{
	viewer_input* in = &app->input;
	if (!in->mouse_inside || viewer_panel_wants_mouse()) return;
	if (app->three_d) {
		press_3d(app, button);
		return;
	}
	if (button == SDL_BUTTON_MIDDLE) {
		in->spawning = true;
		return;
	}
	if (button == SDL_BUTTON_LEFT && (SDL_GetModState() & KMOD_SHIFT) == 0) {
		pdl_body_id body = body_under_pointer(app, NULL);
		if (body.index >= 0) {
			grab_body(app, body, viewer_vec3(in->mouse_world));
			return;
		}
		pdl_boundary_id id = obstacle_at(app->scene.world, in->mouse_world);
		pdl_boundary_def def;
		if (pdl_world_get_boundary(app->scene.world, id, &def)) {
			in->action = VIEWER_POINTER_DRAG_OBSTACLE;
			in->dragged_obstacle = id;
			in->grab_offset = (pdl_vec2){in->mouse_world.x - def.position.x,
			                             in->mouse_world.y - def.position.y};
			return;
		}
		in->action = VIEWER_POINTER_ATTRACT;
		return;
	}
	if (button == SDL_BUTTON_LEFT || button == SDL_BUTTON_RIGHT) in->action = VIEWER_POINTER_REPEL;
}

static void release(viewer_app* app, int button)
{
	viewer_input* in = &app->input;
	if (app->three_d) {
		if (button == SDL_BUTTON_RIGHT || (button == SDL_BUTTON_LEFT && in->orbiting)) {
			in->orbiting = false;
			return;
		}
		if (button == SDL_BUTTON_MIDDLE) {
			in->panning = false;
			return;
		}
		if (button != SDL_BUTTON_LEFT) return;
	} else if (button == SDL_BUTTON_MIDDLE) {
		in->spawning = false;
		return;
	}
	if (in->action == VIEWER_POINTER_DRAG_OBSTACLE) {
		/* leave the obstacle at rest: a moving surface would keep dragging fluid */
		pdl_boundary_def def;
		if (pdl_world_get_boundary(app->scene.world, in->dragged_obstacle, &def)) {
			def.velocity = (pdl_vec3){0, 0, 0};
			pdl_world_set_boundary(app->scene.world, in->dragged_obstacle, &def, NULL);
		}
		in->dragged_obstacle = no_obstacle;
	}
	/* a held body is let go as it is: it keeps its velocity (thrown) */
	in->held_body = no_body;
	in->action = VIEWER_POINTER_NONE;
}

static void key_down(viewer_app* app, const SDL_KeyboardEvent* key)
{
	viewer_input* in = &app->input;
	SDL_Keycode sym = key->keysym.sym;
	if (sym == SDLK_e) in->spawning = true;
	if (sym == SDLK_x) in->erasing = true;
	if (key->repeat) return;
	switch (sym) {
	case SDLK_SPACE:
		app->paused = !app->paused;
		break;
	case SDLK_PERIOD:
		app->paused = true;
		app->step_once = true;
		break;
	case SDLK_r:
		app->reset_requested = true;
		break;
	case SDLK_s:
		app->screenshot_requested = true;
		break;
	case SDLK_f:
		app->show_stats = !app->show_stats;
		viewer_update_view(app);
		break;
	case SDLK_c:
		/* the event's own modifiers first: scripted keys carry them there */
		if (((key->keysym.mod | SDL_GetModState()) & KMOD_SHIFT) == 0) drop_body_at_pointer(app);
		else if (app->three_d) drop_box_3d(app);
		else viewer_input_drop_box(app, in->mouse_world);
		break;
	case SDLK_b: {
		viewer_interaction_settings* s = &app->interaction;
		s->body_shape = (viewer_body_shape)((s->body_shape + 1) % VIEWER_BODY_SHAPE_COUNT);
		viewer_message(app, "C drops a %s", viewer_body_shape_name(s->body_shape, app->three_d));
		break;
	}
	case SDLK_HOME:
		if (app->three_d) {
			viewer_view3d_frame(app);
			viewer_input_refresh_mouse(app);
		}
		break;
	case SDLK_DELETE:
	case SDLK_BACKSPACE:
		remove_at_pointer(app, in->mouse_world);
		break;
	case SDLK_TAB:
		app->show_panel = !app->show_panel;
		viewer_update_view(app);
		break;
	case SDLK_m:
		app->render.mode = (viewer_render_mode)((app->render.mode + 1) % VIEWER_RENDER_MODE_COUNT);
		break;
	case SDLK_v:
		app->render.color = (viewer_color_mode)((app->render.color + 1) % VIEWER_COLOR_MODE_COUNT);
		break;
	case SDLK_o:
		app->render.contours = !app->render.contours;
		break;
	case SDLK_w:
		app->render.diffuse = !app->render.diffuse;
		break;
	case SDLK_ESCAPE:
	case SDLK_q:
		app->quit = true;
		break;
	case SDLK_PAGEDOWN:
	case SDLK_RIGHTBRACKET:
	case SDLK_PAGEUP:
	case SDLK_LEFTBRACKET: {
		/* every scene of --list in turn, wrapping: the digits reach only the first ten */
		const int n = viewer_scene_count(), step = sym == SDLK_PAGEDOWN || sym == SDLK_RIGHTBRACKET ? 1 : n - 1;
		if (n > 0) app->scene_requested = ((app->scene_index >= 0 ? app->scene_index : 0) + step) % n;
		break;
	}
	default:
		if ((sym >= SDLK_1 && sym <= SDLK_9) || sym == SDLK_0) {
			int index = sym == SDLK_0 ? 9 : (int)(sym - SDLK_1);
			if (index < viewer_scene_count()) app->scene_requested = index;
		}
		break;
	}
}

static void key_up(viewer_app* app, const SDL_KeyboardEvent* key)
{
	if (key->keysym.sym == SDLK_e) app->input.spawning = false;
	if (key->keysym.sym == SDLK_x) app->input.erasing = false;
}

void viewer_input_handle_event(viewer_app* app, const SDL_Event* e)
{
	switch (e->type) {
	case SDL_MOUSEMOTION:
		move_mouse(app, (float)e->motion.x, (float)e->motion.y);
		break;
	case SDL_MOUSEBUTTONDOWN:
		update_mouse(app, (float)e->button.x, (float)e->button.y);
		press(app, e->button.button);
		break;
	case SDL_MOUSEBUTTONUP:
		update_mouse(app, (float)e->button.x, (float)e->button.y);
		release(app, e->button.button);
		break;
	case SDL_MOUSEWHEEL:
		if (!viewer_panel_wants_mouse() && app->three_d &&
		    (SDL_GetModState() & KMOD_SHIFT) == 0) {
			/* 3D: the wheel zooms (shift + wheel sizes the pointer, below) */
			viewer_view3d_zoom(app, (float)e->wheel.y);
			viewer_input_refresh_mouse(app);
		} else if (!viewer_panel_wants_mouse()) {
			/* the wheel sizes the pointer's reach */
			float factor = powf(1.1f, (float)e->wheel.y);
			float r = app->interaction.pointer_radius * factor;
			app->interaction.pointer_radius = r < 0.5f ? 0.5f : (r > 200.0f ? 200.0f : r);
		}
		break;
	case SDL_KEYDOWN:
		if (!viewer_panel_wants_keyboard()) key_down(app, &e->key);
		break;
	case SDL_KEYUP:
		key_up(app, &e->key);
		break;
	case SDL_WINDOWEVENT:
		if (e->window.event == SDL_WINDOWEVENT_LEAVE) app->input.mouse_inside = false;
		break;
	default:
		break;
	}
}

/* Pours a small disc of particles under the cursor (3D: a ball at the anchor), unless the fluid
 * there is already at half its rest density or more (stacking new particles onto old ones would
 * blow them apart). */
static void spawn_at_pointer(viewer_app* app, bool three)
{
	pdl_world* world = app->scene.world;
	viewer_input* in = &app->input;
	int materials = pdl_world_material_count(world);
	if (materials == 0) return;
	int material = app->interaction.spawn_material;
	if (material < 0 || material >= materials) material = 0;
	float h = pdl_world_get_def(world).interaction_radius;
	float radius = app->interaction.spawn_radius * h;
	float rest_density = pdl_world_get_material(world, material).rest_density;
	float rest_count;
	if (three) { /* a face-centred cubic lattice of nearest spacing s holds sqrt(2) / s^3 a unit^3 */
		float spacing = pdl_rest_spacing_3d(h, rest_density);
		rest_count = 4.18879f * radius * radius * radius * 1.41421356f / (spacing * spacing * spacing);
	} else { /* a hexagonal lattice: sqrt(3) / 2 s^2 a particle */
		float spacing = pdl_rest_spacing(h, rest_density);
		rest_count = 3.14159265f * radius * radius / (spacing * spacing * 0.8660254f);
	}
	pdl_vec3 c = three ? in->anchor : viewer_vec3(in->mouse_world);
	pdl_particle_data p = pdl_world_particles(world);
	int near = 0;
	for (int i = 0; i < p.count; ++i) {
		float dx = p.x[i] - c.x, dy = p.y[i] - c.y, r2 = dx * dx + dy * dy;
		if (three) r2 += (p.z[i] - c.z) * (p.z[i] - c.z);
		if (r2 < radius * radius) ++near;
	}
	if ((float)near > 0.5f * rest_count) return;

	pdl_fill_def fill = pdl_default_fill_def();
	fill.shape = PDL_FILL_DISC;
	fill.material = material;
	fill.position = c;
	fill.radius = radius;
	/* new fluid leaves with the hand's motion, capped so a flick does not fire it off */
	pdl_vec3 v = three ? in->anchor_velocity : viewer_vec3(in->mouse_velocity);
	float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
	float cap = 20.0f * h;
	float k = speed > cap ? cap / speed : 1.0f;
	fill.velocity = (pdl_vec3){v.x * k, v.y * k, v.z * k};
	pdl_error e;
	if (pdl_world_fill(world, &fill, &e) < 0) viewer_message(app, "spawn: %s", e.message);
}

static void spawn(viewer_app* app) { spawn_at_pointer(app, false); }
static void spawn_3d(viewer_app* app) { spawn_at_pointer(app, true); }

/* 3D: the grabbed obstacle follows the ray in the plane facing the camera through the point
 * where it was grabbed. */
static void move_obstacle_3d(viewer_app* app, float dt)
{
	viewer_input* in = &app->input;
	pdl_world* world = app->scene.world;
	pdl_boundary_def def;
	if (!pdl_world_get_boundary(world, in->dragged_obstacle, &def)) {
		in->action = VIEWER_POINTER_NONE;
		return;
	}
	pdl_vec3 p = viewer_view3d_on_plane(app, in->ray_origin, in->ray_direction, in->grab_point);
	pdl_vec3 target = {p.x - in->grab_offset_3d.x, p.y - in->grab_offset_3d.y,
	                   p.z - in->grab_offset_3d.z};
	def.velocity = dt > 0 ? (pdl_vec3){(target.x - def.position.x) / dt,
	                                   (target.y - def.position.y) / dt,
	                                   (target.z - def.position.z) / dt}
	                      : (pdl_vec3){0, 0, 0};
	def.position = target;
	pdl_world_set_boundary(world, in->dragged_obstacle, &def, NULL);
}

/* The held body, steered toward the pointer (the top of this file says why by velocity): the
 * grabbed point should be where the pointer is (3D: where the ray crosses the plane facing the
 * camera through the grab point) within GRAB_FOLLOW_STEPS steps. Paused (dt 0), it is moved
 * there and stopped. */
static void steer_body(viewer_app* app, float dt)
{
	viewer_input* in = &app->input;
	pdl_world* world = app->scene.world;
	pdl_body_def def;
	if (!pdl_world_get_body(world, in->held_body, &def)) {
		in->action = VIEWER_POINTER_NONE;
		in->held_body = no_body;
		return;
	}
	pdl_vec3 pointer = app->three_d
	                       ? viewer_view3d_on_plane(app, in->ray_origin, in->ray_direction, in->grab_point)
	                       : viewer_vec3(in->mouse_world);
	pdl_vec3 held = viewer_body_to_world(&def, app->three_d, in->body_grab_local);
	pdl_vec3 gap = {pointer.x - held.x, pointer.y - held.y, pointer.z - held.z};
	if (dt > 0) {
		float k = 1.0f / (GRAB_FOLLOW_STEPS * dt);
		pdl_vec3 v = {gap.x * k, gap.y * k, gap.z * k};
		float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
		float cap = GRAB_MAX_SPEED * length_unit(app);
		float scale = speed > cap ? cap / speed : 1.0f;
		def.linear_velocity = (pdl_vec3){v.x * scale, v.y * scale, v.z * scale};
	} else {
		def.position = (pdl_vec3){def.position.x + gap.x, def.position.y + gap.y,
		                          def.position.z + gap.z};
		def.linear_velocity = (pdl_vec3){0, 0, 0};
		def.angular_velocity = (pdl_vec3){0, 0, 0};
	}
	pdl_error e;
	if (pdl_world_set_body(world, in->held_body, &def, &e) != PDL_OK && !in->grab_warned) {
		/* e.g. paused and dragged out of the container: it stays where it was */
		viewer_message(app, "body: %s", e.message);
		in->grab_warned = true;
	}
}

void viewer_input_move_held(viewer_app* app, float dt)
{
	viewer_input* in = &app->input;
	if (in->action == VIEWER_POINTER_GRAB_BODY) {
		steer_body(app, dt);
		return;
	}
	if (in->action != VIEWER_POINTER_DRAG_OBSTACLE) return;
	if (app->three_d) {
		move_obstacle_3d(app, dt);
		return;
	}
	pdl_world* world = app->scene.world;
	pdl_boundary_def def;
	if (!pdl_world_get_boundary(world, in->dragged_obstacle, &def)) {
		in->action = VIEWER_POINTER_NONE;
		return;
	}
	pdl_vec2 target = {in->mouse_world.x - in->grab_offset.x, in->mouse_world.y - in->grab_offset.y};
	/* The surface velocity is the move over this step: fluid in contact is carried along by
	 * the boundary's friction instead of being teleported through. Paused (dt 0), it just
	 * moves. */
	def.velocity = dt > 0 ? (pdl_vec3){(target.x - def.position.x) / dt,
	                                   (target.y - def.position.y) / dt, 0}
	                      : (pdl_vec3){0, 0, 0};
	def.position = viewer_vec3(target);
	pdl_world_set_boundary(world, in->dragged_obstacle, &def, NULL);
}

/* The held tools before a step, in 2D and 3D alike: the pull/push pointer at `position`
 * (3D: a ray along `direction`; 2D: direction 0) moving at `velocity`, the dragged obstacle or
 * held body, pouring with `spawn_at`, and erasing around `erase_at`. */
static void apply_tools(viewer_app* app, float dt, pdl_vec3 position, pdl_vec3 direction, pdl_vec3 velocity,
                        pdl_vec3 erase_at, void (*spawn_at)(viewer_app*))
{
	pdl_world* world = app->scene.world;
	viewer_input* in = &app->input;
	if (in->action == VIEWER_POINTER_ATTRACT || in->action == VIEWER_POINTER_REPEL) {
		pdl_pointer pointer = pdl_default_pointer();
		pointer.position = position;
		pointer.direction = direction;
		pointer.velocity = velocity;
		pointer.radius = viewer_pointer_radius(app);
		float pull = pointer_acceleration(app);
		pointer.strength = in->action == VIEWER_POINTER_ATTRACT ? pull : -pull;
		pointer.drag = app->interaction.pointer_drag;
		pdl_error e;
		if (pdl_world_set_pointer(world, MOUSE_POINTER, &pointer, &e) != PDL_OK) {
			viewer_message(app, "pointer: %s", e.message);
		}
	} else {
		pdl_world_clear_pointer(world, MOUSE_POINTER);
	}

	viewer_input_move_held(app, dt);

	if (in->spawning && in->mouse_inside) {
		in->spawn_clock -= dt;
		if (in->spawn_clock <= 0) {
			spawn_at(app);
			in->spawn_clock += app->interaction.spawn_interval;
			if (in->spawn_clock < 0) in->spawn_clock = 0;
		}
	} else {
		in->spawn_clock = 0;
	}

	if (in->erasing && in->mouse_inside) {
		pdl_world_remove_particles_in_circle(world, erase_at, 0.5f * viewer_pointer_radius(app));
	}
}

void viewer_input_before_step(viewer_app* app, float dt)
{
	viewer_input* in = &app->input;
	/* The pointer's velocity, from where the mouse (3D: the ray's anchor) was at the previous
	 * step, smoothed over a few steps so that uneven event timing does not jerk the fluid. */
	static const float smoothing = 0.5f;
	if (app->three_d) { /* the pointer is the mouse ray, dragging with its anchor's motion */
		pdl_vec3 moved = {(in->anchor.x - in->anchor_at_last_step.x) / dt,
		                  (in->anchor.y - in->anchor_at_last_step.y) / dt,
		                  (in->anchor.z - in->anchor_at_last_step.z) / dt};
		in->anchor_at_last_step = in->anchor;
		in->anchor_velocity.x += smoothing * (moved.x - in->anchor_velocity.x);
		in->anchor_velocity.y += smoothing * (moved.y - in->anchor_velocity.y);
		in->anchor_velocity.z += smoothing * (moved.z - in->anchor_velocity.z);
		apply_tools(app, dt, in->ray_origin, in->ray_direction, in->anchor_velocity, in->anchor, spawn_3d);
		return;
	}
	pdl_vec2 moved = {(in->mouse_world.x - in->mouse_world_at_last_step.x) / dt,
	                  (in->mouse_world.y - in->mouse_world_at_last_step.y) / dt};
	in->mouse_world_at_last_step = in->mouse_world;
	in->mouse_velocity.x += smoothing * (moved.x - in->mouse_velocity.x);
	in->mouse_velocity.y += smoothing * (moved.y - in->mouse_velocity.y);
	apply_tools(app, dt, viewer_vec3(in->mouse_world), (pdl_vec3){0, 0, 0}, viewer_vec3(in->mouse_velocity),
	            viewer_vec3(in->mouse_world), spawn);
}
