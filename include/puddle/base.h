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
	X(PDL_ERR_DIFFUSE_NEIGHBOURS_ORDER, "diffuse", "bubble_neighbours", "must be > spray_neighbours") \
	PDL_IO_ERROR_LIST(X)                                                                         \
	PDL_SURFACE_ERROR_LIST(X)

/* The failures of puddle_io (files, scenes, snapshots, exports) and puddle over MPI, in the
 * same form; the error's file, path, line and column say where. */
#define PDL_IO_ERROR_LIST(X)                                                                    \
	X(PDL_ERR_FILE_NAME, "file", "name", "must be a usable file name")                          \
	X(PDL_ERR_FILE_OPEN, "file", "open", "cannot be opened")                                     \
	X(PDL_ERR_FILE_READ, "file", "read", "cannot be read")                                       \
	X(PDL_ERR_FILE_WRITE, "file", "write", "cannot be written")                                  \
	X(PDL_ERR_FILE_SIZE, "file", "size", "is larger than the reader takes")                     \
	X(PDL_ERR_SCENE_SYNTAX, "scene", "json", "must be valid JSON")                               \
	X(PDL_ERR_SCENE_KEY, "scene", "key", "must be a key docs/scenes.md lists")                   \
	X(PDL_ERR_SCENE_VALUE, "scene", "value", "must keep its rule in docs/scenes.md")             \
	X(PDL_ERR_SNAPSHOT_HEADER, "snapshot", "header", "must be a puddle snapshot of a version this build reads") \
	X(PDL_ERR_SNAPSHOT_CORRUPT, "snapshot", "payload", "must be whole and match its checksum")   \
	X(PDL_ERR_SNAPSHOT_WORLD, "snapshot", "world", "must be of a world the scene's world can take") \
	X(PDL_ERR_EXPORT_DATA, "export", "data", "must be something the format can hold")           \
	X(PDL_ERR_VDB_UNAVAILABLE, "vdb", "build", "needs a build with OpenVDB")                    \
	X(PDL_ERR_VDB_DIMENSIONS, "vdb", "world", "must be a 3D world")                             \
	X(PDL_ERR_VDB_DEF, "vdb", "def", "needs voxel_size > 0 and radius > voxel_size")           \
	X(PDL_ERR_MPI_PROCESS, "mpi", "process", "failed on one of the processes")

/* The surface extraction's (puddle/surface.h): each names a field of pdl_surface_def or an
 * argument. */
#define PDL_SURFACE_ERROR_LIST(X)                                                               \
	X(PDL_ERR_SURFACE_RADIUS, "surface", "radius", "must be finite and > 0")                    \
	X(PDL_ERR_SURFACE_CELL_SIZE, "surface", "cell_size", "must be finite and > 0")              \
	X(PDL_ERR_SURFACE_SPACING, "surface", "spacing", "must be finite and > 0")                  \
	X(PDL_ERR_SURFACE_ISO_FRACTION, "surface", "iso_fraction", "must be in (0, 1)")             \
	X(PDL_ERR_SURFACE_MAX_SAMPLES, "surface", "max_samples", "must be >= 8")                    \
	X(PDL_ERR_SURFACE_COUNT, "surface", "count", "must be >= 0")                                \
	X(PDL_ERR_SURFACE_POSITION, "surface", "position", "must be finite")                        \
	X(PDL_ERR_SURFACE_TOO_MANY_SAMPLES, "surface", "cell_size", "the grid would need more than max_samples samples") \
	X(PDL_ERR_SURFACE_FIELD, "surface", "field", "must be a field of the right dimension with samples") \
	X(PDL_ERR_SURFACE_ISO, "surface", "iso", "must be finite")

/** Error ids. PDL_OK is zero; every other id names one field and one rule. */
typedef enum pdl_error_id {
#define PDL_X_ENUM(id, s, f, r) id,
	PDL_ERROR_LIST(PDL_X_ENUM)
#undef PDL_X_ENUM
	PDL_ERROR_COUNT
} pdl_error_id;

/** What a failed call fills in, the one error type of puddle, its io layer and puddle over MPI:
 * the id, where the failure is (file, path, line, column: as many as apply) and a message a
 * person can read, e.g. "material.rest_density must be finite and > 0, got -3" or
 * "scenes/x.json: materials[1].rest_density: must be > 0, got -3". Every call that can fail
 * takes a `pdl_error*` last (NULL when the caller needs no reason) and says it failed by what it
 * returns (false, NULL, -1, an id with index -1, or a pdl_error_id other than PDL_OK). */
typedef struct pdl_error {
	pdl_error_id id;
	/** The value that broke the rule (NaN where the rule is not about one number). */
	double value;
	/** The file the call read or wrote ("" when none): the name it was given. */
	char file[256];
	/** Where in it, or in the call's arguments: a scene's JSON path
	 * ("materials[1].rest_density"), or the def's "struct.field" ("material.rest_density");
	 * "" for a JSON syntax error and for failures of the file as a whole. */
	char path[160];
	/** Of a JSON syntax error, 1-based; 0 otherwise. */
	int line, column;
	/** The message without the file and the path: "must be > 0, got -3". */
	char rule[256];
	/** The whole line a person reads. */
	char message[768];
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
/** Fills *err (nothing when err is NULL) for a failure of the layers above the core: id, file
 * and path as given (NULL for none), value NaN, line and column 0, rule from the printf-style
 * format, and message "file: path: rule" (without the parts that are empty). Returns id. */
pdl_error_id pdl_error_fill(pdl_error* err, pdl_error_id id, const char* file, const char* path, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

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
