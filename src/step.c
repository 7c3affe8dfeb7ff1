/* The step. One pdl_world_step() is `substeps` solver steps; each solver step runs the stages
 * of Clavet, Beaudoin & Poulin 2005, algorithm 1:
 *
 *   1. forces      v += dt g                                  (gravity, pointers)
 *   2. predict     x_prev = x; x += dt v; sort into the grid
 *   3. springs     plasticity, spring displacements           (alg. 3 and 4, springs.c)
 *   4. density     densities and pressures, and the viscosity (alg. 2 and 5, relax.c,
 *                  impulses dv in the same neighbour pass      viscosity.h)
 *   5. relax       x += relaxation displacement + dt dv       (alg. 2, relax.c)
 *   6. boundaries  collisions, friction, stickiness           (section 6, boundary.c)
 *   7. velocity    v = (x - x_prev) / dt
 *
 * The paper applies the viscosity impulses before prediction (its step 2); here they are
 * computed at the predicted positions, in the density pass, so a step makes two passes over
 * the neighbour pairs and one sort instead of three and two (docs/physics.md).
 *
 * Every stage is a parallel loop whose result is the same for any thread count and any run:
 * most are gathers (a particle reads its neighbours' state from the previous stage and writes
 * only its own); the density and relaxation passes visit each neighbour pair once and add to
 * both particles, slab by slab in a fixed order (relax_loops.h).
 *
 * A world with def.solver = PDL_SOLVER_SPH takes src/sph.c's step instead, and one with
 * PDL_SOLVER_DFSPH src/dfsph.c's; both reuse the forces, boundaries and velocity stages. */
#include "core.h"
#include "cuda_step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- 1. Forces ---------------------------------------------------------------------------- */

static void forces_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	bool three = PDL_IS_3D(w);
	float dt = job->dt;
	pdl_vec3 g = w->def.gravity;
	/* dt g per material: one multiply-add per particle in the common case of no pointer */
	float dvx_of[PDL_MAX_MATERIALS], dvy_of[PDL_MAX_MATERIALS], dvz_of[PDL_MAX_MATERIALS];
	for (int m = 0; m < w->material_count; ++m) {
		float scale = w->materials[m].def.gravity_scale;
		dvx_of[m] = dt * (g.x * scale);
		dvy_of[m] = dt * (g.y * scale);
		dvz_of[m] = dt * (g.z * scale);
	}
	bool any_pointer = false;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k) any_pointer |= w->pointer_active[k];
	const uint8_t* mat = p->material;
	float *pvx = p->vx, *pvy = p->vy, *pvz = p->vz;
	if (!any_pointer) {
		for (int i = begin; i < end; ++i) {
			pvx[i] += dvx_of[mat[i]];
			pvy[i] += dvy_of[mat[i]];
		}
		if (three)
			for (int i = begin; i < end; ++i) pvz[i] += dvz_of[mat[i]];
		return;
	}
	for (int i = begin; i < end; ++i) {
		float a[3] = {0, 0, 0}, v[3] = {pvx[i], pvy[i], three ? pvz[i] : 0};
		float z = three ? p->z[i] : 0;
		for (int k = 0; k < PDL_MAX_POINTERS; ++k)
			if (w->pointer_active[k]) pdl_pointer_effect(&w->pointers[k], three, dt, p->x[i], p->y[i], z, v, a);
		pvx[i] = (v[0] + dt * a[0]) + dvx_of[mat[i]];
		pvy[i] = (v[1] + dt * a[1]) + dvy_of[mat[i]];
		if (three) pvz[i] = (v[2] + dt * a[2]) + dvz_of[mat[i]];
	}
}

void pdl_stage_forces(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 1024, forces_range, &job);
}

/* ---- 2. Prediction -------------------------------------------------------------------------- */

/* One axis of the prediction: x_prev = x, x += dt v. restrict: the arrays never overlap, which
 * lets the compiler make this vector code (through p->, every store might have moved the
 * pointers themselves, and the loop over both axes stayed scalar: 3.6 ns a particle). */
static void predict_axis(float* restrict x, float* restrict xp, const float* restrict v, float dt,
                         int begin, int end)
{
	for (int i = begin; i < end; ++i) {
		float xi = x[i];
		xp[i] = xi;
		x[i] = xi + dt * v[i];
	}
}

