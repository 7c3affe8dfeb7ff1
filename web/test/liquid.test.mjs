// The 3D "liquid" look (demo/liquid.js, screen-space fluid rendering) in Debian's headless
// Chromium (SwiftShader WebGL 2): on the same paused frame, the liquid picture against the
// spheres picture. It draws; it is smooth (little high-frequency energy over the water); it is
// tinted by material (stratify-3d's layers show as distinct hues); a settled pool's top surface
// is flat in a side-on view. With LIQUID_BENCH=1 it also times liquid and spheres at 1280 x 800
// with about 20,000 particles (drop-3d) and prints the figures web/DEVELOPING.md quotes.
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

const openDemo = (query = '') => openDemoPage(browser, query);

// Runs in the page: draws the current frame in `mode` and measures it, without the container's
// outline (its 1-pixel lines over the water would dominate the Laplacian of both pictures: with
// them the measure below reads about 2,600 for the liquid against 8,200 for the spheres on
// stratify-3d, without them see the test). The water's pixels are
// those the liquid's depth pass covered (its R32F target, the same camera for both modes),
// shrunk by 3 pixels so silhouettes (sharp in both modes) do not count. Returns the canvas size,
// the share of pixels that differ from the background, the mean squared Laplacian of luminance
// (0..255) over the water, the hues (degrees) of the water's pixels in every 8th column, and per column
// the topmost water row (from the top, -1 for none).
const measure = (mode) => {
	const demo = window.demo, gl = demo.renderer3d.gl, c = demo.canvas, w = c.width, h = c.height;
	const boundaries = demo.world.boundaries;
	demo.world.boundaries = () => boundaries.call(demo.world).filter((b) => b.kind > 1); // no containers (kinds 0, 1)
	demo.style.mode3d = 'liquid';
	demo.render();
	const liquid = demo.renderer3d.liquid, depth = new Float32Array(w * h * 4);
	gl.bindFramebuffer(gl.FRAMEBUFFER, liquid.depthFb[0]);
	gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, depth);
	gl.bindFramebuffer(gl.FRAMEBUFFER, null);
	demo.style.mode3d = mode;
	demo.render();
	const px = new Uint8Array(w * h * 4);
	gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
	demo.style.mode3d = 'liquid';
	delete demo.world.boundaries;
	const water = (x, y) => x >= 0 && y >= 0 && x < w && y < h && depth[4 * (y * w + x)] > 0;
	const inside = (x, y) => {
		for (let dy = -3; dy <= 3; ++dy) for (let dx = -3; dx <= 3; ++dx) if (!water(x + dx, y + dy)) return false;
		return true;
	};
	const lum = (i) => 0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2];
	let energy = 0, count = 0, differ = 0;
	for (let y = 0; y < h; ++y)
		for (let x = 0; x < w; ++x) {
			const i = y * w + x;
			if (Math.abs(px[4 * i] - px[0]) + Math.abs(px[4 * i + 1] - px[1]) + Math.abs(px[4 * i + 2] - px[2]) > 24) ++differ;
			if (!inside(x, y)) continue;
			const l = 4 * lum(i) - lum(i - 1) - lum(i + 1) - lum(i - w) - lum(i + w);
			energy += l * l;
			++count;
		}
	const hue = (i) => {
		const r = px[4 * i] / 255, g = px[4 * i + 1] / 255, b = px[4 * i + 2] / 255, max = Math.max(r, g, b), d = max - Math.min(r, g, b);
		if (d < 0.04) return null;
		const hh = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
		return (hh * 60 + 360) % 360;
	};
	const hues = [], top = [];
	for (let x = 4; x < w; x += 8) {
		for (let y = 0; y < h; ++y) if (inside(x, y)) { const v = hue(y * w + x); if (v !== null) hues.push(v); }
	}
	for (let x = 0; x < w; ++x) {
		let t = -1;
		// readPixels rows run bottom up
		for (let y = h - 1; y >= 0 && t < 0; --y) if (water(x, y)) t = h - 1 - y;
		top.push(t);
	}
	return { w, h, differ: differ / (w * h), water: count, energy: energy / Math.max(1, count), hues, top };
};

/**
 * Hue clusters: the peaks (bin centres, degrees) of the hues' histogram in 5-degree bins,
 * smoothed over 3 bins: local maxima holding at least 3% of the hues per bin, with a valley
 * below 70% of the lower peak between each and the next.
 */
