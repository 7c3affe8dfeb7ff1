/* Internal: the uniform neighbour grid. Particles are counting-sorted by cell so that each
 * cell's particles are one run of `order`.
 *
 * 2D: cells are h/2 x h/2 squares and a particle's neighbours within h lie in the 5 x 5 cells
 * around its own. Why h/2: the 5 x 5 block is 2.5h wide against 3h for 3 x 3 cells of size h,
 * so a particle checks 6.25 h^2 of candidates instead of 9 h^2 (the disc it needs is pi h^2).
 * 3D: cells of PDL_GRID_CELLS_PER_H_3D per h; with 1 that is the classic 27-cell search.
 *
 * While the occupied cells fit in the table the grid is dense (x fastest, then y, then z, in
 * the grid's own axes, axis_of below; so the cells of one row around a particle are one
 * contiguous run: 5 runs in 2D, 9 or 25 in 3D); when particles spread over a huge volume it
 * hashes cells instead, so unbounded worlds work with the same memory. */
#ifndef PUDDLE_GRID_H
#define PUDDLE_GRID_H

#include "pool.h"

#include <stdbool.h>
#include <stdint.h>

struct build_job; /* grid.c: the state of a parallel build */

/* Slabs, for the neighbour passes that visit each pair once (relax.c): dense grids split the
 * sorted particles at whole rows of cells (2D) or layers (3D) into slabs of at least `reach`
 * rows (layers), all but the last, so the neighbours after a particle in the sorted order lie
 * in its own slab or the next. About PDL_GRID_SLAB_TARGET slabs of similar particle counts; the
 * split depends on the particles only, never on the thread count.
 *
 * Row slabs (pdl_grid_frame.row_slabs, for the processes of a split world): instead, global
 * slab k is the `reach` rows (layers) from cell row k reach, counted from the cell at the
 * origin, and the grid's slab s is global slab k0 + s with k0 even (slab 0 is left empty when
 * the first occupied row's slab is odd). A particle then lies in the slab of the same index
 * parity in every world that holds it with its neighbours, so a pass over pairs adds to it in
 * the same order whatever else the world holds (relax_loops.h). The first slab may be shorter
 * than `reach` rows: nothing lies before it. */
#define PDL_GRID_SLAB_TARGET 64
#define PDL_GRID_MAX_SLABS (PDL_GRID_SLAB_TARGET + 1)

typedef struct pdl_grid {
	float inv_cell;       /* 1 / cell size: 2 / h in 2D */
	int dims;             /* 2 or 3 */
	int reach;            /* cells on each side of a particle's own that can hold neighbours */
	bool dense;
	/* The grid's axes x, y, z (x fastest in memory, z slowest) are the world's axes
	 * axis_of[0..2]. 2D: the world's x and y. 3D: z is the world axis with the most cells and x
	 * the next, so a wide flat pool gets as many slabs (layers of z) as it can (see
	 * pdl_grid_build). Every coordinate below is in grid axes. */
	int axis_of[3];
	/* dense: cell (cx, cy, cz) is bucket ((cz - z0) ny + (cy - y0)) nx + (cx - x0); 2D: z0 = 0,
	 * nz = 1 */
	int x0, y0, z0, nx, ny, nz;
	uint32_t table_size;  /* buckets allocated: power of two, >= 4 * particle capacity */
	uint32_t table_used;  /* buckets of the last build: power of two, >= 4 * particle count */
	uint32_t dense_cells; /* a build may lay the cells out densely up to this many buckets even
	                       * beyond the table (pdl_grid_allow_dense; 0: up to the table) */
	bool fixed_axes;      /* 3D: axis_of is set by the caller (pdl_world_set_grid_frame), not
	                       * chosen from the particles at each build */
	uint32_t start_size;  /* entries of start, less one */
	int capacity;         /* particles the arrays hold */
	int32_t* start;       /* table_size + 1: bucket b's particles are order[start[b] .. start[b+1]) */
	int32_t* key;         /* each particle's bucket, in the order before the sort */
	int32_t* slot_key;    /* each sorted slot's bucket */
	int32_t* order;       /* sorted slot -> particle index, stable in particle index (or in id) */
	bool row_slabs;       /* slabs at fixed rows (above), not by particle count */
	bool cells_by_id;     /* each cell's particles in id order (pdl_grid_build's ids), not in
	                       * their storage order (pdl_grid_frame.cells_by_id) */
	int slab_count;       /* dense only: slab s is sorted slots slab_start[s] .. slab_start[s + 1] */
	int slab_capacity;    /* slabs slab_start and slab_done hold: PDL_GRID_MAX_SLABS, more for
	                       * row slabs */
	int32_t* slab_start;  /* slab_capacity + 1 */
	atomic_int* slab_done; /* slab_capacity: each pass over pairs' flags (relax.c) */
	struct build_job* job; /* scratch of pdl_grid_build, allocated by pdl_grid_reserve */
} pdl_grid;

