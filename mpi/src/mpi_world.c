/* One world split over the processes of an MPI communicator (puddle/mpi.h, docs/mpi.md).
 *
 * Decomposition: slabs along the axis on which the particles spread widest, one per process,
 * cut at quantiles of the particles' coordinate on it, so each process owns about as many; cut
 * again when the busiest holds 10% more than the mean.
 *
 * Exchange: once a frame. Every process sends each particle it owns to every process whose slab
 * grown by the halo width holds it (MPI_Alltoallv), so each gets its slab plus a halo. It stores
 * them in id order in its own world (pdl_world_set_particles), steps it (pdl_world_step), and
 * keeps the particles of its slab. A particle's new state depends on its neighbours within h at
 * every neighbour pass of the step, theirs on theirs, so the halo's outer particles come out
 * wrong (they lack neighbours) and the error moves in by up to h a pass; a halo wider than that
 * reach leaves the slab's particles exact. Measured (tests/exp_partition.c on the
 * wip/storage-order branch): 2D Clavet exact from a 3 h halo, 3D from 4 h; this layer takes
 * (4 passes x substeps + 2) h. The sums over neighbours then run in the same order as in one
 * process: the grid sorts by cell, stably from the storage order, which is id order in every
 * process; its axes and its dense layout are fixed for all, and relaxation gathers each
 * particle's neighbours from its own side (pdl_world_set_grid_frame): the passes that visit each
 * pair once add to a particle in an order that depends on where their slabs split the world,
 * which depends on its particle count (mpirun -np 3 differed from 1 and 2 at frame 5 with them).
 * Moving particles change owner by themselves: ownership is by position at each frame's start.
 *
 * A frame costs one all-to-all of counts and one of particles (32 bytes each); what moves is
 * the halos, about 2 x halo width x the slab's cross-section of particles per process. */
#include "puddle/mpi.h"
#include "puddle/partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One particle on the wire (and in the layer's own arrays). */
typedef struct packed_particle {
	float x[3], v[3];
	uint32_t id;
	uint32_t material;
} packed_particle;

struct pdl_mpi_world {
	MPI_Comm comm;
	int rank, size;
	pdl_world* world;
	bool three;
	int axis;         /* the split axis: 0 x, 1 y, 2 z */
	float* cuts;      /* size + 1: process r owns [cuts[r], cuts[r + 1]); the ends are infinite */
	float halo;       /* world units */
	uint32_t next_id; /* the whole world's next particle id */
	packed_particle *owned, *send, *recv;
	int owned_count, owned_capacity, send_capacity, recv_capacity;
	int *send_counts, *send_displs, *recv_counts, *recv_displs;
	bool* recv_owned; /* per received particle (id order): in this process's slab */
	/* pdl_world_set_particles' arrays */
	float* arrays;
	uint8_t* materials;
	uint32_t* ids;
	int arrays_capacity;
	int halo_count;
};

static bool grow(void** p, int* capacity, int need, size_t size)
{
	if (need <= *capacity) return true;
	int cap = *capacity ? *capacity : 1024;
	while (cap < need) cap *= 2;
	void* grown = realloc(*p, (size_t)cap * size);
	if (!grown) return false;
	*p = grown;
	*capacity = cap;
	return true;
}

static int compare_floats(const void* a, const void* b)
{
	float x = *(const float*)a, y = *(const float*)b;
	return (x > y) - (x < y);
}

static int compare_ids(const void* a, const void* b)
{
	uint32_t x = ((const packed_particle*)a)->id, y = ((const packed_particle*)b)->id;
	return (x > y) - (x < y);
}

/* The process that owns coordinate c: cuts are sorted, and a NaN goes to the last process. */
static int owner_of(const pdl_mpi_world* s, float c)
{
	int r = 0;
	while (r + 1 < s->size && !(c < s->cuts[r + 1])) ++r;
	return r;
}

/* Cuts at the quantiles of the whole world's coordinates on the split axis (gathered from every
 * process, sorted the same way in each, so every process computes the same cuts). */
