// Scene files (scenes/*.json, docs/scenes.md) in JavaScript. The native tools read them with
// cJSON in io/; the page cannot link that, so this file maps the same keys onto the C API:
// resolveScene() fills the defaults the way io/src/scene_schema.c and scene_parse.c do,
// buildWorld() adds materials, container, obstacles and fills like pdl_scene_build_world(), and
// applyFrame() runs emitters and scripted strokes like pdl_scene_apply_frame(). Value ranges are
// checked by the core itself when the defs reach it (its messages name the field).
// 3D scenes ("world": {"dimensions": 3}) take [x, y, z] for every vector, spheres and balls for
// circles and discs (either name in either dimension), and an optional orbit camera. Rigid
// bodies ("bodies") are added before the fills (which leave their space), in file order, copies
// of an entry one after the other, as io/ adds them.
import { cameraFraming } from './camera.js';
import { BodyShape, BoundaryKind, FillShape, MAX_BODIES, parseColor, PuddleError } from './puddle.js';

const HEX_ROW = 0.8660254037844386; // row height of a hexagonal lattice, in spacings

const TOP_KEYS = ['name', 'description', 'world', 'solver', 'materials', 'container', 'obstacles',
	'fills', 'bodies', 'emitters', 'strokes', 'output', 'camera'];
const WORLD_KEYS = ['dimensions', 'gravity', 'dt', 'substeps', 'bounds'];
// the orbit camera of 3D scenes (io/include/puddle/camera.h)
const CAMERA_KEYS = ['target', 'yaw', 'pitch', 'distance', 'fov'];
const SOLVER_KEYS = ['kind', 'backend', 'interaction_radius', 'threads', 'max_particles'];
// keys of the SPH solvers (solver.kind "sph" and "dfsph"), which the web build does not run (see
// resolveScene)
const SPH_KEYS = ['speed_of_sound', 'eos', 'gamma', 'pressure_kernel', 'viscosity', 'xsph', 'surface_tension', 'cfl',
	'max_substeps', 'density_tolerance', 'divergence_tolerance', 'max_iterations'];
const MATERIAL_KEYS = ['name', 'rest_density', 'stiffness', 'near_stiffness', 'mass', 'gravity_scale',
	'viscosity_sigma', 'viscosity_beta', 'spring_stiffness', 'yield_ratio', 'plasticity', 'wall_friction',
	'wall_stickiness', 'stick_distance', 'color'];
const CONTAINER_KEYS = ['shape', 'position', 'radius', 'half_extents', 'angle', 'friction', 'restitution', 'stickiness'];
const OBSTACLE_KEYS = [...CONTAINER_KEYS, 'vertices', 'velocity'];
const FILL_KEYS = ['shape', 'material', 'mix', 'position', 'end', 'radius', 'half_extents', 'spacing', 'count', 'velocity'];
// rigid bodies (pdl_body_def): "velocity" is linear_velocity; count copies at position + k * step
const BODY_KEYS = ['shape', 'type', 'position', 'angle', 'orientation', 'velocity', 'angular_velocity', 'radius',
	'half_extents', 'vertices', 'density', 'friction', 'restitution', 'gravity_scale', 'color', 'count', 'step'];
const EMITTER_KEYS = ['material', 'position', 'velocity', 'width', 'spacing', 'start', 'stop'];
const STROKE_KEYS = ['start', 'end', 'points', 'radius', 'strength', 'drag'];
const OUTPUT_KEYS = ['width', 'height', 'fps', 'seconds', 'background', 'wall_color', 'obstacle_color',
	'color_mode', 'blob_radius', 'threshold', 'color_min', 'color_max'];

/** The keys this loader knows, per object, as docs/scenes.md lists them (a test compares). */
export const SCENE_KEYS = Object.freeze({
	top: TOP_KEYS, world: WORLD_KEYS, bounds: ['min', 'max'], solver: [...SOLVER_KEYS, ...SPH_KEYS], materials: MATERIAL_KEYS,
	container: CONTAINER_KEYS, obstacles: OBSTACLE_KEYS, fills: FILL_KEYS, bodies: BODY_KEYS, emitters: EMITTER_KEYS,
	strokes: STROKE_KEYS, output: OUTPUT_KEYS, camera: CAMERA_KEYS,
});

// Shape names per dimension, as io/src/scene_schema.c lists them in its messages. Either
// dimension's name is accepted ("sphere" is "circle" in 2D and the other way round, "ball" and
// "disc" likewise); "polygon" and "sunflower" have no 3D name and are refused in 3D scenes.
const CONTAINER_SHAPES = [['circle', 'sphere', BoundaryKind.CIRCLE_CONTAINER], ['box', 'box', BoundaryKind.BOX_CONTAINER]];
const OBSTACLE_SHAPES = [['circle', 'sphere', BoundaryKind.CIRCLE], ['box', 'box', BoundaryKind.BOX], ['polygon', null, BoundaryKind.POLYGON]];
const FILL_SHAPES = [['point', 'point', FillShape.POINT], ['line', 'line', FillShape.LINE], ['disc', 'ball', FillShape.DISC],
	['box', 'box', FillShape.BOX], ['sunflower', null, FillShape.SPIRAL]];
const BODY_SHAPES = [['circle', 'sphere', BodyShape.CIRCLE], ['box', 'box', BodyShape.BOX], ['polygon', null, BodyShape.POLYGON]];
const BODY_TYPES = ['dynamic', 'kinematic']; // in pdl_body_type order
// the 2D name of each shape, which SHAPE_ONLY and SHAPE_REQUIRES use
const CANONICAL = { sphere: 'circle', ball: 'disc' };
const NAME_3D = { circle: 'sphere', disc: 'ball' };

