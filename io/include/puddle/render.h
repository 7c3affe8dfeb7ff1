/* puddle_io: the headless software renderer. It draws the fluid the way reference 002 ends up
 * recommending ("alpha cutout" / metaballs): every particle is a soft splat, the splats are
 * summed into a field, and the fluid is where the field passes a threshold, so touching particles
 * merge into one smooth surface per blob. The edge is anti-aliased from the field's gradient
 * (coverage = (F - T) / |grad F| + 1/2, a signed distance in pixels). Containers and obstacles are
 * drawn over it, also anti-aliased. Output is 8-bit RGB, top row first.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_RENDER_H
#define PUDDLE_RENDER_H

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
} pdl_render_def;

/** The scene's output section as a render def (size, view = scene bounds, colours). */
pdl_render_def pdl_render_def_from_scene(const pdl_scene* scene);

typedef struct pdl_renderer pdl_renderer;

/** Keeps the field buffers between frames. NULL if out of memory or the size is not >= 1. */
pdl_renderer* pdl_renderer_create(const pdl_render_def* def);
void pdl_renderer_destroy(pdl_renderer* renderer);

/** Draws the world; returns width * height * 3 bytes of RGB owned by the renderer, valid until
 * the next call. */
const uint8_t* pdl_render(pdl_renderer* renderer, const pdl_world* world);

/** World position to pixel coordinates (x right, y down), as pdl_render maps them. */
pdl_vec2 pdl_render_to_pixel(const pdl_renderer* renderer, pdl_vec2 world_position);

/** The last frame's field value at pixel (x, y), for tests: >= threshold means fluid. */
float pdl_render_field(const pdl_renderer* renderer, int x, int y);

#ifdef __cplusplus
}
#endif

#endif