/* Cells per h: 2 in 2D (see above); in 3D 1 (27 cells of h^3: 27 h^3 of candidates in 9 runs)
 * or 2 (125 cells of h^3/8: 15.6 h^3 in 25 runs, for the sphere's 4.2 h^3). */
#define PDL_GRID_CELLS_PER_H_2D 2
#ifndef PDL_GRID_CELLS_PER_H_3D
#define PDL_GRID_CELLS_PER_H_3D 1
#endif
/* Most runs a neighbourhood can have: one per cell when hashed (5 x 5 in 2D, up to 5 x 5 x 5
 * in 3D). */
#define PDL_GRID_MAX_RUNS 125

/* Runs [begin, end) of order[] that cover the cells around a point: one per row when dense,
 * up to one per cell when hashed. */
typedef struct pdl_grid_runs {
	int count;
	int32_t begin[PDL_GRID_MAX_RUNS], end[PDL_GRID_MAX_RUNS];
} pdl_grid_runs;

/* The cell of a coordinate in cells of 1 / inv_cell (grid.c's cell_coord: clamped, also NaN). */
int pdl_grid_cell_of(float v, float inv_cell);

bool pdl_grid_reserve(pdl_grid* grid, int particles);
void pdl_grid_free(pdl_grid* grid);
/* Lets later builds lay out up to `cells` cells densely (one bucket each, no hashing), however
 * few the particles: a grid of few particles spread wide (the bodies' boundary particles) is
 * otherwise hashed, and a hashed lookup of a neighbourhood costs 25 hashes in 2D against 5 rows.
 * The choice still depends only on the positions. False when out of memory (builds then hash). */
bool pdl_grid_allow_dense(pdl_grid* grid, uint32_t cells);
/* Sorts particles [0, n) into cells (never allocates). z is NULL in 2D. Within a cell they keep
 * their storage order, or, with cells_by_id and `id` given, go in the order of their ids. */
void pdl_grid_build(pdl_grid* grid, pdl_pool* pool, int n, const float* x, const float* y,
                    const float* z, const uint32_t* id, float h);
/* The runs of a dense grid's cells that meet the world box [lo, hi] (2D: z ignored), one per
 * row of cells, into begin/end (at most `max`). Returns their count, or -1 when the grid is
 * hashed or the box needs more than `max` runs. */
int pdl_grid_runs_in_box(const pdl_grid* grid, const float lo[3], const float hi[3], int32_t* begin, int32_t* end,
                         int max);
/* The runs of the cells around (px, py, pz) that can hold points within h of it (2D: pz is
 * ignored). */
void pdl_grid_runs_around(const pdl_grid* grid, float px, float py, float pz, pdl_grid_runs* runs);
/* The same for a run of points that often share a cell (the fluid particles near the bodies, in
 * the fluid's sorted order, against the bodies' grid): `runs` is left as it is when the point's
 * cell is `cached`'s (start with .valid = false). */
typedef struct pdl_grid_cell {
	bool valid;
	int c[3];
} pdl_grid_cell;
void pdl_grid_runs_near(const pdl_grid* grid, float px, float py, float pz, pdl_grid_runs* runs, pdl_grid_cell* cached);
/* The runs around the cell particle i was sorted into (at (px, py, pz) when the grid was built).
 * Consecutive particles of one cell share their runs: `cached` remembers the last bucket (dense
 * grids, in c[0]) or cell (hashed grids, whose buckets may hold several cells); start it with
 * .valid = false. The result depends only on the particle's bucket or cell, never on which
 * particles came before it, so it is the same however the loop is split between threads. */
void pdl_grid_runs_of(const pdl_grid* grid, int i, float px, float py, float pz,
                      pdl_grid_runs* runs, pdl_grid_cell* cached);

/* Dense grids: the runs around slot i's cell that hold the slots after it in sorted order
 * (its own row from its cell on and the rows after: 3 runs in 2D instead of 5, 5 instead of 9
 * in 3D), for the passes over each pair once. Each run still starts where the full
 * neighbourhood's would, or at i's cell; the caller starts at i + 1. */
void pdl_grid_runs_after(const pdl_grid* grid, int i, pdl_grid_runs* runs, int32_t* cached);

#endif
