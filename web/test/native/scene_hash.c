/* The native side of test/native.test.mjs: runs each scene file given for `frames` frames with
 * the C scene loader (io/) on one thread and prints "name particles hash", so the test can check
 * that the WebAssembly build of the same core and scene layer gives the same bits. A scene the
 * loader refuses prints "! message" and the next one follows, so the test can compare the
 * messages too.
 *   scene_hash FRAMES SCENE.json... */
#include "puddle/scene.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: scene_hash FRAMES SCENE.json...\n");
		return 2;
	}
	long long frames = atoll(argv[1]);
	for (int a = 2; a < argc; ++a) {
		pdl_error err;
		pdl_scene* scene = pdl_scene_load(argv[a], &err);
		if (!scene) {
			printf("! %s\n", err.message);
			continue;
		}
		scene->world.threads = 1;
		pdl_world* world = pdl_scene_build_world(scene, &err);
		if (!world) {
			fprintf(stderr, "%s\n", err.message);
			return 2;
		}
		for (long long f = 0; f < frames; ++f) {
			if (pdl_scene_apply_frame(scene, world, f, &err) < 0) {
				fprintf(stderr, "%s\n", err.message);
				return 2;
			}
			pdl_world_step(world);
		}
		printf("%s %d %016llx\n", scene->name, pdl_world_particle_count(world),
		       (unsigned long long)pdl_world_hash(world));
		pdl_world_destroy(world);
		pdl_scene_destroy(scene);
	}
	return 0;
}
