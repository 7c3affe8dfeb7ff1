/* puddle: every field of the definition structs, declared once.
 *
 * Each list below is an X-macro: PDL_MATERIAL_FIELDS(X, A) expands X(A, ...) once per field, in the
 * struct's order. Everything that names a field iterates over the list: the struct itself
 * (types.h), its defaults (src/world.c, src/boundary.c), its checks and their error ids
 * (src/validate.c, base.h's PDL_ERROR_LIST), the scene file's keys (io/src/scene_schema.c), the
 * snapshot's field order (io/src/snapshot.c), the CUDA material pack (src/cuda_step.h), the
 * WebAssembly offset tables (web/src/bindings.c), the Python bindings, the viewer's material,
 * solver and world sliders and preset scaling, and the generated tables of docs/scenes.md,
 * web/src/puddle.d.ts and the page's sliders, web/demo/sliders.js (io/tests/fields_gen.c; the
 * test io.fields fails when they differ from the lists). Adding a field is adding one line.
 *
 * The columns of a field, X(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale,
 * ui_lo, ui_hi, ui_log, since, doc):
 *   name    the C field (and the scene file's key, the JavaScript and Python name)
 *   ctype   its C type
 *   type    how bindings and snapshots store it: F32 (float), I32 (int), ENUM (an enum, as
 *           an int), COLOR (uint32_t 0xRRGGBB)
 *   deflt   the default value (the default def's)
 *   rule    the valid range, with lo and hi (plain literals: they are also the rule's words):
 *           GT  finite and > lo          GE  finite and >= lo       FINITE  finite
 *           IN  in [lo, hi]              IN_LO_OPEN  in (lo, hi]    ANY  no rule (colours)
 *           ENUM  one of an enum's values: lo its count, hi the rule's words
 *   error   the pdl_error_id of the rule (PDL_OK for ANY)
 *   unit    the unit in words, for the docs ("" when dimensionless)
 *   scale   how a value written for the reference scene (h 1, |g| 10, rest density 4, mass 1)
 *           scales to another (material presets, slider ranges): ONE (unchanged), G
 *           (g / g_ref), G_PER_H ((g/h) / (g/h)_ref), SQRT_G_PER_H (its square root), PER_H
 *           (h_ref / h), H (h / h_ref), H2 ((h / h_ref)^2), REST_DENSITY, MASS (the scene's over
 *           the reference's), NONE (not a number: colours; in the other lists, no slider)
 *   ui_lo, ui_hi, ui_log  the range a slider offers at the reference scene, and whether it is
 *           logarithmic (the viewer's and the page's panels)
 *   since   the snapshot version that first stored the field (older files get the default)
 *   doc     one line for the docs' tables
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_FIELDS_H
#define PUDDLE_FIELDS_H

/* pdl_material_def, a kind of fluid (Clavet, Beaudoin & Poulin 2005). Notes beyond the doc line:
 * - stiffness and near_stiffness: the displacement per step is dt^2 k ..., so k is an
 *   acceleration and the same k gives the same fluid at any dt. Stable while k dt_sub^2 stays
 *   below about 0.02 (rest density 4: k = 80 holds at one 1/60 s step, k = 100 does not); for a
 *   stiffer fluid raise world.substeps (the bound grows with the square of the substep count).
 * - mass: displacements between two particles split by inverse mass, so heavier particles sink
 *   through lighter ones.
 * - wall_friction: a contact slows the sliding by at most mu times the normal speed it removes
 *   (plus, on a sticky wall, the stickiness's pull), so water slides down any slope steeper than
 *   atan mu. Each boundary's (body's) friction multiplies it; each boundary's stickiness
 *   multiplies wall_stickiness.
 * - The SPH solvers read mass, gravity_scale and the wall fields; rest_density only sets their
 *   rest spacing; the rest is Clavet's. */
#define PDL_MATERIAL_FIELDS(X, A)                                                                                      \
	X(A, rest_density, float, F32, 4.0f, GT, 0, 0, PDL_ERR_MATERIAL_REST_DENSITY, "kernel sum (dimensionless)",        \
	  REST_DENSITY, 0.5, 20, 0, 1,                                                                                     \
	  "rho0 = sum_j (1 - r_ij/h)^2 at rest (Clavet eq. 1); 4 is about 25 neighbours")                                  \
	X(A, stiffness, float, F32, 60.0f, GE, 0, 0, PDL_ERR_MATERIAL_STIFFNESS, "world units / s^2", G, 0, 2000, 1, 1,    \
	  "k, pressure P = k (rho - rho0) (eq. 2); stable while k dt_sub^2 < about 0.02")                                  \
	X(A, near_stiffness, float, F32, 30.0f, GE, 0, 0, PDL_ERR_MATERIAL_NEAR_STIFFNESS, "world units / s^2", G, 0, 2000, \
	  1, 1, "k_near, near pressure (eq. 5): keeps particles apart, gives surface tension")                             \
	X(A, mass, float, F32, 1.0f, GT, 0, 0, PDL_ERR_MATERIAL_MASS, "relative", MASS, 0.01, 100, 1, 1,                   \
	  "pair displacements split by inverse mass: heavier sinks through lighter")                                       \
	X(A, gravity_scale, float, F32, 1.0f, FINITE, 0, 0, PDL_ERR_MATERIAL_GRAVITY_SCALE, "", ONE, -2, 3, 0, 1,          \
	  "multiplies `world.gravity`; negative floats up")                                                                \
	X(A, viscosity_sigma, float, F32, 0.5f, GE, 0, 0, PDL_ERR_MATERIAL_SIGMA, "1/s", SQRT_G_PER_H, 0, 20, 0, 1,        \
	  "sigma, linear viscosity impulses (alg. 5)")                                                                     \
	X(A, viscosity_beta, float, F32, 0.1f, GE, 0, 0, PDL_ERR_MATERIAL_BETA, "1/world unit", PER_H, 0, 5, 0, 1,         \
	  "beta, quadratic viscosity impulses (alg. 5)")                                                                   \
	X(A, spring_stiffness, float, F32, 0.0f, GE, 0, 0, PDL_ERR_MATERIAL_SPRING_STIFFNESS, "1/s^2", G_PER_H, 0, 1000, 1, \
	  1, "k_spring, viscoelastic springs between particles of one material (alg. 4); 0 = a plain liquid")             \
	X(A, yield_ratio, float, F32, 0.1f, IN, 0, 1, PDL_ERR_MATERIAL_YIELD_RATIO, "", ONE, 0, 1, 0, 1,                   \
	  "gamma: a spring deforms by gamma L before it flows (alg. 3)")                                                   \
	X(A, plasticity, float, F32, 0.3f, GE, 0, 0, PDL_ERR_MATERIAL_PLASTICITY, "1/s", SQRT_G_PER_H, 0, 5, 0, 1,         \
	  "alpha: how fast a yielded spring's rest length follows (alg. 3); 0 = elastic")                                  \
	X(A, wall_friction, float, F32, 0.1f, IN, 0, 1, PDL_ERR_MATERIAL_WALL_FRICTION, "", ONE, 0, 1, 0, 1,               \
	  "Coulomb mu against walls, obstacles and bodies: a contact slows the sliding by at most mu times the normal "   \
	  "speed it removes (water slides down slopes steeper than atan mu); multiplied by the boundary's (body's) "      \
	  "`friction`")                                                                                                    \
	X(A, wall_stickiness, float, F32, 0.0f, GE, 0, 0, PDL_ERR_MATERIAL_WALL_STICKINESS, "1/s^2", G_PER_H, 0, 500, 0,  \
	  1, "k_stick (section 6); multiplied by the boundary's `stickiness`")                                            \
	X(A, stick_distance, float, F32, 0.5f, IN_LO_OPEN, 0, 1, PDL_ERR_MATERIAL_STICK_DISTANCE, "fraction of h", ONE,    \
	  0.01, 1, 0, 1, "d_stick: reach of stickiness")                                                                   \
	X(A, color, uint32_t, COLOR, 0x2a7fd4u, ANY, 0, 0, PDL_OK, "", NONE, 0, 0, 0, 1, "display colour, 0xRRGGBB")

