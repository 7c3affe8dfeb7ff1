/* Diffuse particles: spray, foam and air bubbles, after Ihmsen, Akinci, Gissler & Teschner 2012,
 * "Unified Spray, Foam and Air Bubbles for Particle-Based Fluids" (The Visual Computer 28).
 *
 * After each pdl_world_step() the pass reads the fluid's positions and velocities and
 *   1. moves the diffuse particles there are (sec. 5.2): each counts the fluid particles within
 *      h and is spray (few), foam (between) or a bubble (many); spray flies under gravity,
 *      foam goes with the fluid's kernel-averaged velocity (eq. 14) and ages, bubbles rise by
 *      buoyancy and are dragged towards the fluid's velocity (eq. 15); the walls stop them;
 *   2. makes new ones (sec. 4): every fluid particle has a trapped-air potential (eq. 2), a
 *      wave-crest potential (eqs. 3-5) and a kinetic-energy potential (eq. 6), each clamped
 *      into [0, 1] by Phi (eq. 1), and makes I_k (k_ta I_ta + k_wc I_wc) dt of them (eq. 7),
 *      placed in the cylinder its velocity sweeps in the step (eqs. 8-10).
 *
 * Nothing here writes to the fluid, so the world's state (pdl_world_hash) is the same bits with
 * diffuse particles on or off. The set itself is the same for any thread count: the passes over
 * particles write each value from one particle's neighbours alone, the random numbers are a
 * hash of the particle's id, the step count and the sample (no shared generator state), and
 * the particles are made and removed in one serial pass in storage order.
 *
 * Units: lengths in world units, time in seconds, h the world's interaction radius. The kernel
 * of every sum here is Ihmsen's radially symmetric weight W~(r) = 1 - r / h for r <= h (eq. 2). */
#include "core.h"
#include "simd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pdl_diffuse_state {
	pdl_diffuse_def def;
	int count, capacity;
	float *x, *y, *z, *vx, *vy, *vz, *life;
	uint8_t* kind;
	int kind_count[PDL_DIFFUSE_KIND_COUNT];
	/* per fluid particle, scratch of a pass: the unit surface normal (0 inside the fluid), the
	 * trapped-air sum (eq. 2), the count of fluid neighbours, and how many it makes */
	float *nx, *ny, *nz, *trapped;
	int32_t *neighbours, *make;
	/* the fluid's positions and velocities in the grid's order, padded for eight-lane loads
	 * (near_next, normals_range) */
	float *sx, *sy, *sz, *svx, *svy, *svz;
	uint8_t* alive; /* per diffuse particle */
	int fluid_capacity;
	pdl_grid grid; /* the fluid at its positions after the step */
};

pdl_diffuse_def pdl_default_diffuse_def(void) { return (pdl_diffuse_def){PDL_DIFFUSE_FIELDS(PDL_FIELD_DEFAULT, ~)}; }

