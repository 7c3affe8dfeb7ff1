/* One world split over the processes of an MPI communicator (puddle/mpi.h, docs/mpi.md).
 *
 * Decomposition: slabs along the axis on which the particles spread widest, one per process,
 * cut at quantiles of the particles' coordinate on it, so each process owns about as many; cut
 * again when the busiest holds 10% more than the mean.
 *
 * Ghosts (Clavet worlds without springs or bodies, and DFSPH worlds; mpi_ghosts.c,
 * step_with_ghosts below): each process's world holds only its own particles; the particles
 * that crossed a cut change process at the frame's start, and at each substep the core's ghost
 * stages (partition.h) take in the other processes' particles one cell reach around its own,
 * then their pressures (Clavet) or, many times a substep, the values DFSPH's passes read and
 * its solves' errors. No halo, nothing stepped twice.
 *
 * Halo (SPH, springs, Clavet's and SPH's bodies, or PUDDLE_MPI_HALO=1): once a frame. Every process sends each particle it owns to every process whose slab
 * grown by the halo width holds it (MPI_Alltoallv), so each gets its slab plus a halo. It stores
 * them in id order in its own world (pdl_world_set_particles), steps it (pdl_world_step), and
 * keeps the particles of its slab. A particle's new state depends on its neighbours within h at
 * every neighbour pass of the step, theirs on theirs, so the halo's outer particles come out
 * wrong (they lack neighbours) and the error moves in by up to h a pass; a halo wider than that
 * reach leaves the slab's particles exact. Measured (tests/exp_partition.c on the
 * wip/storage-order branch): 2D Clavet exact from a 3 h halo, 3D from 4 h. This layer sizes
 * the halo each frame from the reach (reach(), size_halo) and checks it after the step against
 * how far the particles really moved (needed_halo), stepping the frame again, wider, when it
 * fell short. The sums over neighbours then run in the same order as in one
 * process (either way): the grid sorts by cell, and each cell by id (cells_by_id); its axes,
 * its dense layout and the slabs of the passes that visit each pair once are fixed for all
 * (pdl_world_set_grid_frame). Those passes add to a particle in an order that
 * depends on where their slabs split the world: by default at equal particle counts, so on the
 * world's particle count (mpirun -np 3 differed from 1 and 2 at frame 5 that way); here at
 * fixed rows of cells (row_slabs), which every process places alike.
 * Moving particles change owner by themselves: ownership is by position at each frame's start.
 *
 * A frame costs one all-to-all of counts and one of particles (32 bytes each); what moves is
 * the halos, about 2 x halo width x the slab's cross-section of particles per process. */
#include "mpi_internal.h"

#include "puddle/partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sorts n keys (id << 32 | place) by their ids, 11 bits a pass from the lowest, with scratch
 * for n more: a radix sort, a few passes over 8-byte keys where qsort of the 32-byte particles
 * took 15 ms a frame at 100k. Stable, so the places of equal ids stay in order (ids are unique
 * anyway). The result is in keys. */
static void sort_keys_by_id(uint64_t* keys, uint64_t* scratch, int n)
{
	uint32_t bits = 0;
	for (int i = 0; i < n; ++i) bits |= (uint32_t)(keys[i] >> 32);
	uint64_t *from = keys, *to = scratch;
	for (int shift = 32; shift < 64 && (bits >> (shift - 32)) != 0; shift += 11) {
		int start[2048] = {0};
		for (int i = 0; i < n; ++i) start[(from[i] >> shift) & 2047]++;
		for (int d = 0, sum = 0; d < 2048; ++d) {
			int c = start[d];
			start[d] = sum, sum += c;
		}
		for (int i = 0; i < n; ++i) to[start[(from[i] >> shift) & 2047]++] = from[i];
		uint64_t* t = from;
		from = to, to = t;
	}
	if (from != keys) memcpy(keys, from, (size_t)n * sizeof *keys);
}

/* The process that owns coordinate c: cuts are sorted, and a NaN goes to the last process. */
static int owner_of(const pdl_mpi_world* s, float c)
{
	int r = 0;
	while (r + 1 < s->size && !(c < s->cuts[r + 1])) ++r;
	return r;
}

/* Cuts at the quantiles of the whole world's coordinates on the split axis, from a histogram:
 * the whole world's least and greatest coordinate (one MPI_Allreduce), every process's counts
 * in CUT_BINS equal bins between them, summed (one MPI_Allreduce of 256 kB), and cut r at the
 * upper edge of the bin where the running count first reaches r N / P. Every process computes
 * the same cuts from the same sums. A bin is 1/65536 of the extent: at the 100M dam break of
 * docs/mpi.md's model, 0.004 h, finer than a layer of the particles' lattice (0.3 h), which no
 * cut can split anyway (a cut is a coordinate). Gathering and sorting every coordinate instead
 * cost 18 s a re-cut at 100M (docs/mpi.md, "Model"); this costs a pass over a process's own
 * particles and the two allreduces. Non-finite coordinates are left out. */
enum { CUT_BINS = 1 << 16 };

static bool cut_slabs(pdl_mpi_world* s)
{
	float range[2] = {INFINITY, INFINITY}; /* least, and minus the greatest */
	for (int i = 0; i < s->owned_count; ++i) {
		const float c = s->owned[i].x[s->axis];
		if (!isfinite(c)) continue;
		range[0] = c < range[0] ? c : range[0];
		range[1] = -c < range[1] ? -c : range[1];
	}
	float least[2];
	MPI_Allreduce(range, least, 2, MPI_FLOAT, MPI_MIN, s->comm);
	s->stats.collectives++;
	const double lo = least[0], hi = -(double)least[1], width = (hi - lo) / CUT_BINS;
	int32_t* mine = calloc(CUT_BINS, sizeof *mine);
	int32_t* all = malloc(CUT_BINS * sizeof *all);
	int ok = mine && all, all_ok = 0;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	s->stats.collectives++;
	if (!all_ok) {
		free(mine), free(all);
		return false;
	}
	for (int i = 0; width > 0 && i < s->owned_count; ++i) {
		const float c = s->owned[i].x[s->axis];
		if (!isfinite(c)) continue;
		double k = floor(((double)c - lo) / width);
		mine[k < 0 ? 0 : k >= CUT_BINS ? CUT_BINS - 1 : (int)k]++;
	}
	/* (a bin's sum fits: a world holds at most 2^26 particles) */
	MPI_Allreduce(mine, all, CUT_BINS, MPI_INT32_T, MPI_SUM, s->comm);
	s->stats.collectives++;
	long long n = 0;
	for (int k = 0; k < CUT_BINS; ++k) n += all[k];
	s->cuts[0] = -INFINITY;
	s->cuts[s->size] = INFINITY;
	long long below = 0;
	int k = 0;
	for (int r = 1; r < s->size; ++r) {
		const long long want = n * r / s->size;
		while (k < CUT_BINS && below + all[k] <= want) below += all[k++];
		/* bin k holds the want-th particle: cut at whichever of its edges leaves nearer want
		 * below; at the range's start for an empty world or one at a single coordinate */
		const long long upper = k < CUT_BINS ? below + all[k] : below;
		const int edge = want - below <= upper - want ? k : k + 1;
		s->cuts[r] = width > 0 && n > 0 ? (float)(lo + (double)edge * width) : (float)(isfinite(lo) ? lo : 0.0);
	}
	free(mine), free(all);
	return true;
}

/* Whether the busiest process holds 10% more particles than the mean (the same answer in all). */
static bool unbalanced(pdl_mpi_world* s)
{
	long long mine = s->owned_count, total = 0, most = 0;
	MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
	MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, s->comm);
	s->stats.collectives += 2;
	s->total = total;
	return s->size > 1 && (double)most > 1.1 * (double)total / s->size;
}

/* Particle i's springs in a world's data (partners by index into it) as packed_springs
 * (partners by id). */
static void pack_springs(const pdl_particle_data* d, int i, packed_springs* out)
{
	for (int a = 0; a < PDL_MAX_SPRINGS_PER_PARTICLE; ++a) {
		const int32_t j = d->spring_partner ? d->spring_partner[(size_t)i * PDL_MAX_SPRINGS_PER_PARTICLE + a] : -1;
		out->partner[a] = j >= 0 ? d->id[j] : SPRING_NONE;
		out->rest[a] = j >= 0 ? d->spring_rest[(size_t)i * PDL_MAX_SPRINGS_PER_PARTICLE + a] : 0.0f;
	}
}

