/* The CUDA backend (docs/cuda.md): the Clavet step (src/step.c, Clavet, Beaudoin & Poulin 2005
 * algorithm 1) and the SPH step (src/sph.c, Mueller, Charypar & Gross 2003) on an NVIDIA GPU,
 * one thread per particle, 2D and 3D.
 *
 * Each Clavet solver step runs the CPU step's stages as kernels:
 *
 *   forces      v += dt g (+ pointers)                       forces_kernel
 *   predict     x_prev = x; x += dt v                        predict_kernel
 *   grid        cells of size h: the particles' bounding box, a cell key per particle, a stable
 *               radix sort of (key, slot) (CUB), every particle array gathered into that order
 *               (springs renamed), each cell's first and last slot   bounds_kernel .. cell_ranges_kernel
 *   springs     plasticity and displacements (alg. 3, 4), new springs   springs_kernel, propose_kernel,
 *                                                                        accept_kernel
 *   density     rho, rho_near, pressures (alg. 2) and the viscosity impulses (alg. 5) as the
 *               position change dt dv                        density_kernel
 *   relax       x += relaxation displacement + dt dv         displace_kernel
 *   boundaries  walls and obstacles (walls.h, the CPU's own code)   walls_kernel
 *   velocity    v = (x - x_prev) / dt                        velocity_kernel
 *
 * and each SPH substep: forces, the grid at x, sph_density_kernel, sph_normals_kernel (surface
 * tension), sph_internal_kernel (forces and symplectic Euler), walls, velocity.
 *
 * Between steps the GPU keeps the particles: pdl_cuda_step copies them there only when the host
 * changed them, and the results back every step (into page-locked host arrays once large).
 *
 * Determinism. Every pass is a gather: a thread writes only its own particle, from values of the
 * stage before. Neighbours are visited cell by cell in a fixed order and, within a cell, in slot
 * order; the slots come from a stable sort of keys that depend only on positions. No float
 * atomics: the bounding box and the fastest speed use integer atomic min and max, the neighbour
 * count integer adds (all order-free). So a run gives the
 * same bits every time on the same GPU and build. Against the CPU backend the sums run in
 * another order (and the relaxation is a gather there only on hashed grids), so the states
 * agree to rounding at first and drift apart as any chaotic flow does (tests/test_cuda.c).
 *
 * Cells are h wide (the CPU grid's are h/2 in 2D), so a particle's neighbours are in its cell
 * and the 8 (3D: 26) around it. The key of a cell is its index in the bounding box of the
 * particles when that box has at most 4 cells a particle (dense), else a hash of the cell into
 * a table of 2^k >= 2 n buckets; then two neighbour cells may share a bucket, and each bucket
 * is visited once.
 *
 * Arithmetic: compiled with --fmad=false and IEEE division and square roots, as the CPU build
 * contracts nothing (CMakeLists.txt). */
#include "cuda_step.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

/* ---- Settings every kernel reads -------------------------------------------------------- */

__constant__ pdl_cuda_material c_material[PDL_MAX_MATERIALS];
__constant__ float c_pair_weight[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
__constant__ float c_pair_sigma[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
__constant__ float c_pair_beta[PDL_MAX_MATERIALS * PDL_MAX_MATERIALS];
__constant__ pdl_pointer c_pointer[PDL_MAX_POINTERS];
__constant__ int c_pointer_active[PDL_MAX_POINTERS];
/* SPH: each material's mass and rest density, the walls' tables, the equation of state */
__constant__ float c_mass[PDL_MAX_MATERIALS], c_sph_rest[PDL_MAX_MATERIALS], c_sph_correction[PDL_MAX_MATERIALS];
__constant__ float c_wall_density[PDL_SPH_WALL_TABLE + 1], c_wall_force[PDL_SPH_WALL_TABLE + 1];
__constant__ pdl_sph_def c_sph;

/* The particle arrays on the GPU: the live ones, and spares of the same size that a gather
 * writes into before the pointers swap. */
enum {
	F_X, F_Y, F_Z, F_XP, F_YP, F_ZP, F_VX, F_VY, F_VZ, /* sorted with the grid: the first F_SORTED */
	F_DENSITY, F_PRESSURE, F_NEAR, F_DVX, F_DVY, F_DVZ, F_COUNT,
	F_SORTED = F_DENSITY
};

enum { SPRING_SLOTS = PDL_MAX_SPRINGS_PER_PARTICLE };

/* The arrays a 2D world has none of. */
__host__ __device__ static inline bool is_z_field(int k) { return k == F_Z || k == F_ZP || k == F_VZ || k == F_DVZ; }

typedef struct particles_dev {
	float* f[F_COUNT];
	uint8_t* material;
	uint32_t* id;
} particles_dev;

/* The cell grid of one solver step. */
typedef struct grid_dev {
	float lo[3];      /* the bounding box's low corner */
	float inv_cell;   /* 1 / h */
	int n[3];         /* cells along each axis (dense) */
	int max_cell;     /* the largest cell coordinate kept (hashed: cells past it are merged) */
	bool hashed;
	uint32_t mask;    /* hashed: buckets - 1 */
	const uint32_t *start, *end; /* per key: the first slot and one past the last */
} grid_dev;

enum { PINNED_MAX = 32 };

struct pdl_cuda {
	int capacity;     /* particles the buffers hold */
	bool three;       /* the buffers have z arrays */
	int resident;     /* particles on the GPU as the host last had them; -1: none */
	bool resident_springs; /* and their springs with them */
	particles_dev p, spare;
	uint32_t *key, *key_sorted, *slot, *slot_sorted;
	uint32_t *cell_start, *cell_end;
	size_t cell_capacity; /* keys the cell arrays hold */
	void* sort_temp;
	size_t sort_temp_bytes;
	unsigned int* bounds; /* 6 ordered-int encodings: min x, y, z, max x, y, z */
	boundary* walls;
	int wall_capacity;
	unsigned long long* neighbours; /* pairs within h counted in the last density pass */
	unsigned int* fastest;          /* the largest squared speed, as float bits (>= 0: ordered) */
	/* springs (SPRING_SLOTS a particle): partner and rest length, their spares for the sort,
	 * each particle's proposals and their count, and the sort's inverse (old slot -> new) */
	int spring_capacity;
	int32_t *partner, *partner_spare, *proposals, *proposal_count, *inverse;
	float *rest, *rest_spare;
	cudaEvent_t events[8];
	bool events_made;
	/* the host arrays page-locked for the copies (pin) */
	struct {
		void* ptr;
		size_t bytes;
	} pinned[PINNED_MAX];
	int pinned_count;
};

#define CUDA_TRY(call)                                                                         \
	do {                                                                                        \
		cudaError_t e_ = (call);                                                                \
		if (e_ != cudaSuccess) {                                                                \
			snprintf(why, (size_t)size, "CUDA: %s (%s, %s:%d)", cudaGetErrorString(e_), #call, __FILE__, \
			         __LINE__);                                                                 \
			return false;                                                                       \
		}                                                                                       \
	} while (0)

extern "C" bool pdl_cuda_probe(char* why, int size)
{
	int devices = 0;
	cudaError_t e = cudaGetDeviceCount(&devices);
	if (e != cudaSuccess) {
		snprintf(why, (size_t)size, "no usable CUDA GPU: %s", cudaGetErrorString(e));
		return false;
	}
	if (devices == 0) {
		snprintf(why, (size_t)size, "no CUDA GPU on this machine");
		return false;
	}
	return true;
}

extern "C" pdl_cuda* pdl_cuda_create(void)
{
	pdl_cuda* c = (pdl_cuda*)calloc(1, sizeof *c);
	if (c) c->resident = -1;
	return c;
}

/* What the buffers hold: per particle the live arrays, their spares, the keys and slots and
 * their sorted copies; then the cells, the sort's scratch and the walls. */
extern "C" long long pdl_cuda_bytes(const pdl_cuda* c)
{
	if (!c) return 0;
	long long z_arrays = c->three ? 0 : 4 + 3; /* live, spare */
	long long per_particle = (F_COUNT + F_SORTED - z_arrays) * 4 + 2 * (1 + 4) + 4 * 4;
	long long springs = (long long)c->spring_capacity * (SPRING_SLOTS * (4 + 4) * 2 + SPRING_SLOTS * 4 + 4 + 4);
	return c->capacity * per_particle + springs + (long long)c->cell_capacity * 8 + (long long)c->sort_temp_bytes +
	       (long long)c->wall_capacity * (long long)sizeof(boundary);
}

static void free_particles(particles_dev* p)
{
	for (int k = 0; k < F_COUNT; ++k) cudaFree(p->f[k]);
	cudaFree(p->material);
	cudaFree(p->id);
	memset(p, 0, sizeof *p);
}

/* Page-locks a host array that every frame copies, once: copies from and to page-locked memory
 * run at the bus's speed (measured on an H100: 8.5 GB/s pageable, see docs/cuda.md), where
 * pageable memory goes through the driver's bounce buffer. The registration lasts until the
 * world's arrays grow (particles.c calls pdl_cuda_unpin first) or the world goes. Small arrays
 * stay pageable (two of them may share a page, which cannot be registered twice); a failure
 * leaves the array pageable. */
static void pin(pdl_cuda* c, void* ptr, size_t bytes)
{
	if (!ptr || bytes < ((size_t)1 << 20)) return;
	for (int k = 0; k < c->pinned_count; ++k)
		if (c->pinned[k].ptr == ptr && c->pinned[k].bytes >= bytes) return;
	if (c->pinned_count == PINNED_MAX) return;
	if (cudaHostRegister(ptr, bytes, cudaHostRegisterDefault) != cudaSuccess) {
		(void)cudaGetLastError(); /* not sticky: clear it */
		return;
	}
	c->pinned[c->pinned_count].ptr = ptr;
	c->pinned[c->pinned_count].bytes = bytes;
	c->pinned_count++;
}

extern "C" void pdl_cuda_unpin(pdl_cuda* c)
{
	if (!c) return;
	for (int k = 0; k < c->pinned_count; ++k) cudaHostUnregister(c->pinned[k].ptr);
	c->pinned_count = 0;
}

extern "C" void pdl_cuda_destroy(pdl_cuda* c)
{
	if (!c) return;
	pdl_cuda_unpin(c);
	free_particles(&c->p);
	free_particles(&c->spare);
	cudaFree(c->key), cudaFree(c->key_sorted), cudaFree(c->slot), cudaFree(c->slot_sorted);
	cudaFree(c->cell_start), cudaFree(c->cell_end), cudaFree(c->sort_temp), cudaFree(c->bounds);
	cudaFree(c->walls), cudaFree(c->neighbours), cudaFree(c->fastest);
	cudaFree(c->partner), cudaFree(c->partner_spare), cudaFree(c->proposals), cudaFree(c->proposal_count);
	cudaFree(c->inverse), cudaFree(c->rest), cudaFree(c->rest_spare);
	if (c->events_made)
		for (int k = 0; k < 8; ++k) cudaEventDestroy(c->events[k]);
	free(c);
}

/* The first `floats` arrays (F_COUNT or F_SORTED), the z ones only in 3D. */
static bool alloc_particles(particles_dev* p, int n, int floats, bool three, char* why, int size)
{
	for (int k = 0; k < floats; ++k)
		if (three || !is_z_field(k)) CUDA_TRY(cudaMalloc(&p->f[k], (size_t)n * sizeof(float)));
	CUDA_TRY(cudaMalloc(&p->material, (size_t)n));
	CUDA_TRY(cudaMalloc(&p->id, (size_t)n * sizeof(uint32_t)));
	return true;
}

/* Buffers for n particles (at least; grown by half again so that a growing world reallocates
 * rarely). Whatever was on the GPU is gone when they grow. */
static bool reserve(pdl_cuda* c, int n, bool three, char* why, int size)
{
	if (!c->events_made) {
		for (int k = 0; k < 8; ++k) CUDA_TRY(cudaEventCreate(&c->events[k]));
		c->events_made = true;
		CUDA_TRY(cudaMalloc(&c->bounds, 6 * sizeof(unsigned int)));
		CUDA_TRY(cudaMalloc(&c->neighbours, sizeof(unsigned long long)));
		CUDA_TRY(cudaMalloc(&c->fastest, sizeof(unsigned int)));
	}
	if (n <= c->capacity && three == c->three) return true;
	int cap = n + n / 2 > 1024 ? n + n / 2 : 1024;
	c->resident = -1;
	free_particles(&c->p);
	free_particles(&c->spare);
	cudaFree(c->key), cudaFree(c->key_sorted), cudaFree(c->slot), cudaFree(c->slot_sorted);
	cudaFree(c->sort_temp);
	c->key = c->key_sorted = c->slot = c->slot_sorted = NULL;
	c->sort_temp = NULL;
	c->capacity = 0;
	if (!alloc_particles(&c->p, cap, F_COUNT, three, why, size) ||
	    !alloc_particles(&c->spare, cap, F_SORTED, three, why, size))
		return false;
	c->three = three;
	CUDA_TRY(cudaMalloc(&c->key, (size_t)cap * sizeof(uint32_t)));
	CUDA_TRY(cudaMalloc(&c->key_sorted, (size_t)cap * sizeof(uint32_t)));
	CUDA_TRY(cudaMalloc(&c->slot, (size_t)cap * sizeof(uint32_t)));
	CUDA_TRY(cudaMalloc(&c->slot_sorted, (size_t)cap * sizeof(uint32_t)));
	c->sort_temp_bytes = 0;
	CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, c->sort_temp_bytes, c->key, c->key_sorted, c->slot,
	                                         c->slot_sorted, cap, 0, 32));
	CUDA_TRY(cudaMalloc(&c->sort_temp, c->sort_temp_bytes));
	c->capacity = cap;
	return true;
}

