/* Particle storage: growth, filling shapes, removal, permutation and whole-state restore.
 * None of this runs inside the step except pdl_particles_permute (no allocation there). */
#include "core.h"
#include "cuda_step.h"
#include "simd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool grow(void** array, size_t count, size_t size)
{
	void* p = realloc(*array, count * size);
	if (!p) return false;
	*array = p;
	return true;
}

#define GROW(field, count) ok = ok && grow((void**)&p->field, (size_t)(count), sizeof *p->field)

bool pdl_particles_reserve(pdl_world* w, int capacity)
{
	particles* p = &w->p;
	if (capacity <= p->capacity) return true;
	int cap = p->capacity < 256 ? 256 : p->capacity;
	while (cap < capacity) cap = cap > (1 << 29) ? capacity : cap * 2;
	if (cap > w->def.max_particles && capacity <= w->def.max_particles) cap = w->def.max_particles;
	pdl_cuda_unpin(w->cuda); /* the arrays may move: end their page-locking for the GPU's copies */
	bool ok = true;
	GROW(x, cap + PDL_SIMD_PAD); GROW(y, cap + PDL_SIMD_PAD); GROW(xp, cap); GROW(yp, cap);
	GROW(vx, cap + PDL_SIMD_PAD); GROW(vy, cap + PDL_SIMD_PAD); GROW(material, cap + PDL_SIMD_PAD); GROW(id, cap);
	GROW(density, cap + PDL_SIMD_PAD); GROW(pressure, cap + PDL_SIMD_PAD); GROW(near_pressure, cap + PDL_SIMD_PAD);
	GROW(x2, cap + PDL_SIMD_PAD); GROW(y2, cap + PDL_SIMD_PAD); GROW(xp2, cap); GROW(yp2, cap);
	GROW(vx2, cap + PDL_SIMD_PAD); GROW(vy2, cap + PDL_SIMD_PAD); GROW(material2, cap + PDL_SIMD_PAD); GROW(id2, cap);
	GROW(scratch, cap);
	if (w->def.dimensions == 3) {
		GROW(z, cap + PDL_SIMD_PAD); GROW(zp, cap); GROW(vz, cap + PDL_SIMD_PAD);
		GROW(z2, cap + PDL_SIMD_PAD); GROW(zp2, cap); GROW(vz2, cap + PDL_SIMD_PAD);
	}
	if (p->spring_partner) {
		GROW(spring_partner, (size_t)cap * PDL_K); GROW(spring_rest, (size_t)cap * PDL_K);
		GROW(spring_partner2, (size_t)cap * PDL_K); GROW(spring_rest2, (size_t)cap * PDL_K);
		GROW(proposals, (size_t)cap * PDL_K);
	}
	if (p->origin) {
		GROW(origin, cap);
		GROW(origin2, cap);
	}
	ok = ok && pdl_grid_reserve(&w->grid, cap);
	if (!ok) return false;
	/* the eight-lane loops read up to seven entries past the last particle: keep them defined */
	float* padded[] = {p->x, p->y, p->vx, p->vy, p->x2, p->y2, p->vx2, p->vy2, p->density, p->pressure, p->near_pressure};
	for (size_t k = 0; k < sizeof padded / sizeof padded[0]; ++k)
		for (int i = p->capacity; i < cap + PDL_SIMD_PAD; ++i) padded[k][i] = 0;
	if (w->def.dimensions == 3) {
		float* padded3[] = {p->z, p->vz, p->z2, p->vz2};
		for (size_t k = 0; k < sizeof padded3 / sizeof padded3[0]; ++k)
			for (int i = p->capacity; i < cap + PDL_SIMD_PAD; ++i) padded3[k][i] = 0;
	}
	for (int i = p->capacity; i < cap + PDL_SIMD_PAD; ++i) p->material[i] = p->material2[i] = 0;
	p->capacity = cap;
	return true;
}

/* Spring slots exist only once some material has springs (they cost 8 bytes x 16 a particle). */
bool pdl_particles_enable_springs(pdl_world* w)
{
	particles* p = &w->p;
	if (p->spring_partner) return true;
	size_t n = (size_t)(p->capacity > 0 ? p->capacity : 1) * PDL_K;
	int32_t* partner = malloc(n * sizeof *partner);
	float* rest = malloc(n * sizeof *rest);
	int32_t* partner2 = malloc(n * sizeof *partner2);
	float* rest2 = malloc(n * sizeof *rest2);
	int32_t* proposals = malloc(n * sizeof *proposals);
	if (!partner || !rest || !partner2 || !rest2 || !proposals) {
		free(partner); free(rest); free(partner2); free(rest2); free(proposals);
		return false;
	}
	for (size_t i = 0; i < n; ++i) partner[i] = -1;
	memset(rest, 0, n * sizeof *rest);
	p->spring_partner = partner;
	p->spring_rest = rest;
	p->revision++;
	p->spring_partner2 = partner2;
	p->spring_rest2 = rest2;
	p->proposals = proposals;
	return true;
}

