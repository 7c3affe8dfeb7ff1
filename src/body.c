/* Rigid bodies: their defs, ids, mass properties and boundary particles. Their shapes' geometry
 * is body_shape.c; the step's part (coupling with the fluid, contacts, integration) is
 * body_step.c; docs/physics.md,
 * "Bodies", says why the method is what it is.
 *
 * A body is sampled with boundary particles (Akinci et al. 2012, "Versatile Rigid-Fluid
 * Coupling for Incompressible SPH"): points in its own frame, a layer on its surface (half a
 * particle spacing in, so that the fluid stops where the shape ends) and a lattice inside it,
 * as deep as the interaction radius h reaches. Deeper points would never meet the fluid or
 * another body, so they are left out. The spacing is material 0's rest spacing, and the
 * surface layer is as dense as that fluid at rest, so a fluid particle next to a body counts it
 * in its density as it would count more fluid. */
#include "core.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PDL_PI 3.14159265358979323846

pdl_body_def pdl_default_body_def(void)
{
	return (pdl_body_def){PDL_BODY_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

/* ---- Ids ------------------------------------------------------------------------------------ */

int32_t pdl_body_id_to_int(pdl_body_id id)
{
	if (id.index < 0 || id.index >= PDL_MAX_BODIES) return -1;
	return id.index + (int32_t)(id.generation % (0x7fffffffu / PDL_MAX_BODIES)) * PDL_MAX_BODIES;
}

pdl_body_id pdl_body_id_from_int(int32_t packed)
{
	if (packed < 0) return (pdl_body_id){-1, 0};
	return (pdl_body_id){packed % PDL_MAX_BODIES, (uint32_t)(packed / PDL_MAX_BODIES)};
}

static rigid_body* live_body(const pdl_world* w, pdl_body_id id)
{
	if (!w || id.index < 0 || id.index >= w->bodies.slots) return NULL;
	rigid_body* b = &w->bodies.bodies[id.index];
	/* the packed int keeps the generation modulo its range: compare the same way */
	uint32_t range = 0x7fffffffu / PDL_MAX_BODIES;
	return b->alive && b->generation % range == id.generation % range ? b : NULL;
}

/* (The shapes' geometry, which the step uses, is body_shape.c.) */

/* ---- Mass ------------------------------------------------------------------------------------ */

/* Material 0's mass density at rest: its particle mass over the area (volume) one particle of
 * its rest lattice fills (hexagonal: s^2 sqrt(3) / 2; face-centred cubic: s^3 / sqrt(2)). */
static double fluid_density(const pdl_world* w)
{
	double s = pdl_body_spacing(w);
	double cell = PDL_IS_3D(w) ? s * s * s / sqrt(2.0) : s * s * sqrt(3.0) / 2.0;
	return w->materials[0].def.mass / cell;
}

/* Area (3D: volume), centroid and second moments of the shape (2D polar moment about the
 * centroid; 3D the principal moments per unit mass times volume), all per unit density. */
typedef struct shape_moments {
	double volume;
	pdl_vec2 centroid; /* polygons: the vertices' centroid, where the centre of mass is */
	double inertia[3]; /* per unit density */
	float bound_radius;
} shape_moments;

static shape_moments moments_of(const pdl_body_def* d, bool three)
{
	shape_moments m = {0};
	if (d->shape == PDL_BODY_CIRCLE) {
		double r = d->radius;
		if (three) {
			m.volume = 4.0 / 3.0 * PDL_PI * r * r * r;
			m.inertia[0] = m.inertia[1] = m.inertia[2] = 0.4 * m.volume * r * r;
		} else {
			m.volume = PDL_PI * r * r;
			m.inertia[2] = 0.5 * m.volume * r * r;
		}
		m.bound_radius = d->radius;
	} else if (d->shape == PDL_BODY_BOX) {
		double a = 2.0 * d->half_extents.x, b = 2.0 * d->half_extents.y, c = 2.0 * d->half_extents.z;
		if (three) {
			m.volume = a * b * c;
			m.inertia[0] = m.volume * (b * b + c * c) / 12;
			m.inertia[1] = m.volume * (a * a + c * c) / 12;
			m.inertia[2] = m.volume * (a * a + b * b) / 12;
		} else {
			m.volume = a * b;
			m.inertia[2] = m.volume * (a * a + b * b) / 12;
		}
		m.bound_radius = 0.5f * (float)sqrt(a * a + b * b + (three ? c * c : 0));
	} else { /* polygon: triangles fanned from vertex 0 (the polygon mass formulas of Box2D) */
		int n = d->vertex_count;
		pdl_vec2 o = d->vertices[0];
		double area = 0, cx = 0, cy = 0, inertia_o = 0;
		for (int i = 1; i + 1 < n; ++i) {
			pdl_vec2 e1 = {d->vertices[i].x - o.x, d->vertices[i].y - o.y};
			pdl_vec2 e2 = {d->vertices[i + 1].x - o.x, d->vertices[i + 1].y - o.y};
			double tri = 0.5 * pdl_cross2(e1, e2);
			area += tri;
			cx += tri * (e1.x + e2.x) / 3.0;
			cy += tri * (e1.y + e2.y) / 3.0;
			double intx2 = (double)e1.x * e1.x + (double)e2.x * e1.x + (double)e2.x * e2.x;
			double inty2 = (double)e1.y * e1.y + (double)e2.y * e1.y + (double)e2.y * e2.y;
			inertia_o += (0.25 / 3.0) * (2.0 * tri) * (intx2 + inty2); /* about vertex 0 */
		}
		cx /= area, cy /= area;
		m.volume = area;
		m.centroid = (pdl_vec2){(float)(o.x + cx), (float)(o.y + cy)};
		m.inertia[2] = inertia_o - area * (cx * cx + cy * cy); /* parallel axes to the centroid */
		float far = 0;
		for (int i = 0; i < n; ++i) {
			float dx = d->vertices[i].x - m.centroid.x, dy = d->vertices[i].y - m.centroid.y;
			far = fmaxf(far, sqrtf(dx * dx + dy * dy));
		}
		m.bound_radius = far;
	}
	return m;
}

/* ---- Boundary particles --------------------------------------------------------------------- */

typedef struct sampler {
	float *x, *y, *z, *w; /* w: each point's share of a fluid particle (see sample_shape) */
	int count, capacity;
	int surface; /* the points of the first layer, the one half a step under the surface */
	bool failed;
} sampler;

bool pdl_grow_float_arrays(float** const arrays[], size_t n, int cap)
{
	bool ok = true;
	for (size_t k = 0; k < n; ++k) {
		float* grown = realloc(*arrays[k], (size_t)cap * sizeof *grown);
		if (grown) *arrays[k] = grown;
		else ok = false;
	}
	return ok;
}

static void emit(sampler* s, float x, float y, float z)
{
	if (s->count == s->capacity) {
		int cap = s->capacity ? 2 * s->capacity : 256;
		float** const arrays[] = {&s->x, &s->y, &s->z, &s->w};
		if (!pdl_grow_float_arrays(arrays, 4, cap)) {
			s->failed = true;
			return;
		}
		s->capacity = cap;
	}
	s->x[s->count] = x, s->y[s->count] = y, s->z[s->count] = z, s->w[s->count] = 1;
	s->count++;
}

/* Points at about `spacing` along the segment a -> b, a included, b not (the next edge's a). */
static void sample_edge(sampler* s, pdl_vec2 a, pdl_vec2 b, float spacing)
{
	float len = sqrtf((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
	int n = (int)lroundf(len / spacing); /* nearest: rounding up made edges denser than the fluid */
	if (n < 1) n = 1;
	for (int k = 0; k < n; ++k) {
		float t = (float)k / (float)n;
		emit(s, a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), 0);
	}
}

/* Points on a sphere of radius r about `spacing` apart: a Fibonacci lattice (Gonzalez 2010),
 * as many points as hexagons of that spacing cover the sphere. */
static void sample_sphere(sampler* s, float r, float spacing)
{
	int n = (int)lroundf(4.0f * (float)PDL_PI * r * r / (spacing * spacing * 0.8660254f));
	if (n < 1) {
		emit(s, 0, 0, 0);
		return;
	}
	const float golden = 2.39996323f; /* pi (3 - sqrt 5) */
	for (int k = 0; k < n; ++k) {
		float y = 1.0f - 2.0f * ((float)k + 0.5f) / (float)n, ring = sqrtf(fmaxf(0.0f, 1.0f - y * y));
		float ca, sa;
		pdl_cos_sin(golden * (float)k, &ca, &sa);
		emit(s, r * ring * ca, r * y, r * ring * sa);
	}
}

/* The lattice step of the boundary particles: the spacing at which a square (cubic) lattice has
 * the number density of the fluid's rest lattice (hexagonal: one particle per s^2 sqrt(3)/2;
 * face-centred cubic: per s^3 / sqrt(2)). */
float pdl_body_lattice_step(float spacing, bool three)
{
	return three ? spacing * 0.890898718f /* 2^(-1/6), (1 / sqrt 2)^(1/3) */ : spacing * sqrtf(0.8660254f);
}

/* How much denser a fluid lattice at rest is than the boundary particles' lattice of the same
 * number density, by the kernel sums a particle sees in each, self included: hexagonal
 * (face-centred cubic) rest lattice against the square (cubic) one. The coupling scales the
 * boundary particles' density contributions by it, so that fluid beside a body sees the density
 * it would see beside more fluid at rest; the stiff SPH equation of state reads any missing
 * fraction of a percent as a void. `poly6`: the SPH kernel (h^2 - r^2)^3, else Clavet's
 * (1 - r/h)^2. */
float pdl_body_density_scale(float h, float spacing, bool three, bool poly6)
{
	const float a = pdl_body_lattice_step(spacing, three);
	double lattice = 0;
	int reach = (int)ceilf(h / a);
	for (int i = -reach; i <= reach; ++i)
		for (int j = -reach; j <= reach; ++j)
			for (int k = three ? -reach : 0; k <= (three ? reach : 0); ++k) {
				double r2 = (double)a * a * (i * i + j * j + k * k);
				if (r2 >= (double)h * h) continue;
				double q = 1.0 - sqrt(r2) / h, d = (double)h * h - r2;
				lattice += poly6 ? d * d * d : q * q;
			}
	double rest;
	if (poly6) { /* pdl_sph_rest_density with unit mass is poly6 * sum (h^2 - r^2)^3 */
		double norm = three ? 315.0 / (64.0 * PDL_PI * pow(h, 9)) : 4.0 / (PDL_PI * pow(h, 8));
		rest = (three ? pdl_sph_rest_density_3d(h, spacing, 1) : pdl_sph_rest_density(h, spacing, 1)) / norm;
	} else {
		rest = 0; /* the kernel sum of the rest lattice, self included, at this spacing */
		const double s = spacing;
		for (int i = -reach - 2; i <= reach + 2; ++i)
			for (int j = -reach - 2; j <= reach + 2; ++j)
				for (int k = three ? -reach - 2 : 0; k <= (three ? reach + 2 : 0); ++k) {
					double x, y, z;
					if (three) { /* fcc: integer points with an even coordinate sum, scaled */
						if ((i + j + k) & 1) continue;
						x = i * s / sqrt(2.0), y = j * s / sqrt(2.0), z = k * s / sqrt(2.0);
					} else { /* hexagonal: rows s sqrt(3)/2 apart, every other one shifted */
						x = (i + 0.5 * (j & 1)) * s, y = j * s * sqrt(3.0) / 2, z = 0;
					}
					double r = sqrt(x * x + y * y + z * z);
					if (r < h) rest += (1 - r / h) * (1 - r / h);
				}
	}
	return (float)(rest / lattice);
}

/* The inset polygon of a convex polygon (counter-clockwise), each edge moved in by d; returns
 * false once it has vanished. */
static bool inset_polygon(const pdl_vec2* v, int n, float d, pdl_vec2* out)
{
	for (int i = 0; i < n; ++i) { /* the point d from both edges' lines: c - d (n0 + n1) / (1 + n0 . n1) */
		pdl_vec2 a = v[(i + n - 1) % n], c = v[i], e = v[(i + 1) % n];
		pdl_vec2 e0 = {c.x - a.x, c.y - a.y}, e1 = {e.x - c.x, e.y - c.y};
		float l0 = sqrtf(e0.x * e0.x + e0.y * e0.y), l1 = sqrtf(e1.x * e1.x + e1.y * e1.y);
		pdl_vec2 n0 = {e0.y / l0, -e0.x / l0}, n1 = {e1.y / l1, -e1.x / l1};
		float k = d / fmaxf(0.1f, 1.0f + n0.x * n1.x + n0.y * n1.y);
		out[i] = (pdl_vec2){c.x - (n0.x + n1.x) * k, c.y - (n0.y + n1.y) * k};
	}
	/* vanished when an edge turned round */
	for (int i = 0; i < n; ++i) {
		pdl_vec2 a = v[i], b = v[(i + 1) % n], p = out[i], q = out[(i + 1) % n];
		if ((b.x - a.x) * (q.x - p.x) + (b.y - a.y) * (q.y - p.y) <= 0) return false;
	}
	return true;
}

/* The shape's boundary particles in its frame: layers that follow its surface, the first half a
 * lattice step a in, each next one a further in, as deep as h + a (deeper ones never meet
 * anything), every layer sampled about a apart, so that the particles are as dense as the fluid
 * at rest everywhere, right up to the surface. A fluid particle next to a body then counts the
 * body in its density as it would count more fluid at rest (a lattice cut by the surface, with
 * a layer on the surface, left a thin band of missing density under it, and the stiff SPH
 * equation of state took that band for a void: a submerged box felt a tenth of its buoyancy). */
static void sample_shape(sampler* s, const rigid_body* b, float spacing, float h, bool three)
{
	const pdl_body_def* d = &b->def;
	const float a = pdl_body_lattice_step(spacing, three);
	for (int layer = 0;; ++layer) {
		float depth = a * ((float)layer + 0.5f);
		if (depth > h + a) return;
		int before = s->count;
		if (d->shape == PDL_BODY_CIRCLE) {
			float r = d->radius - depth;
			if (r < 0.5f * a) {
				emit(s, 0, 0, 0);
				return;
			}
			if (three) sample_sphere(s, r, a);
			else {
				int n = (int)lroundf(2.0f * 3.14159265f * r / a);
				for (int k = 0; k < n; ++k) {
					float ct, st;
					pdl_cos_sin(2.0f * 3.14159265f * (float)k / (float)n, &ct, &st);
					emit(s, r * ct, r * st, 0);
				}
			}
		} else if (!three) {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES], in[PDL_MAX_POLYGON_VERTICES];
			int n = d->shape == PDL_BODY_POLYGON ? d->vertex_count : 4;
			if (d->shape == PDL_BODY_POLYGON) memcpy(v, d->vertices, (size_t)n * sizeof *v);
			else
				pdl_body_world_vertices(&(pdl_body_def){.shape = PDL_BODY_BOX, .half_extents = d->half_extents}, v);
			if (inset_polygon(v, n, depth, in)) {
				for (int i = 0; i < n; ++i) sample_edge(s, in[i], in[(i + 1) % n], a);
			} else { /* too thin for a ring: a row along the middle of what is left */
				float cx = 0, cy = 0;
				for (int i = 0; i < n; ++i) cx += v[i].x / (float)n, cy += v[i].y / (float)n;
				if (d->shape == PDL_BODY_BOX) {
					float hx = d->half_extents.x - depth, hy = d->half_extents.y - depth;
					if (hx > 0) sample_edge(s, (pdl_vec2){-hx, 0}, (pdl_vec2){hx, 0}, a), emit(s, hx, 0, 0);
					else if (hy > 0) sample_edge(s, (pdl_vec2){0, -hy}, (pdl_vec2){0, hy}, a), emit(s, 0, hy, 0);
					else if (layer == 0 || s->count == 0) emit(s, cx, cy, 0);
				} else if (layer == 0 || s->count == 0) {
					emit(s, cx, cy, 0);
				}
				return;
			}
		} else { /* 3D box: the faces of the box moved in by depth, on a grid about a apart */
			float half[3] = {d->half_extents.x - depth, d->half_extents.y - depth, d->half_extents.z - depth};
			int count[3];
			bool solid = false;
			for (int k = 0; k < 3; ++k) {
				if (half[k] < 0.25f * a) half[k] = 0, solid = true;
				count[k] = half[k] > 0 ? (int)lroundf(2.0f * half[k] / a) : 0;
				if (half[k] > 0 && count[k] < 1) count[k] = 1;
			}
			for (int i = 0; i <= count[0]; ++i)
				for (int j = 0; j <= count[1]; ++j)
					for (int k = 0; k <= count[2]; ++k) {
						bool face = solid || i == 0 || i == count[0] || j == 0 || j == count[1] || k == 0 || k == count[2];
						if (!face) continue;
						emit(s, count[0] ? -half[0] + 2 * half[0] * (float)i / (float)count[0] : 0,
						     count[1] ? -half[1] + 2 * half[1] * (float)j / (float)count[1] : 0,
						     count[2] ? -half[2] + 2 * half[2] * (float)k / (float)count[2] : 0);
					}
			if (solid) return; /* what is left is a sheet, a line or a point: sampled whole */
		}
		if (s->count == before) return;
		/* Each point of the layer stands for measure / (points a^(d-1)) of a fluid particle:
		 * the layer's points are about a apart, rarely exactly (2.06 h of face in steps of
		 * 0.443 h: 5 steps of 0.41), and the difference, squared on a 3D face, made a submerged
		 * cube 16% too buoyant. */
		double measure = 0;
		if (d->shape == PDL_BODY_CIRCLE) {
			float r = d->radius - depth;
			measure = three ? 4.0 * PDL_PI * r * r : 2.0 * PDL_PI * r;
		} else if (!three) {
			pdl_vec2 v[PDL_MAX_POLYGON_VERTICES], in[PDL_MAX_POLYGON_VERTICES];
			int n = d->shape == PDL_BODY_POLYGON ? d->vertex_count : 4;
			if (d->shape == PDL_BODY_POLYGON) memcpy(v, d->vertices, (size_t)n * sizeof *v);
			else
				pdl_body_world_vertices(&(pdl_body_def){.shape = PDL_BODY_BOX, .half_extents = d->half_extents}, v);
			inset_polygon(v, n, depth, in);
			for (int i = 0; i < n; ++i) {
				pdl_vec2 e = {in[(i + 1) % n].x - in[i].x, in[(i + 1) % n].y - in[i].y};
				measure += sqrt((double)e.x * e.x + (double)e.y * e.y);
			}
		} else {
			double hx = d->half_extents.x - depth, hy = d->half_extents.y - depth, hz = d->half_extents.z - depth;
			measure = 8.0 * (hx * hy + hy * hz + hz * hx);
		}
		float weight = (float)(measure / ((double)(s->count - before) * (three ? (double)a * a : a)));
		for (int i = before; i < s->count; ++i) s->w[i] = weight;
		if (layer == 0) s->surface = s->count;
	}
}

/* An upper bound of the points sample_shape makes, from the shape's size alone, so that a body
 * a million times too big is refused before anything is allocated. */
static double sample_estimate(const shape_moments* m, float spacing, float h, bool three)
{
	double s = spacing, r = m->bound_radius + spacing;
	double shell = three ? 4.0 * PDL_PI * r * r * (h + 2 * s) / (s * s * s * 0.7) : 2.0 * PDL_PI * r * (h + 2 * s) / (s * s * 0.86);
	double volume = three ? m->volume / (s * s * s * 0.7) : m->volume / (s * s * 0.86);
	return fmin(shell, volume) + (three ? 6.0 * r * r / (s * s) : 8.0 * r / s) + 1;
}

/* ---- Validation ------------------------------------------------------------------------------ */

static pdl_error_id validate_body(const pdl_world* w, const pdl_body_def* d, pdl_error* err)
{
	return pdl_validate_body_def(w, d, err);
}

/* ---- Building a body ------------------------------------------------------------------------ */

/* Fills b (whose def is set) with its mass properties and samples its particles into *s.
 * Moves a polygon's position to its centroid. */
static pdl_error_id build_body(const pdl_world* w, rigid_body* b, sampler* s, pdl_error* err)
{
	const bool three = PDL_IS_3D(w);
	pdl_body_def* d = &b->def;
	if (three) {
		/* normalise the orientation; left alone when it already is to rounding (as the step's
		 * turn() leaves it), so that a body re-added or set from its own def (a snapshot, the
		 * MPI layer stepping a frame again) stays bitwise as it was */
		pdl_quat q = d->orientation;
		float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
		if (fabsf(len - 1.0f) > 4 * FLT_EPSILON) d->orientation = (pdl_quat){q.x / len, q.y / len, q.z / len, q.w / len};
	} else {
		d->position.z = 0;
		d->linear_velocity.z = 0;
		d->angular_velocity.x = d->angular_velocity.y = 0;
	}
	shape_moments m = moments_of(d, three);
	if (d->shape == PDL_BODY_POLYGON) {
		/* the centre of mass becomes the position; left alone when it already is (to rounding),
		 * so that a body re-added from its own def (a snapshot) stays bitwise where it was */
		pdl_vec2 c = m.centroid;
		if (sqrtf(c.x * c.x + c.y * c.y) > 1e-4f * m.bound_radius) {
			float co, si;
			pdl_cos_sin(d->angle, &co, &si);
			d->position.x += co * c.x - si * c.y;
			d->position.y += si * c.x + co * c.y;
			for (int i = 0; i < d->vertex_count; ++i) d->vertices[i].x -= c.x, d->vertices[i].y -= c.y;
			m = moments_of(d, three);
		}
	}
	float spacing = pdl_body_spacing(w), h = w->def.interaction_radius;
	if (sample_estimate(&m, spacing, h, three) > 4.0 * PDL_MAX_BODY_PARTICLES)
		return pdl_fail(err, PDL_ERR_BODY_SIZE, sample_estimate(&m, spacing, h, three));
	double rho = d->density * fluid_density(w);
	b->mass = (float)(rho * m.volume);
	b->bound_radius = m.bound_radius;
	bool kinematic = d->type == PDL_BODY_KINEMATIC;
	b->inv_mass = kinematic ? 0 : 1.0f / b->mass;
	float inertia[3] = {(float)(rho * m.inertia[0]), (float)(rho * m.inertia[1]), (float)(rho * m.inertia[2])};
	b->inv_inertia = (pdl_vec3){0, 0, 0};
	if (!kinematic) {
		if (three) b->inv_inertia = (pdl_vec3){1.0f / inertia[0], 1.0f / inertia[1], 1.0f / inertia[2]};
		else b->inv_inertia.z = 1.0f / inertia[2];
	}
	s->count = s->surface = 0;
	sample_shape(s, b, spacing, h, three);
	b->surface = s->surface ? s->surface : s->count; /* a body too small for layers: all of it */
	if (s->failed) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	if (s->count > PDL_MAX_BODY_PARTICLES) return pdl_fail(err, PDL_ERR_BODY_SIZE, s->count);
	pdl_body_update_rotation(b, three);
	/* inside every container: each boundary particle's centre in the free space */
	for (int k = 0; k < w->boundary_count; ++k) {
		const boundary* wall = &w->boundaries[k];
		if (!wall->alive || (wall->def.kind != PDL_BOUNDARY_BOX_CONTAINER &&
		                     wall->def.kind != PDL_BOUNDARY_CIRCLE_CONTAINER))
			continue;
		for (int i = 0; i < s->count; ++i) {
			const float* r = b->rot;
			float l[3] = {s->x[i], s->y[i], s->z[i]}, n[3];
			float p[3] = {d->position.x + r[0] * l[0] + r[1] * l[1] + r[2] * l[2],
			              d->position.y + r[3] * l[0] + r[4] * l[1] + r[5] * l[2],
			              three ? d->position.z + r[6] * l[0] + r[7] * l[1] + r[8] * l[2] : 0};
			if (!(pdl_boundary_distance(wall, p, three, n) >= 0))
				return pdl_fail_text(err, PDL_ERR_BODY_OUTSIDE, "it reaches out of a container");
		}
	}
	return PDL_OK;
}

static bool reserve_local(body_set* set, int count)
{
	if (count <= set->local_capacity) return true;
	int cap = set->local_capacity ? set->local_capacity : 1024;
	while (cap < count) cap *= 2;
	float** const arrays[] = {&set->lx, &set->ly, &set->lz, &set->lw};
	if (!pdl_grow_float_arrays(arrays, 4, cap)) return false;
	set->local_capacity = cap;
	return true;
}

/* Replaces body `slot`'s particles in the local arrays with the sampler's (keeping every
 * body's particles contiguous and in slot order). */
static bool store_particles(body_set* set, int slot, const sampler* s)
{
	rigid_body* b = &set->bodies[slot];
	int old = b->count, diff = s->count - old;
	if (!reserve_local(set, set->local_count + (diff > 0 ? diff : 0))) return false;
	int tail = set->local_count - (b->first + old);
	float* arrays[4] = {set->lx, set->ly, set->lz, set->lw};
	const float* from[4] = {s->x, s->y, s->z, s->w};
	for (int a = 0; a < 4; ++a) {
		/* empty ranges skipped: the arrays (and a removal's sampler) may still be null */
		if (tail > 0) memmove(arrays[a] + b->first + s->count, arrays[a] + b->first + old, (size_t)tail * sizeof(float));
		if (s->count > 0) memcpy(arrays[a] + b->first, from[a], (size_t)s->count * sizeof(float));
	}
	b->count = s->count;
	for (int k = slot + 1; k < set->slots; ++k) set->bodies[k].first += diff;
	set->local_count += diff;
	return true;
}

static void free_sampler(sampler* s)
{
	free(s->w);
	free(s->x);
	free(s->y);
	free(s->z);
}

pdl_body_id pdl_world_add_body(pdl_world* w, const pdl_body_def* def, pdl_error* err)
{
	const pdl_body_id none = {-1, 0};
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), none;
	if (validate_body(w, def, err)) return none;
	body_set* set = &w->bodies;
	if (set->live >= PDL_MAX_BODIES) return pdl_fail(err, PDL_ERR_TOO_MANY_BODIES, set->live + 1), none;
	rigid_body candidate = {.alive = true, .def = *def};
	sampler s = {0};
	if (build_body(w, &candidate, &s, err)) {
		free_sampler(&s);
		return none;
	}
	/* the first free slot, so that ids stay small; its generation goes up */
	int slot = 0;
	while (slot < set->slots && set->bodies[slot].alive) ++slot;
	if (slot == set->slot_capacity) {
		int cap = set->slot_capacity ? 2 * set->slot_capacity : 16;
		rigid_body* grown = realloc(set->bodies, (size_t)cap * sizeof *grown);
		if (!grown) {
			free_sampler(&s);
			return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN), none;
		}
		set->bodies = grown;
		set->slot_capacity = cap;
	}
	if (slot == set->slots) {
		set->bodies[slot] = (rigid_body){.first = set->local_count};
		set->slots++;
	}
	rigid_body* b = &set->bodies[slot];
	candidate.generation = b->generation + 1;
	candidate.first = b->first;
	candidate.count = b->count;
	*b = candidate;
	if (!store_particles(set, slot, &s)) {
		b->alive = false;
		b->count = 0;
		free_sampler(&s);
		return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN), none;
	}
	free_sampler(&s);
	set->live++;
	const float spacing = pdl_body_spacing(w), h = w->def.interaction_radius;
	if (!set->scales_known || set->spacing != spacing || set->scales_h != h) { /* lattice sums too */
		set->density_scale = pdl_body_density_scale(h, spacing, PDL_IS_3D(w), false);
		set->sph_density_scale = pdl_body_density_scale(h, spacing, PDL_IS_3D(w), true);
		set->scales_known = true, set->scales_h = h;
	}
	set->spacing = spacing;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return (pdl_body_id){slot, b->generation};
}

