/* From a scene to a running world: building it, the scripted events of each frame (emitters,
 * strokes), particle estimates and rescaling. */
#include "scene_schema.h"
#include "puddle/partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEX_ROW 0.8660254037844386 /* row height of a hexagonal lattice, in spacings */

/* The engine refused a value the scene gave it: its id and value, the scene's file and path,
 * and its message as the rule ("file: path: body.radius must be ..."). */
static void world_error(pdl_error* err, const pdl_scene* s, const char* path, const pdl_error* e)
{
	if (!err) return;
	pdl_error engine = *e; /* e may be err itself */
	pdl_error_fill(err, engine.id, s->source[0] ? s->source : s->name, path, "%s", engine.message);
	err->value = engine.value;
}

/* A fill's particles were appended in emission order at [first, count): give particle k of the
 * fill material mix[k % n]. The engine has no per-particle setter, so the state goes round
 * through pdl_world_set_particles() (before the first step, nothing else is lost by that). */
static bool apply_mix(pdl_world* w, const pdl_scene_fill* f, int first, pdl_error* e)
{
	if (f->mix_count == 0) return true;
	pdl_particle_data p = pdl_world_particles(w);
	/* copies: the world must not read from the arrays it is overwriting. Six arrays: x, y, vx,
	 * vy, and z, vz in 3D worlds. */
	size_t n = (size_t)(p.count > 0 ? p.count : 1);
	float* xyv = malloc(6 * n * sizeof *xyv);
	uint8_t* material = malloc(n);
	uint32_t* id = malloc(n * sizeof *id);
	bool ok = xyv && material && id && !p.spring_partner; /* fills come before any spring exists */
	if (ok) {
		size_t c = (size_t)p.count;
		memcpy(xyv, p.x, c * sizeof *xyv);
		memcpy(xyv + n, p.y, c * sizeof *xyv);
		memcpy(xyv + 2 * n, p.vx, c * sizeof *xyv);
		memcpy(xyv + 3 * n, p.vy, c * sizeof *xyv);
		if (p.z) memcpy(xyv + 4 * n, p.z, c * sizeof *xyv);
		if (p.vz) memcpy(xyv + 5 * n, p.vz, c * sizeof *xyv);
		memcpy(material, p.material, c);
		memcpy(id, p.id, c * sizeof *id);
		for (int i = first; i < p.count; ++i) material[i] = (uint8_t)f->mix[(i - first) % f->mix_count];
		pdl_particle_data q = {0};
		q.count = p.count;
		q.x = xyv, q.y = xyv + n, q.vx = xyv + 2 * n, q.vy = xyv + 3 * n;
		if (p.z) q.z = xyv + 4 * n, q.vz = xyv + 5 * n;
		q.material = material;
		q.id = id;
		q.next_id = p.next_id;
		ok = pdl_world_set_particles(w, &q, e) == PDL_OK;
	} else {
		e->id = PDL_ERR_OUT_OF_MEMORY;
		snprintf(e->message, sizeof e->message, "out of memory");
	}
	free(xyv);
	free(material);
	free(id);
	return ok;
}

pdl_body_def pdl_scene_body_copy(const pdl_scene_body* b, int k)
{
	/* float arithmetic (no contraction: -ffp-contract=off), as web/src/scene.js rounds each
	 * product and sum to float, so that both place copy k on the same bits */
	pdl_body_def d = b->def;
	float kf = (float)k;
	d.position = (pdl_vec3){b->def.position.x + kf * b->step.x, b->def.position.y + kf * b->step.y,
	                        b->def.position.z + kf * b->step.z};
	return d;
}

int pdl_scene_body_total(const pdl_scene* s)
{
	int total = 0;
	for (int i = 0; s && i < s->body_count; ++i) total += s->bodies[i].count;
	return total;
}

bool pdl_schema_add_bodies(const pdl_scene* s, pdl_world* w, int* entry, int* copy, pdl_error* e)
{
	for (int i = 0; i < s->body_count; ++i)
		for (int k = 0; k < s->bodies[i].count; ++k) {
			pdl_body_def d = pdl_scene_body_copy(&s->bodies[i], k);
			if (pdl_world_add_body(w, &d, e).index < 0) {
				*entry = i, *copy = k;
				return false;
			}
		}
	return true;
}

