/* puddle_io: the orbit camera of 3D scenes, shared by the headless renderer, the viewer and
 * (mirrored in JavaScript) the web page. It circles a target point: yaw turns it about the
 * vertical (+y) axis, pitch raises it above the horizon, distance moves it in and out.
 *
 *     pdl_camera cam = pdl_camera_framing(lo, hi);   // sees the whole box lo..hi
 *     cam.yaw += 10;                                  // orbit
 *     float m[16];
 *     pdl_camera_matrix(&cam, width / (float)height, m); // clip = m * (x, y, z, 1)
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_CAMERA_H
#define PUDDLE_CAMERA_H

#include "puddle/base.h"
#include "puddle/scene_fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/** target, yaw, pitch, distance, fov: declared, with their units, defaults and ranges, in
 * puddle/scene_fields.h (PDL_CAMERA_FIELDS). */
typedef struct pdl_camera {
	PDL_CAMERA_FIELDS(PDL_DEF_MEMBER, ~)
} pdl_camera;

/** The declared defaults (looking at the origin from 40 units away). */
pdl_camera pdl_default_camera(void);
/** The default camera aimed at the centre of the box [lo, hi], far enough
 * back that the whole box is in view at aspect 16:9. */
pdl_camera pdl_camera_framing(pdl_vec3 lo, pdl_vec3 hi);
/** Where the camera is, world units. */
pdl_vec3 pdl_camera_eye(const pdl_camera* camera);
/** The view-projection matrix for width / height = aspect, column-major (OpenGL order:
 * element [col * 4 + row]), right-handed, clip z in [-1, 1] between the near and far planes
 * distance / 100 and distance * 100. */
void pdl_camera_matrix(const pdl_camera* camera, float aspect, float out[16]);
/** The unit direction of the ray from the eye through a point of the picture given in
 * normalized device coordinates (x, y in [-1, 1], y up): what a mouse pointer ray needs. */
pdl_vec3 pdl_camera_ray(const pdl_camera* camera, float aspect, float ndc_x, float ndc_y);

#ifdef __cplusplus
}
#endif

#endif
