// The .d.ts files describe the module: the README's usage type-checks against them under
// TypeScript's strict mode (tsc from npm; nothing is emitted).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('..', import.meta.url));

test('src/puddle.d.ts and src/scene.d.ts type-check the documented usage (tsc --strict)', () => {
	const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
	const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
		'test/types/usage.ts'];
	let output = '';
	try {
		execFileSync(process.execPath, [tsc, ...args], { cwd: webDir, encoding: 'utf8' });
	} catch (e) {
		output = `${e.stdout}${e.stderr}`;
	}
	assert.equal(output, '');
});