/* The springs' buffers for the particle buffers' capacity (once a world has springs). */
static bool reserve_springs(pdl_cuda* c, char* why, int size)
{
	if (c->spring_capacity == c->capacity) return true;
	cudaFree(c->partner), cudaFree(c->partner_spare), cudaFree(c->proposals), cudaFree(c->proposal_count);
	cudaFree(c->inverse), cudaFree(c->rest), cudaFree(c->rest_spare);
	c->partner = c->partner_spare = c->proposals = c->proposal_count = c->inverse = NULL;
	c->rest = c->rest_spare = NULL;
	c->spring_capacity = 0;
	c->resident = -1;
	const size_t slots = (size_t)c->capacity * SPRING_SLOTS;
	CUDA_TRY(cudaMalloc(&c->partner, slots * sizeof(int32_t)));
	CUDA_TRY(cudaMalloc(&c->partner_spare, slots * sizeof(int32_t)));
	CUDA_TRY(cudaMalloc(&c->proposals, slots * sizeof(int32_t)));
	CUDA_TRY(cudaMalloc(&c->rest, slots * sizeof(float)));
	CUDA_TRY(cudaMalloc(&c->rest_spare, slots * sizeof(float)));
	CUDA_TRY(cudaMalloc(&c->proposal_count, (size_t)c->capacity * sizeof(int32_t)));
	CUDA_TRY(cudaMalloc(&c->inverse, (size_t)c->capacity * sizeof(int32_t)));
	c->spring_capacity = c->capacity;
	return true;
}

static bool reserve_cells(pdl_cuda* c, size_t keys, char* why, int size)
{
	if (keys <= c->cell_capacity) return true;
	size_t cap = keys + keys / 2;
	cudaFree(c->cell_start), cudaFree(c->cell_end);
	c->cell_start = c->cell_end = NULL;
	c->cell_capacity = 0;
	CUDA_TRY(cudaMalloc(&c->cell_start, cap * sizeof(uint32_t)));
	CUDA_TRY(cudaMalloc(&c->cell_end, cap * sizeof(uint32_t)));
	c->cell_capacity = cap;
	return true;
}

/* ---- 1, 2: forces and prediction -------------------------------------------------------- */

/* step.c, forces_range: the same arithmetic, so a particle gets the same v from the same inputs */
template <bool THREE>
__global__ void forces_kernel(particles_dev p, int n, float dt, float gx, float gy, float gz, bool any_pointer)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const pdl_cuda_material m = c_material[p.material[i]];
	float dvx = dt * (gx * m.gravity_scale), dvy = dt * (gy * m.gravity_scale), dvz = dt * (gz * m.gravity_scale);
	float *vx = p.f[F_VX], *vy = p.f[F_VY], *vz = p.f[F_VZ];
	if (!any_pointer) {
		vx[i] += dvx;
		vy[i] += dvy;
		if (THREE) vz[i] += dvz;
		return;
	}
	float a[3] = {0, 0, 0}, v[3] = {vx[i], vy[i], THREE ? vz[i] : 0};
	float z = THREE ? p.f[F_Z][i] : 0;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k)
		if (c_pointer_active[k]) pdl_pointer_effect(&c_pointer[k], THREE, dt, p.f[F_X][i], p.f[F_Y][i], z, v, a);
	vx[i] = (v[0] + dt * a[0]) + dvx;
	vy[i] = (v[1] + dt * a[1]) + dvy;
	if (THREE) vz[i] = (v[2] + dt * a[2]) + dvz;
}