bool pdl_particles_enable_ghosts(pdl_world* w)
{
	particles* p = &w->p;
	if (p->origin) return true;
	size_t n = (size_t)(p->capacity > 0 ? p->capacity : 1);
	int32_t* origin = malloc(n * sizeof *origin);
	int32_t* origin2 = malloc(n * sizeof *origin2);
	if (!origin || !origin2) {
		free(origin), free(origin2);
		return false;
	}
	for (size_t i = 0; i < n; ++i) origin[i] = -1;
	p->origin = origin;
	p->origin2 = origin2;
	return true;
}

void pdl_particles_free(particles* p)
{
	void* arrays[] = {p->x, p->y, p->xp, p->yp, p->vx, p->vy, p->material, p->id, p->density,
	                  p->pressure, p->near_pressure, p->spring_partner,
	                  p->spring_rest, p->x2, p->y2, p->xp2, p->yp2, p->vx2, p->vy2, p->material2,
	                  p->id2, p->spring_partner2, p->spring_rest2, p->scratch, p->proposals,
	                  p->z, p->zp, p->vz, p->z2, p->zp2, p->vz2, p->origin, p->origin2};
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
	memset(p, 0, sizeof *p);
}

#define SWAP(a, b)                                                                             \
	do {                                                                                       \
		void* t_ = (void*)(a);                                                                 \
		(a) = (b);                                                                             \
		(b) = t_;                                                                              \
	} while (0)

typedef struct permute_job {
	particles* p;
	bool with_prev;
	const int32_t* order;
	const int32_t* new_index; /* old index -> new index, for spring partners */
} permute_job;

/* dst[k] = src[order[k]] for k in [begin, end), one array at a time. restrict tells the
 * compiler the arrays never overlap; written through p-> every store might move the other
 * arrays' pointers, and each was reloaded for every particle. */
#define DEFINE_GATHER(name, type)                                                             \
	static void name(type* restrict dst, const type* restrict src, const int32_t* restrict order, \
	                 int begin, int end)                                                      \
	{                                                                                         \
		for (int k = begin; k < end; ++k) dst[k] = src[order[k]];                             \
	}
DEFINE_GATHER(gather_floats, float)
DEFINE_GATHER(gather_u32, uint32_t)
DEFINE_GATHER(gather_u8, uint8_t)
DEFINE_GATHER(gather_i32, int32_t)

/* The spring slots of slots [begin, end): partner indices renamed to the new order, rest
 * lengths moved along. Branch-free (an empty slot, -1, reads new_index[0] and keeps -1): a slab
 * of slime has empty and full slots mixed, and a branch on each mispredicted. */
static void permute_springs(int32_t* restrict dst, float* restrict dst_rest, const int32_t* restrict src,
                            const float* restrict rest, const int32_t* restrict order,
                            const int32_t* restrict new_index, int begin, int end)
{
	for (int k = begin; k < end; ++k) {
		const int32_t* from = src + (size_t)order[k] * PDL_K;
		int32_t* to = dst + (size_t)k * PDL_K;
		for (int s = 0; s < PDL_K; ++s) {
			int32_t j = from[s], renamed = new_index[j < 0 ? 0 : j];
			to[s] = j < 0 ? -1 : renamed;
		}
		memcpy(dst_rest + (size_t)k * PDL_K, rest + (size_t)order[k] * PDL_K, PDL_K * sizeof *rest);
	}
}

static void permute_range(void* ctx, int begin, int end)
{
	permute_job* job = ctx;
	particles* p = job->p;
	const int32_t* order = job->order;
	gather_floats(p->x2, p->x, order, begin, end);
	gather_floats(p->y2, p->y, order, begin, end);
	gather_floats(p->vx2, p->vx, order, begin, end);
	gather_floats(p->vy2, p->vy, order, begin, end);
	gather_u8(p->material2, p->material, order, begin, end);
	gather_u32(p->id2, p->id, order, begin, end);
	if (p->origin) gather_i32(p->origin2, p->origin, order, begin, end);
	if (p->z) {
		gather_floats(p->z2, p->z, order, begin, end);
		gather_floats(p->vz2, p->vz, order, begin, end);
	}
	if (job->with_prev) {
		gather_floats(p->xp2, p->xp, order, begin, end);
		gather_floats(p->yp2, p->yp, order, begin, end);
		if (p->z) gather_floats(p->zp2, p->zp, order, begin, end);
	}
	if (p->spring_partner)
		permute_springs(p->spring_partner2, p->spring_rest2, p->spring_partner, p->spring_rest, order,
		                job->new_index, begin, end);
}

