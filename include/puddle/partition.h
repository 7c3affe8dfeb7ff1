/* puddle: what a world split over several processes needs from the core (docs/mpi.md).
 *
 * A process of a split world (mpi/, the Open MPI layer) holds the particles of its slab and a
 * halo around it, steps them as an ordinary world and keeps its slab's. Its owned particles come
 * out with the same bits as in the whole world when every sum over neighbours runs in the same
 * order, which the neighbour grid decides: the order of its axes (3D: chosen from the particles'
 * own extent unless fixed here), whether it lays cells out densely or hashes them (the two use
 * different passes), and the particles' order within a cell (their storage order: the layer
 * stores them in id order), and, in the passes that visit each pair once, where their slabs
 * split the particles (row_slabs fixes that). This header lets the caller fix these for every
 * process.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_PARTITION_H
#define PUDDLE_PARTITION_H

#include "puddle/puddle.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How the world's neighbour grid is laid out, the same in every process of a split world. */
typedef struct pdl_grid_frame {
	/** 3D: the world axes (0 x, 1 y, 2 z) of the grid's fastest, middle and slowest axis, a
	 * permutation of 0, 1, 2; or -1, -1, -1 (the default) to choose them from the particles at
	 * every step. Ignored in 2D (x fastest). */
	int axes[3];
	/** Lay cells out densely up to this many cells (in [0, 2^26]; 0: the default, up to 4 per
	 * particle), so that a process's slab and the whole world both stay dense. */
	uint32_t dense_cells;
	/** Each particle sums its own neighbours (as on a hashed grid) instead of each pair being
	 * visited once: about 1.5x the relaxation's work, but the order of every sum then depends
	 * only on the sorted particles, where the pair passes' depends on where their slabs fall,
	 * which depends on how many particles the world holds. Default false. */
	bool gather_passes;
	/** The passes that visit each pair once split the particles into slabs at fixed rows of
	 * cells (one h deep, counted from the origin) instead of into slabs of equal particle
	 * counts, so that the order of every sum depends only on the sorted particles there too: a
	 * process of a split world adds to each of its particles in the same order as the whole
	 * world, and keeps the pair passes' speed. Should the slabs not fit in memory, the step
	 * falls back to slabs by count. Default false. */
	bool row_slabs;
} pdl_grid_frame;

/** The cells of the world's neighbour grid that the box [lo, hi] (world units; z ignored in
 * 2D) spans: what dense_cells must reach for a grid over that box to be dense. 0 when the box
 * is empty or not finite. (The cells are h / 2 wide in 2D and h in 3D; callers need not know.) */
double pdl_world_grid_cells(const pdl_world* world, pdl_vec3 lo, pdl_vec3 hi);
/** The substeps a step of this world takes by the SPH solver's CFL rule (src/sph.c) when its
 * fastest particle's squared speed is fastest_speed2 ((world units / s)^2), with gravity, the
 * materials and the pointers as they are now; the Clavet solver's are def.substeps. A split
 * world's processes each hold a part, so the layer gives it the largest squared speed of them
 * all: every process then takes the substeps one process would. */
int pdl_world_cfl_substeps(const pdl_world* world, float fastest_speed2);
/** The next pdl_world_step takes exactly `substeps` substeps instead of those of its CFL rule
 * over its own particles; the steps after it go back to the rule. The SPH solver only.
 * PDL_ERR_NEXT_SUBSTEPS (nothing changed) outside [1, def.sph.max_substeps] or for Clavet. */
pdl_error_id pdl_world_set_next_substeps(pdl_world* world, int substeps, pdl_error* err);
/** The default frame: axes -1, -1, -1, dense_cells 0, gather_passes and row_slabs false. */
pdl_grid_frame pdl_default_grid_frame(void);
/** Sets the world's grid frame. Fails (nothing changed) with PDL_ERR_GRID_FRAME_AXES when the
 * axes are neither a permutation of 0, 1, 2 nor all -1, PDL_ERR_GRID_FRAME_DENSE_CELLS past 2^26. */
pdl_error_id pdl_world_set_grid_frame(pdl_world* world, const pdl_grid_frame* frame, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