template <bool THREE>
__global__ void predict_kernel(particles_dev p, int n, float dt)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	for (int axis = 0; axis < (THREE ? 3 : 2); ++axis) {
		float xi = p.f[F_X + axis][i];
		p.f[F_XP + axis][i] = xi;
		p.f[F_X + axis][i] = xi + dt * p.f[F_VX + axis][i];
	}
}

/* ---- The grid ------------------------------------------------------------------------------ */

/* A float as an unsigned int whose order is the floats' order (for atomicMin and atomicMax). */
__device__ static inline unsigned int ordered(float f)
{
	unsigned int u = __float_as_uint(f);
	return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static float from_ordered(unsigned int u) /* host */
{
	unsigned int b = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}

enum { BLOCK = 256 };

/* The bounding box of the finite positions (the others go to the corner cell). */
template <bool THREE>
__global__ void bounds_kernel(particles_dev p, int n, unsigned int* bounds)
{
	typedef cub::BlockReduce<float, BLOCK> reduce;
	__shared__ typename reduce::TempStorage temp;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (int axis = 0; axis < (THREE ? 3 : 2); ++axis) {
		float v = i < n ? p.f[F_X + axis][i] : NAN;
		bool ok = isfinite(v);
		float lo = reduce(temp).Reduce(ok ? v : INFINITY, cuda::minimum<float>{});
		__syncthreads();
		float hi = reduce(temp).Reduce(ok ? v : -INFINITY, cuda::maximum<float>{});
		__syncthreads();
		if (threadIdx.x == 0) {
			if (lo < INFINITY) atomicMin(&bounds[axis], ordered(lo));
			if (hi > -INFINITY) atomicMax(&bounds[3 + axis], ordered(hi));
		}
	}
}

/* The cell of a position along one axis: floor((x - lo) / h), NaN and the far side clamped. */
__device__ static inline int cell_coordinate(float x, float lo, float inv_cell, int max_cell)
{
	float c = floorf((x - lo) * inv_cell);
	if (!(c >= 0)) return 0; /* also NaN */
	return c > (float)max_cell ? max_cell : (int)c;
}

__device__ static inline uint32_t cell_key(const grid_dev& g, int cx, int cy, int cz)
{
	if (!g.hashed) return (uint32_t)((cz * g.n[1] + cy) * g.n[0] + cx);
	uint32_t k = (uint32_t)cx * 73856093u ^ (uint32_t)cy * 19349663u ^ (uint32_t)cz * 83492791u;
	return k & g.mask;
}

template <bool THREE>
__global__ void keys_kernel(particles_dev p, int n, grid_dev g, uint32_t* key, uint32_t* slot)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int cx = cell_coordinate(p.f[F_X][i], g.lo[0], g.inv_cell, g.hashed ? g.max_cell : g.n[0] - 1);
	int cy = cell_coordinate(p.f[F_Y][i], g.lo[1], g.inv_cell, g.hashed ? g.max_cell : g.n[1] - 1);
	int cz = THREE ? cell_coordinate(p.f[F_Z][i], g.lo[2], g.inv_cell, g.hashed ? g.max_cell : g.n[2] - 1) : 0;
	key[i] = cell_key(g, cx, cy, cz);
	slot[i] = (uint32_t)i;
}

/* Every sorted array gathered into the order of the sort. */
template <bool THREE>
__global__ void permute_kernel(particles_dev from, particles_dev to, int n, const uint32_t* slot)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	uint32_t s = slot[i];
	for (int k = 0; k < F_SORTED; ++k)
		if (THREE || !is_z_field(k)) to.f[k][i] = from.f[k][s];
	to.material[i] = from.material[s];
	to.id[i] = from.id[s];
}

__global__ void cell_ranges_kernel(const uint32_t* key, int n, uint32_t* start, uint32_t* end)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	uint32_t k = key[i];
	if (i == 0 || key[i - 1] != k) start[k] = (uint32_t)i;
	if (i == n - 1 || key[i + 1] != k) end[k] = (uint32_t)i + 1;
}

/* Calls visit(j) for every particle j in the cells around particle i's (its own included), in
 * a fixed order. Dense: the cells of one row (x - 1 to x + 1) have consecutive keys, so their
 * particles are one run of slots, from the first non-empty cell's start to the last one's end
 * (3 runs in 2D, 9 in 3D). Hashed: cell by cell, each bucket once (two cells may share one). */
template <bool THREE, bool HASHED, typename Visit>
__device__ static inline void for_neighbour_candidates(const grid_dev& g, float x, float y, float z, Visit visit)
{
	const int limit[3] = {HASHED ? g.max_cell : g.n[0] - 1, HASHED ? g.max_cell : g.n[1] - 1,
	                      HASHED ? g.max_cell : g.n[2] - 1};
	const int cx = cell_coordinate(x, g.lo[0], g.inv_cell, limit[0]);
	const int cy = cell_coordinate(y, g.lo[1], g.inv_cell, limit[1]);
	const int cz = THREE ? cell_coordinate(z, g.lo[2], g.inv_cell, limit[2]) : 0;
	const int x0 = cx > 0 ? cx - 1 : 0, x1 = cx < limit[0] ? cx + 1 : limit[0];
	uint32_t seen[HASHED ? (THREE ? 27 : 9) : 1];
	int seen_count = 0;
	for (int oz = THREE ? -1 : 0; oz <= (THREE ? 1 : 0); ++oz) {
		const int z_cell = cz + oz;
		if (THREE && (z_cell < 0 || z_cell > limit[2])) continue;
		for (int oy = -1; oy <= 1; ++oy) {
			const int y_cell = cy + oy;
			if (y_cell < 0 || y_cell > limit[1]) continue;
			if constexpr (!HASHED) { /* one run: empty cells have start = end = 0 */
				uint32_t first = 0, last = 0;
				bool any = false;
				for (int x_cell = x0; x_cell <= x1; ++x_cell) {
					uint32_t k = cell_key(g, x_cell, y_cell, z_cell), s = g.start[k], e = g.end[k];
					if (e > s) {
						if (!any) first = s;
						last = e;
						any = true;
					}
				}
				for (uint32_t j = first; j < last; ++j) visit((int)j);
			} else {
				for (int x_cell = x0; x_cell <= x1; ++x_cell) {
					uint32_t k = cell_key(g, x_cell, y_cell, z_cell);
					bool again = false;
					for (int s = 0; s < seen_count; ++s) again |= seen[s] == k;
					if (again) continue;
					seen[seen_count++] = k;
					for (uint32_t j = g.start[k]; j < g.end[k]; ++j) visit((int)j);
				}
			}
		}
	}
}

/* ---- 3. Springs (springs.c, springs_loops.h: Clavet alg. 3 and 4) --------------------------- */

/* Plastic flow of each spring's rest length L (and removal past h), then the spring
 * displacement D = dt^2 k (1 - L/h) (L - r) r^_ij, half to each end, from frozen positions x
 * into x2. Both ends hold a spring and update it alike from the same r. */
