// puddle in JavaScript: the C core (include/puddle/puddle.h) compiled to WebAssembly, wrapped in
// a small object API. Def fields keep their C names (rest_density, half_extents, ...), so the
// header's documentation of units and ranges applies word for word; vectors are read as
// {x, y, z} (pdl_vec3; 2D worlds ignore z) and written from {x, y}, {x, y, z}, [x, y] or
// [x, y, z], z defaulting to 0; quaternions (pdl_quat) as {x, y, z, w} or [x, y, z, w]. Particle
// arrays are zero-copy views into wasm memory. Rigid bodies are named by packed int ids
// (pdl_body_id_to_int: a removed body's id stays refused).

const STRUCT_KINDS = [
	'world_def', 'material_def', 'boundary_def', 'fill_def', 'pointer',
	'particle_data', 'stats', 'profile', 'error', 'body_def', 'body_mass', 'body_force',
	// the scene layer's (io/include/puddle/scene.h), read by scene.js
	'scene', 'scene_material', 'scene_fill', 'scene_body', 'scene_emitter', 'scene_stroke', 'scene_output',
	// a pdl_error like 'error', with its own scratch for the scene calls
	'camera', 'scene_error',
	// world_def.sph (pdl_sph_def), nested in world_def
	'sph_def',
	// a world's spray, foam and bubbles (pdl_diffuse_data)
	'diffuse_data',
];
// Field types as in web/src/bindings.c.
const F32 = 1, I32 = 2, U32 = 3, VEC2 = 4, VEC2_ARRAY = 5, F64 = 6, I64 = 7, PTR = 8, VEC3 = 9, QUAT = 10;
const STR = 11, BOOL = 12, STRUCT = 13, ITEMS = 14, VEC3_ARRAY = 15, I32_ARRAY = 16;

/** Boundary kinds (pdl_boundary_kind). */
export const BoundaryKind = Object.freeze({
	CIRCLE_CONTAINER: 0, BOX_CONTAINER: 1, CIRCLE: 2, BOX: 3, POLYGON: 4,
});
/** Fill shapes (pdl_fill_shape). */
export const FillShape = Object.freeze({ POINT: 0, LINE: 1, DISC: 2, BOX: 3, SPIRAL: 4 });
/** Most pointers (mouse, touches) at once (PDL_MAX_POINTERS). */
export const MAX_POINTERS = 8;
/** How a body moves (pdl_body_type). */
export const BodyType = Object.freeze({ DYNAMIC: 0, KINEMATIC: 1 });
/** Body shapes (pdl_body_shape): CIRCLE is a sphere in 3D; POLYGON is 2D only. */
export const BodyShape = Object.freeze({ BOX: 0, CIRCLE: 1, POLYGON: 2 });
/** Most bodies one world holds (PDL_MAX_BODIES). */
export const MAX_BODIES = 4096;
/** The solvers (pdl_solver_kind): world_def.solver; setDef() and createWorld() also take the
 * names "clavet", "sph" and "dfsph", the scene files' solver.kind. */
export const Solver = Object.freeze({ CLAVET: 0, SPH: 1, DFSPH: 2 });
// enumerations written by name as well as by number: the scene files' names (io/src/scene_schema.c)
const FIELD_NAMES = {
	world_def: { solver: { clavet: Solver.CLAVET, sph: Solver.SPH, dfsph: Solver.DFSPH } },
	sph_def: { eos: { tait: 0, linear: 1 }, pressure_kernel: { poly6: 0, spiky: 1, wendland: 2 } },
};
// the names addBody() and setBody() also take for type and shape ("sphere" is CIRCLE)
const BODY_TYPE_NAMES = { dynamic: BodyType.DYNAMIC, kinematic: BodyType.KINEMATIC };
const BODY_SHAPE_NAMES = { box: BodyShape.BOX, circle: BodyShape.CIRCLE, sphere: BodyShape.CIRCLE, polygon: BodyShape.POLYGON };

/** A failed call: `id` is the core's error name (e.g. "PDL_ERR_MATERIAL_MASS"). */
export class PuddleError extends Error {
	constructor(id, message, value) {
		super(message);
		this.name = 'PuddleError';
		this.id = id;
		this.value = value;
	}
}

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
	typeof window === 'undefined';

/** True where threads can run: SharedArrayBuffer and a cross-origin isolated page. */
export function threadsAvailable() {
	if (typeof SharedArrayBuffer === 'undefined') return false;
	return isNode ? false : globalThis.crossOriginIsolated === true;
}