pdl_error_id pdl_world_remove_body(pdl_world* w, pdl_body_id id, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	rigid_body* b = live_body(w, id);
	if (!b) return pdl_fail(err, PDL_ERR_BODY_ID, id.index);
	sampler none = {0};
	store_particles(&w->bodies, id.index, &none); /* shrinking never allocates */
	b->alive = false;
	w->bodies.live--;
	return PDL_OK;
}

bool pdl_world_body_valid(const pdl_world* w, pdl_body_id id) { return live_body(w, id) != NULL; }

bool pdl_world_get_body(const pdl_world* w, pdl_body_id id, pdl_body_def* def)
{
	const rigid_body* b = live_body(w, id);
	if (!b) return false;
	if (def) *def = b->def;
	return true;
}

pdl_error_id pdl_world_set_body(pdl_world* w, pdl_body_id id, const pdl_body_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	rigid_body* b = live_body(w, id);
	if (!b) return pdl_fail(err, PDL_ERR_BODY_ID, id.index);
	pdl_error_id e = validate_body(w, def, err);
	if (e) return e;
	rigid_body candidate = *b;
	candidate.def = *def;
	sampler s = {0};
	e = build_body(w, &candidate, &s, err);
	if (!e && !store_particles(&w->bodies, id.index, &s)) e = pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	free_sampler(&s);
	if (e) return e;
	candidate.first = b->first;
	candidate.count = b->count;
	*b = candidate;
	return PDL_OK;
}