/* pdl_sph_def, the settings of the SPH and DFSPH solvers (world.sph), validated only for worlds
 * that use one of them. Its columns are the material's first fourteen (to the slider's range;
 * scale NONE: no slider), then `solvers` (which solver reads the field: SPH, DFSPH or SPH_ANY,
 * both; a scene key of another solver is refused, and a panel shows its slider only for those
 * solvers) and the doc line. ENUM fields take the count of their enum as lo and the rule's words
 * as hi. Notes beyond the doc lines are in types.h, above pdl_sph_def.
 * X(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, solvers, doc) */
#define PDL_SPH_FIELDS(X, A)                                                                                           \
	X(A, speed_of_sound, float, F32, 100.0f, GT, 0, 0, PDL_ERR_SPH_SPEED_OF_SOUND, "world units / s", H, 20, 500, 0,   \
	  SPH,                                                                                                             \
	  "c, stiffness of the equation of state (dp/drho = c^2) and the CFL time step; compression is about (v/c)^2 "     \
	  "and g depth / c^2, so keep c about 10x the fastest flow")                                                       \
	X(A, eos, pdl_sph_eos, ENUM, PDL_SPH_EOS_TAIT, ENUM, PDL_SPH_EOS_COUNT,                                            \
	  "must be PDL_SPH_EOS_TAIT or PDL_SPH_EOS_LINEAR", PDL_ERR_SPH_EOS, "", NONE, 0, 0, 0, SPH,                       \
	  "equation of state: Tait p = rho0 c^2 / gamma ((rho/rho0)^gamma - 1), or p = c^2 (rho - rho0); negative "        \
	  "pressures clamp to 0")                                                                                          \
	X(A, gamma, float, F32, 7.0f, IN, 1, 10, PDL_ERR_SPH_GAMMA, "", NONE, 0, 0, 0, SPH, "the Tait exponent")           \
	X(A, pressure_kernel, pdl_sph_pressure_kernel, ENUM, PDL_SPH_PRESSURE_WENDLAND, ENUM,                              \
	  PDL_SPH_PRESSURE_KERNEL_COUNT,                                                                                   \
	  "must be PDL_SPH_PRESSURE_POLY6, PDL_SPH_PRESSURE_SPIKY or PDL_SPH_PRESSURE_WENDLAND",                           \
	  PDL_ERR_SPH_PRESSURE_KERNEL, "", NONE, 0, 0, 0, SPH,                                                             \
	  "the kernels of the density and the pressure force: Wendland C2 for both (does not pair particles; DFSPH's "     \
	  "kernel), Mueller's Poly6 for both (pairs nearly every particle of a resting pool within seconds) or Poly6 "     \
	  "with Spiky's gradient (pumps energy in with a stiff `eos`: a resting pool never comes to rest); "               \
	  "docs/physics.md")                                                                                               \
	X(A, viscosity, float, F32, 0.5f, GE, 0, 0, PDL_ERR_SPH_VISCOSITY, "world units^2 / s", H2, 0, 5, 0, SPH_ANY,      \
	  "nu, kinematic viscosity (SPH: Laplacian form, Mueller eq. 14; DFSPH: Monaghan 2005)")                           \
	X(A, xsph, float, F32, 0.05f, IN, 0, 1, PDL_ERR_SPH_XSPH, "", ONE, 0, 0.5, 0, SPH_ANY,                             \
	  "XSPH, share of the velocity difference to the neighbours' mean removed per 1/60 s")                             \
	X(A, surface_tension, float, F32, 0.0f, GE, 0, 0, PDL_ERR_SPH_SURFACE_TENSION, "world units / s^2", NONE, 0, 0, 0, \
	  SPH_ANY, "gamma_st, Akinci 2013 cohesion and curvature; calm up to about 100 at c = 100")                        \
	X(A, cfl, float, F32, 0.4f, IN_LO_OPEN, 0, 1, PDL_ERR_SPH_CFL, "", ONE, 0.05, 1, 0, SPH_ANY,                       \
	  "the substep rule: SPH dt_sub <= cfl h / (c + v_max), cfl sqrt(h / a_max), cfl h^2 / (8 nu); DFSPH dt_sub <= "   \
	  "cfl s / v_max, cfl sqrt(s / a_max), cfl h^2 / (8 nu) with s the rest spacing")                                  \
	X(A, max_substeps, int, I32, 256, IN, 1, 4096, PDL_ERR_SPH_MAX_SUBSTEPS, "", NONE, 0, 0, 0, SPH_ANY,               \
	  "most substeps per frame the CFL rule may take")                                                                 \
	X(A, density_tolerance, float, F32, 0.0001f, IN_LO_OPEN, 0, 0.1, PDL_ERR_SPH_DENSITY_TOLERANCE, "", ONE, 1e-5,     \
	  1e-2, 1, DFSPH,                                                                                                  \
	  "the relative density error the constant-density solve iterates down to (the larger of the mean over the "       \
	  "particles under pressure and a twentieth of the largest)")                                                      \
	X(A, divergence_tolerance, float, F32, 0.003f, IN_LO_OPEN, 0, 10, PDL_ERR_SPH_DIVERGENCE_TOLERANCE, "1 / s", NONE, \
	  0, 0, 0, DFSPH,                                                                                                  \
	  "the relative rate of compression the divergence solve iterates down to, its mean over the particles with at "   \
	  "least 0.95 of their rest density; looser (0.1) is cheaper and lets a deep pool breathe")                        \
	X(A, max_iterations, int, I32, 400, IN, 1, 1000, PDL_ERR_SPH_MAX_ITERATIONS, "", ONE, 1, 1000, 0, DFSPH,           \
	  "most iterations of each of the two pressure solves a substep; deep still water needs them (a 15 h pool moves "  \
	  "at 0.15 h/s r.m.s. after 20 s at 100, 0.05 h/s at 400), a splash rarely more than 100")

