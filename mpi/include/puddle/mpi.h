/* puddle over Open MPI: one world split over the processes of a communicator, stepping to the
 * same bits as one process (docs/mpi.md). Built when CMake finds MPI (PUDDLE_MPI); the core
 * library knows nothing of MPI and this layer uses only its public API (puddle.h, partition.h).
 *
 *     pdl_world* world = pdl_scene_build_world(scene, &err);   // every process, the same scene
 *     pdl_mpi_world* split = pdl_mpi_world_create(world, MPI_COMM_WORLD, &perr);
 *     for (int frame = 0; frame < 600; ++frame) pdl_mpi_world_step(split);
 *     uint64_t hash = pdl_mpi_world_hash(split);                 // the same for any process count
 *     pdl_mpi_world_destroy(split);                              // the world stays the caller's
 *
 * Every function is collective: all processes of the communicator call it, in the same order.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_MPI_H
#define PUDDLE_MPI_H

#include "puddle/puddle.h"

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pdl_mpi_world pdl_mpi_world;

/** Splits `world` (holding every particle, the same on every process: build it from the same
 * scene) into slabs along its widest axis, one per process; each process keeps its slab's
 * particles. Returns NULL with err filled (the same on every process) when the world has what
 * this layer cannot split yet: springs, bodies, the SPH solver (its CFL substep count needs the
 * fastest particle of the whole world), or an empty world. */
pdl_mpi_world* pdl_mpi_world_create(pdl_world* world, MPI_Comm comm, pdl_error* err);
/** Frees the layer's buffers; the world is the caller's (it holds this process's last halo). */
void pdl_mpi_world_destroy(pdl_mpi_world* split);

/** One frame of the whole world: each process gets the particles within its halo from the
 * others, steps its slab plus halo as an ordinary world (pdl_world_step) and keeps its slab's,
 * whose state is then the same, bit for bit, as one process stepping the whole world. */
void pdl_mpi_world_step(pdl_mpi_world* split);

/** FNV-1a 64 of the whole world's particles in id order (positions, velocities, materials,
 * ids): the same on every process, and the same for any process and thread count. */
uint64_t pdl_mpi_world_hash(pdl_mpi_world* split);
/** Particles in the whole world / in this process's slab. */
long long pdl_mpi_world_particle_count(pdl_mpi_world* split);
int pdl_mpi_world_local_count(const pdl_mpi_world* split);
/** This process's slab along the split axis (world units): [lo, hi). */
void pdl_mpi_world_slab(const pdl_mpi_world* split, int* axis, float* lo, float* hi);
/** Halo width (world units) and the particles this process imported as halo in the last step. */
float pdl_mpi_world_halo(const pdl_mpi_world* split);
int pdl_mpi_world_halo_count(const pdl_mpi_world* split);

#ifdef __cplusplus
}
#endif

#endif