// Keys that only some shapes use, and the ones a shape requires (docs/scenes.md "used by").
const SHAPE_ONLY = {
	container: { radius: ['circle'], half_extents: ['box'], angle: ['box'] },
	obstacle: { radius: ['circle'], half_extents: ['box'], angle: ['box', 'polygon'], vertices: ['polygon'] },
	fill: {
		end: ['line'], radius: ['disc', 'sunflower'], half_extents: ['box'],
		spacing: ['line', 'disc', 'box', 'sunflower'], count: ['point', 'sunflower'],
	},
	body: { radius: ['circle'], half_extents: ['box'], vertices: ['polygon'] },
};
const SHAPE_REQUIRES = {
	container: { circle: ['radius'], box: ['half_extents'] },
	obstacle: { circle: ['radius'], box: ['half_extents'], polygon: ['vertices'] },
	fill: { line: ['end'], disc: ['radius'], sunflower: ['radius'], box: ['half_extents'], point: [] },
	body: { circle: ['radius'], box: ['half_extents'], polygon: ['vertices'] },
};

// Messages name the shape as the scene's dimension calls it ("sphere" in 3D, "circle" in 2D).
function checkShapeKeys(file, path, object, what, dims) {
	const shape = CANONICAL[object.shape] ?? object.shape;
	const name = dims === 3 ? NAME_3D[shape] ?? shape : shape;
	for (const [key, shapes] of Object.entries(SHAPE_ONLY[what]))
		if (key in object && !shapes.includes(shape))
			throw new SceneError(file, `${path}.${key}`, `is not used by shape "${name}"`);
	for (const key of SHAPE_REQUIRES[what][shape] ?? [])
		if (!(key in object)) throw new SceneError(file, `${path}.${key}`, `is required for shape "${name}"`);
}

function checkRequired(file, path, object, keys) {
	for (const key of keys) if (!(key in object)) throw new SceneError(file, `${path}.${key}`, 'is required');
}

/** Colour modes of output.color_mode, in pdl_color_mode order. */
export const COLOR_MODES = ['material', 'speed', 'density', 'pressure'];
// Colours of materials that do not name one (io/src/scene_schema.c).
const PALETTE = [0x2a7fd4, 0xe0533d, 0x3fbf7f, 0xf2b134, 0x9b59d0, 0x36c5d6, 0xe86fa6, 0xb0b0b0];

/** A scene file that breaks a rule; `path` is the JSON path ("materials[1].rest_density"). */
export class SceneError extends Error {
	constructor(file, path, rule) {
		super(`${file}: ${path ? path + ': ' : ''}${rule}`);
		this.name = 'SceneError';
		this.file = file;
		this.path = path;
		this.rule = rule;
	}
}

function checkKeys(file, path, object, keys) {
	if (object === null || typeof object !== 'object' || Array.isArray(object))
		throw new SceneError(file, path, 'must be an object');
	for (const key of Object.keys(object))
		if (!keys.includes(key)) throw new SceneError(file, path ? `${path}.${key}` : key, 'is not a known key');
}

// A vector of the scene's dimension: {x, y} in 2D, {x, y, z} in 3D, rounded to float32.
function vec(file, path, v, dims = 2) {
	const numbers = Array.isArray(v) && v.every((c) => typeof c === 'number' && Number.isFinite(c));
	if (dims === 3) {
		if (!numbers || v.length !== 3) throw new SceneError(file, path, 'must be [x, y, z] (3 numbers) in a 3D scene');
		return { x: Math.fround(v[0]), y: Math.fround(v[1]), z: Math.fround(v[2]) };
	}
	if (!numbers || v.length !== 2) throw new SceneError(file, path, 'must be an array [x, y] of two numbers');
	return { x: Math.fround(v[0]), y: Math.fround(v[1]) };
}

function color(file, path, v) {
	if (typeof v !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(v)) throw new SceneError(file, path, 'must be a colour "#rrggbb"');
	return parseColor(v);
}

function shape(file, path, v, shapes, dims) {
	const found = shapes.find(([name2, name3]) => v === name2 || (name3 !== null && v === name3));
	if (found) {
		if (dims === 3 && found[1] === null) throw new SceneError(file, path, `"${v}" is 2D only`);
		return found[2];
	}
	const names = shapes.map(([name2, name3]) => (dims === 3 ? name3 : name2)).filter((n) => n !== null);
	throw new SceneError(file, path, `must be one of ${names.map((n) => `"${n}"`).join(', ')}`);
}

function list(file, root, key, max) {
	const v = root[key] ?? [];
	if (!Array.isArray(v)) throw new SceneError(file, key, 'must be an array');
	if (v.length > max) throw new SceneError(file, key, `must have at most ${max} entries`);
	return v;
}

