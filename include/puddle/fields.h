/* puddle: every field of the definition structs, declared once.
 *
 * Each list below is an X-macro: PDL_MATERIAL_FIELDS(X, A) expands X(A, ...) once per field, in
 * the struct's order. Everything that names a field iterates over the list: the struct itself
 * (types.h), its defaults (src/world.c), its checks and their error ids (src/validate.c,
 * base.h's PDL_ERROR_LIST), the scene file's keys (io/src/scene_schema.c), the snapshot's field
 * order (io/src/snapshot.c), the CUDA material pack (src/cuda_step.h), the WebAssembly offset
 * tables (web/src/bindings.c), the Python bindings, the viewer's sliders and preset scaling, and
 * the generated tables of docs/scenes.md and web/src/puddle.d.ts (tools/fields_gen.c; the test
 * core.fields fails when they differ from the lists). Adding a field is adding one line.
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
 *           (h_ref / h), REST_DENSITY, MASS (the scene's over the reference's), NONE (not a
 *           number: colours)
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
 * that use one of them. Its columns are the material's first ten, then `solvers` (which solver
 * reads the field: SPH, DFSPH or SPH_ANY, both; a scene key of another solver is refused) and
 * the doc line. ENUM fields take the count of their enum as lo and the rule's words as hi.
 * Notes beyond the doc lines are in types.h, above pdl_sph_def.
 * X(A, name, ctype, type, deflt, rule, lo, hi, error, unit, solvers, doc) */
#define PDL_SPH_FIELDS(X, A)                                                                                           \
	X(A, speed_of_sound, float, F32, 100.0f, GT, 0, 0, PDL_ERR_SPH_SPEED_OF_SOUND, "world units / s", SPH,             \
	  "c, stiffness of the equation of state (dp/drho = c^2) and the CFL time step; compression is about (v/c)^2 "   \
	  "and g depth / c^2, so keep c about 10x the fastest flow")                                                      \
	X(A, eos, pdl_sph_eos, ENUM, PDL_SPH_EOS_TAIT, ENUM, PDL_SPH_EOS_COUNT,                                            \
	  "must be PDL_SPH_EOS_TAIT or PDL_SPH_EOS_LINEAR", PDL_ERR_SPH_EOS, "", SPH,                                      \
	  "equation of state: Tait p = rho0 c^2 / gamma ((rho/rho0)^gamma - 1), or p = c^2 (rho - rho0); negative "      \
	  "pressures clamp to 0")                                                                                          \
	X(A, gamma, float, F32, 7.0f, IN, 1, 10, PDL_ERR_SPH_GAMMA, "", SPH, "the Tait exponent")                          \
	X(A, pressure_kernel, pdl_sph_pressure_kernel, ENUM, PDL_SPH_PRESSURE_WENDLAND, ENUM, PDL_SPH_PRESSURE_KERNEL_COUNT, \
	  "must be PDL_SPH_PRESSURE_POLY6, PDL_SPH_PRESSURE_SPIKY or PDL_SPH_PRESSURE_WENDLAND", PDL_ERR_SPH_PRESSURE_KERNEL, \
	  "", SPH,                                                                                                         \
	  "the kernels of the density and the pressure force: Wendland C2 for both (does not pair particles; DFSPH's "    \
	  "kernel), Mueller's Poly6 for both (pairs nearly every particle of a resting pool within seconds) or Poly6 "    \
	  "with Spiky's gradient (pumps energy in with a stiff `eos`: a resting pool never comes to rest); "              \
	  "docs/physics.md")                                                                                               \
	X(A, viscosity, float, F32, 0.5f, GE, 0, 0, PDL_ERR_SPH_VISCOSITY, "world units^2 / s", SPH_ANY,                   \
	  "nu, kinematic viscosity (SPH: Laplacian form, Mueller eq. 14; DFSPH: Monaghan 2005)")                          \
	X(A, xsph, float, F32, 0.05f, IN, 0, 1, PDL_ERR_SPH_XSPH, "", SPH_ANY,                                             \
	  "XSPH, share of the velocity difference to the neighbours' mean removed per 1/60 s")                           \
	X(A, surface_tension, float, F32, 0.0f, GE, 0, 0, PDL_ERR_SPH_SURFACE_TENSION, "world units / s^2", SPH_ANY,       \
	  "gamma_st, Akinci 2013 cohesion and curvature; calm up to about 100 at c = 100")                                \
	X(A, cfl, float, F32, 0.4f, IN_LO_OPEN, 0, 1, PDL_ERR_SPH_CFL, "", SPH_ANY,                                        \
	  "the substep rule: SPH dt_sub <= cfl h / (c + v_max), cfl sqrt(h / a_max), cfl h^2 / (8 nu); DFSPH dt_sub <= "  \
	  "cfl s / v_max, cfl sqrt(s / a_max), cfl h^2 / (8 nu) with s the rest spacing")                               \
	X(A, max_substeps, int, I32, 256, IN, 1, 4096, PDL_ERR_SPH_MAX_SUBSTEPS, "", SPH_ANY,                              \
	  "most substeps per frame the CFL rule may take")                                                                 \
	X(A, density_tolerance, float, F32, 0.0001f, IN_LO_OPEN, 0, 0.1, PDL_ERR_SPH_DENSITY_TOLERANCE, "", DFSPH,         \
	  "the relative density error the constant-density solve iterates down to (the larger of the mean over the "     \
	  "particles under pressure and a twentieth of the largest)")                                                     \
	X(A, divergence_tolerance, float, F32, 0.003f, IN_LO_OPEN, 0, 10, PDL_ERR_SPH_DIVERGENCE_TOLERANCE, "1 / s", DFSPH, \
	  "the relative rate of compression the divergence solve iterates down to, measured the same way over the "      \
	  "particles with at least 0.95 of their rest density; looser (0.1) is cheaper and lets a deep pool breathe")    \
	X(A, max_iterations, int, I32, 400, IN, 1, 1000, PDL_ERR_SPH_MAX_ITERATIONS, "", DFSPH,                            \
	  "most iterations of each of the two pressure solves a substep; deep still water needs them (a 15 h pool moves " \
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

#endif