static void predict_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	particles* p = &job->w->p;
	predict_axis(p->x, p->xp, p->vx, job->dt, begin, end);
	predict_axis(p->y, p->yp, p->vy, job->dt, begin, end);
	if (p->z) predict_axis(p->z, p->zp, p->vz, job->dt, begin, end);
}

void pdl_stage_predict(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 1024, predict_range, &job);
	/* a split world's process exchanges its ghosts here (partition.h): the grid takes them in */
	if (w->ghost_fn) w->ghost_fn(w, PDL_GHOST_POSITIONS, w->ghost_context);
	/* Sort the particles into the cells of their predicted positions and store them in that
	 * order: springs and relaxation then read neighbours that are near in memory. */
	pdl_grid* g = &w->grid;
	pdl_grid_build(g, w->pool, w->p.count, w->p.x, w->p.y, w->p.z, w->p.id, w->def.interaction_radius);
	pdl_particles_permute(w, g->order, true);
}

/* ---- 7. Velocity ---------------------------------------------------------------------------- */

static void velocity_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	particles* p = &job->w->p;
	float inv_dt = 1.0f / job->dt;
	for (int i = begin; i < end; ++i) {
		p->vx[i] = (p->x[i] - p->xp[i]) * inv_dt;
		p->vy[i] = (p->y[i] - p->yp[i]) * inv_dt;
	}
	if (p->z)
		for (int i = begin; i < end; ++i) p->vz[i] = (p->z[i] - p->zp[i]) * inv_dt;
}

void pdl_stage_velocity(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 1024, velocity_range, &job);
}

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
	if (w->def.solver == PDL_SOLVER_SPH) { /* Mueller 2003 SPH, src/sph.c */
		pdl_sph_step(w, &prof);
		*out = prof;
		return;
	}
	if (w->def.solver == PDL_SOLVER_DFSPH) { /* Bender & Koschier 2017 DFSPH, src/dfsph.c */
		pdl_dfsph_step(w, &prof);
		*out = prof;
		return;
	}
	prof.substeps = w->def.substeps;
	double start = pdl_now_ms(), t = start;
	float dt = w->def.dt / (float)w->def.substeps;
	/* rigid bodies (body_step.c) take their turn after each fluid stage they couple to */
	/* (a process of a split world with no particles of its own still takes part in every ghost
	 * exchange: its neighbours wait for it) */
	const bool fluid = w->p.count > 0 || w->ghost_fn, bodies = pdl_bodies_active(w);
	if (bodies) pdl_bodies_begin_frame(w);
	for (int sub = 0; sub < w->def.substeps; ++sub) {
		if (fluid) pdl_stage_forces(w, dt);
		prof.forces += pdl_since(&t);
		if (bodies) pdl_bodies_forces(w, dt);
		if (fluid) pdl_stage_predict(w, dt);
		prof.predict += pdl_since(&t);
		if (bodies) pdl_bodies_predict(w, dt);
		prof.bodies += pdl_since(&t);
		if (fluid) pdl_stage_springs(w, dt);
		prof.springs += pdl_since(&t);
		if (fluid) pdl_stage_density(w, dt);
		if (fluid && w->ghost_fn) w->ghost_fn(w, PDL_GHOST_PRESSURES, w->ghost_context);
		prof.density += pdl_since(&t);
		if (bodies) pdl_bodies_density(w, dt);
		prof.bodies += pdl_since(&t);
		if (fluid) pdl_stage_relax(w, dt);
		prof.relax += pdl_since(&t);
		if (bodies) pdl_bodies_relax(w, dt);
		prof.bodies += pdl_since(&t);
		if (fluid) pdl_stage_boundaries(w, dt);
		prof.boundaries += pdl_since(&t);
		if (bodies) pdl_bodies_collide(w, dt);
		prof.bodies += pdl_since(&t);
		if (fluid) pdl_stage_velocity(w, dt);
		prof.velocity += pdl_since(&t);
		if (bodies) pdl_bodies_velocity(w, dt);
		prof.bodies += pdl_since(&t);
		w->steps++;
		w->time += dt;
	}
	if (bodies) pdl_bodies_end_frame(w, w->def.dt);
	if (!bodies) prof.bodies = 0; /* what was summed is the timers' own cost between two stages */
	prof.step = (float)(pdl_now_ms() - start);
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
