/* puddle for WebAssembly: the few C entry points JavaScript cannot call directly.
 *
 * The public API (include/puddle/puddle.h) is exported unchanged wherever its functions take
 * and return only scalars and pointers. What is here covers the rest: functions that return a
 * struct by value or take a pdl_vec3 by value, 64-bit results (JavaScript numbers hold 53
 * bits), and a description of every public struct's fields, so web/src/puddle.js reads and
 * writes defs by name and offsetof() rather than by offsets copied into JavaScript. A field of a
 * def (world, SPH settings, material, boundary, fill, body) appears here from its declaration
 * (puddle/fields.h), one of a scene's emitters, strokes, output or camera from its own
 * (puddle/scene_fields.h). */
#include "puddle/puddle.h"
#include "puddle/scene.h"

#include <emscripten/emscripten.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* How puddle.js reads a field: matches FIELD_TYPES in puddle.js. QUAT is a pdl_quat {x, y, z, w}.
 * The scene layer's structs (read only) add: STR, a char array of `count` bytes; BOOL, one byte;
 * STRUCT, a nested struct of kind `count`; ITEMS, the address of an array of structs of kind
 * `count` (its length is another field); VEC3_ARRAY and I32_ARRAY of `count` elements. */
enum field_type {
	F32 = 1, I32 = 2, U32 = 3, VEC2 = 4, VEC2_ARRAY = 5, F64 = 6, I64 = 7, PTR = 8, VEC3 = 9, QUAT = 10,
	STR = 11, BOOL = 12, STRUCT = 13, ITEMS = 14, VEC3_ARRAY = 15, I32_ARRAY = 16
};

/* Struct kinds, in the order of STRUCT_KINDS in puddle.js (and of `structs` below). */
enum struct_kind {
	WORLD_DEF, MATERIAL_DEF, BOUNDARY_DEF, FILL_DEF, POINTER, PARTICLE_DATA, STATS, PROFILE, ERROR,
	BODY_DEF, BODY_MASS, BODY_FORCE, SCENE, SCENE_MATERIAL, SCENE_FILL, SCENE_BODY, SCENE_EMITTER,
	SCENE_STROKE, SCENE_OUTPUT, CAMERA, SCENE_ERROR, SPH_DEF, DIFFUSE_DATA,
};

typedef struct field {
	const char* name; /* the C field name; NULL ends a table */
	int offset;
	int type;
	int count; /* VEC2_ARRAY: elements */
} field;

#define FIELD(s, f, t) {#f, (int)offsetof(s, f), t, 1}
#define FIELDN(s, f, t, n) {#f, (int)offsetof(s, f), t, n}
#define END {NULL, 0, 0, 0}

/* The world, boundary, fill and body defs as declared (puddle/fields.h): enums and counts as
 * I32, SPIN as VEC3, a polygon's vertices as VEC2_ARRAY. */
#define WASM_DEF_I32 I32, 1
#define WASM_DEF_F32 F32, 1
#define WASM_DEF_ENUM I32, 1
#define WASM_DEF_COUNT I32, 1
#define WASM_DEF_MATERIAL I32, 1
#define WASM_DEF_COLOR U32, 1
#define WASM_DEF_VEC3 VEC3, 1
#define WASM_DEF_SPIN VEC3, 1
#define WASM_DEF_QUAT QUAT, 1
#define WASM_DEF_VERTICES VEC2_ARRAY, PDL_MAX_POLYGON_VERTICES
#define WASM_DEF_PATH VEC3_ARRAY, PDL_SCENE_MAX_STROKE_POINTS
#define DEF_FIELD(S, name, ctype, type, ...) {#name, (int)offsetof(S, name), WASM_DEF_##type},

static const field world_def_fields[] = {
	PDL_WORLD_FIELDS(DEF_FIELD, pdl_world_def)
	FIELDN(pdl_world_def, sph, STRUCT, SPH_DEF),
	END,
};

/* pdl_sph_def as declared (puddle/fields.h); enums as I32 */
#define WASM_F32 F32
#define WASM_I32 I32
#define WASM_ENUM I32
#define SPH_FIELD(A, name, ctype, type, ...) FIELD(pdl_sph_def, name, WASM_##type),
static const field sph_def_fields[] = {
	PDL_SPH_FIELDS(SPH_FIELD, ~)
	END,
};
#undef SPH_FIELD

