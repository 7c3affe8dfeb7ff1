/* puddle: a particle fluid engine.  base.h: version, vectors, errors.
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_BASE_H
#define PUDDLE_BASE_H

#include "puddle/fields.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDL_VERSION_MAJOR 0
#define PDL_VERSION_MINOR 1
#define PDL_VERSION_PATCH 0

/** Most materials one world can hold. */
#define PDL_MAX_MATERIALS 32
/** Most pointers (mouse, touches) acting on one world at once. */
#define PDL_MAX_POINTERS 8
/** Most vertices of a convex polygon obstacle. */
#define PDL_MAX_POLYGON_VERTICES 16
/** Most viscoelastic springs one particle can hold (Clavet 2005, section 4). */
#define PDL_MAX_SPRINGS_PER_PARTICLE 16
/** Most containers and obstacles one world can hold at once. */
#define PDL_MAX_BOUNDARIES 4096
/** Most rigid bodies one world can hold at once. */
#define PDL_MAX_BODIES 4096
/** Most boundary particles one body may be sampled with (about a 250 x 250 h box in 2D at the
 * default rest density, a 40 h cube in 3D): the cap that stops a body a million times too big
 * from eating the machine's memory. */
#define PDL_MAX_BODY_PARTICLES 262144

/** A 2D vector. Units depend on use: lengths in world units, velocities in world units / s. */
typedef struct pdl_vec2 {
	float x, y;
} pdl_vec2;

/** A 3D vector; 2D worlds use x and y and ignore z (keep it 0). Units as pdl_vec2. */
typedef struct pdl_vec3 {
	float x, y, z;
} pdl_vec3;

/** A rotation in 3D as a unit quaternion (x, y, z the vector part, w the scalar part):
 * {0, 0, 0, 1} is no rotation. A rotation by angle a about the unit axis u is
 * {u sin(a/2), cos(a/2)}. */
typedef struct pdl_quat {
	float x, y, z, w;
} pdl_quat;

/* Every way a call can fail. Each id names one field and one rule, so tests and tools can
 * assert the exact failure. X(id, struct, field, rule). A def field's rule is declared with the
 * field (fields.h), which adds its entry here. */
