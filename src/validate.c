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

pdl_error_id pdl_validate_world_def(const pdl_world_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	CHECK(d->dimensions == 2 || d->dimensions == 3, PDL_ERR_WORLD_DIMENSIONS, d->dimensions);
	CHECK(isfinite(d->interaction_radius) && d->interaction_radius > 0,
	      PDL_ERR_WORLD_INTERACTION_RADIUS, d->interaction_radius);
	CHECK(isfinite(d->dt) && d->dt > 0 && d->dt <= 1, PDL_ERR_WORLD_DT, d->dt);
	CHECK(d->substeps >= 1 && d->substeps <= 64, PDL_ERR_WORLD_SUBSTEPS, d->substeps);
	CHECK(finite3(d->gravity), PDL_ERR_WORLD_GRAVITY, bad3(d->gravity));
	CHECK(d->threads >= 0 && d->threads <= PDL_POOL_MAX_THREADS, PDL_ERR_WORLD_THREADS, d->threads);
	CHECK(d->max_particles >= 1 && d->max_particles <= (1 << 26), PDL_ERR_WORLD_MAX_PARTICLES,
	      d->max_particles);
	CHECK((unsigned)d->solver < PDL_SOLVER_KIND_COUNT, PDL_ERR_WORLD_SOLVER, (int)d->solver);
	CHECK((unsigned)d->backend < PDL_BACKEND_COUNT, PDL_ERR_WORLD_BACKEND, (int)d->backend);
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

static float cross(pdl_vec2 a, pdl_vec2 b) { return a.x * b.y - a.y * b.x; }

pdl_error_id pdl_validate_boundary_def(const pdl_boundary_def* d, int dimensions, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	CHECK((unsigned)d->kind < PDL_BOUNDARY_KIND_COUNT, PDL_ERR_BOUNDARY_KIND, (int)d->kind);
	CHECK(dimensions != 3 || d->kind != PDL_BOUNDARY_POLYGON, PDL_ERR_BOUNDARY_KIND_3D, (int)d->kind);
	CHECK(finite3(d->position), PDL_ERR_BOUNDARY_POSITION, bad3(d->position));
	CHECK(isfinite(d->angle), PDL_ERR_BOUNDARY_ANGLE, d->angle);
	switch (d->kind) {
	case PDL_BOUNDARY_CIRCLE_CONTAINER:
	case PDL_BOUNDARY_CIRCLE:
		CHECK(isfinite(d->radius) && d->radius > 0, PDL_ERR_BOUNDARY_RADIUS, d->radius);
		break;
	case PDL_BOUNDARY_BOX_CONTAINER:
	case PDL_BOUNDARY_BOX: {
		float bad = 0;
		CHECK(positive_extents(d->half_extents, dimensions, &bad), PDL_ERR_BOUNDARY_HALF_EXTENTS, bad);
		break;
	}
	case PDL_BOUNDARY_POLYGON: {
		int n = d->vertex_count;
		CHECK(n >= 3 && n <= PDL_MAX_POLYGON_VERTICES, PDL_ERR_BOUNDARY_VERTEX_COUNT, n);
		double area2 = 0;
		for (int i = 0; i < n; ++i) {
			pdl_vec2 a = d->vertices[i], b = d->vertices[(i + 1) % n], c = d->vertices[(i + 2) % n];
			if (!finite2(a)) return pdl_fail_text(err, PDL_ERR_BOUNDARY_VERTICES, "a vertex is not finite");
			pdl_vec2 ab = {b.x - a.x, b.y - a.y}, bc = {c.x - b.x, c.y - b.y};
			if (cross(ab, bc) <= 0)
				return pdl_fail_text(err, PDL_ERR_BOUNDARY_VERTICES,
				                     "the turn at a vertex is clockwise or straight");
			area2 += cross(a, b);
		}
		if (!(area2 > 0))
			return pdl_fail_text(err, PDL_ERR_BOUNDARY_VERTICES, "the polygon has no area");
		break;
	}
	default:
		break;
	}
	CHECK(finite3(d->velocity), PDL_ERR_BOUNDARY_VELOCITY, bad3(d->velocity));
	CHECK(d->friction >= 0 && d->friction <= 1, PDL_ERR_BOUNDARY_FRICTION, d->friction);
	CHECK(d->restitution >= 0 && d->restitution <= 1, PDL_ERR_BOUNDARY_RESTITUTION, d->restitution);
	CHECK(isfinite(d->stickiness) && d->stickiness >= 0, PDL_ERR_BOUNDARY_STICKINESS, d->stickiness);
	return PDL_OK;
}

pdl_error_id pdl_validate_fill_def(const pdl_world* w, const pdl_fill_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	int dims = w->def.dimensions;
	CHECK((unsigned)d->shape < PDL_FILL_SHAPE_COUNT, PDL_ERR_FILL_SHAPE, (int)d->shape);
	CHECK(dims != 3 || d->shape != PDL_FILL_SPIRAL, PDL_ERR_FILL_SHAPE_3D, (int)d->shape);
	CHECK(d->material >= 0 && d->material < w->material_count, PDL_ERR_MATERIAL_ID, d->material);
	CHECK(finite3(d->position), PDL_ERR_FILL_POSITION, bad3(d->position));
	if (d->shape == PDL_FILL_LINE) CHECK(finite3(d->end), PDL_ERR_FILL_POSITION, bad3(d->end));
	if (d->shape == PDL_FILL_DISC || d->shape == PDL_FILL_SPIRAL)
		CHECK(isfinite(d->radius) && d->radius > 0, PDL_ERR_FILL_RADIUS, d->radius);
	if (d->shape == PDL_FILL_BOX) {
		float bad = 0;
		CHECK(positive_extents(d->half_extents, dims, &bad), PDL_ERR_FILL_HALF_EXTENTS, bad);
	}
	CHECK(d->spacing == 0 || (isfinite(d->spacing) && d->spacing >= 0.01f * w->def.interaction_radius),
	      PDL_ERR_FILL_SPACING, d->spacing);
	CHECK(d->count >= 0, PDL_ERR_FILL_COUNT, d->count);
	CHECK(finite3(d->velocity), PDL_ERR_FILL_VELOCITY, bad3(d->velocity));
	return PDL_OK;
}

pdl_error_id pdl_validate_pointer(const pdl_pointer* p, pdl_error* err)
{
	if (!p) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	CHECK(finite3(p->position), PDL_ERR_POINTER_POSITION, bad3(p->position));
	CHECK(finite3(p->direction), PDL_ERR_POINTER_DIRECTION, bad3(p->direction));
	CHECK(finite3(p->velocity), PDL_ERR_POINTER_VELOCITY, bad3(p->velocity));
	CHECK(isfinite(p->radius) && p->radius > 0, PDL_ERR_POINTER_RADIUS, p->radius);
	CHECK(isfinite(p->strength), PDL_ERR_POINTER_STRENGTH, p->strength);
	CHECK(isfinite(p->drag) && p->drag >= 0, PDL_ERR_POINTER_DRAG, p->drag);
	return PDL_OK;
}