template <bool THREE>
__global__ void springs_kernel(particles_dev p, int32_t* partner_all, float* rest_all, float* x2, float* y2, float* z2,
                               int n, float h, float dt)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
	const pdl_cuda_material m = c_material[p.material[i]];
	int32_t* partner = partner_all + (size_t)i * SPRING_SLOTS;
	float* rest = rest_all + (size_t)i * SPRING_SLOTS;
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0;
	if (!m.springs) { /* the material's springs were turned off */
		for (int s = 0; s < SPRING_SLOTS; ++s) partner[s] = -1;
		x2[i] = xi, y2[i] = yi;
		if (THREE) z2[i] = zi;
		return;
	}
	const float dt2 = dt * dt, inv_h = 1.0f / h, flow = dt * m.plasticity, half_k = 0.5f * dt2 * m.spring_stiffness;
	const uint32_t id_i = p.id[i];
	float sx = 0, sy = 0, sz = 0, same[3] = {0, 0, 0};
	for (int s = 0; s < SPRING_SLOTS; ++s) {
		int j = partner[s];
		if (j < 0) continue;
		float dx = px[j] - xi, dy = py[j] - yi, dz = THREE ? pz[j] - zi : 0;
		float r = sqrtf(dx * dx + dy * dy + dz * dz), L = rest[s];
		/* algorithm 3, within h: d = gamma L */
		float d = m.yield_ratio * L;
		bool near = r < h, grow = near && r > L + d, shrink = !grow && near && r < L - d;
		L = grow ? L + flow * ((r - L) - d) : shrink ? L - flow * ((L - d) - r) : L;
		rest[s] = L;
		if (L > h) { /* stretched past h: the spring goes */
			partner[s] = -1;
			continue;
		}
		float D = (half_k * (1.0f - L * inv_h)) * (L - r); /* algorithm 4 */
		if (r > 0) {
			float scale = D / r;
			sx -= scale * dx;
			sy -= scale * dy;
			if (THREE) sz -= scale * dz;
		} else { /* at one place: along the pair's fixed direction (hd.h) */
			pdl_vec3 u = pdl_coincident_direction(id_i, p.id[j], THREE);
			same[0] -= D * u.x;
			same[1] -= D * u.y;
			if (THREE) same[2] -= D * u.z;
		}
	}
	x2[i] = xi + (sx + same[0]);
	y2[i] = yi + (sy + same[1]);
	if (THREE) z2[i] = zi + (sz + same[2]);
}

/* Each particle proposes its nearest unconnected neighbours of its material within h, as many
 * as it has free slots (ties: the first met, in the grid's order). */
template <bool THREE, bool HASHED>
__global__ void propose_kernel(particles_dev p, const int32_t* partner_all, int32_t* proposals, int32_t* counts, int n,
                               grid_dev g, float h)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const int32_t* partner = partner_all + (size_t)i * SPRING_SLOTS;
	int32_t* out = proposals + (size_t)i * SPRING_SLOTS;
	int free_slots = 0, count = 0;
	for (int s = 0; s < SPRING_SLOTS; ++s) free_slots += partner[s] < 0;
	const uint8_t mat = p.material[i];
	if (free_slots > 0 && c_material[mat].springs) {
		const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
		const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0, h2 = h * h;
		float best[SPRING_SLOTS] = {}; /* (read only once filled: count == free_slots) */
		for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
			if (j == i || p.material[j] != mat) return;
			float dx = px[j] - xi, dy = py[j] - yi, dz = THREE ? pz[j] - zi : 0;
			float r2 = dx * dx + dy * dy + dz * dz;
			if (!(r2 < h2)) return;
			if (count == free_slots && r2 >= best[count - 1]) return;
			for (int s = 0; s < SPRING_SLOTS; ++s)
				if (partner[s] == j) return; /* connected already */
			int at = count < free_slots ? count++ : count - 1;
			while (at > 0 && best[at - 1] > r2) { /* insertion, nearest first */
				best[at] = best[at - 1];
				out[at] = out[at - 1];
				--at;
			}
			best[at] = r2;
			out[at] = j;
		});
	}
	counts[i] = count;
}

/* A spring is made where i and j proposed each other, at L = r (springs.c). */
template <bool THREE>
__global__ void accept_kernel(particles_dev p, int32_t* partner_all, float* rest_all, const int32_t* proposals,
                              const int32_t* counts, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const int32_t* mine = proposals + (size_t)i * SPRING_SLOTS;
	int32_t* partner = partner_all + (size_t)i * SPRING_SLOTS;
	float* rest = rest_all + (size_t)i * SPRING_SLOTS;
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
	int slot = 0;
	for (int a = 0; a < counts[i]; ++a) {
		int j = mine[a];
		const int32_t* theirs = proposals + (size_t)j * SPRING_SLOTS;
		bool mutual = false;
		for (int b = 0; b < counts[j]; ++b) mutual |= theirs[b] == i;
		if (!mutual) continue;
		while (partner[slot] >= 0) ++slot; /* a free slot exists: i proposed no more than it had */
		float dx = px[j] - px[i], dy = py[j] - py[i], dz = THREE ? pz[j] - pz[i] : 0;
		partner[slot] = j;
		rest[slot] = sqrtf(dx * dx + dy * dy + dz * dz);
	}
}

/* ---- 4. Densities, pressures and viscosity (relax_loops.h, density_pass) --------------------- */

/* Particle i's densities and pressures, and with viscosity its position change dt dv; returns
 * its neighbours within h. */
template <bool THREE, bool HASHED>
__device__ static inline int density_of(particles_dev p, int i, const grid_dev& g, float h, float dt, bool viscosity)
{
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
	const float *pvx = p.f[F_VX], *pvy = p.f[F_VY], *pvz = p.f[F_VZ];
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0;
	const float vxi = pvx[i], vyi = pvy[i], vzi = THREE ? pvz[i] : 0;
	const float h2 = h * h, inv_h = 1.0f / h;
	const int row = p.material[i] * PDL_MAX_MATERIALS;
	float rho = 0, rho_near = 0, dvx = 0, dvy = 0, dvz = 0;
	int count = 0;
	for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
		if (j == i) return;
		float dx = px[j] - xi, dy = py[j] - yi, dz = THREE ? pz[j] - zi : 0;
		float r2 = dx * dx + dy * dy + dz * dz;
		if (!(r2 < h2)) return;
		float dist = sqrtf(r2), a = 1.0f - dist * inv_h, a2 = a * a;
		rho += a2; /* Clavet eq. 1 and 4: (1 - q)^2 and (1 - q)^3 */
		rho_near += a2 * a;
		count++;
		/* Clavet alg. 5 (viscosity.h); pairs at the same place have no direction */
		if (!viscosity || !(r2 > 0)) return;
		float inv_dist = 1.0f / dist;
		float du = (vxi - pvx[j]) * dx + (vyi - pvy[j]) * dy;
		if (THREE) du += (vzi - pvz[j]) * dz;
		float u = du * inv_dist; /* approach speed along r^_ij */
		if (!(u > 0)) return;
		int pair = row + p.material[j];
		float impulse = dt * a * u * (c_pair_sigma[pair] + c_pair_beta[pair] * u);
		impulse = fminf(impulse, u) * c_pair_weight[pair]; /* never more than stops the approach */
		float scale = impulse * inv_dist;
		dvx -= scale * dx;
		dvy -= scale * dy;
		if (THREE) dvz -= scale * dz;
	});
	const pdl_cuda_material m = c_material[p.material[i]];
	p.f[F_DENSITY][i] = rho;
	p.f[F_PRESSURE][i] = m.stiffness * (rho - m.rest_density); /* Clavet eq. 2 and 5 */
	p.f[F_NEAR][i] = m.near_stiffness * rho_near;
	if (viscosity) {
		p.f[F_DVX][i] = dt * dvx;
		p.f[F_DVY][i] = dt * dvy;
		if (THREE) p.f[F_DVZ][i] = dt * dvz;
	}
	return count;
}

/* With neighbours (the frame's last substep) each block adds its particles' neighbour counts
 * there: integers, so the order of the atomic adds changes nothing. */
template <bool THREE, bool HASHED>
__global__ void density_kernel(particles_dev p, int n, grid_dev g, float h, float dt, bool viscosity,
                               unsigned long long* neighbours)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int count = i < n ? density_of<THREE, HASHED>(p, i, g, h, dt, viscosity) : 0;
	if (!neighbours) return; /* the same for the whole block */
	typedef cub::BlockReduce<int, BLOCK> reduce;
	__shared__ typename reduce::TempStorage temp;
	int total = reduce(temp).Sum(count);
	if (threadIdx.x == 0) atomicAdd(neighbours, (unsigned long long)total);
}

/* ---- 5. Relaxation (relax_loops.h, displace_pass): D = dt^2 a (P + P_near a) per pair ------- */

