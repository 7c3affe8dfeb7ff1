// The lil-gui panel: a slider for each world, solver, material and wall parameter the field
// declarations give a range (sliders.js, from include/puddle/fields.h), the material presets,
// the tools and the render settings. Controllers write straight into the running world between
// steps (pdl_world_set_def / pdl_world_set_material take effect on the next step).
import GUI from 'lil-gui';
import { MATERIAL_PRESETS, presetBasis, presetDfsph, presetMaterial, presetSolver, substepsNeeded, unitFactor } from './presets.js';
import { BOUNDARY_SLIDERS, MATERIAL_SLIDERS, SOLVER_SLIDERS, WORLD_SLIDERS } from './sliders.js';
import { Solver } from '../src/puddle.js';
import { BODY_SHAPES, TOOLS } from './tools.js';
import { COLOR_MODES } from '../src/scene.js';

// The solvers by their scene names (world_def.solver, pdl_solver_kind)
const SOLVER_NAMES = ['clavet', 'sph', 'dfsph'];

/** A slider's label: its field, words apart. */
const label = (field) => field.replaceAll('_', ' ');

/**
 * Adds to `folder` a slider for each declared slider of a def (sliders.js): its range at the
 * reference scene scaled to `basis` by its scale (presets.js unitFactor) and widened to hold the
 * value it has, a step of about a two-thousandth of the range (1 at least for integers), the
 * doc line and unit as its tooltip; a vector gets one per component (z in 3D only). Sliders bind
 * to `values` (a vector's to a copy); change(field, value) gets the field's new value, a
 * vector's whole. Returns the controllers by field (a vector's first component's).
 */
function addSliders(folder, sliders, values, basis, three, change) {
	const controllers = {};
	for (const s of sliders) {
		const k = unitFactor(s.scale, basis), lo = s.min * k, hi = s.max * k;
		const fine = 10 ** Math.floor(Math.log10((hi - lo) / 2000));
		const step = s.type === 'I32' ? Math.max(1, fine) : fine;
		const tip = s.unit ? `${s.doc} (${s.unit})` : s.doc;
		const add = (object, key, name) => {
			const c = folder.add(object, key, Math.min(lo, object[key]), Math.max(hi, object[key]), step).name(name);
			c.domElement.title = tip;
			controllers[s.field] ??= c;
			return c;
		};
		if (s.type === 'VEC3') {
			const v = { ...values[s.field] };
			for (const axis of three ? ['x', 'y', 'z'] : ['x', 'y']) add(v, axis, `${label(s.field)} ${axis}`).onChange(() => change(s.field, { ...v }));
		} else {
			add(values, s.field, label(s.field)).onChange((v) => change(s.field, v));
		}
	}
	return controllers;
}

export class Panel {
	constructor(demo) {
		this.demo = demo;
		this.gui = new GUI({ title: 'puddle', container: document.getElementById('side') });
		if (window.matchMedia('(max-width: 700px)').matches) this.gui.close();
		// any control's change may change the picture (the page draws only when it may: main.js)
		this.gui.onChange(() => demo.invalidate());
		this.buildStatic();
	}

