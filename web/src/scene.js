// Scene files (scenes/*.json, docs/scenes.md) in JavaScript. The native tools read them with
// cJSON in io/; the page cannot link that, so this file maps the same keys onto the C API:
// resolveScene() fills the defaults the way io/src/scene_schema.c and scene_parse.c do,
// buildWorld() adds materials, container, obstacles and fills like pdl_scene_build_world(), and
// applyFrame() runs emitters and scripted strokes like pdl_scene_apply_frame(). Value ranges are
// checked by the core itself when the defs reach it (its messages name the field).
import { BoundaryKind, FillShape, parseColor, PuddleError } from './puddle.js';

const HEX_ROW = 0.8660254037844386; // row height of a hexagonal lattice, in spacings

const TOP_KEYS = ['name', 'description', 'world', 'solver', 'materials', 'container', 'obstacles',
	'fills', 'emitters', 'strokes', 'output'];
const WORLD_KEYS = ['gravity', 'dt', 'substeps', 'bounds'];
const SOLVER_KEYS = ['kind', 'interaction_radius', 'threads', 'max_particles'];
// keys of the SPH solver (solver.kind "sph"), which the web build does not run (see resolveScene)
const SPH_KEYS = ['speed_of_sound', 'eos', 'gamma', 'pressure_kernel', 'viscosity', 'xsph', 'surface_tension', 'cfl',
	'max_substeps'];
const MATERIAL_KEYS = ['name', 'rest_density', 'stiffness', 'near_stiffness', 'mass', 'gravity_scale',
	'viscosity_sigma', 'viscosity_beta', 'spring_stiffness', 'yield_ratio', 'plasticity', 'wall_friction',
	'wall_stickiness', 'stick_distance', 'color'];
const CONTAINER_KEYS = ['shape', 'position', 'radius', 'half_extents', 'angle', 'friction', 'restitution', 'stickiness'];
const OBSTACLE_KEYS = [...CONTAINER_KEYS, 'vertices', 'velocity'];
const FILL_KEYS = ['shape', 'material', 'mix', 'position', 'end', 'radius', 'half_extents', 'spacing', 'count', 'velocity'];
const EMITTER_KEYS = ['material', 'position', 'velocity', 'width', 'spacing', 'start', 'stop'];
const STROKE_KEYS = ['start', 'end', 'points', 'radius', 'strength', 'drag'];
const OUTPUT_KEYS = ['width', 'height', 'fps', 'seconds', 'background', 'wall_color', 'obstacle_color',
	'color_mode', 'blob_radius', 'threshold', 'color_min', 'color_max'];

/** The keys this loader knows, per object, as docs/scenes.md lists them (a test compares). */
export const SCENE_KEYS = Object.freeze({
	top: TOP_KEYS, world: WORLD_KEYS, bounds: ['min', 'max'], solver: [...SOLVER_KEYS, ...SPH_KEYS], materials: MATERIAL_KEYS,
	container: CONTAINER_KEYS, obstacles: OBSTACLE_KEYS, fills: FILL_KEYS, emitters: EMITTER_KEYS,
	strokes: STROKE_KEYS, output: OUTPUT_KEYS,
});

const CONTAINER_SHAPES = { circle: BoundaryKind.CIRCLE_CONTAINER, box: BoundaryKind.BOX_CONTAINER };
const OBSTACLE_SHAPES = { circle: BoundaryKind.CIRCLE, box: BoundaryKind.BOX, polygon: BoundaryKind.POLYGON };
const FILL_SHAPES = { point: FillShape.POINT, line: FillShape.LINE, disc: FillShape.DISC, box: FillShape.BOX,
	sunflower: FillShape.SPIRAL };
// Keys that only some shapes use, and the ones a shape requires (docs/scenes.md "used by").
const SHAPE_ONLY = {
	container: { radius: ['circle'], half_extents: ['box'], angle: ['box'] },
	obstacle: { radius: ['circle'], half_extents: ['box'], angle: ['box', 'polygon'], vertices: ['polygon'] },
	fill: {
		end: ['line'], radius: ['disc', 'sunflower'], half_extents: ['box'],
		spacing: ['line', 'disc', 'box', 'sunflower'], count: ['point', 'sunflower'],
	},
};
const SHAPE_REQUIRES = {
	container: { circle: ['radius'], box: ['half_extents'] },
	obstacle: { circle: ['radius'], box: ['half_extents'], polygon: ['vertices'] },
	fill: { line: ['end'], disc: ['radius'], sunflower: ['radius'], box: ['half_extents'], point: [] },
};

