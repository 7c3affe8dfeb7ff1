// Rigid bodies through the ES module (single-threaded build under node): a box dropped into a
// pool falls and floats, a heavy one sinks, the fluid holds a floating body up with its weight,
// ids (packed ints) live and die, state reads back and can be set, kinematic bodies go where
// they are driven, 3D bodies turn by quaternions, and bad input gets the core's exact error.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { BodyShape, BodyType, BoundaryKind, FillShape, loadPuddle, PuddleError } from '../src/puddle.js';

let puddle;
before(async () => {
	puddle = await loadPuddle();
});

// The pool of test/fixtures/pool.json (3D: a 12 x 12 x 8 tank): water about 4 h deep, the
// floor at y = -8 (3D: -6), settled for a second before anything is dropped in.
const FLOOR = { 2: -8, 3: -6 };
function pool(dimensions = 2) {
	const three = dimensions === 3;
	const world = puddle.createWorld({ dimensions, substeps: 2, threads: 1 });
	world.addMaterial({ viscosity_sigma: 0.3, viscosity_beta: 0.1 });
	world.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: three ? [6, 6, 4] : [12, 8] });
	world.fill({ shape: FillShape.BOX, position: three ? [0, -4, 0] : [0, -5.5], half_extents: three ? [5.9, 1.95, 3.9] : [11.8, 2.45] });
	world.step(60);
	return world;
}

// The water's surface: the height below which 98% of the particles lie (a few splash above).
function surface(world) {
	const y = Array.from(world.positions().y).sort((a, b) => a - b);
	return y[Math.floor(0.98 * y.length)];
}

/**
 * Drops a box of half height 1 (half extents 1.5 x 1 (x 1.5)) from y = 2 into a pool and runs
 * 6 s: where it ends, its lowest point on the way, the surface, and the mean vertical force of
 * the fluid on it over the last second over its weight.
 */
function drop(density, dimensions = 2) {
	const world = pool(dimensions);
	const id = world.addBody({ shape: 'box', position: dimensions === 3 ? [0, 2, 0] : [0, 2], half_extents: [1.5, 1, 1.5], density });
	let lowest = Infinity, lift = 0;
	const frames = 360, last = 60;
	for (let f = 0; f < frames; ++f) {
		world.step();
		lowest = Math.min(lowest, world.body(id).position.y);
		if (f >= frames - last) lift += world.bodyForce(id).force.y / last;
	}
	const result = { y: world.body(id).position.y, lowest, surface: surface(world), lift: lift / (world.bodyMass(id).mass * 10),
		nonFinite: world.stats().non_finite };
	world.destroy();
	return result;
}