pdl_world* pdl_scene_build_world(const pdl_scene* s, pdl_error* err)
{
	pdl_error e;
	char path[64];
	if (!s) return NULL;
	pdl_world* w = pdl_world_create(&s->world, &e);
	if (!w && e.id == PDL_ERR_WORLD_BACKEND && strstr(e.message, "driver version is insufficient")) {
		/* what the CUDA runtime says when there is no NVIDIA driver at all, which reads as if
		 * an update would help */
		snprintf(e.message, sizeof e.message,
		         "\"cuda\" needs an NVIDIA GPU and its driver, and this machine has none that CUDA can use "
		         "(the CUDA runtime says: driver version is insufficient); use \"cpu\"");
	}
	if (!w) return world_error(err, s, e.id == PDL_ERR_WORLD_BACKEND ? "solver.backend" : "world", &e), NULL;
	for (int i = 0; i < s->material_count; ++i)
		if (pdl_world_add_material(w, &s->materials[i].def, &e) < 0) {
			snprintf(path, sizeof path, "materials[%d]", i);
			goto fail;
		}
	if (s->has_container && pdl_world_add_boundary(w, &s->container, &e).index < 0) {
		snprintf(path, sizeof path, "container");
		goto fail;
	}
	for (int i = 0; i < s->obstacle_count; ++i)
		if (pdl_world_add_boundary(w, &s->obstacles[i], &e).index < 0) {
			snprintf(path, sizeof path, "obstacles[%d]", i);
			goto fail;
		}
	/* the bodies before the fluid: the fills leave their space (pdl_world_fill) */
	int entry, copy;
	if (!pdl_schema_add_bodies(s, w, &entry, &copy, &e)) {
		snprintf(path, sizeof path, "bodies[%d]", entry);
		goto fail;
	}
	for (int i = 0; i < s->fill_count; ++i) {
		int before = pdl_world_particle_count(w);
		if (pdl_world_fill(w, &s->fills[i].def, &e) < 0 || !apply_mix(w, &s->fills[i], before, &e)) {
			snprintf(path, sizeof path, "fills[%d]", i);
			goto fail;
		}
	}
	if (s->diffuse.enabled && pdl_world_set_diffuse(w, &s->diffuse, &e) != PDL_OK) {
		snprintf(path, sizeof path, "diffuse");
		goto fail;
	}
	/* the grid frame a split run uses (mpirun, the MPI layer keeps it): one process's run of
	 * the scene then steps to the same bits and prints the same --hash, at every frame */
	pdl_grid_frame frame = pdl_world_fixed_grid_frame(w);
	if (pdl_world_set_grid_frame(w, &frame, &e) != PDL_OK) {
		snprintf(path, sizeof path, "world");
		goto fail;
	}
	return w;
fail:
	world_error(err, s, path, &e);
	pdl_world_destroy(w);
	return NULL;
}

/* ---- emitters --------------------------------------------------------------------------------- */

#define FCC_LAYER 0.7071067811865476 /* gap between square layers of an FCC lattice, in spacings */

static bool scene_3d(const pdl_scene* s) { return s->world.dimensions == 3; }

static float emitter_spacing(const pdl_scene* s, const pdl_scene_emitter* e)
{
	if (e->spacing > 0) return e->spacing;
	float h = s->world.interaction_radius, rho = s->materials[e->material].def.rest_density;
	return scene_3d(s) ? pdl_rest_spacing_3d(h, rho) : pdl_rest_spacing(h, rho);
}

static double emitter_speed(const pdl_scene* s, const pdl_scene_emitter* e)
{
	if (!scene_3d(s)) return hypot(e->velocity.x, e->velocity.y); /* 2D: as before, to the last bit */
	double z = e->velocity.z;
	return sqrt((double)e->velocity.x * e->velocity.x + (double)e->velocity.y * e->velocity.y + z * z);
}

/* Rows are launched at t_k = start + k * row_gap / speed while t_k < stop; this counts the rows
 * launched before time t. In double, as every count here: a scene file may ask for 1e30 rows,
 * which must be counted (and refused against max_particles), not wrapped round an integer. */
static double rows_before(const pdl_scene_emitter* e, double row_time, double t)
{
	if (t <= e->start) return 0;
	double end = t < e->stop ? t : e->stop;
	return ceil((end - e->start) / row_time - 1e-9);
}

/* Rows are the rows of the rest lattice: hexagonal rows (2D) or FCC square layers (3D). */
static double row_time(const pdl_scene* s, const pdl_scene_emitter* e)
{
	return emitter_spacing(s, e) * (scene_3d(s) ? FCC_LAYER : HEX_ROW) / emitter_speed(s, e);
}

/* Particles along one side of row k: as many as fit across the width at the spacing, one less
 * in odd rows. */
static double row_side(const pdl_scene_emitter* e, double spacing, long long k)
{
	double n = floor(e->width / spacing + 1e-6) + 1;
	if ((k & 1) && n > 1) n--;
	return n;
}

/* Particles in row k: a line across the velocity (2D), a square (3D). */
static double row_particles(const pdl_scene* s, const pdl_scene_emitter* e, double spacing, long long k)
{
	double n = row_side(e, spacing, k);
	return scene_3d(s) ? n * n : n;
}

/* Two unit vectors across the unit direction d (3D), fixed by d alone so that every run lays
 * the rows the same way: u is horizontal where it can be (d x y), else d x x. */
static void across(const double d[3], double u[3], double v[3])
{
	double a[3] = {0, 1, 0};
	if (fabs(d[1]) > 0.9) a[0] = 1, a[1] = 0;
	u[0] = d[1] * a[2] - d[2] * a[1], u[1] = d[2] * a[0] - d[0] * a[2], u[2] = d[0] * a[1] - d[1] * a[0];
	double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
	for (int i = 0; i < 3; ++i) u[i] /= len;
	v[0] = d[1] * u[2] - d[2] * u[1], v[1] = d[2] * u[0] - d[0] * u[2], v[2] = d[0] * u[1] - d[1] * u[0];
}

