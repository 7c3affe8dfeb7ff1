/* The resolved scene back to JSON, every default written out, walking the same schema tables as
 * the parser, so parse(to_json(scene)) is the same scene (tested). `puddle info` prints it. */
#include "scene_schema.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest decimal that reads back as the same float, so files stay readable (0.1, not
 * 0.100000001490116) and still round-trip exactly. */
static cJSON* float_item(float v)
{
	char buf[32];
	for (int digits = 6; digits <= 9; ++digits) {
		snprintf(buf, sizeof buf, "%.*g", digits, (double)v);
		if (strtof(buf, NULL) == v) break;
	}
	return cJSON_CreateRaw(buf);
}

static cJSON* vec2_item(pdl_vec2 v)
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, float_item(v.x));
	cJSON_AddItemToArray(a, float_item(v.y));
	return a;
}

/* [x, y] in a 2D scene, [x, y, z] in a 3D one */
static cJSON* vec_item(pdl_vec3 v, int dimensions)
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, float_item(v.x));
	cJSON_AddItemToArray(a, float_item(v.y));
	if (dimensions == 3) cJSON_AddItemToArray(a, float_item(v.z));
	return a;
}

static cJSON* field_item(const pdl_scene* s, const scene_field* f, const void* base)
{
	const char* at = (const char*)base + f->offset;
	switch (f->type) {
	case FT_FLOAT: return float_item(*(const float*)at);
	case FT_INT: {
		int i;
		memcpy(&i, at, sizeof i);
		return cJSON_CreateNumber(i);
	}
	case FT_VEC: return vec_item(*(const pdl_vec3*)at, s->world.dimensions);
	case FT_COLOR: {
		char c[8];
		pdl_schema_color_text(*(const uint32_t*)at, c);
		return cJSON_CreateString(c);
	}
	case FT_TEXT: return cJSON_CreateString(at);
	case FT_ENUM: {
		int i;
		memcpy(&i, at, sizeof i);
		const char* name = pdl_schema_enum_name(f, i - f->base, s->world.dimensions);
		return cJSON_CreateString(name ? name : "?");
	}
	case FT_MATERIAL: {
		int m;
		memcpy(&m, at, sizeof m);
		return cJSON_CreateString(m >= 0 && m < s->material_count ? s->materials[m].name : "?");
	}
	case FT_MATERIALS: {
		int n;
		memcpy(&n, (const char*)base + f->size, sizeof n);
		cJSON* a = cJSON_CreateArray();
		for (int i = 0; i < n; ++i) {
			int m = ((const int*)at)[i];
			cJSON_AddItemToArray(a, cJSON_CreateString(m >= 0 && m < s->material_count ? s->materials[m].name : "?"));
		}
		return a;
	}
	case FT_POINTS: {
		int n;
		memcpy(&n, (const char*)base + f->size, sizeof n);
		cJSON* a = cJSON_CreateArray();
		for (int i = 0; i < n; ++i) cJSON_AddItemToArray(a, vec2_item(((const pdl_vec2*)at)[i]));
		return a;
	}
	case FT_QUAT: {
		const pdl_quat* q = (const pdl_quat*)at;
		cJSON* a = cJSON_CreateArray();
		const float c[4] = {q->x, q->y, q->z, q->w};
		for (int i = 0; i < 4; ++i) cJSON_AddItemToArray(a, float_item(c[i]));
		return a;
	}
	case FT_SPIN: {
		const pdl_vec3* w = (const pdl_vec3*)at;
		return s->world.dimensions == 3 ? vec_item(*w, 3) : float_item(w->z);
	}
	case FT_PATH: {
		int n;
		memcpy(&n, (const char*)base + f->size, sizeof n);
		cJSON* a = cJSON_CreateArray();
		for (int i = 0; i < n; ++i) cJSON_AddItemToArray(a, vec_item(((const pdl_vec3*)at)[i], s->world.dimensions));
		return a;
	}
	}
	return cJSON_CreateNull();
}

static void add_field(cJSON* obj, const pdl_scene* s, const scene_field* f, int shape, const void* base)
{
	if (f->shapes && (shape < 0 || !(f->shapes & (1u << shape)))) return;
	if (!pdl_schema_in_dimensions(f, s->world.dimensions)) return;
	if (f->flags & FR_OMIT_EMPTY) {
		int n;
		memcpy(&n, (const char*)base + f->size, sizeof n);
		if (n == 0) return;
	}
	cJSON_AddItemToObject(obj, f->key, field_item(s, f, base));
}

