/* Scene files: JSON text to a resolved, validated pdl_scene. Every problem becomes one message
 * "file: json.path: rule, got value"; unknown keys are errors with the nearest known key as a
 * suggestion, since a misspelt key silently ignored is a scene that quietly does something else. */
#include "scene_schema.h"

#include "body_geometry.h"
#include "puddle/suggest.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
	const char* file;
	pdl_error* err;
	pdl_scene* scene;
} parser;

/* Whether the copies of a repeated body overlap: two translates of a centrally symmetric shape K
 * (a box, circle or ball) meet exactly when the step lies inside K - K = 2K, that is when half
 * the step, turned into the body's frame, lies inside the shape. Touching copies are allowed.
 * Polygons (not centrally symmetric) are not checked. */
static bool copies_overlap(const pdl_scene_body* b, bool three)
{
	const pdl_body_def* d = &b->def;
	const double s[3] = {0.5 * b->step.x, 0.5 * b->step.y, three ? 0.5 * b->step.z : 0};
	if (d->shape == PDL_BODY_CIRCLE) return s[0] * s[0] + s[1] * s[1] + s[2] * s[2] < (double)d->radius * d->radius;
	if (d->shape != PDL_BODY_BOX) return false;
	double local[3];
	if (three) { /* by the inverse of the (normalised) orientation: v + w t + u x t, t = 2 u x v, u = -q.xyz */
		const pdl_quat q = d->orientation;
		const double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
		if (!(n > 0)) return false;
		const double u[3] = {-q.x / n, -q.y / n, -q.z / n}, w = q.w / n;
		const double t[3] = {2 * (u[1] * s[2] - u[2] * s[1]), 2 * (u[2] * s[0] - u[0] * s[2]), 2 * (u[0] * s[1] - u[1] * s[0])};
		for (int k = 0; k < 3; ++k) {
			const int a = (k + 1) % 3, c = (k + 2) % 3;
			local[k] = s[k] + w * t[k] + (u[a] * t[c] - u[c] * t[a]);
		}
	} else {
		const double cs = cos(d->angle), sn = sin(d->angle);
		local[0] = cs * s[0] + sn * s[1], local[1] = -sn * s[0] + cs * s[1], local[2] = 0;
	}
	return fabs(local[0]) < d->half_extents.x && fabs(local[1]) < d->half_extents.y &&
	       (!three || fabs(local[2]) < d->half_extents.z);
}

/* A body copy as the overlap check sees it: a box, or a circle (3D: a ball) of radius h[0]. */
typedef struct placed_body {
	int entry, copy;
	bool round, kinematic;
	double centre[3], axis[3][3], h[3], reach; /* reach: a sphere about the centre holds it */
} placed_body;

static double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Half the length of b's shadow on the line along L (any length; the shadow is in its units). */
static double shadow(const placed_body* b, const double L[3])
{
	if (b->round) return b->h[0] * sqrt(dot3(L, L));
	return b->h[0] * fabs(dot3(b->axis[0], L)) + b->h[1] * fabs(dot3(b->axis[1], L)) + b->h[2] * fabs(dot3(b->axis[2], L));
}

/* Whether two bodies overlap by more than rounding: balls by their distance, a box and a ball
 * by the box's point nearest the ball's centre, two boxes when no separating axis (each box's
 * axes, in 3D also their cross products) parts them. Touching bodies are allowed. */
static bool bodies_meet(const placed_body* a, const placed_body* b, bool three)
{
	const double d[3] = {b->centre[0] - a->centre[0], b->centre[1] - a->centre[1], b->centre[2] - a->centre[2]};
	const double tolerance = 1e-5 * (a->reach + b->reach);
	if (dot3(d, d) >= (a->reach + b->reach) * (a->reach + b->reach)) return false;
	if (a->round && b->round) return sqrt(dot3(d, d)) < a->h[0] + b->h[0] - tolerance;
	if (a->round || b->round) {
		const placed_body *box = a->round ? b : a, *ball = a->round ? a : b;
		double gap2 = 0;
		for (int k = 0; k < 3; ++k) {
			const double at = (a->round ? -1 : 1) * dot3(d, box->axis[k]), nearest = fmin(fmax(at, -box->h[k]), box->h[k]);
			gap2 += (at - nearest) * (at - nearest);
		}
		return sqrt(gap2) < ball->h[0] - tolerance;
	}
	const int n = three ? 3 : 2;
	double axes[15][3];
	int count = 0;
	for (int k = 0; k < n; ++k) {
		memcpy(axes[count++], a->axis[k], sizeof axes[0]);
		memcpy(axes[count++], b->axis[k], sizeof axes[0]);
	}
	for (int i = 0; three && i < 3; ++i)
		for (int j = 0; j < 3; ++j) {
			const double *u = a->axis[i], *v = b->axis[j];
			const double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
			if (dot3(c, c) > 1e-12) memcpy(axes[count++], c, sizeof axes[0]); /* not from parallel edges */
		}
	for (int k = 0; k < count; ++k)
		if (fabs(dot3(d, axes[k])) >= shadow(a, axes[k]) + shadow(b, axes[k]) - tolerance * sqrt(dot3(axes[k], axes[k])))
			return false;
	return true;
}

/* "file: path: rule" (or "file: rule" where the path is ""), with the error's id. */
static void fail_with(parser* p, pdl_error_id id, const char* path, const char* fmt, va_list ap)
{
	if (!p->err) return;
	char rule[sizeof p->err->rule];
	vsnprintf(rule, sizeof rule, fmt, ap);
	pdl_error_fill(p->err, id, p->file, path, "%s", rule);
}

/* A value against its rule (PDL_ERR_SCENE_VALUE), the usual failure. */
__attribute__((format(printf, 3, 4))) static void fail(parser* p, const char* path, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_with(p, PDL_ERR_SCENE_VALUE, path, fmt, ap);
	va_end(ap);
}

/* Any other failure: the file (open, read, size), memory, an unknown key. */
__attribute__((format(printf, 4, 5))) static void fail_as(parser* p, pdl_error_id id, const char* path, const char* fmt,
                                                          ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_with(p, id, path, fmt, ap);
	va_end(ap);
}

/* path is the unknown key's own path, "materials[1].rest_densty" */
static void fail_unknown(parser* p, const char* path, const char* key, const char* const* keys, int count)
{
	const char* s = pdl_suggest(key, keys, count);
	if (s) fail_as(p, PDL_ERR_SCENE_KEY, path, "unknown key (did you mean \"%s\"?)", s);
	else fail_as(p, PDL_ERR_SCENE_KEY, path, "unknown key");
}

/* ---- values --------------------------------------------------------------------------------- */

static const char* type_name(const cJSON* v)
{
	if (cJSON_IsNumber(v)) return "a number";
	if (cJSON_IsString(v)) return "a string";
	if (cJSON_IsBool(v)) return "a boolean";
	if (cJSON_IsNull(v)) return "null";
	if (cJSON_IsArray(v)) return "an array";
	if (cJSON_IsObject(v)) return "an object";
	return "something else";
}

/* A number that fits a float and meets the field's range. */
static bool read_number(parser* p, const char* path, const cJSON* v, const scene_field* f, double* out)
{
	if (!cJSON_IsNumber(v)) return fail(p, path, "must be a number, got %s", type_name(v)), false;
	double x = v->valuedouble;
	char rule[96];
	pdl_schema_rule_text(f, rule, sizeof rule);
	if (!isfinite(x) || fabs(x) > FLT_MAX) return fail(p, path, "must be finite, got %g", x), false;
	if (f->type == FT_INT && x != floor(x)) return fail(p, path, "%s, got %g", rule, x), false;
	bool ok = (f->flags & FR_LO_OPEN) ? x > f->lo : x >= f->lo;
	ok = ok && ((f->flags & FR_HI_OPEN) ? x < f->hi : x <= f->hi);
	if (ok && (f->flags & FR_EVEN) && fmod(x, 2.0) != 0) ok = false;
	if (!ok) return fail(p, path, "%s, got %g", rule, x), false;
	/* Every number is stored as a float: one below float's range becomes 0 (or a denormal that
	 * loses its digits), so a "> 0" rule met by the text would be broken by the value stored
	 * (1e-300 -> 0), and `info` would print a scene that `validate` refuses. */
	if ((f->flags & FR_LO_OPEN) && f->lo == 0 && f->type != FT_INT && !((float)x >= FLT_MIN))
		return fail(p, path, "%s and at least %g (the smallest normal float), got %g", rule, FLT_MIN, x), false;
	*out = x;
	return true;
}