static int emit_rows(const pdl_scene* s, const pdl_scene_emitter* e, pdl_world* w, long long frame, pdl_error* perr)
{
	double dt = s->world.dt, rt = row_time(s, e), t0 = (double)frame * dt, t1 = (double)(frame + 1) * dt;
	double rows_first = rows_before(e, rt, t0), rows_last = rows_before(e, rt, t1);
	double speed = emitter_speed(s, e), sp = emitter_spacing(s, e);
	bool is_3d = scene_3d(s);
	/* the frame's particles counted before any is added: a frame that cannot fit is refused at
	 * once instead of adding particles one by one until the world is full (a scene built
	 * without pdl_scene_load's count, or rescaled since) */
	double want = (rows_last - rows_first) * row_particles(s, e, sp, 0);
	if (rows_last > 9007199254740992.0) want = HUGE_VAL; /* 2^53: rows no longer told apart */
	int room = pdl_world_get_def(w).max_particles - pdl_world_particle_count(w);
	if (want > room) {
		pdl_error_fill(perr, PDL_ERR_TOO_MANY_PARTICLES, NULL, NULL,
		               "frame %lld would add about %.3g particles, more than the %d solver.max_particles has room for",
		               frame, want, room);
		perr->value = want;
		return -1;
	}
	long long first = (long long)rows_first, last = (long long)rows_last;
	double d[3] = {e->velocity.x / speed, e->velocity.y / speed, is_3d ? e->velocity.z / speed : 0};
	double u[3] = {-d[1], d[0], 0}, v[3] = {0, 0, 0};
	if (is_3d) across(d, u, v);
	/* the spacing pdl_world_fill would work out for each point (the material's rest spacing,
	 * its clearance from bodies), worked out once: 0.14 ms a particle in 3D made a frame of
	 * 90,000 emitted particles take 13 s */
	const float h = pdl_world_get_def(w).interaction_radius, rho = pdl_world_get_material(w, e->material).rest_density;
	const float point_spacing = is_3d ? pdl_rest_spacing_3d(h, rho) : pdl_rest_spacing(h, rho);
	int added = 0;
	for (long long k = first; k < last; ++k) {
		/* row k left the nozzle at t_k; the frame's step will carry it to where it would be at
		 * the end of the frame, so start it behind the nozzle by the time it has not flown */
		double tk = e->start + (double)k * rt, back = speed * (t0 - tk);
		double c[3] = {e->position.x + d[0] * back, e->position.y + d[1] * back, (is_3d ? e->position.z : 0) + d[2] * back};
		/* odd rows have one particle less per side and sit in the gaps of even rows */
		int n = (int)row_side(e, sp, k), nv = is_3d ? n : 1; /* within room, so within int */
		for (int jv = 0; jv < nv; ++jv)
			for (int j = 0; j < n; ++j) {
				double a = ((double)j - 0.5 * (double)(n - 1)) * sp, b = ((double)jv - 0.5 * (double)(nv - 1)) * sp;
				pdl_fill_def f = pdl_default_fill_def();
				f.shape = PDL_FILL_POINT;
				f.count = 1;
				f.spacing = point_spacing;
				f.material = e->material;
				f.position = (pdl_vec3){(float)(c[0] + u[0] * a + v[0] * b), (float)(c[1] + u[1] * a + v[1] * b),
				                        (float)(c[2] + u[2] * a + v[2] * b)};
				f.velocity = (pdl_vec3){e->velocity.x, e->velocity.y, is_3d ? e->velocity.z : 0};
				if (pdl_world_fill(w, &f, perr) < 0) return -1;
				added++;
			}
	}
	return added;
}

/* ---- strokes ---------------------------------------------------------------------------------- */

static double dist3(pdl_vec3 a, pdl_vec3 b)
{
	double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
	return dz == 0 ? hypot(dx, dy) : sqrt(dx * dx + dy * dy + dz * dz); /* 2D strokes: as before */
}

/* 2D strokes have z = 0 in every point, so the same walk serves both. */
static void stroke_at(const pdl_scene_stroke* st, double t, pdl_vec3* pos, pdl_vec3* vel)
{
	double length = 0;
	for (int i = 1; i < st->point_count; ++i) length += dist3(st->points[i - 1], st->points[i]);
	*pos = st->points[0];
	*vel = (pdl_vec3){0, 0, 0};
	if (length <= 0) return;
	double speed = length / (st->end - st->start), target = speed * (t - st->start);
	for (int i = 1; i < st->point_count; ++i) {
		pdl_vec3 a = st->points[i - 1], b = st->points[i];
		double seg = dist3(a, b);
		if (seg <= 0) continue;
		if (target <= seg || i == st->point_count - 1) {
			double u = target / seg;
			if (u > 1) u = 1;
			*pos = (pdl_vec3){(float)(a.x + (b.x - a.x) * u), (float)(a.y + (b.y - a.y) * u), (float)(a.z + (b.z - a.z) * u)};
			*vel = (pdl_vec3){(float)((b.x - a.x) / seg * speed), (float)((b.y - a.y) / seg * speed),
			                  (float)((b.z - a.z) / seg * speed)};
			return;
		}
		target -= seg;
	}
}

