/* Every invalid def field gives its exact error id, a message naming the field and the rule,
 * and changes nothing. */
#include "test.h"
#include "worlds.h"
#include "puddle/partition.h"

#include <math.h>
#include <string.h>

typedef struct world_case {
	const char* what;
	void (*spoil)(pdl_world_def*);
	pdl_error_id expect;
} world_case;

#define SPOIL(type, name, stmt) static void name(type* d) { stmt; }

SPOIL(pdl_world_def, w_h_zero, d->interaction_radius = 0)
SPOIL(pdl_world_def, w_h_nan, d->interaction_radius = NAN)
SPOIL(pdl_world_def, w_dt_neg, d->dt = -0.01f)
SPOIL(pdl_world_def, w_dt_big, d->dt = 2)
SPOIL(pdl_world_def, w_sub_zero, d->substeps = 0)
SPOIL(pdl_world_def, w_sub_big, d->substeps = 65)
SPOIL(pdl_world_def, w_grav_inf, d->gravity.y = INFINITY)
SPOIL(pdl_world_def, w_threads, d->threads = -1)
SPOIL(pdl_world_def, w_max0, d->max_particles = 0)

static void test_world_def_errors(void)
{
	const world_case cases[] = {
		{"h = 0", w_h_zero, PDL_ERR_WORLD_INTERACTION_RADIUS},
		{"h = NaN", w_h_nan, PDL_ERR_WORLD_INTERACTION_RADIUS},
		{"dt < 0", w_dt_neg, PDL_ERR_WORLD_DT},
		{"dt > 1", w_dt_big, PDL_ERR_WORLD_DT},
		{"substeps 0", w_sub_zero, PDL_ERR_WORLD_SUBSTEPS},
		{"substeps 65", w_sub_big, PDL_ERR_WORLD_SUBSTEPS},
		{"gravity inf", w_grav_inf, PDL_ERR_WORLD_GRAVITY},
		{"threads -1", w_threads, PDL_ERR_WORLD_THREADS},
		{"max_particles 0", w_max0, PDL_ERR_WORLD_MAX_PARTICLES},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		pdl_world_def d = pdl_default_world_def();
		cases[i].spoil(&d);
		pdl_error err = {0};
		pdl_world* w = pdl_world_create(&d, &err);
		ENSURE_MSG(w == NULL && err.id == cases[i].expect, "%s: got %s", cases[i].what, pdl_error_name(err.id));
		/* set_def refuses the same def and leaves the world as it was */
		pdl_world* ok = worlds_create(1, NULL);
		pdl_world_def before = pdl_world_get_def(ok);
		ENSURE(pdl_world_set_def(ok, &d, &err) == cases[i].expect);
		pdl_world_def after = pdl_world_get_def(ok);
		ENSURE(memcmp(&before, &after, sizeof before) == 0);
		pdl_world_destroy(ok);
	}
}

SPOIL(pdl_material_def, m_rho, d->rest_density = -3)
SPOIL(pdl_material_def, m_k, d->stiffness = -1)
SPOIL(pdl_material_def, m_kn, d->near_stiffness = NAN)
SPOIL(pdl_material_def, m_mass, d->mass = 0)
SPOIL(pdl_material_def, m_gs, d->gravity_scale = INFINITY)
SPOIL(pdl_material_def, m_sigma, d->viscosity_sigma = -0.1f)
SPOIL(pdl_material_def, m_beta, d->viscosity_beta = -0.1f)
SPOIL(pdl_material_def, m_ks, d->spring_stiffness = -5)
SPOIL(pdl_material_def, m_yield, d->yield_ratio = 1.5f)
SPOIL(pdl_material_def, m_alpha, d->plasticity = -1)
SPOIL(pdl_material_def, m_mu, d->wall_friction = 1.1f)
SPOIL(pdl_material_def, m_stick, d->wall_stickiness = -1)
SPOIL(pdl_material_def, m_dstick, d->stick_distance = 0)

