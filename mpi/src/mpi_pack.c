/* The MPI layer's own particle arrays, below the stepping (mpi_world.c) and the ghost
 * exchange (mpi_ghosts.c), which both fill them: growing them, the id order of packed
 * particles, and packed particles unpacked into the arrays the core's pdl_particle_data reads. */
#include "mpi_internal.h"

#include <stdlib.h>

bool pdl_mpi_grow(void** p, int* capacity, int need, size_t size)
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

int pdl_mpi_compare_ids(const void* a, const void* b)
{
	uint32_t x = ((const packed_particle*)a)->id, y = ((const packed_particle*)b)->id;
	return (x > y) - (x < y);
}

pdl_particle_data pdl_mpi_unpack(pdl_mpi_world* s, const packed_particle* p, int n)
{
	if (!pdl_mpi_grow((void**)&s->arrays, &s->arrays_capacity, n > 0 ? n : 1, 6 * sizeof *s->arrays))
		MPI_Abort(s->comm, 1);
	uint8_t* m = realloc(s->materials, (size_t)s->arrays_capacity);
	if (m) s->materials = m;
	uint32_t* ids = m ? realloc(s->ids, (size_t)s->arrays_capacity * sizeof *ids) : NULL;
	if (ids) s->ids = ids;
	if (!m || !ids) MPI_Abort(s->comm, 1);
	const int cap = s->arrays_capacity;
	float* a = s->arrays;
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) a[k * cap + i] = p[i].x[k], a[(3 + k) * cap + i] = p[i].v[k];
		m[i] = (uint8_t)p[i].material, ids[i] = p[i].id;
	}
	return (pdl_particle_data){.count = n, .x = a, .y = a + cap, .z = s->three ? a + 2 * cap : NULL,
	                           .vx = a + 3 * cap, .vy = a + 4 * cap, .vz = s->three ? a + 5 * cap : NULL,
	                           .material = m, .id = ids, .next_id = s->next_id};
}