int pdl_scene_apply_frame(const pdl_scene* s, pdl_world* w, long long frame, pdl_error* err)
{
	if (!s || !w || frame < 0) return 0;
	double t = (double)frame * s->world.dt;
	for (int i = 0; i < s->stroke_count; ++i) {
		const pdl_scene_stroke* st = &s->strokes[i];
		if (t >= st->start && t < st->end) {
			pdl_pointer ptr = pdl_default_pointer();
			pdl_vec3 at, speed;
			stroke_at(st, t, &at, &speed);
			ptr.position = at;
			ptr.velocity = speed;
			ptr.radius = st->radius;
			ptr.strength = st->strength;
			ptr.drag = st->drag;
			pdl_world_set_pointer(w, i, &ptr, NULL);
		} else {
			pdl_world_clear_pointer(w, i);
		}
	}
	int added = 0;
	for (int i = 0; i < s->emitter_count; ++i) {
		pdl_error e;
		int n = emit_rows(s, &s->emitters[i], w, frame, &e);
		if (n < 0) {
			char path[64];
			snprintf(path, sizeof path, "emitters[%d]", i);
			world_error(err, s, path, &e);
			return -1;
		}
		added += n;
	}
	return added;
}

long long pdl_scene_frames_for(const pdl_scene* s, double seconds)
{
	/* round() and a bound, not llround(): seconds / dt can be past any integer (a dt of 1e-38) */
	double n = s ? round(seconds / s->world.dt) : 1;
	if (!(n < 4503599627370496.0)) n = 4503599627370496.0; /* 2^52, NaN too */
	return n < 1 ? 1 : (long long)n;
}

/* ---- estimates and scaling ----------------------------------------------------------------------- */

/* Points of the FCC walk of particles.c (nearest neighbours s apart, cube step a = s / sqrt 2,
 * even coordinate sum) over [lo, hi], keeping only those within ball_r of c when ball_r > 0.
 * The same arithmetic as the engine's walk, so the count is exact; a box needs no walk. */
static double fcc_count(double s, const double lo[3], const double hi[3], const double c[3], double ball_r)
{
	double a = s * 0.70710678118654752, n[3];
	for (int d = 0; d < 3; ++d) n[d] = floor((hi[d] - lo[d]) / a + 1e-9) + 1;
	double all = n[0] * n[1] * n[2];
	/* even-sum points of an n0 x n1 x n2 block: (all + product of (n_d mod 2)) / 2 */
	double even = 0.5 * (all + fmod(n[0], 2) * fmod(n[1], 2) * fmod(n[2], 2));
	if (ball_r <= 0) return even;
	if (all > 4e7) return floor(4.18879020478639 * ball_r * ball_r * ball_r / (a * a * a * 2)) + 1; /* volume */
	double count = 0;
	for (double k = 0; k < n[2]; ++k)
		for (double j = 0; j < n[1]; ++j)
			for (double i = fmod(j + k, 2.0); i < n[0]; i += 2) {
				double dx = lo[0] + i * a - c[0], dy = lo[1] + j * a - c[1], dz = lo[2] + k * a - c[2];
				count += !(dx * dx + dy * dy + dz * dz > ball_r * ball_r);
			}
	return count;
}

static double fill_estimate_3d(const pdl_fill_def* f, double sp)
{
	double c[3] = {f->position.x, f->position.y, f->position.z};
	switch (f->shape) {
	case PDL_FILL_POINT: return f->count > 0 ? f->count : 1;
	case PDL_FILL_LINE: {
		double dx = f->end.x - c[0], dy = f->end.y - c[1], dz = f->end.z - c[2];
		return floor(sqrt(dx * dx + dy * dy + dz * dz) / sp) + 1;
	}
	case PDL_FILL_BOX: {
		double half[3] = {f->half_extents.x, f->half_extents.y, f->half_extents.z}, lo[3], hi[3];
		for (int k = 0; k < 3; ++k) {
			if (half[k] < 0.5 * sp) return 1;
			lo[k] = c[k] - half[k] + 0.5 * sp, hi[k] = c[k] + half[k] - 0.5 * sp;
		}
		return fcc_count(sp, lo, hi, c, 0);
	}
	case PDL_FILL_DISC: {
		double r = f->radius;
		if (r < 0.5 * sp) return 1;
		double lo[3] = {c[0] - r, c[1] - r, c[2] - r}, hi[3] = {c[0] + r, c[1] + r, c[2] + r};
		return fcc_count(sp, lo, hi, c, r - 0.5 * sp);
	}
	default: return 0;
	}
}

static double fill_estimate(const pdl_scene* s, const pdl_fill_def* f)
{
	double h = s->world.interaction_radius;
	float rho = s->materials[f->material].def.rest_density;
	if (scene_3d(s)) return fill_estimate_3d(f, f->spacing > 0 ? f->spacing : pdl_rest_spacing_3d((float)h, rho));
	double sp = f->spacing > 0 ? f->spacing : pdl_rest_spacing((float)h, rho);
	double pi = 3.14159265358979;
	switch (f->shape) {
	case PDL_FILL_POINT: return f->count > 0 ? f->count : 1; /* the engine adds one for 0 */
	case PDL_FILL_LINE: return floor(hypot(f->end.x - f->position.x, f->end.y - f->position.y) / sp) + 1;
	case PDL_FILL_BOX: {
		/* the engine's lattice: rows HEX_ROW * sp apart, odd rows shifted by half a spacing */
		double w = 2.0 * f->half_extents.x - sp, hgt = 2.0 * f->half_extents.y - sp;
		if (w < 0 || hgt < 0) return 1;
		double rows = floor(hgt / (sp * HEX_ROW) + 1e-9) + 1;
		double even = floor(w / sp + 1e-9) + 1, odd = floor((w - 0.5 * sp) / sp + 1e-9) + 1;
		return ceil(rows / 2) * even + floor(rows / 2) * (odd > 0 ? odd : 0);
	}
	case PDL_FILL_DISC: {
		double r = f->radius - 0.5 * sp;
		return r <= 0 ? 1 : floor(pi * r * r / (sp * sp * HEX_ROW)) + 1;
	}
	case PDL_FILL_SPIRAL:
		if (f->count > 0) return f->count;
		return fmax(1, floor(pi * (double)f->radius * f->radius / (sp * sp * HEX_ROW)));
	default: return 0;
	}
}

