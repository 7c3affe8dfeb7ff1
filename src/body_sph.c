/* The bodies in the SPH and DFSPH solvers (sph.c, dfsph.c call these between their passes;
 * body_step.c has the frame, the predict stage that samples the bodies, and the collide and
 * velocity stages they share with Clavet).
 *
 * SPH. With the SPH solver the bodies are sampled at the start of each substep, where the
 * fluid is. Pressure: a body is a wall to the fluid, as the containers and obstacles are
 * (sph.c): a fluid particle at distance d from a body's surface gains rho0 G(d / h) of density
 * and the force
 * (p_i / rho_i^2) rho0 F(d / h) / h along the surface normal, G and F the density kernel
 * integrated over the half-space behind the surface (sph.c's wall tables; a circle's or ball's
 * own tables integrate it over the disc or ball, curved_wall_tables). Boundary particles
 * with Akinci's forces were tried first: with Poly6's gradient, which vanishes as r -> 0, fluid
 * pressed against a body slipped in (a submerged box felt a third of its buoyancy); with Spiky's
 * the boundary squeezed the Poly6 fluid under a heavy body into clumps that held it up.
 * Viscosity: the boundary particles, as in the Clavet coupling, with the fluid's Laplacian form
 *   a_i += nu (m_i / rho_i) lap W(r_ik) (v_k - v_i).
 * The body takes the opposite momentum, -m_i a_i dt, at the surface point nearest the fluid
 * particle (pressure) or at the boundary particle (viscosity), turned into its velocity and spin
 * before its pose moves by them (symplectic Euler, as the fluid). */
#include "core.h"
#include "body_step.h"
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- SPH ------------------------------------------------------------------------------------- */

/* The kernel the SPH solvers' walls use: 1 Poly6, 2 Wendland C2 (core.h, rigid_body.wall_kernel). */
static int wall_kernel_of(const pdl_world* w)
{
	if (w->def.solver == PDL_SOLVER_DFSPH) return 2;
	return w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND ? 2 : 1;
}

/* The density kernel (h = 1, normalised to 1 over the disc or ball of radius 1) at distance r. */
static double unit_kernel(double r, int kernel, bool three)
{
	if (!(r < 1)) return 0;
	if (kernel == 2) return (three ? 21.0 / (2.0 * PDL_PI) : 7.0 / PDL_PI) * pdl_wendland_shape(r);
	double d = 1 - r * r;
	return (three ? 315.0 / (64.0 * PDL_PI) : 4.0 / PDL_PI) * d * d * d;
}

/* The kernel summed over a disc (ball) of radius R (in h) from a point D (in h) from its centre:
 * in shells of radius r around the point, the share of each shell inside the disc, 2D the arc
 * 2 r acos(c), 3D the cap 2 pi r^2 (1 - c), with c = (D^2 + r^2 - R^2) / (2 D r) the cosine of
 * the half angle it subtends (the law of cosines). Simpson's rule in r; the integrand bends where
 * a shell first reaches the disc, r = D - R, so the range is split there. */
static double kernel_over_ball(double D, double R, int kernel, bool three)
{
	enum { STEPS = 256 };
	double edge = fmin(fmax(D - R, 0), 1), total = 0;
	const double from[2] = {0, edge}, to[2] = {edge, 1};
	for (int part = 0; part < 2; ++part) {
		double a = from[part], step = (to[part] - a) / STEPS, sum = 0;
		if (!(step > 0)) continue;
		for (int k = 0; k <= STEPS; ++k) {
			double r = a + k * step, f = 0;
			if (r > 0) {
				double c = fmin(fmax((D * D + r * r - R * R) / (2 * D * r), -1), 1);
				f = unit_kernel(r, kernel, three) * (three ? 2 * PDL_PI * r * r * (1 - c) : 2 * r * acos(c));
			}
			sum += (k == 0 || k == STEPS ? 1 : (k & 1) ? 4 : 2) * f;
		}
		total += sum * step / 3;
	}
	return total;
}