// Copies the plain-number keys of `src` onto `dst`; vectors and colours are converted. Numbers
// are rounded to float32 as the C structs store them, so that emitters and strokes computed here
// from scene values match io/src/scene_world.c bit for bit; `ints` must be integral.
function copyFields(file, path, src, dst, { vectors = [], colors = [], ints = [], dims = 2 } = {}) {
	for (const [key, value] of Object.entries(src)) {
		if (key === 'shape' || key === 'name' || key === 'material' || key === 'mix') continue;
		const at = `${path}.${key}`;
		if (vectors.includes(key)) dst[key] = vec(file, at, value, dims);
		else if (colors.includes(key)) dst[key] = color(file, at, value);
		// polygon vertices stay [x, y] (polygons are 2D only); stroke points have the scene's dimension
		else if (key === 'vertices' || key === 'points') {
			if (!Array.isArray(value)) throw new SceneError(file, at, 'must be an array');
			dst[key] = value.map((p, i) => vec(file, `${at}[${i}]`, p, key === 'points' ? dims : 2));
		}
		else if (ints.includes(key)) {
			if (!Number.isInteger(value)) throw new SceneError(file, at, 'must be an integer');
			dst[key] = value;
		} else if (typeof value === 'number' && Number.isFinite(value)) dst[key] = Math.fround(value);
		else if (key === 'color_mode') dst[key] = value;
		else throw new SceneError(file, at, 'must be a number');
	}
	return dst;
}

/**
 * A scene object (parsed JSON) with every default filled in, the way io/ resolves it: the result
 * holds core defs (world, materials[].def, container, obstacles, fills) ready for buildWorld().
 * `puddle` supplies the core's defaults.
 */
