/* Scene files: every shipped scene loads and runs, broken scenes give their exact message, the
 * resolved JSON round-trips, docs/scenes.md covers every key, rescaling hits its target. */
#include "test.h"
#include "io_test.h"

#include "puddle/scene.h"
#include "scene_schema.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void* a, const void* b) { return strcmp(a, b); }

/* The shipped scenes, sorted by name. */
#define MAX_SHIPPED 32
static int shipped(char names[MAX_SHIPPED][600])
{
	DIR* d = opendir(PUDDLE_SCENES_DIR);
	int n = 0;
	if (!d) return 0;
	for (struct dirent* e; (e = readdir(d)) && n < MAX_SHIPPED;) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
			snprintf(names[n++], 600, "%s/%s", PUDDLE_SCENES_DIR, e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, 600, by_name);
	return n;
}

static int lost(const pdl_scene* s, const pdl_world* w)
{
	pdl_particle_data p = pdl_world_particles(w);
	int n = 0;
	for (int i = 0; i < p.count; ++i)
		n += !(p.x[i] >= s->bounds_min.x && p.x[i] <= s->bounds_max.x && p.y[i] >= s->bounds_min.y &&
		       p.y[i] <= s->bounds_max.y && isfinite(p.vx[i]) && isfinite(p.vy[i]) &&
		       (!p.z || (p.z[i] >= s->bounds_min.z && p.z[i] <= s->bounds_max.z && isfinite(p.vz[i]))));
	return n;
}

static void test_shipped_scenes_run(void)
{
	char names[MAX_SHIPPED][600];
	int n = shipped(names);
	ENSURE_MSG(n >= 7, "found %d scenes in %s", n, PUDDLE_SCENES_DIR);
	const char* required[] = {"blobs",     "stratify",  "dam-break",    "drop",       "slime",
	                          "lava",      "obstacles", "dam-break-3d", "drop-3d", "stratify-3d"};
	for (size_t r = 0; r < sizeof required / sizeof required[0]; ++r) {
		bool found = false;
		for (int i = 0; i < n; ++i) {
			const char* base = strrchr(names[i], '/') + 1;
			found |= strncmp(base, required[r], strlen(required[r])) == 0 && base[strlen(required[r])] == '.';
		}
		ENSURE_MSG(found, "scenes/%s.json is missing", required[r]);
	}
	for (int i = 0; i < n; ++i) {
		pdl_error err;
		pdl_scene* s = pdl_scene_load(names[i], &err);
		ENSURE_MSG(s, "%s", err.message);
		s->world.threads = 2;
		pdl_world* w = pdl_scene_build_world(s, &err);
		ENSURE_MSG(w, "%s", err.message);
		/* 3D scenes (20,000 particles) for fewer frames; in quick mode (the sanitizer builds) a
		 * sixth of them, at least 10: every stage of every scene still runs on both threads */
		long long frames = s->world.dimensions == 3 ? 30 : 200;
		if (test_quick()) frames = frames / 6 > 10 ? frames / 6 : 10;
		for (long long f = 0; f < frames; ++f) {
			ENSURE(pdl_scene_apply_frame(s, w, f, &err) >= 0);
			pdl_world_step(w);
		}
		pdl_stats st = pdl_world_stats(w);
		printf("  %-10s %5d particles, max speed %.3g, lost %d\n", s->name, st.particles, st.max_speed, lost(s, w));
		ENSURE_MSG(st.particles > 0, "%s", names[i]);
		ENSURE_MSG(st.non_finite == 0, "%s: %d particles not finite", names[i], st.non_finite);
		ENSURE_MSG(lost(s, w) == 0, "%s: %d particles left the bounds", names[i], lost(s, w));
		pdl_world_destroy(w);
		pdl_scene_destroy(s);
	}
}

/* ---- broken scenes: the exact message each one gets ------------------------------------------ */

#define BASE_WORLD "\"materials\": [{\"name\": \"water\"}], \"container\": {\"shape\": \"circle\", \"radius\": 10}"
#define BOX_BODY "{\"shape\": \"box\", \"half_extents\": [1, 1]}"

