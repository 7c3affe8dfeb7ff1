// One liquid look (shaders/liquid/): the same frame of the same scene drawn by the three front
// ends, `puddle run` (software, io/src/render_liquid.c), the viewer (GL 3.3 under Mesa llvmpipe
// in xvfb-run) and this page (WebGL 2 under SwiftShader in headless Chromium), compared pixel
// for pixel; and stratify-3d's three layers keep their own hues in each of them. The physics is
// the same bits in all three (native.test.mjs), so only the drawing differs.
//
// The frame: stratify-3d after FRAMES frames (10 s, the layers settled), 640 x 480. The viewer
// runs in a small window that a script enlarges for the last frames (llvmpipe drawing every
// frame at full size doubled the run). Needs the native build (PUDDLE_BUILD, default ../build:
// apps/cli/puddle and apps/viewer/puddle-view) and xvfb-run; without them the test is skipped,
// saying what is missing (under PUDDLE_TEST_ALL=1 it fails instead).
//
// LOOK_FIGURE=FILE also writes the three pictures side by side (each halved), as
// docs/liquid-three.png is made; LOOK_DIR=DIR writes them whole (run.png, viewer.png,
// page.png), and LOOK_FROM=DIR compares those instead of drawing new ones.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openBrowser, openDemoPage } from './browser.mjs';
import { readPng, writePng } from './png.mjs';

// LOOK_SCENE and LOOK_FRAMES draw another scene's frame (for figures); the layers' hues are
// checked on stratify-3d only.
const SCENE = process.env.LOOK_SCENE ?? 'stratify-3d', FRAMES = Number(process.env.LOOK_FRAMES ?? 600), W = 640, H = 480;
const repo = fileURLToPath(new URL('../../', import.meta.url));
const build = process.env.PUDDLE_BUILD ?? join(repo, 'build');
const cli = join(build, 'apps/cli/puddle'), viewer = join(build, 'apps/viewer/puddle-view');
const which = (name) => {
	try {
		return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
	} catch {
		return '';
	}
};
const missing = [[cli, 'the native build (cmake --build build)'], [viewer, 'the viewer (make deps, cmake --build build)']]
	.filter(([f]) => !existsSync(f)).map(([f, how]) => `${f}: ${how}`);
if (!which('xvfb-run')) missing.push('xvfb-run (apt-get install xvfb xauth)');
const skip = missing.length && !process.env.PUDDLE_TEST_ALL && !process.env.LOOK_FROM ? `missing ${missing.join('; ')}` : false;

