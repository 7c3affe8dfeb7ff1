/* puddle: definition structs and their defaults.
 *
 * Units. puddle has no fixed length unit: pick one (metres, pixels) and use it everywhere.
 * Time is in seconds. The defaults below are for a length unit equal to the interaction
 * radius h (h = 1), so a default world is about 60 x 40 h in the scenes that ship with puddle.
 *
 * Every parameter is in physical units, never "per step": the solver multiplies by the step
 * length where the paper does, so changing dt or substeps keeps the same fluid (see
 * docs/physics.md, "Time step"). Densities are Clavet's dimensionless kernel sums
 * rho_i = sum_j (1 - r_ij / h)^2.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_TYPES_H
#define PUDDLE_TYPES_H

#include "puddle/base.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which solver moves a world's particles. */
typedef enum pdl_solver_kind {
	/** Clavet, Beaudoin & Poulin 2005 double density relaxation (src/relax.c): position based,
	 * unconditionally calm, with springs for viscoelastic materials. The default. */
	PDL_SOLVER_CLAVET = 0,
	/** Smoothed particle hydrodynamics after Mueller, Charypar & Gross 2003 (src/sph.c): physical
	 * densities, a stiff equation of state, force based, with an adaptive (CFL) time step. */
	PDL_SOLVER_SPH,
	/** Divergence-free SPH, Bender & Koschier 2015 and 2017 (src/dfsph.c): incompressible.
	 * Two pressure solves a substep, one keeps the density at rest (mean error below
	 * sph.density_tolerance), one keeps the velocity field free of divergence; the time step
	 * follows the flow speed alone (no speed of sound), so it takes few, large substeps. Water
	 * that keeps its volume: the solver to pick for water. Settings in world.sph. */
	PDL_SOLVER_DFSPH,
	PDL_SOLVER_KIND_COUNT
} pdl_solver_kind;

/** Where a world's step runs. Every backend takes the same worlds, scenes, exports and snapshots;
 * their results agree within rounding (each is deterministic on its own, run after run). */
typedef enum pdl_backend {
	/** The processor's cores (def.threads of them), bitwise the same for any thread count. The
	 * default. */
	PDL_BACKEND_CPU = 0,
	/** An NVIDIA GPU through CUDA (src/cuda_step.cu, docs/cuda.md), in a build with CUDA: every
	 * stage of the Clavet solver (forces and pointers, prediction, the neighbour grid, springs,
	 * densities, viscosity, relaxation, walls and obstacles, velocity) and of the SPH solver
	 * (with its CFL substeps, surface tension, XSPH and walls), 2D and 3D. Creating such a world
	 * fails with PDL_ERR_WORLD_BACKEND where the build has no CUDA or the machine no GPU. A step
	 * of a world that uses what the GPU step does not (the DFSPH solver, rigid bodies, a
	 * split world's ghosts) runs on the CPU; pdl_world_profile's `backend` and
	 * pdl_world_backend_note() say where each step ran and why. */
	PDL_BACKEND_CUDA,
	PDL_BACKEND_COUNT
} pdl_backend;

/** The SPH equation of state: pressure from density. */
typedef enum pdl_sph_eos {
	/** Tait (Monaghan 1994, Becker & Teschner 2007): p = B ((rho/rho0)^gamma - 1),
	 * B = rho0 c^2 / gamma. Stiff: small compressions give large pressures. The default. */
	PDL_SPH_EOS_TAIT = 0,
	/** Linear (Mueller 2003 eq. 12 with k = c^2): p = c^2 (rho - rho0). */
	PDL_SPH_EOS_LINEAR,
	PDL_SPH_EOS_COUNT
} pdl_sph_eos;