static const struct {
	const char* json;
	const char* message;
} broken[] = {
	{"{\"materials\": [{\"name\": \"water\"}, {\"name\": \"oil\", \"rest_density\": -3}]}",
	 "x.json: materials[1].rest_density: must be > 0, got -3"},
	/* diffuse particles: a key's own range, and the orders between keys the engine checks */
	{"{" BASE_WORLD ", \"diffuse\": {\"enabled\": 2}}", "x.json: diffuse.enabled: must be an integer in [0, 1], got 2"},
	{"{" BASE_WORLD ", \"diffuse\": {\"enabled\": 1, \"kinetic_max\": 4}}",
	 "x.json: diffuse.kinetic_max: must be > kinetic_min, got 4"},
	{"{" BASE_WORLD ", \"diffuse\": {\"spray\": 1}}", "x.json: diffuse.spray: unknown key"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": -2}]}",
	 "x.json: fills[0].radius: must be > 0, got -2"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"half_extents\": [1, 1]}]}",
	 "x.json: fills[0].half_extents: is not used by shape \"disc\""},
	{"{\"materials\": [{\"name\": \"water\", \"rest_densty\": 4}]}",
	 "x.json: materials[0].rest_densty: unknown key (did you mean \"rest_density\"?)"},
	{"{\"materials\": [{\"name\": \"water\"}], \"contaner\": {}}",
	 "x.json: contaner: unknown key (did you mean \"container\"?)"},
	{"{\"materials\": [{\"name\": \"water\"}], \"zzz\": 1}", "x.json: zzz: unknown key"},
	{"{" BASE_WORLD ", \"world\": {\"dt\": 0}}", "x.json: world.dt: must be in (0, 1], got 0"},
	/* the SPH solver's keys (docs/scenes.md, "solver") */
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sp\"}}",
	 "x.json: solver.kind: must be one of \"clavet\", \"sph\", \"dfsph\", got \"sp\" (did you mean \"sph\"?)"},
	{"{" BASE_WORLD ", \"solver\": {\"cfl\": 0.3}}", "x.json: solver.cfl: is not used by kind \"clavet\""},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"cfl\": 2}}", "x.json: solver.cfl: must be in (0, 1], got 2"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"speed_of_sound\": 0}}",
	 "x.json: solver.speed_of_sound: must be > 0, got 0"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"eos\": \"tate\"}}",
	 "x.json: solver.eos: must be one of \"tait\", \"linear\", got \"tate\" (did you mean \"tait\"?)"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"gamma\": 12}}", "x.json: solver.gamma: must be in [1, 10], got 12"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"pressure_kernel\": \"cubic\"}}",
	 "x.json: solver.pressure_kernel: must be one of \"poly6\", \"spiky\", \"wendland\", got \"cubic\""},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"viscosity\": -1}}", "x.json: solver.viscosity: must be >= 0, got -1"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"xsph\": 1.5}}", "x.json: solver.xsph: must be in [0, 1], got 1.5"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"surface_tension\": -2}}",
	 "x.json: solver.surface_tension: must be >= 0, got -2"},
	{"{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"max_substeps\": 0}}",
	 "x.json: solver.max_substeps: must be an integer in [1, 4096], got 0"},
	{"{" BASE_WORLD ", \"world\": {\"substeps\": 2.5}}",
	 "x.json: world.substeps: must be an integer in [1, 64], got 2.5"},
	{"{" BASE_WORLD ", \"world\": {\"gravity\": [0, 1e39]}}", "x.json: world.gravity[1]: must be finite, got 1e+39"},
	{"{" BASE_WORLD ", \"world\": {\"gravity\": [0]}}",
	 "x.json: world.gravity: must be an array [x, y] of two numbers, got an array"},
	{"{" BASE_WORLD ", \"world\": {\"gravity\": \"down\"}}",
	 "x.json: world.gravity: must be an array [x, y] of two numbers, got a string"},
	{"{\"materials\": [{\"name\": \"water\"}]}", "x.json: world.bounds: is required when there is no container"},
	/* (found by fuzz_scene: the bounds framed around it were infinite, and written as -inf) */
	{"{\"materials\": [{\"name\": \"water\"}], \"container\": {\"shape\": \"circle\", \"radius\": 3e38}}",
	 "x.json: container: is too large: the world bounds it implies (the container and 2 % around) must be finite"},
	{"{}", "x.json: materials: is required (an array of at least one material)"},
	{"{\"materials\": []}", "x.json: materials: must have at least one material"},
	{"{\"materials\": [{\"rest_density\": 4}]}", "x.json: materials[0].name: is required"},
	{"{\"materials\": [{\"name\": \"a\"}, {\"name\": \"a\"}], \"container\": {\"shape\": \"circle\", \"radius\": 1}}",
	 "x.json: materials[1].name: \"a\" is already the name of materials[0]"},
	{"{\"materials\": [{\"name\": \"w\", \"yield_ratio\": 1.5}]}", "x.json: materials[0].yield_ratio: must be in [0, 1], got 1.5"},
	{"{\"materials\": [{\"name\": \"w\", \"color\": \"blue\"}]}",
	 "x.json: materials[0].color: must be a colour \"#rrggbb\", got \"blue\""},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disk\", \"radius\": 2}]}",
	 "x.json: fills[0].shape: must be one of \"point\", \"line\", \"disc\", \"box\", \"sunflower\", got \"disk\" (did you "
	 "mean \"disc\"?)"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"material\": \"watr\"}]}",
	 "x.json: fills[0].material: no material named \"watr\" (did you mean \"water\"?)"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"box\", \"half_extents\": [1e6, 1e6]}]}",
	 "x.json: fills[0]: would make about 3.72e+13 particles in all, more than solver.max_particles = 1000000"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"spacing\": 0.001}]}",
	 "x.json: fills[0].spacing: must be 0 (rest spacing) or >= 0.01 * solver.interaction_radius = 0.01, got 0.001"},
	{"{" BASE_WORLD ", \"fills\": [{\"radius\": 2}]}",
	 "x.json: fills[0].shape: is required (one of \"point\", \"line\", \"disc\", \"box\", \"sunflower\")"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"box\"}]}", "x.json: fills[0].half_extents: is required for shape \"box\""},
	{"{\"materials\": [{\"name\": \"w\"}], \"container\": {\"shape\": \"circle\", \"radius\": 1, \"half_extents\": [1, 1]}}",
	 "x.json: container.half_extents: is not used by shape \"circle\""},
	{"{" BASE_WORLD ", \"obstacles\": [{\"shape\": \"polygon\", \"vertices\": [[0, 0], [0, 1], [1, 0]]}]}",
	 "x.json: obstacles[0].vertices: must be finite, convex, counter-clockwise, with non-zero area"},
	{"{" BASE_WORLD ", \"obstacles\": [{\"shape\": \"polygon\", \"vertices\": [[0, 0], [1, 0]]}]}",
	 "x.json: obstacles[0].vertices: must be an array of 3 to 16 points [x, y], got 2 points"},
	{"{" BASE_WORLD ", \"strokes\": [{\"start\": 2, \"end\": 1, \"points\": [[0, 0]]}]}",
	 "x.json: strokes[0].end: must be greater than start (2), got 1"},
	{"{" BASE_WORLD ", \"emitters\": [{\"position\": [0, 0], \"velocity\": [0, 0], \"width\": 1, \"stop\": 1}]}",
	 "x.json: emitters[0]: velocity must not be [0, 0] (rows are launched along it)"},
	{"{" BASE_WORLD ", \"output\": {\"width\": 801}}", "x.json: output.width: must be an integer in [16, 8192] and even, got 801"},
	{"{" BASE_WORLD ", \"output\": {\"color_mode\": \"sped\"}}",
	 "x.json: output.color_mode: must be one of \"material\", \"speed\", \"density\", \"pressure\", got \"sped\" (did you "
	 "mean \"speed\"?)"},
	{"{" BASE_WORLD ", \"solver\": {\"interaction_radius\": 1, \"interaction_radius\": 2}}",
	 "x.json: solver: key \"interaction_radius\" appears twice"},
	{"[1, 2]", "x.json: the top level must be an object, got an array"},
	/* bodies (docs/scenes.md, "bodies[i]") */
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"densty\": 0.5}]}",
	 "x.json: bodies[0].densty: unknown key (did you mean \"density\"?)"},
	{"{" BASE_WORLD ", \"bodies\": [" BOX_BODY ", " BOX_BODY ", {\"shape\": \"box\", \"half_extents\": [1, 1], \"density\": -1}]}",
	 "x.json: bodies[2].density: must be in (0, 1000], got -1"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"orientation\": [0, 0, 0, 1]}]}",
	 "x.json: bodies[0].orientation: is used by 3D scenes only (2D bodies turn by \"angle\")"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"position\": [9.5, 0]}]}",
	 "x.json: bodies[0].position: must put the whole body inside the container, it reaches out of a container"},
	/* copies 0 to 3 are inside the circle of radius 10, copy 4's corner (11, 1) is not */
	{"{" BASE_WORLD ", \"bodies\": [" BOX_BODY ", {\"shape\": \"box\", \"half_extents\": [1, 1], \"position\": [-8, 0], "
	 "\"count\": 5, \"step\": [4.5, 0]}]}",
	 "x.json: bodies[1].position: must put the whole body inside the container, it reaches out of a container "
	 "(the copy at position + 4 * step)"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"circle\", \"radius\": 0.5, \"count\": 4000, \"step\": [1, 0]}, "
	 "{\"shape\": \"circle\", \"radius\": 0.5, \"count\": 97, \"step\": [0, 1]}]}",
	 "x.json: bodies[1].count: makes 4097 bodies in all, more than the 4096 a world holds"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"count\": 2}]}",
	 "x.json: bodies[0].step: is required when count > 1 (copies would overlap)"},
	/* copies that overlap (200 boxes 0.01 apart took 100 times as long a frame): a box, and a
	 * thin board turned 45 degrees whose copies step along its length; touching is allowed */
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [0.5, 0.5], \"count\": 200, \"step\": [0.01, 0]}]}",
	 "x.json: bodies[0].step: must move each copy clear of the last (the copies would overlap), got [0.01, 0]"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"count\": 2, \"step\": [2, 0]}, "
	 "{\"shape\": \"box\", \"half_extents\": [1, 0.1], \"angle\": 0.785398, \"count\": 2, \"step\": [1, 1]}]}",
	 "x.json: bodies[1].step: must move each copy clear of the last (the copies would overlap), got [1, 1]"},
	/* bodies of their own that overlap: the 200 boxes as separate entries (50 times as
	 * long a frame), and a ball on a corner of a repeated box's third copy */
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [0.5, 0.5]}, "
	 "{\"shape\": \"box\", \"half_extents\": [0.5, 0.5], \"position\": [0.01, 0]}]}",
	 "x.json: bodies[1].position: must put the body clear of bodies[0] (bodies that overlap push each other apart a "
	 "little every step, and every frame takes far longer), got [0.01, 0]"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"position\": [-3, 0], \"count\": 3, "
	 "\"step\": [3, 0]}, {\"shape\": \"circle\", \"radius\": 0.5, \"position\": [3.3, 1.3]}]}",
	 "x.json: bodies[1].position: must put the body clear of bodies[0]'s copy at position + 2 * step (bodies that "
	 "overlap push each other apart a little every step, and every frame takes far longer), got [3.3, 1.3]"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"count\": 0}]}",
	 "x.json: bodies[0].count: must be an integer in [1, 4096], got 0"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"circle\", \"radius\": 0.1}]}",
	 "x.json: bodies[0].radius: must be finite and >= 0.5 * particle spacing, got 0.1"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"circle\", \"half_extents\": [1, 1]}]}",
	 "x.json: bodies[0].half_extents: is not used by shape \"circle\""},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\"}]}", "x.json: bodies[0].half_extents: is required for shape \"box\""},
	{"{" BASE_WORLD ", \"bodies\": [{\"half_extents\": [1, 1]}]}",
	 "x.json: bodies[0].shape: is required (one of \"box\", \"circle\", \"polygon\")"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"type\": \"kinematik\"}]}",
	 "x.json: bodies[0].type: must be one of \"dynamic\", \"kinematic\", got \"kinematik\" (did you mean \"kinematic\"?)"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"angular_velocity\": [0, 0, 1]}]}",
	 "x.json: bodies[0].angular_velocity: must be a number (radians / s, counter-clockwise) in a 2D scene, got an array"},
	{"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"polygon\", \"vertices\": [[0, 0], [0, 2], [2, 0]]}]}",
	 "x.json: bodies[0].vertices: must be finite, convex, counter-clockwise, at least a particle spacing across, the turn "
	 "at a vertex is clockwise or straight (not convex)"},
	{"{" BASE_WORLD ", \"bodies\": {\"shape\": \"box\"}}", "x.json: bodies: must be an array of objects, got an object"},	/* placement (issue 41): a fill, an emitter or an obstacle outside the tank, a fill buried in
	 * an obstacle; the key named is the one that puts it there */
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"position\": [100, 100]}]}",
	 "x.json: fills[0].position: must put the fill's particles inside the container, got [100, 100]"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"box\", \"half_extents\": [20, 2]}]}",
	 "x.json: fills[0].half_extents: must put the fill's particles inside the container, got [20, 2]"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"disc\", \"radius\": 12}]}",
	 "x.json: fills[0].radius: must put the fill's particles inside the container, got 12"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"line\", \"end\": [30, 0]}]}",
	 "x.json: fills[0].end: must put the fill's particles inside the container, got [30, 0]"},
	{"{" BASE_WORLD ", \"fills\": [{\"shape\": \"point\", \"position\": [0, 10.5]}]}",
	 "x.json: fills[0].position: must put the fill's particles inside the container, got [0, 10.5]"},
	{"{" BASE_WORLD ", \"obstacles\": [{\"shape\": \"box\", \"half_extents\": [3, 3]}], "
	 "\"fills\": [{\"shape\": \"box\", \"position\": [0, 1], \"half_extents\": [1, 1]}]}",
	 "x.json: fills[0].position: puts every particle of the fill inside obstacles[0], got [0, 1]"},
	{"{" BASE_WORLD ", \"emitters\": [{\"position\": [20, 0], \"velocity\": [0, -1], \"width\": 1, \"stop\": 1}]}",
	 "x.json: emitters[0].position: must put the nozzle's particles inside the container, got [20, 0]"},
	{"{" BASE_WORLD ", \"emitters\": [{\"position\": [0, 0], \"velocity\": [0, -1], \"width\": 30, \"stop\": 1}]}",
	 "x.json: emitters[0].width: must put the nozzle's particles inside the container, got 30"},
	{"{" BASE_WORLD ", \"obstacles\": [{\"shape\": \"circle\", \"radius\": 1, \"position\": [50, 0]}]}",
	 "x.json: obstacles[0].position: must put the obstacle (at least partly) inside the container, got [50, 0]"},
	/* inside the circle's bounding box, outside the circle */
	{"{" BASE_WORLD ", \"obstacles\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"position\": [9, 9]}]}",
	 "x.json: obstacles[0].position: must put the obstacle (at least partly) inside the container, got [9, 9]"},
	{"{\"world\": {\"bounds\": {\"min\": [0, 0], \"max\": [10, 10]}}, \"materials\": [{\"name\": \"water\"}], "
	 "\"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"position\": [-5, 5]}]}",
	 "x.json: fills[0].position: must put the fill's particles inside world.bounds, got [-5, 5]"},
};

