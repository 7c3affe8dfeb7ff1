// Types of web/src/puddle.js. Def fields keep their C names; units and valid ranges are those
// documented field by field in include/puddle/types.h.

export interface Vec2 { x: number; y: number }
/** pdl_vec3; 2D worlds ignore z. */
export interface Vec3 { x: number; y: number; z: number }
/** Polygon vertices (2D only) are accepted as {x, y} or [x, y]. */
export type Vec2Input = Vec2 | [number, number];
/** Def vectors are accepted as {x, y}, {x, y, z}, [x, y] or [x, y, z] (z defaults to 0); they are returned as {x, y, z}. */
export type Vec3Input = Vec2 | { x: number; y: number; z?: number } | [number, number] | [number, number, number];
/** {x, y, z} of any Vec3Input (z defaults to 0). */
export declare function vec3(v: Vec3Input, what?: string): Vec3;

export declare const BoundaryKind: Readonly<{ CIRCLE_CONTAINER: 0; BOX_CONTAINER: 1; CIRCLE: 2; BOX: 3; POLYGON: 4 }>;
export declare const FillShape: Readonly<{ POINT: 0; LINE: 1; DISC: 2; BOX: 3; SPIRAL: 4 }>;
export declare const MAX_POINTERS: 8;
/** pdl_body_type */
export declare const BodyType: Readonly<{ DYNAMIC: 0; KINEMATIC: 1 }>;
/** pdl_body_shape: CIRCLE is a sphere in 3D, POLYGON is 2D only. */
export declare const BodyShape: Readonly<{ BOX: 0; CIRCLE: 1; POLYGON: 2 }>;
/** pdl_solver_kind: world_def.solver (setDef and createWorld take "clavet", "sph", "dfsph" too). */
export declare const Solver: Readonly<{ CLAVET: 0; SPH: 1; DFSPH: 2 }>;
/** PDL_MAX_BODIES */
export declare const MAX_BODIES: 4096;

/** pdl_quat: a rotation, {0, 0, 0, 1} is none. */
export interface Quat { x: number; y: number; z: number; w: number }
/** Quaternions are accepted as {x, y, z, w} or [x, y, z, w]. */
export type QuatInput = Quat | [number, number, number, number];
/** A body's id: the packed int of pdl_body_id_to_int (slot + generation * 4096); a removed body's id stays refused. */
export type BodyId = number;

// generated from include/puddle/fields.h: world (io/tests/fields_gen.c)
/** pdl_world_def */
export interface WorldDef {
	/** 2 or 3: a 3D world uses every vector's z, its circles are spheres; fixed when the world is created; 2 or 3; default 2. */
	dimensions: number;
	/** gravity acceleration, scaled per material and body by `gravity_scale`; y points up; world units / s^2; finite. */
	gravity: Vec3;
	/** length of one frame (one `pdl_world_step`); s; (0, 1]; default 0.016666668. */
	dt: number;
	/** solver steps per frame, each `dt / substeps` long; raise it for stiff or fast fluids; SPH and DFSPH: the least substeps, the CFL rule may take more; [1, 64]; default 1. */
	substeps: number;
	/** the solver: Clavet 2005 double density relaxation, SPH after Mueller, Charypar & Gross 2003, or incompressible divergence-free SPH after Bender & Koschier 2017 (docs/physics.md); PDL_SOLVER_CLAVET, PDL_SOLVER_SPH or PDL_SOLVER_DFSPH; default 0. */
	solver: number;
	/** h: particles closer than h push and pull each other; the neighbour grid has cells of h/2 (3D: h); world units; > 0; default 1. */
	interaction_radius: number;
	/** where the step runs: the CPU's cores, or an NVIDIA GPU in a build with CUDA (docs/cuda.md); a scene asking for "cuda" parses anywhere and fails when its world is built where there is no GPU; PDL_BACKEND_CPU, or PDL_BACKEND_CUDA where the build has CUDA and the machine a GPU; default 0. */
	backend: number;
	/** worker threads, 0 = one per core; results are bitwise identical for any count; [0, 256]; default 0. */
	threads: number;
	/** the most particles the world may hold (a scene's fills and emitters together); [1, 67108864]; default 4194304. */
	max_particles: number;
	/** The SPH and DFSPH solvers' settings (ignored by Clavet worlds). */
	sph: SphDef;
}
// end of generated: world