pdl_body_mass pdl_world_body_mass(const pdl_world* w, pdl_body_id id)
{
	const rigid_body* b = live_body(w, id);
	if (!b) return (pdl_body_mass){0};
	const bool three = PDL_IS_3D(w);
	shape_moments m = moments_of(&b->def, three);
	double rho = b->def.density * fluid_density(w);
	pdl_body_mass out = {.mass = (float)(rho * m.volume), .particles = b->count, .spacing = w->bodies.spacing,
	                     .bound_radius = b->bound_radius};
	out.inertia = (pdl_vec3){(float)(rho * m.inertia[0]), (float)(rho * m.inertia[1]), (float)(rho * m.inertia[2])};
	return out;
}

pdl_body_force pdl_world_body_force(const pdl_world* w, pdl_body_id id)
{
	const rigid_body* b = live_body(w, id);
	return b ? b->force : (pdl_body_force){{0, 0, 0}, {0, 0, 0}};
}

int pdl_world_body_count(const pdl_world* w) { return w ? w->bodies.live : 0; }

int pdl_world_bodies(const pdl_world* w, pdl_body_id* out, int capacity)
{
	if (!w) return 0;
	int n = 0;
	for (int k = 0; k < w->bodies.slots; ++k) {
		const rigid_body* b = &w->bodies.bodies[k];
		if (!b->alive) continue;
		if (out && n < capacity) out[n] = (pdl_body_id){k, b->generation};
		n++;
	}
	return n;
}

void pdl_bodies_free(body_set* set)
{
	free(set->bodies);
	free(set->lx), free(set->ly), free(set->lz), free(set->lw);
	float* arrays[] = {set->x, set->y, set->z, set->vx, set->vy, set->vz, set->jx, set->jy, set->jz,
	                   set->ux, set->uy, set->uz, set->uvx, set->uvy, set->uvz, set->wt, set->uwt};
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) free(arrays[k]);
	free(set->body), free(set->local), free(set->ubody), free(set->ulocal);
	free(set->near), free(set->flag), free(set->contacts), free(set->delta);
	free(set->contained), free(set->contained_body), free(set->shares), free(set->share_body);
	free(set->near_total), free(set->near_first), free(set->near_hits), free(set->near_index);
	free(set->body_records), free(set->body_record_count);
	pdl_grid_free(&set->grid);
	memset(set, 0, sizeof *set);
}