static void inverse_range(void* ctx, int begin, int end)
{
	permute_job* job = ctx;
	int32_t* inv = (int32_t*)job->new_index;
	for (int k = begin; k < end; ++k) inv[job->order[k]] = k;
}

void pdl_particles_permute(pdl_world* w, const int32_t* order, bool with_prev)
{
	w->p.revision++;
	particles* p = &w->p;
	permute_job job = {p, with_prev, order, p->scratch};
	if (p->spring_partner) pdl_pool_for(w->pool, p->count, 4096, inverse_range, &job);
	pdl_pool_for(w->pool, p->count, 1024, permute_range, &job);
	SWAP(p->x, p->x2);
	SWAP(p->y, p->y2);
	SWAP(p->z, p->z2);
	if (with_prev) {
		SWAP(p->xp, p->xp2);
		SWAP(p->yp, p->yp2);
		SWAP(p->zp, p->zp2);
	}
	SWAP(p->vx, p->vx2);
	SWAP(p->vy, p->vy2);
	SWAP(p->vz, p->vz2);
	SWAP(p->material, p->material2);
	SWAP(p->id, p->id2);
	if (p->origin) SWAP(p->origin, p->origin2);
	if (p->spring_partner) {
		SWAP(p->spring_partner, p->spring_partner2);
		SWAP(p->spring_rest, p->spring_rest2);
	}
	/* DFSPH's solves start from the pressures they last ended with (their warm start): state
	 * that moves with its particle, as its position does (Clavet and SPH compute pressures
	 * afresh every substep). x2 and y2 hold nothing now: they take the gathers. */
	if (w->def.solver == PDL_SOLVER_DFSPH) {
		const size_t bytes = (size_t)p->count * sizeof *p->pressure;
		gather_floats(p->x2, p->pressure, order, 0, p->count);
		gather_floats(p->y2, p->near_pressure, order, 0, p->count);
		memcpy(p->pressure, p->x2, bytes);
		memcpy(p->near_pressure, p->y2, bytes);
	}
}

void pdl_particles_move(particles* p, int to, int from)
{
	p->revision++;
	p->x[to] = p->x[from], p->y[to] = p->y[from];
	p->xp[to] = p->xp[from], p->yp[to] = p->yp[from];
	p->vx[to] = p->vx[from], p->vy[to] = p->vy[from];
	if (p->z) p->z[to] = p->z[from], p->zp[to] = p->zp[from], p->vz[to] = p->vz[from];
	p->material[to] = p->material[from];
	p->id[to] = p->id[from];
	p->density[to] = p->density[from];
	p->pressure[to] = p->pressure[from];
	p->near_pressure[to] = p->near_pressure[from];
	if (p->origin) p->origin[to] = p->origin[from];
}

int pdl_particles_compact(pdl_world* w, const uint8_t* keep)
{
	w->p.revision++;
	particles* p = &w->p;
	int32_t* new_index = p->scratch;
	int n = 0;
	for (int i = 0; i < p->count; ++i) new_index[i] = keep[i] ? n++ : -1;
	int removed = p->count - n;
	if (removed == 0) return 0;
	for (int i = 0; i < p->count; ++i) {
		int k = new_index[i];
		if (k < 0) continue;
		pdl_particles_move(p, k, i);
		if (p->spring_partner) {
			/* k <= i, so rows move down and never overwrite an unread row */
			for (int s = 0; s < PDL_K; ++s) {
				int32_t j = p->spring_partner[(size_t)i * PDL_K + s];
				p->spring_partner[(size_t)k * PDL_K + s] = j < 0 ? -1 : new_index[j];
				p->spring_rest[(size_t)k * PDL_K + s] = p->spring_rest[(size_t)i * PDL_K + s];
			}
		}
	}
	p->count = n;
	return removed;
}

/* ---- Filling shapes ------------------------------------------------------------------- */

/* Kernel density sum_j (1 - r/h)^2 of a hexagonal lattice of spacing s, at a lattice point. */
static double lattice_density(double h, double s)
{
	double sum = 0, row = s * 0.8660254037844386;
	int reach = (int)ceil(h / row) + 1;
	for (int j = -reach; j <= reach; ++j) {
		double y = j * row, offset = (j & 1) ? 0.5 * s : 0.0;
		int ireach = (int)ceil(h / s) + 2;
		for (int i = -ireach; i <= ireach; ++i) {
			if (i == 0 && j == 0) continue;
			double x = i * s + offset, r = sqrt(x * x + y * y);
			if (r < h) sum += (1 - r / h) * (1 - r / h);
		}
	}
	return sum;
}

