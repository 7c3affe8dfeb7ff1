/* puddle-view: the worlds the viewer can show, the scene files of scenes/ (or --scenes DIR), read
 * through puddle_io's scene layer exactly as `puddle run` reads them: the same container, fills,
 * obstacles, bodies, and the scene's emitters and pointer strokes frame by frame; --particles
 * and --threads are applied as the command line applies them. The list is the files' scene
 * names, sorted; a path to a .json file also loads.
 *
 * The material presets are presets.c's, read from <scenes dir>/presets/materials.json.
 *
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "viewer.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most scenes the list holds. */
#define MAX_LISTED_SCENES 64

typedef struct listed_scene {
	char name[64];
	char description[512]; /* pdl_scene.description's size */
	char path[512];
} listed_scene;

static listed_scene scene_list[MAX_LISTED_SCENES];
static int scene_list_count = -1; /* -1: not made yet */

static int compare_names(const void* a, const void* b)
{
	return strcmp(((const listed_scene*)a)->name, ((const listed_scene*)b)->name);
}

/* The name and description of a scene file; false if it does not load. */
static bool describe(const char* path, listed_scene* s)
{
	pdl_scene* scene = pdl_scene_load(path, NULL);
	if (scene == NULL) return false;
	snprintf(s->name, sizeof s->name, "%s", scene->name);
	snprintf(s->description, sizeof s->description, "%s", scene->description);
	pdl_scene_destroy(scene);
	return true;
}

void viewer_scenes_init(const char* dir)
{
	scene_list_count = 0;
	char presets[600];
	snprintf(presets, sizeof presets, "%s/presets/materials.json", dir != NULL ? dir : ".");
	viewer_presets_load(presets);
	DIR* d = dir != NULL ? opendir(dir) : NULL;
	if (d == NULL) return;
	struct dirent* entry;
	while ((entry = readdir(d)) != NULL && scene_list_count < MAX_LISTED_SCENES) {
		size_t len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".json") != 0) continue;
		listed_scene* s = &scene_list[scene_list_count];
		memset(s, 0, sizeof *s);
		snprintf(s->path, sizeof s->path, "%s/%s", dir, entry->d_name);
		/* a file that does not load is left out of the list (puddle info says why) */
		if (describe(s->path, s)) ++scene_list_count;
	}
	closedir(d);
	qsort(scene_list, (size_t)scene_list_count, sizeof scene_list[0], compare_names);
}

int viewer_scene_count(void)
{
	if (scene_list_count < 0) viewer_scenes_init(NULL);
	return scene_list_count;
}

const char* viewer_scene_name(int index)
{
	return index >= 0 && index < viewer_scene_count() ? scene_list[index].name : NULL;
}

const char* viewer_scene_description(int index)
{
	return index >= 0 && index < viewer_scene_count() ? scene_list[index].description : NULL;
}

int viewer_scene_find(const char* name)
{
	for (int i = 0; i < viewer_scene_count(); ++i) {
		if (strcmp(scene_list[i].name, name) == 0) return i;
	}
	return -1;
}

static bool is_path(const char* name)
{
	size_t len = strlen(name);
	return strchr(name, '/') != NULL || (len > 5 && strcmp(name + len - 5, ".json") == 0);
}

static bool load_file(viewer_scene* out, const char* path, const viewer_scene_options* options,
                      char* err, int err_size)
{
	pdl_error e;
	pdl_scene* scene = pdl_scene_load(path, &e);
	if (scene == NULL) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		return false;
	}
	pdl_scene_override(scene, (double)options->particles, options->threads); /* as puddle run */
	pdl_world* world = pdl_scene_build_world(scene, &e);
	if (world == NULL) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		pdl_scene_destroy(scene);
		return false;
	}
	snprintf(out->name, sizeof out->name, "%s", scene->name);
	out->world = world;
	out->source = scene;
	out->bounds_min = (pdl_vec2){scene->bounds_min.x, scene->bounds_min.y}; /* x, y of the 3D bounds */
	out->bounds_max = (pdl_vec2){scene->bounds_max.x, scene->bounds_max.y};
	out->has_camera = scene->has_camera;
	out->camera = scene->camera;
	out->inside_color = scene->output.background;
	out->outside_color = scene->output.wall_color;
	out->obstacle_color = scene->output.obstacle_color;
	return true;
}