typedef struct material_case {
	void (*spoil)(pdl_material_def*);
	pdl_error_id expect;
} material_case;

static void test_material_def_errors(void)
{
	const material_case cases[] = {
		{m_rho, PDL_ERR_MATERIAL_REST_DENSITY},   {m_k, PDL_ERR_MATERIAL_STIFFNESS},
		{m_kn, PDL_ERR_MATERIAL_NEAR_STIFFNESS},  {m_mass, PDL_ERR_MATERIAL_MASS},
		{m_gs, PDL_ERR_MATERIAL_GRAVITY_SCALE},   {m_sigma, PDL_ERR_MATERIAL_SIGMA},
		{m_beta, PDL_ERR_MATERIAL_BETA},          {m_ks, PDL_ERR_MATERIAL_SPRING_STIFFNESS},
		{m_yield, PDL_ERR_MATERIAL_YIELD_RATIO},  {m_alpha, PDL_ERR_MATERIAL_PLASTICITY},
		{m_mu, PDL_ERR_MATERIAL_WALL_FRICTION},   {m_stick, PDL_ERR_MATERIAL_WALL_STICKINESS},
		{m_dstick, PDL_ERR_MATERIAL_STICK_DISTANCE},
	};
	pdl_world* w = worlds_create(1, NULL);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		pdl_material_def d = pdl_default_material_def();
		cases[i].spoil(&d);
		pdl_error err = {0};
		ENSURE_MSG(pdl_world_add_material(w, &d, &err) == -1 && err.id == cases[i].expect,
		           "case %zu: got %s", i, pdl_error_name(err.id));
		ENSURE(pdl_world_set_material(w, 0, &d, &err) == cases[i].expect);
		ENSURE(pdl_world_material_count(w) == 1);
	}
	pdl_world_destroy(w);
}

static void test_message_names_field_rule_and_value(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_material_def d = pdl_default_material_def();
	d.rest_density = -3;
	pdl_error err;
	pdl_world_add_material(w, &d, &err);
	ENSURE_MSG(strcmp(err.message, "material.rest_density must be finite and > 0, got -3") == 0, "%s", err.message);
	ENSURE(err.value == -3);
	ENSURE(strcmp(pdl_error_field(err.id), "rest_density") == 0);
	ENSURE(strcmp(pdl_error_struct(err.id), "material") == 0);
	ENSURE(strcmp(pdl_error_rule(err.id), "must be finite and > 0") == 0);
	ENSURE(strcmp(pdl_error_name(err.id), "PDL_ERR_MATERIAL_REST_DENSITY") == 0);
	/* out-of-range ids are named, not read out of bounds */
	ENSURE(strcmp(pdl_error_name((pdl_error_id)9999), "PDL_ERR_UNKNOWN") == 0);
	pdl_world_destroy(w);
}

static void test_too_many_materials(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_material_def d = pdl_default_material_def();
	for (int i = 1; i < PDL_MAX_MATERIALS; ++i) ENSURE(pdl_world_add_material(w, &d, NULL) == i);
	pdl_error err;
	ENSURE(pdl_world_add_material(w, &d, &err) == -1);
	ENSURE(err.id == PDL_ERR_TOO_MANY_MATERIALS);
	pdl_world_destroy(w);
}

SPOIL(pdl_boundary_def, b_kind, d->kind = (pdl_boundary_kind)42)
SPOIL(pdl_boundary_def, b_pos, d->position.x = NAN)
SPOIL(pdl_boundary_def, b_angle, d->angle = INFINITY)
SPOIL(pdl_boundary_def, b_radius, (d->kind = PDL_BOUNDARY_CIRCLE, d->radius = -1))
SPOIL(pdl_boundary_def, b_cradius, (d->kind = PDL_BOUNDARY_CIRCLE_CONTAINER, d->radius = 0))
SPOIL(pdl_boundary_def, b_half, d->half_extents.y = 0)
SPOIL(pdl_boundary_def, b_count, (d->kind = PDL_BOUNDARY_POLYGON, d->vertex_count = 2))
SPOIL(pdl_boundary_def, b_count_big, (d->kind = PDL_BOUNDARY_POLYGON, d->vertex_count = 17))
SPOIL(pdl_boundary_def, b_cw, (d->kind = PDL_BOUNDARY_POLYGON, d->vertex_count = 3,
                               d->vertices[0] = (pdl_vec2){0, 0}, d->vertices[1] = (pdl_vec2){0, 1},
                               d->vertices[2] = (pdl_vec2){1, 0}))