/* The same sum for a face-centred cubic lattice of nearest-neighbour spacing s (3D's closest
 * packing): the points (i, j, k) s / sqrt 2 with i + j + k even. */
static double fcc_density(double h, double s)
{
	double a = s * 0.70710678118654752, sum = 0;
	int reach = (int)ceil(h / a) + 1;
	for (int k = -reach; k <= reach; ++k)
		for (int j = -reach; j <= reach; ++j)
			for (int i = -reach; i <= reach; ++i) {
				if (((i + j + k) & 1) || (i == 0 && j == 0 && k == 0)) continue;
				double r = a * sqrt((double)(i * i + j * j + k * k));
				if (r < h) sum += (1 - r / h) * (1 - r / h);
			}
	return sum;
}

/* The spacing at which density(h, s) = rest_density: density falls as spacing grows, so
 * bisect on s in [0.02 h, h]; a rest density that even the lattice at 0.02 h does not reach
 * gives 0.02 h. The sum at 0.02 h is the costliest of all (in 3D about 3 million lattice points,
 * 4 ms, most of a small world's build), so it is taken only once the bisection has come down
 * near it, which a sensible rest density never does (Clavet's 10 puts s near 0.4 h). */
static float bisect_spacing(double (*density)(double, double), float h, float rest_density)
{
	const double floor_spacing = 0.02 * h;
	double lo = floor_spacing, hi = h;
	bool floor_checked = false;
	for (int it = 0; it < 60; ++it) {
		if (!floor_checked && hi < 4 * floor_spacing) {
			if (density(h, floor_spacing) < rest_density) return (float)floor_spacing;
			floor_checked = true;
		}
		double mid = 0.5 * (lo + hi);
		if (density(h, mid) > rest_density) lo = mid;
		else hi = mid;
	}
	return (float)(0.5 * (lo + hi));
}

/* bisect_spacing, remembered: the callers ask for the same few spacings over and over (a scene's
 * fills, emitters and estimates, the viewer's tools every frame), and in 3D one answer can take
 * milliseconds (`puddle info scenes/stratify-3d.json` spent 89 % of 10 s in fcc_density). Each
 * thread keeps its last few answers: the function is pure, so they are exact. */
enum { SPACING_MEMO = 8 };
typedef struct spacing_memo {
	double (*density)(double, double);
	float h, rest_density, spacing;
} spacing_memo;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define SPACING_THREAD_LOCAL /* (the single-threaded WebAssembly build has no thread-local storage) */
#else
#define SPACING_THREAD_LOCAL _Thread_local
#endif
static SPACING_THREAD_LOCAL spacing_memo spacing_memos[SPACING_MEMO];
static SPACING_THREAD_LOCAL int spacing_memo_next;

static float spacing_for(double (*density)(double, double), float h, float rest_density)
{
	if (!(h > 0) || !(rest_density > 0) || !isfinite(h) || !isfinite(rest_density)) return 0;
	for (int k = 0; k < SPACING_MEMO; ++k) {
		const spacing_memo* m = &spacing_memos[k];
		if (m->density == density && m->h == h && m->rest_density == rest_density) return m->spacing;
	}
	const float spacing = bisect_spacing(density, h, rest_density);
	spacing_memos[spacing_memo_next] = (spacing_memo){density, h, rest_density, spacing};
	spacing_memo_next = (spacing_memo_next + 1) % SPACING_MEMO;
	return spacing;
}

float pdl_rest_spacing(float h, float rest_density) { return spacing_for(lattice_density, h, rest_density); }

float pdl_rest_spacing_3d(float h, float rest_density) { return spacing_for(fcc_density, h, rest_density); }

typedef struct emitter {
	pdl_world* w;
	const pdl_fill_def* def;
	int count;
	/* the rigid bodies the fill meets: no particle within `clearance` of their surface */
	const int* bodies;
	int body_count;
	float clearance;
} emitter;

/* Whether (x, y, z) lies inside one of e's bodies or within its clearance of the surface. */
static bool in_a_body(const emitter* e, double x, double y, double z)
{
	const bool three = e->w->def.dimensions == 3;
	const float at[3] = {(float)x, (float)y, three ? (float)z : 0};
	for (int k = 0; k < e->body_count; ++k) {
		const rigid_body* b = &e->w->bodies.bodies[e->bodies[k]];
		float dx = at[0] - b->def.position.x, dy = at[1] - b->def.position.y, dz = three ? at[2] - b->def.position.z : 0;
		float reach = b->bound_radius + e->clearance, n[3];
		if (dx * dx + dy * dy + dz * dz >= reach * reach) continue;
		if (pdl_body_distance(b, at, three, n) < e->clearance) return true;
	}
	return false;
}

