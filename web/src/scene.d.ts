// Types of web/src/scene.js: scene files (docs/scenes.md) resolved and built in JavaScript.
import type { BoundaryDef, FillDef, MaterialDef, Puddle, Vec2, World, WorldDef } from './puddle.js';

/** The keys the loader knows, per object of the scene file. */
export declare const SCENE_KEYS: Readonly<Record<'top' | 'world' | 'bounds' | 'solver' | 'materials' | 'container' | 'obstacles' | 'fills' | 'emitters' | 'strokes' | 'output', readonly string[]>>;

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

export interface SceneEmitter {
	material: number;
	position: Vec2;
	velocity: Vec2;
	width: number;
	spacing: number;
	start: number;
	stop: number;
}

export interface SceneStroke {
	start: number;
	end: number;
	points: Vec2[];
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
	world: WorldDef;
	bounds: { min: Vec2; max: Vec2 };
	materials: { name: string; def: MaterialDef }[];
	container: BoundaryDef | null;
	obstacles: BoundaryDef[];
	fills: SceneFill[];
	emitters: SceneEmitter[];
	strokes: SceneStroke[];
	output: SceneOutput;
}

export declare function resolveScene(puddle: Puddle, json: unknown, file?: string): Scene;
export declare function buildWorld(puddle: Puddle, scene: Scene, overrides?: Partial<WorldDef>): World;
/** Emitters and strokes of frame `frame`, before its step; returns the particles added. */
export declare function applyFrame(puddle: Puddle, scene: Scene, world: World, frame: number): number;
export declare function strokeAt(stroke: SceneStroke, t: number): { position: Vec2; velocity: Vec2 };
export declare function boundaryBox(b: BoundaryDef): { min: Vec2; max: Vec2 };
export declare function estimateParticles(puddle: Puddle, scene: Scene): number;
export declare function scaleScene(scene: Scene, factor: number): Scene;
export declare function scaleToParticles(puddle: Puddle, scene: Scene, particles: number): Scene;