// generated from include/puddle/fields.h: world.sph (io/tests/fields_gen.c)
/** pdl_sph_def */
export interface SphDef {
	/** SPH: c, stiffness of the equation of state (dp/drho = c^2) and the CFL time step; compression is about (v/c)^2 and g depth / c^2, so keep c about 10x the fastest flow; world units / s; > 0; default 100. */
	speed_of_sound: number;
	/** SPH: equation of state: Tait p = rho0 c^2 / gamma ((rho/rho0)^gamma - 1), or p = c^2 (rho - rho0); negative pressures clamp to 0; 0 tait, 1 linear; default tait. */
	eos: number;
	/** SPH: the Tait exponent; [1, 10]; default 7. */
	gamma: number;
	/** SPH: the kernels of the density and the pressure force: Wendland C2 for both (does not pair particles; DFSPH's kernel), Mueller's Poly6 for both (pairs nearly every particle of a resting pool within seconds) or Poly6 with Spiky's gradient (pumps energy in with a stiff `eos`: a resting pool never comes to rest); docs/physics.md; 0 poly6, 1 spiky, 2 wendland; default wendland. */
	pressure_kernel: number;
	/** SPH and DFSPH: nu, kinematic viscosity (SPH: Laplacian form, Mueller eq. 14; DFSPH: Monaghan 2005); world units^2 / s; >= 0; default 0.5. */
	viscosity: number;
	/** SPH and DFSPH: XSPH, share of the velocity difference to the neighbours' mean removed per 1/60 s; [0, 1]; default 0.05. */
	xsph: number;
	/** SPH and DFSPH: gamma_st, Akinci 2013 cohesion and curvature; calm up to about 100 at c = 100; world units / s^2; >= 0; default 0. */
	surface_tension: number;
	/** SPH and DFSPH: the substep rule: SPH dt_sub <= cfl h / (c + v_max), cfl sqrt(h / a_max), cfl h^2 / (8 nu); DFSPH dt_sub <= cfl s / v_max, cfl sqrt(s / a_max), cfl h^2 / (8 nu) with s the rest spacing; (0, 1]; default 0.4. */
	cfl: number;
	/** SPH and DFSPH: most substeps per frame the CFL rule may take; [1, 4096]; default 256. */
	max_substeps: number;
	/** DFSPH: the relative density error the constant-density solve iterates down to (the larger of the mean over the particles under pressure and a twentieth of the largest); (0, 0.1]; default 0.0001. */
	density_tolerance: number;
	/** DFSPH: the relative rate of compression the divergence solve iterates down to, its mean over the particles with at least 0.95 of their rest density; looser (0.1) is cheaper and lets a deep pool breathe; 1 / s; (0, 10]; default 0.003. */
	divergence_tolerance: number;
	/** DFSPH: most iterations of each of the two pressure solves a substep; deep still water needs them (a 15 h pool moves at 0.15 h/s r.m.s. after 20 s at 100, 0.05 h/s at 400), a splash rarely more than 100; [1, 1000]; default 400. */
	max_iterations: number;
}
// end of generated: world.sph

/** A world def to write: any fields; the solver by number or name, sph's fields any of them. */
export type WorldDefInput = Omit<Input<WorldDef>, 'solver' | 'sph'> & {
	solver?: number | 'clavet' | 'sph' | 'dfsph';
	sph?: Omit<Partial<SphDef>, 'eos' | 'pressure_kernel'> & {
		eos?: number | 'tait' | 'linear';
		pressure_kernel?: number | 'poly6' | 'spiky' | 'wendland';
	};
};

