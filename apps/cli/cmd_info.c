/* puddle info: validate a scene and print it resolved, every default filled in; puddle validate:
 * only check scenes, one line each. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"Usage: puddle info SCENE\n"
	"\n"
	"Checks SCENE and prints it as JSON with every default filled in (the same format, so the\n"
	"output is itself a valid scene). A short report goes to stderr: particle count, rigid bodies\n"
	"(if any), frames, and the stability margin of each material.\n"
	"\n"
	"Exit status: 0 valid, 2 the scene has a mistake (the message names the file, the JSON path\n"
	"and the rule).\n"
	"\n"
	"Example:\n"
	"  puddle info scenes/stratify.json\n";

/* "3 bodies; " for a scene with bodies (copies counted), "" without */
static void body_text(const pdl_scene* s, char* out, size_t size)
{
	int n = pdl_scene_body_total(s);
	if (n) snprintf(out, size, "%d bod%s; ", n, n == 1 ? "y" : "ies");
	else if (size) out[0] = 0;
}

/* The depth the fluid settles to in the container, world units, or -1 where it cannot be told
 * (no container, a turned box, gravity not straight down a box): the particles' rest volume
 * (a hexagonal lattice cell s^2 sqrt(3)/2 in 2D, an FCC one s^3 / sqrt 2 in 3D, s each
 * material's rest spacing) poured into the container's bottom; obstacles and bodies are
 * ignored. A circle (sphere) holds d deep r^2 acos((r - d) / r) - (r - d) sqrt(2 r d - d^2)
 * (pi d^2 (3 r - d) / 3), found by bisection. */
static double settled_depth(const pdl_scene* s, const pdl_particle_data* p, pdl_vec3 g, double gl)
{
	if (!s->has_container || !(gl > 0)) return -1;
	const bool three = s->world.dimensions == 3;
	const float h = s->world.interaction_radius;
	double volume = 0;
	for (int i = 0; i < p->count; ++i) {
		const float rho = s->materials[p->material[i]].def.rest_density;
		const double sp = three ? pdl_rest_spacing_3d(h, rho) : pdl_rest_spacing(h, rho);
		volume += three ? sp * sp * sp * 0.70710678118654752 : sp * sp * 0.8660254037844386;
	}
	const pdl_boundary_def* c = &s->container;
	if (c->kind == PDL_BOUNDARY_CIRCLE_CONTAINER) {
		const double r = c->radius, pi = 3.14159265358979;
		double lo = 0, hi = 2 * r;
		for (int k = 0; k < 60; ++k) {
			const double d = 0.5 * (lo + hi);
			const double held = three ? pi * d * d * (3 * r - d) / 3 : r * r * acos((r - d) / r) - (r - d) * sqrt(fmax(0, 2 * r * d - d * d));
			*(held < volume ? &lo : &hi) = d;
		}
		return lo;
	}
	/* a box: only upright, with gravity straight down its y axis */
	if (c->angle != 0 || g.x != 0 || (three && g.z != 0) || !(g.y < 0)) return -1;
	const double floor_area = three ? 4.0 * c->half_extents.x * c->half_extents.z : 2.0 * c->half_extents.x;
	return fmin(volume / floor_area, 2.0 * c->half_extents.y);
}