/* 3D scenes (docs/scenes.md, "3D scenes"): the same keys with three numbers, 3D shape names */
#define BASE3 "\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"water\"}], " \
              "\"container\": {\"shape\": \"box\", \"half_extents\": [10, 10, 10]}"

static const struct {
	const char* json;
	const char* message;
} broken3d[] = {
	{"{" BASE3 ", \"fills\": [{\"shape\": \"box\", \"position\": [0, 0], \"half_extents\": [1, 1, 1]}]}",
	 "x.json: fills[0].position: must be [x, y, z] (3 numbers) in a 3D scene"},
	/* bodies that overlap: two balls; a box turned 45 degrees about z whose edge cuts into a
	 * cube; the cube of test_bodies_apart turned about an edge, moved closer */
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"sphere\", \"radius\": 1}, "
	 "{\"shape\": \"sphere\", \"radius\": 1, \"position\": [1.5, 0, 0]}]}",
	 "x.json: bodies[1].position: must put the body clear of bodies[0] (bodies that overlap push each other apart a "
	 "little every step, and every frame takes far longer), got [1.5, 0, 0]"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1]}, "
	 "{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [2.3, 0, 0], "
	 "\"orientation\": [0, 0, 0.382683, 0.92388]}]}",
	 "x.json: bodies[1].position: must put the body clear of bodies[0] (bodies that overlap push each other apart a "
	 "little every step, and every frame takes far longer), got [2.3, 0, 0]"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1]}, "
	 "{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [1.9, 0, 1.9], "
	 "\"orientation\": [0.3535534, 0.1464466, 0.3535534, 0.8535534]}]}",
	 "x.json: bodies[1].position: must put the body clear of bodies[0] (bodies that overlap push each other apart a "
	 "little every step, and every frame takes far longer), got [1.9, 0, 1.9]"},
	{"{\"world\": {\"dimensions\": 3, \"gravity\": [0, -10]}, \"materials\": [{\"name\": \"water\"}]}",
	 "x.json: world.gravity: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{\"world\": {\"gravity\": [0, -10, 0], \"dimensions\": 3, \"bounds\": {\"min\": [0, 0], \"max\": [1, 1, 1]}}, "
	 "\"materials\": [{\"name\": \"water\"}]}",
	 "x.json: world.bounds.min: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"water\"}], \"container\": {\"shape\": \"box\", "
	 "\"half_extents\": [10, 10]}}",
	 "x.json: container.half_extents: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"water\"}], \"container\": {\"shape\": \"box\", "
	 "\"half_extents\": [10, 10, 0]}}",
	 "x.json: container.half_extents[2]: must be > 0, got 0"},
	{"{" BASE3 ", \"obstacles\": [{\"shape\": \"sphere\", \"radius\": 1, \"position\": [0, 0, 0]}, "
	 "{\"shape\": \"box\", \"half_extents\": [1, 1, 1]}, {\"shape\": \"polygon\", \"vertices\": [[0, 0], [1, 0], [0, 1]]}]}",
	 "x.json: obstacles[2].shape: \"polygon\" is 2D only"},
	{"{" BASE3 ", \"fills\": [{\"shape\": \"sunflower\", \"radius\": 2}]}", "x.json: fills[0].shape: \"sunflower\" is 2D only"},
	{"{" BASE3 ", \"fills\": [{\"shape\": \"bal\", \"radius\": 2}]}",
	 "x.json: fills[0].shape: must be one of \"point\", \"line\", \"ball\", \"box\", got \"bal\" (did you mean \"ball\"?)"},
	{"{" BASE3 ", \"fills\": [{\"radius\": 2}]}",
	 "x.json: fills[0].shape: is required (one of \"point\", \"line\", \"ball\", \"box\")"},
	{"{" BASE3 ", \"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"half_extents\": [1, 1, 1]}]}",
	 "x.json: fills[0].half_extents: is not used by shape \"ball\""},
	{"{" BASE3 ", \"obstacles\": [{\"shape\": \"cube\"}]}",
	 "x.json: obstacles[0].shape: must be one of \"sphere\", \"box\", got \"cube\""},
	{"{" BASE3 ", \"emitters\": [{\"position\": [0, 0, 0], \"velocity\": [0, 0, 0], \"width\": 1, \"stop\": 1}]}",
	 "x.json: emitters[0]: velocity must not be [0, 0, 0] (rows are launched along it)"},
	{"{" BASE3 ", \"emitters\": [{\"position\": [0, 0, 0], \"velocity\": [0, -1], \"width\": 1, \"stop\": 1}]}",
	 "x.json: emitters[0].velocity: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{" BASE3 ", \"strokes\": [{\"end\": 1, \"points\": [[0, 0, 0], [1, 1]]}]}",
	 "x.json: strokes[0].points[1]: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{" BASE3 ", \"strokes\": [{\"end\": 1, \"points\": []}]}",
	 "x.json: strokes[0].points: must be an array of 1 to 64 points [x, y, z], got 0 points"},
	{"{\"world\": {\"dimensions\": 4}, \"materials\": [{\"name\": \"water\"}]}",
	 "x.json: world.dimensions: must be an integer in [2, 3], got 4"},
	{"{" BASE_WORLD ", \"camera\": {\"yaw\": 10}}", "x.json: camera: is used by 3D scenes only (world.dimensions 3)"},
	{"{" BASE3 ", \"camera\": {\"pitch\": 95}}", "x.json: camera.pitch: must be in [-89, 89], got 95"},
	{"{" BASE3 ", \"camera\": {\"fov\": 2}}", "x.json: camera.fov: must be in [5, 120], got 2"},
	{"{" BASE3 ", \"camera\": {\"distance\": 0}}", "x.json: camera.distance: must be > 0, got 0"},
	{"{" BASE3 ", \"camera\": {\"target\": [0, 0]}}", "x.json: camera.target: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{" BASE3 ", \"camera\": {\"zoom\": 2}}", "x.json: camera.zoom: unknown key"},
	{"{\"world\": {\"dimensions\": 3, \"bounds\": {\"min\": [0, 0, 1], \"max\": [1, 1, 1]}}, \"materials\": [{\"name\": \"w\"}]}",
	 "x.json: world.bounds: max must be greater than min on every axis"},
	/* bodies: a 3D body turns by a quaternion, and its vectors have three numbers */
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"angle\": 0.5}]}",
	 "x.json: bodies[0].angle: is used by 2D scenes only (3D bodies turn by \"orientation\")"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"orientation\": [0, 0, 1]}]}",
	 "x.json: bodies[0].orientation: must be a quaternion [x, y, z, w] (4 numbers), got an array"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"orientation\": [0, 0, 0, 0]}]}",
	 "x.json: bodies[0].orientation: must be finite and not zero, got 0"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"angular_velocity\": 2}]}",
	 "x.json: bodies[0].angular_velocity: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1]}]}",
	 "x.json: bodies[0].half_extents: must be [x, y, z] (3 numbers) in a 3D scene"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"polygon\", \"vertices\": [[0, 0], [1, 0], [0, 1]]}]}",
	 "x.json: bodies[0].shape: \"polygon\" is 2D only"},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"cube\", \"half_extents\": [1, 1, 1]}]}",
	 "x.json: bodies[0].shape: must be one of \"box\", \"sphere\", got \"cube\""},
	{"{" BASE3 ", \"bodies\": [{\"shape\": \"sphere\", \"radius\": 2, \"position\": [0, 0, 8.5]}]}",
	 "x.json: bodies[0].position: must put the whole body inside the container, it reaches out of a container"},
	{"{" BASE3 ", \"fills\": [{\"shape\": \"ball\", \"radius\": 2, \"position\": [0, 0, 15]}]}",
	 "x.json: fills[0].position: must put the fill's particles inside the container, got [0, 0, 15]"},
	{"{" BASE3 ", \"fills\": [{\"shape\": \"box\", \"half_extents\": [5, 5, 12]}]}",
	 "x.json: fills[0].half_extents: must put the fill's particles inside the container, got [5, 5, 12]"},
	{"{" BASE3 ", \"obstacles\": [{\"shape\": \"sphere\", \"radius\": 4, \"position\": [0, 0, 0]}], "
	 "\"fills\": [{\"shape\": \"ball\", \"radius\": 2, \"position\": [1, 0, 0]}]}",
	 "x.json: fills[0].position: puts every particle of the fill inside obstacles[0], got [1, 0, 0]"},
	{"{" BASE3 ", \"emitters\": [{\"position\": [0, 0, 0], \"velocity\": [0, -1, 0], \"width\": 25, \"stop\": 1}]}",
	 "x.json: emitters[0].width: must put the nozzle's particles inside the container, got 25"},
	{"{" BASE3 ", \"obstacles\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [0, 0, 12]}]}",
	 "x.json: obstacles[0].position: must put the obstacle (at least partly) inside the container, got [0, 0, 12]"},
};