/* pdl_diffuse_def, the diffuse particles (spray, foam and air bubbles) after Ihmsen, Akinci,
 * Gissler & Teschner 2012, "Unified Spray, Foam and Air Bubbles for Particle-Based Fluids"
 * (src/diffuse.c). They are made from the fluid after each step and never act back on it. Its
 * columns are the SPH list's less `solvers`:
 * X(A, name, ctype, type, deflt, rule, lo, hi, error, unit, doc).
 * The potentials are clamped by Phi(I, tau_min, tau_max) (eq. 1) into [0, 1]; the defaults are
 * for h = 1 and |g| = 10 (a fluid particle of a dam break falling 5 h moves at 10 h/s, kinetic
 * energy 50 h^2/s^2). Orders between fields (each _min below its _max, spray below bubble) are
 * checked too (PDL_ERR_DIFFUSE_TRAPPED_AIR_ORDER ... _NEIGHBOURS_ORDER, base.h). */
#define PDL_DIFFUSE_FIELDS(X, A)                                                                                       \
	X(A, enabled, int, I32, 0, IN, 0, 1, PDL_ERR_DIFFUSE_ENABLED, "",                                                  \
	  "1 makes and moves diffuse particles after every step; 0 keeps none (and drops those there are)")              \
	X(A, max_particles, int, I32, 65536, IN, 1, 16777216, PDL_ERR_DIFFUSE_MAX_PARTICLES, "",                          \
	  "most diffuse particles alive at once; while the set is full no new ones are made")                             \
	X(A, trapped_air_rate, float, F32, 20.0f, GE, 0, 0, PDL_ERR_DIFFUSE_TRAPPED_AIR_RATE, "1 / s",                     \
	  "k_ta: particles a second a fluid particle makes at full trapped-air and kinetic potentials (eq. 7)")          \
	X(A, wave_crest_rate, float, F32, 200.0f, GE, 0, 0, PDL_ERR_DIFFUSE_WAVE_CREST_RATE, "1 / s",                       \
	  "k_wc: the same for the wave-crest potential (eq. 7)")                                                          \
	X(A, trapped_air_min, float, F32, 10.0f, GE, 0, 0, PDL_ERR_DIFFUSE_TRAPPED_AIR_MIN, "world units / s",              \
	  "tau_ta^min: scaled velocity difference (eq. 2) below which no air is trapped")                                 \
	X(A, trapped_air_max, float, F32, 30.0f, GT, 0, 0, PDL_ERR_DIFFUSE_TRAPPED_AIR_MAX, "world units / s",             \
	  "tau_ta^max: the difference at which the trapped-air potential is 1")                                           \
	X(A, wave_crest_min, float, F32, 0.5f, GE, 0, 0, PDL_ERR_DIFFUSE_WAVE_CREST_MIN, "",                               \
	  "tau_wc^min: surface curvature (eq. 4, a kernel-weighted sum of 1 - n_i . n_j) below which a crest makes none") \
	X(A, wave_crest_max, float, F32, 3.0f, GT, 0, 0, PDL_ERR_DIFFUSE_WAVE_CREST_MAX, "",                               \
	  "tau_wc^max: the curvature at which the wave-crest potential is 1")                                             \
	X(A, kinetic_min, float, F32, 10.0f, GE, 0, 0, PDL_ERR_DIFFUSE_KINETIC_MIN, "world units^2 / s^2",                  \
	  "tau_k^min: kinetic energy per unit mass, |v|^2 / 2 (eq. 6), below which a particle makes none")              \
	X(A, kinetic_max, float, F32, 80.0f, GT, 0, 0, PDL_ERR_DIFFUSE_KINETIC_MAX, "world units^2 / s^2",                 \
	  "tau_k^max: the energy at which the kinetic potential is 1")                                                    \
	X(A, spray_neighbours, int, I32, 6, IN, 0, 10000, PDL_ERR_DIFFUSE_SPRAY_NEIGHBOURS, "fluid particles within h",    \
	  "a diffuse particle with at most this many fluid neighbours is spray (sec. 5.2: 6 in 3D; about 3 in 2D)")    \
	X(A, bubble_neighbours, int, I32, 20, IN, 0, 10000, PDL_ERR_DIFFUSE_BUBBLE_NEIGHBOURS, "fluid particles within h", \
	  "one with at least this many is an air bubble, between the two foam (sec. 5.2: 20 in 3D; about 9 in 2D)")     \
	X(A, foam_lifetime_min, float, F32, 2.0f, GE, 0, 0, PDL_ERR_DIFFUSE_FOAM_LIFETIME_MIN, "s",                        \
	  "each diffuse particle gets a life drawn from [min, max] when made; it runs down only while it is foam")      \
	X(A, foam_lifetime_max, float, F32, 5.0f, GE, 0, 0, PDL_ERR_DIFFUSE_FOAM_LIFETIME_MAX, "s",                        \
	  "the longest life; foam whose life has run out is removed")                                                     \
	X(A, bubble_buoyancy, float, F32, 2.0f, GE, 0, 0, PDL_ERR_DIFFUSE_BUBBLE_BUOYANCY, "",                             \
	  "k_b: a bubble rises with -k_b g (eq. 15)")                                                                      \
	X(A, bubble_drag, float, F32, 10.0f, GE, 0, 0, PDL_ERR_DIFFUSE_BUBBLE_DRAG, "1 / s",                               \
	  "k_d: how fast a bubble takes the fluid's velocity (eq. 15, per second instead of per step)")
