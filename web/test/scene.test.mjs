// Scene files through the C scene layer in the wasm module (src/scene.js wraps it): every shipped
// scene resolves, builds and runs; broken scenes get the command line's messages (field paths,
// rules, "did you mean"); extreme numbers are refused by the same rules, at once; mix, bodies,
// emitters and rescaling behave as docs/scenes.md says.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { BoundaryKind, FillShape, loadPuddle, Solver } from '../src/puddle.js';
import { applyFrame, buildWorld, estimateParticles, loadScene, resolveScene, scaleScene, scaleToParticles, SceneError } from '../src/scene.js';

const scenesDir = new URL('../../scenes/', import.meta.url);
const text = (file) => readFileSync(new URL(file, scenesDir), 'utf8');
const load = (file) => JSON.parse(text(file));
const all = readdirSync(scenesDir).filter((f) => f.endsWith('.json')).sort();
// every solver runs here: Clavet, SPH and DFSPH scenes alike
const shipped = all;
const sph = all.filter((f) => ['sph', 'dfsph'].includes(load(f).solver?.kind));

let puddle;
before(async () => {
	puddle = await loadPuddle();
});

describe('shipped scenes', () => {
	test('there are scenes to test', () => assert.ok(shipped.length > 0));
	for (const file of sph) {
		const { kind, ...settings } = load(file).solver;
		test(`${file} builds a ${kind.toUpperCase()} world with the scene's solver settings`, () => {
			const world = buildWorld(puddle, resolveScene(puddle, text(file), `scenes/${file}`));
			assert.equal(world.def.solver, kind === 'sph' ? Solver.SPH : Solver.DFSPH);
			for (const [key, value] of Object.entries(settings)) {
				if (key in world.def.sph && typeof value === 'number') assert.equal(world.def.sph[key], Math.fround(value), key);
			}
			world.destroy();
		});
	}
	for (const file of shipped) {
		test(`${file} resolves, builds and runs 30 frames`, () => {
			const scene = resolveScene(puddle, text(file), `scenes/${file}`);
			const world = buildWorld(puddle, scene);
			assert.equal(world.materialCount, scene.materials.length);
			let added = 0;
			for (let f = 0; f < 30; ++f) {
				added += applyFrame(puddle, scene, world, f);
				world.step();
			}
			const s = world.stats();
			assert.ok(s.particles > 0, 'has particles');
			assert.equal(s.non_finite, 0);
			assert.ok(Math.abs(estimateParticles(puddle, scene) - (s.particles - added)) <= 0.02 * s.particles + scene.emitters.length * 1e9,
				'the estimate matches what the fills made');
			world.destroy();
		});
	}
});