SPOIL(pdl_boundary_def, b_concave, (d->kind = PDL_BOUNDARY_POLYGON, d->vertex_count = 4,
                                    d->vertices[0] = (pdl_vec2){0, 0}, d->vertices[1] = (pdl_vec2){2, 0},
                                    d->vertices[2] = (pdl_vec2){1, 0.2f}, d->vertices[3] = (pdl_vec2){1, 2}))
SPOIL(pdl_boundary_def, b_vel, d->velocity.y = NAN)
SPOIL(pdl_boundary_def, b_mu, d->friction = -0.5f)
SPOIL(pdl_boundary_def, b_e, d->restitution = 2)
SPOIL(pdl_boundary_def, b_stick, d->stickiness = NAN)

typedef struct boundary_case {
	void (*spoil)(pdl_boundary_def*);
	pdl_error_id expect;
} boundary_case;

static void test_boundary_def_errors(void)
{
	const boundary_case cases[] = {
		{b_kind, PDL_ERR_BOUNDARY_KIND},           {b_pos, PDL_ERR_BOUNDARY_POSITION},
		{b_angle, PDL_ERR_BOUNDARY_ANGLE},         {b_radius, PDL_ERR_BOUNDARY_RADIUS},
		{b_cradius, PDL_ERR_BOUNDARY_RADIUS},      {b_half, PDL_ERR_BOUNDARY_HALF_EXTENTS},
		{b_count, PDL_ERR_BOUNDARY_VERTEX_COUNT},  {b_count_big, PDL_ERR_BOUNDARY_VERTEX_COUNT},
		{b_cw, PDL_ERR_BOUNDARY_VERTICES},         {b_concave, PDL_ERR_BOUNDARY_VERTICES},
		{b_vel, PDL_ERR_BOUNDARY_VELOCITY},        {b_mu, PDL_ERR_BOUNDARY_FRICTION},
		{b_e, PDL_ERR_BOUNDARY_RESTITUTION},       {b_stick, PDL_ERR_BOUNDARY_STICKINESS},
	};
	pdl_world* w = worlds_create(1, NULL);
	pdl_boundary_id bad = pdl_world_add_boundary(w, &(pdl_boundary_def){0}, NULL); /* zero def: bad */
	ENSURE(bad.index == -1);
	pdl_boundary_def ok = pdl_default_boundary_def();
	pdl_boundary_id id = pdl_world_add_boundary(w, &ok, NULL);
	ENSURE(id.index == 0 && id.generation == 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		pdl_boundary_def d = pdl_default_boundary_def();
		cases[i].spoil(&d);
		pdl_error err = {0};
		ENSURE_MSG(pdl_world_add_boundary(w, &d, &err).index == -1 && err.id == cases[i].expect,
		           "case %zu: got %s (%s)", i, pdl_error_name(err.id), err.message);
		ENSURE(pdl_world_set_boundary(w, id, &d, &err) == cases[i].expect);
		pdl_boundary_def still;
		ENSURE(pdl_world_get_boundary(w, id, &still) && memcmp(&still, &ok, sizeof ok) == 0);
	}
	pdl_error err;
	ENSURE(pdl_world_set_boundary(w, (pdl_boundary_id){7, 0}, &ok, &err) == PDL_ERR_BOUNDARY_ID);
	ENSURE(pdl_world_remove_boundary(w, (pdl_boundary_id){-1, 0}, &err) == PDL_ERR_BOUNDARY_ID);
	ENSURE(pdl_world_remove_boundary(w, id, &err) == PDL_OK);
	ENSURE(pdl_world_remove_boundary(w, id, &err) == PDL_ERR_BOUNDARY_ID);
	ENSURE_MSG(strcmp(err.message, "boundary.id must name a live boundary of this world, got 0") == 0, "%s", err.message);
	pdl_world_destroy(w);
}

