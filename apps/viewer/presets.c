/* puddle-view: the material presets (water, lava, slime, stratify), read from the one file the
 * viewer and the web page share, scenes/presets/materials.json, and scaled to the scene they
 * are applied to.
 *
 * The file writes every value for a reference scene (h = 1, |g| = 10, rest density 4, mass 1,
 * the shipped water scenes) and gives each field a unit: 'g' (an acceleration, so a stiffness
 * in units of gravity), 'g/h' (1/s^2), 'sqrt(g/h)' (1/s), '1/h' (1/length), 'rest_density' and
 * 'mass' (relative to the scene's own), '1' (ratios and fractions of h). viewer_preset_material
 * multiplies each value by its unit's ratio between the scene and the reference: the same rule
 * as web/demo/presets.js, which reads the same table.
 *
 * The file is parsed with the cJSON that puddle_io is built with.
 *
 * SPDX-License-Identifier: MIT */
#include "viewer.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* ---- The table ------------------------------------------------------------------------------ */

/* The scale units of puddle/fields.h (PDL_MATERIAL_FIELDS' scale column). */
typedef enum preset_unit {
	UNIT_ONE = 0,
	UNIT_G,
	UNIT_G_PER_H,
	UNIT_SQRT_G_PER_H,
	UNIT_PER_H,
	UNIT_H,
	UNIT_H2,
	UNIT_REST_DENSITY,
	UNIT_MASS,
	UNIT_NONE, /* not a number: colours */
	UNIT_COUNT
} preset_unit;

/* The material's fields as declared (puddle/fields.h): name (in the file, the core's JSON and
 * the web API), offset, scale unit and slider range at the reference scene. */
static const struct {
	const char* name;
	size_t offset;
	preset_unit unit;
	float ui_lo, ui_hi;
	bool ui_log;
} fields[] = {
#define MATERIAL_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, ...) \
	{#name, offsetof(pdl_material_def, name), UNIT_##scale, (float)(ui_lo), (float)(ui_hi), (ui_log) != 0},
	PDL_MATERIAL_FIELDS(MATERIAL_FIELD, ~)
#undef MATERIAL_FIELD
};
#define FIELD_COUNT ((int)(sizeof fields / sizeof fields[0]))

/* The solver's (pdl_sph_def) and the world's number fields as declared, for the Solver and
 * World sections: the same columns, and for the solver's the solvers that read each. */
typedef struct def_field {
	const char *name, *doc;
	size_t offset;
	bool is_int;
	preset_unit unit;
	float ui_lo, ui_hi;
	bool ui_log;
	unsigned solvers; /* bits 1 << pdl_solver_kind */
} def_field;
enum {
	SOLVERS_SPH = 1u << PDL_SOLVER_SPH,
	SOLVERS_DFSPH = 1u << PDL_SOLVER_DFSPH,
	SOLVERS_SPH_ANY = SOLVERS_SPH | SOLVERS_DFSPH,
	SOLVERS_ALL = (1u << PDL_SOLVER_KIND_COUNT) - 1
};
#define DEF_FIELD_TYPE_F32 false
#define DEF_FIELD_TYPE_I32 true
#define DEF_FIELD_TYPE_VEC3 false
#define DEF_FIELD_TYPE_ENUM true
static const def_field sph_fields[] = {
#define SPH_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, solvers, doc) \
	{#name, doc, offsetof(pdl_sph_def, name), DEF_FIELD_TYPE_##type, UNIT_##scale, (float)(ui_lo), (float)(ui_hi),   \
	 (ui_log) != 0, SOLVERS_##solvers},
	PDL_SPH_FIELDS(SPH_FIELD, ~)
#undef SPH_FIELD
};
static const def_field world_fields[] = {
#define WORLD_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, key, \
                    snap, since, doc)                                                                                  \
	{#name, doc, offsetof(pdl_world_def, name), DEF_FIELD_TYPE_##type, UNIT_##scale, (float)(ui_lo), (float)(ui_hi), \
	 (ui_log) != 0, SOLVERS_ALL},
	PDL_WORLD_FIELDS(WORLD_FIELD, ~)
#undef WORLD_FIELD
};

typedef struct preset_entry {
	char name[32];
	/* the solver it is made for (the file's "solvers"; Clavet when it is not listed), and the
	 * world.sph settings it brings for DFSPH */
	pdl_solver_kind solver;
	float density_tolerance, divergence_tolerance;
	int max_iterations;
	int layer_count;
	char layer_names[VIEWER_PRESET_MAX_LAYERS][32];
	pdl_material_def layers[VIEWER_PRESET_MAX_LAYERS]; /* at the reference scene */
} preset_entry;

static struct {
	int count;
	preset_entry presets[VIEWER_MAX_PRESETS];
	/* the file's reference scene; the shipped one until a file is read */
	viewer_preset_basis reference;
} table = {.reference = {1.0f, 10.0f, 4.0f, 1.0f}};

static float* field_of(pdl_material_def* def, int f)
{
	return (float*)(void*)((char*)def + fields[f].offset);
}

int viewer_preset_count(void)
{
	return table.count;
}

const char* viewer_preset_name(int preset)
{
	return preset >= 0 && preset < table.count ? table.presets[preset].name : "?";
}

int viewer_preset_find(const char* name)
{
	for (int p = 0; p < table.count; ++p) {
		if (strcmp(table.presets[p].name, name) == 0) return p;
	}
	return -1;
}

int viewer_preset_layer_count(int preset)
{
	return preset >= 0 && preset < table.count ? table.presets[preset].layer_count : 0;
}

/* ---- Reading the file ----------------------------------------------------------------------- */

static bool number(const cJSON* object, const char* key, float* out, char* err, int err_size)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) {
		snprintf(err, (size_t)err_size, "%s: missing or not a finite number", key);
		return false;
	}
	*out = (float)item->valuedouble;
	return true;
}

