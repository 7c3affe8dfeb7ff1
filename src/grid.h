/* Internal: the uniform neighbour grid. Cells are h/2 x h/2 squares; particles are
 * counting-sorted by cell so that each cell's particles are one run of `order`, and a
 * particle's neighbours within h lie in the 5 x 5 cells around its own. While the occupied
 * cells fit in the table the grid is dense (row-major, so the five cells of a row are one
 * contiguous run: five runs in all); when particles spread over a huge area it hashes cells
 * instead, so unbounded worlds work with the same memory.
 *
 * Why h/2: the 5 x 5 block of h/2 cells is 2.5h wide against 3h for 3 x 3 cells of size h,
 * so a particle checks 6.25 h^2 of candidates instead of 9 h^2 (the disc it needs is pi h^2). */
#ifndef PUDDLE_GRID_H
#define PUDDLE_GRID_H

#include "pool.h"

#include <stdbool.h>
#include <stdint.h>

struct build_job; /* grid.c: the state of a parallel build */

typedef struct pdl_grid {
	float inv_cell;       /* 1 / cell size = 2 / h */
	bool dense;
	int x0, y0, nx, ny;   /* dense: cell (cx, cy) is bucket (cy - y0) * nx + (cx - x0) */
	uint32_t table_size;  /* buckets allocated: power of two, >= 4 * particle capacity */
	uint32_t table_used;  /* buckets of the last build: power of two, >= 4 * particle count */
	int capacity;         /* particles the arrays hold */
	int32_t* start;       /* table_size + 1: bucket b's particles are order[start[b] .. start[b+1]) */
	int32_t* key;         /* each particle's bucket, in the order before the sort */
	int32_t* slot_key;    /* each sorted slot's bucket */
	int32_t* order;       /* sorted slot -> particle index, stable in particle index */
	struct build_job* job; /* scratch of pdl_grid_build, allocated by pdl_grid_reserve */
} pdl_grid;

/* Cells on each side of a particle's own cell that can hold neighbours within h. */
#define PDL_GRID_REACH 2
#define PDL_GRID_SPAN (2 * PDL_GRID_REACH + 1)

/* Runs [begin, end) of order[] that cover the 5 x 5 cells around a point: one per row when
 * dense, up to one per cell when hashed. */
typedef struct pdl_grid_runs {
	int count;
	int32_t begin[PDL_GRID_SPAN * PDL_GRID_SPAN], end[PDL_GRID_SPAN * PDL_GRID_SPAN];
} pdl_grid_runs;

bool pdl_grid_reserve(pdl_grid* grid, int particles);
void pdl_grid_free(pdl_grid* grid);
/* Sorts particles [0, n) into cells of size h/2 (never allocates). */
void pdl_grid_build(pdl_grid* grid, pdl_pool* pool, int n, const float* x, const float* y, float h);
/* The runs of the cells around (px, py) that can hold points within h of it. */
void pdl_grid_runs_around(const pdl_grid* grid, float px, float py, pdl_grid_runs* runs);
/* The runs around the cell particle i was sorted into (at (px, py) when the grid was built).
 * Consecutive particles of one cell share their runs: `cached` remembers the last bucket, start
 * it at -1. The result depends only on the particle's bucket, never on which particles came
 * before it, so it is the same however the loop is split between threads. */
void pdl_grid_runs_of(const pdl_grid* grid, int i, float px, float py, pdl_grid_runs* runs,
                      int32_t* cached);

#endif
