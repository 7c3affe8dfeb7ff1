/* The parts of the docs and of the web module's types that are generated from the field
 * declarations (include/puddle/fields.h, and the scene layer's own in
 * io/include/puddle/scene_fields.h): the tables of docs/scenes.md, the interfaces of
 * web/src/puddle.d.ts, web/src/scene.d.ts and web/src/camera.d.ts, web/src/camera.js's defaults
 * and ranges, and the page's sliders (web/demo/sliders.js, whose scales the page's material
 * presets are scaled by, as the viewer's are by the declaration's).
 *
 *   fields_gen --check ROOT   fails (exit 1, naming the section) where a file differs from the
 *                             declarations: the test io.fields
 *   fields_gen --write ROOT   rewrites the generated sections of those files
 *
 * A generated section lies between a line holding "generated from HEADER: NAME" (HEADER the file
 * that declares its fields) and a line holding "end of generated: NAME"; everything around it is
 * the file's own. */
#include "puddle/puddle.h"
#include "puddle/snapshot.h"
#include "io_test.h"
#include "scene_schema.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
	char* s;
	size_t n, cap;
} text;

static void add(text* t, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0) exit(2);
	if (t->n + (size_t)k + 1 > t->cap) {
		t->cap = (t->n + (size_t)k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s) exit(2);
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	t->n += (size_t)k;
}

/* ---- the declarations as rows --------------------------------------------------------------- */

typedef struct row {
	const char* name;
	const char* type;  /* F32, COLOR */
	double deflt;
	const char* range; /* the docs' words: "> 0", "[0, 1]" */
	const char* unit;
	const char* scale; /* ONE, G, ... */
	const char* doc;
	double ui_lo, ui_hi;
	int ui_log;
	const char* solvers; /* PDL_SPH_FIELDS: SPH, DFSPH, SPH_ANY */
} row;

