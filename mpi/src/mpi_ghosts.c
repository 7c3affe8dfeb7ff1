/* Ghosts over MPI (docs/mpi.md, "Ghosts"): the two ghost stages of each Clavet substep, and the
 * DFSPH step's (positions, then fields and the solves' errors many times a substep), of
 * include/puddle/partition.h as collectives. A process keeps only its own particles; at each
 * stage every process publishes the cells its own particles span on the split axis
 * (MPI_Allgather of two ints), then sends each other process its own particles whose cell lies
 * within the cell reach of that span (positions: 32-byte records; pressures: 12 bytes), by
 * MPI_Alltoall of counts and MPI_Alltoallv; DFSPH's fields go the same way (id and the listed
 * floats), to the same ghosts, and its errors at the head of each process's block to every
 * other in the same MPI_Alltoallv. The core test (core.determinism,
 * test_ghosts_keep_parts_exact) is the same exchange between two threads. */
#include "mpi_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pdl_mpi_ghosts_suit(const pdl_world* world)
{
	const char* halo = getenv("PUDDLE_MPI_HALO");
	if (halo && strcmp(halo, "1") == 0) return false;
	const pdl_solver_kind solver = pdl_world_get_def(world).solver;
	if (solver == PDL_SOLVER_DFSPH) return true; /* (its step makes no springs; bodies: zones, below) */
	if (solver == PDL_SOLVER_SPH || pdl_world_body_count(world) > 0) return false;
	for (int m = 0; m < pdl_world_material_count(world); ++m)
		if (pdl_world_get_material(world, m).spring_stiffness > 0) return false;
	return true;
}

static const float* split_coordinates(const pdl_mpi_world* s, const pdl_particle_data* d)
{
	return s->axis == 0 ? d->x : s->axis == 1 ? d->y : d->z;
}

/* Process r's ghost cells on the split axis: its own particles' cells grown by the reach, as
 * [first, last], and for a cheap first test a coordinate range [lo, hi] one cell wider on each
 * side, which holds every finite coordinate the grid puts in those cells (cell k holds the
 * coordinates c with floor(c / size) = k up to the rounding of c / size, far less than a cell).
 * Empty (first > last) for a process without particles. */
typedef struct ghost_band {
	int first, last;
	double lo, hi;
} ghost_band;

static ghost_band band_of(const pdl_mpi_world* s, const pdl_world* w, int r)
{
	const int reach = pdl_world_cell_reach(w), lo = s->extents[2 * r], hi = s->extents[2 * r + 1];
	const double cell = (double)pdl_world_get_def(w).interaction_radius / reach;
	if (lo > hi) return (ghost_band){1, 0, 1, 0};
	ghost_band b = {lo - reach, hi + reach, 0, 0};
	b.lo = ((double)b.first - 1) * cell, b.hi = ((double)b.last + 2) * cell;
	return b;
}

/* Whether a particle at coordinate c (split axis) is in the band: the grid's own cell test
 * (pdl_world_cell_of) for the few near it, and for a coordinate that is not finite (the grid
 * clamps its cell). */
static inline bool in_band(const pdl_world* w, const ghost_band* b, float c)
{
	if (!(c >= b->lo && c <= b->hi) && isfinite(c)) return false;
	const int cell = pdl_world_cell_of(w, c);
	return cell >= b->first && cell <= b->last;
}

/* DFSPH's bodies (every process holds and steps every body, as with the halo: docs/mpi.md,
 * "Bodies"): a body's sums over the fluid near it must see the same particles with the same
 * values in every process, so every particle whose coordinate on the split axis lies in a
 * body's zone goes to every process as a ghost (its values then refreshed as every ghost's).
 * The zone, from the body's place at the substep's start: its bounding radius, 3 h, and twice
 * what the fastest particle (the whole world's, one MPI_Allreduce) and the body's surface
 * (its speed and spin) cover in a frame, plus g dt^2. The same zones in every process. */