static void emit3(emitter* e, double x, double y, double z)
{
	if (e->body_count > 0 && in_a_body(e, x, y, z)) return;
	particles* p = &e->w->p;
	int i = p->count + e->count++;
	p->x[i] = (float)x;
	p->y[i] = (float)y;
	p->xp[i] = (float)x;
	p->yp[i] = (float)y;
	p->vx[i] = e->def->velocity.x;
	p->vy[i] = e->def->velocity.y;
	if (p->z) {
		p->z[i] = p->zp[i] = (float)z;
		p->vz[i] = e->def->velocity.z;
	}
	p->material[i] = (uint8_t)e->def->material;
	p->id[i] = p->next_id + (uint32_t)e->count - 1;
	p->density[i] = 0;
	p->pressure[i] = 0;
	p->near_pressure[i] = 0; /* DFSPH's warm starts read both */
	if (p->spring_partner)
		for (int s = 0; s < PDL_K; ++s) p->spring_partner[(size_t)i * PDL_K + s] = -1;
}

static void emit(emitter* e, double x, double y) { emit3(e, x, y, e->def->position.z); }

/* Face-centred cubic lattice over the box [lo, hi] (3D's hexagonal lattice): points on the
 * cube grid of step s / sqrt 2 with an even coordinate sum, which are s apart. With ball_r > 0
 * only points within ball_r of centre are kept. Counts, and emits when e is not NULL. */
static double fcc_walk(emitter* e, double s, const double lo[3], const double hi[3],
                       const double centre[3], double ball_r)
{
	double a = s * 0.70710678118654752, count = 0;
	double n[3];
	for (int d = 0; d < 3; ++d) n[d] = floor((hi[d] - lo[d]) / a + 1e-9);
	for (double k = 0; k <= n[2]; ++k)
		for (double j = 0; j <= n[1]; ++j)
			for (double i = fmod(j + k, 2.0); i <= n[0]; i += 2) {
				double x = lo[0] + i * a, y = lo[1] + j * a, z = lo[2] + k * a;
				double dx = x - centre[0], dy = y - centre[1], dz = z - centre[2];
				if (ball_r > 0 && dx * dx + dy * dy + dz * dz > ball_r * ball_r) continue;
				if (e) emit3(e, x, y, z);
				count += 1;
			}
	return count;
}

/* The 3D shapes: point, line, box and ball. */
static double fill_walk_3d(emitter* e, const pdl_fill_def* d, double s)
{
	double c[3] = {d->position.x, d->position.y, d->position.z};
	switch (d->shape) {
	case PDL_FILL_POINT:
		if (e)
			for (int i = 0; i < (d->count > 0 ? d->count : 1); ++i) emit3(e, c[0], c[1], c[2]);
		return d->count > 0 ? d->count : 1;
	case PDL_FILL_LINE: {
		double dx = d->end.x - c[0], dy = d->end.y - c[1], dz = d->end.z - c[2];
		double n = floor(sqrt(dx * dx + dy * dy + dz * dz) / s) + 1;
		if (e)
			for (double i = 0; i < n; ++i) {
				double t = n > 1 ? i / (n - 1) : 0;
				emit3(e, c[0] + t * dx, c[1] + t * dy, c[2] + t * dz);
			}
		return n;
	}
	case PDL_FILL_BOX: {
		double half[3] = {d->half_extents.x, d->half_extents.y, d->half_extents.z};
		double lo[3], hi[3];
		for (int k = 0; k < 3; ++k) {
			if (half[k] < 0.5 * s) {
				if (e) emit3(e, c[0], c[1], c[2]);
				return 1;
			}
			lo[k] = c[k] - half[k] + 0.5 * s;
			hi[k] = c[k] + half[k] - 0.5 * s;
		}
		return fcc_walk(e, s, lo, hi, c, 0);
	}
	case PDL_FILL_DISC: {
		double r = d->radius;
		if (r < 0.5 * s) {
			if (e) emit3(e, c[0], c[1], c[2]);
			return 1;
		}
		double lo[3] = {c[0] - r, c[1] - r, c[2] - r}, hi[3] = {c[0] + r, c[1] + r, c[2] + r};
		return fcc_walk(e, s, lo, hi, c, r - 0.5 * s);
	}
	default:
		return 0; /* spirals are refused in 3D (validate.c) */
	}
}