#define RANGE_GT(lo, hi) "> " #lo
#define RANGE_GE(lo, hi) ">= " #lo
#define RANGE_FINITE(lo, hi) "finite"
#define RANGE_IN(lo, hi) "[" #lo ", " #hi "]"
#define RANGE_IN_LO_OPEN(lo, hi) "(" #lo ", " #hi "]"
#define RANGE_ANY(lo, hi) ""
#define ROW(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, since, doc) \
	{#name, #type, (double)(deflt), RANGE_##rule(lo, hi), unit, #scale, doc, ui_lo, ui_hi, ui_log, NULL},
static const row material_rows[] = {PDL_MATERIAL_FIELDS(ROW, ~)};
#define RANGE_ENUM(count, text) "" /* the scene's names, from its schema */
#define SPH_ROW(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, solvers, doc) \
	{#name, #type, (double)(deflt), RANGE_##rule(lo, hi), unit, #scale, doc, ui_lo, ui_hi, ui_log, #solvers},
static const row sph_rows[] = {PDL_SPH_FIELDS(SPH_ROW, ~)};
#define DIFFUSE_ROW(A, name, ctype, type, deflt, rule, lo, hi, error, unit, doc) \
	{#name, #type, (double)(deflt), RANGE_##rule(lo, hi), unit, "NONE", doc, 0, 0, 0, NULL},
static const row diffuse_rows[] = {PDL_DIFFUSE_FIELDS(DIFFUSE_ROW, ~)};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- the generated texts --------------------------------------------------------------------- */

/* The key of a scene object's schema (io/src/scene_schema.c). */
static const scene_field* schema_field(const scene_object* o, const char* key)
{
	for (int i = 0; i < o->field_count; ++i)
		if (strcmp(o->fields[i].key, key) == 0) return &o->fields[i];
	fprintf(stderr, "%s.%s: not in the scene schema\n", o->name, key);
	exit(1);
}

/* "SPH: " for a world.sph field only SPH reads, ... */
static const char* solver_prefix(const row* r)
{
	if (!r->solvers) return "";
	if (strcmp(r->solvers, "SPH") == 0) return "SPH: ";
	if (strcmp(r->solvers, "DFSPH") == 0) return "DFSPH: ";
	return "SPH and DFSPH: ";
}

/* a table cell: " text " or, empty, " " */
static const char* cell(const char* s, char* out, size_t size)
{
	snprintf(out, size, s[0] ? " %s " : " ", s);
	return out;
}

static void markdown_table(text* t, const row* rows, int n, const char* first_rows)
{
	add(t, "| key | type | unit | default | range | meaning |\n|---|---|---|---|---|---|\n%s", first_rows);
	for (int i = 0; i < n; ++i) {
		const row* r = &rows[i];
		char unit[64], range[64];
		cell(r->unit, unit, sizeof unit);
		cell(r->range, range, sizeof range);
		if (strcmp(r->type, "COLOR") == 0) {
			/* a scene's materials that name no colour take one of a palette by index */
			add(t, "| `%s` | \"#rrggbb\" |%s| ", r->name, unit);
			for (int k = 0; k < 8; ++k) {
				char c[8];
				pdl_schema_color_text(pdl_schema_material_default(k).def.color, c);
				add(t, "%s`%s`", k ? ", " : "", c);
			}
			add(t, " by index |%s| %s |\n", range, r->doc);
		} else if (strcmp(r->type, "ENUM") == 0) {
			/* the scene file's names, from the solver object's schema */
			const scene_field* f = schema_field(&pdl_schema_solver, r->name);
			add(t, "| `%s` | string |%s| `\"%s\"` | ", r->name, unit, f->names[(int)r->deflt - f->base]);
			for (int k = 0; k < f->name_count; ++k) add(t, "%s`\"%s\"`", k ? ", " : "", f->names[k]);
			add(t, " | %s%s |\n", solver_prefix(r), r->doc);
		} else {
			add(t, "| `%s` | %s |%s| `%g` |%s| %s%s |\n", r->name, strcmp(r->type, "I32") == 0 ? "integer" : "number",
			    unit, r->deflt, range, solver_prefix(r), r->doc);
		}
	}
}

static void ts_interface(text* t, const char* c_name, const char* ts_name, const row* rows, int n)
{
	add(t, "/** %s */\nexport interface %s {\n", c_name, ts_name);
	for (int i = 0; i < n; ++i) {
		const row* r = &rows[i];
		bool color = strcmp(r->type, "COLOR") == 0;
		add(t, "\t/** %s%s", solver_prefix(r), r->doc);
		if (color) add(t, "; \"#rrggbb\" is accepted on input");
		bool is_enum = strcmp(r->type, "ENUM") == 0;
		if (is_enum) {
			const scene_field* f = schema_field(&pdl_schema_solver, r->name);
			add(t, "; ");
			for (int k = 0; k < f->name_count; ++k) add(t, "%s%d %s", k ? ", " : "", f->base + k, f->names[k]);
			add(t, "; default %s", f->names[(int)r->deflt - f->base]);
		}
		if (r->unit[0]) add(t, "; %s", r->unit);
		if (r->range[0]) add(t, "; %s", r->range);
		if (!color && !is_enum) add(t, "; default %g", r->deflt);
		add(t, ". */\n\t%s: number;\n", r->name);
	}
	add(t, "}\n");
}

/* The name a scale has in the presets file and the page (web/demo/presets.js unitFactor). */
static const char* unit_name(const char* scale)
{
	static const struct {
		const char *scale, *unit;
	} names[] = {{"ONE", "1"},     {"G", "g"},       {"G_PER_H", "g/h"}, {"SQRT_G_PER_H", "sqrt(g/h)"},
	             {"PER_H", "1/h"}, {"H", "h"},       {"H2", "h^2"},      {"MASS", "mass"},
	             {"REST_DENSITY", "rest_density"}};
	for (int k = 0; k < COUNT(names); ++k)
		if (strcmp(names[k].scale, scale) == 0) return names[k].unit;
	return "?";
}

/* A JavaScript string literal of text. */
static void js_string(text* t, const char* s)
{
	add(t, "'");
	for (; *s; ++s) add(t, *s == '\'' || *s == '\\' ? "\\%c" : "%c", *s);
	add(t, "'");
}

/* One of the page's sliders (web/demo/sliders.js): a field with a scale other than NONE. */
static void js_slider(text* t, const char* name, const char* type, const char* scale, double lo, double hi, int log,
                      const char* unit, const char* doc, const char* solvers)
{
	if (strcmp(scale, "NONE") == 0) return;
	add(t, "\t{ field: '%s', type: '%s', min: %.9g, max: %.9g, scale: '%s', log: %s, unit: ", name, type, lo, hi,
	    unit_name(scale), log ? "true" : "false");
	js_string(t, unit);
	add(t, ", doc: ");
	js_string(t, doc);
	if (solvers)
		add(t, ", solvers: [%s]",
		    strcmp(solvers, "SPH") == 0 ? "'sph'" : strcmp(solvers, "DFSPH") == 0 ? "'dfsph'" : "'sph', 'dfsph'");
	add(t, " },\n");
}

/* ---- the world, boundary, fill and body lists ------------------------------------------------ */

typedef struct def_row {
	const char* name;
	const char* type;  /* F32, VEC3, ... */
	const char* range; /* the docs' words of a rule with limits: "> 0", "[0, 1]" */
	const char* words; /* CUSTOM and ENUM rules: their words ("must be ..."), else NULL */
	const char* unit;
	const char* doc;
	const char* key;   /* the scene key, "" for none */
	const char* default_words; /* KEY_DEFAULT: the default in words, else NULL */
	int required;      /* KEY_REQUIRED, OBSTACLE_KEY_REQUIRED */
	size_t offset;     /* in the def */
	int snap, since;   /* place in the snapshot record (0: not stored), first version */
	const char* scale; /* the slider's: NONE for none */
	double ui_lo, ui_hi;
	int ui_log;
} def_row;

#define DEF_RANGE_GT(lo, hi) "> " #lo, NULL
#define DEF_RANGE_GE(lo, hi) ">= " #lo, NULL
#define DEF_RANGE_FINITE(lo, hi) "finite", NULL
#define DEF_RANGE_IN(lo, hi) "[" #lo ", " #hi "]", NULL
#define DEF_RANGE_IN_LO_OPEN(lo, hi) "(" #lo ", " #hi "]", NULL
#define DEF_RANGE_GT_LE(lo, hi) "(" #lo ", " #hi "]", NULL
#define DEF_RANGE_FINITE_IN_LO_OPEN(lo, hi) "(" #lo ", " #hi "]", NULL
#define DEF_RANGE_DIMENSIONS(lo, hi) #lo " or " #hi, NULL
#define DEF_RANGE_AT_LEAST(lo, hi) ">= " #lo, NULL
#define DEF_RANGE_EXTENTS(lo, hi) "> 0 each", NULL
#define DEF_RANGE_ENUM(count, words) "", words
#define DEF_RANGE_ANY(lo, hi) "", NULL
#define DEF_RANGE_IN_EVEN(lo, hi) "[" #lo ", " #hi "], even", NULL
#define DEF_RANGE_CUSTOM(lo, words) "", words
#define DEF_RANGE_CUSTOM_GT(lo, words) "> " #lo, words
#define DEF_RANGE_CUSTOM_GE(lo, words) ">= " #lo, words
#define DEF_RANGE_CUSTOM_SHARED(lo, words) "", NULL
#define NO_KEY "", NULL, 0
#define KEY(k) #k, NULL, 0
#define KEY_REQUIRED(k) #k, NULL, 1
#define KEY_2D(k, other) #k, NULL, 0
#define KEY_3D(k, other) #k, NULL, 0
#define OBSTACLE_KEY(k) #k, NULL, 0
#define OBSTACLE_KEY_REQUIRED(k) #k, NULL, 1
#define WORLD_KEY(k) #k, NULL, 0
#define SOLVER_KEY(k) #k, NULL, 0
#define KEY_DEFAULT(k, words) #k, words, 0
#define DEF_ROW(S, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, key,     \
                snap, since, doc)                                                                                     \
	{#name, #type, DEF_RANGE_##rule(lo, hi), unit, doc, key, offsetof(S, name), snap, since, #scale, ui_lo, ui_hi,       \
	 ui_log},
static const def_row world_rows[] = {PDL_WORLD_FIELDS(DEF_ROW, pdl_world_def)};
static const def_row boundary_rows[] = {PDL_BOUNDARY_FIELDS(DEF_ROW, pdl_boundary_def)};
static const def_row fill_rows[] = {PDL_FILL_FIELDS(DEF_ROW, pdl_fill_def)};
static const def_row body_rows[] = {PDL_BODY_FIELDS(DEF_ROW, pdl_body_def)};
static const def_row pointer_rows[] = {PDL_POINTER_FIELDS(DEF_ROW, pdl_pointer)};
static const def_row emitter_rows[] = {PDL_SCENE_EMITTER_FIELDS(DEF_ROW, pdl_scene_emitter)};
static const def_row stroke_rows[] = {PDL_SCENE_STROKE_FIELDS(DEF_ROW, pdl_scene_stroke)};
static const def_row output_rows[] = {PDL_SCENE_OUTPUT_FIELDS(DEF_ROW, pdl_scene_output)};
static const def_row camera_rows[] = {PDL_CAMERA_FIELDS(DEF_ROW, pdl_camera)};

/* The page's sliders of a def (web/demo/sliders.js). */
static void js_def_sliders(text* t, const char* name, const def_row* rows, int n)
{
	add(t, "export const %s = [\n", name);
	for (int i = 0; i < n; ++i)
		js_slider(t, rows[i].name, rows[i].type, rows[i].scale, rows[i].ui_lo, rows[i].ui_hi, rows[i].ui_log,
		          rows[i].unit, rows[i].doc, NULL);
	add(t, "];\n");
}

/* "finite, convex, ..." of "must be finite, convex, ..." */
static const char* rule_words(const char* words)
{
	return strncmp(words, "must be ", 8) == 0 ? words + 8 : words;
}

/* The shortest decimal that reads back as the same float. */
static void float_text(float v, char* out, size_t size)
{
	for (int digits = 6; digits <= 9; ++digits) {
		snprintf(out, size, "%.*g", digits, (double)v);
		if (strtof(out, NULL) == v) break;
	}
}

/* A scene key's type in words; a vector's as a 2D scene writes it, unless the object is 3D only. */
static void key_type(text* t, const scene_field* f, bool only_3d)
{
	switch (f->type) {
	case FT_FLOAT: add(t, "number"); break;
	case FT_INT: add(t, "integer"); break;
	case FT_VEC: add(t, only_3d ? "[x, y, z]" : "[x, y]"); break;
	case FT_COLOR: add(t, "\"#rrggbb\""); break;
	case FT_ENUM:
		for (int k = 0; k < f->name_count; ++k)
			add(t, "%s`\"%s\"`", k == 0 ? "" : k + 1 == f->name_count ? " or " : ", ", f->names[k]);
		if (f->names_3d)
			for (int k = 0, first = 1; k < f->name_count; ++k)
				if (f->names_3d[k] && strcmp(f->names_3d[k], f->names[k]) != 0)
					add(t, "%s`\"%s\"`", first ? " (3D: " : ", ", f->names_3d[k]), first = 0;
		if (f->names_3d) add(t, ")");
		break;
	case FT_MATERIAL: add(t, "material name"); break;
	case FT_POINTS:
	case FT_PATH: add(t, "array of %g to %g [x, y]", f->lo, f->hi); break;
	case FT_QUAT: add(t, "[x, y, z, w]"); break;
	case FT_SPIN: add(t, "2D: number; 3D: [x, y, z]"); break;
	default: add(t, "?"); break;
	}
}

/* A key's default, from the object's defaults at base. */
static void key_default(text* t, const scene_field* f, const void* base)
{
	const char* at = (const char*)base + f->offset;
	char a[32], b[32], c[32], d[32];
	if (f->flags & FR_REQUIRED) {
		add(t, "*required*");
		return;
	}
	switch (f->type) {
	case FT_FLOAT: float_text(*(const float*)at, a, sizeof a), add(t, "`%s`", a); break;
	case FT_INT: add(t, "`%d`", *(const int*)at); break;
	case FT_VEC: {
		const pdl_vec3* v = (const pdl_vec3*)at;
		float_text(v->x, a, sizeof a), float_text(v->y, b, sizeof b);
		add(t, "`[%s, %s]`", a, b);
		break;
	}
	case FT_COLOR: pdl_schema_color_text(*(const uint32_t*)at, a), add(t, "`%s`", a); break;
	case FT_ENUM: add(t, "`\"%s\"`", f->names[*(const int*)at - f->base]); break;
	case FT_MATERIAL: add(t, "the first material"); break;
	case FT_QUAT: {
		const pdl_quat* q = (const pdl_quat*)at;
		float_text(q->x, a, sizeof a), float_text(q->y, b, sizeof b), float_text(q->z, c, sizeof c);
		float_text(q->w, d, sizeof d);
		add(t, "`[%s, %s, %s, %s]`", a, b, c, d);
		break;
	}
	case FT_SPIN: float_text(((const pdl_vec3*)at)->z, a, sizeof a), add(t, "`%s`", a); break;
	default: add(t, "none"); break;
	}
}

/* A scene's own key (not a def's field): its whole table row. */
typedef struct extra_row {
	const char* key;
	const char* row; /* "| `count` | ... |\n" */
} extra_row;

/* Whether the object's table has a "used by" column: its keys depend on its shape (the solver's
 * kind only decides which world.sph keys apply, in their own table). */
static bool has_shapes(const scene_object* o) { return o->shape_field >= 0 && o != &pdl_schema_solver; }

static void def_key_row(text* t, const scene_object* o, const scene_field* f, const def_row* rows, int n,
                        const extra_row* extras, int extra_count, const void* base, bool only_3d)
{
	const def_row* r = NULL;
	for (int i = 0; i < n && !r; ++i)
		if (strcmp(rows[i].key, f->key) == 0) r = &rows[i];
	if (!r) {
		for (int i = 0; i < extra_count; ++i)
			if (strcmp(extras[i].key, f->key) == 0) {
				add(t, "%s", extras[i].row);
				return;
			}
		if (o == &pdl_schema_solver) return; /* world.sph's keys: their own table */
		fprintf(stderr, "%s.%s: neither declared nor given a row\n", o->name, f->key);
		exit(1);
	}
	add(t, "| `%s` | ", f->key);
	key_type(t, f, only_3d);
	char unit[64];
	add(t, " |%s| ", cell(r->unit, unit, sizeof unit));
	if (r->default_words) add(t, "%s", r->default_words);
	else key_default(t, f, base);
	add(t, " |%s%s", r->range[0] ? " " : "", r->range);
	if (r->words && strcmp(r->type, "ENUM") != 0) add(t, "%s%s", r->range[0] ? "; " : " ", rule_words(r->words));
	add(t, " |");
	if (has_shapes(o)) {
		if (!f->shapes) add(t, " all");
		for (int k = 0, first = 1; k < 32; ++k)
			if (f->shapes & (1u << k)) add(t, "%s%s", first ? " " : ", ", o->fields[o->shape_field].names[k]), first = 0;
		if (f->flags & FR_2D_ONLY) add(t, ", **2D scenes only**");
		if (f->flags & FR_3D_ONLY) add(t, ", **3D scenes only**");
		add(t, " |");
	}
	add(t, " %s |\n", r->doc);
}

/* The table of a scene object whose keys are a def's fields (and the scene's own extras). */
static void def_table(text* t, const scene_object* o, const def_row* rows, int n, const extra_row* extras,
                      int extra_count, const void* base, bool only_3d)
{
	if (has_shapes(o))
		add(t, "| key | type | unit | default | range | used by | meaning |\n|---|---|---|---|---|---|---|\n");
	else
		add(t, "| key | type | unit | default | range | meaning |\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < o->field_count; ++i) {
		const scene_field* f = &o->fields[i];
		if (f->after) continue;
		def_key_row(t, o, f, rows, n, extras, extra_count, base, only_3d);
		for (int k = 0; k < o->field_count; ++k)
			if (o->fields[k].after && strcmp(o->fields[k].after, f->key) == 0)
				def_key_row(t, o, &o->fields[k], rows, n, extras, extra_count, base, only_3d);
	}
	/* the scene's own keys that are objects of their own (world.bounds) */
	for (int i = 0; i < extra_count; ++i) {
		bool listed = false;
		for (int k = 0; k < o->field_count; ++k) listed = listed || strcmp(o->fields[k].key, extras[i].key) == 0;
		if (!listed) add(t, "%s", extras[i].row);
	}
}

/* A def's interface in puddle.d.ts, its defaults from the engine's default def at base. With a
 * scene object (the scene layer's read-only view, scene.d.ts and camera.d.ts): only its keys,
 * enums as their names, required keys without a default. */
static void ts_def_interface(text* t, const char* c_name, const char* ts_name, const def_row* rows, int n,
                             const void* base, const char* more, const scene_object* o)
{
	add(t, "/** %s */\nexport interface %s {\n", c_name, ts_name);
	for (int i = 0; i < n; ++i) {
		const def_row* r = &rows[i];
		if (o && !r->key[0]) continue;
		const scene_field* names = o && strcmp(r->type, "ENUM") == 0 ? schema_field(o, r->key) : NULL;
		const char* at = (const char*)base + r->offset;
		const char* ts = strcmp(r->type, "VEC3") == 0 || strcmp(r->type, "SPIN") == 0 ? "Vec3"
		                 : strcmp(r->type, "QUAT") == 0                                ? "Quat"
		                 : strcmp(r->type, "VERTICES") == 0                            ? "Vec2[]"
		                 : strcmp(r->type, "PATH") == 0                                ? "Vec3[]"
		                                                                               : "number";
		add(t, "\t/** %s", r->doc);
		if (strcmp(r->type, "COLOR") == 0 && !o) add(t, "; \"#rrggbb\" is accepted on input");
		if (r->unit[0]) add(t, "; %s", r->unit);
		if (r->range[0]) add(t, "; %s", r->range);
		if (r->words && !names) add(t, "; %s", rule_words(r->words));
		char v[32];
		if (o && r->required) add(t, "; required");
		else if (r->default_words) add(t, "; default %s", r->default_words);
		else if (names) add(t, "; default '%s'", names->names[*(const int*)at - names->base]);
		else if (strcmp(r->type, "F32") == 0) float_text(*(const float*)at, v, sizeof v), add(t, "; default %s", v);
		else if (strcmp(r->type, "I32") == 0 || strcmp(r->type, "ENUM") == 0 || strcmp(r->type, "MATERIAL") == 0)
			add(t, "; default %d", *(const int*)at);
		add(t, ". */\n\t%s: ", r->name);
		if (names)
			for (int k = 0; k < names->name_count; ++k) add(t, "%s'%s'", k ? " | " : "", names->names[k]);
		else
			add(t, "%s", ts);
		add(t, ";\n");
	}
	add(t, "%s}\n", more);
}

/* web/src/camera.js's copy of the camera's declared defaults, and the closed ranges clampCamera
 * keeps a camera in (those of its scene keys with two finite limits). */
static void js_camera(text* t, const def_row* rows, int n, const pdl_camera* defaults)
{
	char a[32], b[32], c[32];
	add(t, "/** pdl_default_camera(): the declared defaults. */\nconst DEFAULT_CAMERA = {");
	for (int i = 0; i < n; ++i) {
		const char* at = (const char*)defaults + rows[i].offset;
		add(t, "%s %s: ", i ? "," : "", rows[i].name);
		if (strcmp(rows[i].type, "VEC3") == 0) {
			const pdl_vec3* v = (const pdl_vec3*)at;
			float_text(v->x, a, sizeof a), float_text(v->y, b, sizeof b), float_text(v->z, c, sizeof c);
			add(t, "{ x: %s, y: %s, z: %s }", a, b, c);
		} else {
			float_text(*(const float*)at, a, sizeof a), add(t, "%s", a);
		}
	}
	add(t, " };\n/** The fields with a closed range, [lo, hi]. */\nconst CAMERA_RANGES = {");
	for (int i = 0, first = 1; i < pdl_schema_camera.field_count; ++i) {
		const scene_field* f = &pdl_schema_camera.fields[i];
		if (!isfinite(f->lo) || !isfinite(f->hi)) continue;
		add(t, "%s %s: [%g, %g]", first ? "" : ",", f->key, f->lo, f->hi);
		first = 0;
	}
	add(t, " };\n");
}

/* ---- sections of files ---------------------------------------------------------------------- */

static char* read_file(const char* path) { return io_test_read_file(path, NULL); }

/* Checks (or, with write, replaces) the section `name` of the file at path: the lines between
 * its two marker lines must be `body`. */
static bool section_from(const char* header, const char* path, const char* name, const char* body, bool write)
{
	char* s = read_file(path);
	if (!s) {
		fprintf(stderr, "%s: cannot read\n", path);
		return false;
	}
	char begin_mark[128], end_mark[128];
	snprintf(begin_mark, sizeof begin_mark, "generated from %s: %s", header, name);
	snprintf(end_mark, sizeof end_mark, "end of generated: %s", name);
	char* b = strstr(s, begin_mark);
	char* e = b ? strstr(b, end_mark) : NULL;
	if (!b || !e) {
		fprintf(stderr, "%s: no section \"%s\" ... \"%s\"\n", path, begin_mark, end_mark);
		free(s);
		return false;
	}
	char* from = strchr(b, '\n');
	char* to = e;
	while (to > s && to[-1] != '\n') --to; /* the start of the end marker's line */
	if (!from || from >= to) {
		fprintf(stderr, "%s: section %s is malformed\n", path, name);
		free(s);
		return false;
	}
	++from;
	bool same = (size_t)(to - from) == strlen(body) && memcmp(from, body, strlen(body)) == 0;
	bool ok = same;
	if (!same && write) {
		FILE* f = fopen(path, "wb");
		ok = f && fwrite(s, 1, (size_t)(from - s), f) == (size_t)(from - s) &&
		     fwrite(body, 1, strlen(body), f) == strlen(body) && fputs(to, f) >= 0;
		if (f) ok = fclose(f) == 0 && ok;
		printf("%s: section %s %s\n", path, name, ok ? "rewritten" : "NOT written");
	} else if (!same) {
		fprintf(stderr, "%s: section %s differs from %s (run fields_gen --write)\n"
		                "---- expected:\n%s---- found:\n%.*s----\n",
		        path, name, header, body, (int)(to - from), from);
	}
	free(s);
	return ok;
}

static const char* const engine_header = "include/puddle/fields.h";
static const char* const scene_header = "io/include/puddle/scene_fields.h";

static bool section(const char* path, const char* name, const char* body, bool write)
{
	return section_from(engine_header, path, name, body, write);
}

/* A snapshot record of a def (docs/cli.md): its stored fields in the order of their snap column,
 * each with its type, and the record's bytes in the current version. */
static void snapshot_record(text* t, const char* what, const def_row* rows, int n)
{
	static const struct {
		const char *type, *words;
		int bytes;
	} types[] = {{"I32", "i32", 4},    {"ENUM", "i32", 4},       {"COUNT", "i32", 4},
	             {"MATERIAL", "i32", 4}, {"F32", "f32", 4},      {"COLOR", "u32", 4},
	             {"VEC3", "f32 x3", 12}, {"SPIN", "f32 x3", 12}, {"QUAT", "f32 x4 (x, y, z, w)", 16},
	             {"VERTICES", "16 x f32 x2", 8 * PDL_MAX_POLYGON_VERTICES}};
	int bytes = 0, first = 1;
	add(t, "- %s:", what);
	for (int at = 1; at <= n; ++at)
		for (int i = 0; i < n; ++i) {
			if (rows[i].snap != at) continue;
			int k = 0;
			while (k < COUNT(types) && strcmp(types[k].type, rows[i].type) != 0) ++k;
			if (k == COUNT(types)) {
				fprintf(stderr, "%s: no snapshot type for %s\n", rows[i].name, rows[i].type);
				exit(1);
			}
			add(t, "%s %s %s", first ? "" : ",", types[k].words, rows[i].name);
			if (rows[i].since > 1) add(t, " (version %d on)", rows[i].since);
			bytes += types[k].bytes, first = 0;
		}
	add(t, " (%d bytes in version %d)\n", bytes, PDL_SNAPSHOT_VERSION);
}

/* Checks (or writes) the docs' table of a scene object whose keys are a def's fields. */
static bool def_section(const char* header, const char* path, const char* name, const scene_object* o,
                        const def_row* rows, int n, const extra_row* extras, int extra_count, const void* base,
                        bool only_3d, bool write)
{
	text t = {0};
	def_table(&t, o, rows, n, extras, extra_count, base, only_3d);
	bool ok = section_from(header, path, name, t.s, write);
	free(t.s);
	return ok;
}

int main(int argc, char** argv)
{
	bool write = argc == 3 && strcmp(argv[1], "--write") == 0;
	if (argc != 3 || (!write && strcmp(argv[1], "--check") != 0)) {
		fprintf(stderr, "usage: fields_gen --check|--write ROOT\n");
		return 2;
	}
	const char* root = argv[2];
	char docs[1024], dts[1024], presets[1024], sliders[1024];
	snprintf(sliders, sizeof sliders, "%s/web/demo/sliders.js", root);
	snprintf(docs, sizeof docs, "%s/docs/scenes.md", root);
	snprintf(dts, sizeof dts, "%s/web/src/puddle.d.ts", root);
	snprintf(presets, sizeof presets, "%s/scenes/presets/materials.json", root);
	bool ok = true;

	text t = {0};
	markdown_table(&t, material_rows, COUNT(material_rows),
	               "| `name` | string, 1 to 31 chars | | *required* | unique | how fills and emitters refer to it |\n");
	ok = section(docs, "material", t.s, write) && ok;
	t.n = 0;
	ts_interface(&t, "pdl_material_def", "MaterialDef", material_rows, COUNT(material_rows));
	ok = section(dts, "material", t.s, write) && ok;
	t.n = 0;
	/* the page's sliders: the material's, world.sph's (each with its solvers), the world's and a
	 * boundary's */
	const struct {
		const char *section, *name;
		const row* rows;
		int n;
	} row_sliders[] = {{"material sliders", "MATERIAL_SLIDERS", material_rows, COUNT(material_rows)},
	                   {"solver sliders", "SOLVER_SLIDERS", sph_rows, COUNT(sph_rows)}};
	for (int k = 0; k < COUNT(row_sliders); ++k) {
		t.n = 0;
		add(&t, "export const %s = [\n", row_sliders[k].name);
		for (int i = 0; i < row_sliders[k].n; ++i) {
			const row* r = &row_sliders[k].rows[i];
			js_slider(&t, r->name, r->type, r->scale, r->ui_lo, r->ui_hi, r->ui_log, r->unit, r->doc, r->solvers);
		}
		add(&t, "];\n");
		ok = section(sliders, row_sliders[k].section, t.s, write) && ok;
	}
	t.n = 0;
	js_def_sliders(&t, "WORLD_SLIDERS", world_rows, COUNT(world_rows));
	ok = section(sliders, "world sliders", t.s, write) && ok;
	t.n = 0;
	js_def_sliders(&t, "BOUNDARY_SLIDERS", boundary_rows, COUNT(boundary_rows));
	ok = section(sliders, "boundary sliders", t.s, write) && ok;
	t.n = 0;
	markdown_table(&t, sph_rows, COUNT(sph_rows), "");
	ok = section(docs, "world.sph", t.s, write) && ok;
	t.n = 0;
	ts_interface(&t, "pdl_sph_def", "SphDef", sph_rows, COUNT(sph_rows));
	ok = section(dts, "world.sph", t.s, write) && ok;
	t.n = 0;
	markdown_table(&t, diffuse_rows, COUNT(diffuse_rows), "");
	ok = section(docs, "diffuse", t.s, write) && ok;

	/* the world, boundary, fill and body defs: their scene objects and interfaces */
	pdl_scene* scene = calloc(1, sizeof *scene);
	if (!scene) return 2;
	pdl_schema_scene_defaults(scene);
	/* a scene's own keys among a def's: their rows as written here */
	static const extra_row bounds[] = {
		{"bounds", "| `bounds` | object `{\"min\": [x, y], \"max\": [x, y]}` | world units | container's bounding box grown "
		           "by 2% on each side | max > min on both axes; *required without a container* | the region of "
		           "interest: pictures frame it, and particles outside it (or NaN) count as *lost* |\n"}};
	static const extra_row fill_extras[] = {
		{"mix", "| `mix` | array of 1 to 32 material names | | none | names in `materials` | all | particle k of the "
		        "fill gets material `mix[k % n]` instead of `material` (which still sets the rest spacing): "
		        "materials start stirred together, as in `stratify` |\n"}};
	static const extra_row body_extras[] = {
		{"count", "| `count` | integer | | `1` | [1, 4096] | all | copies of this body |\n"},
		{"step", "| `step` | [x, y] | world units | `[0, 0]` | finite; *required when `count` > 1*; boxes, circles "
		         "and balls: the copies must not overlap (touching is allowed) | all | from one copy to the next: "
		         "copy k is at `position + k * step` |\n"}};
	pdl_boundary_def container = pdl_schema_container_default(), obstacle = pdl_schema_obstacle_default();
	pdl_scene_fill fill = pdl_schema_fill_default();
	pdl_scene_body body = pdl_schema_body_default();
	pdl_scene_emitter emitter = pdl_schema_emitter_default();
	pdl_scene_stroke stroke = pdl_schema_stroke_default();
	pdl_camera camera = pdl_default_camera();
	const struct {
		const char* header;
		const char* section;
		const scene_object* object;
		const def_row* rows;
		int n;
		const extra_row* extras;
		int extra_count;
		const void* defaults;
		bool only_3d;
	} tables[] = {
		{engine_header, "world", &pdl_schema_world, world_rows, COUNT(world_rows), bounds, COUNT(bounds), scene, false},
		{engine_header, "solver", &pdl_schema_solver, world_rows, COUNT(world_rows), NULL, 0, scene, false},
		{engine_header, "container", &pdl_schema_container, boundary_rows, COUNT(boundary_rows), NULL, 0, &container,
		 false},
		{engine_header, "obstacles", &pdl_schema_obstacle, boundary_rows, COUNT(boundary_rows), NULL, 0, &obstacle,
		 false},
		{engine_header, "fills", &pdl_schema_fill, fill_rows, COUNT(fill_rows), fill_extras, COUNT(fill_extras), &fill,
		 false},
		{engine_header, "bodies", &pdl_schema_body, body_rows, COUNT(body_rows), body_extras, COUNT(body_extras), &body,
		 false},
		{scene_header, "emitters", &pdl_schema_emitter, emitter_rows, COUNT(emitter_rows), NULL, 0, &emitter, false},
		{scene_header, "strokes", &pdl_schema_stroke, stroke_rows, COUNT(stroke_rows), NULL, 0, &stroke, false},
		{scene_header, "output", &pdl_schema_output, output_rows, COUNT(output_rows), NULL, 0, &scene->output, false},
		{scene_header, "camera", &pdl_schema_camera, camera_rows, COUNT(camera_rows), NULL, 0, &camera, true},
	};
	for (int i = 0; i < COUNT(tables); ++i)
		ok = def_section(tables[i].header, docs, tables[i].section, tables[i].object, tables[i].rows, tables[i].n,
		                 tables[i].extras, tables[i].extra_count, tables[i].defaults, tables[i].only_3d, write) && ok;

	/* the scene layer's read-only view of them (web/src/scene.js, camera.js) */
	char scene_dts[1024], camera_dts[1024];
	snprintf(scene_dts, sizeof scene_dts, "%s/web/src/scene.d.ts", root);
	snprintf(camera_dts, sizeof camera_dts, "%s/web/src/camera.d.ts", root);
	const struct {
		const char *path, *section, *c_name, *ts_name;
		const def_row* rows;
		int n;
		const void* defaults;
		const scene_object* object;
	} views[] = {
		{scene_dts, "emitters", "pdl_scene_emitter: a nozzle launching rows of particles", "SceneEmitter", emitter_rows,
		 COUNT(emitter_rows), &emitter, &pdl_schema_emitter},
		{scene_dts, "strokes", "pdl_scene_stroke: a scripted pointer", "SceneStroke", stroke_rows, COUNT(stroke_rows),
		 &stroke, &pdl_schema_stroke},
		{scene_dts, "output", "pdl_scene_output: the defaults of pictures and video", "SceneOutput", output_rows,
		 COUNT(output_rows), &scene->output, &pdl_schema_output},
		{camera_dts, "camera", "pdl_camera: the orbit camera of a 3D scene", "Camera", camera_rows, COUNT(camera_rows),
		 &camera, &pdl_schema_camera},
	};
	for (int i = 0; i < COUNT(views); ++i) {
		t.n = 0;
		ts_def_interface(&t, views[i].c_name, views[i].ts_name, views[i].rows, views[i].n, views[i].defaults, "",
		                 views[i].object);
		ok = section_from(scene_header, views[i].path, views[i].section, t.s, write) && ok;
	}
	char camera_js[1024];
	snprintf(camera_js, sizeof camera_js, "%s/web/src/camera.js", root);
	t.n = 0;
	js_camera(&t, camera_rows, COUNT(camera_rows), &camera);
	ok = section_from(scene_header, camera_js, "camera defaults", t.s, write) && ok;
	free(scene);

	pdl_world_def world_def = pdl_default_world_def();
	pdl_boundary_def boundary_def = pdl_default_boundary_def();
	pdl_fill_def fill_def = pdl_default_fill_def();
	pdl_body_def body_def = pdl_default_body_def();
	pdl_pointer pointer = pdl_default_pointer();
	const struct {
		const char *section, *c_name, *ts_name;
		const def_row* rows;
		int n;
		const void* defaults;
		const char* more;
	} interfaces[] = {
		{"world", "pdl_world_def", "WorldDef", world_rows, COUNT(world_rows), &world_def,
		 "\t/** The SPH and DFSPH solvers' settings (ignored by Clavet worlds). */\n\tsph: SphDef;\n"},
		{"boundary", "pdl_boundary_def", "BoundaryDef", boundary_rows, COUNT(boundary_rows), &boundary_def, ""},
		{"fill", "pdl_fill_def", "FillDef", fill_rows, COUNT(fill_rows), &fill_def, ""},
		{"body", "pdl_body_def: a rigid body in the fluid (docs/physics.md, \"Bodies\"); body() returns it with the "
		         "current state", "BodyDef", body_rows, COUNT(body_rows), &body_def, ""},
		{"pointer", "pdl_pointer", "Pointer", pointer_rows, COUNT(pointer_rows), &pointer, ""},
	};
	char cli[1024];
	snprintf(cli, sizeof cli, "%s/docs/cli.md", root);
	t.n = 0;
	snapshot_record(&t, "world", world_rows, COUNT(world_rows));
	snapshot_record(&t, "boundary", boundary_rows, COUNT(boundary_rows));
	snapshot_record(&t, "body", body_rows, COUNT(body_rows));
	ok = section(cli, "snapshot records", t.s, write) && ok;
	for (int i = 0; i < COUNT(interfaces); ++i) {
		t.n = 0;
		ts_def_interface(&t, interfaces[i].c_name, interfaces[i].ts_name, interfaces[i].rows, interfaces[i].n,
		                 interfaces[i].defaults, interfaces[i].more, NULL);
		ok = section(dts, interfaces[i].section, t.s, write) && ok;
	}
	free(t.s);
	if (ok) printf("the generated sections match the field declarations\n");
	return ok ? 0 : 1;
}
