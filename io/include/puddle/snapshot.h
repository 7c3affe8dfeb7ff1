/* puddle_io: binary snapshots, to stop a run and resume it later with a bitwise identical
 * result (pdl_world_hash of the resumed run's end equals the uninterrupted run's).
 *
 * A snapshot holds everything later steps read: the world def (dimensions, h, dt, substeps,
 * gravity, max particles), every material def, every boundary def (scripts may move or retune
 * them), every particle in storage order (position and velocity, with z and vz in 3D worlds,
 * material, id; springs with rest lengths; a DFSPH world's pressures, its solves' warm start), the
 * next particle id, every rigid body (its whole pdl_body_def as pdl_world_get_body gives it,
 * in slot order), the clock (time and solver steps) and the frame counter that drives the
 * scene's scripted strokes and emitters. Pointers are not stored: the scene's strokes set them
 * again from the frame number. Nor are the solver kind and the SPH settings: the world keeps
 * the ones its scene gave it (the SPH CFL rule reads only the particles, so a resumed SPH run
 * takes the same substeps). Nor is the scene (a 3D scene's camera included): the scene hash
 * ties the snapshot to it. A snapshot of a 3D world is refused by a 2D one and the other way.
 *
 * Layout (all little-endian):
 *   header, 40 bytes: magic "PDLSNAP\0", u32 version (4), u32 header size (40), u64 payload size,
 *   u64 FNV-1a 64 checksum of the payload, u64 zero
 *   payload: see docs/cli.md, "Snapshot format".
 * Version 2 files (before bodies) are read too, as worlds without bodies, and version 3 (before
 * the pressures): a DFSPH world's solves then start from 0.
 * Files are written to a temporary name and renamed, so a crash never leaves half a snapshot.
 * Reading checks magic, version, sizes and checksum before it changes anything, and refuses
 * a truncated or corrupted file with a message that says which check failed. Restoring removes
 * the world's own bodies (the scene's) and adds the snapshot's in their order; every body
 * record is first tried in a scratch world, so a record the engine refuses ("body record 1 of
 * 3 (slot order) refused: body.radius must be ...") leaves the world unchanged.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_SNAPSHOT_H
#define PUDDLE_SNAPSHOT_H

#include "puddle/puddle.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDL_SNAPSHOT_VERSION 4
#define PDL_SNAPSHOT_HEADER_SIZE 40
/** FNV-1a 64's offset basis: the checksum of no bytes. */
#define PDL_SNAPSHOT_CHECKSUM_START 0xcbf29ce484222325ull

/** What the caller keeps beside the world. */
typedef struct pdl_snapshot_info {
	/** Frames already run: the next frame is this one (pdl_scene_apply_frame's argument). */
	long long frame;
	/** pdl_scene_hash() of the scene the run was made from, so a resume can refuse another. */
	uint64_t scene_hash;
	char scene_name[64];
} pdl_snapshot_info;

/** Writes world and info to path (via a temporary file). false and err on failure. */
bool pdl_snapshot_write(const char* path, const pdl_world* world, const pdl_snapshot_info* info, pdl_error* err);

/** The same in an older version of the format (2 to PDL_SNAPSHOT_VERSION), for a reader built
 * before a field or a section was added: each field is stored from the version its declaration
 * names (puddle/fields.h, `since`). Refused, with nothing written (PDL_ERR_SNAPSHOT_WORLD),
 * when the world holds what that version cannot: bodies (before 3), DFSPH's pressures (before
 * 4), or a newer field away from its default; PDL_ERR_SNAPSHOT_HEADER for a version this build
 * does not write. */
bool pdl_snapshot_write_version(const char* path, const pdl_world* world, const pdl_snapshot_info* info,
                                uint32_t version, pdl_error* err);

/** Reads path and checks it, fills *info, then restores the world from it. The world must have
 * been built from the same scene (same materials and boundaries). On failure returns false with
 * err, and the world is unchanged unless the failure came from the world itself refusing a value
 * (which a checksummed file from this library does not cause). */
bool pdl_snapshot_read(const char* path, pdl_world* world, pdl_snapshot_info* info, pdl_error* err);

/** The same from the bytes of a snapshot file in memory; `name` stands for the file in messages.
 * (The fuzzer's entry point: fuzz/fuzz_snapshot.c.) */
bool pdl_snapshot_read_memory(const void* data, size_t size, const char* name, pdl_world* world,
                              pdl_snapshot_info* info, pdl_error* err);

/* ---- a snapshot put together from pieces (puddle over MPI, mpi/src/mpi_files.c) ------------------
 * The file is the header, then the payload: `head`, the particle arrays, `tail`. The arrays are,
 * each `count` long and in the order of the particles the file lists: x, y, vx, vy, then in 3D
 * z, vz (little-endian float32), material (one byte), id (little-endian uint32), and with
 * springs the partners (PDL_MAX_SPRINGS_PER_PARTICLE little-endian int32 a particle: the
 * partner's place in the file's order, -1 for none) and the rest lengths (as many float32),
 * and with pressures (DFSPH) the pressure and the divergence pressure (float32 each). A
 * writer that holds the particles in pieces writes each piece's share of each array at its
 * offset. */

/** The payload before the particle arrays and after them, of world w holding `count` particles
 * with next id `next_id` in all (the world's own particles are not read: a process of a split
 * world holds only some), saying whether the arrays include springs and pressures. false when
 * out of memory. */
typedef struct pdl_snapshot_parts {
	uint8_t* head;
	size_t head_size;
	uint8_t* tail;
	size_t tail_size;
} pdl_snapshot_parts;
bool pdl_snapshot_encode_parts(const pdl_world* world, const pdl_snapshot_info* info, uint32_t count, uint32_t next_id,
                               bool springs, bool pressures, pdl_snapshot_parts* parts);
void pdl_snapshot_parts_free(pdl_snapshot_parts* parts);
/** The checksum, FNV-1a 64, continued from `state` over `size` more bytes (start from
 * PDL_SNAPSHOT_CHECKSUM_START): the payload's checksum is the state after all its bytes. */
uint64_t pdl_snapshot_checksum(uint64_t state, const void* bytes, size_t size);
/** The header of a payload of payload_size bytes with that checksum. */
void pdl_snapshot_encode_header(uint8_t out[PDL_SNAPSHOT_HEADER_SIZE], uint64_t payload_size, uint64_t checksum);

/** Only reads and checks the file and fills *info (for `puddle info`-like tools). */
bool pdl_snapshot_peek(const char* path, pdl_snapshot_info* info, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
