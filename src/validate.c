/* Validation of every def: each field has one rule and one error id. */
#include "core.h"

#include <math.h>

#define CHECK(cond, id, value)                                                                 \
	do {                                                                                       \
		if (!(cond)) return pdl_fail(err, id, (double)(value));                                \
	} while (0)

/* A declared field's rule (puddle/fields.h), on d->name. */
#define CHECK_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, ...)                                             \
	CHECK(PDL_RULE_OK_##rule(d->name, ctype, lo, hi), error, d->name);

static bool finite2(pdl_vec2 v) { return isfinite(v.x) && isfinite(v.y); }
/* Vectors are checked in all three components in 2D too (z is ignored there, but a NaN is
 * still a mistake worth reporting). */
static bool finite3(pdl_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
/* the first non-finite component, for the message */
static float bad3(pdl_vec3 v) { return !isfinite(v.x) ? v.x : !isfinite(v.y) ? v.y : v.z; }

/* Half extents: x and y > 0, and z too in 3D; the first that breaks the rule goes in *bad. */
static bool positive_extents(pdl_vec3 e, int dimensions, float* bad)
{
	float c[3] = {e.x, e.y, e.z};
	for (int k = 0; k < (dimensions == 3 ? 3 : 2); ++k)
		if (!(isfinite(c[k]) && c[k] > 0)) {
			*bad = c[k];
			return false;
		}
	return true;
}

/* A field of the world, boundary, fill and body lists (puddle/fields.h), on d->name, checked
 * when the def's shape (A) uses it. A CUSTOM rule's check is the validator's CUSTOM_<name>; an
 * EXTENTS rule reads the validator's `dims`. */
#define CHECK_DEF_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, \
                        ...)                                                                                          \
	if ((shapes) == 0 || ((unsigned)(A) < 32 && ((shapes) & (1u << (unsigned)(A))))) {                              \
		RULE_CHECK_##rule(name, ctype, type, lo, hi, error)                                                          \
	}
#define RULE_CHECK_SCALAR(name, ctype, rule, lo, hi, error) CHECK(PDL_RULE_OK_##rule(d->name, ctype, lo, hi), error, d->name);
#define RULE_CHECK_GT(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, GT, lo, hi, error)
#define RULE_CHECK_GE(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, GE, lo, hi, error)
#define RULE_CHECK_IN(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, IN, lo, hi, error)
#define RULE_CHECK_IN_LO_OPEN(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, IN_LO_OPEN, lo, hi, error)
#define RULE_CHECK_GT_LE(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, GT_LE, lo, hi, error)
#define RULE_CHECK_FINITE_IN_LO_OPEN(name, ctype, type, lo, hi, error)                                               \
	RULE_CHECK_SCALAR(name, ctype, FINITE_IN_LO_OPEN, lo, hi, error)
#define RULE_CHECK_DIMENSIONS(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, DIMENSIONS, lo, hi, error)
#define RULE_CHECK_AT_LEAST(name, ctype, type, lo, hi, error) RULE_CHECK_SCALAR(name, ctype, AT_LEAST, lo, hi, error)
#define RULE_CHECK_ENUM(name, ctype, type, lo, hi, error) CHECK(PDL_RULE_OK_ENUM(d->name, ctype, lo, hi), error, (int)d->name);
#define RULE_CHECK_FINITE(name, ctype, type, lo, hi, error) RULE_FINITE_##type(name, error)
#define RULE_FINITE_F32(name, error) CHECK(isfinite(d->name), error, d->name);
#define RULE_FINITE_VEC3(name, error) CHECK(finite3(d->name), error, bad3(d->name));
#define RULE_FINITE_SPIN(name, error) RULE_FINITE_VEC3(name, error)
#define RULE_CHECK_EXTENTS(name, ctype, type, lo, hi, error)                                                          \
	{                                                                                                                \
		float bad = 0;                                                                                           \
		CHECK(positive_extents(d->name, dims, &bad), error, bad);                                                \
	}
#define RULE_CHECK_ANY(name, ctype, type, lo, hi, error)
#define RULE_CHECK_CUSTOM(name, ctype, type, lo, hi, error) CUSTOM_##name
#define RULE_CHECK_CUSTOM_GT(name, ctype, type, lo, hi, error) CUSTOM_##name
#define RULE_CHECK_CUSTOM_GE(name, ctype, type, lo, hi, error) CUSTOM_##name
#define RULE_CHECK_CUSTOM_SHARED(name, ctype, type, lo, hi, error) CUSTOM_##name

pdl_error_id pdl_validate_world_def(const pdl_world_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	PDL_WORLD_FIELDS(CHECK_DEF_FIELD, 0)
	if (d->solver == PDL_SOLVER_SPH || d->solver == PDL_SOLVER_DFSPH) return pdl_validate_sph_def(&d->sph, err);
	return PDL_OK;
}

/* Checked only for SPH worlds, so that a Clavet world def written field by field (without
 * pdl_default_world_def) stays valid. */
pdl_error_id pdl_validate_sph_def(const pdl_sph_def* d, pdl_error* err)
{
	PDL_SPH_FIELDS(CHECK_FIELD, ~)
	return PDL_OK;
}

pdl_error_id pdl_validate_material_def(const pdl_material_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	PDL_MATERIAL_FIELDS(CHECK_FIELD, ~)
	return PDL_OK;
}

/* Why the n vertices v are not convex and counter-clockwise, or NULL; *area2 is twice the
 * polygon's signed area. */
static const char* polygon_turn_fault(const pdl_vec2* v, int n, double* area2)
{
	*area2 = 0;
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n];
		if (!finite2(a)) return "a vertex is not finite";
		pdl_vec2 ab = {b.x - a.x, b.y - a.y}, bc = {c.x - b.x, c.y - b.y};
		if (pdl_cross2(ab, bc) <= 0) return "the turn at a vertex is clockwise or straight (not convex)";
		*area2 += pdl_cross2(a, b);
	}
	return NULL;
}

