/* Ghosts: copies of a neighbouring process's particles, refreshed between the Clavet step's
 * neighbour passes (include/puddle/partition.h says when and why; docs/mpi.md how the Open MPI
 * layer uses them). The core only stores them, tagged with where they came from, and calls
 * the world's ghost function at the two stages (src/step.c). */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pdl_world_cell_reach(const pdl_world* w)
{
	if (!w) return 0;
	return w->def.dimensions == 3 ? PDL_GRID_CELLS_PER_H_3D : PDL_GRID_CELLS_PER_H_2D;
}

int pdl_world_cell_of(const pdl_world* w, float coordinate)
{
	if (!w) return 0;
	/* the build's cell size, computed as pdl_grid_build does, to the bit */
	return pdl_grid_cell_of(coordinate, (float)pdl_world_cell_reach(w) / w->def.interaction_radius);
}

pdl_error_id pdl_world_set_ghost_fn(pdl_world* w, pdl_ghost_fn* fn, void* context, pdl_error* err)
{
	if (!w) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (fn && !pdl_particles_enable_ghosts(w)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	w->ghost_fn = fn;
	w->ghost_context = context;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return PDL_OK;
}

/* Appends particles tagged `origin` (-1: the world's own); the checks of pdl_world_add_ghosts. */
static pdl_error_id append(pdl_world* w, const pdl_particle_data* d, int origin, pdl_error* err)
{
	if (!w || !d) return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (d->count <= 0) {
		if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
		return PDL_OK;
	}
	const bool three = w->def.dimensions == 3;
	if (!d->x || !d->y || !d->vx || !d->vy || !d->material || (three && (!d->z || !d->vz)))
		return pdl_fail(err, PDL_ERR_NULL_ARGUMENT, NAN);
	if (!d->id) return pdl_fail(err, PDL_ERR_GHOST_ID, NAN);
	for (int i = 0; i < d->count; ++i) {
		bool finite = isfinite(d->x[i]) && isfinite(d->y[i]) && isfinite(d->vx[i]) && isfinite(d->vy[i]);
		if (three) finite = finite && isfinite(d->z[i]) && isfinite(d->vz[i]);
		if (!finite || d->material[i] >= w->material_count) return pdl_fail(err, PDL_ERR_PARTICLE_STATE, i);
	}
	particles* p = &w->p;
	if (!p->origin && !pdl_particles_enable_ghosts(w)) return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, NAN);
	if (p->count > INT32_MAX - d->count || !pdl_particles_reserve(w, p->count + d->count))
		return pdl_fail(err, PDL_ERR_OUT_OF_MEMORY, (double)p->count + d->count);
	const size_t at = (size_t)p->count, n = (size_t)d->count;
	memcpy(p->x + at, d->x, n * sizeof *p->x);
	memcpy(p->y + at, d->y, n * sizeof *p->y);
	memcpy(p->xp + at, d->x, n * sizeof *p->xp); /* the velocity stage then gives what it may */
	memcpy(p->yp + at, d->y, n * sizeof *p->yp);
	memcpy(p->vx + at, d->vx, n * sizeof *p->vx);
	memcpy(p->vy + at, d->vy, n * sizeof *p->vy);
	if (three) {
		memcpy(p->z + at, d->z, n * sizeof *p->z);
		memcpy(p->zp + at, d->z, n * sizeof *p->zp);
		memcpy(p->vz + at, d->vz, n * sizeof *p->vz);
	}
	memcpy(p->material + at, d->material, n);
	memcpy(p->id + at, d->id, n * sizeof *p->id);
	memset(p->density + at, 0, n * sizeof *p->density);
	memset(p->pressure + at, 0, n * sizeof *p->pressure);
	memset(p->near_pressure + at, 0, n * sizeof *p->near_pressure);
	for (size_t i = at; i < at + n; ++i) p->origin[i] = origin;
	if (p->spring_partner)
		for (size_t s = at * PDL_K; s < (at + n) * PDL_K; ++s) p->spring_partner[s] = -1, p->spring_rest[s] = 0;
	p->count += d->count;
	p->revision++;
	if (origin < 0)
		for (size_t i = at; i < at + n; ++i) p->next_id = p->id[i] >= p->next_id ? p->id[i] + 1 : p->next_id;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return PDL_OK;
}

