/* Surfaces from particles: the sampled field, marching squares (2D) and marching tetrahedra (3D).
 * See surface.h for the method, the iso level and who owns what. */
#include "puddle/surface.h"

#include "puddle/puddle.h"
#include "puddle/scene.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ----------------------------------------------------------------------------------- */

/* "surface.radius must be finite and > 0, got -1"; always returns false. */
static bool fail(pdl_error* err, pdl_error_id id, double value)
{
	if (!err) return false;
	char detail[64] = "";
	if (id == PDL_ERR_SURFACE_POSITION && !isnan(value)) snprintf(detail, sizeof detail, ", particle %.0f is not", value);
	else if (!isnan(value)) snprintf(detail, sizeof detail, ", got %.9g", value);
	pdl_error_fill(err, id, NULL, NULL, "%s%s", pdl_error_rule(id), detail);
	err->value = value;
	snprintf(err->path, sizeof err->path, "surface.%s", pdl_error_field(id));
	snprintf(err->message, sizeof err->message, "%s %s", err->path, err->rule);
	return false;
}

static void succeed(pdl_error* err) { pdl_error_fill(err, PDL_OK, NULL, NULL, "%s", ""); }

/* ---- the def and the iso level --------------------------------------------------------------- */

pdl_surface_def pdl_default_surface_def(void)
{
	pdl_surface_def d;
	memset(&d, 0, sizeof d);
	d.radius = pdl_default_world_def().interaction_radius;
	d.cell_size = d.radius / 4;
	d.spacing = pdl_rest_spacing(d.radius, pdl_default_material_def().rest_density);
	d.iso_fraction = 0.5f;
	d.max_samples = 1LL << 24;
	return d;
}

pdl_surface_def pdl_default_surface_def_3d(void)
{
	pdl_surface_def d = pdl_default_surface_def();
	d.cell_size = d.radius / 3;
	return d;
}

/* The def at interaction radius h for materials of these rest densities. The lightest material
 * has the widest spacing and the lowest bulk field: levelling on it keeps every material's bulk
 * inside the surface (no holes in the light fluid). */
static pdl_surface_def def_for(float h, const float* rest_density, int materials)
{
	pdl_surface_def d = pdl_default_surface_def();
	d.radius = h;
	d.cell_size = h / 4;
	float widest = 0;
	for (int m = 0; m < materials; ++m) {
		float s = pdl_rest_spacing(h, rest_density[m]);
		if (s > widest) widest = s;
	}
	if (widest > 0) d.spacing = widest;
	return d;
}

pdl_surface_def pdl_surface_def_from_scene(const pdl_scene* scene)
{
	float rho[PDL_MAX_MATERIALS];
	for (int m = 0; m < scene->material_count; ++m) rho[m] = scene->materials[m].def.rest_density;
	return def_for(scene->world.interaction_radius, rho, scene->material_count);
}

pdl_surface_def pdl_surface_def_from_world(const pdl_world* world)
{
	float rho[PDL_MAX_MATERIALS];
	int n = pdl_world_material_count(world);
	for (int m = 0; m < n; ++m) rho[m] = pdl_world_get_material(world, m).rest_density;
	return def_for(pdl_world_get_def(world).interaction_radius, rho, n);
}

static const double pi = 3.14159265358979323846;

float pdl_surface_iso_level(const pdl_surface_def* d, int dim)
{
	double r = d->radius, s = d->spacing;
	/* integral of (1 - q^2)^3 over the unit disc: pi/4; over the unit ball: 64 pi / 315 */
	double bulk = dim == 3 ? (64.0 * pi / 315.0) * r * r * r / (s * s * s) : (pi / 4.0) * r * r / (0.8660254037844386 * s * s);
	return (float)(d->iso_fraction * bulk);
}

static bool check_def(const pdl_surface_def* d, pdl_error* err)
{
	if (!d) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!(isfinite(d->radius) && d->radius > 0)) return fail(err, PDL_ERR_SURFACE_RADIUS, d->radius);
	if (!(isfinite(d->cell_size) && d->cell_size > 0)) return fail(err, PDL_ERR_SURFACE_CELL_SIZE, d->cell_size);
	if (!(isfinite(d->spacing) && d->spacing > 0)) return fail(err, PDL_ERR_SURFACE_SPACING, d->spacing);
	if (!(d->iso_fraction > 0 && d->iso_fraction < 1)) return fail(err, PDL_ERR_SURFACE_ISO_FRACTION, d->iso_fraction);
	if (d->max_samples < 8) return fail(err, PDL_ERR_SURFACE_MAX_SAMPLES, (double)d->max_samples);
	return true;
}