/* The first n numbers of the array v (its length checked by the caller), each by the field's
 * rule; a refusal names the element, "world.gravity[1]". */
static bool read_numbers(parser* p, const char* path, const cJSON* v, const scene_field* f, int n, double* c)
{
	for (int i = 0; i < n; ++i) {
		char sub[208]; /* path (< 192) and "[i]" */
		snprintf(sub, sizeof sub, "%s[%d]", path, i);
		if (!read_number(p, sub, cJSON_GetArrayItem(v, i), f, &c[i])) return false;
	}
	return true;
}

/* A vector key: [x, y] in a 2D scene (z keeps its default), [x, y, z] in a 3D scene. */
static bool read_vec(parser* p, const char* path, const cJSON* v, const scene_field* f, pdl_vec3* out)
{
	int n = p->scene->world.dimensions == 3 ? 3 : 2;
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n) {
		if (n == 3) return fail(p, path, "must be [x, y, z] (3 numbers) in a 3D scene"), false;
		return fail(p, path, "must be an array [x, y] of two numbers, got %s", type_name(v)), false;
	}
	double c[3] = {0, 0, out->z};
	if (!read_numbers(p, path, v, f, n, c)) return false;
	*out = (pdl_vec3){(float)c[0], (float)c[1], (float)c[2]};
	return true;
}

/* Polygon vertices: always [x, y] (polygons are 2D only). */
static bool read_vec2(parser* p, const char* path, const cJSON* v, const scene_field* f, pdl_vec2* out)
{
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
		return fail(p, path, "must be an array [x, y] of two numbers, got %s", type_name(v)), false;
	double c[2];
	if (!read_numbers(p, path, v, f, 2, c)) return false;
	*out = (pdl_vec2){(float)c[0], (float)c[1]};
	return true;
}

/* "\"point\", \"line\", ..." : the names of an enum in this scene's dimensions. */
static void enum_list(const parser* p, const scene_field* f, char* list, size_t size)
{
	list[0] = 0;
	for (int i = 0, k = 0; i < f->name_count; ++i) {
		const char* name = pdl_schema_enum_name(f, i, p->scene->world.dimensions);
		if (!name) continue;
		size_t n = strlen(list);
		snprintf(list + n, size - n, "%s\"%s\"", k++ ? ", " : "", name);
	}
}

static bool read_color(parser* p, const char* path, const cJSON* v, uint32_t* out)
{
	const char* s = cJSON_GetStringValue(v);
	bool ok = s && s[0] == '#' && strlen(s) == 7;
	for (int i = 1; ok && i < 7; ++i)
		ok = (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F');
	if (!ok) {
		if (s) return fail(p, path, "must be a colour \"#rrggbb\", got \"%s\"", s), false;
		return fail(p, path, "must be a colour \"#rrggbb\", got %s", type_name(v)), false;
	}
	*out = (uint32_t)strtoul(s + 1, NULL, 16);
	return true;
}

static bool read_field(parser* p, const char* path, const cJSON* v, const scene_field* f, void* base)
{
	char* at = (char*)base + f->offset;
	double x;
	switch (f->type) {
	case FT_FLOAT:
		if (!read_number(p, path, v, f, &x)) return false;
		*(float*)at = (float)x;
		return true;
	case FT_INT: {
		if (!read_number(p, path, v, f, &x)) return false;
		int i = (int)x;
		memcpy(at, &i, sizeof i);
		return true;
	}
	case FT_VEC:
		return read_vec(p, path, v, f, (pdl_vec3*)at);
	case FT_COLOR:
		return read_color(p, path, v, (uint32_t*)at);
	case FT_TEXT: {
		const char* s = cJSON_GetStringValue(v);
		if (!s) return fail(p, path, "must be a string, got %s", type_name(v)), false;
		if (strlen(s) >= f->size) return fail(p, path, "must be at most %d characters", (int)f->size - 1), false;
		memcpy(at, s, strlen(s) + 1);
		return true;
	}
	case FT_ENUM: {
		const char* s = cJSON_GetStringValue(v);
		bool is_3d = p->scene->world.dimensions == 3;
		/* either dimension's name is accepted ("sphere" is "circle" in 2D and the other way
		 * round), but a 2D-only value (no 3D name) is refused in a 3D scene */
		for (int i = 0; s && i < f->name_count; ++i) {
			const char* name3 = f->names_3d ? f->names_3d[i] : f->names[i];
			if (strcmp(s, f->names[i]) != 0 && !(name3 && strcmp(s, name3) == 0)) continue;
			if (is_3d && !name3) return fail(p, path, "\"%s\" is 2D only", s), false;
			int value = f->base + i;
			memcpy(at, &value, sizeof value);
			return true;
		}
		char list[160];
		enum_list(p, f, list, sizeof list);
		if (!s) return fail(p, path, "must be one of %s, got %s", list, type_name(v)), false;
		const char* names[32];
		int count = 0;
		for (int i = 0; i < f->name_count && count < 32; ++i) {
			const char* name = pdl_schema_enum_name(f, i, p->scene->world.dimensions);
			if (name) names[count++] = name;
		}
		const char* near = pdl_suggest(s, names, count);
		if (near) return fail(p, path, "must be one of %s, got \"%s\" (did you mean \"%s\"?)", list, s, near), false;
		return fail(p, path, "must be one of %s, got \"%s\"", list, s), false;
	}
	case FT_MATERIAL: {
		const char* s = cJSON_GetStringValue(v);
		if (!s) return fail(p, path, "must be a material name (a string), got %s", type_name(v)), false;
		int m = pdl_scene_find_material(p->scene, s);
		if (m < 0) {
			const char* names[PDL_MAX_MATERIALS];
			for (int i = 0; i < p->scene->material_count; ++i) names[i] = p->scene->materials[i].name;
			const char* near = pdl_suggest(s, names, p->scene->material_count);
			if (near) return fail(p, path, "no material named \"%s\" (did you mean \"%s\"?)", s, near), false;
			return fail(p, path, "no material named \"%s\"", s), false;
		}
		memcpy(at, &m, sizeof m);
		return true;
	}
	case FT_MATERIALS: {
		int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
		if (n < f->lo || n > f->hi)
			return fail(p, path, "must be an array of %g to %g material names, got %s", f->lo, f->hi,
			            n >= 0 ? "another count" : type_name(v)),
			       false;
		scene_field one = *f;
		one.type = FT_MATERIAL;
		one.offset = 0;
		for (int i = 0; i < n; ++i) {
			char sub[192];
			snprintf(sub, sizeof sub, "%s[%d]", path, i);
			if (!read_field(p, sub, cJSON_GetArrayItem(v, i), &one, (int*)at + i)) return false;
		}
		memcpy((char*)base + f->size, &n, sizeof n);
		return true;
	}
	case FT_QUAT: {
		if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 4)
			return fail(p, path, "must be a quaternion [x, y, z, w] (4 numbers), got %s", type_name(v)), false;
		double c[4];
		if (!read_numbers(p, path, v, f, 4, c)) return false;
		*(pdl_quat*)at = (pdl_quat){(float)c[0], (float)c[1], (float)c[2], (float)c[3]};
		return true;
	}
	case FT_SPIN:
		/* 3D: a vector along the axis; 2D: radians / s about z, one number */
		if (p->scene->world.dimensions == 3) return read_vec(p, path, v, f, (pdl_vec3*)at);
		if (!cJSON_IsNumber(v))
			return fail(p, path, "must be a number (radians / s, counter-clockwise) in a 2D scene, got %s", type_name(v)),
			       false;
		if (!read_number(p, path, v, f, &x)) return false;
		*(pdl_vec3*)at = (pdl_vec3){0, 0, (float)x};
		return true;
	case FT_POINTS:
	case FT_PATH: {
		bool path3 = f->type == FT_PATH && p->scene->world.dimensions == 3;
		const char* shape = path3 ? "[x, y, z]" : "[x, y]";
		int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
		if (n < 0) return fail(p, path, "must be an array of %g to %g points %s, got %s", f->lo, f->hi, shape, type_name(v)), false;
		if (n < f->lo || n > f->hi)
			return fail(p, path, "must be an array of %g to %g points %s, got %d points", f->lo, f->hi, shape, n), false;
		scene_field any = {"", FT_VEC, 0, -HUGE_VAL, HUGE_VAL, 0, NULL, 0, 0, 0, 0, NULL};
		for (int i = 0; i < n; ++i) {
			char sub[192];
			snprintf(sub, sizeof sub, "%s[%d]", path, i);
			bool ok = f->type == FT_PATH ? read_vec(p, sub, cJSON_GetArrayItem(v, i), &any, (pdl_vec3*)at + i)
			                             : read_vec2(p, sub, cJSON_GetArrayItem(v, i), &any, (pdl_vec2*)at + i);
			if (!ok) return false;
		}
		memcpy((char*)base + f->size, &n, sizeof n);
		return true;
	}
	}
	return false;
}