static bool cut_slabs(pdl_mpi_world* s)
{
	int* counts = malloc((size_t)s->size * sizeof *counts);
	int* displs = malloc((size_t)s->size * sizeof *displs);
	float* mine = malloc((size_t)(s->owned_count > 0 ? s->owned_count : 1) * sizeof *mine);
	bool ok = counts && displs && mine;
	int n = 0;
	if (ok) {
		for (int i = 0; i < s->owned_count; ++i) mine[i] = s->owned[i].x[s->axis];
		MPI_Allgather(&s->owned_count, 1, MPI_INT, counts, 1, MPI_INT, s->comm);
		for (int r = 0; r < s->size; ++r) displs[r] = n, n += counts[r];
	}
	float* all = ok ? malloc((size_t)(n > 0 ? n : 1) * sizeof *all) : NULL;
	ok = ok && all;
	if (ok) {
		MPI_Allgatherv(mine, s->owned_count, MPI_FLOAT, all, counts, displs, MPI_FLOAT, s->comm);
		qsort(all, (size_t)n, sizeof *all, compare_floats);
		s->cuts[0] = -INFINITY;
		s->cuts[s->size] = INFINITY;
		for (int r = 1; r < s->size; ++r) s->cuts[r] = n > 0 ? all[(long long)n * r / s->size] : 0.0f;
	}
	free(counts), free(displs), free(mine), free(all);
	return ok;
}

/* Whether the busiest process holds 10% more particles than the mean (the same answer in all). */
static bool unbalanced(pdl_mpi_world* s)
{
	long long mine = s->owned_count, total = 0, most = 0;
	MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
	MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, s->comm);
	return s->size > 1 && (double)most > 1.1 * (double)total / s->size;
}

static pdl_mpi_world* refuse(pdl_error* err, pdl_error_id id, const char* what)
{
	if (err) {
		err->id = id;
		err->value = NAN;
		snprintf(err->message, sizeof err->message, "puddle over MPI cannot split %s yet", what);
	}
	return NULL;
}