	buildStatic() {
		const d = this.demo, gui = this.gui;
		const scene = gui.addFolder('Scene');
		this.sceneController = scene.add(d.ui, 'scene', d.sceneNames).name('scene').onChange((name) => d.selectScene(name));
		scene.add(d.ui, 'paused').name('paused (space)').listen();
		scene.add(d, 'stepOnce').name('step one frame');
		scene.add(d, 'reset').name('reset (r)');
		scene.add(d.ui, 'speed', 0.1, 2, 0.05).name('time scale');
		scene.add(d.ui, 'maxStepsPerFrame', 1, 8, 1).name('most steps per frame');
		const threadChoices = d.threadsPossible ? [1, 2, 3, 4] : [1];
		scene.add(d.ui, 'threads', threadChoices).name(d.threadsPossible ? 'threads (reloads)' : 'threads (page not isolated)')
			.onChange((n) => d.reloadWithThreads(n));

		// folder titles stay short enough for one line of the panel; the keys are in the tooltip
		const tool = gui.addFolder('Tool');
		tool.$title.title = 'left button / touch: this tool (keys 1-5) · right button: repel (2D), orbit (3D) · b: drop a body';
		const toolPicker = tool.add(d.tool, 'tool', TOOLS).name('left button / touch (1-5)');
		d.tools.onToolChange = () => toolPicker.updateDisplay();
		// [controller, min, max, step] at h = 1, rescaled for each scene's length unit
		this.lengthControls = [
			[tool.add(d.tool, 'radius', 0.1, 20, 0.1).name('radius'), 0.1, 20, 0.1],
		];
		this.strength = tool.add(d.tool, 'strength', 0, 500, 1).name('strength (accel.)');
		tool.add(d.tool, 'drag', 0, 20, 0.1).name('drag (1/s)');
		this.spawnMaterial = tool.add(d.tool, 'spawnMaterial', { 0: 0 }).name('spawn material');
		tool.add(d.tool, 'spawnRate', 10, 3000, 10).name('spawn per second');
		this.lengthControls.push(
			[tool.add(d.tool, 'spawnRadius', 0.05, 5, 0.05).name('spawn radius'), 0.05, 5, 0.05],
		);
		// the next body the box tool (or b) drops; density is relative to material 0 (0.5 floats half under)
		tool.add(d.tool, 'bodyShape', BODY_SHAPES).name('body shape');
		tool.add(d.tool, 'bodyDensity', 0.05, 3, 0.05).name('body density (water 1)');
		this.lengthControls.push([tool.add(d.tool, 'bodySize', 0.5, 10, 0.1).name('body size'), 0.5, 10, 0.1]);
		tool.add(d, 'clearBodies').name('remove every body');

		// the orbit camera of 3D scenes (hidden for 2D ones); the gestures are in orbit.js
		this.cameraFolder = gui.addFolder('Camera');
		this.cameraFolder.add(d.view3d, 'leftOrbits').name('left drag / touch orbits');
		this.cameraFolder.add(d, 'resetCamera').name("reset to the scene's camera");
		this.cameraControls = [];
		// the solver, switched live as in the native viewer: the particles stay as they are
		this.solverFolder = gui.addFolder('Solver');
		this.worldFolder = gui.addFolder('World');
		this.materialsFolder = gui.addFolder('Materials');
		this.wallsFolder = gui.addFolder('Container and obstacles');
		this.wallsFolder.close();

		const render = gui.addFolder('Render');
		this.modeControl = render.add(d.style, 'mode', ['metaball', 'particles']).name('mode (2D)');
		this.mode3dControl = render.add(d.style, 'mode3d', ['liquid', 'spheres', 'dots']).name('mode (3D)');
		this.diffuseControl = render.add(d.style, 'diffuse').name('spray and foam (3D)');
		render.add(d.style, 'colorMode', COLOR_MODES).name('colour');
		this.lengthControls.push(
			[render.add(d.style, 'blobRadius', 0.1, 4, 0.01).name('blob radius'), 0.1, 4, 0.01],
			[render.add(d.style, 'dotRadius', 0.05, 2, 0.01).name('dot radius'), 0.05, 2, 0.01],
			[render.add(d.style, 'sphereRadius', 0.05, 2, 0.01).name('sphere radius (3D)').listen(), 0.05, 2, 0.01],
		);
		render.add(d.style, 'threshold', 0.05, 4, 0.01).name('threshold (splats)');
		render.add(d.style, 'colorMin').name('ramp min').listen();
		render.add(d.style, 'colorMax').name('ramp max').listen();
		render.add(d.style, 'resolution', 0.25, 2, 0.05).name('resolution scale');
	}