export function resolveScene(puddle, json, file = '<scene>') {
	checkKeys(file, '', json, TOP_KEYS);
	// the dimension first: every vector key's length depends on it
	let dims = 2;
	if (json.world && typeof json.world === 'object' && 'dimensions' in json.world) {
		dims = json.world.dimensions;
		if (dims !== 2 && dims !== 3) throw new SceneError(file, 'world.dimensions', 'must be an integer in [2, 3]');
	}
	const s = {
		name: json.name ?? file.replace(/^.*\//, '').replace(/\.json$/, ''),
		description: json.description ?? '',
		world: { ...puddle.defaultWorldDef(), max_particles: 1000000, dimensions: dims },
		dimensions: dims,
		bounds: null,
		camera: null,
		materials: [],
		container: null,
		obstacles: [],
		fills: [],
		bodies: [],
		emitters: [],
		strokes: [],
		output: { width: 800, height: 0, fps: 0, seconds: 10, background: 0x10161f, wall_color: 0x2b3440,
			obstacle_color: 0x6b7686, color_mode: 'material', blob_radius: 0, threshold: 0.5, color_min: 0, color_max: 0 },
	};
	if (json.world) {
		checkKeys(file, 'world', json.world, WORLD_KEYS);
		const { bounds, dimensions, ...rest } = json.world;
		copyFields(file, 'world', rest, s.world, { vectors: ['gravity'], ints: ['substeps'], dims });
		if (bounds) {
			checkKeys(file, 'world.bounds', bounds, ['min', 'max']);
			s.bounds = { min: vec(file, 'world.bounds.min', bounds.min, dims), max: vec(file, 'world.bounds.max', bounds.max, dims) };
		}
	}
	if (json.solver) {
		const { kind, backend, ...solver } = json.solver;
		// The CUDA backend (docs/cuda.md) needs an NVIDIA GPU and the native library; the page's
		// WebAssembly build steps on the processor.
		if (backend !== undefined && backend !== 'cpu') {
			const why = backend === 'cuda'
				? 'the web build steps on the processor: run CUDA scenes with the puddle command'
				: 'must be "cpu" or "cuda"';
			throw new SceneError(file, 'solver.backend', `${why}, got ${JSON.stringify(backend)}`);
		}
		// The SPH solver (docs/physics.md) runs in the native library and the puddle command; its
		// Tait pressure uses powf, whose last bits differ between C libraries, so the web build
		// keeps to Clavet's relaxation, which hashes the same here as natively.
		if (kind !== undefined && kind !== 'clavet') {
			const why = kind === 'sph'
				? 'the web build runs the Clavet solver only: run SPH scenes with the puddle command'
				: kind === 'dfsph'
					? 'the web build runs the Clavet solver only: run DFSPH scenes with the puddle command'
					: 'must be "clavet", "sph" or "dfsph"';
			throw new SceneError(file, 'solver.kind', `${why}, got ${JSON.stringify(kind)}`);
		}
		for (const key of SPH_KEYS)
			if (key in solver) throw new SceneError(file, `solver.${key}`, 'is not used by kind "clavet"');
		checkKeys(file, 'solver', solver, SOLVER_KEYS.filter((k) => k !== 'kind' && k !== 'backend'));
		copyFields(file, 'solver', solver, s.world, { ints: ['threads', 'max_particles'] });
	}
	const materials = list(file, json, 'materials', 32);
	if (materials.length === 0) throw new SceneError(file, 'materials', 'is required (an array of at least one material)');
	materials.forEach((m, i) => {
		const path = `materials[${i}]`;
		checkKeys(file, path, m, MATERIAL_KEYS);
		if (typeof m.name !== 'string') throw new SceneError(file, `${path}.name`, 'is required (a string)');
		const def = { ...puddle.defaultMaterialDef(), color: PALETTE[i & 7] };
		s.materials.push({ name: m.name, def: copyFields(file, path, m, def, { colors: ['color'] }) });
	});
	const materialIndex = (path, name) => {
		if (name === undefined) return 0;
		const i = s.materials.findIndex((m) => m.name === name);
		if (i < 0) throw new SceneError(file, path, `no material named "${name}"`);
		return i;
	};
	if (json.container) {
		checkKeys(file, 'container', json.container, CONTAINER_KEYS);
		const kind = shape(file, 'container.shape', json.container.shape, CONTAINER_SHAPES, dims);
		checkShapeKeys(file, 'container', json.container, 'container', dims);
		s.container = copyFields(file, 'container', json.container, { ...puddle.defaultBoundaryDef(), kind },
			{ vectors: ['position', 'half_extents'], dims });
	}
	list(file, json, 'obstacles', 64).forEach((o, i) => {
		const path = `obstacles[${i}]`;
		checkKeys(file, path, o, OBSTACLE_KEYS);
		const kind = shape(file, `${path}.shape`, o.shape, OBSTACLE_SHAPES, dims);
		checkShapeKeys(file, path, o, 'obstacle', dims);
		const def = copyFields(file, path, o, { ...puddle.defaultBoundaryDef(), kind },
			{ vectors: ['position', 'half_extents', 'velocity'], dims });
		if (def.vertices) def.vertex_count = def.vertices.length;
		s.obstacles.push(def);
	});
	list(file, json, 'fills', 64).forEach((f, i) => {
		const path = `fills[${i}]`;
		checkKeys(file, path, f, FILL_KEYS);
		const kind = shape(file, `${path}.shape`, f.shape, FILL_SHAPES, dims);
		checkShapeKeys(file, path, f, 'fill', dims);
		const def = copyFields(file, path, f, {
			...puddle.defaultFillDef(), shape: kind, count: kind === FillShape.POINT ? 1 : 0,
			material: materialIndex(`${path}.material`, f.material),
		}, { vectors: ['position', 'end', 'half_extents', 'velocity'], ints: ['count'], dims });
		// "mix": particle k of the fill gets material mix[k % n] (reference 001's stirred start)
		if (f.mix !== undefined && (!Array.isArray(f.mix) || f.mix.length < 1 || f.mix.length > 32))
			throw new SceneError(file, `${path}.mix`, 'must be an array of 1 to 32 material names');
		def.mix = (f.mix ?? []).map((name, k) => materialIndex(`${path}.mix[${k}]`, name));
		s.fills.push(def);
	});
	let bodyCount = 0;
	list(file, json, 'bodies', MAX_BODIES).forEach((b, i) => {
		const body = resolveBody(puddle, file, `bodies[${i}]`, b, dims);
		bodyCount += body.count;
		if (bodyCount > MAX_BODIES) throw new SceneError(file, `bodies[${i}].count`, `makes more than ${MAX_BODIES} bodies in all`);
		s.bodies.push(body);
	});
	list(file, json, 'emitters', 16).forEach((e, i) => {
		const path = `emitters[${i}]`;
		checkKeys(file, path, e, EMITTER_KEYS);
		checkRequired(file, path, e, ['position', 'velocity', 'width', 'stop']);
		const em = copyFields(file, path, e, { material: materialIndex(`${path}.material`, e.material), spacing: 0, start: 0 },
			{ vectors: ['position', 'velocity'], dims });
		if (!em.velocity || (em.velocity.x === 0 && em.velocity.y === 0 && !em.velocity.z))
			throw new SceneError(file, path, `velocity must not be ${dims === 3 ? '[0, 0, 0]' : '[0, 0]'} (rows are launched along it)`);
		if (!(em.stop > em.start)) throw new SceneError(file, path, 'stop must be greater than start');
		if (!(em.width > 0)) throw new SceneError(file, `${path}.width`, 'must be > 0');
		s.emitters.push(em);
	});
	list(file, json, 'strokes', 8).forEach((st, i) => {
		const path = `strokes[${i}]`;
		checkKeys(file, path, st, STROKE_KEYS);
		checkRequired(file, path, st, ['end', 'points']);
		const p = puddle.defaultPointer();
		const stroke = copyFields(file, path, st, { start: 0, radius: p.radius, strength: p.strength, drag: p.drag }, { dims });
		if (!stroke.points?.length)
			throw new SceneError(file, `${path}.points`, `must be an array of 1 to 64 points ${dims === 3 ? '[x, y, z]' : '[x, y]'}`);
		if (!(stroke.end > stroke.start)) throw new SceneError(file, `${path}.end`, 'must be greater than start');
		s.strokes.push(stroke);
	});
	if (json.output) {
		checkKeys(file, 'output', json.output, OUTPUT_KEYS);
		copyFields(file, 'output', json.output, s.output, { colors: ['background', 'wall_color', 'obstacle_color'], ints: ['width', 'height'] });
		if (!COLOR_MODES.includes(s.output.color_mode))
			throw new SceneError(file, 'output.color_mode', `must be one of ${COLOR_MODES.join(', ')}`);
	}
	// Defaults that depend on other keys (scene_parse.c resolve()).
	if (!s.bounds) {
		// the container's box (3D: with its depth) grown by 2% of its size on each side
		if (!s.container) throw new SceneError(file, 'world.bounds', 'is required when there is no container');
		const box = boundaryBox(s.container, dims);
		const axes = dims === 3 ? ['x', 'y', 'z'] : ['x', 'y'];
		s.bounds = { min: {}, max: {} };
		for (const a of axes) {
			const m = 0.02 * (box.max[a] - box.min[a]);
			s.bounds.min[a] = box.min[a] - m;
			s.bounds.max[a] = box.max[a] + m;
		}
	}
	if (json.camera !== undefined) {
		if (dims !== 3) throw new SceneError(file, 'camera', 'is used by 3D scenes only (world.dimensions 3)');
		s.camera = resolveCamera(file, json.camera, s.bounds);
	} else if (dims === 3) {
		s.camera = cameraFraming(s.bounds.min, s.bounds.max);
	}
	if (s.output.fps === 0) s.output.fps = Math.min(240, 1 / s.world.dt);
	if (s.output.blob_radius === 0) s.output.blob_radius = s.world.interaction_radius;
	return s;
}

/**
 * One entry of "bodies": a pdl_body_def (type and shape as numbers, velocity as
 * linear_velocity) with `count` copies `step` apart. The core checks the ranges when the
 * bodies are added (buildWorld); the keys and their forms are checked here.
 */
function resolveBody(puddle, file, path, b, dims) {
	checkKeys(file, path, b, BODY_KEYS);
	const shapeId = shape(file, `${path}.shape`, b.shape, BODY_SHAPES, dims);
	checkShapeKeys(file, path, b, 'body', dims);
	// a 2D body turns by an angle about z, a 3D one by a quaternion
	if (dims === 3 && 'angle' in b) throw new SceneError(file, `${path}.angle`, 'is used by 2D scenes only (3D bodies turn by "orientation")');
	if (dims === 2 && 'orientation' in b) throw new SceneError(file, `${path}.orientation`, 'is used by 3D scenes only (2D bodies turn by "angle")');
	const { type, velocity, angular_velocity, orientation, count, step, ...rest } = b;
	const def = { ...puddle.defaultBodyDef(), shape: shapeId };
	if (type !== undefined) {
		def.type = BODY_TYPES.indexOf(type);
		if (def.type < 0) throw new SceneError(file, `${path}.type`, `must be one of ${BODY_TYPES.map((t) => `"${t}"`).join(', ')}`);
	}
	copyFields(file, path, rest, def, { vectors: ['position', 'half_extents'], colors: ['color'], dims });
	// a 2D box keeps the default depth, as io/ does (the engine ignores it in 2D; snapshots and
	// body() show it)
	if (dims === 2 && 'half_extents' in rest) def.half_extents = { ...def.half_extents, z: puddle.defaultBodyDef().half_extents.z };
	if (def.vertices) def.vertex_count = def.vertices.length;
	if (velocity !== undefined) def.linear_velocity = vec(file, `${path}.velocity`, velocity, dims);
	if (angular_velocity !== undefined) {
		// 2D: radians / s about z, one number; 3D: a vector along the axis
		if (dims === 3) def.angular_velocity = vec(file, `${path}.angular_velocity`, angular_velocity, 3);
		else if (typeof angular_velocity === 'number' && Number.isFinite(angular_velocity))
			def.angular_velocity = { x: 0, y: 0, z: Math.fround(angular_velocity) };
		else throw new SceneError(file, `${path}.angular_velocity`, 'must be a number (radians / s, counter-clockwise) in a 2D scene');
	}
	if (orientation !== undefined) {
		if (!Array.isArray(orientation) || orientation.length !== 4 || !orientation.every((c) => typeof c === 'number' && Number.isFinite(c)))
			throw new SceneError(file, `${path}.orientation`, 'must be a quaternion [x, y, z, w] (4 numbers)');
		const [x, y, z, w] = orientation.map(Math.fround);
		def.orientation = { x, y, z, w };
	}
	const body = { ...def, count: 1, step: dims === 3 ? { x: 0, y: 0, z: 0 } : { x: 0, y: 0 } };
	if (count !== undefined) {
		if (!Number.isInteger(count) || count < 1) throw new SceneError(file, `${path}.count`, 'must be an integer >= 1');
		body.count = count;
	}
	if (step !== undefined) body.step = vec(file, `${path}.step`, step, dims);
	else if (body.count > 1) throw new SceneError(file, `${path}.step`, 'is required when count > 1 (copies would overlap)');
	return body;
}

/** Body k of a scene's body entry: its def at position + k * step (float arithmetic, as C). */
export function bodyCopy(body, k) {
	const { count, step, ...def } = body;
	const at = (a) => Math.fround(body.position[a] + Math.fround(k * step[a]));
	const position = { x: at('x'), y: at('y') };
	if (step.z !== undefined) position.z = at('z');
	return { ...def, position };
}

// camera.h's ranges: yaw any finite value, pitch in [-89, 89], distance > 0, fov in [5, 120]
const CAMERA_RULES = {
	yaw: [(v) => true, 'must be a number'],
	pitch: [(v) => v >= -89 && v <= 89, 'must be in [-89, 89]'],
	distance: [(v) => v > 0, 'must be > 0'],
	fov: [(v) => v >= 5 && v <= 120, 'must be in [5, 120]'],
};

/** A scene's camera object over pdl_camera_framing(bounds): the keys given replace the framing's. */
function resolveCamera(file, json, bounds) {
	checkKeys(file, 'camera', json, CAMERA_KEYS);
	const camera = cameraFraming(bounds.min, bounds.max);
	for (const [key, value] of Object.entries(json)) {
		const at = `camera.${key}`;
		if (key === 'target') {
			camera.target = vec(file, at, value, 3);
			continue;
		}
		if (typeof value !== 'number' || !Number.isFinite(value)) throw new SceneError(file, at, 'must be a number');
		const [ok, rule] = CAMERA_RULES[key];
		if (!ok(value)) throw new SceneError(file, at, rule);
		camera[key] = Math.fround(value);
	}
	return camera;
}

/**
 * Axis-aligned bounding box of a circle (sphere) or box boundary, turned by its angle about z.
 * With dims 3 the box has z too.
 */
export function boundaryBox(b, dims = 2) {
	const p = b.position ?? { x: 0, y: 0 };
	const round = b.kind === BoundaryKind.CIRCLE_CONTAINER || b.kind === BoundaryKind.CIRCLE;
	let hx, hy, hz;
	if (round) hx = hy = hz = b.radius;
	else {
		const c = Math.abs(Math.cos(b.angle ?? 0)), sn = Math.abs(Math.sin(b.angle ?? 0));
		hx = c * b.half_extents.x + sn * b.half_extents.y;
		hy = sn * b.half_extents.x + c * b.half_extents.y;
		hz = b.half_extents.z ?? 0;
	}
	if (dims === 3) {
		const z = p.z ?? 0;
		return { min: { x: p.x - hx, y: p.y - hy, z: z - hz }, max: { x: p.x + hx, y: p.y + hy, z: z + hz } };
	}
	return { min: { x: p.x - hx, y: p.y - hy }, max: { x: p.x + hx, y: p.y + hy } };
}

/** Makes the world of a resolved scene (pdl_scene_build_world). `overrides` change world def fields (threads). */
export function buildWorld(puddle, scene, overrides = {}) {
	const world = puddle.createWorld({ ...scene.world, ...overrides });
	const at = (path, fn) => {
		try {
			fn();
		} catch (e) {
			world.destroy();
			if (e instanceof PuddleError) throw new SceneError(scene.name, path, e.message);
			throw e;
		}
	};
	scene.materials.forEach((m, i) => at(`materials[${i}]`, () => world.addMaterial(m.def)));
	if (scene.container) at('container', () => world.addBoundary(scene.container));
	scene.obstacles.forEach((o, i) => at(`obstacles[${i}]`, () => world.addBoundary(o)));
	// the bodies before the fluid: the fills leave their space (pdl_world_fill)
	scene.bodies.forEach((b, i) => at(`bodies[${i}]`, () => {
		for (let k = 0; k < b.count; ++k) world.addBody(bodyCopy(b, k));
	}));
	scene.fills.forEach(({ mix, ...f }, i) => at(`fills[${i}]`, () => {
		const first = world.particleCount;
		world.fill(f);
		if (mix.length) applyMix(world, mix, first);
	}));
	return world;
}

// A fill's particles were appended in emission order at [first, count): particle k of the fill
// gets material mix[k % n]. The engine has no per-particle setter, so the state goes round
// through setParticles() (io/src/scene_world.c does the same; before the first step nothing
// else is lost by that).
function applyMix(world, mix, first) {
	const p = world.particles();
	const material = Uint8Array.from(p.material);
	for (let i = first; i < p.count; ++i) material[i] = mix[(i - first) % mix.length];
	world.setParticles({ x: p.x.slice(), y: p.y.slice(), z: p.z?.slice(), vx: p.vx.slice(), vy: p.vy.slice(), vz: p.vz?.slice(),
		id: p.id.slice(), nextId: p.nextId, material });
}

// ---- emitters and strokes (io/src/scene_world.c) ----

const is3d = (scene) => scene.dimensions === 3;

// The rest spacing of a material: hexagonal lattice in 2D, face-centred cubic in 3D.
function restSpacing(puddle, scene, material) {
	const h = scene.world.interaction_radius, rho = scene.materials[material].def.rest_density;
	return is3d(scene) ? puddle.restSpacing3d(h, rho) : puddle.restSpacing(h, rho);
}

function emitterSpacing(puddle, scene, e) {
	return e.spacing > 0 ? e.spacing : restSpacing(puddle, scene, e.material);
}

// |velocity| as scene_world.c computes it: hypot in 2D, the root of the sum of squares in 3D
const speedOf = (v) => (v.z === undefined ? Math.hypot(v.x, v.y) : Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
// gap between square layers of a face-centred cubic lattice, in spacings: the 3D emitter's rows
const FCC_LAYER = 0.7071067811865476;
const rowGap = (e) => (e.velocity.z === undefined ? HEX_ROW : FCC_LAYER);

// Rows leave at t_k = start + k * rowTime while t_k < stop; rows launched before time t.
function rowsBefore(e, rowTime, t) {
	if (t <= e.start) return 0;
	const end = Math.min(t, e.stop);
	return Math.ceil((end - e.start) / rowTime - 1e-9);
}

// Particles along one side of row k: as many as fit across the width at the spacing, one less
// in odd rows.
function rowSide(e, spacing, k) {
	const n = Math.floor(e.width / spacing + 1e-6) + 1;
	return k & 1 && n > 1 ? n - 1 : n;
}

// Particles in row k: a line across the velocity (2D), a square (3D).
function rowParticles(e, spacing, k) {
	const n = rowSide(e, spacing, k);
	return e.velocity.z === undefined ? n : n * n;
}

// Two unit vectors across the unit direction d (3D), fixed by d alone: u = d x y, or d x x for
// a nearly vertical d; v = d x u (scene_world.c across()).
function acrossDirections(d) {
	const a = Math.abs(d[1]) > 0.9 ? [1, 0, 0] : [0, 1, 0];
	const u = [d[1] * a[2] - d[2] * a[1], d[2] * a[0] - d[0] * a[2], d[0] * a[1] - d[1] * a[0]];
	const len = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
	for (let i = 0; i < 3; ++i) u[i] /= len;
	const v = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]];
	return { u, v };
}