static void place_zones(pdl_mpi_world* s, pdl_world* w, const pdl_particle_data* d)
{
	s->ghost_zone_count = 0;
	const int bodies = pdl_world_bodies(w, NULL, 0);
	if (bodies <= 0) return;
	float v2 = 0, most = 0;
	for (int i = 0; i < d->count; ++i) {
		const float e = d->vx[i] * d->vx[i] + d->vy[i] * d->vy[i] + (s->three ? d->vz[i] * d->vz[i] : 0);
		v2 = e > v2 ? e : v2;
	}
	MPI_Allreduce(&v2, &most, 1, MPI_FLOAT, MPI_MAX, s->comm);
	s->stats.collectives++;
	if (!pdl_mpi_grow((void**)&s->ghost_zones, &s->ghost_zones_capacity, bodies, 2 * sizeof(float)) ||
	    !pdl_mpi_grow((void**)&s->ghost_zone_ids, &s->ghost_zone_ids_capacity, bodies, sizeof(pdl_body_id)))
		MPI_Abort(s->comm, 1);
	const int n = pdl_world_bodies(w, s->ghost_zone_ids, bodies);
	const float dt = s->frame_dt, fluid = sqrtf(most);
	for (int k = 0; k < n; ++k) {
		pdl_body_def b;
		if (!pdl_world_get_body(w, s->ghost_zone_ids[k], &b)) continue;
		const float r = pdl_world_body_mass(w, s->ghost_zone_ids[k]).bound_radius;
		const pdl_vec3 v = b.linear_velocity, om = b.angular_velocity;
		const float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z) + r * sqrtf(om.x * om.x + om.y * om.y + om.z * om.z);
		const float reach = r + 3.0f * s->h + 2.0f * (fluid + speed) * dt + s->gravity * dt * dt;
		const float c = s->axis == 0 ? b.position.x : s->axis == 1 ? b.position.y : b.position.z;
		s->ghost_zones[2 * s->ghost_zone_count] = c - reach;
		s->ghost_zones[2 * s->ghost_zone_count + 1] = c + reach;
		s->ghost_zone_count++;
	}
}

/* Whether own particle at c (split axis) goes to process r as a ghost: in r's band, or in a
 * body's zone. */
static inline bool goes_to(const pdl_mpi_world* s, const pdl_world* w, const ghost_band* band, int r, float c)
{
	if (r == s->rank) return false;
	if (in_band(w, &band[r], c)) return true;
	for (int k = 0; k < s->ghost_zone_count; ++k)
		if (c >= s->ghost_zones[2 * k] && c <= s->ghost_zones[2 * k + 1]) return true;
	return false;
}

/* The cells [lo, hi] that a process's particles span on the split axis, from the least and
 * greatest coordinate (the cell is monotonic in the coordinate); lo > hi for none. A NaN
 * coordinate (which the grid puts in its lowest cell) is taken cell by cell. */
static void span_of(const pdl_world* w, const float* c, int n, int* span)
{
	float least = INFINITY, most = -INFINITY;
	bool odd = false;
	for (int i = 0; i < n; ++i) {
		least = c[i] < least ? c[i] : least;
		most = c[i] > most ? c[i] : most;
		odd |= c[i] != c[i];
	}
	span[0] = INT_MAX, span[1] = INT_MIN;
	if (n == 0) return;
	if (!odd) {
		span[0] = pdl_world_cell_of(w, least), span[1] = pdl_world_cell_of(w, most);
		return;
	}
	for (int i = 0; i < n; ++i) {
		int cell = pdl_world_cell_of(w, c[i]);
		span[0] = cell < span[0] ? cell : span[0];
		span[1] = cell > span[1] ? cell : span[1];
	}
}

