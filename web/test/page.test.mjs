// The demo page in Debian's headless Chromium (SwiftShader WebGL 2): it loads cleanly and draws,
// a scripted drag moves the fluid, the panel changes the simulation, every shipped scene loads,
// a DFSPH scene runs (and prints the page's frames/s), the Solver folder switches Clavet, SPH
// and DFSPH and the water preset runs DFSPH,
// the tools work, the box tool drops an engine body that is drawn, floats, and can be grabbed and
// thrown (test/fixtures/pool.json), every colour mode draws its own picture, and the threaded
// build gives the single-threaded build's results. 3D: the test fixture (test/fixtures/scene-3d.json, loaded with
// ?sceneUrl=) draws, an orbit changes the picture, the wheel zooms, a left drag sends a pointer
// ray that moves the fluid, touch works, every colour mode draws its own picture. Layout: no panel
// title wraps and no label overflows; the scene description shows in full and, with the help
// line, under the canvas, clear of the tank; the stats say when the page runs below real time.
// Tests that compare runs pause the page (?paused=1) and step it explicitly, so they do not
// depend on how fast this machine renders.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, openBrowser, openDemoPage } from './browser.mjs';

let browser;
before(async () => {
	browser = await openBrowser();
});
after(async () => {
	await browser?.close();
});

const openDemo = (query = '') => openDemoPage(browser, query);

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

/**
 * Waits until the page has the move of a held pointer to (x, y) (page pixels): Chromium hands
 * pointer moves to the page with its next frame, which a loaded machine draws late, so a step
 * right after page.mouse.move could still pull towards a point on the way.
 */
async function pointerMoved(page, x, y) {
	await page.waitForFunction(([px, py]) => [...window.demo.tools.active.values()]
		.some((a) => Math.abs(a.clientX - px) <= 1 && Math.abs(a.clientY - py) <= 1), [x, y], { timeout: 10000 });
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

// the panel's tool folder
const TOOL = 'Tool';
// the default body colour (pdl_default_body_def: wood)
const WOOD = 0xb5651d;

/**
 * Runs in the page: renders, then counts the canvas pixels within `reach` CSS pixels of the CSS
 * point (x, y) (the whole canvas without x) that are `color` (0xRRGGBB) to within 12 levels a
 * channel, or with `hue`, any shade of it (the lit 3D faces): channel ratios to red within 0.06.
 */
const colourPixels = ({ color, x, y, reach = 1e9, hue = false }) => {
	window.demo.render();
	const gl = window.demo.renderer.gl, c = window.demo.canvas, k = c.width / c.clientWidth;
	const data = new Uint8Array(c.width * c.height * 4);
	gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, data);
	const want = [(color >> 16) & 255, (color >> 8) & 255, color & 255];
	let n = 0;
	for (let row = 0; row < c.height; ++row) {
		for (let col = 0; col < c.width; ++col) {
			// readPixels' rows run from the bottom
			if (x !== undefined && Math.hypot(col / k - x, (c.height - 1 - row) / k - y) > reach) continue;
			const i = 4 * (row * c.width + col), px = [data[i], data[i + 1], data[i + 2]];
			const match = hue
				? px[0] > 40 && [1, 2].every((ch) => Math.abs(px[ch] / px[0] - want[ch] / want[0]) < 0.06)
				: px.every((v, ch) => Math.abs(v - want[ch]) <= 12);
			if (match) ++n;
		}
	}
	return n;
};