/* The longest of particle i's springs in a world's data (world units, 0 for none). */
static float longest_spring_of(const pdl_particle_data* d, int i)
{
	float longest = 0;
	for (int a = 0; d->spring_partner && a < PDL_MAX_SPRINGS_PER_PARTICLE; ++a) {
		const int32_t j = d->spring_partner[(size_t)i * PDL_MAX_SPRINGS_PER_PARTICLE + a];
		if (j < 0) continue;
		float dx = d->x[j] - d->x[i], dy = d->y[j] - d->y[i], dz = d->z ? d->z[j] - d->z[i] : 0.0f;
		float r = sqrtf(dx * dx + dy * dy + dz * dz);
		longest = r > longest ? r : longest;
	}
	return longest;
}

/* Room for n owned particles (their packed state, fields and springs); false when out of memory. */
static bool grow_owned(pdl_mpi_world* s, int n)
{
	return pdl_mpi_grow((void**)&s->owned, &s->owned_capacity, n, sizeof *s->owned) &&
	       pdl_mpi_grow((void**)&s->owned_fields, &s->owned_fields_capacity, n, 3 * sizeof *s->owned_fields) &&
	       (!s->springs ||
	        pdl_mpi_grow((void**)&s->owned_springs, &s->owned_springs_capacity, n, sizeof *s->owned_springs));
}

/* Packs particle i of the world's arrays as owned particle `at`. */
static void own_particle(pdl_mpi_world* s, const pdl_particle_data* d, int i, int at)
{
	packed_particle* p = &s->owned[at];
	p->x[0] = d->x[i], p->x[1] = d->y[i], p->x[2] = s->three ? d->z[i] : 0;
	p->v[0] = d->vx[i], p->v[1] = d->vy[i], p->v[2] = s->three ? d->vz[i] : 0;
	p->id = d->id[i], p->material = d->material[i];
	s->owned_fields[3 * at] = d->density ? d->density[i] : 0.0f;
	s->owned_fields[3 * at + 1] = d->pressure ? d->pressure[i] : 0.0f;
	s->owned_fields[3 * at + 2] = d->divergence_pressure ? d->divergence_pressure[i] : 0.0f; /* (DFSPH) */
	if (s->springs) pack_springs(d, i, &s->owned_springs[at]);
}

/* Every particle of the world (the whole world, the same in every process) as this process's
 * own, with its density and pressure; false when out of memory. */
static bool take_world(pdl_mpi_world* s)
{
	pdl_particle_data d = pdl_world_particles(s->world);
	s->next_id = d.next_id;
	if (!grow_owned(s, d.count)) return false;
	s->longest_spring = 0;
	for (int i = 0; i < d.count; ++i) {
		own_particle(s, &d, i, i);
		if (s->springs) {
			float r = longest_spring_of(&d, i);
			s->longest_spring = r > s->longest_spring ? r : s->longest_spring;
		}
	}
	s->owned_count = d.count;
	return true;
}

/* Keeps the owned particles in this process's slab. */
static void keep_slab(pdl_mpi_world* s)
{
	int kept = 0;
	for (int i = 0; i < s->owned_count; ++i)
		if (owner_of(s, s->owned[i].x[s->axis]) == s->rank) {
			for (int f = 0; f < 3; ++f) s->owned_fields[3 * kept + f] = s->owned_fields[3 * i + f];
			if (s->springs) s->owned_springs[kept] = s->owned_springs[i];
			s->owned[kept++] = s->owned[i];
		}
	s->owned_count = kept;
}

/* How far the state of a slab's particle after a frame can reach back into the frame's start
 * (world units): its state depends on particles within h of it at each neighbour pass of the
 * step, theirs on theirs, so on particles (passes x substeps) hops away. Clavet makes two
 * neighbour passes a substep (densities and viscosity; relaxation), three with springs' making
 * (a particle's proposals, its neighbours' answers) and one more along each spring, SPH three
 * (densities, normals, forces). Two particles within h of each other at some substep were up to
 * h + 2 d apart at the frame's start, d the farthest any particle moved in the frame, and a
 * spring reaches as far as it is long (L); one h on top for a particle that went further
 * mid-frame than where it ended. */
static float reach(const pdl_mpi_world* s, int substeps, float moved, float longest_spring)
{
	const float h = s->h, n = (float)substeps;
	const float passes = s->sph ? 3.0f : s->springs ? 4.0f : 2.0f;
	float r = n * passes * (h + 2.0f * moved) + h;
	if (s->springs) r += n * (longest_spring + 2.0f * moved);
	return r;
}

/* ---- Bodies ---------------------------------------------------------------------------
 *
 * Every process holds every body (a world's bodies are few) and steps it as one process would:
 * each body's sums over the fluid near it run over the same particles in the same order in
 * every process (the grid's cell order, then id order), so every process ends the frame with
 * the same bits for each body and no body state is ever sent. That needs, in every process,
 * every particle that can come within reach of a body during the frame, and exact: so every
 * particle within a body's zone on the split axis goes to every process, the zone being the
 * body's bounding radius, plus h, plus how far the fluid and the body may move in the frame
 * (body_margin), plus the halo (the particles those depend on). The margin is predicted like
 * the halo and checked after the step the same way. */

/* The world's bodies as they stand (the frame function may add some), their defs kept as the
 * frame's start; false when out of memory. */
static bool note_bodies(pdl_mpi_world* s)
{
	const int n = pdl_world_bodies(s->world, NULL, 0);
	if (n > s->body_count) {
		pdl_body_id* ids = realloc(s->body_ids, (size_t)n * sizeof *ids);
		if (ids) s->body_ids = ids;
		pdl_body_def* defs = realloc(s->body_start, (size_t)n * sizeof *defs);
		if (defs) s->body_start = defs;
		float* zones = realloc(s->zone_lo, (size_t)n * 2 * sizeof *zones);
		if (zones) s->zone_lo = zones, s->zone_hi = zones + n;
		if (!ids || !defs || !zones) return false;
	}
	s->body_count = pdl_world_bodies(s->world, s->body_ids, n);
	for (int k = 0; k < s->body_count; ++k) pdl_world_get_body(s->world, s->body_ids[k], &s->body_start[k]);
	return true;
}

/* Each body's zone on the split axis from its place at the frame's start. */
static void place_zones(pdl_mpi_world* s)
{
	for (int k = 0; k < s->body_count; ++k) {
		const pdl_body_def* d = &s->body_start[k];
		const float c = s->axis == 0 ? d->position.x : s->axis == 1 ? d->position.y : d->position.z;
		const float r = pdl_world_body_mass(s->world, s->body_ids[k]).bound_radius + s->body_margin + s->halo;
		s->zone_lo[k] = c - r, s->zone_hi[k] = c + r;
	}
}

/* Whether a particle at c on the split axis goes to process r: in r's slab grown by the halo,
 * or in a body's zone (then it goes to every process). */
static bool sent_to(const pdl_mpi_world* s, float c, int r)
{
	if (c >= s->cuts[r] - s->halo && c < s->cuts[r + 1] + s->halo) return true;
	for (int k = 0; k < s->body_count; ++k)
		if (c >= s->zone_lo[k] && c <= s->zone_hi[k]) return true;
	return false;
}

/* The fastest body's speed and the largest gravity one feels (world units / s, / s^2). */
static void body_motion(const pdl_mpi_world* s, const pdl_world_def* def, float* speed, float* gravity)
{
	const float g = sqrtf(def->gravity.x * def->gravity.x + def->gravity.y * def->gravity.y + def->gravity.z * def->gravity.z);
	*speed = 0, *gravity = 0;
	for (int k = 0; k < s->body_count; ++k) {
		const pdl_vec3 v = s->body_start[k].linear_velocity;
		const float sp = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z), gk = g * fabsf(s->body_start[k].gravity_scale);
		*speed = sp > *speed ? sp : *speed;
		*gravity = gk > *gravity ? gk : *gravity;
	}
}

/* The farthest any body's centre moved in the step just done (the same in every process). */
static float body_moved(const pdl_mpi_world* s)
{
	float most = 0;
	for (int k = 0; k < s->body_count; ++k) {
		pdl_body_def now;
		if (!pdl_world_get_body(s->world, s->body_ids[k], &now)) continue;
		const pdl_vec3 a = s->body_start[k].position;
		const float dx = now.position.x - a.x, dy = now.position.y - a.y, dz = now.position.z - a.z;
		const float r = sqrtf(dx * dx + dy * dy + dz * dz);
		most = r > most ? r : most;
	}
	return most;
}

static pdl_mpi_world* refuse(pdl_error* err, pdl_error_id id, const char* what)
{
	pdl_error_fill(err, id, NULL, NULL, "puddle over MPI cannot split %s yet", what);
	return NULL;
}

