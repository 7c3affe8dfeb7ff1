/* libFuzzer target: the snapshot reader (docs/fuzzing.md). The bytes are a snapshot file, read
 * with pdl_snapshot_read_memory into a world built from the scene the snapshot names (one of
 * SCENES, without its fills: the snapshot brings the particles); a restored world is stepped
 * once. Built with PUDDLE_FUZZ_NO_CHECKSUM, so mutated bytes get past the checksum to the
 * decoder and to the engine's checks of what it restores. The seed corpus is real snapshots of
 * these scenes (make test-fuzz writes them with `puddle run --snapshot-every`).
 *
 * SPDX-License-Identifier: MIT */
#include "puddle/scene.h"
#include "puddle/snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2D with emitters, 2D with springs, 2D with bodies, 3D (each is cheap to build: 3D bodies cost
 * ~0.3 s a world under the sanitizers) */
static const char* const SCENES[] = {"lava", "slime", "float", "dam-break-3d"};
enum { SCENE_COUNT = sizeof SCENES / sizeof SCENES[0], NAME_AT = 40 + 4 * 8, STEP_MAX_PARTICLES = 5000 };

static pdl_scene* scenes[SCENE_COUNT];

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerInitialize(int* argc, char*** argv)
{
	(void)argc, (void)argv;
	for (int i = 0; i < SCENE_COUNT; ++i) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s.json", PUDDLE_SCENES_DIR, SCENES[i]);
		pdl_error err;
		scenes[i] = pdl_scene_load(path, &err);
		if (!scenes[i]) {
			fprintf(stderr, "fuzz_snapshot: %s\n", err.message);
			exit(1);
		}
		scenes[i]->fill_count = 0;
		scenes[i]->world.threads = 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	/* the scene whose name the snapshot records; other names pick one by their first byte */
	int pick = size > NAME_AT ? data[NAME_AT] % SCENE_COUNT : 0;
	for (int i = 0; i < SCENE_COUNT; ++i)
		if (size >= NAME_AT + 64 && strncmp((const char*)data + NAME_AT, scenes[i]->name, 64) == 0) pick = i;
	pdl_world* w = pdl_scene_build_world(scenes[pick], NULL);
	if (!w) abort();
	pdl_snapshot_info info;
	pdl_error err = {0};
	if (pdl_snapshot_read_memory(data, size, "fuzz.pdls", w, &info, &err)) {
		if (pdl_world_particle_count(w) <= STEP_MAX_PARTICLES) pdl_world_step(w);
	} else if (!err.message[0] || err.id == PDL_OK) {
		abort(); /* a refusal always says why, and names what failed */
	}
	pdl_world_destroy(w);
	return 0;
}