static bool read_layer(const cJSON* item, preset_entry* p, char* err, int err_size)
{
	int k = p->layer_count;
	pdl_material_def def = pdl_default_material_def();
	const cJSON* field;
	cJSON_ArrayForEach(field, item)
	{
		const char* key = field->string;
		if (strcmp(key, "about") == 0) continue;
		if (strcmp(key, "name") == 0 && cJSON_IsString(field)) {
			snprintf(p->layer_names[k], sizeof p->layer_names[k], "%s", field->valuestring);
			continue;
		}
		if (strcmp(key, "color") == 0) {
			unsigned rgb;
			if (!cJSON_IsString(field) || sscanf(field->valuestring, "#%6x", &rgb) != 1) {
				snprintf(err, (size_t)err_size, "%s[%d].color: not a \"#rrggbb\" string", p->name, k);
				return false;
			}
			def.color = rgb;
			continue;
		}
		int f = 0;
		while (f < FIELD_COUNT && strcmp(fields[f].name, key) != 0) ++f;
		if (f == FIELD_COUNT || fields[f].unit == UNIT_NONE || !cJSON_IsNumber(field)) {
			snprintf(err, (size_t)err_size, "%s[%d].%s: not a material field with a number", p->name, k, key);
			return false;
		}
		*field_of(&def, f) = (float)field->valuedouble;
	}
	p->layers[k] = def;
	p->layer_count = k + 1;
	return true;
}

const char* const viewer_solver_names[PDL_SOLVER_KIND_COUNT] = {"clavet", "sph", "dfsph"};

/* The file's "solvers": per preset its solver and, for DFSPH, the world.sph settings. */
static bool read_solvers(const cJSON* solvers, char* err, int err_size)
{
	const cJSON* item;
	cJSON_ArrayForEach(item, solvers)
	{
		if (strcmp(item->string, "about") == 0) continue;
		int p = viewer_preset_find(item->string);
		const cJSON* kind = cJSON_GetObjectItemCaseSensitive(item, "kind");
		int k = 0;
		while (cJSON_IsString(kind) && k < PDL_SOLVER_KIND_COUNT && strcmp(viewer_solver_names[k], kind->valuestring) != 0)
			++k;
		if (p < 0 || !cJSON_IsString(kind) || k == PDL_SOLVER_KIND_COUNT) {
			snprintf(err, (size_t)err_size, "solvers.%s: %s", item->string,
			         p < 0 ? "no preset of that name" : "kind must be clavet, sph or dfsph");
			return false;
		}
		preset_entry* e = &table.presets[p];
		e->solver = (pdl_solver_kind)k;
		float iterations = 0;
		if (e->solver == PDL_SOLVER_DFSPH &&
		    (!number(item, "density_tolerance", &e->density_tolerance, err, err_size) ||
		     !number(item, "divergence_tolerance", &e->divergence_tolerance, err, err_size) ||
		     !number(item, "max_iterations", &iterations, err, err_size)))
			return false;
		e->max_iterations = (int)iterations;
	}
	return true;
}

