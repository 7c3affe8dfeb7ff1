/* puddle: a particle fluid engine (Clavet, Beaudoin & Poulin 2005, "Particle-based
 * Viscoelastic Fluid Simulation").
 *
 *     pdl_world_def wd = pdl_default_world_def();
 *     pdl_world* world = pdl_world_create(&wd, NULL);
 *     int water = pdl_world_add_material(world, &(pdl_material_def){...}, NULL);
 *     pdl_boundary_id box = pdl_world_add_boundary(world, &container_def, NULL);
 *     pdl_world_fill(world, &fill_def, NULL);
 *     for (int frame = 0; frame < 600; ++frame) pdl_world_step(world);
 *     pdl_particle_data p = pdl_world_particles(world);   // p.x[i], p.y[i], ...
 *     pdl_world_destroy(world);
 *
 * Conventions: functions that can fail take a `pdl_error*` last (NULL if you don't need the
 * message) and return -1, an id whose index is -1, or a non-zero pdl_error_id on failure; the
 * io layer (puddle/scene.h, snapshot.h, ...) and puddle/mpi.h fill the same pdl_error and
 * return false or NULL. Bodies and boundaries are named by generational ids: a removed one's id
 * is refused even after its slot is reused. The library never prints,
 * never exits and never aborts on user input. A world is not thread-safe: call it from one
 * thread at a time; it runs its own worker threads inside pdl_world_step().
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_PUDDLE_H
#define PUDDLE_PUDDLE_H

#include "puddle/base.h"
#include "puddle/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pdl_world pdl_world;

/* ---- World ---------------------------------------------------------------------------- */

/** Makes a world, or returns NULL and fills err. */
pdl_world* pdl_world_create(const pdl_world_def* def, pdl_error* err);
void pdl_world_destroy(pdl_world* world);

/** Advances one frame: def.substeps solver steps of def.dt / def.substeps seconds each.
 * Each solver step runs the stages of Clavet 2005 algorithm 1 (see src/clavet.c). With
 * def.solver = PDL_SOLVER_SPH the frame takes as many SPH substeps as the CFL rule of def.sph
 * asks for, at least def.substeps (src/sph.c); pdl_world_profile().substeps says how many. */
void pdl_world_step(pdl_world* world);
/** Why the last pdl_world_step() of a world with def.backend = PDL_BACKEND_CUDA ran on the CPU
 * (what it uses that the GPU step does not do, or the CUDA error), or "" when it ran on the GPU
 * (and for CPU worlds). pdl_world_profile().backend says where it ran. */
const char* pdl_world_backend_note(const pdl_world* world);

pdl_world_def pdl_world_get_def(const pdl_world* world);
/** Changes h, dt, substeps, gravity, threads or max_particles between steps. On error nothing
 * changes. */
pdl_error_id pdl_world_set_def(pdl_world* world, const pdl_world_def* def, pdl_error* err);

/* ---- Materials ------------------------------------------------------------------------ */

/** Adds a material; returns its id (0, 1, ...) or -1. */
int pdl_world_add_material(pdl_world* world, const pdl_material_def* def, pdl_error* err);
/** Changes a material between steps; its particles take the new values on the next step. */
pdl_error_id pdl_world_set_material(pdl_world* world, int material, const pdl_material_def* def,
                                    pdl_error* err);
/** The material's def; the default def if the id is unknown. */
pdl_material_def pdl_world_get_material(const pdl_world* world, int material);
int pdl_world_material_count(const pdl_world* world);
/** The density a material's particles have at rest, in the units of pdl_particle_data.density:
 * the material's rest_density (Clavet's kernel density), or in an SPH or DFSPH world the mass
 * density rho0 of its rest lattice with the world's kernel: mass times Wendland C2's sum over
 * the lattice (DFSPH, and SPH's default kernel), or with Poly6 or Spiky
 * pdl_sph_rest_density(h, pdl_rest_spacing(h, rest_density), mass).
 * 0 for a material the world does not have. */
float pdl_world_rest_density(const pdl_world* world, int material);

/* ---- Particles ------------------------------------------------------------------------ */

/** Adds particles in a shape; returns how many were added, or -1 (and adds none). No particle
 * is placed inside a rigid body or within half a spacing of its surface: add the bodies first
 * and the fluid takes the rest of the space. */
int pdl_world_fill(pdl_world* world, const pdl_fill_def* def, pdl_error* err);
/** Removes the particles inside a circle (3D: a sphere); returns how many. Springs to them go
 * too. */
int pdl_world_remove_particles_in_circle(pdl_world* world, pdl_vec3 center, float radius);
/** Removes the particles inside an axis-aligned box (3D: half_extents.z too); returns how many. */
int pdl_world_remove_particles_in_box(pdl_world* world, pdl_vec3 center, pdl_vec3 half_extents);
int pdl_world_particle_count(const pdl_world* world);
/** Zero-copy view of all particle arrays (see pdl_particle_data). */
pdl_particle_data pdl_world_particles(const pdl_world* world);
/** Replaces every particle with the given state (x, y, vx, vy, material required, and z, vz in
 * 3D; id, springs optional), as a snapshot restore does. On error nothing changes. */
