/* Geometry shared by the validation cases: rest lattices, a neighbour grid, the smoothed number
 * density and the fluid's edge along a line (free surface, side walls), clumping, the largest
 * connected cluster, kernel densities recomputed from positions, line fits and the share of a
 * round body under a level. Everything here reads positions only. */
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

double vrest_spacing(const pdl_world* w, int material)
{
	const pdl_world_def d = pdl_world_get_def(w);
	const float rho = pdl_world_get_material(w, material).rest_density;
	return d.dimensions == 3 ? pdl_rest_spacing_3d(d.interaction_radius, rho)
	                         : pdl_rest_spacing(d.interaction_radius, rho);
}

double vrest_cell(const pdl_world* w, int material)
{
	const double s = vrest_spacing(w, material);
	/* hexagonal: rows s sqrt(3)/2 apart, s between neighbours in a row; face-centred cubic: 4
	 * points per cube of side s sqrt(2) */
	return pdl_world_get_def(w).dimensions == 3 ? s * s * s / sqrt(2.0) : s * s * sqrt(3.0) / 2;
}

/* ---- Neighbour grid ---------------------------------------------------------------------- */

static int cell_of(const vgrid* g, int axis, double v)
{
	int c = (int)floor((v - g->lo[axis]) / g->reach);
	return c < 0 ? 0 : c >= g->n[axis] ? g->n[axis] - 1 : c;
}

void vgrid_build(vgrid* g, const pdl_particle_data* p, int dims, double reach)
{
	memset(g, 0, sizeof *g);
	g->dims = dims, g->count = p->count, g->reach = reach;
	g->x[0] = p->x, g->x[1] = p->y, g->x[2] = dims == 3 ? p->z : NULL;
	double hi[3] = {0, 0, 0};
	for (int a = 0; a < 3; ++a) g->lo[a] = 0, g->n[a] = 1;
	for (int a = 0; a < dims; ++a) {
		g->lo[a] = 1e30, hi[a] = -1e30;
		for (int i = 0; i < p->count; ++i) {
			double v = g->x[a][i];
			if (!isfinite(v)) continue;
			if (v < g->lo[a]) g->lo[a] = v;
			if (v > hi[a]) hi[a] = v;
		}
		if (g->lo[a] > hi[a]) g->lo[a] = hi[a] = 0;
		double cells = floor((hi[a] - g->lo[a]) / reach) + 1;
		g->n[a] = cells > 4096 ? 4096 : (int)cells; /* far-flung particles share the edge cells */
	}
	size_t cells = (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
	g->start = calloc(cells + 1, sizeof *g->start);
	g->order = malloc((size_t)(p->count > 0 ? p->count : 1) * sizeof *g->order);
	int* key = malloc((size_t)(p->count > 0 ? p->count : 1) * sizeof *key);
	for (int i = 0; i < p->count; ++i) {
		int c[3] = {0, 0, 0};
		for (int a = 0; a < dims; ++a) c[a] = cell_of(g, a, isfinite(g->x[a][i]) ? g->x[a][i] : g->lo[a]);
		key[i] = (c[2] * g->n[1] + c[1]) * g->n[0] + c[0];
		g->start[key[i] + 1]++;
	}
	for (size_t c = 0; c < cells; ++c) g->start[c + 1] += g->start[c];
	int* fill = malloc((cells + 1) * sizeof *fill);
	memcpy(fill, g->start, (cells + 1) * sizeof *fill);
	for (int i = 0; i < p->count; ++i) g->order[fill[key[i]]++] = i;
	free(fill);
	free(key);
}

void vgrid_free(vgrid* g)
{
	free(g->start);
	free(g->order);
	memset(g, 0, sizeof *g);
}

void vgrid_query(const vgrid* g, const double q[3], void (*fn)(int j, double r2, void* ctx), void* ctx)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
	for (int a = 0; a < g->dims; ++a) {
		lo[a] = cell_of(g, a, q[a] - g->reach);
		hi[a] = cell_of(g, a, q[a] + g->reach);
	}
	const double r2max = g->reach * g->reach;
	for (int cz = lo[2]; cz <= hi[2]; ++cz)
		for (int cy = lo[1]; cy <= hi[1]; ++cy)
			for (int cx = lo[0]; cx <= hi[0]; ++cx) {
				int c = (cz * g->n[1] + cy) * g->n[0] + cx;
				for (int k = g->start[c]; k < g->start[c + 1]; ++k) {
					int j = g->order[k];
					double r2 = 0;
					for (int a = 0; a < g->dims; ++a) {
						double d = g->x[a][j] - q[a];
						r2 += d * d;
					}
					if (r2 < r2max) fn(j, r2, ctx);
				}
			}
}

