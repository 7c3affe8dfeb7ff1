/* The neighbour grid: cell keys, counting sort, neighbour runs. */
#include "grid.h"

#include "simd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cell coordinate of a position, clamped so that inf, NaN or huge positions still give a valid
 * integer (fmaxf returns the non-NaN argument), never undefined behaviour. */
static inline int cell_coord(float v, float inv_h)
{
	float c = v * inv_h;
	c = c >= -1.0e9f ? c : -1.0e9f; /* also NaN */
	c = c <= 1.0e9f ? c : 1.0e9f;
	/* floorf(c), without the library call that x86-64's baseline instruction set needs: the
	 * conversion truncates towards zero, so a negative non-integer is one too high. Selects,
	 * not branches, so that loops over particles become vector code. */
	int t = (int)c;
	return t - ((float)t > c);
}

int pdl_grid_cell_of(float v, float inv_cell) { return cell_coord(v, inv_cell); }

static inline uint32_t hash_cell(int cx, int cy, int cz, uint32_t mask)
{
	/* Teschner et al. 2003's primes; cz is 0 in 2D */
	uint32_t h = (uint32_t)cx * 73856093u ^ (uint32_t)cy * 19349663u ^ (uint32_t)cz * 83492791u;
	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h & mask;
}

static inline int32_t bucket_of(const pdl_grid* g, int cx, int cy, int cz)
{
	if (g->dense) return ((cz - g->z0) * g->ny + (cy - g->y0)) * g->nx + (cx - g->x0);
	return (int32_t)hash_cell(cx, cy, cz, g->table_used - 1);
}

/* Most bands (parallel parts) a build splits its counting sort into. */
#define GRID_MAX_BANDS 64
/* Most chunks the bounds pass is split into. */
#define GRID_MAX_CHUNKS 256

typedef struct build_job {
	pdl_grid* g;
	const float *x, *y, *z; /* z: NULL in 2D */
	const uint32_t* id;     /* each cell's particles in this order; NULL: in index order */
	int n, grain;
	int32_t band_first[GRID_MAX_BANDS + 1]; /* band b sorts buckets [first[b], first[b+1]) */
	int32_t band_total[GRID_MAX_BANDS];     /* particles in band b */
	int32_t band_offset[GRID_MAX_BANDS];    /* sorted slots before band b */
	int bounds[GRID_MAX_CHUNKS][6]; /* per chunk: xmin, xmax, ymin, ymax, zmin, zmax of its cells */
	int32_t* block_keys; /* per block of KEY_BLOCK particles: its smallest and largest key */
} build_job;

/* Particles per block of keys. The particles come in the last sort's order, so a block's keys
 * span a few rows of cells; each band of the counting sort reads only the blocks whose key
 * range meets its buckets, instead of every key. */
#define KEY_BLOCK 256

/* Room for `slabs` slabs in slab_start and slab_done. */
static bool grow_slabs(pdl_grid* g, int slabs)
{
	int32_t* start = realloc(g->slab_start, ((size_t)slabs + 1) * sizeof *start);
	if (!start) return false;
	g->slab_start = start;
	atomic_int* done = realloc(g->slab_done, (size_t)slabs * sizeof *done);
	if (!done) return false;
	g->slab_done = done;
	g->slab_capacity = slabs;
	return true;
}