SPOIL(pdl_fill_def, f_shape, d->shape = (pdl_fill_shape)9)
SPOIL(pdl_fill_def, f_material, d->material = 3)
SPOIL(pdl_fill_def, f_pos, d->position.y = NAN)
SPOIL(pdl_fill_def, f_end, (d->shape = PDL_FILL_LINE, d->end.x = INFINITY))
SPOIL(pdl_fill_def, f_radius, (d->shape = PDL_FILL_DISC, d->radius = -2))
SPOIL(pdl_fill_def, f_spiral_radius, (d->shape = PDL_FILL_SPIRAL, d->radius = 0))
SPOIL(pdl_fill_def, f_half, d->half_extents.x = -1)
SPOIL(pdl_fill_def, f_spacing, d->spacing = 0.001f)
SPOIL(pdl_fill_def, f_spacing_nan, d->spacing = NAN)
SPOIL(pdl_fill_def, f_count, (d->shape = PDL_FILL_POINT, d->count = -1))
SPOIL(pdl_fill_def, f_vel, d->velocity.x = NAN)
SPOIL(pdl_fill_def, f_million_times, (d->half_extents = (pdl_vec3){5e4f, 5e4f}))
SPOIL(pdl_fill_def, f_point_many, (d->shape = PDL_FILL_POINT, d->count = 2000000000))

typedef struct fill_case {
	void (*spoil)(pdl_fill_def*);
	pdl_error_id expect;
} fill_case;

static void test_fill_def_errors(void)
{
	const fill_case cases[] = {
		{f_shape, PDL_ERR_FILL_SHAPE},          {f_material, PDL_ERR_MATERIAL_ID},
		{f_pos, PDL_ERR_FILL_POSITION},         {f_end, PDL_ERR_FILL_END},
		{f_radius, PDL_ERR_FILL_RADIUS},        {f_spiral_radius, PDL_ERR_FILL_RADIUS},
		{f_half, PDL_ERR_FILL_HALF_EXTENTS},    {f_spacing, PDL_ERR_FILL_SPACING},
		{f_spacing_nan, PDL_ERR_FILL_SPACING},  {f_count, PDL_ERR_FILL_COUNT},
		{f_vel, PDL_ERR_FILL_VELOCITY},         {f_million_times, PDL_ERR_TOO_MANY_PARTICLES},
		{f_point_many, PDL_ERR_TOO_MANY_PARTICLES},
	};
	pdl_world* w = worlds_create(1, NULL);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		pdl_fill_def d = pdl_default_fill_def();
		cases[i].spoil(&d);
		pdl_error err = {0};
		ENSURE_MSG(pdl_world_fill(w, &d, &err) == -1 && err.id == cases[i].expect,
		           "case %zu: got %s (%s)", i, pdl_error_name(err.id), err.message);
		ENSURE(pdl_world_particle_count(w) == 0);
	}
	pdl_world_destroy(w);
}

