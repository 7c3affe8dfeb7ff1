/* puddle-view: the worlds the viewer can show.
 *
 * The list: the scene files of scenes/ (when built with puddle_io, see scene_files.c), then the
 * viewer's own scenes, built in code so that it also runs with nothing but the core library.
 * Each is written at one scale; --particles rebuilds it with every length multiplied by
 * sqrt(wanted / built) (3D: the cube root), which keeps the fluid (h, densities) and changes how
 * much of it there is. Sizes are in units of h = 1: a fill spaced at rest density 4 holds about 9
 * particles per unit^2 in 2D, and about 11.4 per unit^3 in 3D (a face-centred cubic lattice of
 * spacing 0.498 h, sqrt(2) / 0.498^3).
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

/* ---- Built-in scenes ------------------------------------------------------------------------ */

typedef struct scene_builder {
	pdl_world* world;
	float scale; /* every length is multiplied by this */
	bool failed;
	char* err;
	int err_size;
} scene_builder;

static void fail(scene_builder* b, const pdl_error* e)
{
	if (!b->failed) snprintf(b->err, (size_t)b->err_size, "%s", e->message);
	b->failed = true;
}

static int add_material(scene_builder* b, pdl_material_def def)
{
	pdl_error e;
	int id = pdl_world_add_material(b->world, &def, &e);
	if (id < 0) fail(b, &e);
	return id;
}

static pdl_vec2 scaled(const scene_builder* b, float x, float y)
{
	return (pdl_vec2){x * b->scale, y * b->scale};
}

static void add_box(scene_builder* b, pdl_boundary_kind kind, float x, float y, float hx, float hy,
                    float angle)
{
	pdl_boundary_def def = pdl_default_boundary_def();
	def.kind = kind;
	def.position = viewer_vec3(scaled(b, x, y));
	def.half_extents = viewer_vec3(scaled(b, hx, hy));
	def.angle = angle;
	if (kind == PDL_BOUNDARY_BOX_CONTAINER) def.friction = 0.2f;
	pdl_error e;
	if (pdl_world_add_boundary(b->world, &def, &e) < 0) fail(b, &e);
}

static void add_circle(scene_builder* b, pdl_boundary_kind kind, float x, float y, float radius)
{
	pdl_boundary_def def = pdl_default_boundary_def();
	def.kind = kind;
	def.position = viewer_vec3(scaled(b, x, y));
	def.radius = radius * b->scale;
	if (kind == PDL_BOUNDARY_CIRCLE_CONTAINER) def.friction = 0.2f;
	pdl_error e;
	if (pdl_world_add_boundary(b->world, &def, &e) < 0) fail(b, &e);
}

static void fill_box(scene_builder* b, int material, float x, float y, float hx, float hy)
{
	pdl_fill_def def = pdl_default_fill_def();
	def.shape = PDL_FILL_BOX;
	def.material = material;
	def.position = viewer_vec3(scaled(b, x, y));
	def.half_extents = viewer_vec3(scaled(b, hx, hy));
	pdl_error e;
	if (pdl_world_fill(b->world, &def, &e) < 0) fail(b, &e);
}

/* The built-in scenes are written at the presets' reference scale (h = 1, g = 10); without the
 * presets file the fluid stays water. */
static void apply_preset(scene_builder* b, const char* name)
{
	int preset = viewer_preset_find(name);
	if (b->failed || preset < 0) return;
	viewer_preset_basis basis = viewer_preset_basis_of(b->world);
	if (!viewer_apply_preset(b->world, preset, &basis, b->err, b->err_size)) b->failed = true;
}

static void fill_sunflower(scene_builder* b, int material, float x, float y, float radius)
{
	/* Reference 001 starts from a Fermat spiral: even spacing without lattice rows. */
	pdl_fill_def def = pdl_default_fill_def();
	def.shape = PDL_FILL_SPIRAL;
	def.material = material;
	def.position = viewer_vec3(scaled(b, x, y));
	def.radius = radius * b->scale;
	def.count = 0;
	pdl_error e;
	if (pdl_world_fill(b->world, &def, &e) < 0) fail(b, &e);
}