/* ---- Smoothed number density and the fluid's edge ---------------------------------------- */

typedef struct poly6_sum {
	double r2max, sum;
} poly6_sum;

static void add_poly6(int j, double r2, void* ctx)
{
	(void)j;
	poly6_sum* s = ctx;
	double d = s->r2max - r2;
	s->sum += d * d * d;
}

/* Poly6 normalised to 1 over the disc (ball) of radius R: Mueller et al. 2003 eq. 20 and its 2D
 * form, 4 / (pi R^8) (docs/physics.md, "Kernels"). */
static double poly6_constant(int dims, double radius)
{
	return dims == 3 ? 315.0 / (64.0 * PI * pow(radius, 9)) : 4.0 / (PI * pow(radius, 8));
}

double vsmoothed_fill(const vgrid* g, double cell, const double q[3])
{
	poly6_sum s = {g->reach * g->reach, 0};
	vgrid_query(g, q, add_poly6, &s);
	return cell * poly6_constant(g->dims, g->reach) * s.sum;
}

double vfluid_edge(const vgrid* g, double cell, const double inside[3], const double outside[3])
{
	double dir[3], length = 0;
	for (int a = 0; a < 3; ++a) {
		dir[a] = inside[a] - outside[a];
		length += dir[a] * dir[a];
	}
	length = sqrt(length);
	if (!(length > 0)) return -1;
	for (int a = 0; a < 3; ++a) dir[a] /= length;
	const double step = g->reach / 50;
#define AT(s_, q_) double q_[3] = {outside[0] + (s_) * dir[0], outside[1] + (s_) * dir[1], outside[2] + (s_) * dir[2]}
	/* 1. from outside inwards to the first point with a quarter of the rest fill */
	double entry = -1;
	for (double s = 0; s <= length; s += step) {
		AT(s, q);
		if (vsmoothed_fill(g, cell, q) >= 0.25) {
			entry = s;
			break;
		}
	}
	if (entry < 0) return -1;
	/* 2. the bulk next to it: the mean fill 2 to 3 kernel radii further in (kernel-smoothed
	 * layering averages out over a radius) */
	double bulk = 0;
	int used = 0;
	for (int k = 0; k <= 10; ++k) {
		double s = entry + g->reach * (2.0 + 0.1 * k);
		if (s > length) break;
		AT(s, q);
		bulk += vsmoothed_fill(g, cell, q);
		used++;
	}
	if (used == 0) {
		AT(length, q);
		bulk = vsmoothed_fill(g, cell, q);
		used = 1;
	}
	const double half = 0.5 * bulk / used;
	/* 3. the crossing of half the bulk's fill, interpolated between two samples */
	double s_prev = entry - g->reach > 0 ? entry - g->reach : 0;
	AT(s_prev, q0);
	double c_prev = vsmoothed_fill(g, cell, q0);
	if (c_prev >= half) return length - s_prev;
	for (double s = s_prev + step; s <= length; s += step) {
		AT(s, q);
		double c = vsmoothed_fill(g, cell, q);
		if (c >= half) return length - (s_prev + step * (half - c_prev) / (c - c_prev));
		s_prev = s, c_prev = c;
	}
#undef AT
	return -1;
}

double vsurface_height(const vgrid* g, double cell, double x, double z, double y_low, double y_high)
{
	const double inside[3] = {x, y_low, z}, outside[3] = {x, y_high, z};
	double d = vfluid_edge(g, cell, inside, outside);
	return d < 0 ? -1e30 : y_low + d;
}

/* ---- Clumping and clusters --------------------------------------------------------------- */

typedef struct close_count {
	int self, found;
} close_count;

static void count_close(int j, double r2, void* ctx)
{
	(void)r2;
	close_count* c = ctx;
	if (j != c->self) c->found++;
}

double vclumped_share(const pdl_particle_data* p, int dims, double distance)
{
	if (p->count == 0) return 0;
	vgrid g;
	vgrid_build(&g, p, dims, distance);
	int clumped = 0;
	for (int i = 0; i < p->count; ++i) {
		const double q[3] = {p->x[i], p->y[i], dims == 3 ? p->z[i] : 0};
		close_count c = {i, 0};
		vgrid_query(&g, q, count_close, &c);
		clumped += c.found > 0;
	}
	vgrid_free(&g);
	return (double)clumped / p->count;
}

