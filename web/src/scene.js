// Scene files (scenes/*.json, docs/scenes.md) through io's C scene layer, which the WebAssembly
// module contains (io/src/scene_parse.c, scene_schema.c, scene_world.c and cJSON): the same
// parser, rules, messages ("did you mean" included) and world building as the puddle command and
// the viewer. This file passes the JSON text in, reads the resolved scene out for the page, and
// keeps the C scene behind it for buildWorld() and applyFrame().
import { BodyShape, BoundaryKind, PuddleError, World } from './puddle.js';

/** Colour modes of output.color_mode, in pdl_color_mode order. */
export const COLOR_MODES = Object.freeze(['material', 'speed', 'density', 'pressure']);

/**
 * A scene file that breaks a rule, as the C loader words it: `message` is the line the command
 * line prints ("x.json: materials[1].rest_density: must be > 0, got -3"); `path` is the JSON path
 * ("" for syntax errors, which give `line` and `column`), `rule` what is wrong, `id` the
 * pdl_error_id's name (PDL_ERR_SCENE_VALUE, PDL_ERR_SCENE_SYNTAX, ..., or the engine's own).
 */
export class SceneError extends Error {
	constructor(file, path, rule, message = `${file}: ${path ? path + ': ' : ''}${rule}`, line = 0, column = 0,
		id = 'PDL_ERR_SCENE_VALUE') {
		super(message);
		this.name = 'SceneError';
		this.id = id;
		this.file = file;
		this.path = path;
		this.rule = rule;
		this.line = line;
		this.column = column;
	}
}

// scene object -> { puddle, ptr }: the C scene (pdl_scene) it was read from, freed with it
const handles = new WeakMap();
const registry = new FinalizationRegistry(({ module, ptr }) => module._pdl_scene_destroy(ptr));
const encoder = new TextEncoder();

function handle(scene) {
	const h = handles.get(scene);
	if (!h) throw new TypeError('not a scene from resolveScene() or loadScene()');
	return h;
}

// A zero-terminated UTF-8 copy of text in wasm memory (the caller frees it) and its length.
function cString(module, text) {
	const bytes = encoder.encode(text);
	const ptr = module._malloc(bytes.length + 1);
	module.HEAPU8.set(bytes, ptr);
	module.HEAPU8[ptr + bytes.length] = 0;
	return [ptr, bytes.length];
}

function sceneError(puddle) {
	const e = puddle.read('scene_error', puddle.structs.scene_error.scratch);
	const id = puddle.module.UTF8ToString(puddle.module._pdl_error_name(e.id));
	return new SceneError(e.file, e.path, e.rule, e.message, e.line, e.column, id);
}

// Backends by their scene names (pdl_backend).
const BACKENDS = ['cpu', 'cuda'];

// The page's own limit, on top of the scene rules: it steps on the processor.
function refuseHere(raw, file) {
	if (raw.backend !== 0)
		throw new SceneError(file, 'solver.backend',
			`the web build steps on the processor: run CUDA scenes with the puddle command, got "${BACKENDS[raw.backend]}"`);
}

// The resolved scene of a C scene, as plain objects of the core's def fields.
function view(puddle, ptr) {
	const raw = puddle.read('scene', ptr);
	const items = ({ ptr: at, kind }, n) => Array.from({ length: n }, (_, i) => puddle.read(kind, at + i * puddle.structs[kind].size));
	const polygon = (d, isPolygon) => ({ ...d, vertices: d.vertices.slice(0, isPolygon ? d.vertex_count : 0) });
	return {
		raw,
		scene: {
			name: raw.name,
			description: raw.description,
			dimensions: raw.world.dimensions,
			world: raw.world,
			bounds: { min: raw.bounds_min, max: raw.bounds_max },
			camera: raw.world.dimensions === 3 ? raw.camera : null,
			materials: items(raw.materials, raw.material_count).map(({ name, def }) => ({ name, def })),
			container: raw.has_container ? raw.container : null,
			obstacles: items(raw.obstacles, raw.obstacle_count).map((o) => polygon(o, o.kind === BoundaryKind.POLYGON)),
			fills: items(raw.fills, raw.fill_count).map((f) => ({ ...f.def, mix: f.mix.slice(0, f.mix_count) })),
			bodies: items(raw.bodies, raw.body_count).map((b) => ({ ...polygon(b.def, b.def.shape === BodyShape.POLYGON), count: b.count, step: b.step })),
			emitters: items(raw.emitters, raw.emitter_count),
			strokes: items(raw.strokes, raw.stroke_count).map(({ point_count, points, ...st }) => ({ ...st, points: points.slice(0, point_count) })),
			output: { ...raw.output, color_mode: COLOR_MODES[raw.output.color_mode] },
		},
	};
}