/* The counts' offsets, and the byte counts MPI_BYTE wants, from counts in records. */
static void to_bytes(int n, const int* counts, int* bytes, int* displs, size_t size)
{
	int at = 0;
	for (int r = 0; r < n; ++r) {
		bytes[r] = (int)((size_t)counts[r] * size);
		displs[r] = at;
		at += bytes[r];
	}
}

static void positions(pdl_mpi_world* s, pdl_world* w)
{
	const int n = s->size;
	s->field_lists = false; /* (the grid sorts the particles anew after this stage) */
	pdl_world_remove_ghosts(w);
	pdl_particle_data d = pdl_world_particles(w);
	const float* c = split_coordinates(s, &d);
	place_zones(s, w, &d);
	int span[2];
	span_of(w, c, d.count, span);
	MPI_Allgather(span, 2, MPI_INT, s->extents, 2, MPI_INT, s->comm);
	ghost_band band[n];
	for (int r = 0; r < n; ++r) band[r] = band_of(s, w, r);
	int *sent = s->ghost_counts, *sent_at = sent + n, *got = sent + 2 * n, *got_at = sent + 3 * n;
	memset(sent, 0, (size_t)n * sizeof *sent);
	for (int i = 0; i < d.count; ++i)
		for (int r = 0; r < n; ++r) sent[r] += goes_to(s, w, band, r, c[i]);
	int total = 0;
	for (int r = 0; r < n; ++r) sent_at[r] = total, total += sent[r];
	if (!pdl_mpi_grow((void**)&s->ghost_send, &s->ghost_send_capacity, total, sizeof *s->ghost_send))
		MPI_Abort(s->comm, 1);
	int* next = got; /* (scratch until the all-to-all fills it) */
	memcpy(next, sent_at, (size_t)n * sizeof *next);
	for (int i = 0; i < d.count; ++i) {
		for (int r = 0; r < n; ++r)
			if (goes_to(s, w, band, r, c[i])) {
				packed_particle* p = &s->ghost_send[next[r]++];
				p->x[0] = d.x[i], p->x[1] = d.y[i], p->x[2] = s->three ? d.z[i] : 0;
				p->v[0] = d.vx[i], p->v[1] = d.vy[i], p->v[2] = s->three ? d.vz[i] : 0;
				p->id = d.id[i], p->material = d.material[i];
			}
	}
	MPI_Alltoall(sent, 1, MPI_INT, got, 1, MPI_INT, s->comm);
	int received = 0;
	for (int r = 0; r < n; ++r) got_at[r] = received, received += got[r];
	if (!pdl_mpi_grow((void**)&s->ghost_recv, &s->ghost_recv_capacity, received, sizeof *s->ghost_recv))
		MPI_Abort(s->comm, 1);
	int bytes[4][n];
	to_bytes(n, sent, bytes[0], bytes[1], sizeof(packed_particle));
	to_bytes(n, got, bytes[2], bytes[3], sizeof(packed_particle));
	MPI_Alltoallv(s->ghost_send, bytes[0], bytes[1], MPI_BYTE, s->ghost_recv, bytes[2], bytes[3], MPI_BYTE, s->comm);
	s->stats.collectives += 3;
	for (int r = 0; r < n; ++r) {
		if (r == s->rank) continue;
		s->stats.bytes_sent += bytes[0][r], s->stats.bytes_received += bytes[2][r];
		s->stats.messages_sent += sent[r] > 0, s->stats.messages_received += got[r] > 0;
	}
	s->ghosts_this_frame += received;
	s->ghost_exchanges_this_frame++;
	if (received == 0) return;
	/* each sender's ghosts, tagged with its rank */
	const pdl_particle_data all = pdl_mpi_unpack(s, s->ghost_recv, received);
	for (int r = 0; r < n; ++r) {
		if (got[r] == 0) continue;
		const int at = got_at[r];
		pdl_particle_data g = {.count = got[r], .x = all.x + at, .y = all.y + at, .z = all.z ? all.z + at : NULL,
		                       .vx = all.vx + at, .vy = all.vy + at, .vz = all.vz ? all.vz + at : NULL,
		                       .material = all.material + at, .id = all.id + at};
		pdl_error err;
		if (pdl_world_add_ghosts(w, &g, r, &err) != PDL_OK) {
			fprintf(stderr, "puddle mpi: process %d: ghosts from %d: %s\n", s->rank, r, err.message);
			MPI_Abort(s->comm, 1);
		}
	}
}

