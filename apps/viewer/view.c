/* puddle-view: the bottom layer. What every other file of the viewer may use and which uses
 * none of them: the names and defaults of the render settings, the 2D view's maths (world units
 * <-> window points <-> drawable pixels), the status message, and small questions about the
 * world (the pointer's reach, obstacles). See docs/viewer.md, "Code map".
 *
 * SPDX-License-Identifier: MIT */
#include "viewer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Settings names --------------------------------------------------------------------- */

static const char* render_mode_names[VIEWER_RENDER_MODE_COUNT] = {"metaball", "dots", "liquid"};
static const char* color_mode_names[VIEWER_COLOR_MODE_COUNT] = {"material", "speed", "density",
                                                                "pressure"};

const char* viewer_render_mode_name(viewer_render_mode mode)
{
	return (unsigned)mode < VIEWER_RENDER_MODE_COUNT ? render_mode_names[mode] : "?";
}

const char* viewer_color_mode_name(viewer_color_mode mode)
{
	return (unsigned)mode < VIEWER_COLOR_MODE_COUNT ? color_mode_names[mode] : "?";
}

static int find_name(const char* s, const char* const* names, int count)
{
	for (int i = 0; i < count; ++i) {
		if (strcmp(s, names[i]) == 0) return i;
	}
	return -1;
}

int viewer_render_mode_find(const char* name)
{
	return find_name(name, render_mode_names, VIEWER_RENDER_MODE_COUNT);
}

int viewer_color_mode_find(const char* name)
{
	return find_name(name, color_mode_names, VIEWER_COLOR_MODE_COUNT);
}

viewer_render_settings viewer_default_render_settings(void)
{
	viewer_render_settings s;
	s.mode = VIEWER_RENDER_METABALL;
	s.color = VIEWER_COLOR_MATERIAL;
	/* at rest spacing (0.35 h at rest density 4) discs of 0.2 h just touch */
	s.dot_radius = 0.2f;
	s.splat_radius = 0.75f;
	s.threshold = 0.5f;
	s.edge_softness = 0.12f;
	s.field_scale = 0.5f;
	s.speed_range = 0.0f;
	s.pressure_range = 0.0f;
	s.contours = false;
	s.diffuse = true;
	s.scale_3d = 1.0f;
	s.inside_color = 0x1f2129;
	s.outside_color = 0x0e0f13;
	s.obstacle_color = 0x8f877d;
	return s;
}

/* ---- View -------------------------------------------------------------------------------- */

void viewer_view_fit(viewer_view* v)
{
	float w = fmaxf(v->world_max.x - v->world_min.x, 1e-3f);
	float h = fmaxf(v->world_max.y - v->world_min.y, 1e-3f);
	static const float margin = 1.06f;
	float sx = (float)v->viewport_width / (w * margin);
	float sy = (float)v->viewport_height / (h * margin);
	v->pixels_per_unit = fmaxf(fminf(sx, sy), 1e-3f);
	v->center = (pdl_vec2){0.5f * (v->world_min.x + v->world_max.x),
	                       0.5f * (v->world_min.y + v->world_max.y)};
}

void viewer_view_world_to_pixel(const viewer_view* v, pdl_vec2 p, float* px, float* py)
{
	*px = (float)v->viewport_x + 0.5f * (float)v->viewport_width +
	      (p.x - v->center.x) * v->pixels_per_unit;
	*py = (float)v->viewport_y + 0.5f * (float)v->viewport_height -
	      (p.y - v->center.y) * v->pixels_per_unit;
}

void viewer_view_world_to_window(const viewer_view* v, pdl_vec2 p, float* x, float* y)
{
	float px, py;
	viewer_view_world_to_pixel(v, p, &px, &py);
	*x = px / v->pixel_ratio;
	*y = py / v->pixel_ratio;
}

pdl_vec2 viewer_view_window_to_world(const viewer_view* v, float x, float y)
{
	float px = x * v->pixel_ratio, py = y * v->pixel_ratio;
	return (pdl_vec2){
		v->center.x + (px - (float)v->viewport_x - 0.5f * (float)v->viewport_width) / v->pixels_per_unit,
		v->center.y - (py - (float)v->viewport_y - 0.5f * (float)v->viewport_height) / v->pixels_per_unit};
}

/* ---- App state ------------------------------------------------------------------------- */

void viewer_message(viewer_app* app, const char* fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vsnprintf(app->message, sizeof app->message, fmt, args);
	va_end(args);
	fprintf(stderr, "puddle-view: %s\n", app->message);
}

float viewer_pointer_radius(const viewer_app* app)
{
	return app->interaction.pointer_radius * pdl_world_get_def(app->scene.world).interaction_radius;
}

bool viewer_is_container(pdl_boundary_kind kind)
{
	return kind == PDL_BOUNDARY_CIRCLE_CONTAINER || kind == PDL_BOUNDARY_BOX_CONTAINER;
}

int viewer_obstacle_count(const pdl_world* world)
{
	int count = 0;
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		if (pdl_world_get_boundary(world, pdl_world_boundary_in_slot(world, slot), &def) && !viewer_is_container(def.kind)) ++count;
	}
	return count;
}
