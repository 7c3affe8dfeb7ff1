/* puddle over Open MPI: one world split over the processes of a communicator, stepping to the
 * same bits as one process (docs/mpi.md). Built when CMake finds MPI (PUDDLE_MPI); the core
 * library knows nothing of MPI and this layer uses only its public API (puddle.h, partition.h).
 *
 *     pdl_world* world = pdl_scene_build_world(scene, &err);   // every process, the same scene
 *     pdl_mpi_world* split = pdl_mpi_world_create(world, MPI_COMM_WORLD, &perr);
 *     char why[256];
 *     for (int frame = 0; frame < 600; ++frame) pdl_mpi_world_step(split, why, sizeof why);
 *     uint64_t hash = pdl_mpi_world_hash(split);                 // the same for any process count
 *     pdl_mpi_world_destroy(split);                              // the world stays the caller's
 *
 * Every function is collective: all processes of the communicator call it, in the same order.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_MPI_H
#define PUDDLE_MPI_H

#include "puddle/puddle.h"
#include "puddle/snapshot.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pdl_mpi_world pdl_mpi_world;

/** Splits `world` (holding every particle, the same on every process: build it from the same
 * scene) into slabs along its widest axis, one per process; each process keeps its slab's
 * particles. Returns NULL with err filled (the same on every process) when out of memory or
 * the world's grid frame is refused. An SPH world takes the substeps of its CFL rule on the
 * whole world's fastest particle in every process (pdl_world_cfl_substeps); springs travel
 * with their particles (by partner id). Whether the world has springs is read here, from its
 * materials: give a material springs before, not after. Rigid bodies stay in every process's
 * world, each stepped alike in all (every particle that can reach a body goes to every
 * process; docs/mpi.md, "Bodies"); a frame function that adds bodies must add the same ones in
 * every process. */
pdl_mpi_world* pdl_mpi_world_create(pdl_world* world, MPI_Comm comm, pdl_error* err);
/** Frees the layer's buffers; the world is the caller's (it holds this process's last halo). */
void pdl_mpi_world_destroy(pdl_mpi_world* split);

/** What a caller does to the world each frame before it steps, as it would call it before
 * pdl_world_step in one process: set or clear pointers (pdl_world_set_pointer), add particles
 * (pdl_world_fill), or both (a scene's strokes and emitters: pdl_scene_apply_frame). It is called
 * on every process, before the exchange, with that process's world as the last step left it
 * (the next id is the whole world's), and must do the same on each: a pointer acts on each
 * particle alone, so every process setting it acts as one process would, and every process
 * adds the same new particles with the same ids, which join the exchanged ones; each process
 * keeps those its slab holds. It must not read or change the particles already there (a
 * process holds only some of the world's, and with the halo they are about to be replaced). Returns false with a reason in err (if given) to fail the
 * frame. */
typedef bool (*pdl_mpi_frame_fn)(pdl_world* world, void* context, pdl_error* err);
/** Sets the frame function (NULL: none) and the context it is called with. Not collective, but
 * every process must set the same. */
void pdl_mpi_world_set_frame_fn(pdl_mpi_world* split, pdl_mpi_frame_fn fn, void* context);
/** One frame of the whole world: each process calls the frame function, then either (ghosts,
 * pdl_mpi_world_uses_ghosts) hands the particles that crossed a cut to their new slab's
 * process and steps its own with the others' ghosts taken in at each substep, or (the halo)
 * gets the particles within its halo from the others, steps its slab plus halo and keeps its
 * slab's. Either way its own particles' state is then the same, bit for bit, as one process
 * stepping the whole world. Returns true on every process, or false on every process
 * with err (the same everywhere) the reason: the frame function failed on a process,
 * added different particle counts on different processes, or added more than the world's
 * max_particles holds (the frame is then not stepped). */
bool pdl_mpi_world_step(pdl_mpi_world* split, pdl_error* err);

