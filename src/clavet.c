/* The Clavet solver (def.solver = PDL_SOLVER_CLAVET). One pdl_world_step() is `substeps` solver
 * steps; each runs the stages of Clavet, Beaudoin & Poulin 2005, algorithm 1:
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
 * Stages 1 and 7 are stages.c's, 6 is boundary.c's, shared with the SPH and DFSPH solvers;
 * step.c calls pdl_clavet_step through the solver interface (pdl_solver_step_fn). */
#include "core.h"

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

/* ---- The solver step ----------------------------------------------------------------------- */

void pdl_clavet_step(pdl_world* w, pdl_profile* out)
{
	pdl_profile prof = {0};
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