/* The world, boundary, fill, body and pointer defs. Their columns are the material's first fourteen
 * (to the slider's range: what the page's panel offers, per component for a vector; scale NONE
 * where a panel has no slider for the field), then
 *   shapes  which values of the def's shape field (boundary: kind; fill and body: shape) use the
 *           field, as a mask PDL_SHAPES(PDL_BODY_CIRCLE) or PDL_SHAPES2(a, b); 0 for every shape.
 *           The engine checks the field, and a scene takes its key, only for those shapes.
 *   key     the field's scene key: KEY(k) (every object of the def), KEY_REQUIRED(k) (a key the
 *           scene must give, for the shapes that use it), KEY_2D(k, what 3D uses) and KEY_3D(k,
 *           what 2D uses) (one dimension's key, refused in the other), OBSTACLE_KEY(k) and
 *           OBSTACLE_KEY_REQUIRED(k) (obstacles[i] only, not the container), WORLD_KEY(k) and
 *           SOLVER_KEY(k) (the world def's keys: in the scene's "world" or "solver" object), or
 *           NO_KEY. The scene's key order is the list's.
 *   snap    the field's place in the snapshot's record of the def (1, 2, ...; 0: not stored)
 *   since   the snapshot version that first stored it (older files get the default)
 * Types beyond the material's: VEC3 (pdl_vec3; a scene gives [x, y] in 2D, [x, y, z] in 3D),
 * SPIN (a pdl_vec3 angular velocity: one number, about z, in a 2D scene), QUAT (pdl_quat),
 * VERTICES (pdl_vec2[PDL_MAX_POLYGON_VERTICES], as many as the def's vertex_count), COUNT (that
 * count: the scene and Python give the vertices alone) and MATERIAL (an int material id, which a
 * scene gives by the material's name). A vector is one field, not one per
 * component, so the docs show one row "[x, y]" and a vector's rule (FINITE; EXTENTS, finite and
 * > 0 on the world's axes) holds for each component; the error's value is the first that breaks it.
 * Rules beyond the material's: GT_LE ("finite, > lo and <= hi"), FINITE_IN_LO_OPEN (the same
 * rule, "finite and in (lo, hi]"), DIMENSIONS (lo or hi, fixed once the world exists), AT_LEAST
 * (an integer >= lo; a scene also refuses more than hi, the most particles a world holds), and
 * CUSTOM(lo, words), CUSTOM_GT(lo, words), CUSTOM_GE(lo, words): a rule that depends on more than
 * the field (the world's spacing, the other vertices); the engine's check is written once by hand
 * where the def is validated (src/validate.c), the list gives its error id and words, and a scene
 * checks only what it can alone (CUSTOM_GT: > lo, CUSTOM_GE: >= lo, CUSTOM: finite).
 * CUSTOM_SHARED(~, ~) is CUSTOM with an error id that another def declares.
 * Notes beyond the doc lines are in types.h, above each struct. io/tests/fields_gen.c writes
 * their tables in docs/scenes.md, their interfaces in web/src/puddle.d.ts and their snapshot
 * records in docs/cli.md (the test io.fields fails when those differ from the lists).
 * X(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, shapes, key, snap,
 *   since, doc) */
#define PDL_SHAPES(a) (1u << (a))
#define PDL_SHAPES2(a, b) ((1u << (a)) | (1u << (b)))
#define PDL_XYZ(x, y, z) {x, y, z}
#define PDL_XYZW(x, y, z, w) {x, y, z, w}

/* pdl_world_def (without `sph`, which is PDL_SPH_FIELDS). */
#define PDL_WORLD_FIELDS(X, A)                                                                                         \
	X(A, dimensions, int, I32, 2, DIMENSIONS, 2, 3, PDL_ERR_WORLD_DIMENSIONS, "", NONE, 0, 0, 0, 0,                    \
	  WORLD_KEY(dimensions), 1, 1,                                                                                     \
	  "2 or 3: a 3D world uses every vector's z, its circles are spheres; fixed when the world is created")            \
	X(A, gravity, pdl_vec3, VEC3, PDL_XYZ(0.0f, -10.0f, 0.0f), FINITE, 0, 0, PDL_ERR_WORLD_GRAVITY,                    \
	  "world units / s^2", G, -50, 50, 0, 0, WORLD_KEY(gravity), 5, 1,                                                 \
	  "gravity acceleration, scaled per material and body by `gravity_scale`; y points up")                            \
	X(A, dt, float, F32, 1.0f / 60.0f, GT_LE, 0, 1, PDL_ERR_WORLD_DT, "s", ONE, 1.0 / 480, 1.0 / 15, 0, 0,             \
	  WORLD_KEY(dt), 3, 1, "length of one frame (one `pdl_world_step`)")                                               \
	X(A, substeps, int, I32, 1, IN, 1, 64, PDL_ERR_WORLD_SUBSTEPS, "", ONE, 1, 32, 0, 0, WORLD_KEY(substeps), 4, 1,    \
	  "solver steps per frame, each `dt / substeps` long; raise it for stiff or fast fluids; SPH and DFSPH: the "      \
	  "least substeps, the CFL rule may take more")                                                                    \
	X(A, solver, pdl_solver_kind, ENUM, PDL_SOLVER_CLAVET, ENUM, PDL_SOLVER_KIND_COUNT,                                \
	  "must be PDL_SOLVER_CLAVET, PDL_SOLVER_SPH or PDL_SOLVER_DFSPH", PDL_ERR_WORLD_SOLVER, "", NONE, 0, 0, 0, 0,     \
	  SOLVER_KEY(kind), 0, 1,                                                                                          \
	  "the solver: Clavet 2005 double density relaxation, SPH after Mueller, Charypar & Gross 2003, or "               \
	  "incompressible divergence-free SPH after Bender & Koschier 2017 (docs/physics.md)")                             \
	X(A, interaction_radius, float, F32, 1.0f, GT, 0, 0, PDL_ERR_WORLD_INTERACTION_RADIUS, "world units", H, 0.25, 4,  \
	  0, 0, SOLVER_KEY(interaction_radius), 2, 1,                                                                      \
	  "h: particles closer than h push and pull each other; the neighbour grid has cells of h/2 (3D: h)")              \
	X(A, backend, pdl_backend, ENUM, PDL_BACKEND_CPU, ENUM, PDL_BACKEND_COUNT,                                         \
	  "must be PDL_BACKEND_CPU, or PDL_BACKEND_CUDA where the build has CUDA and the machine a GPU",                   \
	  PDL_ERR_WORLD_BACKEND, "", NONE, 0, 0, 0, 0, SOLVER_KEY(backend), 0, 1,                                          \
	  "where the step runs: the CPU's cores, or an NVIDIA GPU in a build with CUDA (docs/cuda.md); a scene asking "    \
	  "for \"cuda\" parses anywhere and fails when its world is built where there is no GPU")                          \
	X(A, threads, int, I32, 0, IN, 0, 256, PDL_ERR_WORLD_THREADS, "", NONE, 0, 0, 0, 0, SOLVER_KEY(threads), 0, 1,     \
	  "worker threads, 0 = one per core; results are bitwise identical for any count")                                 \
	X(A, max_particles, int, I32, 1 << 22, IN, 1, 67108864, PDL_ERR_WORLD_MAX_PARTICLES, "", ONE, 1000, 4194304, 0, 0, \
	  SOLVER_KEY(max_particles), 6, 1,                                                                                 \
	  "the most particles the world may hold (a scene's fills and emitters together)")

