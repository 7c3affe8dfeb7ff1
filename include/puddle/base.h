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
	X(PDL_ERR_WORLD_INTERACTION_RADIUS, "world", "interaction_radius", "must be finite and > 0") \
	X(PDL_ERR_WORLD_DT, "world", "dt", "must be finite, > 0 and <= 1")                          \
	X(PDL_ERR_WORLD_SUBSTEPS, "world", "substeps", "must be in [1, 64]")                        \
	X(PDL_ERR_WORLD_GRAVITY, "world", "gravity", "must be finite")                              \
	X(PDL_ERR_WORLD_THREADS, "world", "threads", "must be in [0, 256]")                         \
	X(PDL_ERR_WORLD_MAX_PARTICLES, "world", "max_particles", "must be in [1, 67108864]")        \
	X(PDL_ERR_WORLD_DIMENSIONS, "world", "dimensions", "must be 2 or 3 and cannot change")   \
	X(PDL_ERR_WORLD_SOLVER, "world", "solver", "must be PDL_SOLVER_CLAVET, PDL_SOLVER_SPH or PDL_SOLVER_DFSPH") \
	X(PDL_ERR_WORLD_BACKEND, "world", "backend", "must be PDL_BACKEND_CPU, or PDL_BACKEND_CUDA where the build has CUDA and the machine a GPU") \
	PDL_SPH_FIELDS(PDL_SPH_ERROR, X)                                                               \
	PDL_MATERIAL_FIELDS(PDL_MATERIAL_ERROR, X)                                                      \
	X(PDL_ERR_MATERIAL_ID, "material", "id", "must name a material of this world")              \
	X(PDL_ERR_TOO_MANY_MATERIALS, "world", "materials", "at most 32 materials")                 \
	X(PDL_ERR_BOUNDARY_KIND, "boundary", "kind", "must be a known kind")                        \
	X(PDL_ERR_BOUNDARY_POSITION, "boundary", "position", "must be finite")                      \
	X(PDL_ERR_BOUNDARY_ANGLE, "boundary", "angle", "must be finite")                            \
	X(PDL_ERR_BOUNDARY_RADIUS, "boundary", "radius", "must be finite and > 0")                  \
	X(PDL_ERR_BOUNDARY_HALF_EXTENTS, "boundary", "half_extents", "must be finite and > 0")      \
	X(PDL_ERR_BOUNDARY_KIND_3D, "boundary", "kind", "polygons are 2D only")                  \
	X(PDL_ERR_BOUNDARY_VERTEX_COUNT, "boundary", "vertex_count", "must be in [3, 16]")          \
	X(PDL_ERR_BOUNDARY_VERTICES, "boundary", "vertices", "must be finite, convex, counter-clockwise, with non-zero area") \
	X(PDL_ERR_BOUNDARY_VELOCITY, "boundary", "velocity", "must be finite")                      \
	X(PDL_ERR_BOUNDARY_FRICTION, "boundary", "friction", "must be in [0, 1]")                   \
	X(PDL_ERR_BOUNDARY_RESTITUTION, "boundary", "restitution", "must be in [0, 1]")             \
	X(PDL_ERR_BOUNDARY_STICKINESS, "boundary", "stickiness", "must be finite and >= 0")         \
	X(PDL_ERR_OBSTACLE_ID, "obstacle", "id", "must name an obstacle of this world")             \
	X(PDL_ERR_FILL_SHAPE, "fill", "shape", "must be a known shape")                             \
	X(PDL_ERR_FILL_SHAPE_3D, "fill", "shape", "spirals are 2D only")                        \
	X(PDL_ERR_FILL_POSITION, "fill", "position", "must be finite")                              \
	X(PDL_ERR_FILL_RADIUS, "fill", "radius", "must be finite and > 0")                          \
	X(PDL_ERR_FILL_HALF_EXTENTS, "fill", "half_extents", "must be finite and > 0")              \
	X(PDL_ERR_FILL_SPACING, "fill", "spacing", "must be finite and >= 0.01 * interaction_radius") \
	X(PDL_ERR_FILL_COUNT, "fill", "count", "must be >= 0")                                      \
	X(PDL_ERR_FILL_VELOCITY, "fill", "velocity", "must be finite")                              \
	X(PDL_ERR_TOO_MANY_PARTICLES, "world", "particles", "must not exceed world.max_particles")  \
	X(PDL_ERR_POINTER_INDEX, "pointer", "index", "must be in [0, 8)")                           \
	X(PDL_ERR_POINTER_POSITION, "pointer", "position", "must be finite")                        \
	X(PDL_ERR_POINTER_VELOCITY, "pointer", "velocity", "must be finite")                        \
	X(PDL_ERR_POINTER_RADIUS, "pointer", "radius", "must be finite and > 0")                    \
	X(PDL_ERR_POINTER_DIRECTION, "pointer", "direction", "must be finite")                  \
	X(PDL_ERR_POINTER_STRENGTH, "pointer", "strength", "must be finite")                        \
	X(PDL_ERR_POINTER_DRAG, "pointer", "drag", "must be finite and >= 0")                       \
	X(PDL_ERR_PARTICLE_STATE, "particle", "state", "must be finite with a valid material")       \
	X(PDL_ERR_BODY_TYPE, "body", "type", "must be PDL_BODY_DYNAMIC or PDL_BODY_KINEMATIC")         \
	X(PDL_ERR_BODY_SHAPE, "body", "shape", "must be PDL_BODY_BOX, PDL_BODY_CIRCLE or PDL_BODY_POLYGON") \
	X(PDL_ERR_BODY_SHAPE_3D, "body", "shape", "polygons are 2D only")                            \
	X(PDL_ERR_BODY_POSITION, "body", "position", "must be finite")                               \
	X(PDL_ERR_BODY_ANGLE, "body", "angle", "must be finite")                                     \
	X(PDL_ERR_BODY_ORIENTATION, "body", "orientation", "must be finite and not zero")            \
	X(PDL_ERR_BODY_LINEAR_VELOCITY, "body", "linear_velocity", "must be finite")                 \
	X(PDL_ERR_BODY_ANGULAR_VELOCITY, "body", "angular_velocity", "must be finite")               \
	X(PDL_ERR_BODY_RADIUS, "body", "radius", "must be finite and >= 0.5 * particle spacing")     \
	X(PDL_ERR_BODY_HALF_EXTENTS, "body", "half_extents", "must be finite and >= 0.5 * particle spacing") \
	X(PDL_ERR_BODY_VERTEX_COUNT, "body", "vertex_count", "must be in [3, 16]")                   \
	X(PDL_ERR_BODY_VERTICES, "body", "vertices", "must be finite, convex, counter-clockwise, at least a particle spacing across") \
	X(PDL_ERR_BODY_DENSITY, "body", "density", "must be finite and in (0, 1000]")                \
	X(PDL_ERR_BODY_FRICTION, "body", "friction", "must be in [0, 1]")                            \
	X(PDL_ERR_BODY_RESTITUTION, "body", "restitution", "must be in [0, 1]")                      \
	X(PDL_ERR_BODY_GRAVITY_SCALE, "body", "gravity_scale", "must be finite")                     \
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