describe('scene rules', () => {
	const minimal = { materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [10, 6] } };
	const fails = (json, path) => assert.throws(() => resolveScene(puddle, json, 'x.json'), (e) => e instanceof SceneError && e.path === path);

	test('solver.backend: "cpu" runs here, "cuda" is refused with the reason', () => {
		assert.equal(resolveScene(puddle, { ...minimal, solver: { backend: 'cpu' } }, 'x.json').materials.length, 1);
		assert.throws(() => resolveScene(puddle, { ...minimal, solver: { backend: 'cuda' } }, 'x.json'),
			(e) => e instanceof SceneError && e.path === 'solver.backend' && /the web build steps on the processor/.test(e.message));
		fails({ ...minimal, solver: { backend: 'gpu' } }, 'solver.backend');
	});

	test('defaults are filled in as docs/scenes.md lists them', () => {
		const s = resolveScene(puddle, minimal, 'scenes/minimal.json');
		assert.equal(s.name, 'minimal');
		assert.equal(s.world.max_particles, 1000000);
		assert.equal(s.materials[0].def.rest_density, 4);
		assert.equal(s.container.friction, 1);
		assert.deepEqual(s.bounds.min, { x: Math.fround(-10.4), y: Math.fround(-6.24), z: 0 });
		assert.equal(s.output.threshold, 0.5);
		assert.equal(s.output.blob_radius, 1);
	});

	test('unknown keys, shape-only keys, missing keys and unknown materials are refused with their path', () => {
		fails({ ...minimal, colour: 1 }, 'colour');
		fails({ ...minimal, solver: { gamma: 7 } }, 'solver.gamma'); /* an SPH key in a Clavet scene, as natively */
		fails({ materials: [{ name: 'w', rest_densty: 3 }] }, 'materials[0].rest_densty');
		fails({ ...minimal, container: { shape: 'circle', half_extents: [1, 1] } }, 'container.half_extents');
		fails({ ...minimal, container: { shape: 'circle' } }, 'container.radius');
		fails({ ...minimal, fills: [{ shape: 'box', material: 'oil', half_extents: [1, 1] }] }, 'fills[0].material');
		fails({ ...minimal, fills: [{ shape: 'blob' }] }, 'fills[0].shape');
		fails({ materials: [{ name: 'w' }] }, 'world.bounds');
		fails({ ...minimal, world: { gravity: [0] } }, 'world.gravity');
		fails({ ...minimal, fills: [{ shape: 'disc', radius: 2, mix: [] }] }, 'fills[0].mix');
		fails({ ...minimal, fills: [{ shape: 'disc', radius: 2, mix: ['water', 'oil'] }] }, 'fills[0].mix[1]');
		fails({ ...minimal, world: { substeps: 1.5 } }, 'world.substeps');
	});

	test('value ranges are checked when the scene is read, with the field and the value', () => {
		assert.throws(() => resolveScene(puddle, { ...minimal, materials: [{ name: 'w', rest_density: -3 }] }, 'x.json'),
			(e) => e instanceof SceneError && e.path === 'materials[0].rest_density' && e.rule === 'must be > 0, got -3');
	});

	test('a scene is a view of the C scene: a resolved scene builds, an object from elsewhere is refused', () => {
		assert.throws(() => buildWorld(puddle, { ...resolveScene(puddle, minimal) }), /not a scene from resolveScene/);
	});

	test('bodies come before the fills, which leave their space; a 2D box keeps the default depth, as io/ does', () => {
		const pool = { ...minimal, fills: [{ shape: 'box', material: 'water', position: [0, -3], half_extents: [9, 2.9] }] };
		const water = buildWorld(puddle, resolveScene(puddle, pool));
		const json = { ...pool, bodies: [{ shape: 'box', position: [-4, -3], half_extents: [1.5, 1.5], density: 0.5, count: 2, step: [8, 0] }] };
		const world = buildWorld(puddle, resolveScene(puddle, json));
		assert.equal(world.bodyCount, 2);
		const box = world.body(world.bodies()[1]);
		assert.deepEqual([box.position.x, box.position.y, box.half_extents.z], [4, -3, 1]);
		// no particle inside a box or within half a spacing of it: two 3 x 3 holes and a rim
		const p = world.particles();
		for (let i = 0; i < p.count; ++i)
			for (const cx of [-4, 4]) assert.ok(Math.max(Math.abs(p.x[i] - cx), Math.abs(p.y[i] + 3)) > 1.5, `particle ${i} at ${p.x[i]}, ${p.y[i]}`);
		assert.ok(water.particleCount - world.particleCount > 120, `${water.particleCount} without, ${world.particleCount} with`);
		water.destroy();
		world.destroy();
	});

	test('a mixed fill deals materials round-robin', () => {
		const json = {
			...minimal, materials: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
			fills: [{ shape: 'sunflower', material: 'a', mix: ['a', 'b', 'c'], radius: 4, count: 300 }],
		};
		const world = buildWorld(puddle, resolveScene(puddle, json));
		const counts = [0, 0, 0];
		for (const m of world.particles().material) ++counts[m];
		assert.deepEqual(counts, [100, 100, 100]);
		world.destroy();
	});

	test('an emitter adds rows while it runs, and only then', () => {
		const json = { ...minimal, emitters: [{ position: [0, 4], velocity: [0, -5], width: 2, start: 0.1, stop: 0.5 }] };
		const scene = resolveScene(puddle, json);
		const world = buildWorld(puddle, scene);
		let added = 0;
		for (let f = 0; f < 60; ++f) {
			const n = applyFrame(puddle, scene, world, f);
			// frame f adds the rows launched in [f dt, (f + 1) dt)
			if ((f + 1) * scene.world.dt <= 0.1 || f * scene.world.dt >= 0.5) assert.equal(n, 0, `frame ${f}`);
			added += n;
			world.step();
		}
		assert.equal(world.particleCount, added);
		assert.equal(added, estimateParticles(puddle, scene));
		world.destroy();
	});

	test('scaling to a particle count lands near it', () => {
		const scene = resolveScene(puddle, load(shipped.includes('dam-break.json') ? 'dam-break.json' : shipped[0]));
		const n = estimateParticles(puddle, scaleToParticles(puddle, scene, 12000));
		assert.ok(Math.abs(n - 12000) < 0.03 * 12000, `${n}`);
		// and a scaled copy leaves the scene it came from as it was
		assert.equal(estimateParticles(puddle, scene), estimateParticles(puddle, resolveScene(puddle, load('dam-break.json'))));
		const half = scaleScene(scene, 0.5);
		assert.equal(half.container.half_extents.x, scene.container.half_extents.x / 2);
	});

	test('loadScene reads a shipped scene by name and a file by path', async () => {
		const byName = await loadScene(puddle, 'dam-break');
		assert.equal(byName.name, 'dam-break');
		const byPath = await loadScene(puddle, new URL('dam-break.json', scenesDir).pathname);
		assert.deepEqual(byPath.materials, byName.materials);
		assert.equal((await loadScene(puddle, 'dfsph-dam-break')).world.solver, Solver.DFSPH);
	});
});

