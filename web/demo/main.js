// The demo page: loads the engine, a scene from scenes/, runs it at a fixed 60 steps per second
// of wall time (the scene's dt), draws it, and reports fps, steps per second and ms per step.
// Query flags: ?scene=NAME, ?threads=N (N > 1 needs a cross-origin isolated page, which
// web/server.mjs provides), ?paused=1, ?sceneUrl=URL (a scene file from anywhere the page may
// fetch, added to the picker under its file name: how the tests load their 3D fixture).
// 2D scenes are drawn by renderer.js (metaballs); 3D scenes (world.dimensions 3) by
// renderer3d.js through the orbit camera of orbit.js. Rigid bodies (the scene's and those the
// box tool drops) are the engine's own (World.body()), drawn over the fluid.
// A frame is drawn only when the picture may have changed since the last one (invalidate()): a
// step, a camera move, a panel control, a key, a pointer on the canvas, a new size or pixel
// ratio, a fallback level; a paused page that nothing touches draws nothing. Code that changes
// what is drawn some other way (the console: demo.style.mode3d = 'dots') calls demo.invalidate().
import * as cameraTools from '../src/camera.js';
import { loadPuddle, Solver, threadsAvailable } from '../src/puddle.js';
import { applyFrame, buildWorld, resolveScene } from '../src/scene.js';
import { Orbit } from './orbit.js';
import { Panel } from './panel.js';
import { Renderer } from './renderer.js';
import { Renderer3D, tankCorners } from './renderer3d.js';
import { Tools } from './tools.js';

// Three density classes settling into layers (scenes/stratify.json, the Rust stratification demo's
// parameters) is the page's default.
const DEFAULT_SCENE = 'stratify';

const params = new URLSearchParams(location.search);

class Demo {
	constructor() {
		this.canvas = document.getElementById('view');
		this.statsBox = document.getElementById('stats');
		this.errorBox = document.getElementById('error');
		this.threadsPossible = threadsAvailable();
		const defaultThreads = this.threadsPossible ? Math.min(4, navigator.hardwareConcurrency || 2) : 1;
		this.ui = {
			scene: params.get('scene') ?? DEFAULT_SCENE,
			paused: params.get('paused') === '1',
			speed: 1,
			maxStepsPerFrame: 3,
			threads: this.threadsPossible ? Math.max(1, Math.min(4, Number(params.get('threads') ?? defaultThreads) || 1)) : 1,
		};
		this.tool = { tool: 'attract', radius: 5, strength: 100, drag: 2, spawnMaterial: 0, spawnRate: 400, spawnRadius: 0.8,
			bodyShape: 'box', bodyDensity: 0.5, bodySize: 3 };
		this.style = { mode: 'metaball', mode3d: 'liquid', colorMode: 'material', blobRadius: 1, dotRadius: 0.3, threshold: 0.5, colorMin: 0, colorMax: 0,
			resolution: 1, background: 0x10161f, wallColor: 0x2b3440, obstacleColor: 0x6b7686, sphereRadius: 0.3,
			diffuse: true, // diffuse: the 3D liquid look draws the scene's spray, foam and bubbles
			scale3d: 1, // 3D: the share of the canvas's resolution drawn, each way (the fallback lowers it)
			discs: false }; // 3D spheres as flat discs, the fallback's cheapest looks (renderer3d.js)
		// real time without a GPU (fallbackFrame): ?fallback=0 turns it off, ?frameBudget=MS sets the budget
		this.fallback = { enabled: params.get('fallback') !== '0', budgetMs: Number(params.get('frameBudget')) || 50, level: 0,
			frames: 0, sumMs: 0, leastMs: 0, stepSumMs: 0, windows: 0, windowMs: 0, windowStepMs: 0, firstWindowMs: 0, changes: 0, look: FALLBACK_LEVELS[0].what, message: '',
			mostMs: 0, // the longest frame it counted (the idle test: time at rest is never one)
			levelMs: FALLBACK_LEVELS.map(() => 0) }; // per level, the last window measured there (0: none)
		this.lastStepMs = 0;
		// 3D: camera gestures (orbit.js); leftOrbits makes left drag and one finger orbit too
		this.view3d = { leftOrbits: false };
		this.cameraTools = cameraTools; // for tests and the console
		this.frame = 0;
		this.accumulator = 0;
		// whether the next tick draws (invalidate()), whether the last tick drew, the frames drawn
		// since the page loaded (render(); for tests and the console), and the canvas's size and
		// pixel ratio at the last tick (canvasChanged())
		this.needsDraw = true;
		this.drewLast = false;
		this.drawnFrames = 0;
		this.canvasKey = '';
		this.window = { start: performance.now(), frames: 0, steps: 0, stepMs: 0, stalledMs: 0 };
		this.stats = { fps: 0, idle: false, stepsPerSecond: 0, msPerStep: 0, particles: 0, threads: 1, build: '', realTime: null, slow: '',
			solver: null };
		// the solver's substeps counted at the last stats update (pdl_stats.steps)
		this.solverSteps = 0;
		// recent ms per step (a step is a frame of dt: all its substeps), and the most steps a
		// frame may take at that cost (tick())
		this.stepCost = 0;
		this.mostSteps = this.ui.maxStepsPerFrame;
		// simulated against wall seconds while running, over windows of REAL_TIME_WINDOW_S at least
		this.pace = null;
	}