static void test_broken_scenes_3d(void)
{
	for (size_t i = 0; i < sizeof broken3d / sizeof broken3d[0]; ++i) {
		pdl_error err;
		pdl_scene* s = pdl_scene_parse(broken3d[i].json, strlen(broken3d[i].json), "x.json", &err);
		ENSURE_MSG(!s, "3D case %zu was accepted", i);
		ENSURE_MSG(strcmp(err.message, broken3d[i].message) == 0, "3D case %zu:\n    got      %s\n    expected %s", i,
		           err.message, broken3d[i].message);
	}
}

/* The resolved JSON of s parses to a scene t whose resolved JSON is the same text, with the same
 * hash and world def. *out (if out is given) gets t, which the caller destroys, or NULL with the
 * case failed. */
static void round_trip(const pdl_scene* s, pdl_scene** out)
{
	if (out) *out = NULL;
	char* a = pdl_scene_to_json(s);
	pdl_error err;
	pdl_scene* t = pdl_scene_parse(a, strlen(a), s->source, &err);
	char* b = t ? pdl_scene_to_json(t) : NULL;
	bool ok = b && strcmp(a, b) == 0 && pdl_scene_hash(s) == pdl_scene_hash(t) &&
	          memcmp(&s->world, &t->world, sizeof s->world) == 0;
	if (!ok) fprintf(stderr, "  %s\n%s\n%s\n", t ? "resolved twice:" : err.message, a, b ? b : "");
	free(a), free(b);
	if (!ok) pdl_scene_destroy(t);
	ENSURE_MSG(ok, "%s does not round-trip", s->source);
	if (out) *out = t;
	else pdl_scene_destroy(t);
}

/* Shape synonyms: "sphere" is "circle" in 2D and "circle" is "sphere" in 3D; "ball" and "disc"
 * likewise. Each scene writes its own dimension's names. */
static void test_shape_synonyms(void)
{
	const char* two = "{\"materials\": [{\"name\": \"w\"}], \"container\": {\"shape\": \"sphere\", \"radius\": 10}, "
	                  "\"obstacles\": [{\"shape\": \"sphere\", \"radius\": 1}], \"fills\": [{\"shape\": \"ball\", \"radius\": 2}]}";
	const char* three = "{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"w\"}], "
	                    "\"container\": {\"shape\": \"circle\", \"radius\": 10}, "
	                    "\"obstacles\": [{\"shape\": \"circle\", \"radius\": 1, \"position\": [0, 5, 0]}], "
	                    "\"fills\": [{\"shape\": \"disc\", \"radius\": 2, \"position\": [0, -3, 0]}]}";
	pdl_error err;
	pdl_scene* s = pdl_scene_parse(two, strlen(two), "two.json", &err);
	ENSURE_MSG(s, "%s", err.message);
	ENSURE(s->world.dimensions == 2 && !s->has_camera);
	ENSURE(s->container.kind == PDL_BOUNDARY_CIRCLE_CONTAINER && s->obstacles[0].kind == PDL_BOUNDARY_CIRCLE);
	ENSURE(s->fills[0].def.shape == PDL_FILL_DISC);
	char* json = pdl_scene_to_json(s);
	ENSURE(strstr(json, "\"circle\"") && strstr(json, "\"disc\"") && !strstr(json, "sphere") && !strstr(json, "ball"));
	ENSURE(!strstr(json, "\"camera\""));
	free(json);
	pdl_scene_destroy(s);
	s = pdl_scene_parse(three, strlen(three), "three.json", &err);
	ENSURE_MSG(s, "%s", err.message);
	ENSURE(s->world.dimensions == 3);
	ENSURE(s->container.kind == PDL_BOUNDARY_CIRCLE_CONTAINER && s->obstacles[0].kind == PDL_BOUNDARY_CIRCLE);
	ENSURE(s->fills[0].def.shape == PDL_FILL_DISC);
	json = pdl_scene_to_json(s);
	ENSURE(strstr(json, "\"sphere\"") && strstr(json, "\"ball\"") && !strstr(json, "circle") && !strstr(json, "disc"));
	free(json);
	/* 3D bounds: the sphere's box grown by 2 % on every axis */
	ENSURE(fabsf(s->bounds_min.z + 10.4f) < 1e-4f && fabsf(s->bounds_max.z - 10.4f) < 1e-4f);
	ENSURE(fabsf(s->bounds_min.x + 10.4f) < 1e-4f && fabsf(s->bounds_max.y - 10.4f) < 1e-4f);
	pdl_scene_destroy(s);
}