describe("the command line's messages", () => {
	const minimal = { materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [10, 6] } };
	const refuses = (json, message) => assert.throws(() => resolveScene(puddle, json, 'x.json'),
		(e) => e instanceof SceneError && e.message === message, message);

	test('misspelt keys and names get "did you mean"', () => {
		refuses({ ...minimal, materials: [{ name: 'water', stifness: 3 }] },
			'x.json: materials[0].stifness: unknown key (did you mean "stiffness"?)');
		refuses({ ...minimal, contaner: {} }, 'x.json: contaner: unknown key (did you mean "container"?)');
		refuses({ ...minimal, fills: [{ shape: 'box', material: 'watr', half_extents: [1, 1] }] },
			'x.json: fills[0].material: no material named "watr" (did you mean "water"?)');
		refuses({ ...minimal, solver: { backend: 'gpu' } }, 'x.json: solver.backend: must be one of "cpu", "cuda", got "gpu" (did you mean "cpu"?)');
	});

	test('the text as written: a key given twice, a syntax error with its line and column', () => {
		refuses('{"materials": [{"name": "water"}], "materials": []}', 'x.json: key "materials" appears twice');
		assert.throws(() => resolveScene(puddle, '{"materials": [{"name": "water"},\n  {"name": "oil" "rest_density": 2}]}', 'x.json'),
			(e) => e instanceof SceneError && e.path === '' && e.line === 2 && e.column === 18 &&
				e.message === 'x.json:2:18: invalid JSON: missing comma before "rest_density" at line 2, column 18');
	});

	test('values out of range give the rule and the value', () => {
		refuses({ ...minimal, world: { substeps: 1.5 } }, 'x.json: world.substeps: must be an integer in [1, 64], got 1.5');
		refuses({ ...minimal, fills: [{ shape: 'disc', radius: -2 }] }, 'x.json: fills[0].radius: must be > 0, got -2');
	});
});

