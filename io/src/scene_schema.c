/* The scene file schema: every key of every object, its C field, type and rule. docs/scenes.md
 * is the same list in prose; io/tests/test_scene.c checks that every key here is documented.
 * And the scene's own lifetime (one flat struct: freed with free, copied with memcpy), below the
 * parser (scene_parse.c), the world building (scene_world.c) and the writer (scene_json.c),
 * which all copy or free scenes. */
#include "scene_schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INF HUGE_VAL
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* a key of the scene's own: NUM(key, type, struct, member, lo, hi, flags) */
#define NUM(k, t, s, m, lo, hi, fl) {k, t, offsetof(s, m), lo, hi, fl, NULL, 0, 0, 0, 0, NULL}
/* A field declared in puddle/fields.h: its key type and range from its rule and limits
 * (LO_rule(lo, hi, ...), HI_rule(lo, hi, ...)). */
#define FT_OF_F32 FT_FLOAT
#define FT_OF_I32 FT_INT
#define FT_OF_COLOR FT_COLOR
#define FT_OF_ENUM FT_ENUM
#define LO_GT(lo, ...) (lo)
#define LO_GE(lo, ...) (lo)
#define LO_FINITE(lo, ...) (-INF)
#define LO_IN(lo, ...) (lo)
#define LO_IN_LO_OPEN(lo, ...) (lo)
#define LO_ANY(lo, ...) 0
#define LO_ENUM(lo, ...) 0
#define HI_GT(lo, ...) INF
#define HI_GE(lo, ...) INF
#define HI_FINITE(lo, ...) INF
#define HI_IN(lo, hi, ...) (hi)
#define HI_IN_LO_OPEN(lo, hi, ...) (hi)
#define HI_ANY(lo, ...) 0
#define HI_ENUM(lo, ...) 0
#define FLAGS_GT FR_LO_OPEN
#define FLAGS_GE 0
#define FLAGS_FINITE 0
#define FLAGS_IN 0
#define FLAGS_IN_LO_OPEN FR_LO_OPEN
#define FLAGS_ANY 0
#define FLAGS_ENUM 0
/* the world, boundary, fill and body lists' rules and types */
#define FT_OF_VEC3 FT_VEC
#define FT_OF_SPIN FT_SPIN
#define FT_OF_QUAT FT_QUAT
#define FT_OF_VERTICES FT_POINTS
#define FT_OF_MATERIAL FT_MATERIAL
#define LO_GT_LE(lo, ...) (lo)
#define LO_FINITE_IN_LO_OPEN(lo, ...) (lo)
#define LO_DIMENSIONS(lo, ...) (lo)
#define LO_AT_LEAST(lo, ...) (lo)
#define LO_EXTENTS(lo, ...) 0
#define LO_CUSTOM(lo, ...) (-INF)
#define LO_CUSTOM_GT(lo, ...) (lo)
#define LO_CUSTOM_GE(lo, ...) (lo)
#define LO_CUSTOM_SHARED(lo, ...) 0
#define HI_GT_LE(lo, hi, ...) (hi)
#define HI_FINITE_IN_LO_OPEN(lo, hi, ...) (hi)
#define HI_DIMENSIONS(lo, hi, ...) (hi)
#define HI_AT_LEAST(lo, hi, ...) (hi)
#define HI_EXTENTS(lo, ...) INF
#define HI_CUSTOM(lo, ...) INF
#define HI_CUSTOM_GT(lo, ...) INF
#define HI_CUSTOM_GE(lo, ...) INF
#define HI_CUSTOM_SHARED(lo, ...) 0
#define FLAGS_GT_LE FR_LO_OPEN
#define FLAGS_FINITE_IN_LO_OPEN FR_LO_OPEN
#define FLAGS_DIMENSIONS 0
#define FLAGS_AT_LEAST 0
#define FLAGS_EXTENTS FR_LO_OPEN
#define FLAGS_CUSTOM 0
#define FLAGS_CUSTOM_GT FR_LO_OPEN
#define FLAGS_CUSTOM_GE 0
#define FLAGS_CUSTOM_SHARED 0
/* the scene layer's own lists (puddle/scene_fields.h) */
#define FT_OF_PATH FT_PATH
#define LO_IN_EVEN(lo, ...) (lo)
#define HI_IN_EVEN(lo, hi, ...) (hi)
#define FLAGS_IN_EVEN FR_EVEN
/* A polygon's vertices: 3 to 16 points, their count in the def's vertex_count. */
#define RANGE_OF(type, rule, lo, hi) RANGE_OF_##type(rule, lo, hi)
#define RANGE_OF_F32(rule, lo, hi) LO_##rule(lo, hi, ~), HI_##rule(lo, hi, ~)
#define RANGE_OF_I32 RANGE_OF_F32
#define RANGE_OF_ENUM RANGE_OF_F32
#define RANGE_OF_COLOR RANGE_OF_F32
#define RANGE_OF_VEC3 RANGE_OF_F32
#define RANGE_OF_SPIN RANGE_OF_F32
#define RANGE_OF_QUAT RANGE_OF_F32
#define RANGE_OF_MATERIAL RANGE_OF_F32
#define RANGE_OF_VERTICES(rule, lo, hi) 3, PDL_MAX_POLYGON_VERTICES
/* A stroke's path: 1 to PDL_SCENE_MAX_STROKE_POINTS points, their count in point_count. */
#define RANGE_OF_PATH(rule, lo, hi) 1, PDL_SCENE_MAX_STROKE_POINTS
#define SIZE_OF(S, AT, type) SIZE_OF_##type(S, AT)
#define SIZE_OF_F32(S, AT) 0
#define SIZE_OF_I32 SIZE_OF_F32
#define SIZE_OF_ENUM SIZE_OF_F32
#define SIZE_OF_COLOR SIZE_OF_F32
#define SIZE_OF_VEC3 SIZE_OF_F32
#define SIZE_OF_SPIN SIZE_OF_F32
#define SIZE_OF_QUAT SIZE_OF_F32
#define SIZE_OF_MATERIAL SIZE_OF_F32
#define SIZE_OF_VERTICES(S, AT) offsetof(S, AT vertex_count)
#define SIZE_OF_PATH(S, AT) offsetof(S, AT point_count)

