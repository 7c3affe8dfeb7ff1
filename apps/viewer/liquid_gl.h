/* puddle-view: screen-space fluid rendering of 3D particles (the "liquid" render mode), the
 * OpenGL 3.3 port of web/demo/liquid.js: renderer3d.c draws the scene (floor, walls, obstacles,
 * bodies) into viewer_liquid_begin's framebuffer, then viewer_liquid_draw turns the particles
 * into a water surface over it in the default framebuffer. See liquid_gl.c for the passes.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_LIQUID_GL_H
#define PUDDLE_VIEWER_LIQUID_GL_H

#include "gl.h"
#include "viewer.h"

typedef struct viewer_liquid viewer_liquid;

/* What the passes need of the camera and the viewport. */
typedef struct viewer_liquid_view {
	float view_projection[16];
	/* the camera's frame (world space, unit): right, up, back (towards the eye) */
	pdl_vec3 right, up, back;
	float background[3];       /* the scene's background colour: the sky the water reflects */
	float radius;              /* particle radius, world units */
	float fov;                 /* vertical, degrees */
	float near, far;           /* the projection's planes (pdl_camera_matrix) */
	float distance;            /* from the eye to the camera's target, world units */
	int x, y, width, height;   /* the viewport in the default framebuffer, GL's origin bottom-left */
} viewer_liquid_view;

/* NULL with the reason in err when a shader does not build. */
viewer_liquid* viewer_liquid_create(char* err, int err_size);
void viewer_liquid_destroy(viewer_liquid* liquid);
/* Binds the framebuffer the scene behind the water is drawn into (the viewport's width x height
 * times `scale`, (0, 1], each way: the liquid's passes run at that resolution and the picture is
 * scaled up into the viewport; viewport set, cleared to clear_rgb); false, with one line on
 * stderr the first time, when the float targets cannot be made: then the caller draws spheres. */
bool viewer_liquid_begin(viewer_liquid* liquid, int width, int height, float scale, const float clear_rgb[3]);
/* The particles as water over the scene, into the default framebuffer inside view->x, y,
 * width, height, with the scene's depth (and the water's) in its depth buffer for what follows. */
void viewer_liquid_draw(viewer_liquid* liquid, const viewer_app* app, const pdl_particle_data* p,
                        const viewer_liquid_view* view);
/* Window pixels per thickness texel, each way, in the last frame drawn (0 before one, or for
 * NULL): 2 to 4, coarser as the spheres look bigger (liquid_gl.c, thickness_divisor). */
int viewer_liquid_thickness_divisor(const viewer_liquid* liquid);
/* Scales the scene drawn into viewer_liquid_begin's framebuffer up into the viewport (x, y,
 * width, height, GL's origin bottom-left) of the default framebuffer, without the water: the
 * spheres' look at a lower resolution. Leaves the default framebuffer bound, that viewport set. */
void viewer_liquid_present_scene(viewer_liquid* liquid, int x, int y, int width, int height);

#endif