/* pdl_boundary_def: a container (kinds *_CONTAINER) or an obstacle. */
#define PDL_BOUNDARY_CIRCLES PDL_SHAPES2(PDL_BOUNDARY_CIRCLE_CONTAINER, PDL_BOUNDARY_CIRCLE)
#define PDL_BOUNDARY_BOXES PDL_SHAPES2(PDL_BOUNDARY_BOX_CONTAINER, PDL_BOUNDARY_BOX)
#define PDL_BOUNDARY_FIELDS(X, A)                                                                                      \
	X(A, kind, pdl_boundary_kind, ENUM, PDL_BOUNDARY_BOX, ENUM, PDL_BOUNDARY_KIND_COUNT, "must be a known kind",       \
	  PDL_ERR_BOUNDARY_KIND, "", NONE, 0, 0, 0, 0, KEY_REQUIRED(shape), 1, 1,                                          \
	  "the shape: a container keeps the fluid inside, an obstacle outside; polygons are 2D only")                      \
	X(A, position, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_BOUNDARY_POSITION, "world units",  \
	  NONE, 0, 0, 0, 0, KEY(position), 2, 1, "centre (circle, box) or origin of the vertices (polygon)")               \
	X(A, radius, float, F32, 1.0f, GT, 0, 0, PDL_ERR_BOUNDARY_RADIUS, "world units", NONE, 0, 0, 0,                    \
	  PDL_BOUNDARY_CIRCLES, KEY_REQUIRED(radius), 4, 1, "circle (3D: sphere) radius")                                  \
	X(A, half_extents, pdl_vec3, VEC3, PDL_XYZ(1.0f, 1.0f, 1.0f), EXTENTS, 0, 0, PDL_ERR_BOUNDARY_HALF_EXTENTS,        \
	  "world units", NONE, 0, 0, 0, PDL_BOUNDARY_BOXES, KEY_REQUIRED(half_extents), 5, 1,                              \
	  "half width, height (3D: and depth)")                                                                            \
	X(A, angle, float, F32, 0.0f, FINITE, 0, 0, PDL_ERR_BOUNDARY_ANGLE, "radians", NONE, 0, 0, 0,                      \
	  PDL_BOUNDARY_BOXES | PDL_SHAPES(PDL_BOUNDARY_POLYGON), KEY(angle), 3, 1,                                         \
	  "rotation about `position`, counter-clockwise (3D: about the z axis)")                                           \
	X(A, vertex_count, int, COUNT, 0, IN, 3, 16, PDL_ERR_BOUNDARY_VERTEX_COUNT, "", NONE, 0, 0, 0,                     \
	  PDL_SHAPES(PDL_BOUNDARY_POLYGON), NO_KEY, 6, 1, "how many of `vertices` the polygon has")                        \
	X(A, vertices, pdl_vec2, VERTICES, {{0}}, CUSTOM, ~,                                                               \
	  "must be finite, convex, counter-clockwise, with non-zero area", PDL_ERR_BOUNDARY_VERTICES,                      \
	  "world units, relative to `position`", NONE, 0, 0, 0, PDL_SHAPES(PDL_BOUNDARY_POLYGON),                          \
	  OBSTACLE_KEY_REQUIRED(vertices), 7, 1, "the polygon's corners, counter-clockwise")                               \
	X(A, velocity, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_BOUNDARY_VELOCITY,                 \
	  "world units / s", G, -20, 20, 0, 0, OBSTACLE_KEY(velocity), 8, 1,                                               \
	  "surface velocity: friction and bounce act on the fluid's velocity relative to it, so it drags fluid along "     \
	  "(a conveyor); the boundary itself does not move")                                                               \
	X(A, friction, float, F32, 1.0f, IN, 0, 1, PDL_ERR_BOUNDARY_FRICTION, "", ONE, 0, 1, 0, 0, KEY(friction), 9, 1,    \
	  "multiplies the material's `wall_friction` (mu); 0 makes the wall slippery for every material")                  \
	X(A, restitution, float, F32, 0.0f, IN, 0, 1, PDL_ERR_BOUNDARY_RESTITUTION, "", ONE, 0, 1, 0, 0, KEY(restitution), \
	  10, 1, "share of the normal speed kept on impact")                                                               \
	X(A, stickiness, float, F32, 1.0f, GE, 0, 0, PDL_ERR_BOUNDARY_STICKINESS, "", G, 0, 200, 0, 0, KEY(stickiness),    \
	  11, 1, "multiplies the material's `wall_stickiness` (k_stick); 0 makes the wall never sticky")

