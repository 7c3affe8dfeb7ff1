/* The native side of the 3D case of test/native.test.mjs: one 3D world built with the core API
 * alone (no scene file: the C scene loader's 3D keys are not needed for this), run on one
 * thread, printing "particles hash" so the test can check that the WebAssembly build steps a 3D
 * world to the same bits. test/native.test.mjs builds the same world through src/puddle.js.
 *   world3d_hash FRAMES
 * The world: h = 1, Clavet, 2 substeps, a 16 x 12 x 10 box tank, a sphere obstacle, a column of
 * default water (face-centred cubic fill), and from frame 10 on a pointer ray pushing into it. */
#include "puddle/puddle.h"

#include <stdio.h>
#include <stdlib.h>

static int fail(const char* what, const pdl_error* err)
{
	fprintf(stderr, "%s: %s\n", what, err->message);
	return 2;
}

int main(int argc, char** argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: world3d_hash FRAMES\n");
		return 2;
	}
	long long frames = atoll(argv[1]);
	pdl_error err;
	pdl_world_def def = pdl_default_world_def();
	def.dimensions = 3;
	def.threads = 1;
	def.substeps = 2;
	pdl_world* w = pdl_world_create(&def, &err);
	if (!w) return fail("world", &err);
	pdl_material_def water = pdl_default_material_def();
	water.viscosity_sigma = 0.3f;
	if (pdl_world_add_material(w, &water, &err) < 0) return fail("material", &err);

	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){8, 6, 5};
	if (pdl_world_add_boundary(w, &tank, &err).index < 0) return fail("container", &err);
	pdl_boundary_def ball = pdl_default_boundary_def();
	ball.kind = PDL_BOUNDARY_CIRCLE;
	ball.position = (pdl_vec3){2, -4.5f, 0};
	ball.radius = 1.5f;
	if (pdl_world_add_boundary(w, &ball, &err).index < 0) return fail("obstacle", &err);

	pdl_fill_def fill = pdl_default_fill_def();
	fill.shape = PDL_FILL_BOX;
	fill.position = (pdl_vec3){-5, -2, 0};
	fill.half_extents = (pdl_vec3){3, 4, 5};
	if (pdl_world_fill(w, &fill, &err) < 0) return fail("fill", &err);

	for (long long f = 0; f < frames; ++f) {
		if (f == 10) {
			pdl_pointer p = pdl_default_pointer();
			p.position = (pdl_vec3){0, 2, 20};
			p.direction = (pdl_vec3){-0.2f, -0.3f, -1};
			p.velocity = (pdl_vec3){3, 0, 0};
			p.radius = 3;
			p.strength = -80;
			p.drag = 2;
			if (pdl_world_set_pointer(w, 0, &p, &err)) return fail("pointer", &err);
		}
		pdl_world_step(w);
	}
	printf("%d %016llx\n", pdl_world_particle_count(w), (unsigned long long)pdl_world_hash(w));
	pdl_world_destroy(w);
	return 0;
}