// generated from include/puddle/fields.h: material (io/tests/fields_gen.c)
/** pdl_material_def */
export interface MaterialDef {
	/** rho0 = sum_j (1 - r_ij/h)^2 at rest (Clavet eq. 1); 4 is about 25 neighbours; kernel sum (dimensionless); > 0; default 4. */
	rest_density: number;
	/** k, pressure P = k (rho - rho0) (eq. 2); stable while k dt_sub^2 < about 0.02; world units / s^2; >= 0; default 60. */
	stiffness: number;
	/** k_near, near pressure (eq. 5): keeps particles apart, gives surface tension; world units / s^2; >= 0; default 30. */
	near_stiffness: number;
	/** pair displacements split by inverse mass: heavier sinks through lighter; relative; > 0; default 1. */
	mass: number;
	/** multiplies `world.gravity`; negative floats up; finite; default 1. */
	gravity_scale: number;
	/** sigma, linear viscosity impulses (alg. 5); 1/s; >= 0; default 0.5. */
	viscosity_sigma: number;
	/** beta, quadratic viscosity impulses (alg. 5); 1/world unit; >= 0; default 0.1. */
	viscosity_beta: number;
	/** k_spring, viscoelastic springs between particles of one material (alg. 4); 0 = a plain liquid; 1/s^2; >= 0; default 0. */
	spring_stiffness: number;
	/** gamma: a spring deforms by gamma L before it flows (alg. 3); [0, 1]; default 0.1. */
	yield_ratio: number;
	/** alpha: how fast a yielded spring's rest length follows (alg. 3); 0 = elastic; 1/s; >= 0; default 0.3. */
	plasticity: number;
	/** Coulomb mu against walls, obstacles and bodies: a contact slows the sliding by at most mu times the normal speed it removes (water slides down slopes steeper than atan mu); multiplied by the boundary's (body's) `friction`; [0, 1]; default 0.1. */
	wall_friction: number;
	/** k_stick (section 6); multiplied by the boundary's `stickiness`; 1/s^2; >= 0; default 0. */
	wall_stickiness: number;
	/** d_stick: reach of stickiness; fraction of h; (0, 1]; default 0.5. */
	stick_distance: number;
	/** display colour, 0xRRGGBB; "#rrggbb" is accepted on input. */
	color: number;
}
// end of generated: material

// generated from include/puddle/fields.h: boundary (io/tests/fields_gen.c)
/** pdl_boundary_def */
export interface BoundaryDef {
	/** the shape: a container keeps the fluid inside, an obstacle outside; polygons are 2D only; a known kind; default 3. */
	kind: number;
	/** centre (circle, box) or origin of the vertices (polygon); world units; finite. */
	position: Vec3;
	/** circle (3D: sphere) radius; world units; > 0; default 1. */
	radius: number;
	/** half width, height (3D: and depth); world units; > 0 each. */
	half_extents: Vec3;
	/** rotation about `position`, counter-clockwise (3D: about the z axis); radians; finite; default 0. */
	angle: number;
	/** how many of `vertices` the polygon has; [3, 16]. */
	vertex_count: number;
	/** the polygon's corners, counter-clockwise; world units, relative to `position`; finite, convex, counter-clockwise, with non-zero area. */
	vertices: Vec2[];
	/** surface velocity: friction and bounce act on the fluid's velocity relative to it, so it drags fluid along (a conveyor); the boundary itself does not move; world units / s; finite. */
	velocity: Vec3;
	/** multiplies the material's `wall_friction` (mu); 0 makes the wall slippery for every material; [0, 1]; default 1. */
	friction: number;
	/** share of the normal speed kept on impact; [0, 1]; default 0. */
	restitution: number;
	/** multiplies the material's `wall_stickiness` (k_stick); 0 makes the wall never sticky; >= 0; default 1. */
	stickiness: number;
}
// end of generated: boundary

// generated from include/puddle/fields.h: fill (io/tests/fields_gen.c)
/** pdl_fill_def */
export interface FillDef {
	/** box and disc (3D: ball): a lattice; sunflower (2D): a Fermat spiral disc, no lattice directions; line: a row; point: particles at one spot; a known shape; default 3. */
	shape: number;
	/** the material (a scene names it; default the first); default 0. */
	material: number;
	/** centre; start of a line; the point; world units; finite. */
	position: Vec3;
	/** end of the line; world units; finite. */
	end: Vec3;
	/** disc (3D: ball) and sunflower radius; world units; > 0; default 5. */
	radius: number;
	/** half width, height (3D: and depth); world units; > 0 each. */
	half_extents: Vec3;
	/** distance between neighbours; 0 = the spacing at which the material is at its rest density (the fluid starts calm), else at least 0.01 h; world units; >= 0; finite and >= 0.01 * interaction_radius; default 0. */
	spacing: number;
	/** how many particles: point, 0 counts as 1 (a scene's default is 1); sunflower, 0 = as many as the spacing gives; >= 0; default 0. */
	count: number;
	/** initial velocity; world units / s; finite. */
	velocity: Vec3;
}
// end of generated: fill

