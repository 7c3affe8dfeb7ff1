/* The parts of the docs and of the web module's types that are generated from the field
 * declarations (include/puddle/fields.h): the tables of docs/scenes.md, the interfaces of
 * web/src/puddle.d.ts, the page's material sliders (web/demo/panel.js), and the scale units of
 * scenes/presets/materials.json (checked only: the file is data).
 *
 *   fields_gen --check ROOT   fails (exit 1, naming the section) where a file differs from the
 *                             declarations: the test io.fields
 *   fields_gen --write ROOT   rewrites the generated sections of those files
 *
 * A generated section lies between a line holding "generated from include/puddle/fields.h: NAME"
 * and a line holding "end of generated: NAME"; everything around it is the file's own. */
#include "puddle/puddle.h"
#include "io_test.h"
#include "scene_schema.h"

#include <stdarg.h>
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
#define SPH_ROW(A, name, ctype, type, deflt, rule, lo, hi, error, unit, solvers, doc) \
	{#name, #type, (double)(deflt), RANGE_##rule(lo, hi), unit, "NONE", doc, 0, 0, 0, #solvers},
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
	             {"PER_H", "1/h"}, {"MASS", "mass"}, {"REST_DENSITY", "rest_density"}};
	for (int k = 0; k < COUNT(names); ++k)
		if (strcmp(names[k].scale, scale) == 0) return names[k].unit;
	return "?";
}

/* The page's material sliders (web/demo/panel.js): [field, min, max, unit, logarithmic]. */
static void js_sliders(text* t, const row* rows, int n)
{
	add(t, "const MATERIAL_FIELDS = [\n");
	for (int i = 0; i < n; ++i)
		if (strcmp(rows[i].scale, "NONE") != 0)
			add(t, "\t['%s', %g, %g, '%s', %s],\n", rows[i].name, rows[i].ui_lo, rows[i].ui_hi, unit_name(rows[i].scale),
			    rows[i].ui_log ? "true" : "false");
	add(t, "];\n");
}

/* ---- sections of files ---------------------------------------------------------------------- */

static char* read_file(const char* path) { return io_test_read_file(path, NULL); }

/* Checks (or, with write, replaces) the section `name` of the file at path: the lines between
 * its two marker lines must be `body`. */
static bool section(const char* path, const char* name, const char* body, bool write)
{
	char* s = read_file(path);
	if (!s) {
		fprintf(stderr, "%s: cannot read\n", path);
		return false;
	}
	char begin_mark[128], end_mark[128];
	snprintf(begin_mark, sizeof begin_mark, "generated from include/puddle/fields.h: %s", name);
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
		fprintf(stderr, "%s: section %s differs from include/puddle/fields.h (run fields_gen --write)\n"
		                "---- expected:\n%s---- found:\n%.*s----\n",
		        path, name, body, (int)(to - from), from);
	}
	free(s);
	return ok;
}

/* The presets file's units (read by the page, web/demo/presets.js) are the declared scales. */
static bool preset_units(const char* path, const row* rows, int n)
{
	char* s = read_file(path);
	if (!s) {
		fprintf(stderr, "%s: cannot read\n", path);
		return false;
	}
	bool ok = true;
	const char* units = strstr(s, "\"units\"");
	for (int i = 0; units && i < n; ++i) {
		if (strcmp(rows[i].scale, "NONE") == 0) continue;
		char want[96];
		snprintf(want, sizeof want, "\"%s\": \"%s\"", rows[i].name, unit_name(rows[i].scale));
		const char* at = strstr(units, want);
		if (!at || at > strstr(units, "}")) {
			fprintf(stderr, "%s: units has no %s (the scale of include/puddle/fields.h)\n", path, want);
			ok = false;
		}
	}
	free(s);
	return ok && units;
}

int main(int argc, char** argv)
{
	bool write = argc == 3 && strcmp(argv[1], "--write") == 0;
	if (argc != 3 || (!write && strcmp(argv[1], "--check") != 0)) {
		fprintf(stderr, "usage: fields_gen --check|--write ROOT\n");
		return 2;
	}
	const char* root = argv[2];
	char docs[1024], dts[1024], presets[1024], panel[1024];
	snprintf(panel, sizeof panel, "%s/web/demo/panel.js", root);
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
	js_sliders(&t, material_rows, COUNT(material_rows));
	ok = section(panel, "material sliders", t.s, write) && ok;
	t.n = 0;
	markdown_table(&t, sph_rows, COUNT(sph_rows), "");
	ok = section(docs, "world.sph", t.s, write) && ok;
	t.n = 0;
	ts_interface(&t, "pdl_sph_def", "SphDef", sph_rows, COUNT(sph_rows));
	ok = section(dts, "world.sph", t.s, write) && ok;
	t.n = 0;
	markdown_table(&t, diffuse_rows, COUNT(diffuse_rows), "");
	ok = section(docs, "diffuse", t.s, write) && ok;
	ok = preset_units(presets, material_rows, COUNT(material_rows)) && ok;
	free(t.s);
	if (ok) printf("the generated sections match include/puddle/fields.h\n");
	return ok ? 0 : 1;
}
