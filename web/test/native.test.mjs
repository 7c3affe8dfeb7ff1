// The browser runs the same fluid as the native tools, bit for bit: every shipped scene, built by
// the C scene layer compiled into the WebAssembly module, hashes the same after 60 frames as the
// same scene layer and core compiled natively (DESIGN.md: a scene hashes the same across
// compilers and flags), and broken scenes get the same messages from both. The native side is
// compiled here from ../src and ../io/src, so both sides are always the same sources; without a
// C compiler or cJSON/libpng the test is skipped.
// A 3D world built with the core API alone (native/world3d_hash.c, no io/ needed) is compared
// the same way, and so are the 3D scene fixtures of test/fixtures/ where the C loader reads 3D,
// and pools with rigid bodies, 2D and 3D (native/bodies_hash.c: dynamic boxes, circles,
// spheres, a polygon and a kinematic body driven every frame). Shipped scenes with "bodies"
// (scenes/float.json, ...) are among the shipped scenes.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BoundaryKind, FillShape, loadPuddle } from '../src/puddle.js';
import { applyFrame, buildWorld, resolveScene } from '../src/scene.js';

const FRAMES = 60;
const repo = fileURLToPath(new URL('../../', import.meta.url));
// every shipped scene, whichever solver it runs (Clavet, SPH, DFSPH)
const scenes = readdirSync(join(repo, 'scenes')).filter((f) => f.endsWith('.json')).sort();
const scratch = mkdtempSync(join(tmpdir(), 'puddle-native-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const c = (dir) => readdirSync(join(repo, dir)).filter((f) => f.endsWith('.c')).map((f) => join(repo, dir, f));

// the flags that matter for the bits, as in the top CMakeLists.txt
const CC = process.env.CC ?? 'cc';
const FLAGS = ['-O2', '-std=c11', '-D_POSIX_C_SOURCE=200809L', '-ffp-contract=off', '-fno-fast-math',
	'-I', join(repo, 'include'), '-I', join(repo, 'io/include')];

/** Compiles `sources` once into objects in `dir`, in two compilers at once; returns the objects. */
async function compileObjects(dir, sources) {
	mkdirSync(dir);
	const halves = [sources.filter((_, i) => i % 2 === 0), sources.filter((_, i) => i % 2 === 1)].filter((h) => h.length);
	await Promise.all(halves.map((h) => promisify(execFile)(CC, [...FLAGS, '-c', ...h], { cwd: dir })));
	return sources.map((f) => join(dir, basename(f).replace(/\.c$/, '.o')));
}

/** Links native/MAIN with the objects; returns the program's path. */
function linkNative(main, objects, libs) {
	const exe = join(scratch, main.replace(/\.c$/, ''));
	execFileSync(CC, [...FLAGS, fileURLToPath(new URL(`native/${main}`, import.meta.url)), ...objects, ...libs, '-lm', '-lpthread', '-o', exe],
		{ stdio: ['ignore', 'ignore', 'pipe'] });
	return exe;
}

const failure = (e) => `no native build: ${(e.stderr?.toString() || e.message).split('\n')[0]}`;
let exe = null, why = '', exe3d = null, why3d = '', exeBodies = null, whyBodies = '';
let puddle;
before(async () => {
	puddle = await loadPuddle();
	// the core once for the three programs (three builds of it took a minute of the two cores)
	let core;
	try {
		core = await compileObjects(join(scratch, 'core'), c('src'));
	} catch (e) {
		why = why3d = whyBodies = failure(e);
		return;
	}
	try {
		exe = linkNative('scene_hash.c', [...await compileObjects(join(scratch, 'io'), c('io/src')), ...core], ['-lcjson', '-lpng']);
	} catch (e) {
		why = failure(e);
	}
	try {
		exe3d = linkNative('world3d_hash.c', core, []);
	} catch (e) {
		why3d = failure(e);
	}
	try {
		exeBodies = linkNative('bodies_hash.c', core, []);
	} catch (e) {
		whyBodies = failure(e);
	}
});

const FRAMES_3D = 40;

/** The world of native/world3d_hash.c, through src/puddle.js. */
function world3d() {
	const world = puddle.createWorld({ dimensions: 3, threads: 1, substeps: 2 });
	world.addMaterial({ viscosity_sigma: 0.3 });
	world.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [8, 6, 5] });
	world.addBoundary({ kind: BoundaryKind.CIRCLE, position: [2, -4.5, 0], radius: 1.5 });
	world.fill({ shape: FillShape.BOX, position: [-5, -2, 0], half_extents: [3, 4, 5] });
	for (let f = 0; f < FRAMES_3D; ++f) {
		if (f === 10) {
			world.setPointer(0, { position: [0, 2, 20], direction: [-0.2, -0.3, -1], velocity: [3, 0, 0], radius: 3, strength: -80, drag: 2 });
		}
		world.step();
	}
	return world;
}