int cmd_info(int argc, char** argv)
{
	const char* path = NULL;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			static const char* const known[] = {"--help"};
			cli_unknown_option("info", argv[i], known, 1);
			return EXIT_USAGE;
		}
		if (path) {
			fprintf(stderr, "puddle info: one scene at a time, got '%s' and '%s'\n", path, argv[i]);
			return EXIT_USAGE;
		}
		path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "puddle info: which scene? (e.g. puddle info scenes/blobs.json)\nTry 'puddle info --help'.\n");
		return EXIT_USAGE;
	}
	pdl_scene* s = cli_load_scene(path);
	if (!s) return EXIT_USAGE;
	char* json = pdl_scene_to_json(s);
	if (!json) {
		fprintf(stderr, "puddle info: out of memory\n");
		pdl_scene_destroy(s);
		return EXIT_FAILED;
	}
	printf("%s\n", json);
	free(json);
	float h = s->world.interaction_radius, dt = s->world.dt / (float)s->world.substeps;
	char bodies[48];
	body_text(s, bodies, sizeof bodies);
	fprintf(stderr, "%s: valid; %dD; about %.0f particles; %s%.3g s = %lld frames of %.4g s (%d substep%s)\n", path,
	        s->world.dimensions, pdl_scene_estimate_particles(s), bodies, s->output.seconds,
	        pdl_scene_frames_for(s, s->output.seconds), s->world.dt, s->world.substeps, s->world.substeps == 1 ? "" : "s");
	if (s->world.dimensions == 3) {
		const pdl_camera* c = &s->camera;
		fprintf(stderr, "  bounds [%g, %g, %g] to [%g, %g, %g]; camera%s: target [%g, %g, %g], yaw %g, pitch %g, "
		        "distance %g, fov %g\n", s->bounds_min.x, s->bounds_min.y, s->bounds_min.z, s->bounds_max.x,
		        s->bounds_max.y, s->bounds_max.z, s->has_camera ? "" : " (framing the bounds)", c->target.x,
		        c->target.y, c->target.z, c->yaw, c->pitch, c->distance, c->fov);
	}
	bool sph = s->world.solver != PDL_SOLVER_CLAVET; /* SPH and DFSPH: the CFL rule picks their substeps */
	/* The Jacobi relaxation is stable while k dt_sub^2 / h stays below about 0.02 (measured at
	 * rest density 4; more neighbours lower it): report the margin, warn when past it. */
	for (int i = 0; i < s->material_count && !sph; ++i) {
		const pdl_material_def* m = &s->materials[i].def;
		double k = m->stiffness > m->near_stiffness ? m->stiffness : m->near_stiffness;
		double margin = k * dt * dt / h;
		fprintf(stderr, "  materials[%d] %-10s max(k, k_near) dt_sub^2 / h = %.3g%s\n", i, s->materials[i].name, margin,
		        margin > 0.02 ? "  > 0.02: may be unstable, raise world.substeps" : "");
	}
	/* The depth bound: pressure at depth d stiffens the pairs, so dt_sub sqrt(g d) / h must stay
	 * below about 0.15 (docs/physics.md). d is the fluid's initial extent along gravity where
	 * the fluid starts on the floor (a column is at its tallest at the start), else the depth
	 * it settles to: fluid that starts in mid-air falls without pressure. stratify's sunflower
	 * disc, 15 h across in mid-air, settles 6.4 h deep (8.9 h by the rest volume: its fill starts
	 * denser than rest); it ran the same with 1, 2, 3 and 4
	 * substeps (density error mean 21.4, 20.8, 21.2, 21.2 %, the same surface), so its initial
	 * extent would be a false alarm. Emitters add to the depth later. */
	pdl_error serr;
	pdl_world* w = pdl_scene_build_world(s, &serr);
	if (w) {
		pdl_vec3 g = s->world.gravity;
		if (s->world.dimensions != 3) g.z = 0; /* 2D worlds ignore it */
		double gl = sqrt((double)g.x * g.x + (double)g.y * g.y + (double)g.z * g.z);
		pdl_particle_data p = pdl_world_particles(w);
		if (gl > 0 && p.count > 0) {
			double lo = 1e300, hi = -1e300;
			for (int i = 0; i < p.count; ++i) {
				double along = (p.x[i] * g.x + p.y[i] * g.y + (p.z ? p.z[i] * g.z : 0)) / gl;
				lo = along < lo ? along : lo;
				hi = along > hi ? along : hi;
			}
			double depth = hi - lo, margin = dt * sqrt(gl * depth) / h;
			if (!sph) {
				/* on the floor: the lowest particle within h of the container's bottom */
				const double settled = settled_depth(s, &p, g, gl);
				double bottom = 0;
				if (s->has_container) {
					const pdl_boundary_def* c = &s->container;
					const double reach = c->kind == PDL_BOUNDARY_CIRCLE_CONTAINER ? c->radius : c->half_extents.y;
					bottom = (c->position.x * g.x + c->position.y * g.y + c->position.z * g.z) / gl + reach;
				}
				const bool floating = settled >= 0 && bottom - hi > h;
				char how[96] = "";
				if (floating) {
					snprintf(how, sizeof how, " settled (%.3g h across at the start, in mid-air)", depth / h);
					depth = settled, margin = dt * sqrt(gl * depth) / h;
				}
				fprintf(stderr, "  depth %.3g h%s: dt_sub sqrt(g depth) / h = %.3g%s\n", depth / h, how, margin,
				        margin > 0.15 ? "  > 0.15: may be unstable, raise world.substeps" : "");
			}
			else if (s->world.solver == PDL_SOLVER_DFSPH) /* incompressible: no Mach number */
				fprintf(stderr, "  DFSPH depth %.3g h: falling fluid reaches about sqrt(2 g depth) = %.3g units/s\n",
				        depth / h, sqrt(2 * gl * depth));
			else { /* SPH: the CFL rule sets the substeps; what to check is the Mach number */
				double c = s->world.sph.speed_of_sound, v = sqrt(2 * gl * depth);
				fprintf(stderr, "  SPH depth %.3g h: falling fluid reaches about sqrt(2 g depth) = %.3g units/s, Mach %.2f, "
				        "compression about %.1f %%%s\n", depth / h, v, v / c, 100 * (v / c) * (v / c),
				        v / c > 0.3 ? "  > Mach 0.3: raise solver.speed_of_sound" : "");
			}
		}
		if (sph && p.count > 0) {
			pdl_world_step(w); /* a scratch world: the CFL rule's choice for the first frame */
			if (s->world.solver == PDL_SOLVER_DFSPH)
				fprintf(stderr, "  DFSPH: the CFL rule takes %d substeps in the first frame (cfl = %g), the solves %d "
				        "and %d iterations\n", pdl_world_profile(w).substeps, s->world.sph.cfl,
				        pdl_world_profile(w).density_iterations, pdl_world_profile(w).divergence_iterations);
			else
				fprintf(stderr, "  SPH: the CFL rule takes %d substeps in the first frame (c = %g, cfl = %g)\n",
				        pdl_world_profile(w).substeps, s->world.sph.speed_of_sound, s->world.sph.cfl);
		}
		pdl_world_destroy(w);
	}
	pdl_scene_destroy(s);
	return EXIT_OK;
}

