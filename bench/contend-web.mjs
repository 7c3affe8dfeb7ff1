// The demo page's engine beside busy loops (issue 38): web/demo/bench.html in headless Chromium
// (web/test/browser.mjs) times the dam break scaled to PARTICLES with 1 and 2 threads (2: the
// page's main thread and one Web Worker), in turn with nothing else running and beside BUSY
// loops started with `setsid sh -c 'while :; do :; done'` (an autogroup of their own, as in
// bench/contend.sh); odd rounds run the quiet pass first. Writes every run to
// bench/results/contend-web.csv and prints the medians and the goal (2 threads beside the
// loops no slower than 1).
//
//   make -C web all && node bench/contend-web.mjs [--runs 5] [--particles 10000] [--frames 100] [--busy 1]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { openBrowser } from '../web/test/browser.mjs';

const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('runs', 5), particles = arg('particles', 10000), frames = arg('frames', 100), busy = arg('busy', 1);

const loops = [];
const startBusy = (n) => {
	for (let k = 0; k < n; ++k) loops.push(spawn('setsid', ['sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }));
};
const stopBusy = () => {
	for (const p of loops.splice(0)) p.kill();
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (v) => {
	const s = [...v].sort((a, b) => a - b);
	return s.length % 2 ? s[s.length >> 1] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};

const browser = await openBrowser();
async function measure(threads) {
	const page = await browser.context.newPage();
	try {
		await page.goto(`${browser.url}/demo/bench.html?scene=dam-break&threads=${threads}&frames=${frames}&warmup=20&trials=1&particles=${particles}`);
		const result = await page.evaluate(() => window.benchResult);
		if (threads > 1 && !result.threaded) throw new Error('threads unavailable: the page is not cross-origin isolated');
		return result.rows[0];
	} finally {
		await page.close();
	}
}

const rows = [];
try {
	for (let run = 1; run <= runs; ++run) {
		for (const n of run % 2 ? [0, busy] : [busy, 0]) {
			startBusy(n);
			await sleep(200);
			for (const threads of [1, 2]) {
				const r = await measure(threads);
				rows.push({ run, busy_loops: n, threads: r.threads, particles: r.particles, median_ms: r.medianMs, steps_per_s: r.stepsPerSecond, valid: r.valid ? 1 : 0 });
			}
			stopBusy();
		}
		console.error(`bench/contend-web.mjs: run ${run} of ${runs} done`);
	}
} finally {
	stopBusy();
	await browser.close();
}

const out = fileURLToPath(new URL('results/', import.meta.url));
mkdirSync(out, { recursive: true });
const columns = Object.keys(rows[0]);
writeFileSync(`${out}contend-web.csv`, [columns.join(','), ...rows.map((r) => columns.map((c) => r[c]).join(','))].join('\n') + '\n');
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; medians of ${runs} runs, ${frames} frames each:`);
console.log('| busy loops | threads | particles | ms/step | steps/s |\n|---|---|---|---|---|');
const steps = {};
for (const n of [0, busy])
	for (const threads of [1, 2]) {
		const mine = rows.filter((r) => r.busy_loops === n && r.threads === threads);
		steps[`${n},${threads}`] = median(mine.map((r) => r.steps_per_s));
		console.log(`| ${n} | ${threads} | ${mine[0].particles} | ${median(mine.map((r) => r.median_ms)).toFixed(2)} | ${steps[`${n},${threads}`].toFixed(1)} |`);
	}
const ratio = steps[`${busy},2`] / steps[`${busy},1`];
console.log(`- ${ratio >= 1 ? 'met' : 'NOT met'}: the page beside ${busy} busy loop(s): 2 threads no slower than 1: ${ratio.toFixed(2)}x`);