static int find_root(int* parent, int i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

typedef struct cluster_join {
	int* parent;
	int self;
} cluster_join;

static void join_cluster(int j, double r2, void* ctx)
{
	(void)r2;
	cluster_join* c = ctx;
	int a = find_root(c->parent, c->self), b = find_root(c->parent, j);
	if (a != b) c->parent[a > b ? a : b] = a < b ? a : b;
}

int vlargest_cluster(const pdl_particle_data* p, int dims, double link, unsigned char* member)
{
	if (p->count == 0) return 0;
	int* parent = malloc((size_t)p->count * sizeof *parent);
	int* size = calloc((size_t)p->count, sizeof *size);
	for (int i = 0; i < p->count; ++i) parent[i] = i;
	vgrid g;
	vgrid_build(&g, p, dims, link);
	for (int i = 0; i < p->count; ++i) {
		const double q[3] = {p->x[i], p->y[i], dims == 3 ? p->z[i] : 0};
		cluster_join c = {parent, i};
		vgrid_query(&g, q, join_cluster, &c);
	}
	vgrid_free(&g);
	int best = 0;
	for (int i = 0; i < p->count; ++i) {
		int r = find_root(parent, i);
		if (++size[r] > size[best]) best = r;
	}
	for (int i = 0; i < p->count; ++i) member[i] = find_root(parent, i) == best;
	int n = size[best];
	free(parent);
	free(size);
	return n;
}

/* ---- Kernel densities from positions ----------------------------------------------------- */

vkernel vkernel_of(const pdl_world* w)
{
	const pdl_world_def d = pdl_world_get_def(w);
	if (d.solver == PDL_SOLVER_CLAVET) return VKERNEL_CLAVET;
	if (d.solver == PDL_SOLVER_SPH && d.sph.pressure_kernel != PDL_SPH_PRESSURE_WENDLAND) return VKERNEL_POLY6;
	return VKERNEL_WENDLAND;
}

typedef struct density_sum {
	vkernel kind;
	double h, sum;
	int self;
} density_sum;

static void add_density(int j, double r2, void* ctx)
{
	density_sum* d = ctx;
	if (d->kind == VKERNEL_CLAVET) {
		if (j == d->self) return; /* Clavet eq. 1 sums over the neighbours */
		double q = 1 - sqrt(r2) / d->h;
		d->sum += q * q;
	} else if (d->kind == VKERNEL_POLY6) {
		double t = d->h * d->h - r2;
		d->sum += t * t * t;
	} else { /* Wendland C2 (Wendland 1995): (1 - q)^4 (1 + 4q), q = r / h */
		double q = sqrt(r2) / d->h, t = 1 - q;
		d->sum += q < 1 ? t * t * t * t * (1 + 4 * q) : 0;
	}
}

double vkernel_density(const vgrid* g, const pdl_particle_data* p, vkernel kind, int dims, double h, double mass,
                       int i)
{
	const double q[3] = {p->x[i], p->y[i], dims == 3 ? p->z[i] : 0};
	density_sum d = {kind, h, 0, i};
	vgrid_query(g, q, add_density, &d);
	if (kind == VKERNEL_CLAVET) return d.sum;
	if (kind == VKERNEL_POLY6) return mass * poly6_constant(dims, h) * d.sum;
	/* Wendland C2's constant: 2D 7 / (pi h^2), 3D 21 / (2 pi h^3) */
	return mass * (dims == 3 ? 21.0 / (2.0 * PI * h * h * h) : 7.0 / (PI * h * h)) * d.sum;
}

/* ---- Fits and bodies ---------------------------------------------------------------------- */

double vfit_slope(const double* x, const double* y, int n, double* intercept)
{
	double mx = 0, my = 0;
	for (int k = 0; k < n; ++k) mx += x[k], my += y[k];
	mx /= n > 0 ? n : 1, my /= n > 0 ? n : 1;
	double sxy = 0, sxx = 0;
	for (int k = 0; k < n; ++k) {
		sxy += (x[k] - mx) * (y[k] - my);
		sxx += (x[k] - mx) * (x[k] - mx);
	}
	double slope = sxx > 0 ? sxy / sxx : 0;
	if (intercept) *intercept = my - slope * mx;
	return slope;
}

double vshare_below(int dims, double r, double yc, double level)
{
	double d = level - (yc - r);
	if (d <= 0) return 0;
	if (d >= 2 * r) return 1;
	if (dims == 3) return PI * d * d * (3 * r - d) / 3 / (4.0 / 3.0 * PI * r * r * r);
	return (r * r * acos((r - d) / r) - (r - d) * sqrt(2 * r * d - d * d)) / (PI * r * r);
}