pdl_mpi_world* pdl_mpi_world_create(pdl_world* world, MPI_Comm comm, pdl_error* err)
{
	if (!world) return refuse(err, PDL_ERR_NULL_ARGUMENT, "a NULL world");
	const pdl_world_def def = pdl_world_get_def(world);
	if (def.solver == PDL_SOLVER_SPH)
		return refuse(err, PDL_ERR_WORLD_SOLVER, "an SPH world (its CFL substeps need the whole world's fastest particle)");
	for (int m = 0; m < pdl_world_material_count(world); ++m)
		if (pdl_world_get_material(world, m).spring_stiffness > 0)
			return refuse(err, PDL_ERR_WORLD_SOLVER, "a world with springs (they join particles across the cuts)");
	if (pdl_world_body_count(world) > 0) return refuse(err, PDL_ERR_WORLD_SOLVER, "a world with bodies");
	pdl_mpi_world* s = calloc(1, sizeof *s);
	if (!s) return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	s->comm = comm;
	MPI_Comm_rank(comm, &s->rank);
	MPI_Comm_size(comm, &s->size);
	s->world = world;
	s->three = def.dimensions == 3;
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
	s->next_id = d.next_id;
	float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	if (!grow((void**)&s->owned, &s->owned_capacity, d.count, sizeof *s->owned)) {
		pdl_mpi_world_destroy(s);
		return refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	for (int i = 0; i < d.count; ++i) {
		packed_particle* p = &s->owned[i];
		p->x[0] = d.x[i], p->x[1] = d.y[i], p->x[2] = s->three ? d.z[i] : 0;
		p->v[0] = d.vx[i], p->v[1] = d.vy[i], p->v[2] = s->three ? d.vz[i] : 0;
		p->id = d.id[i], p->material = d.material[i];
		for (int k = 0; k < 3; ++k) lo[k] = p->x[k] < lo[k] ? p->x[k] : lo[k], hi[k] = p->x[k] > hi[k] ? p->x[k] : hi[k];
	}
	/* the split axis: the widest; 3D grid axes as the grid would choose them for the whole
	 * world (most cells slowest, next fastest), fixed for every process */
	const float h = def.interaction_radius;
	s->axis = 0;
	for (int k = 1; k < (s->three ? 3 : 2); ++k)
		if (hi[k] - lo[k] > hi[s->axis] - lo[s->axis]) s->axis = k;
	pdl_grid_frame frame = pdl_default_grid_frame();
	if (s->three) {
		int slow = 2;
		for (int a = 1; a >= 0; --a) slow = hi[a] - lo[a] > hi[slow] - lo[slow] ? a : slow;
		int fast = slow == 0 ? 1 : 0, mid = 3 - slow - fast;
		if (hi[mid] - lo[mid] > hi[fast] - lo[fast]) fast = mid, mid = 3 - slow - fast;
		frame.axes[0] = fast, frame.axes[1] = mid, frame.axes[2] = slow;
	}
	/* dense for the whole world and every slab alike: 64 cells a particle, at most 2^24 */
	long long cells = 64LL * (d.count > 0 ? d.count : 1);
	frame.dense_cells = (uint32_t)(cells < (1LL << 24) ? cells : (1LL << 24));
	frame.gather_passes = true; /* the pair passes' slabs depend on the particle count */
	pdl_error_id frame_ok = pdl_world_set_grid_frame(world, &frame, err);
	/* the halo: a neighbour pass reaches h, and a Clavet substep has four (viscosity and
	 * densities, relaxation, the walls' neighbour-free pass, the velocity) plus two h of motion */
	s->halo = (4.0f * (float)def.substeps + 2.0f) * h;
	s->owned_count = d.count;
	if (frame_ok != PDL_OK || !cut_slabs(s)) {
		pdl_mpi_world_destroy(s);
		return frame_ok != PDL_OK ? NULL : refuse(err, PDL_ERR_OUT_OF_MEMORY, "(out of memory)");
	}
	/* keep this process's slab */
	int kept = 0;
	for (int i = 0; i < s->owned_count; ++i)
		if (owner_of(s, s->owned[i].x[s->axis]) == s->rank) s->owned[kept++] = s->owned[i];
	s->owned_count = kept;
	if (err) *err = (pdl_error){.id = PDL_OK, .value = NAN};
	return s;
}

void pdl_mpi_world_destroy(pdl_mpi_world* s)
{
	if (!s) return;
	free(s->cuts), free(s->send_counts);
	free(s->owned), free(s->send), free(s->recv), free(s->recv_owned);
	free(s->arrays), free(s->materials), free(s->ids);
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
		for (int r = 0; r < n; ++r) s->send_counts[r] += c >= s->cuts[r] - s->halo && c < s->cuts[r + 1] + s->halo;
	}
	int total = 0;
	for (int r = 0; r < n; ++r) s->send_displs[r] = total, total += s->send_counts[r];
	if (!grow((void**)&s->send, &s->send_capacity, total, sizeof *s->send)) return false;
	int* at = s->recv_counts; /* (scratch: filled by the all-to-all below) */
	memcpy(at, s->send_displs, (size_t)n * sizeof *at);
	for (int i = 0; i < s->owned_count; ++i) {
		float c = s->owned[i].x[s->axis];
		for (int r = 0; r < n; ++r)
			if (c >= s->cuts[r] - s->halo && c < s->cuts[r + 1] + s->halo) s->send[at[r]++] = s->owned[i];
	}
	/* counts and offsets in bytes for MPI_BYTE */
	const int size = (int)sizeof(packed_particle);
	MPI_Alltoall(s->send_counts, 1, MPI_INT, s->recv_counts, 1, MPI_INT, s->comm);
	int got = 0;
	for (int r = 0; r < n; ++r) s->recv_displs[r] = got, got += s->recv_counts[r];
	if (!grow((void**)&s->recv, &s->recv_capacity, got, sizeof *s->recv)) return false;
	for (int r = 0; r < n; ++r) {
		s->send_counts[r] *= size, s->send_displs[r] *= size;
		s->recv_counts[r] *= size, s->recv_displs[r] *= size;
	}
	MPI_Alltoallv(s->send, s->send_counts, s->send_displs, MPI_BYTE, s->recv, s->recv_counts, s->recv_displs,
	              MPI_BYTE, s->comm);
	qsort(s->recv, (size_t)got, sizeof *s->recv, compare_ids);
	*received = got;
	return true;
}

