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

/** pdl_world_def */
export interface WorldDef {
	/** 2 (default) or 3; fixed when the world is created. */
	dimensions: number;
	interaction_radius: number;
	dt: number;
	substeps: number;
	gravity: Vec3;
	threads: number;
	max_particles: number;
}

/** pdl_material_def */
export interface MaterialDef {
	rest_density: number;
	stiffness: number;
	near_stiffness: number;
	mass: number;
	gravity_scale: number;
	viscosity_sigma: number;
	viscosity_beta: number;
	spring_stiffness: number;
	yield_ratio: number;
	plasticity: number;
	wall_friction: number;
	wall_stickiness: number;
	stick_distance: number;
	/** 0xRRGGBB; "#rrggbb" is accepted on input. */
	color: number;
}

/** pdl_boundary_def */
export interface BoundaryDef {
	kind: number;
	position: Vec3;
	/** Radians, counter-clockwise; in 3D a box turns about the z axis. */
	angle: number;
	radius: number;
	half_extents: Vec3;
	vertex_count: number;
	/** Polygons only (2D only). */
	vertices: Vec2[];
	velocity: Vec3;
	friction: number;
	restitution: number;
	stickiness: number;
}

/** pdl_fill_def */
export interface FillDef {
	shape: number;
	material: number;
	position: Vec3;
	end: Vec3;
	radius: number;
	half_extents: Vec3;
	spacing: number;
	count: number;
	velocity: Vec3;
}

/** pdl_pointer */
export interface Pointer {
	position: Vec3;
	/** 3D only: non-zero makes the pointer the half-line from position along it (a mouse ray). */
	direction: Vec3;
	velocity: Vec3;
	radius: number;
	/** Negative repels. */
	strength: number;
	drag: number;
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
	velocity: number;
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
	restSpacing(interactionRadius: number, restDensity: number): number;
	/** Face-centred cubic rest spacing, 3D (pdl_rest_spacing_3d). */
	restSpacing3d(interactionRadius: number, restDensity: number): number;
	createWorld(def?: Input<WorldDef>): World;
}

export declare class World {
	readonly puddle: Puddle;
	/** 2 or 3. */
	readonly dimensions: number;
	destroy(): void;
	step(frames?: number): void;
	readonly def: WorldDef;
	setDef(values: Input<WorldDef>): void;
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
	positions(): { count: number; x: Float32Array; y: Float32Array; z: Float32Array | null };
	setParticles(state: ParticleState): void;
	addBoundary(def?: Input<BoundaryDef>): number;
	addBox(x: number, y: number, halfWidth: number, halfHeight: number, extra?: Input<BoundaryDef>): number;
	addBox(centre: Vec3Input, halfExtents: Vec3Input, extra?: Input<BoundaryDef>): number;
	getBoundary(id: number): BoundaryDef | null;
	setBoundary(id: number, values: Input<BoundaryDef>): void;
	removeBoundary(id: number): void;
	boundaries(): LiveBoundary[];
	setPointer(index: number, pointer: Input<Pointer>): void;
	clearPointer(index: number): void;
	stats(): Stats;
	profile(): Profile;
	/** 16 hex digits; equal hashes mean bitwise-equal particle states. */
	hash(): string;
	readonly time: number;
	readonly stepCount: number;
	readonly threadCount: number;
}