function emitRows(puddle, scene, e, world, frame) {
	const dt = scene.world.dt, sp = emitterSpacing(puddle, scene, e), three = e.velocity.z !== undefined;
	const speed = speedOf(e.velocity), rowTime = (sp * rowGap(e)) / speed;
	const t0 = frame * dt, first = rowsBefore(e, rowTime, t0), last = rowsBefore(e, rowTime, (frame + 1) * dt);
	const d = [e.velocity.x / speed, e.velocity.y / speed, three ? e.velocity.z / speed : 0];
	const { u, v } = three ? acrossDirections(d) : { u: [-d[1], d[0], 0], v: [0, 0, 0] };
	let added = 0;
	for (let k = first; k < last; ++k) {
		// the row left at t_k; the frame's step carries it on, so start it behind the nozzle
		const back = speed * (t0 - (e.start + k * rowTime));
		const c = [e.position.x + d[0] * back, e.position.y + d[1] * back, (three ? e.position.z : 0) + d[2] * back];
		// odd rows have one particle less per side and sit in the gaps of even rows
		const n = rowSide(e, sp, k), nv = three ? n : 1;
		for (let jv = 0; jv < nv; ++jv)
			for (let j = 0; j < n; ++j) {
				const a = (j - 0.5 * (n - 1)) * sp, b = (jv - 0.5 * (nv - 1)) * sp;
				added += world.fill({
					shape: FillShape.POINT, count: 1, material: e.material, velocity: e.velocity,
					position: { x: c[0] + u[0] * a + v[0] * b, y: c[1] + u[1] * a + v[1] * b, z: c[2] + u[2] * a + v[2] * b },
				});
			}
	}
	return added;
}