function hueClusters(hues) {
	const raw = new Array(72).fill(0);
	for (const h of hues) ++raw[Math.floor(h / 5) % 72];
	const bins = raw.map((_, b) => (raw[(b + 71) % 72] + raw[b] + raw[(b + 1) % 72]) / 3);
	const peaks = [];
	for (let b = 0; b < 72; ++b)
		if (bins[b] >= 0.03 * hues.length && bins[b] >= bins[(b + 71) % 72] && bins[b] > bins[(b + 1) % 72]) peaks.push(b);
	const clusters = [];
	for (const b of peaks) {
		const last = clusters[clusters.length - 1];
		let valley = Infinity;
		if (last !== undefined) for (let k = last; k <= b; ++k) valley = Math.min(valley, bins[k]);
		if (last === undefined || valley < 0.7 * Math.min(bins[last], bins[b])) clusters.push(b);
		else if (bins[b] > bins[last]) clusters[clusters.length - 1] = b;
	}
	return clusters.map((b) => b * 5 + 2.5);
}

describe('demo page, 3D liquid look', () => {
	test('liquid is the default 3D mode; stratify-3d draws smooth water tinted by its layers', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=stratify-3d');
		const mode = await page.evaluate(() => window.demo.style.mode3d);
		assert.equal(mode, 'liquid');
		// side on, a little from above: each layer seen through the bowl's wall
		await page.evaluate(() => {
			window.demo.step(400);
			window.demo.orbit.camera.pitch = 8;
		});
		const liquid = await page.evaluate(`(${measure})('liquid')`);
		const spheres = await page.evaluate(`(${measure})('spheres')`);
		await page.locator('#view').screenshot({ path: '/tmp/liquid-test-stratify.png' }).catch(() => {});
		assert.ok(liquid.differ > 0.05, `not blank: ${liquid.differ}`);
		assert.ok(liquid.water > 2000, `water pixels: ${liquid.water}`);
		// Smooth: measured on this frame (540 x 444 canvas, ~10,000 water pixels), the mean squared
		// Laplacian of luminance over the water is 290 for the liquid and 7,221 for the spheres,
		// whose every sphere's shaded rim is an edge. A quarter of the spheres' leaves the liquid
		// six times its value of room and fails an unsmoothed picture.
		console.log(`# smoothness: liquid ${liquid.energy.toFixed(1)}, spheres ${spheres.energy.toFixed(1)} over ${liquid.water} pixels`);
		assert.ok(liquid.energy < spheres.energy / 4, `high-frequency energy: liquid ${liquid.energy.toFixed(1)}, spheres ${spheres.energy.toFixed(1)}`);
		// Tinted: the layers (heavy #35d0d8 at hue 183, medium #3a6fe0 at 221, light #a45be0 at
		// 272) show as at least two hue clusters 25 degrees apart (measured: peaks at 207 and 252
		// over ~2,100 pixels; the spheres' at 187, 222, 277; the liquid's colour at a pixel is a
		// blend of what lies within a few particles of the surface, so the peaks move inwards).
		// The thickness target at a quarter of the resolution (what big spheres get, thicknessDivisor)
		// against half: over the water, the channel that differs most differs little. Measured here
		// (540 x 444, spheres too small for the rule to pick more than 2): a mean of 1.56 of 255
		// levels, 99% within 5, a harsher case than the rule allows (the viewer's test, where the
		// rule picks 4: 1.00 and 12).
		const coarse = await page.evaluate(() => {
			const demo = window.demo, gl = demo.renderer3d.gl, c = demo.canvas, w = c.width, h = c.height;
			const liquid = demo.renderer3d.liquid, chosen = liquid.thicknessDivisor;
			const shot = (divisor) => {
				liquid.fixedThicknessDivisor = divisor;
				demo.render();
				const px = new Uint8Array(w * h * 4);
				gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
				return px;
			};
			const half = shot(2), quarter = shot(4);
			liquid.fixedThicknessDivisor = 0;
			const depth = new Float32Array(w * h * 4);
			gl.bindFramebuffer(gl.FRAMEBUFFER, liquid.depthFb[0]);
			gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, depth);
			gl.bindFramebuffer(gl.FRAMEBUFFER, null);
			demo.render();
			const differences = [];
			for (let i = 0; i < w * h; ++i)
				if (depth[4 * i] > 0) differences.push(Math.max(...[0, 1, 2].map((k) => Math.abs(half[4 * i + k] - quarter[4 * i + k]))));
			differences.sort((a, b) => a - b);
			const mean = differences.reduce((a, b) => a + b, 0) / differences.length;
			return { chosen, pixels: differences.length, mean, p99: differences[Math.floor(0.99 * (differences.length - 1))] };
		});
		assert.ok([2, 3, 4].includes(coarse.chosen), `thickness divisor ${coarse.chosen}`);
		assert.ok(coarse.mean < 3 && coarse.p99 < 20, `quarter against half resolution thickness: a mean of ${coarse.mean.toFixed(2)} levels, 99% within ${coarse.p99} (${coarse.pixels} water pixels)`);
		console.log(`# thickness: chosen divisor ${coarse.chosen}; quarter against half: mean ${coarse.mean.toFixed(2)}, 99% within ${coarse.p99} over ${coarse.pixels} pixels`);
		const clusters = hueClusters(liquid.hues);
		console.log(`# hue clusters: ${clusters.map((c) => c.toFixed(0)).join(', ')} over ${liquid.hues.length} pixels`);
		const spread = Math.max(...clusters) - Math.min(...clusters);
		assert.ok(clusters.length >= 2 && spread >= 25, `hue clusters ${clusters.map((c) => c.toFixed(0)).join(', ')} of ${liquid.hues.length} pixels`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test("a settled pool's top surface is flat side on, and a body shows through the water", async () => {
		const { page, errors } = await openDemo('?paused=1&sceneUrl=/test/fixtures/pool-3d.json');
		await page.evaluate(() => window.demo.step(240));
		const liquid = await page.evaluate(`(${measure})('liquid')`);
		await page.locator('#view').screenshot({ path: '/tmp/liquid-test-pool.png' }).catch(() => {});
		// columns over the middle half of the water's width: there the topmost water pixel is the
		// surface's far edge along the back wall (nearer the sides it is the side walls' edge, which
		// perspective tilts)
		const cols = liquid.top.map((t, x) => [x, t]).filter(([, t]) => t >= 0);
		const x0 = cols[0][0], x1 = cols[cols.length - 1][0], span = x1 - x0;
		const tops = cols.filter(([x]) => x > x0 + 0.25 * span && x < x1 - 0.25 * span).map(([, t]) => t);
		const range = Math.max(...tops) - Math.min(...tops);
		// measured: 3 px (rows 269 to 272 of 444) over 190 columns (the spheres' own silhouette:
		// 4 px); the surface there is ~23 px per world unit, so 5 px is a fifth of h
		assert.ok(range <= 5, `topmost water row varies by ${range} px over ${tops.length} columns`);
		// the red ball (#e4572e, at (2, -4, 0) on the floor) shows through the water: its centre
		// is redder than the mirror point (-2, -4, 0) with only water (measured: red 100 against 38)
		const [ball, plain] = await page.evaluate(() => {
			const demo = window.demo, gl = demo.renderer3d.gl, c = demo.canvas;
			demo.render();
			return [[2, -4, 0], [-2, -4, 0]].map(([x, y, z]) => {
				const p = demo.orbit.toCss(x, y, z), k = c.width / c.clientWidth, px = new Uint8Array(4);
				gl.readPixels(Math.round(p.x * k), c.height - 1 - Math.round(p.y * k), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
				return [...px];
			});
		});
		assert.ok(ball[0] > plain[0] + 30, `red at the ball ${ball}, without it ${plain}`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	// Timing, not a check: LIQUID_BENCH=1 node --test test/liquid.test.mjs prints the figures
	// web/DEVELOPING.md quotes. Chromium's gl.finish() does not wait for the GPU process, so each frame
	// ends with a one-pixel readPixels, which does.
	test('render cost at 1280 x 800, ~20,000 particles (drop-3d): liquid against spheres', { skip: !process.env.LIQUID_BENCH }, async () => {
		const { page, errors } = await openDemo('?paused=1&scene=drop-3d');
		await page.setViewportSize({ width: 1600, height: 1000 });
		const result = await page.evaluate(() => {
			const demo = window.demo, c = demo.canvas, gl = demo.renderer3d.gl, liquid = demo.renderer3d.liquid;
			c.style.width = '1280px';
			c.style.height = '800px';
			demo.style.resolution = 1 / (globalThis.devicePixelRatio || 1);
			demo.step(300);
			const sync = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
			const frames = 30, out = { particles: demo.world.particleCount };
			for (const mode of ['spheres', 'liquid']) {
				demo.style.mode3d = mode;
				demo.render();
				sync();
				const t = performance.now();
				for (let i = 0; i < frames; ++i) {
					demo.render();
					sync();
				}
				out[mode] = (performance.now() - t) / frames;
			}
			out.size = [c.width, c.height];
			// per pass, one more frame each with a read after every pass
			const sums = {};
			liquid.profile = true;
			for (let i = 0; i < 10; ++i) {
				demo.render();
				for (const [k, v] of Object.entries(liquid.passMs)) sums[k] = (sums[k] ?? 0) + v / 10;
			}
			liquid.profile = false;
			out.passes = sums;
			return out;
		});
		console.log(`liquid.test bench: ${JSON.stringify(result)}`);
		assert.deepEqual(result.size, [1280, 800]);
		assert.deepEqual(errors, []);
		await page.close();
	});
});