describe('demo page', () => {
	test('loads with no console errors, runs the default scene and draws it', async () => {
		const { page, errors } = await openDemo();
		await page.waitForFunction(() => window.demo.world.stepCount > 10 && window.demo.stats.stepsPerSecond > 0, null, { timeout: 60000 });
		const state = await page.evaluate(() => ({
			scene: window.demo.ui.scene, particles: window.demo.world.particleCount, materials: window.demo.world.materialCount,
			stats: document.getElementById('stats').textContent, coverage: window.demo.coverage(),
		}));
		assert.equal(state.scene, 'stratify', 'the stratification is the default');
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
		await pointerMoved(page, to.x, to.y);
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
		const sigma = controller(page, '0: water', 'viscosity sigma').locator('input');
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

	test('a scene the page does not have, or cannot run (CUDA), is named on the page, and the default scene runs', async () => {
		const cases = [
			['?scene=nosuch&paused=1', /^scene "nosuch" is not one of the shipped scenes \(.*\bblobs\b.*\bstratify\b.*\); showing stratify$/],
			['?paused=1&sceneUrl=/test/fixtures/cuda.json',
				/^test\/fixtures\/cuda\.json: solver\.backend: the web build steps on the processor: run CUDA scenes with the puddle command, got "cuda"; showing stratify$/],
			// the C scene layer's messages, as the puddle command prints them
			['?paused=1&sceneUrl=/test/fixtures/misspelt.json', /^test\/fixtures\/misspelt\.json: materials\[0\]\.stifness: unknown key \(did you mean "stiffness"\?\); showing stratify$/],
			['?paused=1&sceneUrl=/test/fixtures/wide-emitter.json',
				/^test\/fixtures\/wide-emitter\.json: emitters\[0\]\.width: makes rows of about 2\.84e\+09 particles, more than solver\.max_particles = 1000000, got 1e\+09; showing stratify$/],
		];
		for (const [query, message] of cases) {
			const { page, errors } = await newPage(browser, `/demo/${query}`);
			await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
			const shown = await page.evaluate(() => ({
				hidden: document.getElementById('error').hidden,
				text: document.getElementById('error').textContent,
				scene: window.demo.ui.scene,
				particles: window.demo.world.particleCount,
			}));
			assert.equal(shown.hidden, false, `${query}: the message is shown (${shown.text})`);
			assert.match(shown.text, message, query);
			assert.equal(shown.scene, 'stratify');
			assert.ok(shown.particles > 0);
			// (the browser logs the 404 of the missing file itself)
			assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
			await page.close();
		}
	});

	test('extreme numbers are refused in the page by the C rules, within a second', async () => {
		const { page, errors } = await openDemo('?paused=1');
		const results = await page.evaluate(async () => {
			const { resolveScene } = await import('/src/scene.js');
			const box = { materials: [{ name: 'w' }], container: { shape: 'box', half_extents: [10, 6] } };
			const box3d = { world: { dimensions: 3 }, materials: [{ name: 'w' }], container: { shape: 'box', half_extents: [10, 6, 6] } };
			const cases = [
				{ ...box, emitters: [{ position: [0, 0], velocity: [0, -1], width: 1e9, stop: 5 }] },
				{ ...box3d, emitters: [{ position: [0, 0, 0], velocity: [0, -1, 0], width: 25000, stop: 5 }] },
				{ ...box, output: { seconds: 1e-300 } },
				{ ...box, strokes: [{ end: 1, points: [[0, 0]], radius: 1e-300 }] },
			];
			return cases.map((json) => {
				const t0 = performance.now();
				try {
					resolveScene(window.demo.puddle, json, 'x.json');
					return { accepted: true };
				} catch (e) {
					return { ms: performance.now() - t0, path: e.path, name: e.name };
				}
			});
		});
		assert.deepEqual(results.map((r) => [r.name, r.path]), [['SceneError', 'emitters[0].width'], ['SceneError', 'emitters[0].width'],
			['SceneError', 'output.seconds'], ['SceneError', 'strokes[0].radius']]);
		for (const r of results) assert.ok(r.ms < 1000, `refused in ${r.ms} ms`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	// (the description's checks ride on this pass over the scenes: building each scene's world is
	// most of its time, and a second pass over them for the description took 25 s)
	test("every shipped scene loads from the scene picker and runs, and shows its description's whole text under the canvas", async () => {
		const { page, errors } = await openDemo('?paused=1');
		const names = await page.evaluate(() => fetch('/scenes/index.json').then((r) => r.json()));
		assert.ok(names.length > 0);
		assert.deepEqual(await page.evaluate(() => window.demo.sceneNames), names.map((f) => f.replace(/\.json$/, '')));
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
			// the description: all of its text, under the canvas
			const shown = await page.evaluate(() => {
				const about = document.getElementById('about'), foot = about.parentElement, style = getComputedStyle(about);
				const a = about.getBoundingClientRect(), c = window.demo.canvas.getBoundingClientRect();
				return {
					text: about.textContent, description: window.demo.scene.description,
					overflow: [about.scrollHeight, about.clientHeight, about.scrollWidth, about.clientWidth],
					footOverflow: [foot.scrollHeight, foot.clientHeight],
					clamp: style.webkitLineClamp, ellipsis: style.textOverflow,
					visible: style.display !== 'none' && a.height > 0, onPage: a.bottom <= innerHeight + 0.5, belowCanvas: a.top >= c.bottom - 0.5,
				};
			});
			assert.ok(shown.description.length > 0, `${name} has a description`);
			assert.equal(shown.text, shown.description, name);
			assert.ok(shown.visible && shown.onPage, `${name}: shown on the page`);
			const [sh, ch, sw, cw] = shown.overflow;
			assert.ok(sh <= ch + 1 && sw <= cw + 1, `${name}: all of it shows (${sh}x${sw} in ${ch}x${cw})`);
			assert.ok(shown.clamp === 'none' && shown.ellipsis !== 'ellipsis', `${name}: not clamped (${shown.clamp}, ${shown.ellipsis})`);
			assert.ok(shown.footOverflow[0] <= shown.footOverflow[1] + 1, `${name}: its box shows all of it (${shown.footOverflow})`);
			assert.ok(shown.belowCanvas, `${name}: under the canvas, not over it`);
		}
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('a DFSPH scene runs on the page: the water falls and spreads, none is lost, the stats show the solver and its density error', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dfsph-dam-break');
		const before = await page.evaluate(centroid);
		const start = await page.evaluate(() => ({ solver: window.demo.world.def.solver, n: window.demo.world.particleCount }));
		assert.equal(start.solver, 2, 'DFSPH (Solver.DFSPH)');
		const after = await page.evaluate(() => {
			window.demo.step(60);
			const s = window.demo.world.stats();
			return { n: s.particles, nonFinite: s.non_finite, steps: s.steps, mean: s.mean_density_error };
		});
		const moved = await page.evaluate(centroid);
		assert.equal(after.n, start.n, 'no particle lost');
		assert.equal(after.nonFinite, 0);
		assert.ok(after.steps >= 60, `the CFL rule takes at least a substep a frame (${after.steps} in 60 frames)`);
		// the column collapses: its centre moves right, along the floor, and down
		assert.ok(moved.x > before.x + 1 && moved.y < before.y - 0.5, `centre (${before.x.toFixed(2)}, ${before.y.toFixed(2)}) -> (${moved.x.toFixed(2)}, ${moved.y.toFixed(2)})`);
		// incompressible: the kernel's density error stays small (surface particles lack neighbours)
		assert.ok(after.mean < 0.05, `mean density error ${after.mean}`);
		await page.waitForFunction(() => /DFSPH · solve error \d+\.\d+ % · density error \d+\.\d+ % mean, \d+\.\d+ % max · \d+ iterations\/substep/
			.test(document.getElementById('stats').textContent)
			&& /substeps\/frame \(CFL\)/.test(document.getElementById('stats').textContent), null, { timeout: 10000 });
		// running, not paused: what a visitor sees (frames/s under SwiftShader, for the record;
		// not a timed test)
		await page.evaluate(() => {
			window.demo.ui.paused = false;
		});
		await page.waitForTimeout(4000);
		const rate = await page.evaluate(() => ({ ...window.demo.stats, text: document.getElementById('stats').textContent }));
		console.log(`# dfsph-dam-break on the page: ${rate.fps.toFixed(1)} fps, ${rate.msPerStep.toFixed(1)} ms/step, ${rate.particles} particles; ${rate.text.replace(/\n/g, ' | ')}`);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('the Solver folder switches Clavet, SPH and DFSPH live with their settings; the water preset runs DFSPH', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=blobs');
		const state = () => page.evaluate(() => {
			const w = window.demo.world, s = w.stats();
			return { solver: w.def.solver, substeps: w.def.substeps, sph: w.def.sph, n: s.particles, nonFinite: s.non_finite, steps: s.steps };
		});
		const clavet = await state();
		assert.equal(clavet.solver, 0);
		const picker = controller(page, 'Solver', 'solver').locator('select');
		const setNumber = async (name, value) => {
			const input = controller(page, 'Solver', name).locator('input');
			await input.fill(String(value));
			await input.press('Enter');
		};

		await picker.selectOption('dfsph');
		await setNumber('density tolerance', 0.001);
		await setNumber('max iterations', 50);
		await setNumber('viscosity', 0.2);
		let s = await state();
		assert.equal(s.solver, 2);
		assert.equal(s.substeps, 1, 'DFSPH starts from one substep; its CFL rule takes more');
		assert.equal(s.sph.density_tolerance, Math.fround(0.001));
		assert.equal(s.sph.max_iterations, 50);
		assert.equal(s.sph.viscosity, Math.fround(0.2));
		const ran = await page.evaluate(() => {
			window.demo.step(20);
			const st = window.demo.world.stats();
			return { n: st.particles, nonFinite: st.non_finite, steps: st.steps };
		});
		assert.equal(ran.n, clavet.n, 'the particles stay, none lost');
		assert.equal(ran.nonFinite, 0);
		assert.ok(ran.steps >= clavet.steps + 20);

		await picker.selectOption('sph');
		await setNumber('speed of sound', 80);
		s = await state();
		assert.equal(s.solver, 1);
		assert.equal(s.sph.speed_of_sound, 80);
		assert.equal(await controller(page, 'Solver', 'density tolerance').count(), 0, 'DFSPH settings gone under SPH');
		const sph = await page.evaluate(() => {
			window.demo.step(10);
			return window.demo.world.stats().non_finite;
		});
		assert.equal(sph, 0);

		await picker.selectOption('clavet');
		s = await state();
		assert.equal(s.solver, 0);
		assert.equal(s.substeps, clavet.substeps, "Clavet gets the scene's substeps back");

		// the material presets bring their solver: water runs DFSPH, lava Clavet
		const preset = controller(page, '0: water', 'preset').locator('select');
		await preset.selectOption('water');
		assert.equal((await state()).solver, 2);
		assert.equal(await picker.inputValue(), 'dfsph', 'the Solver folder shows it');
		await preset.selectOption('lava');
		assert.equal((await state()).solver, 0);
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('the panel has a slider for every declared one (demo/sliders.js), with its range scaled to the scene and its doc line', async () => {
		// a 2D scene with a container and obstacles, and a 3D one (gravity z, velocity z)
		for (const scene of ['obstacles', 'drop-3d']) {
			const { page, errors } = await openDemo(`?paused=1&scene=${scene}`);
			const check = (solver) => page.evaluate(async (solver) => {
				const { BOUNDARY_SLIDERS, MATERIAL_SLIDERS, SOLVER_SLIDERS, WORLD_SLIDERS } = await import('/demo/sliders.js');
				const { presetBasis, unitFactor } = await import('/demo/presets.js');
				const d = window.demo, panel = d.panel, w = d.world, three = w.dimensions === 3;
				if (solver !== undefined) panel.setSolver(solver);
				const folder = (title) => panel.gui.foldersRecursive().find((f) => f._title === title);
				const bad = [];
				// each slider of `sliders` in the folder titled `title`: present, over the declared range
				// times its scale (widened to the value it holds), its tooltip the doc line
				const expect = (title, sliders, values, basis) => {
					const f = folder(title);
					if (!f) return bad.push(`no folder ${title}`);
					for (const s of sliders) {
						const label = s.field.replaceAll('_', ' '), k = unitFactor(s.scale, basis);
						const parts = s.type === 'VEC3' ? (three ? ['x', 'y', 'z'] : ['x', 'y']).map((a) => [`${label} ${a}`, values[s.field][a]])
							: [[label, values[s.field]]];
						for (const [name, value] of parts) {
							const c = f.controllers.find((x) => x._name === name);
							if (!c) {
								bad.push(`${title}: no slider ${name}`);
								continue;
							}
							const lo = Math.min(s.min * k, value), hi = Math.max(s.max * k, value);
							if (Math.abs(c._min - lo) > 1e-9 * Math.abs(lo) || Math.abs(c._max - hi) > 1e-9 * Math.abs(hi))
								bad.push(`${title}: ${name} slides over [${c._min}, ${c._max}], declared [${lo}, ${hi}]`);
							if (!c.domElement.title.startsWith(s.doc)) bad.push(`${title}: ${name}'s tooltip is not its doc line`);
						}
					}
				};
				const basis = panel.worldBasis();
				expect('World', WORLD_SLIDERS, w.def, basis);
				const running = ['clavet', 'sph', 'dfsph'][w.def.solver];
				expect('Solver', SOLVER_SLIDERS.filter((s) => s.solvers.includes(running)), w.def.sph, basis);
				const others = SOLVER_SLIDERS.filter((s) => !s.solvers.includes(running)).map((s) => s.field.replaceAll('_', ' '));
				for (const c of folder('Solver').controllers) if (others.includes(c._name)) bad.push(`Solver: ${c._name} is not ${running}'s`);
				d.scene.materials.forEach((m, id) => expect(`${id}: ${m.name}`, MATERIAL_SLIDERS, w.getMaterial(id), presetBasis(d.scene)));
				const kinds = three ? ['sphere container', 'box container', 'sphere', 'box', 'polygon'] : ['circle container', 'box container', 'circle', 'box', 'polygon'];
				for (const b of w.boundaries()) expect(`${b.id}: ${kinds[b.kind]}`, BOUNDARY_SLIDERS, b, basis);
				return { bad, sliders: panel.gui.controllersRecursive().length };
			}, solver);
			for (const solver of [undefined, 'sph', 'dfsph', 'clavet']) {
				const { bad, sliders } = await check(solver);
				assert.deepEqual(bad, [], `${scene}, solver ${solver ?? "the scene's"} (${sliders} controllers)`);
			}
			assert.deepEqual(errors, []);
			await page.close();
		}
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

	test('tools: spawn adds particles, erase (key 5) removes', async () => {
		const { page, errors } = await openDemo('?paused=1&scene=dam-break');
		await controller(page, TOOL, 'left button / touch (1-5)').locator('select').selectOption('spawn');
		const before = await page.evaluate(() => window.demo.world.particleCount);
		const spot = await screenPoint(page, 5, 5);
		await page.mouse.move(spot.x, spot.y);
		await page.mouse.down();
		await page.evaluate(() => window.demo.step(20));
		await page.mouse.up();
		const spawned = await page.evaluate(() => window.demo.world.particleCount);
		assert.ok(spawned > before + 50, `spawned ${spawned - before}`);

		// keys 1-5 pick the tool too, and the panel follows
		await page.keyboard.press('5');
		assert.equal(await controller(page, TOOL, 'left button / touch (1-5)').locator('select').inputValue(), 'erase');
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

	test('bodies: the box tool drops an engine body, drawn in its colour, that falls and floats; attract grabs and throws it', async () => {
		const { page, errors } = await openDemo('?paused=1&sceneUrl=/test/fixtures/pool.json');
		await page.keyboard.press('4'); // box
		// the panel's next body: size 2 (half extents 1), density 0.5 (floats half under)
		const size = controller(page, TOOL, 'body size').locator('input');
		await size.fill('2');
		await size.press('Enter');
		const start = await screenPoint(page, 0, 3);
		const wood = (p, reach) => page.evaluate(`(${colourPixels})(${JSON.stringify({ color: WOOD, x: p.x, y: p.y, reach })})`);
		const canvas = await page.locator('#view').boundingBox();
		const local = (p) => ({ x: p.x - canvas.x, y: p.y - canvas.y });
		assert.equal(await wood(local(start), 6), 0, 'no body there yet');
		await page.mouse.click(start.x, start.y);
		const dropped = await page.evaluate(() => window.demo.bodies());
		assert.equal(dropped.length, 1, 'one body');
		const b0 = dropped[0];
		assert.ok(Math.hypot(b0.position.x, b0.position.y - 3) < 1e-4, `where clicked: ${JSON.stringify(b0.position)}`);
		assert.deepEqual([b0.half_extents.x, b0.half_extents.y, b0.density, b0.type], [1, 1, 0.5, 0], `as the panel says, dynamic: ${JSON.stringify(b0)}`);
		// drawn: a 2 x 2 h square is ~40 x 40 CSS pixels here; the 6-pixel disc round its centre is all wood
		assert.ok(await wood(local(start), 6) >= 100, 'the body is drawn in its colour');
		// the stats line is rewritten every half second of page time: wait for the next one
		await page.waitForFunction(() => document.getElementById('stats').textContent.includes('1 body'), null, { timeout: 5000 });

		// it falls into the pool and floats: the water's surface runs through it
		const floated = await page.evaluate(() => {
			window.demo.step(300);
			const y = Array.from(window.demo.world.positions().y).sort((a, b) => a - b);
			return { body: window.demo.bodies()[0], surface: y[Math.floor(0.98 * y.length)] };
		});
		const { body, surface } = floated;
		assert.ok(body.position.y < 3 && body.position.y > -8 + 1, `between the floor and its start: ${JSON.stringify(floated)}`);
		assert.ok(body.position.y - 1 < surface && body.position.y + 1 > surface, `floating across the surface: ${JSON.stringify(floated)}`);
		const there = await screenPoint(page, body.position.x, body.position.y);
		assert.ok(await wood(local(there), 6) >= 100, 'drawn over the water where it floats');

		// attract (key 1) on the body grabs it: no fluid pointer, the body follows the mouse
		await page.keyboard.press('1');
		await page.mouse.move(there.x, there.y);
		await page.mouse.down();
		const to = await screenPoint(page, 5, 4);
		await page.mouse.move(to.x, to.y, { steps: 4 });
		await pointerMoved(page, to.x, to.y);
		const held = await page.evaluate(() => {
			window.demo.step(40);
			return { tools: [...window.demo.tools.active.values()].map((a) => a.tool), body: window.demo.bodies()[0] };
		});
		assert.deepEqual(held.tools, ['grab']);
		assert.ok(Math.hypot(held.body.position.x - 5, held.body.position.y - 4) < 0.5, `held at the pointer: ${JSON.stringify(held.body.position)}`);
		// a quick move and let go: thrown along the move
		const far = await screenPoint(page, 9, 4);
		await page.mouse.move(far.x, far.y, { steps: 2 });
		await pointerMoved(page, far.x, far.y);
		await page.evaluate(() => window.demo.step(2));
		await page.mouse.up();
		const thrown = await page.evaluate(() => {
			window.demo.step(3);
			return { active: window.demo.tools.active.size, body: window.demo.bodies()[0] };
		});
		assert.equal(thrown.active, 0);
		assert.ok(thrown.body.linear_velocity.x > 10, `still flying after release: ${JSON.stringify(thrown.body.linear_velocity)}`);

		await controller(page, TOOL, 'remove every body').locator('button').click();
		assert.equal(await page.evaluate(() => window.demo.world.bodyCount), 0);
		// a body the engine refuses (reaching out of the tank) is reported, not thrown
		await controller(page, TOOL, 'left button / touch (1-5)').locator('select').selectOption('box');
		const corner = await screenPoint(page, 11.6, 0);
		await page.mouse.click(corner.x, corner.y);
		assert.match(await page.locator('#error').textContent(), /body.position must put the whole body inside the container/);
		assert.equal(await page.evaluate(() => window.demo.world.bodyCount), 0);
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

	test('threads: DFSPH on 2 threads matches 1 thread bit for bit', async () => {
		const run = async (threads) => {
			const { page, errors } = await openDemo(`?paused=1&scene=dfsph-dam-break&threads=${threads}`);
			const r = await page.evaluate(() => {
				window.demo.reset();
				window.demo.step(30);
				return { threads: window.demo.world.threadCount, hash: window.demo.world.hash() };
			});
			assert.deepEqual(errors, []);
			await page.close();
			return r;
		};
		const one = await run(1), two = await run(2);
		assert.equal(two.threads, 2);
		assert.equal(two.hash, one.hash);
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

	test('the box tool drops a body in 3D, drawn as a shaded box, and a left drag on it lifts it', async () => {
		const { page, errors } = await openDemo(FIXTURE);
		const shades = () => page.evaluate(`(${colourPixels})(${JSON.stringify({ color: WOOD, hue: true })})`);
		assert.ok((await shades()) < 50, 'nothing wood-coloured before');
		await page.keyboard.press('4');
		const aim = async (x, y, z) => page.evaluate(([wx, wy, wz]) => {
			const r = window.demo.canvas.getBoundingClientRect();
			const p = window.demo.orbit.toCss(wx, wy, wz);
			return { x: r.left + p.x, y: r.top + p.y };
		}, [x, y, z]);
		const at = await aim(0, 1, 0);
		await page.mouse.click(at.x, at.y);
		const body = await page.evaluate(() => window.demo.bodies()[0]);
		assert.ok(body, 'a body was dropped');
		assert.equal(body.half_extents.z, body.half_extents.x, 'a cube');
		const drawn = await shades();
		assert.ok(drawn > 500, `shades of wood drawn: ${drawn} pixels`);
		// lit: its faces are different shades
		const lit = await page.evaluate(`(${colourPixels})(${JSON.stringify({ color: WOOD })})`);
		assert.ok(lit < drawn, `shaded (${lit} of ${drawn} pixels the flat colour)`);

		await page.keyboard.press('1');
		const on = await aim(body.position.x, body.position.y, body.position.z);
		await page.mouse.move(on.x, on.y);
		await page.mouse.down();
		await page.mouse.move(on.x, on.y - 60, { steps: 3 });
		await pointerMoved(page, on.x, on.y - 60);
		const lifted = await page.evaluate(() => {
			const grabs = [...window.demo.tools.active.values()].map((a) => a.tool);
			window.demo.step(30);
			return { grabs, body: window.demo.bodies()[0] };
		});
		await page.mouse.up();
		assert.deepEqual(lifted.grabs, ['grab']);
		assert.ok(lifted.body.position.y > body.position.y + 1, `lifted: ${body.position.y} -> ${lifted.body.position.y}`);
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

// Issue 23, point 4: what the page shows around the canvas stays readable and off the tank.
describe('demo page, layout', () => {
	// Runs in the page: every folder open, then the folder titles that do not fit their one line
	// and the controller labels cut, run under their widget or out of the panel.
	const panelOverflows = () => {
		const gui = window.demo.panel.gui;
		gui.open();
		for (const f of gui.foldersRecursive()) f.open();
		const bad = [];
		const over = (e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
		for (const t of document.querySelectorAll('#side .lil-gui > .title'))
			if (over(t)) bad.push(`title "${t.textContent}": ${t.scrollWidth}x${t.scrollHeight} in ${t.clientWidth}x${t.clientHeight}`);
		for (const c of document.querySelectorAll('#side .controller')) {
			if (!c.offsetParent) continue; // hidden (the 2D-only render mode in 3D)
			const name = c.querySelector('.name'), widget = c.querySelector('.widget');
			const label = c.classList.contains('function') ? widget.querySelector('button') : name;
			const under = !c.classList.contains('function') && name.getBoundingClientRect().right > widget.getBoundingClientRect().left + 1;
			if (over(label) || over(c) || under)
				bad.push(`label "${name.textContent}": ${label.scrollWidth} in ${label.clientWidth}, row ${c.scrollWidth} in ${c.clientWidth}${under ? ', under its widget' : ''}`);
		}
		return { width: document.getElementById('side').clientWidth, bad };
	};

	test('panel: no folder title wraps and no label overflows, 2D and 3D, wide and narrow layouts', async () => {
		for (const isolate of [true, false]) { // the threads label differs where the page is not isolated
			const other = isolate ? null : await openBrowser({ isolate: false });
			const { page, errors } = other ? await newPage(other, '/demo/?paused=1') : await openDemo('?paused=1');
			await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
			// (the SPH and DFSPH scenes show their solvers' settings in the Solver folder)
			for (const scene of ['stratify', 'dam-break-3d', 'dfsph-dam-break', 'sph-dam-break']) {
				await page.evaluate((n) => window.demo.selectScene(n), scene);
				// the panel beside the canvas (260 px) and over it on narrow screens (240 px)
				for (const [width, height, panel] of [[800, 560, 260], [600, 700, 240]]) {
					await page.setViewportSize({ width, height });
					const { width: w, bad } = await page.evaluate(panelOverflows);
					assert.equal(w, panel, 'the layout');
					assert.deepEqual(bad, [], `${scene}, ${width} px wide${isolate ? '' : ', not isolated'}`);
				}
			}
			// the key hints moved from the tool folder's title into its tooltip
			const tip = await page.locator('#side .lil-gui > .title', { hasText: /^Tool$/ }).getAttribute('title');
			assert.match(tip, /1-5.*right button.*b: drop a body/);
			assert.deepEqual(errors, []);
			await page.close();
			await other?.close();
		}
	});

	test("the help line and the description leave the tank free, for every shipped scene and the 3D fixture", async () => {
		const { page, errors } = await openDemo('?paused=1&sceneUrl=/test/fixtures/scene-3d.json');
		const names = await page.evaluate(() => window.demo.sceneNames);
		assert.ok(names.includes('dam-break-3d') && names.includes('scene-3d'));
		// Each scene is selected once and measured at both sizes (selecting a scene builds its
		// world, most of this test's time): first at the size the page has, right after the
		// selection, then after resizing to the other one, so that every scene is measured at both
		// sizes, and both a new scene's layout and a resize's are checked. A layout that did not
		// follow a selection or a resize still puts a box over the tank here.
		const sizes = [[800, 560], [1280, 800]];
		await page.setViewportSize({ width: sizes[0][0], height: sizes[0][1] });
		let current = 0;
		for (const name of names) {
			await page.evaluate((n) => window.demo.selectScene(n), name);
			for (const k of [current, 1 - current]) {
				const [width, height] = sizes[k];
				if (k !== current) {
					await page.setViewportSize({ width, height });
					// (two frames: the page's resize handling has run)
					await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
					current = k;
				}
				const r = await page.evaluate(() => {
					const box = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
					return { tank: window.demo.tankRect(), help: box('help'), about: box('about'), dimensions: window.demo.scene.dimensions };
				});
				assert.ok(r.tank.right > r.tank.left && r.tank.bottom > r.tank.top, `${name}: a tank rectangle ${JSON.stringify(r.tank)}`);
				for (const what of ['help', 'about']) {
					const b = r[what];
					const overlap = Math.min(b.right, r.tank.right) - Math.max(b.left, r.tank.left) > 0.5 && Math.min(b.bottom, r.tank.bottom) - Math.max(b.top, r.tank.top) > 0.5;
					assert.ok(!overlap, `${name} (${r.dimensions}D, ${width}x${height}): ${what} ${JSON.stringify(b)} over the tank ${JSON.stringify(r.tank)}`);
				}
			}
		}
		assert.deepEqual(errors, []);
		await page.close();
	});

	test('the stats say when the page runs slower than real time, and stop saying it when paused', async () => {
		// 20,000 3D particles at 32 substeps a step: no machine steps that 60 times a second
		const { page, errors } = await openDemo('?scene=dam-break-3d&paused=1');
		const stats = () => page.evaluate(() => ({ text: document.getElementById('stats').textContent, realTime: window.demo.stats.realTime }));
		await page.waitForTimeout(2000);
		assert.doesNotMatch((await stats()).text, /real time/, 'paused from the start: no verdict');
		await controller(page, 'World', 'substeps').locator('input').fill('32');
		await controller(page, 'World', 'substeps').locator('input').press('Enter');
		await controller(page, 'Scene', 'most steps per frame').locator('input').fill('1');
		await controller(page, 'Scene', 'most steps per frame').locator('input').press('Enter');
		assert.equal(await page.evaluate(() => window.demo.world.def.substeps), 32);
		await page.evaluate(() => document.activeElement.blur()); // space in a text field types a space
		await page.keyboard.press(' ');
		await page.waitForFunction(() => /real time/.test(document.getElementById('stats').textContent), null, { timeout: 30000 });
		const slow = await stats();
		// the reason: the engine's time per step, or (where drawing is slower still) the frame rate
		assert.match(slow.text, /\nrunning at 0\.\d\dx real time \((the engine takes [\d.]+ ms per step of 16\.7 ms|\d+ frames\/s × at most 1 step per frame)\)$/);
		assert.ok(slow.realTime < 0.9, `${slow.realTime}`);
		assert.equal(Number(slow.text.match(/at (0\.\d\d)x/)[1]), Number(slow.realTime.toFixed(2)));
		// paused: the line goes at the next stats update and stays away
		await page.keyboard.press(' ');
		await page.waitForFunction(() => !/real time/.test(document.getElementById('stats').textContent), null, { timeout: 15000 });
		await page.waitForTimeout(2500);
		const paused = await stats();
		assert.doesNotMatch(paused.text, /real time/);
		assert.equal(paused.realTime, null);
		assert.deepEqual(errors, []);
		await page.close();
	});
});