const scratch = mkdtempSync(join(tmpdir(), 'puddle-look-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function softwarePicture() {
	const png = join(scratch, 'run.png');
	execFileSync(cli, ['run', join(repo, 'scenes', `${SCENE}.json`), '--steps', String(FRAMES), '--size', `${W}x${H}`,
		'--png', png, '--out', join(scratch, 'run')], { stdio: ['ignore', 'ignore', 'pipe'] });
	return readPng(readFileSync(png));
}

function viewerPicture() {
	const png = join(scratch, 'viewer.png'), script = join(scratch, 'grow.script');
	writeFileSync(script, `${FRAMES - 5} resize ${W} ${H}\n`);
	execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', viewer, SCENE, '--frames', String(FRAMES), '--no-panel',
		'--size', '96x72', '--script', script, '--render', 'liquid', '--screenshot', png],
	{ stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1', SDL_AUDIODRIVER: 'dummy' } });
	const picture = readPng(readFileSync(png));
	assert.equal(`${picture.width}x${picture.height}`, `${W}x${H}`, 'the viewer drew the whole window');
	return picture;
}

async function pagePicture() {
	const browser = await openBrowser();
	try {
		const { page, errors } = await openDemoPage(browser, `?paused=1&scene=${SCENE}`);
		const url = await page.evaluate(([frames, w, h]) => {
			const demo = window.demo, canvas = demo.canvas;
			canvas.style.width = `${w}px`;
			canvas.style.height = `${h}px`;
			demo.step(frames);
			demo.render(); // toDataURL in the same task reads the frame just drawn
			return canvas.width === w && canvas.height === h ? canvas.toDataURL('image/png') : `size ${canvas.width}x${canvas.height}`;
		}, [FRAMES, W, H]);
		assert.ok(url.startsWith('data:image/png'), `the page drew ${W}x${H}: ${url}`);
		assert.deepEqual(errors, []);
		return readPng(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
	} finally {
		await browser.close();
	}
}

/** The picture averaged over k x k blocks. */
function shrink({ width, height, rgb }, k) {
	const w = Math.floor(width / k), h = Math.floor(height / k), out = new Uint8Array(w * h * 3);
	for (let y = 0; y < h; ++y)
		for (let x = 0; x < w; ++x)
			for (let c = 0; c < 3; ++c) {
				let sum = 0;
				for (let dy = 0; dy < k; ++dy) for (let dx = 0; dx < k; ++dx) sum += rgb[3 * ((y * k + dy) * width + x * k + dx) + c];
				out[3 * (y * w + x) + c] = Math.round(sum / (k * k));
			}
	return { width: w, height: h, rgb: out };
}

/** Mean absolute difference per channel (0..255) over the pixels `where` keeps. */
function meanDifference(a, b, where = () => true) {
	const sum = [0, 0, 0];
	let n = 0;
	for (let i = 0; i < a.width * a.height; ++i) {
		if (!where(i)) continue;
		for (let c = 0; c < 3; ++c) sum[c] += Math.abs(a.rgb[3 * i + c] - b.rgb[3 * i + c]);
		++n;
	}
	return sum.map((s) => s / Math.max(1, n));
}

/**
 * The water's pixels: coloured ones (max - min channel over 25 of 255). The scenery around it
 * (background, tank outline, floor grid) is grey in all three; the water's top, where it mostly
 * reflects the grey sky, is left out too.
 */
const chroma = (p, i) => Math.max(p.rgb[3 * i], p.rgb[3 * i + 1], p.rgb[3 * i + 2]) - Math.min(p.rgb[3 * i], p.rgb[3 * i + 1], p.rgb[3 * i + 2]);
const waterMask = (p) => (i) => chroma(p, i) > 25;

function hue(r, g, b) {
	const max = Math.max(r, g, b), d = max - Math.min(r, g, b);
	const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
	return (h * 60 + 360) % 360;
}

const hueGap = (a, b) => Math.abs(((a - b + 540) % 360) - 180);

/** Per hue in `hues`: the share of the water's pixels within 15 degrees of it, and their mean row. */
function hueShares(p, hues) {
	const wet = waterMask(p), count = hues.map(() => 0), rows = hues.map(() => 0);
	let n = 0;
	for (let i = 0; i < p.width * p.height; ++i) {
		if (!wet(i)) continue;
		const h = hue(p.rgb[3 * i], p.rgb[3 * i + 1], p.rgb[3 * i + 2]);
		++n;
		hues.forEach((t, k) => {
			if (hueGap(h, t) < 15) ++count[k], (rows[k] += Math.floor(i / p.width));
		});
	}
	return hues.map((_, k) => ({ share: count[k] / Math.max(1, n), row: rows[k] / Math.max(1, count[k]) }));
}

// The bounds, of 255 per channel (pictures averaged over 4 x 4 blocks) and in degrees of hue.
// Measured (frame 600, 640 x 480): the water overlaps 51-71% pair by pair and differs by 5-9
// levels in red and green and 13-18 in blue over it; over the frame by up to 28, the scenery's
// (the viewer clears to the scene's wall colour, the page draws a floor grid that the water
// also refracts); each layer's hue holds 9-53% of the water's pixels.
const OVERLAP = 0.45, WATER = 22, FRAME = 32, LAYER_SHARE = 0.05;

test(`the three front ends draw ${SCENE}'s frame ${FRAMES} alike, each layer in its own hue`, { skip, timeout: 900000 }, async () => {
	const pictures = process.env.LOOK_FROM
		? Object.fromEntries(['run', 'viewer', 'page'].map((k) => [k, readPng(readFileSync(join(process.env.LOOK_FROM, `${k}.png`)))]))
		: { run: softwarePicture(), viewer: viewerPicture(), page: await pagePicture() };
	const small = Object.fromEntries(Object.entries(pictures).map(([k, p]) => [k, shrink(p, 4)]));
	if (process.env.LOOK_FIGURE) {
		const half = Object.values(pictures).map((p) => shrink(p, 2)), w = half[0].width, h = half[0].height;
		const rgb = new Uint8Array(3 * w * h * 3);
		half.forEach((p, k) => {
			for (let y = 0; y < h; ++y) rgb.set(p.rgb.subarray(3 * w * y, 3 * w * (y + 1)), 3 * (y * 3 * w + k * w));
		});
		writeFileSync(process.env.LOOK_FIGURE, writePng({ width: 3 * w, height: h, rgb }));
	}
	// the same frame: the water is where it is in the others, and looks alike there
	if (process.env.LOOK_DIR) for (const [k, p] of Object.entries(pictures)) writeFileSync(join(process.env.LOOK_DIR, `${k}.png`), writePng(p));
	const wet = Object.fromEntries(Object.entries(small).map(([k, p]) => [k, waterMask(p)]));
	const n = small.run.width * small.run.height, failures = [];
	for (const [a, b] of [['run', 'viewer'], ['run', 'page'], ['viewer', 'page']]) {
		const all = meanDifference(small[a], small[b]);
		const water = meanDifference(small[a], small[b], (i) => wet[a](i) || wet[b](i));
		let both = 0, either = 0;
		for (let i = 0; i < n; ++i) (wet[a](i) && wet[b](i) ? ++both : 0), (wet[a](i) || wet[b](i) ? ++either : 0);
		const overlap = both / Math.max(1, either);
		console.log(`# ${a} against ${b}: mean difference per channel (of 255) ${all.map((v) => v.toFixed(1)).join(' ')}` +
			` over the frame, ${water.map((v) => v.toFixed(1)).join(' ')} over the water; the water overlaps ${(100 * overlap).toFixed(0)}%`);
		if (!(overlap > OVERLAP)) failures.push(`${a}/${b}: the water in the same place (${(100 * overlap).toFixed(0)}% overlap)`);
		if (!(Math.max(...water) < WATER)) failures.push(`${a}/${b}: the water alike, per channel ${water.map((v) => v.toFixed(1))}`);
		if (!(Math.max(...all) < FRAME)) failures.push(`${a}/${b}: the frame alike, per channel ${all.map((v) => v.toFixed(1))}`);
	}
	// the layers, each in its own hue (within 15 degrees of its material's), heavy (#35d0d8, hue
	// 183) lowest, then medium (#3a6fe0, 221), light (#a45be0, 272) on top
	for (const [k, p] of SCENE === 'stratify-3d' ? Object.entries(pictures) : []) {
		const [heavy, medium, light] = hueShares(p, [183, 221, 272]);
		console.log(`# ${k}: of the water's pixels ${[heavy, medium, light].map((l) => `${(100 * l.share).toFixed(1)}%`).join(', ')}` +
			` in the heavy, medium, light hues, at mean rows ${[heavy, medium, light].map((l) => l.row.toFixed(0)).join(', ')}`);
		for (const [name, l] of Object.entries({ heavy, medium, light }))
			if (!(l.share > LAYER_SHARE)) failures.push(`${k}: the ${name} layer's hue on ${(100 * l.share).toFixed(1)}% of the water`);
		if (!(heavy.row > light.row)) failures.push(`${k}: the heavy layer's hue (row ${heavy.row.toFixed(0)}) below the light one's (${light.row.toFixed(0)})`);
	}
	assert.deepEqual(failures, []);
});