/** The kernel whose gradient gives the SPH pressure force. */
typedef enum pdl_sph_pressure_kernel {
	/** Poly6 for the density (Mueller 2003 eq. 20) and its gradient for the pressure force. The
	 * pair forces are exactly the forces of the equation of state's energy (Monaghan 1992), so
	 * a resting pool settles, but Poly6's gradient vanishes as r -> 0: two particles pressed
	 * together stop repelling, and a resting pool pairs up within seconds (97 % of its particles
	 * closer than half a rest spacing to another, 9-12 % of its volume lost; Dehnen & Aly 2012
	 * sec. 3 explain the pairing instability). Kept to reproduce Mueller 2003. */
	PDL_SPH_PRESSURE_POLY6 = 0,
	/** Poly6 for the density, Spiky's gradient (Mueller 2003 eq. 21) for the pressure: close
	 * particles never stop repelling, but it is not the density kernel's gradient, so the pair
	 * forces do work the equation of state does not account for: with a stiff equation of state
	 * that pumps energy into the fluid (measured in a closed box without viscosity: kinetic
	 * energy grows 2700-fold in 9 s). A resting pool keeps moving at about 0.4 h/s even at
	 * viscosity 2 (docs/physics.md, "SPH"). */
	PDL_SPH_PRESSURE_SPIKY,
	/** Wendland's C2 function for the density, its gradient for the pressure force, and for the
	 * XSPH and surface-normal sums (Wendland 1995; Dehnen & Aly 2012): the pair forces are the
	 * equation of state's, as with Poly6, and a kernel with a positive Fourier transform cannot
	 * pair particles, so the water keeps its volume and does not clump. The default; the DFSPH
	 * solver uses the same kernel. */
	PDL_SPH_PRESSURE_WENDLAND,
	PDL_SPH_PRESSURE_KERNEL_COUNT
} pdl_sph_pressure_kernel;

/** Settings of the SPH solvers (world.solver = PDL_SOLVER_SPH or PDL_SOLVER_DFSPH); ignored by
 * Clavet worlds, and validated only when the world uses SPH or DFSPH. Each field says which
 * solver reads it. Get them from pdl_default_world_def().sph.
 *
 * Rest density is not a setting: each material's SPH rest density rho0 is the density kernel's
 * sum (self included) over a hexagonal (3D: face-centred cubic) lattice at that material's rest
 * spacing pdl_rest_spacing(h, material.rest_density), times material.mass, so a fill at its
 * default spacing starts exactly at rest. Materials' mass, gravity_scale and wall_friction/stickiness
 * apply; the Clavet-only fields (stiffness, near_stiffness, viscosity_sigma/beta, springs) do
 * not.
 *
 * Its fields, with their defaults, ranges and doc lines, are declared in puddle/fields.h
 * (PDL_SPH_FIELDS); what each does in more words:
 * - speed_of_sound: c, speed of sound, world units / s, finite and > 0. Sets the stiffness of
 *   the equation of state (dp/drho = c^2 at rho0) and the time step (CFL). Compression is about
 *   (v_max / c)^2 in flow and g depth / c^2 at rest: keep c about 10 times the fastest flow
 *   speed for ~1% density error (Monaghan 1994). Default 100 (h = 1, g = 10: pools ~10 h deep
 *   compress by ~1%).
 * - eos: Equation of state. Default PDL_SPH_EOS_TAIT. Negative pressures are clamped to zero
 *   with either, so a free surface does not pull itself into clumps.
 * - gamma: gamma, the Tait exponent, in [1, 10]. Default 7 (water).
 * - pressure_kernel: SPH: the kernels of the density and the pressure force. Default
 *   PDL_SPH_PRESSURE_WENDLAND. (DFSPH always uses Wendland C2.)
 * - viscosity: nu, kinematic viscosity, world units^2 / s, finite and >= 0: the Laplacian form
 *   of Mueller eq. 14, made symmetric (see docs/physics.md). Default 0.5.
 * - xsph: epsilon, XSPH velocity smoothing (Monaghan 1989) per 1/60 s, in [0, 1]: each
 *   particle's velocity moves this share towards its neighbours' kernel-weighted mean in 1/60
 *   s. Applied per substep as 1 - (1 - epsilon)^(60 dt_sub), so it does not depend on the
 *   substep count. Default 0.05.
 * - surface_tension: gamma_st, surface tension (Akinci, Akinci & Teschner 2013: cohesion and
 *   curvature terms, per unit mass and volume, see docs/physics.md), world units / s^2, finite
 *   and >= 0: the pull a surface particle feels is of this order. 0 turns it off. Default 0.
 * - cfl: CFL number, in (0, 1]. DFSPH: each substep obeys dt_sub <= cfl s / v_max and dt_sub <=
 *   cfl sqrt(s / a_max), with s the smallest rest spacing of the world's materials (a particle
 *   moves at most cfl of a spacing a substep: Bender & Koschier 2017, sec. 4.3), and the
 *   viscosity rule below. SPH: each substep obeys dt_sub <= cfl h / (c + v_max), dt_sub <= cfl
 *   sqrt(h / a_max) and dt_sub <= cfl h^2 / (8 nu), with v_max the fastest particle at the
 *   start of the step and a_max = |g| max|gravity_scale| + the pointers' |strength| +
 *   surface_tension. Default 0.4.
 * - max_substeps: Most substeps one pdl_world_step() may take, in [1, 4096]. If the CFL rule
 *   asks for more, the step takes this many (and may be unstable). Default 256. SPH and DFSPH.
 * - density_tolerance: DFSPH: eta, the relative density error, in (0, 0.1], that the constant-
 *   density solve iterates down to (Bender & Koschier 2017, alg. 3): the error is the larger of
 *   the mean over all particles of |rho* - rho0| / rho0 where the fluid is under pressure (rho*
 *   the density the velocities would give at the end of the substep) and a twentieth of its
 *   largest value, so that a thin compressed layer (the floor under a deep pool) is not
 *   averaged away. Default 0.0001 (0.01 %, as SPlisHSPlasH's DFSPH).
 * - divergence_tolerance: DFSPH: eta_v, the relative rate of compression, 1 / s, in (0, 10],
 *   that the divergence solve iterates down to (alg. 2): its mean over the particles with at
 *   least 0.95 of their rest density (the free surface and spray are left alone; a mean, as
 *   B&K's, not density_tolerance's guard against a thin layer: the density solve catches that
 *   layer, and the guard made splashes cost the divergence solve most of its iterations).
 *   Default 0.003 / s. Looser is cheaper and lets a deep pool breathe: a 15 h pool
 *   still moved at 0.25 h/s r.m.s. after 10 s at 0.1 / s and at 0.01 / s, 0.04 h/s at 0.003 / s
 *   (about SPlisHSPlasH's 0.1 % a substep is 0.1-0.4 / s); scenes that only need to look like
 *   water can take 0.1 / s (scenes/dfsph-dam-break.json: 57 frames/s against 32).
 * - max_iterations: DFSPH: most iterations of each solve a substep, in [1, 1000]. Default 400.
 *   Each is two passes over the neighbours; a solve that reaches this many ends with its error
 *   above the tolerance (pdl_world_profile says how many it took). Deep still water is where
 *   the cap bites (the damped Jacobi iterations are slow on its lowest pressure mode): a 15 h
 *   pool after 20 s moves at 0.15 h/s r.m.s. with 100, at 0.05 h/s with 400. A splashing scene
 *   rarely needs more than 100 (scenes/dfsph-dam-break.json sets 100).
 */