bool pdl_grid_reserve(pdl_grid* g, int particles)
{
	if (particles <= g->capacity && g->start) return true;
	uint32_t table = 1024;
	while (table < 4u * (uint32_t)particles) table <<= 1;
	if (table > g->start_size) {
		int32_t* start = realloc(g->start, (table + 1) * sizeof *start);
		if (!start) return false;
		g->start = start;
		g->start_size = table;
	}
	int32_t* key = realloc(g->key, (size_t)particles * sizeof *key);
	if (!key) return false;
	g->key = key;
	int32_t* order = realloc(g->order, (size_t)particles * sizeof *order);
	if (!order) return false;
	g->order = order;
	int32_t* slot_key = realloc(g->slot_key, (size_t)particles * sizeof *slot_key);
	if (!slot_key) return false;
	g->slot_key = slot_key;

	if (!g->job && !(g->job = calloc(1, sizeof *g->job))) return false;
	int32_t* block_keys = realloc(g->job->block_keys, (size_t)(particles / KEY_BLOCK + 1) * 2 * sizeof *block_keys);
	if (!block_keys) return false;
	g->job->block_keys = block_keys;
	if (g->slab_capacity < PDL_GRID_MAX_SLABS && !grow_slabs(g, PDL_GRID_MAX_SLABS)) return false;
	g->table_size = table;
	g->capacity = particles;
	return true;
}

bool pdl_grid_allow_dense(pdl_grid* g, uint32_t cells)
{
	if (cells > g->start_size) {
		int32_t* start = realloc(g->start, ((size_t)cells + 1) * sizeof *start);
		if (!start) return false;
		g->start = start;
		g->start_size = cells;
	}
	g->dense_cells = cells;
	return true;
}

void pdl_grid_free(pdl_grid* g)
{
	free(g->start);
	free(g->key);
	free(g->order);
	free(g->slot_key);
	free(g->slab_start);
	free(g->slab_done);
	if (g->job) free(g->job->block_keys);
	free(g->job);
	memset(g, 0, sizeof *g);
}

/* Cell range of each chunk of `grain` particles. The float minimum and maximum come first
 * (a loop the compiler vectorizes) and become cells once, which gives the same cells as
 * taking every particle's cell, because floor is monotonic; a chunk holding an infinite or NaN
 * coordinate takes every particle's clamped cell instead (cell_coord). Min and max are exact,
 * so any split gives the same bounds. The pool may hand over several chunks at once (all of
 * them when it runs on one thread), so this walks the chunks of its range. */
static void axis_bounds(const float* v, int first, int last, float inv, int* lo_hi)
{
	/* eight lanes of minima, maxima and checks (one running minimum is a serial chain); odd
	 * stays 0 unless a coordinate is inf or NaN (c - c is then NaN, and a NaN stays in the
	 * sum). min and max skip a NaN (simd.h: minps(c, lo) = c < lo ? c : lo). */
	f8 lo8 = f8_set1(v[first]), hi8 = lo8, odd8 = f8_set1(0);
	int i = first;
	for (; i + PDL_LANES <= last; i += PDL_LANES) {
		f8 c = f8_load(v + i);
		lo8 = f8_min(c, lo8);
		hi8 = f8_max(c, hi8);
		odd8 = f8_add(odd8, f8_sub(c, c));
	}
	float lo_of[PDL_LANES], hi_of[PDL_LANES], odd_of[PDL_LANES];
	f8_store(lo_of, lo8);
	f8_store(hi_of, hi8);
	f8_store(odd_of, odd8);
	for (; i < last; ++i) {
		lo_of[0] = v[i] < lo_of[0] ? v[i] : lo_of[0];
		hi_of[0] = v[i] > hi_of[0] ? v[i] : hi_of[0];
		odd_of[0] += v[i] - v[i];
	}
	float lo = lo_of[0], hi = hi_of[0];
	bool odd = false;
	for (int k = 0; k < PDL_LANES; ++k) {
		lo = lo_of[k] < lo ? lo_of[k] : lo;
		hi = hi_of[k] > hi ? hi_of[k] : hi;
		odd |= odd_of[k] != 0;
	}
	if (!odd) {
		lo_hi[0] = cell_coord(lo, inv), lo_hi[1] = cell_coord(hi, inv);
		return;
	}
	lo_hi[0] = lo_hi[1] = cell_coord(v[first], inv);
	for (int j = first + 1; j < last; ++j) {
		int c = cell_coord(v[j], inv);
		lo_hi[0] = c < lo_hi[0] ? c : lo_hi[0];
		lo_hi[1] = c > lo_hi[1] ? c : lo_hi[1];
	}
}