/** pdl_world_hash_ids() of the whole world (particles in id order, then the bodies): the same
 * on every process, for any process and thread count, and the same as one process's plain
 * `puddle run --hash`. */
uint64_t pdl_mpi_world_hash(pdl_mpi_world* split);
/** Particles in the whole world / in this process's slab. */
long long pdl_mpi_world_particle_count(pdl_mpi_world* split);
int pdl_mpi_world_local_count(const pdl_mpi_world* split);
/** This process's slab along the split axis (world units): [lo, hi). */
void pdl_mpi_world_slab(const pdl_mpi_world* split, int* axis, float* lo, float* hi);
/** Whether the world steps with ghosts (a Clavet world without springs or rigid bodies, unless
 * PUDDLE_MPI_HALO=1 is set): each process holds only its own particles, and at each substep
 * takes ghosts one cell reach deep from the others, between the neighbour passes
 * (partition.h, docs/mpi.md "Ghosts"). Otherwise (SPH, springs, bodies) it takes a halo once a
 * frame, wide enough for the whole frame. Not collective. */
bool pdl_mpi_world_uses_ghosts(const pdl_mpi_world* split);
/** Halo width (world units) of the last step (sized each frame from the whole world's fastest
 * particle and longest spring; docs/mpi.md; 0 with ghosts) and the particles this process
 * imported as halo (with ghosts: its mean ghosts a substep in the last step). */
float pdl_mpi_world_halo(const pdl_mpi_world* split);
int pdl_mpi_world_halo_count(const pdl_mpi_world* split);

/** What pdl_mpi_world_step has cost this process since pdl_mpi_world_create or the last
 * pdl_mpi_world_reset_stats: counts summed over the frames, and wall seconds (MPI_Wtime) of
 * each part of the step. Bytes and messages count only what goes to or comes from other
 * processes (not a process's own particles, which the all-to-all copies locally); a message
 * is one non-empty part of the particles' all-to-all between two processes (the all-to-all of
 * counts before it, 4 bytes to each process, and the allreduces are counted in collectives).
 * docs/mpi.md ("Model") uses them; bench/mpi writes them per frame. */
typedef struct pdl_mpi_world_stats {
	long long frames;            /**< pdl_mpi_world_step calls */
	long long owned;             /**< particles owned, summed over the frames (at each frame's start) */
	long long halo;              /**< halo particles imported, summed over the frames (with
	                                  ghosts: each frame's mean ghosts a substep) */
	long long bytes_sent;        /**< particle records sent to other processes (32 bytes each) */
	long long bytes_received;    /**< particle records received from other processes */
	long long messages_sent;     /**< non-empty sends to other processes */
	long long messages_received; /**< non-empty receives from other processes */
	long long collectives;       /**< MPI collective calls made by the step */
	long long recuts;            /**< frames that cut the slabs anew (imbalance over 10%) */
	/** frames stepped a second time with a wider halo, because the particles moved further in
	 * them than the halo predicted from the fastest one allowed (docs/mpi.md) */
	long long widened;
	double balance_seconds;      /**< the imbalance test and any re-cut (two allreduces; an
	                                  allgather of every particle's coordinate when it re-cuts) */
	double exchange_seconds;     /**< packing, the two all-to-alls and the id sort; includes the
	                                  wait for slower processes, which the all-to-alls synchronise
	                                  (with ghosts: the particles that change process, and the
	                                  ghost stages inside the step) */
	double build_seconds;        /**< the received particles set as this process's world (0
	                                  with ghosts: the world keeps its particles) */
	double step_seconds;         /**< pdl_world_step of the slab and its halo (with ghosts: less
	                                  the ghost stages) */
	double keep_seconds;         /**< picking the slab's particles out of the stepped world */
} pdl_mpi_world_stats;

/** This process's counts and times (not collective). */
pdl_mpi_world_stats pdl_mpi_world_get_stats(const pdl_mpi_world* split);
/** Sets them to zero (not collective). */
void pdl_mpi_world_reset_stats(pdl_mpi_world* split);

