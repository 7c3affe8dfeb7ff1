/* The frame. One pdl_world_step() runs on the GPU when the world asks for it and can
 * (src/cuda_step.cu), else on the CPU through the world's solver, then the diffuse particles
 * (diffuse.c), which never feed back.
 *
 * The solvers implement one interface, pdl_solver_step_fn (core.h): one frame's substeps over
 * the shared stages below them. They are Clavet, Beaudoin & Poulin 2005 (clavet.c, with
 * springs.c and relax.c), Mueller 2003 SPH (sph.c) and Bender & Koschier's DFSPH (dfsph.c).
 * This file only picks one; no solver calls back into it, and what they share (forces,
 * velocity: stages.c; walls: boundary.c; bodies: body_*.c) lives below them all
 * (docs/physics.md, "Code map"). */
#include "core.h"
#include "cuda_step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- The GPU (def.backend = PDL_BACKEND_CUDA, src/cuda_step.cu) ---------------------------- */

/* What a CUDA world uses that the GPU step does not do (its step then runs on the CPU), or NULL. */
static const char* off_the_gpu(const pdl_world* w)
{
	if (w->def.solver == PDL_SOLVER_DFSPH) return "the DFSPH solver runs on the CPU";
	if (pdl_bodies_active(w)) return "rigid bodies run on the CPU";
	if (w->ghost_fn || w->p.origin || w->next_substeps > 0) return "a split world (ghosts) runs on the CPU";
	return NULL;
}

/* One frame on the GPU; false (and the particles untouched) when it could not run there. */
static bool step_on_gpu(pdl_world* w, pdl_profile* prof)
{
	const char* why_not = off_the_gpu(w);
	if (why_not || !w->cuda) {
		snprintf(w->backend_note, sizeof w->backend_note, "%s", why_not ? why_not : "no GPU state");
		return false;
	}
	particles* p = &w->p;
	const bool three = PDL_IS_3D(w), sph = w->def.solver == PDL_SOLVER_SPH, upload = p->revision != w->cuda_revision;
	/* SPH: the CFL rule's substeps, from the fastest particle, which the last frame on the GPU
	 * measured (the same maximum as the host's loop over the same velocities) */
	int substeps = w->def.substeps;
	if (sph) {
		pdl_sph_prepare(w);
		substeps = p->count == 0 ? (substeps > 1 ? substeps : 1)
		           : upload      ? pdl_sph_substeps(w)
		                         : pdl_sph_substeps_for(w, w->cuda_fastest);
	}
	const float dt = w->def.dt / (float)substeps; /* as the CPU steps' */
	pdl_cuda_frame f = {
		.count = p->count,
		.capacity = p->capacity,
		.three = three,
		.h = w->def.interaction_radius,
		.dt = dt,
		.substeps = substeps,
		.gravity = w->def.gravity,
		.pair_weight = w->pair_weight,
		.pair_sigma = w->pair_sigma,
		.pair_beta = w->pair_beta,
		.any_viscosity = w->any_viscosity,
		.pointers = w->pointers,
		.pointer_active = w->pointer_active,
		.walls = w->boundaries,
		.wall_count = w->boundary_count,
		.x = p->x, .y = p->y, .z = p->z,
		.vx = p->vx, .vy = p->vy, .vz = p->vz,
		.density = p->density, .pressure = p->pressure,
		.material = p->material,
		.id = p->id,
		.spring_partner = p->spring_partner,
		.spring_rest = p->spring_rest,
		.make_springs = w->any_springs,
		.upload = upload,
		.solver = w->def.solver,
		.sph = w->def.sph,
		.kernels = pdl_kernels_make(three ? 3 : 2, w->def.interaction_radius),
		.xsph = pdl_sph_xsph_share(w, dt),
		.wall_density = w->sph_wall_density,
		.wall_force = w->sph_wall_force,
		.fastest = &w->cuda_fastest,
	};
	for (int m = 0; m < w->material_count; ++m) {
		const pdl_material_def* d = &w->materials[m].def;
#define PACK_FIELD(A, name, ...) f.materials[m].name = d->name;
		PDL_MATERIAL_FIELDS(PACK_FIELD, ~)
#undef PACK_FIELD
		f.materials[m].springs = w->materials[m].springs;
		f.mass[m] = d->mass;
		f.sph_rest_density[m] = w->materials[m].sph_rest_density;
		f.sph_correction[m] = pdl_sph_gradient_correction(w, m);
	}
	double start = pdl_now_ms();
	char why[sizeof w->backend_note];
	if (!pdl_cuda_step(w->cuda, &f, prof, why, (int)sizeof why)) {
		snprintf(w->backend_note, sizeof w->backend_note, "%s", why);
		*prof = (pdl_profile){0};
		return false;
	}
	w->cuda_revision = w->p.revision; /* the host's copy is the GPU's again */
	for (int sub = 0; sub < substeps; ++sub) { /* the clock as the CPU step keeps it */
		w->steps++;
		w->time += dt;
	}
	w->grid_stale = true;
	w->backend_note[0] = 0;
	prof->substeps = substeps;
	prof->backend = PDL_BACKEND_CUDA;
	prof->step = (float)(pdl_now_ms() - start);
	return true;
}

const char* pdl_world_backend_note(const pdl_world* w) { return w ? w->backend_note : ""; }

/* ---- The step ------------------------------------------------------------------------------- */

/* Each solver's frame on the CPU, by def.solver (validated to be one of them). */
static pdl_solver_step_fn* const solver_steps[PDL_SOLVER_KIND_COUNT] = {
	[PDL_SOLVER_CLAVET] = pdl_clavet_step,
	[PDL_SOLVER_SPH] = pdl_sph_step,
	[PDL_SOLVER_DFSPH] = pdl_dfsph_step,
};

/* One step on the CPU or the GPU, its timings in *out. */
static void step_once(pdl_world* w, pdl_profile* out)
{
	pdl_profile prof = {0};
	if (w->def.backend == PDL_BACKEND_CUDA && step_on_gpu(w, &prof)) {
		*out = prof;
		return;
	}
	w->grid_stale = false; /* the CPU step builds its grid */
	w->p.revision++;        /* and changes the particles on the host */
	solver_steps[w->def.solver](w, &prof);
	*out = prof;
}

void pdl_world_step(pdl_world* w)
{
	if (!w) return;
	double stalled = pdl_pool_stalled_ms(w->pool);
	step_once(w, &w->profile);
	w->profile.stalled = (float)(pdl_pool_stalled_ms(w->pool) - stalled);
	/* after the step, from its positions and velocities, never feeding back (diffuse.c) */
	pdl_diffuse_step(w);
}
