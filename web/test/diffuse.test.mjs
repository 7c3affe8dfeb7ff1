// The page's diffuse particles (demo/liquid.js with shaders/liquid/diffuse.vert.glsl) in Debian's
// headless Chromium: a thin dam break (fixtures/dam-break-3d-thin.json) run until its surge has hit
// the far wall, drawn in the liquid look with and without the "spray and foam" control. The world
// reports spray and foam; pixels turn near-white with them, most of them on the far wall's half of
// the tank (right of its middle in this camera), and none turns darker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, openDemoPage } from './browser.mjs';

let browser;
before(async () => {
	browser = await openBrowser();
});
after(async () => {
	await browser?.close();
});

describe('diffuse particles', () => {
	test('a dam break throws white water at the far wall', async () => {
		const { page, errors } = await openDemoPage(browser, '?paused=1&sceneUrl=/test/fixtures/dam-break-3d-thin.json');
		const r = await page.evaluate(() => {
			const demo = window.demo, gl = demo.renderer3d.gl, c = demo.canvas;
			let hit = -1, frame = 0;
			for (; frame < 240 && (hit < 0 || frame < hit + 12); ++frame) { // to 0.2 s after the front reaches the wall
				demo.step(1);
				const p = demo.world.particles();
				let front = -Infinity;
				for (let i = 0; i < p.count; ++i) front = Math.max(front, p.x[i]);
				if (hit < 0 && front > 15) hit = frame;
			}
			const d = demo.world.diffuse();
			c.style.width = '960px';
			c.style.height = '540px';
			const shot = (diffuse) => {
				demo.style.diffuse = diffuse;
				demo.render(); // read in the same task as drawn
				const px = new Uint8Array(c.width * c.height * 4);
				gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
				return px;
			};
			const on = shot(true), off = shot(false);
			demo.style.diffuse = true;
			const k = c.width / c.clientWidth, middle = demo.orbit.toCss(0, 0, 0).x * k;
			const white = (a, i) => Math.min(a[i], a[i + 1], a[i + 2]) >= 160 && Math.max(a[i], a[i + 1], a[i + 2]) - Math.min(a[i], a[i + 1], a[i + 2]) <= 32;
			let whiter = 0, right = 0, darker = 0;
			for (let i = 0; i < on.length; i += 4) {
				if (on[i] + on[i + 1] + on[i + 2] < off[i] + off[i + 1] + off[i + 2]) ++darker;
				if (white(on, i) && !white(off, i)) {
					++whiter;
					if ((i / 4) % c.width > middle) ++right;
				}
			}
			return { hit, frame, kinds: d.kindCount, count: d.count, whiter, right, darker };
		});
		console.log(`# front at the far wall at frame ${r.hit}, drawn at frame ${r.frame}: ${r.kinds[0]} spray, ${r.kinds[1]} foam, ` +
			`${r.kinds[2]} bubbles; ${r.whiter} pixels turn near-white (${r.right} right of the middle), ${r.darker} darker`);
		assert.ok(r.hit > 0, 'the surge reaches the far wall');
		assert.ok(r.kinds[0] + r.kinds[1] > 50, `spray and foam: ${r.kinds}`);
		assert.ok(r.whiter >= 100, `${r.whiter} pixels turn near-white`);
		assert.ok(r.right >= 0.7 * r.whiter, `on the far wall's half: ${r.right} of ${r.whiter}`);
		assert.equal(r.darker, 0, 'they only whiten');
		assert.deepEqual(errors, []);
		await page.close();
	});
});