static bool read_table(const cJSON* root, char* err, int err_size)
{
	const cJSON* reference = cJSON_GetObjectItemCaseSensitive(root, "reference");
	viewer_preset_basis* r = &table.reference;
	if (!number(reference, "h", &r->h, err, err_size) || !number(reference, "g", &r->g, err, err_size) ||
	    !number(reference, "rest_density", &r->rest_density, err, err_size) ||
	    !number(reference, "mass", &r->mass, err, err_size))
		return false;

	/* each field scales as its declaration's `scale` says (fields[] above; the page reads the
	 * same from web/demo/sliders.js) */
	const cJSON* presets = cJSON_GetObjectItemCaseSensitive(root, "presets");
	const cJSON* item;
	cJSON_ArrayForEach(item, presets)
	{
		if (table.count == VIEWER_MAX_PRESETS) break;
		preset_entry* p = &table.presets[table.count];
		memset(p, 0, sizeof *p);
		snprintf(p->name, sizeof p->name, "%s", item->string);
		const cJSON* layer;
		cJSON_ArrayForEach(layer, item)
		{
			if (p->layer_count == VIEWER_PRESET_MAX_LAYERS) break;
			if (!read_layer(layer, p, err, err_size)) return false;
		}
		if (p->layer_count == 0) {
			snprintf(err, (size_t)err_size, "presets.%s: no materials", p->name);
			return false;
		}
		++table.count;
	}
	if (table.count == 0) {
		snprintf(err, (size_t)err_size, "no presets");
		return false;
	}
	return read_solvers(cJSON_GetObjectItemCaseSensitive(root, "solvers"), err, err_size);
}

static char load_problem[700];

const char* viewer_presets_problem(void)
{
	return load_problem;
}

bool viewer_presets_load(const char* path)
{
	char* err = load_problem;
	int err_size = (int)sizeof load_problem;
	load_problem[0] = '\0';
	table.count = 0;
	FILE* f = fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, (size_t)err_size, "%s: cannot open", path);
		return false;
	}
	char* text = NULL;
	long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (size > 0 && fseek(f, 0, SEEK_SET) == 0) text = malloc((size_t)size + 1);
	bool read = text != NULL && fread(text, 1, (size_t)size, f) == (size_t)size;
	fclose(f);
	if (!read) {
		free(text);
		snprintf(err, (size_t)err_size, "%s: cannot read", path);
		return false;
	}
	text[size] = '\0';
	cJSON* root = cJSON_Parse(text);
	free(text);
	char why[200] = "not JSON";
	bool ok = root != NULL && read_table(root, why, sizeof why);
	cJSON_Delete(root);
	if (!ok) {
		table.count = 0;
		snprintf(err, (size_t)err_size, "%s: %s", path, why);
	}
	return ok;
}

/* ---- Scaling and applying --------------------------------------------------------------------- */

viewer_preset_basis viewer_preset_basis_of(const pdl_world* world)
{
	pdl_world_def def = pdl_world_get_def(world);
	viewer_preset_basis b;
	b.h = def.interaction_radius;
	b.g = sqrtf(def.gravity.x * def.gravity.x + def.gravity.y * def.gravity.y + def.gravity.z * def.gravity.z);
	if (!(b.g > 0)) b.g = 10.0f * b.h;
	b.rest_density = 0;
	b.mass = 0;
	int n = pdl_world_material_count(world);
	for (int m = 0; m < n; ++m) {
		pdl_material_def md = pdl_world_get_material(world, m);
		b.rest_density += md.rest_density / (float)n;
		b.mass += md.mass / (float)n;
	}
	if (n == 0) b.rest_density = 4, b.mass = 1;
	return b;
}

static double unit_factor(preset_unit unit, const viewer_preset_basis* s, const viewer_preset_basis* r)
{
	double rate = ((double)s->g / s->h) / ((double)r->g / r->h);
	switch (unit) {
	case UNIT_G:
		return (double)s->g / r->g;
	case UNIT_G_PER_H:
		return rate;
	case UNIT_SQRT_G_PER_H:
		return sqrt(rate);
	case UNIT_PER_H:
		return (double)r->h / s->h;
	case UNIT_H:
		return (double)s->h / r->h;
	case UNIT_H2:
		return ((double)s->h / r->h) * ((double)s->h / r->h);
	case UNIT_REST_DENSITY:
		return (double)s->rest_density / r->rest_density;
	case UNIT_MASS:
		return (double)s->mass / r->mass;
	default:
		return 1.0;
	}
}

