/* puddle_io: particle exports for other tools, one file per frame.
 *   - ParaView: VTK XML PolyData (.vtp), one vertex per particle (z = 0 in 2D worlds), with point
 *     data velocity (3 components, vz = 0 in 2D), density, pressure, material and id; and a .pvd
 *     collection that lists the frames with their times, so ParaView opens the whole run as one
 *     time series.
 *   - Blender: PLY (ASCII) with x y z (z = 0 in 2D), vx vy (and vz in 3D), density, pressure,
 *     material and the material colour as red green blue.
 *   - CSV: a header line, then id,material,x,y,vx,vy,density,pressure per particle in 2D, and
 *     id,material,x,y,z,vx,vy,vz,density,pressure in 3D.
 * Particles are written in id order, so row k is the same particle in every frame while no
 * particle is added. Every file is written to a temporary name and renamed into place.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_EXPORT_H
#define PUDDLE_EXPORT_H

#include "puddle/puddle.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Each returns false and puts the reason in err (err_size bytes) on failure. */
bool pdl_export_vtp(const char* path, const pdl_world* world, char* err, size_t err_size);
bool pdl_export_ply(const char* path, const pdl_world* world, char* err, size_t err_size);
bool pdl_export_csv(const char* path, const pdl_world* world, char* err, size_t err_size);

/** A ParaView collection: files[i] (relative to the .pvd's folder) at simulated times[i]. */
bool pdl_export_pvd(const char* path, const char* const* files, const double* times, int count, char* err,
                    size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