	async start() {
		this.puddle = await loadPuddle({ threads: this.ui.threads });
		this.stats.build = this.puddle.threaded ? 'wasm simd + threads' : 'wasm simd, single thread';
		this.renderer = new Renderer(this.canvas);
		this.renderer3d = new Renderer3D(this.canvas);
		this.orbit = new Orbit(this.canvas, this.view3d);
		this.orbit.onChange = () => {
			this.invalidate();
			this.panel?.updateCamera();
		};
		this.tools = new Tools(this.canvas, this.renderer, this.tool, this.orbit);
		this.tools.onError = (e) => this.showError(e);
		this.sceneUrls = {};
		this.sceneNames = await this.listScenes();
		const extra = params.get('sceneUrl');
		if (extra) {
			const name = extra.replace(/^.*\//, '').replace(/\.json$/, '');
			this.sceneUrls[name] = extra;
			if (!this.sceneNames.includes(name)) this.sceneNames.push(name);
			if (!params.get('scene')) this.ui.scene = name;
		}
		// a scene that is not there, or that the web build refuses (a CUDA one), is said on the
		// page, which then shows the default scene
		const requested = this.ui.scene;
		if (!this.sceneNames.includes(requested)) this.ui.scene = DEFAULT_SCENE;
		this.panel = new Panel(this);
		let problem = '';
		try {
			await this.loadScene(requested);
		} catch (e) {
			problem = e.status === 404 ? `scene "${requested}" is not one of the shipped scenes (${this.sceneNames.join(', ')})` : e.message;
			problem += `; showing ${DEFAULT_SCENE}`;
			await this.loadScene(DEFAULT_SCENE);
		}
		if (problem) this.showError(problem);
		// the tools' and the camera's input: the picture may follow it (hover rings, a body held,
		// the tool picked), so the next tick draws
		for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'pointerleave', 'wheel']) {
			this.canvas.addEventListener(type, () => this.invalidate(), { passive: true });
		}
		window.addEventListener('keydown', (e) => {
			this.invalidate();
			if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
			if (e.key === ' ') {
				this.ui.paused = !this.ui.paused;
				e.preventDefault();
			} else if (e.key === 'r') this.reset();
		});
		// a hidden tab gets no frames: its time is not the engine's
		document.addEventListener('visibilitychange', () => {
			this.pace = null;
			this.invalidate();
		});
		this.last = performance.now();
		requestAnimationFrame((t) => this.tick(t));
	}

	/** The shipped scenes: scenes/*.json, listed by server.mjs at /scenes/index.json. */
	async listScenes() {
		const response = await fetch('/scenes/index.json').catch(() => null);
		// a static host without the index still offers the default scene
		if (!response?.ok) return [DEFAULT_SCENE];
		return (await response.json()).map((f) => f.replace(/\.json$/, ''));
	}

	async loadScene(name) {
		const url = this.sceneUrls[name] ?? `/scenes/${name}.json`;
		const response = await fetch(url);
		if (!response.ok) throw Object.assign(new Error(`scene ${name}: HTTP ${response.status}`), { status: response.status });
		const scene = resolveScene(this.puddle, await response.text(), url.replace(/^\//, ''));
		this.ui.scene = name;
		this.scene = scene;
		this.orbit.attach(scene.camera);
		document.getElementById('help').textContent = scene.dimensions === 3 ? HELP_3D : HELP_2D;
		// what the scene shows: its description, all of it, under the canvas
		document.getElementById('about').textContent = scene.description;
		this.applySceneStyle(scene);
		this.reset();
		return scene;
	}

	/** The scene picker's action: a scene that fails to load is reported on the page. */
	selectScene(name) {
		return this.loadScene(name).catch((e) => this.showError(e));
	}

	applySceneStyle(scene) {
		const o = scene.output, h = scene.world.interaction_radius;
		Object.assign(this.style, { background: o.background, wallColor: o.wall_color, obstacleColor: o.obstacle_color,
			colorMode: o.color_mode, blobRadius: o.blob_radius, dotRadius: 0.3 * h, threshold: o.threshold,
			colorMin: o.color_min, colorMax: o.color_max });
		const g = Math.hypot(scene.world.gravity.x, scene.world.gravity.y, scene.world.gravity.z ?? 0) || 10;
		// 3D spheres: half the rest spacing, so neighbours just touch
		const sp = scene.dimensions === 3 ? this.puddle.restSpacing3d(h, scene.materials[0].def.rest_density) : 0.6 * h;
		this.style.sphereRadius = 0.5 * sp;
		Object.assign(this.tool, { radius: 5 * h, strength: 10 * g, spawnRadius: 0.8 * h, bodySize: 3 * h });
	}

	/** Rebuilds the world of the current scene from its file. */
	reset() {
		this.world?.destroy();
		this.world = buildWorld(this.puddle, this.scene, { threads: this.ui.threads });
		this.frame = 0;
		this.accumulator = 0;
		this.solverSteps = 0;
		this.stepCost = 0;
		this.tools.attach(this.world, this.scene.strokes.length);
		this.panel.rebuildForScene();
		this.clearError();
		this.invalidate();
	}

	/** The picture may have changed: the next tick draws a frame. */
	invalidate() {
		this.needsDraw = true;
	}

	/** Whether the canvas's CSS size or the device pixel ratio changed since the last tick. */
	canvasChanged() {
		const key = `${this.canvas.clientWidth}x${this.canvas.clientHeight}@${window.devicePixelRatio}`;
		if (key === this.canvasKey) return false;
		this.canvasKey = key;
		return true;
	}

	stepOnce() {
		this.step(1);
	}

	clearBodies() {
		this.safely(() => this.tools.clearBodies());
		this.invalidate();
	}

	/** The live bodies with their current state (World.body()), in slot order. */
	bodies() {
		return this.world.bodies().map((id) => this.world.body(id));
	}

	/** Runs `frames` frames: scripted scene events, held pointers, one world step each. */
	step(frames) {
		const dt = this.world.def.dt;
		const t0 = performance.now();
		for (let i = 0; i < frames; ++i) {
			applyFrame(this.puddle, this.scene, this.world, this.frame);
			this.tools.beforeStep(dt);
			this.world.step();
			if (this.world.threadCount > 1) this.window.stalledMs += this.world.profile().stalled;
			++this.frame;
		}
		this.invalidate();
		const ms = performance.now() - t0;
		// ms per step, smoothed over the last few frames
		this.stepCost += 0.3 * (ms / frames - this.stepCost);
		this.window.stepMs += ms;
		this.window.steps += frames;
		if (this.pace) {
			this.pace.simulated += frames * dt;
			this.pace.stepMs += performance.now() - t0;
			this.pace.steps += frames;
		}
	}

	tick(now) {
		// the last frame's drawing: the time since the frame before, less its stepping; only after
		// a frame that drew (the time after one that did not is idle, not drawing)
		if (this.drewLast) this.fallbackFrame(now - this.last - this.lastStepMs, this.lastStepMs);
		this.drewLast = false;
		this.lastStepMs = 0;
		const elapsed = Math.min(0.25, (now - this.last) / 1000);
		this.last = now;
		this.measurePace(now);
		try {
			if (!this.ui.paused) {
				// fixed steps of dt at the page's time scale; when the engine cannot keep up, the
				// simulation slows down instead of taking ever more steps per frame; and no more
				// steps than fit in STEP_BUDGET_MS at the recent cost of one, so that a slow solver
				// (DFSPH's pressure solves) slows the simulation, not the frames
				const dt = this.world.def.dt;
				this.accumulator += elapsed * this.ui.speed;
				const affordable = Math.max(1, Math.floor(STEP_BUDGET_MS / this.stepCost));
				const most = Math.min(this.ui.maxStepsPerFrame, affordable);
				this.mostSteps = most;
				const steps = Math.min(most, Math.floor(this.accumulator / dt));
				this.accumulator = steps === most ? 0 : this.accumulator - steps * dt;
				const t0 = performance.now();
				if (steps > 0) this.step(steps);
				this.lastStepMs = performance.now() - t0;
			}
			if (this.canvasChanged()) this.invalidate();
			if (this.needsDraw) {
				this.render();
				this.drewLast = true;
			}
		} catch (e) {
			this.showError(e);
			this.ui.paused = true;
		}
		this.updateStats(now);
		requestAnimationFrame((t) => this.tick(t));
	}

	/**
	 * Whether the page keeps real time: simulated seconds advanced against wall seconds, over
	 * windows of REAL_TIME_WINDOW_S or more while running (a pause, or the tab hidden, which
	 * stops the frames, starts a new window; a slow frame, however long, counts). Below REAL_TIME_LOW of the time scale, the
	 * stats say how fast it runs and why: the engine's time per step, or too few frames for the
	 * steps a frame may take.
	 */
	measurePace(now) {
		if (this.ui.paused) {
			this.pace = null;
			this.stats.realTime = null;
			this.stats.slow = '';
			return;
		}
		if (!this.pace) {
			this.pace = newPace(now);
			return;
		}
		const p = this.pace, wall = (now - p.start) / 1000;
		++p.frames;
		if (wall < REAL_TIME_WINDOW_S) return;
		const rate = p.simulated / wall, target = this.ui.speed, s = this.stats;
		s.realTime = rate;
		s.slow = '';
		if (rate < REAL_TIME_LOW * target) {
			// the engine is what holds it back when stepping takes most of the wall time; else
			// the frames are too few (slow drawing) for the steps a frame may take
			const stepMs = p.steps ? p.stepMs / p.steps : 0, lasts = (1000 * this.world.def.dt) / target, most = this.mostSteps;
			const why = p.stepMs > 500 * wall
				? `the engine takes ${stepMs.toFixed(1)} ms per step of ${lasts.toFixed(1)} ms`
				: `${(p.frames / wall).toFixed(0)} frames/s × at most ${most} step${most > 1 ? 's' : ''} per frame`;
			s.slow = `running at ${rate.toFixed(2)}x real time${target !== 1 ? ` of the ${target}x asked` : ''} (${why})`;
		}
		this.pace = newPace(now);
	}

	/**
	 * Real time without a GPU, as the viewer does it (apps/viewer/main.c, fallback_frame): while
	 * the 3D liquid look is drawn, a window's mean draw time over what the budget leaves the
	 * drawing (the budget less the window's mean stepping, at least a quarter of it) takes the look
	 * one level down (FALLBACK_LEVELS): the liquid at a lower resolution, then spheres, then flat
	 * discs. The stats box and the console say so. `drawMs`, `stepMs`: the last frame's, ms.
	 */
	fallbackFrame(drawMs, stepMs = 0) {
		const f = this.fallback;
		// over 2 s is no drawing time: the tab was hidden, or a breakpoint
		if (!f.enabled || this.scene?.dimensions !== 3 || !(drawMs >= 0) || drawMs > 2000) return;
		const liquid = this.style.mode3d === 'liquid';
		// the look is the level's (not one chosen by hand since): the fallback may go on
		const own = FALLBACK_LEVELS[f.level].look !== 'liquid' ? this.style.mode3d === 'spheres' : liquid;
		if (liquid && FALLBACK_LEVELS[f.level].look !== 'liquid') {
			// the liquid chosen again after the fallback left it: try it afresh
			Object.assign(f, { level: 0, frames: 0, sumMs: 0, stepSumMs: 0, look: FALLBACK_LEVELS[0].what });
			this.style.scale3d = FALLBACK_LEVELS[0].scale3d;
			this.style.discs = false;
		}
		f.mostMs = Math.max(f.mostMs, drawMs);
		if (++f.frames <= FALLBACK_SKIP_FRAMES) return;
		const counted = f.frames - FALLBACK_SKIP_FRAMES;
		f.leastMs = counted === 1 ? drawMs : Math.min(f.leastMs, drawMs);
		f.sumMs += drawMs;
		f.stepSumMs += stepMs;
		const clearlyOver = counted >= FALLBACK_QUICK_FRAMES &&
			f.leastMs > FALLBACK_QUICK_OVER * drawingBudget(f.budgetMs, f.stepSumMs / counted);
		if (counted < FALLBACK_WINDOW_FRAMES && !clearlyOver) return;
		f.windowMs = f.sumMs / counted;
		f.windowStepMs = f.stepSumMs / counted;
		f.levelMs[f.level] = f.windowMs;
		++f.windows;
		if (!f.firstWindowMs) f.firstWindowMs = f.windowMs;
		f.frames = 0;
		f.sumMs = 0;
		f.stepSumMs = 0;
		const budget = drawingBudget(f.budgetMs, f.windowStepMs);
		if (!own || f.windowMs <= budget || f.level + 1 >= FALLBACK_LEVELS.length) return;
		f.level += 1;
		f.changes += 1;
		const next = FALLBACK_LEVELS[f.level];
		this.style.scale3d = next.scale3d;
		this.style.discs = next.look === 'discs';
		if (next.look !== 'liquid') {
			this.style.mode3d = 'spheres';
			this.panel?.mode3dControl?.updateDisplay();
		}
		f.look = next.what;
		this.invalidate();
		f.message = f.windowStepMs >= 0.5
			? `drawing took ${f.windowMs.toFixed(0)} ms a frame, over the ${budget.toFixed(0)} ms the ${f.budgetMs} ms budget leaves it after ${f.windowStepMs.toFixed(0)} ms of stepping: ${next.what}`
			: `drawing took ${f.windowMs.toFixed(0)} ms a frame, over the ${f.budgetMs} ms budget: ${next.what}`;
		console.info(`puddle: ${f.message}`);
	}

	render() {
		this.needsDraw = false;
		++this.drawnFrames;
		if (this.scene.dimensions === 3) {
			this.renderer3d.resize(this.style.resolution * this.style.scale3d);
			const materials = [];
			for (let m = 0; m < this.world.materialCount; ++m) materials.push(this.world.getMaterial(m));
			this.renderer3d.draw(this.world.particles(), this.world.boundaries(), materials, this.style, this.orbit.camera, this.scene.bounds,
				this.bodies(), this.style.diffuse ? this.world.diffuse() : null);
			++this.window.frames;
			return;
		}
		this.renderer.resize(this.style.resolution);
		this.renderer.fit(this.scene.bounds);
		const materials = [];
		for (let m = 0; m < this.world.materialCount; ++m) materials.push(this.world.getMaterial(m));
		this.renderer.draw(this.world.particles(), this.world.boundaries(), materials, this.style, this.bodies());
		this.renderer.drawRings(this.tools.rings());
		++this.window.frames;
	}

	updateStats(now) {
		const w = this.window, seconds = (now - w.start) / 1000;
		if (seconds < 0.5) return;
		// idle: nothing drawn or stepped since the last update; the stats say so once, then rest
		const idle = w.frames === 0 && w.steps === 0;
		if (idle && this.stats.idle) {
			w.start = now;
			return;
		}
		this.stats.idle = idle;
		this.stats.fps = w.frames / seconds;
		this.stats.stepsPerSecond = w.steps / seconds;
		this.stats.msPerStep = w.steps ? w.stepMs / w.steps : 0;
		this.stats.particles = this.world.particleCount;
		this.stats.threads = this.world.threadCount;
		// the step's time asleep waiting for workers without a core (pdl_profile.stalled): a
		// tenth of it is past scheduling noise, and the page says the solver is starved
		const starved = w.stepMs > 0 ? w.stalledMs / w.stepMs : 0;
		// the solver and how well it holds the density (pdl_stats: a pass over the neighbours,
		// twice a second); SPH and DFSPH take the substeps their CFL rule asks for
		const st = this.world.stats(), def = this.world.def;
		const taken = st.steps - this.solverSteps;
		this.solverSteps = st.steps;
		this.stats.solver = { name: SOLVER_LABELS[def.solver], meanDensityError: st.mean_density_error, maxDensityError: st.max_density_error,
			clumped: st.clumped, substepsPerFrame: w.steps ? taken / w.steps : null };
		this.window = { start: now, frames: 0, steps: 0, stepMs: 0, stalledMs: 0 };
		const s = this.stats, sv = s.solver;
		// DFSPH: the error its constant-density solve ended the last step with (over the bulk, what
		// it holds to sph.density_tolerance; the kernel's error beside it counts the thinner
		// surface too) and its pressure-solve iterations per substep (each two neighbour passes)
		const pr = def.solver === Solver.DFSPH ? this.world.profile() : null;
		const solve = pr?.substeps ? `solve error ${percent(pr.density_solve_error)} · ` : '';
		const iterations = pr?.substeps ? ` · ${((pr.density_iterations + pr.divergence_iterations) / pr.substeps).toFixed(0)} iterations/substep` : '';
		const substeps = def.solver === Solver.CLAVET
			? `${def.substeps} substep${def.substeps > 1 ? 's' : ''}`
			: `${sv.substepsPerFrame === null ? '–' : sv.substepsPerFrame.toFixed(1)} substeps/frame (CFL)`;
		this.statsBox.textContent =
			(idle ? 'idle: paused, nothing to draw\n' : `${s.fps.toFixed(0)} fps · ${s.stepsPerSecond.toFixed(0)} steps/s · ${s.msPerStep.toFixed(2)} ms/step\n`) +
			`${s.particles} particles · ${bodiesText(this.world.bodyCount)}${substeps} · ` +
			`${s.threads} thread${s.threads > 1 ? 's' : ''} (${s.build})\n` +
			`${sv.name} · ${solve}density error ${percent(sv.meanDensityError)} mean, ${percent(sv.maxDensityError)} max${iterations}\n` +
			`scene ${this.scene.name} · t = ${this.world.time.toFixed(1)} s`;
		const warnings = [starved > 0.1 ? `starved: ${(100 * starved).toFixed(0)}% of the step waiting for cores` : '', s.slow,
			this.fallback.changes > 0 ? `slow drawing: ${this.fallback.message}` : ''];
		for (const text of warnings.filter(Boolean)) {
			const line = document.createElement('span');
			line.className = 'slow';
			line.textContent = `\n${text}`;
			this.statsBox.append(line);
		}
	}

	/** Runs a panel change; shows the core's message instead of throwing. */
	safely(fn) {
		try {
			fn();
			this.clearError();
		} catch (e) {
			this.showError(e);
		}
	}

	showError(e) {
		this.errorBox.textContent = e.message ?? String(e);
		this.errorBox.hidden = false;
	}

	clearError() {
		this.errorBox.hidden = true;
	}

	reloadWithThreads(n) {
		const next = new URL(location.href);
		next.searchParams.set('threads', n);
		next.searchParams.set('scene', this.ui.scene);
		location.href = next.href;
	}

	/** For tests and the console: the share of canvas pixels that differ from the corner. */
	coverage() {
		this.render();
		return this.renderer.coverage();
	}

	/** For tests and the console: turns the 3D camera by degrees of yaw and pitch. */
	orbitBy(yaw, pitch) {
		this.orbit.orbit(yaw, pitch);
	}

	resetCamera() {
		this.orbit.reset();
	}

	/**
	 * For tests and the console: where the scene's tank (its container, else its bounds) lies on
	 * the page, { left, top, right, bottom } in CSS pixels, as the last frame drew it.
	 */
	tankRect() {
		this.render();
		const r = this.canvas.getBoundingClientRect();
		const { min, max } = this.scene.bounds;
		const points = this.scene.dimensions === 3
			? tankCorners(this.world.boundaries(), this.scene.bounds).map(([x, y, z]) => this.orbit.toCss(x, y, z))
			: [this.renderer.toCss(min.x, min.y), this.renderer.toCss(max.x, max.y)];
		const xs = points.map((p) => r.left + p.x), ys = points.map((p) => r.top + p.y);
		return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
	}
}

// The stats line says the page runs slow when it simulates less than this share of the time
// scale's seconds per wall second, measured over this many wall seconds at least.
const REAL_TIME_LOW = 0.9;
// The most milliseconds of stepping a frame takes on (one step, however long, always): 25
// frames/s at least where drawing is quick.
const STEP_BUDGET_MS = 40;
// The fallback's levels (fallbackFrame), the full look first, and its windows: the frames not
// counted after a change (the targets and programs are made: the liquid's first two frames took
// 1.5 s under SwiftShader, the next 0.3), then the frames whose mean decides: 10, or 3 when each
// of them is 1.5 times over what the budget leaves the drawing (the viewer's rule,
// apps/viewer/main.c, FALLBACK_QUICK_FRAMES).
const FALLBACK_LEVELS = [
	{ scale3d: 1, look: 'liquid', what: 'liquid at full resolution' },
	{ scale3d: 0.5, look: 'liquid', what: 'liquid at half resolution' },
	{ scale3d: 0.35, look: 'liquid', what: 'liquid at a third of the resolution' },
	{ scale3d: 1, look: 'spheres', what: 'spheres instead of liquid' },
	{ scale3d: 0.5, look: 'spheres', what: 'spheres at half resolution' },
	// flat discs (style.discs, renderer3d.js): no lighting and no depth per pixel
	{ scale3d: 0.5, look: 'discs', what: 'flat discs at half resolution' },
	{ scale3d: 0.25, look: 'discs', what: 'flat discs at a quarter of the resolution' },
];
const FALLBACK_SKIP_FRAMES = 2;
const FALLBACK_WINDOW_FRAMES = 10;
const FALLBACK_QUICK_FRAMES = 3;
const FALLBACK_QUICK_OVER = 1.5;
// What the budget leaves a frame's drawing after `stepMs` of stepping: at least a quarter of it.
const drawingBudget = (budgetMs, stepMs) => Math.max(budgetMs - stepMs, 0.25 * budgetMs);
const REAL_TIME_WINDOW_S = 1.5;
const newPace = (now) => ({ start: now, simulated: 0, frames: 0, steps: 0, stepMs: 0 });

const SOLVER_LABELS = ['Clavet', 'SPH', 'DFSPH'];
const percent = (x) => `${(100 * x).toFixed(x < 0.001 ? 3 : 2)} %`;

const bodiesText = (n) => (n === 0 ? '' : n === 1 ? '1 body · ' : `${n} bodies · `);

const HELP_2D = 'drag: attract · right drag: repel · drag a body: throw it · 1-5: attract, repel, spawn, box, erase · b: drop a body · space: pause · r: reset';
const HELP_3D = 'drag: tool along the mouse ray · drag a body: throw it · right drag: orbit (shift: pan) · wheel / pinch: zoom · 1-5: attract, repel, spawn, box, erase · b: body · space: pause · r: reset';

const demo = new Demo();
window.demo = demo;
demo.ready = demo.start().then(
	() => {
		document.body.dataset.ready = 'true';
		return demo;
	},
	(e) => {
		demo.showError?.(e);
		console.error(e);
		throw e;
	},
);