/* pdl_fill_def, a batch of new particles (not stored in snapshots: its particles are). */
#define PDL_FILL_FIELDS(X, A)                                                                                          \
	X(A, shape, pdl_fill_shape, ENUM, PDL_FILL_BOX, ENUM, PDL_FILL_SHAPE_COUNT, "must be a known shape",               \
	  PDL_ERR_FILL_SHAPE, "", NONE, 0, 0, 0, 0, KEY_REQUIRED(shape), 0, 1,                                             \
	  "box and disc (3D: ball): a lattice; sunflower (2D): a Fermat spiral disc, no lattice directions; line: a "      \
	  "row; point: particles at one spot")                                                                             \
	X(A, material, int, MATERIAL, 0, CUSTOM_SHARED, ~, ~, PDL_ERR_MATERIAL_ID, "", NONE, 0, 0, 0, 0, KEY(material), 0, \
	  1, "the material (a scene names it; default the first)")                                                         \
	X(A, position, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_FILL_POSITION, "world units",      \
	  NONE, 0, 0, 0, 0, KEY(position), 0, 1, "centre; start of a line; the point")                                     \
	X(A, end, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_FILL_END, "world units", NONE, 0, 0, 0, \
	  PDL_SHAPES(PDL_FILL_LINE), KEY_REQUIRED(end), 0, 1, "end of the line")                                           \
	X(A, radius, float, F32, 5.0f, GT, 0, 0, PDL_ERR_FILL_RADIUS, "world units", NONE, 0, 0, 0,                        \
	  PDL_SHAPES2(PDL_FILL_DISC, PDL_FILL_SPIRAL), KEY_REQUIRED(radius), 0, 1, "disc (3D: ball) and sunflower radius") \
	X(A, half_extents, pdl_vec3, VEC3, PDL_XYZ(5.0f, 5.0f, 5.0f), EXTENTS, 0, 0, PDL_ERR_FILL_HALF_EXTENTS,            \
	  "world units", NONE, 0, 0, 0, PDL_SHAPES(PDL_FILL_BOX), KEY_REQUIRED(half_extents), 0, 1,                        \
	  "half width, height (3D: and depth)")                                                                            \
	X(A, spacing, float, F32, 0.0f, CUSTOM_GE, 0, "must be finite and >= 0.01 * interaction_radius",                   \
	  PDL_ERR_FILL_SPACING, "world units", NONE, 0, 0, 0,                                                              \
	  PDL_SHAPES2(PDL_FILL_LINE, PDL_FILL_DISC) | PDL_SHAPES2(PDL_FILL_BOX, PDL_FILL_SPIRAL), KEY(spacing), 0, 1,      \
	  "distance between neighbours; 0 = the spacing at which the material is at its rest density (the fluid "          \
	  "starts calm), else at least 0.01 h")                                                                            \
	X(A, count, int, I32, 0, AT_LEAST, 0, 67108864, PDL_ERR_FILL_COUNT, "", NONE, 0, 0, 0,                             \
	  PDL_SHAPES2(PDL_FILL_POINT, PDL_FILL_SPIRAL), KEY(count), 0, 1,                                                  \
	  "how many particles: point, 0 counts as 1 (a scene's default is 1); sunflower, 0 = as many as "                  \
	  "the spacing gives")                                                                                             \
	X(A, velocity, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_FILL_VELOCITY, "world units / s",  \
	  NONE, 0, 0, 0, 0, KEY(velocity), 0, 1, "initial velocity")

/* pdl_body_def, a rigid body (notes in types.h). */
#define PDL_BODY_FIELDS(X, A)                                                                                          \
	X(A, shape, pdl_body_shape, ENUM, PDL_BODY_BOX, ENUM, PDL_BODY_SHAPE_COUNT,                                        \
	  "must be PDL_BODY_BOX, PDL_BODY_CIRCLE or PDL_BODY_POLYGON", PDL_ERR_BODY_SHAPE, "", NONE, 0, 0, 0, 0,           \
	  KEY_REQUIRED(shape), 2, 1,                                                                                       \
	  "a box of `half_extents`, a circle (3D: sphere) of `radius`, or a convex polygon of `vertices` (2D only)")       \
	X(A, type, pdl_body_type, ENUM, PDL_BODY_DYNAMIC, ENUM, PDL_BODY_TYPE_COUNT,                                       \
	  "must be PDL_BODY_DYNAMIC or PDL_BODY_KINEMATIC", PDL_ERR_BODY_TYPE, "", NONE, 0, 0, 0, 0, KEY(type), 1, 1,      \
	  "dynamic: moved by gravity, the fluid, walls and other bodies; kinematic: moves at its own velocity only")       \
	X(A, position, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_BODY_POSITION, "world units",      \
	  NONE, 0, 0, 0, 0, KEY(position), 3, 1,                                                                           \
	  "centre of mass; for a polygon the origin of its `vertices` (the body is then moved so "                         \
	  "that its centroid is there)")                                                                                   \
	X(A, angle, float, F32, 0.0f, FINITE, 0, 0, PDL_ERR_BODY_ANGLE, "radians", NONE, 0, 0, 0, 0,                       \
	  KEY_2D(angle, "3D bodies turn by \"orientation\""), 4, 1, "2D: rotation, counter-clockwise")                     \
	X(A, orientation, pdl_quat, QUAT, PDL_XYZW(0.0f, 0.0f, 0.0f, 1.0f), CUSTOM, ~, "must be finite and not zero",      \
	  PDL_ERR_BODY_ORIENTATION, "quaternion", NONE, 0, 0, 0, 0, KEY_3D(orientation, "2D bodies turn by \"angle\""), 5, \
	  1, "3D: rotation from the body's frame to the world's, [x, y, z, w] (normalised): about the unit axis u by a "   \
	  "is [u sin(a/2), cos(a/2)]")                                                                                     \
	X(A, linear_velocity, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_BODY_LINEAR_VELOCITY,       \
	  "world units / s", NONE, 0, 0, 0, 0, KEY(velocity), 6, 1,                                                        \
	  "velocity of the centre of mass (a kinematic body keeps it)")                                                    \
	X(A, angular_velocity, pdl_vec3, SPIN, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_BODY_ANGULAR_VELOCITY,     \
	  "radians / s", NONE, 0, 0, 0, 0, KEY(angular_velocity), 7, 1,                                                    \
	  "2D: counter-clockwise turn rate (z); 3D: along the axis, right-handed")                                         \
	X(A, radius, float, F32, 1.0f, CUSTOM_GT, 0, "must be finite and >= 0.5 * particle spacing", PDL_ERR_BODY_RADIUS,  \
	  "world units", NONE, 0, 0, 0, PDL_SHAPES(PDL_BODY_CIRCLE), KEY_REQUIRED(radius), 8, 1,                           \
	  "circle (3D: sphere) radius")                                                                                    \
	X(A, half_extents, pdl_vec3, VEC3, PDL_XYZ(1.0f, 1.0f, 1.0f), CUSTOM_GT, 0,                                        \
	  "must be finite and >= 0.5 * particle spacing", PDL_ERR_BODY_HALF_EXTENTS, "world units", NONE, 0, 0, 0,         \
	  PDL_SHAPES(PDL_BODY_BOX), KEY_REQUIRED(half_extents), 9, 1, "half width, height (3D: and depth)")                \
	X(A, vertex_count, int, COUNT, 0, IN, 3, 16, PDL_ERR_BODY_VERTEX_COUNT, "", NONE, 0, 0, 0,                         \
	  PDL_SHAPES(PDL_BODY_POLYGON), NO_KEY, 10, 1, "how many of `vertices` the polygon has")                           \
	X(A, vertices, pdl_vec2, VERTICES, {{0}}, CUSTOM, ~,                                                               \
	  "must be finite, convex, counter-clockwise, at least a particle spacing across", PDL_ERR_BODY_VERTICES,          \
	  "world units, relative to `position`", NONE, 0, 0, 0, PDL_SHAPES(PDL_BODY_POLYGON), KEY_REQUIRED(vertices), 11,  \
	  1, "the polygon's corners, counter-clockwise")                                                                   \
	X(A, density, float, F32, 0.5f, FINITE_IN_LO_OPEN, 0, 1000, PDL_ERR_BODY_DENSITY,                                  \
	  "times the first material's fluid density", NONE, 0, 0, 0, 0, KEY(density), 12, 1,                               \
	  "mass per area (3D: volume): below 1 floats, above 1 sinks; unused by kinematic bodies. A 3D scene refuses "     \
	  "less than 1e-6: the fluid would fling the body until its speed overflows float")                                \
	X(A, friction, float, F32, 0.5f, IN, 0, 1, PDL_ERR_BODY_FRICTION, "", NONE, 0, 0, 0, 0, KEY(friction), 13, 1,      \
	  "Coulomb friction against walls, obstacles and other bodies (the fluid slides along a body by its "              \
	  "material's `wall_friction`)")                                                                                   \
	X(A, restitution, float, F32, 0.1f, IN, 0, 1, PDL_ERR_BODY_RESTITUTION, "", NONE, 0, 0, 0, 0, KEY(restitution),    \
	  14, 1, "share of the normal speed kept when it hits a wall or another body")                                     \
	X(A, gravity_scale, float, F32, 1.0f, FINITE, 0, 0, PDL_ERR_BODY_GRAVITY_SCALE, "", NONE, 0, 0, 0, 0,              \
	  KEY(gravity_scale), 15, 1, "multiplies `world.gravity` for this body")                                           \
	X(A, color, uint32_t, COLOR, 0xb5651du, ANY, 0, 0, PDL_OK, "", NONE, 0, 0, 0, 0, KEY(color), 16, 1,                \
	  "display colour, 0xRRGGBB (default wood)")