/* A 3D scene with every kind of vector and a partial camera: the missing camera keys come from
 * the framing of the bounds, the resolved JSON round-trips, and it builds a 3D world whose
 * particle count is the estimate. */
static void test_round_trip_3d(void)
{
	const char* json =
		"{\"world\": {\"dimensions\": 3, \"gravity\": [0, -10, 1]}, \"materials\": [{\"name\": \"w\"}, {\"name\": \"v\"}],"
		" \"container\": {\"shape\": \"box\", \"position\": [0, 0, 1], \"half_extents\": [10, 8, 6], \"angle\": 0.1},"
		" \"obstacles\": [{\"shape\": \"sphere\", \"position\": [3, 2, 1], \"radius\": 1.5, \"velocity\": [0, 0, 1]},"
		"                 {\"shape\": \"box\", \"position\": [-3, 2, 1], \"half_extents\": [1, 1, 2]}],"
		" \"fills\": [{\"shape\": \"box\", \"material\": \"w\", \"position\": [0, -5, 1], \"half_extents\": [6, 2, 4],"
		"             \"mix\": [\"w\", \"v\"], \"velocity\": [0, 0, -1]},"
		"            {\"shape\": \"ball\", \"material\": \"v\", \"position\": [0, 3, 0], \"radius\": 2},"
		"            {\"shape\": \"line\", \"position\": [-5, 0, -3], \"end\": [5, 0, 3]},"
		"            {\"shape\": \"point\", \"position\": [0, 0, 4], \"count\": 3}],"
		" \"emitters\": [{\"position\": [0, 6, 1], \"velocity\": [0, -5, 1], \"width\": 2, \"stop\": 0.5}],"
		" \"strokes\": [{\"end\": 1, \"points\": [[0, 0, 0], [2, 0, 3]], \"radius\": 2}],"
		" \"camera\": {\"yaw\": 60, \"fov\": 50}}";
	pdl_error err;
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "x3.json", &err);
	ENSURE_MSG(s, "%s", err.message);
	ENSURE(s->has_camera && s->camera.yaw == 60 && s->camera.fov == 50);
	pdl_camera framing = pdl_camera_framing(s->bounds_min, s->bounds_max);
	ENSURE(s->camera.pitch == framing.pitch && s->camera.distance == framing.distance);
	ENSURE(memcmp(&s->camera.target, &framing.target, sizeof framing.target) == 0);
	ENSURE(s->world.gravity.z == 1 && s->container.position.z == 1 && s->obstacles[1].half_extents.z == 2);
	ENSURE(s->fills[2].def.end.z == 3 && s->emitters[0].velocity.z == 1 && s->strokes[0].points[1].z == 3);
	pdl_scene* t;
	round_trip(s, &t);
	ENSURE(t);
	ENSURE(memcmp(&s->camera, &t->camera, sizeof s->camera) == 0);
	/* the camera changes pictures only, not the simulation */
	t->camera.yaw = 0;
	ENSURE(pdl_scene_hash(s) == pdl_scene_hash(t));
	/* the estimate is the count the engine makes, emitters included (square rows, FCC layers) */
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, &err);
	ENSURE_MSG(w, "%s", err.message);
	ENSURE(pdl_world_particles(w).z != NULL);
	int start = pdl_world_particle_count(w), added = 0;
	long long frames = pdl_scene_frames_for(s, s->emitters[0].stop) + 2;
	for (long long f = 0; f < frames; ++f) {
		int n = pdl_scene_apply_frame(s, w, f, &err);
		ENSURE_MSG(n >= 0, "%s", err.message);
		added += n;
		pdl_world_step(w);
	}
	ENSURE_MSG(start + added == (int)pdl_scene_estimate_particles(s), "%d + %d vs %g", start, added,
	           pdl_scene_estimate_particles(s));
	ENSURE(pdl_world_stats(w).non_finite == 0);
	pdl_world_destroy(w);
	pdl_scene_destroy(s), pdl_scene_destroy(t);
}

/* Rescaling a 3D scene scales z too, and the particle count with the cube of the factor. */
static void test_scale_3d(void)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/drop-3d.json", NULL);
	ENSURE(s);
	pdl_vec3 lo = s->bounds_min;
	pdl_scene_scale_to_particles(s, 5000);
	ENSURE(s->bounds_min.z > lo.z && s->bounds_min.z < 0);
	double estimate = pdl_scene_estimate_particles(s);
	ENSURE_MSG(fabs(estimate - 5000) < 500, "estimate %g", estimate);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	ENSURE_MSG(pdl_world_particle_count(w) == (int)estimate, "built %d, estimated %g", pdl_world_particle_count(w), estimate);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* ---- bodies --------------------------------------------------------------------------------- */

/* Copy k's coordinate as web/src/scene.js bodyCopy() computes it: in doubles, each product and
 * sum rounded to float (Math.fround). */
static float js_copy(float position, float step, int k)
{
	return (float)((double)position + (double)(float)((double)k * (double)step));
}

/* A 2D scene's bodies: count copies at position + k * step, defaults, every key reaching the
 * world's def, the order (before the fills, entries and copies in file order), the resolved JSON. */