/* pdl_material_def: its declaration (puddle/fields.h), COLOR as U32 */
#define WASM_COLOR U32
#define MATERIAL_FIELD(A, name, ctype, type, ...) FIELD(pdl_material_def, name, WASM_##type),
static const field material_def_fields[] = {
	PDL_MATERIAL_FIELDS(MATERIAL_FIELD, ~)
	END,
};
#undef MATERIAL_FIELD

static const field boundary_def_fields[] = {PDL_BOUNDARY_FIELDS(DEF_FIELD, pdl_boundary_def) END};

static const field fill_def_fields[] = {PDL_FILL_FIELDS(DEF_FIELD, pdl_fill_def) END};

static const field pointer_fields[] = {PDL_POINTER_FIELDS(DEF_FIELD, pdl_pointer) END};

static const field particle_data_fields[] = {
	FIELD(pdl_particle_data, count, I32),          FIELD(pdl_particle_data, x, PTR),
	FIELD(pdl_particle_data, y, PTR),              FIELD(pdl_particle_data, z, PTR),
	FIELD(pdl_particle_data, vx, PTR),             FIELD(pdl_particle_data, vy, PTR),
	FIELD(pdl_particle_data, vz, PTR),             FIELD(pdl_particle_data, material, PTR),
	FIELD(pdl_particle_data, id, PTR),             FIELD(pdl_particle_data, density, PTR),
	FIELD(pdl_particle_data, pressure, PTR),       FIELD(pdl_particle_data, spring_partner, PTR),
	FIELD(pdl_particle_data, spring_rest, PTR),    FIELD(pdl_particle_data, next_id, U32),
	END,
};

static const field stats_fields[] = {
	FIELD(pdl_stats, particles, I32),          FIELD(pdl_stats, springs, I32),
	FIELD(pdl_stats, steps, I64),              FIELD(pdl_stats, time, F64),
	FIELD(pdl_stats, max_speed, F32),          FIELD(pdl_stats, mean_density_error, F32),
	FIELD(pdl_stats, max_density_error, F32),  FIELD(pdl_stats, mean_neighbours, F32),
	FIELD(pdl_stats, clumped, F32),            FIELD(pdl_stats, non_finite, I32),
	FIELD(pdl_stats, momentum, VEC3),
	FIELD(pdl_stats, centre_of_mass, VEC3),    END,
};

static const field profile_fields[] = {
	FIELD(pdl_profile, step, F32),      FIELD(pdl_profile, forces, F32),
	FIELD(pdl_profile, density, F32), FIELD(pdl_profile, predict, F32),
	FIELD(pdl_profile, springs, F32),   FIELD(pdl_profile, relax, F32),
	FIELD(pdl_profile, boundaries, F32), FIELD(pdl_profile, bodies, F32),
	FIELD(pdl_profile, velocity, F32),  FIELD(pdl_profile, stalled, F32),
	FIELD(pdl_profile, substeps, I32),  FIELD(pdl_profile, density_iterations, I32),
	FIELD(pdl_profile, divergence_iterations, I32), FIELD(pdl_profile, density_solve_error, F32),
	END,
};

static const field body_def_fields[] = {PDL_BODY_FIELDS(DEF_FIELD, pdl_body_def) END};

static const field body_mass_fields[] = {
	FIELD(pdl_body_mass, mass, F32),      FIELD(pdl_body_mass, inertia, VEC3),
	FIELD(pdl_body_mass, particles, I32), FIELD(pdl_body_mass, spacing, F32),
	END,
};

static const field body_force_fields[] = {
	FIELD(pdl_body_force, force, VEC3), FIELD(pdl_body_force, torque, VEC3), END,
};

/* pdl_error, the one error type of the core, the scene layer and the files */
static const field error_fields[] = {
	FIELD(pdl_error, id, I32),
	FIELD(pdl_error, value, F64),
	FIELDN(pdl_error, file, STR, sizeof(((pdl_error*)0)->file)),
	FIELDN(pdl_error, path, STR, sizeof(((pdl_error*)0)->path)),
	FIELD(pdl_error, line, I32),
	FIELD(pdl_error, column, I32),
	FIELDN(pdl_error, rule, STR, sizeof(((pdl_error*)0)->rule)),
	FIELDN(pdl_error, message, STR, sizeof(((pdl_error*)0)->message)),
	END,
};

/* ---- the scene layer (io/include/puddle/scene.h), read by web/src/scene.js ---------------- */