double pdl_scene_estimate_particles(const pdl_scene* s)
{
	if (!s) return 0;
	double total = 0;
	for (int i = 0; i < s->fill_count; ++i) total += fill_estimate(s, &s->fills[i].def);
	for (int i = 0; i < s->emitter_count; ++i) {
		const pdl_scene_emitter* e = &s->emitters[i];
		double rows = (double)rows_before(e, row_time(s, e), e->stop), sp = emitter_spacing(s, e);
		total += ceil(rows / 2) * row_particles(s, e, sp, 0) + floor(rows / 2) * row_particles(s, e, sp, 1);
	}
	return total;
}

double pdl_scene_emitter_row_particles(const pdl_scene* s, int i)
{
	const pdl_scene_emitter* e = &s->emitters[i];
	return row_particles(s, e, emitter_spacing(s, e), 0);
}

static pdl_vec2 scaled(pdl_vec2 v, float k) { return (pdl_vec2){v.x * k, v.y * k}; }
/* z is 0 in 2D scenes, so scaling it too changes nothing there */
static pdl_vec3 scaled3(pdl_vec3 v, float k) { return (pdl_vec3){v.x * k, v.y * k, v.z * k}; }

static void scale_boundary(pdl_boundary_def* b, float k)
{
	b->position = scaled3(b->position, k);
	b->radius *= k;
	b->half_extents = scaled3(b->half_extents, k);
	for (int i = 0; i < b->vertex_count; ++i) b->vertices[i] = scaled(b->vertices[i], k);
}

void pdl_scene_scale(pdl_scene* s, float k)
{
	if (!s || !(k > 0)) return;
	/* SPH: flow speeds grow like sqrt(g length) (Froude scaling), so the speed of sound does
	 * too, keeping the Mach number and with it the density error the same (the CFL rule then
	 * takes more substeps) */
	s->world.sph.speed_of_sound *= sqrtf(k);
	/* the diffuse particles' thresholds likewise: velocity differences with the flow speeds,
	 * kinetic energies with their squares, so a rescaled scene splashes as white as the scene */
	s->diffuse.trapped_air_min *= sqrtf(k), s->diffuse.trapped_air_max *= sqrtf(k);
	s->diffuse.kinetic_min *= k, s->diffuse.kinetic_max *= k;
	s->bounds_min = scaled3(s->bounds_min, k);
	s->bounds_max = scaled3(s->bounds_max, k);
	s->camera.target = scaled3(s->camera.target, k);
	s->camera.distance *= k;
	if (s->has_container) scale_boundary(&s->container, k);
	for (int i = 0; i < s->obstacle_count; ++i) scale_boundary(&s->obstacles[i], k);
	for (int i = 0; i < s->fill_count; ++i) {
		pdl_fill_def* f = &s->fills[i].def;
		f->position = scaled3(f->position, k);
		f->end = scaled3(f->end, k);
		f->radius *= k;
		f->half_extents = scaled3(f->half_extents, k);
		if (f->shape == PDL_FILL_SPIRAL && f->count > 0) f->count = (int)lround((double)f->count * k * k);
	}
	for (int i = 0; i < s->body_count; ++i) {
		pdl_body_def* b = &s->bodies[i].def;
		b->position = scaled3(b->position, k);
		b->radius *= k;
		b->half_extents = scaled3(b->half_extents, k);
		for (int j = 0; j < b->vertex_count; ++j) b->vertices[j] = scaled(b->vertices[j], k);
		s->bodies[i].step = scaled3(s->bodies[i].step, k);
	}
	for (int i = 0; i < s->emitter_count; ++i) {
		s->emitters[i].position = scaled3(s->emitters[i].position, k);
		s->emitters[i].width *= k;
	}
	for (int i = 0; i < s->stroke_count; ++i) {
		pdl_scene_stroke* st = &s->strokes[i];
		for (int j = 0; j < st->point_count; ++j) st->points[j] = scaled3(st->points[j], k);
		st->radius *= k;
	}
}

/* A scene asked for `particles` gets room for them: its max_particles (a cap, not memory set
 * aside; 1M by default) is raised to twice the count when the count is more than half of it, up
 * to the core's 2^26 (src/validate.c), since the rescaled fill lands within about 10% of the
 * count (dam-break-3d asked for 1M makes 1,075,487). */
static void make_room_for(pdl_scene* s, double particles)
{
	const double most = (double)(1 << 26);
	if (2 * particles > s->world.max_particles) s->world.max_particles = (int)(2 * particles < most ? 2 * particles : most);
}