function checkShapeKeys(file, path, object, what) {
	for (const [key, shapes] of Object.entries(SHAPE_ONLY[what]))
		if (key in object && !shapes.includes(object.shape))
			throw new SceneError(file, `${path}.${key}`, `is not used by shape "${object.shape}"`);
	for (const key of SHAPE_REQUIRES[what][object.shape] ?? [])
		if (!(key in object)) throw new SceneError(file, `${path}.${key}`, `is required for shape "${object.shape}"`);
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

function vec(file, path, v) {
	if (!Array.isArray(v) || v.length !== 2 || !v.every((c) => typeof c === 'number' && Number.isFinite(c)))
		throw new SceneError(file, path, 'must be an array [x, y] of two numbers');
	return { x: Math.fround(v[0]), y: Math.fround(v[1]) };
}

function color(file, path, v) {
	if (typeof v !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(v)) throw new SceneError(file, path, 'must be a colour "#rrggbb"');
	return parseColor(v);
}

function shape(file, path, v, shapes) {
	if (!(v in shapes)) throw new SceneError(file, path, `must be one of ${Object.keys(shapes).map((s) => `"${s}"`).join(', ')}`);
	return shapes[v];
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
function copyFields(file, path, src, dst, { vectors = [], colors = [], ints = [] } = {}) {
	for (const [key, value] of Object.entries(src)) {
		if (key === 'shape' || key === 'name' || key === 'material' || key === 'mix') continue;
		const at = `${path}.${key}`;
		if (vectors.includes(key)) dst[key] = vec(file, at, value);
		else if (colors.includes(key)) dst[key] = color(file, at, value);
		else if (key === 'vertices' || key === 'points') dst[key] = (value ?? []).map((p, i) => vec(file, `${at}[${i}]`, p));
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
	const s = {
		name: json.name ?? file.replace(/^.*\//, '').replace(/\.json$/, ''),
		description: json.description ?? '',
		world: { ...puddle.defaultWorldDef(), max_particles: 1000000 },
		bounds: null,
		materials: [],
		container: null,
		obstacles: [],
		fills: [],
		emitters: [],
		strokes: [],
		output: { width: 800, height: 0, fps: 0, seconds: 10, background: 0x10161f, wall_color: 0x2b3440,
			obstacle_color: 0x6b7686, color_mode: 'material', blob_radius: 0, threshold: 0.5, color_min: 0, color_max: 0 },
	};
	if (json.world) {
		checkKeys(file, 'world', json.world, WORLD_KEYS);
		const { bounds, ...rest } = json.world;
		copyFields(file, 'world', rest, s.world, { vectors: ['gravity'], ints: ['substeps'] });
		if (bounds) {
			checkKeys(file, 'world.bounds', bounds, ['min', 'max']);
			s.bounds = { min: vec(file, 'world.bounds.min', bounds.min), max: vec(file, 'world.bounds.max', bounds.max) };
		}
	}
	if (json.solver) {
		const { kind, ...solver } = json.solver;
		// The SPH solver (docs/physics.md) runs in the native library and the puddle command; its
		// Tait pressure uses powf, whose last bits differ between C libraries, so the web build
		// keeps to Clavet's relaxation, which hashes the same here as natively.
		if (kind !== undefined && kind !== 'clavet') {
			const why = kind === 'sph'
				? 'the web build runs the Clavet solver only: run SPH scenes with the puddle command'
				: 'must be "clavet" or "sph"';
			throw new SceneError(file, 'solver.kind', `${why}, got ${JSON.stringify(kind)}`);
		}
		for (const key of SPH_KEYS)
			if (key in solver) throw new SceneError(file, `solver.${key}`, 'is not used by kind "clavet"');
		checkKeys(file, 'solver', solver, SOLVER_KEYS.filter((k) => k !== 'kind'));
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
		const kind = shape(file, 'container.shape', json.container.shape, CONTAINER_SHAPES);
		checkShapeKeys(file, 'container', json.container, 'container');
		s.container = copyFields(file, 'container', json.container, { ...puddle.defaultBoundaryDef(), kind },
			{ vectors: ['position', 'half_extents'] });
	}
	list(file, json, 'obstacles', 64).forEach((o, i) => {
		const path = `obstacles[${i}]`;
		checkKeys(file, path, o, OBSTACLE_KEYS);
		const kind = shape(file, `${path}.shape`, o.shape, OBSTACLE_SHAPES);
		checkShapeKeys(file, path, o, 'obstacle');
		const def = copyFields(file, path, o, { ...puddle.defaultBoundaryDef(), kind },
			{ vectors: ['position', 'half_extents', 'velocity'] });
		if (def.vertices) def.vertex_count = def.vertices.length;
		s.obstacles.push(def);
	});
	list(file, json, 'fills', 64).forEach((f, i) => {
		const path = `fills[${i}]`;
		checkKeys(file, path, f, FILL_KEYS);
		const kind = shape(file, `${path}.shape`, f.shape, FILL_SHAPES);
		checkShapeKeys(file, path, f, 'fill');
		const def = copyFields(file, path, f, {
			...puddle.defaultFillDef(), shape: kind, count: kind === FillShape.POINT ? 1 : 0,
			material: materialIndex(`${path}.material`, f.material),
		}, { vectors: ['position', 'end', 'half_extents', 'velocity'], ints: ['count'] });
		// "mix": particle k of the fill gets material mix[k % n] (reference 001's stirred start)
		if (f.mix !== undefined && (!Array.isArray(f.mix) || f.mix.length < 1 || f.mix.length > 32))
			throw new SceneError(file, `${path}.mix`, 'must be an array of 1 to 32 material names');
		def.mix = (f.mix ?? []).map((name, k) => materialIndex(`${path}.mix[${k}]`, name));
		s.fills.push(def);
	});
	list(file, json, 'emitters', 16).forEach((e, i) => {
		const path = `emitters[${i}]`;
		checkKeys(file, path, e, EMITTER_KEYS);
		checkRequired(file, path, e, ['position', 'velocity', 'width', 'stop']);
		const em = copyFields(file, path, e, { material: materialIndex(`${path}.material`, e.material), spacing: 0, start: 0 },
			{ vectors: ['position', 'velocity'] });
		if (!em.velocity || (em.velocity.x === 0 && em.velocity.y === 0))
			throw new SceneError(file, path, 'velocity must not be [0, 0] (rows are launched along it)');
		if (!(em.stop > em.start)) throw new SceneError(file, path, 'stop must be greater than start');
		if (!(em.width > 0)) throw new SceneError(file, `${path}.width`, 'must be > 0');
		s.emitters.push(em);
	});
	list(file, json, 'strokes', 8).forEach((st, i) => {
		const path = `strokes[${i}]`;
		checkKeys(file, path, st, STROKE_KEYS);
		checkRequired(file, path, st, ['end', 'points']);
		const p = puddle.defaultPointer();
		const stroke = copyFields(file, path, st, { start: 0, radius: p.radius, strength: p.strength, drag: p.drag });
		if (!stroke.points?.length) throw new SceneError(file, `${path}.points`, 'must be an array of 1 to 64 points [x, y]');
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
		if (!s.container) throw new SceneError(file, 'world.bounds', 'is required when there is no container');
		const box = boundaryBox(s.container);
		const mx = 0.02 * (box.max.x - box.min.x), my = 0.02 * (box.max.y - box.min.y);
		s.bounds = { min: { x: box.min.x - mx, y: box.min.y - my }, max: { x: box.max.x + mx, y: box.max.y + my } };
	}
	if (s.output.fps === 0) s.output.fps = Math.min(240, 1 / s.world.dt);
	if (s.output.blob_radius === 0) s.output.blob_radius = s.world.interaction_radius;
	return s;
}

/** Axis-aligned bounding box of a circle or (rotated) box boundary. */
export function boundaryBox(b) {
	const p = b.position ?? { x: 0, y: 0 };
	if (b.kind === BoundaryKind.CIRCLE_CONTAINER || b.kind === BoundaryKind.CIRCLE)
		return { min: { x: p.x - b.radius, y: p.y - b.radius }, max: { x: p.x + b.radius, y: p.y + b.radius } };
	const c = Math.abs(Math.cos(b.angle ?? 0)), sn = Math.abs(Math.sin(b.angle ?? 0));
	const hx = c * b.half_extents.x + sn * b.half_extents.y, hy = sn * b.half_extents.x + c * b.half_extents.y;
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
	world.setParticles({ x: p.x.slice(), y: p.y.slice(), vx: p.vx.slice(), vy: p.vy.slice(), id: p.id.slice(), nextId: p.nextId, material });
}

// ---- emitters and strokes (io/src/scene_world.c) ----

function emitterSpacing(puddle, scene, e) {
	return e.spacing > 0 ? e.spacing : puddle.restSpacing(scene.world.interaction_radius, scene.materials[e.material].def.rest_density);
}

// Rows leave at t_k = start + k * rowTime while t_k < stop; rows launched before time t.
function rowsBefore(e, rowTime, t) {
	if (t <= e.start) return 0;
	const end = Math.min(t, e.stop);
	return Math.ceil((end - e.start) / rowTime - 1e-9);
}

// Particles in row k: as many as fit across the width at the spacing, one less in odd rows.
function rowParticles(e, spacing, k) {
	const n = Math.floor(e.width / spacing + 1e-6) + 1;
	return k & 1 && n > 1 ? n - 1 : n;
}

function emitRows(puddle, scene, e, world, frame) {
	const dt = scene.world.dt, sp = emitterSpacing(puddle, scene, e);
	const speed = Math.hypot(e.velocity.x, e.velocity.y), rowTime = (sp * HEX_ROW) / speed;
	const t0 = frame * dt, first = rowsBefore(e, rowTime, t0), last = rowsBefore(e, rowTime, (frame + 1) * dt);
	const dx = e.velocity.x / speed, dy = e.velocity.y / speed, px = -dy, py = dx;
	let added = 0;
	for (let k = first; k < last; ++k) {
		// the row left at t_k; the frame's step carries it on, so start it behind the nozzle
		const back = speed * (t0 - (e.start + k * rowTime));
		const cx = e.position.x + dx * back, cy = e.position.y + dy * back;
		// odd rows have one particle less and sit in the gaps of even rows
		const n = rowParticles(e, sp, k);
		for (let j = 0; j < n; ++j) {
			const across = (j - 0.5 * (n - 1)) * sp;
			added += world.fill({
				shape: FillShape.POINT, count: 1, material: e.material, velocity: e.velocity,
				position: { x: cx + px * across, y: cy + py * across },
			});
		}
	}
	return added;
}

/** Position and velocity of a stroke at time t: constant speed along its points. */
export function strokeAt(st, t) {
	const pts = st.points;
	let length = 0;
	for (let i = 1; i < pts.length; ++i) length += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
	if (length <= 0) return { position: { ...pts[0] }, velocity: { x: 0, y: 0 } };
	const speed = length / (st.end - st.start);
	let target = speed * (t - st.start);
	for (let i = 1; i < pts.length; ++i) {
		const a = pts[i - 1], b = pts[i], seg = Math.hypot(b.x - a.x, b.y - a.y);
		if (seg <= 0) continue;
		if (target <= seg || i === pts.length - 1) {
			const u = Math.min(1, target / seg);
			return {
				position: { x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u },
				velocity: { x: ((b.x - a.x) / seg) * speed, y: ((b.y - a.y) / seg) * speed },
			};
		}
		target -= seg;
	}
	return { position: { ...pts[0] }, velocity: { x: 0, y: 0 } };
}

/**
 * Scripted events of frame `frame` (0, 1, ...), before that frame's step: stroke k drives
 * pointer k, emitters add their rows. Returns the particles added. Scene time is frame * dt.
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

function fillEstimate(puddle, scene, f) {
	const h = scene.world.interaction_radius;
	const sp = f.spacing > 0 ? f.spacing : puddle.restSpacing(h, scene.materials[f.material].def.rest_density);
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
		const sp = emitterSpacing(puddle, scene, e), rowTime = (sp * HEX_ROW) / Math.hypot(e.velocity.x, e.velocity.y);
		const rows = rowsBefore(e, rowTime, e.stop);
		total += Math.ceil(rows / 2) * rowParticles(e, sp, 0) + Math.floor(rows / 2) * rowParticles(e, sp, 1);
	}
	return total;
}

const scaled = (v, k) => ({ x: v.x * k, y: v.y * k });

function scaleBoundary(b, k) {
	return { ...b, position: scaled(b.position, k), radius: b.radius * k, half_extents: scaled(b.half_extents, k),
		vertices: b.vertices?.map((v) => scaled(v, k)) };
}

/** A copy of the scene with every length times k about the origin, h kept (pdl_scene_scale). */
export function scaleScene(scene, k) {
	return {
		...scene,
		bounds: { min: scaled(scene.bounds.min, k), max: scaled(scene.bounds.max, k) },
		container: scene.container && scaleBoundary(scene.container, k),
		obstacles: scene.obstacles.map((o) => scaleBoundary(o, k)),
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
	// particles grow with area: scale lengths by the square root, then once more to absorb the
	// lattice's rounding at the edges
	let k = Math.sqrt(particles / now);
	const got = estimateParticles(puddle, scaleScene(scene, k));
	if (got > 0) k *= Math.sqrt(particles / got);
	return scaleScene(scene, k);
}
