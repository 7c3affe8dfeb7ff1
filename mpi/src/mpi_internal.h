/* Internal to the MPI layer: the split world's state, shared by mpi_world.c (the stepping),
 * mpi_ghosts.c (the ghost exchange), mpi_files.c (the files written collectively) and, below
 * them all, mpi_pack.c (the layer's arrays). */
#ifndef PUDDLE_MPI_INTERNAL_H
#define PUDDLE_MPI_INTERNAL_H

#include "puddle/mpi.h"
#include "puddle/partition.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One particle on the wire (and in the layer's own arrays). */
typedef struct packed_particle {
	float x[3], v[3];
	uint32_t id;
	uint32_t material;
} packed_particle;

/* A particle's viscoelastic springs on the wire (and in the layer's arrays), beside its
 * packed_particle: per slot the partner's id (SPRING_NONE for an empty slot) and the rest
 * length. Ids, not indices, because each process's world orders its particles otherwise; the
 * slots keep their places, since a particle sums its springs in slot order. */
#define SPRING_NONE UINT32_MAX
typedef struct packed_springs {
	uint32_t partner[PDL_MAX_SPRINGS_PER_PARTICLE];
	float rest[PDL_MAX_SPRINGS_PER_PARTICLE];
} packed_springs;

struct pdl_mpi_world {
	MPI_Comm comm;
	int rank, size;
	pdl_world* world;
	bool three;
	int axis;         /* the split axis: 0 x, 1 y, 2 z */
	float* cuts;      /* size + 1: process r owns [cuts[r], cuts[r + 1]); the ends are infinite */
	float halo;       /* world units */
	uint32_t next_id; /* the whole world's next particle id */
	long long total;  /* the whole world's particles at the start of the last step */
	pdl_mpi_frame_fn frame_fn; /* the caller's part of each frame (pointers, emitters), or NULL */
	void* frame_context;
	/* the particles the frame function added this frame, in id order (every process holds them
	 * all), and which of them are in this process's slab */
	packed_particle* fresh;
	bool* fresh_owned;
	int fresh_count, fresh_capacity, fresh_owned_capacity;
	bool sph; /* the SPH solver: substeps, so the halo, from the whole world's fastest particle */
	bool dfsph; /* the DFSPH solver: its particles carry two warm-start pressures */
	/* a material has springs: each owned, sent and received particle has its packed_springs in
	 * the parallel arrays below (NULL otherwise) */
	bool springs;
	packed_springs *owned_springs, *send_springs, *recv_springs, *sorted_springs;
	int owned_springs_capacity, send_springs_capacity, recv_springs_capacity, sorted_springs_capacity;
	float longest_spring; /* this process's longest spring (its own particles) after the last step */
	float longest_spring_start; /* the whole world's at the start of this frame */
	float last_moved; /* the farthest any particle moved in the last frame (world units) */
	float gravity;    /* |g| times the largest material gravity_scale, world units / s^2 */
	bool tight_halo;  /* PUDDLE_MPI_TIGHT_HALO=1 (tests): the halo predicted without motion */
	float frame_dt;       /* the world's dt, s */
	int substeps;         /* the world's substeps (Clavet) */
	uint64_t* sort_keys; /* springs: (id << 32 | place) of the received, to sort both arrays */
	packed_particle* sorted;
	int sort_keys_capacity, sorted_capacity;
	int32_t* spring_partner; /* pdl_world_set_particles' spring arrays */
	float* spring_rest;
	int spring_arrays_capacity;
	float h;  /* the interaction radius */
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
	pdl_mpi_world_stats stats; /* this process's counts and times since creation or reset */
	/* per owned particle: its density, pressure and (DFSPH) divergence pressure after the last
	 * step (for the files, and a DFSPH world's warm start when it is rebuilt) */
	float* owned_fields;
	int owned_fields_capacity;
	/* Rigid bodies: every process holds every body and integrates it as one process would, so
	 * every particle that can touch one in the frame, with the halo its state depends on, goes
	 * to every process (docs/mpi.md, "Bodies"). Per body its def at the frame's start (put back
	 * when a frame is stepped again) and the zone on the split axis whose particles all go to
	 * everyone. */
	int body_count;
	pdl_body_id* body_ids;
	pdl_body_def* body_start;
	float *zone_lo, *zone_hi;
	float body_margin;    /* beyond a body's bounding radius: h + the fluid's and the body's move */
	float last_body_move; /* the farthest any body's centre moved in the last frame */
	/* the arrays pdl_mpi_world_local_particles and pdl_mpi_world_id_block hand out */
	float* out_arrays; /* 8 per particle: x y z vx vy vz density pressure */
	int32_t* out_partner; /* pdl_mpi_world_id_block with springs: partners by place in id order */
	float* out_rest;
	int out_springs_capacity;
	uint8_t* out_materials;
	uint32_t* out_ids;
	int out_capacity;
	/* Ghosts (mpi_ghosts.c): a Clavet world without springs or bodies keeps only its own
	 * particles and takes ghosts one cell reach deep from the other processes at each ghost
	 * stage of each substep, instead of a halo for the whole frame. */
	bool ghosts;
	uint8_t* leave; /* per particle of the world: it leaves this process (migrate) */
	int leave_capacity;
	int* extents; /* 2 per process: the cells its own particles span on the split axis */
	int* ghost_counts; /* 4 per process: sent, their offsets, received, their offsets (records) */
	packed_particle *ghost_send, *ghost_recv;
	int ghost_send_capacity, ghost_recv_capacity;
	long long ghosts_this_frame, ghost_exchanges_this_frame;
	/* The stages after the positions (Clavet's pressures, DFSPH's fields): where the ghosts'
	 * records come from and go to in storage order (listed at the first such stage after each
	 * positions stage), and the records */
	bool field_lists;
	/* DFSPH with bodies: each body's zone on the split axis this substep (lo, hi), whose
	 * particles go to every process as ghosts (mpi_ghosts.c, place_zones) */
	float* ghost_zones;
	pdl_body_id* ghost_zone_ids;
	int ghost_zone_count, ghost_zones_capacity, ghost_zone_ids_capacity;
	float* move_pressures; /* DFSPH: the movers' two warm-start pressures (migrate) */
	int move_pressures_capacity;
	int *field_send_index, *field_recv_index;
	int field_send_index_capacity, field_recv_index_capacity;
	uint8_t *field_send, *field_recv;
	int field_send_capacity, field_recv_capacity; /* (in 4-byte words) */
	double ghost_seconds; /* in the ghost stages this frame */
};

/* mpi_pack.c: the layer's arrays */
/* Grows *p to hold need items of size bytes (capacity doubling from 1024); false when out of
 * memory (then *p is as it was). */
bool pdl_mpi_grow(void** p, int* capacity, int need, size_t size);
/* qsort order of packed_particle by id */
int pdl_mpi_compare_ids(const void* a, const void* b);

/* Particles [0, n) of p as arrays for the core, in s->arrays, s->materials and s->ids (valid
 * until the next call); next_id the whole world's. Aborts the job when out of memory. */
pdl_particle_data pdl_mpi_unpack(pdl_mpi_world* s, const packed_particle* p, int n);

/* mpi_ghosts.c: whether the world can step with ghosts (Clavet without springs or bodies, or
 * DFSPH; PUDDLE_MPI_HALO=1 not set); the ghost function the layer gives the world (context: the
 * split world). */
bool pdl_mpi_ghosts_suit(const pdl_world* world);
void pdl_mpi_ghost_stage(pdl_world* world, pdl_ghost_stage stage, void* context);

#endif