/* Cell range of each chunk of `grain` particles, axis by axis. The float minimum and maximum
 * come first (a loop the compiler vectorizes) and become cells once, which gives the same cells
 * as taking every particle's cell, because floor is monotonic; a chunk holding an infinite or
 * NaN coordinate takes every particle's clamped cell instead (cell_coord). Min and max are
 * exact, so any split gives the same bounds. The pool may hand over several chunks at once
 * (all of them when it runs on one thread), so this walks the chunks of its range. */
static void chunk_bounds(void* ctx, int begin, int end)
{
	build_job* job = ctx;
	float inv = job->g->inv_cell;
	for (int first = begin; first < end; first += job->grain) {
		int last = first + job->grain < end ? first + job->grain : end;
		int* b = job->bounds[first / job->grain];
		axis_bounds(job->x, first, last, inv, b);
		axis_bounds(job->y, first, last, inv, b + 2);
		if (job->z) axis_bounds(job->z, first, last, inv, b + 4);
		else b[4] = b[5] = 0;
	}
}

/* Each particle's bucket, and each block's key range. Ranges start at multiples of the grain,
 * a multiple of KEY_BLOCK, so blocks never straddle two ranges. */
static void compute_keys(void* ctx, int begin, int end)
{
	build_job* job = ctx;
	pdl_grid* g = job->g;
	float inv = g->inv_cell;
	if (!job->z && g->dense) { /* the common case, in a loop the compiler vectorizes */
		const float *x = job->x, *y = job->y;
		int32_t* key = g->key;
		const int x0 = g->x0, y0 = g->y0, nx = g->nx;
		for (int i = begin; i < end; ++i)
			key[i] = (cell_coord(y[i], inv) - y0) * nx + (cell_coord(x[i], inv) - x0);
	} else if (!job->z) {
		for (int i = begin; i < end; ++i)
			g->key[i] = bucket_of(g, cell_coord(job->x[i], inv), cell_coord(job->y[i], inv), 0);
	} else {
		for (int i = begin; i < end; ++i)
			g->key[i] = bucket_of(g, cell_coord(job->x[i], inv), cell_coord(job->y[i], inv),
			                      cell_coord(job->z[i], inv));
	}
	for (int first = begin; first < end; first += KEY_BLOCK) {
		int last = first + KEY_BLOCK < end ? first + KEY_BLOCK : end;
		int32_t lo = g->key[first], hi = lo;
		for (int i = first + 1; i < last; ++i) {
			lo = g->key[i] < lo ? g->key[i] : lo;
			hi = g->key[i] > hi ? g->key[i] : hi;
		}
		job->block_keys[2 * (first / KEY_BLOCK)] = lo;
		job->block_keys[2 * (first / KEY_BLOCK) + 1] = hi;
	}
}

/* Whether block b may hold keys in [lo, hi). */
static inline bool block_meets(const build_job* job, int b, int32_t lo, int32_t hi)
{
	return job->block_keys[2 * b + 1] >= lo && job->block_keys[2 * b] < hi;
}

/* Counting sort, part 1 for bands [begin, end): count the particles of the band's buckets, then
 * turn the counts into the band's local starts. Every band reads every key that may be its own
 * (block_meets) but writes only its own buckets, so bands run in parallel and the result is the
 * serial stable sort's. */