const char* pdl_polygon_fault(const pdl_vec2* vertices, int count)
{
	if (!vertices || count < 3 || count > PDL_MAX_POLYGON_VERTICES) return "it needs 3 to 16 vertices";
	double area2 = 0;
	const char* fault = polygon_turn_fault(vertices, count, &area2);
	return fault ? fault : !(area2 > 0) ? "the polygon has no area" : NULL;
}

pdl_error_id pdl_validate_boundary_def(const pdl_boundary_def* d, int dims, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	CHECK(dims != 3 || d->kind != PDL_BOUNDARY_POLYGON, PDL_ERR_BOUNDARY_KIND_3D, (int)d->kind);
	/* convex, counter-clockwise, with area (vertex_count is checked before, by its rule) */
#define CUSTOM_vertices                                                                                                \
	{                                                                                                                \
		const char* fault = pdl_polygon_fault(d->vertices, d->vertex_count);                                     \
		if (fault) return pdl_fail_text(err, PDL_ERR_BOUNDARY_VERTICES, fault);                                  \
	}
	PDL_BOUNDARY_FIELDS(CHECK_DEF_FIELD, d->kind)
#undef CUSTOM_vertices
	return PDL_OK;
}

pdl_error_id pdl_validate_fill_def(const pdl_world* w, const pdl_fill_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	int dims = w->def.dimensions;
	CHECK(dims != 3 || d->shape != PDL_FILL_SPIRAL, PDL_ERR_FILL_SHAPE_3D, (int)d->shape);
#define CUSTOM_material CHECK(d->material >= 0 && d->material < w->material_count, PDL_ERR_MATERIAL_ID, d->material);
#define CUSTOM_spacing                                                                                                 \
	CHECK(d->spacing == 0 || (isfinite(d->spacing) && d->spacing >= 0.01f * w->def.interaction_radius),             \
	      PDL_ERR_FILL_SPACING, d->spacing);
	PDL_FILL_FIELDS(CHECK_DEF_FIELD, d->shape)
#undef CUSTOM_material
#undef CUSTOM_spacing
	return PDL_OK;
}

pdl_error_id pdl_validate_body_def(const pdl_world* w, const pdl_body_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	const bool three = PDL_IS_3D(w);
	CHECK(!three || d->shape != PDL_BODY_POLYGON, PDL_ERR_BODY_SHAPE_3D, (int)d->shape);
	/* the sizes are relative to material 0's rest spacing */
	if (w->material_count == 0) return pdl_fail(err, PDL_ERR_BODY_NO_MATERIAL, NAN);
	const float half_spacing = 0.5f * pdl_body_spacing(w);
#define CUSTOM_orientation                                                                                             \
	if (three) {                                                                                                     \
		pdl_quat q = d->orientation;                                                                             \
		float qq = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;                                                \
		CHECK(isfinite(qq) && qq > 1e-12f, PDL_ERR_BODY_ORIENTATION, qq);                                        \
	}
#define CUSTOM_radius CHECK(isfinite(d->radius) && d->radius >= half_spacing, PDL_ERR_BODY_RADIUS, d->radius);
#define CUSTOM_half_extents                                                                                            \
	{                                                                                                                \
		const float e[3] = {d->half_extents.x, d->half_extents.y, d->half_extents.z};                            \
		for (int k = 0; k < (three ? 3 : 2); ++k)                                                                \
			CHECK(isfinite(e[k]) && e[k] >= half_spacing, PDL_ERR_BODY_HALF_EXTENTS, e[k]);                  \
	}
	/* convex, counter-clockwise and at least a spacing across in every direction */
#define CUSTOM_vertices                                                                                                \
	{                                                                                                                \
		int n = d->vertex_count;                                                                                 \
		double area2 = 0;                                                                                        \
		const char* fault = polygon_turn_fault(d->vertices, n, &area2);                                               \
		if (fault) return pdl_fail_text(err, PDL_ERR_BODY_VERTICES, fault);                                      \
		/* the thinnest width: every vertex's distance from every edge it is not on */                       \
		float thinnest = INFINITY;                                                                               \
		for (int i = 0; i < n; ++i) {                                                                            \
			pdl_vec2 a = d->vertices[i], c = d->vertices[(i + 1) % n];                                       \
			float ex = c.x - a.x, ey = c.y - a.y, len = sqrtf(ex * ex + ey * ey), widest = 0;                \
			for (int k = 0; k < n; ++k)                                                                      \
				widest = fmaxf(widest, -((d->vertices[k].x - a.x) * ey - (d->vertices[k].y - a.y) * ex) / len); \
			thinnest = fminf(thinnest, widest);                                                              \
		}                                                                                                        \
		if (!(area2 > 0) || !(thinnest >= 2 * half_spacing))                                                     \
			return pdl_fail_text(err, PDL_ERR_BODY_VERTICES, "the polygon is thinner than a particle spacing"); \
	}
	PDL_BODY_FIELDS(CHECK_DEF_FIELD, d->shape)
#undef CUSTOM_orientation
#undef CUSTOM_radius
#undef CUSTOM_half_extents
#undef CUSTOM_vertices
	return PDL_OK;
}

pdl_error_id pdl_validate_pointer(const pdl_pointer* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	PDL_POINTER_FIELDS(CHECK_DEF_FIELD, 0)
	return PDL_OK;
}
