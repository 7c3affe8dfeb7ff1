/* Internal: the scene file schema as tables. One table per JSON object lists its keys, where
 * each value lives in the C structs, its type and its rule. The parser (scene_parse.c) and the
 * writer (scene_json.c) both walk these tables, so a key can only be read and written the same
 * way, and docs/scenes.md is checked against them by the tests. */
#ifndef PUDDLE_IO_SCENE_SCHEMA_H
#define PUDDLE_IO_SCENE_SCHEMA_H

#include "puddle/scene.h"

#include <stddef.h>

typedef enum field_type {
	FT_FLOAT,    /* float */
	FT_INT,      /* int, integral JSON number */
	FT_VEC,      /* pdl_vec3 from [x, y] in a 2D scene (z kept), [x, y, z] in a 3D scene */
	FT_COLOR,    /* uint32_t 0xRRGGBB from "#rrggbb" */
	FT_TEXT,     /* char[text_size] */
	FT_ENUM,     /* int from one of names[], stored as base + index */
	FT_MATERIAL, /* int material index from a material name */
	FT_POINTS,   /* pdl_vec2[max_points] from [[x, y], ...], count stored at count_offset (polygons) */
	FT_PATH,     /* pdl_vec3[max_points] from [[x, y], ...] (2D) or [[x, y, z], ...] (3D), count as FT_POINTS */
	FT_MATERIALS, /* int[] material indices from an array of names, count stored at count_offset */
	FT_QUAT,     /* pdl_quat from [x, y, z, w] */
	FT_SPIN,     /* pdl_vec3 angular velocity: one number (about z) in a 2D scene, [x, y, z] in a 3D scene */
} field_type;

enum {
	FR_LO_OPEN = 1,  /* lo itself is not allowed: "> lo" */
	FR_HI_OPEN = 2,  /* hi itself is not allowed: "< hi" */
	FR_REQUIRED = 4, /* the key must be present (for the shapes that use it) */
	FR_EVEN = 8,     /* integers: must be even */
	FR_OMIT_EMPTY = 16, /* lists: not written back when empty */
	FR_2D_ONLY = 32, /* refused in 3D scenes (and not written there) */
	FR_3D_ONLY = 64, /* refused in 2D scenes (and not written there) */
};

typedef struct scene_field {
	const char* key;
	field_type type;
	size_t offset;
	double lo, hi; /* numbers: the allowed range; points: the allowed count */
	unsigned flags;
	/* FT_ENUM */
	const char* const* names;
	int name_count, base;
	/* FT_TEXT: buffer size; FT_POINTS, FT_MATERIALS: offset of the int count */
	size_t size;
	/* bit s set: the key is used when the object's shape is s (index into its shape names);
	 * 0: used by every shape */
	unsigned shapes;
	/* FT_ENUM: the names in 3D scenes, parallel to names; NULL: the same as names. A NULL
	 * entry is a 2D-only value. Each name of one list is accepted in the other dimension too as
	 * a synonym ("sphere" is "circle" in 2D, "circle" is "sphere" in 3D), except 2D-only ones. */
	const char* const* names_3d;
	/* FR_2D_ONLY, FR_3D_ONLY: what the other dimension uses instead, for the refusal
	 * ("is used by 2D scenes only (3D bodies turn by \"orientation\")") */
	const char* other_dimension;
	/* a scene's own key among a def's declared keys: written (and documented) right after the
	 * key named here, so that files keep their order */
	const char* after;
} scene_field;

/* One kind of JSON object. If shape_key is set, that key is parsed first and decides which
 * other keys apply. */
typedef struct scene_object {
	const char* name; /* "material", for messages */
	const scene_field* fields;
	int field_count;
	int shape_field; /* index of the "shape" field, or -1 */
} scene_object;

extern const scene_object pdl_schema_world;
extern const scene_object pdl_schema_bounds;
extern const scene_object pdl_schema_solver;
extern const scene_object pdl_schema_material;
extern const scene_object pdl_schema_container;
extern const scene_object pdl_schema_obstacle;
extern const scene_object pdl_schema_fill;
extern const scene_object pdl_schema_body;
extern const scene_object pdl_schema_emitter;
extern const scene_object pdl_schema_stroke;
extern const scene_object pdl_schema_output;
extern const scene_object pdl_schema_camera;
extern const scene_object pdl_schema_diffuse;

/* The top-level keys, in the order the writer puts them. */
extern const char* const pdl_schema_top_keys[];
extern const int pdl_schema_top_key_count;

/* Scene defaults before any key is read (world, solver and output defaults; no materials). */
void pdl_schema_scene_defaults(pdl_scene* scene);
/* Defaults of one list item (index i, for per-index colours). */
pdl_scene_material pdl_schema_material_default(int index);
pdl_boundary_def pdl_schema_container_default(void);
pdl_boundary_def pdl_schema_obstacle_default(void);
pdl_scene_fill pdl_schema_fill_default(void);
pdl_scene_body pdl_schema_body_default(void);
pdl_scene_emitter pdl_schema_emitter_default(void);
pdl_scene_stroke pdl_schema_stroke_default(void);

/* The name of enum value index i in a scene of `dimensions` (2 or 3); NULL for a 2D-only value in
 * 3D. */
const char* pdl_schema_enum_name(const scene_field* f, int i, int dimensions);

/* Whether a scene of `dimensions` (2 or 3) uses the field (FR_2D_ONLY, FR_3D_ONLY). */
bool pdl_schema_in_dimensions(const scene_field* f, int dimensions);

/* The shape index (into the field's names) of a stored shape value, or -1. */
int pdl_schema_shape_index(const scene_object* object, const void* base);

/* The rule of a number field in words: "must be > 0", "must be in [1, 64]". */
void pdl_schema_rule_text(const scene_field* f, char* out, size_t size);

/* "#2a7fd4" */
void pdl_schema_color_text(uint32_t color, char out[8]);

/* (scene_world.c) Adds the scene's bodies to w, entries in order, each entry's copies in order.
 * On a refusal returns false with the entry and copy refused and the engine's error, so that the
 * parser and pdl_scene_build_world() can each name the path their way. */
bool pdl_schema_add_bodies(const pdl_scene* s, pdl_world* w, int* entry, int* copy, pdl_error* e);

/* Particles in the first (widest) row of emitters[i], in double: the parser refuses a width
 * whose one row is more than max_particles (scene_world.c). */
double pdl_scene_emitter_row_particles(const pdl_scene* s, int i);

/* (scene_world.c) Whether the fills and emitters lie inside the container (or world.bounds when
 * there is none), no fill lies wholly inside an obstacle and no obstacle wholly outside the
 * container. On a refusal returns false with the key ("fills[2].position") and the rule with the
 * value given ("must put the fill's particles inside the container, got [100, 100]"). */
bool pdl_schema_check_placement(const pdl_scene* s, char* path, size_t path_size, char* rule, size_t rule_size);

/* The lightest a 3D body may be, relative to the fluid (scene_parse.c says why). A float, as
 * the density is stored: 1e-6 in a scene file is then this bound, not a refusal below it. */
#define PDL_SCENE_MIN_BODY_DENSITY_3D 1e-6f

#endif