/* ---- the field ------------------------------------------------------------------------------- */

void pdl_field_free(pdl_field* f)
{
	if (!f) return;
	free(f->values);
	memset(f, 0, sizeof *f);
}

bool pdl_surface_field(const pdl_surface_def* def, int dim, const float* x, const float* y, const float* z,
                       int count, pdl_field* out, pdl_error* err)
{
	if (out) memset(out, 0, sizeof *out);
	if (!out) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!check_def(def, err)) return false;
	float cell = def->cell_size;
	if (dim != 2 && dim != 3) return fail(err, PDL_ERR_SURFACE_FIELD, dim);
	if (count < 0) return fail(err, PDL_ERR_SURFACE_COUNT, count);
	if (count > 0 && (!x || !y || (dim == 3 && !z))) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	const float* pos[3] = {x, y, dim == 3 ? z : NULL};

	/* the grid: the bounding box grown by R and one cell, on whole multiples of the cell */
	double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int i = 0; i < count; ++i)
		for (int a = 0; a < dim; ++a) {
			float v = pos[a][i];
			if (!isfinite(v)) return fail(err, PDL_ERR_SURFACE_POSITION, i);
			if (v < lo[a]) lo[a] = v;
			if (v > hi[a]) hi[a] = v;
		}
	double c = cell, r = def->radius;
	long long n[3] = {1, 1, 1}, first_index[3] = {0, 0, 0};
	double samples = 1;
	for (int a = 0; a < dim; ++a) {
		double i0 = count > 0 ? floor((lo[a] - r) / c) - 1 : 0, i1 = count > 0 ? ceil((hi[a] + r) / c) + 1 : 1;
		double na = i1 - i0 + 1;
		samples *= na;
		if (!(na <= INT_MAX / 8) || !(samples <= (double)def->max_samples))
			return fail(err, PDL_ERR_SURFACE_TOO_MANY_SAMPLES, samples);
		n[a] = (long long)na, first_index[a] = (long long)i0;
	}
	out->dim = dim;
	out->nx = (int)n[0], out->ny = (int)n[1], out->nz = (int)n[2];
	for (int a = 0; a < dim; ++a) out->origin[a] = (float)((double)first_index[a] * c);
	out->cell_size = cell;
	out->iso = pdl_surface_iso_level(def, dim);
	size_t total = (size_t)samples;
	out->values = calloc(total, sizeof *out->values);

	/* Each particle adds W to the samples within R of it: about pi (R/cell)^2 = 50 samples in 2D
	 * and (4/3) pi (R/cell)^3 = 113 in 3D at the default cells, so the cost is O(N + samples),
	 * and far less than every sample reading the particles of the buckets around it (145 and
	 * 730 kernel evaluations per particle at rest spacing). Particles are first counting-sorted
	 * into buckets of size R, keeping their order within a bucket: neighbouring particles then
	 * write neighbouring samples (the field stays in cache whatever order the caller's arrays
	 * are in), and every sample adds its particles in one fixed order, so the field is the same
	 * on every run. */
	int nb[3] = {1, 1, 1};
	for (int a = 0; a < dim; ++a) nb[a] = (int)floor((double)(n[a] - 1) * c / r) + 1;
	size_t buckets = (size_t)nb[0] * (size_t)nb[1] * (size_t)nb[2];
	int* start = calloc(buckets + 1, sizeof *start);
	int* bucket_of = malloc((size_t)(count > 0 ? count : 1) * sizeof *bucket_of);
	float* sorted = malloc((size_t)(count > 0 ? count : 1) * 3 * sizeof *sorted);
	if (!out->values || !start || !bucket_of || !sorted) {
		free(start), free(bucket_of), free(sorted);
		pdl_field_free(out);
		return fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	for (int i = 0; i < count; ++i) {
		size_t b = 0, stride = 1;
		for (int a = 0; a < dim; ++a) {
			int k = (int)floor(((double)pos[a][i] - (double)out->origin[a]) / r);
			if (k < 0) k = 0;
			if (k >= nb[a]) k = nb[a] - 1;
			b += (size_t)k * stride;
			stride *= (size_t)nb[a];
		}
		bucket_of[i] = (int)b;
		start[b + 1]++;
	}
	for (size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
	for (int i = 0; i < count; ++i) {
		int at = start[bucket_of[i]]++;
		for (int a = 0; a < 3; ++a) sorted[3 * at + a] = a < dim ? pos[a][i] : 0.0f;
	}

	float r2 = def->radius * def->radius, inv_r2 = 1.0f / r2;
	int last[3] = {out->nx - 1, out->ny - 1, out->nz - 1};
	for (int q = 0; q < count; ++q) {
		const float* p = sorted + 3 * q;
		int from[3] = {0, 0, 0}, to[3] = {0, 0, 0};
		for (int a = 0; a < dim; ++a) {
			/* the samples strictly within R on this axis (the grid holds them all, by its
			 * padding; the clamps only guard against rounding) */
			from[a] = (int)ceil(((double)p[a] - r - (double)out->origin[a]) / c);
			to[a] = (int)floor(((double)p[a] + r - (double)out->origin[a]) / c);
			if (from[a] < 0) from[a] = 0;
			if (to[a] > last[a]) to[a] = last[a];
		}
		for (int k = from[2]; k <= to[2]; ++k) {
			float dz = dim == 3 ? out->origin[2] + (float)k * cell - p[2] : 0.0f, dz2 = dz * dz;
			for (int j = from[1]; j <= to[1]; ++j) {
				float dy = out->origin[1] + (float)j * cell - p[1], dyz2 = dy * dy + dz2;
				if (dyz2 >= r2) continue;
				float* row = out->values + (size_t)out->nx * ((size_t)j + (size_t)out->ny * (size_t)k);
				for (int i = from[0]; i <= to[0]; ++i) {
					float dx = out->origin[0] + (float)i * cell - p[0], q2 = (dx * dx + dyz2) * inv_r2;
					if (q2 < 1) {
						float t = 1 - q2;
						row[i] += t * t * t;
					}
				}
			}
		}
	}
	free(start), free(bucket_of), free(sorted);
	succeed(err);
	return true;
}

static bool check_field(const pdl_field* f, int dim, float iso, pdl_error* err)
{
	if (!f) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (f->dim != dim || !f->values || f->nx < 2 || f->ny < 2 || (dim == 3 ? f->nz < 2 : f->nz != 1) ||
	    !(isfinite(f->cell_size) && f->cell_size > 0))
		return fail(err, PDL_ERR_SURFACE_FIELD, NAN);
	if (!isfinite(iso)) return fail(err, PDL_ERR_SURFACE_ISO, iso);
	return true;
}

/* Where the level crosses between samples valued a and b, as a fraction of the way from a. A
 * non-finite sample counts as outside; a fraction that is not in [0, 1] (it can only come from
 * such a sample) becomes the midpoint, so no NaN reaches the output. */
static float crossing(float a, float b, float iso)
{
	float t = (iso - a) / (b - a);
	return t >= 0 && t <= 1 ? t : 0.5f;
}

/* ---- marching squares --------------------------------------------------------------------------- */

void pdl_contours_free(pdl_contours* c)
{
	if (!c) return;
	free(c->x), free(c->y), free(c->offsets);
	memset(c, 0, sizeof *c);
}

double pdl_contour_area(const pdl_contours* c, int k)
{
	if (!c || k < 0 || k >= c->contour_count) return 0;
	int a = c->offsets[k], b = c->offsets[k + 1];
	double sum = 0;
	for (int i = a; i < b; ++i) {
		int j = i + 1 < b ? i + 1 : a;
		sum += (double)c->x[i] * (double)c->y[j] - (double)c->x[j] * (double)c->y[i];
	}
	return 0.5 * sum;
}

bool pdl_field_contours(const pdl_field* f, float iso, pdl_contours* out, pdl_error* err)
{
	if (out) memset(out, 0, sizeof *out);
	if (!out) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!check_field(f, 2, iso, err)) return false;
	int nx = f->nx, ny = f->ny;
	/* Edge ids: horizontal edge (i, j)-(i+1, j) is j (nx - 1) + i; vertical edge (i, j)-(i, j+1)
	 * is H + j nx + i. next[e] is the edge where the contour that crosses e crosses next. */
	size_t horizontal = (size_t)ny * (size_t)(nx - 1), edges = horizontal + (size_t)(ny - 1) * (size_t)nx;
	if (edges > INT_MAX) return fail(err, PDL_ERR_SURFACE_TOO_MANY_SAMPLES, (double)edges);
	int* next = malloc(edges * sizeof *next);
	float* v = malloc((size_t)nx * (size_t)ny * sizeof *v);
	if (!next || !v) {
		free(next), free(v);
		return fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	for (size_t e = 0; e < edges; ++e) next[e] = -1;
	/* Samples on the grid's border count as outside (at most iso), so every contour closes
	 * inside the grid even for a field that is not 0 there; non-finite samples are outside. */
	for (int j = 0; j < ny; ++j)
		for (int i = 0; i < nx; ++i) {
			float s = f->values[(size_t)j * (size_t)nx + (size_t)i];
			bool border = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
			v[(size_t)j * (size_t)nx + (size_t)i] = !isfinite(s) ? -INFINITY : border && s > iso ? iso : s;
		}

	/* Each cell's corners in counter-clockwise order a (i, j), b (i+1, j), c (i+1, j+1), d (i, j+1)
	 * and its edges k = ab, bc, cd, da (edge k runs from corner k to corner k + 1). The contour,
	 * with the fluid on its left, enters the cell through an edge that goes inside -> outside
	 * and leaves through one that goes outside -> inside. A saddle has two of each: it pairs
	 * the entry on edge k with the exit on edge k + 1 when the centre is inside (the inside
	 * corners join), with the exit on edge k - 1 when it is outside. */
	size_t points = 0;
	for (int j = 0; j + 1 < ny; ++j)
		for (int i = 0; i + 1 < nx; ++i) {
			const float* row0 = v + (size_t)j * (size_t)nx;
			const float* row1 = row0 + nx;
			float value[4] = {row0[i], row0[i + 1], row1[i + 1], row1[i]};
			bool in[4];
			int mask = 0;
			for (int k = 0; k < 4; ++k) in[k] = value[k] > iso, mask |= in[k] << k;
			if (mask == 0 || mask == 15) continue;
			int edge[4] = {j * (nx - 1) + i, (int)horizontal + j * nx + i + 1, (j + 1) * (nx - 1) + i,
			               (int)horizontal + j * nx + i};
			bool saddle = mask == 5 || mask == 10;
			bool centre_in = 0.25f * (value[0] + value[1] + value[2] + value[3]) > iso;
			for (int k = 0; k < 4; ++k) {
				if (!(in[k] && !in[(k + 1) & 3])) continue;
				int exit = -1;
				if (saddle) exit = centre_in ? (k + 1) & 3 : (k + 3) & 3;
				else
					for (int e = 0; e < 4; ++e)
						if (!in[e] && in[(e + 1) & 3]) exit = e;
				next[edge[k]] = edge[exit];
				points++;
			}
		}

	out->x = malloc((points > 0 ? points : 1) * sizeof *out->x);
	out->y = malloc((points > 0 ? points : 1) * sizeof *out->y);
	out->offsets = malloc((points / 4 + 2) * sizeof *out->offsets); /* a contour crosses >= 4 edges */
	if (!out->x || !out->y || !out->offsets || points > INT_MAX) {
		free(next), free(v);
		pdl_contours_free(out);
		return fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	/* Walk every cycle of next, from its lowest edge id, so the output order depends only on the
	 * field. */
	int count = 0, contours = 0;
	out->offsets[0] = 0;
	for (size_t e0 = 0; e0 < edges; ++e0) {
		if (next[e0] < 0) continue;
		int e = (int)e0;
		do {
			int i, j, di, dj;
			if ((size_t)e < horizontal) i = e % (nx - 1), j = e / (nx - 1), di = 1, dj = 0;
			else i = (e - (int)horizontal) % nx, j = (e - (int)horizontal) / nx, di = 0, dj = 1;
			float a = v[(size_t)j * (size_t)nx + (size_t)i], b = v[(size_t)(j + dj) * (size_t)nx + (size_t)(i + di)];
			float t = crossing(a, b, iso);
			out->x[count] = f->origin[0] + ((float)i + t * (float)di) * f->cell_size;
			out->y[count] = f->origin[1] + ((float)j + t * (float)dj) * f->cell_size;
			count++;
			int n = next[e];
			next[e] = -1;
			e = n;
		} while (e != (int)e0 && e >= 0);
		out->offsets[++contours] = count;
	}
	out->contour_count = contours;
	out->point_count = count;
	free(next), free(v);
	succeed(err);
	return true;
}

bool pdl_surface_contours(const pdl_surface_def* def, const float* x, const float* y, int count, pdl_contours* out,
                          pdl_error* err)
{
	if (out) memset(out, 0, sizeof *out);
	if (!out) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	pdl_field field;
	if (!pdl_surface_field(def, 2, x, y, NULL, count, &field, err)) return false;
	bool ok = pdl_field_contours(&field, field.iso, out, err);
	pdl_field_free(&field);
	return ok;
}

/* ---- marching tetrahedra ---------------------------------------------------------------------- */

/* Why tetrahedra: Lorensen and Cline's 256-case cube table is ambiguous on faces with a saddle
 * (two diagonal corners inside), where neighbouring cubes can choose differently and leave
 * holes unless the table is patched (Nielson's asymptotic decider). Cutting each cube into six
 * tetrahedra around its main diagonal (Kuhn's triangulation) leaves no ambiguity: a
 * tetrahedron has only 1-in, 2-in and 3-in cases, each with one answer. The cut is the same in
 * every cube, so a cube face is split along the same diagonal from both sides and the pieces
 * meet exactly. Vertices are made once per grid edge (the 7 edges x, y, z, xy, xz, yz, xyz from
 * each sample) and shared, so the mesh is closed and manifold by construction. It costs about
 * twice the triangles of marching cubes; the field, not the triangles, is the expensive part. */

void pdl_mesh_free(pdl_mesh* m)
{
	if (!m) return;
	free(m->positions), free(m->normals), free(m->triangles);
	memset(m, 0, sizeof *m);
}

double pdl_mesh_volume(const pdl_mesh* m)
{
	if (!m) return 0;
	double sum = 0;
	for (int t = 0; t < m->triangle_count; ++t) {
		const float* a = m->positions + 3 * m->triangles[3 * t];
		const float* b = m->positions + 3 * m->triangles[3 * t + 1];
		const float* c = m->positions + 3 * m->triangles[3 * t + 2];
		double bxc[3] = {(double)b[1] * c[2] - (double)b[2] * c[1], (double)b[2] * c[0] - (double)b[0] * c[2],
		                 (double)b[0] * c[1] - (double)b[1] * c[0]};
		sum += a[0] * bxc[0] + a[1] * bxc[1] + a[2] * bxc[2];
	}
	return sum / 6.0;
}

typedef struct mesher {
	const pdl_field* f;
	float iso;
	pdl_mesh* m;
	int vertex_capacity, triangle_capacity;
	int* layer[2]; /* vertex index per (sample of layer k or k + 1) x 7 edge directions, -1: none */
	int layer_k;   /* the z index of layer[0] */
	bool failed;
} mesher;

static float sample(const pdl_field* f, int i, int j, int k)
{
	if (i < 0) i = 0;
	if (j < 0) j = 0;
	if (k < 0) k = 0;
	if (i >= f->nx) i = f->nx - 1;
	if (j >= f->ny) j = f->ny - 1;
	if (k >= f->nz) k = f->nz - 1;
	float v = f->values[(size_t)i + (size_t)f->nx * ((size_t)j + (size_t)f->ny * (size_t)k)];
	return isfinite(v) ? v : 0.0f;
}

/* The value marching compares with iso: as in 2D, samples on the grid's border count as
 * outside (at most iso), so every surface closes inside the grid, and non-finite samples are
 * outside. */
static float level(const mesher* s, int i, int j, int k)
{
	const pdl_field* f = s->f;
	float v = f->values[(size_t)i + (size_t)f->nx * ((size_t)j + (size_t)f->ny * (size_t)k)];
	if (!isfinite(v)) return -INFINITY;
	bool border = i == 0 || j == 0 || k == 0 || i == f->nx - 1 || j == f->ny - 1 || k == f->nz - 1;
	return border && v > s->iso ? s->iso : v;
}

static void gradient(const pdl_field* f, int i, int j, int k, float g[3])
{
	/* central differences; the cell size cancels when normalised */
	g[0] = sample(f, i + 1, j, k) - sample(f, i - 1, j, k);
	g[1] = sample(f, i, j + 1, k) - sample(f, i, j - 1, k);
	g[2] = sample(f, i, j, k + 1) - sample(f, i, j, k - 1);
}

/* The vertex on the edge from sample (i, j, k) in direction dir (bits x = 1, y = 2, z = 4),
 * made the first time a tetrahedron asks for it. */
static int edge_vertex(mesher* s, int i, int j, int k, int dir)
{
	const pdl_field* f = s->f;
	int* slot = &s->layer[k - s->layer_k][7 * ((size_t)j * (size_t)f->nx + (size_t)i) + (size_t)(dir - 1)];
	if (*slot >= 0) return *slot;
	pdl_mesh* m = s->m;
	if (m->vertex_count == s->vertex_capacity) {
		int cap = s->vertex_capacity ? 2 * s->vertex_capacity : 1024;
		float* p = cap < INT_MAX / 6 ? realloc(m->positions, (size_t)cap * 3 * sizeof *p) : NULL;
		if (p) m->positions = p;
		float* n = p ? realloc(m->normals, (size_t)cap * 3 * sizeof *n) : NULL;
		if (n) m->normals = n;
		if (!p || !n) {
			s->failed = true;
			return 0;
		}
		s->vertex_capacity = cap;
	}
	int i1 = i + (dir & 1), j1 = j + (dir >> 1 & 1), k1 = k + (dir >> 2 & 1);
	float a = level(s, i, j, k), b = level(s, i1, j1, k1), t = crossing(a, b, s->iso);
	float ga[3], gb[3], n[3], len = 0;
	gradient(f, i, j, k, ga);
	gradient(f, i1, j1, k1, gb);
	for (int c = 0; c < 3; ++c) n[c] = -(ga[c] + t * (gb[c] - ga[c])), len += n[c] * n[c];
	len = sqrtf(len);
	int at = m->vertex_count++;
	float p0[3] = {(float)i, (float)j, (float)k}, p1[3] = {(float)i1, (float)j1, (float)k1};
	for (int c = 0; c < 3; ++c) {
		m->positions[3 * at + c] = f->origin[c] + (p0[c] + t * (p1[c] - p0[c])) * f->cell_size;
		m->normals[3 * at + c] = len > 0 ? n[c] / len : 0.0f;
	}
	*slot = at;
	return at;
}

static void add_triangle(mesher* s, int a, int b, int c)
{
	pdl_mesh* m = s->m;
	if (m->triangle_count == s->triangle_capacity) {
		int cap = s->triangle_capacity ? 2 * s->triangle_capacity : 2048;
		int* t = cap < INT_MAX / 3 ? realloc(m->triangles, (size_t)cap * 3 * sizeof *t) : NULL;
		if (!t) {
			s->failed = true;
			return;
		}
		m->triangles = t, s->triangle_capacity = cap;
	}
	int* t = m->triangles + 3 * m->triangle_count++;
	t[0] = a, t[1] = b, t[2] = c;
}

/* A surface vertex of one tetrahedron: on the edge between cube corners in and out (corner
 * bits x = 1, y = 2, z = 4). */
typedef struct tet_edge {
	int in, out;
} tet_edge;

static int corner_bit(int corner, int axis) { return corner >> axis & 1; }

/* Emits the triangle on edges e[0], e[1], e[2] of the cube at (i, j, k), wound so that its
 * normal points from inside to outside. The winding is decided on the edge midpoints, in
 * doubled corner coordinates (small integers, exact): the triangle through the midpoints has
 * the same orientation as the interpolated one (moving a vertex along its edge never flips
 * the triangle of a tetrahedron), and is never degenerate, unlike the interpolated one when a
 * sample equals iso. */
static void emit(mesher* s, int i, int j, int k, const tet_edge e[3])
{
	int mid[3][3], d[3];
	for (int v = 0; v < 3; ++v)
		for (int c = 0; c < 3; ++c) mid[v][c] = corner_bit(e[v].in, c) + corner_bit(e[v].out, c);
	for (int c = 0; c < 3; ++c) d[c] = corner_bit(e[0].out, c) - corner_bit(e[0].in, c);
	int u[3], w[3];
	for (int c = 0; c < 3; ++c) u[c] = mid[1][c] - mid[0][c], w[c] = mid[2][c] - mid[0][c];
	int n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
	bool flip = n[0] * d[0] + n[1] * d[1] + n[2] * d[2] < 0;
	int id[3];
	for (int v = 0; v < 3; ++v) {
		int lo = e[v].in < e[v].out ? e[v].in : e[v].out, hi = e[v].in ^ e[v].out ^ lo;
		/* Kuhn tetrahedra only join corners where one's bits contain the other's */
		id[v] = edge_vertex(s, i + corner_bit(lo, 0), j + corner_bit(lo, 1), k + corner_bit(lo, 2), hi ^ lo);
	}
	if (flip) add_triangle(s, id[0], id[2], id[1]);
	else add_triangle(s, id[0], id[1], id[2]);
}

static void march_cube(mesher* s, int i, int j, int k, const float value[8])
{
	static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	for (int t = 0; t < 6; ++t) {
		/* Kuhn's tetrahedron: corner 0, then the axes added one at a time, to corner 7 */
		int corner[4] = {0, 1 << axes[t][0], (1 << axes[t][0]) | (1 << axes[t][1]), 7};
		int in[4], out[4], nin = 0, nout = 0;
		for (int v = 0; v < 4; ++v) {
			if (value[corner[v]] > s->iso) in[nin++] = corner[v];
			else out[nout++] = corner[v];
		}
		if (nin == 0 || nout == 0) continue;
		if (nin == 1) {
			tet_edge e[3] = {{in[0], out[0]}, {in[0], out[1]}, {in[0], out[2]}};
			emit(s, i, j, k, e);
		} else if (nin == 3) {
			tet_edge e[3] = {{in[0], out[0]}, {in[1], out[0]}, {in[2], out[0]}};
			emit(s, i, j, k, e);
		} else {
			/* a quad through edges AC, AD, BD, BC (in A B, out C D), cut along AC-BD, which runs
			 * through the inside of the tetrahedron, so no other triangle sees that diagonal */
			tet_edge e1[3] = {{in[0], out[0]}, {in[0], out[1]}, {in[1], out[1]}};
			tet_edge e2[3] = {{in[0], out[0]}, {in[1], out[1]}, {in[1], out[0]}};
			emit(s, i, j, k, e1);
			emit(s, i, j, k, e2);
		}
	}
}

bool pdl_field_mesh(const pdl_field* f, float iso, pdl_mesh* out, pdl_error* err)
{
	if (out) memset(out, 0, sizeof *out);
	if (!out) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!check_field(f, 3, iso, err)) return false;
	mesher s;
	memset(&s, 0, sizeof s);
	s.f = f, s.iso = iso, s.m = out;
	size_t layer = 7 * (size_t)f->nx * (size_t)f->ny;
	s.layer[0] = malloc(layer * sizeof(int));
	s.layer[1] = malloc(layer * sizeof(int));
	s.failed = !s.layer[0] || !s.layer[1];
	if (!s.failed) memset(s.layer[0], 0xff, layer * sizeof(int)), memset(s.layer[1], 0xff, layer * sizeof(int));
	for (int k = 0; k + 1 < f->nz && !s.failed; ++k) {
		if (k > 0) {
			/* layer k + 1 becomes layer k: its in-plane edges (x, y, xy) were made by the cubes
			 * below and are kept; its edges going up were never asked for, so they are -1 */
			int* old = s.layer[0];
			s.layer[0] = s.layer[1], s.layer[1] = old;
			memset(s.layer[1], 0xff, layer * sizeof(int));
		}
		s.layer_k = k;
		for (int j = 0; j + 1 < f->ny && !s.failed; ++j)
			for (int i = 0; i + 1 < f->nx; ++i) {
				float value[8];
				int inside = 0;
				for (int c = 0; c < 8; ++c) {
					value[c] = level(&s, i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
					inside += value[c] > iso;
				}
				if (inside == 0 || inside == 8) continue;
				march_cube(&s, i, j, k, value);
			}
	}
	free(s.layer[0]), free(s.layer[1]);
	if (s.failed) {
		pdl_mesh_free(out);
		return fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	succeed(err);
	return true;
}

bool pdl_surface_mesh(const pdl_surface_def* def, const float* x, const float* y, const float* z, int count,
                      pdl_mesh* out, pdl_error* err)
{
	if (out) memset(out, 0, sizeof *out);
	if (!out) return fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	pdl_field field;
	if (!pdl_surface_field(def, 3, x, y, z, count, &field, err)) return false;
	bool ok = pdl_field_mesh(&field, field.iso, out, err);
	pdl_field_free(&field);
	return ok;
}