pdl_material_def viewer_preset_material(int preset, int layer, const viewer_preset_basis* basis)
{
	if (preset < 0 || preset >= table.count) return pdl_default_material_def();
	const struct preset_entry* p = &table.presets[preset];
	pdl_material_def m = p->layers[layer < 0 ? 0 : layer % p->layer_count];
	for (int f = 0; f < FIELD_COUNT; ++f) {
		if (fields[f].unit == UNIT_NONE) continue;
		float* v = field_of(&m, f);
		*v = (float)(*v * unit_factor(fields[f].unit, basis, &table.reference));
	}
	return m;
}

int viewer_material_slider_count(void)
{
	return FIELD_COUNT;
}

bool viewer_material_slider_of(int f, const viewer_preset_basis* basis, viewer_material_slider* out)
{
	if (f < 0 || f >= FIELD_COUNT || fields[f].unit == UNIT_NONE) return false;
	float k = (float)unit_factor(fields[f].unit, basis, &table.reference);
	out->name = fields[f].name;
	out->offset = fields[f].offset;
	out->lo = fields[f].ui_lo * k;
	out->hi = fields[f].ui_hi * k;
	out->log = fields[f].ui_log;
	return true;
}

/* Field f of a declared list as a slider for a world running `solver` (false: no slider, or
 * not this solver's). */
static bool def_slider_of(const def_field* list, int count, int f, pdl_solver_kind solver,
                          const viewer_preset_basis* basis, viewer_def_slider* out)
{
	if (f < 0 || f >= count || list[f].unit == UNIT_NONE || !(list[f].solvers & (1u << solver))) return false;
	float k = (float)unit_factor(list[f].unit, basis, &table.reference);
	*out = (viewer_def_slider){list[f].name, list[f].doc, list[f].offset, list[f].is_int,
	                           list[f].ui_lo * k, list[f].ui_hi * k, list[f].ui_log};
	return true;
}

int viewer_sph_slider_count(void) { return (int)(sizeof sph_fields / sizeof sph_fields[0]); }

bool viewer_sph_slider_of(int f, pdl_solver_kind solver, const viewer_preset_basis* basis, viewer_def_slider* out)
{
	return def_slider_of(sph_fields, viewer_sph_slider_count(), f, solver, basis, out);
}

int viewer_world_slider_count(void) { return (int)(sizeof world_fields / sizeof world_fields[0]); }

bool viewer_world_slider_of(int f, const viewer_preset_basis* basis, viewer_def_slider* out)
{
	return def_slider_of(world_fields, viewer_world_slider_count(), f, PDL_SOLVER_CLAVET, basis, out);
}

int viewer_substeps_needed(const pdl_world* world)
{
	/* types.h: k dt_sub^2 / h (and the same for k_near) must stay below about 0.02. A spring's
	 * displacement is dt^2 k_spring times a length, so it is held to 0.25 k_spring dt_sub^2 below
	 * the same bound, whatever h is. */
	pdl_world_def def = pdl_world_get_def(world);
	double rate = 0; /* 1/s^2 */
	for (int m = 0; m < pdl_world_material_count(world); ++m) {
		pdl_material_def md = pdl_world_get_material(world, m);
		/* the bound was measured at rest density 4: a denser packing sums the pushes of more
		 * neighbours, and the near density grows faster than the density (stratify.json's 8-12
		 * with the lava preset at one substep, 0.018 by the plain rule, blows up; with the
		 * power 1.5 it takes two and settles: apps/viewer/tests/test_presets.c) */
		double crowd = fmax(1.0, pow(md.rest_density / 4.0, 1.5));
		rate = fmax(rate, crowd * fmax(md.stiffness, md.near_stiffness) / (double)def.interaction_radius);
		rate = fmax(rate, md.spring_stiffness * 0.25);
	}
	double needed = ceil((double)def.dt * sqrt(rate / 0.02));
	if (needed < 1) needed = 1;
	if (needed > 64) needed = 64;
	return (int)needed;
}

