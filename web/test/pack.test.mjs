// `npm pack` makes a package that works on its own: install the tarball into an empty project,
// then run every ```js example of the README it ships there, as someone who ran `npm install`
// would. The README is for them: no build commands, no paths into the repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'puddle-pack-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let packed, project;
before(() => {
	// --ignore-scripts: the build is already there (make test builds first)
	const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: webDir, encoding: 'utf8' });
	[packed] = JSON.parse(out);
	// an empty project that installs the tarball (no dependencies, so nothing is downloaded)
	project = join(scratch, 'app');
	execFileSync('mkdir', ['-p', project]);
	writeFileSync(join(project, 'package.json'), '{ "name": "app", "private": true, "type": "module" }');
	execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, packed.filename)], { cwd: project, stdio: 'pipe' });
});

test('the tarball has the module, both builds, the scenes and the README, and no demo or tests', () => {
	const names = packed.files.map((f) => f.path);
	for (const f of ['src/puddle.js', 'src/puddle.d.ts', 'src/scene.js', 'src/scene.d.ts', 'src/camera.js', 'dist/puddle.wasm',
		'dist/puddle-threads.worker.js', 'scenes/stratify.json', 'scenes/drop-3d.json', 'scenes/presets/materials.json', 'README.md'])
		assert.ok(names.includes(f), `${f} is packed`);
	assert.ok(!names.some((f) => /^(demo|test|build)\//.test(f) || f === 'DEVELOPING.md'), `demo, tests, build and developer notes stay out: ${names}`);
});

test("the README is for someone who ran npm install", () => {
	const readme = readFileSync(join(project, 'node_modules/puddle-fluid/README.md'), 'utf8');
	for (const developer of [/make -C/, /\.\.\/(src|scenes|io|include)\b/, /Debian/, /emscripten|emcc/i, /server\.mjs/])
		assert.doesNotMatch(readme, developer);
	assert.match(readme, /npm install puddle-fluid/);
});

test("every js example of the README runs from the installed package", () => {
	const readme = readFileSync(join(project, 'node_modules/puddle-fluid/README.md'), 'utf8');
	const examples = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
	assert.ok(examples.length >= 4, `${examples.length} examples`);
	examples.forEach((code, i) => {
		const file = join(project, `example-${i}.mjs`);
		writeFileSync(file, code);
		let out;
		try {
			out = execFileSync('node', [file], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
		} catch (e) {
			assert.fail(`example ${i} failed:\n${code}\n${e.stderr}`);
		}
		assert.ok(out.trim().length > 0, `example ${i} prints something`);
		// what the comments say it prints, it prints
		for (const [, said] of code.matchAll(/console\.log\([^;]*\);\s*\/\/ (.+)$/gm)) assert.ok(out.includes(said.trim()), `example ${i}: "${said}" in\n${out}`);
	});
});

test('a shipped scene loads by name from the installed package, and the DFSPH one runs', () => {
	writeFileSync(join(project, 'scenes.mjs'), `
		import { loadPuddle, Solver } from 'puddle-fluid';
		import { loadScene, buildWorld } from 'puddle-fluid/scene';
		const puddle = await loadPuddle();
		const scene = await loadScene(puddle, 'drop-3d');
		const world = buildWorld(puddle, scene);
		const water = buildWorld(puddle, await loadScene(puddle, 'dfsph-dam-break'));
		for (let f = 0; f < 5; ++f) water.step();
		console.log(JSON.stringify({ dimensions: scene.dimensions, camera: scene.camera !== null, n: world.particleCount,
			solver: water.def.solver, dfsph: Solver.DFSPH, finite: water.stats().non_finite === 0 }));
	`);
	const r = JSON.parse(execFileSync('node', ['scenes.mjs'], { cwd: project, encoding: 'utf8' }));
	assert.equal(r.dimensions, 3);
	assert.ok(r.camera && r.n > 1000);
	assert.equal(r.solver, r.dfsph);
	assert.ok(r.finite);
});

test('a tarball packed in the tree is ignored by git, not left untracked', (t) => {
	try {
		execFileSync('git', ['rev-parse', '--git-dir'], { cwd: webDir, stdio: 'ignore' });
	} catch {
		return t.skip('not a git checkout');
	}
	execFileSync('git', ['check-ignore', '-q', packed.filename], { cwd: webDir });
});