/**
 * Loads the engine. With `threads` > 1 on a cross-origin isolated page it loads the threaded
 * build (Web Workers over shared memory); otherwise the single-threaded one. Under node only the
 * single-threaded build runs (Emscripten 3.1.6's pthreads there need CommonJS).
 */
export async function loadPuddle(options = {}) {
	const wantThreads = Math.max(1, Math.floor(options.threads ?? 1));
	const threaded = wantThreads > 1 && threadsAvailable();
	const base = options.distUrl ? new URL(options.distUrl, import.meta.url) : new URL('../dist/', import.meta.url);
	const name = threaded ? 'puddle-threads' : 'puddle';
	const { default: factory } = await import(new URL(`${name}.mjs`, base).href);
	const threads = threaded ? Math.min(wantThreads, MAX_ENGINE_THREADS) : 1;
	// Workers to start with the threaded build (web/Makefile THREAD_FLAGS): a world with n threads
	// uses n - 1, and a world destroyed and replaced in one task keeps its workers until the page
	// yields, so two worlds' worth.
	const moduleArgs = threaded ? { puddleWorkers: 2 * (threads - 1) } : {};
	if (isNode) {
		const { readFile } = await import('node:fs/promises');
		moduleArgs.wasmBinary = await readFile(new URL(`${name}.wasm`, base));
	}
	const module = await factory(moduleArgs);
	return new Puddle(module, threads, threaded);
}

// The most threads a world gets in the browser: the stages are short, and the page's main
// thread spins while the workers run them.
const MAX_ENGINE_THREADS = 4;

function readFieldTable(module, kind) {
	const fieldSize = module._pdlw_field_size();
	const fields = [];
	for (let p = module._pdlw_struct_fields(kind); ; p += fieldSize) {
		const words = new Int32Array(module.HEAPU8.buffer, p, 4);
		if (words[0] === 0) break;
		fields.push({ name: module.UTF8ToString(words[0]), offset: words[1], type: words[2], count: words[3] });
	}
	return { fields, size: module._pdlw_struct_size(kind), byName: null };
}

function vec2(v, what) {
	if (Array.isArray(v)) return { x: +v[0], y: +v[1] };
	if (v && typeof v === 'object') return { x: +v.x, y: +v.y };
	throw new TypeError(`${what} must be {x, y} or [x, y]`);
}

/** {x, y, z} of {x, y}, {x, y, z}, [x, y] or [x, y, z]; a missing z is 0 (2D worlds ignore it). */
export function vec3(v, what = 'vector') {
	if (Array.isArray(v) && (v.length === 2 || v.length === 3)) return { x: +v[0], y: +v[1], z: +(v[2] ?? 0) };
	if (v && typeof v === 'object' && !Array.isArray(v)) return { x: +v.x, y: +v.y, z: +(v.z ?? 0) };
	throw new TypeError(`${what} must be {x, y, z}, {x, y}, [x, y, z] or [x, y]`);
}

const isVector = (v) => Array.isArray(v) || (v !== null && typeof v === 'object');

/** {x, y, z, w} of {x, y, z, w} or [x, y, z, w]. */
function quat(v, what) {
	if (Array.isArray(v) && v.length === 4) return { x: +v[0], y: +v[1], z: +v[2], w: +v[3] };
	if (v && typeof v === 'object' && !Array.isArray(v)) return { x: +v.x, y: +v.y, z: +v.z, w: +v.w };
	throw new TypeError(`${what} must be {x, y, z, w} or [x, y, z, w]`);
}

// A body def's type and shape by name or number, and vertex_count from vertices when not given.
function bodyFields(values) {
	const out = { ...values };
	for (const [key, names] of [['type', BODY_TYPE_NAMES], ['shape', BODY_SHAPE_NAMES]]) {
		if (typeof out[key] !== 'string') continue;
		if (!(out[key] in names)) throw new TypeError(`body_def.${key} must be one of ${Object.keys(names).map((n) => `"${n}"`).join(', ')} or a number, got "${out[key]}"`);
		out[key] = names[out[key]];
	}
	if (Array.isArray(out.vertices) && out.vertex_count === undefined) out.vertex_count = out.vertices.length;
	return out;
}

