// The demo page in Debian's headless Chromium (SwiftShader WebGL 2): it loads cleanly and draws,
// a scripted drag moves the fluid, the panel changes the simulation, every shipped scene loads,
// the tools work, every colour mode draws its own picture, and the threaded build gives the
// single-threaded build's results. 3D: the test fixture (test/fixtures/scene-3d.json, loaded with
// ?sceneUrl=) draws, an orbit changes the picture, the wheel zooms, a left drag sends a pointer
// ray that moves the fluid, touch works, every colour mode draws its own picture.
// Tests that compare runs pause the page (?paused=1) and step it explicitly, so they do not
// depend on how fast this machine renders.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, openBrowser } from './browser.mjs';

let browser;
before(async () => {
	browser = await openBrowser();
});
after(async () => {
	await browser?.close();
});

async function openDemo(query = '') {
	const { page, errors } = await newPage(browser, `/demo/${query}`);
	await page.waitForFunction(() => document.body.dataset.ready === 'true' || !document.getElementById('error').hidden,
		null, { timeout: 60000 });
	const failure = await page.evaluate(() => (document.getElementById('error').hidden ? '' : document.getElementById('error').textContent));
	assert.equal(failure, '', 'the page shows no error');
	return { page, errors };
}

// Runs in the page: the fluid's centre of mass.
const centroid = () => {
	const p = window.demo.world.positions();
	let x = 0, y = 0;
	for (let i = 0; i < p.count; ++i) {
		x += p.x[i];
		y += p.y[i];
	}
	return { x: x / p.count, y: y / p.count };
};

/** The canvas pixel under world point (x, y), in page coordinates. */
async function screenPoint(page, x, y) {
	return page.evaluate(([wx, wy]) => {
		const r = window.demo.canvas.getBoundingClientRect();
		const p = window.demo.renderer.toCss(wx, wy);
		return { x: r.left + p.x, y: r.top + p.y };
	}, [x, y]);
}

/** The lil-gui controller row whose label is `name` (inside the folder titled `folder`). */
function controller(page, folder, name) {
	return page.locator('.lil-gui.root .lil-gui', { has: page.locator(`> .title:text-is("${folder}")`) })
		.locator('.controller', { has: page.locator(`.name:text-is("${name}")`) }).first();
}

/**
 * Picks each colour mode from the panel (Render > colour) and returns, per mode, a fingerprint
 * of the canvas pixels, the share of pixels drawn (renderer.js's coverage()) and the share of
 * drawn pixels that are pure red; and `pressureVsDensity`, how the pressure picture differs from
 * the density one: pixels that differ, of those drawn, and the largest difference of a channel.
 * The page must be paused, so every mode draws the same particles.
 */
async function pictureOfEachColourMode(page) {
	const pictures = {};
	for (const mode of ['material', 'speed', 'density', 'pressure']) {
		await controller(page, 'Render', 'colour').locator('select').selectOption(mode);
		pictures[mode] = await page.evaluate(() => {
			const coverage = window.demo.coverage(); // renders
			const gl = window.demo.renderer.gl, c = window.demo.canvas; // one context for 2D and 3D
			const data = new Uint8Array(c.width * c.height * 4);
			gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, data);
			let hash = 0, drawn = 0, red = 0;
			for (let i = 0; i < data.length; i += 4) {
				hash = (hash * 31 + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) % 1000000007;
				const d = Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]);
				if (d <= 24) continue; // the background, as coverage() counts it
				++drawn;
				if (data[i] > 40 && data[i + 1] < 10 && data[i + 2] < 10) ++red;
			}
			(window.testPictures ??= {})[window.demo.style.colorMode] = data;
			return { mode: window.demo.style.colorMode, hash, differ: coverage.differ, drawn, red: red / Math.max(drawn, 1) };
		});
	}
	const pressureVsDensity = await page.evaluate(() => {
		const { density, pressure } = window.testPictures;
		let pixels = 0, largest = 0;
		for (let i = 0; i < density.length; i += 4) {
			let d = 0;
			for (let k = 0; k < 3; ++k) d = Math.max(d, Math.abs(density[i + k] - pressure[i + k]));
			if (d > 0) ++pixels;
			largest = Math.max(largest, d);
		}
		delete window.testPictures;
		return { pixels, largest };
	});
	return { pictures, pressureVsDensity };
}