static void band_count(void* ctx, int begin, int end)
{
	build_job* job = ctx;
	pdl_grid* g = job->g;
	int32_t* start = g->start;
	for (int band = begin; band < end; ++band) {
		int32_t lo = job->band_first[band], hi = job->band_first[band + 1];
		memset(start + lo, 0, (size_t)(hi - lo) * sizeof *start);
		for (int first = 0; first < job->n; first += KEY_BLOCK) {
			if (!block_meets(job, first / KEY_BLOCK, lo, hi)) continue;
			int last = first + KEY_BLOCK < job->n ? first + KEY_BLOCK : job->n;
			for (int i = first; i < last; ++i) {
				int32_t k = g->key[i];
				if (k >= lo && k < hi) start[k]++;
			}
		}
		int32_t sum = 0;
		for (int32_t b = lo; b < hi; ++b) {
			int32_t c = start[b];
			start[b] = sum;
			sum += c;
		}
		job->band_total[band] = sum;
	}
}

/* Part 2: place the band's particles in index order (stable), recording each sorted slot's
 * bucket. (Writing slot buckets into key[], which both threads have just read, made every
 * write invalidate the other core's copy: slower on two threads than on one.) */
static void band_scatter(void* ctx, int begin, int end)
{
	build_job* job = ctx;
	pdl_grid* g = job->g;
	int32_t* start = g->start;
	for (int band = begin; band < end; ++band) {
		int32_t lo = job->band_first[band], hi = job->band_first[band + 1];
		int32_t offset = job->band_offset[band];
		for (int32_t b = lo; b < hi; ++b) start[b] += offset;
		for (int first = 0; first < job->n; first += KEY_BLOCK) {
			if (!block_meets(job, first / KEY_BLOCK, lo, hi)) continue;
			int last = first + KEY_BLOCK < job->n ? first + KEY_BLOCK : job->n;
			for (int i = first; i < last; ++i) {
				int32_t k = g->key[i];
				if (k >= lo && k < hi) {
					g->slot_key[start[k]] = k;
					g->order[start[k]++] = i;
				}
			}
		}
	}
}

/* Sorts slots [first, last) of one cell by id: insertion, since a cell holds a few particles
 * that mostly come in the id order they had at the last build. */
static void cell_by_id(int32_t* order, const uint32_t* id, int32_t first, int32_t last)
{
	for (int32_t k = first + 1; k < last; ++k) {
		int32_t moving = order[k];
		uint32_t key = id[moving];
		int32_t at = k;
		for (; at > first && id[order[at - 1]] > key; --at) order[at] = order[at - 1];
		order[at] = moving;
	}
}

/* Part 3, once every band has scattered: start[b] now holds the end of bucket b; walk the
 * band's buckets down, moving each start back to its bucket's first slot. Then, with ids, each
 * bucket's slots in id order: where the particles are stored then plays no part in the order,
 * so a world that holds a part of another plus copies of its neighbours' particles (ghosts,
 * appended in any order) sorts each cell as the whole world does (partition.h). */
static void band_finish(void* ctx, int begin, int end)
{
	build_job* job = ctx;
	int32_t* start = job->g->start;
	for (int band = begin; band < end; ++band) {
		int32_t lo = job->band_first[band], hi = job->band_first[band + 1];
		for (int32_t b = hi - 1; b > lo; --b) start[b] = start[b - 1];
		if (hi > lo) start[lo] = job->band_offset[band];
		if (!job->id || hi <= lo) continue;
		int32_t band_end = job->band_offset[band] + job->band_total[band];
		for (int32_t b = lo; b < hi; ++b) {
			int32_t last = b + 1 < hi ? start[b + 1] : band_end;
			if (last - start[b] > 1) cell_by_id(job->g->order, job->id, start[b], last);
		}
	}
}

/* floor(a / b) for b > 0 */
static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Row slabs (grid.h) over `rows` rows of `row` buckets each: slab s holds the rows of global
 * slab k0 + s, k0 even. False (nothing changed) when the slabs do not fit and no memory is
 * left for them. */