/* ---- 3D: built with the core API (world_def.dimensions = 3) ---- */

static pdl_vec3 scaled3(const scene_builder* b, float x, float y, float z)
{
	return (pdl_vec3){x * b->scale, y * b->scale, z * b->scale};
}

static void add_box3(scene_builder* b, pdl_boundary_kind kind, pdl_vec3 position, pdl_vec3 half)
{
	pdl_boundary_def def = pdl_default_boundary_def();
	def.kind = kind;
	def.position = scaled3(b, position.x, position.y, position.z);
	def.half_extents = scaled3(b, half.x, half.y, half.z);
	if (kind == PDL_BOUNDARY_BOX_CONTAINER) def.friction = 0.2f;
	pdl_error e;
	if (pdl_world_add_boundary(b->world, &def, &e) < 0) fail(b, &e);
}

static void fill_box3(scene_builder* b, int material, pdl_vec3 position, pdl_vec3 half,
                      pdl_vec3 velocity)
{
	pdl_fill_def def = pdl_default_fill_def();
	def.shape = PDL_FILL_BOX;
	def.material = material;
	def.position = scaled3(b, position.x, position.y, position.z);
	def.half_extents = scaled3(b, half.x, half.y, half.z);
	def.velocity = velocity;
	pdl_error e;
	if (pdl_world_fill(b->world, &def, &e) < 0) fail(b, &e);
}

static void fill_ball3(scene_builder* b, int material, pdl_vec3 position, float radius,
                       pdl_vec3 velocity)
{
	pdl_fill_def def = pdl_default_fill_def();
	def.shape = PDL_FILL_DISC; /* a ball in 3D */
	def.material = material;
	def.position = scaled3(b, position.x, position.y, position.z);
	def.radius = radius * b->scale;
	def.velocity = velocity;
	pdl_error e;
	if (pdl_world_fill(b->world, &def, &e) < 0) fail(b, &e);
}

/* A 3D dam break: a column of water 8 x 14 x 14 (about 18k particles) against the left wall
 * of a tank 32 x 20 x 14, released. */
static void build_dam_3d(scene_builder* b)
{
	int water = add_material(b, pdl_default_material_def());
	add_box3(b, PDL_BOUNDARY_BOX_CONTAINER, (pdl_vec3){0, 10, 0}, (pdl_vec3){16, 10, 7});
	fill_box3(b, water, (pdl_vec3){-11.8f, 7, 0}, (pdl_vec3){4, 7, 6.9f}, (pdl_vec3){0, 0, 0});
}

/* A 3D drop: a ball of water (radius 3.5, about 2k particles) thrown down into a pool 4 deep in a
 * square tank 20 x 16 x 20 (about 17.5k). */
static void build_drop_3d(scene_builder* b)
{
	int water = add_material(b, pdl_default_material_def());
	add_box3(b, PDL_BOUNDARY_BOX_CONTAINER, (pdl_vec3){0, 8, 0}, (pdl_vec3){10, 8, 10});
	fill_box3(b, water, (pdl_vec3){0, 2, 0}, (pdl_vec3){9.9f, 2, 9.9f}, (pdl_vec3){0, 0, 0});
	fill_ball3(b, water, (pdl_vec3){0, 11.5f, 0}, 3.5f, (pdl_vec3){0, -12.0f * b->scale, 0});
}

/* A dam break: a column of water released into a wide tank. */
static void build_dam(scene_builder* b)
{
	int water = add_material(b, pdl_default_material_def());
	add_box(b, PDL_BOUNDARY_BOX_CONTAINER, 0, 20, 30, 20, 0);
	fill_box(b, water, -20, 11, 9, 10);
}

