// The browser runs the same fluid as the native tools, bit for bit: every shipped scene, built by
// the JavaScript scene mapping on the WebAssembly core, hashes the same after 60 frames as the C
// scene loader (io/) on the natively compiled core (DESIGN.md: a scene hashes the same across
// compilers and flags). The native side is compiled here from ../src and ../io/src, so both
// sides are always the same sources; without a C compiler or cJSON/libpng the test is skipped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPuddle } from '../src/puddle.js';
import { applyFrame, buildWorld, resolveScene } from '../src/scene.js';

const FRAMES = 60;
const repo = fileURLToPath(new URL('../../', import.meta.url));
// every scene the web build runs: SPH scenes are native only (src/scene.js)
const scenes = readdirSync(join(repo, 'scenes')).filter((f) => f.endsWith('.json')).sort()
	.filter((f) => JSON.parse(readFileSync(join(repo, 'scenes', f), 'utf8')).solver?.kind !== 'sph');
const scratch = mkdtempSync(join(tmpdir(), 'puddle-native-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function compileNative() {
	const c = (dir) => readdirSync(join(repo, dir)).filter((f) => f.endsWith('.c')).map((f) => join(repo, dir, f));
	const exe = join(scratch, 'scene_hash');
	// the flags that matter for the bits, as in the top CMakeLists.txt
	execFileSync(process.env.CC ?? 'cc', ['-O2', '-std=c11', '-D_POSIX_C_SOURCE=200809L', '-ffp-contract=off', '-fno-fast-math',
		'-I', join(repo, 'include'), '-I', join(repo, 'io/include'),
		fileURLToPath(new URL('native/scene_hash.c', import.meta.url)), ...c('io/src'), ...c('src'),
		'-lcjson', '-lpng', '-lm', '-lpthread', '-o', exe], { stdio: ['ignore', 'ignore', 'pipe'] });
	return exe;
}

let exe = null, why = '';
let puddle;
before(async () => {
	puddle = await loadPuddle();
	try {
		exe = compileNative();
	} catch (e) {
		why = `no native build: ${(e.stderr?.toString() || e.message).split('\n')[0]}`;
	}
});

test(`every shipped scene hashes the same in wasm and natively after ${FRAMES} frames`, (t) => {
	if (!exe) return t.skip(why);
	const native = execFileSync(exe, [String(FRAMES), ...scenes.map((f) => join(repo, 'scenes', f))], { encoding: 'utf8' })
		.trim().split('\n').map((line) => line.split(' '));
	assert.equal(native.length, scenes.length);
	scenes.forEach((file, i) => {
		const scene = resolveScene(puddle, JSON.parse(readFileSync(join(repo, 'scenes', file), 'utf8')), `scenes/${file}`);
		const world = buildWorld(puddle, scene, { threads: 1 });
		for (let f = 0; f < FRAMES; ++f) {
			applyFrame(puddle, scene, world, f);
			world.step();
		}
		assert.deepEqual([scene.name, String(world.particleCount), world.hash()], native[i], file);
		world.destroy();
	});
});