/* pdl_pointer, a mouse or touch pushing the fluid (a scene's strokes have keys of their own, and
 * a snapshot holds no pointer). */
#define PDL_POINTER_FIELDS(X, A)                                                                                       \
	X(A, position, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_POINTER_POSITION, "world units",   \
	  NONE, 0, 0, 0, 0, NO_KEY, 0, 1, "the pointer's centre (3D: the ray's origin)")                                   \
	X(A, direction, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_POINTER_DIRECTION, "", NONE, 0,   \
	  0, 0, 0, NO_KEY, 0, 1,                                                                                           \
	  "3D only: zero makes the pointer a ball around position, any other direction the half-line from "                \
	  "position along it (a mouse ray); need not be unit length")                                                      \
	X(A, velocity, pdl_vec3, VEC3, PDL_XYZ(0.0f, 0.0f, 0.0f), FINITE, 0, 0, PDL_ERR_POINTER_VELOCITY,                  \
	  "world units / s", NONE, 0, 0, 0, 0, NO_KEY, 0, 1,                                                               \
	  "the pointer's own velocity: with drag > 0 the fluid is carried along")                                          \
	X(A, radius, float, F32, 5.0f, GT, 0, 0, PDL_ERR_POINTER_RADIUS, "world units", NONE, 0, 0, 0, 0, NO_KEY, 0, 1,    \
	  "reach; the effect falls off linearly to zero at the edge")                                                      \
	X(A, strength, float, F32, 100.0f, FINITE, 0, 0, PDL_ERR_POINTER_STRENGTH, "world units / s^2", NONE, 0, 0, 0, 0,  \
	  NO_KEY, 0, 1, "acceleration toward the pointer at its centre; negative repels")                                  \
	X(A, drag, float, F32, 0.0f, GE, 0, 0, PDL_ERR_POINTER_DRAG, "1/s", NONE, 0, 0, 0, 0, NO_KEY, 0, 1,                \
	  "how strongly particles are pulled to the pointer's velocity")

/* ---- helpers for the lists' users ----------------------------------------------------------- */

/* A struct member: PDL_MATERIAL_FIELDS(PDL_FIELD_MEMBER, ~) inside a struct's braces. */
#define PDL_FIELD_MEMBER(A, name, ctype, ...) ctype name;
/* A designated initialiser of the default: PDL_MATERIAL_FIELDS(PDL_FIELD_DEFAULT, ~). */
#define PDL_FIELD_DEFAULT(A, name, ctype, type, deflt, ...) .name = deflt,

/* The rule's words, as pdl_error_rule() gives them. */
#define PDL_RULE_TEXT_GT(lo, hi) "must be finite and > " #lo
#define PDL_RULE_TEXT_GE(lo, hi) "must be finite and >= " #lo
#define PDL_RULE_TEXT_FINITE(lo, hi) "must be finite"
#define PDL_RULE_TEXT_IN(lo, hi) "must be in [" #lo ", " #hi "]"
#define PDL_RULE_TEXT_IN_LO_OPEN(lo, hi) "must be in (" #lo ", " #hi "]"
#define PDL_RULE_TEXT_ENUM(count, text) text