float pdl_scene_scale_to_particles(pdl_scene* s, double particles)
{
	double now = pdl_scene_estimate_particles(s);
	if (!s || !(now > 0) || !(particles > 0)) return 1;
	make_room_for(s, particles);
	/* particles grow with area (3D: volume): scale lengths by the square (cube) root, then once
	 * more to absorb the lattice's rounding at the edges */
	double (*root)(double) = scene_3d(s) ? cbrt : sqrt;
	double k = root(particles / now);
	/* on the heap: a scene with room for every body is too large for the stack */
	pdl_scene* original = pdl_scene_clone(s);
	pdl_scene_scale(s, (float)k);
	if (!original) return (float)k; /* out of memory: the first estimate's factor */
	double got = pdl_scene_estimate_particles(s);
	if (got > 0) {
		k *= root(particles / got);
		*s = *original;
		pdl_scene_scale(s, (float)k);
	}
	if (!scene_3d(s)) {
		pdl_scene_destroy(original);
		return (float)k;
	}
	/* 3D: the layers of a thin pool come in whole spacings, so one correction can overshoot by
	 * 10 %; a few more steps keep the closest factor */
	double best_k = k, best = fabs(pdl_scene_estimate_particles(s) - particles);
	for (int it = 0; it < 8 && best > 0.01 * particles; ++it) {
		got = pdl_scene_estimate_particles(s);
		if (!(got > 0)) break;
		k *= root(particles / got);
		*s = *original;
		pdl_scene_scale(s, (float)k);
		double miss = fabs(pdl_scene_estimate_particles(s) - particles);
		if (miss < best) best = miss, best_k = k;
	}
	*s = *original;
	pdl_scene_destroy(original);
	pdl_scene_scale(s, (float)best_k);
	return (float)best_k;
}

void pdl_scene_override(pdl_scene* s, double particles, int threads)
{
	if (!s) return;
	if (particles > 0) pdl_scene_scale_to_particles(s, particles);
	if (threads >= 0) s->world.threads = threads;
}

const char* pdl_color_mode_name(pdl_color_mode m)
{
	static const char* const names[] = {"material", "speed", "density", "pressure"};
	return m >= 0 && m < PDL_COLOR_MODE_COUNT ? names[m] : "?";
}

const char* pdl_scene_fill_shape_name(pdl_fill_shape shape)
{
	static const char* const names[] = {"point", "line", "disc", "box", "sunflower"};
	return shape >= 0 && shape < PDL_FILL_SHAPE_COUNT ? names[shape] : "?";
}

const char* pdl_scene_fill_shape_name_3d(pdl_fill_shape shape)
{
	static const char* const names[] = {"point", "line", "ball", "box", "sunflower"};
	return shape >= 0 && shape < PDL_FILL_SHAPE_COUNT ? names[shape] : "?";
}

const char* pdl_scene_boundary_shape_name_3d(pdl_boundary_kind kind)
{
	static const char* const names[] = {"sphere", "box", "sphere", "box", "polygon"};
	return kind >= 0 && kind < PDL_BOUNDARY_KIND_COUNT ? names[kind] : "?";
}

const char* pdl_scene_boundary_shape_name(pdl_boundary_kind kind)
{
	static const char* const names[] = {"circle", "box", "circle", "box", "polygon"};
	return kind >= 0 && kind < PDL_BOUNDARY_KIND_COUNT ? names[kind] : "?";
}

/* ---- placement --------------------------------------------------------------------------------- */

/* A particle a fill or an emitter puts outside the container is thrown back in by the wall at
 * the first step, at whatever speed that takes (a fill at [100, 100] in dam-break's 30 x 15 tank
 * left the run at 2,000 % density error and 3,000 units/s), and one outside world.bounds is lost
 * at once; a fill wholly inside an obstacle is pushed out through the obstacle's faces the same
 * way. So the parser refuses them, as every other rule. The tests are exact for the convex
 * shapes involved: a convex set lies inside a box or a ball when its corners do (a disc or a
 * ball: when its centre lies its radius inside), with a slack of a thousandth of h for the
 * floats of a fill drawn flush with a wall. */

/* The solid of a container, an obstacle or the bounds, in the frame that makes it axis aligned:
 * a box (half extents) turned by angle about z, a ball (radius), or a convex polygon (2D). */
typedef struct place_solid {
	int kind; /* 0 box, 1 ball, 2 polygon */
	double c[3], half[3], r, cs, sn;
	int n;
	pdl_vec2 v[PDL_MAX_POLYGON_VERTICES]; /* world-space corners, counter-clockwise */
} place_solid;

static place_solid solid_of(const pdl_boundary_def* b, bool three)
{
	place_solid o = {0};
	o.c[0] = b->position.x, o.c[1] = b->position.y, o.c[2] = three ? b->position.z : 0;
	o.cs = cos(b->angle), o.sn = sin(b->angle);
	if (b->kind == PDL_BOUNDARY_CIRCLE_CONTAINER || b->kind == PDL_BOUNDARY_CIRCLE) o.kind = 1, o.r = b->radius;
	else if (b->kind == PDL_BOUNDARY_POLYGON) o.kind = 2, o.n = pdl_boundary_world_vertices(b, o.v);
	else o.half[0] = b->half_extents.x, o.half[1] = b->half_extents.y, o.half[2] = three ? b->half_extents.z : 0;
	return o;
}

