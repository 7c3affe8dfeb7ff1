/* puddle_io: every field of the scene layer's own objects (emitters, strokes, output, camera),
 * declared once, the way include/puddle/fields.h declares the engine's defs.
 *
 * Each list is an X-macro with fields.h's world, boundary, fill and body columns, X(A, name,
 * ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, key, snap,
 * since, doc), so the helpers that walk those lists walk these too: the struct (puddle/scene.h,
 * puddle/camera.h: PDL_DEF_MEMBER), its defaults (io/src/scene_schema.c, io/src/camera.c:
 * PDL_FIELD_DEFAULT), the scene file's keys and rules (io/src/scene_schema.c), the WebAssembly
 * offset tables (web/src/bindings.c), the Python emitter keywords, and the generated tables of
 * docs/scenes.md and interfaces of web/src/scene.d.ts and web/src/camera.d.ts
 * (io/tests/fields_gen.c; the test io.fields fails when they differ from the lists).
 *
 * What the columns mean here:
 *   error   PDL_ERR_SCENE_VALUE: the id a scene's refusal of the key carries
 *   scale, ui_lo, ui_hi, ui_log  NONE, 0, 0, 0: no panel has sliders for these
 *   shapes  0 (these objects have no shape)
 *   key     KEY(k), KEY_REQUIRED(k), NO_KEY as in fields.h, and KEY_DEFAULT(k, words): a key
 *           whose default depends on other keys (resolved after parsing, scene_parse.c), the
 *           docs' words for it; deflt is then what "not given" is stored as
 *   snap, since  0, 1: a snapshot stores none of these
 *   rule    fields.h's rules; CUSTOM_GT(lo, words), CUSTOM_GE(lo, words) and CUSTOM(~, words)
 *           are a rule the parser checks with other keys (scene_parse.c resolve), the scene
 *           schema checking only > lo, >= lo or finite; IN_EVEN (an integer in [lo, hi], even)
 * Types beyond fields.h's: PATH (pdl_vec3[PDL_SCENE_MAX_STROKE_POINTS], as many as the
 * object's point_count, a COUNT field).
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_SCENE_FIELDS_H
#define PUDDLE_SCENE_FIELDS_H

#include "puddle/base.h"

#define PDL_DEF_MEMBER_PATH(ctype, name) ctype name[PDL_SCENE_MAX_STROKE_POINTS];

/* pdl_scene_emitter, a nozzle that launches rows of particles (scene.h). */
#define PDL_SCENE_EMITTER_FIELDS(X, A)                                                                                 \
	X(A, material, int, MATERIAL, 0, CUSTOM_SHARED, ~, ~, PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0, KEY(material), 0, \
	  1, "the material of the particles it launches")                                                                  \
	X(A, position, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE,  \
	  0, 0, 0, 0, KEY_REQUIRED(position), 0, 1, "centre of the nozzle")                                                \
	X(A, velocity, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), CUSTOM, ~, "must be finite and not [0, 0]",              \
	  PDL_ERR_SCENE_VALUE, "world units / s", NONE, 0, 0, 0, 0, KEY_REQUIRED(velocity), 0, 1,                          \
	  "launch velocity; rows are across it")                                                                           \
	X(A, width, float, F32, 0.0f, CUSTOM_GT, 0, "must be narrow enough for one row within `solver.max_particles`",     \
	  PDL_ERR_SCENE_VALUE, "world units", NONE, 0, 0, 0, 0, KEY_REQUIRED(width), 0, 1, "nozzle width")                 \
	X(A, spacing, float, F32, 0.0f, CUSTOM_GE, 0, "must be 0 (rest spacing) or >= 0.01 h", PDL_ERR_SCENE_VALUE,        \
	  "world units", NONE, 0, 0, 0, 0, KEY(spacing), 0, 1, "particle spacing")                                         \
	X(A, start, float, F32, 0.0f, GE, 0, 0, PDL_ERR_SCENE_VALUE, "s", NONE, 0, 0, 0, 0, KEY(start), 0, 1, "first row") \
	X(A, stop, float, F32, 0.0f, CUSTOM_GT, 0, "must be > start", PDL_ERR_SCENE_VALUE, "s", NONE, 0, 0, 0, 0,          \
	  KEY_REQUIRED(stop), 0, 1, "no rows from then on")

/* pdl_scene_stroke, a scripted pointer (scene.h); its pointer settings default to
 * pdl_default_pointer()'s. */
#define PDL_SCENE_STROKE_FIELDS(X, A)                                                                                  \
	X(A, start, float, F32, 0.0f, GE, 0, 0, PDL_ERR_SCENE_VALUE, "s", NONE, 0, 0, 0, 0, KEY(start), 0, 1,              \
	  "when the stroke begins")                                                                                        \
	X(A, end, float, F32, 0.0f, CUSTOM_GT, 0, "must be > start", PDL_ERR_SCENE_VALUE, "s", NONE, 0, 0, 0, 0,           \
	  KEY_REQUIRED(end), 0, 1, "when it ends")                                                                         \
	X(A, point_count, int, COUNT, 0, ANY, 0, 0, PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0, NO_KEY, 0, 1,               \
	  "how many of `points` the path has")                                                                             \
	X(A, points, pdl_vec3, PATH, {{0}}, FINITE, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE, 0, 0, 0, 0,            \
	  KEY_REQUIRED(points), 0, 1, "the path; one point = a pointer held still")                                        \
	X(A, radius, float, F32, pdl_default_pointer().radius, GT, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE, 0, 0,   \
	  0, 0, KEY(radius), 0, 1, "reach; the effect falls off linearly to 0 at the edge")                                \
	X(A, strength, float, F32, pdl_default_pointer().strength, FINITE, 0, 0, PDL_ERR_SCENE_VALUE, "world units / s^2", \
	  NONE, 0, 0, 0, 0, KEY(strength), 0, 1, "acceleration toward the pointer at its centre; negative pushes away")    \
	X(A, drag, float, F32, pdl_default_pointer().drag, GE, 0, 0, PDL_ERR_SCENE_VALUE, "1/s", NONE, 0, 0, 0, 0,         \
	  KEY(drag), 0, 1, "how strongly particles are pulled to the pointer's velocity")