static bool split_row_slabs(pdl_grid* g, int n, int32_t row, int rows)
{
	const int reach = g->reach;
	long long row0 = g->dims == 3 ? g->z0 : g->y0; /* the global index of row 0 */
	long long first = floor_div(row0, reach), last = floor_div(row0 + rows - 1, reach);
	long long k0 = first - (first & 1); /* even: slab 0 is empty when `first` is odd */
	long long count = last - k0 + 1;
	if (count > INT32_MAX / 2) return false;
	if (count > g->slab_capacity) {
		int want = g->slab_capacity > 0 ? g->slab_capacity : PDL_GRID_MAX_SLABS;
		while (want < count) want *= 2;
		if (!grow_slabs(g, want)) return false;
	}
	g->slab_count = (int)count;
	g->slab_start[0] = 0;
	for (long long k = k0 + 1; k <= last; ++k) {
		long long r = k * reach - row0; /* the slab's first row; r <= 0 before `first` */
		g->slab_start[k - k0] = r <= 0 ? 0 : g->start[r * row];
	}
	g->slab_start[count] = n;
	return true;
}

/* The slabs of a dense grid (grid.h): row slabs when asked for (and they fit); else close a
 * slab at the end of a row (layer) once it is `reach` rows deep and holds its share of the
 * particles. */
static void split_slabs(pdl_grid* g, int n)
{
	int32_t row = g->dims == 3 ? g->nx * g->ny : g->nx; /* buckets per row (layer) */
	int rows = g->dims == 3 ? g->nz : g->ny;
	if (g->row_slabs && split_row_slabs(g, n, row, rows)) return;
	int32_t share = (n + PDL_GRID_SLAB_TARGET - 1) / PDL_GRID_SLAB_TARGET;
	if (share < 1) share = 1;
	g->slab_count = 0;
	g->slab_start[0] = 0;
	int first_row = 0;
	for (int r = 0; r + 1 < rows && g->slab_count + 1 < PDL_GRID_MAX_SLABS; ++r) {
		int32_t end = g->start[(r + 1) * row];
		if (r + 1 - first_row >= g->reach && end - g->slab_start[g->slab_count] >= share && end < n) {
			g->slab_start[++g->slab_count] = end;
			first_row = r + 1;
		}
	}
	g->slab_start[++g->slab_count] = n;
}