describe('extreme numbers are refused by the C rules, at once', () => {
	const minimal = { materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [10, 6] } };
	const box3d = { world: { dimensions: 3 }, materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [10, 6, 6] } };
	// (the JavaScript loader before took 20 s in applyFrame to refuse the 2D emitter)
	const quickly = (json, path, rule) => {
		const t0 = performance.now();
		assert.throws(() => resolveScene(puddle, json, 'x.json'), (e) => e instanceof SceneError && e.path === path && rule.test(e.rule), path);
		const ms = performance.now() - t0;
		assert.ok(ms < 1000, `${path}: refused in ${ms.toFixed(0)} ms`);
	};

	test('an emitter 1e9 wide (2D) or 25000 wide (3D) is refused when read, naming its width', () => {
		quickly({ ...minimal, emitters: [{ position: [0, 0], velocity: [0, -1], width: 1e9, stop: 5 }] }, 'emitters[0].width',
			/^makes rows of about 2\.84e\+09 particles, more than solver\.max_particles = 1000000, got 1e\+09$/);
		quickly({ ...box3d, emitters: [{ position: [0, 0, 0], velocity: [0, -1, 0], width: 25000, stop: 5 }] }, 'emitters[0].width',
			/^makes rows of about .* particles, more than solver\.max_particles = 1000000, got 25000$/);
	});

	test('values below float range (1e-300) are refused, not stored as 0', () => {
		const tiny = /^must be .*at least 1\.17549e-38 \(the smallest normal float\), got 1e-300$/;
		quickly({ ...minimal, output: { seconds: 1e-300 } }, 'output.seconds', tiny);
		quickly({ ...minimal, output: { threshold: 1e-300 } }, 'output.threshold', tiny);
		quickly({ ...minimal, strokes: [{ end: 1, points: [[0, 0]], radius: 1e-300 }] }, 'strokes[0].radius', tiny);
	});

	test('a frame whose emitter rows would overflow max_particles is refused at once, naming the emitter', () => {
		// a scene scaled after it was read is not checked again: applyFrame counts before it adds
		const scene = resolveScene(puddle, { ...minimal, emitters: [{ position: [0, 0], velocity: [0, -1], width: 2, stop: 5 }] }, 'x.json');
		const huge = scaleScene(scene, 1e8);
		const world = buildWorld(puddle, huge);
		const t0 = performance.now();
		assert.throws(() => applyFrame(puddle, huge, world, 0), (e) => e instanceof SceneError && e.message ===
			'x.json: emitters[0]: frame 0 would add about 5.67e+08 particles, more than the 1000000 solver.max_particles has room for');
		assert.ok(performance.now() - t0 < 1000);
		assert.equal(world.particleCount, 0, 'nothing was added');
		world.destroy();
	});

	test('a fill of 1e300 or of 4e13 particles is refused when read', () => {
		quickly({ ...minimal, fills: [{ shape: 'box', half_extents: [1e300, 1] }] }, 'fills[0].half_extents[0]', /^must be finite, got 1e\+300$/);
		quickly({ materials: [{ name: 'w' }], container: { shape: 'box', half_extents: [1e6, 1e6] }, fills: [{ shape: 'box', half_extents: [1e6, 1e6] }] },
			'fills[0]', /^would make about 3\.72e\+13 particles in all, more than solver\.max_particles = 1000000$/);
	});
});

