// Types of web/src/scene.js: scene files (docs/scenes.md) read by io's C scene layer in the
// WebAssembly module.
import type { Camera } from './camera.js';
import type { BodyDef, BoundaryDef, FillDef, MaterialDef, Puddle, Vec3, World, WorldDef, WorldDefInput } from './puddle.js';

/** A scene vector, {x, y, z} (z is 0 in 2D scenes). */
export type SceneVec = Vec3;

export declare const COLOR_MODES: readonly ['material', 'speed', 'density', 'pressure'];

/** A scene the C loader refused; `message` is the line the puddle command prints. */
export declare class SceneError extends Error {
	/** What failed, a pdl_error_id's name: PDL_ERR_SCENE_VALUE, PDL_ERR_SCENE_KEY, PDL_ERR_SCENE_SYNTAX, or the engine's own
	 * (PDL_ERR_BODY_OUTSIDE, ...) where the world refused a value. */
	id: string;
	file: string;
	/** JSON path, e.g. "materials[1].rest_density"; "" for a syntax error. */
	path: string;
	/** What is wrong, e.g. "must be > 0, got -3". */
	rule: string;
	/** Of a JSON syntax error, 1-based; 0 otherwise. */
	line: number;
	column: number;
}

export interface SceneFill extends FillDef {
	/** Material ids dealt round-robin over the fill's particles (empty: all `material`). */
	mix: number[];
}

/** An entry of "bodies": a body def (velocity as linear_velocity) and its copies. */
export interface SceneBody extends BodyDef {
	/** Copies added, at position + k * step, k = 0 .. count - 1. */
	count: number;
	step: SceneVec;
}

export interface SceneEmitter {
	material: number;
	position: SceneVec;
	velocity: SceneVec;
	width: number;
	spacing: number;
	start: number;
	stop: number;
}

export interface SceneStroke {
	start: number;
	end: number;
	points: SceneVec[];
	radius: number;
	strength: number;
	drag: number;
}

export interface SceneOutput {
	width: number;
	height: number;
	fps: number;
	seconds: number;
	background: number;
	wall_color: number;
	obstacle_color: number;
	color_mode: (typeof COLOR_MODES)[number];
	blob_radius: number;
	threshold: number;
	color_min: number;
	color_max: number;
}

/** A scene with every default filled in: a read-only view of the C scene behind it. */
export interface Scene {
	name: string;
	description: string;
	/** 2 or 3 (world.dimensions). */
	dimensions: number;
	world: WorldDef;
	bounds: { min: SceneVec; max: SceneVec };
	/** The orbit camera of a 3D scene (the file's keys over the framing of bounds); null in 2D. */
	camera: Camera | null;
	materials: { name: string; def: MaterialDef }[];
	container: BoundaryDef | null;
	obstacles: BoundaryDef[];
	fills: SceneFill[];
	/** Added before the fills (which leave their space), in order. */
	bodies: SceneBody[];
	emitters: SceneEmitter[];
	strokes: SceneStroke[];
	output: SceneOutput;
}

/** Reads a scene from its JSON text (or a parsed object); throws SceneError. */
export declare function resolveScene(puddle: Puddle, json: unknown, file?: string): Scene;
/** A shipped scene by name ("stratify"), a URL, or under node a file path. */
export declare function loadScene(puddle: Puddle, source: string | URL): Promise<Scene>;
export declare function buildWorld(puddle: Puddle, scene: Scene, overrides?: WorldDefInput): World;
/** Emitters and strokes of frame `frame`, before its step; returns the particles added. */
export declare function applyFrame(puddle: Puddle, scene: Scene, world: World, frame: number): number;
export declare function estimateParticles(puddle: Puddle, scene: Scene): number;
export declare function scaleScene(scene: Scene, factor: number): Scene;
export declare function scaleToParticles(puddle: Puddle, scene: Scene, particles: number): Scene;
