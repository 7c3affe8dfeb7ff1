/* puddle_io: scene files. A scene is one JSON file that says everything a run needs: the world,
 * the solver, materials, the container, obstacles, initial fills, rigid bodies, emitters,
 * scripted pointer strokes and the output defaults. docs/scenes.md lists every key with its unit, default and
 * range; the command line, the native viewer and the web page read the same files.
 *
 *     pdl_error err;
 *     pdl_scene* scene = pdl_scene_load("scenes/blobs.json", &err);
 *     if (!scene) { fprintf(stderr, "%s\n", err.message); return 2; }
 *     pdl_world* world = pdl_scene_build_world(scene, &err);
 *     for (long long frame = 0; frame < 600; ++frame) {
 *         pdl_scene_apply_frame(scene, world, frame, NULL); // emitters, strokes
 *         pdl_world_step(world);
 *     }
 *     pdl_world_destroy(world);
 *     pdl_scene_destroy(scene);
 *
 * A pdl_scene is plain data, fully resolved: every default is filled in and every value has
 * passed its rule, so readers can use the fields directly. Treat it as read-only except through
 * the functions here.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_SCENE_H
#define PUDDLE_SCENE_H

#include "puddle/camera.h"
#include "puddle/puddle.h"
#include "puddle/scene_fields.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most obstacles, fills and emitters one scene can list. */
#define PDL_SCENE_MAX_OBSTACLES 64
#define PDL_SCENE_MAX_FILLS 64
#define PDL_SCENE_MAX_EMITTERS 16
/** Most entries of "bodies"; with their copies they make at most PDL_MAX_BODIES bodies too. */
#define PDL_SCENE_MAX_BODIES PDL_MAX_BODIES
/** One stroke per pointer slot of the world. */
#define PDL_SCENE_MAX_STROKES PDL_MAX_POINTERS
/** Most points of one stroke's path. */
#define PDL_SCENE_MAX_STROKE_POINTS 64
/** Longest material name, without the terminating zero. */
#define PDL_SCENE_NAME_MAX 31

/** How pictures colour the fluid. */
typedef enum pdl_color_mode {
	PDL_COLOR_MATERIAL = 0, /**< each material's colour, blended where materials meet */
	PDL_COLOR_SPEED,        /**< |v| on a colour ramp */
	PDL_COLOR_DENSITY,      /**< kernel density rho on a colour ramp */
	PDL_COLOR_PRESSURE,     /**< pressure k (rho - rho0) on a colour ramp */
	PDL_COLOR_MODE_COUNT
} pdl_color_mode;

/** A material with its scene name. */
typedef struct pdl_scene_material {
	char name[PDL_SCENE_NAME_MAX + 1];
	pdl_material_def def;
} pdl_scene_material;

/** An initial fill: the engine's fill def (its material is also the one whose rest spacing
 * spacing = 0 uses), and optionally a mix: particle k of the fill gets material mix[k % mix_count]
 * instead, so several materials start stirred together (the Rust stratification demo's
 * start). */
typedef struct pdl_scene_fill {
	pdl_fill_def def;
	int mix_count; /**< 0: every particle is def.material */
	int mix[PDL_MAX_MATERIALS];
} pdl_scene_fill;

/** An entry of "bodies": a rigid body and `count` copies of it in a row, copy k at
 * def.position + k * step (float arithmetic: pdl_scene_body_copy()), added before the fills
 * (which leave the bodies' space: pdl_world_fill) in file order, copies one after the other. */
typedef struct pdl_scene_body {
	pdl_body_def def;
	int count;     /**< copies, [1, PDL_MAX_BODIES] */
	pdl_vec3 step; /**< from one copy to the next, world units (2D: z = 0) */
} pdl_scene_body;

/** A source of new particles: rows of particles across `width`, launched at `velocity`, from
 * `start` to `stop` seconds of scene time. Rows are spaced so that the stream is at rest density;
 * which rows a frame adds depends only on the frame number, so runs and resumed runs agree.
 * In 2D a row is a line of particles across the velocity; in 3D it is a square of side `width`
 * across the velocity (a square nozzle), and successive rows are the layers of a face-centred
 * cubic lattice (odd rows shifted by half a spacing along both sides of the square). Its fields,
 * with units, defaults and rules, are declared in puddle/scene_fields.h (PDL_SCENE_EMITTER_FIELDS);
 * positions and velocities have z = 0 in 2D. */
