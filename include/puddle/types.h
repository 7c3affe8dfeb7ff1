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

/** How a world is built. Get one from pdl_default_world_def(), then change what you need. */
typedef struct pdl_world_def {
	/** h, the interaction radius: particles closer than h push and pull each other (world units,
	 * > 0). Default 1. The neighbour grid uses cells of size h/2. */
	float interaction_radius;
	/** Length of one pdl_world_step(), in seconds, in (0, 1]. Default 1/60. */
	float dt;
	/** Solver steps per pdl_world_step(), each of dt / substeps seconds, in [1, 64]. Default 1.
	 * More substeps allow stiffer, faster and deeper fluids; the fluid itself stays the same.
	 * Keep dt_sub sqrt(g depth) / h below about 0.15 (docs/physics.md, "Time step"). */
	int substeps;
	/** Gravity acceleration, world units / s^2, finite. Default (0, -10): y points up. */
	pdl_vec2 gravity;
	/** Threads for the step, in [0, 256]. 0 means one per available core. Default 0.
	 * Results are bitwise identical for every thread count. */
	int threads;
	/** The most particles this world will hold, in [1, 2^26]. Default 4,194,304. Adding more fails
	 * with PDL_ERR_TOO_MANY_PARTICLES instead of running the machine out of memory. */
	int max_particles;
} pdl_world_def;

/** A kind of fluid. Every particle has one; up to PDL_MAX_MATERIALS per world. */
typedef struct pdl_material_def {
	/** rho0, the rest density: the kernel sum sum_j (1 - q)^2 the fluid relaxes towards
	 * (Clavet eq. 1). > 0. Default 4, about 25 neighbours per particle. */
	float rest_density;
	/** k, pressure stiffness, P = k (rho - rho0) (Clavet eq. 2), world units / s^2, >= 0.
	 * The displacement per step is dt^2 k ..., so k is an acceleration and the same k gives the
	 * same fluid at any dt. Stable while k * dt_sub^2 stays below about 0.02 (measured at
	 * rest_density 4: k = 80 holds at one 1/60 s step, k = 100 does not); for a stiffer fluid
	 * raise world.substeps, since the bound grows with the square of the substep count.
	 * Default 60. */
	float stiffness;
	/** k_near, near-pressure stiffness, P_near = k_near rho_near (Clavet eq. 5), world units / s^2,
	 * >= 0. Keeps particles apart and gives surface tension. Same stability bound as k.
	 * Default 30. */
	float near_stiffness;
	/** Particle mass, relative, > 0. Displacements between two particles split by inverse mass,
	 * so heavier particles sink through lighter ones. Default 1. */
	float mass;
	/** Multiplies world gravity for this material; finite (negative floats up). Default 1. */
	float gravity_scale;
	/** sigma, linear viscosity of the viscosity impulses (Clavet alg. 5), 1/s, >= 0. Default 0.5. */
	float viscosity_sigma;
	/** beta, quadratic viscosity (Clavet alg. 5), 1/world unit, >= 0. Default 0.1. */
	float viscosity_beta;
	/** k_spring, viscoelastic spring constant (Clavet alg. 4), 1/s^2, >= 0. 0 turns springs off
	 * (a plain liquid). Springs join particles of the same material only. Default 0. */
	float spring_stiffness;
	/** gamma, yield ratio: a spring deforms by gamma * L before it flows (Clavet alg. 3), [0, 1].
	 * Default 0.1. */
	float yield_ratio;
	/** alpha, plasticity: how fast a yielded spring's rest length follows (Clavet alg. 3), 1/s,
	 * >= 0. 0 is purely elastic. Default 0.3. */
	float plasticity;
	/** mu, tangential friction against walls and obstacles, [0, 1]: 0 slips, 1 does not slip.
	 * Each boundary's friction multiplies it. Default 0.1. */
	float wall_friction;
	/** k_stick, stickiness towards walls (Clavet section 6), 1/s^2, >= 0. Each boundary's
	 * stickiness multiplies it. Default 0. */
	float wall_stickiness;
	/** d_stick, the distance within which stickiness pulls, as a fraction of h, (0, 1].
	 * Default 0.5. */
	float stick_distance;
	/** Display colour, 0xRRGGBB. Default 0x2a7fd4 (water blue). */
	uint32_t color;
} pdl_material_def;

