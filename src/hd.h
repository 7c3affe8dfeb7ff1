/* Internal: what the CPU stages and the CUDA step (cuda_step.cu) share, written once in C that
 * CUDA compiles too: a pointer's pull on a particle, and the direction given to two particles at
 * the same place (PDL_HD, which marks them, and the vector helpers are vec.h's). Not part of the
 * public API. */
#ifndef PUDDLE_HD_H
#define PUDDLE_HD_H

#include "puddle/types.h"
#include "vec.h" /* PDL_HD, and the vector helpers */

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* The acceleration and drag one pointer gives a particle at (x, y, z) with velocity v
 * (the reference demos: click and drag). In 2D, and in 3D without a direction, the pointer is a
 * disc (ball) pulling towards its centre; a 3D pointer with a direction is a ray from position
 * (the mouse ray from a camera) and pulls towards the nearest point of that half-line. The
 * effect falls off linearly to zero at radius. */
PDL_HD static inline void pdl_pointer_effect(const pdl_pointer* ptr, bool three, float dt, float x, float y,
                                             float z, float v[3], float a[3])
{
	float dx = ptr->position.x - x, dy = ptr->position.y - y, dz = three ? ptr->position.z - z : 0;
	if (three) {
		pdl_vec3 d = ptr->direction;
		float dd = d.x * d.x + d.y * d.y + d.z * d.z;
		if (dd > 0) { /* offset to the nearest point of the ray: subtract the part along it */
			float t = -(dx * d.x + dy * d.y + dz * d.z) / dd;
			if (t > 0) {
				dx += t * d.x;
				dy += t * d.y;
				dz += t * d.z;
			}
		}
	}
	float r2 = dx * dx + dy * dy + dz * dz;
	if (r2 >= ptr->radius * ptr->radius) return;
	float r = sqrtf(r2), falloff = 1.0f - r / ptr->radius;
	if (r > 0) {
		a[0] += ptr->strength * falloff * dx / r;
		a[1] += ptr->strength * falloff * dy / r;
		a[2] += ptr->strength * falloff * dz / r;
	}
	/* drag toward the pointer's velocity, never past it */
	float pull = fminf(1.0f, dt * ptr->drag * falloff);
	v[0] += (ptr->velocity.x - v[0]) * pull;
	v[1] += (ptr->velocity.y - v[1]) * pull;
	v[2] += (ptr->velocity.z - v[2]) * pull;
}

/* A direction for two particles at the same place: unit, deterministic, and exactly
 * opposite for (b, a), so the pair still conserves momentum (instead of 0/0 = NaN). In 2D one
 * of eight directions in the plane, in 3D one of the eight cube diagonals. */
PDL_HD static inline pdl_vec3 pdl_coincident_direction(uint32_t id_a, uint32_t id_b, bool three)
{
	uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
	uint32_t h = lo * 0x9E3779B1u ^ (hi + 0x7F4A7C15u) * 0x85EBCA77u;
	h ^= h >> 15;
	/* eight fixed unit directions are enough to separate them */
	const float dirs[8][2] = {{1, 0},         {0.70710678f, 0.70710678f},
	                                 {0, 1},         {-0.70710678f, 0.70710678f},
	                                 {-1, 0},        {-0.70710678f, -0.70710678f},
	                                 {0, -1},        {0.70710678f, -0.70710678f}};
	float s = id_a < id_b ? 1.0f : -1.0f;
	if (three) {
		const float c = 0.57735027f; /* 1 / sqrt 3 */
		pdl_vec3 u = {s * (h & 1 ? c : -c), s * (h & 2 ? c : -c), s * (h & 4 ? c : -c)};
		return u;
	}
	pdl_vec3 u = {s * dirs[h & 7][0], s * dirs[h & 7][1], 0};
	return u;
}

#endif