/* Whether the ball of radius r around q lies in the solid, within slack. */
static bool solid_holds(const place_solid* o, const double q[3], double r, double slack, bool three)
{
	const double d[3] = {q[0] - o->c[0], q[1] - o->c[1], three ? q[2] - o->c[2] : 0};
	if (o->kind == 1) return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + r <= o->r + slack;
	if (o->kind == 2) {
		for (int i = 0; i < o->n; ++i) {
			const pdl_vec2 a = o->v[i], b = o->v[(i + 1) % o->n];
			const double ex = (double)b.x - a.x, ey = (double)b.y - a.y, len = sqrt(ex * ex + ey * ey);
			/* counter-clockwise: inside is to the left of every edge */
			if (!(len > 0)) continue;
			if ((ex * (q[1] - a.y) - ey * (q[0] - a.x)) / len < r - slack) return false;
		}
		return true;
	}
	const double x = o->cs * d[0] + o->sn * d[1], y = -o->sn * d[0] + o->cs * d[1];
	return fabs(x) + r <= o->half[0] + slack && fabs(y) + r <= o->half[1] + slack &&
	       (!three || fabs(d[2]) + r <= o->half[2] + slack);
}

/* A fill's particles as a convex set: corner points (n of them), each with radius r (a disc or
 * a ball: its centre and the radius its lattice keeps). Returns n. */
static int fill_hull(const pdl_scene* s, const pdl_fill_def* f, bool three, double pts[8][3], double* r)
{
	float h = s->world.interaction_radius, rho = s->materials[f->material].def.rest_density;
	double sp = f->spacing > 0 ? f->spacing : three ? pdl_rest_spacing_3d(h, rho) : pdl_rest_spacing(h, rho);
	const double c[3] = {f->position.x, f->position.y, three ? f->position.z : 0};
	*r = 0;
	switch (f->shape) {
	case PDL_FILL_LINE:
		memcpy(pts[0], c, sizeof c);
		pts[1][0] = f->end.x, pts[1][1] = f->end.y, pts[1][2] = three ? f->end.z : 0;
		return 2;
	case PDL_FILL_BOX: { /* the lattice keeps half a spacing in from the box's faces (pdl_world_fill) */
		const double half[3] = {f->half_extents.x, f->half_extents.y, three ? f->half_extents.z : 0};
		double in[3];
		for (int k = 0; k < 3; ++k) in[k] = half[k] >= 0.5 * sp ? half[k] - 0.5 * sp : 0;
		const int n = three ? 8 : 4;
		for (int i = 0; i < n; ++i)
			for (int k = 0; k < 3; ++k) pts[i][k] = c[k] + ((i >> k) & 1 ? in[k] : -in[k]);
		return n;
	}
	case PDL_FILL_DISC:
		*r = f->radius >= 0.5 * sp ? f->radius - 0.5 * sp : 0;
		break;
	case PDL_FILL_SPIRAL:
		*r = f->radius;
		break;
	default: /* a point */
		break;
	}
	memcpy(pts[0], c, sizeof c);
	return 1;
}

static void vec_text(const pdl_vec3* v, bool three, char* out, size_t size)
{
	if (three) snprintf(out, size, "[%g, %g, %g]", v->x, v->y, v->z);
	else snprintf(out, size, "[%g, %g]", v->x, v->y);
}

/* The key of a fill whose particles leave the solid: its position when that is outside too,
 * else the key that gives its extent. */
static const char* fill_key(const pdl_scene_fill* f, bool centre_inside)
{
	if (!centre_inside) return "position";
	switch (f->def.shape) {
	case PDL_FILL_LINE: return "end";
	case PDL_FILL_BOX: return "half_extents";
	case PDL_FILL_DISC:
	case PDL_FILL_SPIRAL: return "radius";
	default: return "position";
	}
}

