// Engine speed in the browser, without drawing: a shipped scene scaled to each particle count
// (as `puddle bench` scales it natively), warmed up, then the median wall time of one
// World.step() (one frame of dt, all its substeps) over `frames` frames. With trials > 1 the
// frames are split into that many runs and the lowest run median is kept, which filters out
// other programs' load on a shared machine. 60 steps/s needs a median <= 16.7 ms.
// Query: ?scene=dam-break&threads=1&particles=5000,20000&frames=60&warmup=20&trials=1, and
// &dist=/dist/other/ to time another build of the engine (a folder like dist/) against this one.
import { loadPuddle } from '../src/puddle.js';
import { applyFrame, buildWorld, resolveScene, scaleToParticles } from '../src/scene.js';

const params = new URLSearchParams(location.search);
const sceneName = params.get('scene') ?? 'dam-break';
const threads = Number(params.get('threads') ?? 1);
const counts = (params.get('particles') ?? '5000,10000,20000').split(',').map(Number);
const frames = Number(params.get('frames') ?? 60);
const warmup = Number(params.get('warmup') ?? 20);
const trials = Math.max(1, Number(params.get('trials') ?? 1));

function median(values) {
	const v = [...values].sort((a, b) => a - b);
	return v.length % 2 ? v[v.length >> 1] : 0.5 * (v[v.length / 2 - 1] + v[v.length / 2]);
}

async function run() {
	const puddle = await loadPuddle({ threads, distUrl: params.get('dist') ?? undefined });
	const base = resolveScene(puddle, await (await fetch(`/scenes/${sceneName}.json`)).text(), `scenes/${sceneName}.json`);
	const rows = [];
	for (const n of counts) {
		const scene = scaleToParticles(puddle, base, n);
		const world = buildWorld(puddle, scene, { threads });
		const runs = Array.from({ length: trials }, () => []);
		const perRun = Math.ceil(frames / trials);
		for (let f = 0; f < warmup + perRun * trials; ++f) {
			applyFrame(puddle, scene, world, f);
			const t = performance.now();
			world.step();
			if (f >= warmup) runs[Math.floor((f - warmup) / perRun)].push(performance.now() - t);
		}
		const ms = Math.min(...runs.map(median));
		const stats = world.stats();
		rows.push({
			scene: sceneName, particles: world.particleCount, threads: world.threadCount, substeps: world.def.substeps,
			medianMs: ms, stepsPerSecond: 1000 / ms, meanNeighbours: stats.mean_neighbours,
			valid: stats.non_finite === 0,
		});
		world.destroy();
		// let the page breathe between sizes (and the threaded build get its workers back)
		await new Promise((r) => setTimeout(r, 0));
	}
	return { threaded: puddle.threaded, crossOriginIsolated: globalThis.crossOriginIsolated, userAgent: navigator.userAgent, rows };
}

window.benchResult = run().then(
	(result) => {
		document.getElementById('out').textContent = JSON.stringify(result, null, 2);
		return result;
	},
	(e) => {
		document.getElementById('out').textContent = String(e.stack ?? e);
		throw e;
	},
);