/* pdl_scene_output, the defaults of pictures and video (scene.h). */
#define PDL_SCENE_OUTPUT_FIELDS(X, A)                                                                                  \
	X(A, width, int, I32, 800, IN_EVEN, 16, 8192, PDL_ERR_SCENE_VALUE, "pixels", NONE, 0, 0, 0, 0, KEY(width), 0, 1,   \
	  "picture width")                                                                                                 \
	X(A, height, int, I32, 0, IN_EVEN, 16, 8192, PDL_ERR_SCENE_VALUE, "pixels", NONE, 0, 0, 0, 0,                      \
	  KEY_DEFAULT(height, "`width` times the bounds' aspect ratio (3D: 9/16), rounded to even"), 0, 1,                 \
	  "picture height (even: H.264 yuv420p needs it)")                                                                 \
	X(A, fps, float, F32, 0.0f, IN_LO_OPEN, 0, 240, PDL_ERR_SCENE_VALUE, "frames / s", NONE, 0, 0, 0, 0,               \
	  KEY_DEFAULT(fps, "`1 / dt` (at most 240)"), 0, 1,                                                                \
	  "video frame rate; a video frame is taken every round(1 / (fps dt)) frames")                                     \
	X(A, seconds, float, F32, 10.0f, IN_LO_OPEN, 0, 86400, PDL_ERR_SCENE_VALUE, "s", NONE, 0, 0, 0, 0, KEY(seconds),   \
	  0, 1, "default run length, simulated seconds")                                                                   \
	X(A, background, uint32_t, COLOR, 0x10161fu, ANY, 0, 0, PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0,                 \
	  KEY(background), 0, 1, "colour inside the container")                                                            \
	X(A, wall_color, uint32_t, COLOR, 0x2b3440u, ANY, 0, 0, PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0,                 \
	  KEY(wall_color), 0, 1, "colour outside the container")                                                           \
	X(A, obstacle_color, uint32_t, COLOR, 0x6b7686u, ANY, 0, 0, PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0,             \
	  KEY(obstacle_color), 0, 1, "colour of obstacles")                                                                \
	X(A, color_mode, pdl_color_mode, ENUM, PDL_COLOR_MATERIAL, ENUM, PDL_COLOR_MODE_COUNT,                             \
	  "must be \"material\", \"speed\", \"density\" or \"pressure\"", PDL_ERR_SCENE_VALUE, "", NONE, 0, 0, 0, 0,       \
	  KEY(color_mode), 0, 1, "how the fluid is coloured")                                                              \
	X(A, blob_radius, float, F32, 0.0f, GT, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE, 0, 0, 0, 0,                \
	  KEY_DEFAULT(blob_radius, "`solver.interaction_radius`"), 0, 1, "radius of each particle's soft splat")           \
	X(A, threshold, float, F32, 0.5f, IN_LO_OPEN, 0, 4, PDL_ERR_SCENE_VALUE, "splats", NONE, 0, 0, 0, 0,               \
	  KEY(threshold), 0, 1, "surface level of the summed field; a lone particle's centre is 1")                        \
	X(A, color_min, float, F32, 0.0f, FINITE, 0, 0, PDL_ERR_SCENE_VALUE,                                               \
	  "unit of the mode (world units / s, kernel sum, pressure)", NONE, 0, 0, 0, 0, KEY(color_min), 0, 1,              \
	  "bottom of the ramp of the scalar modes; equal `color_min` and `color_max` take the range from each frame")      \
	X(A, color_max, float, F32, 0.0f, FINITE, 0, 0, PDL_ERR_SCENE_VALUE,                                               \
	  "unit of the mode (world units / s, kernel sum, pressure)", NONE, 0, 0, 0, 0, KEY(color_max), 0, 1,              \
	  "top of that ramp")

/* pdl_camera, the orbit camera of 3D scenes (camera.h); its defaults are pdl_default_camera()'s,
 * a scene's those of pdl_camera_framing(bounds). */
#define PDL_CAMERA_FIELDS(X, A)                                                                                        \
	X(A, target, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE, 0, \
	  0, 0, 0, KEY_DEFAULT(target, "centre of the bounds"), 0, 1, "the point looked at and orbited")                   \
	X(A, yaw, float, F32, 30.0f, FINITE, 0, 0, PDL_ERR_SCENE_VALUE, "degrees", NONE, 0, 0, 0, 0, KEY(yaw), 0, 1,       \
	  "about +y: 0 puts the camera on the +z side looking to -z, 90 on the +x side")                                   \
	X(A, pitch, float, F32, 25.0f, IN, -89, 89, PDL_ERR_SCENE_VALUE, "degrees", NONE, 0, 0, 0, 0, KEY(pitch), 0, 1,    \
	  "above the horizon; positive looks down on the target")                                                          \
	X(A, distance, float, F32, 40.0f, GT, 0, 0, PDL_ERR_SCENE_VALUE, "world units", NONE, 0, 0, 0, 0,                  \
	  KEY_DEFAULT(distance, "the framing's"), 0, 1, "from the target")                                                 \
	X(A, fov, float, F32, 45.0f, IN, 5, 120, PDL_ERR_SCENE_VALUE, "degrees", NONE, 0, 0, 0, 0, KEY(fov), 0, 1,         \
	  "vertical field of view")

#endif
