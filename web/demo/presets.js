// Material presets of the panel: the same four the native viewer offers (apps/viewer/scenes.c),
// as fields over the core's default material (water at h = 1).

/** name -> fields over pdl_default_material_def(). */
export const MATERIAL_PRESETS = {
	water: {},
	// Reference 002's "more viscous substance": strong viscosity impulses damp relative motion,
	// so it creeps and piles up; some wall friction and stickiness.
	lava: {
		viscosity_sigma: 3, viscosity_beta: 0.6, stiffness: 40, near_stiffness: 40, mass: 1.5,
		wall_friction: 0.6, wall_stickiness: 20, color: 0xff5a1f,
	},
	// Clavet section 4: springs between neighbours make it elastic; plasticity lets it flow once
	// stretched past the yield ratio; stickiness holds it to walls.
	slime: {
		spring_stiffness: 150, yield_ratio: 0.15, plasticity: 0.4, viscosity_sigma: 1, viscosity_beta: 0.3,
		wall_stickiness: 60, stick_distance: 0.5, color: 0x74d13e,
	},
	// Reference 001's three density classes (heavy, medium, light): rest densities 12/10/8 and
	// gravity scales 1.2/1.0/0.75, with mass in proportion to rest density so the heavier class
	// wins the mass-weighted displacement and sinks (scaled to h = 1 as tests/test_stratify.c).
	'stratify heavy': { rest_density: 6, mass: 1.2, gravity_scale: 1.2, viscosity_sigma: 0.1, viscosity_beta: 0.05, color: 0x36c5d6 },
	'stratify medium': { rest_density: 5, mass: 1, gravity_scale: 1, viscosity_sigma: 0.1, viscosity_beta: 0.05, color: 0x2a5fd4 },
	'stratify light': { rest_density: 4, mass: 0.8, gravity_scale: 0.75, viscosity_sigma: 0.1, viscosity_beta: 0.05, color: 0x9b59d0 },
};

/** Solver substeps that keep k dt_sub^2 / h below 0.02 for every material (include/puddle/types.h). */
export function substepsNeeded(world) {
	const def = world.def;
	let k = 0;
	for (let m = 0; m < world.materialCount; ++m) {
		const md = world.getMaterial(m);
		k = Math.max(k, md.stiffness, md.near_stiffness, 0.25 * md.spring_stiffness);
	}
	return Math.min(64, Math.max(1, Math.ceil(def.dt * Math.sqrt(k / (0.02 * def.interaction_radius)))));
}