test(`a 3D world (dimensions 3, FCC box fill, Clavet, a pointer ray) hashes the same in wasm and natively after ${FRAMES_3D} frames`, (t) => {
	if (!exe3d) return t.skip(why3d);
	const native = execFileSync(exe3d, [String(FRAMES_3D)], { encoding: 'utf8' }).trim().split(' ');
	const world = world3d();
	assert.ok(world.particleCount > 1000);
	assert.equal(world.stats().non_finite, 0);
	assert.deepEqual([String(world.particleCount), world.hash()], native);
	world.destroy();
});

const FRAMES_BODIES = 90;

/** The world of native/bodies_hash.c, through src/puddle.js, after `frames` frames. */
function bodiesWorld(dimensions, frames) {
	const three = dimensions === 3;
	const world = puddle.createWorld({ dimensions, threads: 1, substeps: 2 });
	world.addMaterial({ viscosity_sigma: 0.3, viscosity_beta: 0.1 });
	world.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: three ? [6, 6, 4] : [12, 8] });
	world.fill({ shape: FillShape.BOX, position: three ? [0, -4, 0] : [0, -5.5], half_extents: three ? [5.9, 1.95, 3.9] : [11.8, 2.45] });
	world.addBody({ shape: 'box', position: [-2, 1], half_extents: [1.5, 1, 1], angle: 0.3, orientation: [0, 0, 0.3, 1] });
	world.addBody({ shape: 'circle', position: [3, 2], density: 0.8, angular_velocity: [0, 0, 2] });
	if (!three) world.addBody({ shape: 'polygon', position: [7, 1], vertices: [[-1, -1], [1, -1], [0, 1]], density: 0.6 });
	const x0 = three ? -4.5 : -10, speed = 4, dt = world.def.dt;
	const paddle = world.addBody({ type: 'kinematic', position: [x0, -4.5], half_extents: [0.5, 1.5, 1] });
	for (let f = 0; f < frames; ++f) {
		// float arithmetic as the C side: x0 + (speed * dt) * f
		world.setBody(paddle, { position: [Math.fround(x0 + Math.fround(Math.fround(speed * dt) * f)), -4.5], linear_velocity: [speed, 0] });
		world.step();
	}
	return world;
}

for (const dimensions of [2, 3]) {
	test(`${dimensions}D bodies (dynamic box, ${dimensions === 3 ? 'sphere' : 'circle, polygon'}, a driven kinematic box) hash the same in wasm and natively after ${FRAMES_BODIES} frames`, (t) => {
		if (!exeBodies) return t.skip(whyBodies);
		const native = execFileSync(exeBodies, [String(dimensions), String(FRAMES_BODIES)], { encoding: 'utf8' }).trim().split(' ');
		const world = bodiesWorld(dimensions, FRAMES_BODIES);
		assert.equal(world.bodyCount, dimensions === 3 ? 3 : 4);
		assert.equal(world.stats().non_finite, 0);
		assert.deepEqual([String(world.particleCount), world.hash()], native);
		world.destroy();
	});
}