template <bool THREE, bool HASHED>
__global__ void displace_kernel(particles_dev p, float* x2, float* y2, float* z2, int n, grid_dev g, float h,
                                float dt, bool viscosity)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
	const float *pressure = p.f[F_PRESSURE], *near = p.f[F_NEAR];
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0;
	const float pi = pressure[i], pni = near[i], h2 = h * h, inv_h = 1.0f / h, dt2 = dt * dt;
	const int row = p.material[i] * PDL_MAX_MATERIALS;
	const uint32_t id_i = p.id[i];
	float sx = 0, sy = 0, sz = 0;
	for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
		if (j == i) return;
		float dx = px[j] - xi, dy = py[j] - yi, dz = THREE ? pz[j] - zi : 0;
		float r2 = dx * dx + dy * dy + dz * dz;
		if (!(r2 < h2)) return;
		float dist = sqrtf(r2), a = 1.0f - dist * inv_h;
		float d = dt2 * a * ((pi + pressure[j]) + (pni + near[j]) * a) * c_pair_weight[row + p.material[j]];
		if (r2 > 0) {
			float scale = d / dist;
			sx -= scale * dx;
			sy -= scale * dy;
			if (THREE) sz -= scale * dz;
		} else { /* at the same place: the pair's fixed direction (hd.h) */
			pdl_vec3 u = pdl_coincident_direction(id_i, p.id[j], THREE);
			sx -= d * u.x;
			sy -= d * u.y;
			if (THREE) sz -= d * u.z;
		}
	});
	if (viscosity) {
		sx += p.f[F_DVX][i];
		sy += p.f[F_DVY][i];
		if (THREE) sz += p.f[F_DVZ][i];
	}
	x2[i] = xi + sx;
	y2[i] = yi + sy;
	if (THREE) z2[i] = zi + sz;
}

/* ---- 6, 7: walls and velocity ----------------------------------------------------------------- */

template <bool THREE>
__global__ void walls_kernel(particles_dev p, int n, const boundary* walls, int wall_count, float h, float dt)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float x[3] = {p.f[F_X][i], p.f[F_Y][i], THREE ? p.f[F_Z][i] : 0};
	float a[3] = {p.f[F_XP][i], p.f[F_YP][i], THREE ? p.f[F_ZP][i] : 0};
	pdl_wall_particle b = {{x[0], x[1], x[2]}, {a[0], a[1], a[2]},
	                       {(x[0] - a[0]) / dt, (x[1] - a[1]) / dt, (x[2] - a[2]) / dt}, false};
	const pdl_cuda_material m = c_material[p.material[i]];
	pdl_collide_walls(&b, walls, wall_count, m.wall_friction, m.wall_stickiness, m.stick_distance, h, dt, THREE);
	if (!b.touched) return;
	for (int axis = 0; axis < (THREE ? 3 : 2); ++axis) {
		p.f[F_X + axis][i] = b.x[axis];
		p.f[F_XP + axis][i] = b.x[axis] - b.v[axis] * dt; /* x_prev carries the new velocity */
	}
}

template <bool THREE>
__global__ void velocity_kernel(particles_dev p, int n, float dt)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float inv_dt = 1.0f / dt;
	for (int axis = 0; axis < (THREE ? 3 : 2); ++axis)
		p.f[F_VX + axis][i] = (p.f[F_X + axis][i] - p.f[F_XP + axis][i]) * inv_dt;
}

/* ---- SPH (sph.c): density, surface normals, internal forces ---------------------------------
 *
 * The same passes as sph.c's, term for term (its comments give the equations); each a gather. */

typedef struct sph_consts {
	pdl_kernels k;
	float dt, nu, gamma_st, eps; /* substep, viscosity, surface tension, XSPH share */
	bool spiky, tension;
	bool wendland; /* Wendland C2 for W and grad W, else Poly6 (sph.c) */
} sph_consts;

/* The density kernel's shape at distance r (r2 its square; within h), as sph.c's kernel_shape:
 * Wendland C2 (1 - q)^4 (1 + 4q), to be scaled by k.wendland, or Poly6 (h^2 - r^2)^3, by
 * k.poly6. */
__device__ static inline float sph_kernel_shape(const sph_consts& s, float r2, float r)
{
	if (s.wendland) {
		float q = r * (1.0f / s.k.h), d = 1.0f - q, d2 = d * d;
		return (d2 * d2) * (1.0f + 4.0f * q);
	}
	float d = s.k.h2 - r2;
	return (d * d) * d;
}

/* Its gradient's scale s, grad W(x_i - x_j) = s (x_i - x_j), as sph.c's kernel_grad_scale. */
__device__ static inline float sph_kernel_grad_scale(const sph_consts& s, float r2, float r)
{
	if (s.wendland) {
		float d = 1.0f - r * (1.0f / s.k.h);
		return -s.k.wendland_grad * ((d * d) * d);
	}
	float d = s.k.h2 - r2;
	return -s.k.poly6_grad * (d * d);
}

/* 3. rho_i = sum_j m_j W(r_ij) (Wendland C2 or Poly6), i itself included, + the walls;
 * p_i = EOS, >= 0. */
template <bool THREE, bool HASHED>
__device__ static inline int sph_density_of(particles_dev p, int i, const grid_dev& g, const sph_consts& s,
                                            const boundary* walls, int wall_count)
{
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z];
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0, h = s.k.h, h2 = s.k.h2, inv_h = 1.0f / h;
	float sum = 0;
	int count = 0;
	for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
		float dx = px[j] - xi, dy = py[j] - yi, dz = THREE ? pz[j] - zi : 0;
		float r2 = dx * dx + dy * dy + dz * dz;
		if (!(r2 < h2)) return;
		sum += c_mass[p.material[j]] * sph_kernel_shape(s, r2, s.wendland ? sqrtf(r2) : r2);
		count += j != i;
	});
	float rho0 = c_sph_rest[p.material[i]], rho = (s.wendland ? s.k.wendland : s.k.poly6) * sum;
	pdl_sph_wall_contact contacts[PDL_SPH_MAX_CONTACTS];
	const float at[3] = {xi, yi, zi};
	int nw = pdl_sph_wall_contacts(walls, wall_count, at, h, THREE, contacts);
	for (int c = 0; c < nw; ++c) rho += rho0 * pdl_sph_table_at(c_wall_density, contacts[c].d * inv_h);
	float pressure = pdl_sph_pressure(&c_sph, rho, rho0);
	p.f[F_DENSITY][i] = rho;
	p.f[F_PRESSURE][i] = pressure > 0 ? pressure : 0; /* no tensile pull (sph.c) */
	return count;
}

template <bool THREE, bool HASHED>
__global__ void sph_density_kernel(particles_dev p, int n, grid_dev g, sph_consts s, const boundary* walls,
                                   int wall_count, unsigned long long* neighbours)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int count = i < n ? sph_density_of<THREE, HASHED>(p, i, g, s, walls, wall_count) : 0;
	if (!neighbours) return;
	typedef cub::BlockReduce<int, BLOCK> reduce;
	__shared__ typename reduce::TempStorage temp;
	int total = reduce(temp).Sum(count);
	if (threadIdx.x == 0) atomicAdd(neighbours, (unsigned long long)total);
}

/* 4. n_i = h sum_j m_j / rho_j grad W (Akinci 2013 eq. 5), into the DV arrays. */
template <bool THREE, bool HASHED>
__global__ void sph_normals_kernel(particles_dev p, int n, grid_dev g, sph_consts s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z], *rho = p.f[F_DENSITY];
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0, h2 = s.k.h2;
	float nx = 0, ny = 0, nz = 0;
	for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
		if (j == i) return;
		float dx = xi - px[j], dy = yi - py[j], dz = THREE ? zi - pz[j] : 0;
		float r2 = dx * dx + dy * dy + dz * dz;
		if (!(r2 < h2)) return;
		float sc = (c_mass[p.material[j]] / rho[j]) * sph_kernel_grad_scale(s, r2, s.wendland ? sqrtf(r2) : r2);
		nx += sc * dx;
		ny += sc * dy;
		if (THREE) nz += sc * dz;
	});
	p.f[F_DVX][i] = s.k.h * nx;
	p.f[F_DVY][i] = s.k.h * ny;
	if (THREE) p.f[F_DVZ][i] = s.k.h * nz;
}

/* 5. Pressure, viscosity, surface tension and XSPH, the walls' push and friction, then
 * symplectic Euler: v' = v + dt a (+ XSPH), x_prev = x, x' = x + dt v' (into the spares). */
