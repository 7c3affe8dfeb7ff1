/* The world: creation, defaults, materials, pointers, measurement. */
#include "core.h"
#include "cuda_step.h"
#include "puddle/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pdl_world_def pdl_default_world_def(void)
{
	return (pdl_world_def){
		PDL_WORLD_FIELDS(PDL_FIELD_DEFAULT, ~)
		.sph = {PDL_SPH_FIELDS(PDL_FIELD_DEFAULT, ~)},
	};
}

pdl_material_def pdl_default_material_def(void)
{
	return (pdl_material_def){PDL_MATERIAL_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

pdl_fill_def pdl_default_fill_def(void)
{
	return (pdl_fill_def){PDL_FILL_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

pdl_pointer pdl_default_pointer(void)
{
	return (pdl_pointer){PDL_POINTER_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

static bool start_pool(pdl_world* w, int threads)
{
	int n = threads > 0 ? threads : pdl_core_count();
	pdl_pool* pool = pdl_pool_create(n);
	if (!pool) return false;
	pdl_pool_destroy(w->pool);
	w->pool = pool;
	return true;
}

/* The GPU's state for a CUDA world: PDL_OK, or PDL_ERR_WORLD_BACKEND with the reason there is
 * none (or PDL_ERR_OUT_OF_MEMORY). */
static pdl_error_id start_cuda(pdl_world* w, pdl_error* err)
{
	char why[160];
	w->cuda_revision = UINT64_MAX; /* copy the particles to the GPU at the next step */
	if (w->cuda) return PDL_OK;
	if (!pdl_cuda_probe(why, (int)sizeof why)) return pdl_fail_text(err, PDL_ERR_WORLD_BACKEND, why);
	w->cuda = pdl_cuda_create();
	return w->cuda ? PDL_OK : pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
}

pdl_world* pdl_world_create(const pdl_world_def* def, pdl_error* err)
{
	if (pdl_validate_world_def(def, err)) return NULL;
	pdl_world* w = calloc(1, sizeof *w);
	if (!w) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN), NULL;
	w->def = *def;
	w->loops = pdl_best_loops();
	if (def->backend == PDL_BACKEND_CUDA && start_cuda(w, err) != PDL_OK) {
		pdl_world_destroy(w);
		return NULL;
	}
	if (!start_pool(w, def->threads) || !pdl_particles_reserve(w, 256)) {
		pdl_world_destroy(w);
		pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
		return NULL;
	}
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return w;
}

void pdl_world_destroy(pdl_world* w)
{
	if (!w) return;
	pdl_pool_destroy(w->pool);
	pdl_cuda_destroy(w->cuda);
	pdl_particles_free(&w->p);
	pdl_grid_free(&w->grid);
	pdl_bodies_free(&w->bodies);
	pdl_dfsph_free(w);
	pdl_diffuse_free(w);
	free(w->boundaries);
	free(w);
}

pdl_world_def pdl_world_get_def(const pdl_world* w) { return w ? w->def : pdl_default_world_def(); }

pdl_error_id pdl_world_set_def(pdl_world* w, const pdl_world_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	pdl_error_id id = pdl_validate_world_def(def, err);
	if (id) return id;
	if (def->dimensions != w->def.dimensions)
		return pdl_fail(err, PDL_ERR_WORLD_DIMENSIONS, def->dimensions);
	if (def->max_particles < w->p.count)
		return pdl_fail(err, PDL_ERR_WORLD_MAX_PARTICLES, def->max_particles);
	if (def->backend == PDL_BACKEND_CUDA && (id = start_cuda(w, err)) != PDL_OK) return id;
	if (def->threads != w->def.threads && !start_pool(w, def->threads))
		return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	/* the SPH rest densities depend on h and the kernel */
	bool new_radius = def->interaction_radius != w->def.interaction_radius ||
	                  def->sph.pressure_kernel != w->def.sph.pressure_kernel;
	w->def = *def;
	if (def->backend != PDL_BACKEND_CUDA && w->cuda) { /* back on the CPU: the GPU's memory goes */
		pdl_cuda_destroy(w->cuda);
		w->cuda = NULL;
	}
	if (new_radius) pdl_update_material_tables(w);
	return PDL_OK;
}

int pdl_world_thread_count(const pdl_world* w) { return w ? pdl_pool_threads(w->pool) : 0; }

/* ---- Materials ------------------------------------------------------------------------ */

void pdl_update_material_tables(pdl_world* w)
{
	w->any_springs = false;
	w->any_viscosity = false;
	w->uniform_mass = true;
	w->uniform_viscosity = true;
	for (int a = 0; a < w->material_count; ++a) {
		material* ma = &w->materials[a];
		const pdl_material_def* first = &w->materials[0].def;
		ma->inv_mass = 1.0f / ma->def.mass;
		float h = w->def.interaction_radius;
		/* (a world's dimensions never change) */
		const bool stale = !ma->lattice_of.known || ma->lattice_of.h != h || ma->lattice_of.rest_density != ma->def.rest_density;
		if (stale) ma->rest_spacing = PDL_IS_3D(w) ? pdl_rest_spacing_3d(h, ma->def.rest_density) : pdl_rest_spacing(h, ma->def.rest_density);
		if (stale) ma->dfsph_omega = 0; /* the first DFSPH step works it out (core.h) */
		if (stale || ma->lattice_of.mass != ma->def.mass) {
			ma->poly6_rest_density = PDL_IS_3D(w) ? pdl_sph_rest_density_3d(h, ma->rest_spacing, ma->def.mass)
			                                      : pdl_sph_rest_density(h, ma->rest_spacing, ma->def.mass);
			ma->dfsph_volume = pdl_dfsph_rest_volume(h, ma->rest_spacing, PDL_IS_3D(w));
			ma->dfsph_rest_density = ma->def.mass / ma->dfsph_volume;
			ma->gradient_correction = pdl_dfsph_gradient_correction(h, ma->rest_spacing, PDL_IS_3D(w));
		}
		ma->sph_rest_density = w->def.sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND ? ma->dfsph_rest_density
		                                                                              : ma->poly6_rest_density;
		ma->lattice_of.known = true;
		ma->lattice_of.h = h, ma->lattice_of.rest_density = ma->def.rest_density, ma->lattice_of.mass = ma->def.mass;
		ma->springs = ma->def.spring_stiffness > 0;
		w->any_springs |= ma->springs;
		w->any_viscosity |= ma->def.viscosity_sigma > 0 || ma->def.viscosity_beta > 0;
		w->uniform_mass &= ma->def.mass == first->mass;
		w->uniform_viscosity &= ma->def.viscosity_sigma == first->viscosity_sigma &&
		                        ma->def.viscosity_beta == first->viscosity_beta;
	}
	for (int a = 0; a < w->material_count; ++a) {
		for (int b = 0; b < w->material_count; ++b) {
			const material *ma = &w->materials[a], *mb = &w->materials[b];
			int k = a * PDL_MAX_MATERIALS + b;
			/* a moves by m_b / (m_a + m_b) of a pair displacement (inverse-mass split, so
			 * m_a dx_a + m_b dx_b = 0: momentum is conserved) */
			w->pair_weight[k] = ma->inv_mass / (ma->inv_mass + mb->inv_mass);
			w->pair_sigma[k] = 0.5f * (ma->def.viscosity_sigma + mb->def.viscosity_sigma);
			w->pair_beta[k] = 0.5f * (ma->def.viscosity_beta + mb->def.viscosity_beta);
		}
	}
}

static pdl_error_id store_material(pdl_world* w, int id, const pdl_material_def* def, pdl_error* err)
{
	pdl_error_id e = pdl_validate_material_def(def, err);
	if (e) return e;
	if (def->spring_stiffness > 0 && !pdl_particles_enable_springs(w))
		return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	w->materials[id].def = *def;
	pdl_update_material_tables(w);
	return PDL_OK;
}

int pdl_world_add_material(pdl_world* w, const pdl_material_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN), -1;
	if (w->material_count >= PDL_MAX_MATERIALS)
		return pdl_fail(err, PDL_ERR_TOO_MANY_MATERIALS, w->material_count + 1), -1;
	int id = w->material_count++;
	if (store_material(w, id, def, err)) {
		w->material_count--;
		return -1;
	}
	return id;
}

pdl_error_id pdl_world_set_material(pdl_world* w, int id, const pdl_material_def* def, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (id < 0 || id >= w->material_count) return pdl_fail(err, PDL_ERR_MATERIAL_ID, id);
	return store_material(w, id, def, err);
}

pdl_material_def pdl_world_get_material(const pdl_world* w, int id)
{
	if (!w || id < 0 || id >= w->material_count) return pdl_default_material_def();
	return w->materials[id].def;
}

int pdl_world_material_count(const pdl_world* w) { return w ? w->material_count : 0; }

float pdl_world_rest_density(const pdl_world* w, int id)
{
	if (!w || id < 0 || id >= w->material_count) return 0;
	return pdl_rest_density_of(w, &w->materials[id]);
}

/* ---- Pointers ------------------------------------------------------------------------- */

pdl_error_id pdl_world_set_pointer(pdl_world* w, int index, const pdl_pointer* pointer, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (index < 0 || index >= PDL_MAX_POINTERS) return pdl_fail(err, PDL_ERR_POINTER_INDEX, index);
	pdl_error_id e = pdl_validate_pointer(pointer, err);
	if (e) return e;
	w->pointers[index] = *pointer;
	w->pointer_active[index] = true;
	return PDL_OK;
}

void pdl_world_clear_pointer(pdl_world* w, int index)
{
	if (w && index >= 0 && index < PDL_MAX_POINTERS) w->pointer_active[index] = false;
}

/* ---- Measurement ---------------------------------------------------------------------- */

double pdl_world_time(const pdl_world* w) { return w ? w->time : 0; }
long long pdl_world_step_count(const pdl_world* w) { return w ? w->steps : 0; }
void pdl_world_set_clock(pdl_world* w, double time, long long steps)
{
	if (!w) return;
	w->time = time;
	w->steps = steps;
}
pdl_profile pdl_world_profile(const pdl_world* w) { return w ? w->profile : (pdl_profile){0}; }

pdl_stats pdl_world_stats(const pdl_world* w)
{
	pdl_stats s = {0};
	if (!w) return s;
	const particles* p = &w->p;
	s.particles = p->count;
	s.steps = w->steps;
	s.time = w->time;
	double err_sum = 0, mx = 0, my = 0, mz = 0, px = 0, py = 0, pz = 0, mass = 0, neighbours = 0;
	const bool three = PDL_IS_3D(w);
	int err_count = 0;
	float h = w->def.interaction_radius;
	for (int i = 0; i < p->count; ++i) {
		const material* m = &w->materials[p->material[i]];
		float z = three ? p->z[i] : 0, vz = three ? p->vz[i] : 0;
		if (!(isfinite(p->x[i]) && isfinite(p->y[i]) && isfinite(p->vx[i]) && isfinite(p->vy[i]) &&
		      isfinite(z) && isfinite(vz))) {
			s.non_finite++;
			continue;
		}
		float speed = sqrtf(p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + vz * vz);
		if (speed > s.max_speed) s.max_speed = speed;
		float rho0 = pdl_rest_density_of(w, m);
		if (p->density[i] >= 0.5f * rho0) {
			float e = fabsf(p->density[i] - rho0) / rho0;
			err_sum += e;
			err_count++;
			if (e > s.max_density_error) s.max_density_error = e;
		}
		double mi = m->def.mass;
		mass += mi;
		mx += mi * p->x[i];
		my += mi * p->y[i];
		mz += mi * z;
		px += mi * p->vx[i];
		py += mi * p->vy[i];
		pz += mi * vz;
	}
	s.mean_density_error = err_count ? (float)(err_sum / err_count) : 0;
	s.momentum = (pdl_vec3){(float)px, (float)py, (float)pz};
	if (mass > 0) s.centre_of_mass = (pdl_vec3){(float)(mx / mass), (float)(my / mass), (float)(mz / mass)};
	/* neighbours within h, counted with the grid of the last step's predicted positions */
	const pdl_grid* g = &w->grid;
	s.device_bytes = w->cuda ? pdl_cuda_bytes(w->cuda) : 0;
	if (w->grid_stale) { /* the last step ran on the GPU: its count, at the predicted positions */
		float mean = 0;
		if (pdl_cuda_mean_neighbours(w->cuda, p->count, &mean)) s.mean_neighbours = mean;
	}
	/* Clumping, which a kernel density cannot see (a pair at one place sums to about the same
	 * density as two particles a spacing apart): the particles with another within half their
	 * material's rest spacing. Counted on the grid of the last CPU step (its cells are at least
	 * h wide and the particles moved less than h since); not after a GPU step, whose particles
	 * are in the GPU grid's order. */
	if (!w->grid_stale && p->count > 0 && g->inv_cell > 0 && w->steps > 0) {
		int clumped = 0;
		for (int i = 0; i < p->count; ++i) {
			const float close = 0.5f * w->materials[p->material[i]].rest_spacing, close2 = close * close;
			bool near = false;
			pdl_grid_runs runs;
			pdl_grid_runs_around(g, p->x[i], p->y[i], three ? p->z[i] : 0, &runs);
			for (int r = 0; r < runs.count; ++r)
				for (int k = runs.begin[r]; k < runs.end[r]; ++k) {
					int j = k; /* the particles were permuted into grid order */
					if (j >= p->count || j == i) continue;
					float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i];
					float dz = three ? p->z[j] - p->z[i] : 0, r2 = dx * dx + dy * dy + dz * dz;
					if (r2 < h * h) neighbours += 1;
					near |= r2 < close2;
				}
			clumped += near;
		}
		s.mean_neighbours = (float)(neighbours / p->count);
		s.clumped = (float)clumped / (float)p->count;
	}
	if (p->spring_partner) {
		long long slots = 0;
		for (long long k = 0; k < (long long)p->count * PDL_K; ++k) slots += p->spring_partner[k] >= 0;
		s.springs = (int)(slots / 2);
	}
	return s;
}

static uint64_t fnv(uint64_t h, const void* data, size_t n)
{
	const unsigned char* b = data;
	for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

uint64_t pdl_world_hash(const pdl_world* w)
{
	uint64_t h = 0xcbf29ce484222325ull;
	if (!w) return h;
	const particles* p = &w->p;
	size_t n = (size_t)p->count;
	h = fnv(h, &p->count, sizeof p->count);
	h = fnv(h, p->x, n * sizeof *p->x);
	h = fnv(h, p->y, n * sizeof *p->y);
	h = fnv(h, p->vx, n * sizeof *p->vx);
	h = fnv(h, p->vy, n * sizeof *p->vy);
	if (p->z) {
		h = fnv(h, p->z, n * sizeof *p->z);
		h = fnv(h, p->vz, n * sizeof *p->vz);
	}
	h = fnv(h, p->material, n);
	h = fnv(h, p->id, n * sizeof *p->id);
	if (p->spring_partner) {
		h = fnv(h, p->spring_partner, n * PDL_K * sizeof *p->spring_partner);
		for (size_t k = 0; k < n * PDL_K; ++k)
			if (p->spring_partner[k] >= 0) h = fnv(h, &p->spring_rest[k], sizeof(float));
	}
	/* bodies only when there are any, so that a world without them hashes as it always did */
	for (int k = 0; k < w->bodies.slots; ++k) {
		const rigid_body* b = &w->bodies.bodies[k];
		if (!b->alive) continue;
		h = fnv(h, &b->def.position, sizeof b->def.position);
		h = fnv(h, &b->def.angle, sizeof b->def.angle);
		h = fnv(h, &b->def.orientation, sizeof b->def.orientation);
		h = fnv(h, &b->def.linear_velocity, sizeof b->def.linear_velocity);
		h = fnv(h, &b->def.angular_velocity, sizeof b->def.angular_velocity);
	}
	return h;
}

uint64_t pdl_hash_ids_particle(uint64_t h, const float position[3], const float velocity[3], uint32_t id,
                               uint32_t material_id)
{
	const float v[6] = {position[0], position[1], position[2], velocity[0], velocity[1], velocity[2]};
	const uint32_t tags[2] = {id, material_id};
	h = fnv(h, v, sizeof v);
	return fnv(h, tags, sizeof tags);
}

uint64_t pdl_hash_ids_body(uint64_t h, const pdl_body_def* d)
{
	h = fnv(h, &d->position, sizeof d->position);
	h = fnv(h, &d->angle, sizeof d->angle);
	h = fnv(h, &d->orientation, sizeof d->orientation);
	h = fnv(h, &d->linear_velocity, sizeof d->linear_velocity);
	return fnv(h, &d->angular_velocity, sizeof d->angular_velocity);
}

static int by_id(const void* a, const void* b)
{
	const uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
	return (x > y) - (x < y);
}

uint64_t pdl_world_hash_ids(const pdl_world* w)
{
	if (!w) return 0;
	const particles* p = &w->p;
	const size_t n = (size_t)p->count;
	/* (id << 32 | index): sorting the keys sorts the indices by id (ids are unique) */
	uint64_t* order = malloc((n ? n : 1) * sizeof *order);
	if (!order) return 0;
	for (size_t i = 0; i < n; ++i) order[i] = (uint64_t)p->id[i] << 32 | (uint64_t)i;
	qsort(order, n, sizeof *order, by_id);
	uint64_t h = PDL_HASH_IDS_SEED;
	for (size_t k = 0; k < n; ++k) {
		const size_t i = (size_t)(order[k] & 0xffffffffu);
		const float x[3] = {p->x[i], p->y[i], p->z ? p->z[i] : 0}, v[3] = {p->vx[i], p->vy[i], p->vz ? p->vz[i] : 0};
		h = pdl_hash_ids_particle(h, x, v, p->id[i], p->material[i]);
	}
	free(order);
	for (int k = 0; k < w->bodies.slots; ++k)
		if (w->bodies.bodies[k].alive) h = pdl_hash_ids_body(h, &w->bodies.bodies[k].def);
	return h;
}

double pdl_world_grid_cells(const pdl_world* w, pdl_vec3 lo, pdl_vec3 hi)
{
	if (!w) return 0;
	const bool three = w->def.dimensions == 3;
	/* the build's cell size (grid.c, pdl_grid_build) */
	const double inv = (three ? PDL_GRID_CELLS_PER_H_3D : PDL_GRID_CELLS_PER_H_2D) / (double)w->def.interaction_radius;
	const double a[3] = {lo.x, lo.y, lo.z}, b[3] = {hi.x, hi.y, hi.z};
	double cells = 1;
	for (int k = 0; k < (three ? 3 : 2); ++k) {
		if (!(b[k] >= a[k]) || !isfinite(b[k] - a[k])) return 0;
		cells *= floor(b[k] * inv) - floor(a[k] * inv) + 1;
	}
	return cells;
}

int pdl_world_cfl_substeps(const pdl_world* w, float fastest_speed2)
{
	if (!w) return 0;
	if (w->def.solver == PDL_SOLVER_DFSPH) return pdl_dfsph_substeps_for(w, fastest_speed2);
	if (w->def.solver != PDL_SOLVER_SPH) return w->def.substeps;
	return pdl_sph_substeps_for(w, fastest_speed2);
}

pdl_error_id pdl_world_set_next_substeps(pdl_world* w, int substeps, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if ((w->def.solver != PDL_SOLVER_SPH && w->def.solver != PDL_SOLVER_DFSPH) || substeps < 1 ||
	    substeps > w->def.sph.max_substeps)
		return pdl_fail(err, PDL_ERR_NEXT_SUBSTEPS, (double)substeps);
	w->next_substeps = substeps;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return PDL_OK;
}

pdl_grid_frame pdl_default_grid_frame(void)
{
	return (pdl_grid_frame){.axes = {-1, -1, -1}, .dense_cells = 0, .gather_passes = false, .row_slabs = false,
	                        .cells_by_id = false};
}

pdl_grid_frame pdl_world_grid_frame(const pdl_world* w)
{
	pdl_grid_frame f = pdl_default_grid_frame();
	if (!w) return f;
	if (w->grid.fixed_axes) memcpy(f.axes, w->grid.axis_of, sizeof f.axes);
	f.dense_cells = w->grid.dense_cells;
	f.gather_passes = w->gather_passes;
	f.row_slabs = w->grid.row_slabs;
	f.cells_by_id = w->grid.cells_by_id;
	return f;
}

/* The cells of the grid over the box [lo, hi] grown to hold every container, and by h. */
static double container_cells(const pdl_world* w, const float lo[3], const float hi[3])
{
	const double h = w->def.interaction_radius;
	double a[3], b[3];
	for (int k = 0; k < 3; ++k) a[k] = lo[k], b[k] = hi[k];
	for (int slot = 0; slot < w->boundary_count; ++slot) {
		if (!w->boundaries[slot].alive) continue;
		const pdl_boundary_def def = w->boundaries[slot].def;
		double r[3];
		if (def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER) {
			r[0] = r[1] = r[2] = def.radius;
		} else if (def.kind == PDL_BOUNDARY_BOX_CONTAINER) { /* turned about z by angle */
			double c = fabs(cos((double)def.angle)), sn = fabs(sin((double)def.angle));
			r[0] = c * def.half_extents.x + sn * def.half_extents.y;
			r[1] = sn * def.half_extents.x + c * def.half_extents.y;
			r[2] = def.half_extents.z;
		} else {
			continue;
		}
		const double at[3] = {def.position.x, def.position.y, def.position.z};
		for (int k = 0; k < 3; ++k) {
			a[k] = at[k] - r[k] < a[k] ? at[k] - r[k] : a[k];
			b[k] = at[k] + r[k] > b[k] ? at[k] + r[k] : b[k];
		}
	}
	return pdl_world_grid_cells(w, (pdl_vec3){(float)(a[0] - h), (float)(a[1] - h), (float)(a[2] - h)},
	                            (pdl_vec3){(float)(b[0] + h), (float)(b[1] + h), (float)(b[2] + h)});
}

pdl_grid_frame pdl_world_fixed_grid_frame(const pdl_world* w)
{
	pdl_grid_frame frame = pdl_default_grid_frame();
	if (!w) return frame;
	pdl_particle_data d = pdl_world_particles(w);
	float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int i = 0; i < d.count; ++i) {
		const float x[3] = {d.x[i], d.y[i], d.z ? d.z[i] : 0};
		for (int k = 0; k < 3; ++k) lo[k] = x[k] < lo[k] ? x[k] : lo[k], hi[k] = x[k] > hi[k] ? x[k] : hi[k];
	}
	if (PDL_IS_3D(w)) { /* as the grid chooses them at a step (grid.c), once */
		int slow = 2;
		for (int a = 1; a >= 0; --a) slow = hi[a] - lo[a] > hi[slow] - lo[slow] ? a : slow;
		int fast = slow == 0 ? 1 : 0, mid = 3 - slow - fast;
		if (hi[mid] - lo[mid] > hi[fast] - lo[fast]) fast = mid, mid = 3 - slow - fast;
		frame.axes[0] = fast, frame.axes[1] = mid, frame.axes[2] = slow;
	}
	/* Dense over the containers' box, where the fluid stays, for the whole world and every slab
	 * of a split one alike: the grid is dense when its box has at most max(dense_cells, its hash
	 * table) cells, and the table grows with the particles a process holds, so a dense_cells
	 * short of the whole world's box would let the whole world (many particles, a big table) be
	 * dense and a slab (few) be hashed: other passes, other bits (an emitter's world, which
	 * starts empty, did that). At least 64 cells a particle; at most 2^24. */
	double cells = 64.0 * (d.count > 0 ? d.count : 1), box = container_cells(w, lo, hi);
	cells = box > cells ? box : cells;
	frame.dense_cells = (uint32_t)(cells < (double)(1 << 24) ? cells : (double)(1 << 24));
	frame.row_slabs = true;   /* the pair passes' slabs at fixed rows */
	frame.cells_by_id = true; /* each cell in id order, however the particles are stored */
	return frame;
}

pdl_error_id pdl_world_set_grid_frame(pdl_world* w, const pdl_grid_frame* frame, pdl_error* err)
{
	if (!w || !frame) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	const int* a = frame->axes;
	const bool automatic = a[0] == -1 && a[1] == -1 && a[2] == -1;
	const bool permutation = a[0] >= 0 && a[0] <= 2 && a[1] >= 0 && a[1] <= 2 && a[2] >= 0 && a[2] <= 2 &&
	                         a[0] != a[1] && a[1] != a[2] && a[0] != a[2];
	if (!automatic && !permutation) {
		int bad = a[0], k = 0;
		for (; k < 3 && (a[k] >= -1 && a[k] <= 2); ++k) {}
		if (k < 3) bad = a[k];
		return pdl_fail(err, PDL_ERR_GRID_FRAME_AXES, (double)bad);
	}
	if (frame->dense_cells > (1u << 26)) return pdl_fail(err, PDL_ERR_GRID_FRAME_DENSE_CELLS, (double)frame->dense_cells);
	if (!pdl_grid_allow_dense(&w->grid, frame->dense_cells)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	w->grid.fixed_axes = !automatic;
	w->gather_passes = frame->gather_passes;
	w->grid.row_slabs = frame->row_slabs;
	w->grid.cells_by_id = frame->cells_by_id;
	if (!automatic) memcpy(w->grid.axis_of, a, sizeof w->grid.axis_of);
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return PDL_OK;
}