/**
 * The checks both views share: each mode drawn, the panel's choice taken, and a picture of its
 * own. Where every material has the same rest density and stiffness, pressure is the same affine
 * function of density everywhere and the ramp, scaled to each quantity's range, draws the same
 * picture for both (`pressureIsDensity`), up to rounding: k (rho - rho0) and its range, mapped
 * back to 0..1, can differ from density's in the last bits, which moves a colour channel by one
 * level where it lies on a rounding edge (2 pixels of 105,153 drawn in the 3D fixture).
 */
function assertColourModesDiffer({ pictures, pressureVsDensity }, pressureIsDensity = false) {
	const hashes = new Set();
	for (const [mode, p] of Object.entries(pictures)) {
		assert.equal(p.mode, mode, 'the panel sets the colour mode');
		assert.ok(p.differ > 0.05, `${mode}: canvas not blank (${p.differ})`);
		if (mode !== 'pressure' || !pressureIsDensity) hashes.add(p.hash);
	}
	// the ramp (particles-gl.js) has green and blue in every colour; pure red is the value
	// itself, which the 2D splat pass stores in red for the composite pass to ramp
	for (const mode of ['speed', 'density', 'pressure'])
		assert.ok(pictures[mode].red < 0.01, `${mode}: drawn with the ramp (${pictures[mode].red} of the pixels pure red)`);
	const all = JSON.stringify({ pictures, pressureVsDensity });
	assert.equal(hashes.size, pressureIsDensity ? 3 : 4, `each colour mode draws its own picture: ${all}`);
	if (pressureIsDensity) {
		assert.ok(pressureVsDensity.largest <= 1 && pressureVsDensity.pixels <= pictures.density.drawn / 1000,
			`pressure draws density's picture, up to rounding: ${all}`);
	} else {
		// a picture of its own: not a few pixels of rounding, a tenth of the drawn pixels at least
		assert.ok(pressureVsDensity.pixels > pictures.density.drawn / 10, `pressure is not density: ${all}`);
	}
}