template <bool THREE, bool HASHED>
__global__ void sph_internal_kernel(particles_dev p, particles_dev out, int n, grid_dev g, sph_consts s,
                                    const boundary* walls, int wall_count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const float *px = p.f[F_X], *py = p.f[F_Y], *pz = p.f[F_Z], *pvx = p.f[F_VX], *pvy = p.f[F_VY], *pvz = p.f[F_VZ];
	const float *rho = p.f[F_DENSITY], *pressure = p.f[F_PRESSURE];
	const float *nxs = p.f[F_DVX], *nys = p.f[F_DVY], *nzs = p.f[F_DVZ];
	const pdl_kernels& k = s.k;
	const float h = k.h, h2 = k.h2, inv_h = 1.0f / h, inv_h2 = 1.0f / k.h2, dt = s.dt;
	const float h6_64 = k.h2 * k.h2 * k.h2 / 64.0f, half_h = 0.5f * h;
	const float kernel_c = s.wendland ? k.wendland : k.poly6;
	const float xi = px[i], yi = py[i], zi = THREE ? pz[i] : 0;
	const float vxi = pvx[i], vyi = pvy[i], vzi = THREE ? pvz[i] : 0, rhoi = rho[i];
	const int mi = p.material[i];
	const float pi_term = pressure[i] / (rhoi * rhoi), rho0i = c_sph_rest[mi];
	const float nxi = s.tension ? nxs[i] : 0, nyi = s.tension ? nys[i] : 0, nzi = s.tension && THREE ? nzs[i] : 0;
	const uint32_t id_i = p.id[i];
	float ax = 0, ay = 0, az = 0, lapx = 0, lapy = 0, lapz = 0, smx = 0, smy = 0, smz = 0;
	float same_place[3] = {0, 0, 0};
	for_neighbour_candidates<THREE, HASHED>(g, xi, yi, zi, [&](int j) {
		if (j == i) return;
		float dx = xi - px[j], dy = yi - py[j], dz = THREE ? zi - pz[j] : 0;
		float r2 = dx * dx + dy * dy + dz * dz;
		if (!(r2 < h2)) return;
		float dist = sqrtf(r2), hr = h - dist, rhoj = rho[j];
		int mj_index = p.material[j];
		float mj = c_mass[mj_index], sym = (2.0f * mj) / (rhoi + rhoj);
		float grad = s.spiky ? k.spiky_grad * (hr * hr) : (0.0f - sph_kernel_grad_scale(s, r2, dist)) * dist;
		float fp = (mj * (pi_term + pressure[j] / (rhoj * rhoj))) * grad;
		fp = fp * (0.5f * (c_sph_correction[mi] + c_sph_correction[mj_index])); /* sph.c's L_ij */
		float coh = 0;
		if (s.tension) { /* Akinci's spline, the inner branch below h / 2 */
			float a = hr * dist, s3 = (a * a) * a;
			float spline = dist < half_h ? 2.0f * s3 - h6_64 : s3;
			coh = sym * (k.cohesion * spline);
		}
		float along = fp - s.gamma_st * coh;
		if (r2 > 0) {
			float scale = along / dist;
			ax += scale * dx;
			ay += scale * dy;
			if (THREE) az += scale * dz;
		} else { /* the pair's fixed direction from i to j (hd.h) */
			pdl_vec3 u = pdl_coincident_direction(id_i, p.id[j], THREE);
			same_place[0] -= along * u.x;
			same_place[1] -= along * u.y;
			if (THREE) same_place[2] -= along * u.z;
		}
		float dvx = pvx[j] - vxi, dvy = pvy[j] - vyi, dvz = THREE ? pvz[j] - vzi : 0;
		float lv = sym * (k.viscosity_lap * hr), ws = sym * (kernel_c * sph_kernel_shape(s, r2, dist));
		lapx += lv * dvx;
		lapy += lv * dvy;
		smx += ws * dvx;
		smy += ws * dvy;
		if (THREE) {
			lapz += lv * dvz;
			smz += ws * dvz;
		}
		if (s.tension) {
			float curv = ((rho0i + c_sph_rest[mj_index]) / (rhoi + rhoj)) * (sym * inv_h2);
			ax -= s.gamma_st * (curv * (nxi - nxs[j]));
			ay -= s.gamma_st * (curv * (nyi - nys[j]));
			if (THREE) az -= s.gamma_st * (curv * (nzi - nzs[j]));
		}
	});
	float f[3] = {ax + same_place[0] + s.nu * lapx, ay + same_place[1] + s.nu * lapy,
	              THREE ? az + same_place[2] + s.nu * lapz : 0};
	pdl_sph_wall_contact contacts[PDL_SPH_MAX_CONTACTS];
	const float at[3] = {xi, yi, zi};
	int nw = pdl_sph_wall_contacts(walls, wall_count, at, h, THREE, contacts);
	float push[PDL_SPH_MAX_CONTACTS];
	for (int c = 0; c < nw; ++c) {
		push[c] = pi_term * rho0i * pdl_sph_table_at(c_wall_force, contacts[c].d * inv_h) * inv_h;
		for (int e = 0; e < 3; ++e) f[e] += push[c] * contacts[c].n[e];
	}
	float v[3] = {vxi + dt * f[0] + s.eps * smx, vyi + dt * f[1] + s.eps * smy,
	              THREE ? vzi + dt * f[2] + s.eps * smz : 0};
	pdl_sph_wall_friction(v, contacts, push, nw, walls, c_material[mi].wall_friction, dt, THREE);
	const float x[3] = {xi, yi, zi};
	for (int axis = 0; axis < (THREE ? 3 : 2); ++axis) {
		out.f[F_VX + axis][i] = v[axis];
		p.f[F_XP + axis][i] = x[axis];
		out.f[F_X + axis][i] = x[axis] + dt * v[axis];
	}
}

/* The largest squared speed (SPH's next CFL step): floats >= 0 order as their bits; NaN counts
 * as 0, as the host's loop skips it. */
template <bool THREE>
__global__ void fastest_kernel(particles_dev p, int n, unsigned int* fastest)
{
	typedef cub::BlockReduce<float, BLOCK> reduce;
	__shared__ typename reduce::TempStorage temp;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v2 = 0;
	if (i < n) {
		float vx = p.f[F_VX][i], vy = p.f[F_VY][i], vz = THREE ? p.f[F_VZ][i] : 0;
		v2 = vx * vx + vy * vy + (THREE ? vz * vz : 0);
		if (!(v2 > 0)) v2 = 0;
	}
	float top = reduce(temp).Reduce(v2, cuda::maximum<float>{});
	if (threadIdx.x == 0) atomicMax(fastest, __float_as_uint(top));
}

/* ---- The step ----------------------------------------------------------------------------- */

/* Swaps the arrays of field, field + 1 (and field + 2 in 3D: x, y, z or vx, vy, vz) with their
 * spares, after a kernel wrote the new values there. */
static void swap_with_spares(pdl_cuda* c, int field, bool three)
{
	for (int axis = 0; axis < (three ? 3 : 2); ++axis) {
		float* t = c->p.f[field + axis];
		c->p.f[field + axis] = c->spare.f[field + axis];
		c->spare.f[field + axis] = t;
	}
}

/* Sorts the particles into cells of size h: bounding box, keys, radix sort, gather, ranges. */
/* The springs follow their particles into the sort's order: slot s of new particle k is old
 * particle slot[k]'s, its partner renamed to the partner's new index (pdl_particles_permute). */
__global__ void inverse_kernel(const uint32_t* slot, int n, int32_t* inverse)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k < n) inverse[slot[k]] = k;
}

__global__ void springs_permute_kernel(const uint32_t* slot, const int32_t* inverse, int n, const int32_t* partner,
                                       const float* rest, int32_t* partner_to, float* rest_to)
{
	long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= (long long)n * SPRING_SLOTS) return;
	int k = (int)(t / SPRING_SLOTS), s = (int)(t % SPRING_SLOTS);
	size_t from = (size_t)slot[k] * SPRING_SLOTS + s;
	int32_t j = partner[from];
	partner_to[t] = j >= 0 ? inverse[j] : -1;
	rest_to[t] = rest[from];
}

