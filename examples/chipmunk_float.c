/* Coupling puddle with an external rigid-body engine, Chipmunk2D (Debian's libchipmunk-dev).
 *
 * Chipmunk owns three boxes and their contacts with each other and with the tank; puddle owns
 * the water. Each box is a KINEMATIC body in puddle: every frame its pose and velocities are
 * copied from Chipmunk into puddle, puddle steps the water around it, and the force and torque
 * the water put on it (pdl_world_body_force) go back to Chipmunk, which then steps the boxes
 * with the same dt. A raft at half the water's density floats half under; two stones at twice
 * its density sink and come to rest on the floor, the smaller one on the bigger one.
 *
 * The program checks itself after 12 s: the raft floats with 0.5 of its area under the water
 * surface beside it (within 0.1), the stones lie stacked on the floor, nothing is NaN. It
 * prints what it measured and exits 0, or 1 with what failed. */
#include <puddle/puddle.h>

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdio.h>

#define TANK_X 14 /* the tank's half width and half height, world units */
#define TANK_Y 9
#define WATER_TOP -3.0f /* where the pool's surface starts, y */
#define BOXES 3

typedef struct box {
	const char* name;
	float half_x, half_y, x, y, density; /* density relative to the water's */
	pdl_body_id puddle;
	cpBody* chipmunk;
	cpShape* shape;
} box;

/* Area of the box below y = level, as a share of its area: its corners (counter-clockwise)
 * clipped by the line (Sutherland-Hodgman), then the shoelace formula. */
static float share_below(const pdl_body_def* d, float level)
{
	pdl_vec2 v[PDL_MAX_POLYGON_VERTICES], below[2 * PDL_MAX_POLYGON_VERTICES];
	int n = pdl_body_world_vertices(d, v), m = 0;
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n];
		if (a.y <= level) below[m++] = a;
		if ((a.y <= level) != (b.y <= level)) {
			float t = (level - a.y) / (b.y - a.y);
			below[m++] = (pdl_vec2){a.x + t * (b.x - a.x), level};
		}
	}
	double area = 0;
	for (int i = 0; i < m; ++i) area += (double)below[i].x * below[(i + 1) % m].y - (double)below[(i + 1) % m].x * below[i].y;
	return (float)(0.5 * area / (4.0 * d->half_extents.x * d->half_extents.y));
}

/* The water's surface beside a body: the mean over columns one unit wide, from 1.5 to 5 units
 * beyond its sides, of the highest particle's y plus half a rest spacing (the particles' own
 * radius). Columns near another box or the tank's walls are left out. */
static float surface_beside(const pdl_world* world, const box* boxes, int self)
{
	enum { COLUMNS = 2 * TANK_X };
	float top[COLUMNS];
	for (int c = 0; c < COLUMNS; ++c) top[c] = -1e30f;
	pdl_particle_data p = pdl_world_particles(world);
	for (int i = 0; i < p.count; ++i) {
		int c = (int)floorf(p.x[i] + TANK_X);
		if (c >= 0 && c < COLUMNS && p.y[i] > top[c]) top[c] = p.y[i];
	}
	double sum = 0;
	int used = 0;
	for (int c = 0; c < COLUMNS; ++c) {
		float x = (float)c + 0.5f - TANK_X;
		float from_self = fabsf(x - (float)cpBodyGetPosition(boxes[self].chipmunk).x) - boxes[self].half_x;
		bool use = from_self > 1.5f && from_self < 5 && fabsf(x) < TANK_X - 2 && top[c] > -1e29f;
		for (int k = 0; k < BOXES; ++k)
			if (k != self && fabsf(x - (float)cpBodyGetPosition(boxes[k].chipmunk).x) < boxes[k].half_x + 1.5f) use = false;
		if (!use) continue;
		sum += top[c];
		used++;
	}
	pdl_world_def wd = pdl_world_get_def(world);
	float spacing = pdl_rest_spacing(wd.interaction_radius, pdl_world_get_material(world, 0).rest_density);
	return used ? (float)(sum / used) + 0.5f * spacing : NAN;
}