static bool check_duplicates(parser* p, const char* path, const cJSON* object)
{
	for (const cJSON* a = object->child; a; a = a->next)
		for (const cJSON* b = a->next; b; b = b->next)
			if (strcmp(a->string, b->string) == 0) return fail(p, path, "key \"%s\" appears twice", a->string), false;
	return true;
}

static const char* shape_name(const parser* p, const scene_object* o, int shape)
{
	const char* name = pdl_schema_enum_name(&o->fields[o->shape_field], shape, p->scene->world.dimensions);
	return name ? name : o->fields[o->shape_field].names[shape];
}

/* Reads one object against its schema into base (which holds the defaults). *given gets bit i
 * for each field i present. */
static bool read_object(parser* p, const char* path, const cJSON* object, const scene_object* o, void* base,
                        unsigned* given, const char* nested)
{
	if (!cJSON_IsObject(object)) return fail(p, path, "must be an object, got %s", type_name(object)), false;
	if (!check_duplicates(p, path, object)) return false;
	const char* keys[32];
	int key_count = o->field_count;
	for (int i = 0; i < o->field_count; ++i) keys[i] = o->fields[i].key;
	if (nested) keys[key_count++] = nested;
	*given = 0;
	int shape = -1;
	if (o->shape_field >= 0) {
		const scene_field* f = &o->fields[o->shape_field];
		const cJSON* v = cJSON_GetObjectItemCaseSensitive(object, f->key);
		char sub[192];
		snprintf(sub, sizeof sub, "%s.%s", path, f->key);
		if (!v && (f->flags & FR_REQUIRED)) {
			char list[160];
			enum_list(p, f, list, sizeof list);
			return fail(p, sub, "is required (one of %s)", list), false;
		}
		/* an optional shape (solver.kind) keeps the default in base when it is not given */
		if (v && !read_field(p, sub, v, f, base)) return false;
		shape = pdl_schema_shape_index(o, base);
		if (v) *given |= 1u << o->shape_field;
	}
	for (const cJSON* v = object->child; v; v = v->next) {
		int k = -1;
		for (int i = 0; i < o->field_count; ++i)
			if (strcmp(v->string, o->fields[i].key) == 0) k = i;
		char sub[192];
		snprintf(sub, sizeof sub, "%s.%s", path, v->string);
		if (k < 0 && nested && strcmp(v->string, nested) == 0) continue; /* the caller reads it */
		if (k < 0) return fail_unknown(p, sub, v->string, keys, key_count), false;
		if (k == o->shape_field) continue;
		const scene_field* f = &o->fields[k];
		if (f->shapes && shape >= 0 && !(f->shapes & (1u << shape)))
			return fail(p, sub, "is not used by %s \"%s\"", o->fields[o->shape_field].key, shape_name(p, o, shape)), false;
		if (!pdl_schema_in_dimensions(f, p->scene->world.dimensions))
			return fail(p, sub, "is used by %s scenes only (%s)", (f->flags & FR_2D_ONLY) ? "2D" : "3D", f->other_dimension),
			       false;
		if (!read_field(p, sub, v, f, base)) return false;
		*given |= 1u << k;
	}
	for (int i = 0; i < o->field_count; ++i) {
		const scene_field* f = &o->fields[i];
		bool used = (!f->shapes || (shape >= 0 && (f->shapes & (1u << shape)))) &&
		            pdl_schema_in_dimensions(f, p->scene->world.dimensions);
		if ((f->flags & FR_REQUIRED) && used && !(*given & (1u << i))) {
			char sub[192];
			snprintf(sub, sizeof sub, "%s.%s", path, f->key);
			if (shape >= 0 && f->shapes)
				return fail(p, sub, "is required for %s \"%s\"", o->fields[o->shape_field].key, shape_name(p, o, shape)), false;
			return fail(p, sub, "is required"), false;
		}
	}
	return true;
}

static int field_index(const scene_object* o, const char* key)
{
	for (int i = 0; i < o->field_count; ++i)
		if (strcmp(o->fields[i].key, key) == 0) return i;
	return -1;
}

/* An array of objects, each read with the schema into items[i] (of item_size bytes, starting
 * from make_default(i)). */
typedef void (*default_fn)(void* item, int index);
static bool read_list(parser* p, const cJSON* root, const char* key, const scene_object* o, void* items,
                      size_t item_size, int max, int* count, default_fn make_default, unsigned* given)
{
	const cJSON* list = cJSON_GetObjectItemCaseSensitive(root, key);
	*count = 0;
	if (!list) return true;
	if (!cJSON_IsArray(list)) return fail(p, key, "must be an array of objects, got %s", type_name(list)), false;
	int n = cJSON_GetArraySize(list);
	if (n > max) return fail(p, key, "must have at most %d entries, got %d", max, n), false;
	for (int i = 0; i < n; ++i) {
		char path[64];
		snprintf(path, sizeof path, "%s[%d]", key, i);
		void* item = (char*)items + (size_t)i * item_size;
		make_default(item, i);
		if (!read_object(p, path, cJSON_GetArrayItem(list, i), o, item, &given[i], NULL)) return false;
		*count = i + 1;
	}
	return true;
}

static void material_default(void* item, int i) { *(pdl_scene_material*)item = pdl_schema_material_default(i); }
static void obstacle_default(void* item, int i) { (void)i, *(pdl_boundary_def*)item = pdl_schema_obstacle_default(); }
static void fill_default(void* item, int i) { (void)i, *(pdl_scene_fill*)item = pdl_schema_fill_default(); }
static void body_default(void* item, int i) { (void)i, *(pdl_scene_body*)item = pdl_schema_body_default(); }
static void emitter_default(void* item, int i) { (void)i, *(pdl_scene_emitter*)item = pdl_schema_emitter_default(); }
static void stroke_default(void* item, int i) { (void)i, *(pdl_scene_stroke*)item = pdl_schema_stroke_default(); }

/* ---- checks across fields ---------------------------------------------------------------------- */

/* The engine's refusal of one copy of bodies[entry], at the key of the file it concerns:
 * "bodies[2].position: must put the whole body inside the container, it reaches out of a
 * container (the copy at position + 3 * step)". */
static void fail_body(parser* p, int entry, int copy, const pdl_error* e)
{
	const char* field = pdl_error_field(e->id);
	/* the def's names the file spells otherwise; "size" is the whole body's */
	const char* key = strcmp(field, "linear_velocity") == 0        ? "velocity"
	                  : strcmp(field, "vertex_count") == 0          ? "vertices"
	                  : field_index(&pdl_schema_body, field) >= 0 ? field
	                                                                : NULL;
	char path[96], rule[256], which[64] = "";
	if (key) snprintf(path, sizeof path, "bodies[%d].%s", entry, key);
	else snprintf(path, sizeof path, "bodies[%d]", entry);
	const char* text = pdl_error_rule(e->id);
	if (!isnan(e->value)) snprintf(rule, sizeof rule, "%s, got %g", text, e->value);
	else { /* a refusal with a reason in words has it after the rule */
		const char* at = strstr(e->message, text);
		snprintf(rule, sizeof rule, "%s", at ? at : text);
	}
	if (p->scene->bodies[entry].count > 1) snprintf(which, sizeof which, " (the copy at position + %d * step)", copy);
	fail_as(p, e->id, path, "%s%s", rule, which);
}

