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

// generated from io/include/puddle/scene_fields.h: emitters (io/tests/fields_gen.c)
/** pdl_scene_emitter: a nozzle launching rows of particles */
export interface SceneEmitter {
	/** the material of the particles it launches; default 0. */
	material: number;
	/** centre of the nozzle; world units; finite; required. */
	position: Vec3;
	/** launch velocity; rows are across it; world units / s; finite and not [0, 0]; required. */
	velocity: Vec3;
	/** nozzle width; world units; > 0; narrow enough for one row within `solver.max_particles`; required. */
	width: number;
	/** particle spacing; world units; >= 0; 0 (rest spacing) or >= 0.01 h; default 0. */
	spacing: number;
	/** first row; s; >= 0; default 0. */
	start: number;
	/** no rows from then on; s; > 0; > start; required. */
	stop: number;
}
// end of generated: emitters

// generated from io/include/puddle/scene_fields.h: strokes (io/tests/fields_gen.c)
/** pdl_scene_stroke: a scripted pointer */
export interface SceneStroke {
	/** when the stroke begins; s; >= 0; default 0. */
	start: number;
	/** when it ends; s; > 0; > start; required. */
	end: number;
	/** the path; one point = a pointer held still; world units; finite; required. */
	points: Vec3[];
	/** reach; the effect falls off linearly to 0 at the edge; world units; > 0; default 5. */
	radius: number;
	/** acceleration toward the pointer at its centre; negative pushes away; world units / s^2; finite; default 100. */
	strength: number;
	/** how strongly particles are pulled to the pointer's velocity; 1/s; >= 0; default 0. */
	drag: number;
}
// end of generated: strokes

// generated from io/include/puddle/scene_fields.h: output (io/tests/fields_gen.c)
/** pdl_scene_output: the defaults of pictures and video */
export interface SceneOutput {
	/** picture width; pixels; [16, 8192], even; default 800. */
	width: number;
	/** picture height (even: H.264 yuv420p needs it); pixels; [16, 8192], even; default `width` times the bounds' aspect ratio (3D: 9/16), rounded to even. */
	height: number;
	/** video frame rate; a video frame is taken every round(1 / (fps dt)) frames; frames / s; (0, 240]; default `1 / dt` (at most 240). */
	fps: number;
	/** default run length, simulated seconds; s; (0, 86400]; default 10. */
	seconds: number;
	/** colour inside the container. */
	background: number;
	/** colour outside the container. */
	wall_color: number;
	/** colour of obstacles. */
	obstacle_color: number;
	/** how the fluid is coloured; default 'material'. */
	color_mode: 'material' | 'speed' | 'density' | 'pressure';
	/** radius of each particle's soft splat; world units; > 0; default `solver.interaction_radius`. */
	blob_radius: number;
	/** surface level of the summed field; a lone particle's centre is 1; splats; (0, 4]; default 0.5. */
	threshold: number;
	/** bottom of the ramp of the scalar modes; equal `color_min` and `color_max` take the range from each frame; unit of the mode (world units / s, kernel sum, pressure); finite; default 0. */
	color_min: number;
	/** top of that ramp; unit of the mode (world units / s, kernel sum, pressure); finite; default 0. */
	color_max: number;
}
// end of generated: output

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
