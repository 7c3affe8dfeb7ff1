// The panel's sliders (panel.js), one for each field whose declaration gives a slider range: the
// material's, world.sph's, the world's and a boundary's (include/puddle/fields.h: scale, ui_lo,
// ui_hi, ui_log and the doc line). io/tests/fields_gen.c writes the lists below from the
// declarations; the test io.fields fails when they differ. Each slider: `field` and its `type`
// ('F32', 'I32', or 'VEC3': a slider per component), `min` and `max` at the presets' reference
// scene (h 1, |g| 10, rest density 4, mass 1), `scale` (how the range scales to another scene:
// presets.js unitFactor), `log` (a logarithmic slider in the native viewer), the `unit` and `doc`
// of the docs' tables (the slider's tooltip), and for world.sph the `solvers` that read it.

// generated from include/puddle/fields.h: material sliders (io/tests/fields_gen.c)
export const MATERIAL_SLIDERS = [
	{ field: 'rest_density', type: 'F32', min: 0.5, max: 20, scale: 'rest_density', log: false, unit: 'kernel sum (dimensionless)', doc: 'rho0 = sum_j (1 - r_ij/h)^2 at rest (Clavet eq. 1); 4 is about 25 neighbours' },
	{ field: 'stiffness', type: 'F32', min: 0, max: 2000, scale: 'g', log: true, unit: 'world units / s^2', doc: 'k, pressure P = k (rho - rho0) (eq. 2); stable while k dt_sub^2 < about 0.02' },
	{ field: 'near_stiffness', type: 'F32', min: 0, max: 2000, scale: 'g', log: true, unit: 'world units / s^2', doc: 'k_near, near pressure (eq. 5): keeps particles apart, gives surface tension' },
	{ field: 'mass', type: 'F32', min: 0.01, max: 100, scale: 'mass', log: true, unit: 'relative', doc: 'pair displacements split by inverse mass: heavier sinks through lighter' },
	{ field: 'gravity_scale', type: 'F32', min: -2, max: 3, scale: '1', log: false, unit: '', doc: 'multiplies `world.gravity`; negative floats up' },
	{ field: 'viscosity_sigma', type: 'F32', min: 0, max: 20, scale: 'sqrt(g/h)', log: false, unit: '1/s', doc: 'sigma, linear viscosity impulses (alg. 5)' },
	{ field: 'viscosity_beta', type: 'F32', min: 0, max: 5, scale: '1/h', log: false, unit: '1/world unit', doc: 'beta, quadratic viscosity impulses (alg. 5)' },
	{ field: 'spring_stiffness', type: 'F32', min: 0, max: 1000, scale: 'g/h', log: true, unit: '1/s^2', doc: 'k_spring, viscoelastic springs between particles of one material (alg. 4); 0 = a plain liquid' },
	{ field: 'yield_ratio', type: 'F32', min: 0, max: 1, scale: '1', log: false, unit: '', doc: 'gamma: a spring deforms by gamma L before it flows (alg. 3)' },
	{ field: 'plasticity', type: 'F32', min: 0, max: 5, scale: 'sqrt(g/h)', log: false, unit: '1/s', doc: 'alpha: how fast a yielded spring\'s rest length follows (alg. 3); 0 = elastic' },
	{ field: 'wall_friction', type: 'F32', min: 0, max: 1, scale: '1', log: false, unit: '', doc: 'Coulomb mu against walls, obstacles and bodies: a contact slows the sliding by at most mu times the normal speed it removes (water slides down slopes steeper than atan mu); multiplied by the boundary\'s (body\'s) `friction`' },
	{ field: 'wall_stickiness', type: 'F32', min: 0, max: 500, scale: 'g/h', log: false, unit: '1/s^2', doc: 'k_stick (section 6); multiplied by the boundary\'s `stickiness`' },
	{ field: 'stick_distance', type: 'F32', min: 0.01, max: 1, scale: '1', log: false, unit: 'fraction of h', doc: 'd_stick: reach of stickiness' },
];
// end of generated: material sliders

