/* puddle soak: every scene run for a long time under seeded random hard stirring (issue 23,
 * point 8), checking that no particle is lost and none is NaN. The scene's own emitters and
 * strokes run as in `puddle run`; on top, every so often a new action starts, drawn from a
 * seeded generator, so a failure repeats exactly with the same --seed:
 *   stir   a pointer at full strength (the viewer's largest pull, 100 g, or push), radius 5 h,
 *          dragging the fluid at up to 40 h/s along a random straight path;
 *   pour   a disc of the scene's first material, 1.5 h in radius, at a random place in the
 *          top half of the bounds (while the world holds under 80% of its particle budget, so
 *          the scene's own emitters keep their room);
 *   erase  the particles within 2 h of a random place.
 * In 3D the pointer is a ball (no ray). Checked every --check-every steps and at the end. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"Usage: puddle soak [SCENE...] [options]\n"
	"\n"
	"Runs each scene (default: every scenes/*.json) for --steps steps while seeded random\n"
	"actions stir it at full strength, pour into it and erase from it, and checks that no\n"
	"particle is lost (outside world.bounds) and none is NaN. One line per scene; exit status 1\n"
	"at the first scene that fails, with the step and what was found.\n"
	"\n"
	"Options:\n"
	"  --steps N        steps per scene (default 100000)\n"
	"  --seed N         the actions' random seed (default 1)\n"
	"  --threads N      worker threads, 0 = all cores (default: the scene's)\n"
	"  --max-particles N  a scene of more particles (by its estimate) is scaled down to about N\n"
	"                   (as --particles does for run; default: every scene as it is)\n"
	"  --check-every N  steps between checks (default 100)\n"
	"  -h, --help       this help\n"
	"\n"
	"Example:\n"
	"  puddle soak scenes/blobs.json --steps 20000 --seed 7\n";

/* SplitMix64: small, good enough for picking actions, the same on every platform. */
static uint64_t next_random(uint64_t* state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static float uniform(uint64_t* state, float lo, float hi)
{
	return lo + (hi - lo) * (float)((double)(next_random(state) >> 11) / 9007199254740992.0);
}

typedef struct soak_stir {
	int steps_left;     /* 0: no stroke running */
	pdl_vec3 at, velocity;
	float strength;
} soak_stir;

/* A random point inside the scene's bounds, `margin` in from them (the top half: top). */
static pdl_vec3 random_point(const pdl_scene* s, uint64_t* rng, float margin, bool top, bool three)
{
	pdl_vec3 lo = s->bounds_min, hi = s->bounds_max;
	if (top) lo.y = 0.5f * (lo.y + hi.y);
	pdl_vec3 p = {uniform(rng, lo.x + margin, hi.x - margin), uniform(rng, lo.y + margin, hi.y - margin), 0};
	if (three) p.z = uniform(rng, lo.z + margin, hi.z - margin);
	return p;
}

/* Starts the next action at step `step`; returns false (with a message) only on an engine
 * error that is not a full particle budget. */
static bool next_action(const pdl_scene* s, pdl_world* w, uint64_t* rng, soak_stir* stir, const char* path)
{
	const bool three = s->world.dimensions == 3;
	const float h = s->world.interaction_radius;
	const pdl_vec3 g = s->world.gravity;
	const float gravity = sqrtf(g.x * g.x + g.y * g.y + g.z * g.z);
	float pick = uniform(rng, 0, 1);
	if (pick < 0.6f) { /* stir */
		stir->steps_left = 20 + (int)(next_random(rng) % 100);
		stir->at = random_point(s, rng, h, false, three);
		float speed = uniform(rng, 5, 40) * h, angle = uniform(rng, 0, 6.2831853f), tilt = three ? uniform(rng, -1, 1) : 0;
		stir->velocity = (pdl_vec3){speed * cosf(angle) * sqrtf(1 - tilt * tilt), speed * sinf(angle) * sqrtf(1 - tilt * tilt),
		                            speed * tilt};
		stir->strength = (pick < 0.35f ? 100.0f : -100.0f) * (gravity > 0 ? gravity : 10.0f);
		return true;
	}
	if (pick < 0.8f) { /* pour */
		if (pdl_world_particle_count(w) > 0.8 * s->world.max_particles) return true;
		pdl_fill_def fill = pdl_default_fill_def();
		fill.shape = PDL_FILL_DISC;
		fill.radius = 1.5f * h;
		fill.position = random_point(s, rng, 2 * h, true, three);
		pdl_error err;
		if (pdl_world_fill(w, &fill, &err) < 0) {
			fprintf(stderr, "puddle soak: %s: pouring: %s\n", path, err.message);
			return false;
		}
		return true;
	}
	pdl_world_remove_particles_in_circle(w, random_point(s, rng, 0, false, three), 2 * h); /* erase */
	return true;
}

/* Soaks one scene: EXIT_OK, EXIT_FAILED (with a message on stderr) at the first loss, NaN or
 * engine error, EXIT_USAGE for a scene that does not load. */
static int soak_one(const char* path, long long steps, uint64_t seed, int threads, long long check_every,
                    long long max_particles)
{
	pdl_scene* s = cli_load_scene(path);
	if (!s) return EXIT_USAGE;
	const bool shrink = max_particles > 0 && pdl_scene_estimate_particles(s) > (double)max_particles;
	pdl_scene_override(s, shrink ? (double)max_particles : 0, threads);
	pdl_error err;
	pdl_world* w = pdl_scene_build_world(s, &err);
	if (!w) {
		fprintf(stderr, "%s\n", err.message);
		pdl_scene_destroy(s);
		return EXIT_USAGE;
	}
	uint64_t rng = seed;
	soak_stir stir = {0};
	const int pointer = PDL_MAX_POINTERS - 1; /* above the scene's strokes' */
	const float h = s->world.interaction_radius;
	bool ok = true;
	int lowest = pdl_world_particle_count(w), highest = lowest;
	double start = cli_now();
	long long step = 0;
	for (; ok && step < steps; ++step) {
		if (pdl_scene_apply_frame(s, w, step, &err) < 0) {
			fprintf(stderr, "%s\n", err.message);
			ok = false;
			break;
		}
		if (stir.steps_left == 0 && step % 40 == 0) ok = next_action(s, w, &rng, &stir, path);
		if (stir.steps_left > 0) {
			pdl_pointer p = {.position = stir.at, .velocity = stir.velocity, .radius = 5 * h, .strength = stir.strength,
			                 .drag = 5};
			pdl_world_set_pointer(w, pointer, &p, NULL);
			const float dt = s->world.dt;
			stir.at.x += dt * stir.velocity.x, stir.at.y += dt * stir.velocity.y, stir.at.z += dt * stir.velocity.z;
			if (--stir.steps_left == 0) pdl_world_clear_pointer(w, pointer);
		}
		pdl_world_step(w);
		int count = pdl_world_particle_count(w);
		lowest = count < lowest ? count : lowest;
		highest = count > highest ? count : highest;
		if ((step + 1) % check_every == 0 || step + 1 == steps) {
			pdl_stats st = pdl_world_stats(w);
			int lost = cli_lost_particles(s, w);
			if (lost || st.non_finite) {
				fprintf(stderr, "puddle soak: %s: after step %lld (seed %llu): %d particles lost, %d not finite\n", path,
				        step + 1, (unsigned long long)seed, lost, st.non_finite);
				ok = false;
			}
		}
	}
	if (ok)
		printf("%s: %lld steps, %d to %d particles, %d bodies, none lost or NaN (%.1f s)\n", path, step, lowest, highest,
		       pdl_world_body_count(w), cli_now() - start);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
	return ok ? EXIT_OK : EXIT_FAILED;
}

int cmd_soak(int argc, char** argv)
{
	static const char* const known[] = {"--steps", "--seed", "--threads", "--check-every", "--max-particles", "--help"};
	long long steps = 100000, seed = 1, threads = -1, check_every = 100, max_particles = 0;
	int count = 0;
	char** scenes = calloc((size_t)argc + 1, sizeof *scenes);
	if (!scenes) return EXIT_FAILED;
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		const char* v;
		bool ok = true;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			free(scenes);
			return EXIT_OK;
		} else if (strcmp(a, "--steps") == 0) {
			ok = (v = cli_option_value("soak", argc, argv, &i)) && cli_parse_int("soak", a, v, 1, 1000000000, &steps);
		} else if (strcmp(a, "--seed") == 0) {
			ok = (v = cli_option_value("soak", argc, argv, &i)) && cli_parse_int("soak", a, v, 0, 1LL << 62, &seed);
		} else if (strcmp(a, "--threads") == 0) {
			ok = (v = cli_option_value("soak", argc, argv, &i)) && cli_parse_int("soak", a, v, 0, 256, &threads);
		} else if (strcmp(a, "--max-particles") == 0) {
			ok = (v = cli_option_value("soak", argc, argv, &i)) &&
			     cli_parse_int("soak", a, v, 1, 67108864, &max_particles);
		} else if (strcmp(a, "--check-every") == 0) {
			ok = (v = cli_option_value("soak", argc, argv, &i)) && cli_parse_int("soak", a, v, 1, 1000000000, &check_every);
		} else if (a[0] == '-' && a[1]) {
			cli_unknown_option("soak", a, known, (int)(sizeof known / sizeof known[0]));
			ok = false;
		} else {
			scenes[count++] = argv[i];
		}
		if (!ok) {
			free(scenes);
			return EXIT_USAGE;
		}
	}
	char** found = NULL;
	char** list = scenes;
	if (count == 0) {
		count = cli_default_scenes(&found);
		list = found;
	}
	int exit_code = count > 0 ? EXIT_OK : EXIT_USAGE;
	if (count == 0) fprintf(stderr, "puddle soak: no scenes given and no scenes/*.json found\n");
	for (int i = 0; exit_code == EXIT_OK && i < count; ++i)
		exit_code = soak_one(list[i], steps, (uint64_t)seed, (int)threads, check_every, max_particles);
	for (int i = 0; found && i < count; ++i) free(found[i]);
	free(found);
	free(scenes);
	return exit_code;
}