/* The keys in table order, a key with `after` right after the key it names. */
static cJSON* object_item(const pdl_scene* s, const scene_object* o, const void* base)
{
	cJSON* obj = cJSON_CreateObject();
	int shape = pdl_schema_shape_index(o, base);
	for (int i = 0; i < o->field_count; ++i) {
		const scene_field* f = &o->fields[i];
		if (f->after) continue;
		add_field(obj, s, f, shape, base);
		for (int k = 0; k < o->field_count; ++k)
			if (o->fields[k].after && strcmp(o->fields[k].after, f->key) == 0) add_field(obj, s, &o->fields[k], shape, base);
	}
	return obj;
}

static cJSON* list_item(const pdl_scene* s, const scene_object* o, const void* items, size_t size, int count)
{
	cJSON* a = cJSON_CreateArray();
	for (int i = 0; i < count; ++i) cJSON_AddItemToArray(a, object_item(s, o, (const char*)items + (size_t)i * size));
	return a;
}

char* pdl_scene_to_json(const pdl_scene* s)
{
	if (!s) return NULL;
	cJSON* root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", s->name);
	cJSON_AddStringToObject(root, "description", s->description);
	cJSON* world = object_item(s, &pdl_schema_world, s);
	cJSON_AddItemToObject(world, "bounds", object_item(s, &pdl_schema_bounds, s));
	cJSON_AddItemToObject(root, "world", world);
	cJSON_AddItemToObject(root, "solver", object_item(s, &pdl_schema_solver, s));
	cJSON_AddItemToObject(root, "materials",
	                      list_item(s, &pdl_schema_material, s->materials, sizeof s->materials[0], s->material_count));
	if (s->has_container) cJSON_AddItemToObject(root, "container", object_item(s, &pdl_schema_container, &s->container));
	cJSON_AddItemToObject(root, "obstacles",
	                      list_item(s, &pdl_schema_obstacle, s->obstacles, sizeof s->obstacles[0], s->obstacle_count));
	cJSON_AddItemToObject(root, "fills", list_item(s, &pdl_schema_fill, s->fills, sizeof s->fills[0], s->fill_count));
	/* written only when there are bodies, so that the text of a scene without them, and with it
	 * the hash its snapshots carry, stays what it was before scenes had bodies */
	if (s->body_count)
		cJSON_AddItemToObject(root, "bodies", list_item(s, &pdl_schema_body, s->bodies, sizeof s->bodies[0], s->body_count));
	cJSON_AddItemToObject(root, "emitters",
	                      list_item(s, &pdl_schema_emitter, s->emitters, sizeof s->emitters[0], s->emitter_count));
	cJSON_AddItemToObject(root, "strokes", list_item(s, &pdl_schema_stroke, s->strokes, sizeof s->strokes[0], s->stroke_count));
	cJSON_AddItemToObject(root, "output", object_item(s, &pdl_schema_output, &s->output));
	/* 3D scenes: the resolved camera, also when the file gave none (it is then the framing) */
	if (s->world.dimensions == 3) cJSON_AddItemToObject(root, "camera", object_item(s, &pdl_schema_camera, &s->camera));
	/* only when on, so that the text of a scene without them stays what it was */
	if (s->diffuse.enabled) cJSON_AddItemToObject(root, "diffuse", object_item(s, &pdl_schema_diffuse, s));
	char* text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) return NULL;
	/* cJSON allocates with its own hooks (malloc by default); hand back a plain malloc copy so
	 * that callers can always free() it */
	char* out = malloc(strlen(text) + 1);
	if (out) memcpy(out, text, strlen(text) + 1);
	cJSON_free(text);
	return out;
}

uint64_t pdl_scene_hash(const pdl_scene* s)
{
	if (!s) return 0;
	/* only what changes the simulation: threads give bitwise-equal results and the output
	 * section only changes pictures */
	pdl_scene* sim = pdl_scene_clone(s);
	if (!sim) return 0;
	sim->world.threads = 0;
	memset(&sim->output, 0, sizeof sim->output);
	memset(&sim->camera, 0, sizeof sim->camera); /* pictures only */
	sim->diffuse = pdl_default_diffuse_def();    /* never feed back into the fluid */
	sim->name[0] = 0;
	sim->source[0] = 0;
	sim->description[0] = 0;
	char* text = pdl_scene_to_json(sim);
	pdl_scene_destroy(sim);
	uint64_t h = 0xcbf29ce484222325ull;
	for (const char* c = text; c && *c; ++c) h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	free(text);
	return h;
}