template <bool THREE>
static bool build_grid(pdl_cuda* c, int n, float h, bool springs, grid_dev* g, char* why, int size)
{
	int blocks = (n + BLOCK - 1) / BLOCK;
	const unsigned int start[6] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0, 0, 0};
	CUDA_TRY(cudaMemcpy(c->bounds, start, sizeof start, cudaMemcpyHostToDevice));
	bounds_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, c->bounds);
	unsigned int got[6];
	CUDA_TRY(cudaMemcpy(got, c->bounds, sizeof got, cudaMemcpyDeviceToHost));
	memset(g, 0, sizeof *g);
	g->inv_cell = 1.0f / h;
	double cells = 1;
	for (int axis = 0; axis < 3; ++axis) {
		bool used = axis < (THREE ? 3 : 2) && got[axis] != 0xffffffffu;
		float lo = used ? from_ordered(got[axis]) : 0, hi = used ? from_ordered(got[3 + axis]) : 0;
		g->lo[axis] = lo;
		double span = floor(((double)hi - (double)lo) / (double)h) + 1;
		g->n[axis] = axis < (THREE ? 3 : 2) ? (int)(span < 2e9 ? span : 2e9) : 1;
		cells *= axis < (THREE ? 3 : 2) ? span : 1;
	}
	size_t keys;
	if (cells <= 4.0 * n + 4096) {
		keys = (size_t)cells;
	} else {
		g->hashed = true;
		keys = 1024;
		while (keys < 2 * (size_t)n) keys *= 2;
		g->mask = (uint32_t)keys - 1;
		g->max_cell = 1 << 30;
	}
	if (!reserve_cells(c, keys, why, size)) return false;
	int bits = 1;
	while (bits < 32 && ((size_t)1 << bits) < keys) ++bits;
	keys_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, *g, c->key, c->slot);
	CUDA_TRY(cub::DeviceRadixSort::SortPairs(c->sort_temp, c->sort_temp_bytes, c->key, c->key_sorted, c->slot,
	                                         c->slot_sorted, n, 0, bits));
	permute_kernel<THREE><<<blocks, BLOCK>>>(c->p, c->spare, n, c->slot_sorted);
	for (int k = 0; k < F_SORTED; ++k) {
		float* t = c->p.f[k];
		c->p.f[k] = c->spare.f[k];
		c->spare.f[k] = t;
	}
	uint8_t* tm = c->p.material;
	c->p.material = c->spare.material, c->spare.material = tm;
	uint32_t* ti = c->p.id;
	c->p.id = c->spare.id, c->spare.id = ti;
	if (springs) {
		inverse_kernel<<<blocks, BLOCK>>>(c->slot_sorted, n, c->inverse);
		long long slots = (long long)n * SPRING_SLOTS;
		springs_permute_kernel<<<(unsigned)((slots + BLOCK - 1) / BLOCK), BLOCK>>>(
			c->slot_sorted, c->inverse, n, c->partner, c->rest, c->partner_spare, c->rest_spare);
		int32_t* tp = c->partner;
		c->partner = c->partner_spare, c->partner_spare = tp;
		float* tr = c->rest;
		c->rest = c->rest_spare, c->rest_spare = tr;
	}
	CUDA_TRY(cudaMemsetAsync(c->cell_start, 0, keys * sizeof(uint32_t)));
	CUDA_TRY(cudaMemsetAsync(c->cell_end, 0, keys * sizeof(uint32_t)));
	cell_ranges_kernel<<<blocks, BLOCK>>>(c->key_sorted, n, c->cell_start, c->cell_end);
	g->start = c->cell_start;
	g->end = c->cell_end;
	CUDA_TRY(cudaGetLastError());
	return true;
}

static float elapsed(pdl_cuda* c, int from, int to)
{
	float ms = 0;
	cudaEventElapsedTime(&ms, c->events[from], c->events[to]);
	return ms;
}

/* After a substep's kernels (events 0, 1, 2, 7, 3, 4, 5, 6 recorded between its stages, in that
 * order): waits for them and adds each stage's GPU time to the profile. */
static bool book_substep(pdl_cuda* c, pdl_profile* prof, char* why, int size)
{
	cudaEventRecord(c->events[6]);
	CUDA_TRY(cudaEventSynchronize(c->events[6]));
	CUDA_TRY(cudaGetLastError());
	prof->forces += elapsed(c, 0, 1);
	prof->predict += elapsed(c, 1, 2);
	prof->springs += elapsed(c, 2, 7);
	prof->density += elapsed(c, 7, 3);
	prof->relax += elapsed(c, 3, 4);
	prof->boundaries += elapsed(c, 4, 5);
	prof->velocity += elapsed(c, 5, 6);
	return true;
}

template <bool THREE>
static bool run_substeps(pdl_cuda* c, const pdl_cuda_frame* f, pdl_profile* prof, char* why, int size)
{
	const int n = f->count, blocks = (n + BLOCK - 1) / BLOCK;
	bool any_pointer = false;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k) any_pointer |= f->pointer_active[k];
	for (int sub = 0; sub < f->substeps; ++sub) {
		bool last = sub == f->substeps - 1;
		cudaEventRecord(c->events[0]);
		forces_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, f->dt, f->gravity.x, f->gravity.y, f->gravity.z, any_pointer);
		cudaEventRecord(c->events[1]);
		predict_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, f->dt);
		grid_dev g;
		if (!build_grid<THREE>(c, n, f->h, f->spring_partner != NULL, &g, why, size)) return false;
		cudaEventRecord(c->events[2]);
		if (f->spring_partner) { /* 3. springs: displacements into the spares, then new springs */
			float *x2 = c->spare.f[F_X], *y2 = c->spare.f[F_Y], *z2 = c->spare.f[F_Z];
			springs_kernel<THREE><<<blocks, BLOCK>>>(c->p, c->partner, c->rest, x2, y2, z2, n, f->h, f->dt);
			if (f->make_springs) { /* from the positions before the springs moved them */
				if (g.hashed)
					propose_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, c->partner, c->proposals, c->proposal_count, n, g, f->h);
				else
					propose_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, c->partner, c->proposals, c->proposal_count, n, g, f->h);
				accept_kernel<THREE><<<blocks, BLOCK>>>(c->p, c->partner, c->rest, c->proposals, c->proposal_count, n);
			}
			swap_with_spares(c, F_X, THREE);
		}
		cudaEventRecord(c->events[7]);
		if (last) CUDA_TRY(cudaMemsetAsync(c->neighbours, 0, sizeof(unsigned long long)));
		unsigned long long* neighbours = last ? c->neighbours : NULL;
		if (g.hashed)
			density_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, n, g, f->h, f->dt, f->any_viscosity, neighbours);
		else
			density_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, n, g, f->h, f->dt, f->any_viscosity, neighbours);
		cudaEventRecord(c->events[3]);
		float *x2 = c->spare.f[F_X], *y2 = c->spare.f[F_Y], *z2 = c->spare.f[F_Z];
		if (g.hashed)
			displace_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, x2, y2, z2, n, g, f->h, f->dt, f->any_viscosity);
		else
			displace_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, x2, y2, z2, n, g, f->h, f->dt, f->any_viscosity);
		swap_with_spares(c, F_X, THREE);
		cudaEventRecord(c->events[4]);
		if (f->wall_count > 0) walls_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, c->walls, f->wall_count, f->h, f->dt);
		cudaEventRecord(c->events[5]);
		velocity_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, f->dt);
		if (!book_substep(c, prof, why, size)) return false;
	}
	return true;
}

/* One SPH substep after another (sph.c, pdl_sph_step): forces, the grid at x, density, normals
 * (with surface tension), internal forces and symplectic Euler, walls, velocity. The stages are
 * booked as the CPU's: the grid under predict, the normals under density, the internal pass
 * under relax. */
template <bool THREE>
static bool run_sph_substeps(pdl_cuda* c, const pdl_cuda_frame* f, pdl_profile* prof, char* why, int size)
{
	const int n = f->count, blocks = (n + BLOCK - 1) / BLOCK;
	bool any_pointer = false;
	for (int k = 0; k < PDL_MAX_POINTERS; ++k) any_pointer |= f->pointer_active[k];
	sph_consts s = {f->kernels, f->dt, f->sph.viscosity, f->sph.surface_tension, f->xsph,
	                f->sph.pressure_kernel == PDL_SPH_PRESSURE_SPIKY, f->sph.surface_tension > 0,
	                f->sph.pressure_kernel == PDL_SPH_PRESSURE_WENDLAND};
	for (int sub = 0; sub < f->substeps; ++sub) {
		bool last = sub == f->substeps - 1;
		cudaEventRecord(c->events[0]);
		forces_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, f->dt, f->gravity.x, f->gravity.y, f->gravity.z, any_pointer);
		cudaEventRecord(c->events[1]);
		grid_dev g;
		if (!build_grid<THREE>(c, n, f->h, f->spring_partner != NULL, &g, why, size)) return false;
		cudaEventRecord(c->events[2]);
		cudaEventRecord(c->events[7]); /* no springs in SPH */
		if (last) CUDA_TRY(cudaMemsetAsync(c->neighbours, 0, sizeof(unsigned long long)));
		unsigned long long* neighbours = last ? c->neighbours : NULL;
		if (g.hashed) {
			sph_density_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, n, g, s, c->walls, f->wall_count, neighbours);
			if (s.tension) sph_normals_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, n, g, s);
		} else {
			sph_density_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, n, g, s, c->walls, f->wall_count, neighbours);
			if (s.tension) sph_normals_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, n, g, s);
		}
		cudaEventRecord(c->events[3]);
		if (g.hashed)
			sph_internal_kernel<THREE, true><<<blocks, BLOCK>>>(c->p, c->spare, n, g, s, c->walls, f->wall_count);
		else
			sph_internal_kernel<THREE, false><<<blocks, BLOCK>>>(c->p, c->spare, n, g, s, c->walls, f->wall_count);
		swap_with_spares(c, F_X, THREE);
		swap_with_spares(c, F_VX, THREE);
		cudaEventRecord(c->events[4]);
		if (f->wall_count > 0) walls_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, c->walls, f->wall_count, f->h, f->dt);
		cudaEventRecord(c->events[5]);
		velocity_kernel<THREE><<<blocks, BLOCK>>>(c->p, n, f->dt);
		if (!book_substep(c, prof, why, size)) return false;
	}
	return true;
}