/** "#rrggbb", "rrggbb" or a number, as 0xRRGGBB. */
export function parseColor(c) {
	if (typeof c === 'number') return c >>> 0;
	if (typeof c === 'string') return parseInt(c.replace(/^#/, ''), 16) >>> 0;
	throw new TypeError('color must be a number or "#rrggbb"');
}

/** The loaded engine: defaults, world creation, and the struct marshalling every world shares. */
export class Puddle {
	constructor(module, threads, threaded) {
		this.module = module;
		/** Threads a world gets by default: 1, or the threads asked of loadPuddle() (at most 4). */
		this.threads = threads;
		/** Whether the threaded build is loaded. */
		this.threaded = threaded;
		this.version = module.UTF8ToString(module._pdl_version_string());
		this.structs = {};
		STRUCT_KINDS.forEach((name, kind) => {
			const s = readFieldTable(module, kind);
			s.kind = kind;
			s.byName = new Map(s.fields.map((f) => [f.name, f]));
			// (the scene layer's structs are read where they lie, so no scratch, but for its errors)
			s.scratch = kind < STRUCT_KINDS.indexOf('scene') || name === 'scene_error' || name === 'diffuse_data'
				? module._malloc(s.size) : 0;
			this.structs[name] = s;
		});
		this.errorPtr = this.structs.error.scratch;
		this.messageOffset = module._pdlw_error_message_offset();
		this.textScratch = module._malloc(32);
		this.verticesScratch = module._malloc(8 * 16);
		this.idsScratch = { ptr: 0, capacity: 0 }; // Int32 packed body ids, grown on demand
	}

	// ---- struct marshalling ----

	/** @internal Reads a struct at ptr into a plain object. */
	read(kind, ptr) {
		const s = this.structs[kind];
		const buf = this.module.HEAPU8.buffer;
		const dv = new DataView(buf);
		const out = {};
		for (const f of s.fields) {
			const a = ptr + f.offset;
			switch (f.type) {
			case F32: out[f.name] = dv.getFloat32(a, true); break;
			case I32: out[f.name] = dv.getInt32(a, true); break;
			case U32: case PTR: out[f.name] = dv.getUint32(a, true); break;
			case F64: out[f.name] = dv.getFloat64(a, true); break;
			case I64: out[f.name] = Number(dv.getBigInt64(a, true)); break;
			case VEC2: out[f.name] = { x: dv.getFloat32(a, true), y: dv.getFloat32(a + 4, true) }; break;
			case VEC3:
				out[f.name] = { x: dv.getFloat32(a, true), y: dv.getFloat32(a + 4, true), z: dv.getFloat32(a + 8, true) };
				break;
			case QUAT:
				out[f.name] = { x: dv.getFloat32(a, true), y: dv.getFloat32(a + 4, true), z: dv.getFloat32(a + 8, true), w: dv.getFloat32(a + 12, true) };
				break;
			case VEC2_ARRAY: {
				const list = [];
				for (let i = 0; i < f.count; ++i)
					list.push({ x: dv.getFloat32(a + 8 * i, true), y: dv.getFloat32(a + 8 * i + 4, true) });
				out[f.name] = list;
				break;
			}
			case VEC3_ARRAY: {
				const list = [];
				for (let i = 0; i < f.count; ++i)
					list.push({ x: dv.getFloat32(a + 12 * i, true), y: dv.getFloat32(a + 12 * i + 4, true), z: dv.getFloat32(a + 12 * i + 8, true) });
				out[f.name] = list;
				break;
			}
			case I32_ARRAY: out[f.name] = Array.from(new Int32Array(buf, a, f.count)); break;
			case STR: out[f.name] = this.module.UTF8ToString(a, f.count); break;
			case BOOL: out[f.name] = dv.getUint8(a) !== 0; break;
			case STRUCT: out[f.name] = this.read(STRUCT_KINDS[f.count], a); break;
			// an array of structs: its address and kind; the caller knows its length
			case ITEMS: out[f.name] = { ptr: a, kind: STRUCT_KINDS[f.count] }; break;
			default: throw new Error(`unknown field type ${f.type}`);
			}
		}
		return out;
	}

	/** @internal Writes the fields of `values` over the struct at ptr; unknown names throw. */
	write(kind, ptr, values) {
		const s = this.structs[kind];
		const dv = new DataView(this.module.HEAPU8.buffer);
		for (const [name, value] of Object.entries(values ?? {})) {
			if (value === undefined) continue;
			const f = s.byName.get(name);
			if (!f) throw new TypeError(`${kind} has no field "${name}"`);
			const a = ptr + f.offset;
			switch (f.type) {
			case F32: dv.setFloat32(a, +value, true); break;
			case I32: {
				const names = FIELD_NAMES[kind]?.[name];
				if (names && typeof value === 'string' && !Object.hasOwn(names, value))
					throw new TypeError(`${kind}.${name} must be one of ${Object.keys(names).map((n) => `"${n}"`).join(', ')} or a number, got "${value}"`);
				dv.setInt32(a, Math.trunc(names && typeof value === 'string' ? names[value] : +value), true);
				break;
			}
			case U32: dv.setUint32(a, name === 'color' ? parseColor(value) : +value >>> 0, true); break;
			case F64: dv.setFloat64(a, +value, true); break;
			case VEC2: {
				const v = vec2(value, `${kind}.${name}`);
				dv.setFloat32(a, v.x, true);
				dv.setFloat32(a + 4, v.y, true);
				break;
			}
			case VEC3: {
				const v = vec3(value, `${kind}.${name}`);
				dv.setFloat32(a, v.x, true);
				dv.setFloat32(a + 4, v.y, true);
				dv.setFloat32(a + 8, v.z, true);
				break;
			}
			case QUAT: {
				const q = quat(value, `${kind}.${name}`);
				[q.x, q.y, q.z, q.w].forEach((c, k) => dv.setFloat32(a + 4 * k, c, true));
				break;
			}
			case VEC2_ARRAY: {
				if (!Array.isArray(value) || value.length > f.count)
					throw new TypeError(`${kind}.${name} must be an array of at most ${f.count} points`);
				value.forEach((p, i) => {
					const v = vec2(p, `${kind}.${name}[${i}]`);
					dv.setFloat32(a + 8 * i, v.x, true);
					dv.setFloat32(a + 8 * i + 4, v.y, true);
				});
				break;
			}
			// a nested struct: the fields given, over what it holds
			case STRUCT: this.write(STRUCT_KINDS[f.count], a, value); break;
			default: throw new TypeError(`${kind}.${name} is read-only`);
			}
		}
		return ptr;
	}

	/** @internal The scratch struct of a kind, filled with the core's defaults and `values`. */
	fillDefaults(kind, values) {
		const s = this.structs[kind];
		this.module._pdlw_defaults(s.kind, s.scratch);
		return this.write(kind, s.scratch, values);
	}

	/** @internal Throws the error the last call left in the error scratch. */
	throwError() {
		const e = this.read('error', this.errorPtr);
		const name = this.module.UTF8ToString(this.module._pdl_error_name(e.id));
		const message = this.module.UTF8ToString(this.errorPtr + this.messageOffset);
		throw new PuddleError(name, message, e.value);
	}

	// ---- defaults (pdl_default_*) ----

	defaultWorldDef() { return this.read('world_def', this.fillDefaults('world_def')); }
	defaultMaterialDef() { return this.read('material_def', this.fillDefaults('material_def')); }
	defaultBoundaryDef() { return this.read('boundary_def', this.fillDefaults('boundary_def')); }
	defaultFillDef() { return this.read('fill_def', this.fillDefaults('fill_def')); }
	defaultPointer() { return this.read('pointer', this.fillDefaults('pointer')); }
	defaultBodyDef() { return this.read('body_def', this.fillDefaults('body_def')); }

	/** Spacing of a hexagonal lattice at rest density (pdl_rest_spacing). */
	restSpacing(interactionRadius, restDensity) {
		return this.module._pdl_rest_spacing(interactionRadius, restDensity);
	}

	/** Spacing of a face-centred cubic lattice at rest density, 3D (pdl_rest_spacing_3d). */
	restSpacing3d(interactionRadius, restDensity) {
		return this.module._pdl_rest_spacing_3d(interactionRadius, restDensity);
	}

	/**
	 * A new world; `def` overrides pdl_default_world_def(). threads defaults to this.threads.
	 * `dimensions: 3` makes a 3D world (fixed for its life).
	 */
	createWorld(def = {}) {
		const ptr = this.module._pdl_world_create(
			this.fillDefaults('world_def', { threads: this.threads, ...def }), this.errorPtr);
		if (!ptr) this.throwError();
		return new World(this, ptr);
	}
}

// A packed body or boundary id as the core takes it: integers only (anything else names none).
const packedId = (id) => (Number.isInteger(id) && id >= 0 && id <= 0x7fffffff ? id : -1);

/** One simulation (pdl_world). Call destroy() when done: its memory lives in wasm. */
export class World {
	constructor(puddle, ptr) {
		this.puddle = puddle;
		this.module = puddle.module;
		this.ptr = ptr;
		/** 2 or 3 (pdl_world_def.dimensions), fixed at creation. */
		this.dimensions = this.def.dimensions;
	}

	destroy() {
		if (this.ptr) this.module._pdl_world_destroy(this.ptr);
		this.ptr = 0;
	}

	/** Advances `frames` frames of def.dt seconds (each def.substeps solver steps). */
	step(frames = 1) {
		for (let i = 0; i < frames; ++i) this.module._pdl_world_step(this.ptr);
	}

	// ---- world def ----

	get def() {
		const s = this.puddle.structs.world_def;
		this.module._pdlw_world_get_def(this.ptr, s.scratch);
		return this.puddle.read('world_def', s.scratch);
	}

	/** Changes some world def fields between steps; on error nothing changes. */
	setDef(values) {
		const s = this.puddle.structs.world_def;
		this.module._pdlw_world_get_def(this.ptr, s.scratch);
		this.puddle.write('world_def', s.scratch, values);
		if (this.module._pdl_world_set_def(this.ptr, s.scratch, this.puddle.errorPtr)) this.puddle.throwError();
	}

	// ---- materials ----

	/** Adds a material (fields over pdl_default_material_def()); returns its id. */
	addMaterial(def = {}) {
		const id = this.module._pdl_world_add_material(
			this.ptr, this.puddle.fillDefaults('material_def', def), this.puddle.errorPtr);
		if (id < 0) this.puddle.throwError();
		return id;
	}

	getMaterial(id) {
		const s = this.puddle.structs.material_def;
		this.module._pdlw_world_get_material(this.ptr, id, s.scratch);
		return this.puddle.read('material_def', s.scratch);
	}

	/** Changes some fields of a material; its particles follow from the next step. */
	setMaterial(id, values) {
		const s = this.puddle.structs.material_def;
		this.module._pdlw_world_get_material(this.ptr, id, s.scratch);
		this.puddle.write('material_def', s.scratch, values);
		if (this.module._pdl_world_set_material(this.ptr, id, s.scratch, this.puddle.errorPtr))
			this.puddle.throwError();
	}

	get materialCount() { return this.module._pdl_world_material_count(this.ptr); }

	// ---- particles ----

	/** Adds particles in a shape (fields over pdl_default_fill_def()); returns how many. */
	fill(def = {}) {
		const n = this.module._pdl_world_fill(
			this.ptr, this.puddle.fillDefaults('fill_def', def), this.puddle.errorPtr);
		if (n < 0) this.puddle.throwError();
		return n;
	}

	/**
	 * Adds `count` particles at a point: spawn(x, y, options) or spawn(position, options) with a
	 * vector position (3D). In 2D a radius spreads them over a small sunflower disc; in 3D, where
	 * spirals do not exist, they start at the point and the solver spreads them.
	 */
	spawn(...args) {
		const [at, options] = isVector(args[0]) ? [vec3(args[0], 'spawn position'), args[1]] : [{ x: args[0], y: args[1], z: 0 }, args[2]];
		const { material = 0, count = 1, radius = 0, velocity = { x: 0, y: 0 } } = options ?? {};
		if (radius > 0 && this.dimensions === 2) return this.fill({ shape: FillShape.SPIRAL, material, position: at, radius, count, velocity });
		return this.fill({ shape: FillShape.POINT, material, position: at, count, velocity });
	}

	/** Removes the particles in a circle (3D: sphere): (x, y, radius) or (centre, radius). Returns how many. */
	removeParticlesInCircle(...args) {
		const [c, r] = isVector(args[0]) ? [vec3(args[0], 'centre'), args[1]] : [{ x: args[0], y: args[1], z: 0 }, args[2]];
		return this.module._pdlw_world_remove_particles_in_circle(this.ptr, c.x, c.y, c.z, r);
	}

	/** Removes the particles in an axis-aligned box: (x, y, halfWidth, halfHeight) or (centre, halfExtents). */
	removeParticlesInBox(...args) {
		const [c, h] = isVector(args[0])
			? [vec3(args[0], 'centre'), vec3(args[1], 'half extents')]
			: [{ x: args[0], y: args[1], z: 0 }, { x: args[2], y: args[3], z: 1 }];
		return this.module._pdlw_world_remove_particles_in_box(this.ptr, c.x, c.y, c.z, h.x, h.y, h.z);
	}

	get particleCount() { return this.module._pdl_world_particle_count(this.ptr); }

	/** A struct of array pointers (particle_data, diffuse_data) as `fn` fills it, the heap and its count. */
	readArrays(kind, fn) {
		const s = this.puddle.structs[kind];
		this.module[fn](this.ptr, s.scratch);
		const d = this.puddle.read(kind, s.scratch);
		return { d, buf: this.module.HEAPU8.buffer, n: d.count };
	}

	/**
	 * Zero-copy views of the particle arrays, in the engine's storage order (it re-sorts by grid
	 * cell every step: follow a particle by `id`). The views are valid until the next call that
	 * changes the world (step, fill, remove, setDef): fetch them again after each.
	 */
	particles() {
		const { d, buf, n } = this.readArrays('particle_data', '_pdlw_world_particles');
		const f32 = (p) => (p ? new Float32Array(buf, p, n) : null);
		return {
			count: n,
			x: f32(d.x), y: f32(d.y), z: f32(d.z), vx: f32(d.vx), vy: f32(d.vy), vz: f32(d.vz),
			density: f32(d.density), pressure: f32(d.pressure),
			material: new Uint8Array(buf, d.material, n),
			id: new Uint32Array(buf, d.id, n),
			nextId: d.next_id,
		};
	}

	/**
	 * Zero-copy views of the world's diffuse particles (spray, foam and bubbles: a scene's
	 * "diffuse" section, pdl_world_diffuse), oldest first: x, y, z (0 in 2D), vx, vy, vz, life
	 * (seconds), kind (0 spray, 1 foam, 2 bubble) and kindCount [spray, foam, bubbles]. Valid
	 * until the next step, as particles() is; count 0 when they are off.
	 */
	diffuse() {
		const { d, buf, n } = this.readArrays('diffuse_data', '_pdlw_world_diffuse');
		const f32 = (p) => new Float32Array(buf, p, p ? n : 0);
		return {
			count: n, x: f32(d.x), y: f32(d.y), z: f32(d.z), vx: f32(d.vx), vy: f32(d.vy), vz: f32(d.vz),
			life: f32(d.life), kind: new Uint8Array(buf, d.kind, d.kind ? n : 0), kindCount: d.kind_count,
		};
	}

	/**
	 * Replaces every particle (pdl_world_set_particles), as a snapshot restore does: x, y, vx, vy
	 * (and z, vz in a 3D world) and material are required arrays of one length; id is optional
	 * (new ids from nextId otherwise). Springs are dropped. On error nothing changes.
	 */
	setParticles({ x, y, z, vx, vy, vz, material, id, nextId = 0 }) {
		const n = x.length;
		const three = this.dimensions === 3;
		const floats = three ? { x, y, z, vx, vy, vz } : { x, y, vx, vy };
		for (const [name, a] of Object.entries({ ...floats, material }))
			if (!a || a.length !== n) throw new TypeError(`setParticles: ${name} must have ${n} entries like x`);
		const names = Object.keys(floats), arrays = Object.values(floats), k = arrays.length;
		const m = this.module;
		// one block: the float arrays, ids, then materials (4-byte aligned)
		const block = m._malloc(Math.max(1, 4 * k * n + 4 * n + n));
		try {
			const buf = m.HEAPU8.buffer;
			arrays.forEach((a, i) => new Float32Array(buf, block + 4 * n * i, n).set(a));
			const ids = block + 4 * k * n, mats = ids + 4 * n;
			if (id) new Uint32Array(buf, ids, n).set(id);
			new Uint8Array(buf, mats, n).set(material);
			const s = this.puddle.structs.particle_data;
			new Uint8Array(buf, s.scratch, s.size).fill(0);
			const dv = new DataView(buf);
			const at = (name) => s.scratch + s.byName.get(name).offset;
			dv.setInt32(at('count'), n, true);
			dv.setUint32(at('next_id'), nextId, true);
			names.forEach((name, i) => dv.setUint32(at(name), block + 4 * n * i, true));
			dv.setUint32(at('id'), id ? ids : 0, true);
			dv.setUint32(at('material'), mats, true);
			if (m._pdl_world_set_particles(this.ptr, s.scratch, this.puddle.errorPtr)) this.puddle.throwError();
		} finally {
			m._free(block);
		}
	}

	/** Positions only: { count, x, y, z } as zero-copy Float32Array views (z null in 2D; see particles()). */
	positions() {
		const p = this.particles();
		return { count: p.count, x: p.x, y: p.y, z: p.z };
	}

	// ---- boundaries: containers and obstacles ----

	/**
	 * Adds a container or obstacle (fields over pdl_default_boundary_def()); returns its id, the
	 * packed int of pdl_boundary_id_to_int (0, 1, 2, ... in a world that has removed none). A
	 * removed boundary's slot is reused with a new generation, so its old id stays refused.
	 */
	addBoundary(def = {}) {
		const id = this.module._pdlw_world_add_boundary(
			this.ptr, this.puddle.fillDefaults('boundary_def', def), this.puddle.errorPtr);
		if (id < 0) this.puddle.throwError();
		return id;
	}

	/**
	 * A box obstacle: addBox(x, y, halfWidth, halfHeight, extra) centred at (x, y), the "drop a
	 * box" of the Unity SPH demo, or addBox(centre, halfExtents, extra) with vectors (3D).
	 */
	addBox(...args) {
		const [position, half_extents, extra] = isVector(args[0])
			? [vec3(args[0], 'centre'), vec3(args[1], 'half extents'), args[2]]
			: [{ x: args[0], y: args[1] }, { x: args[2], y: args[3] }, args[4]];
		return this.addBoundary({ kind: BoundaryKind.BOX, position, half_extents, ...extra });
	}

	/** The boundary's def, or null if the id is not live. */
	getBoundary(id) {
		const s = this.puddle.structs.boundary_def;
		if (!this.module._pdlw_world_get_boundary(this.ptr, packedId(id), s.scratch)) return null;
		return this.puddle.read('boundary_def', s.scratch);
	}

	/** Whether `id` names a live boundary of this world. */
	hasBoundary(id) { return !!this.module._pdlw_world_get_boundary(this.ptr, packedId(id), 0); }

	/** Moves, reshapes or retunes a boundary; give `velocity` for a moving one. */
	setBoundary(id, values) {
		const s = this.puddle.structs.boundary_def;
		// an id that is not live: the core's own refusal (PDL_ERR_BOUNDARY_ID) with the defaults
		if (!this.module._pdlw_world_get_boundary(this.ptr, packedId(id), s.scratch)) this.module._pdlw_defaults(s.kind, s.scratch);
		this.puddle.write('boundary_def', s.scratch, values);
		if (this.module._pdlw_world_set_boundary(this.ptr, packedId(id), s.scratch, this.puddle.errorPtr))
			this.puddle.throwError();
	}

	/** Throws PDL_ERR_BOUNDARY_ID for an id that is not live. */
	removeBoundary(id) {
		if (this.module._pdlw_world_remove_boundary(this.ptr, packedId(id), this.puddle.errorPtr)) this.puddle.throwError();
	}

	/**
	 * Every live boundary: { id, ...def, corners } with world-space corners for boxes and polygons
	 * ({x, y}, counter-clockwise). In a 3D world a box has 8 corners {x, y, z}: the 4 of its
	 * back face (z - half_extents.z), counter-clockwise seen from +z, then the 4 of its front.
	 */
	boundaries() {
		const out = [];
		const slots = this.module._pdl_world_boundary_slots(this.ptr);
		const s = this.puddle.structs.boundary_def;
		for (let slot = 0; slot < slots; ++slot) {
			const id = this.module._pdlw_world_boundary_in_slot(this.ptr, slot);
			if (!this.module._pdlw_world_get_boundary(this.ptr, packedId(id), s.scratch)) continue;
			const def = this.puddle.read('boundary_def', s.scratch);
			const n = this.module._pdl_boundary_world_vertices(s.scratch, this.puddle.verticesScratch);
			const v = new Float32Array(this.module.HEAPU8.buffer, this.puddle.verticesScratch, 2 * n);
			def.corners = Array.from({ length: n }, (_, i) => ({ x: v[2 * i], y: v[2 * i + 1] }));
			if (this.dimensions === 3) {
				const z = def.position.z, hz = def.half_extents.z;
				def.corners = n === 4 ? [-hz, hz].flatMap((dz) => def.corners.map((c) => ({ ...c, z: z + dz }))) : [];
			}
			def.vertices = def.vertices.slice(0, def.kind === BoundaryKind.POLYGON ? def.vertex_count : 0);
			out.push({ id, ...def });
		}
		return out;
	}

	// ---- rigid bodies ----

	/**
	 * Adds a rigid body (fields over pdl_default_body_def(), C names: shape, type, position,
	 * angle or orientation, linear_velocity, angular_velocity, radius, half_extents, vertices,
	 * density, friction, restitution, gravity_scale, color); `type` and `shape` take BodyType /
	 * BodyShape numbers or their names ("dynamic", "box", "circle", "sphere", "polygon"), and
	 * vertex_count follows vertices. Returns the body's id (a packed int).
	 */
	addBody(def = {}) {
		const id = this.module._pdlw_world_add_body(
			this.ptr, this.puddle.fillDefaults('body_def', bodyFields(def)), this.puddle.errorPtr);
		if (id < 0) this.puddle.throwError();
		return id;
	}

	removeBody(id) {
		if (this.module._pdlw_world_remove_body(this.ptr, packedId(id), this.puddle.errorPtr)) this.puddle.throwError();
	}

	/** Whether `id` names a live body of this world. */
	hasBody(id) { return !!this.module._pdlw_world_body_valid(this.ptr, packedId(id)); }

	/**
	 * A body's def with its current state: position, angle (3D: orientation), linear_velocity,
	 * angular_velocity (2D: z), and in a 2D world the world-space `corners` of a box or polygon
	 * (counter-clockwise; empty for circles). null if the id is not live.
	 */
	body(id) {
		const s = this.puddle.structs.body_def;
		if (!this.module._pdlw_world_get_body(this.ptr, packedId(id), s.scratch)) return null;
		const def = this.puddle.read('body_def', s.scratch);
		def.vertices = def.vertices.slice(0, def.shape === BodyShape.POLYGON ? def.vertex_count : 0);
		def.corners = [];
		if (this.dimensions === 2) {
			const n = this.module._pdl_body_world_vertices(s.scratch, this.puddle.verticesScratch);
			const v = new Float32Array(this.module.HEAPU8.buffer, this.puddle.verticesScratch, 2 * n);
			def.corners = Array.from({ length: n }, (_, i) => ({ x: v[2 * i], y: v[2 * i + 1] }));
		}
		return { id, ...def };
	}

	/**
	 * Changes a body between steps: its state (position, angle or orientation, velocities) or
	 * anything else of its def, the fields given over its current def (names as addBody()). A
	 * kinematic body is driven by calling this every step with its position and velocity. On
	 * error nothing changes.
	 */
	setBody(id, values) {
		const s = this.puddle.structs.body_def, packed = packedId(id);
		// an id that is not live: the core's own refusal (PDL_ERR_BODY_ID) with the defaults
		if (!this.module._pdlw_world_get_body(this.ptr, packed, s.scratch)) this.module._pdlw_defaults(s.kind, s.scratch);
		this.puddle.write('body_def', s.scratch, bodyFields(values));
		if (this.module._pdlw_world_set_body(this.ptr, packed, s.scratch, this.puddle.errorPtr)) this.puddle.throwError();
	}

	/** The ids of the live bodies, in slot order (the order a snapshot re-adds them in). */
	bodies() {
		const m = this.module, scratch = this.puddle.idsScratch;
		for (;;) {
			const n = m._pdlw_world_bodies(this.ptr, scratch.ptr, scratch.capacity);
			if (n < 0) throw new PuddleError('PDL_ERR_OUT_OF_MEMORY', 'bodies: out of memory', NaN);
			if (n <= scratch.capacity) return Array.from(new Int32Array(m.HEAPU8.buffer, scratch.ptr, n));
			m._free(scratch.ptr);
			scratch.capacity = Math.max(n, 2 * scratch.capacity, 64);
			scratch.ptr = m._malloc(4 * scratch.capacity);
		}
	}

	get bodyCount() { return this.module._pdl_world_body_count(this.ptr); }

	/** Mass, inertia (2D: z; 3D: principal moments), boundary particles and their spacing; zeros if not live. */
	bodyMass(id) {
		const s = this.puddle.structs.body_mass;
		this.module._pdlw_world_body_mass(this.ptr, packedId(id), s.scratch);
		return this.puddle.read('body_mass', s.scratch);
	}

	/** The force and torque (2D: z) the fluid put on the body over the last step; zeros if not live. */
	bodyForce(id) {
		const s = this.puddle.structs.body_force;
		this.module._pdlw_world_body_force(this.ptr, packedId(id), s.scratch);
		return this.puddle.read('body_force', s.scratch);
	}

	// ---- pointers ----

	/**
	 * Turns pointer `index` (0..7) on; fields over pdl_default_pointer(). Negative strength repels.
	 * In 3D a non-zero `direction` makes it a ray from `position` (a mouse ray from the camera).
	 */
	setPointer(index, pointer) {
		const p = this.puddle.fillDefaults('pointer', pointer);
		if (this.module._pdl_world_set_pointer(this.ptr, index, p, this.puddle.errorPtr)) this.puddle.throwError();
	}

	clearPointer(index) { this.module._pdl_world_clear_pointer(this.ptr, index); }

	// ---- measurement ----

	stats() {
		const s = this.puddle.structs.stats;
		this.module._pdlw_world_stats(this.ptr, s.scratch);
		return this.puddle.read('stats', s.scratch);
	}

	/** Milliseconds per stage of the last step (pdl_profile). */
	profile() {
		const s = this.puddle.structs.profile;
		this.module._pdlw_world_profile(this.ptr, s.scratch);
		return this.puddle.read('profile', s.scratch);
	}

	/** FNV-1a hash of the whole particle state (and the bodies', when there are any) as 16 hex digits: equal means bitwise equal. */
	hash() {
		this.module._pdlw_world_hash_hex(this.ptr, this.puddle.textScratch);
		return this.module.UTF8ToString(this.puddle.textScratch);
	}

	/** Simulated seconds. */
	get time() { return this.module._pdl_world_time(this.ptr); }
	/** Solver steps taken (substeps count one each). */
	get stepCount() { return this.module._pdlw_world_step_count(this.ptr); }
	/** Threads the world really runs with. */
	get threadCount() { return this.module._pdl_world_thread_count(this.ptr); }
}