/* The places, in the world's storage order since the substep's grid, of the own particles each
 * process gets as ghosts (s->field_send_index, by process as the positions stage sent them) and
 * of each process's ghosts here (s->field_recv_index, by origin in storage order): the order in
 * which both sides list them, which is the same (each cell by id, the cells in one order). */
static void list_fields(pdl_mpi_world* s, pdl_world* w)
{
	const int n = s->size;
	pdl_particle_data d = pdl_world_particles(w);
	pdl_ghost_view v = pdl_world_ghost_view(w);
	const float* c = split_coordinates(s, &d);
	const int *sent = s->ghost_counts, *sent_at = sent + n, *got = sent + 2 * n, *got_at = sent + 3 * n;
	int total = 0, received = 0;
	for (int r = 0; r < n; ++r) total += sent[r], received += got[r];
	if (!pdl_mpi_grow((void**)&s->field_send_index, &s->field_send_index_capacity, total, sizeof(int)) ||
	    !pdl_mpi_grow((void**)&s->field_recv_index, &s->field_recv_index_capacity, received, sizeof(int)))
		MPI_Abort(s->comm, 1);
	int next[n];
	memcpy(next, sent_at, sizeof next);
	ghost_band band[n];
	for (int r = 0; r < n; ++r) band[r] = band_of(s, w, r);
	bool ok = true; /* (the same particles as the positions stage sent and received) */
	for (int i = 0; i < d.count; ++i) {
		if (v.origin[i] >= 0) continue;
		for (int r = 0; r < n; ++r)
			if (goes_to(s, w, band, r, c[i])) {
				ok = ok && next[r] < sent_at[r] + sent[r];
				if (ok) s->field_send_index[next[r]++] = i;
			}
	}
	for (int r = 0; r < n; ++r) ok = ok && next[r] == sent_at[r] + sent[r];
	memcpy(next, got_at, sizeof next);
	for (int i = 0; ok && i < v.count; ++i) {
		const int r = v.origin[i];
		if (r < 0) continue;
		ok = r < n && next[r] < got_at[r] + got[r];
		if (ok) s->field_recv_index[next[r]++] = i;
	}
	if (!ok) {
		fprintf(stderr, "puddle mpi: process %d: its ghosts are not those the positions stage exchanged\n", s->rank);
		MPI_Abort(s->comm, 1);
	}
	s->field_lists = true;
}

/* Each ghost's values of k arrays (per particle in storage order) from its owner, as a record of
 * the id (checked) and the values: PDL_GHOST_FIELDS' arrays, or Clavet's two pressures at
 * PDL_GHOST_PRESSURES (12 bytes a ghost). With `error` (PDL_GHOST_ERROR), each process's block
 * to every other starts with its error terms (32 bytes), and *error becomes the sum over all:
 * the error and the fields in one MPI_Alltoallv. */
