// The ES module's API under node (single-threaded build): worlds, defs, zero-copy views,
// pointers, spawn/remove, obstacles, parameters, errors.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { BoundaryKind, FillShape, loadPuddle, PuddleError } from '../src/puddle.js';

let puddle;
before(async () => {
	puddle = await loadPuddle();
});

/** A 40 x 30 box tank with a block of default water resting on its floor. */
function tank(extra = {}) {
	const world = puddle.createWorld(extra);
	world.addMaterial({});
	world.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: { x: 20, y: 15 } });
	world.fill({ shape: FillShape.BOX, position: { x: 0, y: -11 }, half_extents: { x: 12, y: 4 } });
	return world;
}

function centroid(world) {
	const p = world.positions();
	let x = 0, y = 0;
	for (let i = 0; i < p.count; ++i) {
		x += p.x[i];
		y += p.y[i];
	}
	return { x: x / p.count, y: y / p.count };
}

describe('engine', () => {
	test('loads the single-threaded build and reports the core version', () => {
		assert.match(puddle.version, /^\d+\.\d+\.\d+$/);
		assert.equal(puddle.threaded, false);
	});

	test('defaults are the core defaults (include/puddle/types.h)', () => {
		const w = puddle.defaultWorldDef(), m = puddle.defaultMaterialDef(), p = puddle.defaultPointer();
		assert.equal(w.interaction_radius, 1);
		assert.equal(w.dimensions, 2);
		assert.deepEqual(w.gravity, { x: 0, y: -10, z: 0 }, 'vectors read back as {x, y, z}');
		assert.equal(w.substeps, 1);
		assert.equal(m.rest_density, 4);
		assert.equal(m.stiffness, 60);
		assert.equal(m.near_stiffness, 30);
		assert.equal(m.color, 0x2a7fd4);
		assert.equal(p.radius, 5);
		assert.equal(p.strength, 100);
		assert.equal(puddle.defaultBoundaryDef().kind, BoundaryKind.BOX);
	});

	test('a world steps: time, step count and a finite state', () => {
		const world = tank();
		assert.ok(world.particleCount > 500);
		assert.equal(world.threadCount, 1);
		world.step(30);
		assert.equal(world.stepCount, 30);
		assert.ok(Math.abs(world.time - 0.5) < 1e-5);
		const s = world.stats();
		assert.equal(s.particles, world.particleCount);
		assert.equal(s.non_finite, 0);
		assert.ok(s.mean_neighbours > 5);
		assert.ok(world.profile().step >= 0);
		world.destroy();
	});

	test('particle arrays are zero-copy views into wasm memory', () => {
		const world = tank();
		world.step();
		const p = world.particles();
		assert.equal(p.z, null, 'no z in a 2D world');
		assert.equal(p.vz, null);
		assert.ok(p.x instanceof Float32Array);
		assert.equal(p.x.buffer, puddle.module.HEAPU8.buffer);
		assert.equal(p.x.length, world.particleCount);
		for (const name of ['x', 'y', 'vx', 'vy', 'density', 'pressure']) assert.ok(p[name].every(Number.isFinite), name);
		// writing through the view is writing the engine's own memory
		const before = world.hash();
		p.vx[0] += 1;
		assert.notEqual(world.hash(), before);
		world.destroy();
	});

	test('the same world built twice gives the same hash', () => {
		const a = tank(), b = tank();
		a.step(40);
		b.step(40);
		assert.match(a.hash(), /^[0-9a-f]{16}$/);
		assert.equal(a.hash(), b.hash());
		a.destroy();
		b.destroy();
	});

	test('an attracting pointer pulls the fluid, a negative strength pushes it away', () => {
		const free = tank(), pulled = tank(), pushed = tank();
		const at = { position: { x: 12, y: -8 }, radius: 8 };
		pulled.setPointer(0, { ...at, strength: 200 });
		pushed.setPointer(0, { ...at, strength: -200 });
		for (const w of [free, pulled, pushed]) w.step(30);
		const x0 = centroid(free).x;
		assert.ok(centroid(pulled).x > x0 + 0.2, `pulled ${centroid(pulled).x} vs ${x0}`);
		assert.ok(centroid(pushed).x < x0 - 0.2, `pushed ${centroid(pushed).x} vs ${x0}`);
		pulled.clearPointer(0);
		for (const w of [free, pulled, pushed]) w.destroy();
	});

	test('spawn adds particles and remove takes them out', () => {
		const world = tank();
		const n = world.particleCount;
		assert.equal(world.spawn(0, 5, { count: 50, radius: 1.5 }), 50);
		assert.equal(world.spawn(0, 8, { count: 3 }), 3);
		assert.equal(world.particleCount, n + 53);
		const removed = world.removeParticlesInCircle(0, 5, 2);
		assert.ok(removed >= 50, `removed ${removed}`);
		const boxed = world.removeParticlesInBox(0, -11, 3, 3);
		assert.ok(boxed > 0);
		assert.equal(world.particleCount, n + 53 - removed - boxed);
		world.destroy();
	});

	test('obstacles: add, read back, move, keep fluid out, remove', () => {
		const world = tank();
		const id = world.addBox(0, -10, 2, 2);
		assert.equal(world.getBoundary(id).kind, BoundaryKind.BOX);
		world.setBoundary(id, { position: [3, -11], velocity: { x: 0, y: -1 } });
		assert.deepEqual(world.getBoundary(id).position, { x: 3, y: -11, z: 0 });
		world.step(20);
		const p = world.positions();
		let inside = 0;
		for (let i = 0; i < p.count; ++i) if (Math.abs(p.x[i] - 3) < 1.9 && Math.abs(p.y[i] + 11) < 1.9) ++inside;
		assert.equal(inside, 0);
		const live = world.boundaries();
		assert.equal(live.length, 2);
		assert.equal(live[1].corners.length, 4);
		world.removeBoundary(id);
		assert.equal(world.getBoundary(id), null);
		// the slot is reused with a new generation: the old id stays refused
		const again = world.addBox(0, -10, 1, 1);
		assert.notEqual(again, id);
		assert.ok(world.hasBoundary(again) && !world.hasBoundary(id));
		assert.throws(() => world.setBoundary(id, { position: [0, 0] }), (e) => e.id === 'PDL_ERR_BOUNDARY_ID');
		assert.throws(() => world.removeBoundary(id), /boundary\.id must name a live boundary of this world/);
		assert.equal(world.boundaries()[1].id, again);
		world.destroy();
	});

	test('parameters change between steps and change the simulation', () => {
		const a = tank(), b = tank();
		b.setMaterial(0, { viscosity_sigma: 4, color: '#ff0000' });
		assert.equal(b.getMaterial(0).viscosity_sigma, 4);
		assert.equal(b.getMaterial(0).color, 0xff0000);
		b.setDef({ gravity: [0, -20], substeps: 2 });
		assert.deepEqual(b.def.gravity, { x: 0, y: -20, z: 0 });
		assert.equal(b.def.substeps, 2);
		a.step(10);
		b.step(10);
		assert.notEqual(a.hash(), b.hash());
		a.destroy();
		b.destroy();
	});

	test('setParticles replaces the state', () => {
		const world = tank();
		world.setParticles({ x: [1, 2], y: [0, 0], vx: [0, 0], vy: [0, 0], material: [0, 0] });
		assert.equal(world.particleCount, 2);
		const p = world.particles();
		assert.deepEqual([...p.x].sort(), [1, 2]);
		world.destroy();
	});

	test('invalid defs throw the core error id and message', () => {
		const world = tank();
		assert.throws(() => world.addMaterial({ rest_density: -1 }), (e) =>
			e instanceof PuddleError && e.id === 'PDL_ERR_MATERIAL_REST_DENSITY' && /rest_density/.test(e.message));
		assert.throws(() => world.setDef({ dt: 0 }), (e) => e.id === 'PDL_ERR_WORLD_DT');
		assert.throws(() => world.setPointer(9, {}), (e) => e.id === 'PDL_ERR_POINTER_INDEX');
		assert.throws(() => world.addBoundary({ kind: BoundaryKind.CIRCLE, radius: -2 }), (e) => e.id === 'PDL_ERR_BOUNDARY_RADIUS');
		assert.throws(() => puddle.createWorld({ interaction_radius: 0 }), (e) => e.id === 'PDL_ERR_WORLD_INTERACTION_RADIUS');
		assert.throws(() => world.addMaterial({ rest_densty: 3 }), /no field "rest_densty"/);
		world.destroy();
	});

	test('max_particles refuses a fill beyond it', () => {
		const world = puddle.createWorld({ max_particles: 100 });
		world.addMaterial({});
		assert.throws(() => world.fill({ shape: FillShape.BOX, half_extents: { x: 10, y: 10 } }), (e) => e.id === 'PDL_ERR_TOO_MANY_PARTICLES');
		assert.equal(world.particleCount, 0);
		world.destroy();
	});
});

