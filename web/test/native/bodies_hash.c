/* The native side of the bodies case of test/native.test.mjs: a pool with rigid bodies built
 * with the core API alone (no scene file), run on one thread, printing "particles hash" (the
 * hash covers the bodies), so the test can check that the WebAssembly build moves bodies to the
 * same bits. test/native.test.mjs builds the same world through src/puddle.js.
 *   bodies_hash DIMENSIONS FRAMES
 * The world: h = 1, Clavet, 2 substeps, a 24 x 16 h tank (3D: 12 x 12 x 8) with water about
 * 4 h deep; dropped into it a turned box half as dense as water, a spinning circle (sphere), in
 * 2D a triangle, and a kinematic box driven along x at 4 h/s by setting its position and
 * velocity before every step. */
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
	if (argc != 3) {
		fprintf(stderr, "usage: bodies_hash DIMENSIONS FRAMES\n");
		return 2;
	}
	const int dims = atoi(argv[1]);
	const long long frames = atoll(argv[2]);
	const int three = dims == 3;
	pdl_error err;
	pdl_world_def def = pdl_default_world_def();
	def.dimensions = dims;
	def.threads = 1;
	def.substeps = 2;
	pdl_world* w = pdl_world_create(&def, &err);
	if (!w) return fail("world", &err);
	pdl_material_def water = pdl_default_material_def();
	water.viscosity_sigma = 0.3f;
	water.viscosity_beta = 0.1f;
	if (pdl_world_add_material(w, &water, &err) < 0) return fail("material", &err);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = three ? (pdl_vec3){6, 6, 4} : (pdl_vec3){12, 8, 0};
	if (pdl_world_add_boundary(w, &tank, &err).index < 0) return fail("container", &err);
	pdl_fill_def fill = pdl_default_fill_def();
	fill.shape = PDL_FILL_BOX;
	fill.position = three ? (pdl_vec3){0, -4, 0} : (pdl_vec3){0, -5.5f, 0};
	fill.half_extents = three ? (pdl_vec3){5.9f, 1.95f, 3.9f} : (pdl_vec3){11.8f, 2.45f, 0};
	if (pdl_world_fill(w, &fill, &err) < 0) return fail("fill", &err);

	pdl_body_def box = pdl_default_body_def();
	box.position = (pdl_vec3){-2, 1, 0};
	box.half_extents = (pdl_vec3){1.5f, 1, 1};
	box.angle = 0.3f;
	box.orientation = (pdl_quat){0, 0, 0.3f, 1};
	pdl_body_def ball = pdl_default_body_def();
	ball.shape = PDL_BODY_CIRCLE;
	ball.position = (pdl_vec3){3, 2, 0};
	ball.density = 0.8f;
	ball.angular_velocity = (pdl_vec3){0, 0, 2}; /* 2D: z; 3D: about the z axis */
	pdl_body_def triangle = pdl_default_body_def();
	triangle.shape = PDL_BODY_POLYGON;
	triangle.position = (pdl_vec3){7, 1, 0};
	triangle.vertex_count = 3;
	triangle.vertices[0] = (pdl_vec2){-1, -1};
	triangle.vertices[1] = (pdl_vec2){1, -1};
	triangle.vertices[2] = (pdl_vec2){0, 1};
	triangle.density = 0.6f;
	pdl_body_def paddle = pdl_default_body_def();
	paddle.type = PDL_BODY_KINEMATIC;
	paddle.half_extents = (pdl_vec3){0.5f, 1.5f, 1};
	const float paddle_x0 = three ? -4.5f : -10, paddle_speed = 4;
	paddle.position = (pdl_vec3){paddle_x0, -4.5f, 0};
	const pdl_body_def* defs[] = {&box, &ball, &triangle, &paddle};
	pdl_body_id paddle_id = {-1, 0};
	for (int i = 0; i < 4; ++i) {
		if (three && defs[i] == &triangle) continue;
		pdl_body_id id = pdl_world_add_body(w, defs[i], &err);
		if (id.index < 0) return fail("body", &err);
		if (defs[i] == &paddle) paddle_id = id;
	}
	for (long long f = 0; f < frames; ++f) {
		/* the kinematic paddle: where it is at this frame's start, and its speed */
		paddle.position.x = paddle_x0 + paddle_speed * def.dt * (float)f;
		paddle.linear_velocity.x = paddle_speed;
		if (pdl_world_set_body(w, paddle_id, &paddle, &err)) return fail("kinematic body", &err);
		pdl_world_step(w);
	}
	printf("%d %016llx\n", pdl_world_particle_count(w), (unsigned long long)pdl_world_hash(w));
	pdl_world_destroy(w);
	return 0;
}