bool viewer_apply_preset(pdl_world* world, int preset, const viewer_preset_basis* basis, char* err,
                         int err_size)
{
	if (preset < 0 || preset >= table.count) {
		snprintf(err, (size_t)err_size, "no preset %d (%d read)", preset, table.count);
		return false;
	}
	pdl_error e;
	int materials = pdl_world_material_count(world);
	int wanted = table.presets[preset].layer_count;
	for (int m = 0; m < wanted || m < materials; ++m) {
		pdl_material_def def = viewer_preset_material(preset, m, basis);
		bool ok = m < materials ? pdl_world_set_material(world, m, &def, &e) == PDL_OK
		                        : pdl_world_add_material(world, &def, &e) >= 0;
		if (!ok) {
			snprintf(err, (size_t)err_size, "%s", e.message);
			return false;
		}
	}

	/* Deal the particles out by id over the preset's materials (one: all to material 0; three
	 * for stratify: a fine mix that then separates). */
	pdl_particle_data p = pdl_world_particles(world);
	if (p.count > 0) {
		/* set_particles copies from the arrays it is given, so hand it copies, not the world's
		 * own buffers (a copy onto itself is an overlapping memcpy) */
		size_t n = (size_t)p.count;
		/* x, y, vx, vy, and in 3D z, vz */
		size_t arrays = p.z != NULL ? 6 : 4;
		float* state = malloc(arrays * n * sizeof *state);
		uint32_t* id = malloc(n * sizeof *id);
		uint8_t* material = malloc(n);
		if (state == NULL || id == NULL || material == NULL) {
			free(state);
			free(id);
			free(material);
			snprintf(err, (size_t)err_size, "out of memory");
			return false;
		}
		memcpy(state, p.x, n * sizeof *state);
		memcpy(state + n, p.y, n * sizeof *state);
		memcpy(state + 2 * n, p.vx, n * sizeof *state);
		memcpy(state + 3 * n, p.vy, n * sizeof *state);
		if (p.z != NULL) {
			memcpy(state + 4 * n, p.z, n * sizeof *state);
			memcpy(state + 5 * n, p.vz, n * sizeof *state);
		}
		memcpy(id, p.id, n * sizeof *id);
		for (size_t i = 0; i < n; ++i) material[i] = (uint8_t)(id[i] % (uint32_t)wanted);
		pdl_particle_data changed = p;
		changed.x = state;
		changed.y = state + n;
		changed.vx = state + 2 * n;
		changed.vy = state + 3 * n;
		changed.z = p.z != NULL ? state + 4 * n : NULL;
		changed.vz = p.z != NULL ? state + 5 * n : NULL;
		changed.id = id;
		changed.material = material;
		changed.density = NULL;
		changed.pressure = NULL;
		/* springs join particles of one material only, so a new material layout drops them */
		changed.spring_partner = NULL;
		changed.spring_rest = NULL;
		pdl_error_id status = pdl_world_set_particles(world, &changed, &e);
		free(state);
		free(id);
		free(material);
		if (status != PDL_OK) {
			snprintf(err, (size_t)err_size, "%s", e.message);
			return false;
		}
	}

	/* the solver the preset is made for: DFSPH with its settings and one substep a frame (its
	 * CFL rule adds what it needs); Clavet with the shipped Clavet scenes' two substeps, or
	 * more where its stiffness needs them (lava on dam-break-boxes' crates blew up at one) */
	const preset_entry* chosen = &table.presets[preset];
	pdl_world_def def = pdl_world_get_def(world);
	if (def.solver != chosen->solver) {
		def.solver = chosen->solver;
		def.substeps = chosen->solver == PDL_SOLVER_CLAVET ? 2 : 1;
	}
	if (chosen->solver == PDL_SOLVER_DFSPH) {
		def.sph.density_tolerance = chosen->density_tolerance;
		def.sph.divergence_tolerance = chosen->divergence_tolerance;
		def.sph.max_iterations = chosen->max_iterations;
	}
	int substeps = viewer_substeps_needed(world); /* (the materials' stiffness and dt only) */
	if (chosen->solver == PDL_SOLVER_CLAVET && substeps > def.substeps) def.substeps = substeps;
	if (pdl_world_set_def(world, &def, &e) != PDL_OK) {
		snprintf(err, (size_t)err_size, "%s", e.message);
		return false;
	}
	return true;
}