/* Bodies that overlap (two of them, or copies of two) are pushed apart by their contacts a
 * little every iteration: 200 boxes 0.01 h apart, each its own entry, took 50 times as long a
 * frame. Refused, naming the later one; the copies of one entry are copies_overlap's. A pair of
 * kinematic bodies is left alone (neither moves the other), and so are polygons. */
static bool bodies_apart(parser* p)
{
	const pdl_scene* s = p->scene;
	const bool three = s->world.dimensions == 3;
	int n = 0;
	for (int i = 0; i < s->body_count; ++i) n += s->bodies[i].count; /* at most PDL_MAX_BODIES */
	placed_body* placed = malloc((size_t)(n > 0 ? n : 1) * sizeof *placed);
	if (!placed) return fail_as(p, PDL_ERR_OUT_OF_MEMORY, "bodies", "cannot be checked: out of memory"), false;
	n = 0;
	for (int i = 0; i < s->body_count; ++i)
		for (int k = 0; k < s->bodies[i].count; ++k) {
			const pdl_body_def d = pdl_scene_body_copy(&s->bodies[i], k);
			if (d.shape == PDL_BODY_POLYGON) continue;
			const pdl_body_frame f = pdl_body_frame_of(&d, three);
			placed_body* b = &placed[n++];
			*b = (placed_body){.entry = i, .copy = k, .round = d.shape == PDL_BODY_CIRCLE,
			                   .kinematic = d.type == PDL_BODY_KINEMATIC,
			                   .centre = {d.position.x, d.position.y, three ? d.position.z : 0},
			                   .axis = {{f.ax.x, f.ax.y, f.ax.z}, {f.ay.x, f.ay.y, f.ay.z}, {f.az.x, f.az.y, f.az.z}},
			                   .h = {d.shape == PDL_BODY_CIRCLE ? d.radius : d.half_extents.x,
			                         d.shape == PDL_BODY_CIRCLE ? 0 : d.half_extents.y,
			                         d.shape == PDL_BODY_CIRCLE || !three ? 0 : d.half_extents.z}};
			b->reach = b->round ? b->h[0] : sqrt(dot3(b->h, b->h));
		}
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < j; ++i) {
			const placed_body *a = &placed[i], *b = &placed[j];
			if (a->entry == b->entry || (a->kinematic && b->kinematic) || !bodies_meet(a, b, three)) continue;
			char path[64], other[96] = "", which[64] = "", given[96];
			snprintf(path, sizeof path, "bodies[%d].position", b->entry);
			if (s->bodies[a->entry].count > 1) snprintf(other, sizeof other, "'s copy at position + %d * step", a->copy);
			if (s->bodies[b->entry].count > 1) snprintf(which, sizeof which, " (the copy at position + %d * step)", b->copy);
			const pdl_vec3 at = s->bodies[b->entry].def.position;
			if (three) snprintf(given, sizeof given, "[%g, %g, %g]", at.x, at.y, at.z);
			else snprintf(given, sizeof given, "[%g, %g]", at.x, at.y);
			fail(p, path, "must put the body clear of bodies[%d]%s (bodies that overlap push each other apart a little "
			              "every step, and every frame takes far longer), got %s%s", a->entry, other, given, which);
			free(placed);
			return false;
		}
	free(placed);
	return true;
}

/* The rules the keys do not check one by one. Every field's own rule is the schema's, made from
 * the declarations the engine checks with (puddle/fields.h), so a scene's values are checked
 * once, as they are read; what is left needs more than one field: a polygon obstacle's shape
 * (pdl_polygon_fault, the engine's rule, needs no world), the orders between the diffuse keys
 * (pdl_validate_diffuse, no world either) and the bodies' sizes against material
 * 0's rest spacing and their place inside the container, which need the engine's geometry: a
 * scratch world of the scene's world, material 0 and container takes each body, before any
 * particle exists. */
static bool check_with_engine(parser* p)
{
	pdl_scene* s = p->scene;
	char path[96];
	for (int i = 0; i < s->obstacle_count; ++i)
		if (s->obstacles[i].kind == PDL_BOUNDARY_POLYGON &&
		    pdl_polygon_fault(s->obstacles[i].vertices, s->obstacles[i].vertex_count)) {
			snprintf(path, sizeof path, "obstacles[%d].vertices", i);
			fail_as(p, PDL_ERR_BOUNDARY_VERTICES, path, "%s", pdl_error_rule(PDL_ERR_BOUNDARY_VERTICES));
			return false;
		}
	/* the orders between the diffuse keys (each _min below its _max) are the engine's rules */
	pdl_error e;
	if (pdl_validate_diffuse(&s->diffuse, &e) != PDL_OK) {
		snprintf(path, sizeof path, "diffuse.%s", pdl_error_field(e.id));
		fail_as(p, e.id, path, "%s, got %g", pdl_error_rule(e.id), e.value);
		return false;
	}
	if (s->body_count == 0) return true;
	pdl_world_def wd = s->world;
	wd.threads = 1;
	/* parsing needs no GPU: the backend is checked when the world is built (scene_world.c) */
	wd.backend = PDL_BACKEND_CPU;
	pdl_world* w = pdl_world_create(&wd, &e);
	bool ok = w && pdl_world_add_material(w, &s->materials[0].def, &e) >= 0 &&
	          (!s->has_container || pdl_world_add_boundary(w, &s->container, &e).index >= 0);
	if (!ok) /* the schema took these: only memory can fail here */
		fail_as(p, e.id, "bodies", "cannot be checked: %s", e.message);
	int entry, copy;
	if (ok && !pdl_schema_add_bodies(s, w, &entry, &copy, &e)) {
		fail_body(p, entry, copy, &e);
		ok = false;
	}
	pdl_world_destroy(w);
	return ok && bodies_apart(p);
}

/* The bounding box of a boundary: x and y from its corners (a box turns about z), z from its
 * depth (3D) or 0 (2D). */
static void grow_box(pdl_vec3* lo, pdl_vec3* hi, const pdl_boundary_def* b, int dimensions)
{
	float dz = dimensions == 3 ? (b->kind == PDL_BOUNDARY_CIRCLE_CONTAINER || b->kind == PDL_BOUNDARY_CIRCLE
	                                   ? b->radius
	                                   : b->half_extents.z)
	                           : 0;
	float z = dimensions == 3 ? b->position.z : 0;
	if (b->kind == PDL_BOUNDARY_CIRCLE_CONTAINER || b->kind == PDL_BOUNDARY_CIRCLE) {
		*lo = (pdl_vec3){b->position.x - b->radius, b->position.y - b->radius, z - dz};
		*hi = (pdl_vec3){b->position.x + b->radius, b->position.y + b->radius, z + dz};
		return;
	}
	pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
	int n = pdl_boundary_world_vertices(b, v);
	*lo = (pdl_vec3){v[0].x, v[0].y, z - dz};
	*hi = (pdl_vec3){v[0].x, v[0].y, z + dz};
	for (int i = 1; i < n; ++i) {
		lo->x = fminf(lo->x, v[i].x), lo->y = fminf(lo->y, v[i].y);
		hi->x = fmaxf(hi->x, v[i].x), hi->y = fmaxf(hi->y, v[i].y);
	}
}