/** The kinds of boundary. Containers keep fluid inside; obstacles keep fluid outside. */
typedef enum pdl_boundary_kind {
	PDL_BOUNDARY_CIRCLE_CONTAINER = 0, /**< inside a circle: position, radius */
	PDL_BOUNDARY_BOX_CONTAINER,        /**< inside a box: position, half_extents, angle */
	PDL_BOUNDARY_CIRCLE,               /**< outside a circle: position, radius */
	PDL_BOUNDARY_BOX,                  /**< outside a box: position, half_extents, angle */
	PDL_BOUNDARY_POLYGON,              /**< outside a convex polygon: position, angle, vertices */
	PDL_BOUNDARY_KIND_COUNT
} pdl_boundary_kind;

/** A wall: a container or a static or moving obstacle. */
typedef struct pdl_boundary_def {
	pdl_boundary_kind kind; /**< Default PDL_BOUNDARY_BOX. */
	/** Centre (circle, box) or origin of the vertices (polygon), world units. Default (0, 0). */
	pdl_vec2 position;
	/** Rotation in radians, counter-clockwise (box, polygon). Default 0. */
	float angle;
	/** Circle radius, world units, > 0. Default 1. */
	float radius;
	/** Box half width and half height, world units, > 0. Default (1, 1). */
	pdl_vec2 half_extents;
	/** Polygon vertex count in [3, PDL_MAX_POLYGON_VERTICES]. */
	int vertex_count;
	/** Polygon vertices relative to position, convex, counter-clockwise, world units. */
	pdl_vec2 vertices[PDL_MAX_POLYGON_VERTICES];
	/** Velocity of the boundary's surface, world units / s: friction and bounce act on the
	 * particle's velocity relative to it, so a moving paddle drags fluid along. Default (0, 0). */
	pdl_vec2 velocity;
	/** Multiplies the material's wall_friction mu, [0, 1]: 0 makes this wall slippery for every
	 * material. Default 1. */
	float friction;
	/** Share of the normal speed kept on impact, [0, 1]. Default 0 (fluid does not bounce). */
	float restitution;
	/** Multiplies the material's wall_stickiness k_stick, >= 0: 0 makes this wall never sticky.
	 * Default 1. */
	float stickiness;
} pdl_boundary_def;

/** Shapes particles can be added in. */
typedef enum pdl_fill_shape {
	PDL_FILL_POINT = 0, /**< count particles at position (coincident; they spread apart) */
	PDL_FILL_LINE,      /**< from position to end, spacing apart */
	PDL_FILL_DISC,      /**< hexagonal lattice inside a disc: position, radius */
	PDL_FILL_BOX,       /**< hexagonal lattice inside a box: position, half_extents */
	PDL_FILL_SPIRAL,    /**< Fermat (sunflower) spiral disc: position, radius, count */
	PDL_FILL_SHAPE_COUNT
} pdl_fill_shape;