/* A circle's (ball's) own wall tables for the world's kernel: density[t] the kernel over the
 * disc at distance t / PDL_SPH_WALL_TABLE h from its surface, force[t] minus its derivative
 * (central differences), the same units as the world's half-space tables (sph.c,
 * pdl_wall_tables), which they approach as the radius grows. Measured as what a convex body
 * lacks: with the half-space's tables the fluid keeps too far from a disc of 2 h, and it
 * floats 0.02 of its size too high (3D, a ball of 1.5 h: 0.05). */
static void curved_wall_tables(rigid_body* b, float h, int kernel, bool three)
{
	const double R = b->def.radius / h, step = 1e-4;
	for (int t = 0; t <= PDL_SPH_WALL_TABLE; ++t) {
		double u = (double)t / PDL_SPH_WALL_TABLE;
		b->wall_density[t] = (float)kernel_over_ball(R + u, R, kernel, three);
		double up = kernel_over_ball(R + u + step, R, kernel, three), down = kernel_over_ball(R + u - step, R, kernel, three);
		b->wall_force[t] = t == PDL_SPH_WALL_TABLE ? 0 : (float)((down - up) / (2 * step));
	}
	b->wall_density[PDL_SPH_WALL_TABLE] = 0;
	b->wall_h = h, b->wall_radius = b->def.radius, b->wall_kernel = kernel;
}

void pdl_bodies_sph_sample(pdl_world* w)
{
	const int kernel = wall_kernel_of(w);
	const float h = w->def.interaction_radius;
	for (int k = 0; k < w->bodies.slots; ++k) {
		rigid_body* b = &w->bodies.bodies[k];
		if (b->alive && b->def.shape == PDL_BODY_CIRCLE &&
		    (b->wall_kernel != kernel || b->wall_h != h || b->wall_radius != b->def.radius))
			curved_wall_tables(b, h, kernel, PDL_IS_3D(w));
	}
	pdl_bodies_predict(w, 0);
}

/* The wall tables a fluid particle reads beside body b: its own for a circle (ball), else the
 * world's (SPH's or DFSPH's half-space tables). */
static const float* body_density_table(const pdl_world* w, const rigid_body* b)
{
	if (b->def.shape == PDL_BODY_CIRCLE && b->wall_kernel) return b->wall_density;
	return w->def.solver == PDL_SOLVER_DFSPH ? w->dfsph_wall_density : w->sph_wall_density;
}

static const float* body_force_table(const pdl_world* w, const rigid_body* b)
{
	if (b->def.shape == PDL_BODY_CIRCLE && b->wall_kernel) return b->wall_force;
	return w->def.solver == PDL_SOLVER_DFSPH ? w->dfsph_wall_force : w->sph_wall_force;
}

typedef struct sph_pair_job {
	pdl_world* w;
	float dt;
	pdl_kernels k;
} sph_pair_job;

static void sph_fluid_density_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e], near[PDL_CONTAIN_BODIES];
		const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		const material* m = &w->materials[p->material[i]];
		float add = 0, n[3];
		int count = pdl_bodies_around(set, x, near);
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[near[k]];
			float d = pdl_body_distance(b, x, three, n);
			if (d < h) add += m->sph_rest_density * pdl_sph_table_at(body_density_table(w, b), (d > 0 ? d : 0) / h);
		}
		if (add == 0) continue;
		p->density[i] += add;
		float pressure = pdl_sph_pressure(&w->def.sph, p->density[i], m->sph_rest_density);
		p->pressure[i] = pressure > 0 ? pressure : 0;
	}
}

/* Viscosity between fluid particle i and boundary particle k at offset u = x_i - x_k. */
static inline void sph_viscosity(const sph_pair_job* job, float mass, float rho, const float* vi, const float* vk,
                                 float r2, float* a)
{
	float visc = job->w->def.sph.viscosity * (mass / rho) * pdl_viscosity_laplacian(&job->k, sqrtf(r2));
	for (int c = 0; c < 3; ++c) a[c] = visc * (vk[c] - vi[c]);
}

/* Fluid side: the bodies' wall pressure and the boundary particles' viscosity, into v2 and x2;
 * the pressure's momentum is recorded per body for the bodies' side. */