/* Hexagonal lattice rows over a rectangle [x0, x1] x [y0, y1]; with disc_r > 0 only points
 * inside the disc of that radius around (cx, cy) are kept. Returns the count (emitting only
 * when e is not NULL), so the same walk both counts and fills. */
static double hex_walk(emitter* e, double s, double x0, double x1, double y0, double y1, double cx,
                       double cy, double disc_r)
{
	double row = s * 0.8660254037844386, count = 0;
	double rows = floor((y1 - y0) / row + 1e-9);
	for (double j = 0; j <= rows; ++j) {
		double y = y0 + j * row;
		double offset = fmod(j, 2.0) == 1.0 ? 0.5 * s : 0.0;
		double cols = floor((x1 - x0 - offset) / s + 1e-9);
		for (double i = 0; i <= cols; ++i) {
			double x = x0 + offset + i * s;
			if (disc_r > 0 && (x - cx) * (x - cx) + (y - cy) * (y - cy) > disc_r * disc_r) continue;
			if (e) emit(e, x, y);
			count += 1;
		}
	}
	return count;
}

/* How many particles the fill makes (as a double, so absurd requests do not overflow), and if
 * e is given, makes them. */
static double fill_walk(emitter* e, const pdl_fill_def* d, double s, int dimensions)
{
	if (dimensions == 3) return fill_walk_3d(e, d, s);
	double px = d->position.x, py = d->position.y;
	switch (d->shape) {
	case PDL_FILL_POINT:
		if (e)
			for (int i = 0; i < (d->count > 0 ? d->count : 1); ++i) emit(e, px, py);
		return d->count > 0 ? d->count : 1;
	case PDL_FILL_LINE: {
		double dx = d->end.x - px, dy = d->end.y - py, len = sqrt(dx * dx + dy * dy);
		double n = floor(len / s) + 1;
		if (e)
			for (double i = 0; i < n; ++i) {
				double t = n > 1 ? i / (n - 1) : 0;
				emit(e, px + t * dx, py + t * dy);
			}
		return n;
	}
	case PDL_FILL_BOX: {
		/* centre the lattice in the box, half a spacing in from the walls */
		double hx = d->half_extents.x, hy = d->half_extents.y;
		if (hx < 0.5 * s || hy < 0.5 * s) {
			if (e) emit(e, px, py);
			return 1;
		}
		return hex_walk(e, s, px - hx + 0.5 * s, px + hx - 0.5 * s, py - hy + 0.5 * s,
		                py + hy - 0.5 * s, 0, 0, 0);
	}
	case PDL_FILL_DISC: {
		double r = d->radius;
		if (r < 0.5 * s) {
			if (e) emit(e, px, py);
			return 1;
		}
		return hex_walk(e, s, px - r, px + r, py - r, py + r, px, py, r - 0.5 * s);
	}
	case PDL_FILL_SPIRAL: {
		/* Fermat spiral (the Rust stratification demo's sunflower start): point k at radius
		 * R sqrt((k+1/2)/n), angle k times the golden angle: even spacing with no lattice
		 * directions. */
		double r = d->radius;
		double n = d->count > 0 ? d->count : floor(3.14159265358979 * r * r / (s * s * 0.8660254037844386));
		if (n < 1) n = 1;
		if (e)
			for (double k = 0; k < n; ++k) {
				double rr = r * sqrt((k + 0.5) / n), a = k * 2.39996322972865332;
				emit(e, px + rr * cos(a), py + rr * sin(a));
			}
		return n;
	}
	default:
		return 0;
	}
}

/* A box holding every point the fill can make (world units). */
static void fill_bounds(const pdl_fill_def* d, int dims, double lo[3], double hi[3])
{
	const double c[3] = {d->position.x, d->position.y, d->position.z}, e[3] = {d->end.x, d->end.y, d->end.z};
	const double half[3] = {d->half_extents.x, d->half_extents.y, d->half_extents.z};
	for (int a = 0; a < 3; ++a) {
		double r = d->shape == PDL_FILL_BOX ? half[a] : d->radius;
		if (d->shape == PDL_FILL_POINT || d->shape == PDL_FILL_LINE) r = 0;
		lo[a] = c[a] - r, hi[a] = c[a] + r;
		if (d->shape == PDL_FILL_LINE) lo[a] = fmin(lo[a], e[a]), hi[a] = fmax(hi[a], e[a]);
		if (a == 2 && dims == 2) lo[a] = hi[a] = c[a];
	}
}

