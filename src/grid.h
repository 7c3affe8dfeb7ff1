/* Internal: the uniform neighbour grid. Cells are h x h squares; particles are counting-sorted
 * by cell so that each cell's particles are one run of `order`. While the occupied cells fit
 * in the table the grid is dense (row-major, and the three cells of a row are one contiguous
 * run); when particles spread over a huge area it hashes cells instead, so unbounded worlds
 * work with the same memory. */
#ifndef PUDDLE_GRID_H
#define PUDDLE_GRID_H

#include "pool.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct pdl_grid {
	float inv_h;
	bool dense;
	int x0, y0, nx, ny;   /* dense: cell (cx, cy) is bucket (cy - y0) * nx + (cx - x0) */
	uint32_t table_size;  /* power of two, >= 2 * particle capacity */
	int capacity;         /* particles the arrays hold */
	int32_t* start;       /* table_size + 1: bucket b's particles are order[start[b] .. start[b+1]) */
	int32_t* key;         /* per sorted slot: its bucket (per particle while sorting) */
	int32_t* order;       /* sorted slot -> particle index, stable in particle index */
} pdl_grid;

/* Up to 9 runs [begin, end) of order[] that cover the 3 x 3 cells around a point. */
typedef struct pdl_grid_runs {
	int count;
	int32_t begin[9], end[9];
} pdl_grid_runs;

bool pdl_grid_reserve(pdl_grid* grid, int particles);
void pdl_grid_free(pdl_grid* grid);
/* Sorts particles [0, n) into cells of size h (never allocates). */
void pdl_grid_build(pdl_grid* grid, pdl_pool* pool, int n, const float* x, const float* y, float h);
/* The runs of the cells around (px, py) within one cell. */
void pdl_grid_runs_around(const pdl_grid* grid, float px, float py, pdl_grid_runs* runs);
/* The runs around the cell particle i was sorted into (at (px, py) when the grid was built).
 * Consecutive particles of one cell share their runs: `cached` remembers the last bucket, start
 * it at -1. The result depends only on the particle's bucket, never on which particles came
 * before it, so it is the same however the loop is split between threads. */
void pdl_grid_runs_of(const pdl_grid* grid, int i, float px, float py, pdl_grid_runs* runs,
                      int32_t* cached);

#endif