void pdl_grid_build(pdl_grid* g, pdl_pool* pool, int n, const float* x, const float* y,
                    const float* z, const uint32_t* id, float h)
{
	g->dims = z ? 3 : 2;
	g->reach = z ? PDL_GRID_CELLS_PER_H_3D : PDL_GRID_CELLS_PER_H_2D;
	g->inv_cell = (float)g->reach / h;
	build_job* job = g->job;
	job->g = g;
	job->x = x;
	job->y = y;
	job->z = z;
	job->id = g->cells_by_id ? id : NULL;
	job->n = n;
	/* The occupied cell range decides between dense and hashed cells. */
	job->grain = n / GRID_MAX_CHUNKS + 1;
	if (job->grain < 1024) job->grain = 1024;
	int chunks = (n + job->grain - 1) / job->grain;
	int lo_hi[6] = {0};
	if (n > 0) {
		pdl_pool_for(pool, n, job->grain, chunk_bounds, job);
		memcpy(lo_hi, job->bounds[0], sizeof lo_hi);
		for (int c = 1; c < chunks; ++c)
			for (int k = 0; k < 6; k += 2) {
				const int* b = job->bounds[c];
				lo_hi[k] = b[k] < lo_hi[k] ? b[k] : lo_hi[k];
				lo_hi[k + 1] = b[k + 1] > lo_hi[k + 1] ? b[k + 1] : lo_hi[k + 1];
			}
	}
	/* The grid's axes. In 3D the slowest is the world axis with the most cells: the pair passes
	 * split the particles into slabs of whole layers of it (split_slabs), and a wide, shallow
	 * pool, such as a settled dam break 10 cells across z and 29 along x, then has 25-26 slabs
	 * instead of 10 for the threads to share (a thread's last slab of a pass may leave the other
	 * idle: the fewer the slabs, the longer). The fastest is the next widest, so that fewer
	 * runs of a neighbourhood are cut short at the grid's ends. Ties keep the world's order (z
	 * slowest, x fastest). The choice depends only on the positions, like every other part of
	 * the build, so never on the thread count. */
	const float* world_axis[3] = {x, y, z};
	if (!z || !g->fixed_axes) g->axis_of[0] = 0, g->axis_of[1] = 1, g->axis_of[2] = 2;
	if (z) {
		long long cells[3];
		for (int a = 0; a < 3; ++a) cells[a] = (long long)lo_hi[2 * a + 1] - lo_hi[2 * a] + 1;
		int slow = 2;
		for (int a = 1; a >= 0; --a) slow = cells[a] > cells[slow] ? a : slow;
		int fast = slow == 0 ? 1 : 0, mid = 3 - slow - fast;
		if (cells[mid] > cells[fast]) fast = mid, mid = 3 - slow - fast;
		if (g->fixed_axes) fast = g->axis_of[0], mid = g->axis_of[1], slow = g->axis_of[2];
		g->axis_of[0] = fast, g->axis_of[1] = mid, g->axis_of[2] = slow;
		int world_lo_hi[6];
		memcpy(world_lo_hi, lo_hi, sizeof lo_hi);
		for (int k = 0; k < 3; ++k) {
			lo_hi[2 * k] = world_lo_hi[2 * g->axis_of[k]];
			lo_hi[2 * k + 1] = world_lo_hi[2 * g->axis_of[k] + 1];
		}
		job->x = world_axis[fast];
		job->y = world_axis[mid];
		job->z = world_axis[slow];
	}
	/* The table in use depends only on n, never on the capacity reserved, so a world restored
	 * from a snapshot (with another capacity) hashes cells exactly as the original did. */
	uint32_t table = 1024;
	while (table < 4u * (uint32_t)n) table <<= 1;
	long long nx = (long long)lo_hi[1] - lo_hi[0] + 1, ny = (long long)lo_hi[3] - lo_hi[2] + 1;
	long long nz = (long long)lo_hi[5] - lo_hi[4] + 1;
	/* (each factor is below 2^31, so compare in steps that cannot overflow) */
	long long dense_limit = g->dense_cells > table ? g->dense_cells : table;
	g->dense = nx * ny <= dense_limit && nx * ny * nz <= dense_limit;
	g->table_used = table;
	g->x0 = lo_hi[0];
	g->y0 = lo_hi[2];
	g->z0 = lo_hi[4];
	g->nx = g->dense ? (int)nx : 0;
	g->ny = g->dense ? (int)ny : 0;
	g->nz = g->dense ? (int)nz : 0;
	int32_t buckets = g->dense ? (int32_t)(nx * ny * nz) : (int32_t)table;

	pdl_pool_for(pool, n, 1024, compute_keys, job);

	/* Stable counting sort in bands of buckets. The band edges only balance the work (the
	 * keys in the last sort's order are nearly sorted, so they split the particles about
	 * evenly); the sorted result is the same for any edges, so for any thread count. */
	int bands = pdl_pool_threads(pool);
	if (bands > GRID_MAX_BANDS) bands = GRID_MAX_BANDS;
	/* one band for small jobs: about n + buckets / 4 operations (a sparse dense grid, such as
	 * the bodies' boundary particles over a dam break, walks many empty buckets) */
	if ((long long)n + buckets / 4 < 8192) bands = 1;
	job->band_first[0] = 0;
	for (int b = 1; b < bands; ++b) {
		int32_t edge = g->key[(long long)n * b / bands];
		job->band_first[b] = edge > job->band_first[b - 1] ? edge : job->band_first[b - 1];
	}
	job->band_first[bands] = buckets;
	pdl_pool_for(pool, bands, 1, band_count, job);
	int32_t offset = 0;
	for (int b = 0; b < bands; ++b) {
		job->band_offset[b] = offset;
		offset += job->band_total[b];
	}
	pdl_pool_for(pool, bands, 1, band_scatter, job);
	pdl_pool_for(pool, bands, 1, band_finish, job);
	g->start[buckets] = n;
	if (g->dense) split_slabs(g, n);
}