int pdl_world_fill(pdl_world* w, const pdl_fill_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), -1;
	if (pdl_validate_fill_def(w, def, err)) return -1;
	int dims = w->def.dimensions;
	float h = w->def.interaction_radius, rho0 = w->materials[def->material].def.rest_density;
	float s = def->spacing;
	if (s == 0) s = dims == 3 ? pdl_rest_spacing_3d(h, rho0) : pdl_rest_spacing(h, rho0);
	/* An upper bound from the area (volume) first, so that an absurd request is refused at once
	 * instead of walking billions of lattice points to count them. */
	bool box = def->shape == PDL_FILL_BOX;
	double reach_x = box ? 2.0 * def->half_extents.x : 2.0 * def->radius;
	double reach_y = box ? 2.0 * def->half_extents.y : 2.0 * def->radius;
	double reach_z = box ? 2.0 * def->half_extents.z : 2.0 * def->radius;
	double bound = (reach_x / s + 2) * (reach_y / (s * 0.8660254037844386) + 2);
	if (dims == 3) { /* FCC: one point per 2 cubes of side s / sqrt 2 */
		double a = s * 0.70710678118654752;
		bound = (reach_x / a + 2) * (reach_y / a + 2) * (reach_z / a + 2) * 0.5;
	}
	bool lattice = def->shape == PDL_FILL_BOX || def->shape == PDL_FILL_DISC;
	double n = lattice && bound > w->def.max_particles ? bound : fill_walk(NULL, def, s, dims);
	double total = (double)w->p.count + n;
	if (total > w->def.max_particles) return pdl_fail(err, PDL_ERR_TOO_MANY_PARTICLES, total), -1;
	if (!pdl_particles_reserve(w, (int)total)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, total), -1;
	/* the bodies whose bounding spheres meet the fill's bounding box */
	emitter e = {w, def, 0, NULL, 0, 0.5f * s};
	int* bodies = NULL;
	if (w->bodies.live > 0) {
		double lo[3], hi[3];
		fill_bounds(def, dims, lo, hi);
		bodies = malloc((size_t)w->bodies.slots * sizeof *bodies);
		if (!bodies) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, total), -1;
		for (int k = 0; k < w->bodies.slots; ++k) {
			const rigid_body* b = &w->bodies.bodies[k];
			const double c[3] = {b->def.position.x, b->def.position.y, b->def.position.z};
			double reach = (double)b->bound_radius + e.clearance;
			bool meets = b->alive;
			for (int a = 0; a < dims && meets; ++a) meets = c[a] + reach >= lo[a] && c[a] - reach <= hi[a];
			if (meets) bodies[e.body_count++] = k;
		}
		e.bodies = bodies;
	}
	fill_walk(&e, def, s, dims);
	free(bodies);
	if (w->p.origin)
		for (int i = w->p.count; i < w->p.count + e.count; ++i) w->p.origin[i] = -1;
	w->p.count += e.count;
	w->p.revision++;
	w->p.next_id += (uint32_t)e.count;
	return e.count;
}

static int remove_where(pdl_world* w, pdl_vec3 c, float r, pdl_vec3 half, bool ball)
{
	particles* p = &w->p;
	if (p->count == 0) return 0;
	uint8_t* keep = malloc((size_t)p->count); /* outside the step: allocating is fine here */
	if (!keep) return 0;
	for (int i = 0; i < p->count; ++i) {
		float dx = p->x[i] - c.x, dy = p->y[i] - c.y, dz = p->z ? p->z[i] - c.z : 0;
		bool inside = ball ? dx * dx + dy * dy + dz * dz <= r * r
		                   : fabsf(dx) <= half.x && fabsf(dy) <= half.y && (!p->z || fabsf(dz) <= half.z);
		keep[i] = !inside;
	}
	int removed = pdl_particles_compact(w, keep);
	free(keep);
	return removed;
}

int pdl_world_remove_particles_in_circle(pdl_world* w, pdl_vec3 center, float radius)
{
	if (!w || !(radius > 0)) return 0;
	return remove_where(w, center, radius, (pdl_vec3){0, 0, 0}, true);
}

int pdl_world_remove_particles_in_box(pdl_world* w, pdl_vec3 center, pdl_vec3 half)
{
	if (!w || !(half.x > 0) || !(half.y > 0) || (w->def.dimensions == 3 && !(half.z > 0))) return 0;
	return remove_where(w, center, 0, half, false);
}

int pdl_world_particle_count(const pdl_world* w) { return w ? w->p.count : 0; }