	/** The camera folder's controllers, for the scene's camera (3D) or hidden (2D). */
	rebuildCamera() {
		const d = this.demo, cam = d.orbit.camera;
		for (const c of this.cameraControls) c.destroy();
		this.cameraControls = [];
		this.cameraFolder.show(!!cam);
		if (!cam) return;
		const size = Math.max(1, cam.distance);
		const f = this.cameraFolder;
		this.cameraControls.push(
			f.add(cam, 'yaw', -360, 360, 0.5).name('yaw (deg)'),
			f.add(cam, 'pitch', -89, 89, 0.5).name('pitch (deg)'),
			f.add(cam, 'distance', size / 20, size * 5, size / 200).name('distance'),
			f.add(cam, 'fov', 5, 120, 1).name('fov (deg)'),
			f.add(cam.target, 'x', -size, size, size / 200).name('target x'),
			f.add(cam.target, 'y', -size, size, size / 200).name('target y'),
			f.add(cam.target, 'z', -size, size, size / 200).name('target z'),
		);
	}

	/** The camera moved by a gesture: show its numbers. */
	updateCamera() {
		for (const c of this.cameraControls) c.updateDisplay();
	}

	/** Controllers that depend on the scene: world, materials, spawn material, length scales. */
	rebuildForScene() {
		const d = this.demo, w = d.world, h = w.def.interaction_radius;
		const three = w.dimensions === 3;
		const g = Math.max(1, Math.hypot(w.def.gravity.x, w.def.gravity.y, w.def.gravity.z));
		// the camera object is replaced when a scene loads; a reset of the same scene keeps it
		if (this.cameraOf !== d.orbit.camera) {
			this.cameraOf = d.orbit.camera;
			this.rebuildCamera();
		}
		this.modeControl.show(!three);
		this.mode3dControl.show(three);
		this.diffuseControl.show(three);
		this.sceneController.updateDisplay();
		for (const [c, lo, hi, step] of this.lengthControls) c.min(lo * h).max(hi * h).step(step * h).updateDisplay();
		this.strength.min(0).max(50 * g).step(g / 10).updateDisplay();

		for (const c of [...this.worldFolder.controllersRecursive()]) c.destroy();
		for (const f of [...this.worldFolder.folders]) f.destroy();
		// the world's sliders scale with the world's own h and g (the sliders change them)
		const basis = this.worldBasis();
		const world = { ...w.def, autoSubsteps: true };
		const controllers = addSliders(this.worldFolder, WORLD_SLIDERS, world, basis, three, (field, v) => {
			// the world cannot hold fewer particles than it has
			d.safely(() => w.setDef({ [field]: field === 'max_particles' ? Math.max(v, w.particleCount) : v }));
			if (field !== 'substeps') this.fixSubsteps(world);
		});
		this.substeps = controllers.substeps;
		this.worldFolder.add(world, 'autoSubsteps').name('raise substeps for stiffness');
		this.worldState = world;
		this.rebuildSolver();

		for (const f of [...this.wallsFolder.folders]) f.destroy();
		for (const b of w.boundaries()) this.addBoundaryFolder(b, basis);

		for (const f of [...this.materialsFolder.folders]) f.destroy();
		const names = {};
		d.scene.materials.forEach((m, id) => {
			names[m.name] = id;
			this.addMaterialFolder(id, m.name);
		});
		this.spawnMaterial = this.spawnMaterial.options(names).name('spawn material');
		d.tool.spawnMaterial = Math.min(d.tool.spawnMaterial, d.scene.materials.length - 1);
		this.spawnMaterial.updateDisplay();
	}

	/** What the world's, the solver's and the walls' sliders scale by: the scene's presetBasis
	 * with the world's h and |g| as they are now. */
	worldBasis() {
		const def = this.demo.world.def, h = def.interaction_radius;
		return { ...presetBasis(this.demo.scene), h, g: Math.hypot(def.gravity.x, def.gravity.y, def.gravity.z) || 10 * h };
	}

	/** The Solver folder: the solver picker and the sliders of the settings the running solver reads. */
	rebuildSolver() {
		const d = this.demo, w = d.world, def = w.def;
		for (const c of [...this.solverFolder.controllersRecursive()]) c.destroy();
		const state = { solver: SOLVER_NAMES[def.solver], ...def.sph };
		this.solverControl = this.solverFolder.add(state, 'solver', SOLVER_NAMES).name('solver')
			.onChange((name) => this.setSolver(name));
		this.solverControl.domElement.title = 'clavet: relaxation, for blobs, slime, lava, layers · sph: weakly compressible · dfsph: incompressible, for water';
		const sliders = SOLVER_SLIDERS.filter((s) => s.solvers.includes(state.solver));
		addSliders(this.solverFolder, sliders, state, this.worldBasis(), w.dimensions === 3,
			(field, v) => d.safely(() => w.setDef({ sph: { [field]: v } })));
	}