static void sph_fluid_force_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = job->k.h, h2 = job->k.h2, dt = job->dt;
	pdl_grid_runs runs;
	for (int e = begin; e < end; ++e) {
		int i = set->near[e], near[PDL_CONTAIN_BODIES];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
		const float vi[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
		const material* m = &w->materials[p->material[i]];
		const float mass = m->def.mass, rho = p->density[i];
		float acc[3] = {0, 0, 0};
		int count = pdl_bodies_around(set, x, near);
		for (int k = 0; k < count; ++k) {
			const rigid_body* b = &set->bodies[near[k]];
			float n[3], d = pdl_body_distance(b, x, three, n);
			if (!(d < h)) continue;
			float push = p->pressure[i] / (rho * rho) * m->sph_rest_density *
			             pdl_sph_table_at(body_force_table(w, b), (d > 0 ? d : 0) / h) / h;
			rec_body[k] = near[k];
			for (int c = 0; c < 3; ++c) {
				acc[c] += push * n[c];
				rec[k].momentum[c] = -mass * (dt * (push * n[c]));
				rec[k].r[c] = x[c] - d * n[c] - (c == 0 ? b->def.position.x : c == 1 ? b->def.position.y : b->def.position.z);
			}
			if (!three) rec[k].r[2] = 0;
		}
		pdl_grid_runs_around(&set->grid, x[0], x[1], x[2], &runs);
		for (int r = 0; r < runs.count; ++r)
			for (int k = runs.begin[r]; k < runs.end[r]; ++k) {
				float u[3] = {x[0] - set->x[k], x[1] - set->y[k], three ? x[2] - set->z[k] : 0};
				float r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], a[3];
				if (!(r2 < h2)) continue;
				const float vk[3] = {set->vx[k], set->vy[k], set->vz[k]};
				sph_viscosity(job, mass, rho, vi, vk, r2, a);
				for (int c = 0; c < 3; ++c) acc[c] += set->wt[k] * a[c];
			}
		/* the internal pass wrote v2 = v + dt a and x2 = x + dt v2 */
		p->vx2[i] += dt * acc[0], p->x2[i] += dt * (dt * acc[0]);
		p->vy2[i] += dt * acc[1], p->y2[i] += dt * (dt * acc[1]);
		if (three) p->vz2[i] += dt * acc[2], p->z2[i] += dt * (dt * acc[2]);
	}
}

/* Body side of the viscosity, over the boundary particles. */
static void sph_body_viscosity_range(void* ctx, int begin, int end)
{
	sph_pair_job* job = ctx;
	pdl_world* w = job->w;
	particles* p = &w->p;
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h2 = job->k.h2, dt = job->dt;
	pdl_grid_runs runs;
	for (int k = begin; k < end; ++k) {
		float j[3] = {0, 0, 0};
		const float vk[3] = {set->vx[k], set->vy[k], set->vz[k]};
		pdl_grid_runs_around(&w->grid, set->x[k], set->y[k], set->z[k], &runs);
		for (int r = 0; r < runs.count; ++r)
			for (int i = runs.begin[r]; i < runs.end[r]; ++i) {
				const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
				float u[3] = {x[0] - set->x[k], x[1] - set->y[k], three ? x[2] - set->z[k] : 0};
				float r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], a[3];
				if (!(r2 < h2)) continue;
				const float vi[3] = {p->vx[i], p->vy[i], three ? p->vz[i] : 0};
				const float mass = w->materials[p->material[i]].def.mass;
				sph_viscosity(job, mass, p->density[i], vi, vk, r2, a);
				for (int c = 0; c < 3; ++c) j[c] -= mass * (dt * (set->wt[k] * a[c]));
			}
		set->jx[k] = j[0], set->jy[k] = j[1], set->jz[k] = j[2];
	}
}

static sph_pair_job sph_job_of(pdl_world* w, float dt)
{
	return (sph_pair_job){w, dt, pdl_kernels_make(PDL_IS_3D(w) ? 3 : 2, w->def.interaction_radius)};
}


void pdl_bodies_sph_density(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	if (set->near_count == 0) return;
	sph_pair_job job = sph_job_of(w, dt);
	pdl_pool_for(w->pool, set->near_count, 64, sph_fluid_density_range, &job);
}