/* PDL_ERROR_LIST's entry of a field with a rule; none for ANY. */
#define PDL_FIELD_ERROR_GT(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_GT(lo, hi))
#define PDL_FIELD_ERROR_GE(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_GE(lo, hi))
#define PDL_FIELD_ERROR_FINITE(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_FINITE(lo, hi))
#define PDL_FIELD_ERROR_IN(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_IN(lo, hi))
#define PDL_FIELD_ERROR_IN_LO_OPEN(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_IN_LO_OPEN(lo, hi))
#define PDL_FIELD_ERROR_ENUM(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_ENUM(lo, hi))
#define PDL_FIELD_ERROR_ANY(X, error, s, name, lo, hi)
#define PDL_MATERIAL_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                      \
	PDL_FIELD_ERROR_##rule(X, error, "material", #name, lo, hi)
#define PDL_DIFFUSE_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                       \
	PDL_FIELD_ERROR_##rule(X, error, "diffuse", #name, lo, hi)
#define PDL_SPH_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                           \
	PDL_FIELD_ERROR_##rule(X, error, "world.sph", #name, lo, hi)

/* Whether value v of C type t meets the rule (the limits compared in t, as the field is). */
#define PDL_RULE_OK_GT(v, t, lo, hi) (isfinite((double)(v)) && (v) > (t)(lo))
#define PDL_RULE_OK_GE(v, t, lo, hi) (isfinite((double)(v)) && (v) >= (t)(lo))
#define PDL_RULE_OK_FINITE(v, t, lo, hi) (isfinite((double)(v)))
#define PDL_RULE_OK_IN(v, t, lo, hi) ((v) >= (t)(lo) && (v) <= (t)(hi))
#define PDL_RULE_OK_IN_LO_OPEN(v, t, lo, hi) ((v) > (t)(lo) && (v) <= (t)(hi))
#define PDL_RULE_OK_ENUM(v, t, count, text) ((unsigned)(v) < (unsigned)(count))
#define PDL_RULE_OK_ANY(v, t, lo, hi) 1

/* ---- helpers of the world, boundary, fill and body lists ------------------------------------ */

/* A struct member of any list: PDL_BODY_FIELDS(PDL_DEF_MEMBER, ~). */
#define PDL_DEF_MEMBER(A, name, ctype, type, ...) PDL_DEF_MEMBER_##type(ctype, name)
#define PDL_DEF_MEMBER_I32(ctype, name) ctype name;
#define PDL_DEF_MEMBER_F32(ctype, name) ctype name;
#define PDL_DEF_MEMBER_ENUM(ctype, name) ctype name;
#define PDL_DEF_MEMBER_COLOR(ctype, name) ctype name;
#define PDL_DEF_MEMBER_VEC3(ctype, name) ctype name;
#define PDL_DEF_MEMBER_SPIN(ctype, name) ctype name;
#define PDL_DEF_MEMBER_QUAT(ctype, name) ctype name;
#define PDL_DEF_MEMBER_COUNT(ctype, name) ctype name;
#define PDL_DEF_MEMBER_MATERIAL(ctype, name) ctype name;
#define PDL_DEF_MEMBER_VERTICES(ctype, name) ctype name[PDL_MAX_POLYGON_VERTICES];

#define PDL_RULE_TEXT_GT_LE(lo, hi) "must be finite, > " #lo " and <= " #hi
#define PDL_RULE_TEXT_FINITE_IN_LO_OPEN(lo, hi) "must be finite and in (" #lo ", " #hi "]"
#define PDL_RULE_TEXT_DIMENSIONS(lo, hi) "must be " #lo " or " #hi " and cannot change"
#define PDL_RULE_TEXT_AT_LEAST(lo, hi) "must be >= " #lo
#define PDL_RULE_TEXT_EXTENTS(lo, hi) "must be finite and > 0"
#define PDL_RULE_TEXT_CUSTOM(lo, words) words
#define PDL_RULE_TEXT_CUSTOM_GT(lo, words) words
#define PDL_RULE_TEXT_CUSTOM_GE(lo, words) words

#define PDL_FIELD_ERROR_GT_LE(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_GT_LE(lo, hi))
#define PDL_FIELD_ERROR_FINITE_IN_LO_OPEN(X, error, s, name, lo, hi)                                                 \
	X(error, s, name, PDL_RULE_TEXT_FINITE_IN_LO_OPEN(lo, hi))
#define PDL_FIELD_ERROR_DIMENSIONS(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_DIMENSIONS(lo, hi))
#define PDL_FIELD_ERROR_AT_LEAST(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_AT_LEAST(lo, hi))
#define PDL_FIELD_ERROR_EXTENTS(X, error, s, name, lo, hi) X(error, s, name, PDL_RULE_TEXT_EXTENTS(lo, hi))
#define PDL_FIELD_ERROR_CUSTOM(X, error, s, name, lo, hi) X(error, s, name, hi)
#define PDL_FIELD_ERROR_CUSTOM_GT(X, error, s, name, lo, hi) X(error, s, name, hi)
#define PDL_FIELD_ERROR_CUSTOM_GE(X, error, s, name, lo, hi) X(error, s, name, hi)
#define PDL_FIELD_ERROR_CUSTOM_SHARED(X, error, s, name, lo, hi)
#define PDL_WORLD_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                         \
	PDL_FIELD_ERROR_##rule(X, error, "world", #name, lo, hi)
#define PDL_BOUNDARY_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                      \
	PDL_FIELD_ERROR_##rule(X, error, "boundary", #name, lo, hi)
#define PDL_FILL_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                          \
	PDL_FIELD_ERROR_##rule(X, error, "fill", #name, lo, hi)
#define PDL_BODY_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                          \
	PDL_FIELD_ERROR_##rule(X, error, "body", #name, lo, hi)
#define PDL_POINTER_ERROR(X, name, ctype, type, deflt, rule, lo, hi, error, ...)                                       \
	PDL_FIELD_ERROR_##rule(X, error, "pointer", #name, lo, hi)

#define PDL_RULE_OK_GT_LE(v, t, lo, hi) (isfinite((double)(v)) && (v) > (t)(lo) && (v) <= (t)(hi))
#define PDL_RULE_OK_FINITE_IN_LO_OPEN(v, t, lo, hi) PDL_RULE_OK_GT_LE(v, t, lo, hi)
#define PDL_RULE_OK_AT_LEAST(v, t, lo, hi) ((v) >= (t)(lo))
#define PDL_RULE_OK_DIMENSIONS(v, t, lo, hi) ((v) == (t)(lo) || (v) == (t)(hi))

#endif