static void test_bodies_2d(void)
{
	const char* json =
		"{\"materials\": [{\"name\": \"water\"}], \"container\": {\"shape\": \"box\", \"half_extents\": [20, 10]},"
		" \"fills\": [{\"shape\": \"box\", \"position\": [0, -7], \"half_extents\": [19, 2.5]}],"
		" \"bodies\": [{\"shape\": \"box\", \"position\": [-12.3, 1.7], \"half_extents\": [1, 0.75], \"density\": 0.75,"
		"              \"color\": \"#112233\", \"count\": 4, \"step\": [3.1, 0.35]},"
		"             {\"shape\": \"sphere\", \"radius\": 1.2, \"position\": [6, 3], \"type\": \"kinematic\","
		"              \"velocity\": [1, -0.5], \"angular_velocity\": 2, \"friction\": 0.2, \"restitution\": 0.4,"
		"              \"gravity_scale\": 0.5},"
		"             {\"shape\": \"polygon\", \"position\": [12, 4], \"angle\": 0.3,"
		"              \"vertices\": [[-1, -1], [1.5, -1], [0, 1.5]]}]}";
	pdl_error err;
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "b.json", &err);
	ENSURE_MSG(s, "%s", err.message);
	ENSURE(s->body_count == 3 && pdl_scene_body_total(s) == 6);
	const pdl_scene_body* box = &s->bodies[0];
	ENSURE(box->count == 4 && box->step.x == 3.1f && box->step.y == 0.35f && box->step.z == 0);
	ENSURE(box->def.shape == PDL_BODY_BOX && box->def.type == PDL_BODY_DYNAMIC && box->def.density == 0.75f);
	ENSURE(box->def.color == 0x112233u && box->def.half_extents.x == 1 && box->def.half_extents.y == 0.75f);
	/* the defaults are pdl_default_body_def()'s */
	pdl_body_def d0 = pdl_default_body_def();
	ENSURE(box->def.friction == d0.friction && box->def.restitution == d0.restitution);
	ENSURE(box->def.gravity_scale == d0.gravity_scale && box->def.angle == 0);
	const pdl_scene_body* ball = &s->bodies[1];
	ENSURE(ball->count == 1 && ball->def.shape == PDL_BODY_CIRCLE && ball->def.type == PDL_BODY_KINEMATIC);
	ENSURE(ball->def.color == d0.color && ball->def.density == d0.density);
	ENSURE(ball->def.angular_velocity.x == 0 && ball->def.angular_velocity.y == 0 && ball->def.angular_velocity.z == 2);
	ENSURE(s->bodies[2].def.shape == PDL_BODY_POLYGON && s->bodies[2].def.vertex_count == 3 && s->bodies[2].def.angle == 0.3f);
	/* copies in float arithmetic, bit for bit as the web page places them */
	for (int k = 0; k < 4; ++k) {
		pdl_body_def c = pdl_scene_body_copy(box, k);
		ENSURE(c.position.x == js_copy(-12.3f, 3.1f, k) && c.position.y == js_copy(1.7f, 0.35f, k) && c.position.z == 0);
		c.position = box->def.position;
		ENSURE(memcmp(&c, &box->def, sizeof c) == 0); /* nothing else of the def changes */
	}

	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, &err);
	ENSURE_MSG(w, "%s", err.message);
	pdl_body_id ids[8];
	ENSURE(pdl_world_bodies(w, ids, 8) == 6);
	for (int k = 0; k < 4; ++k) {
		pdl_body_def d;
		ENSURE(pdl_world_get_body(w, ids[k], &d));
		pdl_body_def c = pdl_scene_body_copy(box, k);
		ENSURE_MSG(d.position.x == c.position.x && d.position.y == c.position.y, "copy %d at %g, %g", k, d.position.x,
		           d.position.y);
		ENSURE(d.density == 0.75f && d.color == 0x112233u && d.half_extents.y == 0.75f);
	}
	pdl_body_def d;
	ENSURE(pdl_world_get_body(w, ids[4], &d));
	ENSURE(d.type == PDL_BODY_KINEMATIC && d.shape == PDL_BODY_CIRCLE && d.radius == 1.2f);
	ENSURE(d.linear_velocity.x == 1 && d.linear_velocity.y == -0.5f && d.angular_velocity.z == 2);
	ENSURE(d.friction == 0.2f && d.restitution == 0.4f && d.gravity_scale == 0.5f);
	ENSURE(pdl_world_get_body(w, ids[5], &d) && d.shape == PDL_BODY_POLYGON && d.angle == 0.3f);
	/* bodies add no fluid: the fills' particles are all there are */
	ENSURE(pdl_world_particle_count(w) == (int)pdl_scene_estimate_particles(s));
	for (int f = 0; f < 30; ++f) pdl_world_step(w);
	ENSURE(pdl_world_stats(w).non_finite == 0);
	pdl_world_destroy(w);

	/* the resolved form lists every key of every body and reads back as the same scene; the
	 * bodies are part of the hash a snapshot checks */
	char* a = pdl_scene_to_json(s);
	bool keys = strstr(a, "\"bodies\"") && strstr(a, "\"circle\"") && strstr(a, "\"angle\"") && !strstr(a, "orientation") &&
	            strstr(a, "\"angular_velocity\":\t2,"); /* 2D: one number */
	free(a);
	ENSURE(keys);
	pdl_scene* t;
	round_trip(s, &t);
	ENSURE(t);
	ENSURE(memcmp(t->bodies, s->bodies, 3 * sizeof s->bodies[0]) == 0);
	t->bodies[0].def.density = 0.7f;
	ENSURE(pdl_scene_hash(s) != pdl_scene_hash(t));
	/* a scene without bodies writes none (its hash is what it was before scenes had bodies) */
	t->body_count = 0;
	a = pdl_scene_to_json(t);
	keys = strstr(a, "bodies") != NULL;
	free(a);
	ENSURE(!keys);

	/* rescaling moves and sizes the bodies and their steps with everything else */
	pdl_scene_scale(s, 2);
	ENSURE(s->bodies[0].def.position.x == -24.6f && s->bodies[0].step.x == 6.2f && s->bodies[0].def.half_extents.y == 1.5f);
	ENSURE(s->bodies[1].def.radius == 2.4f && s->bodies[2].def.vertices[1].x == 3 && s->bodies[2].def.position.y == 8);
	ENSURE(s->bodies[0].def.density == 0.75f);
	pdl_scene_destroy(s), pdl_scene_destroy(t);
}

/* 3D bodies: orientation as given (the engine normalises it), vector angular velocity, the 3D
 * names, and no angle in the resolved form. */
static void test_bodies_3d(void)
{
	const char* json =
		"{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"water\"}],"
		" \"container\": {\"shape\": \"box\", \"half_extents\": [10, 6, 6]},"
		" \"fills\": [{\"shape\": \"box\", \"position\": [0, -4.5, 0], \"half_extents\": [10, 1.5, 6]}],"
		" \"bodies\": [{\"shape\": \"box\", \"position\": [-3, 0, 1], \"half_extents\": [1.5, 1, 1.2],"
		"              \"orientation\": [0, 0, 0.3, 1], \"angular_velocity\": [0, 1, 0], \"velocity\": [0, 0, -1]},"
		"             {\"shape\": \"circle\", \"radius\": 1, \"position\": [2, 1, -2], \"count\": 3,"
		"              \"step\": [2.2, 0, 1.3]}]}";
	pdl_error err;
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "b3.json", &err);
	ENSURE_MSG(s, "%s", err.message);
	const pdl_body_def* box = &s->bodies[0].def;
	ENSURE(box->orientation.x == 0 && box->orientation.z == 0.3f && box->orientation.w == 1);
	ENSURE(box->angular_velocity.y == 1 && box->linear_velocity.z == -1 && box->half_extents.z == 1.2f);
	ENSURE(s->bodies[1].def.shape == PDL_BODY_CIRCLE && s->bodies[1].count == 3);
	for (int k = 0; k < 3; ++k)
		ENSURE(pdl_scene_body_copy(&s->bodies[1], k).position.z == js_copy(-2, 1.3f, k));
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, &err);
	ENSURE_MSG(w, "%s", err.message);
	ENSURE(pdl_world_body_count(w) == 4);
	pdl_body_id ids[4];
	pdl_world_bodies(w, ids, 4);
	pdl_body_def d;
	ENSURE(pdl_world_get_body(w, ids[0], &d));
	float len = sqrtf(0.3f * 0.3f + 1);
	ENSURE_MSG(fabsf(d.orientation.z - 0.3f / len) < 1e-6f && fabsf(d.orientation.w - 1 / len) < 1e-6f, "orientation %g %g",
	           d.orientation.z, d.orientation.w);
	ENSURE(d.position.z == 1 && d.angular_velocity.y == 1);
	ENSURE(pdl_world_get_body(w, ids[3], &d) && d.position.x == js_copy(2, 2.2f, 2) && d.position.z == js_copy(-2, 1.3f, 2));
	pdl_world_destroy(w);
	char* a = pdl_scene_to_json(s);
	const char* bodies = strstr(a, "\"bodies\"");
	/* (the container's angle comes before the bodies) */
	bool keys = bodies && strstr(bodies, "\"sphere\"") && strstr(bodies, "\"orientation\"") && !strstr(a, "circle") &&
	            !strstr(bodies, "\"angle\"");
	free(a);
	ENSURE(keys);
	round_trip(s, NULL);
	pdl_scene_destroy(s);
}

/* Bodies that touch or nearly do are taken: boxes side by side, a ball by a box's corner, and
 * two turned cubes whose faces' axes all see them overlap but the cross product of two edges
 * parts them (a check by the faces alone would refuse them); kinematic bodies may overlap. */
static void test_bodies_apart(void)
{
	static const char* const apart[] = {
		"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [0.5, 0.5]}, "
		"{\"shape\": \"box\", \"half_extents\": [0.5, 0.5], \"position\": [1, 0]}]}",
		"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1]}, "
		"{\"shape\": \"circle\", \"radius\": 0.5, \"position\": [1.4, 1.4]}]}",
		"{" BASE_WORLD ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1], \"type\": \"kinematic\"}, "
		"{\"shape\": \"box\", \"half_extents\": [1, 1], \"position\": [1, 0], \"type\": \"kinematic\"}]}",
		"{" BASE3 ", \"bodies\": [{\"shape\": \"box\", \"half_extents\": [1, 1, 1]}, "
		"{\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [2.1, 0, 2.1], "
		"\"orientation\": [0.3535534, 0.1464466, 0.3535534, 0.8535534]}]}",
	};
	for (size_t i = 0; i < sizeof apart / sizeof apart[0]; ++i) {
		pdl_error err;
		pdl_scene* s = pdl_scene_parse(apart[i], strlen(apart[i]), "x.json", &err);
		ENSURE_MSG(s, "case %zu: %s", i, err.message);
		pdl_scene_destroy(s);
	}
}

/* "bodies" holds at most PDL_MAX_BODIES entries; that many single bodies are accepted (on a
 * grid 2 apart: bodies may not overlap). */