static const char validate_usage[] =
	"Usage: puddle validate SCENE...\n"
	"\n"
	"Checks each SCENE (2D or 3D) without running it and prints one line per scene on stdout:\n"
	"its dimensions, the particles its fills and emitters make, its rigid bodies (if any) and its\n"
	"frames. Mistakes go to stderr (the message names the file, the JSON path and the rule).\n"
	"\n"
	"Exit status: 0 every scene is valid, 2 at least one is not (the others are still checked).\n"
	"\n"
	"Example:\n"
	"  puddle validate scenes/*.json\n";

int cmd_validate(int argc, char** argv)
{
	int scenes = 0, bad = 0;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(validate_usage, stdout);
			return EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			static const char* const known[] = {"--help"};
			cli_unknown_option("validate", argv[i], known, 1);
			return EXIT_USAGE;
		}
	}
	for (int i = 1; i < argc; ++i) {
		scenes++;
		pdl_scene* s = cli_load_scene(argv[i]);
		if (!s) {
			bad++;
			continue;
		}
		/* building the world also runs the engine's own checks (fills, boundaries) */
		pdl_error err;
		s->world.threads = 1;
		pdl_world* w = pdl_scene_build_world(s, &err);
		if (!w) {
			fprintf(stderr, "%s\n", err.message);
			bad++;
		} else {
			char bodies[48];
			body_text(s, bodies, sizeof bodies);
			printf("%s: valid; %dD; %d particles at the start, about %.0f in all; %s%lld frames\n", argv[i],
			       s->world.dimensions, pdl_world_particle_count(w), pdl_scene_estimate_particles(s), bodies,
			       pdl_scene_frames_for(s, s->output.seconds));
		}
		pdl_world_destroy(w);
		pdl_scene_destroy(s);
	}
	if (!scenes) {
		fprintf(stderr, "puddle validate: which scenes? (e.g. puddle validate scenes/*.json)\nTry 'puddle validate --help'.\n");
		return EXIT_USAGE;
	}
	return bad ? EXIT_USAGE : EXIT_OK;
}