static void test_pointer_errors(void)
{
	pdl_world* w = worlds_create(1, NULL);
	pdl_error err;
	pdl_pointer p = pdl_default_pointer();
	ENSURE(pdl_world_set_pointer(w, PDL_MAX_POINTERS, &p, &err) == PDL_ERR_POINTER_INDEX);
	ENSURE(pdl_world_set_pointer(w, -1, &p, &err) == PDL_ERR_POINTER_INDEX);
	p.radius = 0;
	ENSURE(pdl_world_set_pointer(w, 0, &p, &err) == PDL_ERR_POINTER_RADIUS);
	p = pdl_default_pointer();
	p.position.x = NAN;
	ENSURE(pdl_world_set_pointer(w, 0, &p, &err) == PDL_ERR_POINTER_POSITION);
	p = pdl_default_pointer();
	p.velocity.y = INFINITY;
	ENSURE(pdl_world_set_pointer(w, 0, &p, &err) == PDL_ERR_POINTER_VELOCITY);
	p = pdl_default_pointer();
	p.strength = NAN;
	ENSURE(pdl_world_set_pointer(w, 0, &p, &err) == PDL_ERR_POINTER_STRENGTH);
	p = pdl_default_pointer();
	p.drag = -1;
	ENSURE(pdl_world_set_pointer(w, 0, &p, &err) == PDL_ERR_POINTER_DRAG);
	pdl_world_destroy(w);
}

static void test_particle_state_errors(void)
{
	pdl_world* w = worlds_create(1, NULL);
	float x[2] = {0, NAN}, y[2] = {0, 0}, v[2] = {0, 0};
	uint8_t m[2] = {0, 0};
	pdl_particle_data d = {.count = 2, .x = x, .y = y, .vx = v, .vy = v, .material = m};
	pdl_error err;
	ENSURE(pdl_world_set_particles(w, &d, &err) == PDL_ERR_PARTICLE_STATE);
	ENSURE(err.value == 1);
	x[1] = 1;
	m[1] = 5; /* no such material */
	ENSURE(pdl_world_set_particles(w, &d, &err) == PDL_ERR_PARTICLE_STATE);
	m[1] = 0;
	d.x = NULL;
	ENSURE(pdl_world_set_particles(w, &d, &err) == PDL_ERR_NULL_ARGUMENT);
	ENSURE(pdl_world_particle_count(w) == 0);
	pdl_world_destroy(w);
}

/* One error type for every layer: a core refusal fills path ("struct.field") and rule as well as
 * the message; pdl_error_fill, which the io layer and puddle over MPI use, composes "file: path:
 * rule" from the parts it is given, and the io ids are named like the core's. */
