/* The stages every solver shares, below them all: the external forces before a substep and the
 * velocity from the positions after it (clavet.c's stages 1 and 7; sph.c and dfsph.c call them
 * at the same places). Each is a gather over particle index ranges, so its result is the same
 * for any thread count. */
#include "core.h"

/* ---- Forces: v += dt (g + pointers) ---------------------------------------------------------- */

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

/* ---- Velocity: v = (x - x_prev) / dt --------------------------------------------------------- */

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