/* ---- the particles, for files ------------------------------------------------------------- */

/** This process's own particles (its slab; not in id order) with their density and pressure of
 * the last step, as arrays valid until the next call of this or pdl_mpi_world_id_block, or the
 * next step. false when out of memory. Not collective. */
bool pdl_mpi_world_local_particles(pdl_mpi_world* split, pdl_particle_data* out);
/** The whole world's particles handed round in id order: process r gets those with ids in
 * [next_id r / N, next_id (r + 1) / N), sorted by id, in *out (valid as above); *first is the
 * place of its first one in the whole world's id order, *total the whole world's count. So
 * the processes' blocks, one after the other, are the whole world in id order. With springs,
 * out's spring_partner and spring_rest are filled too, each partner by its place in the whole
 * world's id order (-1 for an empty slot), as a snapshot lists them. false on every process when
 * one is out of memory. */
bool pdl_mpi_world_id_block(pdl_mpi_world* split, pdl_particle_data* out, long long* first, long long* total);
/** Takes the whole world's particles again from the world given to pdl_mpi_world_create, which
 * the caller has restored in every process from the same snapshot (pdl_snapshot_read), and cuts
 * the slabs anew; the grid frame fixed at creation stays, so a run resumed this way goes on
 * with the same bits as one that did not stop. false when out of memory. */
bool pdl_mpi_world_reload(pdl_mpi_world* split);

/** Whether ok holds on every process of comm; when it does not, err (the same on every process)
 * becomes on every process the reason of the first process (lowest rank) where it failed, its
 * id included, and when that is not process 0 its message starts with "process R: ": what only
 * process R saw (its piece of a file, its part of the world) then reaches process 0, which
 * says it. What every process fails alike is process 0's reason, as it is. The layer's
 * functions agree on their outcome this way; a caller agrees on its own checks with it too.
 * Collective. */
bool pdl_mpi_agree(MPI_Comm comm, bool ok, pdl_error* err);

/* ---- files (mpi/src/mpi_files.c) -----------------------------------------------------------
 * Collective. Each returns true on every process, or false on every process with err (the
 * same in every process) holding the first failing process's reason, naming the
 * file, after "process R: " when that is not process 0 (pdl_mpi_agree). Every file appears
 * whole under its name or not at all (written to a temporary name, renamed once complete). */

/** ParaView: each process writes its own particles to a piece beside the .pvtp, named as it with
 * _R.vtp for process R instead of .pvtp, then process 0 the .pvtp listing the pieces. */
bool pdl_mpi_world_write_vtk(pdl_mpi_world* split, const char* pvtp_path, pdl_error* err);
/** CSV and PLY of the whole world in id order, the same bytes as pdl_export_csv and
 * pdl_export_ply of the world in one process: each process formats its id block's rows and
 * writes them at their offset in one file (MPI-IO). */
bool pdl_mpi_world_write_csv(pdl_mpi_world* split, const char* path, pdl_error* err);
bool pdl_mpi_world_write_ply(pdl_mpi_world* split, const char* path, pdl_error* err);
/** One snapshot of the whole world, the format pdl_snapshot_read reads (particles in id order),
 * written collectively with MPI-IO: each process its id block's share of each particle array,
 * process 0 the rest; the checksum is handed from process to process in file order. Springs
 * are written with their partners by place in the file's (id) order, as one process writes
 * them (pdl_mpi_world_id_block). */
bool pdl_mpi_world_write_snapshot(pdl_mpi_world* split, const char* path, const pdl_snapshot_info* info, pdl_error* err);
/** Restores the split world from a snapshot (any writer, any process count): every process
 * reads it into its world (pdl_snapshot_read), then pdl_mpi_world_reload. */
bool pdl_mpi_world_read_snapshot(pdl_mpi_world* split, const char* path, pdl_snapshot_info* info, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