pdl_error_id pdl_world_set_particles(pdl_world* world, const pdl_particle_data* data,
                                     pdl_error* err);

/** The particle spacing at which a hexagonal lattice has kernel density rest_density
 * (world units), for interaction radius h. pdl_world_fill() uses it when spacing is 0. */
float pdl_rest_spacing(float interaction_radius, float rest_density);
/** The same for 3D worlds: the nearest-neighbour spacing of a face-centred cubic lattice with
 * kernel density rest_density. */
float pdl_rest_spacing_3d(float interaction_radius, float rest_density);
/** The SPH rest density rho0 (mass / world unit^2) of a hexagonal lattice of the given spacing:
 * mass * sum_j W_poly6(r_ij), self included, with the 2D Poly6 kernel of radius h (Mueller 2003
 * eq. 20, 4 / (pi h^8)). An SPH world with the Poly6 or Spiky pressure kernel uses
 * pdl_sph_rest_density(h, pdl_rest_spacing(h, material.rest_density), material.mass) for each
 * material, so fills start at rest (pdl_world_rest_density gives any world's). */
float pdl_sph_rest_density(float interaction_radius, float spacing, float mass);
/** The same for 3D worlds: the 3D Poly6 sum (315 / (64 pi h^9)) over the face-centred cubic
 * lattice of pdl_rest_spacing_3d, mass / world unit^3. */
float pdl_sph_rest_density_3d(float interaction_radius, float spacing, float mass);

/* ---- Boundaries: containers and obstacles ---------------------------------------------- */

/** Adds a container or obstacle; returns its id, or {-1, 0} and fills err (nothing changes).
 * It takes the first free slot, so a removed boundary's slot is reused (with a new
 * generation). */
pdl_boundary_id pdl_world_add_boundary(pdl_world* world, const pdl_boundary_def* def, pdl_error* err);
/** Why `count` vertices (in [3, PDL_MAX_POLYGON_VERTICES]) are not a polygon a boundary or body
 * takes (finite, convex, counter-clockwise, with area), in words, or NULL: the rule of
 * pdl_boundary_def.vertices, which needs no world, so a scene checks it as it reads the file. */
const char* pdl_polygon_fault(const pdl_vec2* vertices, int count);
/** Moves, reshapes or retunes a boundary between steps. Set def->velocity to the speed of a
 * moving obstacle so that it carries fluid with it. A removed boundary's id is refused
 * (PDL_ERR_BOUNDARY_ID), even once its slot holds another. */
pdl_error_id pdl_world_set_boundary(pdl_world* world, pdl_boundary_id boundary, const pdl_boundary_def* def,
                                    pdl_error* err);
/** Copies a boundary's def into *def; false if the id is not a live boundary. */
bool pdl_world_get_boundary(const pdl_world* world, pdl_boundary_id boundary, pdl_boundary_def* def);
pdl_error_id pdl_world_remove_boundary(pdl_world* world, pdl_boundary_id boundary, pdl_error* err);
/** Whether id names a live boundary of this world. */
bool pdl_world_boundary_valid(const pdl_world* world, pdl_boundary_id boundary);
/** One past the last slot a boundary has held; iterate the live boundaries, in the order the
 * step meets them, with pdl_world_boundary_in_slot() for slots below it. */
int pdl_world_boundary_slots(const pdl_world* world);
/** The id of the boundary in a slot, or {-1, 0} when the slot is empty or out of range. */
pdl_boundary_id pdl_world_boundary_in_slot(const pdl_world* world, int slot);
/** A boundary id packed into one non-negative int (index + generation * PDL_MAX_BOUNDARIES),
 * for scripts and languages without structs (the WebAssembly module and the Python binding
 * use it); -1 for no boundary. */
int32_t pdl_boundary_id_to_int(pdl_boundary_id boundary);
pdl_boundary_id pdl_boundary_id_from_int(int32_t packed);
/** World-space corners of a box or polygon boundary, counter-clockwise, for drawing; returns
 * their count (0 for circles). */
int pdl_boundary_world_vertices(const pdl_boundary_def* def,
                                pdl_vec2 out[PDL_MAX_POLYGON_VERTICES]);

/* ---- Rigid bodies ----------------------------------------------------------------------- */

/** Adds a rigid body (docs/physics.md, "Bodies"); returns its id, or {-1, 0} and fills err
 * (nothing changes). Its shape must lie inside the container. */
pdl_body_id pdl_world_add_body(pdl_world* world, const pdl_body_def* def, pdl_error* err);
/** Removes a body. */
pdl_error_id pdl_world_remove_body(pdl_world* world, pdl_body_id body, pdl_error* err);
/** Whether id names a live body of this world. */
bool pdl_world_body_valid(const pdl_world* world, pdl_body_id body);
/** Copies the body's def with its current position, angle (3D: orientation) and velocities
 * into *def; false if the id is not live. */