static void fields(pdl_mpi_world* s, pdl_world* w, int k, float* const* arrays, pdl_ghost_error* error)
{
	const int n = s->size;
	if (!s->field_lists) list_fields(s, w);
	pdl_ghost_view v = pdl_world_ghost_view(w);
	const int *sent = s->ghost_counts, *got = sent + 2 * n;
	if (k <= 0 && !error) return; /* (the same in every process) */
	const size_t stride = sizeof(uint32_t) + (size_t)k * sizeof(float), head = error ? sizeof *error : 0;
	int bytes[4][n], total = 0, received = 0;
	for (int r = 0, at = 0, from = 0; r < n; ++r) {
		const size_t lead = r == s->rank ? 0 : head; /* (nothing to itself) */
		bytes[0][r] = (int)(lead + (size_t)sent[r] * stride), bytes[1][r] = at, at += bytes[0][r];
		bytes[2][r] = (int)(lead + (size_t)got[r] * stride), bytes[3][r] = from, from += bytes[2][r];
		total = at, received = from;
	}
	/* (capacities in 4-byte words: the record's size changes from stage to stage) */
	if (!pdl_mpi_grow((void**)&s->field_send, &s->field_send_capacity, total / 4 + 1, 4) ||
	    !pdl_mpi_grow((void**)&s->field_recv, &s->field_recv_capacity, received / 4 + 1, 4))
		MPI_Abort(s->comm, 1);
	for (int r = 0, q = 0; r < n; ++r) {
		uint8_t* e = s->field_send + bytes[1][r];
		if (r != s->rank && error) memcpy(e, error, head), e += head;
		for (int end = q + sent[r]; q < end; ++q, e += stride) {
			const int i = s->field_send_index[q];
			memcpy(e, &v.id[i], sizeof(uint32_t));
			for (int f = 0; f < k; ++f) memcpy(e + sizeof(uint32_t) + (size_t)f * sizeof(float), &arrays[f][i], sizeof(float));
		}
	}
	MPI_Alltoallv(s->field_send, bytes[0], bytes[1], MPI_BYTE, s->field_recv, bytes[2], bytes[3], MPI_BYTE, s->comm);
	s->stats.collectives++;
	for (int r = 0; r < n; ++r) {
		if (r == s->rank) continue;
		s->stats.bytes_sent += bytes[0][r], s->stats.bytes_received += bytes[2][r];
		s->stats.messages_sent += bytes[0][r] > 0, s->stats.messages_received += bytes[2][r] > 0;
	}
	pdl_ghost_error sum = {0, 0, 0, 0.0};
	for (int r = 0, q = 0; r < n; ++r) {
		const uint8_t* e = s->field_recv + bytes[3][r];
		if (error) { /* (every process's terms, added in rank order: exact in any) */
			pdl_ghost_error theirs = *error;
			if (r != s->rank) memcpy(&theirs, e, head), e += head;
			pdl_ghost_error_add(&sum, &theirs);
		}
		for (int end = q + got[r]; q < end; ++q, e += stride) {
			const int i = s->field_recv_index[q];
			uint32_t id;
			memcpy(&id, e, sizeof id);
			if (id != v.id[i]) {
				fprintf(stderr, "puddle mpi: process %d: the ghost fields are out of order\n", s->rank);
				MPI_Abort(s->comm, 1);
			}
			for (int f = 0; f < k; ++f) memcpy(&arrays[f][i], e + sizeof(uint32_t) + (size_t)f * sizeof(float), sizeof(float));
		}
	}
	if (error) *error = sum;
}

void pdl_mpi_ghost_stage(pdl_world* world, pdl_ghost_stage stage, void* context)
{
	pdl_mpi_world* s = context;
	const double t = MPI_Wtime();
	switch (stage) {
	case PDL_GHOST_POSITIONS: positions(s, world); break;
	case PDL_GHOST_PRESSURES: {
		pdl_ghost_view v = pdl_world_ghost_view(world);
		fields(s, world, 2, (float* const[]){v.pressure, v.near_pressure}, NULL);
		break;
	}
	case PDL_GHOST_FIELDS:
	case PDL_GHOST_ERROR: {
		pdl_ghost_view v = pdl_world_ghost_view(world);
		if (stage == PDL_GHOST_ERROR && !v.error) MPI_Abort(s->comm, 1);
		fields(s, world, v.field_count, v.fields, stage == PDL_GHOST_ERROR ? v.error : NULL);
		break;
	}
	}
	s->ghost_seconds += MPI_Wtime() - t;
}