#define PDL_ERROR_LIST(X)                                                                       \
	X(PDL_OK, "", "", "ok")                                                                     \
	X(PDL_ERR_NULL_ARGUMENT, "call", "argument", "must not be NULL")                            \
	X(PDL_ERR_OUT_OF_MEMORY, "world", "memory", "allocation failed")                            \
	PDL_WORLD_FIELDS(PDL_WORLD_ERROR, X)                                                     \
	PDL_SPH_FIELDS(PDL_SPH_ERROR, X)                                                               \
	PDL_MATERIAL_FIELDS(PDL_MATERIAL_ERROR, X)                                                      \
	X(PDL_ERR_MATERIAL_ID, "material", "id", "must name a material of this world")              \
	X(PDL_ERR_TOO_MANY_MATERIALS, "world", "materials", "at most 32 materials")                 \
	PDL_BOUNDARY_FIELDS(PDL_BOUNDARY_ERROR, X)                                               \
	X(PDL_ERR_BOUNDARY_KIND_3D, "boundary", "kind", "polygons are 2D only")                  \
	X(PDL_ERR_BOUNDARY_ID, "boundary", "id", "must name a live boundary of this world")         \
	X(PDL_ERR_TOO_MANY_BOUNDARIES, "world", "boundaries", "at most 4096 boundaries")           \
	PDL_FILL_FIELDS(PDL_FILL_ERROR, X)                                                       \
	X(PDL_ERR_FILL_SHAPE_3D, "fill", "shape", "spirals are 2D only")                        \
	X(PDL_ERR_TOO_MANY_PARTICLES, "world", "particles", "must not exceed world.max_particles")  \
	X(PDL_ERR_POINTER_INDEX, "pointer", "index", "must be in [0, 8)")                           \
	PDL_POINTER_FIELDS(PDL_POINTER_ERROR, X)                                                 \
	X(PDL_ERR_PARTICLE_STATE, "particle", "state", "must be finite with a valid material")       \
	PDL_BODY_FIELDS(PDL_BODY_ERROR, X)                                                       \
	X(PDL_ERR_BODY_SHAPE_3D, "body", "shape", "polygons are 2D only")                            \
	X(PDL_ERR_BODY_SIZE, "body", "size", "must need at most 262144 boundary particles")          \
	X(PDL_ERR_BODY_OUTSIDE, "body", "position", "must put the whole body inside the container")  \
	X(PDL_ERR_BODY_NO_MATERIAL, "body", "density", "is relative to material 0: add a material first") \
	X(PDL_ERR_BODY_ID, "body", "id", "must name a live body of this world")                      \
	X(PDL_ERR_TOO_MANY_BODIES, "world", "bodies", "at most 4096 bodies")                       \
	X(PDL_ERR_GRID_FRAME_AXES, "grid_frame", "axes", "must be a permutation of 0, 1, 2 or all -1") \
	X(PDL_ERR_GRID_FRAME_DENSE_CELLS, "grid_frame", "dense_cells", "must be at most 67108864") \
	X(PDL_ERR_NEXT_SUBSTEPS, "world", "next_substeps", "must be in [1, world.sph.max_substeps] for the SPH and DFSPH solvers") \
	X(PDL_ERR_GHOST_ORIGIN, "ghost", "origin", "must be >= 0")                                   \
	X(PDL_ERR_GHOST_ID, "ghost", "id", "must be given for every ghost") \
	PDL_DIFFUSE_FIELDS(PDL_DIFFUSE_ERROR, X)                                                        \
	X(PDL_ERR_DIFFUSE_TRAPPED_AIR_ORDER, "diffuse", "trapped_air_max", "must be > trapped_air_min") \
	X(PDL_ERR_DIFFUSE_WAVE_CREST_ORDER, "diffuse", "wave_crest_max", "must be > wave_crest_min")    \
	X(PDL_ERR_DIFFUSE_KINETIC_ORDER, "diffuse", "kinetic_max", "must be > kinetic_min")             \
	X(PDL_ERR_DIFFUSE_FOAM_LIFETIME_ORDER, "diffuse", "foam_lifetime_max", "must be >= foam_lifetime_min") \
	X(PDL_ERR_DIFFUSE_NEIGHBOURS_ORDER, "diffuse", "bubble_neighbours", "must be > spray_neighbours")

/** Error ids. PDL_OK is zero; every other id names one field and one rule. */
typedef enum pdl_error_id {
#define PDL_X_ENUM(id, s, f, r) id,
	PDL_ERROR_LIST(PDL_X_ENUM)
#undef PDL_X_ENUM
	PDL_ERROR_COUNT
} pdl_error_id;

/** What a failed call fills in: the id, and a message a person can read, e.g.
 * "material.rest_density must be finite and > 0, got -3". */
typedef struct pdl_error {
	pdl_error_id id;
	/** The value that broke the rule (NaN where the rule is not about one number). */
	double value;
	char message[192];
} pdl_error;

/** "PDL_ERR_MATERIAL_MASS" for PDL_ERR_MATERIAL_MASS. */
const char* pdl_error_name(pdl_error_id id);
/** The struct the field belongs to: "world", "world.sph", "material", "boundary", "fill",
 * "pointer", ... */
const char* pdl_error_struct(pdl_error_id id);
/** The field the rule is about, as named in the def struct: "rest_density". */
const char* pdl_error_field(pdl_error_id id);
/** The rule in words: "must be finite and > 0". */
const char* pdl_error_rule(pdl_error_id id);

/** "0.1.0" */
const char* pdl_version_string(void);

/** The copy of the vector loops that worlds created now run, for benchmark reports: "avx512vl",
 *  "avx2" or "baseline" (SSE2, WebAssembly SIMD128 or plain C). All give the same results; the
 *  fastest the processor has is picked, and the environment variable PUDDLE_SIMD=avx2 or
 *  PUDDLE_SIMD=baseline caps the choice. */
const char* pdl_vector_loops(void);

#ifdef __cplusplus
}
#endif

#endif