// generated from include/puddle/fields.h: pointer (io/tests/fields_gen.c)
/** pdl_pointer */
export interface Pointer {
	/** the pointer's centre (3D: the ray's origin); world units; finite. */
	position: Vec3;
	/** 3D only: zero makes the pointer a ball around position, any other direction the half-line from position along it (a mouse ray); need not be unit length; finite. */
	direction: Vec3;
	/** the pointer's own velocity: with drag > 0 the fluid is carried along; world units / s; finite. */
	velocity: Vec3;
	/** reach; the effect falls off linearly to zero at the edge; world units; > 0; default 5. */
	radius: number;
	/** acceleration toward the pointer at its centre; negative repels; world units / s^2; finite; default 100. */
	strength: number;
	/** how strongly particles are pulled to the pointer's velocity; 1/s; >= 0; default 0. */
	drag: number;
}
// end of generated: pointer

// generated from include/puddle/fields.h: body (io/tests/fields_gen.c)
/** pdl_body_def: a rigid body in the fluid (docs/physics.md, "Bodies"); body() returns it with the current state */
export interface BodyDef {
	/** a box of `half_extents`, a circle (3D: sphere) of `radius`, or a convex polygon of `vertices` (2D only); PDL_BODY_BOX, PDL_BODY_CIRCLE or PDL_BODY_POLYGON; default 0. */
	shape: number;
	/** dynamic: moved by gravity, the fluid, walls and other bodies; kinematic: moves at its own velocity only; PDL_BODY_DYNAMIC or PDL_BODY_KINEMATIC; default 0. */
	type: number;
	/** centre of mass; for a polygon the origin of its `vertices` (the body is then moved so that its centroid is there); world units; finite. */
	position: Vec3;
	/** 2D: rotation, counter-clockwise; radians; finite; default 0. */
	angle: number;
	/** 3D: rotation from the body's frame to the world's, [x, y, z, w] (normalised): about the unit axis u by a is [u sin(a/2), cos(a/2)]; quaternion; finite and not zero. */
	orientation: Quat;
	/** velocity of the centre of mass (a kinematic body keeps it); world units / s; finite. */
	linear_velocity: Vec3;
	/** 2D: counter-clockwise turn rate (z); 3D: along the axis, right-handed; radians / s; finite. */
	angular_velocity: Vec3;
	/** circle (3D: sphere) radius; world units; > 0; finite and >= 0.5 * particle spacing; default 1. */
	radius: number;
	/** half width, height (3D: and depth); world units; > 0; finite and >= 0.5 * particle spacing. */
	half_extents: Vec3;
	/** how many of `vertices` the polygon has; [3, 16]. */
	vertex_count: number;
	/** the polygon's corners, counter-clockwise; world units, relative to `position`; finite, convex, counter-clockwise, at least a particle spacing across. */
	vertices: Vec2[];
	/** mass per area (3D: volume): below 1 floats, above 1 sinks; unused by kinematic bodies. A 3D scene refuses less than 1e-6: the fluid would fling the body until its speed overflows float; times the first material's fluid density; (0, 1000]; default 0.5. */
	density: number;
	/** Coulomb friction against walls, obstacles and other bodies (the fluid slides along a body by its material's `wall_friction`); [0, 1]; default 0.5. */
	friction: number;
	/** share of the normal speed kept when it hits a wall or another body; [0, 1]; default 0.1. */
	restitution: number;
	/** multiplies `world.gravity` for this body; finite; default 1. */
	gravity_scale: number;
	/** display colour, 0xRRGGBB (default wood); "#rrggbb" is accepted on input. */
	color: number;
}
// end of generated: body

/** A body def on input: any fields over pdl_default_body_def(); type and shape also by name. */
export type BodyDefInput = Omit<Input<BodyDef>, 'type' | 'shape' | 'orientation'> & {
	type?: number | 'dynamic' | 'kinematic';
	shape?: number | 'box' | 'circle' | 'sphere' | 'polygon';
	orientation?: QuatInput;
};

/** A live body: its def with the current state, its id, and in 2D its outline. */
export interface LiveBody extends BodyDef {
	id: BodyId;
	/** 2D boxes and polygons: world-space corners, counter-clockwise; empty for circles and in 3D. */
	corners: Vec2[];
}

/** pdl_body_mass */
export interface BodyMass {
	/** In the unit of MaterialDef.mass. */
	mass: number;
	/** About the centre of mass: 2D in z; 3D the principal moments about the body's own axes. */
	inertia: Vec3;
	/** Boundary particles the body is sampled with. */
	particles: number;
	/** Their spacing, world units (material 0's rest spacing). */
	spacing: number;
}

