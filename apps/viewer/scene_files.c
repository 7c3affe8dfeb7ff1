/* puddle-view: scenes from JSON files (the .json files of scenes/), through puddle_io's scene API, so the
 * viewer runs the same worlds as the command line, the tests and the web page: the same
 * container, fills, obstacles, and the scene's scripted emitters and pointer strokes, frame by
 * frame. Compiled only when puddle_io is built (PUDDLE_VIEW_WITH_IO).
 *
 * SPDX-License-Identifier: MIT */
#include "viewer.h"

#include "puddle/scene.h"

#include <stdio.h>
#include <string.h>

static void advance_file_scene(viewer_scene* scene, long long step)
{
	/* The scene's own events for this frame: emitters add rows, strokes move their pointers.
	 * A full world refuses more particles; the viewer keeps running without them. */
	pdl_scene_apply_frame((const pdl_scene*)scene->user, scene->world, step, NULL);
}

static void release_file_scene(viewer_scene* scene)
{
	pdl_scene_destroy((pdl_scene*)scene->user);
	scene->user = NULL;
}

bool viewer_scene_file_load(viewer_scene* out, const char* path, const viewer_scene_options* options,
                            char* err, int err_size)
{
	pdl_scene_error e;
	pdl_scene* scene = pdl_scene_load(path, &e);
	if (scene == NULL) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		return false;
	}
	if (options->particles > 0) pdl_scene_scale_to_particles(scene, (double)options->particles);
	if (options->threads >= 0) scene->world.threads = options->threads;
	pdl_world* world = pdl_scene_build_world(scene, &e);
	if (world == NULL) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		pdl_scene_destroy(scene);
		return false;
	}
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", scene->name);
	out->world = world;
	out->advance = advance_file_scene;
	out->release = release_file_scene;
	out->user = scene;
	out->has_bounds = true;
	out->bounds_min = (pdl_vec2){scene->bounds_min.x, scene->bounds_min.y}; /* x, y of the 3D bounds */
	out->bounds_max = (pdl_vec2){scene->bounds_max.x, scene->bounds_max.y};
	out->has_camera = scene->has_camera;
	out->camera = scene->camera;
	out->has_colors = true;
	out->inside_color = scene->output.background;
	out->outside_color = scene->output.wall_color;
	out->obstacle_color = scene->output.obstacle_color;
	return true;
}

bool viewer_scene_file_describe(const char* path, char* name, int name_size, char* description,
                                int description_size)
{
	pdl_scene* scene = pdl_scene_load(path, NULL);
	if (scene == NULL) return false;
	snprintf(name, (size_t)name_size, "%s", scene->name);
	snprintf(description, (size_t)description_size, "%s", scene->description);
	pdl_scene_destroy(scene);
	return true;
}
