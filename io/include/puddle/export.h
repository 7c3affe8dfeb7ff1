/* puddle_io: particle and rigid body exports for other tools, one file per frame.
 *   - ParaView: VTK XML PolyData (.vtp), one vertex per particle (z = 0 in 2D worlds), with point
 *     data velocity (3 components, vz = 0 in 2D), density, pressure, material and id; and a .pvd
 *     collection that lists the frames with their times, so ParaView opens the whole run as one
 *     time series.
 *   - Blender: PLY (ASCII) with x y z (z = 0 in 2D), vx vy (and vz in 3D), density, pressure,
 *     material and the material colour as red green blue; the diffuse particles (spray, foam,
 *     bubbles) in a file of their own.
 *   - CSV: a header line, then id,material,x,y,vx,vy,density,pressure per particle in 2D, and
 *     id,material,x,y,z,vx,vy,vz,density,pressure in 3D.
 * Particles are written in id order, so row k is the same particle in every frame while no
 * particle is added.
 *
 * Rigid bodies have their own files, bodies in slot order (pdl_world_bodies):
 *   - VTK XML PolyData: each body's surface as polygons in world space: in 2D one polygon, its
 *     outline (box and polygon corners counter-clockwise, a circle as 32 points from its turned
 *     x axis), z = 0; in 3D a box's 6 faces and a sphere's 8 x 16 tessellation (turning with the
 *     body), all counter-clockwise seen from outside. Point data: velocity (the body's motion at
 *     that point, v + w x r). Cell data, the polygon's body's: id (pdl_body_id_to_int), type and
 *     shape (the enums' values), body_velocity, angular_velocity, force and torque (the fluid's,
 *     pdl_world_body_force over the last step).
 *   - CSV: a header line, then one row per body: frame,time,id,type,shape,x,y,z,angle,vx,vy,vz,
 *     wx,wy,wz,fx,fy,fz,tx,ty,tz in 2D, and qx,qy,qz,qw (the orientation) instead of angle in
 *     3D; type is dynamic or kinematic, shape box, circle (3D: sphere) or polygon; f and t are
 *     the fluid's force and torque.
 * Every file is written to a temporary name and renamed into place.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_EXPORT_H
#define PUDDLE_EXPORT_H

#include "puddle/puddle.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Each returns false and puts the reason in err (if given) on failure. */
bool pdl_export_vtp(const char* path, const pdl_world* world, pdl_error* err);
bool pdl_export_ply(const char* path, const pdl_world* world, pdl_error* err);
bool pdl_export_csv(const char* path, const pdl_world* world, pdl_error* err);
/** The world's diffuse particles (spray, foam, bubbles: pdl_world_diffuse) as ASCII PLY:
 * x y z vx vy vz (z = 0 in 2D), kind (uchar: 0 spray, 1 foam, 2 bubble) and life (seconds), in
 * the world's order; an empty point set when there are none. */
bool pdl_export_diffuse_ply(const char* path, const pdl_world* world, pdl_error* err);

/** The .vtp of the given particles (any order; written in id order) instead of the world's:
 * one process's piece of a world split over several (mpi/). */
bool pdl_export_vtp_particles(const char* path, const pdl_world* world, const pdl_particle_data* particles, pdl_error* err);
/** The rows of the given particles (in id order) into a stream, after the header when header >= 0
 * (PLY: header is the vertex count, that of the whole file where this writes one piece of it);
 * the world gives the time and the materials' colours. For writers that put one file together
 * from pieces (puddle over MPI writes each process's rows at their offset). false if the stream
 * failed or out of memory. */
bool pdl_export_csv_stream(FILE* f, const pdl_world* world, const pdl_particle_data* particles, long long header);
bool pdl_export_ply_stream(FILE* f, const pdl_world* world, const pdl_particle_data* particles, long long header);

/** A ParaView parallel PolyData file (.pvtp): one data set made of pieces[0..count) (.vtp files
 * from pdl_export_vtp or pdl_export_vtp_particles, relative to the .pvtp's folder), declaring
 * their arrays. A .pvd may list .pvtp files as it lists .vtp files. */
bool pdl_export_pvtp(const char* path, const char* const* pieces, int count, pdl_error* err);

bool pdl_export_bodies_vtp(const char* path, const pdl_world* world, pdl_error* err);
/** frame goes into the first column (the caller's frame counter); time is pdl_world_time. */
bool pdl_export_bodies_csv(const char* path, const pdl_world* world, long long frame, pdl_error* err);

/** A ParaView collection: files[i] (relative to the .pvd's folder) at simulated times[i]. */
bool pdl_export_pvd(const char* path, const char* const* files, const double* times, int count, pdl_error* err);

/** One data set of a collection. Data sets with the same time and different parts are read by
 * ParaView as the blocks of one multiblock data set, named by name. */
typedef struct pdl_pvd_dataset {
	const char* file; /**< relative to the .pvd's folder */
	double time;      /**< simulated seconds */
	int part;
	const char* name; /**< the block's name; NULL: none */
} pdl_pvd_dataset;

/** A ParaView collection of any data sets (pdl_export_pvd is this with part 0 and no names). */
bool pdl_export_pvd_datasets(const char* path, const pdl_pvd_dataset* sets, int count, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