	/**
	 * Switches the world's solver ("clavet", "sph", "dfsph"), the particles as they are. SPH and
	 * DFSPH take the substeps their CFL rule asks for, so they start from one; Clavet gets back
	 * the scene's substeps, or what its stiffness needs.
	 */
	setSolver(name) {
		const d = this.demo, w = d.world, kind = SOLVER_NAMES.indexOf(name);
		if (kind === w.def.solver) return;
		const sceneSteps = d.scene.world.solver === Solver.CLAVET ? d.scene.world.substeps : 1;
		// DFSPH for a scene written for another solver (the water preset, the Solver folder): the
		// water preset's settings over the scene's (the sliders change them)
		const sph = kind === Solver.DFSPH && d.scene.world.solver !== Solver.DFSPH
			? { ...d.scene.world.sph, ...presetDfsph() } : d.scene.world.sph;
		d.safely(() => w.setDef({ solver: kind, substeps: kind === Solver.CLAVET ? sceneSteps : 1, sph }));
		this.worldState.substeps = w.def.substeps;
		this.fixSubsteps(this.worldState);
		this.substeps.updateDisplay();
		this.rebuildSolver();
	}

	// The scene's container and obstacles: the wall parameters of pdl_boundary_def. Velocity is
	// the surface velocity (a conveyor); the obstacle itself stays where it is.
	addBoundaryFolder(b, basis) {
		const d = this.demo, w = d.world;
		const three = w.dimensions === 3;
		const kinds = three ? ['sphere container', 'box container', 'sphere', 'box', 'polygon'] : ['circle container', 'box container', 'circle', 'box', 'polygon'];
		const folder = this.wallsFolder.addFolder(`${b.id}: ${kinds[b.kind]}`);
		addSliders(folder, BOUNDARY_SLIDERS, { ...b }, basis, three, (field, v) => d.safely(() => w.setBoundary(b.id, { [field]: v })));
	}

	addMaterialFolder(id, name) {
		const d = this.demo, w = d.world;
		const folder = this.materialsFolder.addFolder(`${id}: ${name}`);
		if (id > 0) folder.close();
		const values = { ...w.getMaterial(id), preset: '(scene)' };
		const apply = (fields) => d.safely(() => {
			w.setMaterial(id, fields);
			this.fixSubsteps(this.worldState);
		});
		const preset = folder.add(values, 'preset', ['(scene)', ...Object.keys(MATERIAL_PRESETS)]).name('preset').onChange((p) => {
			const fields = p === '(scene)' ? d.scene.materials[id].def : presetMaterial(p, presetBasis(d.scene), d.puddle.defaultMaterialDef());
			apply(fields);
			// and the solver the preset is made for (the world's: every material runs it)
			this.setSolver(p === '(scene)' ? SOLVER_NAMES[d.scene.world.solver] : presetSolver(p));
			Object.assign(values, w.getMaterial(id));
			folder.controllersRecursive().forEach((c) => c.updateDisplay());
		});
		preset.domElement.title = 'water runs DFSPH (incompressible); lava, slime and stratify Clavet: the world switches solver';
		addSliders(folder, MATERIAL_SLIDERS, values, presetBasis(d.scene), w.dimensions === 3, (field, v) => apply({ [field]: v }));
		folder.addColor(values, 'color').name('color').onChange((v) => apply({ color: v }));
	}

	// Keeps k dt_sub^2 / h under the stability bound when a change calls for it (types.h).
	fixSubsteps(world) {
		if (!world?.autoSubsteps) return;
		const w = this.demo.world, needed = substepsNeeded(w);
		if (needed > w.def.substeps) {
			this.demo.safely(() => w.setDef({ substeps: needed }));
			world.substeps = needed;
			this.substeps.updateDisplay();
		}
	}
}
