/* puddle_io: OpenVDB volumes of 3D worlds, one file per frame, for Blender, Houdini and other
 * volume tools (built when OpenVDB is found: Debian's libopenvdb-dev; pdl_vdb_available says).
 *
 * A file holds two float grids (three with diffuse particles) in world units, with the frame's time as metadata:
 *   - "density": a fog volume, the fluid's mass per unit volume. Each particle's mass goes to the
 *     8 voxels around it by trilinear (cloud-in-cell) weights that sum to 1, so the grid's sum
 *     times the voxel volume is the fluid's mass exactly (up to float rounding).
 *   - "surface": a narrow-band level set of the fluid (OpenVDB's ParticlesToLevelSet, each
 *     particle a sphere of `radius`): negative inside, 0 on the surface; Blender's "Volume to
 *     Mesh" or Houdini's "Convert VDB" make a surface of it.
 *   - "diffuse", only for a world with diffuse particles on (pdl_diffuse_def): a fog volume of
 *     their number per unit volume (spray, foam and bubbles alike), spread as "density" is, so
 *     its sum times the voxel volume is their count; a volume shader renders it as white water.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VDB_H
#define PUDDLE_VDB_H

#include "puddle/puddle.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pdl_vdb_def {
	/** Edge of a voxel, world units, > 0. pdl_default_vdb_def: h / 3. */
	float voxel_size;
	/** The spheres the level set is made of, world units, > voxel_size. pdl_default_vdb_def:
	 * half of material 0's rest spacing (spheres at rest just touch) but at least 1.5 voxels. */
	float radius;
} pdl_vdb_def;

/** The defaults for this world (see pdl_vdb_def). */
pdl_vdb_def pdl_default_vdb_def(const pdl_world* world);

/** Whether this build can write VDB files. */
bool pdl_vdb_available(void);

/** Writes the world's volumes to path (a temporary name renamed into place); false with the
 * reason in err (if given) for a 2D world, a bad def, no OpenVDB in this build, or a
 * failed write. */
bool pdl_export_vdb(const char* path, const pdl_world* world, const pdl_vdb_def* def, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
