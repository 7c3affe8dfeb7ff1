/* puddle_io: the headless software renderer. It draws the fluid the way the Unity SPH demo ends up
 * recommending ("alpha cutout" / metaballs): every particle is a soft splat, the splats are
 * summed into a field, and the fluid is where the field passes a threshold, so touching particles
 * merge into one smooth surface per blob. The edge is anti-aliased from the field's gradient
 * (coverage = (F - T) / |grad F| + 1/2, a signed distance in pixels). Rigid bodies are drawn over
 * the fluid in slot order, each filled with its colour inside an outline of 0.45 times that
 * colour (max(1.5, height / 360) pixels wide; a circle also shows its turned x axis as a radius
 * in the outline's colour), then containers and obstacles over both, all anti-aliased. Output is
 * 8-bit RGB, top row first.
 *
 * 3D worlds (world def dimensions 3) are seen through def.camera (puddle/camera.h), with a
 * perspective projection at aspect width / height. Every particle is a sphere of radius half its
 * material's rest spacing (pdl_rest_spacing_3d), rasterized into a per-pixel depth buffer (the
 * nearest surface wins; at equal depth the particle stored first), and shaded by one fixed light
 * above, left of and behind the camera (it turns with the camera): ambient + Lambert diffuse in
 * the colour the colour mode gives (material, speed, density or pressure, as in 2D), plus a small
 * white highlight (Blinn-Phong). Obstacles are ray-traced per pixel and shaded the same way in
 * obstacle_color: boxes (turned by their angle about z) and spheres. Rigid bodies are ray-traced
 * the same way in their own colour (boxes turned by their orientation, spheres), with the edges
 * of boxes and the rims of spheres darkened to 0.45 of it; particles, obstacles and bodies hide
 * one another by depth, pixel by pixel. A box container is drawn as
 * its floor (a lighter quad in wall_color) and its 12 edges, anti-aliased lines that fluid and
 * obstacles in front of them hide; a sphere container as its far inner wall and its outline.
 * Everything else is background. blob_radius, threshold and view_min/max are not used in 3D.
 * Bands of rows go to threads here too, and the picture is the same for any thread count.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_RENDER_H
#define PUDDLE_RENDER_H

#include "puddle/camera.h"
#include "puddle/puddle.h"
#include "puddle/scene.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most threads one renderer uses. */
#define PDL_RENDER_MAX_THREADS 16

typedef struct pdl_render_def {
	int width, height;          /**< pixels, >= 1 */
	/** World region to frame; it is fitted into the image keeping its aspect, centred. */
	pdl_vec2 view_min, view_max;
	pdl_color_mode color_mode;
	float blob_radius;          /**< splat radius, world units, > 0 */
	/** Surface level of the summed field; a lone particle's centre has 1. */
	float threshold;
	/** Ramp range for speed, density and pressure; min == max: taken from the frame. */
	float color_min, color_max;
	uint32_t background, wall_color, obstacle_color; /**< 0xRRGGBB */
	/** Threads drawing bands of rows, [1, PDL_RENDER_MAX_THREADS]; the picture is the same for
	 * any count. Default 1. */
	int threads;
	/** Material colours, 0xRRGGBB, by material id (defaults: the world's material colours). */
	uint32_t material_colors[PDL_MAX_MATERIALS];
	/** 3D worlds only: the camera the picture is seen through (ranges as in camera.h). */
	pdl_camera camera;
	/** 3D worlds only: draw the fluid as a liquid (one smoothed surface that refracts what is
	 * behind it, reflects a sky and absorbs in the fluid's colour by its thickness) instead of
	 * shaded spheres. pdl_render_def_from_scene sets it; false in a zeroed def. */
	bool liquid;
	/** 3D liquid pictures only: foam and spray, as the viewer and the page draw them. A particle
	 * is foam when it is faster than foam_speed and has less than foam_density of its material's
	 * rest density around it (the density the solver reports: Clavet's kernel sum against the
	 * material's rest_density, SPH's mass density against its rest density rho0). Foam is a
	 * small white disc (0.55 of the sphere's radius) in front of the particle's own sphere,
	 * hidden by whatever is nearer (water, obstacles, bodies), and the more opaque the further
	 * the particle is past both thresholds. World units / s, finite and >= 0; 0: no foam (a
	 * zeroed def). pdl_render_def_from_scene: PDL_LIQUID_FOAM_SPEED of shaders/liquid/look.h (4). */
	float foam_speed;
	/** Share of the rest density below which a fast particle is foam, in (0, 1] (above 1 even
	 * particles inside the water count as lonely; <= 0: none does). pdl_render_def_from_scene:
	 * PDL_LIQUID_FOAM_DENSITY of shaders/liquid/look.h (0.4). */
	float foam_density;
	/** 3D liquid pictures only: draw the world's diffuse particles (spray, foam and bubbles,
	 * pdl_world_diffuse) as white discs, with the constants of shaders/liquid/look.h
	 * (PDL_LIQUID_DIFFUSE_*), hidden by what is nearer: spray and foam over the water, bubbles
	 * fainter where they reach it. pdl_render_def_from_scene sets it; false in a zeroed def. */
	bool diffuse;
} pdl_render_def;

/** The scene's output section as a render def (size, view = scene bounds, colours; camera: one
 * framing the scene's bounds). */
pdl_render_def pdl_render_def_from_scene(const pdl_scene* scene);

typedef struct pdl_renderer pdl_renderer;

/** Keeps the field buffers between frames. NULL if out of memory or the size is not >= 1. */
pdl_renderer* pdl_renderer_create(const pdl_render_def* def);
void pdl_renderer_destroy(pdl_renderer* renderer);

/** Draws the world; returns width * height * 3 bytes of RGB owned by the renderer, valid until
 * the next call; NULL if out of memory. */
const uint8_t* pdl_render(pdl_renderer* renderer, const pdl_world* world);

/** World position to pixel coordinates (x right, y down), as pdl_render maps them in 2D. */
pdl_vec2 pdl_render_to_pixel(const pdl_renderer* renderer, pdl_vec2 world_position);

/** 3D: where def.camera shows a world position: pixel x (right) and y (down) in .x and .y, and
 * the view depth in .z (world units along the view direction; <= 0 behind the camera). */
pdl_vec3 pdl_render_project(const pdl_renderer* renderer, pdl_vec3 world_position);

/** The last 2D frame's field value at pixel (x, y), for tests: >= threshold means fluid. */
float pdl_render_field(const pdl_renderer* renderer, int x, int y);

#ifdef __cplusplus
}
#endif

#endif
