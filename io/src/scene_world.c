/* From a scene to a running world: building it, the scripted events of each frame (emitters,
 * strokes), particle estimates and rescaling. */
#include "scene_schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEX_ROW 0.8660254037844386 /* row height of a hexagonal lattice, in spacings */

static void world_error(pdl_scene_error* err, const pdl_scene* s, const char* path, const pdl_error* e)
{
	if (!err) return;
	memset(err, 0, sizeof *err);
	snprintf(err->file, sizeof err->file, "%s", s->source[0] ? s->source : s->name);
	snprintf(err->path, sizeof err->path, "%s", path);
	snprintf(err->rule, sizeof err->rule, "%s", e->message);
	snprintf(err->message, sizeof err->message, "%s: %s: %s", err->file, err->path, err->rule);
}

/* A fill's particles were appended in emission order at [first, count): give particle k of the
 * fill material mix[k % n]. The engine has no per-particle setter, so the state goes round
 * through pdl_world_set_particles() (before the first step, nothing else is lost by that). */
static bool apply_mix(pdl_world* w, const pdl_scene_fill* f, int first, pdl_error* e)
{
	if (f->mix_count == 0) return true;
	pdl_particle_data p = pdl_world_particles(w);
	/* copies: the world must not read from the arrays it is overwriting */
	size_t n = (size_t)(p.count > 0 ? p.count : 1);
	float* xyv = malloc(4 * n * sizeof *xyv);
	uint8_t* material = malloc(n);
	uint32_t* id = malloc(n * sizeof *id);
	bool ok = xyv && material && id && !p.spring_partner; /* fills come before any spring exists */
	if (ok) {
		size_t c = (size_t)p.count;
		memcpy(xyv, p.x, c * sizeof *xyv);
		memcpy(xyv + n, p.y, c * sizeof *xyv);
		memcpy(xyv + 2 * n, p.vx, c * sizeof *xyv);
		memcpy(xyv + 3 * n, p.vy, c * sizeof *xyv);
		memcpy(material, p.material, c);
		memcpy(id, p.id, c * sizeof *id);
		for (int i = first; i < p.count; ++i) material[i] = (uint8_t)f->mix[(i - first) % f->mix_count];
		pdl_particle_data q = {0};
		q.count = p.count;
		q.x = xyv, q.y = xyv + n, q.vx = xyv + 2 * n, q.vy = xyv + 3 * n;
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

pdl_world* pdl_scene_build_world(const pdl_scene* s, pdl_scene_error* err)
{
	pdl_error e;
	char path[64];
	if (!s) return NULL;
	pdl_world* w = pdl_world_create(&s->world, &e);
	if (!w) return world_error(err, s, "world", &e), NULL;
	for (int i = 0; i < s->material_count; ++i)
		if (pdl_world_add_material(w, &s->materials[i].def, &e) < 0) {
			snprintf(path, sizeof path, "materials[%d]", i);
			goto fail;
		}
	if (s->has_container && pdl_world_add_boundary(w, &s->container, &e) < 0) {
		snprintf(path, sizeof path, "container");
		goto fail;
	}
	for (int i = 0; i < s->obstacle_count; ++i)
		if (pdl_world_add_boundary(w, &s->obstacles[i], &e) < 0) {
			snprintf(path, sizeof path, "obstacles[%d]", i);
			goto fail;
		}
	for (int i = 0; i < s->fill_count; ++i) {
		int before = pdl_world_particle_count(w);
		if (pdl_world_fill(w, &s->fills[i].def, &e) < 0 || !apply_mix(w, &s->fills[i], before, &e)) {
			snprintf(path, sizeof path, "fills[%d]", i);
			goto fail;
		}
	}
	return w;
fail:
	world_error(err, s, path, &e);
	pdl_world_destroy(w);
	return NULL;
}

/* ---- emitters --------------------------------------------------------------------------------- */

static float emitter_spacing(const pdl_scene* s, const pdl_scene_emitter* e)
{
	if (e->spacing > 0) return e->spacing;
	return pdl_rest_spacing(s->world.interaction_radius, s->materials[e->material].def.rest_density);
}

/* Rows are launched at t_k = start + k * row_gap / speed while t_k < stop; this counts the rows
 * launched before time t. */
static long long rows_before(const pdl_scene_emitter* e, double row_time, double t)
{
	if (t <= e->start) return 0;
	double end = t < e->stop ? t : e->stop;
	return (long long)ceil((end - e->start) / row_time - 1e-9);
}

static double row_time(const pdl_scene* s, const pdl_scene_emitter* e)
{
	double speed = hypot(e->velocity.x, e->velocity.y);
	return emitter_spacing(s, e) * HEX_ROW / speed;
}

/* Particles in row k: as many as fit across the width at the spacing, one less in odd rows. */
static int row_particles(const pdl_scene_emitter* e, double spacing, long long k)
{
	int n = (int)floor(e->width / spacing + 1e-6) + 1;
	if ((k & 1) && n > 1) n--;
	return n;
}

static int emit_rows(const pdl_scene* s, const pdl_scene_emitter* e, pdl_world* w, long long frame, pdl_error* perr)
{
	double dt = s->world.dt, rt = row_time(s, e), t0 = (double)frame * dt, t1 = (double)(frame + 1) * dt;
	long long first = rows_before(e, rt, t0), last = rows_before(e, rt, t1);
	double speed = hypot(e->velocity.x, e->velocity.y), sp = emitter_spacing(s, e);
	double dx = e->velocity.x / speed, dy = e->velocity.y / speed, px = -dy, py = dx;
	int added = 0;
	for (long long k = first; k < last; ++k) {
		/* row k left the nozzle at t_k; the frame's step will carry it to where it would be at
		 * the end of the frame, so start it behind the nozzle by the time it has not flown */
		double tk = e->start + (double)k * rt, back = speed * (t0 - tk);
		double cx = e->position.x + dx * back, cy = e->position.y + dy * back;
		/* odd rows have one particle less and sit in the gaps of even rows */
		int n = row_particles(e, sp, k);
		for (int j = 0; j < n; ++j) {
			double across = ((double)j - 0.5 * (double)(n - 1)) * sp;
			pdl_fill_def f = pdl_default_fill_def();
			f.shape = PDL_FILL_POINT;
			f.count = 1;
			f.material = e->material;
			f.position = (pdl_vec3){(float)(cx + px * across), (float)(cy + py * across), 0};
			f.velocity = (pdl_vec3){e->velocity.x, e->velocity.y, 0};
			if (pdl_world_fill(w, &f, perr) < 0) return -1;
			added++;
		}
	}
	return added;
}

/* ---- strokes ---------------------------------------------------------------------------------- */

static void stroke_at(const pdl_scene_stroke* st, double t, pdl_vec2* pos, pdl_vec2* vel)
{
	double length = 0;
	for (int i = 1; i < st->point_count; ++i)
		length += hypot(st->points[i].x - st->points[i - 1].x, st->points[i].y - st->points[i - 1].y);
	*pos = st->points[0];
	*vel = (pdl_vec2){0, 0};
	if (length <= 0) return;
	double speed = length / (st->end - st->start), target = speed * (t - st->start);
	for (int i = 1; i < st->point_count; ++i) {
		pdl_vec2 a = st->points[i - 1], b = st->points[i];
		double seg = hypot(b.x - a.x, b.y - a.y);
		if (seg <= 0) continue;
		if (target <= seg || i == st->point_count - 1) {
			double u = target / seg;
			if (u > 1) u = 1;
			*pos = (pdl_vec2){(float)(a.x + (b.x - a.x) * u), (float)(a.y + (b.y - a.y) * u)};
			*vel = (pdl_vec2){(float)((b.x - a.x) / seg * speed), (float)((b.y - a.y) / seg * speed)};
			return;
		}
		target -= seg;
	}
}

int pdl_scene_apply_frame(const pdl_scene* s, pdl_world* w, long long frame, pdl_scene_error* err)
{
	if (!s || !w || frame < 0) return 0;
	double t = (double)frame * s->world.dt;
	for (int i = 0; i < s->stroke_count; ++i) {
		const pdl_scene_stroke* st = &s->strokes[i];
		if (t >= st->start && t < st->end) {
			pdl_pointer ptr = pdl_default_pointer();
			pdl_vec2 at, speed;
			stroke_at(st, t, &at, &speed);
			ptr.position = (pdl_vec3){at.x, at.y, 0};
			ptr.velocity = (pdl_vec3){speed.x, speed.y, 0};
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
	double n = s ? llround(seconds / s->world.dt) : 1;
	return n < 1 ? 1 : (long long)n;
}

/* ---- estimates and scaling ----------------------------------------------------------------------- */

static double fill_estimate(const pdl_scene* s, const pdl_fill_def* f)
{
	double h = s->world.interaction_radius;
	double sp = f->spacing > 0 ? f->spacing : pdl_rest_spacing((float)h, s->materials[f->material].def.rest_density);
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
		total += ceil(rows / 2) * row_particles(e, sp, 0) + floor(rows / 2) * row_particles(e, sp, 1);
	}
	return total;
}

static pdl_vec2 scaled(pdl_vec2 v, float k) { return (pdl_vec2){v.x * k, v.y * k}; }
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
	s->bounds_min = scaled(s->bounds_min, k);
	s->bounds_max = scaled(s->bounds_max, k);
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
	for (int i = 0; i < s->emitter_count; ++i) {
		s->emitters[i].position = scaled(s->emitters[i].position, k);
		s->emitters[i].width *= k;
	}
	for (int i = 0; i < s->stroke_count; ++i) {
		pdl_scene_stroke* st = &s->strokes[i];
		for (int j = 0; j < st->point_count; ++j) st->points[j] = scaled(st->points[j], k);
		st->radius *= k;
	}
}

float pdl_scene_scale_to_particles(pdl_scene* s, double particles)
{
	double now = pdl_scene_estimate_particles(s);
	if (!s || !(now > 0) || !(particles > 0)) return 1;
	/* particles grow with area: scale lengths by the square root, then once more to absorb the
	 * lattice's rounding at the edges */
	pdl_scene original = *s;
	double k = sqrt(particles / now);
	pdl_scene_scale(s, (float)k);
	double got = pdl_scene_estimate_particles(s);
	if (got > 0) {
		k *= sqrt(particles / got);
		*s = original;
		pdl_scene_scale(s, (float)k);
	}
	return (float)k;
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

const char* pdl_scene_boundary_shape_name(pdl_boundary_kind kind)
{
	static const char* const names[] = {"circle", "box", "circle", "box", "polygon"};
	return kind >= 0 && kind < PDL_BOUNDARY_KIND_COUNT ? names[kind] : "?";
}