/* A key of a def declared in puddle/fields.h, in the scene object O (world, solver, container,
 * obstacle, fill, body): the key column KEY(k) and its kin name the objects that take it and
 * its flags (NONE: no key); O##_STRUCT and O##_AT say where the def lies, O##_BASE and O##_MASK
 * turn the def's shape mask into the object's shape indices, and an enum's names are
 * O##_##name##_NAMES (and _NAMES_3D, NULL when the same). */
#define NO_KEY NONE, ~, 0, NULL
#define KEY(k) ALL, k, 0, NULL
#define KEY_REQUIRED(k) ALL, k, FR_REQUIRED, NULL
#define KEY_2D(k, other) ALL, k, FR_2D_ONLY, other
#define KEY_3D(k, other) ALL, k, FR_3D_ONLY, other
#define OBSTACLE_KEY(k) OBSTACLE, k, 0, NULL
#define OBSTACLE_KEY_REQUIRED(k) OBSTACLE, k, FR_REQUIRED, NULL
#define WORLD_KEY(k) WORLD, k, 0, NULL
#define SOLVER_KEY(k) SOLVER, k, 0, NULL
#define KEY_DEFAULT(k, words) ALL, k, 0, NULL
#define DEF_KEY(O, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, key, ...) \
	DEF_KEY_(O, name, type, rule, lo, hi, shapes, key)