describe('bodies', () => {
	test('a box half as dense as water falls into the pool and floats across the surface', () => {
		const r = drop(0.5);
		const all = JSON.stringify(r);
		assert.equal(r.nonFinite, 0);
		assert.ok(r.lowest < r.surface, `it fell into the water: ${all}`);
		assert.ok(r.y > FLOOR[2] + 1.5 && r.y < 2, `between the floor and where it started: ${all}`);
		// floating: part under the surface, part above (half height 1)
		assert.ok(r.y - 1 < r.surface && r.y + 1 > r.surface, `straddles the surface: ${all}`);
		// at rest on the water, the fluid carries its weight
		assert.ok(Math.abs(r.lift - 1) < 0.15, `fluid force / weight ${r.lift}: ${all}`);
	});

	test('a box denser than water sinks to the floor', () => {
		const r = drop(1.5);
		assert.ok(Math.abs(r.y - (FLOOR[2] + 1)) < 0.4, `on the floor (centre ${FLOOR[2] + 1}): ${JSON.stringify(r)}`);
	});

	test('3D: a box half as dense as water floats across the surface', () => {
		const r = drop(0.5, 3);
		const all = JSON.stringify(r);
		assert.equal(r.nonFinite, 0);
		assert.ok(r.y > FLOOR[3] + 1.5 && r.y < 2 && r.y - 1 < r.surface && r.y + 1 > r.surface, `floats: ${all}`);
	});

	test('ids: bodies() lists live ids in slot order, removed ids stay refused, hasBody follows', () => {
		const world = pool();
		const a = world.addBody({ shape: 'circle', position: [-5, 2], radius: 1 });
		const b = world.addBody({ shape: BodyShape.BOX, position: [5, 2], half_extents: [1, 1] });
		assert.deepEqual(world.bodies(), [a, b]);
		assert.equal(world.bodyCount, 2);
		world.removeBody(a);
		assert.equal(world.hasBody(a), false);
		assert.equal(world.body(a), null);
		assert.deepEqual(world.bodies(), [b]);
		// the freed slot is reused with a new generation: a new id, the old one still refused
		const c = world.addBody({ shape: 'circle', position: [-5, 2], radius: 1 });
		assert.notEqual(c, a);
		assert.equal(c % 4096, a % 4096, 'same slot');
		assert.deepEqual(world.bodies(), [c, b]);
		for (const call of [() => world.removeBody(a), () => world.setBody(a, { density: 1 })]) {
			assert.throws(call, (e) => e instanceof PuddleError && e.id === 'PDL_ERR_BODY_ID' &&
				e.message === `body.id must name a live body of this world, got ${a % 4096}`);
		}
		assert.throws(() => world.removeBody(1.5), (e) => e.message === 'body.id must name a live body of this world, got -1');
		assert.deepEqual(world.bodyMass(a), { mass: 0, inertia: { x: 0, y: 0, z: 0 }, particles: 0, spacing: 0 });
		assert.deepEqual(world.bodyForce(a), { force: { x: 0, y: 0, z: 0 }, torque: { x: 0, y: 0, z: 0 } });
		// many bodies: the id list grows past its first buffer
		const row = Array.from({ length: 70 }, (_, k) => world.addBody({ shape: 'circle', position: [-11 + (k % 35) * 0.64, 4 + 0.7 * Math.floor(k / 35)], radius: 0.3 }));
		assert.deepEqual(world.bodies(), [c, b, ...row]);
		world.destroy();
	});

	test('state: body() reads the def and its current state back, setBody() changes it, mass follows density and shape', () => {
		const world = pool();
		const id = world.addBody({ shape: 'polygon', position: [0, 3], vertices: [[-1, -1], [1, -1], [0, 1]], angle: 0.25,
			friction: 0.3, restitution: 0.2, gravity_scale: 0, color: '#ff8000', density: 0.8 });
		const b = world.body(id);
		assert.equal(b.id, id);
		assert.equal(b.shape, BodyShape.POLYGON);
		assert.equal(b.type, BodyType.DYNAMIC);
		assert.equal(b.vertex_count, 3);
		assert.equal(b.vertices.length, 3);
		assert.equal(b.corners.length, 3, 'world-space corners for drawing');
		assert.equal(b.color, 0xff8000);
		assert.equal(Math.fround(0.25), b.angle);
		// a polygon's position is its centroid: (0, -1/3) of the vertices' frame, turned by the angle
		assert.ok(Math.abs(b.position.y - (3 - Math.cos(0.25) / 3)) < 1e-5, `centroid ${JSON.stringify(b.position)}`);
		const cx = b.corners.reduce((s, p) => s + p.x, 0) / 3, cy = b.corners.reduce((s, p) => s + p.y, 0) / 3;
		assert.ok(Math.hypot(cx - b.position.x, cy - b.position.y) < 1e-5, 'corners around the centroid');
		// mass: density relative to the water at rest (material mass over the area of one particle)
		const m = world.bodyMass(id), sp = m.spacing;
		const water = puddle.defaultMaterialDef().mass / ((sp * sp * Math.sqrt(3)) / 2);
		assert.ok(Math.abs(m.mass - 0.8 * water * 2) < 1e-4 * m.mass, `mass ${m.mass}, expected ${0.8 * water * 2}`);
		assert.ok(m.particles > 10 && m.inertia.z > 0);

		// no gravity on it: it moves as set, and turns as set
		world.setBody(id, { linear_velocity: [2, 0], angular_velocity: [0, 0, 1] });
		world.step(30);
		const moved = world.body(id);
		assert.ok(Math.abs(moved.position.x - b.position.x - 1) < 0.05, `x ${moved.position.x}`);
		assert.ok(Math.abs(moved.angle - b.angle - 0.5) < 0.05, `angle ${moved.angle}`);
		world.setBody(id, { position: [4, 4], angle: 0, linear_velocity: [0, 0], angular_velocity: [0, 0, 0], density: 1.6 });
		const set = world.body(id);
		assert.deepEqual([set.position.x, set.position.y, set.angle], [4, 4, 0]);
		assert.ok(Math.abs(world.bodyMass(id).mass - 2 * m.mass) < 1e-4 * m.mass);
		world.destroy();
	});

	test('a kinematic body goes where it is driven, pushes the water and feels its force', () => {
		const world = pool();
		const id = world.addBody({ type: 'kinematic', shape: 'box', position: [-8, -5], half_extents: [0.5, 2] });
		for (let f = 0; f < 60; ++f) {
			const x = -8 + (8 * f) / 60;
			world.setBody(id, { position: [x, -5], linear_velocity: [8, 0] });
			world.step();
		}
		const b = world.body(id);
		assert.equal(b.type, BodyType.KINEMATIC);
		assert.ok(Math.abs(b.position.x - (-8 + (8 * 60) / 60)) < 1e-4 && Math.abs(b.position.y + 5) < 1e-6, `driven: ${JSON.stringify(b.position)}`);
		assert.ok(world.bodyForce(id).force.x < 0, `the water pushes back against the motion: ${JSON.stringify(world.bodyForce(id))}`);
		world.destroy();
	});

	test('3D: orientation is a quaternion, normalised; spheres; the hash covers bodies', () => {
		const a = pool(3), b = pool(3);
		const ids = [a, b].map((w) => w.addBody({ shape: 'box', position: [0, 2, 0], half_extents: [1, 0.5, 1], orientation: [0, 0, 2, 2] }));
		const box = a.body(ids[0]);
		assert.deepEqual(box.corners, [], 'no 2D corners in 3D');
		for (const [k, v] of Object.entries({ x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 })) assert.ok(Math.abs(box.orientation[k] - v) < 1e-6, `orientation ${JSON.stringify(box.orientation)}`);
		assert.equal(a.hash(), b.hash());
		const ball = a.addBody({ shape: 'sphere', position: [3, 2, 0], radius: 1, density: 0.5 });
		assert.equal(a.body(ball).shape, BodyShape.CIRCLE);
		assert.notEqual(a.hash(), b.hash(), 'a body more changes the hash');
		a.removeBody(ball);
		a.step(30);
		b.step(30);
		assert.equal(a.hash(), b.hash(), 'same bodies, same steps: same bits');
		b.setBody(ids[1], { angular_velocity: [0, 1, 0] });
		assert.notEqual(a.hash(), b.hash(), 'a body velocity changes the hash');
		a.destroy();
		b.destroy();
	});

	test('bad input: the core refuses it with its exact message, and nothing is added', () => {
		const world = pool();
		const refused = (def, id, message) => assert.throws(() => world.addBody(def), (e) => e instanceof PuddleError && e.id === id && e.message === message);
		refused({ density: 0 }, 'PDL_ERR_BODY_DENSITY', 'body.density must be finite and in (0, 1000], got 0');
		refused({ shape: 'circle', radius: 0.1 }, 'PDL_ERR_BODY_RADIUS', 'body.radius must be finite and >= 0.5 * particle spacing, got 0.100000001');
		refused({ half_extents: [1, Infinity] }, 'PDL_ERR_BODY_HALF_EXTENTS', 'body.half_extents must be finite and >= 0.5 * particle spacing, got inf');
		refused({ shape: 'polygon', vertices: [[0, 0], [0, 1], [1, 0]] }, 'PDL_ERR_BODY_VERTICES',
			'body.vertices must be finite, convex, counter-clockwise, at least a particle spacing across, the turn at a vertex is clockwise or straight (not convex)');
		refused({ position: [30, 0] }, 'PDL_ERR_BODY_OUTSIDE', 'body.position must put the whole body inside the container, it reaches out of a container');
		refused({ friction: 2 }, 'PDL_ERR_BODY_FRICTION', 'body.friction must be in [0, 1], got 2');
		refused({ type: 7 }, 'PDL_ERR_BODY_TYPE', 'body.type must be PDL_BODY_DYNAMIC or PDL_BODY_KINEMATIC, got 7');
		assert.throws(() => world.addBody({ shape: 'cube' }), (e) => e instanceof TypeError &&
			e.message === 'body_def.shape must be one of "box", "circle", "sphere", "polygon" or a number, got "cube"');
		assert.throws(() => world.addBody({ mass: 3 }), (e) => e instanceof TypeError && e.message === 'body_def has no field "mass"');
		const three = pool(3);
		assert.throws(() => three.addBody({ shape: 'polygon', vertices: [[0, 0], [1, 0], [0, 1]] }), (e) => e.id === 'PDL_ERR_BODY_SHAPE_3D');
		assert.throws(() => three.addBody({ orientation: [0, 0, 0, 0] }), (e) => e.id === 'PDL_ERR_BODY_ORIENTATION' &&
			e.message === 'body.orientation must be finite and not zero, got 0');
		const empty = puddle.createWorld({});
		assert.throws(() => empty.addBody({}), (e) => e.id === 'PDL_ERR_BODY_NO_MATERIAL' &&
			e.message === 'body.density is relative to material 0: add a material first');
		assert.equal(world.bodyCount, 0);
		for (const w of [world, three, empty]) w.destroy();
	});
});
