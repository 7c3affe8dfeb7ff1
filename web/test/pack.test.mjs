// `npm pack` makes a package that works on its own: unpack the tarball into a scratch project,
// import it by name from there and run a world.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const webDir = fileURLToPath(new URL('..', import.meta.url));

test('npm pack gives a package that loads and steps from its tarball', () => {
	const scratch = mkdtempSync(join(tmpdir(), 'puddle-pack-'));
	try {
		// --ignore-scripts: the build is already there (make test builds first)
		const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: webDir, encoding: 'utf8' });
		const [{ filename, files }] = JSON.parse(out);
		const names = files.map((f) => f.path);
		for (const f of ['src/puddle.js', 'src/puddle.d.ts', 'src/scene.js', 'src/camera.js', 'dist/puddle.wasm', 'dist/puddle-threads.worker.js', 'README.md'])
			assert.ok(names.includes(f), `${f} is packed`);
		assert.ok(!names.some((f) => f.startsWith('demo/') || f.startsWith('test/')), 'demo and tests stay out');

		const pkg = join(scratch, 'node_modules', 'puddle-fluid');
		mkdirSync(pkg, { recursive: true });
		execFileSync('tar', ['-xzf', join(scratch, filename), '-C', pkg, '--strip-components=1']);
		writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }');
		writeFileSync(join(scratch, 'run.mjs'), `
			import { loadPuddle, FillShape } from 'puddle-fluid';
			import { resolveScene, buildWorld } from 'puddle-fluid/scene';
			const puddle = await loadPuddle();
			const scene = resolveScene(puddle, { materials: [{ name: 'w' }], container: { shape: 'circle', radius: 8 },
				fills: [{ shape: 'disc', radius: 3 }] });
			const world = buildWorld(puddle, scene);
			world.step(10);
			console.log(JSON.stringify({ n: world.particleCount, finite: world.stats().non_finite === 0 }));
		`);
		const result = JSON.parse(execFileSync('node', ['run.mjs'], { cwd: scratch, encoding: 'utf8' }));
		assert.ok(result.n > 50);
		assert.equal(result.finite, true);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
});