static void test_body_limits(void)
{
	const char* head = "{\"materials\": [{\"name\": \"w\"}], \"container\": {\"shape\": \"box\", \"half_extents\": [100, 100]},"
	                   " \"bodies\": [";
	const char* one = "{\"shape\": \"circle\", \"radius\": 0.5, \"position\": [%d, %d]}";
	for (int n = PDL_MAX_BODIES; n <= PDL_MAX_BODIES + 1; ++n) {
		size_t size = strlen(head) + (size_t)n * (strlen(one) + 16) + 8;
		char* json = malloc(size);
		ENSURE(json);
		char* at = json + sprintf(json, "%s", head);
		for (int i = 0; i < n; ++i) {
			at += sprintf(at, "%s", i ? ", " : "");
			at += sprintf(at, one, 2 * (i % 64) - 64, 2 * (i / 64 % 64) - 64);
		}
		sprintf(at, "]}");
		pdl_error err;
		pdl_scene* s = pdl_scene_parse(json, strlen(json), "x.json", &err);
		if (n == PDL_MAX_BODIES) {
			ENSURE_MSG(s && pdl_scene_body_total(s) == PDL_MAX_BODIES, "%s", err.message);
		} else {
			ENSURE(!s);
			ENSURE_MSG(strcmp(err.message, "x.json: bodies: must have at most 4096 entries, got 4097") == 0, "%s", err.message);
		}
		pdl_scene_destroy(s);
		free(json);
	}
}

/* ---- broken JSON: what is wrong, and where (line and column of the message's prefix) ---------- */

static const struct {
	const char* json;
	const char* message;
	int line, column;
} broken_json[] = {
	{"{\"name\": \"abc", "x.json:1:10: invalid JSON: unterminated string that starts at line 1, column 10", 1, 10},
	/* a closing quote forgotten, more lines after it: cJSON reads on to the next quote */
	{"{\n  \"materials\": [\n    {\"name\": \"water\"},\n    {\"name\": \"oil, \"rest_density\": 0.5}\n  ]\n}",
	 "x.json:4:14: invalid JSON: unexpected rest_density at line 4, column 21, right after the string \"oil, \" that starts "
	 "at line 4, column 14 (a missing closing quote?)",
	 4, 14},
	{"{\n  \"name\": \"blobs,\n  \"description\": \"x\"\n}",
	 "x.json:2:11: invalid JSON: unterminated string that starts at line 2, column 11", 2, 11},
	{"{\"materials\": [{\"name\": \"water\"}]",
	 "x.json:1:1: invalid JSON: unexpected end of file: the '{' at line 1, column 1 is never closed", 1, 1},
	{"{\"materials\": [{\"name\": \"water\"}", 
	 "x.json:1:15: invalid JSON: unexpected end of file: the '[' at line 1, column 15 is never closed", 1, 15},
	{"{\n  \"materials\": [{\"name\": \"water\",}]\n}",
	 "x.json:2:33: invalid JSON: trailing comma at line 2, column 33, before '}'", 2, 33},
	{"{\"world\": {\"gravity\": [0, -10,]}}",
	 "x.json:1:30: invalid JSON: trailing comma at line 1, column 30, before ']'", 1, 30},
	{"{\"materials\": [{\"name\": \"water\"} {\"name\": \"oil\"}]}",
	 "x.json:1:34: invalid JSON: missing comma before '{' at line 1, column 34", 1, 34},
	{"{\"name\": \"a\"\n \"description\": \"b\"}",
	 "x.json:2:2: invalid JSON: missing comma before \"description\" at line 2, column 2", 2, 2},
	{"{\"name\" \"a\"}", "x.json:1:9: invalid JSON: missing colon before \"a\" at line 1, column 9", 1, 9},
	{"{\"world\": {\"dt\": }}", "x.json:1:18: invalid JSON: missing a value before '}' at line 1, column 18", 1, 18},
	{"{\"world\": {\"gravity\": [0, -10}}",
	 "x.json:1:30: invalid JSON: '}' at line 1, column 30 does not close the '[' at line 1, column 23", 1, 30},
	{"{\"output\": {\"width\": NaN}}",
	 "x.json:1:22: invalid JSON: invalid value NaN at line 1, column 22 (JSON has no NaN or infinity)", 1, 22},
	{"{\"world\": {\"dt\": tru}}", "x.json:1:18: invalid JSON: invalid value tru at line 1, column 18", 1, 18},
	{"{'name': 'a'}", "x.json:1:2: invalid JSON: strings need double quotes, got ' at line 1, column 2", 1, 2},
	{"{name: \"a\"}", "x.json:1:2: invalid JSON: keys must be in double quotes, got name at line 1, column 2", 1, 2},
	{"{\n  // a comment\n}", "x.json:2:3: invalid JSON: comments are not allowed in JSON, at line 2, column 3", 2, 3},
	{"{\"name\": \"a\\qb\"}", "x.json:1:12: invalid JSON: invalid escape \\q at line 1, column 12", 1, 12},
	{"{\"name\": \"\\ud800\"}",
	 "x.json:1:11: invalid JSON: invalid \\u escape at line 1, column 11 (4 hex digits, surrogates in pairs)", 1, 11},
	{"  \n ", "x.json:2:2: invalid JSON: the file is empty", 2, 2},
	{"{\"a\": @}", "x.json:1:7: invalid JSON: unexpected '@' at line 1, column 7, expected a value", 1, 7},
	{"{\"a\": 1 ; \"b\": 2}", "x.json:1:9: invalid JSON: unexpected ';' at line 1, column 9, expected ',' or '}'", 1, 9},
};

static void test_broken_json(void)
{
	for (size_t i = 0; i < sizeof broken_json / sizeof broken_json[0]; ++i) {
		pdl_error err;
		pdl_scene* s = pdl_scene_parse(broken_json[i].json, strlen(broken_json[i].json), "x.json", &err);
		ENSURE_MSG(!s, "JSON case %zu was accepted", i);
		ENSURE_MSG(strcmp(err.message, broken_json[i].message) == 0, "JSON case %zu:\n    got      %s\n    expected %s", i,
		           err.message, broken_json[i].message);
		ENSURE_MSG(err.line == broken_json[i].line && err.column == broken_json[i].column && err.path[0] == 0,
		           "JSON case %zu: line %d column %d path '%s'", i, err.line, err.column, err.path);
		ENSURE_MSG(err.id == PDL_ERR_SCENE_SYNTAX && strcmp(err.file, "x.json") == 0, "JSON case %zu: %s, file '%s'", i,
		           pdl_error_name(err.id), err.file);
	}
	/* nested deeper than cJSON takes */
	char deep[1102];
	memset(deep, '[', 1101);
	deep[1101] = 0;
	pdl_error err;
	ENSURE(!pdl_scene_parse(deep, strlen(deep), "x.json", &err));
	ENSURE_MSG(strcmp(err.message, "x.json:1:1001: invalid JSON: nested deeper than 1000 levels at line 1, column 1001") == 0,
	           "%s", err.message);
}

static void test_broken_scenes(void)
{
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; ++i) {
		pdl_error err;
		pdl_scene* s = pdl_scene_parse(broken[i].json, strlen(broken[i].json), "x.json", &err);
		ENSURE_MSG(!s, "case %zu was accepted", i);
		ENSURE_MSG(strcmp(err.message, broken[i].message) == 0, "case %zu:\n    got      %s\n    expected %s", i,
		           err.message, broken[i].message);
		/* the id says what failed (an unknown key, a value, or the engine's own rule), and the
		 * parts of the message are kept apart: "file: path: rule" */
		bool unknown = strstr(err.message, "unknown key") != NULL;
		ENSURE_MSG(unknown ? err.id == PDL_ERR_SCENE_KEY : err.id != PDL_OK && err.id != PDL_ERR_SCENE_KEY,
		           "case %zu: %s", i, pdl_error_name(err.id));
		char parts[sizeof err.message];
		if (err.path[0]) snprintf(parts, sizeof parts, "%s: %s: %s", err.file, err.path, err.rule);
		else snprintf(parts, sizeof parts, "%s: %s", err.file, err.rule);
		ENSURE_MSG(strcmp(parts, err.message) == 0, "case %zu: parts '%s', message '%s'", i, parts, err.message);
	}
}

static void test_unreadable_file(void)
{
	pdl_error err;
	ENSURE(!pdl_scene_load("/nonexistent/x.json", &err));
	ENSURE(strcmp(err.message, "/nonexistent/x.json: cannot open: No such file or directory") == 0);
	ENSURE(err.id == PDL_ERR_FILE_OPEN && strcmp(err.file, "/nonexistent/x.json") == 0 && err.path[0] == 0);
}

