/* Boundaries: no particle leaves a container or enters an obstacle while a pointer stirs hard,
 * fast particles do not tunnel through thin obstacles, particles do not stick to walls unless
 * their material is sticky, and then each is pulled from its own material's distance. */
#include "test.h"
#include "worlds.h"

#include <math.h>

/* A pointer that circles the container, switching between attracting and repelling. */
static void stir(pdl_world* w, int frame, float radius)
{
	float a = frame * 0.05f;
	pdl_pointer p = pdl_default_pointer();
	p.position = (pdl_vec3){0.6f * radius * cosf(a), 0.6f * radius * sinf(a)};
	p.velocity = (pdl_vec3){-0.6f * radius * 3.0f * sinf(a), 0.6f * radius * 3.0f * cosf(a)};
	p.radius = 0.4f * radius;
	p.strength = (frame / 200) % 2 ? -1500.0f : 1500.0f;
	p.drag = 20.0f;
	pdl_world_set_pointer(w, 0, &p, NULL);
}

static void test_circle_container_holds_while_stirred(void)
{
	const float R = 15;
	pdl_world* w = worlds_create(2, NULL);
	worlds_add_circle_container(w, R);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_SPIRAL;
	f.radius = 10;
	int n = pdl_world_fill(w, &f, NULL);
	ENSURE(n > 1500);
	float worst = 0;
	for (int frame = 0; frame < worlds_steps(3000); ++frame) {
		stir(w, frame, R);
		pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		for (int i = 0; i < p.count; ++i) {
			float r = hypotf(p.x[i], p.y[i]);
			if (r > worst || !isfinite(r)) worst = isfinite(r) ? r : INFINITY;
		}
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  %d particles, farthest from centre %.6f (radius %g), max speed %.1f\n", st.particles, worst, R, st.max_speed);
	ENSURE(st.particles == n);
	ENSURE(st.non_finite == 0);
	ENSURE_MSG(worst <= R, "a particle reached r = %g", worst);
	pdl_world_destroy(w);
}

static void test_box_container_with_obstacles_holds_while_stirred(void)
{
	const float hx = 20, hy = 12;
	pdl_world* w = worlds_create(2, NULL);
	worlds_add_box_container(w, hx, hy);
	pdl_boundary_def box = pdl_default_boundary_def();
	box.position = (pdl_vec3){5, -4};
	box.half_extents = (pdl_vec3){2, 1};
	box.angle = 0.5f;
	pdl_boundary_id box_id = pdl_world_add_boundary(w, &box, NULL);
	pdl_boundary_def disc = pdl_default_boundary_def();
	disc.kind = PDL_BOUNDARY_CIRCLE;
	disc.position = (pdl_vec3){-8, 2};
	disc.radius = 2.5f;
	pdl_boundary_id disc_id = pdl_world_add_boundary(w, &disc, NULL);
	int n = worlds_fill_box(w, 0, -10, -6, 9, 5);
	n += worlds_fill_box(w, 0, 12, 4, 6, 5);
	ENSURE(pdl_world_particle_count(w) == n);
	int inside_obstacle = 0;
	float worst = 0;
	for (int frame = 0; frame < worlds_steps(3000); ++frame) {
		stir(w, frame, hy);
		pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		float c = cosf(box.angle), s = sinf(box.angle);
		for (int i = 0; i < p.count; ++i) {
			float out = fmaxf(fabsf(p.x[i]) - hx, fabsf(p.y[i]) - hy);
			if (out > worst || !isfinite(out)) worst = isfinite(out) ? out : INFINITY;
			float dx = p.x[i] - box.position.x, dy = p.y[i] - box.position.y;
			float lx = c * dx + s * dy, ly = -s * dx + c * dy;
			if (fabsf(lx) < box.half_extents.x - 1e-3f && fabsf(ly) < box.half_extents.y - 1e-3f) inside_obstacle++;
			if (hypotf(p.x[i] - disc.position.x, p.y[i] - disc.position.y) < disc.radius - 1e-3f) inside_obstacle++;
		}
	}
	printf("  %d particles, worst overshoot %.6f, particle-frames inside obstacles %d\n", n, worst, inside_obstacle);
	ENSURE(pdl_world_particle_count(w) == n);
	ENSURE_MSG(worst <= 0, "overshoot %g", worst);
	ENSURE(inside_obstacle == 0);
	ENSURE(pdl_world_remove_boundary(w, box_id, NULL) == PDL_OK);
	ENSURE(pdl_world_remove_boundary(w, disc_id, NULL) == PDL_OK);
	pdl_world_destroy(w);
}

static void test_fast_particles_do_not_tunnel(void)
{
	/* particles fired at 5000 units/s (80 units a step) at a wall 0.2 thick */
	pdl_world* w = worlds_create(1, NULL);
	pdl_world_def d = pdl_world_get_def(w);
	d.gravity = (pdl_vec3){0, 0};
	pdl_world_set_def(w, &d, NULL);
	pdl_boundary_def wall = pdl_default_boundary_def();
	wall.position = (pdl_vec3){0, 0};
	wall.half_extents = (pdl_vec3){0.1f, 20};
	pdl_world_add_boundary(w, &wall, NULL);
	pdl_boundary_def thin = pdl_default_boundary_def();
	thin.kind = PDL_BOUNDARY_POLYGON;
	thin.position = (pdl_vec3){0, 40};
	thin.vertex_count = 3;
	thin.vertices[0] = (pdl_vec2){-0.05f, -20}; /* spans y 20..60, 0.1 wide at the bottom */
	thin.vertices[1] = (pdl_vec2){0.05f, -20};
	thin.vertices[2] = (pdl_vec2){0, 20};
	pdl_world_add_boundary(w, &thin, NULL);
	pdl_boundary_def pole = pdl_default_boundary_def();
	pole.kind = PDL_BOUNDARY_CIRCLE;
	pole.position = (pdl_vec3){0, -40};
	pole.radius = 0.3f;
	pdl_world_add_boundary(w, &pole, NULL);
	pdl_fill_def line = pdl_default_fill_def();
	line.shape = PDL_FILL_LINE;
	line.spacing = 1.5f;
	line.velocity = (pdl_vec3){5000, 0};
	for (float y = -15; y <= 45; y += 0.37f) {
		line.position = (pdl_vec3){-3, y};
		line.end = (pdl_vec3){-3, y};
		pdl_world_fill(w, &line, NULL);
	}
	for (int k = 0; k < 5; ++k) { /* head-on at the pole (a glancing hit may rightly slide
		                               * round it), 3 units apart so they do not push each other */
		line.position = (pdl_vec3){-3.0f - 3.0f * k, -40.0f};
		line.end = line.position;
		pdl_world_fill(w, &line, NULL);
	}
	for (int s = 0; s < 5; ++s) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	int crossed = 0;
	for (int i = 0; i < p.count; ++i) crossed += p.x[i] > 0;
	printf("  %d particles fired, %d crossed\n", p.count, crossed);
	ENSURE(crossed == 0);
	pdl_world_destroy(w);
}

static void test_particles_do_not_stick_to_the_wall(void)
{
	/* The blobs demo's anti-stick problem: a full container settles under gravity; no particle
	 * may stay on the wall above the pool. */
	const float R = 12;
	pdl_world* w = worlds_create(2, NULL);
	worlds_add_circle_container(w, R);
	pdl_fill_def f = pdl_default_fill_def();
	f.shape = PDL_FILL_SPIRAL;
	f.radius = R - 0.05f;
	f.spacing = 0.7f;
	pdl_world_fill(w, &f, NULL);
	for (int s = 0; s < 900; ++s) pdl_world_step(w); /* settling: always the full run */
	float ymin, ymax;
	worlds_y_range(w, &ymin, &ymax);
	pdl_particle_data p = pdl_world_particles(w);
	/* the pool surface: the height below which 98% of the particles lie */
	int below = 0, stuck = 0;
	float surface = ymin;
	for (float y = ymin; y < R; y += 0.05f) {
		below = 0;
		for (int i = 0; i < p.count; ++i) below += p.y[i] <= y;
		if (below >= 0.98 * p.count) {
			surface = y;
			break;
		}
	}
	for (int i = 0; i < p.count; ++i) stuck += p.y[i] > surface + 2.0f;
	printf("  %d particles, pool surface at %.2f, %d particles above it\n", p.count, surface, stuck);
	ENSURE(stuck == 0);
	pdl_world_destroy(w);
}

static void test_sticky_walls_hold_fluid_that_slippery_walls_drop(void)
{
	/* Clavet section 6 stickiness: a film under a sticky ceiling hangs there */
	float hang[2];
	for (int sticky = 0; sticky < 2; ++sticky) {
		pdl_material_def m = pdl_default_material_def();
		m.wall_stickiness = sticky ? 200.0f : 0.0f;
		m.stick_distance = 0.8f;
		pdl_world* w = worlds_create(1, &m);
		pdl_boundary_def ceiling = pdl_default_boundary_def();
		ceiling.position = (pdl_vec3){0, 5};
		ceiling.half_extents = (pdl_vec3){10, 1};
		ceiling.stickiness = 1.0f;
		pdl_world_add_boundary(w, &ceiling, NULL);
		worlds_add_box_container(w, 20, 20);
		worlds_fill_box(w, 0, 0, 3.5f, 3, 0.4f); /* a film three particles thick */
		for (int s = 0; s < 240; ++s) pdl_world_step(w);
		pdl_particle_data p = pdl_world_particles(w);
		int near = 0;
		for (int i = 0; i < p.count; ++i) near += p.y[i] > 1.0f;
		hang[sticky] = (float)near / p.count;
		pdl_world_destroy(w);
	}
	printf("  share still under the ceiling after 4 s: slippery %.2f, sticky %.2f\n", hang[0], hang[1]);
	ENSURE(hang[0] < 0.05f);
	ENSURE(hang[1] > 0.5f);
}

/* Issue 23: water once lay still for good on the boards of `obstacles` (tilted 17 degrees) and
 * on its wedge, because every contact kept only (1 - mu) of the sliding speed, however lightly
 * the particle touched. Coulomb friction (pdl_coulomb_keep) takes at most mu times the normal
 * speed the contact removes, so water slides down any slope steeper than atan mu. */
static void test_water_runs_off_a_tilted_board(void)
{
	float left[2];
	for (int sticky = 0; sticky < 2; ++sticky) {
		pdl_material_def m = pdl_default_material_def(); /* wall_friction 0.1 */
		if (sticky) m.wall_friction = 0.8f, m.wall_stickiness = 200.0f, m.stick_distance = 0.8f;
		pdl_world* w = worlds_create(1, &m);
		pdl_world_def wd = pdl_world_get_def(w);
		wd.substeps = 2; /* as obstacles.json: twice the contacts a second */
		ENSURE(pdl_world_set_def(w, &wd, NULL) == PDL_OK);
		pdl_boundary_def tank = pdl_default_boundary_def(); /* friction and stickiness 1 */
		tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
		tank.half_extents = (pdl_vec3){20, 20};
		ENSURE(pdl_world_add_boundary(w, &tank, NULL).index >= 0);
		pdl_boundary_def board = pdl_default_boundary_def();
		board.kind = PDL_BOUNDARY_BOX;
		board.half_extents = (pdl_vec3){8, 0.5f};
		board.angle = 0.3f; /* 17 degrees, as in obstacles.json: the left end low */
		ENSURE(pdl_world_add_boundary(w, &board, NULL).index >= 0);
		worlds_fill_box(w, 0, 0, 3, 1, 0.5f); /* a small blob, dropped from 2 h above it */
		const int count = pdl_world_particles(w).count;
		for (int s = 0; s < 480; ++s) pdl_world_step(w); /* 8 s */
		pdl_particle_data p = pdl_world_particles(w);
		int on = 0;
		for (int i = 0; i < p.count; ++i) on += p.y[i] > -5.0f; /* the board reaches down to -2.9 */
		left[sticky] = (float)on / (float)count;
		ENSURE(p.count == count);
		pdl_world_destroy(w);
	}
	printf("  share on the board after 8 s: water (mu 0.1) %.2f, sticky (mu 0.8, k_stick 200) %.2f\n", left[0],
	       left[1]);
	ENSURE(left[0] < 0.05f);
	ENSURE(left[1] > 0.5f);
}

/* The same on a vertical wall, which a film presses only by its own pressure: water slides
 * down; a sticky material, whose stickiness presses it to the wall and so gives its friction
 * something to hold with, stays. */
static void test_film_slides_down_a_vertical_wall(void)
{
	float left[2];
	for (int sticky = 0; sticky < 2; ++sticky) {
		pdl_material_def m = pdl_default_material_def();
		if (sticky) m.wall_friction = 0.8f, m.wall_stickiness = 200.0f, m.stick_distance = 0.8f;
		pdl_world* w = worlds_create(1, &m);
		pdl_boundary_def tank = pdl_default_boundary_def();
		tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
		tank.half_extents = (pdl_vec3){20, 20};
		ENSURE(pdl_world_add_boundary(w, &tank, NULL).index >= 0);
		/* a film 3 particles thick and 12 h tall, against the left wall, 14 h above the floor */
		worlds_fill_box(w, 0, -19.6f, 0, 0.4f, 6);
		const int count = pdl_world_particles(w).count;
		for (int s = 0; s < 300; ++s) pdl_world_step(w); /* 5 s */
		pdl_particle_data p = pdl_world_particles(w);
		int still = 0;
		for (int i = 0; i < p.count; ++i) still += p.y[i] > -12.0f; /* half way down from its foot */
		left[sticky] = (float)still / (float)count;
		ENSURE(p.count == count);
		pdl_world_destroy(w);
	}
	printf("  share of the film still above y = -12 after 5 s: water %.2f, sticky %.2f\n", left[0], left[1]);
	ENSURE(left[0] < 0.05f);
	ENSURE(left[1] > 0.5f);
}

static void test_each_particle_keeps_its_own_materials_reach(void)
{
	/* The walls' broad phase flags a block of particles at a time, each with its material's
	 * margin: a sticky material's reaches stick_distance h, a slippery one's only the contact
	 * skin. Single particles 1.5 h apart (no pairs), alternating between the two materials, hang
	 * 0.4 h under a sticky ceiling: every sticky one must stay and every slippery one fall. */
	pdl_material_def slippery = pdl_default_material_def();
	pdl_world* w = worlds_create(2, &slippery);
	pdl_material_def sticky = slippery;
	sticky.wall_stickiness = 200.0f;
	sticky.stick_distance = 0.8f;
	int sticky_id = pdl_world_add_material(w, &sticky, NULL);
	ENSURE(sticky_id == 1);
	pdl_boundary_def ceiling = pdl_default_boundary_def();
	ceiling.position = (pdl_vec3){0, 5};
	ceiling.half_extents = (pdl_vec3){15, 1};
	pdl_world_add_boundary(w, &ceiling, NULL);
	worlds_add_box_container(w, 20, 20);
	float h = pdl_world_get_def(w).interaction_radius;
	int added = 0;
	for (int k = 0; k < 19; ++k) {
		pdl_fill_def one = pdl_default_fill_def();
		one.shape = PDL_FILL_POINT;
		one.material = k % 2;
		one.position = (pdl_vec3){-13.5f * h + 1.5f * h * k, 4.0f - 0.4f * h};
		added += pdl_world_fill(w, &one, NULL);
	}
	ENSURE(added == 19);
	for (int s = 0; s < 120; ++s) pdl_world_step(w);
	pdl_particle_data p = pdl_world_particles(w);
	int held[2] = {0, 0};
	for (int i = 0; i < p.count; ++i) held[p.material[i]] += p.y[i] > 4.0f - h;
	printf("  still under the ceiling after 2 s: slippery %d of 10, sticky %d of 9\n", held[0], held[1]);
	ENSURE(held[0] == 0);
	ENSURE(held[1] == 9);
	pdl_world_destroy(w);
}

static void test_moving_obstacle_pushes_fluid(void)
{
	pdl_world* w = worlds_create(2, NULL);
	worlds_add_box_container(w, 20, 10);
	worlds_fill_box(w, 0, 0, -7, 19, 2.5f);
	pdl_boundary_def paddle = pdl_default_boundary_def();
	paddle.position = (pdl_vec3){-17, -6};
	paddle.half_extents = (pdl_vec3){0.5f, 3.5f};
	pdl_boundary_id id = pdl_world_add_boundary(w, &paddle, NULL);
	for (int s = 0; s < 60; ++s) pdl_world_step(w);
	float before = pdl_world_stats(w).centre_of_mass.x;
	for (int s = 0; s < 120; ++s) { /* move 20 units to the right over 2 s */
		paddle.position.x += 10.0f / 60.0f;
		paddle.velocity = (pdl_vec3){10, 0};
		ENSURE(pdl_world_set_boundary(w, id, &paddle, NULL) == PDL_OK);
		pdl_world_step(w);
	}
	pdl_stats st = pdl_world_stats(w);
	printf("  centre of mass x %.2f -> %.2f\n", before, st.centre_of_mass.x);
	ENSURE(st.centre_of_mass.x > before + 2.0f);
	pdl_particle_data p = pdl_world_particles(w);
	int inside = 0;
	for (int i = 0; i < p.count; ++i)
		inside += fabsf(p.x[i] - paddle.position.x) < paddle.half_extents.x - 1e-3f &&
		          fabsf(p.y[i] - paddle.position.y) < paddle.half_extents.y - 1e-3f;
	ENSURE(inside == 0);
	pdl_world_destroy(w);
}

int main(void)
{
	/* RUN_TEST_THREADS_ELSEWHERE: left out under TSan, docs/testing.md ("threads-elsewhere") */
	RUN_TEST_THREADS_ELSEWHERE(test_circle_container_holds_while_stirred);
	RUN_TEST(test_box_container_with_obstacles_holds_while_stirred);
	RUN_TEST_THREADS_ELSEWHERE(test_fast_particles_do_not_tunnel);
	RUN_TEST_THREADS_ELSEWHERE(test_particles_do_not_stick_to_the_wall);
	RUN_TEST_THREADS_ELSEWHERE(test_sticky_walls_hold_fluid_that_slippery_walls_drop);
	RUN_TEST_THREADS_ELSEWHERE(test_water_runs_off_a_tilted_board);
	RUN_TEST_THREADS_ELSEWHERE(test_film_slides_down_a_vertical_wall);
	RUN_TEST(test_each_particle_keeps_its_own_materials_reach);
	RUN_TEST_THREADS_ELSEWHERE(test_moving_obstacle_pushes_fluid);
	return TEST_SUMMARY();
}