/** A 3D box tank 16 x 12 x 10 with a block of water in one corner (as test/native/world3d_hash.c). */
function tank3d(extra = {}) {
	const world = puddle.createWorld({ dimensions: 3, ...extra });
	world.addMaterial({});
	world.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [8, 6, 5] });
	world.fill({ shape: FillShape.BOX, position: [-5, -3, 0], half_extents: [3, 3, 5] });
	return world;
}

describe('3D worlds', () => {
	test('dimensions 3: z and vz views, 3-component defs and stats', () => {
		const world = tank3d();
		assert.equal(world.dimensions, 3);
		assert.equal(world.def.dimensions, 3);
		assert.deepEqual(world.def.gravity, { x: 0, y: -10, z: 0 });
		const n = world.particleCount;
		assert.ok(n > 300, `${n} particles`);
		world.step(10);
		const p = world.particles();
		assert.ok(p.z instanceof Float32Array && p.vz instanceof Float32Array);
		assert.equal(p.z.length, n);
		assert.ok(p.z.every((z) => z >= -5 && z <= 5), 'z inside the tank');
		assert.ok(p.z.some((z) => z > 2) && p.z.some((z) => z < -2), 'the block fills the depth');
		const s = world.stats();
		assert.equal(s.non_finite, 0);
		assert.equal(typeof s.centre_of_mass.z, 'number');
		assert.ok(Math.abs(s.centre_of_mass.z) < 0.5, `centre of mass z ${s.centre_of_mass.z}`);
		assert.equal(world.positions().z.length, n);
		world.destroy();
	});

	test('gravity along z moves the fluid along z; {x, y} input keeps z = 0', () => {
		const world = tank3d({ gravity: [0, 0, 10] });
		assert.deepEqual(world.def.gravity, { x: 0, y: 0, z: 10 });
		world.step(30);
		assert.ok(world.stats().centre_of_mass.z > 0.3);
		world.setDef({ gravity: { x: 0, y: -10 } });
		assert.deepEqual(world.def.gravity, { x: 0, y: -10, z: 0 });
		world.destroy();
	});

	test('a pointer ray pulls the fluid towards the line, a sphere remove and a 3D box remove work', () => {
		const free = tank3d(), pulled = tank3d();
		// a ray along -z through (2, -3): the fluid column at x = -5 is drawn to it
		pulled.setPointer(0, { position: [2, -3, 20], direction: [0, 0, -1], radius: 8, strength: 200 });
		free.step(30);
		pulled.step(30);
		assert.ok(pulled.stats().centre_of_mass.x > free.stats().centre_of_mass.x + 0.2);
		const n = free.particleCount;
		const ball = free.removeParticlesInCircle([-5, -4, 0], 2);
		assert.ok(ball > 0);
		const box = free.removeParticlesInBox([-5, -4, 3], [2, 2, 1]);
		assert.ok(box > 0);
		assert.equal(free.particleCount, n - ball - box);
		for (const w of [free, pulled]) w.destroy();
	});

	test('3D boundaries: box corners in 3D, spheres, polygons refused', () => {
		const world = tank3d();
		const id = world.addBox([0, 0, 1], [1, 2, 3]);
		const box = world.boundaries().find((b) => b.id === id);
		assert.equal(box.corners.length, 8);
		assert.deepEqual(box.corners[0], { x: -1, y: -2, z: -2 });
		assert.deepEqual(box.corners[6], { x: 1, y: 2, z: 4 });
		world.addBoundary({ kind: BoundaryKind.CIRCLE, position: [4, 0, 0], radius: 1 });
		assert.throws(() => world.addBoundary({ kind: BoundaryKind.POLYGON, vertex_count: 3, vertices: [[0, 0], [1, 0], [0, 1]] }),
			(e) => e.id === 'PDL_ERR_BOUNDARY_KIND_3D');
		assert.throws(() => world.fill({ shape: FillShape.SPIRAL, radius: 1 }), (e) => e.id === 'PDL_ERR_FILL_SHAPE_3D');
		assert.equal(world.spawn([0, 4, 0], { count: 5, radius: 1 }), 5);
		world.destroy();
	});

	test('setParticles needs z and vz in 3D and round-trips them', () => {
		const world = tank3d();
		assert.throws(() => world.setParticles({ x: [1], y: [0], vx: [0], vy: [0], material: [0] }), /z must have 1 entries/);
		world.setParticles({ x: [1, 2], y: [0, 0], z: [3, -3], vx: [0, 0], vy: [0, 0], vz: [1, 0], material: [0, 0] });
		const p = world.particles();
		assert.deepEqual([...p.z].sort((a, b) => a - b), [-3, 3]);
		world.destroy();
	});

	test('the same 3D world built twice hashes the same; restSpacing3d is the FCC spacing', () => {
		const a = tank3d(), b = tank3d();
		a.step(20);
		b.step(20);
		assert.equal(a.hash(), b.hash());
		assert.ok(Math.abs(puddle.restSpacing3d(1, 4) - 0.498) < 0.002, `${puddle.restSpacing3d(1, 4)}`);
		assert.throws(() => puddle.createWorld({ dimensions: 4 }), (e) => e.id === 'PDL_ERR_WORLD_DIMENSIONS');
		a.destroy();
		b.destroy();
	});
});