/* The resolved JSON is itself a scene that resolves to the same text. */
static void test_round_trip(void)
{
	char names[MAX_SHIPPED][600];
	int n = shipped(names);
	ENSURE(n > 0);
	for (int i = 0; i < n; ++i) {
		pdl_scene* s = pdl_scene_load(names[i], NULL);
		ENSURE(s);
		round_trip(s, NULL);
		pdl_scene_destroy(s);
	}
}

/* Every key the loader accepts is documented in docs/scenes.md as `key`. */
/* The default column of docs/scenes.md's container and obstacle tables is the engine's
 * (pdl_default_boundary_def): the docs gave stickiness 0 while `puddle info` printed 1. */
static void test_docs_boundary_defaults(void)
{
	char* docs = io_test_read_file(PUDDLE_DOCS_DIR "/scenes.md", NULL);
	ENSURE(docs);
	const pdl_boundary_def d = pdl_default_boundary_def();
	const struct {
		const char* key;
		float value;
	} keys[] = {{"friction", d.friction}, {"restitution", d.restitution}, {"stickiness", d.stickiness}, {"angle", d.angle}};
	const char* sections[] = {"## `container`", "## `obstacles[i]`"};
	for (size_t k = 0; k < sizeof sections / sizeof sections[0]; ++k) {
		const char* at = strstr(docs, sections[k]);
		ENSURE_MSG(at, "docs/scenes.md has no section %s", sections[k]);
		if (!at) continue;
		const char* end = strstr(at + 3, "\n## ");
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
			char row[64];
			snprintf(row, sizeof row, "\n| `%s` |", keys[i].key);
			const char* r = strstr(at, row);
			ENSURE_MSG(r && (!end || r < end), "%s has no row for %s", sections[k], keys[i].key);
			if (!r || (end && r > end)) continue;
			/* | `key` | type | unit | `default` | ... */
			const char* cell = r + 1;
			for (int bar = 0; bar < 3 && cell; ++bar) cell = strchr(cell + 1, '|');
			float value = NAN;
			ENSURE_MSG(cell && sscanf(cell, "| `%f`", &value) == 1 && value == keys[i].value,
			           "%s %s: the docs' default is %g, the engine's %g", sections[k], keys[i].key, value, keys[i].value);
		}
	}
	free(docs);
}

static void test_docs_cover_every_key(void)
{
	char* docs = io_test_read_file(PUDDLE_DOCS_DIR "/scenes.md", NULL);
	ENSURE(docs);
	const scene_object* objects[] = {&pdl_schema_world,     &pdl_schema_bounds,   &pdl_schema_solver,
	                                 &pdl_schema_material,  &pdl_schema_container, &pdl_schema_obstacle,
	                                 &pdl_schema_fill,      &pdl_schema_body,     &pdl_schema_emitter,
	                                 &pdl_schema_stroke,    &pdl_schema_output,   &pdl_schema_camera};
	char quoted[80];
	for (size_t o = 0; o < sizeof objects / sizeof objects[0]; ++o)
		for (int i = 0; i < objects[o]->field_count; ++i) {
			snprintf(quoted, sizeof quoted, "`%s`", objects[o]->fields[i].key);
			ENSURE_MSG(strstr(docs, quoted), "%s.%s is not in docs/scenes.md", objects[o]->name, objects[o]->fields[i].key);
		}
	for (int i = 0; i < pdl_schema_top_key_count; ++i) {
		snprintf(quoted, sizeof quoted, "`%s`", pdl_schema_top_keys[i]);
		ENSURE_MSG(strstr(docs, quoted), "%s is not in docs/scenes.md", pdl_schema_top_keys[i]);
	}
	free(docs);
}

static void test_scale_to_particles(void)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/dam-break.json", NULL);
	ENSURE(s);
	pdl_scene_scale_to_particles(s, 8000);
	double estimate = pdl_scene_estimate_particles(s);
	ENSURE_MSG(fabs(estimate - 8000) < 400, "estimate %g", estimate);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	int n = pdl_world_particle_count(w);
	ENSURE_MSG(abs(n - 8000) < 800, "built %d", n);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
	/* a count near the scene's cap gets room: dam-break-3d (cap 1M) asked for 1M (its fill
	 * estimate lands over 1M) raises the cap to 2M; a small count leaves it */
	s = pdl_scene_load(PUDDLE_SCENES_DIR "/dam-break-3d.json", NULL);
	ENSURE(s && s->world.max_particles == 1000000);
	pdl_scene_scale_to_particles(s, 1e6);
	ENSURE_MSG(s->world.max_particles == 2000000, "max_particles %d", s->world.max_particles);
	ENSURE_MSG(pdl_scene_estimate_particles(s) <= s->world.max_particles, "estimate %g", pdl_scene_estimate_particles(s));
	pdl_scene_destroy(s);
	s = pdl_scene_load(PUDDLE_SCENES_DIR "/dam-break-3d.json", NULL);
	pdl_scene_scale_to_particles(s, 1e5);
	ENSURE_MSG(s->world.max_particles == 1000000, "max_particles %d", s->world.max_particles);
	pdl_scene_destroy(s);
}

/* Emitters add exactly what the estimate says, frame by frame, independent of the world. */
static void test_emitter_rows(void)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/obstacles.json", NULL);
	ENSURE(s);
	ENSURE(s->emitter_count == 1);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	int start = pdl_world_particle_count(w), added = 0;
	long long frames = pdl_scene_frames_for(s, s->emitters[0].stop) + 2;
	for (long long f = 0; f < frames; ++f) added += pdl_scene_apply_frame(s, w, f, NULL);
	ENSURE_MSG(start + added == (int)pdl_scene_estimate_particles(s), "%d + %d vs %g", start, added,
	           pdl_scene_estimate_particles(s));
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* A fill's mix gives particle k material k mod n. */
static void test_fill_mix(void)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/stratify.json", NULL);
	ENSURE(s);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	pdl_particle_data p = pdl_world_particles(w);
	int counts[3] = {0};
	for (int i = 0; i < p.count; ++i) {
		ENSURE(p.material[i] < 3);
		counts[p.material[i]]++;
	}
	ENSURE(counts[0] == 1100 && counts[1] == 1100 && counts[2] == 1100);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* Each name of an enum key is its own value, and the written scene names it again: "poly6"
 * once gave Wendland C2 (the stored value was offset by the default's) and "spiky" was refused. */
static void test_enum_names(void)
{
	static const char* const kernels[] = {"poly6", "spiky", "wendland"};
	for (int k = 0; k < 3; ++k) {
		char json[512];
		snprintf(json, sizeof json, "{" BASE_WORLD ", \"solver\": {\"kind\": \"sph\", \"pressure_kernel\": \"%s\"}}",
		         kernels[k]);
		pdl_error e;
		pdl_scene* s = pdl_scene_parse(json, strlen(json), "x.json", &e);
		ENSURE_MSG(s, "%s: %s", kernels[k], e.message);
		ENSURE((int)s->world.sph.pressure_kernel == PDL_SPH_PRESSURE_POLY6 + k);
		char* out = pdl_scene_to_json(s);
		ENSURE(out && strstr(out, kernels[k]));
		free(out);
		pdl_scene_destroy(s);
	}
}

int main(void)
{
	RUN_TEST(test_enum_names);
	RUN_TEST(test_broken_scenes);
	RUN_TEST(test_broken_json);
	RUN_TEST(test_broken_scenes_3d);
	RUN_TEST(test_shape_synonyms);
	RUN_TEST(test_round_trip_3d);
	RUN_TEST(test_scale_3d);
	RUN_TEST(test_bodies_2d);
	RUN_TEST(test_bodies_3d);
	RUN_TEST(test_bodies_apart);
	RUN_TEST(test_body_limits);
	RUN_TEST(test_unreadable_file);
	RUN_TEST(test_round_trip);
	RUN_TEST(test_docs_cover_every_key);
	RUN_TEST(test_docs_boundary_defaults);
	RUN_TEST(test_scale_to_particles);
	RUN_TEST(test_emitter_rows);
	RUN_TEST(test_fill_mix);
	RUN_TEST(test_shipped_scenes_run);
	return TEST_SUMMARY();
}
