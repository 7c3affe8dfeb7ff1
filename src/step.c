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
 * Every stage is a parallel loop in gather form: a particle reads its neighbours' state from
 * the previous stage and writes only its own, so the result is the same for any thread count
 * and any run.
 *
 * A world with def.solver = PDL_SOLVER_SPH takes src/sph.c's step instead, which reuses the
 * forces, boundaries and velocity stages. */
#include "core.h"

#include <math.h>

/* ---- 1. Forces ---------------------------------------------------------------------------- */

static void forces_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	float dt = job->dt, gx = w->def.gravity.x, gy = w->def.gravity.y;
	/* dt g per material: one multiply-add per particle in the common case of no pointer */
	float dvx_of[PDL_MAX_MATERIALS], dvy_of[PDL_MAX_MATERIALS];
	for (int m = 0; m < w->material_count; ++m) {
		float scale = w->materials[m].def.gravity_scale;
		dvx_of[m] = dt * (gx * scale);
		dvy_of[m] = dt * (gy * scale);
	}
	bool any_pointer = false;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k) any_pointer |= w->pointer_active[k];
	const uint8_t* mat = p->material;
	float *pvx = p->vx, *pvy = p->vy;
	if (!any_pointer) {
		for (int i = begin; i < end; ++i) {
			pvx[i] += dvx_of[mat[i]];
			pvy[i] += dvy_of[mat[i]];
		}
		return;
	}
	for (int i = begin; i < end; ++i) {
		float ax = 0, ay = 0;
		float vx = pvx[i], vy = pvy[i];
		for (int k = 0; k < PDL_MAX_POINTERS; ++k) {
			if (!w->pointer_active[k]) continue;
			const pdl_pointer* ptr = &w->pointers[k];
			float dx = ptr->position.x - p->x[i], dy = ptr->position.y - p->y[i];
			float r2 = dx * dx + dy * dy;
			if (r2 >= ptr->radius * ptr->radius) continue;
			float r = sqrtf(r2), falloff = 1.0f - r / ptr->radius;
			if (r > 0) {
				ax += ptr->strength * falloff * dx / r;
				ay += ptr->strength * falloff * dy / r;
			}
			/* drag toward the pointer's velocity, never past it */
			float pull = fminf(1.0f, dt * ptr->drag * falloff);
			vx += (ptr->velocity.x - vx) * pull;
			vy += (ptr->velocity.y - vy) * pull;
		}
		pvx[i] = (vx + dt * ax) + dvx_of[mat[i]];
		pvy[i] = (vy + dt * ay) + dvy_of[mat[i]];
	}
}

void pdl_stage_forces(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 4096, forces_range, &job);
}

/* ---- 2. Prediction -------------------------------------------------------------------------- */

static void predict_range(void* ctx, int begin, int end)
{
	pdl_stage_job* job = ctx;
	particles* p = &job->w->p;
	float dt = job->dt;
	for (int i = begin; i < end; ++i) {
		p->xp[i] = p->x[i];
		p->yp[i] = p->y[i];
		p->x[i] += dt * p->vx[i];
		p->y[i] += dt * p->vy[i];
	}
}

void pdl_stage_predict(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 4096, predict_range, &job);
	/* Sort the particles into the cells of their predicted positions and store them in that
	 * order: springs and relaxation then read neighbours that are near in memory. */
	pdl_grid* g = &w->grid;
	pdl_grid_build(g, w->pool, w->p.count, w->p.x, w->p.y, w->def.interaction_radius);
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
}

void pdl_stage_velocity(pdl_world* w, float dt)
{
	pdl_stage_job job = {w, dt};
	pdl_pool_for(w->pool, w->p.count, 4096, velocity_range, &job);
}

/* ---- The step ------------------------------------------------------------------------------- */

static float since(double* t)
{
	double now = pdl_now_ms();
	float ms = (float)(now - *t);
	*t = now;
	return ms;
}

void pdl_world_step(pdl_world* w)
{
	if (!w) return;
	pdl_profile prof = {0};
	if (w->def.solver == PDL_SOLVER_SPH) { /* Mueller 2003 SPH, src/sph.c */
		pdl_sph_step(w, &prof);
		w->profile = prof;
		return;
	}
	prof.substeps = w->def.substeps;
	double start = pdl_now_ms(), t = start;
	float dt = w->def.dt / (float)w->def.substeps;
	for (int sub = 0; sub < w->def.substeps; ++sub) {
		if (w->p.count > 0) {
			pdl_stage_forces(w, dt);
			prof.forces += since(&t);
			pdl_stage_predict(w, dt);
			prof.predict += since(&t);
			pdl_stage_springs(w, dt);
			prof.springs += since(&t);
			pdl_stage_density(w, dt);
			prof.density += since(&t);
			pdl_stage_relax(w, dt);
			prof.relax += since(&t);
			pdl_stage_boundaries(w, dt);
			prof.boundaries += since(&t);
			pdl_stage_velocity(w, dt);
			prof.velocity += since(&t);
		}
		w->steps++;
		w->time += dt;
	}
	prof.step = (float)(pdl_now_ms() - start);
	w->profile = prof;
}