/* Adds the pressure records (set->contained: the momentum each near particle's wall pressure
 * gave each body, and where) to the bodies' pending sums, in the near list's order. */
static void add_pressure_records(pdl_world* w)
{
	body_set* set = &w->bodies;
	size_t records = (size_t)set->near_count * PDL_CONTAIN_BODIES;
	for (size_t q = 0; q < records; ++q) {
		if (set->contained_body[q] < 0) continue;
		const containment* c = &set->contained[q];
		rigid_body* b = &set->bodies[set->contained_body[q]];
		float t[3];
		pdl_cross3(c->r, c->momentum, t);
		for (int k = 0; k < 3; ++k) b->pending_sum[k] += c->momentum[k], b->pending_sum[3 + k] += t[k];
	}
}

/* V += J / M, omega += I^-1 L from the pending sums, and the pose moves by the new velocities
 * (symplectic Euler, as the fluid). */
static void move_bodies(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		if (!b->alive) continue;
		for (int c = 0; c < 3; ++c) {
			b->fluid_impulse[c] += b->pending_sum[c];
			b->fluid_angular_impulse[c] += b->pending_sum[3 + c];
		}
		if (b->def.type == PDL_BODY_DYNAMIC) {
			float ang[3] = {(float)b->pending_sum[3], (float)b->pending_sum[4], (float)b->pending_sum[5]}, dw[3];
			apply_inv_inertia(b, three, ang, dw);
			b->def.linear_velocity.x += (float)b->pending_sum[0] * b->inv_mass;
			b->def.linear_velocity.y += (float)b->pending_sum[1] * b->inv_mass;
			if (three) b->def.linear_velocity.z += (float)b->pending_sum[2] * b->inv_mass;
			if (three) b->def.angular_velocity.x += dw[0], b->def.angular_velocity.y += dw[1];
			b->def.angular_velocity.z += dw[2];
		}
		pdl_vec3 v = b->def.linear_velocity, om = b->def.angular_velocity;
		b->def.position.x += dt * v.x;
		b->def.position.y += dt * v.y;
		if (three) b->def.position.z += dt * v.z;
		float theta[3] = {dt * om.x, dt * om.y, dt * om.z};
		turn(b, three, theta);
	}
}

void pdl_bodies_sph_forces(pdl_world* w, float dt)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	sph_pair_job job = sph_job_of(w, dt);
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	if (set->near_count > 0 && pdl_bodies_reserve_contained(set)) {
		/* the body side first: the fluid side changes v2 and x2 only, which it does not read */
		pdl_pool_for(w->pool, set->n, 64, sph_body_viscosity_range, &job);
		pdl_pool_for(w->pool, set->near_count, 64, sph_fluid_force_range, &job);
		/* momentum per body: the viscosity in the boundary particles' sorted order, then the
		 * pressure in the near list's */
		for (int s = 0; s < set->n; ++s) {
			rigid_body* b = &set->bodies[set->body[s]];
			float r[3] = {set->x[s] - b->def.position.x, set->y[s] - b->def.position.y, three ? set->z[s] - b->def.position.z : 0};
			float j[3] = {set->jx[s], set->jy[s], set->jz[s]}, t[3];
			pdl_cross3(r, j, t);
			for (int c = 0; c < 3; ++c) b->pending_sum[c] += j[c], b->pending_sum[3 + c] += t[c];
		}
		add_pressure_records(w);
	}
	move_bodies(w, dt);
}

/* ---- DFSPH ------------------------------------------------------------------------------------
 *
 * The DFSPH solver (dfsph.c) treats a body as it treats a wall, a volume map in closed form
 * (Koschier & Bender 2017): a fluid particle at distance d from the body's surface gains
 * psi = F(d / h) of relative density, and the pressure solves push it with
 * (p_i / rho0_i) G(d / h) / h along the surface normal, against the body's velocity at the
 * surface point (both solves see the body move). The body is sampled at the start of each
 * substep (pdl_bodies_sph_sample); during the solves a body lighter than the water changes the
 * velocity the fluid sees with the pressures ("Coupling inside the solves", below), a heavier
 * one keeps its own. Afterwards it takes the opposite momentum at the surface point nearest each
 * particle, -m_i dt (p_i / rho0_i) G / h n, but for the particles of a film between it and a
 * wall (in_film, below), and moves (symplectic Euler, as with SPH). Viscosity between fluid and
 * body is left out. */