typedef struct pdl_sph_def {
	PDL_SPH_FIELDS(PDL_FIELD_MEMBER, ~)
} pdl_sph_def;

/** How a world is built. Get one from pdl_default_world_def(), then change what you need. Its
 * fields, with their units, defaults, ranges and doc lines, are declared in puddle/fields.h
 * (PDL_WORLD_FIELDS); docs/scenes.md, "world" and "solver", is the same list as tables. Notes:
 * - dimensions: a 3D world uses every vector's z, and its circles are spheres and its discs
 *   balls; polygons and spirals are 2D only.
 * - interaction_radius: the neighbour grid uses cells of size h/2 (2D) or h (3D).
 * - substeps: more substeps allow stiffer, faster and deeper fluids; the fluid itself stays the
 *   same. Keep dt_sub sqrt(g depth) / h below about 0.15 (docs/physics.md, "Time step"). With
 *   PDL_SOLVER_SPH or DFSPH each pdl_world_step() takes as many substeps as the CFL rule of
 *   `sph` asks for, at least `substeps`.
 * - gravity: 2D worlds ignore z.
 * - threads: 0 means one per core this process may run on (its CPU affinity). Results are
 *   bitwise identical for every thread count. Threads that wait sleep after a short spin, and a
 *   late thread's work is taken by the others, so other programs' load, or more threads than
 *   cores, slow the step down gradually.
 * - max_particles: adding more fails with PDL_ERR_TOO_MANY_PARTICLES instead of running the
 *   machine out of memory. */