/* Defaults that depend on other keys, then rules that join several keys. */
static bool resolve(parser* p, unsigned world_bounds_given, const unsigned* fill_given, const unsigned* body_given,
                    unsigned camera_given)
{
	pdl_scene* s = p->scene;
	float h = s->world.interaction_radius;
	bool is_3d = s->world.dimensions == 3;
	if (!world_bounds_given) {
		if (!s->has_container) return fail(p, "world.bounds", "is required when there is no container"), false;
		pdl_vec3 lo, hi;
		grow_box(&lo, &hi, &s->container, s->world.dimensions);
		float mx = 0.02f * (hi.x - lo.x), my = 0.02f * (hi.y - lo.y), mz = 0.02f * (hi.z - lo.z);
		s->bounds_min = (pdl_vec3){lo.x - mx, lo.y - my, lo.z - mz};
		s->bounds_max = (pdl_vec3){hi.x + mx, hi.y + my, hi.z + mz};
		/* a container near FLT_MAX would frame the world in infinite bounds, which no file can
		 * hold (JSON has no infinity) and no grid can cover */
		if (!(isfinite(s->bounds_max.x - s->bounds_min.x) && isfinite(s->bounds_max.y - s->bounds_min.y) &&
		      isfinite(s->bounds_max.z - s->bounds_min.z)))
			return fail(p, "container", "is too large: the world bounds it implies (the container and 2 %% around) must be finite"),
			       false;
	}
	if (!is_3d) s->bounds_min.z = s->bounds_max.z = 0;
	if (!(s->bounds_max.x > s->bounds_min.x) || !(s->bounds_max.y > s->bounds_min.y))
		return fail(p, "world.bounds", is_3d ? "max must be greater than min on every axis" : "max must be greater than min on both axes"), false;
	if (is_3d && !(s->bounds_max.z > s->bounds_min.z))
		return fail(p, "world.bounds", "max must be greater than min on every axis"), false;
	if (is_3d) {
		/* the keys the file left out come from the framing of the bounds */
		pdl_camera framing = pdl_camera_framing(s->bounds_min, s->bounds_max);
		pdl_camera given = s->camera;
		s->camera = framing;
		const scene_object* o = &pdl_schema_camera;
		for (int i = 0; i < o->field_count; ++i)
			if (camera_given & (1u << i)) {
				const scene_field* f = &o->fields[i];
				size_t size = f->type == FT_VEC ? sizeof(pdl_vec3) : sizeof(float);
				memcpy((char*)&s->camera + f->offset, (const char*)&given + f->offset, size);
			}
	}
	if (s->output.fps == 0) s->output.fps = fminf(240.0f, 1.0f / s->world.dt);
	if (s->output.blob_radius == 0) s->output.blob_radius = h;
	if (s->output.height == 0) {
		/* 2D pictures show the bounds; 3D ones a camera view, framed for 16:9 */
		double aspect = is_3d ? 9.0 / 16.0 : (s->bounds_max.y - s->bounds_min.y) / (s->bounds_max.x - s->bounds_min.x);
		int height = 2 * (int)lround(0.5 * s->output.width * aspect);
		s->output.height = height < 16 ? 16 : height > 8192 ? 8192 : height;
	}
	for (int i = 0; i < s->fill_count; ++i) {
		pdl_fill_def* f = &s->fills[i].def;
		char path[64];
		if (f->shape == PDL_FILL_POINT && !(fill_given[i] & (1u << field_index(&pdl_schema_fill, "count"))))
			f->count = 1;
		if (f->spacing != 0 && f->spacing < 0.01f * h) {
			snprintf(path, sizeof path, "fills[%d].spacing", i);
			return fail(p, path, "must be 0 (rest spacing) or >= 0.01 * solver.interaction_radius = %g, got %g",
			            0.01 * h, f->spacing),
			       false;
		}
	}
	for (int i = 0; i < s->emitter_count; ++i) {
		pdl_scene_emitter* e = &s->emitters[i];
		char path[64];
		snprintf(path, sizeof path, "emitters[%d]", i);
		if (e->velocity.x == 0 && e->velocity.y == 0 && (!is_3d || e->velocity.z == 0))
			return fail(p, path, is_3d ? "velocity must not be [0, 0, 0] (rows are launched along it)"
			                           : "velocity must not be [0, 0] (rows are launched along it)"),
			       false;
		if (!(e->stop > e->start)) return fail(p, path, "stop must be greater than start, got %g <= %g", e->stop, e->start), false;
		if (e->spacing != 0 && e->spacing < 0.01f * h)
			return fail(p, path, "spacing must be 0 (rest spacing) or >= 0.01 * solver.interaction_radius"), false;
	}
	for (int i = 0; i < s->stroke_count; ++i) {
		pdl_scene_stroke* st = &s->strokes[i];
		if (!(st->end > st->start)) {
			char path[64];
			snprintf(path, sizeof path, "strokes[%d].end", i);
			return fail(p, path, "must be greater than start (%g), got %g", st->start, st->end), false;
		}
	}
	long long bodies = 0;
	for (int i = 0; i < s->body_count; ++i) {
		char path[64];
		if (s->bodies[i].count > 1 && !(body_given[i] & (1u << field_index(&pdl_schema_body, "step")))) {
			snprintf(path, sizeof path, "bodies[%d].step", i);
			return fail(p, path, "is required when count > 1 (copies would overlap)"), false;
		}
		if (s->bodies[i].count > 1 && copies_overlap(&s->bodies[i], is_3d)) {
			/* overlapping bodies are pushed apart by their contacts a little each iteration:
			 * 200 boxes 0.01 h apart took 100 times as long a frame and exploded */
			const pdl_vec3 st = s->bodies[i].step;
			char given[96];
			if (is_3d) snprintf(given, sizeof given, "[%g, %g, %g]", st.x, st.y, st.z);
			else snprintf(given, sizeof given, "[%g, %g]", st.x, st.y);
			snprintf(path, sizeof path, "bodies[%d].step", i);
			return fail(p, path, "must move each copy clear of the last (the copies would overlap), got %s", given),
			       false;
		}
		/* A 3D body much lighter than the fluid is flung by the fluid's forces: its velocity
		 * and spin grow by force / mass each substep until their squares overflow float and every
		 * particle turns NaN (1e-25 did within 60 frames of boats-3d, 1e-19 did not). The bound
		 * keeps a margin of 10^13 and still allows bodies a million times lighter than the
		 * fluid; 2D bodies, with smaller moments, stay finite down to 1e-30. */
		if (is_3d && s->bodies[i].def.density < PDL_SCENE_MIN_BODY_DENSITY_3D) {
			snprintf(path, sizeof path, "bodies[%d].density", i);
			return fail(p, path,
			            "must be >= %g in a 3D scene (a lighter body is flung until its speed overflows float), got %g",
			            PDL_SCENE_MIN_BODY_DENSITY_3D, s->bodies[i].def.density),
			       false;
		}
		bodies += s->bodies[i].count;
		if (bodies > PDL_MAX_BODIES) {
			snprintf(path, sizeof path, "bodies[%d].count", i);
			return fail(p, path, "makes %lld bodies in all, more than the %d a world holds", bodies, PDL_MAX_BODIES), false;
		}
	}
	for (int i = 0; i < s->material_count; ++i) {
		if (!s->materials[i].name[0]) {
			char path[64];
			snprintf(path, sizeof path, "materials[%d].name", i);
			return fail(p, path, "must not be empty"), false;
		}
	}
	for (int i = 0; i < s->material_count; ++i)
		for (int j = 0; j < i; ++j)
			if (strcmp(s->materials[i].name, s->materials[j].name) == 0) {
				char path[64];
				snprintf(path, sizeof path, "materials[%d].name", i);
				return fail(p, path, "\"%s\" is already the name of materials[%d]", s->materials[i].name, j), false;
			}
	if (!check_with_engine(p)) return false;
	/* Counted before anything is allocated: a scene asking for a billion particles is refused
	 * here, in microseconds, with the number, instead of running the machine out of memory. */
	int fill_count = s->fill_count, emitter_count = s->emitter_count;
	s->emitter_count = 0;
	for (int i = 0; i < fill_count; ++i) {
		/* the estimate of fills 0 .. i: the scene is too large to copy, so it is cut short */
		s->fill_count = i + 1;
		double total = pdl_scene_estimate_particles(s);
		if (total > s->world.max_particles) {
			char path[64];
			snprintf(path, sizeof path, "fills[%d]", i);
			return fail(p, path, "would make about %.3g particles in all, more than solver.max_particles = %d", total,
			            s->world.max_particles),
			       false;
		}
	}
	s->fill_count = fill_count;
	for (int i = 0; i < emitter_count; ++i) {
		/* fills and emitters 0 .. i, so the message names the emitter that overflows; a single
		 * row larger than the budget is the width's fault */
		char path[64];
		s->emitter_count = i + 1;
		double total = pdl_scene_estimate_particles(s);
		double row = pdl_scene_emitter_row_particles(s, i);
		if (row > s->world.max_particles) {
			snprintf(path, sizeof path, "emitters[%d].width", i);
			s->emitter_count = emitter_count;
			return fail(p, path, "makes rows of about %.3g particles, more than solver.max_particles = %d, got %g", row,
			            s->world.max_particles, s->emitters[i].width),
			       false;
		}
		if (total > s->world.max_particles) {
			snprintf(path, sizeof path, "emitters[%d]", i);
			s->emitter_count = emitter_count;
			return fail(p, path, "would make about %.3g particles in all, more than solver.max_particles = %d", total,
			            s->world.max_particles),
			       false;
		}
	}
	s->emitter_count = emitter_count;
	char path[64], rule[200];
	if (!pdl_schema_check_placement(s, path, sizeof path, rule, sizeof rule)) return fail(p, path, "%s", rule), false;
	return true;
}