/* A calm pool filling the bottom of a tank: the fluid starts at rest density, so it stays still
 * until it is touched (the drag test uses it). */
static void build_pool(scene_builder* b)
{
	int water = add_material(b, pdl_default_material_def());
	add_box(b, PDL_BOUNDARY_BOX_CONTAINER, 0, 7, 10, 7, 0);
	fill_box(b, water, 0, 3, 9.8f, 2.9f);
}

/* Reference 004: blobs of fluid dropped into a round container. */
static void build_blobs(scene_builder* b)
{
	int water = add_material(b, pdl_default_material_def());
	add_circle(b, PDL_BOUNDARY_CIRCLE_CONTAINER, 0, 0, 20);
	fill_sunflower(b, water, -8, 6, 5);
	fill_sunflower(b, water, 7, 9, 4.5f);
	fill_sunflower(b, water, 1, -8, 5.5f);
}

/* Reference 001: three density classes, finely mixed, settle into layers. */
static void build_stratify(scene_builder* b)
{
	add_material(b, pdl_default_material_def());
	add_box(b, PDL_BOUNDARY_BOX_CONTAINER, 0, 15, 22, 15, 0);
	fill_box(b, 0, 0, 9, 16, 8);
	apply_preset(b, "stratify");
}

/* Reference 002's lava, poured over a ramp and a boulder. */
static void build_lava(scene_builder* b)
{
	int lava = add_material(b, pdl_default_material_def());
	add_box(b, PDL_BOUNDARY_BOX_CONTAINER, 0, 15, 25, 15, 0);
	add_box(b, PDL_BOUNDARY_BOX, -6, 13, 11, 0.8f, -0.3f);
	add_circle(b, PDL_BOUNDARY_CIRCLE, 12, 4, 3);
	fill_box(b, lava, -16, 24, 7, 4.5f);
	apply_preset(b, "lava");
}

/* Clavet's viscoelastic slime: a lump that bounces, sticks and slowly flows. */
static void build_slime(scene_builder* b)
{
	int slime = add_material(b, pdl_default_material_def());
	add_circle(b, PDL_BOUNDARY_CIRCLE_CONTAINER, 0, 0, 18);
	add_circle(b, PDL_BOUNDARY_CIRCLE, 0, -6, 3);
	fill_sunflower(b, slime, 0, 8, 6);
	apply_preset(b, "slime");
}

typedef struct builtin_scene {
	const char* name;
	const char* description;
	void (*build)(scene_builder* b);
	int dimensions; /* 2 or 3 */
} builtin_scene;

static const builtin_scene builtin_scenes[] = {
	{"dam", "a column of water released into a wide tank", build_dam, 2},
	{"pool", "a calm pool of water at rest, to stir and splash", build_pool, 2},
	{"blobs", "three blobs of water dropped into a round container (reference 004)", build_blobs, 2},
	{"stratify", "three densities mixed, settling into layers (reference 001)", build_stratify, 2},
	{"lava", "viscous lava over a ramp and a boulder (reference 002)", build_lava, 2},
	{"slime", "a viscoelastic lump with springs and plasticity (Clavet section 4)", build_slime, 2},
	{"dam3d", "3D: a column of water collapsing in a box tank (about 18k particles)",
	 build_dam_3d, 3},
	{"drop3d", "3D: a ball of water dropped into a pool (about 19k particles)", build_drop_3d, 3},
};

#define BUILTIN_SCENE_COUNT ((int)(sizeof builtin_scenes / sizeof builtin_scenes[0]))
/* Most scenes the list holds (files and built-ins together). */
#define MAX_LISTED_SCENES 64

typedef struct listed_scene {
	char name[64];
	char description[256];
	char path[512];                /* a scene file, or "" */
	const builtin_scene* builtin; /* or a built-in scene */
} listed_scene;

static listed_scene scene_list[MAX_LISTED_SCENES];
static int scene_list_count = -1; /* -1: not made yet */