describe('demo page', () => {
	test('loads with no console errors, runs the default scene and draws it', async () => {
		const { page, errors } = await openDemo();
		await page.waitForFunction(() => window.demo.world.stepCount > 10 && window.demo.stats.stepsPerSecond > 0, null, { timeout: 60000 });
		const state = await page.evaluate(() => ({
			scene: window.demo.ui.scene, particles: window.demo.world.particleCount, materials: window.demo.world.materialCount,
			stats: document.getElementById('stats').textContent, coverage: window.demo.coverage(),
		}));
		assert.equal(state.scene, 'stratify', "reference 001's stratification is the default");
		assert.equal(state.materials, 3);
		assert.ok(state.particles > 1000);
		assert.match(state.stats, /fps .* steps\/s .* ms\/step/);
		assert.ok(state.coverage.differ > 0.05, `canvas not blank: ${state.coverage.differ}`);
		assert.ok(state.coverage.colors >= 3, `canvas has ${state.coverage.colors} colours`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('a scripted mouse drag pulls the fluid toward the pointer', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break');
		const free = await page.evaluate((c) => {
			window.demo.reset();
			window.demo.step(40);
			return eval(c)();
		}, `(${centroid})`);
		await page.evaluate(() => window.demo.reset());
		// press in the water column (x in [-16, -6]) and drag out of it to the right
		const from = await screenPoint(page, -8, -7), to = await screenPoint(page, -3, -7);
		await page.mouse.move(from.x, from.y);
		await page.mouse.down();
		await page.mouse.move(to.x, to.y, { steps: 5 });
		const dragged = await page.evaluate((c) => {
			window.demo.step(40);
			return eval(c)();
		}, `(${centroid})`);
		await page.mouse.up();
		assert.ok(dragged.x > free.x + 0.1, `centre of mass x: ${dragged.x} with the drag, ${free.x} without`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('the parameter panel changes the simulation', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break');
		const control = await page.evaluate(() => {
			window.demo.reset();
			window.demo.step(30);
			return window.demo.world.hash();
		});
		await page.evaluate(() => window.demo.reset());
		const input = controller(page, 'World', 'gravity x').locator('input');
		await input.fill('25');
		await input.press('Enter');
		const changed = await page.evaluate(() => {
			window.demo.step(30);
			return { gravity: window.demo.world.def.gravity, hash: window.demo.world.hash() };
		});
		assert.equal(changed.gravity.x, 25);
		assert.notEqual(changed.hash, control);

		// a material preset from the panel reaches the engine
		await controller(page, '0: water', 'preset').locator('select').selectOption('lava');
		const lava = await page.evaluate(() => window.demo.world.getMaterial(0));
		assert.equal(lava.viscosity_sigma, 3);
		assert.equal(lava.color, 0xff5a1f);
		const sigma = controller(page, '0: water', 'viscosity_sigma').locator('input');
		await sigma.fill('1.25');
		await sigma.press('Enter');
		assert.equal(await page.evaluate(() => window.demo.world.getMaterial(0).viscosity_sigma), 1.25);

		// the container's wall parameters too (its folder starts closed)
		await page.locator('.lil-gui .title:text-is("Container and obstacles")').click();
		const friction = controller(page, '0: box container', 'friction').locator('input');
		await friction.fill('0.25');
		await friction.press('Enter');
		assert.equal(await page.evaluate(() => window.demo.world.getBoundary(0).friction), 0.25);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('every shipped scene loads from the scene picker and runs', async () => {
		const { page, errors } = await openDemo('?paused=1');
		const names = await page.evaluate(() => fetch('/scenes/index.json').then((r) => r.json()));
		assert.ok(names.length > 0);
		const picker = controller(page, 'Scene', 'scene').locator('select');
		for (const file of names) {
			const name = file.replace(/\.json$/, '');
			await picker.selectOption(name);
			await page.waitForFunction((n) => window.demo.ui.scene === n && window.demo.world.stepCount === 0, name, { timeout: 30000 });
			const s = await page.evaluate(() => {
				window.demo.step(10);
				const stats = window.demo.world.stats();
				return { particles: stats.particles, nonFinite: stats.non_finite, coverage: window.demo.coverage().differ };
			});
			assert.ok(s.particles > 0, `${name}: particles`);
			assert.equal(s.nonFinite, 0, `${name}: finite`);
			assert.ok(s.coverage > 0.01, `${name}: drawn (${s.coverage})`);
		}
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('each colour mode (material, speed, density, pressure) draws its own picture', async () => {
		// stratify: three materials of different rest densities, so density and pressure (each
		// scaled to its own range) do not draw the same ramp; moving after 60 steps
		const { page, errors } = await openDemo('?paused=1');
		await page.evaluate(() => window.demo.step(60));
		assertColourModesDiffer(await pictureOfEachColourMode(page));
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('tools: spawn adds particles, a dropped box falls and lands, erase (key 5) removes', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break');
		await controller(page, 'Tool (right button repels, b drops a box)', 'left button / touch (1-5)').locator('select').selectOption('spawn');
		const before = await page.evaluate(() => window.demo.world.particleCount);
		const spot = await screenPoint(page, 5, 5);
		await page.mouse.move(spot.x, spot.y);
		await page.mouse.down();
		await page.evaluate(() => window.demo.step(20));
		await page.mouse.up();
		const spawned = await page.evaluate(() => window.demo.world.particleCount);
		assert.ok(spawned > before + 50, `spawned ${spawned - before}`);

		await page.mouse.move(spot.x, spot.y);
		await page.keyboard.press('b');
		const box = await page.evaluate(() => {
			const ids = window.demo.tools.boxes.map((b) => b.id);
			const y0 = window.demo.world.getBoundary(ids[0]).position.y;
			window.demo.step(150);
			return { count: ids.length, y0, y1: window.demo.world.getBoundary(ids[0]).position.y, resting: window.demo.tools.boxes[0].resting };
		});
		assert.equal(box.count, 1);
		assert.ok(box.y1 < box.y0 - 5, `box fell from ${box.y0} to ${box.y1}`);
		assert.ok(box.resting, 'box landed');

		// keys 1-5 pick the tool too, and the panel follows
		await page.keyboard.press('5');
		assert.equal(await controller(page, 'Tool (right button repels, b drops a box)', 'left button / touch (1-5)').locator('select').inputValue(), 'erase');
		const low = await screenPoint(page, -11, -8);
		const n0 = await page.evaluate(() => window.demo.world.particleCount);
		await page.mouse.move(low.x, low.y);
		await page.mouse.down();
		await page.evaluate(() => window.demo.step(1));
		await page.mouse.up();
		assert.ok((await page.evaluate(() => window.demo.world.particleCount)) < n0, 'erased');
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('touch: two fingers each get an engine pointer and both act on the fluid', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break');
		const fingers = [await screenPoint(page, -8, -7), await screenPoint(page, -12, 4)];
		const touch = (type, id, p) => page.evaluate(([t, i, x, y]) => {
			window.demo.canvas.dispatchEvent(new PointerEvent(t, { pointerId: i, pointerType: 'touch', clientX: x, clientY: y, button: 0, bubbles: true }));
		}, [type, id, p.x, p.y]);
		const run = async (ids) => {
			await page.evaluate(() => window.demo.reset());
			for (const i of ids) await touch('pointerdown', 10 + i, fingers[i]);
			const r = await page.evaluate(() => {
				const slots = [...window.demo.tools.active.values()].map((a) => a.slot).sort();
				window.demo.step(20);
				return { slots, hash: window.demo.world.hash() };
			});
			for (const i of ids) await touch('pointerup', 10 + i, fingers[i]);
			return r;
		};
		const one = await run([0]), two = await run([0, 1]);
		assert.deepEqual(one.slots, [0]);
		assert.deepEqual(two.slots, [0, 1]);
		assert.notEqual(two.hash, one.hash, 'the second finger changes the flow');
		assert.equal(await page.evaluate(() => window.demo.tools.active.size), 0, 'lifting the fingers frees the pointers');
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('threads: the threaded build runs 2 and 4 threads and matches 1 thread bit for bit', async () => {
		const run = async (threads) => {
			const { page, errors } = await openDemo(`?paused=1&scene=dam-break&threads=${threads}`);
			const r = await page.evaluate(() => {
				window.demo.reset();
				window.demo.step(30);
				return { threaded: window.demo.puddle.threaded, threads: window.demo.world.threadCount, hash: window.demo.world.hash(),
					isolated: globalThis.crossOriginIsolated };
			});
			assert.deepEqual(errors, []);
			await page.close();
			return r;
		};
		const one = await run(1), two = await run(2), four = await run(4);
		assert.equal(two.isolated, true, 'server.mjs makes the page cross-origin isolated');
		assert.equal(one.threaded, false);
		assert.equal(two.threaded, true);
		assert.equal(two.threads, 2);
		assert.equal(four.threads, 4);
		assert.equal(two.hash, one.hash);
		assert.equal(four.hash, one.hash);
	});

	test('threads: a page that is not cross-origin isolated runs the single-threaded build', async () => {
		const plain = await openBrowser({ isolate: false });
		try {
			const { page, errors } = await newPage(plain, '/demo/?paused=1&scene=dam-break&threads=2');
			await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
			const r = await page.evaluate(() => ({
				isolated: globalThis.crossOriginIsolated, threaded: window.demo.puddle.threaded, threads: window.demo.world.threadCount,
			}));
			assert.deepEqual(r, { isolated: false, threaded: false, threads: 1 });
			assert.deepEqual(errors, []);
		} finally {
			await plain.close();
		}
	});

	test('threads: worlds replaced without yielding neither hang nor lose the results', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break&threads=2');
		const r = await page.evaluate(() => {
			// each reset destroys a world and makes one in the same task: the first replacement
			// uses the spare workers, later ones run with fewer threads until the page yields
			const counts = [];
			for (let i = 0; i < 3; ++i) {
				window.demo.reset();
				counts.push(window.demo.world.threadCount);
			}
			window.demo.step(30);
			return { counts, hash: window.demo.world.hash() };
		});
		const single = await page.evaluate(async () => {
			await new Promise((resolve) => setTimeout(resolve, 50));
			window.demo.reset();
			window.demo.step(30);
			return { threads: window.demo.world.threadCount, hash: window.demo.world.hash() };
		});
		assert.equal(r.counts[0], 2);
		assert.ok(r.counts.every((n) => n >= 1));
		assert.equal(single.threads, 2, 'workers are back after the page yields');
		assert.equal(r.hash, single.hash);
		assert.deepEqual(errors, []);
		await page.close();
	});
});

describe('demo page, 3D', () => {
	const FIXTURE = '?paused=1&sceneUrl=/test/fixtures/scene-3d.json';
	// Runs in the page: a cheap fingerprint of the canvas pixels.
	const pixels = () => {
		window.demo.render();
		const gl = window.demo.renderer3d.gl, c = window.demo.canvas;
		const data = new Uint8Array(c.width * c.height * 4);
		gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, data);
		let sum = 0;
		for (let i = 0; i < data.length; i += 4) sum = (sum * 31 + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) % 1000000007;
		return sum;
	};

	test('a 3D scene loads from ?sceneUrl=, draws shaded spheres, and an orbit (right drag) changes the picture', async () => {
		const { page, errors } = await openDemo(FIXTURE);
		const state = await page.evaluate(() => {
			window.demo.step(10);
			return {
				scene: window.demo.ui.scene, dimensions: window.demo.world.dimensions, camera: { ...window.demo.orbit.camera },
				coverage: window.demo.coverage(), listed: window.demo.sceneNames.includes('scene-3d'),
				help: document.getElementById('help').textContent,
			};
		});
		assert.equal(state.scene, 'scene-3d');
		assert.equal(state.dimensions, 3);
		assert.ok(state.listed, 'the picker lists the extra scene');
		assert.equal(state.camera.yaw, 20, "the scene's camera");
		assert.ok(state.coverage.differ > 0.05, `canvas not blank: ${state.coverage.differ}`);
		assert.ok(state.coverage.colors >= 16, `shaded: ${state.coverage.colors} colours`);
		assert.match(state.help, /orbit/);

		const before = await page.evaluate(`(${pixels})()`);
		const box = await page.locator('#view').boundingBox();
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		await page.mouse.down({ button: 'right' });
		await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 4 });
		await page.mouse.up({ button: 'right' });
		const after = await page.evaluate(() => ({ camera: { ...window.demo.orbit.camera }, coverage: window.demo.coverage().differ }));
		assert.ok(Math.abs(after.camera.yaw - 20) > 10, `yaw ${after.camera.yaw}`);
		assert.ok(after.camera.pitch > 30, `pitch ${after.camera.pitch}`);
		assert.ok(after.coverage > 0.05, 'still drawn');
		assert.notEqual(await page.evaluate(`(${pixels})()`), before, 'the picture changed');
		// the panel's camera folder shows the new yaw; "reset" goes back to the scene's camera
		assert.equal(Number(await controller(page, 'Camera', 'yaw (deg)').locator('input').inputValue()), after.camera.yaw);
		await controller(page, 'Camera', "reset to the scene's camera").locator('button').click();
		assert.equal(await page.evaluate(() => window.demo.orbit.camera.yaw), 20);

		// the wheel zooms
		const d0 = await page.evaluate(() => window.demo.orbit.camera.distance);
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		await page.mouse.wheel(0, 300);
		await page.waitForFunction((d) => window.demo.orbit.camera.distance > d, d0);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('left drag sends a pointer ray from the eye that pushes the fluid (repel tool)', async () => {
		const { page, errors } = await openDemo(FIXTURE);
		const com = () => {
			window.demo.step(30);
			return window.demo.world.stats().centre_of_mass;
		};
		const free = await page.evaluate((c) => {
			window.demo.reset();
			return eval(c)();
		}, `(${com})`);
		await page.keyboard.press('2'); // repel
		await page.evaluate(() => window.demo.reset());
		// aim at the water column's right side (x = -3) and press
		const at = await page.evaluate(() => {
			const r = window.demo.canvas.getBoundingClientRect();
			const p = window.demo.orbit.toCss(-2.5, -3, 0);
			return { x: r.left + p.x, y: r.top + p.y };
		});
		await page.mouse.move(at.x, at.y);
		await page.mouse.down();
		const pushed = await page.evaluate((c) => {
			const slot = [...window.demo.tools.active.values()][0];
			const p = window.demo.world.particles();
			return { com: eval(c)(), ray: !!slot?.dir, eye: slot?.eye, n: p.count };
		}, `(${com})`);
		await page.mouse.up();
		assert.ok(pushed.ray, 'the held pointer is a ray');
		const eye = await page.evaluate(() => {
			const { cameraEye } = window.demo.cameraTools;
			return cameraEye(window.demo.orbit.camera);
		});
		assert.deepEqual(pushed.eye, eye, 'the ray starts at the eye');
		assert.ok(pushed.com.x < free.x - 0.05, `centre of mass x: ${pushed.com.x} with the ray, ${free.x} without`);
		assert.equal(await page.evaluate(() => window.demo.tools.active.size), 0);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('touch in 3D: one finger uses the tool, two fingers pinch-zoom the camera', async () => {
		const { page, errors } = await openDemo(FIXTURE);
		const box = await page.locator('#view').boundingBox();
		const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
		const touch = (type, id, x, y) => page.evaluate(([t, i, px, py]) => {
			window.demo.canvas.dispatchEvent(new PointerEvent(t, { pointerId: i, pointerType: 'touch', clientX: px, clientY: py, button: 0, bubbles: true }));
		}, [type, id, x, y]);
		await touch('pointerdown', 21, cx - 40, cy);
		assert.equal(await page.evaluate(() => window.demo.tools.active.size), 1, 'one finger: the tool');
		const d0 = await page.evaluate(() => window.demo.orbit.camera.distance);
		await touch('pointerdown', 22, cx + 40, cy);
		assert.equal(await page.evaluate(() => window.demo.tools.active.size), 0, 'two fingers: the camera');
		await touch('pointermove', 22, cx + 120, cy);
		const d1 = await page.evaluate(() => window.demo.orbit.camera.distance);
		assert.ok(d1 < d0 * 0.8, `spreading the fingers zooms in: ${d0} -> ${d1}`);
		await touch('pointerup', 21, cx - 40, cy);
		await touch('pointerup', 22, cx + 120, cy);
		assert.equal(await page.evaluate(() => window.demo.orbit.gesture.size), 0);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('each colour mode draws its own picture in 3D too', async () => {
		// the fixture's two materials differ in mass only: pressure draws density's picture
		const { page, errors } = await openDemo(FIXTURE);
		await page.evaluate(() => window.demo.step(30));
		assertColourModesDiffer(await pictureOfEachColourMode(page), true);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('switching from a 3D scene back to a 2D one keeps the 2D view', async () => {
		const { page, errors } = await openDemo(FIXTURE);
		// the picker sets ui.scene at once and loads the scene after a fetch: wait for the new
		// world itself (the 3D one may not have stepped yet either)
		await page.evaluate(() => { window.worldBefore = window.demo.world; });
		await controller(page, 'Scene', 'scene').locator('select').selectOption('dam-break');
		await page.waitForFunction(() => window.demo.world !== window.worldBefore && window.demo.ui.scene === 'dam-break' && window.demo.world.stepCount === 0, null, { timeout: 30000 });
		const s = await page.evaluate(() => {
			window.demo.step(5);
			return { dimensions: window.demo.world.dimensions, coverage: window.demo.coverage().differ, camera: window.demo.orbit.camera };
		});
		assert.equal(s.dimensions, 2);
		assert.equal(s.camera, null);
		assert.ok(s.coverage > 0.05);
		assert.deepEqual(errors, []);
		await page.close();
	});
});
