// The CPU a paused, idle demo page costs: opens it in headless Chromium (test/browser.mjs), waits
// for it to settle, then sums the user and system time of every process under this one (the
// browser's) over a window of wall seconds, from /proc (Linux).
//   node scripts/idle-cpu.mjs [QUERY] [SECONDS]     e.g. '?paused=1&scene=dam-break-3d' 20
import { readdirSync, readFileSync } from 'node:fs';
import { openBrowser, openDemoPage } from '../test/browser.mjs';

const query = process.argv[2] ?? '?paused=1';
const seconds = Number(process.argv[3] ?? 20);
const TICKS = 100; // USER_HZ

/** utime + stime, in clock ticks, of every live descendant of `root`. */
function treeTicks(root) {
	const children = new Map();
	const stat = new Map();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const s = readFileSync(`/proc/${name}/stat`, 'utf8');
			const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
			const ppid = Number(f[1]);
			stat.set(Number(name), Number(f[11]) + Number(f[12]));
			if (!children.has(ppid)) children.set(ppid, []);
			children.get(ppid).push(Number(name));
		} catch { /* gone */ }
	}
	let total = 0;
	const todo = [...(children.get(root) ?? [])];
	while (todo.length) {
		const pid = todo.pop();
		total += stat.get(pid) ?? 0;
		todo.push(...(children.get(pid) ?? []));
	}
	return total;
}

const browser = await openBrowser();
try {
	const { page } = await openDemoPage(browser, query);
	await page.waitForTimeout(3000);
	const t0 = treeTicks(process.pid), w0 = performance.now();
	await page.waitForTimeout(seconds * 1000);
	const cpu = (treeTicks(process.pid) - t0) / TICKS, wall = (performance.now() - w0) / 1000;
	const frames = await page.evaluate(() => window.demo.drawnFrames ?? null);
	console.log(`${query}: ${cpu.toFixed(2)} CPU s over ${wall.toFixed(1)} s of wall time (browser processes)` +
		(frames === null ? '' : `; ${frames} frames drawn since load`));
} finally {
	await browser.close();
}
