/* Worlds shared by the engine tests: each builds a small standard setup in code. */
#ifndef PUDDLE_TEST_WORLDS_H
#define PUDDLE_TEST_WORLDS_H

#include <puddle/puddle.h>

/* A world with default settings but for `threads`, `dimensions` and `solver`, and one material
 * (the default if NULL); aborts the test program if creation fails (these defs are known
 * good). The others below are this one with a solver or dimension filled in. */
pdl_world* worlds_solver_create(int threads, int dimensions, pdl_solver_kind solver, const pdl_material_def* material);
/* A 2D Clavet world with `threads` threads and one material. */
pdl_world* worlds_create(int threads, const pdl_material_def* material);
/* Adds a box container of half size (hx, hy) at the origin; returns its id. */
pdl_boundary_id worlds_add_box_container(pdl_world* w, float hx, float hy);
/* Adds a circle container of radius r at the origin; returns its id. */
pdl_boundary_id worlds_add_circle_container(pdl_world* w, float r);
/* Fills a box of the given material at rest spacing; returns the count. */
/* A triangular obstacle 6 wide and 2 high, its base's middle at (x, y) (2D). */
pdl_boundary_id worlds_add_triangle(pdl_world* w, float x, float y);
int worlds_fill_box(pdl_world* w, int material, float cx, float cy, float hx, float hy);
/* The dam break used by the determinism tests: a column of water, a second heavier material,
 * a slime blob with springs, a box and a polygon obstacle, and a stirring pointer. */
pdl_world* worlds_dam_break(int threads);
/* An SPH world (world.solver = PDL_SOLVER_SPH, default SPH settings, gravity (0, -10)) with
 * `threads` threads and one default material; aborts the test program if creation fails. */
pdl_world* worlds_sph_create(int threads);
/* The SPH dam break for determinism: scenes/sph-dam-break.json's column in a 32 x 20 tank, plus
 * a heavier second material, a box and a polygon obstacle, surface tension and a stirring
 * pointer. */
pdl_world* worlds_sph_dam_break(int threads);
/* A 3D world (dimensions 3) with the given solver, threads and one material (default if
 * NULL); aborts the test program if creation fails. */
pdl_world* worlds_3d_create(int threads, pdl_solver_kind solver, const pdl_material_def* material);
/* The 3D dam break for determinism and containment: a 16 x 10 x 8 tank, a water column, a
 * heavier blob (with springs under Clavet), a sphere and a turned box obstacle, and a pointer
 * ray pushing and dragging. */
pdl_world* worlds_dam_break_3d(int threads, pdl_solver_kind solver);
/* Steps for a long test loop: `full`, or a sixth of it (at least 30) in quick mode
 * (PUDDLE_TEST_QUICK set, as make test's sanitizer suites do: the sanitizers make every step
 * ten times slower or more), and a twentieth (at least 10) under ThreadSanitizer
 * (PUDDLE_TEST_TSAN too): a race shows up in a few steps. */
int worlds_steps(int full);
/* Steps for a settle whose outcome quick mode does not assert (the Archimedes pools, SPH's
 * resting pool): `full`, or 10 in quick mode, enough for every stage to run on every thread
 * many times over (each step has its substeps). */
int worlds_settle_steps(int full);
/* True in quick mode: physics that needs the full run to settle is then not asserted. */
bool worlds_quick(void);
/* Highest and lowest y of the particles. */
void worlds_y_range(const pdl_world* w, float* ymin, float* ymax);

#endif
