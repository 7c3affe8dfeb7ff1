// The material presets come from one file, scenes/presets/materials.json, which the native
// viewer reads too (apps/viewer/presets.c): the server serves it, the page's presets.js reads
// it (no copy of its numbers in web/demo), the material menus offer its presets, and choosing
// one sets the material scaled to the scene by the declared scales (the stratify scene: h = 30,
// |g| = 200, mean rest density 10, mean mass 10), the values the viewer's rule gives.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { newPage, openBrowser } from './browser.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = JSON.parse(readFileSync(join(repo, 'scenes', 'presets', 'materials.json'), 'utf8'));

let browser;
before(async () => {
	browser = await openBrowser();
});
after(async () => {
	await browser?.close();
});

test('the server serves scenes/presets/materials.json, and the scene list leaves it out', async () => {
	const served = await (await fetch(`${browser.url}/scenes/presets/materials.json`)).json();
	assert.deepEqual(served, file);
	const names = await (await fetch(`${browser.url}/scenes/index.json`)).json();
	assert.ok(names.length > 0 && names.every((n) => !n.includes('presets')), names.join(', '));
});

test('the page reads the presets file and scales it to the scene', async () => {
	const { page, errors } = await newPage(browser, '/demo/?scene=stratify&paused=1');
	await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
	const got = await page.evaluate(async () => {
		const m = await import('/demo/presets.js');
		const d = window.demo;
		const basis = m.presetBasis(d.scene);
		const options = [...document.querySelectorAll('select option')].map((o) => o.textContent);
		const pick = (label) => m.presetMaterial(label, basis, d.puddle.defaultMaterialDef());
		return { presets: m.PRESETS, labels: Object.keys(m.MATERIAL_PRESETS), options, basis,
			water: pick('water'), lava: pick('lava'), slime: pick('slime'), heavy: pick('stratify heavy') };
	});
	assert.deepEqual(got.presets, file, 'presets.js holds the file as served');
	assert.deepEqual(got.labels, ['water', 'lava', 'slime', 'stratify heavy', 'stratify medium', 'stratify light']);
	for (const label of got.labels) assert.ok(got.options.includes(label), `the material menu offers ${label}`);
	assert.deepEqual(got.basis, { h: 30, g: 200, rest_density: 10, mass: 10 });
	const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${what}: ${a} != ${b}`);
	// 'g': x20; 'g/h': x(200/30)/10; 'sqrt(g/h)': its root; '1/h': /30; rest density x10/4; mass x10
	close(got.water.stiffness, 60 * 20, 'water stiffness');
	close(got.water.rest_density, 10, 'water rest density');
	close(got.lava.viscosity_sigma, 3 * Math.sqrt(2 / 3), 'lava sigma');
	close(got.lava.viscosity_beta, 0.6 / 30, 'lava beta');
	close(got.lava.mass, 15, 'lava mass');
	close(got.slime.spring_stiffness, 150 * 2 / 3, 'slime springs');
	close(got.slime.wall_stickiness, 60 * 2 / 3, 'slime stickiness');
	close(got.slime.stick_distance, 0.5, 'slime stick distance');
	close(got.heavy.rest_density, 12, 'stratify heavy rest density');
	assert.equal(got.lava.color, 0xff5a1f);
	assert.deepEqual(errors, []);
	await page.close();
});