typedef struct pdl_world_def {
	PDL_WORLD_FIELDS(PDL_DEF_MEMBER, ~)
	/** SPH settings, used when solver is PDL_SOLVER_SPH or PDL_SOLVER_DFSPH. */
	pdl_sph_def sph;
} pdl_world_def;

/** A kind of fluid. Every particle has one; up to PDL_MAX_MATERIALS per world. Its fields, with
 * their units, defaults, valid ranges and meanings, are declared in puddle/fields.h
 * (PDL_MATERIAL_FIELDS); docs/scenes.md, "materials[i]", is the same list as a table. */
typedef struct pdl_material_def {
	PDL_MATERIAL_FIELDS(PDL_FIELD_MEMBER, ~)
} pdl_material_def;

/** The kinds of boundary. Containers keep fluid inside; obstacles keep fluid outside. */
typedef enum pdl_boundary_kind {
	PDL_BOUNDARY_CIRCLE_CONTAINER = 0, /**< inside a circle (3D: sphere): position, radius */
	PDL_BOUNDARY_BOX_CONTAINER,        /**< inside a box: position, half_extents, angle */
	PDL_BOUNDARY_CIRCLE,               /**< outside a circle (3D: sphere): position, radius */
	PDL_BOUNDARY_BOX,                  /**< outside a box: position, half_extents, angle */
	PDL_BOUNDARY_POLYGON,              /**< 2D: outside a convex polygon: position, angle, vertices */
	PDL_BOUNDARY_KIND_COUNT
} pdl_boundary_kind;

/** A wall: a container or a static or moving obstacle. Its fields are declared in
 * puddle/fields.h (PDL_BOUNDARY_FIELDS), each with the kinds that use it. Notes:
 * - velocity: friction and bounce act on the particle's velocity relative to it, so a moving
 *   paddle drags fluid along.
 * - vertices: relative to position, convex, counter-clockwise; vertex_count of them, in [3,
 *   PDL_MAX_POLYGON_VERTICES]. */