// generated from include/puddle/fields.h: solver sliders (io/tests/fields_gen.c)
export const SOLVER_SLIDERS = [
	{ field: 'speed_of_sound', type: 'F32', min: 20, max: 500, scale: 'h', log: false, unit: 'world units / s', doc: 'c, stiffness of the equation of state (dp/drho = c^2) and the CFL time step; compression is about (v/c)^2 and g depth / c^2, so keep c about 10x the fastest flow', solvers: ['sph'] },
	{ field: 'viscosity', type: 'F32', min: 0, max: 5, scale: 'h^2', log: false, unit: 'world units^2 / s', doc: 'nu, kinematic viscosity (SPH: Laplacian form, Mueller eq. 14; DFSPH: Monaghan 2005)', solvers: ['sph', 'dfsph'] },
	{ field: 'xsph', type: 'F32', min: 0, max: 0.5, scale: '1', log: false, unit: '', doc: 'XSPH, share of the velocity difference to the neighbours\' mean removed per 1/60 s', solvers: ['sph', 'dfsph'] },
	{ field: 'cfl', type: 'F32', min: 0.05, max: 1, scale: '1', log: false, unit: '', doc: 'the substep rule: SPH dt_sub <= cfl h / (c + v_max), cfl sqrt(h / a_max), cfl h^2 / (8 nu); DFSPH dt_sub <= cfl s / v_max, cfl sqrt(s / a_max), cfl h^2 / (8 nu) with s the rest spacing', solvers: ['sph', 'dfsph'] },
	{ field: 'density_tolerance', type: 'F32', min: 1e-05, max: 0.01, scale: '1', log: true, unit: '', doc: 'the relative density error the constant-density solve iterates down to (the larger of the mean over the particles under pressure and a twentieth of the largest)', solvers: ['dfsph'] },
	{ field: 'max_iterations', type: 'I32', min: 1, max: 1000, scale: '1', log: false, unit: '', doc: 'most iterations of each of the two pressure solves a substep; deep still water needs them (a 15 h pool moves at 0.15 h/s r.m.s. after 20 s at 100, 0.05 h/s at 400), a splash rarely more than 100', solvers: ['dfsph'] },
];
// end of generated: solver sliders

// generated from include/puddle/fields.h: world sliders (io/tests/fields_gen.c)
export const WORLD_SLIDERS = [
	{ field: 'gravity', type: 'VEC3', min: -50, max: 50, scale: 'g', log: false, unit: 'world units / s^2', doc: 'gravity acceleration, scaled per material and body by `gravity_scale`; y points up' },
	{ field: 'dt', type: 'F32', min: 0.00208333333, max: 0.0666666667, scale: '1', log: false, unit: 's', doc: 'length of one frame (one `pdl_world_step`)' },
	{ field: 'substeps', type: 'I32', min: 1, max: 32, scale: '1', log: false, unit: '', doc: 'solver steps per frame, each `dt / substeps` long; raise it for stiff or fast fluids; SPH and DFSPH: the least substeps, the CFL rule may take more' },
	{ field: 'interaction_radius', type: 'F32', min: 0.25, max: 4, scale: 'h', log: false, unit: 'world units', doc: 'h: particles closer than h push and pull each other; the neighbour grid has cells of h/2 (3D: h)' },
	{ field: 'max_particles', type: 'I32', min: 1000, max: 4194304, scale: '1', log: false, unit: '', doc: 'the most particles the world may hold (a scene\'s fills and emitters together)' },
];
// end of generated: world sliders

// generated from include/puddle/fields.h: boundary sliders (io/tests/fields_gen.c)
export const BOUNDARY_SLIDERS = [
	{ field: 'velocity', type: 'VEC3', min: -20, max: 20, scale: 'g', log: false, unit: 'world units / s', doc: 'surface velocity: friction and bounce act on the fluid\'s velocity relative to it, so it drags fluid along (a conveyor); the boundary itself does not move' },
	{ field: 'friction', type: 'F32', min: 0, max: 1, scale: '1', log: false, unit: '', doc: 'multiplies the material\'s `wall_friction` (mu); 0 makes the wall slippery for every material' },
	{ field: 'restitution', type: 'F32', min: 0, max: 1, scale: '1', log: false, unit: '', doc: 'share of the normal speed kept on impact' },
	{ field: 'stickiness', type: 'F32', min: 0, max: 200, scale: 'g', log: false, unit: '', doc: 'multiplies the material\'s `wall_stickiness` (k_stick); 0 makes the wall never sticky' },
];
// end of generated: boundary sliders
