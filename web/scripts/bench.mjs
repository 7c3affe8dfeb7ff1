// How many particles hold 60 steps/s in headless Chromium (Debian's, through playwright-core),
// single-threaded and with threads. For each thread count it times the scene at a ladder of
// particle counts (demo/bench.html: median ms of one World.step(), drawing off), then narrows
// down the largest count whose median stays within 1000/60 ms by bisection.
//
//   node scripts/bench.mjs [--scene dam-break] [--threads 1,2] [--frames 100] [--trials 5]
//
// Each count runs `frames` frames split into `trials` runs and keeps the lowest run median (see
// demo/bench.js): on a machine shared with other work that is the closest to an idle machine.
// Prints one line per measurement, the load average, the summary and the size of the wasm + JS.
import { loadavg } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { openBrowser } from '../test/browser.mjs';

const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : fallback;
};
const scene = arg('scene', 'dam-break');
const threadCounts = arg('threads', '1,2').split(',').map(Number);
const frames = Number(arg('frames', 100));
const trials = Number(arg('trials', 5));
const BUDGET_MS = 1000 / 60;
const LADDER = [2500, 5000, 10000, 15000, 20000, 30000, 40000, 60000, 80000];

const browser = await openBrowser();
async function measure(threads, counts) {
	const page = await browser.context.newPage();
	try {
		await page.goto(`${browser.url}/demo/bench.html?scene=${scene}&threads=${threads}&frames=${frames}&trials=${trials}&particles=${counts.join(',')}`);
		const result = await page.evaluate(() => window.benchResult);
		for (const r of result.rows)
			console.log(`  ${String(r.particles).padStart(6)} particles  ${r.threads} thread(s)  ${r.medianMs.toFixed(2).padStart(7)} ms/step  ${r.stepsPerSecond.toFixed(1).padStart(6)} steps/s${r.valid ? '' : '  (NaN!)'}`);
		return result;
	} finally {
		await page.close();
	}
}

const summary = [];
try {
	for (const threads of threadCounts) {
		console.log(`${scene}, ${threads} thread(s):`);
		const ladder = await measure(threads, LADDER);
		if (threads > 1 && !ladder.threaded) console.log('  (threads unavailable: the page is not cross-origin isolated)');
		const rows = ladder.rows;
		let lo = 0, hi = Infinity;
		for (const r of rows) {
			if (r.medianMs <= BUDGET_MS) lo = Math.max(lo, r.particles);
			else hi = Math.min(hi, r.particles);
		}
		// bisection between the last count that held 60 steps/s and the first that did not
		for (let i = 0; i < 4 && Number.isFinite(hi) && hi - lo > 0.05 * hi; ++i) {
			const mid = Math.round((lo + hi) / 2);
			const r = (await measure(threads, [mid])).rows[0];
			if (r.medianMs <= BUDGET_MS) lo = r.particles;
			else hi = r.particles;
		}
		summary.push({ threads: rows[0]?.threads ?? threads, particles: lo, substeps: rows[0]?.substeps });
	}
} finally {
	await browser.close();
}

const web = fileURLToPath(new URL('../', import.meta.url));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`\nparticles holding 60 steps/s (median step <= ${BUDGET_MS.toFixed(1)} ms, best of ${trials} runs), scenes/${scene}.json, ` +
	`${summary[0]?.substeps} substep(s) per step, headless Chromium; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}:`);
for (const s of summary) console.log(`  ${s.threads} thread(s): ${s.particles}`);
const files = [...readdirSync(web + 'dist').filter((f) => /\.(wasm|mjs|js)$/.test(f)).map((f) => `dist/${f}`), 'src/puddle.js', 'src/scene.js'];
console.log('\nwhat the module ships (size, gzip -9):');
for (const f of files) {
	const bytes = readFileSync(web + f);
	console.log(`  ${f.padEnd(30)} ${kib(bytes.length).padStart(10)} ${kib(gzipSync(bytes, { level: 9 }).length).padStart(10)}`);
}
