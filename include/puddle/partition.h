/* puddle: what a world split over several processes needs from the core (docs/mpi.md).
 *
 * A process of a split world (mpi/, the Open MPI layer) holds the particles of its slab and
 * either ghosts of its neighbours' particles, refreshed between the step's neighbour passes
 * (below), or a halo wide enough for a whole step; it steps them as an ordinary world and keeps
 * its slab's. Its owned particles come out with the same bits as in the whole world when every
 * sum over neighbours runs in the same order, which the neighbour grid decides: the order of
 * its axes (3D: chosen from the particles' own extent unless fixed here), whether it lays cells
 * out densely or hashes them (the two use different passes), the particles' order within a cell
 * (cells_by_id: by id, not by how they are stored), and, in the passes that visit each pair
 * once, where their slabs split the particles (row_slabs). This header lets the caller fix
 * these for every process, and gives it the ghosts.
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
	/** The particles of each cell in id order rather than in their storage order (which is the
	 * order of the last step's cells, then of whatever was added): the order of every sum then
	 * depends only on which particles lie where, never on how they came to be stored, so a
	 * process may keep its particles from step to step and add ghosts (below) at the end, in
	 * any order. It costs little: 0.35% of a run of the 300k 3D dam break (perf, band_finish,
	 * where the cells are sorted). Default false. */
	bool cells_by_id;
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
/** The grid's cell index of a coordinate on any axis (world units; cells are h / 2 wide in 2D,
 * h in 3D): cells i and j can hold neighbours (within h) only when |i - j| <=
 * pdl_world_cell_reach(). Infinite and NaN coordinates give a clamped index, as in the grid. */
int pdl_world_cell_of(const pdl_world* world, float coordinate);
/** Cells on each side of a particle's own that can hold its neighbours: 2 in 2D, 1 in 3D. */
int pdl_world_cell_reach(const pdl_world* world);

/* ---- Ghosts -------------------------------------------------------------------------------
 *
 * A process of a split world steps its own particles with copies of its neighbours' particles
 * around them (ghosts), refreshed from their owners between the step's neighbour passes, so
 * that a ghost layer one neighbourhood deep is enough (instead of a halo wide enough for a whole
 * step). In a Clavet step (src/clavet.c) each substep calls the world's ghost function twice:
 *
 * - PDL_GHOST_POSITIONS, after the prediction, before the neighbour grid is built: the caller
 *   removes the last ghosts (pdl_world_remove_ghosts) and adds this substep's
 *   (pdl_world_add_ghosts: their owners' predicted positions, velocities, materials and ids).
 *   The densities and viscosity impulses of an own particle are then exact when every particle
 *   whose cell lies within the cell reach of an own particle's cell, on every axis, is in the
 *   world (as its own or as a ghost).
 * - PDL_GHOST_PRESSURES, after the densities: the caller overwrites each ghost's pressure and
 *   near pressure (pdl_world_pressures) with its owner's, which its owner computed from all of
 *   its neighbours. The relaxation of an own particle is then exact too.
 *
 * Each sum then runs in the whole world's order when the grid frame has cells_by_id and
 * row_slabs, the same axes and a dense layout in every process. The SPH solver, springs and
 * Clavet's rigid bodies do not call the ghost function: a split world of those needs a halo
 * for the whole step (mpi/, docs/mpi.md); DFSPH does (below). Ghosts take part in the rest of
 * the step as the world's own particles do, and what they come out with is meaningless: remove
 * them before reading the world (they count in pdl_world_particle_count and the hash). */

/* A DFSPH step (src/dfsph.c) calls the ghost function at PDL_GHOST_POSITIONS too (before each
 * substep's grid, with the positions and velocities the substep starts from), and then, because
 * its two pressure solves iterate, at many more points of the substep:
 *
 * - PDL_GHOST_FIELDS: the caller overwrites each ghost's values of the arrays the view lists
 *   (pdl_ghost_view.fields, field_count of them, per particle in storage order) with its
 *   owner's. The ghosts and their storage order are those of the substep's grid, as at
 *   PDL_GHOST_PRESSURES. Called at the start of each solve (its warm-start pressure), after
 *   each pass that changes velocities (the pressure passes, the viscosity pass: velocities)
 *   and, with surface tension, after the density pass (densities, surface normals).
 * - PDL_GHOST_ERROR: in each iteration of each solve, the caller replaces view.error (this
 *   process's own particles' error terms) with the sum over every process
 *   (pdl_ghost_error_add): every process then ends each solve after the same iteration. In
 *   the same exchange it hands the ghosts their owners' values of view.fields, as at
 *   PDL_GHOST_FIELDS (the iteration's pressure change, which the next pressure pass reads;
 *   one collective instead of two).
 *
 * An own particle's every sum then runs over the same neighbours with the same values, in the
 * same order, as in the whole world, and each solve takes the whole world's iterations. */

/** When a ghost function is called (above). */
typedef enum pdl_ghost_stage {
	PDL_GHOST_POSITIONS, /**< after the prediction: remove the old ghosts, add the new */
	PDL_GHOST_PRESSURES, /**< after the densities: the ghosts' pressures from their owners */
	PDL_GHOST_FIELDS,    /**< DFSPH: the ghosts' values of view.fields from their owners */
	PDL_GHOST_ERROR,     /**< DFSPH: view.error summed over every process, and view.fields */
} pdl_ghost_stage;