/* Whether a particle d from a body's surface (normal n, out of the body) lies in a film thinner
 * than its rest spacing between the body and a wall on its other side (a wall contact whose
 * normal opposes n, d_wall + d < spacing). No place in such a film gives the particles their
 * rest density: one layer of them at their rest spacing, with the two half-spaces' psi
 * (F(d / h) each, at the middle), sums to rho^ = 1 at a gap of 0.33 h in 2D (s = 0.353 h) and
 * 0.47 h in 3D (s = 0.498 h), Wendland C2, and more in any thinner one. So the pressure solves
 * cannot decompress the film, and the two boundaries' pushes on a particle in it cancel, so no
 * pressure drains it: its pressure is whatever the iteration limit leaves, and a body that takes
 * that push rests on the particle (a disc of 1.5 the water's density, puddle-validate --case
 * archimedes2d, 0.19 h above the floor on two particles). A real film under a heavy body drains
 * and the body comes to rest on the floor. So the fluid still feels the body there (the particle
 * is kept out of it and squeezed out sideways as the gap closes), but the body does not take the
 * particle's push: the wall behind the particle does, and the body rests on that wall by its
 * rigid contact (body_contacts.c). Leaving the body out of the particle's terms both ways
 * instead let the fluid into the wedge where a disc meets the floor, and the wall and the
 * containment (body_contain.c), projecting in turn, put pairs of particles on the same point. */
static bool in_film(const pdl_sph_wall_contact* walls, int count, float d, const float* n, float spacing)
{
	for (int c = 0; c < count; ++c)
		if (pdl_dot3(walls[c].n, n) < 0 && walls[c].d + d < spacing) return true;
	return false;
}

int pdl_bodies_contacts(const pdl_world* w, int e, pdl_body_contact* out)
{
	const body_set* set = &w->bodies;
	const particles* p = &w->p;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	const int i = set->near[e];
	const float x[3] = {p->x[i], p->y[i], three ? p->z[i] : 0};
	const float spacing = w->materials[p->material[i]].rest_spacing;
	int near[PDL_CONTAIN_BODIES], count = pdl_bodies_around(set, x, near), n = 0;
	/* the particle's walls within its rest spacing, for in_film: found once, at its first body */
	pdl_sph_wall_contact walls[PDL_SPH_MAX_CONTACTS];
	int wall_count = -1;
	for (int k = 0; k < count; ++k) {
		const rigid_body* b = &set->bodies[near[k]];
		float normal[3], d = pdl_body_distance(b, x, three, normal);
		if (!(d < h)) continue;
		if (wall_count < 0) wall_count = pdl_sph_wall_contacts(w->boundaries, w->boundary_count, x, spacing, three, walls);
		pdl_body_contact* c = &out[n++];
		const float centre[3] = {b->def.position.x, b->def.position.y, three ? b->def.position.z : 0};
		const float om[3] = {b->def.angular_velocity.x, b->def.angular_velocity.y, b->def.angular_velocity.z};
		float r[3], spin[3];
		for (int a = 0; a < 3; ++a) r[a] = x[a] - d * normal[a] - centre[a];
		if (!three) r[2] = 0;
		pdl_cross3(om, r, spin);
		c->d = d > 0 ? d : 0;
		c->body = near[k];
		c->film = in_film(walls, wall_count, c->d, normal, spacing);
		c->density = body_density_table(w, b), c->force = body_force_table(w, b);
		for (int a = 0; a < 3; ++a) c->n[a] = normal[a], c->r[a] = r[a];
		c->v[0] = b->def.linear_velocity.x + spin[0];
		c->v[1] = b->def.linear_velocity.y + spin[1];
		c->v[2] = three ? b->def.linear_velocity.z + spin[2] : 0;
	}
	return n;
}

