// Material presets of the panel, read from scenes/presets/materials.json: the one file the native
// viewer reads too (apps/viewer/presets.c, --preset and its panel's buttons). The file writes
// each value for a reference scene (h = 1, |g| = 10, rest density 4, mass 1) and gives each field
// a unit; presetMaterial() scales it to a scene by that unit, the same rule as presets.c.
import { Solver } from '../src/puddle.js';
import { MATERIAL_SLIDERS } from './sliders.js';

/** Where the server (server.mjs mounts the repository's scenes/ at /scenes/) serves the file. */
export const PRESETS_URL = '/scenes/presets/materials.json';

/** The parsed file, or null when it cannot be read (the menus then offer only '(scene)'). */
export const PRESETS = await fetch(PRESETS_URL).then((r) => (r.ok ? r.json() : null)).catch(() => null);

/** Menu label -> [preset name, material index]: 'water', 'lava', 'slime', and for a preset of
 * several materials one entry each ('stratify heavy', 'stratify medium', 'stratify light'). */
export const MATERIAL_PRESETS = Object.fromEntries(Object.entries(PRESETS?.presets ?? {}).flatMap(([name, layers]) =>
	layers.map((layer, i) => [layers.length > 1 ? `${name} ${layer.name ?? i}` : name, [name, i]])));

/** What presets scale by: the scene's h, |gravity| (10 h/s^2 without), and its materials' mean
 * rest density and mass as loaded (src/scene.js's parsed scene). */
export function presetBasis(scene) {
	const h = scene.world.interaction_radius, gr = scene.world.gravity;
	const g = Math.hypot(gr.x, gr.y, gr.z ?? 0) || 10 * h;
	const mean = (field) => scene.materials.reduce((sum, m) => sum + m.def[field], 0) / scene.materials.length;
	return { h, g, rest_density: mean('rest_density'), mass: mean('mass') };
}

/** The reference scene the file writes its values for (the shipped one when there is no file). */
const REFERENCE = { h: 1, g: 10, rest_density: 4, mass: 1 };

/** What a value of `unit` ('1', 'g', 'g/h', 'sqrt(g/h)', '1/h', 'h', 'h^2', 'rest_density',
 * 'mass': include/puddle/fields.h's scales, as sliders.js lists them) written for the reference scene is
 * multiplied by in a scene of `basis`. */
export function unitFactor(unit, basis, presets = PRESETS) {
	const r = presets?.reference ?? REFERENCE, rate = (basis.g / basis.h) / (r.g / r.h);
	const factor = {
		1: 1, g: basis.g / r.g, 'g/h': rate, 'sqrt(g/h)': Math.sqrt(rate), '1/h': r.h / basis.h,
		h: basis.h / r.h, 'h^2': (basis.h / r.h) ** 2,
		rest_density: basis.rest_density / r.rest_density, mass: basis.mass / r.mass,
	};
	if (!(unit in factor)) throw new Error(`${PRESETS_URL}: unknown unit ${unit}`);
	return factor[unit];
}

/** The material def of a menu entry, over `defaults` (the core's default material), scaled to
 * `basis` by each field's declared scale (MATERIAL_SLIDERS, generated from fields.h). */
export function presetMaterial(label, basis, defaults, presets = PRESETS) {
	const [name, layer] = MATERIAL_PRESETS[label];
	const { about: _about, name: _name, color, ...fields } = presets.presets[name][layer];
	const out = { ...defaults, ...fields };
	if (color) out.color = parseInt(color.slice(1), 16);
	for (const { field, scale } of MATERIAL_SLIDERS) out[field] *= unitFactor(scale, basis, presets);
	return out;
}

/** The solver a material preset is made for (a world has one solver, so applying a preset
 * switches it), from the file's "solvers" as the native viewer reads it: water runs DFSPH,
 * incompressible; a preset not listed there (lava, slime, the stratify classes) Clavet's
 * relaxation, which it was tuned for. */
export function presetSolver(label, presets = PRESETS) {
	return presets?.solvers?.[MATERIAL_PRESETS[label]?.[0]]?.kind ?? 'clavet';
}

/** DFSPH's settings (world_def.sph fields) for a scene written for another solver: those the
 * file's water preset brings, the shipped water scenes' (0.1 % density tolerance: in wasm the
 * pressure solve then takes about 5 iterations a substep instead of 35 at 0.01 %, which keeps
 * the page interactive; web/DEVELOPING.md). */
export function presetDfsph(presets = PRESETS) {
	const { kind: _kind, ...sph } = presets?.solvers?.water ?? {};
	return sph;
}

/** Solver substeps that keep k dt_sub^2 / h below 0.02 for every material (include/puddle/types.h),
 * k weighted by (rest density / 4)^1.5 above 4 and springs held to 0.25 k_spring dt_sub^2, as
 * viewer_substeps_needed (apps/viewer/presets.c) says why. */
export function substepsNeeded(world) {
	const def = world.def;
	// SPH and DFSPH take the substeps their CFL rule asks for, whatever this says
	if (def.solver !== Solver.CLAVET) return 1;
	let rate = 0; // 1/s^2
	for (let m = 0; m < world.materialCount; ++m) {
		const md = world.getMaterial(m);
		const crowd = Math.max(1, (md.rest_density / 4) ** 1.5);
		rate = Math.max(rate, crowd * Math.max(md.stiffness, md.near_stiffness) / def.interaction_radius, 0.25 * md.spring_stiffness);
	}
	return Math.min(64, Math.max(1, Math.ceil(def.dt * Math.sqrt(rate / 0.02))));
}
