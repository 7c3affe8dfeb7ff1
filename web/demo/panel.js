// The lil-gui panel: every world, material and wall parameter of the core, the material presets,
// the tools and the render settings. Controllers write straight into the running world between
// steps (pdl_world_set_def / pdl_world_set_material take effect on the next step).
import GUI from 'lil-gui';
import { MATERIAL_PRESETS, presetBasis, presetDfsph, presetMaterial, presetSolver, substepsNeeded, unitFactor } from './presets.js';
import { Solver } from '../src/puddle.js';
import { BODY_SHAPES, TOOLS } from './tools.js';
import { COLOR_MODES } from '../src/scene.js';

// Material fields with their panel ranges at the presets' reference scene, scaled to the scene
// by the field's unit (presets.js unitFactor); the core accepts any value its rules allow, these
// are the ranges worth sliding through. [field, min, max, unit, logarithmic]
// generated from include/puddle/fields.h: material sliders (io/tests/fields_gen.c)
const MATERIAL_FIELDS = [
	['rest_density', 0.5, 20, 'rest_density', false],
	['stiffness', 0, 2000, 'g', true],
	['near_stiffness', 0, 2000, 'g', true],
	['mass', 0.01, 100, 'mass', true],
	['gravity_scale', -2, 3, '1', false],
	['viscosity_sigma', 0, 20, 'sqrt(g/h)', false],
	['viscosity_beta', 0, 5, '1/h', false],
	['spring_stiffness', 0, 1000, 'g/h', true],
	['yield_ratio', 0, 1, '1', false],
	['plasticity', 0, 5, 'sqrt(g/h)', false],
	['wall_friction', 0, 1, '1', false],
	['wall_stickiness', 0, 500, 'g/h', false],
	['stick_distance', 0.01, 1, '1', false],
];
// end of generated: material sliders