bool viewer_scene_load(viewer_scene* scene, const char* name, const viewer_scene_options* options,
                       char* err, int err_size)
{
	memset(scene, 0, sizeof *scene);
	int index = viewer_scene_find(name);
	const char* path = index >= 0 ? scene_list[index].path : is_path(name) ? name : NULL;
	if (path == NULL) {
		snprintf(err, (size_t)err_size, "no scene named '%s' (puddle-view --list)", name);
		return false;
	}
	if (!load_file(scene, path, options, err, err_size)) return false;
	scene->preset_basis = viewer_preset_basis_of(scene->world);
	return true;
}

void viewer_scene_unload(viewer_scene* scene)
{
	if (scene->world != NULL) pdl_world_destroy(scene->world);
	if (scene->source != NULL) pdl_scene_destroy(scene->source);
	memset(scene, 0, sizeof *scene);
}

void viewer_scene_advance(viewer_scene* scene, long long step)
{
	/* A full world refuses more particles; the viewer keeps running without them. */
	if (scene->source != NULL) pdl_scene_apply_frame(scene->source, scene->world, step, NULL);
}

void viewer_scene_bounds(const viewer_scene* scene, pdl_vec2* lo, pdl_vec2* hi)
{
	*lo = scene->bounds_min;
	*hi = scene->bounds_max;
}

void viewer_scene_bounds_3d(const viewer_scene* scene, pdl_vec3* lo, pdl_vec3* hi)
{
	const pdl_world* world = scene->world;
	*lo = (pdl_vec3){INFINITY, INFINITY, INFINITY};
	*hi = (pdl_vec3){-INFINITY, -INFINITY, -INFINITY};
	int limit = pdl_world_boundary_slots(world);
	bool found = false;
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		if (!pdl_world_get_boundary(world, pdl_world_boundary_in_slot(world, slot), &def)) continue;
		pdl_vec3 half;
		if (def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER) {
			half = (pdl_vec3){def.radius, def.radius, def.radius};
		} else if (def.kind == PDL_BOUNDARY_BOX_CONTAINER) {
			/* turned by angle about z: the x-y footprint grows, z stays */
			float c = fabsf(cosf(def.angle)), s = fabsf(sinf(def.angle));
			half = (pdl_vec3){c * def.half_extents.x + s * def.half_extents.y,
			                  s * def.half_extents.x + c * def.half_extents.y, def.half_extents.z};
		} else {
			continue;
		}
		lo->x = fminf(lo->x, def.position.x - half.x);
		lo->y = fminf(lo->y, def.position.y - half.y);
		lo->z = fminf(lo->z, def.position.z - half.z);
		hi->x = fmaxf(hi->x, def.position.x + half.x);
		hi->y = fmaxf(hi->y, def.position.y + half.y);
		hi->z = fmaxf(hi->z, def.position.z + half.z);
		found = true;
	}
	if (found) return;
	pdl_particle_data p = pdl_world_particles(world);
	for (int i = 0; i < p.count && p.z != NULL; ++i) {
		lo->x = fminf(lo->x, p.x[i]);
		lo->y = fminf(lo->y, p.y[i]);
		lo->z = fminf(lo->z, p.z[i]);
		hi->x = fmaxf(hi->x, p.x[i]);
		hi->y = fmaxf(hi->y, p.y[i]);
		hi->z = fmaxf(hi->z, p.z[i]);
	}
	if (!(lo->x <= hi->x)) {
		*lo = (pdl_vec3){-10, -10, -10};
		*hi = (pdl_vec3){10, 10, 10};
	}
}