/* |grad psi| = G(d / h) / h of a body contact: the push per unit of p_i / rho0_i along n. */
static inline float contact_gradient(const pdl_body_contact* c, float h) { return pdl_sph_table_at(c->force, c->d / h) / h; }

typedef struct reaction_job {
	pdl_world* w;
	float dt;
	const float* scale;
	const pdl_body_contact* contacts;
	const int* counts;
} reaction_job;

static void reaction_range(void* ctx, int begin, int end)
{
	const reaction_job* job = ctx;
	pdl_world* w = job->w;
	body_set* set = &w->bodies;
	const float h = w->def.interaction_radius;
	for (int e = begin; e < end; ++e) {
		const int i = set->near[e];
		containment* rec = &set->contained[(size_t)e * PDL_CONTAIN_BODIES];
		int32_t* rec_body = &set->contained_body[(size_t)e * PDL_CONTAIN_BODIES];
		for (int k = 0; k < PDL_CONTAIN_BODIES; ++k) rec_body[k] = -1;
		const pdl_body_contact* contacts = &job->contacts[(size_t)e * PDL_CONTAIN_BODIES];
		const int count = job->counts[e];
		const float mass = w->materials[w->p.material[i]].def.mass;
		for (int k = 0; k < count; ++k) {
			if (contacts[k].film) continue;
			const float push = job->scale[i] * contact_gradient(&contacts[k], h);
			rec_body[k] = contacts[k].body;
			for (int c = 0; c < 3; ++c) {
				rec[k].momentum[c] = -mass * (job->dt * (push * contacts[k].n[c]));
				rec[k].r[c] = contacts[k].r[c];
			}
		}
	}
}

void pdl_bodies_wall_reaction(pdl_world* w, float dt, const float* scale, const pdl_body_contact* contacts,
                              const int* counts)
{
	body_set* set = &w->bodies;
	for (int k = 0; k < set->slots; ++k) memset(set->bodies[k].pending_sum, 0, sizeof set->bodies[k].pending_sum);
	if (set->near_count > 0 && pdl_bodies_reserve_contained(set)) {
		reaction_job job = {w, dt, scale, contacts, counts};
		pdl_pool_for(w->pool, set->near_count, 64, reaction_range, &job);
		add_pressure_records(w);
	}
	move_bodies(w, dt);
}

/* ---- Coupling inside the solves -------------------------------------------------------------
 *
 * A body that shows the fluid a fixed velocity for the whole solve (above) takes the pressures'
 * whole push only afterwards. For a light body, or fluid caught in a gap thinner than a particle
 * between a body and a wall, that fails: the solve cannot decompress a particle that the body
 * would have made way for, so its pressure climbs iteration after iteration, and the body, given
 * all of it at once, flies off at hundreds of h/s (a crate of 0.3 the water's density settling on
 * the floor in `dam-break-boxes`). So the body moves inside the solves, as in the interlinked
 * solvers of Gissler et al. 2019 ("Interlinked SPH pressure solvers for strong fluid-rigid
 * coupling", ACM TOG 38(1)), in the simplest form their idea takes with a Jacobi solve: after
 * each pressure pass the body's velocity V (linear and angular, 6 numbers) moves towards the
 * velocity the pressure changes applied so far give it, T = V0 + M^-1 J, where V0 is its
 * velocity at the substep's start and J their momentum, -m_i dt (dp_i / rho0_i) G / h n at each
 * contact (as pdl_bodies_wall_reaction). The fluid answers a change dV of the velocity it sees
 * by the next iteration's pressure change: at a contact with normal n and arm r (w = [n, r x n])
 * the compression grows by dt G/h (w . dV), the pressure by omega_i alpha_i G/h (w . dV) / dt,
 * so J falls by K dV with K = sum_i g_i w w^T, g_i = m_i omega_i alpha_i (G/h)^2 / rho0_i. A
 * plain step V += T - V would overshoot by M^-1 K (a light body with many contacts: by far more
 * than itself, and diverge); the step that lands where the two agree is
 *
 *   (I + M^-1 K) dV = T - V,
 *
 * a 6x6 system per body (2D: x, y and the turn about z), factored nowhere, solved each
 * iteration (Gaussian elimination in double). The body's momentum is still settled once, after
 * the solves (pdl_bodies_wall_reaction, from the pressures as they end): the coupling only
 * changes what the fluid sees, so momentum stays exactly conserved. */

