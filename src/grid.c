/* The neighbour grid: cell keys, counting sort, neighbour runs. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cell coordinate of a position, clamped so that inf, NaN or huge positions still give a valid
 * integer (fmaxf returns the non-NaN argument), never undefined behaviour. */
static inline int cell_coord(float v, float inv_h)
{
	float c = floorf(v * inv_h);
	if (!(c >= -1.0e9f)) c = -1.0e9f; /* also NaN */
	if (!(c <= 1.0e9f)) c = 1.0e9f;
	return (int)c;
}


static inline uint32_t hash_cell(int cx, int cy, uint32_t mask)
{
	uint32_t h = (uint32_t)cx * 73856093u ^ (uint32_t)cy * 19349663u;
	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h & mask;
}

static inline int32_t bucket_of(const pdl_grid* g, int cx, int cy)
{
	if (g->dense) return (cy - g->y0) * g->nx + (cx - g->x0);
	return (int32_t)hash_cell(cx, cy, g->table_used - 1);
}

bool pdl_grid_reserve(pdl_grid* g, int particles)
{
	if (particles <= g->capacity && g->start) return true;
	uint32_t table = 1024;
	while (table < 4u * (uint32_t)particles) table <<= 1;
	int32_t* start = realloc(g->start, (table + 1) * sizeof *start);
	if (!start) return false;
	g->start = start;
	int32_t* key = realloc(g->key, (size_t)particles * sizeof *key);
	if (!key) return false;
	g->key = key;
	int32_t* order = realloc(g->order, (size_t)particles * sizeof *order);
	if (!order) return false;
	g->order = order;

	g->table_size = table;
	g->capacity = particles;
	return true;
}

void pdl_grid_free(pdl_grid* g)
{
	free(g->start);
	free(g->key);
	free(g->order);
	memset(g, 0, sizeof *g);
}

typedef struct key_job {
	pdl_grid* g;
	const float *x, *y;
} key_job;

static void compute_keys(void* ctx, int begin, int end)
{
	key_job* job = ctx;
	pdl_grid* g = job->g;
	for (int i = begin; i < end; ++i) {
		int cx = cell_coord(job->x[i], g->inv_cell), cy = cell_coord(job->y[i], g->inv_cell);
		g->key[i] = bucket_of(g, cx, cy);
	}
}

void pdl_grid_build(pdl_grid* g, pdl_pool* pool, int n, const float* x, const float* y, float h)
{
	g->inv_cell = 2.0f / h;
	/* The occupied cell range decides between dense and hashed cells. Min and max are exact,
	 * so this is the same for any thread count. */
	int xmin = 0, xmax = 0, ymin = 0, ymax = 0;
	for (int i = 0; i < n; ++i) {
		int cx = cell_coord(x[i], g->inv_cell), cy = cell_coord(y[i], g->inv_cell);
		if (i == 0 || cx < xmin) xmin = cx;
		if (i == 0 || cx > xmax) xmax = cx;
		if (i == 0 || cy < ymin) ymin = cy;
		if (i == 0 || cy > ymax) ymax = cy;
	}
	/* The table in use depends only on n, never on the capacity reserved, so a world restored
	 * from a snapshot (with another capacity) hashes cells exactly as the original did. */
	uint32_t table = 1024;
	while (table < 4u * (uint32_t)n) table <<= 1;
	long long nx = (long long)xmax - xmin + 1, ny = (long long)ymax - ymin + 1;
	g->dense = nx * ny <= (long long)table;
	g->table_used = table;
	g->x0 = xmin;
	g->y0 = ymin;
	g->nx = g->dense ? (int)nx : 0;
	g->ny = g->dense ? (int)ny : 0;
	uint32_t buckets = g->dense ? (uint32_t)(nx * ny) : table;

	key_job job = {g, x, y};
	pdl_pool_for(pool, n, 4096, compute_keys, &job);

	/* Stable counting sort: count, prefix sum, scatter, then shift the starts back. */
	int32_t* start = g->start;
	memset(start, 0, (buckets + 1) * sizeof *start);
	for (int i = 0; i < n; ++i) start[g->key[i] + 1]++;
	for (uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
	for (int i = 0; i < n; ++i) {
		int32_t slot = start[g->key[i]]++;
		g->order[slot] = i;
	}
	memmove(start + 1, start, buckets * sizeof *start);
	start[0] = 0;
	if (!g->dense) start[buckets] = n;
	/* from here on key[] is by sorted slot: the callers store particles in this order */
	for (uint32_t b = 0; b < buckets; ++b)
		for (int32_t k = start[b]; k < start[b + 1]; ++k) g->key[k] = (int32_t)b;
}

static void runs_of_cell(const pdl_grid* g, int cx, int cy, pdl_grid_runs* runs);

void pdl_grid_runs_around(const pdl_grid* g, float px, float py, pdl_grid_runs* runs)
{
	runs_of_cell(g, cell_coord(px, g->inv_cell), cell_coord(py, g->inv_cell), runs);
}

void pdl_grid_runs_of(const pdl_grid* g, int i, float px, float py, pdl_grid_runs* runs,
                      int32_t* cached)
{
	if (!g->dense) { /* a bucket may hold several cells: locate the particle itself */
		pdl_grid_runs_around(g, px, py, runs);
		return;
	}
	int32_t bucket = g->key[i];
	if (bucket == *cached) return;
	*cached = bucket;
	runs_of_cell(g, g->x0 + bucket % g->nx, g->y0 + bucket / g->nx, runs);
}

static void runs_of_cell(const pdl_grid* g, int cx, int cy, pdl_grid_runs* runs)
{
	runs->count = 0;
	if (g->dense) {
		int lo = cx - PDL_GRID_REACH < g->x0 ? g->x0 : cx - PDL_GRID_REACH;
		int hi = cx + PDL_GRID_REACH >= g->x0 + g->nx ? g->x0 + g->nx - 1 : cx + PDL_GRID_REACH;
		if (lo > hi) return;
		for (int row = cy - PDL_GRID_REACH; row <= cy + PDL_GRID_REACH; ++row) {
			if (row < g->y0 || row >= g->y0 + g->ny) continue;
			int base = (row - g->y0) * g->nx - g->x0;
			int32_t b = g->start[base + lo], e = g->start[base + hi + 1];
			if (b < e) {
				runs->begin[runs->count] = b;
				runs->end[runs->count] = e;
				runs->count++;
			}
		}
		return;
	}
	/* Hashed: one bucket per cell, skipping a bucket already listed (cells may share one). */
	uint32_t seen[PDL_GRID_SPAN * PDL_GRID_SPAN];
	int nseen = 0;
	for (int dy = -PDL_GRID_REACH; dy <= PDL_GRID_REACH; ++dy) {
		for (int dx = -PDL_GRID_REACH; dx <= PDL_GRID_REACH; ++dx) {
			uint32_t b = hash_cell(cx + dx, cy + dy, g->table_used - 1);
			bool dup = false;
			for (int k = 0; k < nseen; ++k) dup |= seen[k] == b;
			if (dup) continue;
			seen[nseen++] = b;
			if (g->start[b] < g->start[b + 1]) {
				runs->begin[runs->count] = g->start[b];
				runs->end[runs->count] = g->start[b + 1];
				runs->count++;
			}
		}
	}
}