int main(void)
{
	/* ---- puddle: water in a tank ---- */
	pdl_world_def world_def = pdl_default_world_def(); /* h = 1, dt = 1/60 s, gravity (0, -10) */
	world_def.substeps = 2; /* with stiffer water (below), compressed by only a few percent */
	pdl_error err;
	pdl_world* world = pdl_world_create(&world_def, &err);
	if (!world) return fprintf(stderr, "pdl_world_create: %s\n", err.message), 1;
	pdl_material_def water = pdl_default_material_def();
	water.stiffness = 150; /* a body floats on the water's real density: keep it near rest */
	water.near_stiffness = 75;
	pdl_world_add_material(world, &water, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){TANK_X, TANK_Y, 0};
	pdl_world_add_boundary(world, &tank, NULL);
	pdl_fill_def pool = pdl_default_fill_def();
	pool.position = (pdl_vec3){0, 0.5f * (WATER_TOP - TANK_Y), 0};
	pool.half_extents = (pdl_vec3){TANK_X, 0.5f * (TANK_Y + WATER_TOP), 0};
	pdl_world_fill(world, &pool, NULL);

	/* ---- Chipmunk: the same gravity and tank ---- */
	cpSpace* space = cpSpaceNew();
	cpSpaceSetGravity(space, cpv(world_def.gravity.x, world_def.gravity.y));
	cpSpaceSetIterations(space, 20);
	cpSpaceSetCollisionSlop(space, 0.01); /* puddle refuses a body reaching out of its tank */
	const cpVect corner[4] = {{-TANK_X, -TANK_Y}, {TANK_X, -TANK_Y}, {TANK_X, TANK_Y}, {-TANK_X, TANK_Y}};
	cpShape* walls[4];
	for (int k = 0; k < 4; ++k) {
		walls[k] = cpSpaceAddShape(space, cpSegmentShapeNew(cpSpaceGetStaticBody(space), corner[k], corner[(k + 1) % 4], 0));
		cpShapeSetFriction(walls[k], 0.5);
	}

	/* ---- the boxes: kinematic in puddle, dynamic in Chipmunk with the mass puddle gives them ----
	 * The raft is twice as wide as tall: a block at half the water's density floats upright only
	 * if width / height > sqrt(6 s (1 - s)) = 1.22 at s = 0.5 (metacentric height > 0); a square
	 * one turns onto a corner. */
	box boxes[BOXES] = {
	    {"raft", 2.0f, 1.0f, 0.0f, -1.0f, 0.5f},
	    {"big stone", 1.5f, 1.0f, 8.0f, -1.5f, 2.0f},
	    {"small stone", 0.75f, 0.75f, 8.0f, 0.5f, 2.0f},
	};
	for (int k = 0; k < BOXES; ++k) {
		box* b = &boxes[k];
		pdl_body_def def = pdl_default_body_def();
		def.type = PDL_BODY_KINEMATIC;
		def.half_extents = (pdl_vec3){b->half_x, b->half_y, 0};
		def.position = (pdl_vec3){b->x, b->y, 0};
		def.density = b->density; /* puddle ignores it for a kinematic body, but it sets the mass below */
		b->puddle = pdl_world_add_body(world, &def, &err);
		if (b->puddle.index < 0) return fprintf(stderr, "pdl_world_add_body(%s): %s\n", b->name, err.message), 1;
		pdl_body_mass mass = pdl_world_body_mass(world, b->puddle); /* density * area * water's density */
		b->chipmunk = cpSpaceAddBody(space, cpBodyNew(mass.mass, mass.inertia.z));
		cpBodySetPosition(b->chipmunk, cpv(b->x, b->y));
		b->shape = cpSpaceAddShape(space, cpBoxShapeNew(b->chipmunk, 2 * b->half_x, 2 * b->half_y, 0));
		cpShapeSetFriction(b->shape, 0.5);
		printf("%-11s  %.2f of the water's density, mass %.2f, %d boundary particles\n", b->name, b->density,
		       mass.mass, mass.particles);
	}

	/* ---- 12 s: Chipmunk's state into puddle, puddle's forces into Chipmunk ---- */
	const int frames = 720, samples_from = 600; /* the raft is measured over the last 2 s */
	double share = 0;
	int samples = 0;
	for (int frame = 0; frame < frames; ++frame) {
		for (int k = 0; k < BOXES; ++k) {
			pdl_body_def def;
			pdl_world_get_body(world, boxes[k].puddle, &def);
			cpVect x = cpBodyGetPosition(boxes[k].chipmunk), v = cpBodyGetVelocity(boxes[k].chipmunk);
			def.position = (pdl_vec3){(float)x.x, (float)x.y, 0};
			def.angle = (float)cpBodyGetAngle(boxes[k].chipmunk);
			def.linear_velocity = (pdl_vec3){(float)v.x, (float)v.y, 0};
			def.angular_velocity = (pdl_vec3){0, 0, (float)cpBodyGetAngularVelocity(boxes[k].chipmunk)};
			if (pdl_world_set_body(world, boxes[k].puddle, &def, &err) != PDL_OK)
				return fprintf(stderr, "frame %d, pdl_world_set_body(%s): %s\n", frame, boxes[k].name, err.message), 1;
		}
		pdl_world_step(world); /* moves the kinematic boxes by their velocity, the water around them */
		for (int k = 0; k < BOXES; ++k) { /* Chipmunk clears force and torque after each step */
			pdl_body_force f = pdl_world_body_force(world, boxes[k].puddle);
			cpBodySetForce(boxes[k].chipmunk, cpv(f.force.x, f.force.y));
			cpBodySetTorque(boxes[k].chipmunk, f.torque.z);
		}
		cpSpaceStep(space, world_def.dt);
		if (frame >= samples_from && frame % 6 == 0) {
			pdl_body_def raft;
			pdl_world_get_body(world, boxes[0].puddle, &raft);
			share += share_below(&raft, surface_beside(world, boxes, 0));
			samples++;
		}
	}
	share /= samples;

	/* ---- the checks ---- */
	cpVect raft = cpBodyGetPosition(boxes[0].chipmunk);
	cpVect big = cpBodyGetPosition(boxes[1].chipmunk), small = cpBodyGetPosition(boxes[2].chipmunk);
	float surface = surface_beside(world, boxes, 0);
	pdl_stats stats = pdl_world_stats(world);
	printf("after %.1f s: water surface %.2f, raft at (%.2f, %.2f) turned %.1f deg, %.3f of it under water\n",
	       pdl_world_time(world), surface, raft.x, raft.y, cpBodyGetAngle(boxes[0].chipmunk) * 180 / CP_PI, share);
	printf("stones at y = %.2f and %.2f (resting on the floor and on each other: %.2f and %.2f)\n", big.y, small.y,
	       -TANK_Y + boxes[1].half_y, -TANK_Y + 2 * boxes[1].half_y + boxes[2].half_y);
	const char* failed = NULL;
	bool finite = stats.non_finite == 0 && isfinite(share) && isfinite(surface);
	for (int k = 0; k < BOXES; ++k)
		finite &= isfinite(cpBodyGetPosition(boxes[k].chipmunk).x) && isfinite(cpBodyGetPosition(boxes[k].chipmunk).y);
	if (!finite) failed = "something is NaN or infinite";
	else if (!(raft.y > -TANK_Y && raft.y < boxes[0].y)) failed = "the raft is not between the floor and where it was dropped";
	else if (fabs(share - 0.5) > 0.1) failed = "the raft does not float half under water";
	else if (fabs(big.y - (-TANK_Y + boxes[1].half_y)) > 0.1) failed = "the big stone is not on the floor";
	else if (fabs(small.y - (-TANK_Y + 2 * boxes[1].half_y + boxes[2].half_y)) > 0.1 || fabs(small.x - big.x) > boxes[1].half_x)
		failed = "the small stone is not on the big one";
	if (failed) fprintf(stderr, "chipmunk_float: %s\n", failed);
	else printf("ok\n");

	cpSpaceFree(space); /* frees neither shapes nor bodies */
	for (int k = 0; k < 4; ++k) cpShapeFree(walls[k]);
	for (int k = 0; k < BOXES; ++k) cpShapeFree(boxes[k].shape), cpBodyFree(boxes[k].chipmunk);
	pdl_world_destroy(world);
	return failed ? 1 : 0;
}
