// Types of web/src/scene.js: scene files (docs/scenes.md) resolved and built in JavaScript.
import type { Camera } from './camera.js';
import type { BodyDef, BoundaryDef, FillDef, MaterialDef, Puddle, Vec2, World, WorldDef } from './puddle.js';

/** A scene vector: {x, y} in 2D scenes, {x, y, z} in 3D ones. */
export type SceneVec = Vec2 & { z?: number };

/** The keys the loader knows, per object of the scene file. */
export declare const SCENE_KEYS: Readonly<Record<'top' | 'world' | 'bounds' | 'solver' | 'materials' | 'container' | 'obstacles' | 'fills' | 'bodies' | 'emitters' | 'strokes' | 'output' | 'camera', readonly string[]>>;

export declare const COLOR_MODES: readonly ['material', 'speed', 'density', 'pressure'];

export declare class SceneError extends Error {
	file: string;
	/** JSON path, e.g. "materials[1].rest_density". */
	path: string;
	rule: string;
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

/** A scene with every default filled in. */
export interface Scene {
	name: string;
	description: string;
	/** 2 or 3 (world.dimensions). */
	dimensions: number;
	world: WorldDef;
	/** 3D scenes: with z. */
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

export declare function resolveScene(puddle: Puddle, json: unknown, file?: string): Scene;
export declare function buildWorld(puddle: Puddle, scene: Scene, overrides?: Partial<WorldDef>): World;
/** Emitters and strokes of frame `frame`, before its step; returns the particles added. */
/** Copy k of a scene body: its def at position + k * step. */
export declare function bodyCopy(body: SceneBody, k: number): BodyDef;
export declare function applyFrame(puddle: Puddle, scene: Scene, world: World, frame: number): number;
export declare function strokeAt(stroke: SceneStroke, t: number): { position: SceneVec; velocity: SceneVec };
export declare function boundaryBox(b: BoundaryDef, dimensions?: number): { min: SceneVec; max: SceneVec };
export declare function estimateParticles(puddle: Puddle, scene: Scene): number;
export declare function scaleScene(scene: Scene, factor: number): Scene;
export declare function scaleToParticles(puddle: Puddle, scene: Scene, particles: number): Scene;
