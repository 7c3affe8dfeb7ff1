/* Small vector maths, inline: one definition of each helper for the core (src/ and its CUDA
 * step), the io library and the apps, which include it by relative path (as they do
 * shaders/liquid/look.h). Private to puddle's own sources, not installed: the public API has
 * pdl_vec2 and pdl_vec3 (puddle/base.h) and no maths on them.
 *
 * Plain single-precision arithmetic in the order written, no fused multiply-add (the build's
 * -ffp-contract=off): every caller gets the bits its own copy gave. Initialised locals rather
 * than compound literals, so that CUDA's C++ compiles it too. */
#ifndef PUDDLE_VEC_H
#define PUDDLE_VEC_H

#include "puddle/base.h"

#include <math.h>

/* Host and device: CUDA compiles the functions marked so for both; C sees nothing. */
#ifdef __CUDACC__
#define PDL_HD __host__ __device__
#else
#define PDL_HD
#endif

/* ---- pdl_vec3 values (io's renderers, the viewer) -------------------------------------------- */

PDL_HD static inline pdl_vec3 pdl_v3(float x, float y, float z)
{
	pdl_vec3 v = {x, y, z};
	return v;
}
PDL_HD static inline pdl_vec3 pdl_v3_add(pdl_vec3 a, pdl_vec3 b) { return pdl_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
PDL_HD static inline pdl_vec3 pdl_v3_sub(pdl_vec3 a, pdl_vec3 b) { return pdl_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
PDL_HD static inline pdl_vec3 pdl_v3_scale(pdl_vec3 a, float s) { return pdl_v3(a.x * s, a.y * s, a.z * s); }
PDL_HD static inline float pdl_v3_dot(pdl_vec3 a, pdl_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
PDL_HD static inline pdl_vec3 pdl_v3_cross(pdl_vec3 a, pdl_vec3 b)
{
	return pdl_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* a over its length, or a itself when its length is 0. Two roundings of the same thing, each
 * kept because pictures are compared bit for bit: _normalize multiplies by the reciprocal (the
 * spheres, the scenery, the viewer), _unit divides each component (the liquid's rays). */
PDL_HD static inline pdl_vec3 pdl_v3_normalize(pdl_vec3 a)
{
	float length = sqrtf(pdl_v3_dot(a, a));
	return length > 0 ? pdl_v3_scale(a, 1.0f / length) : a;
}
PDL_HD static inline pdl_vec3 pdl_v3_unit(pdl_vec3 a)
{
	float length = sqrtf(pdl_v3_dot(a, a));
	return length > 0 ? pdl_v3(a.x / length, a.y / length, a.z / length) : a;
}

/* ---- float[3] arrays (the core's bodies and walls) ------------------------------------------- */

PDL_HD static inline float pdl_dot3(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
/* out = a x b; out may be a or b */
PDL_HD static inline void pdl_cross3(const float* a, const float* b, float* out)
{
	float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
	out[0] = x, out[1] = y, out[2] = z;
}

/* ---- pdl_vec2 -------------------------------------------------------------------------------- */

/* The z component of a x b: twice the signed area of the triangle (0, a, b) */
PDL_HD static inline float pdl_cross2(pdl_vec2 a, pdl_vec2 b) { return a.x * b.y - a.y * b.x; }

#endif