static const field scene_fields[] = {
	FIELDN(pdl_scene, name, STR, sizeof(((pdl_scene*)0)->name)),
	FIELDN(pdl_scene, description, STR, sizeof(((pdl_scene*)0)->description)),
	FIELDN(pdl_scene, world, STRUCT, WORLD_DEF),
	/* the world def's field the web build refuses on (not in world_def_fields: createWorld
	 * makes worlds that step on the processor) */
	{"backend", (int)offsetof(pdl_scene, world.backend), I32, 1},
	FIELD(pdl_scene, bounds_min, VEC3),           FIELD(pdl_scene, bounds_max, VEC3),
	FIELD(pdl_scene, material_count, I32),        FIELDN(pdl_scene, materials, ITEMS, SCENE_MATERIAL),
	FIELD(pdl_scene, has_container, BOOL),        FIELDN(pdl_scene, container, STRUCT, BOUNDARY_DEF),
	FIELD(pdl_scene, obstacle_count, I32),        FIELDN(pdl_scene, obstacles, ITEMS, BOUNDARY_DEF),
	FIELD(pdl_scene, fill_count, I32),            FIELDN(pdl_scene, fills, ITEMS, SCENE_FILL),
	FIELD(pdl_scene, body_count, I32),            FIELDN(pdl_scene, bodies, ITEMS, SCENE_BODY),
	FIELD(pdl_scene, emitter_count, I32),         FIELDN(pdl_scene, emitters, ITEMS, SCENE_EMITTER),
	FIELD(pdl_scene, stroke_count, I32),          FIELDN(pdl_scene, strokes, ITEMS, SCENE_STROKE),
	FIELDN(pdl_scene, output, STRUCT, SCENE_OUTPUT),
	FIELD(pdl_scene, has_camera, BOOL),           FIELDN(pdl_scene, camera, STRUCT, CAMERA),
	END,
};

static const field scene_material_fields[] = {
	FIELDN(pdl_scene_material, name, STR, PDL_SCENE_NAME_MAX + 1),
	FIELDN(pdl_scene_material, def, STRUCT, MATERIAL_DEF), END,
};

static const field scene_fill_fields[] = {
	FIELDN(pdl_scene_fill, def, STRUCT, FILL_DEF), FIELD(pdl_scene_fill, mix_count, I32),
	FIELDN(pdl_scene_fill, mix, I32_ARRAY, PDL_MAX_MATERIALS), END,
};

static const field scene_body_fields[] = {
	FIELDN(pdl_scene_body, def, STRUCT, BODY_DEF), FIELD(pdl_scene_body, count, I32),
	FIELD(pdl_scene_body, step, VEC3), END,
};

/* the scene layer's own objects as declared (puddle/scene_fields.h) */
static const field scene_emitter_fields[] = {PDL_SCENE_EMITTER_FIELDS(DEF_FIELD, pdl_scene_emitter) END};
static const field scene_stroke_fields[] = {PDL_SCENE_STROKE_FIELDS(DEF_FIELD, pdl_scene_stroke) END};
static const field scene_output_fields[] = {PDL_SCENE_OUTPUT_FIELDS(DEF_FIELD, pdl_scene_output) END};
static const field camera_fields[] = {PDL_CAMERA_FIELDS(DEF_FIELD, pdl_camera) END};

/* pdl_diffuse_data: the spray, foam and bubbles of a world (pdl_world_diffuse) */
static const field diffuse_data_fields[] = {
	FIELD(pdl_diffuse_data, count, I32), FIELD(pdl_diffuse_data, x, PTR),    FIELD(pdl_diffuse_data, y, PTR),
	FIELD(pdl_diffuse_data, z, PTR),     FIELD(pdl_diffuse_data, vx, PTR),   FIELD(pdl_diffuse_data, vy, PTR),
	FIELD(pdl_diffuse_data, vz, PTR),    FIELD(pdl_diffuse_data, life, PTR), FIELD(pdl_diffuse_data, kind, PTR),
	FIELDN(pdl_diffuse_data, kind_count, I32_ARRAY, PDL_DIFFUSE_KIND_COUNT), END,
};