/** pdl_body_force: what the fluid did to a body over the last step. */
export interface BodyForce {
	/** mass * world units / s^2 */
	force: Vec3;
	/** About the centre of mass, mass * world units^2 / s^2; 2D in z. */
	torque: Vec3;
}

type Input<T> = { [K in keyof T]?: T[K] extends Vec3 ? Vec3Input : T[K] extends Vec2[] ? Vec2Input[] : T[K] extends number ? number | (K extends 'color' ? string : never) : T[K] };

/** pdl_stats */
export interface Stats {
	particles: number;
	springs: number;
	steps: number;
	time: number;
	max_speed: number;
	mean_density_error: number;
	max_density_error: number;
	mean_neighbours: number;
	/** share of particles closer than half a rest spacing to another */
	clumped: number;
	non_finite: number;
	momentum: Vec3;
	centre_of_mass: Vec3;
}

/** pdl_profile: milliseconds per stage of the last step. */
export interface Profile {
	step: number;
	forces: number;
	/** prediction and the sort into the grid */
	predict: number;
	springs: number;
	/** first neighbour pass: densities, pressures and viscosity impulses */
	density: number;
	/** second neighbour pass: relaxation displacements */
	relax: number;
	boundaries: number;
	/** rigid bodies: their coupling to the fluid, contacts and integration */
	bodies: number;
	velocity: number;
	/** of `step`, the time the calling thread waited for workers that had no core (other
	 * programs, or more threads than cores): near 0 unless the solver is starved */
	stalled: number;
	/** solver substeps the step took (SPH, DFSPH: the CFL rule's choice) */
	substeps: number;
	/** DFSPH: iterations of the constant-density and the divergence solves, all substeps */
	density_iterations: number;
	divergence_iterations: number;
	/** DFSPH: the mean relative density error the last constant-density solve ended with */
	density_solve_error: number;
}

/** Zero-copy views into wasm memory; valid until the next call that changes the world. */
export interface ParticleViews {
	count: number;
	x: Float32Array;
	y: Float32Array;
	/** 3D worlds only; null in 2D. */
	z: Float32Array | null;
	vx: Float32Array;
	vy: Float32Array;
	/** 3D worlds only; null in 2D. */
	vz: Float32Array | null;
	density: Float32Array;
	pressure: Float32Array;
	material: Uint8Array;
	id: Uint32Array;
	nextId: number;
}

/** A world's spray, foam and bubbles (pdl_diffuse_data), zero-copy, oldest first. */
export interface DiffuseViews {
	count: number;
	x: Float32Array;
	y: Float32Array;
	/** 0 in 2D worlds. */
	z: Float32Array;
	vx: Float32Array;
	vy: Float32Array;
	vz: Float32Array;
	/** Life left, seconds (it runs down while the particle is foam). */
	life: Float32Array;
	/** 0 spray, 1 foam, 2 bubble. */
	kind: Uint8Array;
	/** How many of each kind: [spray, foam, bubbles]. */
	kindCount: number[];
}

export interface ParticleState {
	x: ArrayLike<number>;
	y: ArrayLike<number>;
	/** Required in 3D worlds. */
	z?: ArrayLike<number>;
	vx: ArrayLike<number>;
	vy: ArrayLike<number>;
	/** Required in 3D worlds. */
	vz?: ArrayLike<number>;
	material: ArrayLike<number>;
	id?: ArrayLike<number>;
	nextId?: number;
}

export interface SpawnOptions { material?: number; count?: number; radius?: number; velocity?: Vec3Input }

export interface LiveBoundary extends BoundaryDef {
	id: number;
	/**
	 * World-space corners of boxes and polygons, counter-clockwise; empty for circles. In 3D a box
	 * has 8 corners with z: its back face (z - half_extents.z), then its front face.
	 */
	corners: (Vec2 & { z?: number })[];
}

export declare class PuddleError extends Error {
	/** The core's error name, e.g. "PDL_ERR_MATERIAL_MASS". */
	id: string;
	value: number;
}

export interface LoadOptions {
	/** Threads wanted; above 1 loads the threaded build where the page is cross-origin isolated. */
	threads?: number;
	/** Where puddle.mjs / puddle.wasm live; default ../dist/ next to this module. */
	distUrl?: string | URL;
}