static bool world_from_owned(pdl_mpi_world* s);

pdl_mpi_world* pdl_mpi_world_create(pdl_world* world, MPI_Comm comm, pdl_error* err)
{
	if (!world) return refuse(err, PDL_ERR_NULL_ARGUMENT, "a NULL world");
	const pdl_world_def def = pdl_world_get_def(world);
	/* DFSPH's solves iterate until an error over all particles is small: every process needs
	 * every iteration's error and its neighbours' pressures and velocities after every pass,
	 * which ghosts give (mpi_ghosts.c) and a halo once a frame does not */
	if (def.solver == PDL_SOLVER_DFSPH && !pdl_mpi_ghosts_suit(world))
		return refuse(err, PDL_ERR_WORLD_SOLVER, "a DFSPH world with PUDDLE_MPI_HALO=1 (DFSPH needs ghosts)");
	pdl_mpi_world* s = calloc(1, sizeof *s);
	if (!s) return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	s->comm = comm;
	MPI_Comm_rank(comm, &s->rank);
	MPI_Comm_size(comm, &s->size);
	s->world = world;
	s->three = def.dimensions == 3;
	s->sph = def.solver == PDL_SOLVER_SPH;
	s->dfsph = def.solver == PDL_SOLVER_DFSPH;
	s->frame_dt = def.dt;
	s->last_moved = 0.25f * def.interaction_radius; /* the first frame's guess: a fill's lattice relaxing */
	/* a halo predicted without motion, so that every frame that moves is stepped again: lets
	 * the tests (mpi.hash) check the widening, which the prediction makes rare */
	const char* tight = getenv("PUDDLE_MPI_TIGHT_HALO");
	s->tight_halo = tight && strcmp(tight, "1") == 0;
	float scale = 0;
	for (int m = 0; m < pdl_world_material_count(world); ++m) {
		float g = fabsf(pdl_world_get_material(world, m).gravity_scale);
		scale = g > scale ? g : scale;
	}
	s->gravity = scale * sqrtf(def.gravity.x * def.gravity.x + def.gravity.y * def.gravity.y + def.gravity.z * def.gravity.z);
	s->substeps = def.substeps;
	for (int m = 0; m < pdl_world_material_count(world); ++m)
		s->springs |= pdl_world_get_material(world, m).spring_stiffness > 0;
	s->h = def.interaction_radius;
	s->cuts = malloc(((size_t)s->size + 1) * sizeof *s->cuts);
	s->send_counts = calloc((size_t)s->size * 4, sizeof *s->send_counts);
	if (!s->cuts || !s->send_counts) {
		pdl_mpi_world_destroy(s);
		return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	s->send_displs = s->send_counts + s->size;
	s->recv_counts = s->send_counts + 2 * s->size;
	s->recv_displs = s->send_counts + 3 * s->size;
	/* every process holds the whole world now: its own copy of the same particles */
	pdl_particle_data d = pdl_world_particles(world);
	float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	if (!take_world(s)) {
		pdl_mpi_world_destroy(s);
		return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	for (int i = 0; i < d.count; ++i) {
		const packed_particle* p = &s->owned[i];
		for (int k = 0; k < 3; ++k) lo[k] = p->x[k] < lo[k] ? p->x[k] : lo[k], hi[k] = p->x[k] > hi[k] ? p->x[k] : hi[k];
	}
	/* the split axis: the widest */
	const float h = def.interaction_radius;
	s->axis = 0;
	for (int k = 1; k < (s->three ? 3 : 2); ++k)
		if (hi[k] - lo[k] > hi[s->axis] - lo[s->axis]) s->axis = k;
	/* the grid's frame, fixed for every process (pdl_world_fixed_grid_frame): the scene layer
	 * builds worlds with it, so that a run in one process steps as a split one; a world made
	 * otherwise gets it here */
	pdl_grid_frame frame = pdl_world_grid_frame(world);
	if (!(frame.row_slabs && frame.cells_by_id && frame.axes[0] >= (s->three ? 0 : -1)))
		frame = pdl_world_fixed_grid_frame(world);
	pdl_error_id frame_ok = pdl_world_set_grid_frame(world, &frame, err);
	s->ghosts = pdl_mpi_ghosts_suit(world);
	if (frame_ok == PDL_OK && s->ghosts) {
		s->extents = malloc((size_t)s->size * 2 * sizeof *s->extents);
		s->ghost_counts = malloc((size_t)s->size * 4 * sizeof *s->ghost_counts);
		if (!s->extents || !s->ghost_counts) {
			pdl_mpi_world_destroy(s);
			return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
		}
		frame_ok = pdl_world_set_ghost_fn(world, pdl_mpi_ghost_stage, s, err);
	}
	s->halo = reach(s, def.substeps, 0.0f, 0.0f); /* until the first step sizes it */
	s->body_margin = h;
	if (!note_bodies(s)) {
		pdl_mpi_world_destroy(s);
		return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	if (frame_ok != PDL_OK || !cut_slabs(s)) {
		pdl_mpi_world_destroy(s);
		return frame_ok != PDL_OK ? NULL : refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	keep_slab(s);
	if (!world_from_owned(s)) {
		pdl_mpi_world_destroy(s);
		return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	s->stats = (pdl_mpi_world_stats){0}; /* the step's costs only, not the first cut's */
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return s;
}

void pdl_mpi_world_destroy(pdl_mpi_world* s)
{
	if (!s) return;
	free(s->cuts), free(s->send_counts);
	free(s->owned), free(s->send), free(s->recv), free(s->recv_owned);
	free(s->arrays), free(s->materials), free(s->ids);
	free(s->owned_fields), free(s->out_arrays), free(s->out_materials), free(s->out_ids);
	free(s->out_partner); /* (out_rest lies in it) */
	free(s->fresh), free(s->fresh_owned);
	free(s->owned_springs), free(s->send_springs), free(s->recv_springs), free(s->sorted_springs);
	free(s->sort_keys), free(s->sorted), free(s->spring_partner); /* (spring_rest lies in it) */
	free(s->body_ids), free(s->body_start), free(s->zone_lo); /* (zone_hi lies in it) */
	free(s->leave), free(s->extents), free(s->ghost_counts), free(s->ghost_send), free(s->ghost_recv);
	free(s->field_send_index), free(s->field_recv_index), free(s->field_send), free(s->field_recv);
	free(s->move_pressures), free(s->ghost_zones), free(s->ghost_zone_ids);
	if (s->ghosts && s->world) {
		pdl_world_remove_ghosts(s->world);
		pdl_world_set_ghost_fn(s->world, NULL, NULL, NULL);
	}
	free(s);
}

/* Sends every owned particle to each process whose slab grown by the halo holds it; receives
 * this process's slab and halo into recv, sorted by id. False when out of memory. */
static bool exchange(pdl_mpi_world* s, int* received)
{
	const int n = s->size;
	memset(s->send_counts, 0, (size_t)n * sizeof *s->send_counts);
	for (int i = 0; i < s->owned_count; ++i) {
		float c = s->owned[i].x[s->axis];
		for (int r = 0; r < n; ++r) s->send_counts[r] += sent_to(s, c, r);
	}
	int total = 0;
	for (int r = 0; r < n; ++r) s->send_displs[r] = total, total += s->send_counts[r];
	if (!pdl_mpi_grow((void**)&s->send, &s->send_capacity, total, sizeof *s->send)) return false;
	if (s->springs && !pdl_mpi_grow((void**)&s->send_springs, &s->send_springs_capacity, total, sizeof *s->send_springs))
		return false;
	int* at = s->recv_counts; /* (scratch: filled by the all-to-all below) */
	memcpy(at, s->send_displs, (size_t)n * sizeof *at);
	for (int i = 0; i < s->owned_count; ++i) {
		float c = s->owned[i].x[s->axis];
		for (int r = 0; r < n; ++r)
			if (sent_to(s, c, r)) {
				if (s->springs) s->send_springs[at[r]] = s->owned_springs[i];
				s->send[at[r]++] = s->owned[i];
			}
	}
	/* counts and offsets in bytes for MPI_BYTE */
	const int size = (int)sizeof(packed_particle);
	MPI_Alltoall(s->send_counts, 1, MPI_INT, s->recv_counts, 1, MPI_INT, s->comm);
	int got = 0;
	for (int r = 0; r < n; ++r) s->recv_displs[r] = got, got += s->recv_counts[r];
	for (int r = 0; r < n; ++r) {
		if (r == s->rank) continue;
		s->stats.bytes_sent += (long long)s->send_counts[r] * size;
		s->stats.bytes_received += (long long)s->recv_counts[r] * size;
		s->stats.messages_sent += s->send_counts[r] > 0;
		s->stats.messages_received += s->recv_counts[r] > 0;
	}
	s->stats.collectives += 2;
	/* (room for the frame's new particles too, which follow the received ones) */
	const int room = got + s->fresh_count;
	if (!pdl_mpi_grow((void**)&s->recv, &s->recv_capacity, room, sizeof *s->recv)) return false;
	if (!pdl_mpi_grow((void**)&s->sorted, &s->sorted_capacity, room, sizeof *s->sorted) ||
	    !pdl_mpi_grow((void**)&s->sort_keys, &s->sort_keys_capacity, 2 * got, sizeof *s->sort_keys))
		return false;
	if (s->springs &&
	    (!pdl_mpi_grow((void**)&s->recv_springs, &s->recv_springs_capacity, room, sizeof *s->recv_springs) ||
	     !pdl_mpi_grow((void**)&s->sorted_springs, &s->sorted_springs_capacity, room, sizeof *s->sorted_springs)))
		return false;
	for (int r = 0; r < n; ++r) {
		s->send_counts[r] *= size, s->send_displs[r] *= size;
		s->recv_counts[r] *= size, s->recv_displs[r] *= size;
	}
	MPI_Alltoallv(s->send, s->send_counts, s->send_displs, MPI_BYTE, s->recv, s->recv_counts, s->recv_displs,
	              MPI_BYTE, s->comm);
	/* the springs, in the same places (counts in their own bytes) */
	const int spring_size = (int)sizeof(packed_springs);
	for (int r = 0; s->springs && r < n; ++r) {
		s->send_counts[r] = s->send_counts[r] / size * spring_size, s->send_displs[r] = s->send_displs[r] / size * spring_size;
		s->recv_counts[r] = s->recv_counts[r] / size * spring_size, s->recv_displs[r] = s->recv_displs[r] / size * spring_size;
		if (r == s->rank) continue;
		s->stats.bytes_sent += s->send_counts[r];
		s->stats.bytes_received += s->recv_counts[r];
	}
	if (s->springs) {
		MPI_Alltoallv(s->send_springs, s->send_counts, s->send_displs, MPI_BYTE, s->recv_springs, s->recv_counts,
		              s->recv_displs, MPI_BYTE, s->comm);
		s->stats.collectives++;
	}
	/* both in id order */
	for (int i = 0; i < got; ++i) s->sort_keys[i] = (uint64_t)s->recv[i].id << 32 | (uint32_t)i;
	sort_keys_by_id(s->sort_keys, s->sort_keys + got, got);
	for (int i = 0; i < got; ++i) s->sorted[i] = s->recv[(uint32_t)s->sort_keys[i]];
	for (int i = 0; s->springs && i < got; ++i) s->sorted_springs[i] = s->recv_springs[(uint32_t)s->sort_keys[i]];
	packed_particle* t = s->recv;
	s->recv = s->sorted, s->sorted = t;
	int c = s->recv_capacity;
	s->recv_capacity = s->sorted_capacity, s->sorted_capacity = c;
	if (s->springs) {
		packed_springs* u = s->recv_springs;
		s->recv_springs = s->sorted_springs, s->sorted_springs = u;
		c = s->recv_springs_capacity;
		s->recv_springs_capacity = s->sorted_springs_capacity, s->sorted_springs_capacity = c;
	}
	*received = got;
	return true;
}

void pdl_mpi_world_set_frame_fn(pdl_mpi_world* s, pdl_mpi_frame_fn fn, void* context)
{
	s->frame_fn = fn;
	s->frame_context = context;
}

/* The caller's part of the frame (pdl_mpi_frame_fn), on this process's world as the last step
 * left it, before the exchange: pointers are the world's, not its particles', and act on each
 * particle alone, so setting them in every process is what one process does. The particles it
 * adds come with the whole world's next ids in every process; they are taken out into
 * s->fresh (with which of them this slab holds where they start: a particle's owner is by its
 * place at the frame's start) and join the exchanged ones. Returns false on every process with
 * err the first failing process's reason. Collective. */
static bool apply_frame_fn(pdl_mpi_world* s, pdl_error* err)
{
	const int before = pdl_world_particle_count(s->world);
	bool ok = s->frame_fn(s->world, s->frame_context, err);
	const int added = pdl_world_particle_count(s->world) - before;
	long long counts[2] = {added, -(long long)added}, most[2];
	MPI_Allreduce(counts, most, 2, MPI_LONG_LONG, MPI_MAX, s->comm);
	s->stats.collectives++;
	const long long max_particles = pdl_world_get_def(s->world).max_particles;
	s->fresh_count = 0;
	if (ok && most[0] != -most[1]) {
		pdl_error_fill(err, PDL_ERR_MPI_PROCESS, NULL, NULL,
		               "the frame function added %lld particles on one process and %lld on another; "
		               "it must do the same on every process",
		               -most[1], most[0]);
		ok = false;
	} else if (ok && s->total + added > max_particles) {
		/* one process's world holds only its slab and halo, so its own cap check cannot see this */
		pdl_error_fill(err, PDL_ERR_TOO_MANY_PARTICLES, NULL, NULL,
		               "the frame's %d new particles make %lld, more than world.max_particles (%lld)", added,
		               s->total + added, max_particles);
		ok = false;
	}
	if (ok && (!pdl_mpi_grow((void**)&s->fresh, &s->fresh_capacity, added, sizeof *s->fresh) ||
	           !pdl_mpi_grow((void**)&s->fresh_owned, &s->fresh_owned_capacity, added, sizeof *s->fresh_owned))) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
		ok = false;
	}
	if (ok && added > 0) {
		pdl_particle_data d = pdl_world_particles(s->world);
		for (int i = 0; i < d.count; ++i) {
			if (d.id[i] < s->next_id || d.id[i] - s->next_id >= (uint32_t)added) continue;
			packed_particle* p = &s->fresh[d.id[i] - s->next_id];
			p->x[0] = d.x[i], p->x[1] = d.y[i], p->x[2] = s->three ? d.z[i] : 0;
			p->v[0] = d.vx[i], p->v[1] = d.vy[i], p->v[2] = s->three ? d.vz[i] : 0;
			p->id = d.id[i], p->material = d.material[i];
			s->fresh_owned[d.id[i] - s->next_id] = owner_of(s, p->x[s->axis]) == s->rank;
		}
		s->fresh_count = added;
	}
	return pdl_mpi_agree(s->comm, ok, err);
}

/* The halo of this frame, as predicted from the whole world's fastest particle and longest
 * spring at its start (one MPI_Allreduce of both; the fastest over each process's own and new
 * particles, its squared speed in float as src/sph.c computes it): a particle is taken to move
 * up to 1.25 v dt in the frame and a spring to stretch by a quarter. The step then checks what
 * the frame really needed (needed_halo) and does it again, wider, if that was more. Returns the
 * frame's substeps: SPH's CFL rule on that fastest particle (pdl_world_cfl_substeps), which
 * every process must take alike; Clavet's are fixed. */
static int size_halo(pdl_mpi_world* s)
{
	float v2max = 0;
	for (int k = 0; k < 2; ++k) {
		const packed_particle* p = k == 0 ? s->owned : s->fresh;
		const int n = k == 0 ? s->owned_count : s->fresh_count;
		for (int i = 0; i < n; ++i) {
			float v2 = p[i].v[0] * p[i].v[0] + p[i].v[1] * p[i].v[1] + (s->three ? p[i].v[2] * p[i].v[2] : 0);
			if (v2 > v2max) v2max = v2;
		}
	}
	float mine[2] = {v2max, s->longest_spring}, most[2] = {0, 0};
	MPI_Allreduce(mine, most, 2, MPI_FLOAT, MPI_MAX, s->comm);
	s->stats.collectives++;
	s->longest_spring_start = most[1];
	const int substeps = s->sph ? pdl_world_cfl_substeps(s->world, most[0]) : s->substeps;
	/* the motion: twice what the fastest particle covers or what the last frame's farthest mover
	 * did (a flow that speeds up, relaxation's pushes), and what gravity adds from rest. Too
	 * little costs the frame again; too much, a few more halo particles while motion is small
	 * beside h, as it is in a flow the step resolves. */
	float moved = sqrtf(most[0]) * s->frame_dt;
	moved = 2.0f * (moved > s->last_moved ? moved : s->last_moved) + s->gravity * s->frame_dt * s->frame_dt;
	if (s->tight_halo) moved = 0; /* PUDDLE_MPI_TIGHT_HALO=1: predict no motion (tests) */
	s->halo = reach(s, substeps, moved, 1.25f * most[1]);
	if (s->body_count > 0) { /* every process has the same bodies: no collective needed */
		const pdl_world_def def = pdl_world_get_def(s->world);
		float speed, gravity;
		body_motion(s, &def, &speed, &gravity);
		float body = speed * s->frame_dt;
		body = 2.0f * (body > s->last_body_move ? body : s->last_body_move) + gravity * s->frame_dt * s->frame_dt;
		if (s->tight_halo) body = 0;
		s->body_margin = s->h + moved + body;
		place_zones(s);
	}
	return substeps;
}

/* The stepped world's particles sorted by id into s->sort_keys ((id << 32) | index). */
static void sort_stepped(pdl_mpi_world* s, const pdl_particle_data* d)
{
	if (!pdl_mpi_grow((void**)&s->sort_keys, &s->sort_keys_capacity, 2 * d->count, sizeof *s->sort_keys))
		MPI_Abort(s->comm, 1);
	for (int i = 0; i < d->count; ++i) s->sort_keys[i] = (uint64_t)d->id[i] << 32 | (uint32_t)i;
	sort_keys_by_id(s->sort_keys, s->sort_keys + d->count, d->count);
}

/* The halo the frame needed (reach) from how far the particles did move, the farthest of all
 * processes' own particles from where they started (s->recv, in id order), and the longest
 * spring at its start or end. Collective (one MPI_Allreduce). */
static float needed_halo(pdl_mpi_world* s, const pdl_particle_data* d, int got, int substeps)
{
	float moved = 0, longest = 0;
	for (int k = 0, at = 0; k < d->count; ++k) {
		const int i = (int)(uint32_t)s->sort_keys[k];
		while (at < got && s->ids[at] < d->id[i]) ++at;
		if (at == got || s->ids[at] != d->id[i] || !s->recv_owned[at]) continue;
		const packed_particle* p = &s->recv[at];
		float dx = d->x[i] - p->x[0], dy = d->y[i] - p->x[1], dz = s->three ? d->z[i] - p->x[2] : 0.0f;
		float r = sqrtf(dx * dx + dy * dy + dz * dz);
		moved = r > moved ? r : moved;
		if (s->springs) {
			float l = longest_spring_of(d, i);
			longest = l > longest ? l : longest;
		}
	}
	float mine[2] = {moved, longest}, most[2] = {0, 0};
	MPI_Allreduce(mine, most, 2, MPI_FLOAT, MPI_MAX, s->comm);
	s->stats.collectives++;
	s->last_moved = most[0];
	s->longest_spring = longest; /* this process's own, for the next frame's prediction */
	return reach(s, substeps, most[0], most[1] > s->longest_spring_start ? most[1] : s->longest_spring_start);
}

/* With ghosts the world holds this process's own particles between frames: the owned ones. */
static bool world_from_owned(pdl_mpi_world* s)
{
	if (!s->ghosts) return true;
	pdl_particle_data in = pdl_mpi_unpack(s, s->owned, s->owned_count);
	float* pressures = NULL; /* DFSPH: the solves' warm start (a snapshot's, or the scene's 0) */
	if (s->dfsph) {
		const int n = s->owned_count;
		pressures = malloc(((size_t)n + 1) * 2 * sizeof *pressures);
		if (!pressures) return false;
		for (int i = 0; i < n; ++i)
			pressures[i] = s->owned_fields[3 * i + 1], pressures[n + i] = s->owned_fields[3 * i + 2];
		in.pressure = pressures, in.divergence_pressure = pressures + n;
	}
	const bool ok = pdl_world_set_particles(s->world, &in, NULL) == PDL_OK;
	free(pressures);
	return ok;
}

/* With ghosts, the particles whose slab is another process's now go there (ownership by place
 * at the frame's start, as with the halo), and the frame's new particles that are not this
 * slab's go; what comes in joins the world. One all-to-all of counts and one of the movers
 * (32 bytes each): only the particles that crossed a cut move, not the slab. DFSPH's movers take
 * their two warm-start pressures along (one more all-to-all, 8 bytes each): the next substep's
 * solves start from them. */
static void migrate(pdl_mpi_world* s)
{
	const int n = s->size;
	const bool pressures = pdl_world_get_def(s->world).solver == PDL_SOLVER_DFSPH;
	pdl_ghost_view view = pdl_world_ghost_view(s->world);
	pdl_particle_data d = pdl_world_particles(s->world);
	const float* c = s->axis == 0 ? d.x : s->axis == 1 ? d.y : d.z;
	if (!pdl_mpi_grow((void**)&s->leave, &s->leave_capacity, d.count, 1)) MPI_Abort(s->comm, 1);
	uint8_t* leave = s->leave;
	int* dest = s->send_counts + 2 * n; /* (scratch until the all-to-all: recv_counts) */
	memset(s->send_counts, 0, (size_t)n * sizeof *s->send_counts);
	for (int i = 0; i < d.count; ++i) {
		const uint32_t fresh = d.id[i] - s->next_id; /* < fresh_count: new this frame */
		int to = owner_of(s, c[i]);
		if (d.id[i] >= s->next_id && fresh < (uint32_t)s->fresh_count) to = s->fresh_owned[fresh] ? s->rank : -1;
		leave[i] = to != s->rank;
		if (to >= 0 && to != s->rank) s->send_counts[to]++;
	}
	int total = 0;
	for (int r = 0; r < n; ++r) s->send_displs[r] = total, total += s->send_counts[r];
	if (!pdl_mpi_grow((void**)&s->send, &s->send_capacity, total, sizeof *s->send)) MPI_Abort(s->comm, 1);
	if (pressures && !pdl_mpi_grow((void**)&s->move_pressures, &s->move_pressures_capacity, total, 2 * sizeof(float)))
		MPI_Abort(s->comm, 1);
	memcpy(dest, s->send_displs, (size_t)n * sizeof *dest);
	for (int i = 0; i < d.count; ++i) {
		if (!leave[i]) continue;
		int to = owner_of(s, c[i]);
		const uint32_t fresh = d.id[i] - s->next_id;
		if (d.id[i] >= s->next_id && fresh < (uint32_t)s->fresh_count) continue; /* every process has it */
		if (pressures) s->move_pressures[2 * dest[to]] = view.pressure[i], s->move_pressures[2 * dest[to] + 1] = view.near_pressure[i];
		packed_particle* p = &s->send[dest[to]++];
		p->x[0] = d.x[i], p->x[1] = d.y[i], p->x[2] = s->three ? d.z[i] : 0;
		p->v[0] = d.vx[i], p->v[1] = d.vy[i], p->v[2] = s->three ? d.vz[i] : 0;
		p->id = d.id[i], p->material = d.material[i];
	}
	const int size = (int)sizeof(packed_particle);
	MPI_Alltoall(s->send_counts, 1, MPI_INT, s->recv_counts, 1, MPI_INT, s->comm);
	int got = 0;
	for (int r = 0; r < n; ++r) s->recv_displs[r] = got, got += s->recv_counts[r];
	if (!pdl_mpi_grow((void**)&s->recv, &s->recv_capacity, got, sizeof *s->recv)) MPI_Abort(s->comm, 1);
	for (int r = 0; r < n; ++r) {
		if (r != s->rank) {
			s->stats.bytes_sent += (long long)s->send_counts[r] * size;
			s->stats.bytes_received += (long long)s->recv_counts[r] * size;
			s->stats.messages_sent += s->send_counts[r] > 0;
			s->stats.messages_received += s->recv_counts[r] > 0;
		}
		s->send_counts[r] *= size, s->send_displs[r] *= size;
		s->recv_counts[r] *= size, s->recv_displs[r] *= size;
	}
	MPI_Alltoallv(s->send, s->send_counts, s->send_displs, MPI_BYTE, s->recv, s->recv_counts, s->recv_displs,
	              MPI_BYTE, s->comm);
	s->stats.collectives += 2;
	float* arrived = NULL; /* DFSPH: the movers' pressures, in the order of s->recv */
	if (pressures) {
		arrived = malloc(((size_t)got + 1) * 2 * sizeof *arrived);
		if (!arrived) MPI_Abort(s->comm, 1);
		for (int r = 0; r < n; ++r) { /* (bytes of 32 a particle to bytes of 8) */
			s->send_counts[r] /= size / 8, s->send_displs[r] /= size / 8;
			s->recv_counts[r] /= size / 8, s->recv_displs[r] /= size / 8;
			if (r == s->rank) continue;
			s->stats.bytes_sent += s->send_counts[r], s->stats.bytes_received += s->recv_counts[r];
		}
		MPI_Alltoallv(s->move_pressures, s->send_counts, s->send_displs, MPI_BYTE, arrived, s->recv_counts,
		              s->recv_displs, MPI_BYTE, s->comm);
		s->stats.collectives++;
	}
	pdl_world_remove_particles(s->world, leave);
	const int before = pdl_world_particle_count(s->world);
	pdl_particle_data in = pdl_mpi_unpack(s, s->recv, got);
	pdl_error e;
	if (pdl_world_add_particles(s->world, &in, &e) != PDL_OK) {
		fprintf(stderr, "puddle mpi: process %d: %s\n", s->rank, e.message);
		MPI_Abort(s->comm, 1);
	}
	if (pressures) { /* (added at the end, in the order of in) */
		view = pdl_world_ghost_view(s->world);
		for (int i = 0; i < got; ++i)
			view.pressure[before + i] = arrived[2 * i], view.near_pressure[before + i] = arrived[2 * i + 1];
		free(arrived);
	}
}

/* A frame with ghosts (s->ghosts; docs/mpi.md, "Ghosts"): the particles that crossed a cut move
 * to their new slab's process (migrate), each process steps its own particles, and the ghost
 * stages (mpi_ghosts.c) bring in the other processes' particles around them at each substep.
 * Every own particle comes out exact: no halo to size, check or step again. */
static bool step_with_ghosts(pdl_mpi_world* s, pdl_error* err)
{
	const double t0 = MPI_Wtime();
	s->stats.frames++;
	s->stats.owned += s->owned_count;
	if (unbalanced(s)) cut_slabs(s), s->stats.recuts++;
	s->fresh_count = 0;
	if (s->frame_fn && !apply_frame_fn(s, err)) return false;
	if (!note_bodies(s)) MPI_Abort(s->comm, 1); /* (the hash takes them in this list's order) */
	const int added = s->fresh_count;
	const double t1 = MPI_Wtime();
	migrate(s);
	const double t2 = MPI_Wtime();
	s->ghosts_this_frame = s->ghost_exchanges_this_frame = 0;
	s->ghost_seconds = 0;
	if (pdl_world_get_def(s->world).solver == PDL_SOLVER_DFSPH) {
		/* DFSPH's CFL substeps from the whole world's fastest particle (its squared speed in
		 * float as src/dfsph.c computes it; a maximum, the same in any order), alike in all */
		pdl_particle_data d = pdl_world_particles(s->world);
		float v2max = 0, most = 0;
		for (int i = 0; i < d.count; ++i) {
			const float v2 = d.vx[i] * d.vx[i] + d.vy[i] * d.vy[i] + (s->three ? d.vz[i] * d.vz[i] : 0);
			if (v2 > v2max) v2max = v2;
		}
		MPI_Allreduce(&v2max, &most, 1, MPI_FLOAT, MPI_MAX, s->comm);
		s->stats.collectives++;
		if (pdl_world_set_next_substeps(s->world, pdl_world_cfl_substeps(s->world, most), NULL) != PDL_OK)
			MPI_Abort(s->comm, 1);
	}
	pdl_world_step(s->world);
	const double t3 = MPI_Wtime();
	/* the mean ghosts a substep, as the halo of this frame */
	s->halo_count = s->ghost_exchanges_this_frame > 0 ? (int)(s->ghosts_this_frame / s->ghost_exchanges_this_frame) : 0;
	s->stats.halo += s->halo_count;
	pdl_world_remove_ghosts(s->world);
	pdl_particle_data d = pdl_world_particles(s->world);
	if (!grow_owned(s, d.count)) MPI_Abort(s->comm, 1);
	for (int i = 0; i < d.count; ++i) own_particle(s, &d, i, i);
	s->owned_count = d.count;
	s->next_id += (uint32_t)added;
	const double t4 = MPI_Wtime();
	s->stats.balance_seconds += t1 - t0;
	s->stats.exchange_seconds += t2 - t1 + s->ghost_seconds;
	s->stats.step_seconds += t3 - t2 - s->ghost_seconds;
	s->stats.keep_seconds += t4 - t3;
	return true;
}

bool pdl_mpi_world_step(pdl_mpi_world* s, pdl_error* err)
{
	if (s->ghosts) return step_with_ghosts(s, err);
	double t0 = MPI_Wtime();
	s->stats.frames++;
	s->stats.owned += s->owned_count;
	if (unbalanced(s)) cut_slabs(s), s->stats.recuts++;
	s->fresh_count = 0;
	if (s->frame_fn && !apply_frame_fn(s, err)) return false;
	if (!note_bodies(s)) MPI_Abort(s->comm, 1);
	const int added = s->fresh_count, substeps = size_halo(s);
	const double t1 = MPI_Wtime();
	double t2, t3, t4, exchanging = 0, building = 0, stepping = 0;
	int got = 0, owned_now = 0;
	pdl_particle_data d;
	for (;;) { /* once; again with a wider halo if the particles moved further than it allowed */
	const double tx = MPI_Wtime();
	bool ok = exchange(s, &got);
	int all_ok = 0, mine_ok = ok;
	MPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	s->stats.collectives++;
	t2 = MPI_Wtime();
	exchanging += t2 - tx;
	if (!all_ok) MPI_Abort(s->comm, 1); /* out of memory somewhere: no process can go on */
	/* the slab and its halo, in id order, and the frame's new particles after them (their ids
	 * are the highest), as this process's world */
	memcpy(s->recv + got, s->fresh, (size_t)added * sizeof *s->fresh);
	for (int i = got; s->springs && i < got + added; ++i) /* new particles have no springs */
		for (int a = 0; a < PDL_MAX_SPRINGS_PER_PARTICLE; ++a) s->recv_springs[i].partner[a] = SPRING_NONE;
	const int received = got;
	got += added;
	ok = pdl_mpi_grow((void**)&s->arrays, &s->arrays_capacity, got, 6 * sizeof *s->arrays);
	if (ok) {
		uint8_t* m = realloc(s->materials, (size_t)s->arrays_capacity);
		uint32_t* ids = m ? realloc(s->ids, (size_t)s->arrays_capacity * sizeof *ids) : NULL;
		bool* owned = ids ? realloc(s->recv_owned, (size_t)s->arrays_capacity * sizeof *owned) : NULL;
		if (m) s->materials = m;
		if (ids) s->ids = ids;
		if (owned) s->recv_owned = owned;
		ok = m && ids && owned;
	}
	if (!ok) MPI_Abort(s->comm, 1);
	const int cap = s->arrays_capacity;
	float* a = s->arrays;
	owned_now = 0;
	for (int i = 0; i < got; ++i) {
		const packed_particle* p = &s->recv[i];
		for (int k = 0; k < 3; ++k) a[k * cap + i] = p->x[k], a[(3 + k) * cap + i] = p->v[k];
		s->materials[i] = (uint8_t)p->material;
		s->ids[i] = p->id;
		s->recv_owned[i] = i < received ? owner_of(s, p->x[s->axis]) == s->rank : s->fresh_owned[i - received];
		owned_now += s->recv_owned[i];
	}
	pdl_particle_data in = {.count = got, .x = a, .y = a + cap, .z = s->three ? a + 2 * cap : NULL,
	                        .vx = a + 3 * cap, .vy = a + 4 * cap, .vz = s->three ? a + 5 * cap : NULL,
	                        .material = s->materials, .id = s->ids, .next_id = s->next_id + (uint32_t)added};
	if (s->springs) { /* partners by index into these arrays; one outside them (past the halo) is dropped */
		const int k = PDL_MAX_SPRINGS_PER_PARTICLE;
		if (!pdl_mpi_grow((void**)&s->spring_partner, &s->spring_arrays_capacity, got, (size_t)k * 8))
			MPI_Abort(s->comm, 1);
		s->spring_rest = (float*)(s->spring_partner + (size_t)s->spring_arrays_capacity * k);
		for (int i = 0; i < got; ++i)
			for (int b = 0; b < k; ++b) {
				const uint32_t id = s->recv_springs[i].partner[b];
				int at = -1;
				if (id != SPRING_NONE) {
					int lo = 0, hi = got - 1;
					while (lo <= hi && at < 0) {
						int mid = (lo + hi) / 2;
						if (s->ids[mid] == id) at = mid;
						else if (s->ids[mid] < id) lo = mid + 1;
						else hi = mid - 1;
					}
				}
				s->spring_partner[(size_t)i * k + b] = at;
				s->spring_rest[(size_t)i * k + b] = at >= 0 ? s->recv_springs[i].rest[b] : 0.0f;
			}
		in.spring_partner = s->spring_partner;
		in.spring_rest = s->spring_rest;
	}
	if (pdl_world_set_particles(s->world, &in, NULL) != PDL_OK) MPI_Abort(s->comm, 1);
	s->halo_count = got - owned_now;
	s->stats.halo += s->halo_count;
	if (s->sph && pdl_world_set_next_substeps(s->world, substeps, NULL) != PDL_OK) MPI_Abort(s->comm, 1);
	t3 = MPI_Wtime();
	building += t3 - t2;
	pdl_world_step(s->world);
	t4 = MPI_Wtime();
	stepping += t4 - t3;
	d = pdl_world_particles(s->world);
	sort_stepped(s, &d);
	const float needed = needed_halo(s, &d, got, substeps);
	/* the bodies' zones: what the fluid (from the same allreduce) and the bodies (the same
	 * everywhere) did move */
	const float body_move = body_moved(s), needed_margin = s->h + s->last_moved + body_move;
	if (needed <= s->halo && (s->body_count == 0 || needed_margin <= s->body_margin)) {
		s->last_body_move = body_move;
		break;
	}
	if (needed > s->halo) s->halo = 1.25f * needed; /* the same in every process */
	if (needed_margin > s->body_margin) s->body_margin = 1.25f * needed_margin;
	for (int k = 0; k < s->body_count; ++k) /* each body back where the frame started */
		if (pdl_world_set_body(s->world, s->body_ids[k], &s->body_start[k], NULL) != PDL_OK) MPI_Abort(s->comm, 1);
	place_zones(s);
	s->stats.widened++;
	}
	/* keep the slab's particles: the stepped world's, sorted by id, walked beside the received
	 * ones (in id order) to find which are this slab's; the owned come out in id order */
	if (!grow_owned(s, owned_now)) MPI_Abort(s->comm, 1);
	int kept = 0;
	for (int k = 0, at = 0; k < d.count && kept < owned_now; ++k) {
		const int i = (int)(uint32_t)s->sort_keys[k];
		while (at < got && s->ids[at] < d.id[i]) ++at;
		if (at == got || s->ids[at] != d.id[i] || !s->recv_owned[at]) continue;
		own_particle(s, &d, i, kept++);
	}
	s->owned_count = kept;
	s->next_id += (uint32_t)added;
	double t5 = MPI_Wtime();
	s->stats.balance_seconds += t1 - t0;
	s->stats.exchange_seconds += exchanging;
	s->stats.build_seconds += building;
	s->stats.step_seconds += stepping;
	s->stats.keep_seconds += t5 - t4;
	return true;
}

pdl_mpi_world_stats pdl_mpi_world_get_stats(const pdl_mpi_world* s) { return s->stats; }

void pdl_mpi_world_reset_stats(pdl_mpi_world* s) { s->stats = (pdl_mpi_world_stats){0}; }

/* The whole world's particles in id order at process 0 (count there; NULL elsewhere). */
static packed_particle* gather(pdl_mpi_world* s, int* count)
{
	int* counts = s->rank == 0 ? malloc((size_t)s->size * 2 * sizeof *counts) : NULL;
	const int size = (int)sizeof(packed_particle), mine = s->owned_count * size;
	MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, s->comm);
	packed_particle* all = NULL;
	int total = 0;
	if (s->rank == 0) {
		int* displs = counts + s->size;
		for (int r = 0; r < s->size; ++r) displs[r] = total, total += counts[r];
		all = malloc((size_t)(total > 0 ? total : 1));
	}
	MPI_Gatherv(s->owned, mine, MPI_BYTE, all, counts, s->rank == 0 ? counts + s->size : NULL, MPI_BYTE, 0, s->comm);
	*count = total / size;
	if (all) qsort(all, (size_t)*count, sizeof *all, pdl_mpi_compare_ids);
	free(counts);
	return all;
}

uint64_t pdl_mpi_world_hash(pdl_mpi_world* s)
{
	int n = 0;
	packed_particle* all = gather(s, &n);
	/* pdl_world_hash_ids's definition, step by step, so that one process's plain run prints the
	 * same hash */
	uint64_t h = PDL_HASH_IDS_SEED;
	for (int i = 0; all && i < n; ++i) h = pdl_hash_ids_particle(h, all[i].x, all[i].v, all[i].id, all[i].material);
	free(all);
	/* then the bodies (only when there are any): every process holds the same, so process 0's */
	for (int k = 0; s->rank == 0 && k < s->body_count; ++k) { /* (note_bodies' list, in slot order) */
		pdl_body_def d;
		if (pdl_world_get_body(s->world, s->body_ids[k], &d)) h = pdl_hash_ids_body(h, &d);
	}
	unsigned long long out = h;
	MPI_Bcast(&out, 1, MPI_UNSIGNED_LONG_LONG, 0, s->comm);
	return out;
}

long long pdl_mpi_world_particle_count(pdl_mpi_world* s)
{
	long long mine = s->owned_count, total = 0;
	MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
	return total;
}

int pdl_mpi_world_local_count(const pdl_mpi_world* s) { return s->owned_count; }

void pdl_mpi_world_slab(const pdl_mpi_world* s, int* axis, float* lo, float* hi)
{
	if (axis) *axis = s->axis;
	if (lo) *lo = s->cuts[s->rank];
	if (hi) *hi = s->cuts[s->rank + 1];
}

float pdl_mpi_world_halo(const pdl_mpi_world* s) { return s->halo; }

bool pdl_mpi_world_uses_ghosts(const pdl_mpi_world* s) { return s->ghosts; }

int pdl_mpi_world_halo_count(const pdl_mpi_world* s) { return s->halo_count; }

bool pdl_mpi_world_reload(pdl_mpi_world* s)
{
	int ok = take_world(s), all = 0;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s->comm);
	if (!all || !cut_slabs(s)) return false;
	keep_slab(s);
	return world_from_owned(s);
}

/* Particles as the arrays of a pdl_particle_data, in s's out_ buffers. */
static bool hand_out(pdl_mpi_world* s, const packed_particle* p, const float* fields, int n, pdl_particle_data* out)
{
	if (!pdl_mpi_grow((void**)&s->out_arrays, &s->out_capacity, n, 9 * sizeof *s->out_arrays)) return false;
	const int cap = s->out_capacity;
	uint8_t* m = realloc(s->out_materials, (size_t)cap);
	if (m) s->out_materials = m;
	uint32_t* ids = m ? realloc(s->out_ids, (size_t)cap * sizeof *ids) : NULL;
	if (ids) s->out_ids = ids;
	if (!m || !ids) return false;
	float* a = s->out_arrays;
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) a[k * cap + i] = p[i].x[k], a[(3 + k) * cap + i] = p[i].v[k];
		a[6 * cap + i] = fields[3 * i], a[7 * cap + i] = fields[3 * i + 1], a[8 * cap + i] = fields[3 * i + 2];
		m[i] = (uint8_t)p[i].material, ids[i] = p[i].id;
	}
	*out = (pdl_particle_data){.count = n, .x = a, .y = a + cap, .z = s->three ? a + 2 * cap : NULL,
	                           .vx = a + 3 * cap, .vy = a + 4 * cap, .vz = s->three ? a + 5 * cap : NULL,
	                           .material = m, .id = ids, .density = a + 6 * cap, .pressure = a + 7 * cap,
	                           .divergence_pressure = s->dfsph ? a + 8 * cap : NULL, .next_id = s->next_id};
	return true;
}