// the vector of a point of a stroke, {x, y} or {x, y, z} as the scene's points are
const lerp = (a, b, u) => {
	const out = { x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u };
	if (a.z !== undefined) out.z = a.z + (b.z - a.z) * u;
	return out;
};
const zero = (p) => (p.z !== undefined ? { x: 0, y: 0, z: 0 } : { x: 0, y: 0 });
// (the root of the sum of squares, as scene_world.c's dist3, in both dimensions)
const distance = (a, b) => {
	const dx = b.x - a.x, dy = b.y - a.y, dz = (b.z ?? 0) - (a.z ?? 0);
	return Math.sqrt(dx * dx + dy * dy + dz * dz);
};

/** Position and velocity of a stroke at time t: constant speed along its points (2D or 3D). */
export function strokeAt(st, t) {
	const pts = st.points;
	let length = 0;
	for (let i = 1; i < pts.length; ++i) length += distance(pts[i - 1], pts[i]);
	if (length <= 0) return { position: { ...pts[0] }, velocity: zero(pts[0]) };
	// end - start in float arithmetic, as C subtracts the struct's two floats
	const speed = length / Math.fround(st.end - st.start);
	let target = speed * (t - st.start);
	for (let i = 1; i < pts.length; ++i) {
		const a = pts[i - 1], b = pts[i], seg = distance(a, b);
		if (seg <= 0) continue;
		if (target <= seg || i === pts.length - 1) {
			const u = Math.min(1, target / seg);
			const velocity = { x: ((b.x - a.x) / seg) * speed, y: ((b.y - a.y) / seg) * speed };
			if (a.z !== undefined) velocity.z = ((b.z - a.z) / seg) * speed;
			return { position: lerp(a, b, u), velocity };
		}
		target -= seg;
	}
	return { position: { ...pts[0] }, velocity: zero(pts[0]) };
}

