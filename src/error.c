/* Error ids, their names and rules, and the messages that go with them. */
#include "core.h"

#include <math.h>
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

/* "material.rest_density must be finite and > 0, got -3" */
pdl_error_id pdl_fail(pdl_error* err, pdl_error_id id, double value)
{
	if (err) {
		const error_info* e = info(id);
		err->id = id;
		err->value = value;
		if (isnan(value))
			snprintf(err->message, sizeof err->message, "%s.%s %s", e->structure, e->field, e->rule);
		else
			snprintf(err->message, sizeof err->message, "%s.%s %s, got %.9g", e->structure, e->field,
			         e->rule, value);
	}
	return id;
}

/* "obstacle.id must name an obstacle of this world (7)" */
pdl_error_id pdl_fail_text(pdl_error* err, pdl_error_id id, const char* detail)
{
	if (err) {
		const error_info* e = info(id);
		err->id = id;
		err->value = NAN;
		snprintf(err->message, sizeof err->message, "%s.%s %s%s%s", e->structure, e->field, e->rule,
		         detail && *detail ? ", " : "", detail ? detail : "");
	}
	return id;
}