/* The contact's generalised direction w = [n, r x n] (2D: the turn about z only). */
static void contact_direction(const pdl_body_contact* c, bool three, float* dir)
{
	float rn[3];
	pdl_cross3(c->r, c->n, rn);
	for (int a = 0; a < 3; ++a) dir[a] = c->n[a], dir[3 + a] = rn[a];
	if (!three) dir[2] = dir[3] = dir[4] = 0;
}

/* M^-1 w: the body's velocity change per unit momentum along w. */
static void inverse_mass_of(const rigid_body* b, bool three, const float* dir, float* out)
{
	for (int a = 0; a < 3; ++a) out[a] = b->inv_mass * dir[a];
	apply_inv_inertia(b, three, dir + 3, out + 3);
	if (!three) out[2] = out[3] = out[4] = 0;
}

/* The bodies coupled inside the solves: the dynamic ones lighter than the water they displace
 * (pdl_body_def.density < 1). The added-mass instability of a coupling that settles the body
 * after the fluid (Foerster, Wall & Ramm 2007, "Artificial added mass instabilities in
 * sequential staggered coupling of nonlinear structures and incompressible viscous flows",
 * CMAME 196) grows with the ratio of the fluid's added mass to the body's own, so a heavier body
 * keeps the explicit coupling (coupled inside the solves, a disc of 1.5 the water's density
 * came to rest 0.15-0.21 h above the floor, puddle-validate --case archimedes2d, measured while
 * the particles of a film under a body still pushed it: in_film). */
static bool coupled(const rigid_body* b) { return pdl_body_is_light(b); }

void pdl_bodies_couple_begin(pdl_world* w, const float* alpha, const float* omega, const float* inv_rest,
                             pdl_body_contact* contacts, const int* counts)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	for (int k = 0; k < set->slots; ++k) {
		rigid_body* b = &set->bodies[k];
		const pdl_vec3 v = b->def.linear_velocity, om = b->def.angular_velocity;
		const float now[6] = {v.x, v.y, v.z, om.x, om.y, om.z};
		for (int a = 0; a < 6; ++a) b->couple_velocity[a] = now[a], b->couple_sum[a] = 0;
		for (int a = 0; a < 36; ++a) b->couple_matrix[a] = a % 7 == 0; /* I */
	}
	for (int e = 0; e < set->near_count; ++e) { /* (in the near list's order: the same sums anywhere) */
		const int i = set->near[e], m = w->p.material[i];
		const float g_unit = w->materials[m].def.mass * omega[m] * alpha[i] * inv_rest[m];
		for (int k = 0; k < counts[e]; ++k) {
			const pdl_body_contact* c = &contacts[(size_t)e * PDL_CONTAIN_BODIES + k];
			rigid_body* b = &set->bodies[c->body];
			if (!coupled(b) || c->film) continue;
			const float grad = contact_gradient(c, h), g = g_unit * grad * grad;
			float dir[6], moved[6];
			contact_direction(c, three, dir);
			inverse_mass_of(b, three, dir, moved);
			for (int r = 0; r < 6; ++r)
				for (int s = 0; s < 6; ++s) b->couple_matrix[6 * r + s] += (double)g * moved[r] * dir[s];
		}
	}
}

/* x = A^-1 y for the 6x6 A (row major; Gaussian elimination with partial pivoting, on copies).
 * A = I + M^-1 K has eigenvalues >= 1 (M^-1 K is similar to a positive semidefinite matrix),
 * so it is never singular. */
