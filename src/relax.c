/* Stage 5: double density relaxation, Clavet 2005 algorithm 2.
 *
 * Density and near density from the neighbours within h (q = r/h):
 *     rho_i = sum_j (1 - q)^2        rho_near_i = sum_j (1 - q)^3              (eq. 1, 4)
 *     P_i = k (rho_i - rho0)         P_near_i = k_near rho_near_i              (eq. 2, 5)
 * and for each pair a displacement along r^_ij (from i to j)
 *     D = dt^2 ((P_i + P_j) (1 - q) + (P_near_i + P_near_j) (1 - q)^2) r^_ij
 * that moves i by -D m_j / (m_i + m_j) and j by +D m_i / (m_i + m_j).
 *
 * The paper sweeps particles one at a time, moving neighbours as it goes; its total pair
 * displacement is the sum of the two halves from i's and j's turns, which is the symmetric
 * (P_i + P_j) form above. Computing every particle's displacement from frozen positions
 * (Jacobi) makes the result independent of order and thread count, and exactly
 * antisymmetric per pair, so m_i dx_i + m_j dx_j = 0 and momentum is conserved. Splitting by
 * inverse mass makes heavy particles move less than light ones, so they sink through them
 * (the stratification of the Rust stratification demo). k and k_near are accelerations
 * (length / s^2): the displacement per step is dt^2 times them, so the fluid is the same at any
 * dt.
 *
 * Two passes over the neighbour pairs: the first sums the densities and, in the same loop, the
 * viscosity impulses (viscosity.h); the second moves each particle by its relaxation
 * displacement plus dt times its viscosity velocity change. On a dense grid each pass visits
 * every pair once and adds to both particles (relax_loops.h, second half); on a hashed grid
 * each particle gathers from all its neighbours (first half). */

#define RELAX_LOOP(name) pdl_##name
#include "relax_loops.h"

#include <stdlib.h>
#include <string.h>

/* The loops of each backend, [3D][kind]: kind 0 density, 1 density and viscosity, 2
 * displacement over every particle's neighbours; 3, 4, 5 the same over each pair once. One list
 * of the names (dim: nothing or _3d; sfx: the copy), applied by F to make a table row or the
 * declarations. */
