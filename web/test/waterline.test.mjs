// Bodies in the water in the page's 3D liquid look (shaders/liquid/composite.frag.glsl, the
// waterline) in Debian's headless Chromium (SwiftShader): fixtures/waterline-3d.json's red box
// and orange ball afloat after 60 frames, 640 x 400, measured by the viewer's
// apps/viewer/tests/waterline.py, as the viewer's and `puddle run`'s pictures are: a light line
// where the surface meets them and, under it, their submerged parts seen, tinted, through the
// water (see the printout).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { openBrowser, openDemoPage } from './browser.mjs';

const MEASURE = fileURLToPath(new URL('../../apps/viewer/tests/waterline.py', import.meta.url));
const [W, H] = [640, 400];

let browser;
before(async () => {
	browser = await openBrowser();
});
after(async () => {
	await browser?.close();
});

describe('bodies in the water', () => {
	test('a waterline along the hulls, the submerged parts seen through the water', async () => {
		const { page, errors } = await openDemoPage(browser, '?paused=1&sceneUrl=/test/fixtures/waterline-3d.json');
		const url = await page.evaluate(([w, h]) => {
			const demo = window.demo, canvas = demo.canvas;
			canvas.style.width = `${w}px`;
			canvas.style.height = `${h}px`;
			demo.step(60);
			demo.render(); // toDataURL in the same task reads the frame just drawn
			return canvas.width === w && canvas.height === h ? canvas.toDataURL('image/png') : `size ${canvas.width}x${canvas.height}`;
		}, [W, H]);
		assert.ok(url.startsWith('data:image/png'), `the page drew ${W}x${H}: ${url}`);
		assert.deepEqual(errors, []);
		const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
		const work = mkdtempSync(join(tmpdir(), 'puddle-waterline-'));
		try {
			const png = join(work, 'page.png');
			writeFileSync(png, bytes);
			if (process.env.WATERLINE_FIGURE) writeFileSync(process.env.WATERLINE_FIGURE, bytes);
			const r = spawnSync('python3', [MEASURE, png, '--bodies', '#e4572e,#f3a712', '--water', '#2a7fd4', '--min-line', '30',
				'--min-seen', '60'], { encoding: 'utf8' });
			console.log(r.stdout.trim());
			assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
		} finally {
			rmSync(work, { recursive: true, force: true });
		}
		await page.close();
	});
});