static void runs_of_cell(const pdl_grid* g, int cx, int cy, int cz, pdl_grid_runs* runs);
int pdl_grid_runs_in_box(const pdl_grid* g, const float lo[3], const float hi[3], int32_t* begin, int32_t* end,
                         int max)
{
	if (!g->dense) return -1;
	int a[3], b[3];
	const int first[3] = {g->x0, g->y0, g->z0}, cells[3] = {g->nx, g->ny, g->nz};
	for (int k = 0; k < 3; ++k) {
		if (k == 2 && g->dims == 2) {
			a[k] = b[k] = g->z0;
			continue;
		}
		int axis = g->axis_of[k];
		a[k] = cell_coord(lo[axis], g->inv_cell), b[k] = cell_coord(hi[axis], g->inv_cell);
		if (a[k] < first[k]) a[k] = first[k];
		if (b[k] > first[k] + cells[k] - 1) b[k] = first[k] + cells[k] - 1;
		if (a[k] > b[k]) return 0;
	}
	int count = 0;
	for (int layer = a[2]; layer <= b[2]; ++layer)
		for (int row = a[1]; row <= b[1]; ++row) {
			int base = ((layer - g->z0) * g->ny + (row - g->y0)) * g->nx - g->x0;
			int32_t from = g->start[base + a[0]], to = g->start[base + b[0] + 1];
			if (from >= to) continue;
			if (count == max) return -1;
			begin[count] = from, end[count] = to;
			count++;
		}
	return count;
}


void pdl_grid_runs_around(const pdl_grid* g, float px, float py, float pz, pdl_grid_runs* runs)
{
	pdl_grid_cell cached = {.valid = false};
	pdl_grid_runs_near(g, px, py, pz, runs, &cached);
}

void pdl_grid_runs_near(const pdl_grid* g, float px, float py, float pz, pdl_grid_runs* runs, pdl_grid_cell* cached)
{
	const float world[3] = {px, py, pz};
	float gx = world[g->axis_of[0]], gy = world[g->axis_of[1]], gz = world[g->axis_of[2]];
	const int c[3] = {cell_coord(gx, g->inv_cell), cell_coord(gy, g->inv_cell), g->dims == 3 ? cell_coord(gz, g->inv_cell) : 0};
	if (cached->valid && c[0] == cached->c[0] && c[1] == cached->c[1] && c[2] == cached->c[2]) return;
	cached->valid = true;
	memcpy(cached->c, c, sizeof c);
	runs_of_cell(g, c[0], c[1], c[2], runs);
}

void pdl_grid_runs_of(const pdl_grid* g, int i, float px, float py, float pz, pdl_grid_runs* runs,
                      pdl_grid_cell* cached)
{
	if (!g->dense) { /* a bucket may hold several cells: locate the particle itself */
		pdl_grid_runs_near(g, px, py, pz, runs, cached);
		return;
	}
	int32_t bucket = g->slot_key[i];
	if (cached->valid && bucket == cached->c[0]) return;
	cached->valid = true, cached->c[0] = bucket;
	int32_t row = bucket / g->nx;
	runs_of_cell(g, g->x0 + bucket % g->nx, g->y0 + row % g->ny, g->z0 + row / g->ny, runs);
}