pdl_particle_data pdl_world_particles(const pdl_world* w)
{
	pdl_particle_data d = {0};
	if (!w) return d;
	const particles* p = &w->p;
	d.count = p->count;
	d.x = p->x;
	d.y = p->y;
	d.z = p->z;
	d.vx = p->vx;
	d.vy = p->vy;
	d.vz = p->vz;
	d.material = p->material;
	d.id = p->id;
	d.density = p->density;
	d.pressure = p->pressure;
	d.divergence_pressure = w->def.solver == PDL_SOLVER_DFSPH ? p->near_pressure : NULL;
	d.spring_partner = p->spring_partner;
	d.spring_rest = p->spring_rest;
	d.next_id = p->next_id;
	return d;
}

pdl_error_id pdl_world_set_particles(pdl_world* w, const pdl_particle_data* d, pdl_error* err)
{
	if (!w || !d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (d->count < 0) return pdl_fail(err, PDL_ERR_FILL_COUNT, d->count);
	if (d->count > w->def.max_particles) return pdl_fail(err, PDL_ERR_TOO_MANY_PARTICLES, d->count);
	bool three = w->def.dimensions == 3;
	if (d->count > 0 && (!d->x || !d->y || !d->vx || !d->vy || !d->material || (three && (!d->z || !d->vz))))
		return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	for (int i = 0; i < d->count; ++i) {
		bool ok = isfinite(d->x[i]) && isfinite(d->y[i]) && isfinite(d->vx[i]) &&
		          isfinite(d->vy[i]) && d->material[i] < w->material_count &&
		          (!three || (isfinite(d->z[i]) && isfinite(d->vz[i])));
		if (!ok) return pdl_fail(err, PDL_ERR_PARTICLE_STATE, i);
	}
	/* DFSPH's warm start: pressures >= 0 (its solves never leave one below), the divergence
	 * share at most the whole */
	const bool warm = w->def.solver == PDL_SOLVER_DFSPH && d->pressure;
	for (int i = 0; warm && i < d->count; ++i) {
		float whole = d->pressure[i], part = d->divergence_pressure ? d->divergence_pressure[i] : 0;
		if (!(whole >= 0 && part >= 0 && isfinite(whole) && isfinite(part)))
			return pdl_fail(err, PDL_ERR_PARTICLE_STATE, i);
	}
	if (d->spring_partner) {
		for (long long s = 0; s < (long long)d->count * PDL_K; ++s) {
			int32_t j = d->spring_partner[s];
			if (j < -1 || j >= d->count || (j >= 0 && !(d->spring_rest && isfinite(d->spring_rest[s]))))
				return pdl_fail(err, PDL_ERR_PARTICLE_STATE, (double)(s / PDL_K));
		}
		if (!pdl_particles_enable_springs(w)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	if (!pdl_particles_reserve(w, d->count)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, d->count);
	particles* p = &w->p;
	size_t n = (size_t)d->count;
	if (n) {
		memcpy(p->x, d->x, n * sizeof *p->x);
		memcpy(p->y, d->y, n * sizeof *p->y);
		memcpy(p->xp, d->x, n * sizeof *p->xp);
		memcpy(p->yp, d->y, n * sizeof *p->yp);
		memcpy(p->vx, d->vx, n * sizeof *p->vx);
		memcpy(p->vy, d->vy, n * sizeof *p->vy);
		if (three) {
			memcpy(p->z, d->z, n * sizeof *p->z);
			memcpy(p->zp, d->z, n * sizeof *p->zp);
			memcpy(p->vz, d->vz, n * sizeof *p->vz);
		}
		memcpy(p->material, d->material, n);
		memset(p->density, 0, n * sizeof *p->density);
		memset(p->pressure, 0, n * sizeof *p->pressure);
		memset(p->near_pressure, 0, n * sizeof *p->near_pressure);
		if (warm) { /* DFSPH's warm start, else a fresh start, as a filled world's */
			memcpy(p->pressure, d->pressure, n * sizeof *p->pressure);
			if (d->divergence_pressure) memcpy(p->near_pressure, d->divergence_pressure, n * sizeof *p->near_pressure);
		}
	}
	uint32_t next = d->next_id;
	for (size_t i = 0; i < n; ++i) {
		p->id[i] = d->id ? d->id[i] : next + (uint32_t)i;
		if (p->id[i] >= next && d->id) next = p->id[i] + 1;
	}
	p->next_id = d->id ? next : next + (uint32_t)n;
	if (p->spring_partner) {
		for (size_t s = 0; s < n * PDL_K; ++s) {
			p->spring_partner[s] = d->spring_partner ? d->spring_partner[s] : -1;
			p->spring_rest[s] = d->spring_partner ? d->spring_rest[s] : 0;
		}
	}
	if (p->origin)
		for (size_t i = 0; i < n; ++i) p->origin[i] = -1;
	p->count = d->count;
	p->revision++;
	return PDL_OK;
}