/* ---- the file ----------------------------------------------------------------------------------- */

/* Why cJSON refused the text, found again by a small scanner of its own that knows where every
 * string and bracket started: "unterminated string that starts at line 4, column 12" instead of
 * cJSON's error pointer, which lands wherever the damage became visible. It follows cJSON's
 * grammar (any byte <= 32 is white space, a number is what strtod takes, text after the top value
 * is ignored, at most CJSON_NESTING_LIMIT levels); where it finds nothing wrong, the caller falls
 * back to cJSON's position. Iterative, so a deeply nested file cannot exhaust the stack. */
typedef struct json_scan {
	const unsigned char* s;
	size_t n, at;
	int line, column;
	char* rule; /* "invalid JSON: ..." */
	size_t rule_size;
	int err_line, err_column; /* where the message points */
	struct json_mark {
		unsigned char c;
		int line, column;
	} string_start;          /* of the last string read */
	size_t string_at, string_end; /* its opening quote, just after its closing quote */
} json_scan;

typedef struct json_mark json_mark;

static bool js_end(const json_scan* j) { return j->at >= j->n; }
static unsigned char js_peek(const json_scan* j, size_t ahead) { return j->at + ahead < j->n ? j->s[j->at + ahead] : 0; }
static void js_next(json_scan* j)
{
	if (j->s[j->at++] == '\n') j->line++, j->column = 1;
	else j->column++;
}
static void js_white(json_scan* j)
{
	while (!js_end(j) && j->s[j->at] <= 32) js_next(j);
}
static json_mark js_mark(const json_scan* j) { return (json_mark){js_peek(j, 0), j->line, j->column}; }

static bool js_fail(json_scan* j, json_mark at, const char* fmt, ...)
{
	int n = snprintf(j->rule, j->rule_size, "invalid JSON: ");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->rule + n, j->rule_size - (size_t)n, fmt, ap);
	va_end(ap);
	j->err_line = at.line, j->err_column = at.column;
	return true;
}

static bool js_word_char(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '+' || c == '-'; }

/* The token at the cursor as a message shows it: "oil" (a string, cut at 20 characters), 12.5 or
 * tru (a word), '}' (a character), byte 0xc3. */
static void js_token(const json_scan* j, char* out, size_t size)
{
	unsigned char c = js_peek(j, 0);
	size_t k = 0, max = 20;
	if (c == '"') {
		size_t i = 1;
		while (j->at + i < j->n && j->s[j->at + i] != '"' && j->s[j->at + i] != '\n' && k < max) ++i, ++k;
		bool cut = j->at + i < j->n && j->s[j->at + i] != '"' && j->s[j->at + i] != '\n';
		snprintf(out, size, "\"%.*s%s\"", (int)k, (const char*)j->s + j->at + 1, cut ? "..." : "");
	} else if (js_word_char(c)) {
		while (j->at + k < j->n && js_word_char(j->s[j->at + k]) && k < max) ++k;
		snprintf(out, size, "%.*s", (int)k, (const char*)j->s + j->at);
	} else if (c >= 33 && c < 127) {
		snprintf(out, size, "'%c'", c);
	} else {
		snprintf(out, size, "byte 0x%02x", c);
	}
}

static int js_hex4(const json_scan* j, size_t from)
{
	int v = 0;
	for (size_t i = 0; i < 4; ++i) {
		unsigned char c = j->at + from + i < j->n ? j->s[j->at + from + i] : 0;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0) return -1;
		v = v * 16 + d;
	}
	return v;
}

/* A string at the cursor (on its opening quote); false when it is fine (cursor after it). */
static bool js_string(json_scan* j)
{
	json_mark start = js_mark(j);
	size_t start_at = j->at;
	js_next(j);
	for (;;) {
		if (js_end(j) || js_peek(j, 0) == '\n')
			return js_fail(j, start, "unterminated string that starts at line %d, column %d", start.line, start.column);
		unsigned char c = js_peek(j, 0);
		if (c == '"') {
			js_next(j);
			j->string_start = start, j->string_at = start_at, j->string_end = j->at;
			return false;
		}
		if (c != '\\') {
			js_next(j);
			continue;
		}
		json_mark esc = js_mark(j);
		unsigned char e = js_peek(j, 1);
		if (j->at + 1 >= j->n || e == '\n')
			return js_fail(j, start, "unterminated string that starts at line %d, column %d", start.line, start.column);
		if (e == 'u') {
			int u = js_hex4(j, 2);
			bool ok = u >= 0 && !(u >= 0xDC00 && u <= 0xDFFF);
			if (ok && u >= 0xD800 && u <= 0xDBFF) {
				int low = js_peek(j, 6) == '\\' && js_peek(j, 7) == 'u' ? js_hex4(j, 8) : -1;
				ok = low >= 0xDC00 && low <= 0xDFFF;
				if (ok) js_next(j), js_next(j), js_next(j), js_next(j), js_next(j), js_next(j);
			}
			if (!ok)
				return js_fail(j, esc, "invalid \\u escape at line %d, column %d (4 hex digits, surrogates in pairs)",
				               esc.line, esc.column);
			for (int i = 0; i < 6; ++i) js_next(j);
			continue;
		}
		if (!strchr("\"\\/bfnrt", e) || e == 0) {
			if (e >= 33 && e < 127)
				return js_fail(j, esc, "invalid escape \\%c at line %d, column %d", e, esc.line, esc.column);
			return js_fail(j, esc, "invalid escape at line %d, column %d", esc.line, esc.column);
		}
		js_next(j), js_next(j);
	}
}

/* A value's first character is not one: say what it is instead. */
static bool js_not_a_value(json_scan* j, const char* what)
{
	json_mark at = js_mark(j);
	unsigned char c = at.c;
	char token[48];
	js_token(j, token, sizeof token);
	if (c == '\'') return js_fail(j, at, "strings need double quotes, got ' at line %d, column %d", at.line, at.column);
	if (c == '/' && (js_peek(j, 1) == '/' || js_peek(j, 1) == '*'))
		return js_fail(j, at, "comments are not allowed in JSON, at line %d, column %d", at.line, at.column);
	if (strcmp(what, "a key") == 0 && js_word_char(c))
		return js_fail(j, at, "keys must be in double quotes, got %s at line %d, column %d", token, at.line, at.column);
	if (js_word_char(c)) {
		char lower[48];
		size_t k = 0;
		for (; token[k] && k < sizeof lower - 1; ++k) lower[k] = (char)(token[k] >= 'A' && token[k] <= 'Z' ? token[k] + 32 : token[k]);
		lower[k] = 0;
		const char* bare = lower[0] == '-' || lower[0] == '+' ? lower + 1 : lower;
		if (strcmp(bare, "nan") == 0 || strncmp(bare, "inf", 3) == 0)
			return js_fail(j, at, "invalid value %s at line %d, column %d (JSON has no NaN or infinity)", token, at.line,
			               at.column);
		return js_fail(j, at, "invalid value %s at line %d, column %d", token, at.line, at.column);
	}
	if (c == '}' || c == ']' || c == ',' || c == ':')
		return js_fail(j, at, "missing %s before %s at line %d, column %d", what, token, at.line, at.column);
	return js_fail(j, at, "unexpected %s at line %d, column %d, expected %s", token, at.line, at.column, what);
}