void pdl_mpi_world_step(pdl_mpi_world* s)
{
	if (unbalanced(s)) cut_slabs(s);
	int got = 0;
	bool ok = exchange(s, &got);
	int all_ok = 0, mine_ok = ok;
	MPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, s->comm);
	if (!all_ok) MPI_Abort(s->comm, 1); /* out of memory somewhere: no process can go on */
	/* the slab and its halo, in id order, as this process's world */
	ok = grow((void**)&s->arrays, &s->arrays_capacity, got, 6 * sizeof *s->arrays);
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
	int owned_now = 0;
	for (int i = 0; i < got; ++i) {
		const packed_particle* p = &s->recv[i];
		for (int k = 0; k < 3; ++k) a[k * cap + i] = p->x[k], a[(3 + k) * cap + i] = p->v[k];
		s->materials[i] = (uint8_t)p->material;
		s->ids[i] = p->id;
		s->recv_owned[i] = owner_of(s, p->x[s->axis]) == s->rank;
		owned_now += s->recv_owned[i];
	}
	pdl_particle_data in = {.count = got, .x = a, .y = a + cap, .z = s->three ? a + 2 * cap : NULL,
	                        .vx = a + 3 * cap, .vy = a + 4 * cap, .vz = s->three ? a + 5 * cap : NULL,
	                        .material = s->materials, .id = s->ids, .next_id = s->next_id};
	if (pdl_world_set_particles(s->world, &in, NULL) != PDL_OK) MPI_Abort(s->comm, 1);
	s->halo_count = got - owned_now;
	pdl_world_step(s->world);
	/* keep the slab's particles (found by id among the received, which are in id order) */
	pdl_particle_data d = pdl_world_particles(s->world);
	if (!grow((void**)&s->owned, &s->owned_capacity, owned_now, sizeof *s->owned)) MPI_Abort(s->comm, 1);
	int kept = 0;
	for (int i = 0; i < d.count; ++i) {
		int lo = 0, hi = got - 1, at = -1;
		while (lo <= hi) {
			int mid = (lo + hi) / 2;
			if (s->ids[mid] == d.id[i]) {
				at = mid;
				break;
			}
			if (s->ids[mid] < d.id[i]) lo = mid + 1;
			else hi = mid - 1;
		}
		if (at < 0 || !s->recv_owned[at]) continue;
		packed_particle* p = &s->owned[kept++];
		p->x[0] = d.x[i], p->x[1] = d.y[i], p->x[2] = s->three ? d.z[i] : 0;
		p->v[0] = d.vx[i], p->v[1] = d.vy[i], p->v[2] = s->three ? d.vz[i] : 0;
		p->id = d.id[i], p->material = d.material[i];
	}
	s->owned_count = kept;
}

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
	if (all) qsort(all, (size_t)*count, sizeof *all, compare_ids);
	free(counts);
	return all;
}

uint64_t pdl_mpi_world_hash(pdl_mpi_world* s)
{
	int n = 0;
	packed_particle* all = gather(s, &n);
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; all && i < n; ++i) {
		const packed_particle* p = &all[i];
		float v[6] = {p->x[0], p->x[1], p->x[2], p->v[0], p->v[1], p->v[2]};
		uint32_t tags[2] = {p->id, p->material};
		const unsigned char* b = (const unsigned char*)v;
		for (size_t c = 0; c < sizeof v; ++c) h = (h ^ b[c]) * 1099511628211ull;
		b = (const unsigned char*)tags;
		for (size_t c = 0; c < sizeof tags; ++c) h = (h ^ b[c]) * 1099511628211ull;
	}
	free(all);
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

int pdl_mpi_world_halo_count(const pdl_mpi_world* s) { return s->halo_count; }