#define CHECK_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, ...)                                             \
	if (!PDL_RULE_OK_##rule(d->name, ctype, lo, hi)) return pdl_fail(err, error, (double)d->name);

pdl_error_id pdl_validate_diffuse(const pdl_diffuse_def* d, pdl_error* err)
{
	if (!d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	PDL_DIFFUSE_FIELDS(CHECK_FIELD, ~)
	/* Phi (eq. 1) divides by tau_max - tau_min */
	if (!(d->trapped_air_max > d->trapped_air_min))
		return pdl_fail(err, PDL_ERR_DIFFUSE_TRAPPED_AIR_ORDER, d->trapped_air_max);
	if (!(d->wave_crest_max > d->wave_crest_min)) return pdl_fail(err, PDL_ERR_DIFFUSE_WAVE_CREST_ORDER, d->wave_crest_max);
	if (!(d->kinetic_max > d->kinetic_min)) return pdl_fail(err, PDL_ERR_DIFFUSE_KINETIC_ORDER, d->kinetic_max);
	if (!(d->foam_lifetime_max >= d->foam_lifetime_min))
		return pdl_fail(err, PDL_ERR_DIFFUSE_FOAM_LIFETIME_ORDER, d->foam_lifetime_max);
	if (!(d->bubble_neighbours > d->spray_neighbours))
		return pdl_fail(err, PDL_ERR_DIFFUSE_NEIGHBOURS_ORDER, d->bubble_neighbours);
	return PDL_OK;
}
#undef CHECK_FIELD

void pdl_diffuse_free(pdl_world* w)
{
	struct pdl_diffuse_state* s = w->diffuse;
	if (!s) return;
	free(s->x), free(s->y), free(s->z), free(s->vx), free(s->vy), free(s->vz), free(s->life);
	free(s->kind), free(s->alive);
	free(s->nx), free(s->ny), free(s->nz), free(s->trapped), free(s->neighbours), free(s->make);
	free(s->sx), free(s->sy), free(s->sz), free(s->svx), free(s->svy), free(s->svz);
	pdl_grid_free(&s->grid);
	free(s);
	w->diffuse = NULL;
}

/* Grows the diffuse arrays to hold `cap` particles; false (nothing lost) when out of memory. */
static bool reserve_diffuse(struct pdl_diffuse_state* s, int cap)
{
	if (cap <= s->capacity) return true;
	float** const f[] = {&s->x, &s->y, &s->z, &s->vx, &s->vy, &s->vz, &s->life};
	if (!pdl_grow_float_arrays(f, sizeof f / sizeof f[0], cap)) return false;
	uint8_t* k = realloc(s->kind, (size_t)cap);
	if (!k) return false;
	s->kind = k;
	uint8_t* a = realloc(s->alive, (size_t)cap);
	if (!a) return false;
	s->alive = a;
	s->capacity = cap;
	return true;
}

static bool reserve_fluid(struct pdl_diffuse_state* s, int n)
{
	if (n <= s->fluid_capacity) return true;
	int cap = n + n / 2 + 64;
	float** const f[] = {&s->nx, &s->ny, &s->nz, &s->trapped};
	if (!pdl_grow_float_arrays(f, sizeof f / sizeof f[0], cap)) return false;
	float** const sorted[] = {&s->sx, &s->sy, &s->sz, &s->svx, &s->svy, &s->svz};
	if (!pdl_grow_float_arrays(sorted, sizeof sorted / sizeof sorted[0], cap + PDL_SIMD_PAD)) return false;
	for (size_t k = 0; k < sizeof sorted / sizeof sorted[0]; ++k)
		memset(*sorted[k] + cap, 0, PDL_SIMD_PAD * sizeof(float)); /* (masked lanes read it) */
	int32_t* a = realloc(s->neighbours, (size_t)cap * sizeof *a);
	if (!a) return false;
	s->neighbours = a;
	int32_t* b = realloc(s->make, (size_t)cap * sizeof *b);
	if (!b) return false;
	s->make = b;
	if (!pdl_grid_reserve(&s->grid, cap)) return false;
	s->fluid_capacity = cap;
	return true;
}

pdl_error_id pdl_world_set_diffuse(pdl_world* w, const pdl_diffuse_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	pdl_error_id id = pdl_validate_diffuse(def, err);
	if (id) return id;
	if (!def->enabled) {
		pdl_diffuse_free(w);
		if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
		return PDL_OK;
	}
	struct pdl_diffuse_state* s = w->diffuse;
	bool made = !s;
	if (made && !(s = calloc(1, sizeof *s))) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	/* all of max_particles at once, so that the step never allocates for them */
	if (!reserve_diffuse(s, def->max_particles)) {
		if (made) {
			w->diffuse = s;
			pdl_diffuse_free(w);
		}
		return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	}
	s->def = *def;
	if (s->count > def->max_particles) s->count = def->max_particles; /* the newest go */
	memset(s->kind_count, 0, sizeof s->kind_count);
	for (int i = 0; i < s->count; ++i) s->kind_count[s->kind[i]]++;
	w->diffuse = s;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return PDL_OK;
}

pdl_diffuse_def pdl_world_get_diffuse(const pdl_world* w)
{
	return w && w->diffuse ? w->diffuse->def : pdl_default_diffuse_def();
}

pdl_diffuse_data pdl_world_diffuse(const pdl_world* w)
{
	pdl_diffuse_data d;
	memset(&d, 0, sizeof d);
	const struct pdl_diffuse_state* s = w ? w->diffuse : NULL;
	if (!s) return d;
	d.count = s->count;
	d.x = s->x, d.y = s->y, d.z = s->z, d.vx = s->vx, d.vy = s->vy, d.vz = s->vz;
	d.life = s->life, d.kind = s->kind;
	memcpy(d.kind_count, s->kind_count, sizeof d.kind_count);
	return d;
}

/* ---- random numbers: a hash of (particle id, step, sample, channel) -------------------------- */

/* SplitMix64's finaliser (Steele, Lea & Flood 2014): a counter through it is a good enough
 * uniform source, and it keeps no state, so any thread may draw any particle's numbers. */
static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number in [0, 1) for this particle, step, sample and channel (24 bits: exact in float). */
static float uniform(uint32_t id, long long step, int sample, int channel)
{
	uint64_t key = mix64((uint64_t)step * 8u + (uint64_t)channel) ^ (((uint64_t)id << 32) | (uint32_t)sample);
	return (float)(mix64(key) >> 40) * 0x1p-24f;
}

/* Ihmsen 2012 eq. 1: Phi(I, tau_min, tau_max) = (min(I, tau_max) - min(I, tau_min)) /
 * (tau_max - tau_min), the potential I mapped into [0, 1]. */
static float clamp_potential(float value, float lo, float hi)
{
	float a = value < hi ? value : hi, b = value < lo ? value : lo;
	return (a - b) / (hi - lo);
}

typedef struct pass_job {
	const pdl_world* w;
	struct pdl_diffuse_state* s;
	float h, dt;
	bool three;
} pass_job;

/* ---- the fluid particles within h of a point ------------------------------------------------------ */

/* Walks the fluid particles j within h of `at` (the grid's runs around it, in their order):
 * near_begin, then while (near_next(...)) with j, d = at - x_j and r2 = |d|^2 < h^2; or block by
 * block, while (near_next_block(...)), eight candidates at a time.
 * The candidates are tested eight at a time against the positions in the grid's order
 * (sorted_positions_range: a copy per step, so the loads are contiguous). near_next hands those
 * within h out one by one, with d and r2 worked out again from the particle's own position in the
 * same float operations; the passes that take whole blocks work out their terms in the lanes and add
 * them up in slot order. Either way: the same neighbours, the same order, the same bits as
 * testing them one by one (which, with about six candidates a neighbour in 3D and the branch on
 * each mispredicted, was a quarter of a 3D dam break's step on one thread, perf). */
typedef struct near_walk {
	pdl_grid_runs runs;
	int run, slot;  /* the next block's first slot in run `run` */
	unsigned bits;  /* near_next: the candidates within h of the block from `base` not yet handed out */
	int base;
	f8 x, y, z;     /* at, in every lane */
} near_walk;

/* A block of candidates: the grid's slots base .. base + 7, their offsets d = at - x_j (0 in z
 * in 2D) and q = |d|^2 in the lanes, and the lanes within h (bits, never 0). */
typedef struct near_block {
	int base;
	unsigned bits;
	f8 dx, dy, dz, q;
} near_block;

static void near_begin(near_walk* it, const struct pdl_diffuse_state* s, const float at[3])
{
	pdl_grid_runs_around(&s->grid, at[0], at[1], at[2], &it->runs);
	it->run = 0;
	it->slot = it->runs.count > 0 ? it->runs.begin[0] : 0;
	it->bits = 0;
	it->base = 0;
	it->x = f8_set1(at[0]), it->y = f8_set1(at[1]), it->z = f8_set1(at[2]);
}

static inline bool near_next_block(near_walk* it, const struct pdl_diffuse_state* s, bool three, float h2,
                                   near_block* b)
{
	while (it->run < it->runs.count) {
		const int end = it->runs.end[it->run];
		if (it->slot >= end) {
			if (++it->run < it->runs.count) it->slot = it->runs.begin[it->run];
			continue;
		}
		const int n = end - it->slot < PDL_LANES ? end - it->slot : PDL_LANES;
		b->dx = f8_sub(it->x, f8_load(s->sx + it->slot));
		b->dy = f8_sub(it->y, f8_load(s->sy + it->slot));
		b->q = f8_add(f8_mul(b->dx, b->dx), f8_mul(b->dy, b->dy));
		b->dz = f8_set1(0);
		if (three) {
			b->dz = f8_sub(it->z, f8_load(s->sz + it->slot));
			b->q = f8_add(b->q, f8_mul(b->dz, b->dz));
		}
		b->bits = (unsigned)m8_bits(f8_lt(b->q, f8_set1(h2))) & ((1u << n) - 1u);
		b->base = it->slot;
		it->slot += n;
		if (b->bits) return true;
	}
	return false;
}

static inline bool near_next(near_walk* it, const struct pdl_diffuse_state* s, const particles* p, bool three,
                             const float at[3], float h2, int* j, float d[3], float* r2)
{
	for (;;) {
		while (it->bits) {
			const int slot = it->base + __builtin_ctz(it->bits);
			it->bits &= it->bits - 1;
			const int k = s->grid.order[slot];
			d[0] = at[0] - p->x[k], d[1] = at[1] - p->y[k], d[2] = three ? at[2] - p->z[k] : 0;
			float q = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
			if (q >= h2) continue; /* (the block's test is this one: never taken) */
			*j = k, *r2 = q;
			return true;
		}
		near_block b;
		if (!near_next_block(it, s, three, h2, &b)) return false;
		it->bits = b.bits, it->base = b.base;
	}
}

/* W~ = 1 - r / h in the lanes (eq. 2's weight) from their distances r, as 1 - r * inv_h one by
 * one */
static inline f8 near_weight(f8 r, float inv_h) { return f8_sub(f8_set1(1.0f), f8_mul(r, f8_set1(inv_h))); }

/* The fluid's positions and velocities in the grid's order (slot k: particle order[k]), for
 * near_next and normals_range. */
static void sorted_positions_range(void* context, int begin, int end)
{
	const pass_job* job = context;
	const particles* p = &job->w->p;
	struct pdl_diffuse_state* s = job->s;
	const int32_t* order = s->grid.order;
	for (int k = begin; k < end; ++k) {
		const int i = order[k];
		s->sx[k] = p->x[i], s->sy[k] = p->y[i], s->sz[k] = job->three ? p->z[i] : 0;
		s->svx[k] = p->vx[i], s->svy[k] = p->vy[i], s->svz[k] = job->three ? p->vz[i] : 0;
	}
}

/* ---- pass 1: surface normals and the trapped-air sum of each fluid particle ------------------- */


/* A fluid particle is on the surface when its neighbours' weighted mean offset, sum_j (x_i -
 * x_j) W~ / sum_j W~, is at least this share of h: about 0.3 h for a particle on a flat surface
 * (the half ball of neighbours), near 0 inside (the neighbours all round it). */
#define SURFACE_OFFSET 0.12f

static void normals_range(void* context, int begin, int end)
{
	const pass_job* job = context;
	const particles* p = &job->w->p;
	struct pdl_diffuse_state* s = job->s;
	const float h = job->h, inv_h = 1.0f / h, h2 = h * h;
	const bool three = job->three;
	for (int i = begin; i < end; ++i) {
		const float xi = p->x[i], yi = p->y[i], zi = three ? p->z[i] : 0;
		const float vxi = p->vx[i], vyi = p->vy[i], vzi = three ? p->vz[i] : 0;
		/* a particle below tau_k^min makes nothing (eq. 7's I_k is 0): it is left out, and adds no
		 * curvature to its neighbours' crests either (its normal is 0). In a splash that is most
		 * of the pool, so the pass costs little where nothing happens. */
		if (!(0.5f * (vxi * vxi + vyi * vyi + vzi * vzi) > job->s->def.kinetic_min)) {
			s->neighbours[i] = 0, s->trapped[i] = 0;
			s->nx[i] = s->ny[i] = s->nz[i] = 0;
			continue;
		}
		float ox = 0, oy = 0, oz = 0, wsum = 0, trapped = 0;
		int count = 0;
		/* The candidates eight at a time, as near_next tests them, each lane's terms below worked
		 * out in the lanes and added up in slot order: the same float operations in the same
		 * order as one neighbour after the other. */
		const f8 vx8 = f8_set1(vxi), vy8 = f8_set1(vyi), vz8 = f8_set1(vzi), zero = f8_set1(0), one = f8_set1(1.0f);
		float lane_w[PDL_LANES], lane_ox[PDL_LANES], lane_oy[PDL_LANES], lane_oz[PDL_LANES], lane_t[PDL_LANES];
		const float at[3] = {xi, yi, zi};
		near_walk it;
		near_block b;
		near_begin(&it, s, at);
		while (near_next_block(&it, s, three, h2, &b)) {
			const f8 dist = f8_sqrt(b.q), wgt = near_weight(dist, inv_h);
			/* eq. 2: |v_ij| (1 - v^_ij . x^_ij) W~: large where particles close in on each other
			 * (v_ij against x_ij), as where a jet plunges into the pool */
			const f8 ux = f8_sub(vx8, f8_load(s->svx + b.base)), uy = f8_sub(vy8, f8_load(s->svy + b.base));
			const f8 uz = three ? f8_sub(vz8, f8_load(s->svz + b.base)) : zero;
			const f8 speed = f8_sqrt(f8_add(f8_add(f8_mul(ux, ux), f8_mul(uy, uy)), f8_mul(uz, uz)));
			const f8 along =
			    f8_div(f8_add(f8_add(f8_mul(ux, b.dx), f8_mul(uy, b.dy)), f8_mul(uz, b.dz)), f8_mul(speed, dist));
			const m8 moving = m8_and(f8_gt(speed, zero), f8_gt(dist, zero)); /* (+0 adds nothing) */
			f8_store(lane_t, f8_mask(moving, f8_mul(f8_mul(speed, f8_sub(one, along)), wgt)));
			f8_store(lane_w, wgt);
			f8_store(lane_ox, f8_mul(b.dx, wgt)), f8_store(lane_oy, f8_mul(b.dy, wgt)), f8_store(lane_oz, f8_mul(b.dz, wgt));
			for (unsigned bits = b.bits; bits; bits &= bits - 1) {
				const int k = __builtin_ctz(bits);
				if (s->grid.order[b.base + k] == i) continue;
				count++;
				ox += lane_ox[k], oy += lane_oy[k], oz += lane_oz[k], wsum += lane_w[k];
				trapped += lane_t[k];
			}
		}
		s->neighbours[i] = count;
		s->trapped[i] = trapped;
		/* the outward normal of eq. 3, as the direction away from the neighbours' weighted centre
		 * (a density gradient with W~); only surface particles have one */
		float len = sqrtf(ox * ox + oy * oy + oz * oz);
		if (wsum > 0 && len >= SURFACE_OFFSET * h * wsum) s->nx[i] = ox / len, s->ny[i] = oy / len, s->nz[i] = oz / len;
		else s->nx[i] = s->ny[i] = s->nz[i] = 0; /* inside, or alone: no surface to speak of */
	}
}

/* ---- pass 2: wave crests and how many particles each fluid particle makes --------------------- */

static void potentials_range(void* context, int begin, int end)
{
	const pass_job* job = context;
	const pdl_world* w = job->w;
	const particles* p = &w->p;
	struct pdl_diffuse_state* s = job->s;
	const pdl_diffuse_def* d = &s->def;
	const float h = job->h, inv_h = 1.0f / h, h2 = h * h;
	const bool three = job->three;
	for (int i = begin; i < end; ++i) {
		const float vxi = p->vx[i], vyi = p->vy[i], vzi = three ? p->vz[i] : 0;
		const float v2 = vxi * vxi + vyi * vyi + vzi * vzi;
		/* eq. 6: kinetic energy per unit mass, E_k = |v|^2 / 2 (world units^2 / s^2) */
		float kinetic = clamp_potential(0.5f * v2, d->kinetic_min, d->kinetic_max);
		s->make[i] = 0;
		if (kinetic <= 0) continue;
		float trapped = clamp_potential(s->trapped[i], d->trapped_air_min, d->trapped_air_max);
		float crest = 0;
		const float nxi = s->nx[i], nyi = s->ny[i], nzi = s->nz[i];
		const float speed = sqrtf(v2);
		/* eq. 5: delta^vn, only a surface moving along its normal (v^ . n^ >= 0.6) makes crests */
		if ((nxi != 0 || nyi != 0 || nzi != 0) && (vxi * nxi + vyi * nyi + vzi * nzi) >= 0.6f * speed) {
			const float at[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
			float curvature = 0, off[3], r2;
			int j;
			near_walk it;
			near_begin(&it, s, at);
			while (near_next(&it, s, p, three, at, h2, &j, off, &r2)) {
				/* eq. 4: only neighbours behind the surface (x^_ji . n^_i < 0, with x_ji = -off: a
				 * convex crest), and only those with a normal themselves */
				if (j == i || -(off[0] * nxi + off[1] * nyi + off[2] * nzi) >= 0) continue;
				if (s->nx[j] == 0 && s->ny[j] == 0 && s->nz[j] == 0) continue;
				float wgt = 1.0f - sqrtf(r2) * inv_h;
				/* eq. 3: kappa_i = sum_j (1 - n^_i . n^_j) W~ */
				curvature += (1.0f - (nxi * s->nx[j] + nyi * s->ny[j] + nzi * s->nz[j])) * wgt;
			}
			crest = clamp_potential(curvature, d->wave_crest_min, d->wave_crest_max);
		}
		/* eq. 7: n_d = I_k (k_ta I_ta + k_wc I_wc) dt, its fraction made with that probability */
		float expected = kinetic * (d->trapped_air_rate * trapped + d->wave_crest_rate * crest) * job->dt;
		if (!(expected > 0)) continue;
		float u = uniform(p->id[i], w->steps, 0, 0);
		float n = floorf(expected + u);
		s->make[i] = n < 1000.0f ? (int)n : 1000;
	}
}

/* ---- pass 3: moving the diffuse particles ------------------------------------------------------ */

static pdl_diffuse_kind classify(const pdl_diffuse_def* d, int neighbours)
{
	if (neighbours <= d->spray_neighbours) return PDL_DIFFUSE_SPRAY;
	if (neighbours >= d->bubble_neighbours) return PDL_DIFFUSE_BUBBLE;
	return PDL_DIFFUSE_FOAM;
}

/* The walls (containers and obstacles): a diffuse particle behind one is put back on its free
 * side and loses its velocity into it (no bounce: spray landing on a wall stays there). */
static void keep_off_walls(const pdl_world* w, float x[3], float v[3], bool three)
{
	/* a box container corrects its nearest wall at a time: out past a corner takes up to three */
	for (int pass = 0; pass < 3; ++pass) {
		bool moved = false;
		for (int b = 0; b < w->boundary_count; ++b) {
			const boundary* wall = &w->boundaries[b];
			if (!wall->alive) continue;
			float n[3] = {0, 0, 0};
			float dist = pdl_boundary_distance(wall, x, three, n);
			if (!(dist < 0)) continue;
			for (int c = 0; c < 3; ++c) x[c] -= dist * n[c];
			float into = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
			if (into < 0)
				for (int c = 0; c < 3; ++c) v[c] -= into * n[c];
			moved = true;
		}
		if (!moved) return;
	}
}

static void advect_range(void* context, int begin, int end)
{
	const pass_job* job = context;
	const pdl_world* w = job->w;
	const particles* p = &w->p;
	struct pdl_diffuse_state* s = job->s;
	const pdl_diffuse_def* d = &s->def;
	const float h = job->h, inv_h = 1.0f / h, h2 = h * h, dt = job->dt;
	const bool three = job->three;
	const float g[3] = {w->def.gravity.x, w->def.gravity.y, three ? w->def.gravity.z : 0};
	/* eq. 15's drag as a rate: the share of the velocity difference removed in dt */
	const float drag = 1.0f - expf(-d->bubble_drag * dt);
	for (int i = begin; i < end; ++i) {
		float x[3] = {s->x[i], s->y[i], s->z[i]}, v[3] = {s->vx[i], s->vy[i], s->vz[i]};
		float fluid[3] = {0, 0, 0}, wsum = 0;
		int count = 0;
		if (p->count > 0) {
			float lane_w[PDL_LANES], lane_u[PDL_LANES], lane_v[PDL_LANES], lane_z[PDL_LANES];
			near_walk it;
			near_block b;
			near_begin(&it, s, x);
			while (near_next_block(&it, s, three, h2, &b)) {
				const f8 wgt = near_weight(f8_sqrt(b.q), inv_h);
				f8_store(lane_w, wgt);
				f8_store(lane_u, f8_mul(f8_load(s->svx + b.base), wgt));
				f8_store(lane_v, f8_mul(f8_load(s->svy + b.base), wgt));
				f8_store(lane_z, f8_mul(f8_load(s->svz + b.base), wgt)); /* (0 in 2D) */
				for (unsigned bits = b.bits; bits; bits &= bits - 1) {
					const int k = __builtin_ctz(bits);
					count++;
					fluid[0] += lane_u[k], fluid[1] += lane_v[k], fluid[2] += lane_z[k];
					wsum += lane_w[k];
				}
			}
		}
		if (wsum > 0) fluid[0] /= wsum, fluid[1] /= wsum, fluid[2] /= wsum; /* eq. 14's v~_f */
		pdl_diffuse_kind kind = classify(d, count);
		for (int c = 0; c < 3; ++c) {
			if (kind == PDL_DIFFUSE_SPRAY) v[c] += dt * g[c]; /* eq. 13: ballistic */
			else if (kind == PDL_DIFFUSE_FOAM) v[c] = fluid[c]; /* eq. 14: carried by the fluid */
			else v[c] += dt * -d->bubble_buoyancy * g[c] + drag * (fluid[c] - v[c]); /* eq. 15 */
			x[c] += dt * v[c];
		}
		if (!three) x[2] = v[2] = 0;
		keep_off_walls(w, x, v, three);
		float life = s->life[i];
		if (kind == PDL_DIFFUSE_FOAM) life -= dt; /* only foam dissolves (sec. 5.2) */
		bool finite = isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) && isfinite(v[0]) && isfinite(v[1]) &&
		              isfinite(v[2]);
		s->alive[i] = finite && life > 0;
		s->x[i] = x[0], s->y[i] = x[1], s->z[i] = x[2];
		s->vx[i] = v[0], s->vy[i] = v[1], s->vz[i] = v[2];
		s->life[i] = life;
		s->kind[i] = (uint8_t)kind;
	}
}

/* ---- the pass ------------------------------------------------------------------------------------ */

/* Two unit vectors across the unit vector a (Frisvad 2012's branch-free basis, Duff et al. 2017). */
static void basis_across(const float a[3], float e1[3], float e2[3])
{
	float sign = a[2] >= 0 ? 1.0f : -1.0f;
	float c = -1.0f / (sign + a[2]), b = a[0] * a[1] * c;
	e1[0] = 1.0f + sign * a[0] * a[0] * c, e1[1] = sign * b, e1[2] = -sign * a[0];
	e2[0] = b, e2[1] = sign + a[1] * a[1] * c, e2[2] = -a[1];
}

void pdl_diffuse_step(pdl_world* w)
{
	struct pdl_diffuse_state* s = w->diffuse;
	if (!s) return;
	double start = pdl_now_ms();
	const particles* p = &w->p;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius, dt = w->def.dt;
	pass_job job = {w, s, h, dt, three};
	if (!reserve_fluid(s, p->count > 0 ? p->count : 1)) return; /* out of memory: skip a step */
	if (p->count > 0) {
		pdl_grid_build(&s->grid, w->pool, p->count, p->x, p->y, p->z, NULL, h);
		pdl_pool_for(w->pool, p->count, 4096, sorted_positions_range, &job);
	}

	/* 1. move the diffuse particles there are, then drop the dead in order */
	if (s->count > 0) pdl_pool_for(w->pool, s->count, 512, advect_range, &job);
	int kept = 0;
	memset(s->kind_count, 0, sizeof s->kind_count);
	for (int i = 0; i < s->count; ++i) {
		if (!s->alive[i]) continue;
		if (kept != i) {
			s->x[kept] = s->x[i], s->y[kept] = s->y[i], s->z[kept] = s->z[i];
			s->vx[kept] = s->vx[i], s->vy[kept] = s->vy[i], s->vz[kept] = s->vz[i];
			s->life[kept] = s->life[i], s->kind[kept] = s->kind[i];
		}
		s->kind_count[s->kind[kept]]++;
		kept++;
	}
	s->count = kept;

	/* 2. the fluid's potentials, and new particles in storage order until the set is full */
	if (p->count > 0) {
		pdl_pool_for(w->pool, p->count, 256, normals_range, &job);
		pdl_pool_for(w->pool, p->count, 256, potentials_range, &job);
	}
	const pdl_diffuse_def* d = &s->def;
	for (int i = 0; i < p->count && s->count < d->max_particles; ++i) {
		int n = s->make[i];
		if (n == 0) continue;
		const uint32_t id = p->id[i];
		const float xf[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		const float vf[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
		float speed = sqrtf(vf[0] * vf[0] + vf[1] * vf[1] + vf[2] * vf[2]);
		if (!(speed > 0) || !isfinite(speed)) continue;
		const float dir[3] = {vf[0] / speed, vf[1] / speed, vf[2] / speed};
		float e1[3], e2[3];
		if (three) basis_across(dir, e1, e2);
		else e1[0] = -dir[1], e1[1] = dir[0], e1[2] = 0, e2[0] = e2[1] = e2[2] = 0;
		/* r_V, the radius of the cylinder (eq. 8): half the material's rest spacing, the
		 * particle's own radius */
		const float radius = 0.5f * w->materials[p->material[i]].rest_spacing;
		const pdl_diffuse_kind kind = classify(d, s->neighbours[i]);
		for (int k = 0; k < n && s->count < d->max_particles; ++k) {
			/* eq. 8-10: x_d = x_f + r cos(theta) e1 + r sin(theta) e2 + l v^_f, with
			 * r = r_V sqrt(X_r), theta = 2 pi X_theta, l = X_l |dt v_f| (2D: r = r_V (2 X_r - 1)
			 * along the one direction across) */
			float xr = uniform(id, w->steps, k + 1, 1), xt = uniform(id, w->steps, k + 1, 2);
			float xl = uniform(id, w->steps, k + 1, 3), xlife = uniform(id, w->steps, k + 1, 4);
			float a, b;
			if (three) {
				float r = radius * sqrtf(xr), theta = 6.28318530718f * xt, c, sn;
				pdl_cos_sin(theta, &c, &sn);
				a = r * c, b = r * sn;
			} else {
				a = radius * (2.0f * xr - 1.0f), b = 0;
			}
			float along = xl * dt * speed;
			int at = s->count++;
			float pos[3], vel[3];
			for (int c = 0; c < 3; ++c) {
				pos[c] = xf[c] + a * e1[c] + b * e2[c] + along * dir[c];
				/* eq. 10's velocity: the fluid's, spread across by the same offset (per second) */
				vel[c] = vf[c] + a * e1[c] + b * e2[c];
			}
			keep_off_walls(w, pos, vel, three);
			s->x[at] = pos[0], s->y[at] = pos[1], s->z[at] = pos[2];
			s->vx[at] = vel[0], s->vy[at] = vel[1], s->vz[at] = vel[2];
			s->life[at] = d->foam_lifetime_min + xlife * (d->foam_lifetime_max - d->foam_lifetime_min);
			s->kind[at] = (uint8_t)kind;
			s->kind_count[kind]++;
		}
	}
	w->profile.diffuse = (float)(pdl_now_ms() - start);
}