typedef struct pdl_boundary_def {
	PDL_BOUNDARY_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_boundary_def;

/** Shapes particles can be added in. */
typedef enum pdl_fill_shape {
	PDL_FILL_POINT = 0, /**< count particles at position (coincident; they spread apart) */
	PDL_FILL_LINE,      /**< from position to end, spacing apart */
	PDL_FILL_DISC,      /**< lattice inside a disc (3D: ball): position, radius */
	PDL_FILL_BOX,       /**< lattice inside a box: position, half_extents */
	PDL_FILL_SPIRAL,    /**< 2D: Fermat (sunflower) spiral disc: position, radius, count */
	PDL_FILL_SHAPE_COUNT
} pdl_fill_shape;

/** A batch of new particles. Its fields are declared in puddle/fields.h (PDL_FILL_FIELDS), each
 * with the shapes that use it. material is a material id from pdl_world_add_material(). */
typedef struct pdl_fill_def {
	PDL_FILL_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_fill_def;

/** A mouse or touch pushing the fluid (click and drag). Its fields are declared in
 * puddle/fields.h (PDL_POINTER_FIELDS). In 3D a non-zero direction makes the pointer a ray:
 * particles within radius of the half-line from position along it are pulled towards it (or
 * pushed, strength < 0) and dragged along velocity. 2D worlds ignore direction. */
typedef struct pdl_pointer {
	PDL_POINTER_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_pointer;

/** Particle state, structure of arrays, in the world's current storage order. The engine keeps
 * particles sorted by grid cell, so the order changes every step: use id to follow a particle.
 * Pointers returned by pdl_world_particles() stay valid until the next call that changes the
 * world (step, add, remove). */
typedef struct pdl_particle_data {
	int count;
	const float* x;  /**< position, world units */
	const float* y;
	const float* z;  /**< 3D worlds only; NULL in 2D */
	const float* vx; /**< velocity, world units / s */
	const float* vy;
	const float* vz; /**< 3D worlds only; NULL in 2D */
	const uint8_t* material; /**< material id */
	const uint32_t* id;      /**< stable id, unique in the world */
	/** Kernel density rho (Clavet eq. 1; SPH and DFSPH: the mass density sum_j m_j W, Mueller
	 * eq. 3, with the world's kernel) at the last step; read-only output, NULL on input. */
	const float* density;
	/** Pressure k (rho - rho0) (SPH: the equation of state's; DFSPH: its two pressure solves'
	 * together) at the last step. On input NULL, except to give a DFSPH world the pressures its
	 * solves start from (their warm start, as pdl_world_particles gave them, with
	 * divergence_pressure: a snapshot's resume then continues bit for bit); NULL starts from 0. */
	const float* pressure;
	/** DFSPH only (else NULL): the divergence solve's share of pressure, the warm start of that
	 * solve; on input as pressure. */
	const float* divergence_pressure;
	/** Viscoelastic springs: PDL_MAX_SPRINGS_PER_PARTICLE slots per particle, count * that many
	 * entries; the partner's current index, -1 for an empty slot. NULL when the world has no
	 * springs. Both ends of a spring hold it. */
	const int32_t* spring_partner;
	/** Rest length L of each spring slot, world units. */
	const float* spring_rest;
	/** The id the next added particle will get. */
	uint32_t next_id;
} pdl_particle_data;

/** How a body moves. */
typedef enum pdl_body_type {
	/** Moved by gravity, the fluid, walls, obstacles and other bodies. The default. */
	PDL_BODY_DYNAMIC = 0,
	/** Moved only by the caller: it travels at the velocity you give it (set its position and
	 * velocity each step, e.g. from an external rigid-body engine), pushes fluid and dynamic
	 * bodies aside, and pdl_world_body_force() tells what the fluid did to it. */
	PDL_BODY_KINEMATIC,
	PDL_BODY_TYPE_COUNT
} pdl_body_type;

/** A body's shape, in its own frame, centred on its position. */
typedef enum pdl_body_shape {
	PDL_BODY_BOX = 0, /**< half_extents (3D: a box, turned by orientation) */
	PDL_BODY_CIRCLE,  /**< radius (3D: a sphere) */
	PDL_BODY_POLYGON, /**< 2D only: a convex polygon, vertices around position */
	PDL_BODY_SHAPE_COUNT
} pdl_body_shape;

/** A rigid body in the fluid: it floats, sinks, tumbles and pushes the fluid back (the method,
 * boundary particles coupled both ways, is in docs/physics.md, "Bodies"). Get one from
 * pdl_default_body_def(); pdl_world_get_body() fills one with a body's current state. Its fields
 * are declared in puddle/fields.h (PDL_BODY_FIELDS), each with the shapes that use it. Notes:
 * - position: for a polygon, the origin its vertices are given around; the body is moved so
 *   that position is its centroid.
 * - angle is 2D's rotation, orientation 3D's (a quaternion, normalised, {0, 0, 0, 1} is none);
 *   each dimension ignores the other's.
 * - angular_velocity: 2D uses z (counter-clockwise positive), 3D the vector.
 * - radius and each half extent must be at least half the particle spacing (material 0's rest
 *   spacing); a polygon at least a spacing across.
 * - density: mass per unit area (3D: volume) as a multiple of the density of material 0's fluid
 *   at rest (its particle mass over the area, volume, one particle fills at its rest spacing):
 *   at 0.5 a body floats with half of itself under the surface of material 0, at 1.5 it sinks.
 *   The body's mass and moment of inertia follow from it and the shape (see
 *   pdl_world_body_mass()). Ignored for kinematic bodies.
 * - friction: Coulomb friction against walls, obstacles and other bodies; fluid slides along
 *   bodies as along walls, by the material's wall_friction. */
typedef struct pdl_body_def {
	PDL_BODY_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_body_def;

/** A body's handle. A removed body's id stays refused (PDL_ERR_BODY_ID) even after its slot is
 * reused, because the generation differs. */
typedef struct pdl_body_id {
	int32_t index;       /**< slot, 0 .. PDL_MAX_BODIES - 1; -1 for no body */
	uint32_t generation; /**< how many times the slot was used before */
} pdl_body_id;

/** A boundary's (container's or obstacle's) handle. A removed boundary's id stays refused
 * (PDL_ERR_BOUNDARY_ID) even after its slot is reused, because the generation differs. */
typedef struct pdl_boundary_id {
	int32_t index;       /**< slot, 0 .. PDL_MAX_BOUNDARIES - 1; -1 for no boundary */
	uint32_t generation; /**< how many times the slot was used before */
} pdl_boundary_id;

/** Mass properties of a body, from its shape and density. */
typedef struct pdl_body_mass {
	/** Mass, in the unit of pdl_material_def.mass. */
	float mass;
	/** Moment of inertia about the centre of mass, mass * world units^2: 2D in z; 3D the
	 * principal moments about the body's own x, y, z axes. */
	pdl_vec3 inertia;
	/** The boundary particles the body is sampled with (docs/physics.md, "Bodies"). */
	int particles;
	/** Their spacing, world units: material 0's rest spacing. */
	float spacing;
	/** The farthest point of the shape from the centre of mass, world units: a circle (3D: a
	 * sphere) of this radius about the body's position holds it in every orientation. */
	float bound_radius;
} pdl_body_mass;

/** What the fluid did to a body during the last pdl_world_step(): the momentum the fluid gave
 * it, divided by the step's dt. Equal and opposite to what the body did to the fluid. */
typedef struct pdl_body_force {
	pdl_vec3 force;  /**< mass * world units / s^2 */
	/** About the body's centre of mass, mass * world units^2 / s^2: 2D in z. */
	pdl_vec3 torque;
} pdl_body_force;

/** What the last step cost, stage by stage, in milliseconds. */
typedef struct pdl_profile {
	float step;       /**< whole pdl_world_step(), all substeps */
	float forces;     /**< gravity and pointers */
	float predict;    /**< prediction and sorting particles into the grid */
	float springs;    /**< spring creation, plasticity and displacement */
	float density;    /**< first neighbour pass: densities, pressures, viscosity impulses */
	float relax;      /**< second neighbour pass: relaxation displacements */
	float boundaries; /**< collisions with containers and obstacles */
	/** rigid bodies: their coupling to the fluid, contacts and integration (0 without bodies) */
	float bodies;
	float velocity;   /**< velocity from positions */
	/** Solver substeps the last pdl_world_step() took: world.substeps for Clavet, the CFL
	 * choice for SPH. (SPH worlds book their density and surface normal passes under density,
	 * their pressure, viscosity and surface tension forces and the integration under relax,
	 * their grid under predict.) */
	int substeps;
	/** Where the last pdl_world_step() ran (world.backend, or the CPU where a CUDA world used
	 * something the GPU step does not do). On the GPU the stages' times are the GPU's own
	 * (CUDA events) and `transfer` is the copying of the particles to the GPU and back. */
	pdl_backend backend;
	float transfer; /**< CUDA: copying particles between the host and the GPU, ms */
	/** DFSPH: iterations of the constant-density solve over the last pdl_world_step()'s
	 * substeps, and of the divergence solve (0 for the other solvers). DFSPH books its density
	 * and factor pass under density, both solves under relax, viscosity and surface tension
	 * under forces. */
	int density_iterations, divergence_iterations;
	/** DFSPH: the mean relative density error the last substep's constant-density solve ended
	 * with (what it compares with sph.density_tolerance). */
	float density_solve_error;
	/** Of `step`, the time the calling thread slept waiting for the world's other threads to
	 * finish work they had taken. Waits spin first and outlast the spin only when such a thread
	 * has no core (another program, or more threads than cores): near 0 otherwise, and a
	 * sizeable share of `step` means the solver is starved of cores. */
	float stalled;
	/** The diffuse particles' pass after the step (pdl_diffuse_def; 0 when they are off); not
	 * part of `step`. */
	float diffuse;
} pdl_profile;

/** Summary numbers of the current state. */
typedef struct pdl_stats {
	int particles;
	int springs;               /**< springs (each counted once) */
	long long steps;           /**< solver substeps taken */
	double time;               /**< simulated seconds */
	float max_speed;           /**< world units / s */
	/** Mean of |rho - rho0| / rho0 over particles with at least half their rest density (SPH:
	 * rho0 is the material's SPH rest density; the free surface is left out: it is not
	 * compressed, just thin). */
	float mean_density_error;
	float max_density_error;   /**< the largest such |rho - rho0| / rho0 */
	float mean_neighbours;     /**< mean count of neighbours within h */
	/** Share of particles, in [0, 1], with another particle closer than half their material's
	 * rest spacing: clumping, which the density error cannot show (a kernel sum over a pair at
	 * one place is about the sum over two particles a spacing apart). A fluid at rest has none;
	 * a few percent appear in splashes. Counted at the last CPU step's grid (0 after a GPU step). */
	float clumped;
	int non_finite;            /**< particles with a NaN or infinite position or velocity */
	pdl_vec3 momentum;         /**< sum of mass * velocity */
	pdl_vec3 centre_of_mass;
	/** Bytes the world holds in its GPU's memory (PDL_BACKEND_CUDA; 0 on the CPU). */
	long long device_bytes;
} pdl_stats;

/** What a diffuse particle is, from the count of fluid particles within h of it (Ihmsen et al.
 * 2012, sec. 5.2): it can change kind every step. */
typedef enum pdl_diffuse_kind {
	PDL_DIFFUSE_SPRAY = 0, /**< in the air: few fluid neighbours; falls under gravity alone */
	PDL_DIFFUSE_FOAM,      /**< on the surface: carried by the fluid's velocity; ages */
	PDL_DIFFUSE_BUBBLE,    /**< in the fluid: rises by buoyancy, dragged along by the fluid */
	PDL_DIFFUSE_KIND_COUNT
} pdl_diffuse_kind;

/** Diffuse particles: spray, foam and air bubbles made from the flow (Ihmsen, Akinci, Gissler &
 * Teschner 2012, "Unified Spray, Foam and Air Bubbles for Particle-Based Fluids"; src/diffuse.c,
 * docs/rendering.md). They are worked out after each pdl_world_step() from the fluid's positions
 * and velocities and never act back on the fluid, so a world steps to the same bits with them on
 * or off, and they are the same for every thread count. Off by default. Its fields, with their
 * units, defaults and ranges, are declared in puddle/fields.h (PDL_DIFFUSE_FIELDS); docs/scenes.md,
 * "diffuse", is the same list as a table. */
typedef struct pdl_diffuse_def {
	PDL_DIFFUSE_FIELDS(PDL_FIELD_MEMBER, ~)
} pdl_diffuse_def;

/** A world's diffuse particles, structure of arrays, in the order they were made (the oldest
 * first). The pointers stay valid until the next pdl_world_step() or pdl_world_set_diffuse(). */
typedef struct pdl_diffuse_data {
	int count;
	const float* x;  /**< position, world units */
	const float* y;
	const float* z;  /**< 0 in 2D worlds (never NULL while count > 0) */
	const float* vx; /**< velocity, world units / s (foam: the fluid's it moves with) */
	const float* vy;
	const float* vz;
	/** Life left, seconds: it runs down only while the particle is foam, which is removed at 0. */
	const float* life;
	const uint8_t* kind; /**< a pdl_diffuse_kind */
	/** How many of each pdl_diffuse_kind. */
	int kind_count[PDL_DIFFUSE_KIND_COUNT];
} pdl_diffuse_data;

/** A world with default settings: h = 1, dt = 1/60, one substep, gravity (0, -10). */
pdl_world_def pdl_default_world_def(void);
/** Water at h = 1: rest density 4, stiffness 60, near stiffness 30, no springs. */
pdl_material_def pdl_default_material_def(void);
/** A 2 x 2 box obstacle at the origin; friction and stickiness are the material's own. */
pdl_boundary_def pdl_default_boundary_def(void);
/** A box of 10 x 10 world units at the origin, spaced at rest density, material 0. */
pdl_fill_def pdl_default_fill_def(void);
/** A pointer of radius 5 attracting with 100 world units / s^2. */
pdl_pointer pdl_default_pointer(void);
/** A dynamic 2 x 2 (x 2) box at the origin, half as dense as material 0's fluid. */
pdl_body_def pdl_default_body_def(void);
/** Diffuse particles off, with Ihmsen 2012's model tuned for h = 1 and |g| = 10 (fields.h). */
pdl_diffuse_def pdl_default_diffuse_def(void);

#ifdef __cplusplus
}
#endif

#endif