static void test_one_error_type(void)
{
	pdl_error err;
	pdl_material_def m = pdl_default_material_def();
	m.rest_density = -3;
	pdl_world* w = worlds_create(1, NULL);
	ENSURE(pdl_world_add_material(w, &m, &err) == -1 && err.id == PDL_ERR_MATERIAL_REST_DENSITY);
	ENSURE(strcmp(err.path, "material.rest_density") == 0 && err.file[0] == 0 && err.line == 0);
	ENSURE_MSG(strcmp(err.rule, "must be finite and > 0, got -3") == 0, "%s", err.rule);
	ENSURE(strcmp(err.message, "material.rest_density must be finite and > 0, got -3") == 0);
	pdl_world_destroy(w);

	ENSURE(pdl_error_fill(&err, PDL_ERR_SCENE_VALUE, "x.json", "materials[1].mass", "must be > 0, got %g", -1.0) ==
	       PDL_ERR_SCENE_VALUE);
	ENSURE(strcmp(err.message, "x.json: materials[1].mass: must be > 0, got -1") == 0);
	ENSURE(strcmp(err.rule, "must be > 0, got -1") == 0 && isnan(err.value));
	pdl_error_fill(&err, PDL_ERR_FILE_OPEN, "snap.pdls", NULL, "cannot open: %s", "No such file or directory");
	ENSURE(strcmp(err.message, "snap.pdls: cannot open: No such file or directory") == 0 && err.path[0] == 0);
	pdl_error_fill(&err, PDL_ERR_OUT_OF_MEMORY, NULL, "", "out of memory");
	ENSURE(strcmp(err.message, "out of memory") == 0);
	ENSURE(pdl_error_fill(NULL, PDL_ERR_FILE_WRITE, "x", NULL, "ignored") == PDL_ERR_FILE_WRITE);
	/* a long text keeps all it can in the message, the rule what fits */
	char long_text[600];
	memset(long_text, 'a', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = 0;
	pdl_error_fill(&err, PDL_ERR_SNAPSHOT_WORLD, "f", NULL, "%s", long_text);
	ENSURE(strlen(err.message) == 3 + strlen(long_text) && strlen(err.rule) == sizeof err.rule - 1);

	ENSURE(strcmp(pdl_error_name(PDL_ERR_SCENE_SYNTAX), "PDL_ERR_SCENE_SYNTAX") == 0);
	ENSURE(strcmp(pdl_error_struct(PDL_ERR_SNAPSHOT_CORRUPT), "snapshot") == 0);
	ENSURE(strcmp(pdl_error_field(PDL_ERR_SURFACE_RADIUS), "radius") == 0);
	ENSURE(strcmp(pdl_error_name(PDL_ERR_BOUNDARY_ID), "PDL_ERR_BOUNDARY_ID") == 0);
	/* every id has a name of its own */
	for (int a = 0; a < PDL_ERROR_COUNT; ++a)
		for (int b = a + 1; b < PDL_ERROR_COUNT; ++b)
			ENSURE(strcmp(pdl_error_name((pdl_error_id)a), pdl_error_name((pdl_error_id)b)) != 0);
}

static void test_null_arguments_never_crash(void)
{
	pdl_error err;
	ENSURE(pdl_world_create(NULL, &err) == NULL && err.id == PDL_ERR_NULL_ARGUMENT);
	pdl_world_step(NULL);
	pdl_world_destroy(NULL);
	ENSURE(pdl_world_fill(NULL, NULL, NULL) == -1);
	ENSURE(pdl_world_add_material(NULL, NULL, NULL) == -1);
	pdl_world* w = worlds_create(1, NULL);
	ENSURE(pdl_world_add_material(w, NULL, &err) == -1 && err.id == PDL_ERR_NULL_ARGUMENT);
	ENSURE(pdl_world_fill(w, NULL, &err) == -1 && err.id == PDL_ERR_NULL_ARGUMENT);
	ENSURE(pdl_world_add_boundary(w, NULL, &err).index == -1 && err.id == PDL_ERR_NULL_ARGUMENT);
	ENSURE(pdl_world_set_pointer(w, 0, NULL, &err) == PDL_ERR_NULL_ARGUMENT);
	pdl_world_destroy(w);
}

/* pdl_world_set_grid_frame (partition.h): bad axes and too many dense cells are refused by name,
 * and the world keeps the frame it had. */
static void test_grid_frame_errors(void)
{
	pdl_world* w = worlds_dam_break(1);
	pdl_grid_frame f = pdl_default_grid_frame();
	pdl_error err;
	const int bad_axes[][3] = {{0, 0, 1}, {0, 1, 3}, {-1, 0, 1}, {2, 1, -2}};
	for (size_t k = 0; k < sizeof bad_axes / sizeof bad_axes[0]; ++k) {
		memcpy(f.axes, bad_axes[k], sizeof f.axes);
		ENSURE(pdl_world_set_grid_frame(w, &f, &err) == PDL_ERR_GRID_FRAME_AXES);
		ENSURE(strstr(err.message, "grid_frame.axes") != NULL);
	}
	f = pdl_default_grid_frame();
	f.dense_cells = (1u << 26) + 1;
	ENSURE(pdl_world_set_grid_frame(w, &f, &err) == PDL_ERR_GRID_FRAME_DENSE_CELLS);
	ENSURE(strstr(err.message, "grid_frame.dense_cells") != NULL);
	ENSURE(pdl_world_set_grid_frame(w, NULL, &err) == PDL_ERR_NULL_ARGUMENT);
	f = pdl_default_grid_frame();
	f.axes[0] = 2, f.axes[1] = 0, f.axes[2] = 1;
	f.gather_passes = true;
	ENSURE(pdl_world_set_grid_frame(w, &f, &err) == PDL_OK);
	pdl_world_destroy(w);
}

/* pdl_world_add_ghosts (partition.h): a negative origin, ghosts without ids and a material the
 * world lacks are refused by name, and nothing is added; good ghosts are added and removed. */
static void test_ghost_errors(void)
{
	pdl_world* w = worlds_dam_break(1);
	const int n = pdl_world_particle_count(w);
	const float x[2] = {0, 1}, y[2] = {0, 0}, v[2] = {0, 0};
	const uint8_t material[2] = {0, 0}, no_material[2] = {0, 7};
	const uint32_t id[2] = {900000, 900001};
	pdl_particle_data g = {.count = 2, .x = x, .y = y, .vx = v, .vy = v, .material = material, .id = id};
	pdl_error err;
	ENSURE(pdl_world_add_ghosts(w, &g, -1, &err) == PDL_ERR_GHOST_ORIGIN);
	ENSURE(strstr(err.message, "ghost.origin must be >= 0, got -1") != NULL);
	g.id = NULL;
	ENSURE(pdl_world_add_ghosts(w, &g, 1, &err) == PDL_ERR_GHOST_ID);
	ENSURE(strstr(err.message, "ghost.id") != NULL);
	g.id = id, g.material = no_material;
	ENSURE(pdl_world_add_ghosts(w, &g, 1, &err) == PDL_ERR_PARTICLE_STATE);
	ENSURE(pdl_world_add_ghosts(w, NULL, 1, &err) == PDL_ERR_NULL_ARGUMENT);
	ENSURE(pdl_world_particle_count(w) == n);
	ENSURE(pdl_world_ghost_view(w).origin == NULL); /* no ghost function yet: all own */
	g.material = material;
	ENSURE(pdl_world_add_ghosts(w, &g, 3, &err) == PDL_OK);
	ENSURE(pdl_world_particle_count(w) == n + 2);
	pdl_ghost_view view = pdl_world_ghost_view(w);
	ENSURE(view.count == n + 2 && view.origin[n] == 3 && view.origin[0] == -1 && view.id[n + 1] == 900001);
	ENSURE(pdl_world_remove_ghosts(w) == 2);
	ENSURE(pdl_world_particle_count(w) == n);
	ENSURE(pdl_world_remove_ghosts(NULL) == 0);
	ENSURE(pdl_world_set_ghost_fn(NULL, NULL, NULL, &err) == PDL_ERR_NULL_ARGUMENT);
	/* own particles: the cap holds, and a non-finite one is refused */
	pdl_world_def def = pdl_world_get_def(w);
	def.max_particles = n + 1;
	ENSURE(pdl_world_set_def(w, &def, &err) == PDL_OK);
	ENSURE(pdl_world_add_particles(w, &g, &err) == PDL_ERR_TOO_MANY_PARTICLES);
	ENSURE(strstr(err.message, "world.particles must not exceed world.max_particles") != NULL);
	g.count = 1;
	const float bad_x[1] = {NAN};
	g.x = bad_x;
	ENSURE(pdl_world_add_particles(w, &g, &err) == PDL_ERR_PARTICLE_STATE);
	g.x = x;
	ENSURE(pdl_world_add_particles(w, &g, &err) == PDL_OK && pdl_world_particle_count(w) == n + 1);
	ENSURE(pdl_world_particles(w).next_id > 900000); /* past the id added */
	ENSURE(pdl_world_remove_particles(w, NULL) == 0);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_world_def_errors);
	RUN_TEST(test_grid_frame_errors);
	RUN_TEST(test_ghost_errors);
	RUN_TEST(test_material_def_errors);
	RUN_TEST(test_message_names_field_rule_and_value);
	RUN_TEST(test_too_many_materials);
	RUN_TEST(test_boundary_def_errors);
	RUN_TEST(test_fill_def_errors);
	RUN_TEST(test_pointer_errors);
	RUN_TEST(test_particle_state_errors);
	RUN_TEST(test_null_arguments_never_crash);
	RUN_TEST(test_one_error_type);
	return TEST_SUMMARY();
}