bool pdl_world_get_body(const pdl_world* world, pdl_body_id body, pdl_body_def* def);
/** Changes a body between steps: its state (position, angle or orientation, velocities) and
 * anything else of its def (shape, density, ...). On error nothing changes. A kinematic body
 * driven from outside gets its new position and velocity here each step. */
pdl_error_id pdl_world_set_body(pdl_world* world, pdl_body_id body, const pdl_body_def* def,
                                pdl_error* err);
/** Mass, inertia and sampling of a body; zeros if the id is not live. */
pdl_body_mass pdl_world_body_mass(const pdl_world* world, pdl_body_id body);
/** The force and torque the fluid put on the body in the last pdl_world_step() (see
 * pdl_body_force); zeros if the id is not live. */
pdl_body_force pdl_world_body_force(const pdl_world* world, pdl_body_id body);
int pdl_world_body_count(const pdl_world* world);
/** Writes the ids of the live bodies, in slot order, to out (at most capacity); returns how
 * many bodies there are. */
int pdl_world_bodies(const pdl_world* world, pdl_body_id* out, int capacity);
/** World-space corners of a 2D box or polygon body, counter-clockwise, for drawing; returns
 * their count (0 for circles). */
int pdl_body_world_vertices(const pdl_body_def* def, pdl_vec2 out[PDL_MAX_POLYGON_VERTICES]);
/** A body id packed into one non-negative int (index + generation * PDL_MAX_BODIES), for
 * scripts and languages without structs (the WebAssembly module uses it); -1 for no body. */
int32_t pdl_body_id_to_int(pdl_body_id body);
pdl_body_id pdl_body_id_from_int(int32_t packed);

/* ---- Interaction ------------------------------------------------------------------------ */

/** Turns pointer `index` (0..PDL_MAX_POINTERS-1) on with these settings until cleared. */
pdl_error_id pdl_world_set_pointer(pdl_world* world, int index, const pdl_pointer* pointer,
                                   pdl_error* err);
void pdl_world_clear_pointer(pdl_world* world, int index);

/* ---- Diffuse particles: spray, foam, bubbles ---------------------------------------------- */

/** Turns diffuse particles on or off, or retunes them, between steps (pdl_diffuse_def). Turning
 * them off, or a smaller max_particles, drops those there are (the newest first). On error
 * nothing changes. */
pdl_error_id pdl_world_set_diffuse(pdl_world* world, const pdl_diffuse_def* def, pdl_error* err);
/** The world's diffuse def (the default, off, until set). */
pdl_diffuse_def pdl_world_get_diffuse(const pdl_world* world);
/** Zero-copy view of the diffuse particles (count 0 when they are off). */
pdl_diffuse_data pdl_world_diffuse(const pdl_world* world);
/** Checks a diffuse def without a world: PDL_OK or the first broken rule. */
pdl_error_id pdl_validate_diffuse(const pdl_diffuse_def* def, pdl_error* err);

/* ---- Measurement ------------------------------------------------------------------------ */

pdl_stats pdl_world_stats(const pdl_world* world);
pdl_profile pdl_world_profile(const pdl_world* world);
/** FNV-1a hash of the particle state (positions, velocities, materials, ids, springs) and,
 * when there are bodies, theirs (ids, positions, rotations, velocities): equal hashes mean
 * bitwise-equal states. */
uint64_t pdl_world_hash(const pdl_world* world);
/** FNV-1a 64 of the particles in id order (position and velocity as three floats each, z = 0
 * in 2D, then id and material as 32-bit integers), then of the live bodies in slot order
 * (position, angle, orientation, velocities): what `puddle run --hash` prints as "state hash
 * (ids)", on one process and under mpirun alike, since it does not depend on the storage order
 * or on how the particles are split (puddle/mpi.h folds the gathered particles with the two
 * functions below). Springs are not in it. 0 when the world is NULL or memory runs out. */
uint64_t pdl_world_hash_ids(const pdl_world* world);
/** The seed and the two steps of pdl_world_hash_ids(), for particles held elsewhere: h starts
 * at PDL_HASH_IDS_SEED, takes each particle in increasing id order, then each body. */
#define PDL_HASH_IDS_SEED 1469598103934665603ull
uint64_t pdl_hash_ids_particle(uint64_t h, const float position[3], const float velocity[3], uint32_t id,
                               uint32_t material);
uint64_t pdl_hash_ids_body(uint64_t h, const pdl_body_def* body);
/** Simulated seconds and solver steps so far; set them when restoring a snapshot. */
double pdl_world_time(const pdl_world* world);
long long pdl_world_step_count(const pdl_world* world);
void pdl_world_set_clock(pdl_world* world, double time, long long steps);
/** Threads the world really runs with (def.threads, or the core count when that is 0). */
int pdl_world_thread_count(const pdl_world* world);

#ifdef __cplusplus
}
#endif

#endif
