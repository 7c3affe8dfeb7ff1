// Chromium (SwiftShader): a paused page that nothing touches draws no frames (a paused tab must
// not burn a core), and says so in the stats; its idle time is no drawing time for the fallback
// (the longest frame it counted is shorter than the wait at rest; the budget is 10 s, so that no
// level changes and each frame is the liquid's, about 0.3 s under SwiftShader); a camera move (the
// wheel), a panel control (Render > colour) and a key draw again, and the picture shows the
// change. window.demo.drawnFrames counts the frames drawn.
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

// (under the 2 s the fallback takes for a hidden tab, so that only its own rule keeps time at rest out)
const IDLE_MS = 1500;

describe('a paused page at rest', () => {
	test('draws nothing until the camera, a control or a key changes the picture', async () => {
		const { page, errors } = await openDemoPage(browser, '?paused=1&sceneUrl=/test/fixtures/scene-3d.json&fallback=1&frameBudget=10000');
		const drawn = () => page.evaluate(() => window.demo.drawnFrames);
		/** Waits for a frame drawn after `n`, then for the page to come to rest again. */
		const drawsAgain = async (n, what) => {
			await page.waitForFunction((k) => window.demo.drawnFrames > k, n, { timeout: 30000 }).catch(() => assert.fail(`${what}: no frame drawn`));
			await page.waitForFunction(() => !window.demo.needsDraw, null, { timeout: 30000 });
		};
		await page.waitForTimeout(500); // the frames of the load (the first builds the programs: over a second)
		await page.evaluate(() => (window.demo.fallback.mostMs = 0));
		const rest = await drawn();
		assert.ok(rest > 0, 'the page drew its first frame');
		await page.waitForTimeout(IDLE_MS);
		assert.equal(await drawn(), rest, `no frame drawn in ${IDLE_MS} ms at rest`);
		const state = await page.evaluate(() => ({ text: document.getElementById('stats').textContent, fallback: { ...window.demo.fallback } }));
		assert.match(state.text, /^idle: paused, nothing to draw\n/);
		assert.ok(state.fallback.mostMs < IDLE_MS, `idle time is no drawing time: the longest frame counted ${state.fallback.mostMs} ms`);
		const picture = () => page.locator('#view').screenshot();

		// the camera: the wheel zooms, the page draws, the picture changes
		const before = await picture();
		const box = await page.locator('#view').boundingBox();
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		const d0 = await page.evaluate(() => window.demo.orbit.camera.distance);
		let n = await drawn();
		await page.mouse.wheel(0, 300);
		await drawsAgain(n, 'the wheel');
		assert.ok((await page.evaluate(() => window.demo.orbit.camera.distance)) > d0, 'zoomed out');
		const zoomed = await picture();
		assert.ok(!zoomed.equals(before), 'the picture shows the zoom');

		// a control: the colour mode
		n = await drawn();
		await page.locator('.lil-gui.root .lil-gui', { has: page.locator('> .title:text-is("Render")') })
			.locator('.controller', { has: page.locator('.name:text-is("colour")') }).first().locator('select').selectOption('speed');
		await drawsAgain(n, 'the colour control');
		assert.ok(!(await picture()).equals(zoomed), 'the picture shows the colour');

		// a key (a tool picked), then at rest again
		n = await drawn();
		await page.keyboard.press('2');
		await drawsAgain(n, 'a key');
		const settled = await drawn();
		await page.waitForTimeout(IDLE_MS);
		assert.equal(await drawn(), settled, 'at rest again');
		const { mostMs, windows } = await page.evaluate(() => window.demo.fallback);
		assert.ok(mostMs > 0 && mostMs < IDLE_MS, `the frames drawn counted, the time at rest not: the longest ${mostMs} ms`);
		console.log(`the fallback counted frames of up to ${mostMs.toFixed(0)} ms (${windows} windows)`);
		assert.deepEqual(errors, []);
		await page.close();
	});
});
