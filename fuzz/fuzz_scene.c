/* libFuzzer target: the scene front door (docs/fuzzing.md). The bytes are a scene file. When it
 * parses, the scene is built into a world capped at FUZZ_MAX_PARTICLES particles (bigger scenes
 * are refused by the scene's own limit, solver.max_particles), stepped a few frames, and written
 * back with pdl_scene_to_json: that text must parse again and give the same text (abort() if not:
 * a finding). Everything is freed, so LeakSanitizer sees any leak.
 *
 * SPDX-License-Identifier: MIT */
#include "puddle/scene.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FUZZ_MAX_PARTICLES = 2000, FUZZ_FRAMES = 3, FUZZ_MAX_SUBSTEPS = 8, FUZZ_MAX_ITERATIONS = 20 };

static void round_trip(const pdl_scene* s)
{
	char* a = pdl_scene_to_json(s);
	if (!a) return; /* out of memory */
	pdl_error err;
	pdl_scene* t = pdl_scene_parse(a, strlen(a), s->source, &err);
	if (!t) {
		fprintf(stderr, "fuzz_scene: pdl_scene_to_json wrote a scene that does not parse:\n%s\n%s\n", err.message, a);
		abort();
	}
	char* b = pdl_scene_to_json(t);
	if (b && strcmp(a, b) != 0) {
		fprintf(stderr, "fuzz_scene: the scene changed on its way through JSON:\n%s\n%s\n", a, b);
		abort();
	}
	free(a), free(b);
	pdl_scene_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	pdl_error err;
	pdl_scene* s = pdl_scene_parse((const char*)data, size, "fuzz.json", &err);
	if (!s) {
		if (!err.message[0] || err.id == PDL_OK) abort(); /* a refusal always says why, and names what failed */
		return 0;
	}
	round_trip(s);
	/* small and quick: one thread, few substeps; a scene over the cap is not built */
	s->world.threads = 1;
	if (s->world.substeps > FUZZ_MAX_SUBSTEPS) s->world.substeps = FUZZ_MAX_SUBSTEPS;
	if (s->world.sph.max_substeps > FUZZ_MAX_SUBSTEPS) s->world.sph.max_substeps = FUZZ_MAX_SUBSTEPS;
	/* DFSPH's solves: a tiny tolerance would take every iteration allowed */
	if (s->world.sph.max_iterations > FUZZ_MAX_ITERATIONS) s->world.sph.max_iterations = FUZZ_MAX_ITERATIONS;
	if (s->world.max_particles > FUZZ_MAX_PARTICLES) s->world.max_particles = FUZZ_MAX_PARTICLES;
	if (pdl_scene_estimate_particles(s) > FUZZ_MAX_PARTICLES) {
		pdl_scene_destroy(s);
		return 0;
	}
	pdl_world* w = pdl_scene_build_world(s, &err);
	for (long long frame = 0; w && frame < FUZZ_FRAMES; ++frame) {
		if (pdl_scene_apply_frame(s, w, frame, &err) < 0) break; /* emitters over the cap */
		pdl_world_step(w);
	}
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
	return 0;
}