static int compare_names(const void* a, const void* b)
{
	return strcmp(((const listed_scene*)a)->name, ((const listed_scene*)b)->name);
}

static void list_scene_files(const char* dir)
{
#ifdef PUDDLE_VIEW_WITH_IO
	DIR* d = dir != NULL ? opendir(dir) : NULL;
	if (d == NULL) return;
	struct dirent* entry;
	while ((entry = readdir(d)) != NULL && scene_list_count < MAX_LISTED_SCENES) {
		size_t len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".json") != 0) continue;
		listed_scene* s = &scene_list[scene_list_count];
		memset(s, 0, sizeof *s);
		snprintf(s->path, sizeof s->path, "%s/%s", dir, entry->d_name);
		/* a file that does not load is left out of the list (puddle validate says why) */
		if (viewer_scene_file_describe(s->path, s->name, sizeof s->name, s->description,
		                               sizeof s->description)) {
			++scene_list_count;
		}
	}
	closedir(d);
	qsort(scene_list, (size_t)scene_list_count, sizeof scene_list[0], compare_names);
#else
	(void)dir;
	(void)compare_names;
#endif
}

void viewer_scenes_init(const char* dir)
{
	scene_list_count = 0;
	char presets[600];
	snprintf(presets, sizeof presets, "%s/presets/materials.json", dir != NULL ? dir : ".");
	viewer_presets_load(presets);
	list_scene_files(dir);
	for (int b = 0; b < BUILTIN_SCENE_COUNT && scene_list_count < MAX_LISTED_SCENES; ++b) {
		if (viewer_scene_find(builtin_scenes[b].name) >= 0) continue;
		listed_scene* s = &scene_list[scene_list_count++];
		memset(s, 0, sizeof *s);
		snprintf(s->name, sizeof s->name, "%s", builtin_scenes[b].name);
		snprintf(s->description, sizeof s->description, "%s", builtin_scenes[b].description);
		s->builtin = &builtin_scenes[b];
	}
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

static pdl_world* build_builtin(const builtin_scene* s, float scale, int threads, char* err,
                                int err_size)
{
	pdl_world_def def = pdl_default_world_def();
	def.dimensions = s->dimensions;
	/* Two substeps, as the shipped scene files use: at one, the Jacobi relaxation of a falling
	 * column overshoots and the fluid sprays (stable, but not calm). */
	def.substeps = 2;
	if (threads >= 0) def.threads = threads;
	pdl_error e;
	pdl_world* world = pdl_world_create(&def, &e);
	if (world == NULL) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		return NULL;
	}
	scene_builder b = {world, scale, false, err, err_size};
	s->build(&b);
	if (b.failed) {
		pdl_world_destroy(world);
		return NULL;
	}
	return world;
}

static bool load_builtin(viewer_scene* scene, const builtin_scene* s,
                         const viewer_scene_options* options, char* err, int err_size)
{
	pdl_world* world = build_builtin(s, 1.0f, options->threads, err, err_size);
	if (world == NULL) return false;
	int built = pdl_world_particle_count(world);
	if (options->particles > 0 && built > 0 && options->particles != built) {
		pdl_world_destroy(world);
		float ratio = (float)options->particles / (float)built;
		float scale = s->dimensions == 3 ? cbrtf(ratio) : sqrtf(ratio);
		world = build_builtin(s, scale, options->threads, err, err_size);
		if (world == NULL) return false;
	}
	snprintf(scene->name, sizeof scene->name, "%s", s->name);
	scene->world = world;
	return true;
}

static bool is_path(const char* name)
{
	size_t len = strlen(name);
	return strchr(name, '/') != NULL || (len > 5 && strcmp(name + len - 5, ".json") == 0);
}