#define LOOP_KINDS(F, dim, sfx)                                                                \
	F(pdl_density_range##dim##sfx) F(pdl_density_viscosity_range##dim##sfx)                   \
	F(pdl_displace_range##dim##sfx) F(pdl_density_pairs##dim##sfx)                           \
	F(pdl_density_viscosity_pairs##dim##sfx) F(pdl_displace_pairs##dim##sfx)
#define LOOP_ENTRY(name) name,
#define LOOP_TABLE(sfx) {{LOOP_KINDS(LOOP_ENTRY, , sfx)}, {LOOP_KINDS(LOOP_ENTRY, _3d, sfx)}}

/* The AVX2 and AVX-512VL copies of the loops (relax_avx2.c, relax_avx512.c). */
#if PDL_HAVE_AVX2_LOOPS
#define DECLARE_LOOP(name) void name(void* ctx, int begin, int end);
#define DECLARE_COPY(sfx) LOOP_KINDS(DECLARE_LOOP, , sfx) LOOP_KINDS(DECLARE_LOOP, _3d, sfx)
DECLARE_COPY(_avx2)
DECLARE_COPY(_avx512)
/* by pdl_loops, then [3D][kind] */
static pdl_task_fn* const loop_copies[][2][6] = {LOOP_TABLE(), LOOP_TABLE(_avx2), LOOP_TABLE(_avx512)};

pdl_loops pdl_best_loops(void)
{
	const char* cap = getenv("PUDDLE_SIMD");
	if (cap && strcmp(cap, "baseline") == 0) return PDL_LOOPS_BASELINE;
	if (!__builtin_cpu_supports("avx2")) return PDL_LOOPS_BASELINE;
	if (cap && strcmp(cap, "avx2") == 0) return PDL_LOOPS_AVX2;
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return PDL_LOOPS_AVX512;
	return PDL_LOOPS_AVX2;
}
#else
static pdl_task_fn* const loop_copies[][2][6] = {LOOP_TABLE()};
pdl_loops pdl_best_loops(void) { return PDL_LOOPS_BASELINE; }
#endif

const char* pdl_vector_loops(void)
{
	static const char* const names[] = {"baseline", "avx2", "avx512vl"};
	return names[pdl_best_loops()];
}

/* The loops for this world's dimensions and processor. */
static pdl_task_fn* const* loops_of(const pdl_world* w) { return loop_copies[w->loops][PDL_IS_3D(w)]; }

/* A pass over each pair once on a dense grid, as one job for all threads. The slabs' order
 * rule (relax_loops.h): the even slabs s - 1 and s + 1 take their turns before the odd slab s,
 * because an even slab clears and adds to its own slots and the next slab's, and the odd slab s
 * then adds to s and s + 1 and finishes both. Nothing else orders the turns: even slabs never
 * share slots, nor do odd ones. So instead of all even slabs, a join, then all odd slabs, every
 * thread claims even slabs until none is left, then odd ones, and an odd slab waits for the
 * flags of its two even neighbours (slab_done) before it starts. A slab's turn is the same code
 * on the same sums in the same order whichever thread runs it, so the result is bitwise the
 * same for any thread count.
 *
 * Thread t first claims from its own segment: the slabs of about its share of the particles,
 * contiguous and cut before an even slab, so that it finds them in its cache, and so that each
 * odd slab follows, on the same thread, the even slab that has just cleared and added to its
 * sums. It then helps with the other segments' even slabs, and with their odd slabs whose even
 * slab is done (one whose even slab is still running is left to that thread, which takes it
 * next). Cut between an even slab and the odd one before it, or with that odd slab stolen
 * before its even slab was done, the 1k dam break's two threads ran 5-15% slower than with two
 * joins a pass: its 3 slabs are 2, 2 and 1 rows of cells, and the odd one's sums were then in
 * the other core's cache.
 *
 * Against two joins a pass, with each half's slabs split by count: one join; a thread moves on to
 * odd slabs while the other still finishes its even ones, so they balance over the whole pass,
 * not over each half. The 3D 10k dam break's half passes had 5-12 slabs of unequal sizes, and
 * their scheduling alone lost 8% (simulated from the slab sizes of 200 steps).
 *
 * The pass is one pdl_pool_for job of one item per thread, item t running thread t's claims
 * above. A thread that is late (asleep, or without a core) leaves its item to the others,
 * which run it after their own and find what is left to claim, so the pass never waits for a
 * thread that holds nothing. One thread may thus run two items; that cannot deadlock, because
 * an odd slab waits only for even slabs, every even slab is claimed before any odd one, and an
 * even turn never waits. */

/* Thread t's share of a pass's even (odd) slabs, claimed one at a time: its own first, then,
 * once they are gone, what is left of the others'. Each on its own cache line: the threads
 * claim concurrently. Threads past SLAB_SEGMENTS only help. */
enum { SLAB_SEGMENTS = 64 };
typedef struct slab_segment {
	_Alignas(64) atomic_int next;
	int end;
} slab_segment;

typedef struct slab_pass {
	pdl_stage_job even, odd;
	pdl_task_fn* turn; /* the loop for one slab: item k is slab 2 k + parity */
	int segments;      /* threads, at most SLAB_SEGMENTS */
	slab_segment claims[2][SLAB_SEGMENTS]; /* by parity; items k: slab 2 k + parity */
	atomic_int* slab_done; /* the grid's: 1 once an even slab's turn is over */
} slab_pass;

/* The next even slab for thread t: from its own segment, else from the others'. */
static int claim_even(slab_pass* sp, int t)
{
	for (int k = 0; k < sp->segments; ++k) {
		slab_segment* seg = &sp->claims[0][(t + k) % sp->segments];
		int item = atomic_fetch_add_explicit(&seg->next, 1, memory_order_relaxed);
		if (item < seg->end) return item;
	}
	return -1;
}

/* The next odd slab for thread t: from its own segment, else one of the others' whose even
 * slab before it is done. One whose even slab is still running is left to that slab's thread,
 * which holds the sums the odd slab adds to (and will take it next). */
static int claim_odd(slab_pass* sp, int t)
{
	slab_segment* own = &sp->claims[1][t % sp->segments];
	int item = atomic_fetch_add_explicit(&own->next, 1, memory_order_relaxed);
	if (item < own->end) return item;
	for (int k = 1; k < sp->segments; ++k) {
		slab_segment* seg = &sp->claims[1][(t + k) % sp->segments];
		item = atomic_load_explicit(&seg->next, memory_order_relaxed);
		while (item < seg->end && atomic_load_explicit(&sp->slab_done[2 * item], memory_order_relaxed))
			if (atomic_compare_exchange_weak_explicit(&seg->next, &item, item + 1, memory_order_relaxed,
			                                          memory_order_relaxed))
				return item;
	}
	return -1;
}

static void slab_pass_thread(void* ctx, int t, int unused)
{
	(void)unused;
	slab_pass* sp = ctx;
	pdl_pool* pool = sp->even.w->pool;
	const int count = sp->even.w->grid.slab_count;
	for (int k; (k = claim_even(sp, t)) >= 0;) {
		sp->turn(&sp->even, k, k + 1);
		pdl_pool_post(pool, &sp->slab_done[2 * k], 1);
		pdl_pool_ask_for_help(pool);
	}
	/* every even slab is claimed now, and a thread never waits during an even turn, so the
	 * flags below are set or soon will be */
	for (int k; (k = claim_odd(sp, t)) >= 0;) {
		int s = 2 * k + 1;
		pdl_pool_wait(pool, &sp->slab_done[s - 1], 1);
		if (s + 1 < count) pdl_pool_wait(pool, &sp->slab_done[s + 1], 1);
		sp->turn(&sp->odd, k, k + 1);
		pdl_pool_ask_for_help(pool);
	}
}

/* The first slot of the slabs 2 k and 2 k + 1 (k = (slab_count + 1) / 2: the end). */
static int pair_start(const pdl_grid* g, int k)
{
	return g->slab_start[2 * k < g->slab_count ? 2 * k : g->slab_count];
}

/* Runs a pass: over each pair once on a dense grid (above); else (a hashed grid, whose slots
 * are not in spatial order) over every particle's neighbours. */
static void run_pass(pdl_world* w, float dt, int kind)
{
	const pdl_grid* g = &w->grid;
	if (!g->dense || w->gather_passes) {
		pdl_stage_job job = {.w = w, .dt = dt};
		pdl_pool_for(w->pool, w->p.count, 256, loops_of(w)[kind], &job);
		return;
	}
	slab_pass sp = {.even = {.w = w, .dt = dt, .parity = 0}, .odd = {.w = w, .dt = dt, .parity = 1},
	                .turn = loops_of(w)[kind + 3], .segments = pdl_pool_threads(w->pool),
	                .slab_done = g->slab_done};
	if (sp.segments > SLAB_SEGMENTS) sp.segments = SLAB_SEGMENTS;
	for (int s = 0; s < g->slab_count; ++s) atomic_init(&sp.slab_done[s], 0);
	/* Segment t: the even slabs 2 k and odd slabs 2 k + 1 for k in [lo, hi), where slab 2 lo
	 * starts nearest t n / segments particles. */
	int n = w->p.count, pairs = (g->slab_count + 1) / 2, k = 0, lo = 0;
	for (int t = 0; t < sp.segments; ++t) {
		int hi = pairs;
		if (t + 1 < sp.segments) {
			long long share = (long long)n * (t + 1) / sp.segments;
			while (k < pairs && pair_start(g, k + 1) <= share) ++k;
			/* pair k starts at or before share, pair k + 1 after it: the nearer */
			hi = k < pairs && pair_start(g, k + 1) - share < share - pair_start(g, k) ? k + 1 : k;
			if (hi < lo) hi = lo;
		}
		atomic_init(&sp.claims[0][t].next, lo);
		sp.claims[0][t].end = hi;
		atomic_init(&sp.claims[1][t].next, lo);
		sp.claims[1][t].end = hi < g->slab_count / 2 ? hi : g->slab_count / 2;
		lo = hi;
	}
	pdl_pool_for(w->pool, pdl_pool_threads(w->pool), 1, slab_pass_thread, &sp);
}

void pdl_stage_density(pdl_world* w, float dt) { run_pass(w, dt, w->any_viscosity ? 1 : 0); }

void pdl_stage_relax(pdl_world* w, float dt)
{
	particles* p = &w->p;
	run_pass(w, dt, 2);
	float* t;
	t = p->x; p->x = p->x2; p->x2 = t;
	t = p->y; p->y = p->y2; p->y2 = t;
	t = p->z; p->z = p->z2; p->z2 = t;
}