pdl_error_id pdl_world_add_ghosts(pdl_world* w, const pdl_particle_data* d, int origin, pdl_error* err)
{
	if (origin < 0) return pdl_fail(err, PDL_ERR_GHOST_ORIGIN, origin);
	return append(w, d, origin, err);
}

pdl_error_id pdl_world_add_particles(pdl_world* w, const pdl_particle_data* d, pdl_error* err)
{
	if (w && d && d->count > 0 && (long long)w->p.count + d->count > w->def.max_particles)
		return pdl_fail(err, PDL_ERR_TOO_MANY_PARTICLES, (double)w->p.count + d->count);
	return append(w, d, -1, err);
}

/* Particle `from` into slot `to`, with its index before the removal (scratch). */
static void move_particle(particles* p, int to, int from)
{
	pdl_particles_move(p, to, from);
	p->scratch[to] = p->scratch[from];
}

/* Removes the particles that `leaves` says (by index). With cells_by_id and no springs each
 * one's slot takes the last particle: O(removed), not O(n), and the storage order plays no
 * part there; otherwise the rest are compacted in order (springs: partners are indices,
 * renamed). */
static int remove_if(pdl_world* w, bool (*leaves)(const pdl_world* w, const void* context, int i), const void* context)
{
	particles* p = &w->p;
	if (p->spring_partner || !w->grid.cells_by_id) {
		uint8_t* keep = malloc((size_t)p->count + 1);
		if (!keep) return 0;
		for (int i = 0; i < p->count; ++i) keep[i] = !leaves(w, context, i);
		int removed = pdl_particles_compact(w, keep);
		free(keep);
		return removed;
	}
	int n = p->count, removed = 0;
	for (int i = 0; i < n;) {
		if (!leaves(w, context, i)) {
			++i;
			continue;
		}
		--n, ++removed;
		if (i < n) move_particle(p, i, n); /* (the last one is tested next, in slot i) */
	}
	p->count = n;
	p->revision++;
	return removed;
}

static bool is_ghost(const pdl_world* w, const void* context, int i)
{
	(void)context;
	return w->p.origin[i] >= 0;
}

int pdl_world_remove_ghosts(pdl_world* w)
{
	if (!w || !w->p.origin) return 0;
	return remove_if(w, is_ghost, NULL);
}

/* The mask is by the original index; a moved particle carries its index along in `scratch`. */
static bool marked(const pdl_world* w, const void* context, int i)
{
	return ((const uint8_t*)context)[w->p.scratch[i]] != 0;
}

int pdl_world_remove_particles(pdl_world* w, const uint8_t* remove)
{
	if (!w || !remove) return 0;
	particles* p = &w->p;
	for (int i = 0; i < p->count; ++i) p->scratch[i] = i;
	return remove_if(w, marked, remove);
}

pdl_ghost_view pdl_world_ghost_view(pdl_world* w)
{
	if (!w || !w->p.origin) return (pdl_ghost_view){0};
	particles* p = &w->p;
	pdl_ghost_view v = {.count = p->count, .origin = p->origin, .id = p->id, .pressure = p->pressure,
	                    .near_pressure = p->near_pressure, .field_count = w->ghost_field_count,
	                    .error = &w->ghost_error};
	for (int f = 0; f < w->ghost_field_count; ++f) v.fields[f] = w->ghost_fields[f];
	return v;
}

void pdl_ghost_error_add(pdl_ghost_error* a, const pdl_ghost_error* b)
{
	const uint64_t lo = a->lo + b->lo;
	a->hi += b->hi + (lo < b->lo); /* (the carry) */
	a->lo = lo;
	a->count += b->count;
	a->most = b->most > a->most ? b->most : a->most;
}