/* A word glued to the end of a string, "oil, "rest_density": the string most likely lost its
 * closing quote and ended at the next key's opening one. */
static bool js_glued(json_scan* j, json_mark here)
{
	if (j->at != j->string_end || j->at == 0 || !js_word_char(here.c)) return false;
	char token[48], string[48];
	js_token(j, token, sizeof token);
	json_scan back = *j;
	back.at = j->string_at;
	js_token(&back, string, sizeof string);
	return js_fail(j, j->string_start,
	               "unexpected %s at line %d, column %d, right after the string %s that starts at line %d, column %d "
	               "(a missing closing quote?)",
	               token, here.line, here.column, string, j->string_start.line, j->string_start.column);
}

/* Finds the first problem of a text cJSON refused; false (rule untouched) when it sees none. */
static bool json_diagnose(json_scan* j)
{
	enum { VALUE, KEY, AFTER_KEY, AFTER_VALUE } state = VALUE;
	json_mark* stack = malloc(CJSON_NESTING_LIMIT * sizeof *stack);
	if (!stack) return false;
	int depth = 0;
	json_mark comma = {0, 0, 0}; /* the comma just read, for "trailing comma" */
	bool found = false, done = false;
	if (j->n >= 3 && memcmp(j->s, "\xEF\xBB\xBF", 3) == 0) j->at = 3; /* cJSON skips a UTF-8 BOM */
	while (!found && !done) {
		js_white(j);
		json_mark here = js_mark(j);
		if (js_end(j)) {
			if (depth > 0) {
				json_mark o = stack[depth - 1];
				found = js_fail(j, o, "unexpected end of file: the '%c' at line %d, column %d is never closed", o.c, o.line,
				                o.column);
			} else if (state == VALUE) {
				found = js_fail(j, here, "the file is empty");
			}
			break;
		}
		unsigned char c = here.c;
		if (state == VALUE) {
			if (comma.c && (c == ']' || c == '}')) {
				found = js_fail(j, comma, "trailing comma at line %d, column %d, before '%c'", comma.line, comma.column, c);
			} else if (c == '{' || c == '[') {
				if (depth >= CJSON_NESTING_LIMIT) {
					found = js_fail(j, here, "nested deeper than %d levels at line %d, column %d", CJSON_NESTING_LIMIT,
					                here.line, here.column);
					break;
				}
				stack[depth++] = here;
				js_next(j);
				js_white(j);
				if (js_peek(j, 0) == (c == '{' ? '}' : ']') && !js_end(j)) --depth, js_next(j), state = AFTER_VALUE;
				else state = c == '{' ? KEY : VALUE;
			} else if (c == '"') {
				found = js_string(j);
				state = AFTER_VALUE;
			} else if (c == '-' || (c >= '0' && c <= '9')) {
				char number[64];
				size_t k = 0;
				while (k < sizeof number - 1 && j->at + k < j->n && strchr("0123456789+-eE.", j->s[j->at + k]) && j->s[j->at + k])
					number[k] = (char)j->s[j->at + k], ++k;
				number[k] = 0;
				char* after = number;
				strtod(number, &after);
				if (after == number) found = js_not_a_value(j, "a value");
				for (char* q = number; q < after; ++q) js_next(j);
				state = AFTER_VALUE;
			} else if (j->n - j->at >= 4 && (memcmp(j->s + j->at, "true", 4) == 0 || memcmp(j->s + j->at, "null", 4) == 0)) {
				for (int i = 0; i < 4; ++i) js_next(j);
				state = AFTER_VALUE;
			} else if (j->n - j->at >= 5 && memcmp(j->s + j->at, "false", 5) == 0) {
				for (int i = 0; i < 5; ++i) js_next(j);
				state = AFTER_VALUE;
			} else {
				found = js_not_a_value(j, "a value");
			}
			comma.c = 0;
		} else if (state == KEY) {
			if (comma.c && c == '}') {
				found = js_fail(j, comma, "trailing comma at line %d, column %d, before '}'", comma.line, comma.column);
			} else if (c == '"') {
				found = js_string(j);
				state = AFTER_KEY;
			} else {
				found = js_not_a_value(j, "a key");
			}
			comma.c = 0;
		} else if (state == AFTER_KEY) {
			if (c == ':') {
				js_next(j);
				state = VALUE;
			} else if (!(found = js_glued(j, here))) {
				char token[48];
				js_token(j, token, sizeof token);
				found = js_fail(j, here, "missing colon before %s at line %d, column %d", token, here.line, here.column);
			}
		} else { /* AFTER_VALUE */
			if (depth == 0) {
				done = true; /* cJSON ignores what follows the top value */
				break;
			}
			json_mark o = stack[depth - 1];
			unsigned char close = o.c == '{' ? '}' : ']';
			if (c == ',') {
				comma = here;
				js_next(j);
				state = o.c == '{' ? KEY : VALUE;
			} else if (c == close) {
				--depth;
				js_next(j);
			} else if (c == '}' || c == ']') {
				found = js_fail(j, here, "'%c' at line %d, column %d does not close the '%c' at line %d, column %d", c, here.line,
				                here.column, o.c, o.line, o.column);
			} else if (!(found = js_glued(j, here))) {
				char token[48];
				js_token(j, token, sizeof token);
				if (c == '"' || c == '{' || c == '[' || c == '-' || js_word_char(c))
					found = js_fail(j, here, "missing comma before %s at line %d, column %d", token, here.line, here.column);
				else
					found = js_fail(j, here, "unexpected %s at line %d, column %d, expected ',' or '%c'", token, here.line,
					                here.column, close);
			}
		}
	}
	free(stack);
	return found;
}

static void syntax_error(parser* p, const char* json, size_t length, const char* at)
{
	fail_as(p, PDL_ERR_SCENE_SYNTAX, "", "%s", "");
	if (!p->err) return;
	pdl_error* e = p->err;
	json_scan j = {.s = (const unsigned char*)json, .n = length, .line = 1, .column = 1, .rule = e->rule,
	               .rule_size = sizeof e->rule};
	if (json_diagnose(&j)) {
		e->line = j.err_line, e->column = j.err_column;
	} else {
		/* cJSON's own position, for what the scanner does not see */
		int line = 1, column = 1;
		if (!at || at < json || at > json + length) at = json + length;
		for (const char* c = json; c < at; ++c) {
			if (*c == '\n') line++, column = 1;
			else column++;
		}
		char near[24] = "";
		size_t k = 0;
		for (const char* c = at; c < json + length && *c && *c != '\n' && k < sizeof near - 1; ++c) near[k++] = *c;
		near[k] = 0;
		e->line = line, e->column = column;
		if (k) snprintf(e->rule, sizeof e->rule, "invalid JSON at line %d, column %d, near \"%s\"", line, column, near);
		else snprintf(e->rule, sizeof e->rule, "invalid JSON at line %d, column %d (unexpected end)", line, column);
	}
	snprintf(e->message, sizeof e->message, "%s:%d:%d: %s", p->file, e->line, e->column, e->rule);
}

static void default_name(pdl_scene* s, const char* file)
{
	const char* base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0) n -= 5;
	if (n >= sizeof s->name) n = sizeof s->name - 1;
	memcpy(s->name, base, n);
	s->name[n] = 0;
}

