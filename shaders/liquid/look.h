/* The liquid look of 3D pictures, defined once for the three front ends that draw it: the
 * viewer (apps/viewer/liquid_gl.c, GL 3.3 core), the page (web/demo/liquid.js, WebGL 2) and
 * `puddle run` (io/src/render_liquid.c, in software). The GPU front ends prepend this file to
 * the shaders beside it (after their #version line); render_liquid.c includes it. So it holds
 * only #define lines of numbers, which C and GLSL read alike; a colour is three numbers,
 * written vec3(NAME) in GLSL and {NAME} in C.
 *
 * Lengths are in particle radii (the radius of the spheres drawn), so the look is the same
 * whatever a scene's scale. docs/rendering.md says what each step does.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PDL_LIQUID_LOOK_H
#define PDL_LIQUID_LOOK_H

/* ---- smoothing the depth (smooth.frag.glsl, render_liquid.c's blur_pass) -------------------- */
/* A separable bilateral filter, one pass along rows then one along columns (ROUNDS times on the
 * GPU; once in software): Gaussian weights over FILTER_RADII projected particle radii (at most
 * MAX_PIXELS, every pixel: strided samples drew blocks and streaks), times a Gaussian of the depth
 * difference of deviation RANGE_RADII beyond SLOPE pixel widths per pixel of distance along the
 * pass (a surface seen at a grazing angle). */
#define PDL_LIQUID_FILTER_RADII 4.0
#define PDL_LIQUID_FILTER_RANGE_RADII 3.0
#define PDL_LIQUID_FILTER_SLOPE 3.0
#define PDL_LIQUID_FILTER_ROUNDS 1
#define PDL_LIQUID_FILTER_MAX_PIXELS 48.0

/* ---- thickness and colour ----------------------------------------------------------------- */
/* Each particle adds a Gaussian of twice its radius holding its volume (1.05 r at the centre,
 * e^-3 of that at the rim) to the thickness. Its colour counts with the same weight times
 * exp(-depth below the surface / LAYER): one sees the liquid near the surface, so layers keep
 * their own hue instead of averaging along the ray. */
#define PDL_LIQUID_SPLAT_RADII 2.0
#define PDL_LIQUID_LAYER_RADII 6.0

/* ---- shading ------------------------------------------------------------------------------ */
/* Beer-Lambert absorption per radius of thickness: of each channel this share of what the
 * material's colour lacks, and of every channel a little (clear water darkens with depth). */
#define PDL_LIQUID_ABSORB 0.12
#define PDL_LIQUID_ABSORB_GREY 0.004
/* The light the water scatters towards the eye where it absorbed, in its own colour. */
#define PDL_LIQUID_SCATTER 0.85
/* Refraction: the background seen through the surface is shifted along the normal's screen
 * components by this share of the thickness (counted up to REFRACT_MAX radii), projected. */
#define PDL_LIQUID_REFRACT 0.25
#define PDL_LIQUID_REFRACT_MAX_RADII 6.0
/* Fresnel reflectance of water seen head on, ((1.33 - 1) / (1.33 + 1))^2 (Schlick). */
#define PDL_LIQUID_F0 0.02
/* The sky it reflects: towards the horizon the background lightened by this share of white,
 * overhead the background this far towards a blue. */
#define PDL_LIQUID_SKY_HORIZON_WHITE 0.45
#define PDL_LIQUID_SKY_BLUE 0.55, 0.72, 0.95
#define PDL_LIQUID_SKY_ZENITH_BLUE 0.7
/* The light's highlight (Blinn-Phong): its direction in view space (x right, y up, z towards
 * the viewer, not unit), strength and shininess. */
#define PDL_LIQUID_LIGHT -0.40, 0.70, 0.59
#define PDL_LIQUID_SPECULAR 0.6
#define PDL_LIQUID_SHININESS 80.0
/* The water's edge: its colour fades into what is behind as the thickness falls from EDGE_HI
 * to EDGE_LO radii, so the silhouette follows the smooth thickness, not each sphere's rim. */
#define PDL_LIQUID_EDGE_LO_RADII 0.1
#define PDL_LIQUID_EDGE_HI_RADII 0.8
/* Bodies in the water: the scene marks a body's pixels (alpha 0 in the GPU's scene colour; the
 * software renderer keeps a mask). Seen through the water, a body's submerged part is the
 * scenery behind it, absorbed by the water in front of it only (the liquid behind a body counts
 * for neither depth nor thickness). Where the water's surface meets a body, within WATERLINE
 * radii of water in front of it along the ray, the water takes the waterline's tone, WATERLINE
 * ALPHA at the contact fading to nothing at WATERLINE radii: a wet line along the hull. */
#define PDL_LIQUID_WATERLINE_RADII 2.0
#define PDL_LIQUID_WATERLINE_COLOR 0.93, 0.97, 1.0
#define PDL_LIQUID_WATERLINE_ALPHA 0.75

/* ---- foam and spray ----------------------------------------------------------------------- */
/* A particle faster than FOAM_SPEED (world units per second) with less than FOAM_DENSITY of its
 * material's rest density around it (Ihmsen et al. 2012's kinetic energy and few neighbours):
 * a white disc of FOAM_SIZE of its sphere, FOAM_ALPHA opaque at its centre (1 - q^2 to its rim),
 * FOAM_LIFT radii in front of its centre so its own sphere never hides it. FOAM_DENSITY is
 * below a free surface's own share (about half the rest density in DFSPH's incompressible water,
 * whose crater in drop-3d then wore a white dot on every surface particle), so that it marks
 * spray and sheets torn thin, not the surface of fast water. */
#define PDL_LIQUID_FOAM_SPEED 4.0
#define PDL_LIQUID_FOAM_DENSITY 0.4
#define PDL_LIQUID_FOAM_SIZE 0.55
#define PDL_LIQUID_FOAM_ALPHA 0.85
#define PDL_LIQUID_FOAM_LIFT 1.1
#define PDL_LIQUID_FOAM_COLOR 0.95, 0.97, 1.0

/* ---- diffuse particles (spray, foam, bubbles: src/diffuse.c, Ihmsen et al. 2012) ------------ */
/* Each is a white disc (FOAM_COLOR, 1 - q^2 to its rim) of DIFFUSE_SIZE particle radii
 * (diffuse.vert.glsl with foam.frag.glsl), hidden by what is nearer (the spheres and the scenery).
 * Spray and foam are drawn DIFFUSE_LIFT radii in front of their centre (foam floats on the surface
 * the spheres' fronts make); bubbles are not lifted and are fainter, so only those at the surface
 * or in thin water show. Foam fades out over its last FADE seconds of life. */
#define PDL_LIQUID_DIFFUSE_SIZE 0.5
#define PDL_LIQUID_DIFFUSE_LIFT 1.0
#define PDL_LIQUID_SPRAY_ALPHA 0.9
#define PDL_LIQUID_DIFFUSE_FOAM_ALPHA 0.8
#define PDL_LIQUID_BUBBLE_ALPHA 0.3
#define PDL_LIQUID_DIFFUSE_FADE 1.0

#endif