/**
 * Scripted events of frame `frame` (0, 1, ...), before that frame's step: stroke k drives
 * pointer k (in 3D a ball around the stroke's point), emitters add their rows. Returns the
 * particles added. Scene time is frame * dt.
 */
export function applyFrame(puddle, scene, world, frame) {
	const t = frame * scene.world.dt;
	scene.strokes.forEach((st, i) => {
		if (t >= st.start && t < st.end) {
			const { position, velocity } = strokeAt(st, t);
			world.setPointer(i, { position, velocity, radius: st.radius, strength: st.strength, drag: st.drag });
		} else {
			world.clearPointer(i);
		}
	});
	let added = 0;
	for (const e of scene.emitters) added += emitRows(puddle, scene, e, world, frame);
	return added;
}

// ---- particle estimates and scaling (io/src/scene_world.c), for benchmarks ----

// The core's face-centred cubic walk (src/particles.c fcc_walk), counting only: points of the
// cube grid of step s / sqrt 2 with an even index sum, inside the box [lo, hi] (and the ball).
function fccCount(s, lo, hi, centre, ballR) {
	const a = s * 0.70710678118654752;
	const n = [0, 1, 2].map((d) => Math.floor((hi[d] - lo[d]) / a + 1e-9));
	let count = 0;
	for (let k = 0; k <= n[2]; ++k)
		for (let j = 0; j <= n[1]; ++j)
			for (let i = (j + k) % 2; i <= n[0]; i += 2) {
				if (ballR > 0) {
					const dx = lo[0] + i * a - centre[0], dy = lo[1] + j * a - centre[1], dz = lo[2] + k * a - centre[2];
					if (dx * dx + dy * dy + dz * dz > ballR * ballR) continue;
				}
				count += 1;
			}
	return count;
}

