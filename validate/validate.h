/* puddle-validate: the physics validation suite (docs/validation.md).
 *
 * Every check is measured from the particles' positions and velocities (geometry) or against
 * an experiment, never only from a figure the solver reports about itself, and is printed as
 * one table row per solver: measured, expected, tolerance, PASS / FAIL. Rows whose failure is
 * known for a solver (known.c) print as "known: FAIL" and do not fail the run.
 *
 * Units throughout: lengths in h (the interaction radius, 1), time in seconds, gravity
 * (0, -10) h/s^2, y up. */
#ifndef PUDDLE_VALIDATE_H
#define PUDDLE_VALIDATE_H

#include <puddle/puddle.h>

#include <stdbool.h>
#include <stddef.h>

/* ---- Solvers and run options ---------------------------------------------------------------- */

typedef struct vsolver {
	const char* name; /* as given to --solver and printed in the table */
	pdl_solver_kind kind;
} vsolver;

/* The solvers validated, in table order; their count. */
extern const vsolver validate_solvers[];
extern const int validate_solver_count;

/* How big and how long: the full validation, --quick (smaller, shorter: minutes for all), or
 * the smoke run of the test suite (--smoke; seconds, and shorter again under
 * PUDDLE_TEST_QUICK, as the sanitizer builds run it). */
typedef enum vscale { VSCALE_FULL = 0, VSCALE_QUICK, VSCALE_SMOKE } vscale;

typedef struct voptions {
	vscale scale;
	int threads;      /* 0: every core */
	bool test_quick;  /* PUDDLE_TEST_QUICK set: the smoke run shortens again */
	bool curves;      /* --curves: print the measured curves (the dam break's front) to stdout */
} voptions;

/* ---- Results ------------------------------------------------------------------------------ */

typedef enum vstatus {
	VSTATUS_PASS = 0,
	VSTATUS_FAIL,       /* an unexpected failure: the run exits non-zero */
	VSTATUS_KNOWN_FAIL, /* failed, and known to fail for this solver (known.c) */
	VSTATUS_STATED,     /* a statement of what was measured, no pass or fail */
	VSTATUS_XPASS,      /* passed although known.c expects it to fail: update known.c */
} vstatus;

/* One table row under way: a case fills it in and hands it to vreport_row(). */
typedef struct vrow {
	const char* solver;
	const char* case_name; /* pool2d, dam_break, ... */
	char check[64];        /* what is measured */
	char measured[96];
	char expected[64];
	char tolerance[48];
	vstatus status;
	const char* why; /* a known failure's reason (known.c), or NULL */
} vrow;

/* Records a checked row: passed says whether the measurement met its tolerance; known.c says
 * whether a failure was expected. Prints the row at once. */
void vreport_check(const char* solver, const char* case_name, const char* check, bool passed,
                   const char* measured, const char* expected, const char* tolerance);
/* In the smoke run checks are printed but not judged (the worlds are too small and short for
 * the physics); errors (particles lost or not finite) still fail it. */
void vreport_smoke(bool on);
/* Records a statement (compressibility of a solver whose pressure is not physical). */
void vreport_statement(const char* solver, const char* case_name, const char* check, const char* measured,
                       const char* expected);
/* A row for a case that could not run (world refused, particles lost): always a failure. */
void vreport_error(const char* solver, const char* case_name, const char* what);
/* Writes the table (markdown) to `path` (NULL: only stdout) and prints it; returns the count of
 * unexpected failures. */
int vreport_finish(const char* path, const char* header);
/* Unexpected failures so far. */
int vreport_failures(void);

/* Whether known.c lists (solver, case, check) as a failure the solver is known to have; the
 * reason, or NULL. */
const char* vknown_failure(const char* solver, const char* case_name, const char* check);

/* ---- Worlds ------------------------------------------------------------------------------- */

/* A world for a validation case: `dims` 2 or 3, the solver's settings for water up to
 * `deepest` h deep (setup.c says what each solver gets and why), one water material (id 0,
 * `water` if not NULL, else the default material with the solver's stiffness). Exits with a
 * message if the library refuses it. */
pdl_world* vworld_create(const vsolver* solver, const voptions* opt, int dims, float deepest,
                         const pdl_material_def* water);
/* The water material the solver's worlds use (setup.c). */
pdl_material_def vworld_water(const vsolver* solver);
/* Adds a closed box container with corners lo and hi (z ignored in 2D); walls slide with the
 * material's friction. Returns its id. */
pdl_boundary_id vworld_add_tank(pdl_world* w, pdl_vec3 lo, pdl_vec3 hi);
/* Fills the box [lo, hi] with a material at its rest spacing; returns the count. */
int vworld_fill_box(pdl_world* w, int material, pdl_vec3 lo, pdl_vec3 hi);
/* Replaces the particles' velocities and materials with the given arrays (in the order of
 * pdl_world_particles; NULL keeps that one), as pdl_world_set_particles. */
void vworld_rewrite(pdl_world* w, const float* vx, const float* vy, const uint8_t* material);
/* Steps the world for `seconds` of simulated time (whole frames). */
void vworld_run(pdl_world* w, double seconds);
/* Whether every particle is present (expected count) and finite; prints and records an error
 * row when not. */
bool vworld_intact(pdl_world* w, int expected, const char* solver, const char* case_name);

/* ---- Geometry (measure.c) ----------------------------------------------------------------- */