// The scene object for a C scene, which it then owns.
function wrap(puddle, ptr, file) {
	let v;
	try {
		v = view(puddle, ptr);
		if (file !== undefined) refuseHere(v.raw, file);
	} catch (e) {
		puddle.module._pdl_scene_destroy(ptr);
		throw e;
	}
	handles.set(v.scene, { puddle, ptr });
	registry.register(v.scene, { module: puddle.module, ptr });
	return v.scene;
}

/**
 * Reads a scene: `json` is the file's text, or an object as JSON.parse gives it. Every default
 * is filled in and every rule checked by the C loader; a scene it refuses throws SceneError with
 * the command line's message. The result is a read-only view: buildWorld() and applyFrame() use
 * the C scene behind it. `file` names the scene in messages and gives the default name.
 */
export function resolveScene(puddle, json, file = '<scene>') {
	const m = puddle.module;
	const [text, length] = cString(m, typeof json === 'string' ? json : JSON.stringify(json) ?? '');
	const [name] = cString(m, file);
	let ptr;
	try {
		ptr = m._pdl_scene_parse(text, length, name, puddle.structs.scene_error.scratch);
	} finally {
		m._free(text);
		m._free(name);
	}
	if (!ptr) throw sceneError(puddle);
	return wrap(puddle, ptr, file);
}

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

/**
 * Reads and resolves a scene file: a shipped scene by name ("stratify", from the package's
 * scenes/ folder), else a URL (fetched) or, under node, a file path.
 */
export async function loadScene(puddle, source) {
	const name = String(source);
	const shipped = /^[\w-]+$/.test(name);
	const where = shipped ? new URL(`../scenes/${name}.json`, import.meta.url) : source;
	// under node a shipped scene, a file: URL or a path is read from disk; anything else is fetched
	let path = null;
	if (isNode) {
		if (shipped) path = where;
		else if (source instanceof URL) path = source.protocol === 'file:' ? source : null;
		else if (name.startsWith('file:')) path = new URL(name);
		else if (!/^[a-z][\w+.-]*:/i.test(name)) path = name;
	}
	let text;
	if (path) {
		const { readFile } = await import('node:fs/promises');
		text = await readFile(path, 'utf8');
	} else {
		const response = await fetch(where);
		if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
		text = await response.text();
	}
	return resolveScene(puddle, text, shipped ? `scenes/${name}.json` : name);
}

/**
 * Makes the world of a scene (pdl_scene_build_world): materials, container, obstacles, bodies,
 * then the fills. `overrides` change world def fields (threads).
 */
export function buildWorld(puddle, scene, overrides = {}) {
	const { ptr } = handle(scene), m = puddle.module;
	const copy = m._pdl_scene_clone(ptr);
	if (!copy) throw new PuddleError('PDL_ERR_OUT_OF_MEMORY', 'buildWorld: out of memory', NaN);
	try {
		puddle.write('world_def', copy + puddle.structs.scene.byName.get('world').offset, overrides);
		const world = m._pdl_scene_build_world(copy, puddle.structs.scene_error.scratch);
		if (!world) throw sceneError(puddle);
		return new World(puddle, world);
	} finally {
		m._pdl_scene_destroy(copy);
	}
}

/**
 * Scripted events of frame `frame` (0, 1, ...), before that frame's step
 * (pdl_scene_apply_frame): stroke k drives pointer k, emitters add their rows. Returns the
 * particles added; a frame that would overflow solver.max_particles throws SceneError.
 */
export function applyFrame(puddle, scene, world, frame) {
	const n = puddle.module._pdlw_scene_apply_frame(handle(scene).ptr, world.ptr, frame, puddle.structs.scene_error.scratch);
	if (n < 0) throw sceneError(puddle);
	return n;
}

/** Particles the fills make plus all that the emitters will add (pdl_scene_estimate_particles). */
export function estimateParticles(puddle, scene) {
	return puddle.module._pdl_scene_estimate_particles(handle(scene).ptr);
}

function scaled(scene, scale) {
	const { puddle, ptr } = handle(scene);
	const copy = puddle.module._pdl_scene_clone(ptr);
	if (!copy) throw new PuddleError('PDL_ERR_OUT_OF_MEMORY', 'scaleScene: out of memory', NaN);
	scale(puddle.module, copy);
	return wrap(puddle, copy);
}

/** A copy of the scene with every length times k about the origin, h kept (pdl_scene_scale). */
export function scaleScene(scene, k) {
	return scaled(scene, (m, copy) => m._pdl_scene_scale(copy, k));
}

/** The scene scaled so that it makes about `particles` particles (pdl_scene_scale_to_particles). */
export function scaleToParticles(puddle, scene, particles) {
	return scaled(scene, (m, copy) => m._pdl_scene_scale_to_particles(copy, particles));
}