describe('3D scenes', () => {
	const fixture = JSON.parse(readFileSync(new URL('fixtures/scene-3d.json', import.meta.url), 'utf8'));
	const base = { world: { dimensions: 3 }, materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [6, 4, 3] } };
	const refuses = (json, message) => assert.throws(() => resolveScene(puddle, json, 'x.json'),
		(e) => e instanceof SceneError && e.message === message, message);

	test('the 3D fixture resolves with 3D vectors, 3D bounds and the camera over the framing', () => {
		const s = resolveScene(puddle, fixture, 'test/fixtures/scene-3d.json');
		assert.equal(s.dimensions, 3);
		assert.equal(s.world.dimensions, 3);
		assert.deepEqual(s.world.gravity, { x: 0, y: -10, z: 0 });
		assert.deepEqual(s.fills[0].half_extents, { x: 2.5, y: 3.5, z: 4 });
		assert.equal(s.fills[1].shape, FillShape.DISC, '"ball" is the 3D disc');
		assert.equal(s.obstacles[0].kind, BoundaryKind.CIRCLE, '"sphere" is the 3D circle');
		assert.deepEqual(s.strokes[0].points[1], { x: 0, y: -3, z: 2 });
		// bounds: the container grown by 2% of its size on each side, z included
		assert.deepEqual(s.bounds.min, { x: Math.fround(-8.32), y: Math.fround(-5.2), z: Math.fround(-4.16) });
		// camera: yaw and pitch from the file, the rest from pdl_camera_framing(bounds)
		assert.equal(s.camera.yaw, 20);
		assert.equal(s.camera.pitch, 30);
		assert.equal(s.camera.fov, 45);
		assert.deepEqual(s.camera.target, { x: 0, y: 0, z: 0 });
		const r = Math.hypot(16.64, 10.4, 8.32) / 2;
		assert.ok(Math.abs(s.camera.distance - r / Math.sin((22.5 * Math.PI) / 180)) < 1e-4);
	});

	test('the 3D fixture builds a 3D world whose count is the estimate, and runs', () => {
		const scene = resolveScene(puddle, fixture);
		const world = buildWorld(puddle, scene);
		assert.equal(world.dimensions, 3);
		assert.equal(world.particleCount, estimateParticles(puddle, scene), 'the FCC count is exact');
		for (let f = 0; f < 30; ++f) {
			applyFrame(puddle, scene, world, f);
			world.step();
		}
		const p = world.particles();
		assert.ok(p.z.some((z) => z > 1) && p.z.some((z) => z < -1));
		assert.equal(world.stats().non_finite, 0);
		world.destroy();
	});

	test('synonyms: circle and sphere, disc and ball, in either dimension', () => {
		const s3 = resolveScene(puddle, { ...base, container: { shape: 'circle', radius: 5 },
			obstacles: [{ shape: 'circle', radius: 1 }], fills: [{ shape: 'disc', radius: 2 }] });
		assert.equal(s3.container.kind, BoundaryKind.CIRCLE_CONTAINER);
		assert.equal(s3.obstacles[0].kind, BoundaryKind.CIRCLE);
		assert.equal(s3.fills[0].shape, FillShape.DISC);
		const s2 = resolveScene(puddle, { materials: [{ name: 'water' }], container: { shape: 'sphere', radius: 5 },
			obstacles: [{ shape: 'sphere', radius: 1 }], fills: [{ shape: 'ball', radius: 2 }] });
		assert.equal(s2.dimensions, 2);
		assert.equal(s2.container.kind, BoundaryKind.CIRCLE_CONTAINER);
		assert.equal(s2.fills[0].shape, FillShape.DISC);
		assert.equal(s2.camera, null, '2D scenes have no camera');
		assert.throws(() => resolveScene(puddle, { ...base, container: { shape: 'sphere', radius: 5, half_extents: [1, 1, 1] } }, 'x.json'),
			(e) => e.message === 'x.json: container.half_extents: is not used by shape "sphere"');
	});

	test('bad 3D scenes are refused with the exact message', () => {
		refuses({ ...base, world: { dimensions: 4 } }, 'x.json: world.dimensions: must be an integer in [2, 3], got 4');
		refuses({ ...base, world: { dimensions: 3, gravity: [0, -10] } },
			'x.json: world.gravity: must be [x, y, z] (3 numbers) in a 3D scene');
		refuses({ ...base, fills: [{ shape: 'box', position: [0, 0], half_extents: [1, 1, 1] }] },
			'x.json: fills[0].position: must be [x, y, z] (3 numbers) in a 3D scene');
		refuses({ ...base, container: { shape: 'box', half_extents: [6, 4, 3, 1] } },
			'x.json: container.half_extents: must be [x, y, z] (3 numbers) in a 3D scene');
		refuses({ ...base, strokes: [{ end: 1, points: [[0, 0, 0], [1, 1]] }] },
			'x.json: strokes[0].points[1]: must be [x, y, z] (3 numbers) in a 3D scene');
		refuses({ ...base, obstacles: [{ shape: 'box', half_extents: [1, 1, 1] }, { shape: 'sphere', radius: 1 },
			{ shape: 'polygon', vertices: [[0, 0], [1, 0], [0, 1]] }] }, 'x.json: obstacles[2].shape: "polygon" is 2D only');
		refuses({ ...base, fills: [{ shape: 'sunflower', radius: 2 }] }, 'x.json: fills[0].shape: "sunflower" is 2D only');
		refuses({ ...base, container: { shape: 'cylinder' } }, 'x.json: container.shape: must be one of "sphere", "box", got "cylinder"');
		refuses({ ...base, fills: [{ shape: 'blob' }] }, 'x.json: fills[0].shape: must be one of "point", "line", "ball", "box", got "blob" (did you mean "box"?)');
		refuses({ materials: [{ name: 'water' }], container: { shape: 'cylinder' } }, 'x.json: container.shape: must be one of "circle", "box", got "cylinder"');
		refuses({ ...base, container: { shape: 'circle', radius: 5, half_extents: [1, 1, 1] } },
			'x.json: container.half_extents: is not used by shape "sphere"');
		refuses({ ...base, fills: [{ shape: 'disc' }] }, 'x.json: fills[0].radius: is required for shape "ball"');
		refuses({ world: { dimensions: 3 }, materials: [{ name: 'water' }] }, 'x.json: world.bounds: is required when there is no container');
		refuses({ ...base, camera: { pitch: 90 } }, 'x.json: camera.pitch: must be in [-89, 89], got 90');
		refuses({ ...base, camera: { fov: 2 } }, 'x.json: camera.fov: must be in [5, 120], got 2');
		refuses({ ...base, camera: { distance: 0 } }, 'x.json: camera.distance: must be > 0, got 0');
		refuses({ ...base, camera: { yaw: '30' } }, 'x.json: camera.yaw: must be a number, got a string');
		refuses({ ...base, camera: { target: [0, 0] } }, 'x.json: camera.target: must be [x, y, z] (3 numbers) in a 3D scene');
		refuses({ ...base, camera: { zoom: 2 } }, 'x.json: camera.zoom: unknown key');
		refuses({ materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [6, 4] }, camera: {} },
			'x.json: camera: is used by 3D scenes only (world.dimensions 3)');
		// a 2D scene keeps its 2-number vectors
		refuses({ materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [6, 4, 3] } },
			'x.json: container.half_extents: must be an array [x, y] of two numbers, got an array');
	});

	test('given 3D bounds frame the camera; a 3D emitter launches square rows as estimated', () => {
		const s = resolveScene(puddle, { world: { dimensions: 3, bounds: { min: [-4, -4, -4], max: [4, 4, 4] } }, materials: [{ name: 'water' }],
			emitters: [{ position: [0, 2, 0], velocity: [0, -4, 1], width: 1.2, stop: 0.4 }] });
		assert.deepEqual(s.camera.target, { x: 0, y: 0, z: 0 });
		const world = buildWorld(puddle, s);
		let added = 0;
		for (let f = 0; f < 30; ++f) {
			added += applyFrame(puddle, s, world, f);
			world.step();
		}
		assert.equal(added, estimateParticles(puddle, s));
		assert.equal(world.particleCount, added);
		const p = world.particles();
		assert.ok(Math.max(...p.z) - Math.min(...p.z) > 0.8, 'rows are squares across the jet');
		world.destroy();
	});

	test('a mixed 3D fill deals materials round-robin and keeps z', () => {
		const json = { ...base, materials: [{ name: 'a' }, { name: 'b' }], fills: [{ shape: 'box', mix: ['a', 'b'], half_extents: [2, 2, 2] }] };
		const world = buildWorld(puddle, resolveScene(puddle, json));
		const p = world.particles();
		const counts = [0, 0];
		for (const m of p.material) ++counts[m];
		assert.ok(Math.abs(counts[0] - counts[1]) <= 1, `${counts}`);
		assert.ok(p.z.some((z) => z > 1));
		world.destroy();
	});

	test('scaling a 3D scene to a particle count lands near it (lengths by the cube root)', () => {
		const scene = resolveScene(puddle, fixture);
		const n = estimateParticles(puddle, scaleToParticles(puddle, scene, 6000));
		assert.ok(Math.abs(n - 6000) < 0.05 * 6000, `${n}`);
	});
});