#define DEF_KEY_(...) DEF_KEY_AT(__VA_ARGS__)
#define DEF_KEY_AT(O, name, type, rule, lo, hi, shapes, where, k, flags, other)                                        \
	IN_##where##_##O({#k, FT_OF_##type, offsetof(O##_STRUCT, O##_AT name), RANGE_OF(type, rule, lo, hi),             \
	                  FLAGS_##rule | (flags), NAMES_##type(O, name), SIZE_OF(O##_STRUCT, O##_AT, type),                      \
	                  ((shapes) >> O##_BASE) & O##_MASK, NAMES_3D_##type(O, name), other})
#define NAMES_ENUM(O, name) O##_##name##_NAMES, COUNT(O##_##name##_NAMES), O##_##name##_BASE
#define NAMES_3D_ENUM(O, name) O##_##name##_NAMES_3D
#define NAMES_F32(O, name) NULL, 0, 0
#define NAMES_3D_F32(O, name) NULL
#define NAMES_I32 NAMES_F32
#define NAMES_COLOR NAMES_F32
#define NAMES_VEC3 NAMES_F32
#define NAMES_SPIN NAMES_F32
#define NAMES_QUAT NAMES_F32
#define NAMES_VERTICES NAMES_F32
#define NAMES_MATERIAL NAMES_F32
#define NAMES_PATH NAMES_F32
#define NAMES_3D_I32 NAMES_3D_F32
#define NAMES_3D_COLOR NAMES_3D_F32
#define NAMES_3D_VEC3 NAMES_3D_F32
#define NAMES_3D_SPIN NAMES_3D_F32
#define NAMES_3D_QUAT NAMES_3D_F32
#define NAMES_3D_VERTICES NAMES_3D_F32
#define NAMES_3D_MATERIAL NAMES_3D_F32
#define NAMES_3D_PATH NAMES_3D_F32
#define KEEP(...) __VA_ARGS__,
#define DROP(...)
#define IN_NONE_world DROP
#define IN_NONE_solver DROP
#define IN_NONE_container DROP
#define IN_NONE_obstacle DROP
#define IN_NONE_fill DROP
#define IN_NONE_body DROP
#define IN_ALL_container KEEP
#define IN_ALL_obstacle KEEP
#define IN_ALL_fill KEEP
#define IN_ALL_body KEEP
#define IN_OBSTACLE_container DROP
#define IN_OBSTACLE_obstacle KEEP
#define IN_WORLD_world KEEP
#define IN_WORLD_solver DROP
#define IN_SOLVER_world DROP
#define IN_SOLVER_solver KEEP
#define IN_ALL_emitter KEEP
#define IN_ALL_stroke KEEP
#define IN_NONE_stroke DROP
#define IN_ALL_output KEEP
#define IN_ALL_camera KEEP

/* ---- world, bounds, solver: stored in pdl_scene ---------------------------------------- */

/* pdl_world_def as declared (puddle/fields.h): "dimensions" comes first, read before every other
 * key of the file (scene_parse.c): it decides how many numbers every vector has. "bounds" is an
 * object, read by scene_parse.c with pdl_schema_bounds. */
#define world_STRUCT pdl_scene
#define world_AT world.
#define world_BASE 0
#define world_MASK 0u
static const scene_field world_fields[] = {PDL_WORLD_FIELDS(DEF_KEY, world)};
const scene_object pdl_schema_world = {"world", world_fields, COUNT(world_fields), -1};

static const scene_field bounds_fields[] = {
	NUM("min", FT_VEC, pdl_scene, bounds_min, -INF, INF, FR_REQUIRED),
	NUM("max", FT_VEC, pdl_scene, bounds_max, -INF, INF, FR_REQUIRED),
};
const scene_object pdl_schema_bounds = {"bounds", bounds_fields, COUNT(bounds_fields), -1};

/* "kind" is the solver object's shape: optional (default "clavet"); the SPH keys are used only
 * with "sph" or "dfsph" (each key says which). In pdl_solver_kind order. */
static const char* const solver_kinds[] = {"clavet", "sph", "dfsph"};
/* In pdl_backend order. */
static const char* const backend_names[] = {"cpu", "cuda"};
const char* pdl_scene_backend_name(pdl_backend backend)
{
	return (int)backend >= 0 && (int)backend < (int)COUNT(backend_names) ? backend_names[backend] : NULL;
}
/* the names of world.sph's enum keys, in their enums' order */
static const char* const sph_eos_names[] = {"tait", "linear"};
static const char* const sph_pressure_kernel_names[] = {"poly6", "spiky", "wendland"};
#define SPH_NAMES_F32(name) NULL, 0
#define SPH_NAMES_I32(name) NULL, 0
#define SPH_NAMES_ENUM(name) sph_##name##_names, COUNT(sph_##name##_names)
enum { K_CLAVET = 1u << 0, K_SPH = 1u << 1, K_DFSPH = 1u << 2, K_SPH_ANY = K_SPH | K_DFSPH };
#define solver_STRUCT pdl_scene
#define solver_AT world.
#define solver_BASE 0
#define solver_MASK 0u
#define solver_solver_NAMES solver_kinds
#define solver_solver_BASE PDL_SOLVER_CLAVET
#define solver_solver_NAMES_3D NULL
#define solver_backend_NAMES backend_names
#define solver_backend_BASE PDL_BACKEND_CPU
#define solver_backend_NAMES_3D NULL
static const scene_field solver_fields[] = {
	PDL_WORLD_FIELDS(DEF_KEY, solver)
	/* world.sph as declared (puddle/fields.h), each key used by the solvers it names */
#define SPH_KEY(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, solvers, doc) \
	{#name, FT_OF_##type, offsetof(pdl_scene, world.sph.name), LO_##rule(lo, hi, ~), HI_##rule(lo, hi, ~), FLAGS_##rule, \
	 SPH_NAMES_##type(name), 0, 0, K_##solvers, NULL},
	PDL_SPH_FIELDS(SPH_KEY, ~)
#undef SPH_KEY
};
const scene_object pdl_schema_solver = {"solver", solver_fields, COUNT(solver_fields), 0};

/* ---- materials -------------------------------------------------------------------------- */

typedef pdl_scene_material smat;
static const scene_field material_fields[] = {
	{"name", FT_TEXT, offsetof(smat, name), 0, 0, FR_REQUIRED, NULL, 0, 0, sizeof(((smat*)0)->name), 0, NULL},
#define MATERIAL_KEY(A, name, ctype, type, deflt, rule, ...) \
	{#name, FT_OF_##type, offsetof(smat, def.name), LO_##rule(__VA_ARGS__), HI_##rule(__VA_ARGS__), FLAGS_##rule, NULL, 0, 0, 0, 0, NULL},
	PDL_MATERIAL_FIELDS(MATERIAL_KEY, ~)
#undef MATERIAL_KEY
};
const scene_object pdl_schema_material = {"material", material_fields, COUNT(material_fields), -1};

/* ---- container and obstacles: pdl_boundary_def ------------------------------------------ */

typedef pdl_boundary_def bdef;
/* pdl_boundary_def as declared (puddle/fields.h): the container takes the container kinds, the
 * obstacles the others, each by its index from its first kind */
static const char* const container_shapes[] = {"circle", "box"};
static const char* const container_shapes_3d[] = {"sphere", "box"};
#define container_STRUCT bdef
#define container_AT
#define container_BASE PDL_BOUNDARY_CIRCLE_CONTAINER
#define container_MASK 3u
#define container_kind_NAMES container_shapes
#define container_kind_NAMES_3D container_shapes_3d
#define container_kind_BASE PDL_BOUNDARY_CIRCLE_CONTAINER
static const scene_field container_fields[] = {PDL_BOUNDARY_FIELDS(DEF_KEY, container)};
const scene_object pdl_schema_container = {"container", container_fields, COUNT(container_fields), 0};

static const char* const obstacle_shapes[] = {"circle", "box", "polygon"};
static const char* const obstacle_shapes_3d[] = {"sphere", "box", NULL};
#define obstacle_STRUCT bdef
#define obstacle_AT
#define obstacle_BASE PDL_BOUNDARY_CIRCLE
#define obstacle_MASK 7u
#define obstacle_kind_NAMES obstacle_shapes
#define obstacle_kind_NAMES_3D obstacle_shapes_3d
#define obstacle_kind_BASE PDL_BOUNDARY_CIRCLE
static const scene_field obstacle_fields[] = {PDL_BOUNDARY_FIELDS(DEF_KEY, obstacle)};
const scene_object pdl_schema_obstacle = {"obstacle", obstacle_fields, COUNT(obstacle_fields), 0};

/* ---- fills: pdl_fill_def ------------------------------------------------------------------- */

typedef pdl_scene_fill fdef;
/* in pdl_fill_shape order, so the stored value is the index */
static const char* const fill_shapes[] = {"point", "line", "disc", "box", "sunflower"};
static const char* const fill_shapes_3d[] = {"point", "line", "ball", "box", NULL};
#define fill_STRUCT fdef
#define fill_AT def.
#define fill_BASE 0
#define fill_MASK 31u
#define fill_shape_NAMES fill_shapes
#define fill_shape_NAMES_3D fill_shapes_3d
#define fill_shape_BASE PDL_FILL_POINT
/* pdl_fill_def as declared (puddle/fields.h), then the scene's own keys */
static const scene_field fill_fields[] = {
	PDL_FILL_FIELDS(DEF_KEY, fill)
	{"mix", FT_MATERIALS, offsetof(fdef, mix), 1, PDL_MAX_MATERIALS, FR_OMIT_EMPTY, NULL, 0, 0, offsetof(fdef, mix_count), 0,
	 NULL, NULL, "material"},
};
const scene_object pdl_schema_fill = {"fill", fill_fields, COUNT(fill_fields), 0};

/* ---- bodies: pdl_body_def, count copies step apart ------------------------------------------ */

typedef pdl_scene_body sbody;
/* in pdl_body_shape and pdl_body_type order, so the stored value is the index */
static const char* const body_shapes[] = {"box", "circle", "polygon"};
static const char* const body_shapes_3d[] = {"box", "sphere", NULL};
static const char* const body_types[] = {"dynamic", "kinematic"};
#define body_STRUCT sbody
#define body_AT def.
#define body_BASE 0
#define body_MASK 7u
#define body_shape_NAMES body_shapes
#define body_shape_NAMES_3D body_shapes_3d
#define body_shape_BASE PDL_BODY_BOX
#define body_type_NAMES body_types
#define body_type_NAMES_3D NULL
#define body_type_BASE PDL_BODY_DYNAMIC
/* pdl_body_def as declared (puddle/fields.h), then the scene's own keys. The rules that depend
 * on the rest spacing (radius, half_extents >= half of it), convex vertices and the container
 * are the engine's alone (scene_parse.c check_with_engine). */
static const scene_field body_fields[] = {
	PDL_BODY_FIELDS(DEF_KEY, body)
	NUM("count", FT_INT, sbody, count, 1, PDL_MAX_BODIES, 0),
	NUM("step", FT_VEC, sbody, step, -INF, INF, 0),
};
const scene_object pdl_schema_body = {"body", body_fields, COUNT(body_fields), 0};

/* ---- emitters, strokes, output, camera: as declared (puddle/scene_fields.h) ------------------- */

#define emitter_STRUCT pdl_scene_emitter
#define emitter_AT
#define emitter_BASE 0
#define emitter_MASK 0u
static const scene_field emitter_fields[] = {PDL_SCENE_EMITTER_FIELDS(DEF_KEY, emitter)};
const scene_object pdl_schema_emitter = {"emitter", emitter_fields, COUNT(emitter_fields), -1};

#define stroke_STRUCT pdl_scene_stroke
#define stroke_AT
#define stroke_BASE 0
#define stroke_MASK 0u
static const scene_field stroke_fields[] = {PDL_SCENE_STROKE_FIELDS(DEF_KEY, stroke)};
const scene_object pdl_schema_stroke = {"stroke", stroke_fields, COUNT(stroke_fields), -1};

/* in pdl_color_mode order, so the stored value is the index */
static const char* const color_modes[] = {"material", "speed", "density", "pressure"};
#define output_STRUCT pdl_scene_output
#define output_AT
#define output_BASE 0
#define output_MASK 0u
#define output_color_mode_NAMES color_modes
#define output_color_mode_NAMES_3D NULL
#define output_color_mode_BASE PDL_COLOR_MATERIAL
static const scene_field output_fields[] = {PDL_SCENE_OUTPUT_FIELDS(DEF_KEY, output)};
const scene_object pdl_schema_output = {"output", output_fields, COUNT(output_fields), -1};

/* 3D scenes only */
#define camera_STRUCT pdl_camera
#define camera_AT
#define camera_BASE 0
#define camera_MASK 0u
static const scene_field camera_fields[] = {PDL_CAMERA_FIELDS(DEF_KEY, camera)};
const scene_object pdl_schema_camera = {"camera", camera_fields, COUNT(camera_fields), -1};

/* ---- diffuse particles: pdl_diffuse_def, as declared (puddle/fields.h) ------------------------ */

static const scene_field diffuse_fields[] = {
#define DIFFUSE_KEY(A, name, ctype, type, deflt, rule, lo, hi, error, unit, doc)                                       \
	{#name, FT_OF_##type, offsetof(pdl_scene, diffuse.name), LO_##rule(lo, hi, ~), HI_##rule(lo, hi, ~), FLAGS_##rule, \
	 NULL, 0, 0, 0, 0, NULL},
	PDL_DIFFUSE_FIELDS(DIFFUSE_KEY, ~)
#undef DIFFUSE_KEY
};
const scene_object pdl_schema_diffuse = {"diffuse", diffuse_fields, COUNT(diffuse_fields), -1};

const char* const pdl_schema_top_keys[] = {"name",      "description", "world",  "solver",   "materials",
                                           "container", "obstacles",   "fills",  "bodies",   "emitters",
                                           "strokes",   "output",      "camera", "diffuse"};
const int pdl_schema_top_key_count = COUNT(pdl_schema_top_keys);

/* ---- defaults --------------------------------------------------------------------------------- */

void pdl_schema_scene_defaults(pdl_scene* s)
{
	memset(s, 0, sizeof *s);
	s->world = pdl_default_world_def();
	s->world.max_particles = 1000000;
	/* the keys whose default depends on others (KEY_DEFAULT) hold 0, "not given", until
	 * scene_parse.c resolves them */
	s->output = (pdl_scene_output){PDL_SCENE_OUTPUT_FIELDS(PDL_FIELD_DEFAULT, ~)};
	s->diffuse = pdl_default_diffuse_def();
}

pdl_scene_material pdl_schema_material_default(int index)
{
	/* distinct colours for materials that do not name one */
	static const uint32_t palette[8] = {0x2a7fd4, 0xe0533d, 0x3fbf7f, 0xf2b134,
	                                    0x9b59d0, 0x36c5d6, 0xe86fa6, 0xb0b0b0};
	pdl_scene_material m;
	memset(&m, 0, sizeof m);
	m.def = pdl_default_material_def();
	m.def.color = palette[index & 7];
	return m;
}

pdl_boundary_def pdl_schema_container_default(void)
{
	pdl_boundary_def d = pdl_default_boundary_def();
	d.kind = PDL_BOUNDARY_CIRCLE_CONTAINER;
	return d;
}

pdl_boundary_def pdl_schema_obstacle_default(void)
{
	return pdl_default_boundary_def();
}

pdl_scene_fill pdl_schema_fill_default(void)
{
	pdl_scene_fill f;
	memset(&f, 0, sizeof f);
	f.def = pdl_default_fill_def();
	f.def.count = 0; /* sunflower: 0 = as many as the spacing gives; point fills set their own */
	return f;
}

pdl_scene_body pdl_schema_body_default(void)
{
	pdl_scene_body b;
	memset(&b, 0, sizeof b);
	b.def = pdl_default_body_def();
	b.count = 1;
	return b;
}

pdl_scene_emitter pdl_schema_emitter_default(void)
{
	return (pdl_scene_emitter){PDL_SCENE_EMITTER_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

pdl_scene_stroke pdl_schema_stroke_default(void)
{
	return (pdl_scene_stroke){PDL_SCENE_STROKE_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

const char* pdl_schema_enum_name(const scene_field* f, int i, int dimensions)
{
	if (i < 0 || i >= f->name_count) return NULL;
	return dimensions == 3 && f->names_3d ? f->names_3d[i] : f->names[i];
}

bool pdl_schema_in_dimensions(const scene_field* f, int dimensions)
{
	if (f->flags & FR_2D_ONLY) return dimensions != 3;
	if (f->flags & FR_3D_ONLY) return dimensions == 3;
	return true;
}

int pdl_schema_shape_index(const scene_object* o, const void* base)
{
	if (o->shape_field < 0) return -1;
	const scene_field* f = &o->fields[o->shape_field];
	int v;
	memcpy(&v, (const char*)base + f->offset, sizeof v);
	v -= f->base;
	return v >= 0 && v < f->name_count ? v : -1;
}

void pdl_schema_rule_text(const scene_field* f, char* out, size_t size)
{
	bool lo = isfinite(f->lo), hi = isfinite(f->hi);
	const char* even = (f->flags & FR_EVEN) ? " and even" : "";
	if (f->type == FT_INT && lo && hi)
		snprintf(out, size, "must be an integer in [%g, %g]%s", f->lo, f->hi, even);
	else if (f->type == FT_INT && lo)
		snprintf(out, size, "must be an integer >= %g", f->lo);
	else if (lo && hi)
		snprintf(out, size, "must be in %c%g, %g%c", (f->flags & FR_LO_OPEN) ? '(' : '[', f->lo, f->hi,
		         (f->flags & FR_HI_OPEN) ? ')' : ']');
	else if (lo)
		snprintf(out, size, "must be %s %g", (f->flags & FR_LO_OPEN) ? ">" : ">=", f->lo);
	else
		snprintf(out, size, "must be finite");
}

void pdl_schema_color_text(uint32_t color, char out[8])
{
	snprintf(out, 8, "#%06x", (unsigned)(color & 0xffffffu));
}

/* ---- The scene object ---------------------------------------------------------------------- */

void pdl_scene_destroy(pdl_scene* scene) { free(scene); }

pdl_scene* pdl_scene_clone(const pdl_scene* scene)
{
	if (!scene) return NULL;
	pdl_scene* c = malloc(sizeof *c);
	if (c) memcpy(c, scene, sizeof *c);
	return c;
}