static const struct {
	const field* fields;
	int size;
} structs[] = {
	{world_def_fields, sizeof(pdl_world_def)},   {material_def_fields, sizeof(pdl_material_def)},
	{boundary_def_fields, sizeof(pdl_boundary_def)}, {fill_def_fields, sizeof(pdl_fill_def)},
	{pointer_fields, sizeof(pdl_pointer)},       {particle_data_fields, sizeof(pdl_particle_data)},
	{stats_fields, sizeof(pdl_stats)},           {profile_fields, sizeof(pdl_profile)},
	{error_fields, sizeof(pdl_error)},           {body_def_fields, sizeof(pdl_body_def)},
	{body_mass_fields, sizeof(pdl_body_mass)},   {body_force_fields, sizeof(pdl_body_force)},
	{scene_fields, sizeof(pdl_scene)},           {scene_material_fields, sizeof(pdl_scene_material)},
	{scene_fill_fields, sizeof(pdl_scene_fill)}, {scene_body_fields, sizeof(pdl_scene_body)},
	{scene_emitter_fields, sizeof(pdl_scene_emitter)}, {scene_stroke_fields, sizeof(pdl_scene_stroke)},
	{scene_output_fields, sizeof(pdl_scene_output)}, {camera_fields, sizeof(pdl_camera)},
	/* "scene_error": a pdl_error too, with a scratch of its own for the scene calls */
	{error_fields, sizeof(pdl_error)},           {sph_def_fields, sizeof(pdl_sph_def)},
	{diffuse_data_fields, sizeof(pdl_diffuse_data)},
};
enum { STRUCT_KIND_COUNT = sizeof structs / sizeof structs[0] };

EMSCRIPTEN_KEEPALIVE int pdlw_struct_kind_count(void) { return STRUCT_KIND_COUNT; }

EMSCRIPTEN_KEEPALIVE const field* pdlw_struct_fields(int kind)
{
	return kind >= 0 && kind < STRUCT_KIND_COUNT ? structs[kind].fields : NULL;
}

EMSCRIPTEN_KEEPALIVE int pdlw_struct_size(int kind)
{
	return kind >= 0 && kind < STRUCT_KIND_COUNT ? structs[kind].size : 0;
}

EMSCRIPTEN_KEEPALIVE int pdlw_field_size(void) { return (int)sizeof(field); }

EMSCRIPTEN_KEEPALIVE int pdlw_error_message_offset(void) { return (int)offsetof(pdl_error, message); }

/* The defaults of a def kind written to out (world, material, boundary, fill, pointer, body);
 * the other kinds are outputs and have none. */
EMSCRIPTEN_KEEPALIVE void pdlw_defaults(int kind, void* out)
{
	switch (kind) {
	case WORLD_DEF: *(pdl_world_def*)out = pdl_default_world_def(); break;
	case MATERIAL_DEF: *(pdl_material_def*)out = pdl_default_material_def(); break;
	case BOUNDARY_DEF: *(pdl_boundary_def*)out = pdl_default_boundary_def(); break;
	case FILL_DEF: *(pdl_fill_def*)out = pdl_default_fill_def(); break;
	case POINTER: *(pdl_pointer*)out = pdl_default_pointer(); break;
	case BODY_DEF: *(pdl_body_def*)out = pdl_default_body_def(); break;
	default: break;
	}
}

/* ---- by-value results ---------------------------------------------------------------- */