bool pdl_schema_check_placement(const pdl_scene* s, char* path, size_t path_size, char* rule, size_t rule_size)
{
	const bool three = scene_3d(s);
	const double slack = 1e-3 * s->world.interaction_radius;
	place_solid tank;
	const char* where = "the container";
	if (s->has_container) tank = solid_of(&s->container, three);
	else {
		memset(&tank, 0, sizeof tank);
		const double lo[3] = {s->bounds_min.x, s->bounds_min.y, s->bounds_min.z};
		const double hi[3] = {s->bounds_max.x, s->bounds_max.y, s->bounds_max.z};
		for (int k = 0; k < 3; ++k) tank.c[k] = 0.5 * (lo[k] + hi[k]), tank.half[k] = 0.5 * (hi[k] - lo[k]);
		tank.cs = 1;
		where = "world.bounds";
	}
	char got[96];
	for (int i = 0; i < s->fill_count; ++i) {
		const pdl_scene_fill* f = &s->fills[i];
		double pts[8][3], r;
		const int n = fill_hull(s, &f->def, three, pts, &r);
		bool inside = true;
		for (int k = 0; k < n && inside; ++k) inside = solid_holds(&tank, pts[k], r, slack, three);
		if (!inside) {
			const double c[3] = {f->def.position.x, f->def.position.y, three ? f->def.position.z : 0};
			const char* key = fill_key(f, solid_holds(&tank, c, 0, slack, three));
			snprintf(path, path_size, "fills[%d].%s", i, key);
			if (strcmp(key, "radius") == 0) snprintf(got, sizeof got, "%g", f->def.radius);
			else vec_text(strcmp(key, "end") == 0 ? &f->def.end : strcmp(key, "half_extents") == 0 ? &f->def.half_extents : &f->def.position,
			              three, got, sizeof got);
			snprintf(rule, rule_size, "must put the fill's particles inside %s, got %s", where, got);
			return false;
		}
		for (int j = 0; j < s->obstacle_count; ++j) {
			const place_solid o = solid_of(&s->obstacles[j], three);
			bool buried = true;
			/* wholly inside: every corner, each with its radius, within the obstacle */
			for (int k = 0; k < n && buried; ++k) buried = solid_holds(&o, pts[k], r, 0, three);
			if (buried) {
				snprintf(path, path_size, "fills[%d].position", i);
				vec_text(&f->def.position, three, got, sizeof got);
				snprintf(rule, rule_size, "puts every particle of the fill inside obstacles[%d], got %s", j, got);
				return false;
			}
		}
	}
	for (int i = 0; i < s->emitter_count; ++i) {
		const pdl_scene_emitter* e = &s->emitters[i];
		/* the outermost particles of a row: (n - 1) / 2 spacings either side of the centre,
		 * across the velocity (a line in 2D, a square in 3D: emit_rows) */
		const double sp = emitter_spacing(s, e), speed = emitter_speed(s, e);
		const double half = 0.5 * (row_side(e, sp, 0) - 1) * sp;
		const double d[3] = {e->velocity.x / speed, e->velocity.y / speed, three ? e->velocity.z / speed : 0};
		double u[3] = {-d[1], d[0], 0}, v[3] = {0, 0, 0};
		if (three) across(d, u, v);
		const double c[3] = {e->position.x, e->position.y, three ? e->position.z : 0};
		bool centre = solid_holds(&tank, c, 0, slack, three), inside = centre;
		for (int k = 0; k < 4 && inside; ++k) {
			const double a = (k & 1 ? half : -half), b = three ? (k & 2 ? half : -half) : 0;
			const double q[3] = {c[0] + u[0] * a + v[0] * b, c[1] + u[1] * a + v[1] * b, c[2] + u[2] * a + v[2] * b};
			inside = solid_holds(&tank, q, 0, slack, three);
		}
		if (!inside) {
			snprintf(path, path_size, "emitters[%d].%s", i, centre ? "width" : "position");
			if (centre) snprintf(got, sizeof got, "%g", e->width);
			else vec_text(&e->position, three, got, sizeof got);
			snprintf(rule, rule_size, "must put the nozzle's particles inside %s, got %s", where, got);
			return false;
		}
	}
	if (!s->has_container) return true;
	/* an obstacle wholly outside the container: its bounding box misses the container's (or,
	 * for a round container, lies further from its centre than the radius) */
	double clo[3], chi[3];
	{
		const double cr = tank.kind == 1 ? tank.r : 0;
		double ex[3] = {cr, cr, three ? cr : 0};
		if (tank.kind == 0) { /* a box turned about z: the bounding box of its corners */
			ex[0] = fabs(tank.cs) * tank.half[0] + fabs(tank.sn) * tank.half[1];
			ex[1] = fabs(tank.sn) * tank.half[0] + fabs(tank.cs) * tank.half[1];
			ex[2] = tank.half[2];
		}
		for (int k = 0; k < 3; ++k) clo[k] = tank.c[k] - ex[k], chi[k] = tank.c[k] + ex[k];
	}
	for (int j = 0; j < s->obstacle_count; ++j) {
		const pdl_boundary_def* b = &s->obstacles[j];
		const place_solid o = solid_of(b, three);
		double lo[3], hi[3];
		if (o.kind == 1)
			for (int k = 0; k < 3; ++k) lo[k] = o.c[k] - (k < 2 || three ? o.r : 0), hi[k] = o.c[k] + (k < 2 || three ? o.r : 0);
		else {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
			const int n = pdl_boundary_world_vertices(b, v);
			lo[0] = hi[0] = v[0].x, lo[1] = hi[1] = v[0].y;
			for (int i = 1; i < n; ++i) lo[0] = fmin(lo[0], v[i].x), hi[0] = fmax(hi[0], v[i].x), lo[1] = fmin(lo[1], v[i].y), hi[1] = fmax(hi[1], v[i].y);
			lo[2] = o.c[2] - o.half[2], hi[2] = o.c[2] + o.half[2];
		}
		bool apart = false;
		double gap2 = 0;
		for (int k = 0; k < (three ? 3 : 2); ++k) {
			apart = apart || lo[k] > chi[k] || hi[k] < clo[k];
			const double g = fmax(0, fmax(lo[k] - tank.c[k], tank.c[k] - hi[k]));
			gap2 += g * g;
		}
		if (tank.kind == 1 && sqrt(gap2) >= tank.r) apart = true;
		if (apart) {
			snprintf(path, path_size, "obstacles[%d].position", j);
			vec_text(&b->position, three, got, sizeof got);
			snprintf(rule, rule_size, "must put the obstacle (at least partly) inside the container, got %s", got);
			return false;
		}
	}
	return true;
}
