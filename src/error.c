/* Error ids, their names and rules, and the messages that go with them. */
#include "core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

typedef struct error_info {
	const char *name, *structure, *field, *rule;
} error_info;

static const error_info error_table[PDL_ERROR_COUNT] = {
#define PDL_X_INFO(id, s, f, r) {#id, s, f, r},
	PDL_ERROR_LIST(PDL_X_INFO)
#undef PDL_X_INFO
};

static const error_info* info(pdl_error_id id)
{
	static const error_info unknown = {"PDL_ERR_UNKNOWN", "", "", "unknown error"};
	return (unsigned)id < PDL_ERROR_COUNT ? &error_table[id] : &unknown;
}

const char* pdl_error_name(pdl_error_id id) { return info(id)->name; }
const char* pdl_error_struct(pdl_error_id id) { return info(id)->structure; }
const char* pdl_error_field(pdl_error_id id) { return info(id)->field; }
const char* pdl_error_rule(pdl_error_id id) { return info(id)->rule; }

const char* pdl_version_string(void) { return "0.1.0"; }

/* The parts every filler sets: id, value, no file, no position. */
static void clear(pdl_error* err, pdl_error_id id, double value)
{
	err->id = id;
	err->value = value;
	err->file[0] = err->path[0] = err->rule[0] = err->message[0] = 0;
	err->line = err->column = 0;
}

/* A core rule broken: path "material.rest_density", rule "must be finite and > 0, got -3" (or
 * with a detail after the comma), message the two with a space between. */
static pdl_error_id fail_rule(pdl_error* err, pdl_error_id id, double value, const char* detail)
{
	if (!err) return id;
	const error_info* e = info(id);
	clear(err, id, value);
	snprintf(err->path, sizeof err->path, "%s.%s", e->structure, e->field);
	snprintf(err->rule, sizeof err->rule, "%s%s%s", e->rule, detail && *detail ? ", " : "", detail ? detail : "");
	snprintf(err->message, sizeof err->message, "%s %s", err->path, err->rule);
	return id;
}

/* "material.rest_density must be finite and > 0, got -3" */
pdl_error_id pdl_fail(pdl_error* err, pdl_error_id id, double value)
{
	char got[48] = "";
	if (!isnan(value)) snprintf(got, sizeof got, "got %.9g", value);
	return fail_rule(err, id, value, got);
}

/* "body.position must put the whole body inside the container, it reaches out of a container" */
pdl_error_id pdl_fail_text(pdl_error* err, pdl_error_id id, const char* detail)
{
	return fail_rule(err, id, NAN, detail);
}

pdl_error_id pdl_error_fill(pdl_error* err, pdl_error_id id, const char* file, const char* path, const char* format, ...)
{
	if (!err) return id;
	clear(err, id, NAN);
	snprintf(err->file, sizeof err->file, "%s", file ? file : "");
	snprintf(err->path, sizeof err->path, "%s", path ? path : "");
	/* the whole text goes into the message; rule keeps what fits */
	char text[sizeof err->message];
	va_list ap;
	va_start(ap, format);
	vsnprintf(text, sizeof text, format, ap);
	va_end(ap);
	snprintf(err->rule, sizeof err->rule, "%.*s", (int)(sizeof err->rule - 1), text);
	/* "file: path: rule", leaving out what is empty */
	size_t n = 0;
	const char* parts[3] = {err->file, err->path, text};
	for (int k = 0; k < 3 && n < sizeof err->message; ++k) {
		if (!parts[k][0]) continue;
		int wrote = snprintf(err->message + n, sizeof err->message - n, "%s%s", n ? ": " : "", parts[k]);
		if (wrote < 0) break;
		n += (size_t)wrote;
	}
	return id;
}