/** A DFSPH solve's error terms (its |b_i| over the particles, src/dfsph.c), summed so that the
 * sum is the same bits in any order and over any split: each |b_i| as the integer
 * floor(|b_i| 2^64) (values from 2^32 on count as 2^32; the largest is kept exactly, so such a
 * solve never ends early), added in 128 bits (hi, lo). */
typedef struct pdl_ghost_error {
	uint64_t hi, lo; /**< the sum in units of 2^-64 */
	int64_t count;   /**< the particles it is over */
	double most;     /**< the largest |b_i| */
} pdl_ghost_error;
/** a += b (exact; the largest of both). */
void pdl_ghost_error_add(pdl_ghost_error* a, const pdl_ghost_error* b);
/** The most arrays a PDL_GHOST_FIELDS stage lists. */
#define PDL_GHOST_MAX_FIELDS 8
/** Called by pdl_world_step at each ghost stage of each substep. */
typedef void pdl_ghost_fn(pdl_world* world, pdl_ghost_stage stage, void* context);
/** Sets the world's ghost function (NULL: none). PDL_ERR_OUT_OF_MEMORY when the particles'
 * origins cannot be allocated. */
pdl_error_id pdl_world_set_ghost_fn(pdl_world* world, pdl_ghost_fn* fn, void* context, pdl_error* err);
/** Appends ghosts: x, y, vx, vy, material and id (z, vz in 3D; springs ignored), each tagged
 * with `origin` (>= 0: the caller's name for where they came from, such as the owner's rank).
 * Their storage order plays no part with cells_by_id. On error nothing is added:
 * PDL_ERR_GHOST_ORIGIN, PDL_ERR_GHOST_ID without ids, PDL_ERR_PARTICLE_STATE for a
 * material the world lacks, PDL_ERR_OUT_OF_MEMORY. */
pdl_error_id pdl_world_add_ghosts(pdl_world* world, const pdl_particle_data* ghosts, int origin, pdl_error* err);
/** Removes the particles whose remove[i] is not 0 (i: the index in the world's storage order
 * before the call, as pdl_world_particles lists them), ghosts or own; returns how many. The
 * others keep their state, and their order unless the grid frame has cells_by_id and the world
 * no springs (then the last particles fill the gaps: the order plays no part there). For a
 * split world's particles that move to another process. */
int pdl_world_remove_particles(pdl_world* world, const uint8_t* remove);
/** Appends particles as the world's own, with their ids (x, y, vx, vy, material, id; z, vz in
 * 3D; springs none), such as those that arrive from another process; the next id passes the
 * largest. On error nothing is added: as pdl_world_add_ghosts, and PDL_ERR_TOO_MANY_PARTICLES
 * past world.max_particles. */
pdl_error_id pdl_world_add_particles(pdl_world* world, const pdl_particle_data* particles, pdl_error* err);
/** Removes every ghost; returns how many. The own particles keep their state (and their order
 * as pdl_world_remove_particles says). */
int pdl_world_remove_ghosts(pdl_world* world);
/** What a ghost stage reads and writes, in the world's current storage order (the order of
 * pdl_world_particles): per particle its origin (-1 for its own), id, and writable pressure
 * and near pressure (Clavet eq. 2 and 5: k (rho - rho0) and k_near rho_near, length / s^2
 * units of the relaxation). All NULL and count 0 before the first pdl_world_set_ghost_fn. */
typedef struct pdl_ghost_view {
	int count;
	const int32_t* origin;
	const uint32_t* id;
	float* pressure;
	float* near_pressure;
	/** PDL_GHOST_FIELDS, PDL_GHOST_ERROR: the arrays whose ghosts' values come from their owners */
	int field_count;
	float* fields[PDL_GHOST_MAX_FIELDS];
	/** PDL_GHOST_ERROR: this process's own particles' error terms, to be summed over all */
	pdl_ghost_error* error;
} pdl_ghost_view;
pdl_ghost_view pdl_world_ghost_view(pdl_world* world);

/** The default frame: axes -1, -1, -1, dense_cells 0, gather_passes, row_slabs and
 * cells_by_id false. */
pdl_grid_frame pdl_default_grid_frame(void);
/** Sets the world's grid frame. Fails (nothing changed) with PDL_ERR_GRID_FRAME_AXES when the
 * axes are neither a permutation of 0, 1, 2 nor all -1, PDL_ERR_GRID_FRAME_DENSE_CELLS past 2^26. */
pdl_error_id pdl_world_set_grid_frame(pdl_world* world, const pdl_grid_frame* frame, pdl_error* err);
/** The world's grid frame as set (the default until pdl_world_set_grid_frame). */
pdl_grid_frame pdl_world_grid_frame(const pdl_world* world);
/** A frame fixed from the world as it is now, which makes the order of every sum depend only on
 * where the particles are: in 3D the axes the grid would choose for the particles' extent (most
 * cells slowest, the next fastest); dense over the containers' box and the particles' (at least
 * 64 cells a particle, at most 2^24); row_slabs and cells_by_id. The scene layer builds every
 * world with it (pdl_scene_build_world) and the MPI layer keeps it, so one process's run and a
 * split run step alike and print the same pdl_world_hash_ids. */
pdl_grid_frame pdl_world_fixed_grid_frame(const pdl_world* world);

#ifdef __cplusplus
}
#endif

#endif