static void solve6(const double* matrix, const double* y, double* x)
{
	double a[6][7];
	for (int r = 0; r < 6; ++r) {
		for (int s = 0; s < 6; ++s) a[r][s] = matrix[6 * r + s];
		a[r][6] = y[r];
	}
	for (int col = 0; col < 6; ++col) {
		int best = col;
		for (int r = col + 1; r < 6; ++r)
			if (fabs(a[r][col]) > fabs(a[best][col])) best = r;
		for (int s = 0; s < 7; ++s) {
			const double t = a[col][s];
			a[col][s] = a[best][s], a[best][s] = t;
		}
		for (int r = col + 1; r < 6; ++r) {
			const double f = a[r][col] / a[col][col];
			for (int s = col; s < 7; ++s) a[r][s] -= f * a[col][s];
		}
	}
	for (int r = 5; r >= 0; --r) {
		double sum = a[r][6];
		for (int s = r + 1; s < 6; ++s) sum -= a[r][s] * x[s];
		x[r] = sum / a[r][r];
	}
}

void pdl_bodies_couple(pdl_world* w, float dt, const float* change, const float* inv_rest, pdl_body_contact* contacts,
                       const int* counts, float* wall_rate)
{
	body_set* set = &w->bodies;
	const bool three = PDL_IS_3D(w);
	const float h = w->def.interaction_radius;
	for (int e = 0; e < set->near_count; ++e) { /* J += the momentum of this pass's changes */
		const int i = set->near[e], m = w->p.material[i];
		const float push_unit = change[i] * inv_rest[m];
		if (push_unit == 0) continue;
		const float mass = w->materials[m].def.mass;
		for (int k = 0; k < counts[e]; ++k) {
			const pdl_body_contact* c = &contacts[(size_t)e * PDL_CONTAIN_BODIES + k];
			rigid_body* b = &set->bodies[c->body];
			if (!coupled(b) || c->film) continue;
			const float push = push_unit * contact_gradient(c, h);
			float j[3], t[3];
			for (int a = 0; a < 3; ++a) j[a] = -mass * (dt * (push * c->n[a]));
			pdl_cross3(c->r, j, t);
			for (int a = 0; a < 3; ++a) b->couple_sum[a] += j[a], b->couple_sum[3 + a] += t[a];
		}
	}
	bool moved = false;
	for (int k = 0; k < set->slots; ++k) { /* (I + M^-1 K) dV = V0 + M^-1 J - V */
		rigid_body* b = &set->bodies[k];
		if (!coupled(b)) continue;
		const pdl_vec3 v = b->def.linear_velocity, om = b->def.angular_velocity;
		const float start[6] = {v.x, v.y, v.z, om.x, om.y, om.z};
		float sum[6], gain[6];
		for (int a = 0; a < 6; ++a) sum[a] = (float)b->couple_sum[a];
		for (int a = 0; a < 3; ++a) gain[a] = b->inv_mass * sum[a];
		apply_inv_inertia(b, three, sum + 3, gain + 3);
		double gap[6], step[6];
		for (int a = 0; a < 6; ++a) gap[a] = (double)start[a] + gain[a] - b->couple_velocity[a];
		if (!three) gap[2] = gap[3] = gap[4] = 0;
		solve6(b->couple_matrix, gap, step);
		for (int a = 0; a < 6; ++a) b->couple_velocity[a] += (float)step[a];
		moved = true;
	}
	if (!moved) return;
	for (int e = 0; e < set->near_count; ++e) { /* the contacts' velocities, and wall_rate with them */
		const int i = set->near[e];
		for (int k = 0; k < counts[e]; ++k) {
			pdl_body_contact* c = &contacts[(size_t)e * PDL_CONTAIN_BODIES + k];
			const rigid_body* b = &set->bodies[c->body];
			if (!coupled(b)) continue;
			float spin[3], now[3];
			pdl_cross3(b->couple_velocity + 3, c->r, spin);
			for (int a = 0; a < 3; ++a) now[a] = b->couple_velocity[a] + spin[a];
			if (!three) now[2] = 0;
			const float grad = contact_gradient(c, h);
			wall_rate[i] += grad * ((now[0] - c->v[0]) * c->n[0] + (now[1] - c->v[1]) * c->n[1] + (now[2] - c->v[2]) * c->n[2]);
			for (int a = 0; a < 3; ++a) c->v[a] = now[a];
		}
	}
}
