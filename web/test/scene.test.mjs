// Scene files in JavaScript: every shipped scene resolves, builds and runs; the rules of
// docs/scenes.md are enforced with the file's JSON path; mix, emitters and strokes behave as
// io/src/scene_world.c does.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { loadPuddle } from '../src/puddle.js';
import { applyFrame, buildWorld, estimateParticles, resolveScene, scaleToParticles, SCENE_KEYS, SceneError, strokeAt } from '../src/scene.js';

const scenesDir = new URL('../../scenes/', import.meta.url);
const load = (file) => JSON.parse(readFileSync(new URL(file, scenesDir), 'utf8'));
const all = readdirSync(scenesDir).filter((f) => f.endsWith('.json')).sort();
// SPH scenes run natively only (src/scene.js): the web build refuses them, tested below
const sph = all.filter((f) => load(f).solver?.kind === 'sph');
const shipped = all.filter((f) => !sph.includes(f));

let puddle;
before(async () => {
	puddle = await loadPuddle();
});

describe('shipped scenes', () => {
	test('there are scenes to test', () => assert.ok(shipped.length > 0));
	for (const file of sph) {
		test(`${file} (SPH) is refused with a clear message`, () => {
			assert.throws(() => resolveScene(puddle, load(file), `scenes/${file}`), (e) => e instanceof SceneError &&
				e.message === `scenes/${file}: solver.kind: the web build runs the Clavet solver only: run SPH scenes with the puddle command, got "sph"`);
		});
	}
	for (const file of shipped) {
		test(`${file} resolves, builds and runs 30 frames`, () => {
			const scene = resolveScene(puddle, load(file), `scenes/${file}`);
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

describe('scene format', () => {
	// docs/scenes.md has one table per object, each row starting with the key in backticks
	const docs = readFileSync(new URL('../../docs/scenes.md', import.meta.url), 'utf8');
	const documented = {};
	let section = null;
	for (const line of docs.split('\n')) {
		const heading = line.match(/^## (?:`(\w+)(?:\[i\])?`|(Top level))/);
		if (heading) section = heading[1] ?? 'top';
		else if (line.startsWith('## ')) section = null;
		const row = line.match(/^\| `(\w+)`(?:, `(\w+)`)?/);
		if (section && row) documented[section] = [...(documented[section] ?? []), row[1], ...(row[2] ? [row[2]] : [])];
	}
	const sections = { top: 'top', world: 'world', solver: 'solver', materials: 'materials', container: 'container',
		obstacles: 'obstacles', fills: 'fills', emitters: 'emitters', strokes: 'strokes', output: 'output' };
	for (const [section, known] of Object.entries(sections)) {
		test(`the loader knows exactly the keys docs/scenes.md lists for ${section}`, () => {
			const expected = (documented[section] ?? []).filter((k) => !(section === 'world' && (k === 'min' || k === 'max')));
			assert.deepEqual([...SCENE_KEYS[known]].sort(), [...expected].sort());
		});
	}
});

describe('scene rules', () => {
	const minimal = { materials: [{ name: 'water' }], container: { shape: 'box', half_extents: [10, 6] } };
	const fails = (json, path) => assert.throws(() => resolveScene(puddle, json, 'x.json'), (e) => e instanceof SceneError && e.path === path);

	test('defaults are filled in as docs/scenes.md lists them', () => {
		const s = resolveScene(puddle, minimal, 'scenes/minimal.json');
		assert.equal(s.name, 'minimal');
		assert.equal(s.world.max_particles, 1000000);
		assert.equal(s.materials[0].def.rest_density, 4);
		assert.equal(s.container.friction, 1);
		assert.deepEqual(s.bounds.min, { x: -10.4, y: -6.24 });
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

	test('values the core refuses name the scene path', () => {
		const json = { ...minimal, materials: [{ name: 'w', rest_density: -3 }] };
		const scene = resolveScene(puddle, json, 'x.json');
		assert.throws(() => buildWorld(puddle, scene), (e) => e instanceof SceneError && e.path === 'materials[0]' && /rest_density/.test(e.rule));
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

	test('a stroke moves at constant speed along its points', () => {
		const st = { start: 1, end: 3, points: [{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 4 }] };
		assert.deepEqual(strokeAt(st, 1).position, { x: 0, y: 0 });
		assert.deepEqual(strokeAt(st, 2).position, { x: 4, y: 0 });
		const late = strokeAt(st, 2.5);
		assert.deepEqual(late.position, { x: 4, y: 2 });
		assert.deepEqual(late.velocity, { x: 0, y: 4 });
	});

	test('scaling to a particle count lands near it', () => {
		const scene = resolveScene(puddle, load(shipped.includes('dam-break.json') ? 'dam-break.json' : shipped[0]));
		const n = estimateParticles(puddle, scaleToParticles(puddle, scene, 12000));
		assert.ok(Math.abs(n - 12000) < 0.03 * 12000, `${n}`);
	});
});