EMSCRIPTEN_KEEPALIVE void pdlw_world_get_def(const pdl_world* world, pdl_world_def* out)
{
	*out = pdl_world_get_def(world);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_get_material(const pdl_world* world, int material,
                                                  pdl_material_def* out)
{
	*out = pdl_world_get_material(world, material);
}

/* Zero-copy: the arrays out->x ... point into the world's own storage (wasm memory). */
EMSCRIPTEN_KEEPALIVE void pdlw_world_particles(const pdl_world* world, pdl_particle_data* out)
{
	*out = pdl_world_particles(world);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_diffuse(const pdl_world* world, pdl_diffuse_data* out)
{
	*out = pdl_world_diffuse(world);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_stats(const pdl_world* world, pdl_stats* out)
{
	*out = pdl_world_stats(world);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_profile(const pdl_world* world, pdl_profile* out)
{
	*out = pdl_world_profile(world);
}

/* ---- pdl_vec3 by value --------------------------------------------------------------- */

/* A circle in 2D worlds (z ignored), a sphere in 3D ones. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_remove_particles_in_circle(pdl_world* world, float x, float y, float z,
                                                                float radius)
{
	return pdl_world_remove_particles_in_circle(world, (pdl_vec3){x, y, z}, radius);
}

/* 2D worlds ignore z and half_depth. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_remove_particles_in_box(pdl_world* world, float x, float y, float z,
                                                             float half_width, float half_height,
                                                             float half_depth)
{
	return pdl_world_remove_particles_in_box(world, (pdl_vec3){x, y, z},
	                                         (pdl_vec3){half_width, half_height, half_depth});
}

/* ---- 64-bit values ------------------------------------------------------------------- */

/* The state hash as 16 hex digits in out (17 bytes), since a JavaScript number cannot hold it. */
EMSCRIPTEN_KEEPALIVE void pdlw_world_hash_hex(const pdl_world* world, char* out)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t h = pdl_world_hash(world);
	for (int i = 15; i >= 0; --i, h >>= 4) out[i] = digits[h & 15];
	out[16] = '\0';
}

EMSCRIPTEN_KEEPALIVE double pdlw_world_step_count(const pdl_world* world)
{
	return (double)pdl_world_step_count(world);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_set_clock(pdl_world* world, double time, double steps)
{
	pdl_world_set_clock(world, time, (long long)steps);
}

/* ---- boundaries: ids as packed ints -------------------------------------------------- */

/* A pdl_boundary_id is a struct, which a wasm export cannot take or return by value;
 * JavaScript holds the packed int of pdl_boundary_id_to_int() instead (-1: no boundary). */

/* The new boundary's packed id, or -1 with *err filled. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_add_boundary(pdl_world* world, const pdl_boundary_def* def, pdl_error* err)
{
	return pdl_boundary_id_to_int(pdl_world_add_boundary(world, def, err));
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_remove_boundary(pdl_world* world, int boundary, pdl_error* err)
{
	return pdl_world_remove_boundary(world, pdl_boundary_id_from_int(boundary), err);
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_get_boundary(const pdl_world* world, int boundary, pdl_boundary_def* out)
{
	return pdl_world_get_boundary(world, pdl_boundary_id_from_int(boundary), out);
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_set_boundary(pdl_world* world, int boundary, const pdl_boundary_def* def,
                                                 pdl_error* err)
{
	return pdl_world_set_boundary(world, pdl_boundary_id_from_int(boundary), def, err);
}

/* The packed id of the boundary in a slot, -1 for an empty slot. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_boundary_in_slot(const pdl_world* world, int slot)
{
	return pdl_boundary_id_to_int(pdl_world_boundary_in_slot(world, slot));
}

/* ---- bodies: ids as packed ints ------------------------------------------------------ */

/* A pdl_body_id is a struct, which a wasm export cannot take or return by value; JavaScript
 * holds the packed int of pdl_body_id_to_int() instead (-1: no body). */

/* The new body's packed id, or -1 with *err filled. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_add_body(pdl_world* world, const pdl_body_def* def, pdl_error* err)
{
	return pdl_body_id_to_int(pdl_world_add_body(world, def, err));
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_remove_body(pdl_world* world, int body, pdl_error* err)
{
	return pdl_world_remove_body(world, pdl_body_id_from_int(body), err);
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_body_valid(const pdl_world* world, int body)
{
	return pdl_world_body_valid(world, pdl_body_id_from_int(body));
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_get_body(const pdl_world* world, int body, pdl_body_def* out)
{
	return pdl_world_get_body(world, pdl_body_id_from_int(body), out);
}

EMSCRIPTEN_KEEPALIVE int pdlw_world_set_body(pdl_world* world, int body, const pdl_body_def* def, pdl_error* err)
{
	return pdl_world_set_body(world, pdl_body_id_from_int(body), def, err);
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_body_mass(const pdl_world* world, int body, pdl_body_mass* out)
{
	*out = pdl_world_body_mass(world, pdl_body_id_from_int(body));
}

EMSCRIPTEN_KEEPALIVE void pdlw_world_body_force(const pdl_world* world, int body, pdl_body_force* out)
{
	*out = pdl_world_body_force(world, pdl_body_id_from_int(body));
}

/* The live bodies' packed ids in slot order, at most capacity of them, written to out; returns
 * how many bodies there are (call again with a larger out when that is more than capacity), or
 * -1 when out of memory. */
EMSCRIPTEN_KEEPALIVE int pdlw_world_bodies(const pdl_world* world, int32_t* out, int capacity)
{
	int total = pdl_world_bodies(world, NULL, 0);
	pdl_body_id* ids = malloc((size_t)(total > 0 ? total : 1) * sizeof *ids);
	if (!ids) return -1;
	pdl_world_bodies(world, ids, total);
	for (int i = 0; i < total && i < capacity; ++i) out[i] = pdl_body_id_to_int(ids[i]);
	free(ids);
	return total;
}

/* ---- the scene layer: what the exports of io's scene.h cannot take ------------------------- */

/* pdl_scene_apply_frame with the frame as a double (a JavaScript number; wasm exports take no
 * 64-bit integers here). */
EMSCRIPTEN_KEEPALIVE int pdlw_scene_apply_frame(const pdl_scene* scene, pdl_world* world, double frame,
                                                pdl_error* err)
{
	return pdl_scene_apply_frame(scene, world, (long long)frame, err);
}