extern "C" bool pdl_cuda_step(pdl_cuda* c, const pdl_cuda_frame* f, pdl_profile* prof, char* why, int size)
{
	const int n = f->count;
	const bool three = f->three;
	if (n == 0) return true;
	if (!reserve(c, n, three, why, size)) return false;
	{
		float* const arrays[] = {f->x, f->y, f->z, f->vx, f->vy, f->vz, f->density, f->pressure};
		for (int k = 0; k < 8; ++k) pin(c, arrays[k], (size_t)f->capacity * sizeof(float));
		pin(c, f->material, (size_t)f->capacity);
		pin(c, f->id, (size_t)f->capacity * sizeof(uint32_t));
		pin(c, f->spring_partner, (size_t)f->capacity * SPRING_SLOTS * sizeof(int32_t));
		pin(c, f->spring_rest, (size_t)f->capacity * SPRING_SLOTS * sizeof(float));
	}
	if (f->wall_count > c->wall_capacity) {
		cudaFree(c->walls);
		c->walls = NULL;
		c->wall_capacity = 0;
		CUDA_TRY(cudaMalloc(&c->walls, (size_t)f->wall_count * sizeof(boundary)));
		c->wall_capacity = f->wall_count;
	}
	int active[PDL_MAX_POINTERS];
	for (int k = 0; k < PDL_MAX_POINTERS; ++k) active[k] = f->pointer_active[k];
	const size_t table = sizeof(float) * PDL_MAX_MATERIALS * PDL_MAX_MATERIALS;
	CUDA_TRY(cudaMemcpyToSymbol(c_material, f->materials, sizeof f->materials));
	CUDA_TRY(cudaMemcpyToSymbol(c_pair_weight, f->pair_weight, table));
	CUDA_TRY(cudaMemcpyToSymbol(c_pair_sigma, f->pair_sigma, table));
	CUDA_TRY(cudaMemcpyToSymbol(c_pair_beta, f->pair_beta, table));
	CUDA_TRY(cudaMemcpyToSymbol(c_pointer, f->pointers, sizeof(pdl_pointer) * PDL_MAX_POINTERS));
	CUDA_TRY(cudaMemcpyToSymbol(c_pointer_active, active, sizeof active));
	if (f->wall_count > 0)
		CUDA_TRY(cudaMemcpy(c->walls, f->walls, (size_t)f->wall_count * sizeof(boundary), cudaMemcpyHostToDevice));

	/* To the GPU, where the host's particles changed since the GPU last had them (or the GPU
	 * lost them): what the step reads. x_prev and the densities it writes before reading. */
	const bool springs = f->spring_partner != NULL;
	if (springs && !reserve_springs(c, why, size)) return false;
	if (f->upload || c->resident != n || (springs && !c->resident_springs)) {
		cudaEventRecord(c->events[0]);
		if (springs) {
			CUDA_TRY(cudaMemcpy(c->partner, f->spring_partner, (size_t)n * SPRING_SLOTS * sizeof(int32_t), cudaMemcpyHostToDevice));
			CUDA_TRY(cudaMemcpy(c->rest, f->spring_rest, (size_t)n * SPRING_SLOTS * sizeof(float), cudaMemcpyHostToDevice));
		}
		float* const host_in[] = {f->x, f->y, f->z, f->vx, f->vy, f->vz};
		const int in_fields[] = {F_X, F_Y, F_Z, F_VX, F_VY, F_VZ};
		for (int k = 0; k < 6; ++k)
			if (three || !is_z_field(in_fields[k]))
				CUDA_TRY(cudaMemcpy(c->p.f[in_fields[k]], host_in[k], (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
		CUDA_TRY(cudaMemcpy(c->p.material, f->material, (size_t)n, cudaMemcpyHostToDevice));
		CUDA_TRY(cudaMemcpy(c->p.id, f->id, (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice));
		cudaEventRecord(c->events[7]);
		CUDA_TRY(cudaEventSynchronize(c->events[7]));
		prof->transfer += elapsed(c, 0, 7);
	}
	c->resident = -1; /* until the host has the result */

	const bool sph = f->solver == PDL_SOLVER_SPH;
	if (sph) {
		CUDA_TRY(cudaMemcpyToSymbol(c_mass, f->mass, sizeof f->mass));
		CUDA_TRY(cudaMemcpyToSymbol(c_sph_rest, f->sph_rest_density, sizeof f->sph_rest_density));
		CUDA_TRY(cudaMemcpyToSymbol(c_sph_correction, f->sph_correction, sizeof f->sph_correction));
		CUDA_TRY(cudaMemcpyToSymbol(c_wall_density, f->wall_density, sizeof(float) * (PDL_SPH_WALL_TABLE + 1)));
		CUDA_TRY(cudaMemcpyToSymbol(c_wall_force, f->wall_force, sizeof(float) * (PDL_SPH_WALL_TABLE + 1)));
		CUDA_TRY(cudaMemcpyToSymbol(c_sph, &f->sph, sizeof f->sph));
	}
	bool ran = sph ? (three ? run_sph_substeps<true>(c, f, prof, why, size) : run_sph_substeps<false>(c, f, prof, why, size))
	               : (three ? run_substeps<true>(c, f, prof, why, size) : run_substeps<false>(c, f, prof, why, size));
	if (!ran) return false;
	if (sph) { /* the fastest particle now, for the next frame's CFL rule */
		unsigned int bits = 0;
		CUDA_TRY(cudaMemsetAsync(c->fastest, 0, sizeof(unsigned int)));
		if (three) fastest_kernel<true><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(c->p, n, c->fastest);
		else fastest_kernel<false><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(c->p, n, c->fastest);
		CUDA_TRY(cudaMemcpy(&bits, c->fastest, sizeof bits, cudaMemcpyDeviceToHost));
		memcpy(f->fastest, &bits, sizeof bits);
	}

	/* Back: what the world keeps and shows, in the GPU grid's order. */
	cudaEventRecord(c->events[0]);
	float* const host_out[] = {f->x, f->y, f->z, f->vx, f->vy, f->vz, f->density, f->pressure};
	const int out_fields[] = {F_X, F_Y, F_Z, F_VX, F_VY, F_VZ, F_DENSITY, F_PRESSURE};
	for (int k = 0; k < 8; ++k)
		if (three || !is_z_field(out_fields[k]))
			CUDA_TRY(cudaMemcpy(host_out[k], c->p.f[out_fields[k]], (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
	CUDA_TRY(cudaMemcpy(f->material, c->p.material, (size_t)n, cudaMemcpyDeviceToHost));
	CUDA_TRY(cudaMemcpy(f->id, c->p.id, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
	if (springs) {
		CUDA_TRY(cudaMemcpy(f->spring_partner, c->partner, (size_t)n * SPRING_SLOTS * sizeof(int32_t), cudaMemcpyDeviceToHost));
		CUDA_TRY(cudaMemcpy(f->spring_rest, c->rest, (size_t)n * SPRING_SLOTS * sizeof(float), cudaMemcpyDeviceToHost));
	}
	cudaEventRecord(c->events[7]);
	CUDA_TRY(cudaEventSynchronize(c->events[7]));
	prof->transfer += elapsed(c, 0, 7);
	c->resident = n;
	c->resident_springs = springs;
	return true;
}

extern "C" bool pdl_cuda_mean_neighbours(pdl_cuda* c, int n, float* mean)
{
	unsigned long long pairs = 0;
	if (!c || n <= 0 || cudaMemcpy(&pairs, c->neighbours, sizeof pairs, cudaMemcpyDeviceToHost) != cudaSuccess)
		return false;
	*mean = (float)((double)pairs / n);
	return true;
}