bool pdl_mpi_world_local_particles(pdl_mpi_world* s, pdl_particle_data* out)
{
	return hand_out(s, s->owned, s->owned_fields, s->owned_count, out);
}

/* A particle with its density and pressure, as the id blocks are sent (followed by its
 * packed_springs when the world has springs). */
typedef struct field_particle {
	packed_particle p;
	float density, pressure, divergence_pressure;
} field_particle;

static int compare_field_ids(const void* a, const void* b)
{
	return pdl_mpi_compare_ids(&((const field_particle*)a)->p, &((const field_particle*)b)->p);
}

/* The process whose id block holds id (pdl_mpi_world_id_block). */
static int block_of(uint32_t id, int n, uint64_t next)
{
	uint64_t r = (uint64_t)id * (uint64_t)n / next;
	return r < (uint64_t)n ? (int)r : n - 1;
}

/* The springs of this process's id block (got particles, sorted by id, the first at place
 * `first` of the whole world's id order) with partners by place in that order, into s->out_partner
 * and s->out_rest: each partner id is asked of the process whose block holds it, which answers
 * with its place (one all-to-all of counts, two of ids and places). false when out of memory
 * (on this process; the caller agrees). Collective. */
static bool place_partners(pdl_mpi_world* s, const packed_springs* sp, const uint32_t* ids, int got, long long first,
                           uint64_t next)
{
	const int n = s->size, k = PDL_MAX_SPRINGS_PER_PARTICLE;
	int *counts = calloc((size_t)n * 4, sizeof *counts), *displs = counts ? counts + n : NULL;
	int *back_counts = counts ? counts + 2 * n : NULL, *back_displs = counts ? counts + 3 * n : NULL;
	int asks = 0;
	for (int i = 0; counts && i < got; ++i)
		for (int a = 0; a < k; ++a)
			if (sp[i].partner[a] != SPRING_NONE) counts[block_of(sp[i].partner[a], n, next)]++, asks++;
	uint32_t* ask = malloc((size_t)(asks + 1) * sizeof *ask);
	int32_t* answer = malloc((size_t)(asks + 1) * sizeof *answer);
	int ok = counts && ask && answer && pdl_mpi_grow((void**)&s->out_partner, &s->out_springs_capacity, got, (size_t)k * 8);
	int all_ok = 0;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	if (!all_ok) {
		free(counts), free(ask), free(answer);
		return false;
	}
	s->out_rest = (float*)(s->out_partner + (size_t)s->out_springs_capacity * k);
	for (int r = 0, at = 0; r < n; ++r) displs[r] = at, at += counts[r];
	int* next_slot = back_displs; /* (scratch until the all-to-all below fills it) */
	memcpy(next_slot, displs, (size_t)n * sizeof *next_slot);
	for (int i = 0; i < got; ++i)
		for (int a = 0; a < k; ++a)
			if (sp[i].partner[a] != SPRING_NONE) ask[next_slot[block_of(sp[i].partner[a], n, next)]++] = sp[i].partner[a];
	MPI_Alltoall(counts, 1, MPI_INT, back_counts, 1, MPI_INT, s->comm);
	int asked = 0;
	for (int r = 0; r < n; ++r) back_displs[r] = asked, asked += back_counts[r];
	uint32_t* theirs = malloc((size_t)(asked + 1) * sizeof *theirs);
	int32_t* places = malloc((size_t)(asked + 1) * sizeof *places);
	ok = theirs && places;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	if (all_ok) {
		MPI_Alltoallv(ask, counts, displs, MPI_UINT32_T, theirs, back_counts, back_displs, MPI_UINT32_T, s->comm);
		for (int q = 0; q < asked; ++q) { /* its place in this block (sorted by id), or -1 */
			int lo = 0, hi = got - 1;
			places[q] = -1;
			while (lo <= hi) {
				int mid = (lo + hi) / 2;
				if (ids[mid] == theirs[q]) {
					places[q] = (int32_t)(first + mid);
					break;
				}
				if (ids[mid] < theirs[q]) lo = mid + 1;
				else hi = mid - 1;
			}
		}
		MPI_Alltoallv(places, back_counts, back_displs, MPI_INT32_T, answer, counts, displs, MPI_INT32_T, s->comm);
		s->stats.collectives += 3;
		memcpy(next_slot, displs, (size_t)n * sizeof *next_slot);
		for (int i = 0; i < got; ++i)
			for (int a = 0; a < k; ++a) {
				const uint32_t id = sp[i].partner[a];
				s->out_partner[(size_t)i * k + a] = id == SPRING_NONE ? -1 : answer[next_slot[block_of(id, n, next)]++];
				s->out_rest[(size_t)i * k + a] = id == SPRING_NONE ? 0.0f : sp[i].rest[a];
			}
	}
	free(counts), free(ask), free(answer), free(theirs), free(places);
	return all_ok != 0;
}