void pdl_grid_runs_after(const pdl_grid* g, int i, pdl_grid_runs* runs, int32_t* cached)
{
	int32_t bucket = g->slot_key[i];
	if (bucket == *cached) return;
	*cached = bucket;
	runs->count = 0;
	const int reach = g->reach, nx = g->nx, ny = g->ny;
	const int32_t cx = bucket % nx, row = bucket / nx, cy = row % ny, cz = row / ny;
	const int lo = cx - reach < 0 ? 0 : cx - reach, hi = cx + reach >= nx ? nx - 1 : cx + reach;
	const int reach_z = g->dims == 3 ? reach : 0;
	/* rows in sorted order: the particle's own from its cell on, the later rows of its layer,
	 * then every row of the later layers; the earlier ones hold only slots before i */
	for (int layer = cz; layer <= cz + reach_z && layer < g->nz; ++layer) {
		int first_row = layer == cz ? cy : (cy - reach < 0 ? 0 : cy - reach);
		for (int r = first_row; r <= cy + reach && r < ny; ++r) {
			int32_t base = (layer * ny + r) * nx;
			int32_t b = g->start[base + (layer == cz && r == cy ? cx : lo)], e = g->start[base + hi + 1];
			if (b < e) {
				runs->begin[runs->count] = b;
				runs->end[runs->count] = e;
				runs->count++;
			}
		}
	}
}

static void runs_of_cell(const pdl_grid* g, int cx, int cy, int cz, pdl_grid_runs* runs)
{
	runs->count = 0;
	int reach = g->reach, reach_z = g->dims == 3 ? reach : 0;
	if (g->dense) {
		int lo = cx - reach < g->x0 ? g->x0 : cx - reach;
		int hi = cx + reach >= g->x0 + g->nx ? g->x0 + g->nx - 1 : cx + reach;
		int row_lo = cy - reach < g->y0 ? g->y0 : cy - reach;
		int row_hi = cy + reach >= g->y0 + g->ny ? g->y0 + g->ny - 1 : cy + reach;
		if (lo > hi || row_lo > row_hi) return;
		for (int layer = cz - reach_z; layer <= cz + reach_z; ++layer) {
			if (layer < g->z0 || layer >= g->z0 + g->nz) continue;
			/* each row's cells [lo, hi] are one run of slots; an empty one is written and not counted */
			const int32_t* row = g->start + ((layer - g->z0) * g->ny + (row_lo - g->y0)) * g->nx - g->x0;
			for (int r = row_lo; r <= row_hi; ++r, row += g->nx) {
				int32_t b = row[lo], e = row[hi + 1];
				runs->begin[runs->count] = b;
				runs->end[runs->count] = e;
				runs->count += b < e;
			}
		}
		return;
	}
	/* Hashed: one bucket per cell, skipping a bucket already listed (cells may share one). Only
	 * non-empty buckets are listed, and two of them are the same bucket exactly when they start
	 * at the same slot, so the check runs over the runs listed so far (in a sparse world most
	 * neighbouring cells are empty: this was the step's largest cost there, checking all 25).
	 * A 128-bit filter of the listed starts skips the check for nearly every new bucket. */
	uint64_t listed[2] = {0, 0};
	for (int dz = -reach_z; dz <= reach_z; ++dz) {
		for (int dy = -reach; dy <= reach; ++dy) {
			for (int dx = -reach; dx <= reach; ++dx) {
				uint32_t b = hash_cell(cx + dx, cy + dy, cz + dz, g->table_used - 1);
				int32_t from = g->start[b], to = g->start[b + 1];
				if (from >= to) continue;
				uint32_t bit = ((uint32_t)from * 0x9e3779b1u) >> 25; /* 7 bits of the start, mixed */
				if (listed[bit >> 6] >> (bit & 63) & 1) {
					bool dup = false;
					for (int k = 0; k < runs->count; ++k) dup |= runs->begin[k] == from;
					if (dup) continue;
				}
				listed[bit >> 6] |= 1ull << (bit & 63);
				runs->begin[runs->count] = from;
				runs->end[runs->count] = to;
				runs->count++;
			}
		}
	}
}