// The solvers by their scene names (world_def.solver, pdl_solver_kind)
const SOLVER_NAMES = ['clavet', 'sph', 'dfsph'];
// Each SPH solver's main settings (world_def.sph, include/puddle/types.h), as the native viewer's
// panel offers them: [field, label, min, max, step, power of h the range scales with]. DFSPH's
// density tolerance is relative; the speed of sound scales with h (c = 100 h/s in the shipped
// scenes), the viscosity (kinematic, length^2 / s) with h^2.
const SOLVER_FIELDS = {
	[Solver.SPH]: [
		['speed_of_sound', 'speed of sound', 20, 500, 1, 1],
		['viscosity', 'viscosity (h²/s)', 0, 5, 0.01, 2],
		['xsph', 'XSPH', 0, 0.5, 0.01, 0],
		['cfl', 'CFL number', 0.05, 1, 0.01, 0],
	],
	[Solver.DFSPH]: [
		['viscosity', 'viscosity (h²/s)', 0, 5, 0.01, 2],
		['xsph', 'XSPH', 0, 0.5, 0.01, 0],
		['cfl', 'CFL number', 0.05, 1, 0.01, 0],
		['density_tolerance', 'density tolerance', 1e-5, 1e-2, 1e-5, 0],
		['max_iterations', 'most iterations', 1, 1000, 1, 0],
	],
};


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
		const def = w.def;
		const world = { dt: def.dt, substeps: def.substeps, gravity_x: def.gravity.x, gravity_y: def.gravity.y, gravity_z: def.gravity.z,
			interaction_radius: def.interaction_radius, autoSubsteps: true };
		const set = (values) => d.safely(() => w.setDef(values));
		this.worldFolder.add(world, 'dt', 1 / 480, 1 / 15, 0.0001).name('dt (s per frame)').onChange((v) => {
			set({ dt: v });
			this.fixSubsteps(world);
		});
		this.substeps = this.worldFolder.add(world, 'substeps', 1, 32, 1).name('substeps').onChange((v) => set({ substeps: v }));
		this.worldFolder.add(world, 'gravity_x', -5 * g, 5 * g, g / 100).name('gravity x').onChange((v) => set({ gravity: { ...w.def.gravity, x: v } }));
		this.worldFolder.add(world, 'gravity_y', -5 * g, 5 * g, g / 100).name('gravity y').onChange((v) => set({ gravity: { ...w.def.gravity, y: v } }));
		if (three) this.worldFolder.add(world, 'gravity_z', -5 * g, 5 * g, g / 100).name('gravity z').onChange((v) => set({ gravity: { ...w.def.gravity, z: v } }));
		this.worldFolder.add(world, 'interaction_radius', 0.25 * h, 4 * h, 0.01 * h).name('h (interaction radius)')
			.onChange((v) => set({ interaction_radius: v }));
		this.worldFolder.add(world, 'autoSubsteps').name('raise substeps for stiffness');
		world.max_particles = def.max_particles;
		this.worldFolder.add(world, 'max_particles', w.particleCount, 4194304, 1000).name('max particles')
			.onChange((v) => set({ max_particles: Math.max(v, w.particleCount) }));
		this.worldState = world;
		this.rebuildSolver();

		for (const f of [...this.wallsFolder.folders]) f.destroy();
		for (const b of w.boundaries()) this.addBoundaryFolder(b, g);

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

	/** The Solver folder: the solver picker and the settings of the solver running. */
	rebuildSolver() {
		const d = this.demo, w = d.world, def = w.def, h = def.interaction_radius;
		for (const c of [...this.solverFolder.controllersRecursive()]) c.destroy();
		const state = { solver: SOLVER_NAMES[def.solver], ...def.sph };
		this.solverControl = this.solverFolder.add(state, 'solver', SOLVER_NAMES).name('solver')
			.onChange((name) => this.setSolver(name));
		this.solverControl.domElement.title = 'clavet: relaxation, for blobs, slime, lava, layers · sph: weakly compressible · dfsph: incompressible, for water';
		for (const [field, label, lo, hi, step, power] of SOLVER_FIELDS[def.solver] ?? []) {
			const k = h ** power;
			this.solverFolder.add(state, field, lo * k, Math.max(hi * k, state[field]), step * k).name(label)
				.onChange((v) => d.safely(() => w.setDef({ sph: { [field]: v } })));
		}
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
	addBoundaryFolder(b, g) {
		const d = this.demo, w = d.world;
		const three = w.dimensions === 3;
		const kinds = three ? ['sphere container', 'box container', 'sphere', 'box', 'polygon'] : ['circle container', 'box container', 'circle', 'box', 'polygon'];
		const folder = this.wallsFolder.addFolder(`${b.id}: ${kinds[b.kind]}`);
		const values = { friction: b.friction, restitution: b.restitution, stickiness: b.stickiness, vx: b.velocity.x, vy: b.velocity.y, vz: b.velocity.z };
		const set = (fields) => d.safely(() => w.setBoundary(b.id, fields));
		folder.add(values, 'friction', 0, 1, 0.01).onChange((v) => set({ friction: v }));
		folder.add(values, 'restitution', 0, 1, 0.01).onChange((v) => set({ restitution: v }));
		folder.add(values, 'stickiness', 0, 200 * Math.max(1, g / 10), 1).onChange((v) => set({ stickiness: v }));
		const velocity = () => ({ x: values.vx, y: values.vy, z: values.vz });
		folder.add(values, 'vx', -2 * g, 2 * g, g / 100).name('surface velocity x').onChange(() => set({ velocity: velocity() }));
		folder.add(values, 'vy', -2 * g, 2 * g, g / 100).name('surface velocity y').onChange(() => set({ velocity: velocity() }));
		if (three) folder.add(values, 'vz', -2 * g, 2 * g, g / 100).name('surface velocity z').onChange(() => set({ velocity: velocity() }));
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
		const basis = presetBasis(d.scene);
		for (const [field, lo, hi, unit] of MATERIAL_FIELDS) {
			const k = unitFactor(unit, basis), step = 10 ** Math.floor(Math.log10((hi - lo) * k / 2000));
			folder.add(values, field, lo * k, Math.max(hi * k, values[field]), step).name(field).onChange((v) => apply({ [field]: v }));
		}
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