function fillEstimate3d(f, sp) {
	const c = [f.position.x, f.position.y, f.position.z];
	switch (f.shape) {
	case FillShape.POINT: return f.count > 0 ? f.count : 1;
	case FillShape.LINE: return Math.floor(Math.hypot(f.end.x - c[0], f.end.y - c[1], f.end.z - c[2]) / sp) + 1;
	case FillShape.BOX: {
		const half = [f.half_extents.x, f.half_extents.y, f.half_extents.z];
		if (half.some((h) => h < 0.5 * sp)) return 1;
		return fccCount(sp, c.map((v, k) => v - half[k] + 0.5 * sp), c.map((v, k) => v + half[k] - 0.5 * sp), c, 0);
	}
	case FillShape.DISC: {
		const r = f.radius;
		if (r < 0.5 * sp) return 1;
		return fccCount(sp, c.map((v) => v - r), c.map((v) => v + r), c, r - 0.5 * sp);
	}
	default: return 0;
	}
}

function fillEstimate(puddle, scene, f) {
	const sp = f.spacing > 0 ? f.spacing : restSpacing(puddle, scene, f.material);
	if (is3d(scene)) return fillEstimate3d(f, sp);
	switch (f.shape) {
	case FillShape.POINT: return f.count;
	case FillShape.LINE: return Math.floor(Math.hypot(f.end.x - f.position.x, f.end.y - f.position.y) / sp) + 1;
	case FillShape.BOX: {
		// the engine's lattice: rows HEX_ROW * sp apart, odd rows shifted by half a spacing
		const w = 2 * f.half_extents.x - sp, hgt = 2 * f.half_extents.y - sp;
		if (w < 0 || hgt < 0) return 1;
		const rows = Math.floor(hgt / (sp * HEX_ROW) + 1e-9) + 1;
		const even = Math.floor(w / sp + 1e-9) + 1, odd = Math.floor((w - 0.5 * sp) / sp + 1e-9) + 1;
		return Math.ceil(rows / 2) * even + Math.floor(rows / 2) * Math.max(odd, 0);
	}
	case FillShape.DISC: {
		const r = f.radius - 0.5 * sp;
		return r <= 0 ? 1 : Math.floor((Math.PI * r * r) / (sp * sp * HEX_ROW)) + 1;
	}
	case FillShape.SPIRAL:
		return f.count > 0 ? f.count : Math.max(1, Math.floor((Math.PI * f.radius * f.radius) / (sp * sp * HEX_ROW)));
	default: return 0;
	}
}

/** Particles the fills make plus all that the emitters will add (pdl_scene_estimate_particles). */
export function estimateParticles(puddle, scene) {
	let total = 0;
	for (const f of scene.fills) total += fillEstimate(puddle, scene, f);
	for (const e of scene.emitters) {
		const sp = emitterSpacing(puddle, scene, e), rowTime = (sp * rowGap(e)) / speedOf(e.velocity);
		const rows = rowsBefore(e, rowTime, e.stop);
		total += Math.ceil(rows / 2) * rowParticles(e, sp, 0) + Math.floor(rows / 2) * rowParticles(e, sp, 1);
	}
	return total;
}

const scaled = (v, k) => (v.z !== undefined ? { x: v.x * k, y: v.y * k, z: v.z * k } : { x: v.x * k, y: v.y * k });

function scaleBoundary(b, k) {
	return { ...b, position: scaled(b.position, k), radius: b.radius * k, half_extents: scaled(b.half_extents, k),
		vertices: b.vertices?.map((v) => scaled(v, k)) };
}

/** A copy of the scene with every length times k about the origin, h kept (pdl_scene_scale). */
export function scaleScene(scene, k) {
	return {
		...scene,
		bounds: { min: scaled(scene.bounds.min, k), max: scaled(scene.bounds.max, k) },
		camera: scene.camera && { ...scene.camera, target: scaled(scene.camera.target, k), distance: scene.camera.distance * k },
		container: scene.container && scaleBoundary(scene.container, k),
		obstacles: scene.obstacles.map((o) => scaleBoundary(o, k)),
		bodies: scene.bodies.map((b) => ({
			...b, position: scaled(b.position, k), radius: b.radius * k, half_extents: scaled(b.half_extents, k),
			vertices: b.vertices?.map((v) => scaled(v, k)), step: scaled(b.step, k),
		})),
		fills: scene.fills.map((f) => ({
			...f, position: scaled(f.position, k), end: scaled(f.end, k), radius: f.radius * k,
			half_extents: scaled(f.half_extents, k),
			count: f.shape === FillShape.SPIRAL && f.count > 0 ? Math.round(f.count * k * k) : f.count,
		})),
		emitters: scene.emitters.map((e) => ({ ...e, position: scaled(e.position, k), width: e.width * k })),
		strokes: scene.strokes.map((st) => ({ ...st, points: st.points.map((p) => scaled(p, k)), radius: st.radius * k })),
	};
}

/** The scene scaled so that it makes about `particles` particles (pdl_scene_scale_to_particles). */
export function scaleToParticles(puddle, scene, particles) {
	const now = estimateParticles(puddle, scene);
	if (!(now > 0) || !(particles > 0)) return scene;
	// particles grow with area (3D: volume): scale lengths by the square (cube) root, then once
	// more to absorb the lattice's rounding at the edges
	const root = is3d(scene) ? Math.cbrt : Math.sqrt;
	let k = root(particles / now);
	const got = estimateParticles(puddle, scaleScene(scene, k));
	if (got > 0) k *= root(particles / got);
	return scaleScene(scene, k);
}