static bool parse_root(parser* p, const cJSON* root)
{
	pdl_scene* s = p->scene;
	if (!cJSON_IsObject(root)) return fail(p, "", "the top level must be an object, got %s", type_name(root)), false;
	if (!check_duplicates(p, "", root)) return false;
	for (const cJSON* v = root->child; v; v = v->next) {
		bool known = false;
		for (int i = 0; i < pdl_schema_top_key_count; ++i) known |= strcmp(v->string, pdl_schema_top_keys[i]) == 0;
		if (!known) return fail_unknown(p, v->string, v->string, pdl_schema_top_keys, pdl_schema_top_key_count), false;
	}
	const cJSON* v;
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "name"))) {
		const char* t = cJSON_GetStringValue(v);
		if (!t) return fail(p, "name", "must be a string, got %s", type_name(v)), false;
		if (strlen(t) >= sizeof s->name) return fail(p, "name", "must be at most %d characters", (int)sizeof s->name - 1), false;
		/* the name is printed (progress, summary, info) and stored in snapshots: a control
		 * character would rewrite the terminal or break a line-based log */
		for (const unsigned char* c = (const unsigned char*)t; *c; ++c)
			if (*c < 0x20 || *c == 0x7f)
				return fail(p, "name", "must not contain control characters, got byte 0x%02x at %d", *c, (int)(c - (const unsigned char*)t)),
				       false;
		snprintf(s->name, sizeof s->name, "%s", t);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "description"))) {
		const char* t = cJSON_GetStringValue(v);
		if (!t) return fail(p, "description", "must be a string, got %s", type_name(v)), false;
		if (strlen(t) >= sizeof s->description)
			return fail(p, "description", "must be at most %d characters", (int)sizeof s->description - 1), false;
		snprintf(s->description, sizeof s->description, "%s", t);
	}
	unsigned given[PDL_SCENE_MAX_FILLS], bounds_given = 0, camera_given = 0;
	/* world.dimensions first: it decides how many numbers every vector key has */
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "world")) && cJSON_IsObject(v)) {
		const cJSON* d = cJSON_GetObjectItemCaseSensitive(v, "dimensions");
		int k = field_index(&pdl_schema_world, "dimensions");
		if (d && !read_field(p, "world.dimensions", d, &pdl_schema_world.fields[k], s)) return false;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "world"))) {
		/* "bounds" is the one nested object: read apart, with its own table */
		if (!read_object(p, "world", v, &pdl_schema_world, s, &given[0], "bounds")) return false;
		const cJSON* bounds = cJSON_GetObjectItemCaseSensitive(v, "bounds");
		if (bounds) {
			if (!read_object(p, "world.bounds", bounds, &pdl_schema_bounds, s, &given[0], NULL)) return false;
			bounds_given = 1;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "solver")) && !read_object(p, "solver", v, &pdl_schema_solver, s, &given[0], NULL))
		return false;
	if (!cJSON_GetObjectItemCaseSensitive(root, "materials"))
		return fail(p, "materials", "is required (an array of at least one material)"), false;
	if (!read_list(p, root, "materials", &pdl_schema_material, s->materials, sizeof s->materials[0], PDL_MAX_MATERIALS,
	               &s->material_count, material_default, given))
		return false;
	if (s->material_count == 0) return fail(p, "materials", "must have at least one material"), false;
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "container"))) {
		s->container = pdl_schema_container_default();
		if (!read_object(p, "container", v, &pdl_schema_container, &s->container, &given[0], NULL)) return false;
		s->has_container = true;
	}
	if (!read_list(p, root, "obstacles", &pdl_schema_obstacle, s->obstacles, sizeof s->obstacles[0],
	               PDL_SCENE_MAX_OBSTACLES, &s->obstacle_count, obstacle_default, given) ||
	    !read_list(p, root, "emitters", &pdl_schema_emitter, s->emitters, sizeof s->emitters[0], PDL_SCENE_MAX_EMITTERS,
	               &s->emitter_count, emitter_default, given) ||
	    !read_list(p, root, "strokes", &pdl_schema_stroke, s->strokes, sizeof s->strokes[0], PDL_SCENE_MAX_STROKES,
	               &s->stroke_count, stroke_default, given))
		return false;
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "output")) && !read_object(p, "output", v, &pdl_schema_output, &s->output, &given[0], NULL))
		return false;
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "camera"))) {
		if (s->world.dimensions != 3)
			return fail(p, "camera", "is used by 3D scenes only (world.dimensions 3)"), false;
		s->camera = pdl_default_camera();
		if (!read_object(p, "camera", v, &pdl_schema_camera, &s->camera, &camera_given, NULL)) return false;
		s->has_camera = true;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(root, "diffuse")) &&
	    !read_object(p, "diffuse", v, &pdl_schema_diffuse, s, &given[0], NULL))
		return false;
	/* fills and bodies last: their "given" masks are needed by resolve() */
	if (!read_list(p, root, "fills", &pdl_schema_fill, s->fills, sizeof s->fills[0], PDL_SCENE_MAX_FILLS, &s->fill_count,
	               fill_default, given))
		return false;
	unsigned* body_given = malloc(PDL_SCENE_MAX_BODIES * sizeof *body_given);
	if (!body_given) return fail_as(p, PDL_ERR_OUT_OF_MEMORY, "", "out of memory"), false;
	bool ok = read_list(p, root, "bodies", &pdl_schema_body, s->bodies, sizeof s->bodies[0], PDL_SCENE_MAX_BODIES,
	                    &s->body_count, body_default, body_given) &&
	          resolve(p, bounds_given, given, body_given, camera_given);
	free(body_given);
	return ok;
}

pdl_scene* pdl_scene_parse(const char* json, size_t length, const char* file, pdl_error* err)
{
	if (!file) file = "<scene>";
	if (err) memset(err, 0, sizeof *err);
	pdl_scene* s = malloc(sizeof *s);
	parser p = {file, err, s};
	if (!s) return fail_as(&p, PDL_ERR_OUT_OF_MEMORY, "", "out of memory"), NULL;
	pdl_schema_scene_defaults(s);
	default_name(s, file);
	snprintf(s->source, sizeof s->source, "%s", file);
	if (!json) {
		fail_as(&p, PDL_ERR_NULL_ARGUMENT, "", "no text");
		free(s);
		return NULL;
	}
	const char* end = NULL;
	cJSON* root = cJSON_ParseWithLengthOpts(json, length, &end, false);
	if (!root) {
		syntax_error(&p, json, length, end ? end : cJSON_GetErrorPtr());
		free(s);
		return NULL;
	}
	bool ok = parse_root(&p, root);
	cJSON_Delete(root);
	if (!ok) {
		free(s);
		return NULL;
	}
	return s;
}

pdl_scene* pdl_scene_load(const char* path, pdl_error* err)
{
	parser p = {path ? path : "<null>", err, NULL};
	if (!path) return fail_as(&p, PDL_ERR_FILE_NAME, "", "no file name"), NULL;
	FILE* f = fopen(path, "rb");
	if (!f) return fail_as(&p, PDL_ERR_FILE_OPEN, "", "cannot open: %s", strerror(errno)), NULL;
	/* scene files are small; refuse anything that is clearly not one before reading it all */
	const long limit = 16L << 20;
	char* text = malloc((size_t)limit + 1);
	if (!text) {
		fclose(f);
		return fail_as(&p, PDL_ERR_OUT_OF_MEMORY, "", "out of memory"), NULL;
	}
	size_t n = fread(text, 1, (size_t)limit + 1, f);
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad || n > (size_t)limit) {
		free(text);
		if (bad) return fail_as(&p, PDL_ERR_FILE_READ, "", "cannot read: %s", strerror(errno)), NULL;
		return fail_as(&p, PDL_ERR_FILE_SIZE, "", "is larger than 16 MiB; scene files are small JSON files"), NULL;
	}
	text[n] = 0;
	pdl_scene* s = pdl_scene_parse(text, n, path, err);
	free(text);
	return s;
}

int pdl_scene_find_material(const pdl_scene* s, const char* name)
{
	if (!s || !name) return -1;
	for (int i = 0; i < s->material_count; ++i)
		if (strcmp(s->materials[i].name, name) == 0) return i;
	return -1;
}
