/* Internal: the CUDA backend's interface (src/cuda_step.cu; src/cuda_none.c in a build without
 * CUDA). step.c packs what the GPU step needs from a world into a pdl_cuda_frame, since core.h
 * is C that CUDA's C++ does not take. Not part of the public API. */
#ifndef PUDDLE_CUDA_STEP_H
#define PUDDLE_CUDA_STEP_H

#include "kernels.h"
#include "walls.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A material's values for the GPU step: every field of pdl_material_def, by the same names
 * (puddle/fields.h), and whether it makes springs. */
typedef struct pdl_cuda_material {
	PDL_MATERIAL_FIELDS(PDL_FIELD_MEMBER, ~)
	int springs; /* spring_stiffness > 0 */
} pdl_cuda_material;

/* One pdl_world_step() for the GPU: the world's settings and its particles (host arrays, in the
 * world's order; the step leaves them in the GPU grid's order, as the CPU step leaves them in
 * its grid's). x_prev and the near pressures are the step's own scratch: the GPU step reads
 * neither from the host and writes neither back. */
typedef struct pdl_cuda_frame {
	int count;
	int capacity; /* the host arrays' length */
	bool three;
	float h;        /* interaction radius, world units */
	float dt;       /* one solver step, s */
	int substeps;   /* solver steps in this frame */
	pdl_vec3 gravity;
	pdl_cuda_material materials[PDL_MAX_MATERIALS];
	/* pair tables [a * PDL_MAX_MATERIALS + b] (core.h: pdl_world) */
	const float *pair_weight, *pair_sigma, *pair_beta;
	bool any_viscosity;
	const pdl_pointer* pointers; /* PDL_MAX_POINTERS of them */
	const bool* pointer_active;
	const boundary* walls;
	int wall_count;
	float *x, *y, *z, *vx, *vy, *vz; /* z, vz: 3D only */
	float *density, *pressure; /* written */
	uint8_t* material;
	uint32_t* id;
	/* Viscoelastic springs (Clavet alg. 3 and 4, springs.c): PDL_MAX_SPRINGS_PER_PARTICLE slots
	 * a particle, partner index (-1: empty) and rest length; NULL while the world has none.
	 * make_springs: some material makes new ones (world.any_springs). */
	int32_t* spring_partner;
	float* spring_rest;
	bool make_springs;
	/* The host's particles changed since the last frame on the GPU (which left them as the
	 * GPU has them): copy them there first. */
	bool upload;
	/* The SPH solver (sph.c) when solver is PDL_SOLVER_SPH; substeps are then the CFL rule's */
	pdl_solver_kind solver;
	pdl_sph_def sph;
	pdl_kernels kernels;
	float mass[PDL_MAX_MATERIALS], sph_rest_density[PDL_MAX_MATERIALS];
	float sph_correction[PDL_MAX_MATERIALS]; /* L of sph.c's pressure term (1 unless Wendland) */
	float xsph; /* XSPH's share for one substep */
	const float *wall_density, *wall_force; /* PDL_SPH_WALL_TABLE + 1 entries each */
	float* fastest; /* out: the largest squared speed at the end of the frame (the next CFL) */
} pdl_cuda_frame;

/* The GPU's buffers, kept from step to step (grown, never shrunk). */
typedef struct pdl_cuda pdl_cuda;

/* Whether this build has CUDA and this machine a GPU it can run on; when not, why (into why,
 * size bytes), e.g. "this build has no CUDA (configure with -DPUDDLE_CUDA=ON)". */
bool pdl_cuda_probe(char* why, int size);
pdl_cuda* pdl_cuda_create(void);
void pdl_cuda_destroy(pdl_cuda* c);
/* Before the host's particle arrays are reallocated or freed: they may be page-locked for the
 * copies (cuda_step.cu, pin), which must end first. NULL: nothing. */
void pdl_cuda_unpin(pdl_cuda* c);
/* Runs frame->substeps solver steps on the GPU: copies the particles there, steps, copies them
 * back. Adds the stages' GPU times (ms) to prof. False, with why, on a CUDA error (the host
 * arrays are then as they were). */
bool pdl_cuda_step(pdl_cuda* c, const pdl_cuda_frame* f, pdl_profile* prof, char* why, int size);
/* Bytes held in the GPU's memory. */
long long pdl_cuda_bytes(const pdl_cuda* c);
/* The mean count of neighbours within h of a particle in the last step's last density pass (at
 * the predicted positions); false if unknown. */
bool pdl_cuda_mean_neighbours(pdl_cuda* c, int n, float* mean);

#ifdef __cplusplus
}
#endif

#endif