/** A batch of new particles. */
typedef struct pdl_fill_def {
	pdl_fill_shape shape; /**< Default PDL_FILL_BOX. */
	int material;         /**< Material id from pdl_world_add_material(). Default 0. */
	pdl_vec2 position;    /**< Centre, point or line start, world units. Default (0, 0). */
	pdl_vec2 end;         /**< Line end, world units. Default (0, 0). */
	float radius;         /**< Disc and spiral radius, world units, > 0. Default 5. */
	pdl_vec2 half_extents; /**< Box half size, world units, > 0. Default (5, 5). */
	/** Distance between neighbouring particles, world units. 0 (the default) picks the spacing
	 * at which the material is at its rest density, so the fluid starts calm. Otherwise it must
	 * be at least 0.01 h. */
	float spacing;
	/** Point: how many particles (0 counts as 1). Spiral: how many particles, 0 = as many as the
	 * spacing gives. >= 0. Default 0. */
	int count;
	pdl_vec2 velocity; /**< Initial velocity, world units / s. Default (0, 0). */
} pdl_fill_def;

/** A mouse or touch pushing the fluid (references 001-003: click and drag). */
typedef struct pdl_pointer {
	pdl_vec2 position; /**< world units */
	/** The pointer's own velocity, world units / s: with drag > 0 the fluid is carried along. */
	pdl_vec2 velocity;
	/** Reach, world units, > 0. The effect falls off linearly to zero at the edge. Default 5. */
	float radius;
	/** Acceleration toward the pointer at its centre, world units / s^2. Negative repels.
	 * Default 100. */
	float strength;
	/** How strongly particles are pulled to the pointer's velocity, 1/s, >= 0. Default 0. */
	float drag;
} pdl_pointer;

/** Particle state, structure of arrays, in the world's current storage order. The engine keeps
 * particles sorted by grid cell, so the order changes every step: use id to follow a particle.
 * Pointers returned by pdl_world_particles() stay valid until the next call that changes the
 * world (step, add, remove). */
typedef struct pdl_particle_data {
	int count;
	const float* x;  /**< position, world units */
	const float* y;
	const float* vx; /**< velocity, world units / s */
	const float* vy;
	const uint8_t* material; /**< material id */
	const uint32_t* id;      /**< stable id, unique in the world */
	/** Kernel density rho (Clavet eq. 1) at the last step; read-only output, NULL on input. */
	const float* density;
	/** Pressure k (rho - rho0) at the last step; read-only output, NULL on input. */
	const float* pressure;
	/** Viscoelastic springs: PDL_MAX_SPRINGS_PER_PARTICLE slots per particle, count * that many
	 * entries; the partner's current index, -1 for an empty slot. NULL when the world has no
	 * springs. Both ends of a spring hold it. */
	const int32_t* spring_partner;
	/** Rest length L of each spring slot, world units. */
	const float* spring_rest;
	/** The id the next added particle will get. */
	uint32_t next_id;
} pdl_particle_data;

/** What the last step cost, stage by stage, in milliseconds. */
typedef struct pdl_profile {
	float step;       /**< whole pdl_world_step(), all substeps */
	float forces;     /**< gravity and pointers */
	float predict;    /**< prediction and sorting particles into the grid */
	float springs;    /**< spring creation, plasticity and displacement */
	float density;    /**< first neighbour pass: densities, pressures, viscosity impulses */
	float relax;      /**< second neighbour pass: relaxation displacements */
	float boundaries; /**< collisions with containers and obstacles */
	float velocity;   /**< velocity from positions */
} pdl_profile;

/** Summary numbers of the current state. */
typedef struct pdl_stats {
	int particles;
	int springs;               /**< springs (each counted once) */
	long long steps;           /**< solver substeps taken */
	double time;               /**< simulated seconds */
	float max_speed;           /**< world units / s */
	/** Mean of |rho - rho0| / rho0 over particles with at least half their rest density (the
	 * free surface is left out: it is not compressed, just thin). */
	float mean_density_error;
	float max_density_error;   /**< the largest such |rho - rho0| / rho0 */
	float mean_neighbours;     /**< mean count of neighbours within h */
	int non_finite;            /**< particles with a NaN or infinite position or velocity */
	pdl_vec2 momentum;         /**< sum of mass * velocity */
	pdl_vec2 centre_of_mass;
} pdl_stats;

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

#ifdef __cplusplus
}
#endif

#endif
