// The page's fallback when drawing is slow (demo/main.js, fallbackFrame) in Debian's headless
// Chromium (SwiftShader): dam-break-3d paused in the liquid look with a budget of 1 ms a frame,
// which no frame of 20,000 particles meets in software. Window after window the look steps down,
// the liquid at half, then a third of the canvas's resolution, then spheres, then spheres at half
// resolution, then flat discs at half and a quarter of the resolution, the last no slower than
// the spheres at half resolution; the stats box says
// so (a paused page draws only when the picture changes, so the tests ask for a frame every
// frame, as a camera moved all along would); the frames after it take less time than the full liquid's and come at over a modest rate
// (MIN_FPS: the machine may be busy, docs/viewer.md has measured rates). With ?fallback=0 the
// look stays.
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

const MIN_FPS = 1;
const FRAMES_AT_LAST = 30;

/** Runs in the page: asks for a frame at every frame from now on (demo.invalidate()). */
const drawEveryFrame = () => {
	const again = () => {
		window.demo.invalidate();
		requestAnimationFrame(again);
	};
	again();
};

describe('fallback when drawing is slow', () => {
	test('steps down to spheres, then discs, over the budget, and says so', async () => {
		const { page, errors } = await openDemoPage(browser, '?scene=dam-break-3d&paused=1&fallback=1&frameBudget=1');
		await page.evaluate(drawEveryFrame);
		await page.waitForFunction(() => window.demo.fallback.level === 6, null, { timeout: 420000, polling: 100 });
		// one more window at the last level: the last window measured is its
		const windows = await page.evaluate(() => window.demo.fallback.windows);
		await page.waitForFunction((n) => window.demo.fallback.windows > n, windows, { timeout: 120000, polling: 100 });
		// the last level's frame time over FRAMES_AT_LAST frames (a window far over the budget is 3
		// frames: one slow frame of a busy machine would move its mean by a third)
		const lastMs = await page.evaluate((frames) => new Promise((done) => {
			const start = performance.now();
			let n = 0;
			const next = () => (++n >= frames ? done((performance.now() - start) / n) : requestAnimationFrame(next));
			requestAnimationFrame(next);
		}), FRAMES_AT_LAST);
		const r = await page.evaluate(() => {
			const d = window.demo;
			d.updateStats(performance.now() + 1000);
			return { fallback: { ...d.fallback }, mode3d: d.style.mode3d, scale3d: d.style.scale3d, discs: d.style.discs,
				stats: d.statsBox.textContent };
		});
		const f = r.fallback;
		console.log(`fallback: ${JSON.stringify(f)}`);
		console.log(`draw time a frame: ${f.firstWindowMs.toFixed(1)} ms in the full liquid, ${lastMs.toFixed(1)} ms after the fallback (${(1000 / lastMs).toFixed(1)} fps, over ${FRAMES_AT_LAST} frames)`);
		assert.equal(f.changes, 6, 'six steps down');
		assert.equal(r.mode3d, 'spheres', 'spheres mode at the end');
		assert.ok(r.discs, 'drawn as flat discs');
		assert.equal(r.scale3d, 0.25, 'at a quarter of the resolution');
		assert.match(r.stats, /slow drawing: drawing took \d+ ms a frame, over the 1 ms budget: flat discs at a quarter of the resolution/);
		f.levelMs.forEach((ms, level) => assert.ok(ms > 0, `level ${level} measured: ${f.levelMs}`));
		// wall time between frames, on a machine that may be busy, in steps of the display's
		// interval (requestAnimationFrame): the last level no slower than the spheres at half
		// resolution by more than one interval (measured 33.3 against 40.0 ms, docs/viewer.md)
		assert.ok(lastMs < f.levelMs[4] + 1000 / 60, `the discs at a quarter of the resolution no slower than the spheres at half: ${lastMs} against ${f.levelMs[4]} ms`);
		assert.ok(lastMs < f.firstWindowMs, `discs faster than the full liquid: ${lastMs} against ${f.firstWindowMs} ms`);
		assert.ok(1000 / lastMs > MIN_FPS, `over ${MIN_FPS} frames/s: ${1000 / lastMs}`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('stays off with ?fallback=0', async () => {
		const { page, errors } = await openDemoPage(browser, '?scene=dam-break-3d&paused=1&fallback=0&frameBudget=1');
		await page.evaluate(drawEveryFrame);
		await page.waitForTimeout(8000);
		const r = await page.evaluate(() => ({ changes: window.demo.fallback.changes, mode3d: window.demo.style.mode3d }));
		assert.equal(r.changes, 0);
		assert.equal(r.mode3d, 'liquid');
		assert.deepEqual(errors, []);
		await page.close();
	});
});