export declare function loadPuddle(options?: LoadOptions): Promise<Puddle>;
export declare function threadsAvailable(): boolean;
export declare function parseColor(c: number | string): number;

export declare class Puddle {
	readonly version: string;
	readonly threads: number;
	readonly threaded: boolean;
	defaultWorldDef(): WorldDef;
	defaultMaterialDef(): MaterialDef;
	defaultBoundaryDef(): BoundaryDef;
	defaultFillDef(): FillDef;
	defaultPointer(): Pointer;
	defaultBodyDef(): BodyDef;
	restSpacing(interactionRadius: number, restDensity: number): number;
	/** Face-centred cubic rest spacing, 3D (pdl_rest_spacing_3d). */
	restSpacing3d(interactionRadius: number, restDensity: number): number;
	createWorld(def?: WorldDefInput): World;
}

export declare class World {
	readonly puddle: Puddle;
	/** 2 or 3. */
	readonly dimensions: number;
	destroy(): void;
	step(frames?: number): void;
	readonly def: WorldDef;
	setDef(values: WorldDefInput): void;
	addMaterial(def?: Input<MaterialDef>): number;
	getMaterial(id: number): MaterialDef;
	setMaterial(id: number, values: Input<MaterialDef>): void;
	readonly materialCount: number;
	fill(def?: Input<FillDef>): number;
	spawn(x: number, y: number, options?: SpawnOptions): number;
	spawn(position: Vec3Input, options?: SpawnOptions): number;
	/** A circle in 2D, a sphere in 3D. */
	removeParticlesInCircle(x: number, y: number, radius: number): number;
	removeParticlesInCircle(centre: Vec3Input, radius: number): number;
	removeParticlesInBox(x: number, y: number, halfWidth: number, halfHeight: number): number;
	removeParticlesInBox(centre: Vec3Input, halfExtents: Vec3Input): number;
	readonly particleCount: number;
	particles(): ParticleViews;
	/** The world's diffuse particles (a scene's "diffuse" section); count 0 when they are off. */
	diffuse(): DiffuseViews;
	positions(): { count: number; x: Float32Array; y: Float32Array; z: Float32Array | null };
	setParticles(state: ParticleState): void;
	/** Adds a container or obstacle; returns its id (a packed int: a removed boundary's id stays refused
	 * after its slot is reused). Throws PuddleError (PDL_ERR_BOUNDARY_*). */
	addBoundary(def?: Input<BoundaryDef>): number;
	addBox(x: number, y: number, halfWidth: number, halfHeight: number, extra?: Input<BoundaryDef>): number;
	addBox(centre: Vec3Input, halfExtents: Vec3Input, extra?: Input<BoundaryDef>): number;
	getBoundary(id: number): BoundaryDef | null;
	/** Throws PDL_ERR_BOUNDARY_ID for an id that is not live; on error nothing changes. */
	setBoundary(id: number, values: Input<BoundaryDef>): void;
	/** Throws PDL_ERR_BOUNDARY_ID for an id that is not live. */
	removeBoundary(id: number): void;
	hasBoundary(id: number): boolean;
	boundaries(): LiveBoundary[];
	/** Adds a rigid body (fields over defaultBodyDef()); returns its id. Throws PuddleError (PDL_ERR_BODY_*). */
	addBody(def?: BodyDefInput): BodyId;
	/** Throws PDL_ERR_BODY_ID for an id that is not live. */
	removeBody(id: BodyId): void;
	hasBody(id: BodyId): boolean;
	/** The body's def with its current state; null if the id is not live. */
	body(id: BodyId): LiveBody | null;
	/** Changes some fields (state or anything else) between steps; on error nothing changes. */
	setBody(id: BodyId, values: BodyDefInput): void;
	/** Live ids in slot order. */
	bodies(): BodyId[];
	readonly bodyCount: number;
	/** Zeros if the id is not live. */
	bodyMass(id: BodyId): BodyMass;
	/** Over the last step; zeros if the id is not live. */
	bodyForce(id: BodyId): BodyForce;
	setPointer(index: number, pointer: Input<Pointer>): void;
	clearPointer(index: number): void;
	stats(): Stats;
	profile(): Profile;
	/** 16 hex digits; equal hashes mean bitwise-equal particle (and body) states. */
	hash(): string;
	readonly time: number;
	readonly stepCount: number;
	readonly threadCount: number;
}