static bool load_scene(viewer_scene* scene, const char* name, const viewer_scene_options* options,
                       char* err, int err_size)
{
	int index = viewer_scene_find(name);
	if (index >= 0 && scene_list[index].builtin != NULL) {
		return load_builtin(scene, scene_list[index].builtin, options, err, err_size);
	}
#ifdef PUDDLE_VIEW_WITH_IO
	if (index >= 0) return viewer_scene_file_load(scene, scene_list[index].path, options, err, err_size);
	if (is_path(name)) return viewer_scene_file_load(scene, name, options, err, err_size);
#else
	if (is_path(name)) {
		snprintf(err, (size_t)err_size, "%s: this viewer was built without puddle_io, so it "
		         "cannot read scene files", name);
		return false;
	}
#endif
	snprintf(err, (size_t)err_size, "no scene named '%s' (puddle-view --list)", name);
	return false;
}

bool viewer_scene_load(viewer_scene* scene, const char* name, const viewer_scene_options* options,
                       char* err, int err_size)
{
	memset(scene, 0, sizeof *scene);
	if (!load_scene(scene, name, options, err, err_size)) return false;
	scene->preset_basis = viewer_preset_basis_of(scene->world);
	return true;
}

void viewer_scene_unload(viewer_scene* scene)
{
	if (scene->release != NULL) scene->release(scene);
	if (scene->world != NULL) pdl_world_destroy(scene->world);
	memset(scene, 0, sizeof *scene);
}

void viewer_scene_bounds(const viewer_scene* scene, pdl_vec2* lo, pdl_vec2* hi)
{
	if (scene->has_bounds) {
		*lo = scene->bounds_min;
		*hi = scene->bounds_max;
		return;
	}
	const pdl_world* world = scene->world;
	*lo = (pdl_vec2){INFINITY, INFINITY};
	*hi = (pdl_vec2){-INFINITY, -INFINITY};
	int limit = pdl_world_boundary_id_limit(world);
	bool found = false;
	for (int id = 0; id < limit; ++id) {
		pdl_boundary_def def;
		if (!pdl_world_get_boundary(world, id, &def)) continue;
		if (def.kind != PDL_BOUNDARY_CIRCLE_CONTAINER && def.kind != PDL_BOUNDARY_BOX_CONTAINER)
			continue;
		pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
		int n = pdl_boundary_world_vertices(&def, v);
		if (n == 0) {
			v[0] = (pdl_vec2){def.position.x - def.radius, def.position.y - def.radius};
			v[1] = (pdl_vec2){def.position.x + def.radius, def.position.y + def.radius};
			n = 2;
		}
		for (int i = 0; i < n; ++i) {
			lo->x = fminf(lo->x, v[i].x);
			lo->y = fminf(lo->y, v[i].y);
			hi->x = fmaxf(hi->x, v[i].x);
			hi->y = fmaxf(hi->y, v[i].y);
		}
		found = true;
	}
	if (!found) {
		pdl_particle_data p = pdl_world_particles(world);
		for (int i = 0; i < p.count; ++i) {
			lo->x = fminf(lo->x, p.x[i]);
			lo->y = fminf(lo->y, p.y[i]);
			hi->x = fmaxf(hi->x, p.x[i]);
			hi->y = fmaxf(hi->y, p.y[i]);
		}
		if (p.count == 0) {
			*lo = (pdl_vec2){-10, -10};
			*hi = (pdl_vec2){10, 10};
		}
	}
}

void viewer_scene_bounds_3d(const viewer_scene* scene, pdl_vec3* lo, pdl_vec3* hi)
{
	const pdl_world* world = scene->world;
	*lo = (pdl_vec3){INFINITY, INFINITY, INFINITY};
	*hi = (pdl_vec3){-INFINITY, -INFINITY, -INFINITY};
	int limit = pdl_world_boundary_id_limit(world);
	bool found = false;
	for (int id = 0; id < limit; ++id) {
		pdl_boundary_def def;
		if (!pdl_world_get_boundary(world, id, &def)) continue;
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