/* The rest spacing s of material `m` (2D hexagonal, 3D face-centred cubic lattice), h. */
double vrest_spacing(const pdl_world* w, int material);
/* Area (2D) or volume (3D) one particle fills in the rest lattice: s^2 sqrt(3)/2 (hexagonal),
 * s^3 / sqrt(2) (face-centred cubic). */
double vrest_cell(const pdl_world* w, int material);

/* A uniform grid over the particles for neighbour queries within `reach`. */
typedef struct vgrid {
	int dims, count;
	double reach, lo[3];
	int n[3];
	int* start; /* n[0] n[1] n[2] + 1 offsets into order */
	int* order; /* particle indices sorted by cell */
	const float* x[3];
} vgrid;

void vgrid_build(vgrid* g, const pdl_particle_data* p, int dims, double reach);
void vgrid_free(vgrid* g);
/* Calls fn(j, r2, ctx) for every particle j within reach of point q. */
void vgrid_query(const vgrid* g, const double q[3], void (*fn)(int j, double r2, void* ctx), void* ctx);

/* The particles' smoothed number density relative to the rest lattice at point q,
 * c(q) = cell * sum_j W(|q - x_j|), W the Poly6 kernel of radius g->reach normalised to 1
 * (2D 4/(pi R^8) (R^2 - r^2)^3, 3D 315/(64 pi R^9) (R^2 - r^2)^3; Mueller et al. 2003 eq. 20):
 * about 1 in fluid at rest density, 0 in air. */
double vsmoothed_fill(const vgrid* g, double cell, const double q[3]);

/* Where the fluid ends along the line from `inside` (in the bulk) towards `outside` (beyond
 * the fluid): the point where vsmoothed_fill falls to half its value in the bulk next to the
 * surface (measured 2 reach inside it), the half-density (equimolar) surface of a
 * liquid-vapour interface. Returns the distance from `inside` along the line, or -1 when the
 * line never leaves the fluid. For a lattice this is the outer row plus half a row. */
double vfluid_edge(const vgrid* g, double cell, const double inside[3], const double outside[3]);

/* The free surface height above (x, z): vfluid_edge on the vertical line from y_low up to
 * y_high. -1e30 when not found. */
double vsurface_height(const vgrid* g, double cell, double x, double z, double y_low, double y_high);

/* Share of the particles (in [0, 1]) with another particle closer than `distance`. */
double vclumped_share(const pdl_particle_data* p, int dims, double distance);

/* Particle indices of the largest connected cluster (particles joined when closer than
 * `link`); writes a 0/1 mask (count entries) and returns the cluster's size. */
int vlargest_cluster(const pdl_particle_data* p, int dims, double link, unsigned char* member);

/* The density kernel a world's solver uses. */
typedef enum vkernel {
	VKERNEL_CLAVET,   /* Clavet eq. 1: sum_{j != i} (1 - r/h)^2 */
	VKERNEL_POLY6,    /* SPH with world.sph.pressure_kernel poly6 or spiky (Mueller 2003 eq. 20) */
	VKERNEL_WENDLAND, /* SPH's default kernel and DFSPH's: Wendland C2 */
} vkernel;
vkernel vkernel_of(const pdl_world* w);

/* Kernel density of particle i recomputed from positions with the solver's own kernel: Clavet
 * eq. 1 sum_{j != i} (1 - r/h)^2; else the mass density m sum_j W(r) (Mueller et al. 2003
 * eq. 3, self included) with Poly6 or Wendland C2. Away from walls (no wall share). */
double vkernel_density(const vgrid* g, const pdl_particle_data* p, vkernel kernel, int dims, double h, double mass,
                       int i);

/* Least-squares line through (x_k, y_k): returns the slope, writes the intercept. */
double vfit_slope(const double* x, const double* y, int n, double* intercept);

/* Share of a circle (2D) or sphere (3D) of radius r centred at height yc lying below y = level:
 * the circular segment r^2 acos((r-d)/r) - (r-d) sqrt(2rd - d^2) over pi r^2, or the spherical
 * cap pi d^2 (3r - d) / 3 over 4/3 pi r^3, with d the depth of the level above the bottom. */
double vshare_below(int dims, double r, double yc, double level);

/* ---- Cases -------------------------------------------------------------------------------- */

typedef struct vcase {
	const char* name;
	void (*run)(const vsolver* solver, const voptions* opt);
	const char* what; /* one line for --help */
} vcase;

void vcase_pool2d(const vsolver* solver, const voptions* opt);
void vcase_pool3d(const vsolver* solver, const voptions* opt);
void vcase_dam_break(const vsolver* solver, const voptions* opt);
void vcase_archimedes2d(const vsolver* solver, const voptions* opt);
void vcase_archimedes3d(const vsolver* solver, const voptions* opt);
void vcase_slosh(const vsolver* solver, const voptions* opt);
void vcase_overturn(const vsolver* solver, const voptions* opt);

/* The pool's depth between its free surface and its floor surface, and the depth its particle
 * count implies over the floor area it covers (both h), measured from positions (pool.c). */
double vpool_depth(const pdl_world* w, double width, double depth, double* implied);
/* The dam break's front Z = x / a: the farthest point of the largest connected cluster plus half
 * a rest spacing, over the column width a (dam_break.c). */
double vdam_front(const pdl_world* w, double a);

/* The smoke run's own checks of the measuring tools on constructed lattices (smoke.c);
 * returns the count of failures. */
int vsmoke_measures(void);

#endif