// the 3D scene fixtures (emitters, strokes, mixed fills, a sphere container)
const fixtures = readdirSync(fileURLToPath(new URL('fixtures/', import.meta.url))).filter((f) => /^scene-3d.*\.json$/.test(f)).sort();
/** What the native runner prints for a scene, from the wasm build: name, particle count and
 * state hash after FRAMES frames, one thread, the scene's strokes applied. */
function wasmResult(scene) {
	const world = buildWorld(puddle, scene, { threads: 1 });
	for (let f = 0; f < FRAMES; ++f) {
		applyFrame(puddle, scene, world, f);
		world.step();
	}
	const result = [scene.name, String(world.particleCount), world.hash()];
	world.destroy();
	return result;
}

test(`the 3D scene fixtures hash the same in wasm and natively after ${FRAMES} frames`, (t) => {
	if (!exe) return t.skip(why);
	const paths = fixtures.map((f) => fileURLToPath(new URL(`fixtures/${f}`, import.meta.url)));
	const native = execFileSync(exe, [String(FRAMES), ...paths], { encoding: 'utf8' }).trim().split('\n').map((line) => line.split(' '));
	fixtures.forEach((file, i) => {
		const scene = resolveScene(puddle, readFileSync(paths[i], 'utf8'), `test/fixtures/${file}`);
		assert.deepEqual(wasmResult(scene), native[i], file);
	});
});

test(`every shipped scene hashes the same in wasm and natively after ${FRAMES} frames`, (t) => {
	if (!exe) return t.skip(why);
	const native = execFileSync(exe, [String(FRAMES), ...scenes.map((f) => join(repo, 'scenes', f))], { encoding: 'utf8' })
		.trim().split('\n').map((line) => line.split(' '));
	assert.equal(native.length, scenes.length);
	scenes.forEach((file, i) => {
		const scene = resolveScene(puddle, readFileSync(join(repo, 'scenes', file), 'utf8'), `scenes/${file}`);
		assert.deepEqual(wasmResult(scene), native[i], file);
	});
});

// Broken scenes, each a file: the message `puddle info` prints is the one the page shows.
const BROKEN = {
	'misspelt.json': '{"materials": [{"name": "water", "stifness": 3}], "container": {"shape": "box", "half_extents": [10, 6]}}',
	'twice.json': '{"materials": [{"name": "water"}], "materials": []}',
	'syntax.json': '{"materials": [{"name": "water"},\n  {"name": "oil" "rest_density": 2}]}',
	'wide-emitter.json': '{"materials": [{"name": "w"}], "container": {"shape": "box", "half_extents": [10, 6]}, ' +
		'"emitters": [{"position": [0, 0], "velocity": [0, -1], "width": 1e9, "stop": 5}]}',
	'wide-emitter-3d.json': '{"world": {"dimensions": 3}, "materials": [{"name": "w"}], "container": {"shape": "box", "half_extents": [10, 6, 6]}, ' +
		'"emitters": [{"position": [0, 0, 0], "velocity": [0, -1, 0], "width": 25000, "stop": 5}]}',
	'tiny.json': '{"materials": [{"name": "w"}], "container": {"shape": "box", "half_extents": [10, 6]}, "output": {"seconds": 1e-300}}',
	'no-material.json': '{"materials": [{"name": "water"}], "container": {"shape": "box", "half_extents": [10, 6]}, ' +
		'"fills": [{"shape": "disc", "radius": 2, "material": "watr"}]}',
};

test('broken scenes get the same message from the wasm scene layer as from the native one', (t) => {
	if (!exe) return t.skip(why);
	const paths = Object.entries(BROKEN).map(([name, json]) => {
		const path = join(scratch, name);
		writeFileSync(path, json);
		return path;
	});
	const native = execFileSync(exe, ['1', ...paths], { encoding: 'utf8' }).trim().split('\n');
	assert.equal(native.length, paths.length);
	paths.forEach((path, i) => {
		assert.ok(native[i].startsWith('! '), `${path}: refused natively`);
		assert.throws(() => resolveScene(puddle, readFileSync(path, 'utf8'), path), (e) => e.message === native[i].slice(2), native[i]);
	});
});
