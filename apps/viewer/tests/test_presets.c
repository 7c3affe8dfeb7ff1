/* The viewer's material presets (scenes/presets/materials.json, scaled by presets.c) on every
 * shipped 2D scene file: each preset is applied the way the viewer applies it (--preset, the
 * panel's buttons: viewer_apply_preset with the scene's basis as loaded), the world runs for
 * SECONDS without the scene's emitters and strokes, and then
 *   - no particle is lost and none is NaN or infinite;
 *   - the fluid has settled: the mean speed is below SETTLED sqrt(g h) (see below);
 *   - the world runs the preset's solver (water: DFSPH; the others: Clavet).
 * Needs no display: it links the viewer's layer-1 files (scenes.c, presets.c).
 * With PUDDLE_TEST_QUICK set (make test's sanitizer builds) each run lasts 0.5 s and only the
 * first check is made: the same code runs (12 s of every pair took 444 s under ASan, 2 s 99 s).
 *
 *   test_presets SCENES_DIR [--verbose]
 *
 * SPDX-License-Identifier: MIT */
#include "../viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long each run lasts, simulated seconds. */
#define SECONDS 12.0
/* How long emitters pour first in scenes that start empty (lava, obstacles), seconds. */
#define WARMUP 4.0
/* sqrt(g h) is the speed a particle reaches falling one h. The shipped scenes' own fluids, run
 * the same way, still move at 0.04-0.94 sqrt(g h) after 12 s (sloshing, floating bodies,
 * stratify.json's bouncy wall); a preset that does not settle runs at 3-760 sqrt(g h) (before
 * the presets were scaled: stratify + lava, slime, water). So a preset passes below
 * max(SETTLED_FLOOR, SETTLED_FACTOR x the scene's own value): docs/viewer.md, "Presets", has the
 * table. */
#define SETTLED_FLOOR 0.5
#define SETTLED_FACTOR 2.0

int main(int argc, char** argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_presets SCENES_DIR [--verbose]\n");
		return 2;
	}
	bool verbose = argc > 2 && strcmp(argv[2], "--verbose") == 0;
	const char* q = getenv("PUDDLE_TEST_QUICK");
	const bool quick = q && *q && *q != '0';
	const double seconds = quick ? SECONDS / 24 : SECONDS;
	viewer_scenes_init(argv[1]);
	if (viewer_preset_count() < 4) {
		fprintf(stderr, "FAIL: presets not read: %s\n", viewer_presets_problem());
		return 1;
	}
	int failures = 0, runs = 0;
	viewer_scene_options options = {0, 1};
	for (int s = 0; s < viewer_scene_count(); ++s) {
		double own = 0; /* the scene's own fluid, in sqrt(g h) */
		for (int p = -1; p < viewer_preset_count(); ++p) { /* -1: the scene as it is */
			viewer_scene scene;
			char err[512];
			if (!viewer_scene_load(&scene, viewer_scene_name(s), &options, err, sizeof err)) {
				fprintf(stderr, "FAIL: %s: %s\n", viewer_scene_name(s), err);
				++failures;
				break;
			}
			pdl_world_def def = pdl_world_get_def(scene.world);
			if (def.dimensions == 3) {
				viewer_scene_unload(&scene);
				break;
			}
			/* a scene poured by emitters: let them pour for WARMUP seconds first (quick: a
			 * quarter of it, which pours enough to run every preset's passes) */
			int warmup = pdl_world_particle_count(scene.world) == 0 ? (int)ceil((quick ? WARMUP / 4 : WARMUP) / def.dt) : 0;
			for (long long i = 0; i < warmup; ++i) {
				viewer_scene_advance(&scene, i);
				pdl_world_step(scene.world);
			}
			const pdl_solver_kind own_solver = def.solver;
			if (p >= 0 && !viewer_apply_preset(scene.world, p, &scene.preset_basis, err, sizeof err)) {
				fprintf(stderr, "FAIL: %s + %s: %s\n", scene.name, viewer_preset_name(p), err);
				++failures;
				viewer_scene_unload(&scene);
				continue;
			}
			int before = pdl_world_particle_count(scene.world);
			def = pdl_world_get_def(scene.world);
			/* a preset brings its solver (materials.json's "solvers"): water DFSPH with the water
			 * scenes' settings, the others Clavet */
			if (p >= 0) {
				const bool water = strcmp(viewer_preset_name(p), "water") == 0;
				const bool solver_ok = water ? def.solver == PDL_SOLVER_DFSPH && def.sph.density_tolerance == 0.001f &&
				                                   def.sph.divergence_tolerance == 0.1f && def.sph.max_iterations == 100
				                             : def.solver == PDL_SOLVER_CLAVET;
				if (!solver_ok) {
					printf("FAIL %-16s %-9s runs solver %d (density tolerance %g)\n", scene.name, viewer_preset_name(p),
					       (int)def.solver, def.sph.density_tolerance);
					++failures;
				}
			}
			/* water on a scene that runs DFSPH's water already steps as the scene's own run did
			 * (the same rest density, mass and wall friction, the fields DFSPH reads; the solver
			 * check above saw its settings): not run twice */
			if (p >= 0 && own_solver == PDL_SOLVER_DFSPH && def.solver == PDL_SOLVER_DFSPH &&
			    strcmp(viewer_preset_name(p), "water") == 0) {
				viewer_scene_unload(&scene);
				continue;
			}
			int steps = (int)ceil(seconds / def.dt);
			for (int i = 0; i < steps; ++i) pdl_world_step(scene.world);
			pdl_particle_data d = pdl_world_particles(scene.world);
			int bad = 0;
			double speed = 0;
			for (int i = 0; i < d.count; ++i) {
				if (!isfinite(d.x[i]) || !isfinite(d.y[i]) || !isfinite(d.vx[i]) || !isfinite(d.vy[i])) {
					++bad;
					continue;
				}
				speed += sqrt((double)d.vx[i] * d.vx[i] + (double)d.vy[i] * d.vy[i]);
			}
			speed /= d.count > bad ? d.count - bad : 1;
			const viewer_preset_basis* b = &scene.preset_basis;
			double unit = sqrt((double)b->g * b->h);
			double settled = speed / unit;
			if (p < 0) own = settled;
			double bound = fmax(SETTLED_FLOOR, SETTLED_FACTOR * own);
			bool ok = d.count == before && bad == 0 && (quick || settled < bound);
			++runs;
			if (!ok || verbose)
				printf("%s %-16s %-9s particles %d -> %d, non-finite %d, mean speed %.4g = %.4f sqrt(g h) "
				       "(bound %.2f), substeps %d\n",
				       !ok ? "FAIL" : "ok  ", scene.name, p >= 0 ? viewer_preset_name(p) : "(scene)", before,
				       d.count, bad, speed, settled, bound, def.substeps);
			if (!ok) ++failures;
			viewer_scene_unload(&scene);
		}
	}
	printf("%d runs, %d failures\n", runs, failures);
	return failures == 0 && runs > 0 ? 0 : 1;
}