bool pdl_mpi_world_id_block(pdl_mpi_world* s, pdl_particle_data* out, long long* first, long long* total)
{
	const int n = s->size;
	/* process r gets the ids in [next_id r / n, next_id (r + 1) / n) */
	int* counts = s->send_counts; /* (the exchange's scratch arrays, free between steps) */
	memset(counts, 0, (size_t)n * sizeof *counts);
	const uint64_t next = s->next_id > 0 ? s->next_id : 1;
	const size_t stride = sizeof(field_particle) + (s->springs ? sizeof(packed_springs) : 0);
	int* dest = malloc((size_t)(s->owned_count + 1) * sizeof *dest);
	uint8_t* send = malloc((size_t)(s->owned_count + 1) * stride);
	int ok = dest && send;
	for (int i = 0; ok && i < s->owned_count; ++i) {
		dest[i] = block_of(s->owned[i].id, n, next);
		counts[dest[i]]++;
	}
	int all_ok = 0;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	if (!all_ok) {
		free(dest), free(send);
		return false;
	}
	int at = 0;
	for (int r = 0; r < n; ++r) s->send_displs[r] = at, at += counts[r];
	memcpy(s->recv_counts, s->send_displs, (size_t)n * sizeof *s->recv_counts); /* scratch: next slot per process */
	for (int i = 0; i < s->owned_count; ++i) {
		uint8_t* e = send + (size_t)s->recv_counts[dest[i]]++ * stride;
		const field_particle f = {s->owned[i], s->owned_fields[3 * i], s->owned_fields[3 * i + 1], s->owned_fields[3 * i + 2]};
		memcpy(e, &f, sizeof f);
		if (s->springs) memcpy(e + sizeof f, &s->owned_springs[i], sizeof(packed_springs));
	}
	free(dest);
	MPI_Alltoall(counts, 1, MPI_INT, s->recv_counts, 1, MPI_INT, s->comm);
	int got = 0;
	for (int r = 0; r < n; ++r) s->recv_displs[r] = got, got += s->recv_counts[r];
	uint8_t* recv = malloc((size_t)(got + 1) * stride);
	float* fields = malloc((size_t)(got + 1) * 3 * sizeof *fields);
	packed_particle* plain = malloc((size_t)(got + 1) * sizeof *plain);
	packed_springs* springs = s->springs ? malloc((size_t)(got + 1) * sizeof *springs) : NULL;
	ok = recv && fields && plain && (!s->springs || springs);
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	if (all_ok) {
		const int size = (int)stride;
		for (int r = 0; r < n; ++r) {
			counts[r] *= size, s->send_displs[r] *= size;
			s->recv_counts[r] *= size, s->recv_displs[r] *= size;
		}
		MPI_Alltoallv(send, counts, s->send_displs, MPI_BYTE, recv, s->recv_counts, s->recv_displs, MPI_BYTE, s->comm);
		qsort(recv, (size_t)got, stride, compare_field_ids); /* (each element starts with its field_particle) */
		for (int i = 0; i < got; ++i) {
			field_particle f;
			memcpy(&f, recv + (size_t)i * stride, sizeof f);
			plain[i] = f.p, fields[3 * i] = f.density, fields[3 * i + 1] = f.pressure, fields[3 * i + 2] = f.divergence_pressure;
			if (springs) memcpy(&springs[i], recv + (size_t)i * stride + sizeof f, sizeof *springs);
		}
		long long mine = got, before = 0, sum = 0;
		MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
		MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
		if (s->rank == 0) before = 0; /* MPI_Exscan leaves process 0's undefined */
		if (first) *first = before;
		if (total) *total = sum;
		ok = hand_out(s, plain, fields, got, out);
		MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
		if (all_ok && springs && place_partners(s, springs, out->id, got, before, next)) {
			out->spring_partner = s->out_partner;
			out->spring_rest = s->out_rest;
		} else if (springs) {
			all_ok = 0;
		}
	}
	free(send), free(recv), free(fields), free(plain), free(springs);
	return all_ok != 0;
}

bool pdl_mpi_agree(MPI_Comm comm, bool ok, pdl_error* err)
{
	int rank = 0, size = 1;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	int mine = ok ? size : rank, first = size;
	MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
	if (first == size) return true;
	if (err) {
		if (rank == first && first > 0) { /* "process R: " before R's reason, cut to fit */
			char said[32];
			err->message[sizeof err->message - 1] = 0;
			size_t p = (size_t)snprintf(said, sizeof said, "process %d: ", rank), n = strlen(err->message);
			if (n > sizeof err->message - 1 - p) n = sizeof err->message - 1 - p;
			memmove(err->message + p, err->message, n);
			memcpy(err->message, said, p);
			err->message[p + n] = 0;
		}
		/* the whole struct (id, value, file, path, ...) as bytes: the same on every process */
		MPI_Bcast(err, (int)sizeof *err, MPI_BYTE, first, comm);
	}
	return false;
}