typedef struct pdl_scene_emitter {
	PDL_SCENE_EMITTER_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_scene_emitter;

/** A scripted pointer stroke: the pointer moves along `points` at constant speed from `start`
 * to `end` seconds, with the pdl_pointer settings radius, strength and drag. Its velocity is
 * the path speed, so drag carries the fluid along. Stroke k drives world pointer k. Its fields
 * are declared in puddle/scene_fields.h (PDL_SCENE_STROKE_FIELDS); 2D points have z = 0. */
typedef struct pdl_scene_stroke {
	PDL_SCENE_STROKE_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_scene_stroke;

/** Defaults for pictures and video (the command line can override size and length). Its fields
 * are declared in puddle/scene_fields.h (PDL_SCENE_OUTPUT_FIELDS). */
typedef struct pdl_scene_output {
	PDL_SCENE_OUTPUT_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_scene_output;

typedef struct pdl_scene {
	char name[64];          /**< "blobs"; defaults to the file name without .json */
	char source[256];       /**< the file name it was loaded from, for messages */
	char description[512];  /**< free text */
	/** h, dt, substeps, gravity, threads, max_particles. */
	pdl_world_def world;
	/** The region of interest: pictures frame it, and particles outside it count as lost.
	 * Defaults to the container's bounding box grown by 2% (required without a container).
	 * 3D scenes use z too; 2D scenes keep z = 0. */
	pdl_vec3 bounds_min, bounds_max;
	int material_count;
	pdl_scene_material materials[PDL_MAX_MATERIALS];
	bool has_container;
	pdl_boundary_def container; /**< PDL_BOUNDARY_CIRCLE_CONTAINER or _BOX_CONTAINER */
	int obstacle_count;
	pdl_boundary_def obstacles[PDL_SCENE_MAX_OBSTACLES]; /**< CIRCLE, BOX or POLYGON */
	int fill_count;
	pdl_scene_fill fills[PDL_SCENE_MAX_FILLS];
	/** Entries of "bodies"; their copies together (pdl_scene_body_total()) are at most
	 * PDL_MAX_BODIES. */
	int body_count;
	pdl_scene_body bodies[PDL_SCENE_MAX_BODIES];
	int emitter_count;
	pdl_scene_emitter emitters[PDL_SCENE_MAX_EMITTERS];
	int stroke_count;
	pdl_scene_stroke strokes[PDL_SCENE_MAX_STROKES];
	pdl_scene_output output;
	/** 3D scenes: the orbit camera of pictures and the viewer, always resolved (keys the file
	 * does not give come from pdl_camera_framing(bounds_min, bounds_max)); has_camera says
	 * whether the file had a "camera" object. 2D scenes: zero and false. */
	bool has_camera;
	pdl_camera camera;
	/** Spray, foam and bubbles ("diffuse"; off unless the file turns them on): set on the world
	 * by pdl_scene_build_world(). They never change the fluid, so they are not part of
	 * pdl_scene_hash(). */
	pdl_diffuse_def diffuse;
} pdl_scene;

/* Why a scene was refused: a pdl_error (puddle/base.h). Its message is the whole line a person
 * reads, e.g. "scenes/x.json: materials[1].rest_density: must be > 0, got -3", and the parts
 * are kept apart so tools (the viewer, tests) can point at the field: file (the name given to
 * load or parse), path (the JSON path; "" for syntax errors and for the file as a whole), rule
 * ("must be > 0, got -3"), line and column (of a JSON syntax error). The id says what failed:
 * PDL_ERR_FILE_OPEN, _READ, _SIZE, PDL_ERR_SCENE_SYNTAX, PDL_ERR_SCENE_KEY (an unknown key),
 * PDL_ERR_SCENE_VALUE (a value against its rule), or the engine's own id where building the
 * world refused a value. */

/** Reads and validates a scene file. Returns NULL and fills err (if given) on any problem:
 * unreadable file, broken JSON, unknown key, wrong type, value out of range, too many
 * particles. */
pdl_scene* pdl_scene_load(const char* path, pdl_error* err);
/** The same from text in memory; `file` names it in messages and gives the default name. */
pdl_scene* pdl_scene_parse(const char* json, size_t length, const char* file, pdl_error* err);
void pdl_scene_destroy(pdl_scene* scene);
pdl_scene* pdl_scene_clone(const pdl_scene* scene);

/** The resolved scene as JSON text, every default written out, in the file format (parsing it
 * gives the same scene). Caller frees with free(). NULL if out of memory. */
char* pdl_scene_to_json(const pdl_scene* scene);
/** FNV-1a hash of the parts of the resolved scene that change the simulation (all but name,
 * description, solver.threads and output): a snapshot records it so that a run is resumed only
 * with the scene it was made from. */
uint64_t pdl_scene_hash(const pdl_scene* scene);

/** Index of the material with this name, or -1. */
int pdl_scene_find_material(const pdl_scene* scene, const char* name);

/** Makes the world: materials, container, obstacles, the bodies, then the fills (which leave the
 * bodies' space). NULL and err on failure. */
pdl_world* pdl_scene_build_world(const pdl_scene* scene, pdl_error* err);

/** Scripted events for frame `frame` (0, 1, ...), to call before the frame's pdl_world_step():
 * emitters add their rows, strokes set or clear their pointers. Scene time of a frame is
 * frame * world.dt. Depends only on the frame number, so a resumed run repeats it exactly.
 * Returns the particles added, or -1 with err filled (too many particles). */
int pdl_scene_apply_frame(const pdl_scene* scene, pdl_world* world, long long frame,
                          pdl_error* err);

/** Copy k (0 .. count - 1) of a body entry: its def at position + k * step, each coordinate
 * rounded to float as the web page's scene loader computes it, so both build the same world. */
pdl_body_def pdl_scene_body_copy(const pdl_scene_body* body, int k);
/** The bodies the scene adds: every entry's count, summed. */
int pdl_scene_body_total(const pdl_scene* scene);

/** Frames (world steps) in `seconds` of scene time: round(seconds / dt), at least 1. */
long long pdl_scene_frames_for(const pdl_scene* scene, double seconds);

/** Particles the fills make plus all that the emitters will add, without making them. */
double pdl_scene_estimate_particles(const pdl_scene* scene);

/** Scales every length of the scene (bounds, container, obstacles, fills, bodies and their
 * steps, emitters, strokes, the camera's target and distance) by `factor` about the origin, keeping h, so the same fluid fills
 * a larger or smaller tank with about factor^2 (3D: factor^3) as many particles. Sunflower
 * counts scale by factor^2. An SPH scene's speed
 * of sound scales by sqrt(factor), as flow speeds do, so its Mach number and density error stay
 * the same; so do the diffuse particles' trapped-air thresholds (their kinetic-energy ones by
 * factor). Used by `puddle bench --particles`. */
void pdl_scene_scale(pdl_scene* scene, float factor);
/** Scales the scene so that pdl_scene_estimate_particles() is about `particles`, and raises
 * world.max_particles to twice that where it is less (up to 2^26), so the rescaled scene builds.
 * Returns the factor used. */
float pdl_scene_scale_to_particles(pdl_scene* scene, double particles);
/** The overrides every front end offers, applied the same way in each (`puddle run`, `bench`,
 * `soak`, the MPI run, the viewer): particles > 0 rescales the scene to about that many
 * (pdl_scene_scale_to_particles), threads >= 0 replaces world.threads (0: one per core).
 * Before pdl_scene_hash() and pdl_scene_build_world(). */
void pdl_scene_override(pdl_scene* scene, double particles, int threads);

/** Names for enums as they appear in scene files. The shape names are the 2D ones ("disc",
 * "circle"); the _3d forms give the 3D ones ("ball", "sphere"). */
const char* pdl_color_mode_name(pdl_color_mode mode);
const char* pdl_scene_fill_shape_name(pdl_fill_shape shape);
const char* pdl_scene_boundary_shape_name(pdl_boundary_kind kind);
const char* pdl_scene_fill_shape_name_3d(pdl_fill_shape shape);
const char* pdl_scene_boundary_shape_name_3d(pdl_boundary_kind kind);
/** "cpu", "cuda" (solver.backend); NULL for a value out of range. */
const char* pdl_scene_backend_name(pdl_backend backend);

#ifdef __cplusplus
}
#endif

#endif
